"""Hit at K (Hit@K, trec_eval's success@K)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from evaluators.metrics._common import judged


def hit(ranked_doc_ids: Sequence[str], relevant: Collection[str], k: int | None) -> float:
    """Hit@K = 1.0 if any relevant document is in the top K, else 0.0.

    Formula: ``Hit@K = [∃ i ≤ K : d_i ∈ relevant]`` over the collapsed ranking (chunks → documents). Citation:
    trec_eval ``success_K``. Its mean over questions is the hit rate. ``k=None`` means no cutoff.

    Edge cases: empty ranking → 0.0. Raises ``ValueError`` on an empty ``relevant`` or ``k < 1``. Inputs are
    not modified.
    """
    rels, _ = judged(ranked_doc_ids, relevant, k)
    return 1.0 if any(rels) else 0.0
