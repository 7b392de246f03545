"""full_rag: answers, answer coverage, the judge and RAGAS metrics through the runner, with a scripted model."""

from __future__ import annotations

import json
import zlib
from pathlib import Path

import pytest

from evaluators.generation import BUDGET_REASON
from evaluators.report import parse_thresholds, write_report
from evaluators.report.diagnosis import faithfulness_relevancy, retrieval_generation
from evaluators.runner import RunConfig, run_evaluation
from schemas import EvaluationSummary, MetricMean, TestQuestion
from testgen.errors import OptionError
from testgen.llm import FakeLLM, LLMBudgetExceeded, LLMCallError

DOCS = {
    "pricing.md": "# Pricing\n\nThe Trail 500 costs 1,299 euros. The City 300 costs 899 euros.\n",
    "warranty.md": "# Warranty\n\nFrames are covered for 10 years. Batteries are covered for 2 years.\n",
    "stores.md": "# Stores\n\nThe Berlin store opened in 2019. The Munich store opened in 2021.\n",
}
QUESTIONS = [
    ("How much does the Trail 500 cost?", ["1,299 euros"], "The Trail 500 costs 1,299 euros.", "pricing.md"),
    ("How long are frames covered?", ["10 years"], "Frames are covered for 10 years.", "warranty.md"),
    ("When did the Berlin store open?", ["2019"], "The Berlin store opened in 2019.", "stores.md"),
    ("How much does the City 300 cost?", ["899 euros"], "The City 300 costs 899 euros.", "pricing.md"),
    ("How long are batteries covered?", ["2 years"], "Batteries are covered for 2 years.", "warranty.md"),
    ("When did the Munich store open?", ["2021"], "The Munich store opened in 2021.", "stores.md"),
    ("수원 매장은 언제 문을 열었나요?", ["2023"], "수원 매장은 2023년에 문을 열었습니다.", "stores.md"),
    ("What colour is the Trail 500?", ["green"], "The Trail 500 is green.", "pricing.md"),
    ("Which battery lasts longest?", ["2 years"], "Batteries are covered for 2 years.", "warranty.md"),
    ("Where is the first store?", ["Berlin"], "The first store is in Berlin.", "stores.md"),
]


@pytest.fixture()
def kb(tmp_path: Path) -> Path:
    root = tmp_path / "kb"
    root.mkdir()
    for name, text in DOCS.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


@pytest.fixture()
def questions() -> list[TestQuestion]:
    return [
        TestQuestion(question=q, keywords=kw, reference_answer=ref, category=cat, source_docs=[doc])
        for (q, kw, ref, doc), cat in zip(QUESTIONS, ["direct_fact", "temporal"] * 5, strict=True)
    ]


def _is_judge(messages: list[dict[str, str]]) -> bool:
    return "accuracy" in " ".join(m["content"] for m in messages).lower()


JUDGE_REPLY = json.dumps(
    {
        "accuracy": 4,
        "accuracy_reason": "mostly right",
        "completeness": 5,
        "completeness_reason": "covers the reference",
        "relevance": 5,
        "relevance_reason": "on the question",
        "faithfulness": 0.9,
        "faithfulness_reason": "supported",
        "answer_relevancy": 0.8,
        "answer_relevancy_reason": "direct",
    }
)


def _respond(messages: list[dict[str, str]]) -> str:
    if _is_judge(messages):
        return JUDGE_REPLY
    return "The answer is 1,299 euros."


def _config(kb: Path, **changes: object) -> RunConfig:
    return RunConfig(kb=str(kb), k=3, evaluation_type="full_rag", llm="fake/model", **changes)  # type: ignore[arg-type]


