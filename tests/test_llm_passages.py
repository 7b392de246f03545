"""LLM questions written from passages: seeds, question types, the evidence check, the rephrase, the watch over
unusable replies and the offline fallback.

The model is `FakeLLM` (or the local HTTP server of `fake_openai_server`) answering with `passage_model`, a
script that reads the prompt like a careful model: it quotes whole sentences of the passages it cites and
words its question in its own template. Bad replies are made by overriding single fields. The KB is
`tests/fixtures/prose_kb`, prose written for these tests (a fictional heat-pump maker's guides, policies,
reports and articles).
"""

from __future__ import annotations

import json
import re
import shutil
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fake_openai_server import FakeOpenAIServer, RecordedRequest
from passage_model import parse_prompt, passage_reply

from testgen.cli import main
from testgen.generate import generate, parse_mix
from testgen.kg.build import build_graph, load_corpus
from testgen.llm import FakeLLM
from testgen.synth.context import GenContext
from testgen.synth.evidence import EvidenceIndex, plain, quote_in
from testgen.synth.llm_synth import LLMOptions
from testgen.synth.passages import PassageSampler
from testgen.synth.types import (
    CATEGORY_TYPES,
    DEFAULT_TYPE_MIX,
    QUESTION_TYPES,
    classify_question,
    parse_types,
    plan_types,
)

FIXTURES = Path(__file__).parent / "fixtures"
PROSE = FIXTURES / "prose_kb"
EXAMPLES = Path(__file__).parents[1] / "examples"
Messages = list[dict[str, str]]


@pytest.fixture(scope="module")
def prose():
    return build_graph(load_corpus(PROSE, chunk_size=400, chunk_overlap=50))


def options(**kw: Any) -> LLMOptions:
    return LLMOptions(**({"seeds": "passages", "round_trip": "off"} | kw))


def respond(**override: Any):
    """A responder answering every passage prompt like a good model (with `override` on each reply)."""
    return lambda messages: passage_reply(messages[-1]["content"], **override)


def first_then_good(**override: Any):
    """The first passage reply carries `override`; every later one is good."""
    calls: list[int] = []

    def answer(messages: Messages) -> str:
        calls.append(1)
        return passage_reply(messages[-1]["content"], **(override if len(calls) == 1 else {}))

    return answer


def llm_rejections(result: Any) -> dict[tuple[str, str], int]:
    return {key: n for key, n in result.rejected.items() if key[1].startswith("llm")}


def passages_of(item: Any) -> list[str]:
    return [p["chunk_id"] for p in item.metadata["passages"]]


# ------------------------------------------------------------------------------------------ question types


def test_plan_keeps_the_category_quotas_and_follows_the_type_mix() -> None:
    quotas = {"direct_fact": 34, "temporal": 14, "numerical": 12, "comparative": 10, "spanning": 12, "holistic": 8}
    quotas["relationship"] = 10
    plan = plan_types(quotas, DEFAULT_TYPE_MIX)
    assert {c: len(t) for c, t in plan.items()} == quotas
    for category, types in plan.items():
        assert set(types) <= set(CATEGORY_TYPES[category]), category
    got = Counter(t for types in plan.values() for t in types)
    for name, share in DEFAULT_TYPE_MIX.items():  # every type present, none far from its share
        assert got[name] >= 1 and abs(got[name] - 100 * share) <= 5, (name, got[name])
    assert plan["holistic"] and set(plan["holistic"]) <= {"summary", "list"}
    only_why = plan_types({"direct_fact": 2, "temporal": 2}, parse_types("why=1"))
    assert only_why == {"temporal": ["what", "what"], "direct_fact": ["why", "why"]}  # temporal cannot ask why


