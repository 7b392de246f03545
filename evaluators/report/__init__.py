"""Reports of an evaluation: console tables, JSONL/JSON/CSV/Markdown files, PNG plots, an HTML page."""

from __future__ import annotations

import shutil
from pathlib import Path

from evaluators.evaluate import EvaluationOutcome
from evaluators.report.console import print_report
from evaluators.report.files import markdown_report, write_csv, write_results_jsonl, write_summary_json
from evaluators.report.gate import GateFailure, check, parse_thresholds
from evaluators.report.html import render_html, write_html
from evaluators.report.plots import write_plots
from testgen.export.atomic import output_set

__all__ = [
    "REPORT_FILES",
    "GateFailure",
    "check",
    "markdown_report",
    "parse_thresholds",
    "print_report",
    "render_html",
    "write_html",
    "write_report",
]


#: Names the report writes; other entries of an existing report folder are kept when it is replaced.
REPORT_FILES = frozenset(
    {"results.jsonl", "summary.json", "results.csv", "report.md", "report.html"}
    | {"metrics.png", "category_mrr.png", "precision_recall.png"}
)


def write_report(outcome: EvaluationOutcome, out_dir: str | Path, *, plots: bool = True) -> dict[str, Path]:
    """Write every report file into `out_dir` and return them by kind.

    The folder is written as a hidden sibling and swapped in only when complete (`testgen.export.atomic`), so a
    kill leaves the previous report or this one, never new results beside old plots. Entries of the previous
    folder that the report does not write (a saved run, notes) are carried over."""
    out = Path(out_dir)
    with output_set(out) as outputs:
        staged = outputs.stage(out)
        staged.mkdir()
        if out.is_dir():
            for entry in out.iterdir():
                if entry.name not in REPORT_FILES:
                    _copy(entry, staged / entry.name)
        written = _write_files(outcome, staged, plots)
    return {kind: out / path.name for kind, path in written.items()}


def _copy(source: Path, target: Path) -> None:
    if source.is_dir() and not source.is_symlink():
        shutil.copytree(source, target, symlinks=True)
    else:
        shutil.copy2(source, target, follow_symlinks=False)


def _write_files(outcome: EvaluationOutcome, out: Path, plots: bool) -> dict[str, Path]:
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
