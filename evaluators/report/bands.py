"""Score bands used in every report (see the metric contract).

- rank metrics and keyword coverage (0–1): ≥ 0.9 excellent, ≥ 0.75 good, below: needs work;
- the judge's 1–5 scores (accuracy, completeness, relevance): ≥ 4.5 excellent, ≥ 4.0 good, below: needs work;
- other answer scores on 0–1 (faithfulness, answer relevancy, RAGAS metrics, answer coverage): > 0.8 excellent,
  0.6–0.8 good, 0.4–0.6 fair, < 0.4 needs work.
"""

from __future__ import annotations

from evaluators.scales import JUDGE_FIVE_POINT, is_generation_metric

EXCELLENT = 0.9
GOOD = 0.75


def band(value: float) -> str:
    """The band of a 0–1 retrieval score."""
    if value >= EXCELLENT:
        return "excellent"
    if value >= GOOD:
        return "good"
    return "needs work"


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
