"""Ranking helpers shared by the retrievers: deterministic top-k and reciprocal-rank fusion.

Ties are always broken by item order (chunk order in the knowledge base), so the same index and query give
the same ranking on every machine.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

__all__ = ["RRF_K", "Ranking", "reciprocal_rank_fusion", "top_k"]

#: The constant of reciprocal-rank fusion (Cormack, Clarke and Büttcher, SIGIR 2009).
RRF_K = 60

#: A ranked list of ``(item index, score)``, best first.
Ranking = list[tuple[int, float]]


def top_k(indices: NDArray[np.integer], scores: NDArray[np.floating], k: int) -> Ranking:
    """The ``k`` best ``(index, score)`` pairs, highest score first, ties by smaller index.

    ``indices`` and ``scores`` are parallel 1-D arrays (e.g. the non-zero entries of one row of a sparse
    score matrix). Uses ``argpartition``, so the cost is linear in the number of candidates plus
    ``k log k``. Returns fewer than ``k`` pairs when there are fewer candidates; raises ValueError for
    ``k`` < 1 or arrays of different lengths.
    """
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    if indices.shape != scores.shape or indices.ndim != 1:
        raise ValueError("indices and scores must be 1-D arrays of the same length")
    if len(scores) > k:
        # Everything scoring at least the k-th best value: all of the top k, plus any items tied with it,
        # so the tie-break below sees every tied candidate, not the ones argpartition happened to pick.
        kth = scores[np.argpartition(-scores, k - 1)[k - 1]]
        keep = scores >= kth
        indices, scores = indices[keep], scores[keep]
    order = np.lexsort((indices, -scores))[:k]
    return [(int(indices[i]), float(scores[i])) for i in order]


def reciprocal_rank_fusion(rankings: Sequence[Ranking], k: int, rrf_k: int = RRF_K) -> Ranking:
    """Fuse ranked lists: ``score(d) = Σ 1 / (rrf_k + rank_i(d))`` over the lists holding ``d`` (rank from 1).

    Items missing from a list contribute nothing for it. Returns the ``k`` best ``(index, fused score)``
    pairs, ties broken by smaller index. Raises ValueError for ``k`` < 1 or ``rrf_k`` < 0.
    """
    if rrf_k < 0:
        raise ValueError(f"rrf_k must be 0 or more, got {rrf_k}")
    fused: dict[int, float] = {}
    for ranking in rankings:
        for rank, (index, _score) in enumerate(ranking, start=1):
            fused[index] = fused.get(index, 0.0) + 1.0 / (rrf_k + rank)
    if not fused:
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
        return []
    items = np.fromiter(fused.keys(), dtype=np.int64, count=len(fused))
    values = np.fromiter(fused.values(), dtype=np.float64, count=len(fused))
    return top_k(items, values, k)
