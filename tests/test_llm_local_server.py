"""Against a real server: llama.cpp's OpenAI-compatible server (``llama-cpp-python[server]``) running a tiny
GGUF model from a PyPI package, started on 127.0.0.1 by the test (`local_llm_server`). It proves the wire
format, the structured-output negotiation, the cache and the failure path with a real server's replies — not
the quality of a 135M–270M model, which is expected to fail the task.

Runs when ``llama-cpp-python[server]`` and a model package are installed (``pip install -e ".[local-llm]"``),
skipped with the reason otherwise. A few minutes on two cores: the model answers one request at a time.
"""

from __future__ import annotations

import importlib.util
import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from local_llm_server import LocalLLMServer, ServerUnavailable, find_model
from pydantic import BaseModel

from testgen.cli import main
from testgen.llm import LLMBadResponse, LLMClient, LLMSettings

EXAMPLES = Path(__file__).parents[1] / "examples"

if importlib.util.find_spec("llama_cpp") is None:
    pytest.skip(
        "llama-cpp-python is not installed: pip install -e '.[local-llm]' runs these tests against a local server",
        allow_module_level=True,
    )


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("local-llm")
    try:
        find_model(folder)
    except ServerUnavailable as exc:
        pytest.skip(f"no local model: {exc}")
    running = LocalLLMServer.start(folder)  # installed but not starting is a failure, not a skip
    yield running
    running.stop()


class Colour(BaseModel):
    answer: str


def test_structured_output_is_negotiated_and_a_rerun_is_served_from_the_cache(server, tmp_path: Path) -> None:
    settings = LLMSettings(
        model="openai/local",
        api_base=server.url,
        cache_dir=tmp_path / "cache",
        timeout=300,
        max_retries=0,
        retry_failed=False,
        max_tokens=48,
    )
    messages = [{"role": "user", "content": "What colour is a clear daytime sky? Answer with one word."}]

    def ask(client: LLMClient) -> str:
        try:
            done = client.complete(messages, stage="probe", response_model=Colour)
        except LLMBadResponse as exc:  # the server answered; the tiny model did not fill the schema in
            return f"unusable: {exc}"
        assert isinstance(done.parsed, Colour)
        return f"parsed: {done.parsed.answer}"

    first = LLMClient(settings)
    outcome = ask(first)
    usage = first.usage()["probe"]
    print(f"{server.model_name}: {outcome} ({usage.requests} requests, mode {first.structured_mode})")
    assert usage.requests >= 1
    info = first.run_info()
    # llama-cpp-python's server takes {"type": "json_object"} (and a grammar) but not the json_schema type
    assert first.structured_mode in ("json_schema", "json_object")
    for mode, reason in info["structured_output_rejected"].items():
        assert mode == "json_schema" and reason.startswith("HTTP ")
    again = LLMClient(settings)  # a new run: the turned-down mode is remembered, every reply is in the cache
    assert ask(again) == outcome
    assert again.usage()["probe"].requests == 0
    assert again.structured_mode == first.structured_mode


def test_a_build_with_the_tiny_model_ends_in_bounded_time_and_falls_back_offline(
    server, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out = tmp_path / "t.jsonl"
    args = ["build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(out), "-n", "4", "--no-hf", "-q"]
    args += ["--llm", "openai/local", "--api-base", server.url, "--seeds", "passages", "--round-trip", "off"]
    # the prompt alone asks for JSON: a grammar makes this model write ~2 tokens a second on two cores
    args += ["--structured", "prompt", "--llm-retries", "0", "--llm-timeout", "240", "--concurrency", "1"]
    started = time.monotonic()
    result = CliRunner().invoke(main, [*args, "--fallback", "offline"], catch_exceptions=False)
    seconds = time.monotonic() - started
    assert result.exit_code == 0, result.output
    items = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    summary = json.loads((tmp_path / "t.summary.json").read_text(encoding="utf-8"))
    llm = summary["llm"]
    watch = llm["watch"]
    print(
        f"{server.model_name}: {seconds:.0f} s, {llm['requests']} requests, {watch['usable']} of {watch['replies']}"
        f" replies usable, {llm['fallback']['items']} offline items; stopped: {llm['stopped']}"
    )
    assert len(items) == 4
    fallback = [i for i in items if i["metadata"].get("fallback") == "offline"]
    assert len(fallback) == llm["fallback"]["items"] == 4 - llm["delivered"]
    assert seconds < 900
    if llm["stopped"]:  # the usual outcome: the run says why, shows a reply and names the fix
        assert "was usable" in llm["stopped"] and "likely fix:" in llm["stopped"]
        assert "generation stopped early: stopped: none of the first" in " ".join(result.stderr.split())
    assert watch["replies"] <= 6 or watch["usable"] > 0
