"""Result files: per-question JSONL, summary JSON, CSV, Markdown."""

from __future__ import annotations

import csv
import json
from pathlib import Path

from evaluators.evaluate import EvaluationOutcome, metric_order
from evaluators.report.bands import band


def write_results_jsonl(outcome: EvaluationOutcome, path: Path) -> Path:
    """One JSON object per question (the `QuestionResult` model)."""
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for result in outcome.results:
            fh.write(json.dumps(result.model_dump(mode="json"), ensure_ascii=False) + "\n")
    return path


def write_summary_json(outcome: EvaluationOutcome, path: Path) -> Path:
    """The `EvaluationSummary` as indented JSON."""
    path.write_text(
        json.dumps(outcome.summary.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n", encoding="utf-8"
    )
    return path


def write_csv(outcome: EvaluationOutcome, path: Path) -> Path:
    """Per-question metrics as CSV (spreadsheet-friendly, UTF-8 with BOM so Excel reads Korean/Chinese)."""
    names = metric_order(outcome.summary)
    with path.open("w", encoding="utf-8-sig", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["id", "category", "status", "question", *names, "source_docs", "retrieved_docs", "error"])
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
                ]
            )
    return path


def _md_escape(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def markdown_report(outcome: EvaluationOutcome) -> str:
    """The report as Markdown: overall, per category, counts, and the worst questions."""
    summary = outcome.summary
    names = metric_order(summary)
    target = ", ".join(f"{k}={v}" for k, v in summary.target.items())
    lines = [
        f"# Retrieval evaluation — {summary.dataset}",
        "",
        f"Target: {target}  ",
        f"k = {summary.k}; {summary.questions} questions: "
        + ", ".join(f"{n} {s}" for s, n in summary.counts.items() if n),
        "",
        "## Overall",
        "",
        "| metric | mean | n | band |",
        "|---|---:|---:|---|",
    ]
    for name in names:
        mean = summary.overall[name]
        lines.append(f"| {name} | {mean.mean:.4f} | {mean.n} | {band(mean.mean)} |")
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
                f"| {_md_escape(r.question)} | {r.category} | {_md_escape(', '.join(r.source_docs))} | "
                f"{_md_escape(', '.join(r.retrieved_docs[:3]))} |"
            )
    failed = [r for r in outcome.results if r.status in ("error", "missing", "unscorable")]
    if failed:
        lines += ["", "## Not scored normally", ""]
        for r in failed[:50]:
            lines.append(
                f"- **{r.status}** — {_md_escape(r.question)}" + (f": {_md_escape(r.error)}" if r.error else "")
            )
    return "\n".join(lines) + "\n"
