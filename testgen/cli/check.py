"""``testgen check``: read a test-set file (yours or generated) and report what it holds."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import click

from testgen.cli._common import user_errors
from testgen.export import read_jsonl


@click.command()
@click.option("--dataset", required=True, type=click.Path(path_type=Path), help="A tests.jsonl file.")
@click.option(
    "--kb",
    type=click.Path(path_type=Path),
    default=None,
    help="Also check that source_docs exist and keywords occur in them.",
)
@user_errors
def check(dataset: Path, kb: Path | None) -> None:
    """Validate a test-set file; exit 2 naming file:line on the first malformed line."""
    items = read_jsonl(dataset)
    by_category = Counter(item.category for item in items)
    click.echo(f"{dataset}: {len(items)} questions; " + ", ".join(f"{c} {n}" for c, n in sorted(by_category.items())))
    missing_sources = sum(1 for item in items if not item.source_docs)
    if missing_sources:
        click.echo(f"{missing_sources} question(s) have no source_docs: rank metrics cannot score them")
    if kb is None:
        return
    from testgen.corpus import load_kb
    from testgen.text import contains_keyword, normalize

    texts = {d.doc_id: normalize(d.text) for d in load_kb(kb).documents}
    unknown = ungrounded = 0
    for item in items:
        unknown += sum(1 for doc in item.source_docs if doc not in texts)
        docs = [texts[d] for d in item.source_docs if d in texts] or list(texts.values())
        ungrounded += sum(1 for k in item.keywords if not any(contains_keyword(t, k) for t in docs))
    click.echo(f"unknown source_docs: {unknown}; keywords not found in their sources: {ungrounded}")
