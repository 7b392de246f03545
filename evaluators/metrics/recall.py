"""Recall at K (R@K)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from evaluators.metrics._common import judged


def recall(ranked_doc_ids: Sequence[str], relevant: Collection[str], k: int | None) -> float:
    """R@K = (distinct relevant documents in the top K) / |relevant|.

    Formula: ``R@K = |{d_i : i ≤ K} ∩ relevant| / |relevant|`` over the collapsed ranking (chunks →
    documents, each at its first rank). Citation: trec_eval ``recall_K``. ``relevant`` is every document that
    holds the answer (a question's ``source_docs``), so finding one of three gives 1/3. ``k=None`` means no
    cutoff.

    Edge cases: empty ranking → 0.0; a relevant document retrieved twice counts once; duplicates inside
    ``relevant`` count once. Raises ``ValueError`` on an empty ``relevant`` or ``k < 1``. Inputs are not
    modified.
    """
    rels, n_relevant = judged(ranked_doc_ids, relevant, k)
    return sum(rels) / n_relevant
