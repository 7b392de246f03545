"""Chunk → document collapse: the first step of every doc-level rank metric."""

from __future__ import annotations

from collections.abc import Sequence


def collapse_to_docs(doc_ids: Sequence[str]) -> list[str]:
    """The documents of a ranked list of chunks, each at the rank of its **first** chunk, order preserved.

    ``collapse_to_docs(["a", "b", "a", "c"]) == ["a", "b", "c"]``: a retriever returning three chunks of
    one document is credited for that document once, at its best rank, and later chunks of it do not push
    other documents down (trec_eval sees each document once per query; this is how a chunk run becomes one).
    An empty list gives ``[]``. The input is not modified. Raises ``ValueError`` when given a single string
    (a common slip for a one-element list).
    """
    if isinstance(doc_ids, str):
        raise ValueError("doc_ids must be a sequence of document ids, not a single string")
    return list(dict.fromkeys(doc_ids))
