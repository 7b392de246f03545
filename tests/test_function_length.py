"""No function in library code is over 80 lines (STYLE: long functions are split into named steps)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[1]
PACKAGES = ("schemas", "testgen", "evaluators")
LIMIT = 80

KNOWN_LONG: set[str] = set()
"""Functions still over the limit, named so that a new one fails the test and a split one must be struck off."""


def long_functions(root: Path = ROOT, limit: int = LIMIT) -> dict[str, int]:
    """``path:function`` → lines (``def`` to last line, decorators not counted) of every function over `limit`."""
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    lines = (node.end_lineno or node.lineno) - node.lineno + 1
                    if lines > limit:
                        found[f"{path.relative_to(root).as_posix()}:{node.name}"] = lines
    return found


def test_no_library_function_is_over_80_lines() -> None:
    assert set(long_functions()) == KNOWN_LONG


def test_the_walk_measures_nested_and_async_functions(tmp_path: Path) -> None:
    body = "\n".join(f"    x{i} = {i}" for i in range(LIMIT))
    nested = body.replace("    ", "        ")
    source = f"def short():\n    pass\n\n\nasync def long():\n{body}\n\n\ndef outer():\n    def inner():\n{nested}\n"
    (tmp_path / "testgen").mkdir()
    (tmp_path / "testgen" / "m.py").write_text(source, encoding="utf-8")
    assert long_functions(tmp_path) == {
        "testgen/m.py:long": LIMIT + 1,
        "testgen/m.py:outer": LIMIT + 2,
        "testgen/m.py:inner": LIMIT + 1,
    }
