"""Vectorised rank metrics for many queries at once, equal to the per-query reference functions.

One pass over the queries finds, for each, the collapsed rank of every relevant document it retrieved (a set
lookup per relevant document, not a Python loop over the ranking); those ranks fill a boolean relevance
matrix of shape ``(n_queries, depth)`` and every metric is then a few NumPy reductions over it, in blocks of
rows so memory stays flat. Sums are cumulative (``np.cumsum`` adds left to right, as trec_eval does) and the
discounts are computed with C ``log2`` like trec_eval, so the values equal pytrec_eval's bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from evaluators.metrics._names import Metric, parse_metric

_BLOCK_CELLS = 1 << 20  # rows per block × depth: ~8 MB per float64 temporary


@dataclass(frozen=True)
class EngineResult:
    """Per-query scores from :func:`score_runs`.

    ``scores[str(metric)]`` is a float64 array aligned with ``query_ids`` (the order of the qrels mapping).
    ``missing`` lists the query ids that had no entry in the run; they are scored 0 for every metric, and
    are counted in every mean (a question the system did not answer is a failure, not a smaller test set).
    """

    query_ids: list[str]
    """Query ids in qrels order; row ``i`` of every score array is ``query_ids[i]``."""
    scores: dict[str, npt.NDArray[np.float64]]
    """Canonical metric name (``"nDCG@10"``) → per-query scores."""
    missing: list[str]
    """Query ids present in qrels but absent from the run (scored 0)."""

    def mean(self, metric: Metric | str) -> float:
        """Mean of one metric over all queries (missing ones included as 0); 0.0 when there are no queries."""
        values = self.scores[str(parse_metric(metric))]
        return float(values.mean()) if values.size else 0.0


def score_runs(
    qrels: Mapping[str, Collection[str]],
    run: Mapping[str, Sequence[str]],
    metrics: Sequence[Metric | str],
) -> EngineResult:
    """Score many queries at once: RR@K, nDCG@K, P@K, R@K, Hit@K, AP@K and context precision@K.

    ``qrels`` maps a query id to its relevant document ids (a set, a list, or a mapping whose *keys* are taken,
    whatever their grades); ``run`` maps a query id to its ranked document ids, best first — one entry per
    retrieved chunk is fine: each document is kept at its first rank (:func:`collapse_to_docs`). The list
    order is the ranking: ties are not re-sorted and scores are not looked at. Each value equals the reference
    function of the same name (:func:`reciprocal_rank`, :func:`ndcg`, :func:`precision`, :func:`recall`,
    :func:`hit`, :func:`average_precision`, :func:`context_precision_at_k`), and on runs without duplicate ids
    equals trec_eval (``recip_rank`` on the run cut to K, ``ndcg_cut_K``, ``P_K``, ``recall_K``, ``success_K``,
    ``map_cut_K``; ``recip_rank``/``ndcg``/``map`` for an uncut metric).

    Differences from pytrec_eval, on purpose: a query in ``qrels`` but not in ``run`` scores 0 and is listed in
    ``EngineResult.missing`` (pytrec_eval drops it, which inflates the mean); duplicate ids are collapsed to the
    first occurrence (pytrec_eval takes a ``{doc: score}`` mapping and cannot see them). Run entries for queries
    not in ``qrels`` are ignored, as in pytrec_eval.

    Raises ``ValueError`` on no metrics, on ``Coverage`` (it needs texts: use :func:`keyword_coverage`), on a
    query whose relevant set is empty, and on a ranking given as a string or a ``{doc: score}`` dict. Inputs
    are not modified.
    """
    wanted = list(dict.fromkeys(parse_metric(m) for m in metrics))
    if not wanted:
        raise ValueError("no metrics requested")
    for metric in wanted:
        if metric.name == "Coverage":
            raise ValueError("Coverage needs the retrieved texts; use keyword_coverage() per question")
    cutoffs = [m.k for m in wanted]
    cap = None if None in cutoffs else max(k for k in cutoffs if k is not None)

    query_ids = list(qrels)
    n_relevant, rows, cols, missing = _relevant_ranks(qrels, query_ids, run, cap)
    depth = max(cols) + 1 if cols else 1
    row_of = np.asarray(rows, dtype=np.intp)  # non-decreasing: filled in query order
    col_of = np.asarray(cols, dtype=np.intp)

    ideal_len = int(max(n_relevant.max(initial=0), depth))
    discount = np.array([1.0 / math.log2(i + 2) for i in range(ideal_len)], dtype=np.float64)
    ideal_dcg = np.cumsum(discount)  # ideal_dcg[j - 1]: DCG of j relevant documents at ranks 1..j

    scores = {str(m): np.zeros(len(query_ids), dtype=np.float64) for m in wanted}
    block = max(1, _BLOCK_CELLS // depth)
    for start in range(0, len(query_ids), block):
        stop = min(start + block, len(query_ids))
        lo, hi = np.searchsorted(row_of, [start, stop])
        relevance = np.zeros((stop - start, depth), dtype=bool)
        relevance[row_of[lo:hi] - start, col_of[lo:hi]] = True
        _score_block(relevance, n_relevant[start:stop], wanted, discount, ideal_dcg, scores, start)
    return EngineResult(query_ids=query_ids, scores=scores, missing=missing)


def _relevant_ranks(
    qrels: Mapping[str, Collection[str]],
    query_ids: list[str],
    run: Mapping[str, Sequence[str]],
    cap: int | None,
) -> tuple[npt.NDArray[np.int64], list[int], list[int], list[str]]:
    """Number of relevant docs per query, and (row, collapsed 0-based rank) of each relevant doc retrieved."""
    n_relevant = np.zeros(len(query_ids), dtype=np.int64)
    rows: list[int] = []
    cols: list[int] = []
    missing: list[str] = []
    empty: list[str] = []
    for row, qid in enumerate(query_ids):
        relevant: Collection[str] = qrels[qid]
        if not isinstance(relevant, (set, frozenset, dict)):
            if isinstance(relevant, str):
                raise ValueError(f"qrels[{qid!r}] must be a collection of document ids, not a string")
            relevant = set(relevant)
        if not relevant:
            empty.append(qid)
            continue
        n_relevant[row] = len(relevant)
        ranked: Any = run.get(qid)
        if ranked is None:
            missing.append(qid)
            continue
        if isinstance(ranked, (str, dict)):
            raise ValueError(f"run[{qid!r}] must be a ranked list of document ids, best first")
        # Only the first `cap` documents can count. Without a duplicate among them they are the collapsed
        # ranking's head as they stand; otherwise collapse the whole ranking, then cut.
        head = ranked if cap is None or len(ranked) <= cap else ranked[:cap]
        seen = set(head)
        if len(seen) != len(head):
            head = list(dict.fromkeys(ranked))[:cap]
            seen = set(head)
        if len(relevant) <= len(head):
            for doc in relevant:
                if doc in seen:
                    rows.append(row)
                    cols.append(head.index(doc))
        else:
            for rank, doc in enumerate(head):
                if doc in relevant:
                    rows.append(row)
                    cols.append(rank)
    if empty:
        shown = ", ".join(repr(q) for q in empty[:5]) + (" …" if len(empty) > 5 else "")
        raise ValueError(f"{len(empty)} queries have no relevant documents and cannot be scored: {shown}")
    return n_relevant, rows, cols, missing


def _score_block(
    relevance: npt.NDArray[np.bool_],
    n_relevant: npt.NDArray[np.int64],
    wanted: list[Metric],
    discount: npt.NDArray[np.float64],
    ideal_dcg: npt.NDArray[np.float64],
    scores: dict[str, npt.NDArray[np.float64]],
    start: int,
) -> None:
    """Fill ``scores[name][start:start + len(relevance)]`` for every wanted metric."""
    depth = relevance.shape[1]
    rel = relevance.astype(np.float64)
    hits = np.cumsum(rel, axis=1)  # hits[:, i]: relevant docs in ranks 1..i+1
    dcg: npt.NDArray[np.float64] | None = None
    precision_sum: npt.NDArray[np.float64] | None = None
    first_rank: npt.NDArray[np.float64] | None = None
    n_rel = n_relevant.astype(np.float64)
    ranks = np.arange(1, depth + 1, dtype=np.float64)
    for metric in wanted:
        k = metric.k
        col = depth - 1 if k is None else min(k, depth) - 1
        out = scores[str(metric)][start : start + len(relevance)]
        if metric.name == "P":
            assert k is not None  # Metric rejects an uncut P
            out[:] = hits[:, col] / k
        elif metric.name == "R":
            out[:] = hits[:, col] / n_rel
        elif metric.name == "Hit":
            out[:] = hits[:, col] > 0
        elif metric.name == "MRR":
            if first_rank is None:
                # argmax finds the first True; rows with none get rank 0 → cleared by the hits test below.
                first_rank = relevance.argmax(axis=1).astype(np.float64) + 1.0
            out[:] = np.where(hits[:, col] > 0, 1.0 / first_rank, 0.0)
        elif metric.name == "nDCG":
            if dcg is None:
                dcg = np.cumsum(rel * discount[:depth], axis=1)
            ideal_n = n_relevant if k is None else np.minimum(n_relevant, k)
            out[:] = dcg[:, col] / ideal_dcg[np.maximum(ideal_n, 1) - 1]
        else:  # MAP and CtxPrecision share Σ P@i · rel_i
            if precision_sum is None:
                precision_sum = np.cumsum(hits / ranks * rel, axis=1)
            if metric.name == "MAP":
                out[:] = precision_sum[:, col] / n_rel
            else:
                found = hits[:, col]
                out[:] = np.divide(precision_sum[:, col], found, out=np.zeros_like(found), where=found > 0)
