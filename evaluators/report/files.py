"""Result files: per-question JSONL, summary JSON, CSV, Markdown."""

from __future__ import annotations

import csv
import html
import json
from pathlib import Path

from evaluators.evaluate import EvaluationOutcome, generation_metric_order, metric_order
from evaluators.report.bands import best_note, best_possible, capped_band
from evaluators.report.diagnosis import faithfulness_relevancy, retrieval_generation
from evaluators.report.panels import answers_title, generation_rows, reasons_summary, run_time, usage_line
from testgen.export.jsonl import write_lines


def write_results_jsonl(outcome: EvaluationOutcome, path: Path) -> Path:
    """One JSON object per question (the `QuestionResult` model)."""
    return write_lines((json.dumps(r.model_dump(mode="json"), ensure_ascii=False) for r in outcome.results), path)


def write_summary_json(outcome: EvaluationOutcome, path: Path) -> Path:
    """The `EvaluationSummary` as indented JSON."""
    path.write_text(
        json.dumps(outcome.summary.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    return path


def write_csv(outcome: EvaluationOutcome, path: Path) -> Path:
    """Per-question metrics as CSV (spreadsheet-friendly, UTF-8 with BOM so Excel reads Korean/Chinese)."""
    names = metric_order(outcome.summary) + generation_metric_order(outcome.summary)
    with path.open("w", encoding="utf-8-sig", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(
            ["id", "category", "status", "question", *names, "source_docs", "retrieved_docs", "error", "answer"]
        )
        for r in outcome.results:
            writer.writerow(
                [
                    r.id or "",
                    r.category,
                    r.status,
                    r.question,
                    *(f"{r.metrics[n]:.4f}" if n in r.metrics else "" for n in names),
                    " | ".join(r.source_docs),
                    " | ".join(r.retrieved_docs),
                    r.error or "",
                    r.answer or "",
                ]
            )
    return path


def _md_escape(text: str) -> str:
    """Untrusted text (questions, answers, names, error messages) as inline Markdown: its HTML shown as text, not
    rendered (a Markdown viewer passes raw HTML through), on one line, and no ``|`` that would split a table cell."""
    return html.escape(text, quote=False).replace("|", "\\|").replace("\r", " ").replace("\n", " ")


def markdown_report(outcome: EvaluationOutcome) -> str:
    """The report as Markdown: overall, per category, counts, and the worst questions."""
    summary = outcome.summary
    names = metric_order(summary)
    target = ", ".join(f"{_md_escape(str(k))}={_md_escape(str(v))}" for k, v in summary.target.items())
    title = "RAG evaluation" if summary.evaluation_type == "full_rag" else "Retrieval evaluation"
    lines = [
        f"# {title} — {_md_escape(summary.dataset)}",
        "",
        f"Target: {target}  ",
        f"k = {summary.k}; {summary.questions} questions: "
        + ", ".join(f"{n} {s}" for s, n in summary.counts.items() if n)
        + (f"; run time {run_time(summary.seconds)}" if summary.seconds > 0 else ""),
        "",
        "## Overall",
        "",
        "| metric | mean | n | band |",
        "|---|---:|---:|---|",
    ]
    for name in names:
        mean = summary.overall[name]
        best = best_possible(name, outcome.results)
        lines.append(f"| {name} | {mean.mean:.4f} | {mean.n} | {capped_band(mean.mean, best)}{best_note(best, 4)} |")
    lines += [
        "",
        "## By category",
        "",
        "| category | n | " + " | ".join(names) + " |",
        "|---|---:|" + "---:|" * len(names),
    ]
    for category, means in summary.by_category.items():
        n = max((m.n for m in means.values()), default=0)
        cells = [f"{means[name].mean:.3f}" if name in means else "–" for name in names]
        lines.append(f"| {_md_escape(category)} | {n} | " + " | ".join(cells) + " |")
    mrr = f"MRR@{summary.k}"
    worst = sorted((r for r in outcome.results if mrr in r.metrics), key=lambda r: (r.metrics[mrr], r.question))[:10]
    if worst:
        lines += [
            "",
            "## Lowest-ranked questions",
            "",
            "| question | category | expected | retrieved (top 3) |",
            "|---|---|---|---|",
        ]
        for r in worst:
            lines.append(
                f"| {_md_escape(r.question)} | {_md_escape(r.category)} | {_md_escape(', '.join(r.source_docs))} | "
                f"{_md_escape(', '.join(r.retrieved_docs[:3]))} |"
            )
    failed = [r for r in outcome.results if r.status in ("error", "missing", "unscorable")]
    if failed:
        lines += ["", "## Not scored normally", ""]
        for r in failed[:50]:
            lines.append(
                f"- **{r.status}** — {_md_escape(r.question)}" + (f": {_md_escape(r.error)}" if r.error else "")
            )
    if summary.evaluation_type == "full_rag":
        lines += generation_markdown(outcome)
    return "\n".join(lines) + "\n"


def generation_markdown(outcome: EvaluationOutcome) -> list[str]:
    """The generation panel as Markdown lines."""
    summary = outcome.summary
    rows = generation_rows(summary)
    lines = [
        "",
        f"## {_md_escape(answers_title(summary))}",
        "",
        "| metric | mean | scored/tried | band |",
        "|---|---:|---:|---|",
    ]
    lines += [f"| {r.name} | {r.value(4)} | {r.coverage} | {r.band} |" for r in rows]
    names = generation_metric_order(summary)
    if names:
        lines += ["", "### Answers by category", "", "| category | " + " | ".join(names) + " |"]
        lines.append("|---|" + "---:|" * len(names))
        for category, means in summary.by_category.items():
            cells = [f"{means[n].mean:.3f}" if n in means else "–" for n in names]
            lines.append(f"| {_md_escape(category)} | " + " | ".join(cells) + " |")
    for title, findings in (
        ("Faithfulness × relevancy", faithfulness_relevancy(summary)),
        ("Retrieval × generation", retrieval_generation(summary)),
    ):
        if findings:
            lines += ["", f"### {title}", "", "| scope | pattern | next step |", "|---|---|---|"]
            lines += [
                f"| {_md_escape(f.scope)} | {f.pattern} ({f.x_name} {f.x:.2f}, {f.y_name} {f.y:.2f}) | {f.next_step} |"
                for f in findings
            ]
    unscored = [r for r in rows if r.unscored]
    if unscored:
        lines += ["", "### Unscored", ""]
        for row in unscored:
            reasons = [r.unscored[row.name] for r in outcome.results if row.name in r.unscored]
            top = "; ".join(f"{n}× {_md_escape(reason)}" for reason, n in reasons_summary(reasons, 3))
            lines.append(f"- `{row.name}`: {row.unscored} unscored — {top}")
    judged = [r for r in outcome.results if "judge_accuracy" in r.metrics]
    if judged:
        lines += ["", "### Lowest-judged answers", "", "| question | answer | accuracy | judge's reason |"]
        lines.append("|---|---|---:|---|")
        for r in sorted(judged, key=lambda r: (r.metrics["judge_accuracy"], r.question))[:10]:
            reason = r.judge.reasons.get("accuracy", "") if r.judge else ""
            lines.append(
                f"| {_md_escape(r.question)} | {_md_escape(r.answer or '')} | {r.metrics['judge_accuracy']:.0f} | "
                f"{_md_escape(reason)} |"
            )
    usage = usage_line(summary)
    if usage:
        lines += ["", usage]
    lines += [f"- note: {_md_escape(note)}" for note in summary.notes]
    return lines
