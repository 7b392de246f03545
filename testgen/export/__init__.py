"""Exporters: JSONL (the contract), Hugging Face datasets, RAGAS."""

from testgen.export.hf import from_hf_dataset, save_hf_dataset, to_hf_dataset
from testgen.export.jsonl import dumps_item, read_jsonl, write_jsonl
from testgen.export.ragas import ragas_rows, to_ragas_dataset, write_ragas_jsonl

__all__ = [
    "dumps_item",
    "from_hf_dataset",
    "ragas_rows",
    "read_jsonl",
    "save_hf_dataset",
    "to_hf_dataset",
    "to_ragas_dataset",
    "write_jsonl",
    "write_ragas_jsonl",
]
