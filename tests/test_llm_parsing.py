"""Tolerant JSON extraction, schema validation, the repair prompt, and FakeLLM's structured output."""

from __future__ import annotations

import asyncio
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pydantic import BaseModel

from testgen.llm import FakeLLM, LLMBadResponse, LLMCallError, ReplyParseError, extract_json, parse_reply
from testgen.llm.parsing import (
    first_json_object,
    relax_json,
    repair_messages,
    response_format,
    strip_fences,
    with_json_instruction,
)


class Draft(BaseModel):
    question: str
    answer: str
    hops: int = 1


EXPECTED = {"question": "Who built it?", "answer": "Ada", "hops": 2}


@pytest.mark.parametrize(
    "reply",
    [
        '{"question": "Who built it?", "answer": "Ada", "hops": 2}',
        '```json\n{"question": "Who built it?", "answer": "Ada", "hops": 2}\n```',
        '```\n{"question": "Who built it?", "answer": "Ada", "hops": 2,}\n```',
        'Sure! Here is the JSON:\n{"question": "Who built it?", "answer": "Ada", "hops": 2}\nHope it helps.',
        '{"question": "Who built it?", "answer": "Ada", "hops": 2,}',
        'Format: {answer}. Result: {"question": "Who built it?", "answer": "Ada", "hops": 2}',
        "{'question': 'Who built it?', 'answer': 'Ada', 'hops': 2}",
        '{question: "Who built it?", answer: "Ada", hops: 2}',
        '{\n  // the question\n  "question": "Who built it?", /* who */ "answer": "Ada",\n  "hops": 2,\n}',
    ],
)
def test_extract_json_tolerates_common_slips(reply: str) -> None:
    assert extract_json(reply) == EXPECTED


def test_relax_json_keeps_string_contents() -> None:
    text = """{'a': 'it\\'s "x", {not} // kept', "b": [1, 2,], "c": None, "d": True, "e": "True, no"}"""
    assert json.loads(relax_json(text)) == {"a": 'it\'s "x", {not} // kept', "b": [1, 2], "c": None, "d": True,
                                            "e": "True, no"}  # fmt: skip


def test_first_json_object_skips_braces_in_strings_and_prose() -> None:
    assert first_json_object('note {a} then {"k": "}{", "n": {"m": 1}} tail') == "{a}"
    assert first_json_object('x {"k": "}{", "n": {"m": 1}} tail') == '{"k": "}{", "n": {"m": 1}}'
    assert first_json_object('{"cut": "off') is None


def test_strip_fences_takes_the_first_fenced_block() -> None:
    assert strip_fences('text\n```json\n{"a": 1}\n```\nmore ```{"b": 2}```') == '{"a": 1}\n'
    assert strip_fences('{"a": 1}') == '{"a": 1}'


def test_truncated_reply_is_not_guessed() -> None:
    with pytest.raises(ReplyParseError, match="no complete JSON object"):
        extract_json('{"question": "Who built it?", "answer": "Ad')


def test_parse_reply_reports_schema_problems_by_field() -> None:
    with pytest.raises(ReplyParseError) as info:
        parse_reply('{"question": "Q", "hops": "many"}', Draft)
    assert "answer: Field required" in info.value.reason
    assert "hops: Input should be a valid integer" in info.value.reason


def test_parse_reply_validates() -> None:
    assert parse_reply('```json\n{"question": "Q", "answer": "A",}\n```', Draft) == Draft(question="Q", answer="A")


@given(
    st.dictionaries(
        st.text(min_size=1, max_size=8),
        st.one_of(st.integers(), st.text(max_size=12), st.booleans(), st.none(), st.lists(st.integers(), max_size=3)),
        max_size=5,
    )
)
def test_any_object_survives_fences_prose_and_trailing_commas(obj: dict) -> None:
    body = json.dumps(obj, ensure_ascii=False)
    if obj:
        body = body[:-1] + ",}"  # a trailing comma before the closing brace
    assert extract_json(f"Here you go:\n```json\n{body}\n```") == obj


def test_repair_messages_carry_reply_and_reason() -> None:
    sent = [{"role": "user", "content": "make a question"}]
    out = repair_messages(sent, '{"question": "Q"', "the reply contains no complete JSON object", truncated=True)
    assert out[:2] == [sent[0], {"role": "assistant", "content": '{"question": "Q"'}]
    assert out[2]["role"] == "user"
    assert "no complete JSON object" in out[2]["content"]
    assert "cut off at the length limit" in out[2]["content"]
    assert "only the corrected JSON" in out[2]["content"]
    assert sent == [{"role": "user", "content": "make a question"}]  # input untouched


def test_json_instruction_goes_into_the_last_user_message() -> None:
    sent = [{"role": "system", "content": "S"}, {"role": "user", "content": "U"}]
    out = with_json_instruction(sent, Draft)
    assert out[0] == {"role": "system", "content": "S"}
    assert out[1]["content"].startswith("U\n\nReply with a single JSON object")
    assert '"required":["question","answer"]' in out[1]["content"]
    assert sent[1]["content"] == "U"


def test_response_format_is_a_json_schema() -> None:
    fmt = response_format(Draft)
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["name"] == "Draft"
    assert fmt["json_schema"]["schema"]["required"] == ["question", "answer"]


# -- FakeLLM ----------------------------------------------------------------------------------------------------


def _ask(llm: FakeLLM, model: type[BaseModel] | None = Draft, stage: str = "generation"):
    return asyncio.run(llm.acomplete([{"role": "user", "content": "make one"}], stage=stage, response_model=model))


def test_fake_parses_and_records_history() -> None:
    llm = FakeLLM().enqueue('```json\n{"question": "Q", "answer": "A", "hops": 3,}\n```')
    done = _ask(llm)
    assert done.parsed == Draft(question="Q", answer="A", hops=3)
    assert llm.history[0].messages == [{"role": "user", "content": "make one"}]
    assert llm.history[0].response_model is Draft
    assert llm.usage()["generation"].calls == 1


def test_fake_repairs_once_then_gives_up() -> None:
    llm = FakeLLM().enqueue('{"question": "Q"}', '{"question": "Q", "answer": "A"}')
    assert _ask(llm).parsed == Draft(question="Q", answer="A")
    assert len(llm.history) == 2
    assert "answer: Field required" in llm.history[1].messages[-1]["content"]

    bad = FakeLLM().enqueue("no json here", "still none", '{"question": "Q", "answer": "A"}')
    with pytest.raises(LLMBadResponse, match="even after a repair re-ask"):
        _ask(bad)
    assert len(bad.history) == 2  # exactly one re-ask
    assert bad.usage()["generation"].failed_calls == 1


def test_fake_responder_fail_every_and_queued_errors() -> None:
    llm = FakeLLM(lambda messages: messages[-1]["content"].upper(), fail_every=3)
    assert _ask(llm, None).text == "MAKE ONE"
    assert _ask(llm, None).text == "MAKE ONE"
    with pytest.raises(LLMCallError, match="injected failure"):
        _ask(llm, None)
    assert llm.usage()["generation"] == llm.usage()["generation"].__class__(
        calls=2, requests=3, failed_calls=1, prompt_tokens=4, completion_tokens=4
    )
    scripted = FakeLLM(["a", "b"]).enqueue(LLMCallError("boom"))
    assert [_ask(scripted, None).text, _ask(scripted, None).text] == ["a", "b"]
    with pytest.raises(LLMCallError, match="boom"):
        _ask(scripted, None)
    with pytest.raises(RuntimeError, match="no reply queued"):
        _ask(scripted, None)
