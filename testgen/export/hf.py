"""Hugging Face `datasets`: the test set as a `Dataset` and on disk (``save_to_disk``).

`metadata` varies in shape from item to item, so it is stored as a JSON string column; every other field
keeps its type. `from_hf_dataset` reverses the mapping exactly.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from schemas import TestQuestion

if TYPE_CHECKING:
    from datasets import Dataset

_COLUMNS = (
    "question",
    "keywords",
    "reference_answer",
    "category",
    "source_docs",
    "id",
    "language",
    "reference_contexts",
    "metadata",
)


def to_hf_dataset(items: list[TestQuestion]) -> Dataset:
    """A `datasets.Dataset` with one row per item (columns of the contract, metadata as JSON text)."""
    from datasets import Dataset, Features, Sequence, Value

    rows: list[dict[str, Any]] = []
    for item in items:
        rows.append(
            {
                "question": item.question,
                "keywords": list(item.keywords),
                "reference_answer": item.reference_answer,
                "category": item.category,
                "source_docs": list(item.source_docs),
                "id": item.id or "",
                "language": item.language or "",
                "reference_contexts": list(item.reference_contexts or []),
                "metadata": ""
                if item.metadata is None
                else json.dumps(item.metadata, ensure_ascii=False, sort_keys=True),
            }
        )
    features = Features(
        {
            "question": Value("string"),
            "keywords": Sequence(Value("string")),
            "reference_answer": Value("string"),
            "category": Value("string"),
            "source_docs": Sequence(Value("string")),
            "id": Value("string"),
            "language": Value("string"),
            "reference_contexts": Sequence(Value("string")),
            "metadata": Value("string"),
        }
    )
    return Dataset.from_list(rows, features=features)


def from_hf_dataset(dataset: Any) -> list[TestQuestion]:
    """Items back from a dataset made by `to_hf_dataset` (or any dataset with the five contract columns)."""
    items = []
    for row in dataset:
        data = {k: row[k] for k in row if k in _COLUMNS}
        meta = data.get("metadata")
        data["metadata"] = json.loads(meta) if isinstance(meta, str) and meta else None
        for key in ("id", "language"):
            if not data.get(key):
                data[key] = None
        if not data.get("reference_contexts"):
            data["reference_contexts"] = None
        items.append(TestQuestion.model_validate(data))
    return items


def save_hf_dataset(items: list[TestQuestion], path: str | Path) -> Path:
    """Save the set with ``Dataset.save_to_disk`` (reload with ``datasets.load_from_disk``)."""
    from datasets.utils.logging import disable_progress_bar, enable_progress_bar, is_progress_bar_enabled

    path = Path(path)
    was_enabled = is_progress_bar_enabled()
    disable_progress_bar()  # the CLI shows its own progress; datasets' bar would interleave with it
    try:
        to_hf_dataset(items).save_to_disk(str(path))
    finally:
        if was_enabled:
            enable_progress_bar()
    return path
