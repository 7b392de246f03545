"""Structural faults of issue 15: a cost cap on an unpriced model, own bugs hidden as "unscored", clamped scores
without a note, a damaged LLM cache entry passed over in silence."""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fake_openai_server import FakeOpenAIServer, RecordedRequest
from test_llm_synth import good_reply
from test_ragas_metrics import SAMPLES, respond

from evaluators.cli import main as evaluate_main
from evaluators.ragas_metrics import ItemScore, score_ragas
from schemas import StageCost
from testgen.cli import main as build_cli
from testgen.llm import Completion, FakeLLM

EXAMPLES = Path(__file__).parents[1] / "examples"
DEAD_SERVER = "http://127.0.0.1:9/v1"  # nothing listens: a call would fail, so a refusal must come first


def _rewrite(request: RecordedRequest) -> str:
    return good_reply(request.body["messages"][:2])


def _build(tmp_path: Path, *args: str) -> tuple[int, str, Path]:
    out = tmp_path / "t.jsonl"
    base = ["build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(out), "-n", "2", "--no-hf", "-q"]
    result = CliRunner().invoke(build_cli, [*base, "--round-trip", "off", *args], catch_exceptions=False)
    return result.exit_code, result.output, out


# --- 2. --max-cost and a model with no known price ---------------------------------------------------------------


def test_build_refuses_max_cost_for_a_model_without_a_price(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, output, out = _build(tmp_path, "--llm", "openai/my-local-llama", "--api-base", DEAD_SERVER, "--max-cost", "1")
    assert code == 2
    assert output.splitlines() == [
        "error: --max-cost 1 cannot limit openai/my-local-llama: the model has no known price, so its calls are "
        "counted at $0; give its price with --price-per-1k IN,OUT (USD per 1k prompt, completion tokens)"
    ]
    assert not out.exists()


def test_a_price_given_with_price_per_1k_is_charged_and_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with FakeOpenAIServer(_rewrite) as server:
        llm = ["--llm", "openai/test-model", "--api-base", server.url, "--max-cost", "1"]
        # prompt 0.5, completion 2 USD per 1k: one call's estimate (1024 completion tokens alone ≈ $2) passes the cap
        code, output, out = _build(tmp_path, *llm, "--price-per-1k", "0.5,2")
        assert server.chat_requests() == []  # stopped before the first call
        assert code == 3 and "the LLM cost cap (--max-cost) was reached" in " ".join(output.split())
        assert not out.exists()
        code, output, _ = _build(tmp_path, *llm, "--price-per-1k", "0.001")
    assert code == 0, output
    info = json.loads((tmp_path / "t.summary.json").read_text(encoding="utf-8"))["llm"]
    usage = info["usage"]["generation"]
    assert info["client"]["priced"] is True and usage["calls"] >= 2
    assert usage["cost"] == pytest.approx((usage["prompt_tokens"] + usage["completion_tokens"]) * 0.001 / 1000)
    assert info["cost"] == f"${usage['cost']:.4f}"


@pytest.mark.parametrize("value", ["abc", "1,2,3", "-1", "0.1,", "nan"])
def test_a_price_per_1k_that_cannot_be_read_is_one_line(tmp_path: Path, value: str) -> None:
    code, output, _ = _build(tmp_path, "--price-per-1k", value)
    assert code == 2
    assert "Invalid value for '--price-per-1k'" in output and "prompt,completion (e.g. 0.15,0.6)" in output


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("structural") / "tests.jsonl"
    result = CliRunner().invoke(
        build_cli, ["build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(out), "-n", "3", "-q", "--no-hf"]
    )
    assert result.exit_code == 0, result.output
    return out


def test_evaluate_refuses_max_cost_for_an_unpriced_judge(dataset: Path, tmp_path: Path) -> None:
    args = ["--dataset", str(dataset), "--kb", str(EXAMPLES / "aurora_bikes"), "--type", "full_rag", "--no-store"]
    args += ["-o", str(tmp_path / "report"), "--judge-llm", "openai/my-judge", "--judge-api-base", DEAD_SERVER]
    result = CliRunner().invoke(evaluate_main, [*args, "--max-cost", "0.5"], catch_exceptions=False)
    assert result.exit_code == 2
    assert result.output.splitlines() == [
        "error: --max-cost 0.5 cannot limit openai/my-judge: the model has no known price, so its calls are "
        "counted at $0; give its price with --price-per-1k IN,OUT (USD per 1k prompt, completion tokens)"
    ]
    assert not (tmp_path / "report").exists()
    # with a price the plan is priced (a dry run: no call is made)
    priced = CliRunner().invoke(
        evaluate_main, [*args, "--max-cost", "0.5", "--price-per-1k", "1", "--dry-run"], catch_exceptions=False
    )
    assert priced.exit_code == 0, priced.output
    assert "≈ $" in priced.output and "cost unknown" not in priced.output


# --- 3. RAGAS scoring: our own bugs raise, provider failures are reasons, no global logger level ------------------


class RawlessLLM:
    """Replies whose `raw` is None: the adapter's ``done.raw.get(...)`` is then an AttributeError of our code."""

    model = "stub/rawless"

    async def acomplete(self, messages: Sequence[dict[str, str]], **_: Any) -> Completion:
        done = Completion(text=respond(messages[-1]["content"]))
        done.raw = None  # type: ignore[assignment]
        return done

    def usage(self) -> dict[str, StageCost]:
        return {}


def test_a_bug_in_our_adapter_is_raised_not_unscored() -> None:
    with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'get'"):
        score_ragas(SAMPLES[:1], ["context_recall"], llm=RawlessLLM())


def test_a_type_error_inside_ragas_alone_stays_an_unscored_reason(monkeypatch: pytest.MonkeyPatch) -> None:
    from ragas.metrics._context_recall import LLMContextRecall

    async def fails_in_ragas(self: Any, sample: Any, callbacks: Any) -> float:
        raise TypeError("unsupported operand in RAGAS")

    monkeypatch.setattr(LLMContextRecall, "_single_turn_ascore", fails_in_ragas)
    llm = FakeLLM(lambda messages: respond(messages[-1]["content"]))
    item = score_ragas(SAMPLES[:1], ["context_recall"], llm=llm)["ragas_context_recall"][0]
    assert item == ItemScore(None, "TypeError: unsupported operand in RAGAS")


def test_scoring_holds_back_its_own_ragas_logs_without_touching_the_logger_level(
    caplog: pytest.LogCaptureFixture,
) -> None:
    levels: list[int] = []

    def not_json(messages: list[dict[str, str]]) -> str:
        levels.append(logging.getLogger("ragas").getEffectiveLevel())
        # another run, on another thread, logs through RAGAS meanwhile: its record must come through
        other = threading.Thread(
            target=lambda: logging.getLogger("ragas.prompt.pydantic_prompt").error("another run's error")
        )
        other.start()
        other.join()
        return "not json at all"

    with caplog.at_level(logging.INFO):
        item = score_ragas(SAMPLES[:1], ["context_recall"], llm=FakeLLM(not_json))["ragas_context_recall"][0]
    assert item.value is None and item.reason is not None and item.reason.startswith("RagasOutputParserException")
    assert levels == [logging.INFO] * 4  # the prompt and three re-asks, the level as the application set it
    ragas_records = [r.getMessage() for r in caplog.records if r.name.startswith("ragas")]
    assert ragas_records == ["another run's error"] * 4  # this run's parse errors held back, not the other's


# --- 4. a judge or RAGAS score out of range is clamped, with a note on the result ---------------------------------


OUT_OF_RANGE_JUDGE = json.dumps(
    {
        "accuracy": 7,
        "accuracy_reason": "right",
        "completeness": 4,
        "completeness_reason": "most of it",
        "relevance": 0,
        "relevance_reason": "off",
        "faithfulness": 1.4,
        "faithfulness_reason": "supported",
        "answer_relevancy": 0.8,
        "answer_relevancy_reason": "direct",
    }
)


def test_clamped_judge_and_ragas_scores_carry_a_note(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from ragas.metrics._context_recall import LLMContextRecall

    from evaluators.runner import RunConfig, run_evaluation
    from schemas import QuestionResult, TestQuestion

    kb = tmp_path / "kb"
    kb.mkdir()
    (kb / "pricing.md").write_text("# Pricing\n\nThe Trail 500 costs 1,299 euros.\n", encoding="utf-8")
    (kb / "stores.md").write_text("# Stores\n\nThe Berlin store opened in 2019.\n", encoding="utf-8")
    questions = [
        TestQuestion(question="How much does the Trail 500 cost?", keywords=["1,299 euros"], category="direct_fact",
                     reference_answer="The Trail 500 costs 1,299 euros.", source_docs=["pricing.md"]),
        TestQuestion(question="When did the Berlin store open?", keywords=["2019"], category="temporal",
                     reference_answer="The Berlin store opened in 2019.", source_docs=["stores.md"]),
    ]  # fmt: skip

    async def scored(self: Any, sample: Any, callbacks: Any) -> float:
        return 1.25 if "Trail" in sample.user_input else 0.5

    monkeypatch.setattr(LLMContextRecall, "_single_turn_ascore", scored)

    def reply(messages: list[dict[str, str]]) -> str:
        judging = "accuracy" in " ".join(m["content"] for m in messages).lower()
        return OUT_OF_RANGE_JUDGE if judging else "It costs 1,299 euros."

    config = RunConfig(kb=str(kb), k=2, evaluation_type="full_rag", llm="fake/model", ragas_metrics="context_recall")
    first, second = run_evaluation(questions, config, dataset="t", llm=FakeLLM(reply)).results
    assert first.metrics["judge_accuracy"] == 5.0 and first.metrics["judge_relevance"] == 1.0
    assert first.metrics["judge_faithfulness"] == 1.0 and first.metrics["ragas_context_recall"] == 1.0
    assert first.notes == {
        "judge_accuracy": "clamped: the judge gave 7 on 1–5",
        "judge_relevance": "clamped: the judge gave 0 on 1–5",
        "judge_faithfulness": "clamped: the judge gave 1.4 on 0–1",
        "ragas_context_recall": "clamped: RAGAS gave 1.25 on 0–1",
    }
    assert first.judge is not None and first.judge.notes["accuracy"] == "clamped: the judge gave 7 on 1–5"
    assert second.metrics["ragas_context_recall"] == 0.5 and "ragas_context_recall" not in second.notes
    assert QuestionResult.model_validate_json(first.model_dump_json()).notes == first.notes  # survives a round trip


# --- 5. a damaged LLM cache entry: a miss with a warning naming the file, replaced by the next reply --------------


@pytest.mark.parametrize("damage", ['{"format": 1, "reply": {"te', '{"format": 1, "reply": {"words": "x"}}', "[1, 2]"])
def test_a_damaged_cache_entry_is_logged_and_replaced(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: str
) -> None:
    from testgen.llm.client import LLMClient, LLMSettings

    messages = [{"role": "user", "content": "What is the Trail 500's price?"}]
    replies = iter(["first reply", "second reply", "third reply"])
    with FakeOpenAIServer(lambda request: next(replies)) as server:
        settings = LLMSettings(model="openai/test-model", api_base=server.url, cache_dir=tmp_path / "cache")
        assert LLMClient(settings).complete(messages, stage="gen").text == "first reply"
        (entry,) = (tmp_path / "cache").glob("??/*.json")
        entry.write_text(damage, encoding="utf-8")
        with caplog.at_level(logging.WARNING, logger="testgen.llm"):
            assert LLMClient(settings).complete(messages, stage="gen").text == "second reply"  # a miss: asked again
        assert LLMClient(settings).complete(messages, stage="gen").text == "second reply"  # the entry was replaced
        assert len(server.chat_requests()) == 2
    warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "\n" not in warnings[0]
    assert warnings[0].startswith(f"damaged LLM cache entry {entry} (")
    assert warnings[0].endswith("); treated as a miss, the next reply replaces it")
    assert json.loads(entry.read_text(encoding="utf-8"))["reply"]["text"] == "second reply"


def test_an_absent_cache_entry_is_a_quiet_miss(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    from testgen.llm.cache import DiskCache

    with caplog.at_level(logging.DEBUG, logger="testgen.llm"):
        assert DiskCache(tmp_path).entry("ab" + "0" * 62) is None
    assert caplog.records == []
