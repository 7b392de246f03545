"""The LLM judge: call counts per mode, audit record, tolerant reading of replies, failures, prompts."""

from __future__ import annotations

import asyncio
import json
import math
import random
import re
from collections.abc import Sequence
from typing import Any

import pytest
from pydantic import BaseModel

from evaluators.judge import (
    JUDGE_SCORES,
    BundledVerdict,
    JudgeCase,
    ScoreVerdict,
    ajudge,
    judge_calls_per_case,
    judge_cases,
)
from evaluators.scales import JUDGE_ORDER
from schemas import JudgeRecord, QuestionResult, RetrievedContext, RunRecord, StageCost, TestQuestion
from testgen.llm import Completion, FakeLLM, LLMBudgetExceeded, LLMTimeout

GOOD = {
    "accuracy_reason": "Matches the reference.",
    "accuracy": 5,
    "completeness_reason": "Covers everything.",
    "completeness": 4,
    "relevance_reason": "On topic.",
    "relevance": 5,
    "faithfulness_reason": "Every claim is in context 1.",
    "faithfulness": 1.0,
    "answer_relevancy_reason": "Direct.",
    "answer_relevancy": 0.9,
}


def case(answer: str | None = "Acme was founded in 1999.", **kw: Any) -> JudgeCase:
    values: dict[str, Any] = {
        "question": "When was Acme founded?",
        "answer": answer,
        "reference_answer": "Acme was founded in 1999.",
        "keywords": ["1999"],
        "contexts": ["Acme was founded in 1999 in Springfield.", "Acme makes anvils."],
    }
    values.update(kw)
    return JudgeCase(**values)


def judge(c: JudgeCase, llm: FakeLLM, mode: str = "bundled") -> JudgeRecord:
    return asyncio.run(ajudge(c, llm, mode=mode))  # type: ignore[arg-type]


def criterion(messages: Sequence[dict[str, str]]) -> str:
    """Which score a separate-mode prompt asks for."""
    match = re.search(r"CRITERION:\n(\w+)", messages[-1]["content"])
    assert match, "not a single-score prompt"
    return match.group(1)


def separate_responder(messages: list[dict[str, str]]) -> str:
    name = criterion(messages)
    return json.dumps({"reason": f"about {name}", "score": GOOD[name]})


def test_judge_scores_are_the_reported_metrics() -> None:
    assert JUDGE_SCORES == JUDGE_ORDER
    assert judge_calls_per_case("bundled") == 1
    assert judge_calls_per_case("separate") == len(JUDGE_SCORES) == 5
    assert judge_calls_per_case("off") == 0
    with pytest.raises(ValueError):
        judge_calls_per_case("both")
    with pytest.raises(ValueError):
        judge_cases([case()], FakeLLM(), mode="off")  # type: ignore[arg-type]


def test_bundled_makes_one_call_and_keeps_prompt_and_reply() -> None:
    reply = json.dumps(GOOD)
    llm = FakeLLM(lambda _m: reply)
    record = judge(case(), llm)
    assert len(llm.history) == judge_calls_per_case("bundled") == 1
    call = llm.history[0]
    assert call.stage == "judge" and call.temperature == 0.0 and call.response_model is BundledVerdict
    assert record.mode == "bundled" and record.error is None
    assert record.prompt == call.messages
    assert record.raw == [reply]
    assert record.scores == {name: float(GOOD[name]) for name in JUDGE_SCORES}  # type: ignore[arg-type]
    assert record.reasons["faithfulness"] == "Every claim is in context 1."


def test_separate_makes_one_call_per_score_with_same_outputs() -> None:
    llm = FakeLLM(separate_responder)
    record = judge(case(), llm, "separate")
    assert len(llm.history) == judge_calls_per_case("separate")
    assert {criterion(c.messages) for c in llm.history} == set(JUDGE_SCORES)
    assert all(c.stage == "judge" and c.temperature == 0.0 and c.response_model is ScoreVerdict for c in llm.history)
    assert record.mode == "separate" and record.error is None
    assert record.prompt == llm.history[0].messages
    assert len(record.raw) == 5
    assert record.scores == {name: float(GOOD[name]) for name in JUDGE_SCORES}  # type: ignore[arg-type]
    assert record.reasons["relevance"] == "about relevance"


