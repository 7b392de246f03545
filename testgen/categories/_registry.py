"""The category registry: a decorator for built-in categories and an entry-point group for plug-ins."""

from __future__ import annotations

import logging
import random
from collections.abc import Iterator
from importlib.metadata import entry_points
from typing import Protocol

from schemas import CATEGORIES
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft

ENTRY_POINT_GROUP = "testgen.categories"

logger = logging.getLogger("testgen.categories")


class Category(Protocol):
    """A kind of question: where its material comes from and what must hold of every final item."""

    name: str
    description: str

    def candidates(self, ctx: GenContext, rng: random.Random) -> Iterator[Draft]:
        """Drafts in a seeded random order, lazily: the generator stops drawing once the quota is met."""
        ...

    def check(self, draft: Draft, ctx: GenContext, source_docs: list[str]) -> str | None:
        """The category's post-condition on a final item: None when it holds, else the failure reason."""
        ...


_REGISTRY: dict[str, Category] = {}


def register(cls: type) -> type:
    """Class decorator: instantiate and register a category under its `name`."""
    instance = cls()
    _REGISTRY[instance.name] = instance
    return cls


def get_category(name: str) -> Category:
    """The registered category called `name` (built-ins, then entry-point plug-ins)."""
    _load_plugins()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise KeyError(f"unknown category {name!r} (known: {known})") from None


def registered() -> dict[str, Category]:
    """All registered categories by name."""
    _load_plugins()
    return dict(_REGISTRY)


def category_names() -> tuple[str, ...]:
    """The categories the generator runs, in order: the built-in seven, then the others in registration order."""
    _load_plugins()
    return CATEGORIES + tuple(name for name in _REGISTRY if name not in CATEGORIES)


_plugins_loaded = False


def _load_plugins() -> None:
    global _plugins_loaded
    if _plugins_loaded:
        return
    _plugins_loaded = True
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            obj = ep.load()
            instance = obj() if isinstance(obj, type) else obj
            name = instance.name
        except Exception as exc:  # a broken plug-in is skipped, never the end of the run
            logger.warning("category plug-in %s = %s not loaded: %s: %s", ep.name, ep.value, type(exc).__name__, exc)
            continue
        _REGISTRY[name] = instance
