"""What the generation panel shows, shared by the console, Markdown and HTML reports."""

from __future__ import annotations

from dataclasses import dataclass

from evaluators.evaluate import generation_metric_order
from evaluators.reasons import tally_reasons
from evaluators.report.bands import band_for
from evaluators.scales import JUDGE_FIVE_POINT
from schemas import EvaluationSummary
from testgen.llm.cost import format_cost


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


def run_time(seconds: float) -> str:
    """How long a run took, to a sensible precision: ``0.27 s``, ``12.3 s``, ``4 min 05 s``, ``1 h 02 min``."""
    if seconds < 10:
        return f"{seconds:.2f} s"
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, secs = divmod(round(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {secs:02d} s"
    return f"{minutes // 60} h {minutes % 60:02d} min"


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
    used = summary.usage.values()
    requests, retries, repairs = (sum(getattr(u, f) for u in used) for f in ("requests", "retries", "repairs"))
    cached = sum(u.cached_calls for u in used)
    failed = sum(u.failed_calls for u in used)
    tokens = sum(u.prompt_tokens + u.completion_tokens for u in used)
    cost = format_cost(sum(u.cost for u in used), summary.cost_known)
    planned = f"≈ ${summary.planned_cost:.4f}" if summary.cost_known else "cost unknown"
    stages = ", ".join(f"{stage} {u.requests}" for stage, u in summary.usage.items())
    models = " + ".join(m for m in (summary.model, summary.judge_model) if m)
    return (
        f"LLM {models}: {requests} requests ({stages}; {retries} retries, {repairs} repair re-asks), "
        f"{cached} cached, {failed} failed, {tokens:,} tokens, cost {cost} — planned {summary.planned_calls} calls, "
        f"{planned}"
    )


def reasons_summary(reasons: list[str], limit: int = 5) -> list[tuple[str, int]]:
    """The most frequent reasons a metric was unscored, with counts; reasons are normalised first (timings and
    other varying numbers taken out, `evaluators.reasons`), so one failure with other timings counts once."""
    return [(c.reason, c.count) for c in tally_reasons(reasons, limit)]
