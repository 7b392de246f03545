"""Evaluation results: one record per question, and the run summary (what reports and compare read)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

RESULTS_VERSION = 1


class QuestionResult(BaseModel):
    """How the system under test did on one question."""

    id: str | None = Field(default=None, description="Test-question id, when the dataset has one.")
    question: str
    category: str
    source_docs: list[str] = Field(default_factory=list, description="Relevant documents (the qrels).")
    retrieved_docs: list[str] = Field(
        default_factory=list, description="Ranked documents after chunk collapse, cut at k."
    )
    metrics: dict[str, float] = Field(default_factory=dict, description="Canonical metric name → value.")
    status: str = Field(
        default="scored",
        description="scored | missing (not in the run: scored 0) | error (the target failed: scored 0) | "
        "unscorable (no source_docs: left out of the means, counted)",
    )
    error: str | None = Field(default=None, description="Why the target failed for this question.")
    answer: str | None = Field(default=None, description="The system's answer, when it gave one.")


class MetricMean(BaseModel):
    """A mean that says what it covers."""

    mean: float
    n: int = Field(description="Questions the mean covers.")


class EvaluationSummary(BaseModel):
    """The summary of one evaluation run."""

    version: int = RESULTS_VERSION
    dataset: str
    target: dict[str, Any]
    k: int
    questions: int
    counts: dict[str, int] = Field(description="Questions by status: scored, missing, error, unscorable.")
    overall: dict[str, MetricMean]
    by_category: dict[str, dict[str, MetricMean]]
    curve: dict[str, list[float]] = Field(
        default_factory=dict, description="P@K and R@K for K = 1..k (doc level), for the precision-recall plot."
    )
    seconds: float = 0.0
