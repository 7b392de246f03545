"""Shared input handling for the per-query reference metrics: validate, collapse, cut, mark relevance."""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from functools import lru_cache

from evaluators.metrics.collapse import collapse_to_docs


def check_k(k: int | None) -> None:
    """Raise ``ValueError`` unless ``k`` is ``None`` (no cutoff) or a positive int."""
    if k is None:
        return
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k must be a positive int (or None for no cutoff), got {k!r}")


def judged(ranked_doc_ids: Sequence[str], relevant: Collection[str], k: int | None) -> tuple[list[bool], int]:
    """Binary relevance of the collapsed ranking cut at ``k``, and the number of distinct relevant docs.

    Raises ``ValueError`` on an empty ``relevant`` (a question without source docs cannot be scored), on a
    bad ``k``, and when a single string is passed where a collection of ids is expected.
    """
    check_k(k)
    if isinstance(relevant, str):
        raise ValueError("relevant must be a collection of document ids, not a single string")
    relevant_set = frozenset(relevant)
    if not relevant_set:
        raise ValueError("relevant is empty: a question without source_docs cannot be scored")
    docs = collapse_to_docs(ranked_doc_ids)
    if k is not None:
        docs = docs[:k]
    return [doc in relevant_set for doc in docs], len(relevant_set)


@lru_cache(maxsize=4096)
def discount(rank: int) -> float:
    """``1 / log2(rank + 1)`` for a 1-based rank, as trec_eval computes it (C ``log2``, then a division)."""
    return 1.0 / math.log2(rank + 1)


def check_rels(rels: Sequence[int]) -> None:
    """Raise ``ValueError`` unless ``rels`` is a sequence of non-negative int relevance grades (bools allowed)."""
    if isinstance(rels, str):
        raise ValueError("rels must be a sequence of relevance grades, not a string")
    for grade in rels:
        if not isinstance(grade, int) or grade < 0:
            raise ValueError(f"relevance grades must be non-negative ints, got {grade!r}")
