"""The ``langchain:`` target and ``--llm langchain:`` model, with real LangChain objects (in-memory vector store over
the example KB, deterministic embedding, langchain_core's fake chat models); no network."""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from pathlib import Path
from typing import Any

import langchain_kb
import pytest
from click.testing import CliRunner, Result
from fastapi.testclient import TestClient
from langchain_core.callbacks import AsyncCallbackManagerForRetrieverRun, CallbackManagerForRetrieverRun
from langchain_core.documents import Document
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.retrievers import BaseRetriever
from langchain_core.runnables import RunnableLambda
from pydantic import BaseModel

from evaluators.cli import main as evaluate_main
from evaluators.errors import OptionError, TargetError
from evaluators.runner import RunConfig
from evaluators.store import RunStore
from evaluators.targets import LangChainTarget, make_target
from evaluators.targets.doc_ids import DocIdError, DocIdMapping, check_doc_ids
from evaluators.targets.framework import PROBE_QUESTIONS
from schemas import RetrievedContext, RunRecord, TestQuestion
from testgen.export import read_jsonl
from testgen.llm import CostLedger, LLMBudgetExceeded, LLMCallError, LLMConfigError, LLMTimeout
from testgen.llm.langchain_model import LangChainLLM

KB = langchain_kb.KB
DATASET = Path(__file__).parent / "fixtures" / "aurora_tests.jsonl"
RANK_METRICS = ("MRR@10", "nDCG@10", "P@10", "R@10", "Hit@10", "MAP@10", "CtxPrecision@10")


def _evaluate(tmp_path: Path, name: str, *args: str) -> Result:
    out = tmp_path / name
    return CliRunner().invoke(
        evaluate_main,
        ["--dataset", str(DATASET), "--kb", str(KB), "-o", str(out), "--no-plots", "--no-store", "-q", *args],
        catch_exceptions=False,
    )


