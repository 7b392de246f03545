"""Rank-metric engine vs pytrec_eval: 100,000 queries × 100 retrieved documents.

What it measures
    A seeded synthetic run (``numpy.random.default_rng(0)``): each query retrieves 100 distinct documents and
    has 1–5 relevant ones, each either retrieved (at a rank skewed towards the top) or not retrieved at all.
    Both sides get plain Python dicts, as a caller would hold them: ``qrels = {qid: {doc: 1}}``; pytrec_eval
    gets ``run = {qid: {doc: score}}`` (distinct, decreasing scores, so its sort reproduces the ranking) and
    our engine the ranked lists ``{qid: [doc, ...]}``.

    Timed, ours: ``score_runs(qrels, ranked, ["nDCG@10", "MRR@10", "P@10", "R@10", "MAP@100"])``, including
    building the arrays from the dicts. Timed, theirs: ``RelevanceEvaluator(qrels, {ndcg_cut_10, P_10,
    recall_10, map_cut_100}).evaluate(run)`` plus ``RelevanceEvaluator(qrels, {recip_rank}).evaluate(run cut
    to 10)`` (trec_eval's ``recip_rank`` has no cutoff); cutting the run is not timed. Each side runs
    ``--repeat`` times and the best time is kept.

Target
    ours / theirs ≤ 0.5, and a maximum absolute difference of 0 over all queries and metrics. Printed as
    PASS/MISS; the script exits 0 either way (and with a message when pytrec_eval is not installed:
    ``pip install pytrec-eval-terrier``).

Run
    python bench/rank_metrics.py
    python bench/rank_metrics.py --queries 20000 --repeat 1
"""

from __future__ import annotations

import argparse
import sys
import time
from typing import Any

import numpy as np

from evaluators.metrics import score_runs

DEPTH = 100
POOL = 10_000_000
TARGET_RATIO = 0.5
# Our canonical name → pytrec_eval measure (MRR@10 is recip_rank on the run cut to 10).
MEASURES = {
    "nDCG@10": "ndcg_cut_10",
    "MRR@10": "recip_rank",
    "P@10": "P_10",
    "R@10": "recall_10",
    "MAP@100": "map_cut_100",
}


def make_data(n_queries: int, seed: int = 0) -> tuple[dict[str, dict[str, int]], dict[str, list[str]]]:
    """Seeded qrels ``{qid: {doc: 1}}`` and ranked lists ``{qid: [doc, ...]}`` (100 distinct docs each)."""
    rng = np.random.default_rng(seed)
    # Distinct ids per row: a random start plus a strictly increasing walk, then shuffled within the row.
    gaps = rng.integers(1, 50, size=(n_queries, DEPTH))
    ids = (rng.integers(0, POOL, size=(n_queries, 1)) + np.cumsum(gaps, axis=1)) % POOL
    ids = rng.permuted(ids, axis=1)
    n_rel = rng.integers(1, 6, size=n_queries)
    # A relevant doc sits at a rank skewed to the top, or (position ≥ DEPTH) is not retrieved at all.
    positions = np.floor(150 * rng.random((n_queries, 5)) ** 2).astype(np.int64)
    qrels: dict[str, dict[str, int]] = {}
    ranked: dict[str, list[str]] = {}
    for q in range(n_queries):
        qid = f"q{q}"
        row = ids[q].tolist()
        ranked[qid] = [f"d{d}" for d in row]
        relevant: dict[str, int] = {}
        for j, pos in enumerate(positions[q, : n_rel[q]].tolist()):
            doc = f"d{row[pos]}" if pos < DEPTH else f"u{q}_{j}"  # fresh string objects, as if parsed from a file
            relevant[doc] = 1
        qrels[qid] = relevant
    return qrels, ranked


def run_ours(qrels: dict[str, dict[str, int]], ranked: dict[str, list[str]]) -> dict[str, np.ndarray]:
    """Our engine, arrays built from the dicts inside the timed call."""
    return score_runs(qrels, ranked, list(MEASURES)).scores


def run_theirs(pytrec_eval: Any, qrels: dict[str, dict[str, int]], run: Any, run10: Any) -> dict[str, Any]:
    """pytrec_eval for the same five measures (recip_rank on the run cut to 10)."""
    main = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut_10", "P_10", "recall_10", "map_cut_100"}).evaluate(run)
    rr = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(run10)
    return {"main": main, "rr": rr}


def best_time(fn: Any, repeat: int) -> tuple[float, Any]:
    """Best wall time over ``repeat`` calls, and the last result."""
    best = float("inf")
    result = None
    for _ in range(repeat):
        started = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - started)
    return best, result


def main() -> int:
    """Build the data, time both sides, compare every value, print PASS/MISS."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    try:
        import pytrec_eval
    except ImportError:
        print("pytrec_eval is not installed; install it with: pip install pytrec-eval-terrier")
        return 0

    started = time.perf_counter()
    qrels, ranked = make_data(args.queries)
    run = {qid: {doc: float(DEPTH - i) for i, doc in enumerate(docs)} for qid, docs in ranked.items()}
    run10 = {qid: {doc: float(DEPTH - i) for i, doc in enumerate(docs[:10])} for qid, docs in ranked.items()}
    relevant_counts = np.array([len(r) for r in qrels.values()])
    print(
        f"data: {args.queries:,} queries × {DEPTH} retrieved, {relevant_counts.sum():,} relevant "
        f"(1–5 per query, mean {relevant_counts.mean():.2f}); built in {time.perf_counter() - started:.1f} s"
    )

    ours_s, ours = best_time(lambda: run_ours(qrels, ranked), args.repeat)
    theirs_s, theirs = best_time(lambda: run_theirs(pytrec_eval, qrels, run, run10), args.repeat)
    ratio = ours_s / theirs_s
    print(f"ours (score_runs, incl. building arrays): {ours_s:.3f} s")
    print(f"pytrec_eval (RelevanceEvaluator + evaluate): {theirs_s:.3f} s")
    print(f"{'PASS' if ratio <= TARGET_RATIO else 'MISS'} ratio ours/theirs = {ratio:.3f} (target ≤ {TARGET_RATIO})")

    max_diff = 0.0
    worst = ""
    for name, measure in MEASURES.items():
        source = theirs["rr"] if measure == "recip_rank" else theirs["main"]
        expected = np.array([source[qid][measure] for qid in qrels])
        diff = float(np.abs(ours[name] - expected).max())
        means = f"mean ours {ours[name].mean():.6f} / theirs {expected.mean():.6f}"
        print(f"  {name:<8} vs {measure:<12} max |diff| = {diff:.3g}  ({means})")
        if diff > max_diff:
            max_diff, worst = diff, name
    print(
        f"{'PASS' if max_diff == 0 else 'MISS'} max |ours − pytrec_eval| over all queries and metrics = "
        f"{max_diff:.3g}" + (f" (worst: {worst})" if worst else "") + " (target 0)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
