"""``testgen build``: KB folder → knowledge graph → validated questions → tests.jsonl (+ HF, RAGAS)."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from testgen.cli.common import progress_reporter, user_errors
from testgen.cli.engine_options import engine_options, open_engine
from testgen.cli.llm_generation import llm_generation_options
from testgen.cli.llm_options import llm_client_options
from testgen.engine import Engine
from testgen.errors import OptionError
from testgen.generate import parse_mix, plan_llm_calls
from testgen.kg.build import build_graph, load_corpus
from testgen.llm._types import LLM
from testgen.llm.cost import format_cost, per_mtok, request_ceiling, resolve_prices, unpriced_cap_error
from testgen.pipeline import BuildOutcome, build_testset, write_outputs
from testgen.synth.llm_synth import LLMOptions, load_personas, parse_styles


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
@click.option(
    "--llm",
    "llm_model",
    envvar="TESTGEN_LLM",
    default=None,
    help="Rewrite questions with this model (litellm string, e.g. openai/gpt-4.1-mini) [env: TESTGEN_LLM].",
)
@click.option("--api-base", default=None, help="Base URL of an OpenAI-compatible server (Ollama, vLLM, ...).")
@click.option("--concurrency", default=8, show_default=True, type=click.IntRange(1, 256), help="LLM calls at once.")
@click.option("--max-cost", type=click.FloatRange(0), default=None, help="Stop LLM calls at this many USD.")
@llm_client_options
@click.option("--dry-run", is_flag=True, help="Print the planned LLM calls and cost; write nothing, call nothing.")
@click.option(
    "--round-trip",
    type=click.Choice(["drop", "flag", "off"]),
    default="flag",
    show_default=True,
    help="LLM questions that retrieve none of their sources with the baseline BM25: drop, flag or keep.",
)
@click.option(
    "--personas", type=click.Path(path_type=Path), default=None, help="YAML/JSON list of {name, description}."
)
@click.option("--style", default=None, help="Query styles for LLM questions, e.g. plain=0.7,web=0.2,misspelled=0.1.")
@llm_generation_options
@click.option(
    "--enrich-graph",
    "enrich_chunks",
    default=0,
    show_default=True,
    type=click.IntRange(0, 100_000),
    help="With --llm: read up to N prose chunks with the model to add facts to the graph (0: off).",
)
@click.option(
    "--strict",
    is_flag=True,
    help="Exit with code 3 when the set falls short of the request (the outputs are still written).",
)
@engine_options
@click.option("-q", "--quiet", is_flag=True, help="No progress or summary table (a shortfall warning still prints).")
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
    llm_model: str | None,
    api_base: str | None,
    concurrency: int,
    max_cost: float | None,
    llm_timeout: float,
    llm_retries: int,
    structured_output: str,
    retry_failed: bool,
    price_per_1k: tuple[float, float] | None,
    dry_run: bool,
    round_trip: str,
    personas: Path | None,
    style: str | None,
    seeds: str,
    types: dict[str, float] | None,
    max_overlap: float,
    fallback: str,
    enrich_chunks: int,
    strict: bool,
    engine: str,
    ray_address: str | None,
    ray_workers: int | None,
    quiet: bool,
) -> None:
    """Generate a validated test set from a folder of documents (offline, or rewritten by an LLM with --llm).

    Exit codes: 0 done (a shortfall prints a warning), 2 bad input, 3 no question at all (nothing written)
    or, with --strict, a shortfall (outputs written)."""
    shares = parse_mix(mix)
    lang = None if language == "auto" else language
    if chunk_overlap >= chunk_size:
        raise click.BadParameter("must be smaller than --chunk-size", param_hint="--chunk-overlap")
    llm_options = _llm_options(concurrency, round_trip, personas, style, seeds, types, max_overlap, fallback)
    if dry_run:
        with open_engine(engine, ray_address, ray_workers) as runner:
            plan = (num, shares, seed, lang, chunk_size, chunk_overlap, llm_options, enrich_chunks, llm_retries)
            _dry_run(kb, llm_model, *plan, engine=runner)
        return
    settings = _client_settings(
        api_base, concurrency, max_cost, llm_timeout, llm_retries, structured_output, retry_failed, price_per_1k
    )
    llm = _checked_client(llm_model, settings, max_cost, price_per_1k, enrich_chunks)
    with open_engine(engine, ray_address, ray_workers) as runner, progress_reporter(quiet) as progress:
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
            llm=llm,
            llm_options=llm_options if llm is not None else None,
            enrich_chunks=enrich_chunks,
            engine=runner,
        )
    outputs = {"kg_path": kg_path, "hf_dir": hf_dir, "hf": not no_hf, "ragas_jsonl": ragas_jsonl}
    _finish(outcome, kb, output, outputs, used_llm=llm is not None, quiet=quiet, strict=strict)


def _llm_options(
    concurrency: int,
    round_trip: str,
    personas: Path | None,
    style: str | None,
    seeds: str,
    types: dict[str, float] | None,
    max_overlap: float,
    fallback: str,
) -> LLMOptions:
    """How LLM questions are made, from the command's options (the Choice values click has checked)."""
    return LLMOptions(
        concurrency=concurrency,
        round_trip=round_trip,  # type: ignore[arg-type]
        personas=load_personas(personas) if personas else None,
        styles=parse_styles(style),
        seeds=seeds,  # type: ignore[arg-type]
        types=types,
        max_overlap=None if max_overlap >= 1 else max_overlap,
        fallback=fallback,  # type: ignore[arg-type]
    )


