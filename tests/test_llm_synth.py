"""LLM rewriting of offline seeds: one call per seed, every reply checked, failures and the budget handled.

The model is `FakeLLM` with a responder that reads the prompt the way a well-behaved model would: it keeps the
fallback question (with a marker, so the item visibly comes from the model), states the fixed result and
copies a value from the evidence as keyword. Bad replies are made by overriding single fields.
"""

from __future__ import annotations

import importlib
import json
import math
import re
import zlib
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from schemas import CATEGORIES
from testgen.cli import main
from testgen.generate import generate, parse_mix, plan_llm_calls
from testgen.kg.build import build_graph, load_corpus
from testgen.llm import FakeLLM, LLMBudgetExceeded
from testgen.synth.llm_synth import LLMOptions, Persona, load_personas, parse_styles
from testgen.synth.prompts import PROMPT_VERSION

EXAMPLES = Path(__file__).parents[1] / "examples"
Messages = list[dict[str, str]]
FACTS = LLMOptions(seeds="facts")  # the rewrite path alone (passage seeds: tests/test_llm_passages.py)


@pytest.fixture(scope="module")
def aurora():
    return build_graph(load_corpus(EXAMPLES / "aurora_bikes"))


@pytest.fixture(scope="module")
def haneul():
    return build_graph(load_corpus(EXAMPLES / "haneul_travel"))


# ---------------------------------------------------------------------------------------- scripted model


def prompt_of(messages: Messages) -> str:
    return messages[-1]["content"]


def field_of(prompt: str, pattern: str) -> str:
    found = re.search(pattern, prompt, re.M)
    assert found, pattern
    return found.group(1)


def good_reply(messages: Messages, **override: Any) -> str:
    """What a careful model answers: the fallback question, marked; the plain answer; a verbatim value."""
    prompt = prompt_of(messages)
    question = field_of(prompt, r'^A plain fallback question you should improve on .*?: "(.*)"$')
    answer = field_of(prompt, r'^Its plain answer: "(.*)"$')
    result = field_of(prompt, r'^stated_result must be "(.*)", and')
    value = field_of(prompt, r"^- .*? \| .*? \| (.*?)  \(")
    korean = "Korean" in field_of(prompt, r"^Language: (.*)$")
    reply = {
        "question": ("혹시 " if korean else "Quick check: ") + question,
        "reference_answer": answer,
        "keywords": [value],
        "stated_result": result,
        "answerable_from_sources": True,
        "answer_supported": True,
        "needs_all_documents": True,
        "issues": "",
    }
    reply.update(override)
    return json.dumps(reply, ensure_ascii=False)


def first_call_then_good(**override: Any) -> Callable[[Messages], str]:
    """A responder whose first reply carries `override` (given the prompt when callable), then good ones."""
    calls = []

    def respond(messages: Messages) -> str:
        calls.append(1)
        if len(calls) > 1:
            return good_reply(messages)
        prompt = prompt_of(messages)
        return good_reply(messages, **{k: v(prompt) if callable(v) else v for k, v in override.items()})

    return respond


def llm_rejections(result: Any) -> dict[tuple[str, str], int]:
    """Rejections of LLM replies (offline seeds rejected before any call are counted too, unprefixed)."""
    return {key: n for key, n in result.rejected.items() if key[1].startswith("llm")}


def fallback_question(call: Any) -> str:
    return field_of(prompt_of(call.messages), r'^A plain fallback question you should improve on .*?: "(.*)"$')


# ----------------------------------------------------------------------------------------------- basics


def test_a_good_reply_becomes_the_item_with_its_metadata(aurora) -> None:
    fake = FakeLLM(good_reply)
    personas = [Persona(name="fleet buyer", description="buys cargo bikes for a courier company")]
    result = generate(
        aurora,
        num=3,
        mix=parse_mix("direct_fact=1"),
        llm=fake,
        llm_options=LLMOptions(seeds="facts", personas=personas, kb=EXAMPLES / "aurora_bikes"),
    )
    assert len(result.items) == 3
    assert len(fake.history) == 3
    for item, call in zip(result.items, fake.history, strict=True):
        reply = json.loads(call.reply or "")
        assert item.question == reply["question"] == "Quick check: " + fallback_question(call)
        assert item.reference_answer == reply["reference_answer"]
        assert item.keywords == reply["keywords"]
        meta = item.metadata or {}
        assert meta["generator"] == "testgen-llm"
        assert meta["model"] == "fake/model"
        assert meta["prompt_version"] == PROMPT_VERSION
        assert meta["persona"] == "fleet buyer"
        assert meta["style"] == "plain"
        assert meta["seed_question"] == fallback_question(call)
        assert meta["critic"] == {
            "answerable_from_sources": True,
            "answer_supported": True,
            "needs_all_documents": True,
            "issues": "",
        }
        assert meta["round_trip"] is True  # default "flag": checked, and it found a source
        assert "Ask as this person would: fleet buyer: buys cargo bikes" in prompt_of(call.messages)
    assert result.llm["calls"] == 3
    assert result.llm["delivered"] == 3
    assert result.llm["usage"]["generation"]["calls"] == 3


