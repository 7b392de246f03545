"""LLMClient through litellm's real HTTP path against a local fake OpenAI server: never a real provider."""

from __future__ import annotations

import asyncio
import inspect
import logging
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import openai
import pytest
from fake_openai_server import FakeOpenAIServer, Fault, RecordedRequest
from pydantic import BaseModel

from schemas import StageCost
from testgen.llm import (
    LLM,
    FakeLLM,
    LLMAuthFailed,
    LLMBadResponse,
    LLMBudgetExceeded,
    LLMCallError,
    LLMClient,
    LLMConfigError,
    LLMConnectionFailed,
    LLMError,
    LLMRateLimited,
    LLMSettings,
    LLMTimeout,
)
from testgen.llm.client import import_litellm
from testgen.llm.ratelimit import MAX_RETRY_AFTER, TokenBucket, backoff_delay, map_error, retry_after

KEY = "sk-testgen-SECRET-7f3a9c41d2"
KEY_ENV = "TESTGEN_TEST_API_KEY"
ROOT = Path(__file__).parents[1]


class Draft(BaseModel):
    question: str
    answer: str


@pytest.fixture(autouse=True)
def _api_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, KEY)


def client_for(server: FakeOpenAIServer, cache: Path | None, **overrides: Any) -> LLMClient:
    fields: dict[str, Any] = {
        "model": "openai/test-model",
        "api_base": server.url,
        "api_key_env": KEY_ENV,
        "cache_dir": cache,
        "timeout": 10.0,  # generous: a loaded machine must not turn a scripted reply into a retry
        "backoff_base": 0.02,
        "backoff_max": 0.1,
    }
    fields.update(overrides)
    return LLMClient(LLMSettings(**fields))


def ask(text: str) -> list[dict[str, str]]:
    return [{"role": "system", "content": "You write test questions."}, {"role": "user", "content": text}]


def tag(request: RecordedRequest) -> str:
    """The call id ('q7') at the start of the user message, whatever instruction follows it."""
    return request.last_user_text.split()[0]


async def gather(client: LLMClient, prompts: list[str], **kwargs: Any) -> list[Any]:
    return await asyncio.gather(*(client.acomplete(ask(p), stage="gen", **kwargs) for p in prompts))


# -- import and configuration -------------------------------------------------------------------------------


def test_importing_testgen_does_not_import_litellm() -> None:
    code = "import testgen, testgen.llm, testgen.llm.client, sys; print('litellm' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_settings_hold_no_key_and_missing_key_is_a_config_error(tmp_path: Path, monkeypatch) -> None:
    with pytest.raises(ValueError, match="NAME of an environment variable"):
        LLMSettings(model="openai/x", api_key_env="sk-abc-123")
    with FakeOpenAIServer() as server:
        client = client_for(server, None, api_key_env="TESTGEN_NOT_SET")
        with pytest.raises(LLMConfigError, match="TESTGEN_NOT_SET"):
            client.complete(ask("q"), stage="gen")
        assert server.requests == []
    assert LLMSettings(model="m").cache_dir == Path(".testgen_cache/llm")
    monkeypatch.chdir(tmp_path)
    assert LLMClient(LLMSettings(model="m")).cache.directory == tmp_path / ".testgen_cache" / "llm"  # type: ignore[union-attr]


# -- structured output --------------------------------------------------------------------------------------


