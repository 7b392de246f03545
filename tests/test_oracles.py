"""Independent oracles: `similar_pairs` against a brute-force all-pairs computation, and the paired
randomization test of `evaluate compare` against ``scipy.stats.permutation_test``."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import permutation_test

from evaluators.compare import paired_randomization
from testgen.kg.similarity import similar_pairs
from testgen.text import tokens

EPS = 1e-9

# ---- similar_pairs: brute force over every pair ---------------------------------------------------------------


def kept_vectors(texts: list[str], max_terms: int, max_df: int) -> list[dict[str, float]]:
    """Each text's kept terms with their normalised TF-IDF weights, as the module docstring defines them: terms in
    2..max_df texts, weight (1 + ln tf) · ln(n / df), the `max_terms` heaviest (ties by term), unit length."""
    n = len(texts)
    bags = [Counter(tokens(t)) for t in texts]
    df = Counter(term for bag in bags for term in set(bag))
    vectors = []
    for bag in bags:
        weighted = sorted(
            ((1 + math.log(tf)) * math.log(n / df[term]), term) for term, tf in bag.items() if 2 <= df[term] <= max_df
        )
        kept = sorted(weighted, key=lambda wt: (-wt[0], wt[1]))[:max_terms]
        norm = math.sqrt(sum(w * w for w, _ in kept)) or 1.0
        vectors.append({term: w / norm for w, term in kept})
    return vectors


def all_scores(vectors: list[dict[str, float]]) -> dict[tuple[int, int], float]:
    """Dot product of every pair of kept vectors, i < j (each pair computed from scratch)."""
    scores = {}
    for i, a in enumerate(vectors):
        for j in range(i + 1, len(vectors)):
            b = vectors[j]
            scores[(i, j)] = sum(w * b[t] for t, w in a.items() if t in b)
    return scores


def check_against_brute_force(
    texts: list[str], pairs: list[tuple[int, int, float]], *, k: int, max_terms: int, max_df: int, min_score: float
) -> None:
    scores = all_scores(kept_vectors(texts, max_terms, max_df))
    n = len(texts)

    def score(i: int, j: int) -> float:
        return scores[(min(i, j), max(i, j))]

    def better_than(i: int, j: int) -> int:
        """How many other texts are clearly more similar to i than j is."""
        return sum(1 for m in range(n) if m not in (i, j) and score(i, m) > score(i, j) + EPS)

    def surely_chosen(i: int, j: int) -> bool:
        """j is among i's k best whatever order ties take, and clears min_score."""
        rivals = sum(1 for m in range(n) if m not in (i, j) and score(i, m) >= score(i, j) - EPS)
        return rivals < k and score(i, j) >= min_score + EPS

    found = {(i, j): s for i, j, s in pairs}
    assert len(found) == len(pairs) and all(i < j for i, j in found)
    for (i, j), s in found.items():
        assert s == pytest.approx(score(i, j), abs=2e-6)
        assert score(i, j) >= min_score - EPS
        assert better_than(i, j) < k or better_than(j, i) < k, (i, j)
    expected = {(min(i, j), max(i, j)) for i in range(n) for j in range(n) if i != j and surely_chosen(i, j)}
    assert expected <= set(found)


WORDS = st.sampled_from(["arm", "farm", "robot", "price", "tallinn", "orbit", "delta", "cargo", "blue", "seven"])
TEXTS = st.lists(st.lists(WORDS, min_size=1, max_size=8).map(" ".join), min_size=2, max_size=12)


@settings(max_examples=300, deadline=None)
@given(
    texts=TEXTS,
    k=st.integers(1, 4),
    max_terms=st.integers(1, 6),
    max_df=st.integers(2, 12),
    min_score=st.sampled_from([0.01, 0.05, 0.2, 0.5]),
)
def test_similar_pairs_match_all_pairs_brute_force(
    texts: list[str], k: int, max_terms: int, max_df: int, min_score: float
) -> None:
    pairs = similar_pairs(texts, k=k, max_terms=max_terms, max_df=max_df, min_score=min_score)
    check_against_brute_force(texts, pairs, k=k, max_terms=max_terms, max_df=max_df, min_score=min_score)


def test_the_brute_force_check_catches_a_wrong_neighbour() -> None:
    texts = ["orbit arm price", "orbit arm price", "delta farm cargo", "delta farm blue"]
    pairs = similar_pairs(texts, k=1)
    check_against_brute_force(texts, pairs, k=1, max_terms=12, max_df=50, min_score=0.05)
    assert {(i, j) for i, j, _ in pairs} == {(0, 1), (2, 3)}
    with pytest.raises(AssertionError):
        check_against_brute_force(texts, [(0, 2, 0.5)], k=1, max_terms=12, max_df=50, min_score=0.05)
    with pytest.raises(AssertionError):  # a missing pair
        check_against_brute_force(texts, [(0, 1, pairs[0][2])], k=1, max_terms=12, max_df=50, min_score=0.05)


# ---- the paired randomization test: scipy's exact sign-flip test ------------------------------------------------


def exact_sign_flip_p(diffs: np.ndarray) -> float:
    """P(|mean of sign-flipped diffs| >= |mean of diffs|) over all 2^n sign patterns, by scipy."""
    result = permutation_test(
        (diffs,),
        lambda x, axis: np.abs(np.mean(x, axis=axis)),
        permutation_type="samples",
        vectorized=True,
        n_resamples=np.inf,
        alternative="greater",
    )
    return float(result.pvalue)


@pytest.mark.parametrize(
    "diffs",
    [
        [0.2, 0.1, 0.3, -0.05, 0.15],
        [1.0, -1.0, 0.5, 0.0, 0.25, -0.25, 0.75, 0.1],
        [0.1, 0.1, 0.1, 0.1, -0.1, -0.1, 0.1, 0.1, 0.1, 0.1],  # ties: many patterns share a mean
        [0.0, 0.0, 0.5, 0.0, 0.0, 0.0],
        [0.01, -0.4, 0.3, 0.2, -0.1, 0.05, 0.6, -0.2, 0.1, 0.3, 0.25, -0.05],
    ],
)
def test_paired_randomization_agrees_with_scipys_exact_test(diffs: list[float]) -> None:
    values = np.asarray(diffs)
    exact = exact_sign_flip_p(values)
    # Monte Carlo with 20,000 rounds: its standard error is at most 0.0036; the +1 correction adds under 0.0001.
    assert paired_randomization(values, rounds=20_000, seed=0) == pytest.approx(exact, abs=0.02)


def test_paired_randomization_agrees_with_scipy_on_random_differences() -> None:
    rng = np.random.default_rng(7)
    for _ in range(5):
        values = np.round(rng.normal(0.05, 0.2, size=11), 2)
        exact = exact_sign_flip_p(values)
        assert paired_randomization(values, rounds=20_000, seed=1) == pytest.approx(exact, abs=0.02)