def test_the_prompt_carries_category_evidence_and_fixed_result(aurora) -> None:
    fake = FakeLLM(good_reply)
    generate(aurora, num=1, mix=parse_mix("comparative=1"), llm=fake, llm_options=FACTS)
    prompt = prompt_of(fake.history[0].messages)
    assert prompt.startswith("Category: comparative — ")
    assert "Language: write the question and the reference answer in English." in prompt
    assert re.search(r"^- \S+\.md: .+", prompt, re.M)  # evidence lines with their documents
    winner = field_of(prompt, r'^The winner is "(.*?)"')
    assert f'Begin the reference answer with "{winner}".' in prompt
    assert f'stated_result must be "{winner}"' in prompt


def test_offline_output_is_unchanged_without_a_model(aurora) -> None:
    offline = generate(aurora, num=12, seed=5)
    again = generate(aurora, num=12, seed=5, llm=None, llm_options=LLMOptions(round_trip="drop"))
    assert [i.model_dump() for i in offline.items] == [i.model_dump() for i in again.items]
    assert offline.llm == {} and offline.stopped is None


def test_output_does_not_depend_on_concurrency(aurora) -> None:
    runs = [
        generate(aurora, num=14, seed=3, llm=FakeLLM(good_reply), llm_options=LLMOptions(seeds="facts", concurrency=n))
        for n in (1, 8)
    ]
    assert [i.model_dump() for i in runs[0].items] == [i.model_dump() for i in runs[1].items]


# ------------------------------------------------------------------------------------------- rejections


def test_a_keyword_not_in_the_sources_is_rejected_and_the_next_seed_used(aurora) -> None:
    fake = FakeLLM(first_call_then_good(keywords=["flux capacitor"]))
    result = generate(aurora, num=1, mix=parse_mix("direct_fact=1"), llm=fake, llm_options=FACTS)
    assert result.rejected[("direct_fact", "llm: keyword not grounded")] == 1
    assert len(fake.history) == 2
    assert len(result.items) == 1
    assert result.items[0].metadata["seed_question"] == fallback_question(fake.history[1])  # type: ignore[index]
    assert fallback_question(fake.history[0]) != fallback_question(fake.history[1])


@pytest.mark.parametrize(
    ("category", "override", "reason"),
    [
        ("direct_fact", {"answerable_from_sources": False}, "llm: critic: not answerable from the sources"),
        ("temporal", {"answer_supported": False}, "llm: critic: answer not supported"),
        ("spanning", {"needs_all_documents": False}, "llm: critic: does not need all documents"),
        ("direct_fact", {"question": "이 제품의 무게는 얼마인가요?"}, "llm: wrong language"),
    ],
)
def test_critic_and_language_rejections(aurora, category: str, override: dict[str, Any], reason: str) -> None:
    fake = FakeLLM(first_call_then_good(**override))
    result = generate(aurora, num=2, mix=parse_mix(f"{category}=1"), llm=fake, llm_options=FACTS)
    assert llm_rejections(result) == {(category, reason): 1}
    assert len(result.items) == 2
    assert len(fake.history) == 3


def _names(prompt: str) -> list[str]:
    return re.findall(r'"([^"]+)"', field_of(prompt, r"^Name every entity in the question exactly as written: (.*)$"))


def _winner(prompt: str) -> str:
    return field_of(prompt, r'^The winner is "(.*?)"')


def _loser(prompt: str) -> str:
    return next(n for n in _names(prompt) if n != _winner(prompt))


@pytest.mark.parametrize(
    ("override", "reason"),
    [
        ({"stated_result": _loser, "reference_answer": lambda p: f"{_loser(p)} comes out ahead."}, "wrong winner"),
        (
            {"reference_answer": lambda p: f"{_loser(p)} is behind {_winner(p)}."},
            "answer does not lead with the winner",
        ),
    ],
)
def test_a_comparative_reply_naming_the_wrong_winner_is_rejected(aurora, override: dict, reason: str) -> None:
    fake = FakeLLM(first_call_then_good(**override))
    result = generate(aurora, num=1, mix=parse_mix("comparative=1"), llm=fake, llm_options=FACTS)
    assert llm_rejections(result) == {("comparative", f"llm: {reason}"): 1}
    assert len(result.items) == 1


