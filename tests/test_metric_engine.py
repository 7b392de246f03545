"""The vectorised engine against the reference functions and against pytrec_eval; metric properties."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evaluators.metrics import (
    Metric,
    average_precision,
    context_precision_at_k,
    hit,
    ndcg,
    precision,
    recall,
    reciprocal_rank,
    score_runs,
)

RankFn = Callable[[Sequence[str], Collection[str], Any], float]
REFERENCE: dict[str, RankFn] = {
    "MRR": reciprocal_rank,
    "nDCG": ndcg,
    "P": precision,
    "R": recall,
    "Hit": hit,
    "MAP": average_precision,
    "CtxPrecision": context_precision_at_k,
}
UNCUT = ["MRR", "nDCG", "R", "Hit", "MAP", "CtxPrecision"]  # P has no uncut form
DOCS = [f"d{i}" for i in range(12)]

Qrels = dict[str, set[str]]
Run = dict[str, list[str]]


def metrics_at(k: int) -> list[Metric]:
    return [Metric(name, k) for name in REFERENCE] + [Metric(name, None) for name in UNCUT]  # type: ignore[arg-type]


@st.composite
def cases(draw: st.DrawFn, *, duplicates: bool) -> tuple[Qrels, Run]:
    """Random qrels (1–5 relevant of 12 docs) and runs (0–15 ids; some queries absent from the run)."""
    n = draw(st.integers(min_value=1, max_value=8))
    qrels: Qrels = {}
    run: Run = {}
    for q in range(n):
        qid = f"q{q}"
        qrels[qid] = set(draw(st.lists(st.sampled_from(DOCS), min_size=1, max_size=5)))
        if draw(st.integers(0, 5)) == 0:
            continue  # missing from the run
        run[qid] = draw(st.lists(st.sampled_from([*DOCS, "other"]), max_size=15, unique=not duplicates))
    return qrels, run


# ------------------------------------------------------------------------------- engine == reference


@settings(max_examples=300, deadline=None)
@given(cases(duplicates=True), st.integers(min_value=1, max_value=20))
def test_engine_equals_reference_functions(case: tuple[Qrels, Run], k: int) -> None:
    qrels, run = case
    metrics = metrics_at(k)
    result = score_runs(qrels, run, metrics)
    assert result.query_ids == list(qrels)
    assert result.missing == [q for q in qrels if q not in run]
    for metric in metrics:
        fn = REFERENCE[metric.name]
        expected = [fn(run.get(q, []), qrels[q], metric.k) for q in qrels]
        np.testing.assert_allclose(result.scores[str(metric)], expected, rtol=0, atol=1e-12, err_msg=str(metric))


def test_engine_equals_reference_on_larger_random_runs() -> None:
    rng = np.random.default_rng(7)
    qrels: Qrels = {}
    run: Run = {}
    for q in range(400):
        qrels[f"q{q}"] = {f"d{d}" for d in rng.integers(0, 60, size=rng.integers(1, 8))}
        run[f"q{q}"] = [f"d{d}" for d in rng.integers(0, 60, size=rng.integers(0, 120))]  # duplicates galore
    metrics = [*metrics_at(5), *metrics_at(50), Metric("nDCG", 1000), Metric("MAP", 100)]
    result = score_runs(qrels, run, metrics)
    for metric in metrics:
        fn = REFERENCE[metric.name]
        expected = [fn(run[q], qrels[q], metric.k) for q in qrels]
        np.testing.assert_allclose(result.scores[str(metric)], expected, rtol=0, atol=1e-12, err_msg=str(metric))


# ------------------------------------------------------------------------------ engine == pytrec_eval


def pytrec_scores(qrels: Qrels, run: Run, k: int) -> dict[str, dict[str, float]]:
    """Our metric name → {qid: value} from pytrec_eval, for the queries pytrec_eval reports."""
    pytrec_eval = pytest.importorskip("pytrec_eval", reason="pip install pytrec-eval-terrier")
    trec_qrels = {q: dict.fromkeys(docs, 1) for q, docs in qrels.items()}

    def scored(docs: list[str]) -> dict[str, float]:
        # Distinct decreasing scores: trec_eval sorts by score, so this keeps the list order.
        return {doc: float(len(docs) - i) for i, doc in enumerate(docs)}

    full = {q: scored(docs) for q, docs in run.items()}
    cut = {q: scored(docs[:k]) for q, docs in run.items()}
    measures = {f"ndcg_cut_{k}", f"P_{k}", f"recall_{k}", f"success_{k}", f"map_cut_{k}", "recip_rank", "ndcg", "map"}
    main = pytrec_eval.RelevanceEvaluator(trec_qrels, measures).evaluate(full)
    rr_cut = pytrec_eval.RelevanceEvaluator(trec_qrels, {"recip_rank"}).evaluate(cut)
    names = {
        f"nDCG@{k}": f"ndcg_cut_{k}",
        f"P@{k}": f"P_{k}",
        f"R@{k}": f"recall_{k}",
        f"Hit@{k}": f"success_{k}",
        f"MAP@{k}": f"map_cut_{k}",
        "MRR": "recip_rank",
        "nDCG": "ndcg",
        "MAP": "map",
    }
    out = {ours: {q: values[theirs] for q, values in main.items()} for ours, theirs in names.items()}
    # trec_eval's recip_rank has no cutoff: RR@K is recip_rank on the run cut to K.
    out[f"MRR@{k}"] = {q: values["recip_rank"] for q, values in rr_cut.items()}
    return out


def assert_matches_pytrec(qrels: Qrels, run: Run, k: int) -> None:
    expected = pytrec_scores(qrels, run, k)
    result = score_runs(qrels, run, list(expected))
    for name, by_query in expected.items():
        ours = dict(zip(result.query_ids, result.scores[name].tolist(), strict=True))
        for qid in qrels:
            if qid in by_query:
                assert ours[qid] == pytest.approx(by_query[qid], abs=1e-12), (name, qid)
            else:  # pytrec_eval drops queries absent from the run; we score them 0 and report them
                assert qid in result.missing
                assert ours[qid] == 0.0


@settings(max_examples=200, deadline=None)
@given(cases(duplicates=False), st.integers(min_value=1, max_value=20))
def test_engine_equals_pytrec_eval(case: tuple[Qrels, Run], k: int) -> None:
    qrels, run = case
    assert_matches_pytrec(qrels, run, k)


@pytest.mark.parametrize("k", [1, 5, 10, 100])
def test_engine_equals_pytrec_eval_on_larger_runs(k: int) -> None:
    rng = np.random.default_rng(k)
    qrels: Qrels = {}
    run: Run = {}
    for q in range(300):
        qrels[f"q{q}"] = {f"d{d}" for d in rng.integers(0, 200, size=rng.integers(1, 12))}
        if q % 17:
            run[f"q{q}"] = [f"d{d}" for d in rng.permutation(200)[: rng.integers(0, 150)]]
    assert_matches_pytrec(qrels, run, k)


def test_pytrec_eval_drops_missing_queries_and_we_do_not() -> None:
    qrels = {"q1": {"a"}, "q2": {"b"}}
    run = {"q1": ["a"]}
    expected = pytrec_scores(qrels, run, 10)
    assert set(expected["nDCG@10"]) == {"q1"}
    result = score_runs(qrels, run, ["nDCG@10"])
    assert result.scores["nDCG@10"].tolist() == [1.0, 0.0]
    assert result.mean("ndcg_cut_10") == 0.5
    assert result.missing == ["q2"]


# ---------------------------------------------------------------------------------------- properties


@settings(max_examples=200, deadline=None)
@given(cases(duplicates=True), st.integers(min_value=1, max_value=20))
def test_scores_are_between_zero_and_one(case: tuple[Qrels, Run], k: int) -> None:
    qrels, run = case
    for values in score_runs(qrels, run, metrics_at(k)).scores.values():
        assert np.all((values >= 0.0) & (values <= 1.0))


@settings(max_examples=200, deadline=None)
@given(cases(duplicates=True))
def test_recall_and_hit_grow_with_k(case: tuple[Qrels, Run]) -> None:
    qrels, run = case
    ks = range(1, 21)
    result = score_runs(qrels, run, [Metric(name, k) for k in ks for name in ("R", "Hit")])
    for name in ("R", "Hit"):
        table = np.stack([result.scores[f"{name}@{k}"] for k in ks])
        assert np.all(np.diff(table, axis=0) >= 0.0), name


@settings(max_examples=200, deadline=None)
@given(cases(duplicates=True), st.integers(min_value=1, max_value=20), st.data())
def test_more_chunks_of_an_already_ranked_document_change_nothing(
    case: tuple[Qrels, Run], k: int, data: st.DataObject
) -> None:
    qrels, run = case
    padded = {}
    for qid, docs in run.items():
        docs = list(docs)
        for _ in range(data.draw(st.integers(0, 3)) if docs else 0):
            source = data.draw(st.integers(0, len(docs) - 1))
            docs.insert(data.draw(st.integers(source + 1, len(docs))), docs[source])
        padded[qid] = docs
    metrics = metrics_at(k)
    before = score_runs(qrels, run, metrics).scores
    after = score_runs(qrels, padded, metrics).scores
    for name in before:
        assert before[name].tolist() == after[name].tolist(), name
    for qid, docs in padded.items():
        for metric in metrics:
            fn = REFERENCE[metric.name]
            assert fn(docs, qrels[qid], metric.k) == fn(run[qid], qrels[qid], metric.k)


# ------------------------------------------------------------------------------------------ behaviour


def test_scores_align_with_qrels_order_and_names_are_canonical() -> None:
    qrels = {"z": {"a"}, "y": {"b", "c"}, "x": {"c"}}
    run = {"x": ["c"], "y": ["c", "q", "b"], "z": ["q", "a"], "extra": ["a"]}
    result = score_runs(qrels, run, ["rr@10", "MRR@10", "ndcg_cut_2", "P@2", "recall@1", "success@1", "AP@3"])
    assert result.query_ids == ["z", "y", "x"]
    assert list(result.scores) == ["MRR@10", "nDCG@2", "P@2", "R@1", "Hit@1", "MAP@3"]
    assert result.scores["MRR@10"].tolist() == [0.5, 1.0, 1.0]
    assert result.scores["P@2"].tolist() == [0.5, 0.5, 0.5]
    assert result.scores["R@1"].tolist() == [0.0, 0.5, 1.0]
    assert result.scores["Hit@1"].tolist() == [0.0, 1.0, 1.0]
    assert result.scores["MAP@3"].tolist() == pytest.approx([0.5, (1 + 2 / 3) / 2, 1.0])
    assert result.mean("mrr@10") == pytest.approx(2.5 / 3)
    assert result.missing == []


def test_engine_collapses_duplicates_to_first_occurrence() -> None:
    result = score_runs({"q": {"a", "b"}}, {"q": ["a", "a", "a", "b"]}, ["P@2", "R@2", "nDCG@2", "MAP@2"])
    assert {name: values.tolist() for name, values in result.scores.items()} == {
        "P@2": [1.0],
        "R@2": [1.0],
        "nDCG@2": [1.0],
        "MAP@2": [1.0],
    }


def test_engine_keeps_list_order_for_ties() -> None:
    # No scores are involved: the list order is the ranking, whatever a retriever's scores were.
    result = score_runs({"q": {"b"}}, {"q": ["a", "b"]}, ["MRR@10"])
    assert result.scores["MRR@10"].tolist() == [0.5]


def test_engine_accepts_lists_with_duplicates_and_grade_mappings_as_qrels() -> None:
    qrels: dict[str, Collection[str]] = {"q1": ["a", "a", "b"], "q2": {"c": 1, "d": 0}}
    result = score_runs(qrels, {"q1": ["a"], "q2": ["d"]}, ["R@5"])
    assert result.scores["R@5"].tolist() == [0.5, 0.5]  # a mapping's keys are all relevant, whatever the grade


def test_engine_empty_inputs() -> None:
    result = score_runs({}, {}, ["nDCG@10"])
    assert result.query_ids == []
    assert result.scores["nDCG@10"].shape == (0,)
    assert result.mean("nDCG@10") == 0.0
    nothing_found = score_runs({"q": {"a"}}, {"q": []}, metrics_at(3))
    assert all(values.tolist() == [0.0] for values in nothing_found.scores.values())
    assert nothing_found.missing == []


@pytest.mark.parametrize(
    ("qrels", "run", "metrics", "message"),
    [
        ({"q": {"a"}}, {"q": ["a"]}, [], "no metrics"),
        ({"q": {"a"}}, {"q": ["a"]}, ["Coverage@5"], "keyword_coverage"),
        ({"q": {"a"}}, {"q": ["a"]}, ["f1@5"], "accepted"),
        ({"q": set(), "r": {"a"}}, {"q": ["a"]}, ["P@5"], "no relevant documents"),
        ({"q": "a"}, {"q": ["a"]}, ["P@5"], "not a string"),
        ({"q": {"a"}}, {"q": "a"}, ["P@5"], "ranked list"),
        ({"q": {"a"}}, {"q": {"a": 1.0}}, ["P@5"], "ranked list"),
    ],
)
def test_engine_rejects_bad_input(qrels: Any, run: Any, metrics: list[str], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        score_runs(qrels, run, metrics)


def test_engine_does_not_mutate_inputs() -> None:
    qrels = {"q": ["a", "b"]}
    run = {"q": ["b", "b", "x", "a"]}
    score_runs(qrels, run, metrics_at(2))
    assert qrels == {"q": ["a", "b"]}
    assert run == {"q": ["b", "b", "x", "a"]}


def test_engine_blocks_give_the_same_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    rng = np.random.default_rng(3)
    qrels = {f"q{i}": {f"d{d}" for d in rng.integers(0, 30, size=rng.integers(1, 5))} for i in range(200)}
    run = {f"q{i}": [f"d{d}" for d in rng.integers(0, 30, size=rng.integers(0, 40))] for i in range(200) if i % 7}
    metrics = metrics_at(10)
    whole = score_runs(qrels, run, metrics).scores
    monkeypatch.setattr("evaluators.metrics.engine._BLOCK_CELLS", 50)  # a few rows per block
    blocked = score_runs(qrels, run, metrics).scores
    for name, values in whole.items():
        assert blocked[name].tolist() == values.tolist(), name
