"""``testgen build``: KB folder → knowledge graph → validated questions → tests.jsonl (+ HF, RAGAS)."""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from testgen.cli._common import progress_reporter, user_errors
from testgen.export import save_hf_dataset, write_jsonl, write_ragas_jsonl
from testgen.generate import parse_mix
from testgen.pipeline import BuildOutcome, build_testset


@click.command()
@click.option(
    "--kb",
    "kb",
    required=True,
    type=click.Path(path_type=Path),
    help="Knowledge-base folder (.md, .markdown, .txt files; sub-folders are document types).",
)
@click.option(
    "-o",
    "--output",
    default="tests.jsonl",
    show_default=True,
    type=click.Path(path_type=Path),
    help="Where to write the test set (JSONL). Other outputs go next to it.",
)
@click.option(
    "-n",
    "--num",
    default=50,
    show_default=True,
    type=click.IntRange(1, 100_000),
    help="Number of questions to generate.",
)
@click.option("--mix", default=None, help="Category shares, e.g. direct_fact=0.4,temporal=0.2 (normalised).")
@click.option(
    "--seed",
    default=42,
    show_default=True,
    type=int,
    help="Random seed: same KB + options + seed give a byte-identical tests.jsonl.",
)
@click.option(
    "--language",
    default="auto",
    show_default=True,
    help="Question language (en, ko, zh, ja, ...); auto uses each document's own language.",
)
@click.option("--chunk-size", default=800, show_default=True, type=click.IntRange(50, 100_000))
@click.option("--chunk-overlap", default=100, show_default=True, type=click.IntRange(0, 100_000))
@click.option(
    "--kg",
    "kg_path",
    type=click.Path(path_type=Path),
    default=None,
    help="Where to save the knowledge graph [default: <output stem>.kg.json].",
)
@click.option(
    "--hf-dir",
    type=click.Path(path_type=Path),
    default=None,
    help="Hugging Face dataset folder (save_to_disk) [default: <output stem>.hf/].",
)
@click.option("--no-hf", is_flag=True, help="Do not write the Hugging Face dataset.")
@click.option(
    "--ragas-jsonl",
    type=click.Path(path_type=Path),
    default=None,
    help="Also write the set in RAGAS's EvaluationDataset JSONL layout.",
)
@click.option("--no-fill", is_flag=True, help="Do not make up a category's shortfall from other categories.")
@click.option("-q", "--quiet", is_flag=True, help="No progress or summary table.")
@user_errors
def build(
    kb: Path,
    output: Path,
    num: int,
    mix: str | None,
    seed: int,
    language: str,
    chunk_size: int,
    chunk_overlap: int,
    kg_path: Path | None,
    hf_dir: Path | None,
    no_hf: bool,
    ragas_jsonl: Path | None,
    no_fill: bool,
    quiet: bool,
) -> None:
    """Generate a validated test set from a folder of documents, offline."""
    shares = parse_mix(mix)
    lang = None if language == "auto" else language
    if chunk_overlap >= chunk_size:
        raise click.BadParameter("must be smaller than --chunk-size", param_hint="--chunk-overlap")
    with progress_reporter(quiet) as progress:
        outcome = build_testset(
            kb,
            num=num,
            mix=shares,
            seed=seed,
            language=lang,
            chunk_size=chunk_size,
            chunk_overlap=chunk_overlap,
            fill=not no_fill,
            progress=progress,
        )
    stem = output.with_suffix("") if output.suffix else output
    items = outcome.result.items
    write_jsonl(items, output)
    kg_file = outcome.kg.save(kg_path or Path(f"{stem}.kg.json"))
    written = [str(output), str(kg_file)]
    if not no_hf and items:
        written.append(str(save_hf_dataset(items, hf_dir or Path(f"{stem}.hf"))))
    if ragas_jsonl:
        written.append(str(write_ragas_jsonl(items, ragas_jsonl)))
    summary_file = Path(f"{stem}.summary.json")
    summary_file.write_text(json.dumps(outcome.summary(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    written.append(str(summary_file))
    if not quiet:
        _print_summary(outcome, written)


def _print_summary(outcome: BuildOutcome, written: list[str]) -> None:
    console = Console(stderr=True)
    result = outcome.result
    table = Table(title=f"{len(result.items)} questions from {len(outcome.corpus.documents)} documents")
    table.add_column("category")
    table.add_column("requested", justify="right")
    table.add_column("generated", justify="right")
    table.add_column("rejected", justify="right")
    table.add_column("note")
    counts = result.counts()
    for category, wanted in result.requested.items():
        rejected = sum(n for (c, _), n in result.rejected.items() if c == category)
        note = result.shortfall.get(category, "")
        if category in result.filled:
            note = f"+{result.filled[category]} to make up other categories' shortfall"
        table.add_row(category, str(wanted), str(counts[category]), str(rejected), note)
    console.print(table)
    reasons: dict[str, int] = {}
    for (_, reason), n in result.rejected.items():
        reasons[reason] = reasons.get(reason, 0) + n
    if reasons:
        console.print(
            "rejected by reason: " + ", ".join(f"{r} {n}" for r, n in sorted(reasons.items(), key=lambda x: -x[1]))
        )
    if outcome.corpus.skipped:
        console.print(f"skipped {len(outcome.corpus.skipped)} file(s):")
        for skipped in outcome.corpus.skipped[:20]:
            console.print(f"  {skipped.path}: {skipped.reason}")
    t = outcome.timings
    console.print(
        f"time: {t['total']:.2f}s (load {t['load']:.2f}s, graph {t['graph']:.2f}s, generate {t['generate']:.2f}s)"
    )
    console.print("wrote: " + ", ".join(written))