def _client_settings(
    api_base: str | None,
    concurrency: int,
    max_cost: float | None,
    timeout: float,
    retries: int,
    structured_output: str,
    retry_failed: bool,
    price_per_1k: tuple[float, float] | None,
) -> dict[str, Any]:
    """The LLM client's settings from the command's options."""
    settings: dict[str, Any] = {
        "api_base": api_base,
        "concurrency": concurrency,
        "max_cost": max_cost,
        "timeout": timeout,
        "max_retries": retries,
        "structured_output": structured_output,
        "retry_failed": retry_failed,
    }
    if price_per_1k is not None:
        settings["input_price_per_mtok"], settings["output_price_per_mtok"] = per_mtok(price_per_1k)
    return settings


def _checked_client(
    model: str | None,
    settings: dict[str, Any],
    max_cost: float | None,
    price_per_1k: tuple[float, float] | None,
    enrich_chunks: int,
) -> LLM | None:
    """The LLM client, once the options that need one or a price are checked; None offline."""
    if enrich_chunks and not model:
        raise OptionError("--enrich-graph reads chunks with a model: give --llm MODEL as well")
    if model and (refusal := unpriced_cap_error(max_cost, model, price_per_1k)):
        raise OptionError(refusal)
    llm = _client(model, settings) if model else None
    warning = getattr(llm, "cap_warning", lambda: None)()
    if warning:
        click.echo(f"warning: {warning}", err=True)
    return llm


def _finish(
    outcome: BuildOutcome,
    kb: Path,
    output: Path,
    outputs: dict[str, Any],
    *,
    used_llm: bool,
    quiet: bool,
    strict: bool,
) -> None:
    """Write the set (or keep the earlier one when nothing was generated), print the summary and warnings, and
    exit 3 for an empty set or, with --strict, a shortfall."""
    if outcome.delivered == 0:
        # An empty tests.jsonl would only be rejected by every later command: keep whatever was there.
        if not quiet:
            _print_summary(outcome, [])
            if used_llm:  # what the failed run cost, in requests
                _print_llm_usage(outcome)
        _print_warnings(outcome)
        kept = f" (the earlier {output} is left as it was)" if output.exists() else ""
        click.echo(f"error: no question could be generated from {kb}; nothing was written{kept}", err=True)
        sys.exit(3)
    # One output set: written beside its final paths, moved into place only when complete.
    paths = write_outputs(outcome, output, **outputs)
    written = [str(path) for path in paths]
    if not quiet:
        _print_summary(outcome, written)
        if used_llm:
            _print_llm_usage(outcome)
    _print_warnings(outcome)
    if strict and not outcome.complete:
        click.echo(
            f"error: --strict: {outcome.delivered} of {outcome.requested_total} questions, "
            f"{len(outcome.short_categories())} of {len(outcome.result.requested)} categories short; "
            "the outputs were written",
            err=True,
        )
        sys.exit(3)


def _client(model: str, options: dict[str, Any]) -> LLM:
    """The litellm client (imported only when a model is asked for)."""
    from pydantic import ValidationError

    from testgen.llm.client import LLMClient, LLMSettings

    try:
        settings = LLMSettings(model=model, **options)
    except ValidationError as exc:
        raise OptionError(f"--llm: {exc.errors()[0]['msg']}") from None
    return LLMClient(settings)


def _dry_run(
    kb: Path,
    model: str | None,
    num: int,
    shares: dict[str, float],
    seed: int,
    language: str | None,
    chunk_size: int,
    chunk_overlap: int,
    options: LLMOptions,
    enrich_chunks: int = 0,
    retries: int = 3,
    *,
    engine: Engine | None = None,
) -> None:
    """Plan an LLM run: build the graph offline (no call), estimate calls, tokens and cost, write nothing.

    The ceiling counts requests: each rewrite's first try and repair re-ask, each retried up to `retries` times,
    the structured-output probes, and the enrichment calls (plain, so no repair)."""
    if not model:
        raise OptionError("--dry-run plans LLM calls: give --llm MODEL (or set TESTGEN_LLM)")
    corpus = load_corpus(kb, chunk_size=chunk_size, chunk_overlap=chunk_overlap, language=language, engine=engine)
    kg = build_graph(corpus, engine=engine)
    plan = plan_llm_calls(num, kg, model=model, mix=shares, seed=seed, language=language, llm_options=options)
    cost = plan["estimated_cost_usd"]
    click.echo(f"dry run: {num} questions from {len(corpus.documents)} documents with {model}")
    enrichment_calls = 0
    if enrich_chunks:
        from testgen.kg.enrich import select_chunks

        enrichment_calls = len(select_chunks(kg, enrich_chunks))
        click.echo(
            f"graph: built offline, then {enrichment_calls} enrichment calls (one per prose chunk, --enrich-graph)"
        )
    else:
        click.echo("graph: 0 LLM calls (built offline)")
    ceiling = request_ceiling(plan["max_calls"], retries) + request_ceiling(
        enrichment_calls, retries, structured=True, probes=0
    )
    click.echo(
        f"generation: ~{plan['expected_calls']} calls (at most {plan['max_calls']} calls, {ceiling} requests with "
        f"--llm-retries {retries} and one repair re-ask each), "
        f"~{plan['prompt_tokens_per_call']} prompt + {plan['completion_tokens_per_call']} completion tokens per call"
    )
    if plan.get("passage_share"):
        click.echo(
            f"passages: ~{plan['passage_share']:.0%} of the calls write from passages; "
            f"~{plan['expected_rephrase_calls']} rephrase calls for questions that copy their evidence"
        )
    if resolve_prices(model).known and cost is not None:
        click.echo(f"estimated cost: ${cost:.4f}")
    else:
        click.echo(f"estimated cost: unknown (no price known for {model})")
    click.echo("nothing was written and no call was made")