def test_separate_prompts_show_only_what_each_score_needs() -> None:
    c = case(reference_answer="REFERENCE-TEXT", contexts=["CONTEXT-TEXT"])
    llm = FakeLLM(separate_responder)
    judge(c, llm, "separate")
    prompts = {criterion(call.messages): call.messages[-1]["content"] for call in llm.history}
    assert "CONTEXT-TEXT" in prompts["faithfulness"] and "REFERENCE-TEXT" not in prompts["faithfulness"]
    assert "REFERENCE-TEXT" in prompts["accuracy"]
    assert "REFERENCE-TEXT" not in prompts["relevance"] and "CONTEXT-TEXT" not in prompts["relevance"]


def test_out_of_range_scores_are_clamped_not_rescaled() -> None:
    reply = {"accuracy": 7, "completeness": 0, "relevance": "4", "faithfulness": 1.3, "answer_relevancy": -0.2}
    record = judge(case(), FakeLLM([json.dumps(reply)]))
    assert record.scores == {
        "accuracy": 5.0,
        "completeness": 1.0,
        "relevance": 4.0,
        "faithfulness": 1.0,
        "answer_relevancy": 0.0,
    }
    # a 1–5 score written as a fraction or a percent is clamped, not rescaled; 0–1 numeric strings are read
    reply = {"accuracy": 0.8, "completeness": "80%", "relevance": " 3 ", "faithfulness": "0.8", "answer_relevancy": 1}
    record = judge(case(), FakeLLM([json.dumps(reply)]))
    assert record.scores == {
        "accuracy": 1.0,
        "completeness": 5.0,
        "relevance": 3.0,
        "faithfulness": 0.8,
        "answer_relevancy": 1.0,
    }


def test_missing_or_unreadable_score_is_absent_with_reason() -> None:
    reply = {**GOOD, "relevance": "N/A"}
    del reply["faithfulness"]
    record = judge(case(), FakeLLM([json.dumps(reply)]))
    assert record.error is None
    assert "faithfulness" not in record.scores and "relevance" not in record.scores
    assert record.reasons["faithfulness"].startswith("judge gave no faithfulness")
    assert record.reasons["relevance"].startswith("judge gave no relevance")
    assert record.scores["accuracy"] == 5.0
    assert all(math.isfinite(v) for v in record.scores.values())


def test_common_reply_shapes_are_understood() -> None:
    reply = (
        "Here is my evaluation:\n```json\n"
        '{"scores": {"Accuracy": {"score": 4, "reason": "close"}, "completeness_score": 3, '
        '"Relevance": 5, "faithfulness": 0.5, "answer relevancy": "1.0"}}\n```'
    )
    record = judge(case(), FakeLLM([reply]))
    assert record.scores == {
        "accuracy": 4.0,
        "completeness": 3.0,
        "relevance": 5.0,
        "faithfulness": 0.5,
        "answer_relevancy": 1.0,
    }
    assert record.reasons["accuracy"] == "close"
    # a bare number is a single-score reply
    assert ScoreVerdict.model_validate(3).score == 3.0


def test_malformed_reply_twice_gives_error_record() -> None:
    llm = FakeLLM(["I think it is good.", "Still no JSON, sorry."])
    record = judge(case(), llm)
    assert len(llm.history) == 2  # the reply and its one repair re-ask
    assert record.error is not None and record.error.startswith("LLMBadResponse: ")
    assert record.scores == {}
    assert record.prompt == llm.history[0].messages


def test_malformed_reply_then_repaired() -> None:
    llm = FakeLLM(["not json", json.dumps(GOOD)])
    record = judge(case(), llm)
    assert record.error is None and len(record.scores) == 5


def test_failed_call_is_recorded_not_raised() -> None:
    llm = FakeLLM().enqueue(LLMTimeout("no reply within 60 s"))
    record = judge(case(), llm)
    assert record.error == "LLMTimeout: no reply within 60 s"
    assert record.scores == {}


def test_separate_failed_call_leaves_only_its_score_missing() -> None:
    def responder(messages: list[dict[str, str]]) -> str:
        if criterion(messages) == "faithfulness":
            raise LLMTimeout("slow provider")
        return separate_responder(messages)

    record = judge(case(), FakeLLM(responder), "separate")
    assert set(record.scores) == set(JUDGE_SCORES) - {"faithfulness"}
    assert record.reasons["faithfulness"] == "LLMTimeout: slow provider"
    assert record.error is not None and "faithfulness" in record.error and "LLMTimeout" in record.error
    assert len(record.raw) == 5 and record.raw[JUDGE_SCORES.index("faithfulness")] == ""


