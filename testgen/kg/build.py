"""Corpus → knowledge graph: load, chunk, mine facts, resolve entities, link, relate similar chunks."""

from __future__ import annotations

import hashlib
import os
import re
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from schemas import Chunk, ChunkNode, Document, DocumentNode, SkippedFile
from testgen.chunking import chunk_document, chunk_documents
from testgen.corpus import gather_loaded, kb_files, load_path
from testgen.engine import Engine, LocalEngine
from testgen.kg.entities import (
    EntityIndex,
    attach_entities,
    build_matcher,
    find_mentions,
    resolve_entities,
)
from testgen.kg.graph import KnowledgeGraph
from testgen.kg.mining import MinedDocument, heading_works, mine_document
from testgen.kg.similarity import similar_pairs
from testgen.names import is_generic_title
from testgen.text import normalize

Progress = Callable[[str, int, int], None]


@dataclass
class Corpus:
    """The loaded knowledge base: documents, their chunks, and what could not be loaded."""

    root: str
    documents: list[Document]
    chunks: list[Chunk]
    skipped: list[SkippedFile]

    def fingerprint(self) -> str:
        """Hash of every document id and text: changes exactly when the KB's content changes."""
        h = hashlib.sha256()
        for doc in sorted(self.documents, key=lambda d: d.doc_id):
            h.update(doc.doc_id.encode())
            h.update(b"\x00")
            h.update(doc.text.encode())
            h.update(b"\x01")
        return h.hexdigest()[:16]


def load_corpus(
    root: str | os.PathLike[str],
    *,
    chunk_size: int = 800,
    chunk_overlap: int = 100,
    language: str | None = None,
    engine: Engine | None = None,
    progress: Progress | None = None,
) -> Corpus:
    """Load and chunk a KB folder; with `engine`, each file is read and chunked where the engine runs work.

    Documents are in path order and chunks in document order whatever the engine (see `testgen.corpus`)."""
    chunk_documents([], size=chunk_size, overlap=chunk_overlap)  # bad sizes fail before any file is read
    files = kb_files(root)
    settings = _LoadSettings(files.root, language, chunk_size, chunk_overlap)
    loaded = (engine or LocalEngine()).map(
        _load_and_chunk, files.paths, shared=settings, stage="loading documents", progress=progress, every=200
    )
    result = gather_loaded(files, [item for item, _ in loaded])
    chunks = [chunk for _, doc_chunks in loaded for chunk in doc_chunks]
    return Corpus(str(root), result.documents, chunks, result.skipped)


@dataclass(frozen=True)
class _LoadSettings:
    root: Path
    language: str | None
    chunk_size: int
    chunk_overlap: int


def _load_and_chunk(settings: _LoadSettings, path: Path) -> tuple[Document | SkippedFile, list[Chunk]]:
    """One file, loaded and chunked (no chunks when it was skipped)."""
    item = load_path(settings.root, path, settings.language)
    if isinstance(item, SkippedFile):
        return item, []
    return item, chunk_document(item, size=settings.chunk_size, overlap=settings.chunk_overlap)


def build_graph(
    corpus: Corpus, *, similar_k: int = 5, progress: Progress | None = None, engine: Engine | None = None
) -> KnowledgeGraph:
    """The knowledge graph of a loaded corpus (no LLM call).

    With `engine`, facts are mined and mentions found per document where the engine runs work; entities,
    nodes, edges and similar chunks are worked out here, from the results in document order."""
    engine = engine or LocalEngine()
    report = progress or (lambda stage, done, total: None)
    kg = KnowledgeGraph(meta={"kb_fingerprint": corpus.fingerprint(), "documents": len(corpus.documents)})
    by_doc: dict[str, list[Chunk]] = defaultdict(list)
    for chunk in corpus.chunks:
        by_doc[chunk.doc_id].append(chunk)
    mined = _mine_facts(corpus, by_doc, engine, report)
    index = resolve_entities(corpus.documents, mined)
    mentions = _find_mentions(corpus, index, engine, report)
    _pick_doc_subjects(corpus.documents, index, mentions.by_doc)
    _add_documents_and_chunks(kg, corpus, by_doc)
    _add_entities_and_facts(kg, corpus, index, mined)
    _add_mention_edges(kg, index, mentions)
    _add_similar_chunks(kg, corpus, similar_k, report)
    return kg


