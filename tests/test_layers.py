"""Arrows one way: schemas ← testgen ← evaluators, and no package reaches into another's private modules.

Every import statement of the library is read (module level and inside functions alike: a late import that dodges
a cycle is still an upward arrow).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
LAYERS = {"schemas": 0, "testgen": 1, "evaluators": 2}


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, imported module) for every import statement in `path`."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.extend((node.lineno, f"{node.module}.{alias.name}") for alias in node.names)
    return found


def library_files() -> list[Path]:
    return sorted(p for package in LAYERS for p in (ROOT / package).rglob("*.py"))


def problems(path: Path, root: Path = ROOT) -> list[str]:
    package = path.relative_to(root).parts[0]
    found = []
    for line, module in imports(path):
        target = module.split(".")[0]
        if target not in LAYERS or target == package:
            continue
        where = f"{path.relative_to(root)}:{line}"
        if LAYERS[target] > LAYERS[package]:
            found.append(f"{where}: {package} imports {module} from a layer above it")
        elif any(part.startswith("_") and not part.startswith("__") for part in module.split(".")[1:-1]):
            found.append(f"{where}: imports the private module {module.rsplit('.', 1)[0]} of {target}")
    return found


def test_every_import_points_down_and_at_public_modules() -> None:
    found = [problem for path in library_files() for problem in problems(path)]
    assert found == []


@pytest.mark.parametrize(
    ("package", "source", "expected"),
    [
        ("testgen", "from evaluators.targets import make_target\n", "from a layer above it"),
        ("testgen", "def f():\n    import evaluators.cli\n", "from a layer above it"),  # a late import counts
        ("schemas", "from testgen.text import normalize\n", "from a layer above it"),
        ("evaluators", "from testgen.cli._common import user_errors\n", "the private module testgen.cli._common"),
    ],
)
def test_the_walk_finds_upward_and_private_imports(tmp_path: Path, package: str, source: str, expected: str) -> None:
    folder = tmp_path / package
    folder.mkdir()
    (folder / "m.py").write_text(source, encoding="utf-8")
    [problem] = problems(folder / "m.py", root=tmp_path)
    assert expected in problem