def test_schema_mode_sends_response_format_and_parses(tmp_path: Path) -> None:
    # gpt-4.1-mini is in litellm's bundled map: auto picks schema mode, and the price comes from the map
    with FakeOpenAIServer(lambda r: '{"question": "Who built the bridge?", "answer": "Ada"}') as server:
        client = client_for(server, None, model="openai/gpt-4.1-mini")
        done = client.complete(ask("q1 one question"), stage="gen", response_model=Draft)
    assert done.parsed == Draft(question="Who built the bridge?", answer="Ada")
    [request] = server.chat_requests()
    fmt = request.body["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["name"] == "Draft"
    assert fmt["json_schema"]["schema"]["required"] == ["question", "answer"]
    assert request.body["messages"][-1]["content"] == "q1 one question"  # no prompt instruction
    assert request.headers["authorization"] == f"Bearer {KEY}"
    # the server counts words: 4 + 3 prompt tokens, 7 completion tokens; $0.40 / $1.60 per 1M
    assert (done.prompt_tokens, done.completion_tokens) == (7, 7)
    assert done.cost == pytest.approx(7 * 0.4e-6 + 7 * 1.6e-6)


def test_prompt_mode_instructs_json_and_parses_a_fenced_reply(tmp_path: Path) -> None:
    reply = '```json\n{"question": "Who?", "answer": "Ada",}\n```'
    with FakeOpenAIServer(lambda r: reply) as server:
        client = client_for(server, None, structured_output="prompt")
        done = client.complete(ask("q1"), stage="gen", response_model=Draft)
    assert done.parsed == Draft(question="Who?", answer="Ada")
    [request] = server.chat_requests()  # repaired locally, no re-ask
    assert "response_format" not in request.body
    assert request.body["messages"][-1]["content"].startswith("q1\n\nReply with a single JSON object")
    assert done.cost == 0.0  # unknown model, no price override


def test_one_repair_reask_then_bad_response() -> None:
    replies = iter(['I think: {"question": "Who?"}', '{"question": "Who?", "answer": "Ada"}'])
    with FakeOpenAIServer(lambda r: next(replies)) as server:
        client = client_for(server, None)
        done = client.complete(ask("q1"), stage="gen", response_model=Draft)
    assert done.parsed == Draft(question="Who?", answer="Ada")
    first, second = server.chat_requests()
    assert second.body["messages"][:-2] == first.body["messages"]
    assert second.body["messages"][-2] == {"role": "assistant", "content": 'I think: {"question": "Who?"}'}
    assert "answer: Field required" in second.body["messages"][-1]["content"]
    assert client.usage()["gen"].calls == 2

    with FakeOpenAIServer(lambda r: "Sorry, I cannot do JSON.") as server:
        client = client_for(server, None, structured_output="prompt")
        with pytest.raises(LLMBadResponse, match="even after a repair re-ask"):
            client.complete(ask("q1"), stage="gen", response_model=Draft)
    assert len(server.chat_requests()) == 2
    # words at the server: (system 4 + user 22) then (26 + the 5-word reply + a 34-word repair ask)
    assert client.usage()["gen"] == StageCost(
        calls=2, requests=2, repairs=1, failed_calls=1, prompt_tokens=91, completion_tokens=10
    )


def test_truncated_reply_gets_a_shorter_repair_and_malformed_body_is_retried() -> None:
    replies: list[str | Fault] = [
        Fault("truncated", text='{"question": "Who'),
        Fault("malformed"),
        '{"question": "Q", "answer": "A"}',
    ]
    script = iter(replies)
    with FakeOpenAIServer(lambda r: next(script)) as server:
        client = client_for(server, None)
        done = client.complete(ask("q1"), stage="gen", response_model=Draft)
    assert done.parsed == Draft(question="Q", answer="A")
    _cut, malformed, repaired = server.chat_requests()
    assert "cut off at the length limit" in repaired.body["messages"][-1]["content"]
    assert malformed.body == repaired.body  # the malformed 200 was retried as is
    assert client.retries() == {"gen": 1}


# -- faults, retries, rate limits -----------------------------------------------------------------------------


def test_forty_calls_with_thirty_percent_faults_all_complete(capsys: pytest.CaptureFixture[str]) -> None:
    failures = {i: (2 if i % 10 == 0 else 1) for i in range(40) if i % 10 in (0, 3, 6)}  # 12 calls, 4 fail twice
    kinds = [Fault("429", retry_after=0.2), Fault("500"), Fault("timeout", delay=2.5)]
    seen: Counter[str] = Counter()
    served: Counter[str] = Counter()
    lock = threading.Lock()

    def responder(request: RecordedRequest) -> str | Fault:
        call = tag(request)
        i = int(call[1:])
        with lock:
            seen[call] += 1
            attempt = seen[call]
            if attempt <= failures.get(i, 0):
                served[kinds[(i + attempt) % 3].kind] += 1
                return kinds[(i + attempt) % 3]
        return f'{{"question": "{call}?", "answer": "a{i}"}}'

    with FakeOpenAIServer(responder) as server:
        client = client_for(server, None, timeout=1.5, max_retries=3, concurrency=8)
        import_litellm()  # the first import takes seconds: keep it out of the wall time
        start = time.monotonic()
        results = asyncio.run(gather(client, [f"q{i}" for i in range(40)], response_model=Draft))
        wall = time.monotonic() - start
    assert [r.parsed.answer for r in results] == [f"a{i}" for i in range(40)]
    attempts = Counter(tag(r) for r in server.chat_requests())
    assert max(attempts.values()) <= 1 + 3
    assert attempts == Counter({f"q{i}": 1 + failures.get(i, 0) for i in range(40)})
    assert sum(attempts.values()) == 56
    assert served == Counter({"429": 4, "500": 7, "timeout": 5})
    usage = client.usage()["gen"]
    assert (usage.calls, usage.failed_calls, usage.cached_calls) == (40, 0, 0)
    assert client.retries() == {"gen": 16}
    assert usage.requests == sum(attempts.values())
    with capsys.disabled():
        print(
            f"\n[40-call fault run] requests={sum(attempts.values())} retries={client.retries()['gen']}"
            f" calls={usage.calls} cached={usage.cached_calls} prompt_tokens={usage.prompt_tokens}"
            f" completion_tokens={usage.completion_tokens} cost={usage.cost} wall={wall:.2f}s"
        )


def test_concurrency_limit_holds(monkeypatch: pytest.MonkeyPatch) -> None:
    litellm = import_litellm()
    real = litellm.acompletion
    active, peak = 0, 0

    async def counting(*args: Any, **kwargs: Any) -> Any:  # counted client-side: the server's count lags
        nonlocal active, peak
        active += 1
        peak = max(peak, active)
        try:
            return await real(*args, **kwargs)
        finally:
            active -= 1

    monkeypatch.setattr(litellm, "acompletion", counting)
    with FakeOpenAIServer(lambda r: Fault("timeout", delay=0.15, text="ok")) as server:
        client = client_for(server, None, concurrency=3)
        results = asyncio.run(gather(client, [f"q{i}" for i in range(9)]))
    assert [r.text for r in results] == ["ok"] * 9
    assert peak == 3
    assert 3 <= server.max_in_flight <= 4


def test_retry_after_is_honoured() -> None:
    script: Iterator[str | Fault] = iter([Fault("429", retry_after=0.3), "fine"])
    with FakeOpenAIServer(lambda r: next(script)) as server:
        client = LLMClient(client_for(server, None).settings, jitter=lambda delay: 0.0)  # only Retry-After waits
        assert client.complete(ask("q1"), stage="gen").text == "fine"
    first, second = server.chat_requests()
    assert second.received_at - first.received_at >= 0.3


@pytest.mark.parametrize(
    ("fault", "error", "requests"),
    [
        (Fault("500"), LLMCallError, 3),
        (Fault("429", retry_after=0.01), LLMRateLimited, 3),
        (Fault("timeout", delay=0.6), LLMTimeout, 3),
        (Fault("401"), LLMAuthFailed, 1),  # not worth retrying
    ],
)
def test_retries_are_bounded(fault: Fault, error: type[LLMError], requests: int) -> None:
    with FakeOpenAIServer(lambda r: fault) as server:
        client = client_for(server, None, max_retries=2, timeout=0.3 if fault.kind == "timeout" else 10.0)
        with pytest.raises(error):
            client.complete(ask("q1"), stage="gen")
    assert len(server.chat_requests()) == requests
    assert client.usage()["gen"] == StageCost(requests=requests, retries=requests - 1, failed_calls=1)


def test_connection_refused_maps_to_connection_failed() -> None:
    with FakeOpenAIServer() as server:
        url = server.url
    client = LLMClient(LLMSettings(model="openai/t", api_base=url, api_key_env=KEY_ENV, cache_dir=None,
                                   max_retries=1, backoff_base=0.01))  # fmt: skip
    with pytest.raises(LLMConnectionFailed):
        client.complete(ask("q1"), stage="gen")


def test_backoff_and_token_bucket() -> None:
    exact = lambda delay: delay  # noqa: E731
    assert [backoff_delay(a, 0.5, 3.0, jitter=exact) for a in range(5)] == [0.5, 1.0, 2.0, 3.0, 3.0]
    assert backoff_delay(0, 0.5, 3.0, retry_after=2.5, jitter=exact) == 2.5
    assert backoff_delay(0, 0.5, 3.0, retry_after=10_000, jitter=exact) == MAX_RETRY_AFTER
    assert 0.25 <= backoff_delay(0, 0.5, 3.0) <= 0.5  # default jitter: [d/2, d]

    async def drain() -> float:
        bucket = TokenBucket(600)  # 10 per second, holds 3 s worth
        assert bucket.capacity == 30
        await bucket.acquire(1000)  # more than the capacity passes alone
        start = time.monotonic()
        await bucket.acquire(2)
        return time.monotonic() - start

    assert 0.15 <= asyncio.run(drain()) < 1.0


def test_rpm_cap_spaces_requests() -> None:
    with FakeOpenAIServer(lambda r: "ok") as server:
        client = client_for(server, None, rpm=240)  # 4 per second, a burst of 12
        import_litellm()
        start = time.monotonic()
        asyncio.run(gather(client, [f"q{i}" for i in range(16)]))
        elapsed = time.monotonic() - start
    assert len(server.chat_requests()) == 16
    assert 0.95 <= elapsed < 3.0  # the 4 beyond the burst of 12 wait for 1 s of refill


def test_local_server_without_any_key_gets_a_placeholder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with FakeOpenAIServer(lambda r: "ok") as server:
        client = client_for(server, None, api_key_env=None)
        assert client.complete(ask("q1"), stage="gen").text == "ok"
    assert server.chat_requests()[0].headers["authorization"] == "Bearer no-key"


def test_both_implementations_satisfy_the_protocol() -> None:
    implementations: list[LLM] = [LLMClient(LLMSettings(model="openai/m", cache_dir=None)), FakeLLM()]
    assert [llm.model for llm in implementations] == ["openai/m", "fake/model"]


def test_retry_after_headers_are_read() -> None:
    response = httpx.Response(429, headers={"Retry-After": "1.5"}, request=httpx.Request("POST", "http://x"))
    assert retry_after(openai.RateLimitError("slow down", response=response, body=None)) == 1.5
    response = httpx.Response(503, headers={"retry-after-ms": "250"}, request=httpx.Request("POST", "http://x"))
    assert retry_after(openai.InternalServerError("busy", response=response, body=None)) == 0.25
    assert retry_after(ValueError("no headers")) is None


# -- cache and resumption -------------------------------------------------------------------------------------


def test_second_identical_run_is_free(tmp_path: Path) -> None:
    prompts = [f"q{i}" for i in range(10)]
    with FakeOpenAIServer(lambda r: f'{{"question": "{tag(r)}?", "answer": "yes"}}') as server:
        first = client_for(server, tmp_path, input_price_per_mtok=2.0, output_price_per_mtok=8.0)
        one = asyncio.run(gather(first, prompts, response_model=Draft))
        sent = len(server.chat_requests())
        second = client_for(server, tmp_path, input_price_per_mtok=2.0, output_price_per_mtok=8.0)
        two = asyncio.run(gather(second, prompts, response_model=Draft))
        assert len(server.chat_requests()) == sent == 10
    assert [c.parsed for c in two] == [c.parsed for c in one]
    assert all(c.cached and c.cost == 0.0 for c in two)
    assert first.usage()["gen"].cost == pytest.approx(sum(c.cost for c in one))
    assert first.spent > 0
    assert second.usage()["gen"] == StageCost(calls=10, cached_calls=10)
    assert len(first.cache) == 10  # type: ignore[arg-type]
    assert not list(tmp_path.rglob(".tmp-*"))


def test_killed_half_way_resumes_only_unfinished_calls(tmp_path: Path) -> None:
    prompts = [f"q{i}" for i in range(20)]

    def first_run(request: RecordedRequest) -> str | Fault:
        return Fault("hang") if int(tag(request)[1:]) >= 10 else f"answer {tag(request)}"

    async def run_and_kill(client: LLMClient, server: FakeOpenAIServer) -> None:
        task = asyncio.ensure_future(gather(client, prompts))
        # killed when 10 calls are finished and the other 10 are waiting at the server
        while len(client.cache) < 10 or len(server.chat_requests()) < 20:  # type: ignore[arg-type]
            await asyncio.sleep(0.02)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    with FakeOpenAIServer(first_run) as server:  # the same server (api_base is part of the cache key)
        client = client_for(server, tmp_path, concurrency=20, timeout=30)
        asyncio.run(run_and_kill(client, server))
        assert client.usage()["gen"].calls == 10
        before = len(server.chat_requests())
        server.responder = lambda r: f"answer {tag(r)}"
        restarted = client_for(server, tmp_path, concurrency=20)
        results = asyncio.run(gather(restarted, prompts))
        resent = server.chat_requests()[before:]
    assert before == 20
    assert sorted(tag(r) for r in resent) == sorted(f"q{i}" for i in range(10, 20))
    assert [r.text for r in results] == [f"answer q{i}" for i in range(20)]
    assert [r.cached for r in results] == [True] * 10 + [False] * 10


# -- secrets ---------------------------------------------------------------------------------------------------


def test_api_key_never_leaves_the_request(tmp_path: Path, caplog, capsys) -> None:
    import_litellm()
    caplog.set_level(logging.DEBUG)
    for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "testgen.llm", "openai", "httpx"):
        caplog.set_level(logging.DEBUG, logger=name)
    script: Iterator[str | Fault] = iter(
        [Fault("429", retry_after=0.01), '{"question": "Q", "answer": "A"}', Fault("401")]
    )
    with FakeOpenAIServer(lambda r: next(script)) as server:
        client = client_for(server, tmp_path)
        done = client.complete(ask("q1"), stage="gen", response_model=Draft)
        with pytest.raises(LLMAuthFailed) as failed:
            client.complete(ask("q2"), stage="gen")
    assert {r.headers["authorization"] for r in server.chat_requests()} == {f"Bearer {KEY}"}
    out, err = capsys.readouterr()
    texts = {
        "logs": caplog.text,
        "stdout": out,
        "stderr": err,
        "usage": repr(client.usage()),
        "settings": client.settings.model_dump_json(),
        "completion": repr(done),
        "error": f"{failed.value} {failed.value!r}",
        **{str(p): p.read_text() for p in tmp_path.rglob("*.json")},
    }
    assert len(texts) >= 8 and "retrying" in caplog.text  # the retry and failure were logged
    assert {name for name, text in texts.items() if KEY in text} == set()
    assert map_error(ValueError(f"bad key {KEY}"), KEY).error.args[0] == "ValueError: bad key ***"