def test_full_rag_answers_and_judges_each_question_in_two_calls(kb: Path, questions: list[TestQuestion]) -> None:
    llm = FakeLLM(_respond)
    outcome = run_evaluation(questions, _config(kb), dataset="t", llm=llm)
    s = outcome.summary
    assert s.evaluation_type == "full_rag" and s.model == "fake/model"
    assert all(r.answer == "The answer is 1,299 euros." for r in outcome.results)
    assert s.overall["judge_accuracy"].n == len(questions) and s.overall["judge_accuracy"].mean == 4.0
    assert s.overall["judge_faithfulness"].mean == pytest.approx(0.9)
    # answer + bundled judge: exactly two calls per question, planned before and made after
    usage = llm.usage()
    assert usage["answer"].calls == len(questions) and usage["judge"].calls == len(questions)
    assert s.planned_calls == 2 * len(questions) == sum(u.calls for u in s.usage.values())
    # the answer mentions 1,299 euros: only the first question's keyword is covered
    assert outcome.results[0].metrics["answer_coverage"] == 1.0
    assert outcome.results[1].metrics["answer_coverage"] == 0.0
    assert outcome.results[0].judge is not None and outcome.results[0].judge.raw == [JUDGE_REPLY]
    assert outcome.results[0].reference_answer == questions[0].reference_answer
    # the generated answers are kept on the run records (what --save-run writes)
    assert all(r is not None and r.answer for r in outcome.records)


def test_another_model_judges_so_the_answering_model_does_not_grade_itself(
    kb: Path, questions: list[TestQuestion], tmp_path: Path
) -> None:
    answerer, judge = FakeLLM(_respond), FakeLLM(_respond, model="fake/judge")
    config = _config(kb, judge_llm="fake/judge", ragas_metrics="faithfulness")
    outcome = run_evaluation(questions, config, dataset="t", llm=answerer, judge_llm=judge)
    assert {c.stage for c in answerer.history} == {"answer"}
    assert {c.stage for c in judge.history} == {"judge", "ragas"}
    s = outcome.summary
    assert (s.model, s.judge_model) == ("fake/model", "fake/judge")
    assert s.usage["answer"].calls == len(questions) and s.usage["judge"].calls == len(questions)
    assert s.usage["ragas"].calls == len([c for c in judge.history if c.stage == "ragas"]) > 0
    assert s.overall["judge_accuracy"].n == len(questions)
    written = write_report(outcome, tmp_path / "report", plots=False)
    for key in ("markdown", "html"):
        assert "Answers — fake/model, judged by fake/judge" in written[key].read_text(encoding="utf-8")


def test_a_judge_model_alone_judges_the_offline_answers(kb: Path, questions: list[TestQuestion]) -> None:
    judge = FakeLLM(_respond, model="fake/judge")
    config = RunConfig(kb=str(kb), k=3, evaluation_type="full_rag", judge_llm="fake/judge")
    plans = []
    outcome = run_evaluation(questions, config, dataset="t", judge_llm=judge, on_plan=lambda p: plans.append(p) or True)
    answered = [r for r in outcome.results if r.answer]
    assert len(answered) >= len(questions) - 2  # a question that retrieved nothing has no extractive answer
    assert plans[0].answer_calls == 0 and plans[0].judge_calls == len(answered) == len(judge.history)
    assert {c.stage for c in judge.history} == {"judge"}
    assert outcome.summary.overall["judge_accuracy"].n == len(answered)
    assert any("extractive" in note for note in outcome.summary.notes)


def test_the_two_models_share_one_cost_cap() -> None:
    from testgen.llm import CostLedger, LLMClient, LLMSettings

    ledger = CostLedger(spent=0.009)  # what the answering model has spent already
    judge = LLMClient(LLMSettings(model="openai/gpt-4.1-mini", cache_dir=None, max_cost=0.01), ledger=ledger)
    with pytest.raises(LLMBudgetExceeded, match=r"spent \$0.0090"):
        judge.complete([{"role": "user", "content": "x " * 5000}], stage="judge")  # refused before any request
    assert judge.spent == 0.009


