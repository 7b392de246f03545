"""Data contracts of the toolkit: pydantic models and their JSON Schema files.

The JSON Schema files beside this module are generated from these models by
``python -m schemas`` (a test fails when they drift).
"""

from schemas._corpus import Chunk, Document, SkippedFile
from schemas._eval import RESULTS_VERSION, EvaluationSummary, MetricMean, QuestionResult
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
from schemas._run import RetrievedContext, RunRecord

__all__ = [
    "CATEGORIES",
    "RESULTS_VERSION",
    "Category",
    "Chunk",
    "ChunkNode",
    "Document",
    "DocumentNode",
    "Edge",
    "EdgeKind",
    "EntityNode",
    "EvaluationSummary",
    "FactNode",
    "FactSource",
    "MetricMean",
    "NodeKind",
    "QuestionResult",
    "RetrievedContext",
    "RunRecord",
    "SkippedFile",
    "TestQuestion",
    "ValueType",
]