def _report(tmp_path: Path, name: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    folder = tmp_path / name
    summary = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    results = [json.loads(line) for line in (folder / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    return summary, results


def q(text: str, source_docs: list[str] | None = None, **extra: Any) -> TestQuestion:
    return TestQuestion(
        question=text,
        keywords=["x"],
        reference_answer="x.",
        category="direct_fact",
        source_docs=source_docs if source_docs is not None else ["a.md"],
        **extra,
    )


# -- the acceptance checks, through the real CLI ----------------------------------------------------------


def test_cli_langchain_retriever_scores_as_the_callable_glue(tmp_path: Path) -> None:
    glued = _evaluate(tmp_path, "glue", "--target", "callable:langchain_kb:glue")
    assert glued.exit_code == 0, glued.output
    direct = _evaluate(
        tmp_path, "langchain", "--target", "langchain:langchain_kb:absolute_retriever", "--doc-id-root", str(KB)
    )
    assert direct.exit_code == 0, direct.output
    glue_summary, glue_results = _report(tmp_path, "glue")
    lc_summary, lc_results = _report(tmp_path, "langchain")
    for metric in RANK_METRICS:
        assert lc_summary["overall"][metric] == glue_summary["overall"][metric], metric
    assert lc_summary["by_category"] == glue_summary["by_category"]
    assert [r["retrieved_docs"] for r in lc_results] == [r["retrieved_docs"] for r in glue_results]
    # a real retrieval, not two runs of zeros: the word-overlap store finds most sources
    assert lc_summary["overall"]["Hit@10"]["mean"] > 0.8 and lc_summary["overall"]["MRR@10"]["mean"] > 0.4
    assert lc_summary["target"]["target"] == "langchain" and lc_summary["target"]["kind"] == "retriever"


def test_cli_guard_stops_a_run_whose_ids_are_absolute_paths(tmp_path: Path) -> None:
    result = _evaluate(tmp_path, "guarded", "--target", "langchain:langchain_kb:absolute_retriever")
    assert result.exit_code == 2
    message = result.output.strip()
    assert message.startswith("error: ") and "\n" not in message
    retrieved_part, source_part = message.split("retrieved: ")[1].split("; the test set's source_docs: ")
    assert retrieved_part.count(f"'{KB}/") == 3  # three example ids on each side
    assert source_part.split(")")[0].count(".md'") == 3
    assert f"give --doc-id-root {KB}" in message and "--allow-unmatched" in message
    assert not (tmp_path / "guarded").exists()  # nothing written: the run stopped

    allowed = _evaluate(
        tmp_path, "allowed", "--target", "langchain:langchain_kb:absolute_retriever", "--allow-unmatched"
    )
    assert allowed.exit_code == 0, allowed.output
    summary, _results = _report(tmp_path, "allowed")
    assert summary["overall"]["Hit@10"]["mean"] == 0.0  # the silent zero the guard exists for


def test_cli_doc_id_key_picks_the_metadata_key(tmp_path: Path) -> None:
    wrong = _evaluate(tmp_path, "wrong", "--target", "langchain:langchain_kb:keyed_retriever")
    assert wrong.exit_code == 2 and "'aurora-wiki'" in wrong.output
    right = _evaluate(
        tmp_path, "right", "--target", "langchain:langchain_kb:keyed_retriever", "--doc-id-key", "file_path"
    )
    assert right.exit_code == 0, right.output
    assert _report(tmp_path, "right")[0]["overall"]["Hit@10"]["mean"] > 0.8


def test_cli_doc_id_options_need_a_framework_target(tmp_path: Path) -> None:
    result = _evaluate(tmp_path, "x", "--target", "callable:langchain_kb:glue", "--doc-id-root", str(KB))
    assert (
        result.exit_code == 2 and "doc_id_root (--doc-id-root) applies to langchain: and llamaindex:" in result.output
    )
    with pytest.raises(ValueError, match="allow_unmatched"):
        RunConfig(target="callable:m:f", allow_unmatched=True)


def test_cli_chain_answers_and_a_langchain_chat_model_judges(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the LLM cache goes to ./.testgen_cache
    verdict = {"accuracy": 4, "completeness": 3, "relevance": 5, "faithfulness": 0.5, "answer_relevancy": 0.75}
    (tmp_path / "judge_model.py").write_text(
        "from langchain_core.language_models.fake_chat_models import FakeListChatModel\n"
        f"chat = FakeListChatModel(responses=[{json.dumps(json.dumps(verdict))}])\n",
        encoding="utf-8",
    )
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    chain = ["--target", "langchain:langchain_kb:rag_chain", "--doc-id-root", str(KB)]
    judged = ["--type", "full_rag", "--llm", "langchain:judge_model:chat"]
    wrong_key = _evaluate(tmp_path, "wrong", *chain, "--input-key", "question", "--allow-unmatched")
    assert wrong_key.exit_code == 0, wrong_key.output
    assert _report(tmp_path, "wrong")[1][0]["error"] == "KeyError: 'input'"
    result = _evaluate(tmp_path, "rag", *chain, *judged)  # the chain's dict input: the question goes under "input"
    assert result.exit_code == 0, result.output
    summary, results = _report(tmp_path, "rag")
    assert summary["model"] == "langchain:judge_model:chat"
    assert summary["usage"]["judge"]["calls"] == summary["usage"]["judge"]["requests"] == len(results) == 20
    first = results[0]
    assert first["answer"] and first["answer"] in (KB / first["retrieved_docs"][0]).read_text(encoding="utf-8")
    assert first["metrics"]["judge_accuracy"] == 4 and first["metrics"]["judge_faithfulness"] == 0.5
    again = _evaluate(tmp_path, "again", *chain, "--input-key", "input", *judged)  # the same calls: all cached
    assert again.exit_code == 0, again.output
    cached = _report(tmp_path, "again")[0]["usage"]["judge"]
    assert (cached["cached_calls"], cached["requests"]) == (20, 0)


def test_api_refuses_langchain_objects_unless_code_is_allowed(tmp_path: Path) -> None:
    store = RunStore(f"sqlite:///{tmp_path / 'runs.db'}")
    questions = [item.model_dump(mode="json") for item in read_jsonl(DATASET)][:3]
    try:
        with TestClient(__import__("evaluators.api", fromlist=["create_app"]).create_app(store)) as client:
            created = client.post("/evaluation/datasets", json={"name": "aurora", "questions": questions})
            assert created.status_code == 201, created.text
            runs = f"/evaluation/datasets/{created.json()['id']}/runs"
            for body in (
                {"target": "langchain:langchain_kb:absolute_retriever"},
                {"target": "llamaindex:my_index:retriever"},
                {"kb": str(KB), "evaluation_type": "full_rag", "llm": "langchain:my_models:chat"},
            ):
                refused = client.post(runs, json=body)
                assert refused.status_code == 422 and "--allow-callable-targets" in refused.json()["detail"]
            assert client.get("/evaluation/runs").json() == []
    finally:
        store.close()


# -- the target through the Python API ----------------------------------------------------------------------------


class CountingRetriever(BaseRetriever):
    """Sync retriever returning one document whose ``source`` is ``/elsewhere/<question>.md``; counts its calls."""

    calls: int = 0

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        self.calls += 1
        return [Document(page_content=query, metadata={"source": f"/elsewhere/{query}.md"})]


def test_guard_stops_after_the_probe_questions() -> None:
    retriever = CountingRetriever()
    target = LangChainTarget(retriever, concurrency=2)
    questions = [q(f"question {i}", ["a.md"]) for i in range(3 * PROBE_QUESTIONS)]
    with pytest.raises(TargetError, match=r"10 of 10 retrieved doc ids match no document"):
        target.run(questions, k=5)
    assert retriever.calls == PROBE_QUESTIONS
    allowed = LangChainTarget(CountingRetriever(), allow_unmatched=True).run(questions, k=5)
    assert [r.contexts[0].doc_id for r in allowed] == [f"/elsewhere/question {i}.md" for i in range(30)]


class SlowAsyncRetriever(BaseRetriever):
    """Async retriever: sleeps, records how many calls overlap; sync use is an error."""

    delay: float = 0.05
    active: int = 0
    peak: int = 0

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[Document]:
        raise AssertionError("the async retriever was called synchronously")

    async def _aget_relevant_documents(
        self, query: str, *, run_manager: AsyncCallbackManagerForRetrieverRun
    ) -> list[Document]:
        self.active += 1
        self.peak = max(self.peak, self.active)
        try:
            await asyncio.sleep(self.delay if query != "stuck" else 5)
        finally:
            self.active -= 1
        return [Document(page_content=query, metadata={"doc_id": "a.md"})]


def test_async_retriever_runs_concurrently_within_the_limit_and_times_out() -> None:
    retriever = SlowAsyncRetriever()
    records = LangChainTarget(retriever, concurrency=3).run([q(f"q{i}") for i in range(9)], k=3)
    assert [r.error for r in records] == [None] * 9 and [r.question for r in records] == [f"q{i}" for i in range(9)]
    assert retriever.peak == 3
    done = LangChainTarget(SlowAsyncRetriever(), timeout=0.5).run([q("fine"), q("stuck")], k=3)
    assert done[0].error is None and done[1].error == "TimeoutError: no reply within 0.5 s"


DOCS = [
    Document(page_content="first", metadata={"source": "a.md", "score": 0.9}),
    Document("second", metadata={"source": "b.md"}),
]


def retrieval_chain(inputs: dict[str, Any]) -> dict[str, Any]:
    """create_retrieval_chain's shape: a dict in (no key named by its schema: ``input`` by convention)."""
    return {"input": inputs["input"], "context": DOCS, "answer": "A1"}


def retrieval_qa(inputs):  # type: ignore[no-untyped-def]
    """RetrievalQA's shape: ``query`` in (found in the function's body), ``result`` and ``source_documents`` out."""
    return {"query": inputs["query"], "result": "A2", "source_documents": DOCS}


def test_chain_shapes_give_contexts_and_answers() -> None:
    docs = DOCS
    shapes = {
        "retrieval chain": RunnableLambda(retrieval_chain),
        "RetrievalQA": RunnableLambda(retrieval_qa),
        "message answer": RunnableLambda(lambda text: {"context": docs, "answer": AIMessage(content="A3")}),
        "scored pairs": RunnableLambda(lambda text: [(docs[0], 0.25), (docs[1], 0.5)]),
    }
    got = {name: LangChainTarget(chain).run([q("Q?")], k=5)[0] for name, chain in shapes.items()}
    assert {name: (r.answer, r.error) for name, r in got.items()} == {
        "retrieval chain": ("A1", None),
        "RetrievalQA": ("A2", None),
        "message answer": ("A3", None),
        "scored pairs": (None, None),
    }
    assert got["retrieval chain"].contexts == [
        RetrievedContext(doc_id="a.md", text="first", score=0.9),
        RetrievedContext(doc_id="b.md", text="second"),
    ]
    assert [c.score for c in got["scored pairs"].contexts] == [0.25, 0.5]


def needs_dict(inputs):  # type: ignore[no-untyped-def]
    """A dict-input step whose schema does not show it (no annotation, no key read off the argument)."""
    return dict(inputs)["question"]


def test_bad_chain_outputs_are_recorded_per_question() -> None:
    cases = {
        "text only": (RunnableLambda(lambda text: "just an answer"), "returned only an answer"),
        "no documents": (RunnableLambda(lambda text: {"answer": "a", "docs": []}), "keys: answer, docs"),
        "formatted context": (RunnableLambda(lambda text: {"context": "a.md: text"}), '"context" holds text'),
        "not documents": (RunnableLambda(lambda text: [{"doc_id": "a.md"}]), "item 0 is a dict, not a LangChain"),
        "no id key": (RunnableLambda(lambda text: [Document("t", metadata={"title": "A"})]), "(its keys: title)"),
        "raises": (RunnableLambda(lambda text: 1 / 0), "ZeroDivisionError: division by zero"),
        "dict chain given text": (
            RunnableLambda(needs_dict),
            "name the key that holds the question",
        ),
    }
    for name, (chain, expected) in cases.items():
        (record,) = LangChainTarget(chain, allow_unmatched=True).run([q("Q?")], k=3)
        assert record.error is not None and expected in record.error, (name, record.error)
        assert record.contexts == []


def test_vector_store_is_searched_with_k() -> None:
    target = LangChainTarget(langchain_kb.absolute_store, doc_id_root=KB)
    question = q("What is the battery coverage of the Aurora Ridge 700?", ["products/aurora_ridge_700.md"])
    (few,) = target.run([question], k=2)
    (many,) = target.run([question], k=7)
    assert len(few.contexts) == 2 and len(many.contexts) == 7
    assert target.kind == "vector store" and all(not c.doc_id.startswith("/") for c in many.contexts)


def test_make_target_specs_and_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))
    (tmp_path / "lc_objects_under_test.py").write_text(
        "from langchain_kb import absolute_retriever\n"
        "def build():\n    return absolute_retriever\n"
        "def needs_args(x):\n    return x\n"
        "number = 3\n",
        encoding="utf-8",
    )
    built = make_target("langchain:lc_objects_under_test:build", app_dir=tmp_path, doc_id_key="source,id")
    assert isinstance(built, LangChainTarget) and built.obj is langchain_kb.absolute_retriever
    assert built.name == "langchain:lc_objects_under_test:build" and built.mapping.keys == ("source", "id")
    for spec, options, problem in [
        ("langchain:", {}, "langchain target needs an object"),
        ("langchain:lc_objects_under_test:number", {}, "is a int: expected a LangChain retriever"),
        ("langchain:lc_objects_under_test:needs_args", {}, "a function taking no arguments"),
        ("langchain:lc_objects_under_test:missing", {}, "has no attribute 'missing'"),
        ("langchain:no_such_module_here:x", {}, "cannot import module 'no_such_module_here'"),
        ("langchain:lc_objects_under_test:build", {"retriever": "bm25"}, "option 'retriever' does not apply"),
    ]:
        with pytest.raises(TargetError, match=problem):
            make_target(spec, app_dir=tmp_path, **options)
    with pytest.raises(OptionError, match="--doc-id-key needs metadata key names"):
        make_target("langchain:lc_objects_under_test:build", app_dir=tmp_path, doc_id_key=" , ")


# -- doc-id mapping and the guard ----------------------------------------------------------------------------------


def test_doc_id_mapping(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    default = DocIdMapping()
    assert default.doc_id({"file_path": "b.md", "id": "c"}) == "b.md"
    assert default.doc_id({"source": "a.md", "file_path": "b.md"}) == "a.md"
    assert default.doc_id({"source": " "}, own_id="doc-7") == "doc-7"  # blank skipped; 'id' takes the own id
    with pytest.raises(DocIdError, match=r"none of the metadata keys source, file_path, doc_id, id \(its keys: a, b\)"):
        default.doc_id({"b": 1, "a": 2})
    kb = tmp_path / "kb"
    (kb / "sub").mkdir(parents=True)
    rooted = DocIdMapping.from_options("path", kb)
    assert rooted.doc_id({"path": str(kb / "sub" / "x.md")}) == "sub/x.md"
    assert rooted.doc_id({"path": f"file://{kb}/y.md"}) == "y.md"
    assert rooted.doc_id({"path": "/other/place/x.md"}) == "/other/place/x.md"  # not under the root: unchanged
    assert rooted.doc_id({"path": "sub/x.md"}) == "sub/x.md"  # already relative to the KB
    monkeypatch.chdir(tmp_path)
    assert DocIdMapping.from_options(None, "kb").doc_id({"source": "kb/sub/x.md"}) == "sub/x.md"  # cwd-relative


def test_check_doc_ids_counts_distinct_ids_and_names_a_fix() -> None:
    questions = [q("a", ["docs/a.md"]), q("b", ["docs/b.md"]), q("c", [])]

    def record(*ids: str, error: str | None = None) -> RunRecord:
        return RunRecord(question="x", contexts=[RetrievedContext(doc_id=i) for i in ids], error=error)

    check_doc_ids(questions, [record("docs/a.md", "zzz.md"), record("docs/a.md", "docs/b.md")])  # 1 of 3 unmatched
    check_doc_ids(questions, [record("zzz.md")], known={"zzz.md"})  # a KB file outside every source_docs
    check_doc_ids([q("a", [])], [record("anything.md")])  # nothing to compare with
    with pytest.raises(TargetError, match=r"give --doc-id-root /srv/kb$|give --doc-id-root /srv/kb,"):
        check_doc_ids(questions, [record("/srv/kb/docs/a.md", "/srv/kb/docs/b.md", "docs/a.md")])
    with pytest.raises(TargetError, match="end in the test set's file names but not its folders"):
        check_doc_ids(questions, [record("a.md", "b.md")])
    with pytest.raises(TargetError, match="2 of 3 questions failed: a retrieved document has none"):
        check_doc_ids(
            questions,
            [record(error="DocIdError: a retrieved document has none of the metadata keys source")] * 2
            + [record("docs/a.md")],
        )


# -- LangChain chat model as the LLM --------------------------------------------------------------------------------


class Verdict(BaseModel):
    score: int


class MeteredChat(BaseChatModel):
    """A chat model that reports token usage like ChatOpenAI does, and counts the calls that reach it."""

    model_name: str = "gpt-4.1-mini"
    reply: str = '{"score": 3}'
    calls: int = 0

    @property
    def _llm_type(self) -> str:
        return "metered-test"

    def _generate(
        self, messages: list[BaseMessage], stop: Any = None, run_manager: Any = None, **kw: Any
    ) -> ChatResult:
        self.calls += 1
        if self.reply == "raise":
            raise RuntimeError("provider said no")
        message = AIMessage(
            content=self.reply,
            usage_metadata={"input_tokens": 1000, "output_tokens": 100, "total_tokens": 1100},
            response_metadata={"finish_reason": "stop", "model_name": "gpt-4.1-mini-2025"},
        )
        return ChatResult(generations=[ChatGeneration(message=message)])


def test_langchain_llm_parses_repairs_and_accounts(tmp_path: Path) -> None:
    chat = FakeListChatModel(responses=["not json at all", '```json\n{"score": 4}\n```'])
    llm = LangChainLLM(chat, cache_dir=tmp_path / "cache")
    messages = [{"role": "system", "content": "Grade."}, {"role": "user", "content": "Answer: 42"}]
    done = asyncio.run(llm.acomplete(messages, stage="judge", response_model=Verdict))
    assert done.parsed == Verdict(score=4) and done.raw["repaired"] is True
    usage = llm.usage()["judge"]
    assert (usage.calls, usage.requests, usage.repairs, usage.cached_calls, usage.prompt_tokens) == (2, 2, 1, 0, 0)

    metered = MeteredChat()
    priced = LangChainLLM(metered, cache_dir=tmp_path / "cache", input_price_per_mtok=2.0, output_price_per_mtok=8.0)
    first = asyncio.run(priced.acomplete(messages, stage="answer"))
    assert (first.text, first.prompt_tokens, first.completion_tokens) == ('{"score": 3}', 1000, 100)
    assert first.cost == pytest.approx(1000 * 2e-6 + 100 * 8e-6) and first.raw["served_model"] == "gpt-4.1-mini-2025"
    again = LangChainLLM(metered, cache_dir=tmp_path / "cache")
    second = asyncio.run(again.acomplete(messages, stage="answer"))
    assert second.cached and second.text == first.text and metered.calls == 1
    assert (again.usage()["answer"].calls, again.usage()["answer"].requests) == (1, 0)
    sampled = asyncio.run(again.acomplete(messages, stage="answer", sample=1))
    assert not sampled.cached and metered.calls == 2
    assert priced.model.startswith("langchain:") and priced.model_name == "gpt-4.1-mini"
    assert LangChainLLM(MeteredChat(), cache_dir=None).prices.prompt == pytest.approx(0.4e-6)  # litellm's map


def test_langchain_llm_cap_failures_and_config_errors(tmp_path: Path) -> None:
    messages = [{"role": "user", "content": "hello " * 300}]
    ledger = CostLedger(spent=0.009)
    capped = LangChainLLM(MeteredChat(), cache_dir=None, max_cost=0.01, ledger=ledger)
    with pytest.raises(LLMBudgetExceeded, match=r"cap of \$0.0100"):
        asyncio.run(capped.acomplete(messages, stage="judge"))
    failing = LangChainLLM(MeteredChat(reply="raise"), cache_dir=None)
    with pytest.raises(LLMCallError, match="RuntimeError: provider said no"):
        asyncio.run(failing.acomplete(messages, stage="judge"))
    assert failing.usage()["judge"].failed_calls == 1

    class Hanging(MeteredChat):
        async def _agenerate(self, messages: list[BaseMessage], *args: Any, **kw: Any) -> ChatResult:
            await asyncio.sleep(5)
            raise AssertionError("not reached")

    with pytest.raises(LLMTimeout, match=r"no reply within 0\.2 s"):
        asyncio.run(LangChainLLM(Hanging(), cache_dir=None, timeout=0.2).acomplete(messages, stage="judge"))
    with pytest.raises(LLMConfigError, match="is a int, not a LangChain chat model"):
        LangChainLLM(3)
    with pytest.raises(LLMConfigError, match="cannot import module 'no_such_models'"):
        LangChainLLM("langchain:no_such_models:chat")
    config = RunConfig(kb=str(KB), llm="langchain:m:chat", api_base="http://localhost:1/v1")
    from evaluators.runner import make_llm

    with pytest.raises(OptionError, match="the api base of a LangChain model is set on the model object"):
        make_llm(config)


def test_sync_objects_run_in_worker_threads() -> None:
    seen: set[str] = set()

    def search(text: str) -> list[Document]:
        seen.add(threading.current_thread().name)
        return [Document(text, metadata={"source": "a.md"})]

    records = LangChainTarget(RunnableLambda(search), concurrency=2).run([q(f"q{i}") for i in range(4)], k=1)
    assert [r.contexts[0].text for r in records] == ["q0", "q1", "q2", "q3"]
    assert seen and all(name.startswith("langchain-target") for name in seen)