def test_fail_every_third_call_over_ten_cases() -> None:
    llm = FakeLLM(lambda _m: json.dumps(GOOD), fail_every=3)
    done: list[tuple[int, int]] = []
    records = judge_cases([case() for _ in range(10)], llm, concurrency=4, progress=lambda d, t: done.append((d, t)))
    assert len(records) == 10 and len(llm.history) == 10
    failed = [r for r in records if r.error]
    assert len(failed) == 3
    assert all("injected failure" in (r.error or "") and r.scores == {} for r in failed)
    assert all(set(r.scores) == set(JUDGE_SCORES) for r in records if not r.error)
    assert all(math.isfinite(v) for r in records for v in r.scores.values())
    assert "NaN" not in json.dumps([r.model_dump() for r in records])
    assert done[-1] == (10, 10) and len(done) == 10


def test_no_answer_makes_no_call() -> None:
    llm = FakeLLM()
    for answer in (None, "", "   "):
        for mode in ("bundled", "separate"):
            record = judge(case(answer), llm, mode)
            assert record.error == "no answer to judge" and record.scores == {} and record.mode == mode
    assert llm.history == []


def test_rubric_is_in_the_prompt() -> None:
    llm = FakeLLM(lambda _m: json.dumps(GOOD))
    record = judge(case(), llm)
    text = "\n".join(m["content"] for m in record.prompt)
    assert "a wrong answer gets 1" in text
    assert "I don't know" in text
    assert "Korean, Chinese, Japanese or English" in text
    assert "judge the meaning, not the language" in text
    assert "in English" in text  # the language of the reasons
    for name in JUDGE_SCORES:
        assert f"{name} (" in text
    accuracy = judge(case(), FakeLLM(separate_responder), "separate").prompt[-1]["content"]
    assert "a wrong answer gets 1" in accuracy


def test_korean_case_is_sent_unchanged() -> None:
    question = "아크미의 본사는 어디에 있나요?"
    answer = "아크미의 본사는 서울 강남구에 있습니다."
    c = JudgeCase(question, answer, "본사는 서울 강남구에 있다.", ["강남구"], ["아크미 본사: 서울 강남구"])
    llm = FakeLLM(lambda _m: json.dumps(GOOD))
    record = judge(c, llm)
    user = record.prompt[-1]["content"]
    assert question in user and answer in user and "본사는 서울 강남구에 있다." in user and '"강남구"' in user
    assert "Korean" in user  # detected, though no language was given
    assert llm.history[0].messages == record.prompt


def test_contexts_are_numbered_and_capped() -> None:
    long_context = "x" * 5_000
    c = case(contexts=[long_context, "Second passage."])
    record = judge(c, FakeLLM(lambda _m: json.dumps(GOOD)))
    user = record.prompt[-1]["content"]
    assert "[1] xxx" in user and "[2] Second passage." in user
    assert long_context not in user and "[…]" in user
    assert len(user) < 12_000
    empty = judge(case(contexts=[]), FakeLLM(lambda _m: json.dumps(GOOD))).prompt[-1]["content"]
    assert "no context passages were retrieved" in empty


class SlowLLM:
    """A FakeLLM that yields to the event loop for a random moment before each call (real interleaving)."""

    def __init__(self, inner: FakeLLM, seed: int = 0) -> None:
        self.inner, self.model = inner, inner.model
        self._random = random.Random(seed)
        self.in_flight = self.max_in_flight = 0

    async def acomplete(
        self,
        messages: Sequence[dict[str, str]],
        *,
        stage: str,
        response_model: type[BaseModel] | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
        sample: int = 0,
    ) -> Completion:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self._random.random() / 200)
            return await self.inner.acomplete(
                messages, stage=stage, response_model=response_model, temperature=temperature, max_tokens=max_tokens
            )
        finally:
            self.in_flight -= 1

    def usage(self) -> dict[str, StageCost]:
        return self.inner.usage()


def test_judge_cases_preserves_order_under_concurrency() -> None:
    def responder(messages: list[dict[str, str]]) -> str:
        n = int(re.search(r"Question number (\d+)", messages[-1]["content"]).group(1))  # type: ignore[union-attr]
        return json.dumps({**GOOD, "accuracy": n % 5 + 1})

    cases = [case(question=f"Question number {i}?") for i in range(20)]
    llm = SlowLLM(FakeLLM(responder))
    records = judge_cases(cases, llm, concurrency=4)
    assert [r.scores["accuracy"] for r in records] == [float(i % 5 + 1) for i in range(20)]
    assert 1 < llm.max_in_flight <= 4