@dataclass(frozen=True)
class _Mentions:
    by_chunk: dict[str, Counter[str]]  # chunk id → entity key → mentions, in chunk order
    by_doc: dict[str, Counter[str]]  # doc id → entity key → mentions in all its chunks


def _mine_facts(
    corpus: Corpus, by_doc: dict[str, list[Chunk]], engine: Engine, report: Progress
) -> dict[str, MinedDocument]:
    """Step 1, facts from structure. Titles are known names first, so headings naming them count as subjects, and
    so are the works headings quote ("## 1. 《겨울, 수선집》 — 재공연"): a catalogue's row names the work too."""
    known = frozenset(normalize(d.title) for d in corpus.documents if not is_generic_title(d.title)) | frozenset(
        name for d in corpus.documents for name in heading_works(d.text)
    )
    # A large document's own bar needs the caller's callback, which only an in-process engine can reach.
    mining = _Mining(known, report if engine.in_process else None)
    work = [(doc, by_doc[doc.doc_id]) for doc in corpus.documents]
    results = engine.map(_mine, work, shared=mining, stage="mining facts", progress=report, every=200)
    return {doc.doc_id: found for doc, found in zip(corpus.documents, results, strict=True)}


def _find_mentions(corpus: Corpus, index: EntityIndex, engine: Engine, report: Progress) -> _Mentions:
    """Step 2, who each chunk (and so each document) mentions among the entities resolved across documents."""
    forms = index.surface_forms()
    matcher = build_matcher(forms)
    chunk_mentions: dict[str, Counter[str]] = {}
    doc_mentions: dict[str, Counter[str]] = defaultdict(Counter)
    texts = [chunk.text for chunk in corpus.chunks]
    counts = engine.map(
        _mentions, texts, shared=(matcher, forms), stage="finding mentions", progress=report, every=2000
    )
    for chunk, found in zip(corpus.chunks, counts, strict=True):
        chunk_mentions[chunk.chunk_id] = found
        doc_mentions[chunk.doc_id].update(found)
    return _Mentions(chunk_mentions, doc_mentions)


def _add_documents_and_chunks(kg: KnowledgeGraph, corpus: Corpus, by_doc: dict[str, list[Chunk]]) -> None:
    """Step 3a, a node per document and per chunk, each chunk contained in its document."""
    for doc in corpus.documents:
        doc_node = kg.add_node(
            DocumentNode(doc_id=doc.doc_id, doc_type=doc.doc_type, title=doc.title, language=doc.language)
        )
        for chunk in by_doc[doc.doc_id]:
            chunk_node = kg.add_node(
                ChunkNode(
                    chunk_id=chunk.chunk_id,
                    doc_id=chunk.doc_id,
                    index=chunk.index,
                    start=chunk.start,
                    end=chunk.end,
                    heading_path=list(chunk.heading_path),
                    text=chunk.text,
                )
            )
            kg.add_edge("contains", doc_node, chunk_node)


def _add_entities_and_facts(
    kg: KnowledgeGraph, corpus: Corpus, index: EntityIndex, mined: dict[str, MinedDocument]
) -> None:
    """Step 3b, the entities, then each document's facts with their entities attached, and their edges."""
    for entity in index.entities.values():
        kg.add_node(entity)
    # One copy of each repeated text of the facts; entity ids are those the graph holds.
    pool: dict[str | int, Any] = {key: key for key in index.entities}
    for doc in corpus.documents:
        # pop: the mined facts, held nowhere else, are filled in where they are
        facts = attach_entities(
            mined.pop(doc.doc_id).facts,
            index,
            index.doc_subject.get(doc.doc_id),
            pool,
            in_place=True,
            doc_title=doc.title,
        )
        kg.add_facts(facts)


