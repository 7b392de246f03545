"""Per-query reference metrics: the course's worked vectors, edge cases, metric names, keyword coverage."""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from evaluators.metrics import (
    MAX_K,
    Metric,
    average_precision,
    chunk_ndcg,
    chunk_precision,
    collapse_to_docs,
    context_precision,
    context_precision_at_k,
    hit,
    keyword_coverage,
    ndcg,
    parse_metric,
    precision,
    recall,
    reciprocal_rank,
)

RankFn = Callable[[Sequence[str], Collection[str], int], float]
DOC_FUNCTIONS: list[RankFn] = [
    reciprocal_rank,
    ndcg,
    precision,
    recall,
    hit,
    average_precision,
    context_precision_at_k,
]

OVERVIEW = "company/overview.md"
HISTORY = "company/history.md"

# --------------------------------------------------------------------------------------- worked vectors


def test_reciprocal_rank_worked_vector() -> None:
    rel = {"a"}
    rr = [
        reciprocal_rank(["x", "a", "y"], rel, 10),
        reciprocal_rank(["a", "x"], rel, 10),
        reciprocal_rank(["x", "y", "z", "w", "a"], rel, 10),
    ]
    assert rr == [0.5, 1.0, 0.2]
    assert sum(rr) / 3 == pytest.approx(0.5667, abs=5e-5)


def test_reciprocal_rank_is_cut_at_k() -> None:
    assert reciprocal_rank(["x", "y", "a"], {"a"}, 2) == 0.0
    assert reciprocal_rank(["x", "y", "a"], {"a"}, 3) == pytest.approx(1 / 3)
    assert reciprocal_rank(["x", "y", "a"], {"a"}, None) == pytest.approx(1 / 3)


def test_chunk_ndcg_tutorial_vector() -> None:
    dcg = 1 + 1 / math.log2(3) + 1 / math.log2(5)
    idcg = 1 + 1 / math.log2(3) + 1 / math.log2(4)
    assert dcg == pytest.approx(2.062, abs=5e-4)
    assert idcg == pytest.approx(2.131, abs=5e-4)
    assert chunk_ndcg([1, 1, 0, 1, 0], 5) == pytest.approx(dcg / idcg)
    # The course rounds intermediates (2.062 / 2.131 = 0.968); the exact value is 0.96747.
    assert chunk_ndcg([1, 1, 0, 1, 0], 5) == pytest.approx(0.968, abs=1e-3)
    assert chunk_ndcg([1, 1, 0, 1, 0], 5) == pytest.approx(0.96747, abs=5e-6)


def test_same_list_at_doc_level_is_perfect() -> None:
    # Chunks 1, 2 and 4 are relevant ([1,1,0,1,0]); chunk 4 is a second chunk of the overview.
    chunks = [OVERVIEW, HISTORY, "products/tours.md", OVERVIEW, "faq.md"]
    source_docs = {OVERVIEW, HISTORY}
    assert [int(c in source_docs) for c in chunks] == [1, 1, 0, 1, 0]
    assert ndcg(chunks, source_docs, 5) == 1.0
    assert chunk_precision([1, 1, 0, 1, 0], 5) == pytest.approx(0.6)
    assert precision(chunks, source_docs, 5) == pytest.approx(0.4)  # 2 distinct relevant docs / K


def test_ndcg_two_relevant_at_ranks_four_and_five() -> None:
    ranked = ["x", "y", "z", "a", "b"]
    expected = (1 / math.log2(5) + 1 / math.log2(6)) / (1 + 1 / math.log2(3))
    assert ndcg(ranked, {"a", "b"}, 5) == pytest.approx(expected)
    # The course's 0.502 comes from rounded intermediates; the exact value is 0.50127.
    assert ndcg(ranked, {"a", "b"}, 5) == pytest.approx(0.502, abs=1e-3)
    assert ndcg(ranked, {"a", "b"}, 5) == pytest.approx(0.50127, abs=5e-6)