def test_types_option_is_parsed_and_checked() -> None:
    assert parse_types(None) == DEFAULT_TYPE_MIX
    assert parse_types("why=3,how=1,yes-no=0") == {t: {"why": 0.75, "how": 0.25}.get(t, 0.0) for t in QUESTION_TYPES}
    with pytest.raises(Exception, match="unknown question type 'whom'"):
        parse_types("whom=1")
    with pytest.raises(Exception, match="at least one share must be positive"):
        parse_types("why=0")


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("How do the data storage options compare?", "contrast"),
        ("Why was the H100 chosen for computation?", "why"),
        ("If I cancel 30 days before departure, do I get a refund?", "conditional"),
        ("How do I make a button?", "how"),
        ("Can the free plan export to PDF?", "yes_no"),
        ("What are the ingredients of the sauce?", "list"),
        ("What happens on day 2?", "summary"),
        ("Which file format does the exporter write?", "what"),
    ],
)
def test_questions_are_classified_by_their_wording(question: str, kind: str) -> None:
    assert classify_question(question) == kind


@pytest.mark.parametrize(
    ("qtype", "category"),
    [
        ("what", "direct_fact"),
        ("why", "direct_fact"),
        ("how", "spanning"),
        ("conditional", "direct_fact"),
        ("yes_no", "numerical"),
        ("list", "holistic"),
        ("contrast", "comparative"),
        ("summary", "holistic"),
    ],
)
def test_each_question_type_is_asked_checked_and_recorded(prose, qtype: str, category: str) -> None:
    fake = FakeLLM(respond())
    result = generate(prose, num=2, mix=parse_mix(f"{category}=1"), llm=fake, llm_options=options(types={qtype: 1.0}))
    assert len(result.items) == 2, (result.shortfall, llm_rejections(result))
    for item in result.items:
        meta = item.metadata or {}
        assert item.category == category
        assert meta["question_type"] == qtype and meta["seed_kind"] == "passage"
        assert meta["generator"] == "testgen-llm" and meta["prompt_version"] == "passage-v1"
    prompts = [parse_prompt(c.messages[-1]["content"]) for c in fake.history]
    assert {(p.qtype, p.category) for p in prompts} == {(qtype, category)}
    size = {"spanning": 2, "holistic": 3}.get(category)
    if size:  # several documents: every one quoted, every one a source
        for item in result.items:
            assert len({p["doc_id"] for p in item.metadata["passages"]}) == size
            assert len(item.source_docs) >= size
    if qtype == "yes_no":
        assert all(item.reference_answer.startswith(("Yes", "No")) for item in result.items)


# ------------------------------------------------------------------------------------------------- seeds


def test_seeds_cover_the_documents_evenly_and_never_repeat_a_chunk(prose) -> None:
    ctx = GenContext.from_graph(prose)
    sampler = PassageSampler(ctx, seed=7)
    seeds = []
    for _ in range(len(ctx.docs) * 2):
        # a document gets its next seed only when no document with a passage left has fewer
        open_docs = {sampler.ctx.chunks[c].doc_id for c in sampler._profiles if sampler._free(c)}
        fewest = min(sampler.uses(d) for d in open_docs)
        seed = sampler.draw("direct_fact", "what", 1)
        assert seed is not None
        assert sampler.uses(seed.doc_ids[0]) - 1 == fewest
        seeds.append(seed)
    assert {s.doc_ids[0] for s in seeds} == set(ctx.docs)
    chunks = [c.chunk_id for s in seeds for c in s.chunks]
    assert len(chunks) == len(set(chunks))
    again = PassageSampler(ctx, seed=7)
    assert [again.draw("direct_fact", "what", 1) for _ in range(5)] == seeds[:5]  # seeded: the same seeds


def test_multi_document_seeds_share_a_topic_and_temporal_seeds_hold_a_date(prose) -> None:
    ctx = GenContext.from_graph(prose)
    sampler = PassageSampler(ctx, seed=3)
    pair = sampler.draw("spanning", "why", 2)
    assert pair is not None and len(set(pair.doc_ids)) == 2 and pair.topic
    topic = pair.topic.lower()
    assert all(topic in c.text.lower() for c in pair.chunks)
    group = sampler.draw("holistic", "summary", 3)
    assert group is not None and len(set(group.doc_ids)) == 3
    dated = sampler.draw("temporal", "what", 1)
    assert dated is not None and re.search(r"\b(19|20)\d\d\b", dated.chunks[0].text)


