"""Console tables with score bands: the retrieval panel, and for full_rag the generation panel beside it."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from evaluators.evaluate import EvaluationOutcome, generation_metric_order, metric_order
from evaluators.report.bands import BAND_COLOURS, band_for, best_note, best_possible, capped_band
from evaluators.report.diagnosis import faithfulness_relevancy, retrieval_generation
from evaluators.report.panels import answers_title, generation_rows, reasons_summary, usage_line


def _styled(value: float, name: str = "", best: float | None = None) -> str:
    colour = BAND_COLOURS[capped_band(value, best) if best else band_for(name, value)]
    return f"[{colour}]{value:.3f}[/]"


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
    results = outcome.results
    for name in names:
        mean = s.overall[name]
        best = best_possible(name, results)
        overall.add_row(
            name, _styled(mean.mean, best=best), str(mean.n), capped_band(mean.mean, best) + best_note(best)
        )
    console.print(overall)
    per = Table(title="By category")
    per.add_column("category")
    per.add_column("n", justify="right")
    for name in names:
        per.add_column(name, justify="right")
    for category, means in s.by_category.items():
        n = max((m.n for m in means.values()), default=0)
        among = [r for r in results if r.category == category]
        cells = [_styled(means[name].mean, best=best_possible(name, among)) if name in means else "–" for name in names]
        per.add_row(category, str(n), *cells)
    console.print(per)
    notes = {k: v for k, v in s.counts.items() if k != "scored" and v}
    if notes:
        console.print(
            "not scored normally: "
            + ", ".join(f"{n} {k}" for k, n in notes.items())
            + " (missing and error count 0; unscorable are left out of the means)"
        )
    if s.evaluation_type == "full_rag":
        print_generation(outcome, console)


def print_generation(outcome: EvaluationOutcome, console: Console) -> None:
    """The generation panel: answer metrics with n scored / n tried, per category, patterns, cost."""
    s = outcome.summary
    panel = Table(title=escape(answers_title(s)))
    for column in ("metric", "mean", "scored/tried", "band"):
        panel.add_column(column, justify="right" if column in ("mean", "scored/tried") else "left")
    rows = generation_rows(s)
    for row in rows:
        value = row.value() if row.mean is None else f"[{BAND_COLOURS[row.band]}]{row.value()}[/]"
        panel.add_row(row.name, value, row.coverage, row.band)
    console.print(panel)
    names = generation_metric_order(s)
    if names:
        per = Table(title="Answers by category")
        per.add_column("category")
        for name in names:
            per.add_column(name.removeprefix("judge_").removeprefix("ragas_"), justify="right")
        for category, means in s.by_category.items():
            cells = [_styled(means[n].mean, n) if n in means else "–" for n in names]
            per.add_row(category, *cells)
        console.print(per)
    for title, findings in (
        ("Faithfulness × relevancy", faithfulness_relevancy(s)),
        ("Retrieval × generation", retrieval_generation(s)),
    ):
        if not findings:
            continue
        table = Table(title=title)
        for column in ("scope", "pattern", "next step"):
            table.add_column(column, overflow="fold")
        for f in findings:
            table.add_row(f.scope, f"{f.pattern} ({f.x:.2f} / {f.y:.2f})", f.next_step)
        console.print(table)
    for row in rows:
        if row.unscored:
            reasons = [r.unscored[row.name] for r in outcome.results if row.name in r.unscored]
            top = "; ".join(f"{count}× {reason}" for reason, count in reasons_summary(reasons, 3))
            console.print(f"{row.name}: {row.unscored} unscored — {top}", markup=False)
    line = usage_line(s)
    if line:
        console.print(line, markup=False)
    for note in s.notes:
        console.print(f"note: {note}", markup=False)
