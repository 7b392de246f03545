"""What the generation panel shows, shared by the console, Markdown and HTML reports."""

from __future__ import annotations

from dataclasses import dataclass

from evaluators.evaluate import generation_metric_order
from evaluators.report.bands import band_for
from evaluators.scales import JUDGE_FIVE_POINT
from schemas import EvaluationSummary


@dataclass(frozen=True)
class Row:
    """One answer metric: its mean over the questions it scored, and how many it could not score."""

    name: str
    mean: float | None
    n: int
    unscored: int
    band: str

    @property
    def coverage(self) -> str:
        """``n scored / n tried``."""
        return f"{self.n}/{self.n + self.unscored}"

    def value(self, digits: int = 3) -> str:
        if self.mean is None:
            return "–"
        return f"{self.mean:.2f}" if self.name in JUDGE_FIVE_POINT else f"{self.mean:.{digits}f}"


def generation_rows(summary: EvaluationSummary) -> list[Row]:
    """The answer metrics in report order, including those scored on no question (mean None)."""
    rows = []
    for name in generation_metric_order(summary):
        mean = summary.overall[name]
        rows.append(Row(name, mean.mean, mean.n, mean.unscored, band_for(name, mean.mean)))
    for name, count in sorted(summary.never_scored.items()):
        rows.append(Row(name, None, 0, count, "not scored"))
    return rows


def answers_title(summary: EvaluationSummary) -> str:
    """``Answers — <model>``, naming the judge when another model judged."""
    title = f"Answers — {summary.model or 'no model'}"
    return f"{title}, judged by {summary.judge_model}" if summary.judge_model else title


def usage_line(summary: EvaluationSummary) -> str:
    """LLM calls, tokens and cost of the run, against the plan."""
    if not summary.usage and not summary.planned_calls:
        return ""
    calls = sum(u.calls for u in summary.usage.values())
    cached = sum(u.cached_calls for u in summary.usage.values())
    failed = sum(u.failed_calls for u in summary.usage.values())
    tokens = sum(u.prompt_tokens + u.completion_tokens for u in summary.usage.values())
    cost = sum(u.cost for u in summary.usage.values())
    stages = ", ".join(f"{stage} {u.calls}" for stage, u in summary.usage.items())
    models = " + ".join(m for m in (summary.model, summary.judge_model) if m)
    return (
        f"LLM {models}: {calls} calls ({stages}; {cached} cached, {failed} failed), {tokens:,} tokens, "
        f"${cost:.4f} — planned {summary.planned_calls} calls, ≈ ${summary.planned_cost:.4f}"
    )


def reasons_summary(reasons: list[str], limit: int = 5) -> list[tuple[str, int]]:
    """The most frequent reasons a metric was unscored (first line, trimmed), with counts."""
    counts: dict[str, int] = {}
    for reason in reasons:
        key = reason.splitlines()[0][:160] if reason else "unknown"
        counts[key] = counts.get(key, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:limit]
