"""No module of library code binds the same constant twice: the second binding silently replaces the first for
every use in the module, so a threshold tuned for one rule ends up governing another."""

from __future__ import annotations

import ast
import re
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).parents[1]
PACKAGES = ("schemas", "testgen", "evaluators")
_CONSTANT = re.compile(r"_?[A-Z][A-Z0-9_]*")


def rebound_constants(root: Path = ROOT) -> dict[str, list[str]]:
    """``path`` → the upper-case names bound more than once at its top level (plain or annotated assignment)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            names: Counter[str] = Counter()
            for node in ast.parse(path.read_text(encoding="utf-8")).body:
                targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
                if isinstance(node, ast.Assign | ast.AnnAssign):
                    names.update(t.id for t in targets if isinstance(t, ast.Name) and _CONSTANT.fullmatch(t.id))
            twice = sorted(name for name, count in names.items() if count > 1)
            if twice:
                found[path.relative_to(root).as_posix()] = twice
    return found


def test_no_library_module_binds_a_constant_twice() -> None:
    assert rebound_constants() == {}


def test_the_walk_finds_a_rebound_constant_and_ignores_locals(tmp_path: Path) -> None:
    source = "LIMIT = 3\n_WORDS: int = 4\nname = 1\nname = 2\n_WORDS = 5\n\ndef f():\n    LIMIT = 9\n    return LIMIT\n"
    (tmp_path / "testgen").mkdir()
    (tmp_path / "testgen" / "m.py").write_text(source, encoding="utf-8")
    assert rebound_constants(tmp_path) == {"testgen/m.py": ["_WORDS"]}
