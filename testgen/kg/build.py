"""Corpus → knowledge graph: load, chunk, mine facts, resolve entities, link, relate similar chunks."""

from __future__ import annotations

import hashlib
import os
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass

from schemas import Chunk, ChunkNode, Document, DocumentNode, SkippedFile
from testgen.chunking import chunk_documents
from testgen.corpus import load_kb
from testgen.kg.entities import (
    EntityIndex,
    attach_entities,
    build_matcher,
    find_mentions,
    resolve_entities,
)
from testgen.kg.graph import KnowledgeGraph
from testgen.kg.mining import MinedDocument, mine_document
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
) -> Corpus:
    """Load and chunk a KB folder."""
    loaded = load_kb(root, language=language)
    chunks = chunk_documents(loaded.documents, size=chunk_size, overlap=chunk_overlap)
    return Corpus(str(root), loaded.documents, chunks, loaded.skipped)


def build_graph(corpus: Corpus, *, similar_k: int = 5, progress: Progress | None = None) -> KnowledgeGraph:
    """The knowledge graph of a loaded corpus (no LLM call)."""
    report = progress or (lambda stage, done, total: None)
    kg = KnowledgeGraph(meta={"kb_fingerprint": corpus.fingerprint(), "documents": len(corpus.documents)})
    by_doc: dict[str, list[Chunk]] = defaultdict(list)
    for chunk in corpus.chunks:
        by_doc[chunk.doc_id].append(chunk)

    # 1. Facts from structure. Titles are known names first, so headings naming them count as subjects.
    known = frozenset(normalize(d.title) for d in corpus.documents if not is_generic_title(d.title))
    mined: dict[str, MinedDocument] = {}
    total = len(corpus.documents)
    for i, doc in enumerate(corpus.documents, 1):
        mined[doc.doc_id] = mine_document(doc, by_doc[doc.doc_id], known, progress=_document_bar(doc, report))
        if i % 200 == 0 or i == total:
            report("mining facts", i, total)

    # 2. Entities across documents, and who each chunk mentions.
    index = resolve_entities(corpus.documents, mined)
    forms = index.surface_forms()
    matcher = build_matcher(forms)
    chunk_mentions: dict[str, Counter[str]] = {}
    doc_mentions: dict[str, Counter[str]] = defaultdict(Counter)
    for i, chunk in enumerate(corpus.chunks, 1):
        found = find_mentions(normalize(chunk.text), matcher, forms)
        chunk_mentions[chunk.chunk_id] = found
        doc_mentions[chunk.doc_id].update(found)
        if i % 2000 == 0 or i == len(corpus.chunks):
            report("finding mentions", i, len(corpus.chunks))
    _pick_doc_subjects(corpus.documents, index, doc_mentions)

    # 3. Nodes and edges.
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
    for entity in index.entities.values():
        kg.add_node(entity)
    for doc in corpus.documents:
        # pop: the mined facts are replaced by their attached copies, not kept beside them
        facts = attach_entities(mined.pop(doc.doc_id).facts, index, index.doc_subject.get(doc.doc_id))
        for fact in facts:
            node = kg.add_node(fact)
            if fact.chunk_id:
                kg.add_edge("states", f"chunk:{fact.chunk_id}", node)
            if fact.subject_entity:
                kg.add_edge("about", node, fact.subject_entity)
            if fact.value_entity:
                kg.add_edge("has_value", node, fact.value_entity)
    for chunk_id, found in chunk_mentions.items():
        for entity_key, count in sorted(found.items()):
            kg.add_edge("mentions", f"chunk:{chunk_id}", entity_key, count)
    # links: a document mentions an entity whose own document is another one
    for doc_id, found in sorted(doc_mentions.items()):
        for entity_key, count in sorted(found.items()):
            home = index.entities[entity_key].home_doc
            if home and home != doc_id:
                kg.add_edge("links", f"doc:{doc_id}", f"doc:{home}", count)

    # 4. Similar chunks (top-k neighbours, never all pairs).
    report("relating chunks", 0, 1)
    for i, j, score in similar_pairs([c.text for c in corpus.chunks], k=similar_k):
        a, b = corpus.chunks[i].chunk_id, corpus.chunks[j].chunk_id
        kg.add_edge("similar", f"chunk:{a}", f"chunk:{b}", score)
    report("relating chunks", 1, 1)
    return kg


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
        elif counts:
            best = max(sorted(counts), key=lambda k: counts[k])
            if counts[best] >= 2:
                index.doc_subject[doc.doc_id] = best