def test_ndcg_ideal_counts_relevant_documents_never_retrieved() -> None:
    # One of three relevant found at rank 1: IDCG@2 has two ideal positions.
    assert ndcg(["a", "x"], {"a", "b", "c"}, 2) == pytest.approx(1 / (1 + 1 / math.log2(3)))
    # ... while the chunk-level form takes its ideal from the retrieved list and gives 1.0.
    assert chunk_ndcg([1, 0], 2) == 1.0


@pytest.mark.parametrize(
    ("rels", "expected"),
    [([1, 0, 1, 0, 1], 0.7556), ([1, 1, 1, 0, 0], 1.0), ([0, 0, 0, 1, 1], 0.325), ([0, 0, 0, 0, 0], 0.0)],
)
def test_context_precision_vectors(rels: list[int], expected: float) -> None:
    assert context_precision(rels, 5) == pytest.approx(expected, abs=5e-5)
    docs = [f"d{i}" if rel else f"x{i}" for i, rel in enumerate(rels)]
    relevant = {d for d in docs if d.startswith("d")} or {"elsewhere"}
    assert context_precision_at_k(docs, relevant, 5) == pytest.approx(expected, abs=5e-5)


def test_context_precision_exact_value_and_cut() -> None:
    assert context_precision([1, 0, 1, 0, 1], 5) == pytest.approx((1 + 2 / 3 + 3 / 5) / 3)
    assert context_precision([1, 0, 1, 0, 1], 2) == 1.0
    assert context_precision([0, 0, 0, 1, 1], 3) == 0.0
    assert context_precision([], 5) == 0.0


def test_precision_recall_hit_average_precision_values() -> None:
    ranked = ["a", "x", "b", "y"]
    rel = {"a", "b", "c", "d"}
    assert precision(ranked, rel, 4) == 0.5
    assert recall(ranked, rel, 4) == 0.5
    assert recall(ranked, rel, 1) == 0.25
    assert hit(ranked, rel, 1) == 1.0
    assert hit(["x", "a"], rel, 1) == 0.0
    assert average_precision(ranked, rel, 4) == pytest.approx((1 + 2 / 3) / 4)
    assert average_precision(["a", "b"], rel, 10) == 0.5


# ------------------------------------------------------------------------------------------- edge cases


@pytest.mark.parametrize("fn", DOC_FUNCTIONS)
def test_empty_ranking_scores_zero(fn: RankFn) -> None:
    assert fn([], {"a"}, 10) == 0.0


@pytest.mark.parametrize("fn", DOC_FUNCTIONS)
def test_unknown_ids_score_zero(fn: RankFn) -> None:
    assert fn(["nope", "never/heard.md"], {"a"}, 10) == 0.0


@pytest.mark.parametrize("fn", DOC_FUNCTIONS)
def test_empty_relevant_raises(fn: RankFn) -> None:
    with pytest.raises(ValueError, match="source_docs"):
        fn(["a"], set(), 10)


@pytest.mark.parametrize("fn", DOC_FUNCTIONS)
@pytest.mark.parametrize("k", [0, -1])
def test_bad_k_raises(fn: RankFn, k: int) -> None:
    with pytest.raises(ValueError, match="k must be"):
        fn(["a"], {"a"}, k)


@pytest.mark.parametrize("fn", DOC_FUNCTIONS)
def test_single_string_arguments_raise(fn: RankFn) -> None:
    with pytest.raises(ValueError, match="not a single string"):
        fn(["a"], "a", 10)
    with pytest.raises(ValueError, match="not a single string"):
        fn("a", {"a"}, 10)


def test_precision_has_no_uncut_form() -> None:
    with pytest.raises(ValueError, match="cutoff"):
        precision(["a"], {"a"}, None)  # type: ignore[arg-type]


def test_duplicates_are_not_counted_twice() -> None:
    ranked = ["a", "a", "a", "b"]
    rel = {"a", "b"}
    assert precision(ranked, rel, 2) == 1.0  # collapsed: [a, b]
    assert recall(ranked, rel, 2) == 1.0
    assert recall(["a", "a", "a"], rel, 3) == 0.5
    assert precision(["a", "a", "a"], rel, 3) == pytest.approx(1 / 3)
    assert ndcg(ranked, rel, 2) == 1.0
    assert average_precision(ranked, rel, 2) == 1.0


