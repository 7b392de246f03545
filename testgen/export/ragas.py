"""RAGAS `EvaluationDataset`: user_input, reference, reference_contexts, reference_context_ids.

`reference_context_ids` are the item's `source_docs` (document ids), which is what RAGAS's ID-based
context precision and recall compare with the retrieved ids.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemas import TestQuestion

if TYPE_CHECKING:
    from ragas import EvaluationDataset


def _offline_env() -> None:
    # RAGAS sends usage telemetry unless told not to; never from this toolkit.
    os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")


def ragas_rows(items: list[TestQuestion]) -> list[dict[str, Any]]:
    """Plain dicts in RAGAS's single-turn sample layout."""
    return [
        {
            "user_input": item.question,
            "reference_contexts": list(item.reference_contexts or []),
            "reference_context_ids": list(item.source_docs),
            "reference": item.reference_answer,
        }
        for item in items
    ]


def to_ragas_dataset(items: list[TestQuestion]) -> EvaluationDataset:
    """A RAGAS `EvaluationDataset` of `SingleTurnSample`s."""
    _offline_env()
    from ragas import EvaluationDataset, SingleTurnSample

    return EvaluationDataset(samples=[SingleTurnSample(**row) for row in ragas_rows(items)])


def write_ragas_jsonl(items: list[TestQuestion], path: str | Path) -> Path:
    """The set in RAGAS's own JSONL layout (what ``EvaluationDataset.to_jsonl`` writes)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for row in ragas_rows(items):
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path
