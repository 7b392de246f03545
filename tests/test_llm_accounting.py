"""Honest LLM accounting against a local fake OpenAI server: every request the server received is counted
(first tries, retries, repair re-asks, samples, turned-down structured modes), the structured-output mode is
found once per run, failed calls are remembered, and timeouts and unpriced models say what they are."""

from __future__ import annotations

import asyncio
import json
import threading
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from fake_openai_server import FakeOpenAIServer, Fault, RecordedRequest
from pydantic import BaseModel

from schemas import StageCost
from testgen.llm import LLMCallError, LLMClient, LLMSettings, LLMTimeout
from testgen.llm.cost import format_cost, request_ceiling

KEY_ENV = "TESTGEN_TEST_API_KEY"


class Draft(BaseModel):
    question: str
    answer: str


@pytest.fixture(autouse=True)
def _api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, "sk-testgen-accounting-0000")


def client_for(server: FakeOpenAIServer, cache: Path | None, **overrides: Any) -> LLMClient:
    fields: dict[str, Any] = {
        "model": "openai/test-model",
        "api_base": server.url,
        "api_key_env": KEY_ENV,
        "cache_dir": cache,
        "timeout": 10.0,
        "backoff_base": 0.01,
        "backoff_max": 0.05,
    }
    fields.update(overrides)
    return LLMClient(LLMSettings(**fields))


