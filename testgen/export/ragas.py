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
from testgen.errors import UserInputError
from testgen.export.jsonl import write_lines

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
    return write_lines((json.dumps(row, ensure_ascii=False) for row in ragas_rows(items)), path)


def from_ragas_dataset(dataset: Any, *, category: str = "uncategorized") -> list[TestQuestion]:
    """Test questions from a RAGAS `EvaluationDataset`, the HF dataset it converts to, or its rows.

    user_input → question, reference → reference_answer, reference_contexts → reference_contexts,
    reference_context_ids → source_docs; ``id`` is recomputed as the generator computes it. RAGAS keeps no
    keywords or category: keywords are empty and every item gets `category`. Multi-turn samples are refused.
    """
    from testgen.generate import item_id  # the same content-hash ids the generator gives

    rows = dataset if isinstance(dataset, list) else dataset.to_list()
    items = []
    for number, row in enumerate(rows, start=1):
        question = row.get("user_input")
        if not isinstance(question, str) or not question:
            raise UserInputError(f"RAGAS sample {number}: user_input is not a single-turn question")
        sources = [str(x) for x in row.get("reference_context_ids") or []]
        extra = {k: row[k] for k in ("persona_name", "query_style", "query_length") if row.get(k) is not None}
        contexts = list(row.get("reference_contexts") or []) or None
        items.append(
            TestQuestion(
                question=question,
                keywords=[],
                reference_answer=row.get("reference") or "",
                category=category,
                source_docs=sources,
                id=item_id(question, sources),
                reference_contexts=contexts,
                metadata={"ragas": extra} if extra else None,
            )
        )
    return items
