"""Answers for the built-in baseline: the grounded-answer prompt, model answers, and the offline extractive one."""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import Sequence
from typing import Any

import pytest

from evaluators.answer import (
    ANSWER_STAGE,
    agenerate_answer,
    answer_messages,
    extractive_answer,
    generate_answers,
    numbered_contexts,
    split_sentences,
)
from schemas import StageCost
from testgen.llm import Completion, FakeLLM, LLMBudgetExceeded, LLMTimeout


class SlowLLM:
    """A FakeLLM that yields to the event loop for a random moment before each call (real interleaving)."""

    def __init__(self, inner: FakeLLM) -> None:
        self.inner, self.model = inner, inner.model
        self._random = random.Random(7)
        self.in_flight = self.max_in_flight = 0

    async def acomplete(self, messages: Sequence[dict[str, str]], **kwargs: Any) -> Completion:
        self.in_flight += 1
        self.max_in_flight = max(self.max_in_flight, self.in_flight)
        try:
            await asyncio.sleep(self._random.random() / 200)
            return await self.inner.acomplete(messages, **kwargs)
        finally:
            self.in_flight -= 1

    def usage(self) -> dict[str, StageCost]:
        return self.inner.usage()


def test_answer_messages_number_the_contexts() -> None:
    messages = answer_messages("When was Acme founded?", ["Acme was founded in 1999.", "Acme sells anvils."], None)
    user = messages[-1]["content"]
    assert messages[0]["role"] == "system"
    assert "[1] Acme was founded in 1999." in user and "[2] Acme sells anvils." in user
    assert user.index("[1]") < user.index("[2]")
    assert "Question: When was Acme founded?" in user
    assert "English" in user and "cannot find" in user and "one to three sentences" in user


def test_answer_messages_language() -> None:
    korean = answer_messages("아크미는 언제 설립되었나요?", ["아크미는 1999년에 설립되었다."], None)[-1]["content"]
    assert "Korean" in korean and "아크미는 언제 설립되었나요?" in korean
    assert "Japanese" in answer_messages("When?", [], "ja-JP")[-1]["content"]
    assert "no context passages were retrieved" in answer_messages("When?", [], "en")[-1]["content"]


def test_numbered_contexts_share_the_size_cap() -> None:
    text = numbered_contexts(["a" * 3_000 for _ in range(10)])
    blocks = re.findall(r"\[(\d+)\] (a+)", text)
    assert [int(n) for n, _ in blocks] == list(range(1, 11))
    assert all(len(a) < 1_200 for _, a in blocks) and text.count("[…]") == 10
    assert numbered_contexts(["short"]) == "[1] short"


def test_agenerate_answer() -> None:
    llm = FakeLLM(["<think>Look at [1].</think>\nAcme was founded in 1999.", "  "])
    answer = asyncio.run(agenerate_answer("When was Acme founded?", ["Acme was founded in 1999."], llm))
    assert answer == ("Acme was founded in 1999.", None)
    call = llm.history[0]
    assert call.stage == ANSWER_STAGE == "answer" and call.temperature == 0.0 and call.response_model is None
    assert asyncio.run(agenerate_answer("q?", ["c"], llm)) == (None, "the model gave an empty answer")


def test_agenerate_answer_records_failed_call() -> None:
    llm = FakeLLM().enqueue(LLMTimeout("no reply within 60 s"))
    assert asyncio.run(agenerate_answer("q?", ["c"], llm)) == (None, "LLMTimeout: no reply within 60 s")


def test_generate_answers_keeps_order_and_per_item_errors() -> None:
    def responder(messages: list[dict[str, str]]) -> str:
        n = re.search(r"Question: Q(\d+)\?", messages[-1]["content"]).group(1)  # type: ignore[union-attr]
        return f"Answer {n}."

    items = [(f"Q{i}?", [f"context {i}"], "en") for i in range(12)]
    llm = SlowLLM(FakeLLM(responder))
    progress: list[tuple[int, int]] = []
    answers = generate_answers(items, llm, concurrency=3, progress=lambda d, t: progress.append((d, t)))
    assert answers == [(f"Answer {i}.", None) for i in range(12)]
    assert 1 < llm.max_in_flight <= 3
    assert progress[-1] == (12, 12)

    failing = FakeLLM(responder, fail_every=4)
    answers = generate_answers(items, failing, concurrency=1)
    errors = [i for i, (text, error) in enumerate(answers) if error]
    assert errors == [3, 7, 11]
    assert all(answers[i][0] is None and "injected failure" in (answers[i][1] or "") for i in errors)
    assert all(answers[i] == (f"Answer {i}.", None) for i in range(12) if i not in errors)


def test_generate_answers_budget_exceeded_propagates() -> None:
    llm = FakeLLM(["fine"]).enqueue(LLMBudgetExceeded("max cost reached"))
    with pytest.raises(LLMBudgetExceeded):
        generate_answers([("q?", ["c"], None)] * 5, llm, concurrency=1)
    assert len(llm.history) == 2  # no call after the cap


def test_split_sentences() -> None:
    assert split_sentences("It costs 3.5 dollars. Really! Why?\n- A bullet\n## Heading") == [
        "It costs 3.5 dollars.",
        "Really!",
        "Why?",
        "A bullet",
        "Heading",
    ]
    assert split_sentences("아크미는 1999년에 설립되었습니다 본사는 서울에 있다 직원은 300명이다.") == [
        "아크미는 1999년에 설립되었습니다",
        "본사는 서울에 있다",
        "직원은 300명이다.",
    ]
    assert split_sentences("本社は東京にある。社員は300人です。") == ["本社は東京にある。", "社員は300人です。"]


def test_split_sentences_reads_markdown_as_plain_text() -> None:
    text = "- **자본금**: 30억 원\n| 항목 | 기준 |\n|---|:---:|\n| 견적 회신 | 4시간 이내 |\nUse `evaluate` now."
    assert split_sentences(text) == ["자본금: 30억 원", "항목 — 기준", "견적 회신 — 4시간 이내", "Use evaluate now."]


def test_extractive_answer_english() -> None:
    contexts = [
        "Acme is a software company. Acme was founded in 1999 by Jane Doe. It has 300 employees.",
        "Globex was founded in 2005.",
    ]
    assert extractive_answer("When was Acme founded?", contexts, "en") == "Acme was founded in 1999 by Jane Doe."
    assert extractive_answer("How many employees does Acme have?", contexts) == "It has 300 employees."


def test_extractive_answer_korean() -> None:
    contexts = [
        "아크미는 1999년에 설립되었다. 아크미의 본사는 서울 강남구에 있습니다. 직원 수는 300명이다.",
        "글로벡스의 본사는 부산에 있다.",
    ]
    assert (
        extractive_answer("아크미의 본사는 어디에 있나요?", contexts, "ko") == "아크미의 본사는 서울 강남구에 있습니다."
    )
    assert extractive_answer("아크미는 언제 설립되었나요?", contexts) == "아크미는 1999년에 설립되었다."


def test_extractive_answer_japanese() -> None:
    contexts = ["アクメは1999年に設立された。アクメの本社は東京都港区にある。社員は300人です。"]
    assert extractive_answer("アクメの本社はどこにありますか？", contexts, "ja") == "アクメの本社は東京都港区にある。"


def test_extractive_answer_without_match_or_contexts() -> None:
    assert extractive_answer("When?", []) is None
    assert extractive_answer("When?", ["", "  "]) is None
    assert extractive_answer("Who is the CEO?", ["Acme sells anvils. It ships worldwide."]) == "Acme sells anvils."
