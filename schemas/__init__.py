"""Data contracts of the toolkit: pydantic models and their JSON Schema files.

The JSON Schema files beside this module are generated from these models by
``python -m schemas`` (a test fails when they drift).
"""

from schemas._corpus import Chunk, Document, SkippedFile
from schemas._eval import (
    RESULTS_VERSION,
    EvaluationSummary,
    EvaluationType,
    JudgeRecord,
    MetricMean,
    QuestionResult,
    StageCost,
)
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
from schemas._store import DatasetInfo, RunDetail, RunInfo, RunStatus

__all__ = [
    "CATEGORIES",
    "RESULTS_VERSION",
    "Category",
    "Chunk",
    "ChunkNode",
    "DatasetInfo",
    "Document",
    "DocumentNode",
    "Edge",
    "EdgeKind",
    "EntityNode",
    "EvaluationSummary",
    "EvaluationType",
    "FactNode",
    "FactSource",
    "JudgeRecord",
    "MetricMean",
    "NodeKind",
    "QuestionResult",
    "RetrievedContext",
    "RunDetail",
    "RunInfo",
    "RunRecord",
    "RunStatus",
    "SkippedFile",
    "StageCost",
    "TestQuestion",
    "ValueType",
]
