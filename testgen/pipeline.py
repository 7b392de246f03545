"""One call from a KB folder to a validated test set and its knowledge graph (what ``testgen build`` runs)."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from testgen.generate import GENERATOR_VERSION, GenerationResult, generate
from testgen.kg.build import Corpus, build_graph, load_corpus
from testgen.kg.graph import KnowledgeGraph
from testgen.llm._types import LLM
from testgen.synth.llm_synth import LLMOptions

Progress = Callable[[str, int, int], None]


@dataclass
class BuildOutcome:
    """Everything a build produced, and how long each stage took."""

    corpus: Corpus
    kg: KnowledgeGraph
    result: GenerationResult
    timings: dict[str, float] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    enrichment: dict[str, Any] | None = None  # LLM graph enrichment, when it ran

    def summary(self) -> dict[str, Any]:
        """The run summary written next to ``tests.jsonl`` (no timestamps in the items themselves)."""
        rejected: dict[str, dict[str, int]] = {}
        for (category, reason), count in sorted(self.result.rejected.items()):
            rejected.setdefault(category, {})[reason] = count
        summary = {
            "generator_version": GENERATOR_VERSION,
            "kb": str(self.corpus.root),
            "kb_fingerprint": self.corpus.fingerprint(),
            "documents": len(self.corpus.documents),
            "chunks": len(self.corpus.chunks),
            "skipped_files": [s.model_dump() for s in self.corpus.skipped],
            "options": self.options,
            "requested": self.result.requested,
            "generated": self.result.counts(),
            "total": len(self.result.items),
            "rejected": rejected,
            "shortfall": self.result.shortfall,
            **({"enrichment": self.enrichment} if self.enrichment is not None else {}),
            "filled": self.result.filled,
            "graph": self.kg.stats() | {"facts_per_document": None},
            "seconds": {k: round(v, 3) for k, v in self.timings.items()},
        }
        if self.result.llm:  # only with a model: the offline summary keeps its exact shape
            summary["llm"] = self.result.llm
            summary["stopped"] = self.result.stopped
        return summary


def build_testset(
    kb: str | os.PathLike[str],
    *,
    num: int = 50,
    mix: dict[str, float] | None = None,
    seed: int = 42,
    language: str | None = None,
    chunk_size: int = 800,
    chunk_overlap: int = 100,
    fill: bool = True,
    progress: Progress | None = None,
    llm: LLM | None = None,
    llm_options: LLMOptions | None = None,
    enrich_chunks: int = 0,
) -> BuildOutcome:
    """Load a KB, build its knowledge graph and generate `num` validated questions.

    Offline by default; with `llm`, each question is rewritten by the model (one call per seed, checked
    again). The graph is always built without the model."""
    timings: dict[str, float] = {}
    started = time.perf_counter()
    corpus = load_corpus(kb, chunk_size=chunk_size, chunk_overlap=chunk_overlap, language=language)
    timings["load"] = time.perf_counter() - started
    mark = time.perf_counter()
    kg = build_graph(corpus, progress=progress)
    enrichment = None
    if llm is not None and enrich_chunks > 0:
        from testgen.kg.enrich import enrich_graph

        enrichment = enrich_graph(kg, llm, max_chunks=enrich_chunks)
    timings["graph"] = time.perf_counter() - mark
    mark = time.perf_counter()
    if llm is not None:
        llm_options = llm_options or LLMOptions()
        if llm_options.kb is None:  # the round-trip check retrieves from the same folder
            llm_options = replace(llm_options, kb=Path(kb))
    result = generate(
        kg,
        num=num,
        mix=mix,
        seed=seed,
        language=language,
        fill=fill,
        progress=progress,
        llm=llm,
        llm_options=llm_options,
    )
    timings["generate"] = time.perf_counter() - mark
    timings["total"] = time.perf_counter() - started
    options: dict[str, Any] = {
        "num": num,
        "mix": mix,
        "seed": seed,
        "language": language or "auto",
        "chunk_size": chunk_size,
        "chunk_overlap": chunk_overlap,
        "fill": fill,
    }
    if llm is not None and llm_options is not None:
        options["llm"] = {
            "model": llm.model,
            "concurrency": llm_options.concurrency,
            "round_trip": llm_options.round_trip,
            "styles": llm_options.styles,
            "personas": [p.name for p in llm_options.personas or []],
        }
    outcome = BuildOutcome(corpus, kg, result, timings, options)
    if enrichment is not None:
        outcome.enrichment = {
            "chunks_sent": enrichment.chunks_sent,
            "facts_added": enrichment.facts_added,
            "refused": dict(sorted(enrichment.refused.items())),
            "failed_calls": enrichment.failed_calls,
            "stopped_by_budget": enrichment.stopped_by_budget,
        }
    return outcome
