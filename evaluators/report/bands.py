"""Score bands used in every report (see the metric contract).

- rank metrics and keyword coverage (0–1): ≥ 0.9 excellent, ≥ 0.75 good, below: needs work; P@K, R@K and MAP@K
  are banded as a share of the best mean any ranking could reach on the set when that is below 1 (P@10 cannot
  pass 0.18 when questions have 1.8 relevant documents on average), and the reports show that best beside them;
- the judge's 1–5 scores (accuracy, completeness, relevance): ≥ 4.5 excellent, ≥ 4.0 good, below: needs work;
- other answer scores on 0–1 (faithfulness, answer relevancy, RAGAS metrics, answer coverage): > 0.8 excellent,
  0.6–0.8 good, 0.4–0.6 fair, < 0.4 needs work.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from evaluators.scales import JUDGE_FIVE_POINT, is_generation_metric
from schemas import QuestionResult

EXCELLENT = 0.9
GOOD = 0.75


def band(value: float) -> str:
    """The band of a 0–1 retrieval score."""
    if value >= EXCELLENT:
        return "excellent"
    if value >= GOOD:
        return "good"
    return "needs work"


_CAPPED = re.compile(r"(P|R|MAP)@(\d+)")


def best_possible(name: str, results: Iterable[QuestionResult]) -> float | None:
    """The highest mean of the rank metric `name` that a perfect ranking reaches on these questions (those scored
    on it), when it is below 1; None otherwise.

    A question with R relevant documents reaches at most min(K, R) / K in P@K, and min(K, R) / R in R@K and in
    MAP@K (whose denominator is every relevant document); the other rank metrics reach 1."""
    match = _CAPPED.fullmatch(name)
    if match is None:
        return None
    kind, k = match.group(1), int(match.group(2))
    tops = []
    for result in results:
        relevant = len(set(result.source_docs))
        if name in result.metrics and relevant:
            tops.append(min(k, relevant) / (k if kind == "P" else relevant))
    best = sum(tops) / len(tops) if tops else 1.0
    return best if best < 1 - 1e-9 else None


def capped_band(value: float, best: float | None) -> str:
    """The band of a 0–1 retrieval score, as a share of `best` (from :func:`best_possible`) when there is one."""
    return band(min(1.0, value / best) if best else value)


def best_note(best: float | None, digits: int = 3) -> str:
    """`` (best possible 0.180)`` beside a band, or "" when the metric can reach 1."""
    return f" (best possible {best:.{digits}f})" if best else ""


def generation_band(value: float) -> str:
    """The band of a 0–1 answer score."""
    if value > 0.8:
        return "excellent"
    if value >= 0.6:
        return "good"
    if value >= 0.4:
        return "fair"
    return "needs work"


def judge_band(value: float) -> str:
    """The band of a 1–5 judge score."""
    if value >= 4.5:
        return "excellent"
    if value >= 4.0:
        return "good"
    return "needs work"


def band_for(name: str, value: float) -> str:
    """The band of any metric, by its name."""
    if name in JUDGE_FIVE_POINT:
        return judge_band(value)
    if is_generation_metric(name):
        return generation_band(value)
    return band(value)


BAND_COLOURS = {"excellent": "green", "good": "yellow", "fair": "dark_orange", "needs work": "red"}