def _add_mention_edges(kg: KnowledgeGraph, index: EntityIndex, mentions: _Mentions) -> None:
    """Step 3c, chunk → entity mentions, and document → document links."""
    for chunk_id, found in mentions.by_chunk.items():
        for entity_key, count in sorted(found.items()):
            kg.add_edge("mentions", f"chunk:{chunk_id}", entity_key, count)
    # links: a document mentions an entity whose own document is another one
    for doc_id, found in sorted(mentions.by_doc.items()):
        for entity_key, count in sorted(found.items()):
            home = index.entities[entity_key].home_doc
            if home and home != doc_id:
                kg.add_edge("links", f"doc:{doc_id}", f"doc:{home}", count)


def _add_similar_chunks(kg: KnowledgeGraph, corpus: Corpus, similar_k: int, report: Progress) -> None:
    """Step 4, similar chunks (top-k neighbours, never all pairs)."""
    report("relating chunks", 0, 1)
    for i, j, score in similar_pairs([c.text for c in corpus.chunks], k=similar_k):
        a, b = corpus.chunks[i].chunk_id, corpus.chunks[j].chunk_id
        kg.add_edge("similar", f"chunk:{a}", f"chunk:{b}", score)
    report("relating chunks", 1, 1)


@dataclass(frozen=True)
class _Mining:
    known: frozenset[str]  # normalised titles of every document that names a thing
    report: Progress | None  # the caller's progress callback, when mining runs in its process


def _mine(mining: _Mining, work: tuple[Document, list[Chunk]]) -> MinedDocument:
    doc, chunks = work
    bar = _document_bar(doc, mining.report) if mining.report is not None else None
    # a document's halves in two processes only where mining runs in the caller's own process
    return mine_document(doc, chunks, mining.known, progress=bar, split=mining.report is not None)


def _mentions(matching: tuple[re.Pattern[str] | None, dict[str, str]], text: str) -> Counter[str]:
    matcher, forms = matching
    return find_mentions(normalize(text), matcher, forms)


#: Documents at least this long (characters) get their own mining progress bar.
LARGE_DOCUMENT = 1_000_000


def _document_bar(doc: Document, report: Progress) -> Callable[[int, int], None] | None:
    """Progress of mining one large document, in thousands of characters (None for a normal one)."""
    if len(doc.text) < LARGE_DOCUMENT:
        return None
    return lambda done, total: report(f"mining {doc.doc_id} (k chars)", done // 1000, total // 1000)


def _pick_doc_subjects(documents: list[Document], index: EntityIndex, mentions: dict[str, Counter[str]]) -> None:
    """Each document's subject: its own entity, else the entity its generic title contains or it names most."""
    home = {node.home_doc: key for key, node in index.entities.items() if node.home_doc}
    for doc in documents:
        if doc.doc_id in home:
            index.doc_subject[doc.doc_id] = home[doc.doc_id]
            continue
        counts = mentions.get(doc.doc_id, Counter())
        in_title = [
            key
            for key in counts
            if index.entities[key].name and normalize(index.entities[key].name) in normalize(doc.title)
        ]
        if in_title:
            index.doc_subject[doc.doc_id] = max(in_title, key=lambda k: (len(index.entities[k].name), k))
        elif counts and not is_generic_title(doc.title):
            # a page titled only by its kind ("연혁", "회사 개요") is about the KB's owner, whom it need not name most:
            # the CEO or the first product it names is no subject for the founding date or the headcount
            best = max(sorted(counts), key=lambda k: counts[k])
            if counts[best] >= 2:
                index.doc_subject[doc.doc_id] = best