def test_boilerplate_and_code_are_no_seed(tmp_path: Path) -> None:
    (tmp_path / "nav.md").write_text(
        "# Links\n\n" + "\n".join(f"- [Page {i}](https://example.org/{i})" for i in range(30)) + "\n", encoding="utf-8"
    )
    (tmp_path / "code.md").write_text("# Code\n\n```\n" + "x = 1\n" * 60 + "```\n", encoding="utf-8")
    shutil.copy(PROSE / "policies" / "warranty.md", tmp_path / "warranty.md")
    ctx = GenContext.from_graph(build_graph(load_corpus(tmp_path)))
    sampler = PassageSampler(ctx)
    docs = {sampler.draw("direct_fact", "what", 1).doc_ids[0] for _ in range(2)}  # type: ignore[union-attr]
    assert docs == {"warranty.md"}


# ---------------------------------------------------------------------------------------- evidence check


def test_quotes_match_after_normalisation_and_nothing_else() -> None:
    chunk = plain(
        "## Turning it on\n\nTo turn on **Frostline mode**, open the [Settings](/s) menu — then choose Heating."
    )
    assert quote_in("To turn on Frostline mode, open the Settings menu - then choose Heating.", chunk)
    assert quote_in("to turn on frostline   mode … choose heating", chunk)
    assert not quote_in("To enable Frostline mode, open the Settings menu.", chunk)  # reworded: no quote
    assert not quote_in("choose Heating … To turn on Frostline mode", chunk)  # pieces out of order


def test_a_quoted_sentence_not_in_the_cited_passage_is_rejected(prose) -> None:
    invented = {"evidence": [{"passage": "P1", "quote": "The heat pump runs on hydrogen from a roof-top tank."}]}
    fake = FakeLLM(first_then_good(**invented))
    result = generate(prose, num=2, mix=parse_mix("direct_fact=1"), llm=fake, llm_options=options())
    assert llm_rejections(result) == {("direct_fact", "llm: quoted sentence not in the cited passage"): 1}
    assert len(result.items) == 2 and len(fake.history) == 3
    first_seed = parse_prompt(fake.history[0].messages[-1]["content"]).passages
    assert all(first_seed[0][1] not in c.messages[-1]["content"] for c in fake.history[1:])  # the next seed
    index = EvidenceIndex(GenContext.from_graph(prose))
    for item in result.items:  # every delivered quote is in its passage
        chunk = item.metadata["passages"][0]["chunk_id"]
        assert item.reference_contexts and all(index.in_chunk(q, chunk) for q in item.reference_contexts)


@pytest.mark.parametrize(
    ("override", "reason"),
    [
        ({"evidence": [{"passage": "P7", "quote": "Any sentence at all here."}]}, "evidence cites an unknown passage"),
        ({"keywords": ["hydrogen"]}, "keyword not in the evidence"),
        ({"answerable_from_passages": False}, "critic: not answerable from the passages"),
        ({"reference_answer": "It depends on the installer."}, "answer does not state a keyword"),
        ({"question": "추운 날에는 히트펌프가 어떻게 작동하나요?"}, "wrong language"),
    ],
)
def test_replies_that_fail_a_check_are_counted_by_reason(prose, override: dict, reason: str) -> None:
    fake = FakeLLM(first_then_good(**override))
    result = generate(prose, num=2, mix=parse_mix("direct_fact=1"), llm=fake, llm_options=options())
    assert {r for (_, r) in llm_rejections(result)} == {f"llm: {reason}"}
    assert len(result.items) == 2