def test_a_changed_derived_number_is_rejected(aurora) -> None:
    def respond(messages: Messages) -> str:
        if "Do not recompute it; state it exactly" in prompt_of(messages):
            return good_reply(messages, stated_result="999,999", reference_answer="The difference is 999,999.")
        return good_reply(messages)

    fake = FakeLLM(respond)
    result = generate(aurora, num=6, mix=parse_mix("numerical=1"), llm=fake, llm_options=FACTS)
    assert len(result.items) == 6
    assert result.rejected[("numerical", "llm: wrong result")] >= 1
    assert not any((i.metadata or {}).get("derived") for i in result.items)


def test_korean_seeds_ask_for_korean(haneul) -> None:
    fake = FakeLLM(good_reply)
    result = generate(haneul, num=4, llm=fake, llm_options=LLMOptions(seeds="facts", round_trip="off"))
    assert len(result.items) == 4
    for call in fake.history:
        assert "write the question and the reference answer in Korean (한국어)" in prompt_of(call.messages)
    assert {i.language for i in result.items} == {"ko"}
    assert all(i.question.startswith("혹시 ") for i in result.items)
    assert all("round_trip" not in (i.metadata or {}) for i in result.items)


# --------------------------------------------------------------------------------- failures and budget


def test_failing_calls_fall_back_to_the_next_seed(aurora) -> None:
    fake = FakeLLM(good_reply, fail_every=3)
    result = generate(aurora, num=20, llm=fake, llm_options=LLMOptions(seeds="facts", concurrency=4))
    assert len(result.items) == 20
    assert result.counts() == result.requested
    failed = [c for c in fake.history if c.reply is None]
    assert len(failed) == len(fake.history) // 3 > 0
    counted = Counter(reason for (_, reason), n in result.rejected.items() for _ in range(n))
    assert {r: n for r, n in counted.items() if r.startswith("llm call")} == {
        "llm call failed: call error": len(failed)
    }
    assert len(failed) == result.llm["failed_calls"]
    for item in result.items:
        json.dumps(item.model_dump(), allow_nan=False)  # no NaN anywhere
        assert item.question and item.reference_answer and item.keywords and item.source_docs


def test_calls_that_keep_failing_stop_the_run_with_a_reason(aurora) -> None:
    fake = FakeLLM(lambda messages: "Sorry, I cannot help with that.")  # never JSON, not even after the re-ask
    result = generate(aurora, num=4, llm=fake, llm_options=LLMOptions(seeds="facts", max_consecutive_failures=5))
    assert result.items == []
    assert len(fake.history) == 2 * 5  # each call plus its repair re-ask
    assert result.stopped == "stopped: 5 LLM calls failed in a row (last: unusable reply)"
    assert sum(n for (_, r), n in result.rejected.items() if r == "llm call failed: unusable reply") == 5
    assert "even after a repair re-ask" in result.llm["notes"]["last_call_error"]


def test_calls_per_delivered_question_on_the_example_kb(aurora) -> None:
    def mostly_good(messages: Messages) -> str:
        bad = zlib.crc32(prompt_of(messages).encode()) % 10 == 0  # one reply in ten fails its own review
        return good_reply(messages, answer_supported=not bad)

    fake = FakeLLM(mostly_good)
    options = LLMOptions(seeds="facts", round_trip="drop", kb=EXAMPLES / "aurora_bikes")
    result = generate(aurora, num=50, llm=fake, llm_options=options)
    assert len(result.items) == 50
    ratio = len(fake.history) / len(result.items)
    print(f"calls per delivered question: {ratio:.3f} ({len(fake.history)} calls, {len(result.items)} items)")
    assert ratio <= 1.5
    assert result.llm["calls_per_item"] == pytest.approx(ratio, abs=1e-3)


def test_budget_reached_mid_run_keeps_finished_items(aurora) -> None:
    calls = []

    def respond(messages: Messages) -> str:
        calls.append(1)
        if len(calls) > 6:
            raise LLMBudgetExceeded("the cost cap of $0.0100 is reached")
        return good_reply(messages)

    fake = FakeLLM(respond)
    result = generate(aurora, num=10, llm=fake, llm_options=LLMOptions(seeds="facts", concurrency=4))
    assert len(result.items) == 6
    # batches never exceed what a category still needs (direct_fact 3, then 1 each): the 7th call hits the cap
    assert len(calls) == 7
    assert result.stopped and "cost cap" in result.stopped
    short = {c for c, n in result.requested.items() if result.counts()[c] < n}
    assert set(result.shortfall) == short and len(short) == 4
    for category in short:
        note = result.shortfall[category]
        assert note.startswith(f"{result.counts()[category]}/{result.requested[category]}: stopped: ")
        assert "cost cap (--max-cost) was reached; finished items were kept" in note
    assert result.llm["stopped"] == result.stopped


