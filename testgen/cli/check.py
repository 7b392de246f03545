"""``testgen check``: a CI gate on a test set (yours or generated): every failed check as ``file:line: reason``."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import click

from testgen.cli.common import user_errors


@click.command()
@click.option(
    "--dataset",
    required=True,
    help="tests.jsonl, a tests.hf/ folder, a .parquet file or hf://org/name[@rev][#split].",
)
@click.option(
    "--kb",
    type=click.Path(path_type=Path),
    default=None,
    help="Also check that source_docs exist and keywords occur in them.",
)
@user_errors
def check(dataset: str, kb: Path | None) -> None:
    """Check a test set: missing source_docs, duplicate ids and questions, and with --kb unknown source_docs
    and keywords not found in their sources.

    Exit codes: 0 every item passes, 1 an item fails a check (each printed as file:line: reason),
    2 unreadable or malformed input (file:line of the first bad line)."""
    from testgen.check import check_items, load_checked_set

    items, lines = load_checked_set(dataset)
    by_category = Counter(item.category for item in items)
    click.echo(f"{dataset}: {len(items)} questions; " + ", ".join(f"{c} {n}" for c, n in sorted(by_category.items())))
    texts = None
    if kb is not None:
        from testgen.corpus import load_kb
        from testgen.text import normalize

        texts = {d.doc_id: normalize(d.text) for d in load_kb(kb).documents}
    problems = check_items(items, lines, texts)
    name = dataset.rstrip("/")
    for problem in problems:
        click.echo(f"{name}:{problem.line}: {problem.reason}")
    if problems:
        failing = len({p.line for p in problems})
        click.echo(f"{failing} of {len(items)} questions fail a check ({len(problems)} problems)", err=True)
        sys.exit(1)
    checked = "source_docs, keywords, ids, questions" if kb is not None else "source_docs named, ids, questions"
    click.echo(f"all {len(items)} questions pass ({checked}" + ("" if kb else "; give --kb to check sources") + ")")