def test_thirty_percent_judge_failures_are_counted_never_nan(
    kb: Path, questions: list[TestQuestion], tmp_path: Path
) -> None:
    failing = {q.question for q in questions if zlib.crc32(q.question.encode()) % 10 < 3}
    assert 1 <= len(failing) <= 6

    def respond(messages: list[dict[str, str]]) -> str:
        text = " ".join(m["content"] for m in messages)
        if _is_judge(messages) and any(q in text for q in failing):
            raise LLMCallError("LLMTimeout: the judge did not answer in 60 s")
        return _respond(messages)

    outcome = run_evaluation(questions, _config(kb), dataset="t", llm=FakeLLM(respond))
    accuracy = outcome.summary.overall["judge_accuracy"]
    assert accuracy.unscored == len(failing) and accuracy.n == len(questions) - len(failing)
    for r in outcome.results:
        if r.question in failing:
            assert "judge_accuracy" not in r.metrics
            assert "did not answer" in r.unscored["judge_accuracy"]
            assert r.judge is not None and r.judge.error
        else:
            assert "judge_accuracy" in r.metrics
    written = write_report(outcome, tmp_path / "report", plots=False)
    for key in ("summary", "results"):
        text = written[key].read_text(encoding="utf-8")
        assert "NaN" not in text
        for line in text.splitlines() if key == "results" else [text]:
            json.loads(line, parse_constant=lambda c, key=key: pytest.fail(f"{c} in {key}"))
    markdown = written["markdown"].read_text(encoding="utf-8")
    assert f"{len(questions) - len(failing)}/{len(questions)}" in markdown and "unscored" in markdown
    html = written["html"].read_text(encoding="utf-8")
    assert "Answers — fake/model" in html and "Retrieval</h2>" in html


def test_offline_full_rag_answers_extractively(kb: Path, questions: list[TestQuestion]) -> None:
    config = RunConfig(kb=str(kb), k=3, evaluation_type="full_rag")
    outcome = run_evaluation(questions, config, dataset="t")
    first = outcome.results[0]
    assert first.answer is not None and "1,299 euros" in first.answer
    assert first.metrics["answer_coverage"] == 1.0
    assert not any(name.startswith("judge_") for r in outcome.results for name in r.metrics)
    assert any("judge did not run" in note for note in outcome.summary.notes)
    assert outcome.summary.planned_calls == 0


def test_target_without_answers_leaves_answer_metrics_unscored(kb: Path, questions: list[TestQuestion]) -> None:
    run = kb.parent / "run.jsonl"
    run.write_text(
        "".join(
            json.dumps({"question": q.question, "contexts": [{"doc_id": q.source_docs[0], "text": "x"}]}) + "\n"
            for q in questions
        ),
        encoding="utf-8",
    )
    llm = FakeLLM(_respond)
    config = RunConfig(target=f"runfile:{run}", k=3, evaluation_type="full_rag", llm="fake/model")
    outcome = run_evaluation(questions, config, dataset="t", llm=llm)
    assert llm.history == []  # nothing to answer, nothing to judge
    reasons = {r.unscored["judge_accuracy"] for r in outcome.results}
    assert len(reasons) == 1 and "returned none" in reasons.pop()
    assert outcome.summary.overall["MRR@3"].mean == 1.0


def test_budget_reached_while_judging_unscores_the_rest(kb: Path, questions: list[TestQuestion]) -> None:
    calls = {"judge": 0}

    def respond(messages: list[dict[str, str]]) -> str:
        if _is_judge(messages):
            calls["judge"] += 1
            if calls["judge"] > 3:
                raise LLMBudgetExceeded("--max-cost 0.01 reached")
        return _respond(messages)

    outcome = run_evaluation(questions, _config(kb, concurrency=1), dataset="t", llm=FakeLLM(respond))
    reasons = [r.unscored.get("judge_accuracy") for r in outcome.results]
    assert reasons.count(BUDGET_REASON) == len(questions) - 3  # the three judged before the cap are kept
    assert outcome.summary.overall["judge_accuracy"].n == 3
    assert any("--max-cost" in note for note in outcome.summary.notes)


def test_dry_run_plans_without_calling(kb: Path, questions: list[TestQuestion]) -> None:
    llm = FakeLLM(_respond)
    plans = []
    outcome = run_evaluation(
        questions, _config(kb, judge="separate"), dataset="t", llm=llm, on_plan=lambda p: plans.append(p) or False
    )
    assert llm.history == []
    assert plans[0].answer_calls == len(questions) and plans[0].judge_calls == 5 * len(questions)
    assert outcome.summary.planned_calls == plans[0].calls
    assert "dry run" in outcome.summary.notes[0]


def test_ragas_metric_names_are_validated_in_the_config(kb: Path) -> None:
    assert _config(kb, ragas_metrics="faithfulness, context_recall").ragas_metrics == [
        "faithfulness",
        "context_recall",
    ]
    with pytest.raises(ValueError, match="faithfulnes"):
        _config(kb, ragas_metrics="faithfulnes")


