"""``--fail-under mrr=0.75,ndcg@10=0.7,judge_accuracy=4,judge_faithfulness=0.8``: a CI gate on the overall means."""

from __future__ import annotations

from dataclasses import dataclass

from evaluators.metrics import parse_metric
from evaluators.scales import is_generation_metric, metric_range
from schemas import EvaluationSummary
from testgen.errors import OptionError


@dataclass(frozen=True)
class GateFailure:
    """One threshold the run did not reach."""

    metric: str
    value: float
    threshold: float


def parse_thresholds(text: str, k: int) -> dict[str, float]:
    """Parse ``mrr=0.75,ndcg@10=0.7``; a metric without ``@K`` takes the run's k. Names are canonicalised."""
    thresholds: dict[str, float] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        if not sep:
            raise OptionError(f"--fail-under: {part.strip()!r} is not metric=value (e.g. mrr=0.75,ndcg@10=0.7)")
        name = name.strip()
        if is_generation_metric(name.lower()):
            canonical = name.lower()
        else:
            try:
                canonical = str(parse_metric(name, default_k=k))
            except ValueError as exc:
                raise OptionError(f"--fail-under: {exc} (or an answer score such as judge_accuracy)") from None
        try:
            threshold = float(value)
        except ValueError:
            raise OptionError(f"--fail-under: threshold for {name} is not a number: {value!r}") from None
        low, high = metric_range(canonical)
        if not low <= threshold <= high:
            raise OptionError(f"--fail-under: threshold for {name} must be between {low:g} and {high:g}")
        thresholds[canonical] = threshold
    return thresholds


def check(summary: EvaluationSummary, thresholds: dict[str, float]) -> list[GateFailure]:
    """Thresholds not reached; a metric the run did not compute (or scored on no question) fails (value 0)."""
    failures = []
    for name, threshold in thresholds.items():
        mean = summary.overall.get(name)
        value = mean.mean if mean is not None else 0.0
        if value < threshold:
            failures.append(GateFailure(name, value, threshold))
    return failures