def test_a_spanning_reply_quoting_one_document_only_is_rejected(prose) -> None:
    def one_sided(messages: Messages) -> str:
        reply = json.loads(passage_reply(messages[-1]["content"]))
        reply["evidence"] = reply["evidence"][:1]
        return json.dumps(reply)

    fake = FakeLLM(one_sided)
    result = generate(prose, num=1, mix=parse_mix("spanning=1"), llm=fake, llm_options=options(max_calls_per_item=3))
    assert result.items == []
    assert llm_rejections(result) == {("spanning", "llm: evidence does not cover every passage"): 3}


def test_source_docs_are_every_document_stating_the_evidence(prose, tmp_path: Path) -> None:
    for copy in ("site_a", "site_b"):  # the same pages published twice
        shutil.copytree(PROSE, tmp_path / copy)
    kg = build_graph(load_corpus(tmp_path, chunk_size=400, chunk_overlap=50))
    fake = FakeLLM(respond())
    result = generate(kg, num=6, mix=parse_mix("direct_fact=1"), llm=fake, llm_options=options(types={"what": 1}))
    assert len(result.items) == 6
    for item in result.items:
        own = item.metadata["passages"][0]["doc_id"]
        twin = ("site_b/" if own.startswith("site_a/") else "site_a/") + own.split("/", 1)[1]
        assert {own, twin} <= set(item.source_docs)
    pages = Counter(item.metadata["passages"][0]["doc_id"].split("/", 1)[1] for item in result.items)
    assert len(pages) == 6  # a page published twice counts once for evenness: six pages, not three twice


# ----------------------------------------------------------------------------------------- lexical gap


def _copy_the_evidence(prompt: Any) -> str:
    """A question made of the first quoted sentence's own words (what a careless model writes)."""
    reply = json.loads(passage_reply(prompt.text))
    words = reply["evidence"][0]["quote"].rstrip(".").split()
    keep = [w for w in words if w.strip(",.").lower() not in {k.lower() for k in reply["keywords"]}]
    return "Is it true that " + " ".join(keep[:12]) + "?"


def test_a_question_copying_its_evidence_is_rephrased_once(prose) -> None:
    fake = FakeLLM(first_then_good(question=_copy_the_evidence))
    result = generate(prose, num=2, mix=parse_mix("direct_fact=1"), llm=fake, llm_options=options())
    assert len(result.items) == 2
    rephrase = [c for c in fake.history if c.stage == "rephrase"]
    assert len(rephrase) == 1 and len(fake.history) == 3
    first = result.items[0].metadata
    assert first["rephrased_from"] and first["rephrased_from"] != result.items[0].question
    assert first["evidence_overlap"] <= 0.75 < _overlap(first["rephrased_from"], result.items[0])
    assert result.llm["passages"]["rephrased"] == 1
    assert result.items[1].metadata["rephrased_from"] is None


def test_a_question_still_copying_after_the_rephrase_is_dropped(prose) -> None:
    def stubborn(messages: Messages) -> str:
        text = messages[-1]["content"]
        if text.startswith("This test question copies"):
            return json.dumps({"question": re.search(r'^"(.*)"$', text, re.M).group(1)})  # type: ignore[union-attr]
        return passage_reply(text, question=_copy_the_evidence)

    fake = FakeLLM(stubborn)
    result = generate(prose, num=1, mix=parse_mix("direct_fact=1"), llm=fake, llm_options=options(max_calls_per_item=2))
    assert result.items == []
    assert llm_rejections(result) == {("direct_fact", "llm: question copies the evidence (after a rephrase)"): 2}
    off = generate(
        prose, num=1, mix=parse_mix("direct_fact=1"), llm=FakeLLM(stubborn), llm_options=options(max_overlap=None)
    )
    assert len(off.items) == 1 and off.items[0].metadata["evidence_overlap"] > 0.75  # no threshold: kept