def test_duplicate_relevant_ids_count_once() -> None:
    assert recall(["a"], ["a", "a", "b"], 5) == 0.5


def test_precision_divides_by_k_when_fewer_retrieved() -> None:
    assert precision(["a", "x"], {"a"}, 5) == 0.2
    assert precision(["a"], {"a"}, 1) == 1.0


def test_inputs_are_not_mutated() -> None:
    ranked = ["b", "a", "b", "c"]
    relevant = ["a", "c"]
    for fn in DOC_FUNCTIONS:
        fn(ranked, relevant, 2)
    assert ranked == ["b", "a", "b", "c"]
    assert relevant == ["a", "c"]
    rels = [0, 1, 1]
    chunk_ndcg(rels, 2)
    context_precision(rels, 2)
    assert rels == [0, 1, 1]


def test_collapse_keeps_first_occurrence_in_order() -> None:
    assert collapse_to_docs(["a", "b", "a", "c", "b"]) == ["a", "b", "c"]
    assert collapse_to_docs([]) == []
    assert collapse_to_docs(("x",)) == ["x"]
    with pytest.raises(ValueError, match="single string"):
        collapse_to_docs("abc")


def test_chunk_level_edge_cases() -> None:
    assert chunk_precision([], 3) == 0.0
    assert chunk_precision([1, 1, 0, 1, 0], 10) == pytest.approx(0.3)
    assert chunk_ndcg([0, 0], 2) == 0.0
    assert chunk_ndcg([], 2) == 0.0
    assert chunk_ndcg([2, 0, 1], 3) == pytest.approx((2 + 1 / math.log2(4)) / (2 + 1 / math.log2(3)))
    with pytest.raises(ValueError, match="non-negative"):
        chunk_ndcg([1, -1], 2)
    with pytest.raises(ValueError, match="non-negative"):
        context_precision([0.5], 2)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="k must be"):
        chunk_precision([1], 0)


# ------------------------------------------------------------------------------------------ metric names


@pytest.mark.parametrize(
    ("spelling", "canonical"),
    [
        ("mrr@10", "MRR@10"),
        ("MRR@10", "MRR@10"),
        ("rr@10", "MRR@10"),
        ("recip_rank", "MRR"),
        ("ndcg@10", "nDCG@10"),
        ("nDCG@10", "nDCG@10"),
        ("NDCG_CUT_10", "nDCG@10"),
        ("ndcg_cut_10", "nDCG@10"),
        ("P@5", "P@5"),
        ("p_5", "P@5"),
        ("precision@5", "P@5"),
        ("recall@5", "R@5"),
        ("R@5", "R@5"),
        ("recall_5", "R@5"),
        ("hit@10", "Hit@10"),
        ("success@10", "Hit@10"),
        ("success_10", "Hit@10"),
        ("map@100", "MAP@100"),
        ("AP@100", "MAP@100"),
        ("map_cut_100", "MAP@100"),
        ("map", "MAP"),
        ("coverage@5", "Coverage@5"),
        ("keyword_coverage@5", "Coverage@5"),
        ("context_precision@5", "CtxPrecision@5"),
        ("CtxPrecision@5", "CtxPrecision@5"),
        (" nDCG@1000 ", "nDCG@1000"),
    ],
)
def test_parse_metric_spellings(spelling: str, canonical: str) -> None:
    metric = parse_metric(spelling)
    assert str(metric) == canonical
    assert parse_metric(str(metric)) == metric


def test_parse_metric_values() -> None:
    assert parse_metric("ndcg_cut_10") == Metric("nDCG", 10)
    assert parse_metric("recip_rank") == Metric("MRR", None)
    metric = Metric("Hit", 3)
    assert parse_metric(metric) is metric


def test_parse_metric_default_k_fills_a_missing_cutoff_only() -> None:
    assert parse_metric("hit_rate", default_k=10) == Metric("Hit", 10)
    assert parse_metric("recip_rank", default_k=10) == Metric("MRR", 10)
    assert parse_metric("precision", default_k=5) == Metric("P", 5)
    assert parse_metric("ndcg@3", default_k=10) == Metric("nDCG", 3)
    assert parse_metric("ndcg_cut_3", default_k=10) == Metric("nDCG", 3)
    with pytest.raises(ValueError, match=r"1\.\.1000"):
        parse_metric("mrr", default_k=0)


