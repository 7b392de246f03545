"""Normalised discounted cumulative gain at K (nDCG@K), binary relevance."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from evaluators.metrics._common import discount, judged


def ndcg(ranked_doc_ids: Sequence[str], relevant: Collection[str], k: int | None) -> float:
    """nDCG@K = DCG@K / IDCG@K, linear gain, log2 discount, ideal ranking from all relevant documents.

    Formula: ``DCG@K = Σ_{i ≤ K, d_i ∈ relevant} 1 / log2(i + 1)`` over the collapsed ranking (chunks →
    documents, each at its first rank); ``IDCG@K = Σ_{i ≤ min(|relevant|, K)} 1 / log2(i + 1)``, the DCG of
    a ranking that puts every relevant document first. Citation: trec_eval ``ndcg_cut_K`` (``ndcg`` for
    ``k=None``); Järvelin & Kekäläinen, "Cumulated gain-based evaluation of IR techniques", TOIS 2002.
    Because IDCG counts relevant documents that were not retrieved, ``[0,0,0,1,1]`` with 2 relevant gives
    0.502. (The tutorial's chunk-level form takes IDCG from the retrieved list instead: see
    :func:`chunk_ndcg`.)

    Edge cases: empty ranking → 0.0; a repeated document counts once. Raises ``ValueError`` on an empty
    ``relevant`` or ``k < 1``. Inputs are not modified.
    """
    rels, n_relevant = judged(ranked_doc_ids, relevant, k)
    dcg = 0.0
    for rank, rel in enumerate(rels, start=1):
        if rel:
            dcg += discount(rank)
    ideal_len = n_relevant if k is None else min(n_relevant, k)
    idcg = 0.0
    for rank in range(1, ideal_len + 1):
        idcg += discount(rank)
    return dcg / idcg
