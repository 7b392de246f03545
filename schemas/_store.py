"""The run store's records: stored datasets and evaluation runs, as the CLI, the REST API and the dashboard see them."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, Field

from schemas._eval import EvaluationSummary, EvaluationType, QuestionResult

RunStatus = Literal["pending", "running", "completed", "failed"]


class DatasetInfo(BaseModel):
    """A test set kept in the store."""

    id: int
    name: str = Field(description="Short name (the file or Hub name unless given).")
    source: str = Field(description="Where it came from: a path, hf://org/name, or 'upload'.")
    fingerprint: str = Field(description="Content hash of the questions; the same set is stored once per name.")
    questions: int = Field(description="Number of questions.")
    categories: dict[str, int] = Field(default_factory=dict, description="Questions by category.")
    created_at: datetime


class RunInfo(BaseModel):
    """One evaluation run, without its per-question results."""

    id: int
    dataset_id: int
    dataset_name: str = ""
    target: dict[str, Any] = Field(default_factory=dict, description="What was evaluated (kind, spec, settings).")
    k: int
    evaluation_type: EvaluationType
    status: RunStatus
    metrics: dict[str, float] = Field(default_factory=dict, description="Overall means by metric name.")
    mean_faithfulness: float | None = None
    mean_answer_relevancy: float | None = None
    error_message: str | None = None
    cost: float = Field(default=0.0, description="USD spent on LLM calls.")
    created_at: datetime
    updated_at: datetime


class RunDetail(RunInfo):
    """A run with its summary and per-question results (partial while running or after a failure)."""

    summary: EvaluationSummary | None = None
    results: list[QuestionResult] = Field(default_factory=list)
