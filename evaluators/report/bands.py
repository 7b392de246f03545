"""Score bands used in every report: ≥ 0.9 excellent, ≥ 0.75 good, below: needs work (rank metrics and
keyword coverage, see the metric contract)."""

from __future__ import annotations

EXCELLENT = 0.9
GOOD = 0.75


def band(value: float) -> str:
    """The band of a 0–1 retrieval score."""
    if value >= EXCELLENT:
        return "excellent"
    if value >= GOOD:
        return "good"
    return "needs work"


BAND_COLOURS = {"excellent": "green", "good": "yellow", "needs work": "red"}
