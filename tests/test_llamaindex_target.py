"""The ``llamaindex:`` target with real LlamaIndex objects (a vector index over the example KB with a deterministic
embedding, custom retrievers and query engines); no network. Skipped, with the reason, when the ``llamaindex``
extra is not installed, except the check that the target then says how to install it."""

from __future__ import annotations

import asyncio
import importlib.util
import json
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from evaluators.cli import main as evaluate_main
from evaluators.errors import TargetError
from evaluators.evaluate import evaluate_target
from evaluators.targets import CallableTarget, make_target
from schemas import TestQuestion
from testgen.export import read_jsonl

HAS_LLAMA_INDEX = importlib.util.find_spec("llama_index") is not None and (
    importlib.util.find_spec("llama_index.core") is not None
)
needs_llama_index = pytest.mark.skipif(
    not HAS_LLAMA_INDEX, reason='the llamaindex extra is not installed (pip install -e ".[llamaindex]")'
)
KB = Path(__file__).resolve().parents[1] / "examples" / "aurora_bikes"
DATASET = Path(__file__).parent / "fixtures" / "aurora_tests.jsonl"


def q(text: str, source_docs: list[str] | None = None) -> TestQuestion:
    return TestQuestion(
        question=text,
        keywords=["x"],
        reference_answer="x.",
        category="direct_fact",
        source_docs=source_docs if source_docs is not None else ["a.md"],
    )


def test_without_the_extra_the_target_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "llama_index.core", None)  # importing it now raises ImportError
    with pytest.raises(TargetError, match=r'install it with: pip install "testgen-rag\[llamaindex\]"'):
        make_target("llamaindex:llamaindex_kb:retriever")


@needs_llama_index
def test_index_retriever_scores_as_the_callable_glue() -> None:
    import llamaindex_kb

    questions = list(read_jsonl(DATASET))
    direct = make_target("llamaindex:llamaindex_kb:retriever", doc_id_root=str(KB), kb=str(KB))
    via_glue = evaluate_target(questions, CallableTarget(llamaindex_kb.glue), k=10)
    via_target = evaluate_target(questions, direct, k=10)
    assert [r.retrieved_docs for r in via_target.results] == [r.retrieved_docs for r in via_glue.results]
    assert via_target.summary.overall == via_glue.summary.overall
    assert via_target.summary.overall["Hit@10"].mean > 0.8  # a real retrieval, not two runs of zeros
    assert direct.describe()["kind"] == "retriever"
    assert all(c.score is not None and c.chunk_id for r in via_target.records if r for c in r.contexts)