# -- cost -----------------------------------------------------------------------------------------------------


def test_max_cost_stops_before_the_cap(tmp_path: Path) -> None:
    # $1 per token; each call is estimated at (prompt bytes + 16)//3 + 1 tokens + max_tokens=10, i.e. $17 for
    # "qN", and really costs $2 (1 prompt word + 1 reply word at the fake server).
    prices = {"input_price_per_mtok": 1e6, "output_price_per_mtok": 1e6, "max_tokens": 10, "max_cost": 25.0}
    with FakeOpenAIServer(lambda r: "ok") as server:
        client = client_for(server, tmp_path, **prices)
        done = 0
        with pytest.raises(LLMBudgetExceeded, match="cost cap"):
            for i in range(10):
                client.complete([{"role": "user", "content": f"q{i}"}], stage="gen")
                done += 1
        assert (done, len(server.chat_requests()), client.spent) == (5, 5, 10.0)  # 10 + 17 > 25 stops call 6

        concurrent = client_for(server, None, **prices)
        prompts = [[{"role": "user", "content": f"c{i}"}] for i in range(8)]
        outcomes = asyncio.run(_gather_outcomes(concurrent, prompts))
    ok = [o for o in outcomes if not isinstance(o, BaseException)]
    assert all(isinstance(o, LLMBudgetExceeded) for o in outcomes if isinstance(o, BaseException))
    assert len(server.chat_requests()) == 5 + len(ok) and concurrent.spent <= 25.0  # in-flight calls reserve
    assert len(ok) == 1


