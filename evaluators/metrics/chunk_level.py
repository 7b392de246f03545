"""The tutorial's chunk-level precision and nDCG, kept under their own names for comparison only.

These score a list of per-chunk relevance grades as a course notebook does: every retrieved chunk counts
(three chunks of one document are three hits) and nDCG's ideal ranking is the *retrieved* list sorted, so
relevant documents that were never retrieved cost nothing. They are not the toolkit's defaults — the
doc-level functions (:func:`precision`, :func:`ndcg`) are — and a report never mixes the two.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from evaluators.metrics._common import check_k, check_rels


def chunk_precision(rels: Sequence[int], k: int) -> float:
    """Chunk-level P@K = (chunks with grade > 0 among the first K) / K.

    Formula: ``Σ_{i ≤ K} [rel_i > 0] / K``, dividing by K even when fewer than K chunks were retrieved (as
    trec_eval's ``P_K``). Unlike :func:`precision`, chunks are not collapsed to documents.

    Edge cases: empty ``rels`` → 0.0. Raises ``ValueError`` on a bad ``k`` or a negative / non-int grade.
    Inputs are not modified. Example: ``[1,1,0,1,0]``, K=5 → 0.6.
    """
    if k is None:
        raise ValueError("chunk_precision needs a cutoff k")
    check_k(k)
    check_rels(rels)
    return sum(1 for grade in rels[:k] if grade > 0) / k


def chunk_ndcg(rels: Sequence[int], k: int) -> float:
    """Chunk-level nDCG@K with the ideal ranking taken from the retrieved list itself (the tutorial's form).

    Formula: ``DCG@K = Σ_{i ≤ K} rel_i / log2(i + 1)``; ``IDCG@K`` = DCG@K of ``sorted(rels, reverse=True)``;
    result ``DCG / IDCG``. Linear gain (graded ``rel_i`` allowed). Citation: Järvelin & Kekäläinen, TOIS 2002,
    with the common tutorial shortcut for the ideal; trec_eval's ``ndcg_cut_K`` (our :func:`ndcg`) instead
    builds the ideal from all relevant documents, retrieved or not.

    Edge cases: empty ``rels`` or no positive grade → 0.0. Raises ``ValueError`` on a bad ``k`` or a negative /
    non-int grade. Inputs are not modified. Example: ``[1,1,0,1,0]``, K=5 → DCG 2.062, IDCG 2.131, 0.968.
    """
    if k is None:
        raise ValueError("chunk_ndcg needs a cutoff k")
    check_k(k)
    check_rels(rels)
    dcg = 0.0
    for rank, grade in enumerate(rels[:k], start=1):
        if grade > 0:
            dcg += grade / math.log2(rank + 1)
    idcg = 0.0
    for rank, grade in enumerate(sorted(rels, reverse=True)[:k], start=1):
        if grade > 0:
            idcg += grade / math.log2(rank + 1)
    return dcg / idcg if idcg > 0 else 0.0