def _print_llm_usage(outcome: BuildOutcome) -> None:
    console = Console(stderr=True)
    info: dict[str, Any] = outcome.result.llm
    client: dict[str, Any] = info.get("client") or {}
    known = bool(client.get("priced", True))
    table = Table(title=f"LLM usage ({info.get('model')}, prompt {info.get('prompt_version')})")
    columns = ("stage", "requests", "retries", "repairs", "cached", "failed", "prompt tok.", "compl. tok.")
    for column in columns:
        table.add_column(column, justify="left" if column == "stage" else "right")
    usage: dict[str, dict[str, Any]] = info.get("usage", {})
    fields = ("requests", "retries", "repairs", "cached_calls", "failed_calls", "prompt_tokens", "completion_tokens")
    for stage, u in sorted(usage.items()):
        table.add_row(stage, *(str(u.get(f, 0)) for f in fields))
    console.print(table)
    per_item = info.get("calls_per_item")
    console.print(
        f"{info.get('delivered', 0)} questions from {info.get('requests', 0)} requests"
        + (f" ({per_item} per question)" if per_item is not None else "")
        + f" for {info.get('calls', 0)} rewrites, {info.get('failed_calls', 0)} failed; "
        f"round trip {info.get('round_trip')}: {info.get('round_trip_misses', 0)} missed their sources; "
        f"cost {format_cost(sum(u.get('cost', 0.0) for u in usage.values()), known)}"
    )
    if client:
        rejected = client.get("structured_output_rejected") or {}
        console.print(
            f"structured output: {client.get('structured_output')}"
            + (f" (turned down: {', '.join(rejected)})" if rejected else "")
            + f"; timeout {client.get('timeout'):g} s, {client.get('max_retries')} retries"
        )
    passages: dict[str, Any] = info.get("passages") or {}
    if passages:
        types = ", ".join(f"{t} {n}" for t, n in passages.get("by_question_type", {}).items())
        console.print(
            f"from passages: {passages.get('delivered', 0)} questions ({types or 'none'}) from "
            f"{passages.get('documents_seeded', 0)} documents; {passages.get('rephrased', 0)} rephrased "
            f"({passages.get('rephrase_calls', 0)} rephrase calls); from mined facts: {info.get('fact_items', 0)}"
        )
    fallback: dict[str, Any] = info.get("fallback") or {}
    if fallback.get("items"):
        console.print(f"--fallback offline: {fallback['items']} offline questions make up the set (flagged)")
    if outcome.result.stopped:
        console.print(outcome.result.stopped)


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
    if reasons := outcome.rejected_by_reason():
        console.print("rejected by reason: " + ", ".join(f"{r} {n}" for r, n in reasons.items()))
    if outcome.corpus.skipped:
        console.print(f"skipped {len(outcome.corpus.skipped)} file(s):")
        for skipped in outcome.corpus.skipped[:20]:
            console.print(f"  {skipped.path}: {skipped.reason}")
    overlap = outcome.question_overlap_median()
    console.print(
        "question–source overlap (median): " + ("n/a (nothing measured)" if overlap is None else f"{overlap:.2f}")
    )
    t = outcome.timings
    console.print(
        f"time: {t['total']:.2f}s (load {t['load']:.2f}s, graph {t['graph']:.2f}s, generate {t['generate']:.2f}s)"
    )
    console.print("wrote: " + (", ".join(written) if written else "nothing"))


def _print_warnings(outcome: BuildOutcome) -> None:
    """The shortfall block on stderr, quiet or not: what was delivered, what is short and why, what to try."""
    lines = outcome.warnings()
    if not lines:
        return
    width = 100
    title = " WARNING: incomplete test set "
    click.secho(title.center(width, "="), err=True, fg="yellow", bold=True)
    click.secho(lines[0], err=True, fg="yellow", bold=True)
    for line in lines[1:]:
        click.echo(textwrap.fill(line, width, initial_indent="  ", subsequent_indent="    "), err=True)
    click.secho("=" * width, err=True, fg="yellow", bold=True)
