"""Which metric is which: retrieval scores on 0–1, the judge's 1–5 and 0–1 scores, RAGAS's 0–1 scores."""

from __future__ import annotations

JUDGE_ORDER = ("accuracy", "completeness", "relevance", "faithfulness", "answer_relevancy")
"""The judge's scores, in report order; stored as ``judge_<name>``."""
JUDGE_FIVE_POINT = frozenset({"judge_accuracy", "judge_completeness", "judge_relevance"})
"""Judge scores on a 1–5 scale; every other score is on 0–1."""
ANSWER_COVERAGE = "answer_coverage"
"""Share of the question's keywords found in the answer (no model needed)."""


def is_generation_metric(name: str) -> bool:
    """True for scores of the answer (full_rag): the judge's, RAGAS's and the answer's keyword coverage."""
    return name.startswith(("judge_", "ragas_")) or name == ANSWER_COVERAGE


def metric_range(name: str) -> tuple[float, float]:
    """The scale of a metric: (1, 5) for the judge's five-point scores, else (0, 1)."""
    return (1.0, 5.0) if name in JUDGE_FIVE_POINT else (0.0, 1.0)
