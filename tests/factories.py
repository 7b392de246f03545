"""Small builders for the graph's node types, shared by the tests that phrase or check single facts."""

from __future__ import annotations

from pathlib import Path

from schemas import FactNode
from testgen.kg.build import build_graph, load_corpus
from testgen.synth.context import GenContext


def kv_fact(attribute: str, value: str, value_type: str = "text", **fields: object) -> FactNode:
    """A key–value fact `- **attribute**: value` about subject "S" (other fields by keyword)."""
    return FactNode(
        fact_id="fact:t",
        subject="S",
        attribute=attribute,
        value=value,
        value_type=value_type,  # type: ignore[arg-type]
        source="key_value",
        doc_id="d.md",
        chunk_id="c0",
        evidence=f"- **{attribute}**: {value}",
        start=0,
        end=1,
        **fields,  # type: ignore[arg-type]
    )


def kb_context(root: Path, documents: dict[str, str]) -> GenContext:
    """Write `documents` (relative path → text) under `root` and build the generator's indexes over them."""
    for rel, text in documents.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return GenContext.from_graph(build_graph(load_corpus(root)))