def _summary(**means: float) -> EvaluationSummary:
    overall = {name: MetricMean(mean=value, n=10) for name, value in means.items()}
    return EvaluationSummary(
        dataset="d", target={}, k=5, questions=10, counts={}, overall=overall, by_category={"temporal": overall}
    )


@pytest.mark.parametrize(
    ("faith", "relevancy", "pattern"),
    [
        (0.9, 0.9, "grounded and on point"),
        (0.9, 0.3, "grounded but off the question"),
        (0.3, 0.9, "on point but not grounded (possible hallucination)"),
        (0.3, 0.3, "neither grounded nor on point"),
    ],
)
def test_faithfulness_relevancy_patterns(faith: float, relevancy: float, pattern: str) -> None:
    findings = faithfulness_relevancy(_summary(judge_faithfulness=faith, judge_answer_relevancy=relevancy))
    assert [f.scope for f in findings] == ["overall", "temporal"]
    assert {f.pattern for f in findings} == {pattern}


@pytest.mark.parametrize(
    ("recall", "accuracy", "pattern"),
    [
        (0.9, 4.6, "retrieval good, answers good"),
        (0.9, 2.0, "retrieval good, answers poor"),
        (0.5, 4.6, "retrieval poor, answers good"),
        (0.5, 2.0, "retrieval poor, answers poor"),
    ],
)
def test_retrieval_generation_matrix(recall: float, accuracy: float, pattern: str) -> None:
    findings = retrieval_generation(_summary(**{"R@5": recall, "judge_accuracy": accuracy}))
    assert findings[0].pattern == pattern
    assert findings[0].y == pytest.approx((accuracy - 1) / 4)


def test_a_category_without_the_runs_answer_metric_gets_no_finding() -> None:
    # The judge failed on every relationship question: that category is not read from answer coverage instead.
    scored = {"R@5": MetricMean(mean=0.9, n=4), "judge_accuracy": MetricMean(mean=4.6, n=4)}
    unjudged = {"R@5": MetricMean(mean=1.0, n=2), "answer_coverage": MetricMean(mean=0.0, n=2)}
    summary = EvaluationSummary(
        dataset="d",
        target={},
        k=5,
        questions=6,
        counts={},
        overall={**scored, "answer_coverage": MetricMean(mean=0.2, n=6)},
        by_category={"temporal": scored, "relationship": unjudged},
    )
    findings = retrieval_generation(summary)
    assert [(f.scope, f.y_name) for f in findings] == [("overall", "judge_accuracy"), ("temporal", "judge_accuracy")]


def test_gate_takes_answer_scores_on_their_own_scale() -> None:
    assert parse_thresholds("judge_accuracy=4,judge_faithfulness=0.8,mrr=0.5", 5) == {
        "judge_accuracy": 4.0,
        "judge_faithfulness": 0.8,
        "MRR@5": 0.5,
    }
    with pytest.raises(OptionError, match="between 1 and 5"):
        parse_thresholds("judge_accuracy=6", 5)
    with pytest.raises(OptionError, match="between 0 and 1"):
        parse_thresholds("judge_faithfulness=4", 5)


def test_embeddings_go_to_the_judging_models_server(
    kb: Path, questions: list[TestQuestion], monkeypatch: pytest.MonkeyPatch
) -> None:
    import evaluators.ragas_metrics as ragas_metrics

    seen: list[tuple[str | None, str | None]] = []
    monkeypatch.setattr(ragas_metrics, "make_embedder", lambda spec, base=None: seen.append((spec, base)))
    common = {"ragas_metrics": "semantic_similarity", "embeddings": "openai/embed", "api_base": "http://answers/v1"}
    run_evaluation(questions, _config(kb, **common), dataset="t", llm=FakeLLM(_respond))
    judged = _config(kb, judge_llm="fake/judge", judge_api_base="http://judge/v1", **common)
    run_evaluation(questions, judged, dataset="t", llm=FakeLLM(_respond), judge_llm=FakeLLM(_respond))
    assert seen == [("openai/embed", "http://answers/v1"), ("openai/embed", "http://judge/v1")]