def _overlap(question: str, item: Any) -> float:
    from testgen.overlap import question_overlap

    return question_overlap(question, item.reference_contexts) or 0.0


# ----------------------------------------------------------------------- unusable replies and the fallback


def test_unusable_replies_stop_the_run_with_an_excerpt_and_the_likely_fix(prose) -> None:
    fake = FakeLLM(lambda messages: "I am a helpful assistant. The passage is about heat pumps.")
    result = generate(prose, num=10, llm=fake, llm_options=options(concurrency=4))
    assert result.items == []
    assert len(fake.history) == 2 * 6  # the first six calls, each with its repair re-ask; no batch beyond them
    assert result.stopped is not None
    assert result.stopped.startswith("stopped: none of the first 6 replies of fake/model was usable (unusable reply 6)")
    assert 'one reply began: "I am a helpful assistant.' in result.stopped
    assert "likely fix: a larger model" in result.stopped and "--fallback offline" in result.stopped
    assert result.llm["watch"]["usable"] == 0 and result.llm["watch"]["judged"] == 6


def test_a_run_without_a_usable_reply_is_also_stopped_by_the_clock() -> None:
    from testgen.synth.watch import ReplyWatch

    now = [100.0]
    watch = ReplyWatch("openai/local", api_base="http://127.0.0.1:8080/v1", max_seconds=300, clock=lambda: now[0])
    assert watch.allowance() == 1  # one call at a time until a reply is usable
    now[0] += 120
    watch.record(False, "timeout")
    assert watch.stopped is None
    now[0] += 200
    watch.record(False, "unusable reply", '{ "description": "The reply", "properties": {"question": {}}}')
    assert watch.stopped is not None and watch.allowance() == 0
    assert watch.stopped.startswith("stopped: none of the first 2 replies of openai/local was usable in 320 s")
    assert "a slow local model needs a longer --llm-timeout" in watch.stopped
    assert "repeat the prompt or the JSON schema instead of answering" in watch.stopped
    fresh = ReplyWatch("m", clock=lambda: now[0])
    fresh.record(True)
    assert fresh.allowance() > 100  # after a usable reply: the full concurrency


def test_a_server_that_never_answers_cannot_hold_the_run_past_the_time_limit(prose, tmp_path: Path) -> None:
    from fake_openai_server import Fault

    from testgen.llm import LLMClient, LLMSettings

    with FakeOpenAIServer(lambda request: Fault("hang")) as server:
        settings = LLMSettings(
            model="openai/test-model", api_base=server.url, cache_dir=tmp_path / "cache", timeout=60, max_retries=0
        )
        started = time.monotonic()
        result = generate(prose, num=4, llm=LLMClient(settings), llm_options=options(first_seconds=1.5))
        seconds = time.monotonic() - started
    assert result.items == [] and seconds < 30, (seconds, result.stopped)  # not the 60 s client timeout
    assert result.stopped is not None
    assert re.match(
        r"stopped: the first reply of openai/test-model was not usable in \d+ s \(timeout 1\)", result.stopped
    )
    assert "is up and answers" in result.stopped and "longer --llm-timeout" in result.stopped


def test_fallback_offline_delivers_the_requested_count_flagged() -> None:
    aurora = build_graph(load_corpus(EXAMPLES / "aurora_bikes"))
    fake = FakeLLM(lambda messages: '{"question": "?"}')
    result = generate(aurora, num=12, seed=4, llm=fake, llm_options=options(seeds="mixed", fallback="offline"))
    # the whole request, made up from other categories where one runs short
    assert len(result.items) == 12 == sum(result.requested.values())
    assert all((i.metadata or {}).get("fallback") == "offline" for i in result.items)
    assert all(i.metadata["generator"] == "testgen-offline" for i in result.items)  # type: ignore[index]
    assert "none of the first 6 replies" in result.items[0].metadata["fallback_reason"]  # type: ignore[index]
    assert result.llm["fallback"] == {"mode": "offline", "items": 12}
    assert result.stopped and result.stopped.endswith("; offline questions make up the set (--fallback offline)")
    offline = generate(aurora, num=12, seed=4)  # the same items the offline generator gives
    assert [i.question for i in result.items] == [i.question for i in offline.items]


