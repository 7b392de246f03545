"""Data contracts of the toolkit: pydantic models and their JSON Schema files.

The JSON Schema files beside this module are generated from these models by
``python -m schemas`` (a test fails when they drift).
"""

from schemas._corpus import Chunk, Document, SkippedFile
from schemas._graph import (
    ChunkNode,
    DocumentNode,
    Edge,
    EdgeKind,
    EntityNode,
    FactNode,
    FactSource,
    NodeKind,
    ValueType,
)
from schemas._question import CATEGORIES, Category, TestQuestion

__all__ = [
    "CATEGORIES",
    "Category",
    "Chunk",
    "ChunkNode",
    "Document",
    "DocumentNode",
    "Edge",
    "EdgeKind",
    "EntityNode",
    "FactNode",
    "FactSource",
    "NodeKind",
    "SkippedFile",
    "TestQuestion",
    "ValueType",
]
