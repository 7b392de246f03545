"""Reports of an evaluation: console tables, JSONL/JSON/CSV/Markdown files, PNG plots, an HTML page."""

from __future__ import annotations

from pathlib import Path

from evaluators.evaluate import EvaluationOutcome
from evaluators.report.console import print_report
from evaluators.report.files import markdown_report, write_csv, write_results_jsonl, write_summary_json
from evaluators.report.gate import GateFailure, check, parse_thresholds
from evaluators.report.html import render_html, write_html
from evaluators.report.plots import write_plots

__all__ = [
    "GateFailure",
    "check",
    "markdown_report",
    "parse_thresholds",
    "print_report",
    "render_html",
    "write_html",
    "write_report",
]


def write_report(outcome: EvaluationOutcome, out_dir: str | Path, *, plots: bool = True) -> dict[str, Path]:
    """Write every report file into `out_dir` and return them by kind."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = {
        "results": write_results_jsonl(outcome, out / "results.jsonl"),
        "summary": write_summary_json(outcome, out / "summary.json"),
        "csv": write_csv(outcome, out / "results.csv"),
    }
    (out / "report.md").write_text(markdown_report(outcome), encoding="utf-8")
    written["markdown"] = out / "report.md"
    images = write_plots(outcome, out) if plots else {}
    written.update({f"plot_{k}": v for k, v in images.items()})
    written["html"] = write_html(outcome, images, out / "report.html")
    return written
