"""Question categories, one module each; importing this package registers the built-in seven."""

from testgen.categories import (  # noqa: F401  (imported for registration)
    comparative,
    direct_fact,
    holistic,
    numerical,
    relationship,
    spanning,
    temporal,
)
from testgen.categories._registry import ENTRY_POINT_GROUP, Category, get_category, register, registered

__all__ = ["ENTRY_POINT_GROUP", "Category", "get_category", "register", "registered"]
