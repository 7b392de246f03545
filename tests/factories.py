"""Small builders for the graph's node types, shared by the tests that phrase or check single facts."""

from __future__ import annotations

from schemas import FactNode


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
