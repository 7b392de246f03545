"""Console tables with score bands."""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from evaluators.evaluate import EvaluationOutcome, metric_order
from evaluators.report.bands import BAND_COLOURS, band


def _styled(value: float) -> str:
    return f"[{BAND_COLOURS[band(value)]}]{value:.3f}[/]"


def print_report(outcome: EvaluationOutcome, console: Console | None = None) -> None:
    """Overall and per-category tables; counts of questions not scored normally."""
    console = console or Console()
    s = outcome.summary
    names = metric_order(s)
    overall = Table(title=f"Retrieval — {s.dataset} (k={s.k})")
    overall.add_column("metric")
    overall.add_column("mean", justify="right")
    overall.add_column("n", justify="right")
    overall.add_column("band")
    for name in names:
        mean = s.overall[name]
        overall.add_row(name, _styled(mean.mean), str(mean.n), band(mean.mean))
    console.print(overall)
    per = Table(title="By category")
    per.add_column("category")
    per.add_column("n", justify="right")
    for name in names:
        per.add_column(name, justify="right")
    for category, means in s.by_category.items():
        n = max((m.n for m in means.values()), default=0)
        per.add_row(category, str(n), *(_styled(means[name].mean) if name in means else "–" for name in names))
    console.print(per)
    notes = {k: v for k, v in s.counts.items() if k != "scored" and v}
    if notes:
        console.print(
            "not scored normally: "
            + ", ".join(f"{n} {k}" for k, n in notes.items())
            + " (missing and error count 0; unscorable are left out of the means)"
        )
