"""Similar-chunks benchmark: ``testgen.kg.similarity.similar_pairs`` alone at 1k / 10k / 100k chunks.

What it measures
    Synthetic chunk texts are drawn deterministically (fixed seed) from a vocabulary of 20,000 made-up words
    with a Zipf-like (Zipf–Mandelbrot, s=1) distribution, 60–100 words per chunk (about 80 on average). One
    chunk in ten is a near-duplicate of an earlier chunk (about 5% of its words replaced). For each size the
    script times ``similar_pairs(texts)`` with its defaults (k=5), best of up to 3 runs when a run takes under
    2 s, and prints the seconds, the growth ratio t(next size) / t(size), the number of pairs returned, the
    neighbours per chunk (max and mean) and how many near-duplicates have their original among their
    neighbours (a sanity check that the speed is not bought by dropping the obvious pairs).

Target
    10× more chunks → at most 12× the time (near-linear growth). Printed as PASS/MISS per step; for steps that
    are not 10×, the allowance is 1.2 × the size ratio. The script exits 0 either way.

Run
    python bench/similarity.py
    python bench/similarity.py --chunks 2000 20000 --seed 3
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections import Counter

import numpy as np

from testgen.kg.similarity import similar_pairs

VOCAB_SIZE = 20_000
DUP_SHARE = 0.10
DUP_EDIT = 0.05
SLOWDOWN_ALLOWANCE = 1.2  # 10x chunks -> at most 12x time
_ONSETS = ["", "b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br", "st", "kr", "pl", "sh"]
_VOWELS = ["a", "e", "i", "o", "u", "ai", "ou", "ei"]
_CODAS = ["", "", "n", "r", "s", "l", "m", "k"]


def make_vocab(size: int, rng: np.random.Generator) -> list[str]:
    """`size` distinct pronounceable made-up words of 2–4 syllables (lower-case ASCII letters only)."""
    words: dict[str, None] = {}
    while len(words) < size:
        syllables = int(rng.integers(2, 5))
        parts = [
            _ONSETS[int(rng.integers(len(_ONSETS)))]
            + _VOWELS[int(rng.integers(len(_VOWELS)))]
            + _CODAS[int(rng.integers(len(_CODAS)))]
            for _ in range(syllables)
        ]
        words.setdefault("".join(parts), None)
    return list(words)


def make_texts(n: int, seed: int) -> tuple[list[str], dict[int, int]]:
    """`n` chunk texts and {near-duplicate index: original index}."""
    rng = np.random.default_rng(seed)
    vocab = np.array(make_vocab(VOCAB_SIZE, rng), dtype=object)
    ranks = np.arange(1, VOCAB_SIZE + 1, dtype=np.float64)
    p = 1.0 / (ranks + 2.7)
    p /= p.sum()
    n_dup = int(n * DUP_SHARE)
    n_orig = n - n_dup
    lengths = rng.integers(60, 101, size=n_orig)
    draws = rng.choice(VOCAB_SIZE, size=int(lengths.sum()), p=p)
    word_lists: list[np.ndarray] = np.split(draws, np.cumsum(lengths)[:-1])
    originals = rng.integers(0, n_orig, size=n_dup)
    dups: dict[int, int] = {}
    for d, src in enumerate(originals.tolist()):
        words = word_lists[src].copy()
        edits = max(1, int(len(words) * DUP_EDIT))
        words[rng.choice(len(words), size=edits, replace=False)] = rng.choice(VOCAB_SIZE, size=edits, p=p)
        word_lists.append(words)
        dups[n_orig + d] = src
    texts = [" ".join(vocab[w].tolist()) for w in word_lists]
    return texts, dups


def time_once(texts: list[str]) -> tuple[float, list[tuple[int, int, float]]]:
    started = time.perf_counter()
    pairs = similar_pairs(texts)
    return time.perf_counter() - started, pairs


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chunks", type=int, nargs="+", default=[1000, 10_000, 100_000])
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    sizes = sorted(set(args.chunks))
    print(
        f"similar_pairs(texts) with defaults; vocabulary {VOCAB_SIZE:,} made-up words, Zipf-like, "
        f"60-100 words/chunk, {DUP_SHARE:.0%} near-duplicates; seed {args.seed}"
    )
    print(
        f"{'chunks':>8} {'gen s':>7} {'runs':>4} {'best s':>8} {'pairs':>9} {'max nb':>6} {'mean nb':>7} "
        f"{'dup found':>9}"
    )
    seconds: dict[int, float] = {}
    for n in sizes:
        t0 = time.perf_counter()
        texts, dups = make_texts(n, args.seed)
        gen = time.perf_counter() - t0
        best, pairs = time_once(texts)
        runs = 1
        while best < 2.0 and runs < 3:
            again, _ = time_once(texts)
            best = min(best, again)
            runs += 1
        seconds[n] = best
        degree: Counter[int] = Counter()
        linked: set[tuple[int, int]] = set()
        for i, j, _ in pairs:
            degree[i] += 1
            degree[j] += 1
            linked.add((i, j))
        found = sum(1 for d, src in dups.items() if (min(d, src), max(d, src)) in linked)
        max_nb = max(degree.values(), default=0)
        mean_nb = 2 * len(pairs) / n
        share = f"{found / len(dups):.0%}" if dups else "-"
        print(
            f"{n:>8,} {gen:>7.1f} {runs:>4} {best:>8.3f} {len(pairs):>9,} {max_nb:>6} {mean_nb:>7.2f} {share:>9}",
            flush=True,
        )
    print()
    verdicts = []
    for a, b in itertools.pairwise(sizes):
        ratio = seconds[b] / seconds[a] if seconds[a] > 0 else float("inf")
        allowed = SLOWDOWN_ALLOWANCE * b / a
        verdict = "PASS" if ratio <= allowed else "MISS"
        verdicts.append(verdict)
        print(f"growth {a:,} → {b:,} chunks (×{b / a:g}): time ×{ratio:.2f}; target ≤ ×{allowed:g} → {verdict}")
    if not verdicts:
        print("growth: give at least two sizes to measure it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
