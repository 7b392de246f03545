"""Exporters: JSONL (the contract), Hugging Face datasets, RAGAS."""

from testgen.export.card import dataset_card, size_category
from testgen.export.hf import from_hf_dataset, save_hf_dataset, to_hf_dataset
from testgen.export.jsonl import dumps_item, read_jsonl, write_jsonl
from testgen.export.ragas import from_ragas_dataset, ragas_rows, to_ragas_dataset, write_ragas_jsonl

__all__ = [
    "dataset_card",
    "dumps_item",
    "from_hf_dataset",
    "from_ragas_dataset",
    "ragas_rows",
    "read_jsonl",
    "save_hf_dataset",
    "size_category",
    "to_hf_dataset",
    "to_ragas_dataset",
    "write_jsonl",
    "write_ragas_jsonl",
]