async def _gather_outcomes(client: LLMClient, prompts: list[list[dict[str, str]]]) -> list[Any]:
    return await asyncio.gather(*(client.acomplete(p, stage="gen") for p in prompts), return_exceptions=True)


def test_estimate_cost(tmp_path: Path) -> None:
    known = LLMClient(LLMSettings(model="openai/gpt-4.1-mini", cache_dir=None))
    assert known.estimate_cost(100, 1000, 200) == pytest.approx(100 * (1000 * 0.4 + 200 * 1.6) / 1e6)
    local = LLMClient(LLMSettings(model="openai/my-local-llama", api_base="http://127.0.0.1:1/v1", cache_dir=None))
    assert local.estimate_cost(100, 1000, 200) == 0.0
    priced = LLMClient(LLMSettings(model="ollama/llama3", cache_dir=None, input_price_per_mtok=1.0,
                                   output_price_per_mtok=3.0))  # fmt: skip
    assert priced.estimate_cost(10, 1000, 100) == pytest.approx(10 * (1000 * 1.0 + 100 * 3.0) / 1e6)


# -- the boundary ---------------------------------------------------------------------------------------------


def _instantiate(cls: type[BaseException]) -> BaseException:
    request = httpx.Request("POST", "http://127.0.0.1/v1/chat/completions")
    response = httpx.Response(500, request=request)
    values = {"message": "boom", "model": "openai/test-model", "llm_provider": "openai", "response": response,
              "request": request, "body": None, "raw_response": "{}", "schema": "{}", "current_cost": 2.0,
              "max_budget": 1.0, "original_exception": ValueError("x"), "custom_llm_provider": "openai",
              "failures": [], "completion": SimpleNamespace(usage=None), "unsent_messages": []}  # fmt: skip
    kwargs = {}
    for name, param in inspect.signature(cls.__init__).parameters.items():
        if name == "self" or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        if param.default is param.empty:
            kwargs[name] = values.get(name, "boom")
    return cls(**kwargs)


