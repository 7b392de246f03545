"""testgen: synthetic test sets for RAG systems, generated from your own documents.

The Python API does everything the CLI does::

    from testgen import build_testset, write_jsonl
    outcome = build_testset("examples/aurora_bikes", num=50, seed=42)
    write_jsonl(outcome.result.items, "tests.jsonl")
"""

from testgen.export import (
    from_hf_dataset,
    from_ragas_dataset,
    read_jsonl,
    save_hf_dataset,
    to_hf_dataset,
    to_ragas_dataset,
    write_jsonl,
    write_ragas_jsonl,
)
from testgen.generate import DEFAULT_MIX, GenerationResult, generate, parse_mix, quotas
from testgen.hub import load_dataset_ref, push_dataset
from testgen.kg.build import Corpus, build_graph, load_corpus
from testgen.kg.graph import KnowledgeGraph
from testgen.pipeline import BuildOutcome, build_testset

__version__ = "0.1.0"

__all__ = [
    "DEFAULT_MIX",
    "BuildOutcome",
    "Corpus",
    "GenerationResult",
    "KnowledgeGraph",
    "build_graph",
    "build_testset",
    "from_hf_dataset",
    "from_ragas_dataset",
    "generate",
    "load_corpus",
    "load_dataset_ref",
    "parse_mix",
    "push_dataset",
    "quotas",
    "read_jsonl",
    "save_hf_dataset",
    "to_hf_dataset",
    "to_ragas_dataset",
    "write_jsonl",
    "write_ragas_jsonl",
]
