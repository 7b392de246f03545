"""Evaluation results: one record per question, and the run summary (what reports, the store and compare read)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

RESULTS_VERSION = 2

EvaluationType = Literal["retrieval_only", "full_rag"]


class JudgeRecord(BaseModel):
    """What the LLM judge was asked and said about one answer, kept for audit."""

    mode: str = Field(description="bundled (one call for every score) | separate (one call per score).")
    scores: dict[str, float] = Field(
        default_factory=dict,
        description="accuracy, completeness, relevance on 1–5; faithfulness, answer_relevancy on 0–1 (clamped).",
    )
    reasons: dict[str, str] = Field(default_factory=dict, description="The judge's reason for each score.")
    notes: dict[str, str] = Field(
        default_factory=dict,
        description='Score name → what was done to the judge\'s value, e.g. "clamped: the judge gave 7 on 1–5".',
    )
    prompt: list[dict[str, str]] = Field(default_factory=list, description="The messages sent (first call).")
    raw: list[str] = Field(default_factory=list, description="The judge's raw reply text, one per call.")
    error: str | None = Field(default=None, description="Why the judgement failed (then scores are missing).")


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
    reference_answer: str | None = Field(default=None, description="The test set's reference answer (full_rag).")
    unscored: dict[str, str] = Field(
        default_factory=dict,
        description="Metric name → why it could not be scored for this question (failed call, no answer...). "
        "Such a metric is absent from `metrics` and left out of its mean, never NaN.",
    )
    judge: JudgeRecord | None = Field(default=None, description="The LLM judge's audit record (full_rag).")
    notes: dict[str, str] = Field(
        default_factory=dict,
        description="Metric name → what the reader should know about its value: a judge or RAGAS score out of "
        "its range is clamped to it, never rescaled, and noted here with the value given.",
    )


class MetricMean(BaseModel):
    """A mean that says what it covers."""

    mean: float
    n: int = Field(description="Questions the mean covers (scored).")
    unscored: int = Field(default=0, description="Questions on which the metric was attempted but not scored.")


# The one usage/cost type: testgen's LLM clients count into it by stage (``LLM.usage()``, also exported there as
# ``StageUsage``) and an evaluation summary reports it. ``calls`` counts calls answered (by the server or the cache);
# a run's cost per item is read from ``requests``. The docstring is the JSON schema's description: keep it.
class StageCost(BaseModel):
    """LLM use of one stage of an evaluation (answer, judge, ragas)."""

    calls: int = 0
    requests: int = Field(
        default=0, description="HTTP requests sent: first tries, retries, repair re-asks, samples, mode probes."
    )
    retries: int = Field(default=0, description="Requests that repeated a failed attempt.")
    repairs: int = Field(default=0, description="Repair re-asks after a reply that did not parse.")
    cached_calls: int = 0
    failed_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0


class EvaluationSummary(BaseModel):
    """The summary of one evaluation run."""

    version: int = RESULTS_VERSION
    dataset: str
    target: dict[str, Any]
    k: int
    evaluation_type: EvaluationType = "retrieval_only"
    questions: int
    counts: dict[str, int] = Field(description="Questions by status: scored, missing, error, unscorable.")
    overall: dict[str, MetricMean]
    by_category: dict[str, dict[str, MetricMean]]
    never_scored: dict[str, int] = Field(
        default_factory=dict, description="Metrics attempted but scored on no question: name → questions tried."
    )
    curve: dict[str, list[float]] = Field(
        default_factory=dict, description="P@K and R@K for K = 1..k (doc level), for the precision-recall plot."
    )
    seconds: float = 0.0
    model: str | None = Field(
        default=None, description="The LLM that answered (baseline) and, without judge_model, judged (full_rag)."
    )
    judge_model: str | None = Field(
        default=None, description="The LLM that judged and ran the RAGAS metrics, when not `model` (full_rag)."
    )
    planned_calls: int = Field(default=0, description="LLM calls planned before the run (full_rag).")
    planned_cost: float = Field(default=0.0, description="Estimated USD before the run (full_rag).")
    usage: dict[str, StageCost] = Field(default_factory=dict, description="Actual LLM use by stage.")
    cost_known: bool = Field(
        default=True, description="False when a model of the run has no known price: its costs read 0 but are unknown."
    )
    llm_settings: dict[str, dict[str, Any]] = Field(
        default_factory=dict,
        description="Per model: timeout, retries, the structured-output mode used (and modes the server turned "
        "down), whether failed calls were re-sent, whether its price is known.",
    )
    notes: list[str] = Field(default_factory=list, description="Things the reader should know about this run.")
