"""Top-k similar chunks without comparing all pairs.

Each chunk keeps only its `max_terms` highest-weighted terms (TF-IDF); terms held by more than `max_df`
chunks are ignored (they do not discriminate). Candidate pairs are the chunks sharing a kept term, so
the work is bounded by n · max_terms · max_df and grows linearly with the number of chunks. Scores are
the dot products of the kept TF-IDF weights, computed with NumPy.
"""

from __future__ import annotations

import math
from collections import Counter

import numpy as np

from testgen.text import tokens


def similar_pairs(
    texts: list[str], *, k: int = 5, max_terms: int = 12, max_df: int = 50, min_score: float = 0.05
) -> list[tuple[int, int, float]]:
    """For each text, up to `k` most similar other texts as (i, j, score) with i < j, deduplicated."""
    n = len(texts)
    if n < 2 or k <= 0:
        return []
    bags = [Counter(tokens(t)) for t in texts]
    df: Counter[str] = Counter()
    for bag in bags:
        df.update(bag.keys())
    vocab: dict[str, int] = {}
    rows: list[int] = []
    cols: list[int] = []
    weights: list[float] = []
    # the terms that discriminate, found once: a chunk's other terms (most of them, in a large KB) are skipped in C
    eligible = {term for term, d in df.items() if 2 <= d <= max_df}
    for i, bag in enumerate(bags):
        scored = [((1 + math.log(bag[term])) * math.log(n / df[term]), term) for term in eligible.intersection(bag)]
        scored.sort(key=lambda x: (-x[0], x[1]))
        kept = scored[:max_terms]
        norm = math.sqrt(sum(w * w for w, _ in kept)) or 1.0
        for w, term in kept:
            rows.append(i)
            cols.append(vocab.setdefault(term, len(vocab)))
            weights.append(w / norm)
    if not rows:
        return []
    row = np.asarray(rows, dtype=np.int64)
    col = np.asarray(cols, dtype=np.int64)
    wt = np.asarray(weights, dtype=np.float64)
    order = np.lexsort((row, col))
    row, col, wt = row[order], col[order], wt[order]
    # Pairs within each term's posting list (each list is at most max_df long).
    boundaries = np.flatnonzero(np.diff(col)) + 1
    starts = np.concatenate(([0], boundaries))
    ends = np.concatenate((boundaries, [len(col)]))
    pair_a: list[np.ndarray] = []
    pair_b: list[np.ndarray] = []
    pair_w: list[np.ndarray] = []
    triangles: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # posting length → its pairs (lengths repeat)
    for s, e in zip(starts.tolist(), ends.tolist(), strict=True):
        if e - s < 2:
            continue
        if e - s not in triangles:
            triangles[e - s] = np.triu_indices(e - s, k=1)
        idx_a, idx_b = triangles[e - s]
        pair_a.append(row[s + idx_a])
        pair_b.append(row[s + idx_b])
        pair_w.append(wt[s + idx_a] * wt[s + idx_b])
    if not pair_a:
        return []
    a = np.concatenate(pair_a)
    b = np.concatenate(pair_b)
    products = np.concatenate(pair_w)
    lo, hi = np.minimum(a, b), np.maximum(a, b)
    keep = lo != hi
    key = lo[keep] * n + hi[keep]
    uniq, inverse = np.unique(key, return_inverse=True)
    score = np.bincount(inverse, weights=products[keep])
    i_arr, j_arr = uniq // n, uniq % n
    good = score >= min_score
    i_arr, j_arr, score = i_arr[good], j_arr[good], score[good]
    # Top-k per chunk over both directions.
    src = np.concatenate((i_arr, j_arr))
    dst = np.concatenate((j_arr, i_arr))
    sc = np.concatenate((score, score))
    order = np.lexsort((dst, -sc, src))
    src, dst, sc = src[order], dst[order], sc[order]
    first = np.concatenate(([True], src[1:] != src[:-1]))
    group_start = np.maximum.accumulate(np.where(first, np.arange(len(src)), 0))
    rank = np.arange(len(src)) - group_start
    top = rank < k
    chosen = {}
    for s_, d_, v in zip(src[top].tolist(), dst[top].tolist(), sc[top].tolist(), strict=True):
        pair = (min(s_, d_), max(s_, d_))
        chosen[pair] = round(v, 6)
    return sorted((i, j, v) for (i, j), v in chosen.items())