def test_good_replies_after_bad_ones_keep_the_run_going(prose) -> None:
    calls: list[int] = []

    def two_bad(messages: Messages) -> str:
        calls.append(1)
        return "nonsense" if len(calls) <= 4 else passage_reply(messages[-1]["content"])  # 2 calls + repairs

    result = generate(prose, num=4, mix=parse_mix("direct_fact=1"), llm=FakeLLM(two_bad), llm_options=options())
    assert len(result.items) == 4 and result.stopped is None


# ------------------------------------------------------------------------------------------------ dry run


def test_the_plan_prices_passage_prompts_and_rephrases(prose) -> None:
    from testgen.generate import plan_llm_calls
    from testgen.llm.cost import estimate_prompt_tokens
    from testgen.llm.parsing import with_json_instruction
    from testgen.synth.passage_prompts import PassageReply

    facts = plan_llm_calls(20, prose, model="openai/gpt-4.1-mini", llm_options=LLMOptions(seeds="facts"))
    passages = plan_llm_calls(20, prose, model="openai/gpt-4.1-mini", llm_options=options())
    assert facts["passage_share"] == 0 and facts["expected_rephrase_calls"] == 0
    assert passages["passage_share"] == 1.0 and passages["passages_sampled"] >= 7
    assert passages["expected_rephrase_calls"] == 5  # a quarter of the questions
    fake = FakeLLM(respond())  # the prompts a run sends are the ones planned
    generate(prose, num=7, llm=fake, llm_options=options())
    # as a server gets them unless it takes json_schema: the reply's schema in the prompt (FakeLLM adds none)
    sent = [
        estimate_prompt_tokens(with_json_instruction(c.messages, PassageReply))
        for c in fake.history
        if c.stage == "passages"
    ]
    assert 0.7 <= passages["prompt_tokens_per_call"] / (sum(sent) / len(sent)) <= 1.6
    assert passages["estimated_cost_usd"] > facts["estimated_cost_usd"] > 0


# ------------------------------------------------------------------------- over HTTP, through the CLI


def _server_reply(request: RecordedRequest) -> str:
    return passage_reply(request.last_user_text.split("\n\nReply with a single JSON object")[0])