def _boundary_exceptions() -> list[BaseException]:
    from litellm import exceptions as le

    classes = [c for c in list(vars(le).values()) if inspect.isclass(c) and issubclass(c, Exception)]
    # a snapshot: a lazily loaded attribute of the module may appear while the loop reads it
    classes += [c for c in list(vars(openai).values()) if inspect.isclass(c) and issubclass(c, openai.OpenAIError)]
    found = [_instantiate(c) for c in dict.fromkeys(classes)]
    request = httpx.Request("POST", "http://127.0.0.1/v1")
    found += [
        httpx.ReadTimeout("slow", request=request),
        httpx.ConnectError("refused", request=request),
        httpx.RemoteProtocolError("closed", request=request),
        httpx.HTTPStatusError("bad", request=request, response=httpx.Response(502, request=request)),
        TimeoutError(),
        ConnectionResetError(),
        RuntimeError("anything else"),
    ]
    return found


def test_every_litellm_exception_maps_into_the_tree() -> None:
    import_litellm()
    from litellm import exceptions as le

    found = _boundary_exceptions()
    assert len(found) > 40
    for exc in found:
        assert isinstance(map_error(exc).error, LLMError), type(exc)
    expect = {
        le.Timeout: (LLMTimeout, True),
        le.RateLimitError: (LLMRateLimited, True),
        le.AuthenticationError: (LLMAuthFailed, False),
        le.PermissionDeniedError: (LLMAuthFailed, False),
        le.NotFoundError: (LLMConfigError, False),
        le.ModelNotMappedError: (LLMConfigError, False),
        le.APIConnectionError: (LLMConnectionFailed, True),
        le.InternalServerError: (LLMCallError, True),
        le.ServiceUnavailableError: (LLMCallError, True),
        le.BadRequestError: (LLMCallError, False),
        le.ContextWindowExceededError: (LLMCallError, False),
        le.ContentPolicyViolationError: (LLMCallError, False),
        le.JSONSchemaValidationError: (LLMBadResponse, False),
        le.BudgetExceededError: (LLMBudgetExceeded, False),
    }
    for cls, (error, retryable) in expect.items():
        mapped = map_error(_instantiate(cls))
        assert type(mapped.error) is error and mapped.retryable is retryable, cls


