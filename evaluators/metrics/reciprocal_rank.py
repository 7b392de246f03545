"""Reciprocal rank at K (RR@K; its mean over questions is MRR@K)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from evaluators.metrics._common import judged


def reciprocal_rank(ranked_doc_ids: Sequence[str], relevant: Collection[str], k: int | None) -> float:
    """RR@K = 1 / rank of the first relevant document within the top K, 0 when there is none.

    Formula: ``RR@K = 1 / min{i ≤ K : d_i ∈ relevant}`` over the collapsed ranking ``d_1, d_2, …`` (chunks
    mapped to documents, each document at its first rank — see :func:`collapse_to_docs`), else 0.
    Citation: trec_eval ``recip_rank`` (Voorhees, TREC-8 QA track). trec_eval's measure has no cutoff; RR@K
    equals ``recip_rank`` on the run truncated to K. ``k=None`` means no cutoff.

    Edge cases: empty ranking → 0.0; ids not in ``relevant`` are non-relevant; a repeated document counts at
    its first rank only. Raises ``ValueError`` on an empty ``relevant`` or ``k < 1``. Inputs are not modified.
    Example: first relevant at rank 2 → 0.5.
    """
    rels, _ = judged(ranked_doc_ids, relevant, k)
    for rank, rel in enumerate(rels, start=1):
        if rel:
            return 1.0 / rank
    return 0.0