def test_build_over_http_delivers_every_item_and_a_rerun_is_free(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "t.jsonl"
    args = ["build", "--kb", str(PROSE), "-o", str(out), "-n", "12", "--no-hf", "--chunk-size", "400"]
    args += ["--chunk-overlap", "50", "--seeds", "passages", "--round-trip", "off"]
    with FakeOpenAIServer(_server_reply, reject_formats={"json_schema": 500}) as server:
        llm = ["--llm", "openai/test-model", "--api-base", server.url, "--concurrency", "4"]
        first = CliRunner().invoke(main, [*args, *llm], catch_exceptions=False)
        sent = len(server.chat_requests())
        again = CliRunner().invoke(main, [*args, *llm, "-o", str(tmp_path / "again.jsonl")], catch_exceptions=False)
        resent = len(server.chat_requests()) - sent
    assert first.exit_code == 0, first.output
    assert again.exit_code == 0, again.output
    items = [json.loads(line) for line in out.read_text().splitlines()]
    assert len(items) == 12
    info = json.loads((tmp_path / "t.summary.json").read_text())["llm"]
    assert info["delivered"] == 12 and info["requests"] == sent
    assert sent / 12 <= 1.5, sent
    assert info["client"]["structured_output"] == "json_object"
    assert len({i["category"] for i in items}) == 7
    assert len({i["metadata"]["question_type"] for i in items}) >= 4
    assert resent == 0  # the cache answers every call of the same run
    assert (tmp_path / "again.jsonl").read_text() == out.read_text()


# ------------------------------------------- the same checks through litellm's HTTP path (fake OpenAI server)


def _client(server: FakeOpenAIServer, tmp_path: Path) -> Any:
    from testgen.llm import LLMClient, LLMSettings

    settings = LLMSettings(model="openai/test-model", api_base=server.url, cache_dir=tmp_path / "cache", max_retries=0)
    return LLMClient(settings)


def _passage_requests(server: FakeOpenAIServer) -> list[str]:
    return [r.last_user_text for r in server.chat_requests()]


def test_over_http_every_question_type_is_delivered(tmp_path: Path) -> None:
    equal = {t: 1.0 for t in QUESTION_TYPES}
    fine = build_graph(load_corpus(PROSE, chunk_size=300, chunk_overlap=0))  # more passages to draw from
    with FakeOpenAIServer(lambda r: passage_reply(r.last_user_text)) as server:
        result = generate(fine, num=16, llm=_client(server, tmp_path), llm_options=options(types=equal))
    assert len(result.items) == 16 and all(result.counts().values())  # every category (a small KB fills some)
    types = Counter(i.metadata["question_type"] for i in result.items)  # type: ignore[index]
    assert set(types) == set(QUESTION_TYPES), types
    asked = {parse_prompt(text).qtype for text in _passage_requests(server)}
    assert asked == set(QUESTION_TYPES)


def test_over_http_a_quote_not_in_its_passage_is_rejected(prose, tmp_path: Path) -> None:
    invented = [{"passage": "P1", "quote": "The heat pump runs on hydrogen from a roof-top tank."}]
    replies: list[int] = []

    def answer(request: RecordedRequest) -> str:
        replies.append(1)
        return passage_reply(request.last_user_text, **({"evidence": invented} if len(replies) == 1 else {}))

    with FakeOpenAIServer(answer) as server:
        result = generate(
            prose, num=2, mix=parse_mix("direct_fact=1"), llm=_client(server, tmp_path), llm_options=options()
        )
    assert llm_rejections(result) == {("direct_fact", "llm: quoted sentence not in the cited passage"): 1}
    assert len(result.items) == 2 and len(server.chat_requests()) == 3


def test_over_http_a_copying_question_is_rephrased(prose, tmp_path: Path) -> None:
    replies: list[int] = []

    def answer(request: RecordedRequest) -> str:
        replies.append(1)
        text = request.last_user_text
        return passage_reply(text, **({"question": _copy_the_evidence} if len(replies) == 1 else {}))

    with FakeOpenAIServer(answer) as server:
        result = generate(
            prose, num=2, mix=parse_mix("direct_fact=1"), llm=_client(server, tmp_path), llm_options=options()
        )
    sent = _passage_requests(server)
    assert sum(text.startswith("This test question copies") for text in sent) == 1 and len(sent) == 3
    assert result.items[0].metadata["rephrased_from"]  # type: ignore[index]
    assert result.llm["usage"]["rephrase"]["requests"] == 1


def test_over_http_unusable_replies_fall_back_offline(tmp_path: Path) -> None:
    aurora = build_graph(load_corpus(EXAMPLES / "aurora_bikes"))
    with FakeOpenAIServer(lambda r: "Sure! Here is a great question for you.") as server:
        result = generate(
            aurora, num=8, seed=2, llm=_client(server, tmp_path), llm_options=options(seeds="mixed", fallback="offline")
        )
    assert len(result.items) == 8 and all(i.metadata["fallback"] == "offline" for i in result.items)  # type: ignore[index]
    assert result.llm["watch"] == {
        "judged": 6,
        "replies": 6,
        "usable": 0,
        "unusable_by_reason": {"unusable reply": 6},
        "excerpt": "Sure! Here is a great question for you.",
    }
    assert len(server.chat_requests()) == 12  # six calls, each with its repair re-ask, nothing more
