"""Indexes over the knowledge graph that categories and validators share."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from operator import attrgetter

from schemas import ChunkNode, DocumentNode, EntityNode, FactNode
from testgen.kg.graph import KnowledgeGraph
from testgen.text import normalize, tokens

_ASCII_LETTERS = re.compile(r"[a-z]+")

#: Categories draw their candidates from at most this many facts. A larger KB (one 50 MB document holds 1.7 million)
#: gives them every n-th fact in id order: ids are hashes, so that is an even sample across documents and sections,
#: and the same one for every seed. What a set of hundreds of questions needs, without a pass over every fact per
#: category; the checks (ambiguity, restatements, counts and extremes over a type) still read every fact.
MAX_CANDIDATE_FACTS = 250_000


@dataclass
class GenContext:
    """Everything a category needs to find material, built once per run."""

    kg: KnowledgeGraph
    language: str | None = None  # forced question language; None = the document's own
    docs: dict[str, DocumentNode] = field(default_factory=dict)
    doc_text: dict[str, str] = field(default_factory=dict)  # normalised full text per document
    chunks: dict[str, ChunkNode] = field(default_factory=dict)
    entities: dict[str, EntityNode] = field(default_factory=dict)
    facts: list[FactNode] = field(default_factory=list)
    candidate_facts: list[FactNode] = field(default_factory=list)  # what categories draw from (see MAX_CANDIDATE_FACTS)
    facts_by_entity: dict[str, list[FactNode]] = field(default_factory=lambda: defaultdict(list))
    chunk_mentions: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    token_index: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # token -> chunk ids
    chunk_norm: dict[str, str] = field(default_factory=dict)
    vocabulary: frozenset[str] = frozenset()
    chunks_by_doc: dict[str, list[ChunkNode]] = field(default_factory=lambda: defaultdict(list))
    entity_chunks: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))  # entity -> chunk ids
    memo: dict[str, object] = field(default_factory=dict)  # per-run results shared by categories
    _segments: dict[str, list[str]] = field(default_factory=dict)

    @classmethod
    def from_graph(cls, kg: KnowledgeGraph, language: str | None = None) -> GenContext:
        ctx = cls(kg=kg, language=language)
        pieces: dict[str, list[tuple[int, str]]] = defaultdict(list)
        for doc in kg.documents():
            ctx.docs[doc.doc_id] = doc
        token_index = ctx.token_index
        for chunk in kg.chunks():
            chunk_id = chunk.chunk_id
            ctx.chunks[chunk_id] = chunk
            ctx.chunks_by_doc[chunk.doc_id].append(chunk)
            norm = normalize(chunk.text)
            ctx.chunk_norm[chunk_id] = norm
            pieces[chunk.doc_id].append((chunk.start, norm))
            for tok in set(tokens(chunk.text)):
                token_index[tok].add(chunk_id)
        # The runs of a-z letters of the texts: each lies within one index token (tokens are the longest runs of a
        # wider letter class), so the distinct tokens give them all without a second pass over every text.
        ctx.vocabulary = frozenset(run for tok in token_index for run in _ASCII_LETTERS.findall(tok))
        for doc_id, parts in pieces.items():
            ctx.doc_text[doc_id] = "\n".join(text for _, text in sorted(parts))
        for entity in kg.entities():
            ctx.entities[entity.entity_id] = entity
        ctx.facts = sorted(kg.facts(), key=attrgetter("fact_id"))
        step = -(-len(ctx.facts) // MAX_CANDIDATE_FACTS)
        ctx.candidate_facts = ctx.facts[::step] if step > 1 else ctx.facts
        for fact in ctx.facts:
            if fact.subject_entity:
                ctx.facts_by_entity[fact.subject_entity].append(fact)
        succ = kg.graph._succ  # the mentions edges leave chunks: their own edges, not a walk over every edge
        for chunk_id in ctx.chunks:
            for target, keys in succ[f"chunk:{chunk_id}"].items():
                if "mentions" in keys:
                    ctx.chunk_mentions[chunk_id].add(target)
                    ctx.entity_chunks[target].add(chunk_id)
        for parts_of_doc in ctx.chunks_by_doc.values():
            parts_of_doc.sort(key=lambda c: c.start)
        return ctx

    def language_of(self, fact: FactNode) -> str:
        """The language a question about this fact is written in."""
        return self.language or self.docs[fact.doc_id].language

    def doc_type(self, doc_id: str) -> str:
        return self.docs[doc_id].doc_type

    def segments(self, chunk_id: str) -> list[str]:
        """Lines and sentences of a chunk, normalised (cached)."""
        cached = self._segments.get(chunk_id)
        if cached is None:
            parts = re.split(r"\n|(?<=[.!?。！？])\s+|(?<=다\.)\s*", self.chunks[chunk_id].text)
            cached = [normalize(p) for p in parts if p.strip()]
            self._segments[chunk_id] = cached
        return cached

    def chunks_with(self, text: str) -> set[str]:
        """Chunk ids whose normalised text may contain `text` (all its index tokens present)."""
        toks = set(tokens(text))
        if not toks:
            return set()
        result: set[str] | None = None
        for tok in sorted(toks, key=lambda t: len(self.token_index.get(t, ()))):
            posting = self.token_index.get(tok, set())
            result = set(posting) if result is None else result & posting
            if not result:
                return set()
        return result or set()
