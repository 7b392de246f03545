"""One evaluation, configured by a `RunConfig`: what the CLI, the REST API and the library all call.

    outcome = run_evaluation(questions, RunConfig(kb="examples/aurora_bikes", k=5), dataset="tests.jsonl")

``retrieval_only`` runs the target and scores what it retrieved (no LLM call). ``full_rag`` also scores the
answers: the target's own answers, or, for the built-in baseline, answers written by the configured model from
the retrieved contexts; then the LLM judge and any RAGAS metrics asked for.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from evaluators.evaluate import EvaluationOutcome, evaluate_target
from schemas import EvaluationType, QuestionResult, TestQuestion

Progress = Callable[[str, int, int], None]
"""progress(stage, done, total)."""

Checkpoint = Callable[[list[QuestionResult]], None]
"""Called with the results so far after each stage (retrieval scored, answers judged): a failed run keeps them."""


class RunConfig(BaseModel):
    """Everything that decides one evaluation run (stored with the run, accepted by the REST API)."""

    model_config = ConfigDict(extra="forbid")

    k: int = Field(default=10, ge=1, le=50, description="Cut-off K for every metric (1–50).")
    evaluation_type: EvaluationType = "retrieval_only"
    target: str = Field(default="baseline", description="baseline | runfile:PATH | callable:mod:fn | http(s)://url")
    kb: str | None = Field(default=None, description="Knowledge-base folder (the baseline target needs it).")
    retriever: Literal["bm25", "dense", "hybrid"] = "bm25"
    chunk_size: int = Field(default=500, ge=50, le=100_000)
    chunk_overlap: int = Field(default=200, ge=0, le=100_000)
    concurrency: int = Field(default=8, ge=1, le=256)
    timeout: float = Field(default=30.0, gt=0, description="Seconds per target call (callable/HTTP).")
    llm: str | None = Field(default=None, description="litellm model string that answers and judges (full_rag).")
    api_base: str | None = Field(default=None, description="Base URL of an OpenAI-compatible server.")
    judge: Literal["bundled", "separate", "off"] = "bundled"
    ragas_metrics: list[str] = Field(default_factory=list, description="RAGAS metrics to compute (full_rag).")
    embeddings: str | None = Field(default=None, description="Embedding model for RAGAS metrics that need one.")
    max_cost: float | None = Field(default=None, ge=0, description="USD cap on LLM calls.")

    @model_validator(mode="after")
    def _consistent(self) -> RunConfig:
        if self.chunk_overlap >= self.chunk_size:
            raise ValueError("chunk_overlap must be smaller than chunk_size")
        if self.target.startswith("baseline") and not self.kb:
            raise ValueError("the baseline target needs kb (the knowledge-base folder)")
        return self


def run_evaluation(
    questions: Sequence[TestQuestion],
    config: RunConfig,
    *,
    dataset: str = "",
    progress: Progress | None = None,
    checkpoint: Checkpoint | None = None,
) -> EvaluationOutcome:
    """Run one evaluation. Raises the project's errors for bad configuration (UserInputError → exit 2)."""
    from evaluators.targets import make_target

    spec = config.target
    options: dict[str, object]
    if spec.startswith("baseline"):
        options = {
            "kb": Path(config.kb) if config.kb else None,
            "retriever": config.retriever,
            "chunk_size": config.chunk_size,
            "chunk_overlap": config.chunk_overlap,
        }
    elif spec.startswith("runfile:"):
        options = {}
    else:
        options = {"concurrency": config.concurrency, "timeout": config.timeout}
    system = make_target(spec, **options)

    def step(done: int, total: int) -> None:
        if progress is not None:
            progress("retrieving", done, total)

    outcome = evaluate_target(questions, system, k=config.k, dataset=dataset, progress=step)
    if checkpoint is not None:
        checkpoint(outcome.results)
    return outcome
