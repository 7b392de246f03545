"""Rank-aware context precision at K (the RAGAS form), over relevance flags or over document ids."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from evaluators.metrics._common import check_k, check_rels, judged


def _context_precision(flags: Sequence[bool]) -> float:
    total = 0.0
    found = 0
    for rank, rel in enumerate(flags, start=1):
        if rel:
            found += 1
            total += found / rank
    return total / found if found else 0.0


def context_precision(rels: Sequence[int], k: int | None) -> float:
    """Context precision@K = Σ_{i ≤ K} (P@i · rel_i) / (number of relevant items in the top K).

    Formula: with ``rel_i ∈ {0, 1}`` (a grade > 0 counts as relevant) and ``P@i`` the share of relevant items
    in the first ``i``, ``CP@K = Σ_{i ≤ K} P@i · rel_i / Σ_{i ≤ K} rel_i``. Citation: RAGAS
    ``context_precision`` (Es et al., "RAGAS: Automated Evaluation of Retrieval Augmented Generation", 2023).
    Equal to AP@K with the denominator "relevant found in the top K" instead of "all relevant", so it rewards
    putting relevant contexts first but does not penalise missing ones. ``k=None`` means no cutoff.

    Edge cases: no relevant item in the top K (or empty ``rels``) → 0.0. Raises ``ValueError`` on ``k < 1``
    or a negative / non-int grade. Inputs are not modified. Examples: ``[1,0,1,0,1]`` → 0.7556,
    ``[1,1,1,0,0]`` → 1.0, ``[0,0,0,1,1]`` → 0.325.
    """
    check_k(k)
    check_rels(rels)
    cut = rels if k is None else rels[:k]
    return _context_precision([grade > 0 for grade in cut])


def context_precision_at_k(ranked_doc_ids: Sequence[str], relevant: Collection[str], k: int | None) -> float:
    """Context precision@K over document ids: :func:`context_precision` of the collapsed ranking.

    Relevance is ``doc ∈ relevant`` after chunk → document collapse (each document at its first rank), so a
    document's later chunks neither add hits nor push other documents down.

    Edge cases: empty ranking or no relevant document in the top K → 0.0. Raises ``ValueError`` on an empty
    ``relevant`` (a question without source_docs cannot be scored) or ``k < 1``. Inputs are not modified.
    """
    flags, _ = judged(ranked_doc_ids, relevant, k)
    return _context_precision(flags)