def ask(text: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": "You write test questions."}, {"role": "user", "content": text}]


def tag(request: RecordedRequest) -> str:
    """The call id ('q7') that opens the first user message (a repair re-ask adds a user message after it)."""
    first = next(m["content"] for m in request.body["messages"] if m["role"] == "user")
    return str(first).split()[0]


def draft_reply(request: RecordedRequest) -> str:
    return f'{{"question": "{tag(request)}?", "answer": "yes"}}'


async def structured(client: LLMClient, prompts: list[str], stage: str = "gen") -> list[Any]:
    return await asyncio.gather(
        *(client.acomplete(ask(p), stage=stage, response_model=Draft) for p in prompts), return_exceptions=True
    )


def total(client: LLMClient) -> StageCost:
    out = StageCost()
    for u in client.usage().values():
        for name in ("calls", "requests", "retries", "repairs", "cached_calls", "failed_calls"):
            setattr(out, name, getattr(out, name) + getattr(u, name))
    return out


# -- structured-output mode -------------------------------------------------------------------------------------


def test_a_server_that_500s_on_json_schema_is_used_in_json_object_mode_after_one_probe(tmp_path: Path) -> None:
    with FakeOpenAIServer(draft_reply, reject_formats={"json_schema": 500}) as server:
        client = client_for(server, tmp_path, concurrency=4, max_retries=3)
        results = asyncio.run(structured(client, [f"q{i}" for i in range(6)]))
        assert [r.parsed.question for r in results] == [f"q{i}?" for i in range(6)]
        # one json_schema request, turned down and never retried; then json_object for every call
        assert server.formats() == ["json_schema"] + ["json_object"] * 6
        json_object = server.chat_requests()[1:]
        assert all("Reply with a single JSON object" in r.last_user_text for r in json_object)
        gen = client.usage()["gen"]
        assert (gen.calls, gen.requests, gen.retries, gen.repairs, gen.failed_calls) == (6, 7, 0, 0, 0)
        info = client.run_info()
        assert info["structured_output"] == "json_object"
        assert list(info["structured_output_rejected"]) == ["json_schema"]
        assert "HTTP 500" in info["structured_output_rejected"]["json_schema"]

        # a new run against the same server remembers the rejection (cache folder): no probe, all cached
        again = client_for(server, tmp_path)
        asyncio.run(structured(again, [f"q{i}" for i in range(6)]))
        assert len(server.chat_requests()) == 7
        assert again.run_info()["structured_output"] == "json_object"
        assert "earlier run" in again.run_info()["structured_output_rejected"]["json_schema"]
        assert total(again).requests == 0 and total(again).cached_calls == 6


def test_a_server_with_neither_format_falls_back_to_the_prompt() -> None:
    with FakeOpenAIServer(draft_reply, reject_formats={"json_schema": 500, "json_object": 400}) as server:
        client = client_for(server, None)
        asyncio.run(structured(client, ["q1", "q2", "q3"]))
    assert server.formats() == ["json_schema", "json_object", "none", "none", "none"]
    assert client.structured_mode == "prompt"
    assert total(client).requests == 5 == len(server.chat_requests())
    assert total(client).retries == 0


def test_a_passing_500_while_probing_is_retried_not_taken_for_a_rejection() -> None:
    script = iter([Fault("500"), draft_reply])

    def responder(request: RecordedRequest) -> str | Fault:
        step = next(script, draft_reply)
        return step if isinstance(step, Fault) else step(request)

    with FakeOpenAIServer(responder) as server:
        client = client_for(server, None, max_retries=2)
        asyncio.run(structured(client, ["q1", "q2"]))
    assert server.formats() == ["json_schema"] * 3
    assert client.structured_mode == "json_schema"
    assert total(client).retries == 1 and total(client).requests == 3


def test_forced_modes_send_what_they_say() -> None:
    with FakeOpenAIServer(draft_reply) as server:
        for mode in ("json_schema", "json_object", "prompt"):
            client_for(server, None, structured_output=mode).complete(ask("q1"), stage="gen", response_model=Draft)
        assert server.formats() == ["json_schema", "json_object", "none"]
    assert LLMSettings(model="m", structured_output="schema").structured_output == "json_schema"  # old spelling


# -- every request counted ----------------------------------------------------------------------------------------


def test_retries_repairs_and_samples_add_up_to_what_the_server_received() -> None:
    faults: dict[str, list[str | Fault]] = {
        "q0": [Fault("429", retry_after=0.01), Fault("500")],  # two retries
        "q1": ['{"question": "q1?"}'],  # a repair re-ask
        "q2": [Fault("timeout", delay=0.6), "not json at all"],  # a retry, then a repair
        "q3": [Fault("500")] * 3,  # fails after its retries
    }
    seen: Counter[str] = Counter()
    lock = threading.Lock()

    def responder(request: RecordedRequest) -> str | Fault:
        call = tag(request)
        with lock:
            script = faults.get(call, [])
            step = script[seen[call]] if seen[call] < len(script) else None
            seen[call] += 1
        return step if step is not None else draft_reply(request)

    with FakeOpenAIServer(responder) as server:
        client = client_for(server, None, timeout=0.3, max_retries=2, concurrency=3, structured_output="json_schema")
        results = asyncio.run(structured(client, [f"q{i}" for i in range(6)]))
        # three samples of one plain prompt: three requests
        for i in range(3):
            client.complete(ask("s0"), stage="samples", temperature=0.7, sample=i)
        received = Counter(tag(r) for r in server.chat_requests())
    assert isinstance(results[3], LLMCallError)
    assert [r.parsed.question for i, r in enumerate(results) if i != 3] == ["q0?", "q1?", "q2?", "q4?", "q5?"]
    gen = client.usage()["gen"]
    assert received == Counter({"q0": 3, "q1": 2, "q2": 3, "q3": 3, "q4": 1, "q5": 1, "s0": 3})
    assert (gen.requests, gen.retries, gen.repairs, gen.failed_calls, gen.calls) == (13, 5, 2, 1, 7)
    assert client.usage()["samples"].requests == 3
    assert total(client).requests == len(server.chat_requests()) == 16


def test_the_timeout_error_names_the_setting() -> None:
    with FakeOpenAIServer(lambda r: Fault("timeout", delay=1.0)) as server:
        client = client_for(server, None, timeout=0.3, max_retries=1)
        with pytest.raises(LLMTimeout) as failed:
            client.complete(ask("q1"), stage="gen")
    message = str(failed.value)
    assert "LLM timeout of 0.3 s" in message and "--llm-timeout" in message and "2 attempt(s)" in message
    assert client.usage()["gen"] == StageCost(requests=2, retries=1, failed_calls=1)


# -- failed calls are remembered -----------------------------------------------------------------------------------


def test_failed_calls_are_recorded_and_a_rerun_chooses_whether_to_resend(tmp_path: Path) -> None:
    with FakeOpenAIServer(lambda r: Fault("500")) as server:
        first = client_for(server, tmp_path, max_retries=1)
        with pytest.raises(LLMCallError, match="internal error"):
            first.complete(ask("q1"), stage="gen")
        assert len(server.chat_requests()) == 2

        server.responder = lambda r: "fine now"
        kept = client_for(server, tmp_path, retry_failed=False)
        with pytest.raises(LLMCallError, match="recorded by an earlier run") as replayed:
            kept.complete(ask("q1"), stage="gen")
        assert "internal error" in str(replayed.value)
        assert len(server.chat_requests()) == 2  # nothing sent
        assert kept.usage()["gen"] == StageCost(cached_calls=1, failed_calls=1)

        resent = client_for(server, tmp_path)  # the default: retry failed calls
        assert resent.complete(ask("q1"), stage="gen").text == "fine now"
        assert len(server.chat_requests()) == 3
        # the success replaced the recorded failure: even without retrying failures it is a cache hit now
        assert client_for(server, tmp_path, retry_failed=False).complete(ask("q1"), stage="gen").cached


def test_a_recorded_timeout_replays_as_a_timeout(tmp_path: Path) -> None:
    with FakeOpenAIServer(lambda r: Fault("timeout", delay=1.0)) as server:
        with pytest.raises(LLMTimeout):
            client_for(server, tmp_path, timeout=0.3, max_retries=0).complete(ask("q1"), stage="gen")
        with pytest.raises(LLMTimeout, match="--llm-timeout"):
            client_for(server, tmp_path, timeout=0.3, retry_failed=False).complete(ask("q1"), stage="gen")
        assert len(server.chat_requests()) == 1


# -- cost ------------------------------------------------------------------------------------------------------


def test_unpriced_models_say_unknown_and_the_cap_warns() -> None:
    local = LLMClient(LLMSettings(model="openai/my-local-llama", api_base="http://127.0.0.1:1/v1", max_cost=1.0))
    assert local.prices.known is False
    assert format_cost(local.spent, local.prices.known) == "unknown"
    warning = local.cap_warning()
    assert warning is not None and "--max-cost 1 cannot limit openai/my-local-llama" in warning
    assert local.run_info()["priced"] is False
    priced = LLMClient(LLMSettings(model="openai/gpt-4.1-mini", max_cost=1.0))
    assert priced.prices.known and priced.cap_warning() is None
    assert format_cost(0.0123456, True) == "$0.0123"
    overridden = LLMClient(
        LLMSettings(model="openai/local", max_cost=1.0, input_price_per_mtok=0.1, output_price_per_mtok=0.2)
    )
    assert overridden.cap_warning() is None
    assert LLMClient(LLMSettings(model="openai/local")).cap_warning() is None  # no cap, nothing to warn about


def test_request_ceiling_counts_repairs_retries_and_probes() -> None:
    # 10 structured calls, 3 retries: (first try + repair) × 4 attempts each, + 2 mode probes
    assert request_ceiling(10, 3) == 82
    assert request_ceiling(10, 0, structured=False) == 10
    assert request_ceiling(0, 3) == 0


# -- end to end: evaluate and build against the server --------------------------------------------------------

DOCS = {
    "pricing.md": "# Pricing\n\nThe Trail 500 costs 1,299 euros. The City 300 costs 899 euros.\n",
    "stores.md": "# Stores\n\nThe Berlin store opened in 2019. The Munich store opened in 2021.\n",
}
SCORES = {"accuracy": 4, "completeness": 5, "relevance": 5, "faithfulness": 0.9, "answer_relevancy": 0.8}


def _judge_or_answer(request: RecordedRequest) -> str | Fault:
    text = request.last_user_text
    if "CRITERION:" not in text:
        return "The Trail 500 costs 1,299 euros."
    name = text.split("CRITERION:", 1)[1].split()[0]
    if name == "relevance":
        return "I would rather not say."  # unusable twice: repaired once, then the score is unscored
    return json.dumps({"reason": f"about {name}", "score": SCORES[name]})


def test_evaluate_counts_every_request_uses_json_object_and_says_unknown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from evaluators.report.panels import usage_line
    from evaluators.runner import RunConfig, run_evaluation
    from schemas import TestQuestion

    monkeypatch.chdir(tmp_path)  # the LLM cache lives in the working directory
    kb = tmp_path / "kb"
    kb.mkdir()
    for name, text in DOCS.items():
        (kb / name).write_text(text, encoding="utf-8")
    questions = [
        TestQuestion(question="How much does the Trail 500 cost?", keywords=["1,299 euros"],
                     reference_answer="The Trail 500 costs 1,299 euros.", category="numerical",
                     source_docs=["pricing.md"]),
        TestQuestion(question="When did the Berlin store open?", keywords=["2019"],
                     reference_answer="The Berlin store opened in 2019.", category="temporal",
                     source_docs=["stores.md"]),
    ]  # fmt: skip
    plans: list[Any] = []
    with FakeOpenAIServer(_judge_or_answer, reject_formats={"json_schema": 500}) as server:
        config = RunConfig(kb=str(kb), k=3, evaluation_type="full_rag", llm="openai/test-model", api_base=server.url,
                           judge="separate", max_cost=5.0, llm_timeout=10, llm_retries=1, concurrency=4)  # fmt: skip
        outcome = run_evaluation(questions, config, dataset="t", on_plan=lambda p: plans.append(p) or True)
        formats = server.formats()
    s = outcome.summary
    # 2 answers (plain) + 10 judge calls; relevance is repaired once per question; one json_schema probe
    assert formats.count("json_schema") == 1 and formats.count("json_object") == 10 + 2
    assert sum(u.requests for u in s.usage.values()) == len(formats) == 2 + 1 + 10 + 2
    assert sum(u.repairs for u in s.usage.values()) == 2 and sum(u.retries for u in s.usage.values()) == 0
    assert s.llm_settings["openai/test-model"]["structured_output"] == "json_object"
    assert s.llm_settings["openai/test-model"]["timeout"] == 10
    # the relevance score's own reason, not another score's
    assert {r.unscored["judge_relevance"].split(":")[0] for r in outcome.results} == {"LLMBadResponse"}
    assert all(set(r.unscored) == {"judge_relevance"} for r in outcome.results)
    # unpriced: the plan, the summary and the post-run line say unknown; the cap warns it cannot act
    [plan] = plans
    assert "cost unknown" in plan.describe() and "--max-cost 5 cannot limit openai/test-model" in plan.describe()
    assert s.cost_known is False
    line = usage_line(s)
    assert "cost unknown" in line and "$" not in line and "15 requests" in line
    assert any("cannot limit" in note for note in s.notes)


def test_build_counts_requests_records_the_mode_and_plans_the_ceiling(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from testgen.cli import main
    from testgen.llm.cost import estimate_prompt_tokens

    monkeypatch.chdir(tmp_path)
    kb = Path(__file__).parents[1] / "examples" / "aurora_bikes"

    from test_llm_synth import good_reply

    replies: Counter[str] = Counter()
    lock = threading.Lock()

    def rewrite(request: RecordedRequest) -> str:
        first_try = request.body["messages"][:2]  # a repair re-ask appends the reply and the ask
        with lock:
            replies["n"] += 1
            n = replies["n"]
        # every third first try gets prose back: repaired by a re-ask, which gets a good reply
        return (
            "Sure! Here is a question."
            if n % 3 == 0 and request.body["messages"] == first_try
            else good_reply(first_try)
        )

    args = ["build", "--kb", str(kb), "-o", str(tmp_path / "t.jsonl"), "-n", "4", "--no-hf", "--round-trip", "off"]
    args += ["--seeds", "facts"]  # the rewrite path's prompts (the responder answers those)
    with FakeOpenAIServer(rewrite, reject_formats={"json_schema": 500}) as server:
        llm = ["--llm", "openai/test-model", "--api-base", server.url, "--llm-retries", "1", "--concurrency", "2"]
        dry = CliRunner().invoke(main, [*args, *llm, "--dry-run"], catch_exceptions=False)
        assert server.chat_requests() == []
        result = CliRunner().invoke(main, [*args, *llm], catch_exceptions=False)
        received = server.chat_requests()
    assert dry.exit_code == 0, dry.output
    # 4 questions × 4 calls at most, each with a repair re-ask, each retried once, + 2 probes
    assert "at most 16 calls, 66 requests with --llm-retries 1" in dry.stdout
    assert "estimated cost: unknown" in dry.stdout
    assert result.exit_code == 0, result.output
    info = json.loads((tmp_path / "t.summary.json").read_text(encoding="utf-8"))["llm"]
    usage = info["usage"]["generation"]
    assert info["requests"] == usage["requests"] == len(received)
    assert usage["repairs"] >= 1 and usage["requests"] == usage["calls"] + 1  # + the turned-down probe
    assert info["calls_per_item"] == round(len(received) / info["delivered"], 3)
    assert info["client"]["structured_output"] == "json_object"
    assert info["cost"] == "unknown" and info["client"]["priced"] is False
    assert "cost unknown" in " ".join(result.stderr.split())
    assert list(info["client"]["structured_output_rejected"]) == ["json_schema"]
    assert f"questions from {len(received)} requests" in result.stderr
    assert "structured output: json_object (turned down: json_schema)" in result.stderr
    # the plan's prompt-size model is what the client really sends (the JSON instruction included)
    planned = int(dry.stdout.split("~")[2].split(" prompt")[0])
    first_tries = [r for r in received if r.response_format == "json_object" and len(r.body["messages"]) == 2]
    sent = sum(estimate_prompt_tokens(r.body["messages"]) for r in first_tries) / len(first_tries)
    assert 0.85 <= planned / sent <= 1.15, (planned, sent)


def test_the_prompt_size_model_against_a_recorded_llama_cpp_run() -> None:
    """Rewrite prompts as the build sends them (JSON instruction included), counted by a real llama.cpp server
    (tests/fixtures/prompt_tokens_llama_cpp.json, recorded with bench/prompt_tokens.py): the estimate the cost
    cap uses is never below the server's count and not far above it, and so is the dry run's per-call figure."""
    from testgen.generate import plan_llm_calls
    from testgen.kg.build import build_graph, load_corpus
    from testgen.synth.llm_synth import LLMOptions

    recorded = json.loads((Path(__file__).parent / "fixtures" / "prompt_tokens_llama_cpp.json").read_text())
    pairs = recorded["pairs"]
    assert len(pairs) == 7
    for pair in pairs:
        assert pair["server"] <= pair["estimate"] <= 1.5 * pair["server"], pair
    server_mean = sum(p["server"] for p in pairs) / len(pairs)
    kg = build_graph(load_corpus(Path(__file__).parents[1] / "examples" / "aurora_bikes"))
    facts = LLMOptions(seeds="facts")  # the rewrite prompts the recording measured
    planned = plan_llm_calls(20, kg, model="openai/local", llm_options=facts)["prompt_tokens_per_call"]
    assert server_mean <= planned <= 1.5 * server_mean, (planned, server_mean)


def test_a_rejected_key_stops_build_and_evaluate_at_the_first_calls_with_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from click.testing import CliRunner

    from evaluators.cli import main as evaluate_main
    from testgen.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TESTGEN_CACHE_DIR", str(tmp_path / "cache"))
    kb = Path(__file__).parents[1] / "examples" / "aurora_bikes"
    build = ["build", "--kb", str(kb), "-o", str(tmp_path / "t.jsonl"), "-n", "20", "--no-hf"]
    with FakeOpenAIServer(lambda r: Fault("401")) as server:
        llm = ["--llm", "openai/test-model", "--api-base", server.url, "--concurrency", "2"]
        built = CliRunner().invoke(main, [*build, *llm])
        sent_by_build = len(server.chat_requests())
        offline = CliRunner().invoke(
            main, ["build", "--kb", str(kb), "-o", "offline.jsonl", "-n", "5", "--no-hf", "-q"]
        )
        assert offline.exit_code == 0, offline.output
        evaluated = CliRunner().invoke(
            evaluate_main,
            ["--dataset", "offline.jsonl", "--kb", str(kb), "--type", "full_rag", *llm, "-o", "report", "--no-plots"],
        )
        sent_by_evaluate = len(server.chat_requests()) - sent_by_build
    assert built.exit_code == 2, built.output
    assert "set OPENAI_API_KEY to a valid key" in built.output
    assert not (tmp_path / "t.jsonl").exists()  # nothing written
    assert sent_by_build <= 4  # the first calls (two at a time, and the structured-mode probe), not one per seed
    assert evaluated.exit_code == 2, evaluated.output
    assert "set OPENAI_API_KEY to a valid key" in evaluated.output
    assert sent_by_evaluate <= 4
