"""Average precision at K (AP@K; its mean over questions is MAP@K)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from evaluators.metrics._common import judged


def average_precision(ranked_doc_ids: Sequence[str], relevant: Collection[str], k: int | None) -> float:
    """AP@K = (Σ over relevant ranks i ≤ K of P@i) / |relevant|.

    Formula: ``AP@K = Σ_{i ≤ K, d_i ∈ relevant} (|{j ≤ i : d_j ∈ relevant}| / i) / |relevant|`` over the
    collapsed ranking (chunks → documents, each at its first rank). Citation: trec_eval ``map_cut_K`` (and
    ``map`` for ``k=None``). The denominator is all relevant documents, not those found in the top K, so a
    ranking that misses relevant documents is penalised: ``[rel, rel]`` with 4 relevant gives 0.5.

    Edge cases: empty ranking → 0.0; a repeated document counts once. Raises ``ValueError`` on an empty
    ``relevant`` or ``k < 1``. Inputs are not modified.
    """
    rels, n_relevant = judged(ranked_doc_ids, relevant, k)
    total = 0.0
    found = 0
    for rank, rel in enumerate(rels, start=1):
        if rel:
            found += 1
            total += found / rank
    return total / n_relevant