def test_nothing_unmapped_escapes_acomplete(monkeypatch: pytest.MonkeyPatch) -> None:
    litellm = import_litellm()
    client = LLMClient(LLMSettings(model="openai/test-model", api_key_env=KEY_ENV, cache_dir=None, max_retries=0))
    for exc in _boundary_exceptions():

        async def raising(*args: Any, _exc: BaseException = exc, **kwargs: Any) -> Any:
            raise _exc

        monkeypatch.setattr(litellm, "acompletion", raising)
        with pytest.raises(LLMError) as info:
            client.complete(ask("q"), stage="gen")
        assert type(info.value) is type(map_error(exc).error)


def test_complete_refuses_a_running_loop() -> None:
    client = LLMClient(LLMSettings(model="openai/test-model", cache_dir=None))

    async def inside() -> None:
        client.complete(ask("q"), stage="gen")

    with pytest.raises(RuntimeError, match="await acomplete"):
        asyncio.run(inside())


def test_a_missing_api_key_is_a_config_error_without_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    # litellm raises this before any request (no network needed), as a retryable-looking 500 for OpenAI.
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    client = LLMClient(LLMSettings(model="openai/gpt-4.1-mini", cache_dir=None, max_retries=3))
    started = time.monotonic()
    with pytest.raises(LLMConfigError, match="OPENAI_API_KEY") as info:
        client.complete(ask("q"), stage="gen")
    assert "--api-base" in str(info.value)
    assert time.monotonic() - started < 5  # no backoff between retries that cannot help
    for message in (
        "litellm.AuthenticationError: Missing Anthropic API Key - no key is set either in the environment",
        "litellm.APIConnectionError: Missing Gemini API key. Set the GEMINI_API_KEY environment variable.",
    ):
        mapped = map_error(RuntimeError(message))
        assert isinstance(mapped.error, LLMConfigError) and not mapped.retryable
    assert not isinstance(map_error(RuntimeError("the key is fine, the server is down")).error, LLMConfigError)


def test_samples_are_separate_requests_and_cache_entries(tmp_path: Path) -> None:
    draws = iter(range(100))
    with FakeOpenAIServer(lambda r: f"draw {next(draws)}") as server:
        settings = LLMSettings(model="openai/test-model", api_base=server.url, cache_dir=tmp_path / "c")
        client = LLMClient(settings)
        texts = [client.complete(ask("q"), stage="gen", temperature=0.3, sample=i).text for i in range(3)]
        again = [client.complete(ask("q"), stage="gen", temperature=0.3, sample=i).text for i in range(3)]
        plain = client.complete(ask("q"), stage="gen", temperature=0.3).text  # sample 0's entry
        assert len(server.chat_requests()) == 3
    assert texts == ["draw 0", "draw 1", "draw 2"] and again == texts and plain == "draw 0"
    fake = FakeLLM(lambda messages: "x")
    fake.complete(ask("q"), stage="gen", sample=2)
    assert fake.history[0].sample == 2
