"""The exception tree written out in testgen.errors and evaluators.errors is the tree the code has.

Every class under `TestgenError` defined anywhere in the library is named in one of the two trees, every name
in them is such a class, and every one is raised somewhere (or, for a base, is the parent of one that is).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import evaluators.errors
import testgen.errors

ROOT = Path(__file__).parents[1]
PACKAGES = ("schemas", "testgen", "evaluators")


def _trees() -> set[str]:
    text = (testgen.errors.__doc__ or "") + (evaluators.errors.__doc__ or "")
    return set(
        re.findall(
            r"^\s*(?:[│ ]*[├└]── )?(\w+Error|\w+Exceeded|\w+NotFound|\w+Failed|\w+Response|\w+Limited|\w+Timeout)\b",
            text,
            re.M,
        )
    )


def _library() -> list[ast.Module]:
    return [
        ast.parse(p.read_text(encoding="utf-8")) for package in PACKAGES for p in sorted((ROOT / package).rglob("*.py"))
    ]


def _base_name(node: ast.expr) -> str:
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")


def _error_classes(modules: list[ast.Module]) -> dict[str, set[str]]:
    """Class name → names of its bases, for every class under TestgenError."""
    bases = {
        node.name: {_base_name(b) for b in node.bases}
        for module in modules
        for node in ast.walk(module)
        if isinstance(node, ast.ClassDef)
    }
    tree = {"TestgenError": set()}
    grew = True
    while grew:
        grew = False
        for name, parents in bases.items():
            if name not in tree and parents & tree.keys():
                tree[name] = parents
                grew = True
    return tree


def _constructed(modules: list[ast.Module]) -> set[str]:
    return {_base_name(node.func) for module in modules for node in ast.walk(module) if isinstance(node, ast.Call)}


def test_the_written_trees_name_every_error_class_and_no_other() -> None:
    classes = _error_classes(_library())
    assert _trees() == set(classes)


def test_every_error_class_is_raised_or_is_the_base_of_one_that_is() -> None:
    modules = _library()
    classes = _error_classes(modules)
    constructed = _constructed(modules)
    used = {name for name in classes if name in constructed}
    for name in list(used):
        used |= {parent for parent in classes[name] if parent in classes}
    grew = True
    while grew:
        before = len(used)
        used |= {parent for name in used for parent in classes[name] if parent in classes}
        grew = len(used) > before
    assert set(classes) - used == set()