@pytest.mark.parametrize(
    "bad", ["", "ndcg@", "ndcg@0", "ndcg@1001", "ndcg@-1", "ndcg@1.5", "f1@10", "ndcg_cut", "P", "precision", "@10"]
)
def test_parse_metric_rejects(bad: str) -> None:
    with pytest.raises(ValueError, match=r"accepted|1\.\.1000|cutoff"):
        parse_metric(bad)


def test_parse_metric_error_lists_accepted_forms() -> None:
    with pytest.raises(ValueError) as info:
        parse_metric("f1@10")
    assert "nDCG@K" in str(info.value) and "ndcg_cut_K" in str(info.value) and "success" in str(info.value)


def test_metric_validates_itself() -> None:
    with pytest.raises(ValueError, match="unknown metric"):
        Metric("F1", 10)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"1\.\.1000"):
        Metric("nDCG", MAX_K + 1)
    with pytest.raises(ValueError, match="int"):
        Metric("nDCG", True)
    with pytest.raises(ValueError, match="cutoff"):
        Metric("P", None)


@given(
    st.sampled_from(["MRR", "nDCG", "P", "R", "Hit", "MAP", "Coverage", "CtxPrecision"]),
    st.integers(min_value=1, max_value=MAX_K),
)
def test_metric_round_trip(name: str, k: int) -> None:
    metric = Metric(name, k)  # type: ignore[arg-type]
    assert parse_metric(str(metric)) == metric
    assert parse_metric(str(metric).lower()) == metric
    assert parse_metric(str(metric).upper()) == metric


# -------------------------------------------------------------------------------------- keyword coverage


def test_keyword_coverage_korean_particles() -> None:
    texts = ["하늘여행은 2008년 3월 15일에 설립되었습니다."]
    assert keyword_coverage(texts, ["하늘여행"]) == 1.0
    assert keyword_coverage(texts, ["하늘여행", "2008년", "부산"]) == pytest.approx(2 / 3)


def test_keyword_coverage_latin_word_boundaries() -> None:
    assert keyword_coverage(["Let us start."], ["art"]) == 0.0
    assert keyword_coverage(["Modern art, mostly."], ["art"]) == 1.0
    assert keyword_coverage(["Founded March 15, 2008."], ["March 15", "2008", "200"]) == pytest.approx(2 / 3)


def test_keyword_coverage_case_and_nfkc() -> None:
    assert keyword_coverage(["ＡＣＭＥ  Corp   was founded"], ["acme corp"]) == 1.0
    assert keyword_coverage(["HANEUL TRAVEL"], ["Haneul Travel"]) == 1.0
    assert keyword_coverage(["Price: ５０％ off"], ["50%"]) == 1.0


def test_keyword_coverage_over_several_texts() -> None:
    texts = ["Founded in 2008.", "Headquarters: Seoul."]
    assert keyword_coverage(texts, ["2008", "Seoul", "Busan", "Tokyo"]) == 0.5
    # Texts are joined with a break: the last word of one is not glued to the first of the next.
    assert keyword_coverage(["first", "art class"], ["art"]) == 1.0


def test_keyword_coverage_edge_cases() -> None:
    assert keyword_coverage([], ["x"]) == 0.0
    with pytest.raises(ValueError, match="keywords is empty"):
        keyword_coverage(["text"], [])
    with pytest.raises(ValueError, match="blank"):
        keyword_coverage(["text"], ["  "])
    with pytest.raises(ValueError, match="single string"):
        keyword_coverage("text", ["t"])


@given(st.lists(st.text(alphabet="abcdefg 하늘여행", min_size=1, max_size=12), min_size=1, max_size=4))
def test_keyword_coverage_words_of_the_text_are_found(texts: list[str]) -> None:
    words = [w for text in texts for w in text.split()]
    if words:
        assert keyword_coverage(texts, words) == 1.0
        assert 0.0 <= keyword_coverage(texts[:1], words) <= 1.0
