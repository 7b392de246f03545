"""Optional LLM enrichment of the knowledge graph for prose-heavy corpora (off by default).

Chunks whose structure yielded few facts are sent to the model, one call each, up to a budget of chunks (and
the client's ``--max-cost``). The model proposes atomic facts with a verbatim evidence sentence; a fact is kept
only when its evidence is found verbatim in the chunk and its value inside that evidence, so nothing enters
the graph that the documents do not say. Kept facts have ``source="llm"`` and go through the same validators
as every other fact when questions are made from them.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from schemas import ChunkNode, FactNode
from testgen.kg.graph import KnowledgeGraph
from testgen.kg.mining import fact_id
from testgen.kg.values import classify_value, find_values
from testgen.llm import LLM, LLMBudgetExceeded, LLMCallError
from testgen.llm.loop import EventLoop
from testgen.text import normalize

PROMPT_VERSION = "enrich-v1"
_MAX_FACTS = 8


class ExtractedFact(BaseModel):
    """One fact the model read in a passage."""

    subject: str = Field(description="What the fact is about, named as in the text.")
    attribute: str = Field(description="A short label for the property (e.g. 'founded', 'annual revenue').")
    value: str = Field(description="The value, copied exactly from the evidence.")
    evidence: str = Field(description="The sentence stating the fact, copied exactly from the passage.")


class Extraction(BaseModel):
    """The model's reply: the facts of one passage."""

    facts: list[ExtractedFact] = Field(default_factory=list)


@dataclass
class EnrichmentReport:
    """What enrichment did: chunks sent, facts added, facts refused by reason, failed calls."""

    chunks_sent: int = 0
    facts_added: int = 0
    refused: Counter[str] = field(default_factory=Counter)
    failed_calls: int = 0
    stopped_by_budget: bool = False


def _messages(chunk: ChunkNode, title: str) -> list[dict[str, str]]:
    system = (
        "You extract facts from documents for a question-answering test set. Reply with JSON only: "
        '{"facts": [{"subject": ..., "attribute": ..., "value": ..., "evidence": ...}]}. '
        f"At most {_MAX_FACTS} facts; only facts the passage states; copy `evidence` (one sentence) and `value` "
        "exactly from the passage, in its language; prefer dates, amounts, counts, names and roles."
    )
    user = f"Document: {title}\nSection: {' > '.join(chunk.heading_path)}\n\nPassage:\n{chunk.text}"
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


def select_chunks(kg: KnowledgeGraph, max_chunks: int, max_existing_facts: int = 1) -> list[ChunkNode]:
    """Prose chunks the structure said little about: few stated facts, longest first, deterministic."""
    stated = Counter(u for u, _, k in kg.graph.edges(keys=True) if k == "states")
    candidates = [c for c in kg.chunks() if stated[f"chunk:{c.chunk_id}"] <= max_existing_facts and len(c.text) > 200]
    candidates.sort(key=lambda c: (-len(c.text), c.chunk_id))
    return candidates[:max_chunks]


def _accept(fact: ExtractedFact, chunk: ChunkNode, report: EnrichmentReport) -> tuple[int, int] | None:
    evidence = fact.evidence.strip()
    pos = chunk.text.find(evidence) if evidence else -1
    if pos < 0:
        report.refused["evidence not verbatim in the passage"] += 1
        return None
    if not fact.value.strip() or normalize(fact.value) not in normalize(evidence):
        report.refused["value not in its evidence"] += 1
        return None
    if not fact.subject.strip() or not fact.attribute.strip():
        report.refused["empty subject or attribute"] += 1
        return None
    return chunk.start + pos, chunk.start + pos + len(evidence)


def _add(kg: KnowledgeGraph, fact: ExtractedFact, chunk: ChunkNode, span: tuple[int, int]) -> None:
    typed = classify_value(fact.value) or next(iter(find_values(fact.value)), None)
    subject_entity: str | None = "entity:" + normalize(fact.subject)
    if subject_entity not in kg.graph:
        subject_entity = None  # a new name: kept as text, not invented as an entity
    node = FactNode(
        fact_id=fact_id(chunk.doc_id, span[0], fact.attribute, fact.value),
        subject=fact.subject.strip(),
        subject_entity=subject_entity,
        attribute=fact.attribute.strip(),
        value=fact.value.strip(),
        value_type=typed.value_type if typed else "text",
        number=typed.number if typed else None,
        unit=typed.unit if typed else None,
        date_key=typed.date_key if typed else None,
        context=chunk.heading_path[-1] if chunk.heading_path else None,
        source="llm",
        doc_id=chunk.doc_id,
        chunk_id=chunk.chunk_id,
        evidence=fact.evidence.strip(),
        start=span[0],
        end=span[1],
    )
    if node.fact_id in kg.graph:
        return
    kg.add_node(node)
    kg.add_edge("states", f"chunk:{chunk.chunk_id}", node.fact_id)
    if subject_entity:
        kg.add_edge("about", node.fact_id, subject_entity)


async def aenrich_graph(kg: KnowledgeGraph, llm: LLM, *, max_chunks: int, concurrency: int = 8) -> EnrichmentReport:
    """Add LLM-read facts from up to `max_chunks` prose chunks to `kg` (stage "graph" in the usage report)."""
    report = EnrichmentReport()
    chunks = select_chunks(kg, max_chunks)
    titles = {d.doc_id: d.title for d in kg.documents()}
    for start in range(0, len(chunks), concurrency):
        batch = chunks[start : start + concurrency]
        calls = [
            llm.acomplete(_messages(c, titles.get(c.doc_id, c.doc_id)), stage="graph", response_model=Extraction)
            for c in batch
        ]
        replies = await asyncio.gather(*calls, return_exceptions=True)
        for chunk, reply in zip(batch, replies, strict=True):  # batch order: deterministic graph
            if isinstance(reply, LLMBudgetExceeded):
                report.stopped_by_budget = True
                continue
            report.chunks_sent += 1
            if isinstance(reply, LLMCallError):
                report.failed_calls += 1
                continue
            if isinstance(reply, BaseException):
                raise reply
            extraction = reply.parsed if isinstance(reply.parsed, Extraction) else None
            for fact in (extraction.facts if extraction else [])[:_MAX_FACTS]:
                span = _accept(fact, chunk, report)
                if span is not None:
                    _add(kg, fact, chunk, span)
                    report.facts_added += 1
        if report.stopped_by_budget:
            break
    kg.meta["enrichment"] = {
        "prompt_version": PROMPT_VERSION,
        "chunks": report.chunks_sent,
        "facts": report.facts_added,
    }
    return report


def enrich_graph(kg: KnowledgeGraph, llm: LLM, *, max_chunks: int, concurrency: int = 8) -> EnrichmentReport:
    """Blocking `aenrich_graph`; works inside a running loop too (a notebook), like the LLM stage."""
    loop = EventLoop()
    try:
        report: EnrichmentReport = loop.run(aenrich_graph(kg, llm, max_chunks=max_chunks, concurrency=concurrency))
    finally:
        loop.close()
    return report