# ---------------------------------------------------------------------------------------------- round trip


def test_round_trip_drop_removes_an_item_that_retrieves_none_of_its_sources(aurora) -> None:
    gibberish = {"question": "Zebra xylophone harmonica?"}
    options = LLMOptions(seeds="facts", round_trip="drop", kb=EXAMPLES / "aurora_bikes")
    fake = FakeLLM(first_call_then_good(**gibberish))
    result = generate(aurora, num=2, mix=parse_mix("direct_fact=1"), llm=fake, llm_options=options)
    assert llm_rejections(result) == {("direct_fact", "llm: round trip: no source retrieved"): 1}
    assert [i.question for i in result.items if "Zebra" in i.question] == []
    assert len(result.items) == 2 and len(fake.history) == 3

    flag = LLMOptions(seeds="facts", round_trip="flag", kb=EXAMPLES / "aurora_bikes")
    fake = FakeLLM(first_call_then_good(**gibberish))
    flagged = generate(aurora, num=2, mix=parse_mix("direct_fact=1"), llm=fake, llm_options=flag)
    assert [(i.metadata or {})["round_trip"] for i in flagged.items] == [False, True]
    assert flagged.llm["round_trip_misses"] == 1


# ------------------------------------------------------------------------------------- dry run and CLI


def test_plan_counts_calls_from_real_seeds(aurora) -> None:
    plan = plan_llm_calls(40, aurora, model="fake/model")
    assert plan["expected_calls"] == math.ceil(40 * 1.25)
    assert plan["graph_calls"] == 0
    assert plan["prompt_tokens_per_call"] > 150
    assert plan["seeds_sampled"] == 2 * len([c for c in CATEGORIES if plan["requested"][c]])


def test_dry_run_makes_no_call_and_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_cli = importlib.import_module("testgen.cli.build")  # the package attribute is the click command
    monkeypatch.setattr(build_cli, "_client", lambda *a: pytest.fail("the dry run built a client"))
    out = tmp_path / "tests.jsonl"
    args = ["build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(out), "-n", "20"]
    result = CliRunner().invoke(main, [*args, "--llm", "openai/gpt-4.1-mini", "--dry-run"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "generation: ~25 calls" in result.stdout
    assert re.search(r"estimated cost: \$0\.0\d+", result.stdout)
    assert list(tmp_path.iterdir()) == []


def test_build_with_a_model_prints_usage_and_records_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build_cli = importlib.import_module("testgen.cli.build")  # the package attribute is the click command
    fake = FakeLLM(good_reply)
    monkeypatch.setattr(build_cli, "_client", lambda *a: fake)
    out = tmp_path / "tests.jsonl"
    args = ["build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(out), "-n", "5", "--no-hf"]
    result = CliRunner().invoke(
        main,
        [*args, "--llm", "fake/model", "--seeds", "facts", "--style", "plain=1", "--round-trip", "off"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    assert "LLM usage (fake/model" in result.stderr
    assert "5 questions from 5 requests (1.0 per question) for 5 rewrites" in result.stderr
    summary = json.loads((tmp_path / "tests.summary.json").read_text(encoding="utf-8"))
    assert summary["llm"]["delivered"] == 5 and summary["options"]["llm"]["round_trip"] == "off"
    assert all(json.loads(line)["metadata"]["generator"] == "testgen-llm" for line in out.read_text().splitlines())


def test_style_and_persona_options(tmp_path: Path) -> None:
    assert parse_styles(None) is None
    assert parse_styles("plain=0.7, web=0.2,misspelled=0.1") == {"plain": 0.7, "web": 0.2, "misspelled": 0.1}
    with pytest.raises(Exception, match="unknown style 'shouty'"):
        parse_styles("shouty=1")
    (tmp_path / "p.yaml").write_text("- name: auditor\n  description: checks contracts\n- a new hire\n")
    assert [p.name for p in load_personas(tmp_path / "p.yaml")] == ["auditor", "a new hire"]
    with pytest.raises(Exception, match="non-empty list"):
        (tmp_path / "empty.json").write_text("{}")
        load_personas(tmp_path / "empty.json")
