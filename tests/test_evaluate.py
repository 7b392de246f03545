"""Scoring, reports, the CI gate and run comparison (no target: records are built by hand)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

from evaluators.compare import compare, load_results, paired_randomization
from evaluators.evaluate import score
from evaluators.report import check, parse_thresholds, render_html, write_report
from schemas import RetrievedContext, RunRecord, TestQuestion
from testgen.errors import OptionError, UserInputError


def q(
    text: str, docs: list[str], category: str = "direct_fact", keywords: list[str] | None = None, qid: str | None = None
) -> TestQuestion:
    return TestQuestion(
        question=text, keywords=keywords or ["alpha"], reference_answer="x", category=category, source_docs=docs, id=qid
    )


def rec(text: str, docs: list[str], texts: list[str] | None = None, error: str | None = None) -> RunRecord:
    texts = texts or ["" for _ in docs]
    return RunRecord(
        question=text,
        contexts=[RetrievedContext(doc_id=d, text=t) for d, t in zip(docs, texts, strict=True)],
        error=error,
    )


def test_hand_computed_means_and_statuses() -> None:
    questions = [
        q("one", ["a.md"]),  # first relevant at rank 2 → RR 0.5
        q("two", ["b.md"]),  # rank 1 → 1.0
        q("three", ["c.md"]),  # rank 5 → 0.2
        q("four", ["d.md"], category="temporal"),  # missing from the run → 0
        q("five", ["e.md"], category="temporal"),  # target error → 0
        q("six", [], category="holistic"),  # no source_docs → unscorable, left out
    ]
    records = [
        rec("one", ["x.md", "a.md"]),
        rec("two", ["b.md", "b.md", "y.md"]),  # duplicate chunks of b count once
        rec("three", ["p.md", "q.md", "r.md", "s.md", "c.md"]),
        None,
        rec("five", [], error="TimeoutError: took longer than 30 s"),
        rec("six", ["a.md"]),
    ]
    outcome = score(questions, records, k=5, dataset="t.jsonl")
    s = outcome.summary
    assert s.counts == {"scored": 3, "missing": 1, "error": 1, "unscorable": 1}
    assert s.overall["MRR@5"].n == 5
    assert s.overall["MRR@5"].mean == pytest.approx((0.5 + 1.0 + 0.2) / 5)
    assert s.overall["Hit@5"].mean == pytest.approx(3 / 5)
    assert s.overall["P@5"].mean == pytest.approx(3 / 5 / 5)
    assert s.by_category["temporal"]["MRR@5"].mean == 0.0
    assert "MRR@5" not in s.by_category["holistic"]
    assert outcome.results[1].retrieved_docs == ["b.md", "y.md"]
    assert outcome.results[4].error == "TimeoutError: took longer than 30 s"
    assert len(s.curve["P"]) == 5 and s.curve["R"][-1] == pytest.approx(3 / 5)


def test_keyword_coverage_uses_top_k_chunk_texts() -> None:
    questions = [q("when founded", ["a.md"], keywords=["2008", "March 15"])]
    records = [rec("when founded", ["a.md", "b.md"], ["Founded on March 15, 2008.", "other"])]
    outcome = score(questions, records, k=1)
    assert outcome.results[0].metrics["Coverage@1"] == 1.0
    records = [rec("when founded", ["b.md", "a.md"], ["nothing here", "Founded on March 15, 2008."])]
    assert score(questions, records, k=1).results[0].metrics["Coverage@1"] == 0.0


def test_k_outside_range_is_rejected() -> None:
    with pytest.raises(ValueError, match="between 1 and 50"):
        score([q("a", ["a.md"])], [None], k=51)


def test_gate_thresholds_parse_and_fail() -> None:
    outcome = score([q("a", ["a.md"]), q("b", ["b.md"])], [rec("a", ["a.md"]), rec("b", ["z.md"])], k=10)
    thresholds = parse_thresholds("mrr=0.75,ndcg@10=0.4,hit_rate=0.5", 10)
    assert thresholds == {"MRR@10": 0.75, "nDCG@10": 0.4, "Hit@10": 0.5}
    failures = check(outcome.summary, thresholds)
    assert [(f.metric, f.value) for f in failures] == [("MRR@10", 0.5)]
    with pytest.raises(OptionError):
        parse_thresholds("mrr", 10)
    with pytest.raises(OptionError):
        parse_thresholds("bogus=0.5", 10)
    with pytest.raises(OptionError):
        parse_thresholds("mrr=1.5", 10)


def test_report_files_and_html_escaping(tmp_path: Path) -> None:
    hostile = '<script>alert("x")</script> 하늘여행은 언제?'
    outcome = score([q(hostile, ["a.md"], category="<b>cat</b>")], [rec(hostile, ["a.md"])], k=3, dataset="<i>set</i>")
    written = write_report(outcome, tmp_path, plots=True)
    for key in (
        "results",
        "summary",
        "csv",
        "markdown",
        "html",
        "plot_metrics",
        "plot_categories",
        "plot_precision_recall",
    ):
        assert written[key].exists(), key
    assert written["plot_metrics"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    html = written["html"].read_text(encoding="utf-8")
    assert "<script>alert" not in html and "&lt;script&gt;" in html
    assert "<b>cat</b>" not in html and "&lt;b&gt;cat&lt;/b&gt;" in html
    assert "하늘여행은 언제?" in html
    summary = json.loads(written["summary"].read_text(encoding="utf-8"))
    assert summary["overall"]["MRR@3"] == {"mean": 1.0, "n": 1, "unscored": 0}
    assert written["csv"].read_text(encoding="utf-8-sig").splitlines()[0].startswith("id,category,status,question")
    assert "data:image/png;base64," in render_html(outcome, {"m": written["plot_metrics"]})


def test_markdown_report_shows_html_from_questions_as_text(tmp_path: Path) -> None:
    hostile = '<script>alert("x")</script> <img src=x onerror=alert(1)> a | b & c'
    outcome = score(
        [q(hostile, ["<a.md>"], category="<b>cat</b>"), q("fine", ["b.md"])],
        [rec(hostile, ["<x.md>"], error="<iframe src=evil>"), rec("fine", ["b.md"])],
        k=3,
        dataset="<i>set</i>",
        target={"target": "<u>mine</u>"},
    )
    markdown = write_report(outcome, tmp_path, plots=False)["markdown"].read_text(encoding="utf-8")
    for tag in ("<script", "<img", "<b>", "<i>", "<u>", "<iframe", "<a.md>", "<x.md>"):
        assert tag not in markdown, tag
    assert "# Retrieval evaluation — &lt;i&gt;set&lt;/i&gt;" in markdown
    assert '&lt;script&gt;alert("x")&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt; a \\| b &amp; c' in markdown
    assert "| &lt;b&gt;cat&lt;/b&gt; |" in markdown and "&lt;iframe src=evil&gt;" in markdown


class _SlowTarget:
    """A target that takes 0.3 s to load (an index, a model) and 0.1 s to answer."""

    def __init__(self) -> None:
        time.sleep(0.3)

    def run(self, questions: list[TestQuestion], k: int, progress: object = None) -> list[RunRecord]:
        time.sleep(0.1)
        return [rec(question.question, ["a.md"]) for question in questions]

    def describe(self) -> dict[str, str]:
        return {"target": "slow"}


def test_the_report_header_shows_the_whole_run_time(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from evaluators.runner import RunConfig, run_evaluation

    monkeypatch.setattr("evaluators.targets.make_target", lambda spec, **options: _SlowTarget())
    began = time.perf_counter()
    outcome = run_evaluation([q("one", ["a.md"])], RunConfig(target="runfile:slow.jsonl", k=3))
    took = time.perf_counter() - began
    assert 0.4 <= outcome.summary.seconds <= took + 0.001  # loading the target, retrieving and scoring (rounded)
    written = write_report(outcome, tmp_path, plots=False)
    shown = f"run time {outcome.summary.seconds:.2f} s"
    assert shown in written["html"].read_text(encoding="utf-8")
    assert shown in written["markdown"].read_text(encoding="utf-8")


def test_run_times_are_shown_to_a_sensible_precision() -> None:
    from evaluators.report.panels import run_time

    assert [run_time(s) for s in (0.021, 9.994, 12.34, 65, 3599.4, 3725)] == [
        "0.02 s",
        "9.99 s",
        "12.3 s",
        "1 min 05 s",
        "59 min 59 s",
        "1 h 02 min",
    ]


def test_precision_at_k_is_banded_against_the_best_the_set_allows(tmp_path: Path) -> None:
    import io

    from rich.console import Console

    from evaluators.report import print_report
    from evaluators.report.bands import best_possible

    # 1 or 2 relevant documents per question (1.5 on average), every one of them ranked first: a perfect run
    questions = [
        q(f"q{i}", ["a.md", "b.md"] if i % 2 else ["a.md"], category="pair" if i % 2 else "one") for i in range(8)
    ]
    records = [
        rec(x.question, [*x.source_docs, "z1.md", "z2.md"], ["alpha"] * (len(x.source_docs) + 2)) for x in questions
    ]
    outcome = score(questions, records, k=10)
    overall = outcome.summary.overall
    assert overall["P@10"].mean == pytest.approx(0.15) and overall["MRR@10"].mean == 1.0
    assert best_possible("P@10", outcome.results) == pytest.approx(0.15)
    assert best_possible("R@10", outcome.results) is None and best_possible("nDCG@10", outcome.results) is None
    assert best_possible("P@1", outcome.results) is None  # every question has a relevant document to put first
    written = write_report(outcome, tmp_path, plots=False)
    markdown = written["markdown"].read_text(encoding="utf-8")
    assert "| P@10 | 0.1500 | 8 | excellent (best possible 0.1500) |" in markdown
    assert "needs work" not in markdown
    html = written["html"].read_text(encoding="utf-8")
    assert "<td>excellent (best possible 0.150)</td>" in html and "num needs-work" not in html
    out = io.StringIO()
    print_report(outcome, Console(file=out, width=200))
    assert "excellent (best possible 0.150)" in out.getvalue() and "needs work" not in out.getvalue()
    # half as good as it could be is still banded so
    worse = score(questions, [rec(x.question, ["z1.md", *x.source_docs]) for x in questions], k=1)
    assert best_possible("R@1", worse.results) == pytest.approx(0.75)  # a question with 2 documents finds 1 of them
    assert "| R@1 | 0.0000 | 8 | needs work (best possible 0.7500) |" in write_report(
        worse, tmp_path / "w", plots=False
    )["markdown"].read_text(encoding="utf-8")


def test_paired_randomization_detects_a_real_difference_and_not_noise() -> None:
    rng = np.random.default_rng(1)
    better = np.abs(rng.normal(0.3, 0.1, size=60))
    assert paired_randomization(better, seed=0) < 0.01
    assert paired_randomization(np.zeros(20), seed=0) == 1.0
    noise = rng.normal(0, 0.1, size=60)
    assert paired_randomization(noise, seed=0) > 0.05
    assert paired_randomization(noise, seed=3) == paired_randomization(noise, seed=3)


def test_compare_two_reports(tmp_path: Path) -> None:
    questions = [
        q(f"q{i}", [f"{i}.md"], category="temporal" if i % 2 else "direct_fact", qid=f"id{i}") for i in range(12)
    ]
    weak = [rec(f"q{i}", ["x.md", f"{i}.md"]) for i in range(12)]
    strong = [rec(f"q{i}", [f"{i}.md"]) for i in range(12)]
    write_report(score(questions, weak, k=5), tmp_path / "a", plots=False)
    write_report(score(questions, strong, k=5), tmp_path / "b", plots=False)
    overall, categories, unmatched = compare(load_results(tmp_path / "a"), load_results(tmp_path / "b"))
    mrr = next(c for c in overall if c.metric == "MRR@5")
    assert (mrr.mean_a, mrr.mean_b, mrr.delta) == (0.5, 1.0, 0.5)
    assert (mrr.wins, mrr.ties, mrr.losses) == (12, 0, 0)
    assert mrr.p_value < 0.01
    assert set(categories) == {"direct_fact", "temporal"}
    assert unmatched == 0


def test_compare_takes_each_metric_over_the_questions_both_runs_scored() -> None:
    questions = [q(f"q{i}", [f"{i}.md"], qid=f"id{i}") for i in range(6)]
    a = score(questions, [rec(f"q{i}", ["x.md", f"{i}.md"]) for i in range(6)], k=5).results
    b = score(questions, [rec(f"q{i}", [f"{i}.md"]) for i in range(6)], k=5).results
    for i, (ra, rb) in enumerate(zip(a, b, strict=True)):
        ra.metrics["judge_accuracy"], rb.metrics["judge_accuracy"] = 3.0, 4.0
        if i < 2:  # the judge failed on two questions of run B
            del rb.metrics["judge_accuracy"]
            rb.unscored["judge_accuracy"] = "LLMTimeout: no reply"
    overall, _, _ = compare(a, b)
    judged = next(c for c in overall if c.metric == "judge_accuracy")
    assert (judged.n, judged.mean_a, judged.mean_b, judged.wins) == (4, 3.0, 4.0, 4)
    assert next(c for c in overall if c.metric == "MRR@5").n == 6


def test_compare_runs_with_no_metric_in_common_is_an_error() -> None:
    questions = [q(f"q{i}", [f"{i}.md"], qid=f"id{i}") for i in range(3)]
    records = [rec(f"q{i}", [f"{i}.md"]) for i in range(3)]
    with pytest.raises(UserInputError, match=r"share no metric \(A has .*MRR@10.*B has .*MRR@5.*same -k"):
        compare(score(questions, records, k=10).results, score(questions, records, k=5).results)
