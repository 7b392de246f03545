"""Precision at K (P@K)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from evaluators.metrics._common import check_k, judged


def precision(ranked_doc_ids: Sequence[str], relevant: Collection[str], k: int) -> float:
    """P@K = (relevant documents in the top K) / K.

    Formula: ``P@K = |{i ≤ K : d_i ∈ relevant}| / K`` over the collapsed ranking (chunks → documents, each
    at its first rank). Citation: trec_eval ``P_K``. The denominator is K even when fewer than K documents
    were retrieved (trec_eval's convention: retrieving less is not rewarded), so 1 relevant of 2 retrieved
    gives P@5 = 0.2.

    Edge cases: empty ranking → 0.0; a repeated document counts once. There is no uncut precision: ``k`` must
    be a positive int. Raises ``ValueError`` on an empty ``relevant`` or a bad ``k``. Inputs are not modified.
    """
    if k is None:
        raise ValueError("precision needs a cutoff k (P@K divides by K)")
    check_k(k)
    rels, _ = judged(ranked_doc_ids, relevant, k)
    return sum(rels) / k