@needs_llama_index
def test_guard_fires_on_absolute_file_paths_and_the_cli_takes_the_root(tmp_path: Path) -> None:
    with pytest.raises(TargetError, match=f"give --doc-id-root {KB}"):
        make_target("llamaindex:llamaindex_kb:retriever", kb=str(KB)).run(list(read_jsonl(DATASET)), k=10)
    out = tmp_path / "report"
    args = ["--dataset", str(DATASET), "--kb", str(KB), "--target", "llamaindex:llamaindex_kb:retriever"]
    result = CliRunner().invoke(
        evaluate_main, [*args, "--doc-id-root", str(KB), "-o", str(out), "--no-plots", "--no-store", "-q"]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["overall"]["Hit@10"]["mean"] > 0.8 and summary["target"]["target"] == "llamaindex"


@needs_llama_index
def test_index_is_searched_with_k() -> None:
    import llamaindex_kb

    target = make_target("llamaindex:llamaindex_kb:index", doc_id_root=str(KB))
    question = q("What is the battery coverage of the Aurora Ridge 700?", ["products/aurora_ridge_700.md"])
    (three,) = target.run([question], k=3)
    (seven,) = target.run([question], k=7)
    assert (len(three.contexts), len(seven.contexts)) == (3, 7) and target.kind == "index"
    assert target.obj is llamaindex_kb.index


def _node(text: str, path: str, score: float = 0.5) -> Any:
    from llama_index.core.schema import NodeWithScore, TextNode

    return NodeWithScore(node=TextNode(text=text, metadata={"file_path": path}), score=score)


@needs_llama_index
def test_query_engines_answer_sync_in_threads_and_async_on_the_loop() -> None:
    from llama_index.core.base.response.schema import Response
    from llama_index.core.query_engine import CustomQueryEngine

    threads: list[str] = []

    class SyncEngine(CustomQueryEngine):
        def custom_query(self, query_str: str) -> Response:
            threads.append(threading.current_thread().name)
            return Response(response=f"answer to {query_str}", source_nodes=[_node("t1", "a.md", 0.9)])

    class AsyncEngine(SyncEngine):
        async def acustom_query(self, query_str: str) -> Response:
            asyncio.get_running_loop()  # raises unless awaited on the run's loop
            return Response(response=None, source_nodes=[_node("t2", "/kb/b.md")])

    from evaluators.targets import LlamaIndexTarget

    (sync_record,) = LlamaIndexTarget(SyncEngine()).run([q("Q1")], k=5)
    assert (sync_record.answer, sync_record.error) == ("answer to Q1", None)
    assert [(c.doc_id, c.text, c.score) for c in sync_record.contexts] == [("a.md", "t1", 0.9)]
    assert threads == ["framework-target-call"]
    (async_record,) = LlamaIndexTarget(AsyncEngine(), doc_id_root="/kb", allow_unmatched=True).run([q("Q2")], k=5)
    assert (async_record.answer, async_record.error) == (None, None) and async_record.contexts[0].doc_id == "b.md"
    assert threads == ["framework-target-call"]  # the async engine never ran custom_query


@needs_llama_index
def test_async_retriever_is_awaited_within_the_limit_and_bad_outputs_are_recorded() -> None:
    from llama_index.core.base.response.schema import Response, StreamingResponse
    from llama_index.core.query_engine import CustomQueryEngine
    from llama_index.core.retrievers import BaseRetriever
    from llama_index.core.schema import NodeWithScore, QueryBundle, TextNode

    from evaluators.targets import LlamaIndexTarget

    class AsyncRetriever(BaseRetriever):
        def __init__(self) -> None:
            super().__init__()
            self.active = self.peak = 0

        def _retrieve(self, query_bundle: QueryBundle) -> list[Any]:
            raise AssertionError("the async retriever was called synchronously")

        async def _aretrieve(self, query_bundle: QueryBundle) -> list[Any]:
            self.active += 1
            self.peak = max(self.peak, self.active)
            await asyncio.sleep(0.05)
            self.active -= 1
            return [_node(query_bundle.query_str, "a.md")]

    retriever = AsyncRetriever()
    records = LlamaIndexTarget(retriever, concurrency=2).run([q(f"q{i}") for i in range(6)], k=3)
    assert [r.contexts[0].text for r in records] == [f"q{i}" for i in range(6)] and retriever.peak == 2

    class Odd(CustomQueryEngine):
        def custom_query(self, query_str: str) -> Any:
            if query_str == "stream":
                return StreamingResponse(response_gen=iter(["a"]))
            if query_str == "no key":
                return Response(
                    response="a", source_nodes=[NodeWithScore(node=TextNode(text="t", metadata={"title": "A"}))]
                )
            return Response(response="a", source_nodes=["not a node"])  # type: ignore[list-item]

    got = LlamaIndexTarget(Odd(), allow_unmatched=True).run([q("stream"), q("no key"), q("junk")], k=3)
    assert "build it with streaming=False" in str(got[0].error)
    assert "none of the metadata keys source, file_path, doc_id, id (its keys: title)" in str(got[1].error)
    assert "item 0 is a str, not a LlamaIndex NodeWithScore" in str(got[2].error)
    with pytest.raises(TargetError, match="is a int: expected a LlamaIndex retriever, query engine or index"):
        LlamaIndexTarget(3)
