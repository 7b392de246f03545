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


# ---- no import circles inside the library --------------------------------------------------------------------

KNOWN_CIRCLES: list[list[str]] = []
"""Circles that still stand, named here so that a new one fails the test and a removed one must be struck off."""


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module → library modules it imports (any import statement, also inside functions or TYPE_CHECKING).

    ``from a.b import c`` points at ``a.b.c`` when that is a module, else at ``a.b``. A module's own ancestor
    packages are left out: Python imports them before the module anyway, so they add no arrow of its making.
    """
    paths = {module_name(p, root): p for package in LAYERS for p in (root / package).rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in paths}
    for name, path in paths.items():
        ancestors = {".".join(name.split(".")[:i]) for i in range(1, name.count(".") + 1)}
        for _line, module in imports(path):
            target = module
            while target and target not in paths:
                target = target.rpartition(".")[0]
            if target and target != name and target not in ancestors:
                graph[name].add(target)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module, each sorted, in sorted order."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_import_circles_inside_the_library() -> None:
    assert circles(import_graph()) == KNOWN_CIRCLES


def test_the_circle_walk_finds_a_late_import_circle(tmp_path: Path) -> None:
    package = tmp_path / "testgen"
    (package / "llm").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "llm" / "__init__.py").write_text("from testgen.llm.client import Client\n", encoding="utf-8")
    (package / "llm" / "client.py").write_text("from testgen.llm.cost import price\n", encoding="utf-8")
    (package / "llm" / "cost.py").write_text(
        "def price():\n    from testgen.llm.client import Client\n", encoding="utf-8"
    )
    (package / "text.py").write_text("from testgen import llm\n", encoding="utf-8")
    assert circles(import_graph(tmp_path)) == [["testgen.llm.client", "testgen.llm.cost"]]