def test_judge_cases_inside_a_running_loop() -> None:
    async def notebook() -> list[JudgeRecord]:
        return judge_cases([case(), case()], FakeLLM(lambda _m: json.dumps(GOOD)))

    assert [r.error for r in asyncio.run(notebook())] == [None, None]


@pytest.mark.parametrize("mode", ["bundled", "separate"])
def test_budget_exceeded_propagates(mode: str) -> None:
    llm = FakeLLM(lambda _m: json.dumps(GOOD)).enqueue(LLMBudgetExceeded("max cost $0.01 reached"))
    with pytest.raises(LLMBudgetExceeded):
        judge_cases([case(), case(), case()], llm, mode=mode)  # type: ignore[arg-type]


def test_budget_exceeded_stops_later_cases() -> None:
    llm = FakeLLM([json.dumps(GOOD), LLMBudgetExceeded("cap")])  # type: ignore[list-item]
    with pytest.raises(LLMBudgetExceeded):
        judge_cases([case() for _ in range(6)], llm, concurrency=1)
    assert len(llm.history) == 2


# -- unscored reasons in the results ---------------------------------------------------------------------------


def _score_one(llm: FakeLLM, mode: str) -> QuestionResult:
    from evaluators.generation import GenerationConfig, score_generation

    question = TestQuestion(
        question="When was Acme founded?", keywords=["1999"], reference_answer="Acme was founded in 1999.",
        category="temporal", source_docs=["acme.md"],
    )  # fmt: skip
    record = RunRecord(question=question.question, answer="Acme was founded in 1999.",
                       contexts=[RetrievedContext(doc_id="acme.md", text="Acme was founded in 1999.")])  # fmt: skip
    result = QuestionResult(question=question.question, category="temporal", source_docs=["acme.md"])
    config = GenerationConfig(judge=mode, concurrency=2)  # type: ignore[arg-type]
    score_generation([question], [record], [result], k=5, config=config, llm=llm)
    return result


def test_separate_judge_unscored_reasons_are_each_scores_own() -> None:
    def responder(messages: list[dict[str, str]]) -> str:
        name = criterion(messages)
        if name == "relevance":
            raise LLMTimeout("no reply within the LLM timeout of 60 s")
        if name == "accuracy":
            return json.dumps({"reason": "the reference is ambiguous"})  # no score
        return separate_responder(messages)

    result = _score_one(FakeLLM(responder), "separate")
    assert result.unscored == {
        "judge_accuracy": "judge gave no accuracy: the reference is ambiguous",
        "judge_relevance": "LLMTimeout: no reply within the LLM timeout of 60 s",
    }
    assert set(result.metrics) >= {"judge_completeness", "judge_faithfulness", "judge_answer_relevancy"}
    # the record still names every failed call, for the audit
    assert result.judge is not None and result.judge.error is not None and "relevance" in result.judge.error


def test_bundled_judge_failure_is_every_scores_reason() -> None:
    result = _score_one(FakeLLM().enqueue(LLMTimeout("slow")), "bundled")
    assert {result.unscored[f"judge_{n}"] for n in JUDGE_ORDER} == {"LLMTimeout: slow"}


def test_reason_tallies_do_not_split_on_timings() -> None:
    from evaluators.reasons import split_reason, tally_reasons
    from evaluators.report.panels import reasons_summary

    reasons = [
        "LLMTimeout: Request timed out. - timeout value=60.0, time taken=60.0 seconds",
        "LLMTimeout: Request timed out. - timeout value=60.0, time taken=60.01 seconds",
        "LLMTimeout: Request timed out. - timeout value=60.0, time taken=61.3 seconds",
        "LLMCallError: Error code: 500 - internal error",
        "LLMRateLimited: Error code: 429 - slow down, retry after 1.5s",
        "judge gave no accuracy",
    ]
    assert reasons_summary(reasons, 3) == [
        ("LLMTimeout: Request timed out. - timeout value=#, time taken=# seconds", 3),
        ("LLMCallError: Error code: 500 - internal error", 1),
        ("LLMRateLimited: Error code: 429 - slow down, retry after #s", 1),
    ]
    [timeouts] = tally_reasons(reasons, 1)
    assert timeouts.details == ["60.0, 60.0", "60.0, 60.01", "60.0, 61.3"]
    assert split_reason("request chatcmpl-8f3a9c41d2e4 failed\nTraceback ...") == (
        "request chatcmpl-# failed",
        "8f3a9c41d2e4",
    )
    assert split_reason("") == ("unknown", "")
    assert split_reason("HTTP 404 after 2 attempt(s)") == ("HTTP 404 after 2 attempt(s)", "")
