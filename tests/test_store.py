"""The run store on SQLite (always) and PostgreSQL (a throwaway server, when its binaries are installed)."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from postgres_server import PostgresServer, postgres_server  # noqa: F401
from sqlalchemy import create_engine, select, update
from sqlalchemy.orm import Session

from evaluators.errors import StoreError, StoreLayoutError, StoreNotFound
from evaluators.evaluate import EvaluationOutcome, score, summarize
from evaluators.store import RunStore, default_store_url, fingerprint_questions, mask_url
from evaluators.store.models import LAYOUT_VERSION, MetaRow, ResultRow, RunRow
from schemas import JudgeRecord, RetrievedContext, RunRecord, StageCost, TestQuestion
from testgen.errors import UserInputError


def q(text: str, docs: list[str], category: str = "direct_fact", qid: str | None = None) -> TestQuestion:
    return TestQuestion(
        question=text,
        keywords=["alpha"],
        reference_answer=f"answer to {text}",
        category=category,
        source_docs=docs,
        id=qid,
    )


def rec(text: str, docs: list[str], answer: str | None = None, error: str | None = None) -> RunRecord:
    contexts = [RetrievedContext(doc_id=d, text=f"alpha in {d}") for d in docs]
    return RunRecord(question=text, contexts=contexts, answer=answer, error=error)


QUESTIONS = [
    q("When was Aurora founded?", ["a.md"], qid="q1"),
    q("오로라는 언제 설립되었나요?", ["b.md"], category="temporal", qid="q2"),
    q("How many bikes?", ["c.md"], category="numerical", qid="q3"),
    q("Compare the frames", [], category="comparative", qid="q4"),  # unscorable
]


def retrieval_outcome(k: int = 5, first: str = "x.md") -> EvaluationOutcome:
    records: list[RunRecord | None] = [
        rec(QUESTIONS[0].question, [first, "a.md"]),
        rec(QUESTIONS[1].question, ["b.md"]),
        None,
        rec(QUESTIONS[3].question, ["a.md"]),
    ]
    return score(QUESTIONS, records, k=k, dataset="tests.jsonl", target={"target": "baseline", "retriever": "bm25"})


def full_rag_outcome(k: int = 5, *, ragas_only: bool = False) -> EvaluationOutcome:
    """A full_rag outcome: judge scores (or only RAGAS faithfulness), a judge audit record, unscored reasons."""
    base = retrieval_outcome(k)
    results = [r.model_copy(deep=True) for r in base.results]
    results[0].answer = "Aurora was founded in 2008."
    results[1].answer = "오로라는 2008년 3월 15일에 설립되었습니다."
    results[1].reference_answer = "2008년에 설립되었습니다."
    if ragas_only:
        results[0].metrics["ragas_faithfulness"] = 0.5
        results[1].metrics["ragas_faithfulness"] = 0.7
    else:
        results[0].metrics.update({"judge_faithfulness": 0.9, "judge_answer_relevancy": 0.8, "judge_accuracy": 4.0})
        results[1].metrics.update({"judge_faithfulness": 0.5, "judge_accuracy": 3.0})
        results[1].unscored = {"judge_answer_relevancy": "판정 응답에 점수가 없습니다 (no score in the reply)"}
        results[1].judge = JudgeRecord(
            mode="bundled",
            scores={"faithfulness": 0.5, "accuracy": 3.0},
            reasons={"faithfulness": "일부 내용은 문맥에 없습니다.", "accuracy": "날짜는 맞습니다."},
            prompt=[{"role": "system", "content": "You are a judge."}, {"role": "user", "content": "질문: ..."}],
            raw=['{"faithfulness": 0.5, "accuracy": 3}'],
        )
        results[2].unscored = {"judge_faithfulness": "no answer", "judge_accuracy": "no answer"}
    summary = summarize(
        results,
        dataset="tests.jsonl",
        target={"target": "baseline"},
        k=k,
        curve=base.summary.curve,
        evaluation_type="full_rag",
        model="fake/judge",
        usage={"answer": StageCost(calls=2, cost=0.125), "judge": StageCost(calls=3, cost=0.25)},
        notes=["a note"],
    )
    return EvaluationOutcome(results, summary, list(base.records))


@pytest.fixture(params=["sqlite", "postgresql"])
def store_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty store: an SQLite file in a new folder, or a new database on the PostgreSQL test server."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'store' / 'runs.db'}"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return server.create_database("store")


@pytest.fixture
def store(store_url: str) -> Iterator[RunStore]:
    opened = RunStore(store_url)
    yield opened
    opened.close()


def test_default_url_is_sqlite_in_the_data_dir_unless_the_env_names_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TESTGEN_DATA_DIR", str(tmp_path / "data"))
    assert default_store_url() == f"sqlite:///{tmp_path / 'data' / 'runs.db'}"
    store = RunStore()
    store.close()
    assert (tmp_path / "data" / "runs.db").is_file()
    monkeypatch.delenv("TESTGEN_DATA_DIR")
    monkeypatch.chdir(tmp_path)
    assert default_store_url() == f"sqlite:///{tmp_path / '.testgen' / 'runs.db'}"
    monkeypatch.setenv("TESTGEN_STORE_URL", "postgresql+psycopg://u:pw@db/evals")
    assert default_store_url() == "postgresql+psycopg://u:pw@db/evals"


def test_sqlite_store_creates_its_folder_and_uses_wal(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "runs.db"
    with RunStore(f"sqlite:///{path}") as store:
        store.add_dataset(QUESTIONS, name="t", source="t.jsonl")
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_dataset_is_stored_once_per_name_and_fingerprint(store: RunStore) -> None:
    first = store.add_dataset(QUESTIONS, name="tests.jsonl", source="data/tests.jsonl")
    again = store.add_dataset(list(QUESTIONS), name="tests.jsonl", source="elsewhere/tests.jsonl")
    assert again == first  # same row: same id, source and timestamp
    assert first.questions == 4
    assert first.categories == {"direct_fact": 1, "temporal": 1, "numerical": 1, "comparative": 1}
    assert first.fingerprint == fingerprint_questions(QUESTIONS)
    assert first.created_at.utcoffset() == timedelta(0)

    renamed = store.add_dataset(QUESTIONS, name="copy", source="copy.jsonl")
    changed = store.add_dataset([*QUESTIONS, q("new?", ["d.md"])], name="tests.jsonl", source="data/tests.jsonl")
    assert renamed.id != first.id and renamed.fingerprint == first.fingerprint
    assert changed.id not in (first.id, renamed.id) and changed.fingerprint != first.fingerprint
    reordered = fingerprint_questions(list(reversed(QUESTIONS)))
    assert reordered != first.fingerprint

    assert [d.id for d in store.list_datasets()] == [first.id, renamed.id, changed.id]
    assert store.get_dataset(first.id) == first


def test_dataset_questions_round_trip_with_extra_fields(store: RunStore) -> None:
    special = TestQuestion.model_validate(
        {
            "question": "자전거 프레임은 무엇으로 만들어지나요?",
            "keywords": ["알루미늄"],
            "reference_answer": "알루미늄으로 만들어집니다.",
            "category": "my_own_category",
            "source_docs": ["제품/프레임.md"],
            "language": "ko",
            "reference_contexts": ["프레임은 알루미늄"],
            "metadata": {"generator": "kg", "seed": 7, "validation": {"ok": True}},
            "difficulty": "hard",  # a user's own field
        }
    )
    info = store.add_dataset([special, *QUESTIONS], name="ko", source="upload")
    loaded = store.dataset_questions(info.id)
    assert loaded == [special, *QUESTIONS]
    assert loaded[0].to_json_dict() == special.to_json_dict()


def test_run_lifecycle_pending_running_completed(store: RunStore) -> None:
    dataset = store.add_dataset(QUESTIONS, name="tests.jsonl", source="tests.jsonl")
    config = {"k": 5, "evaluation_type": "full_rag", "target": "baseline", "llm": "fake/judge"}
    run = store.create_run(dataset.id, config=config, target={"target": "baseline"}, k=5, evaluation_type="full_rag")
    assert (run.status, run.dataset_name, run.metrics, run.cost) == ("pending", "tests.jsonl", {}, 0.0)
    pending = store.get_run(run.id)
    assert pending.summary is None and pending.results == []

    store.mark_running(run.id)
    running = store.get_run(run.id)
    assert running.status == "running" and running.updated_at >= run.updated_at

    outcome = full_rag_outcome()
    store.add_results(run.id, outcome.results[:2])
    assert store.get_run(run.id).results == outcome.results[:2]
    store.add_results(run.id, outcome.results[:3])  # a later checkpoint replaces the earlier one
    assert store.get_run(run.id).results == outcome.results[:3]

    done = store.complete_run(run.id, outcome.summary, outcome.results)
    assert done.status == "completed" and done.error_message is None
    assert done.metrics == {name: mean.mean for name, mean in outcome.summary.overall.items()}
    assert done.metrics["MRR@5"] == pytest.approx((0.5 + 1.0) / 3)
    assert done.mean_faithfulness == pytest.approx((0.9 + 0.5) / 2)
    assert done.mean_answer_relevancy == pytest.approx(0.8)
    assert done.cost == pytest.approx(0.375)
    assert done.created_at == run.created_at and done.updated_at >= running.updated_at

    detail = store.get_run(run.id)
    assert detail.model_dump(exclude={"summary", "results"}) == done.model_dump()
    assert detail.summary == outcome.summary
    assert detail.results == outcome.results
    assert store.get_run(run.id, with_results=False).results == []

    engine = create_engine(store_url_of(store))
    with Session(engine) as s:
        row = s.get(RunRow, run.id)
        assert row is not None and row.config == config
    engine.dispose()


def store_url_of(store: RunStore) -> str:
    """The unmasked URL behind `store` (tests only: their stores have no password)."""
    return store._engine.url.render_as_string(hide_password=False)


def test_faithfulness_falls_back_to_ragas_and_is_none_without_either(store: RunStore) -> None:
    ragas = full_rag_outcome(ragas_only=True)
    info = store.record(ragas, questions=QUESTIONS, dataset_name="t", dataset_source="t.jsonl")
    assert info.mean_faithfulness == pytest.approx(0.6)
    assert info.mean_answer_relevancy is None
    plain = store.record(retrieval_outcome(), questions=QUESTIONS, dataset_name="t", dataset_source="t.jsonl")
    assert plain.mean_faithfulness is None and plain.cost == 0.0
    assert plain.dataset_id == info.dataset_id  # the same test set is stored once


def test_failed_run_keeps_error_message_and_partial_results(store: RunStore) -> None:
    dataset = store.add_dataset(QUESTIONS, name="t", source="t.jsonl")
    run = store.create_run(dataset.id, config={}, target={"target": "http"}, k=5, evaluation_type="full_rag")
    store.mark_running(run.id)
    partial = retrieval_outcome().results
    store.add_results(run.id, partial)
    failed = store.fail_run(run.id, "LLMError: the judge model is not reachable")
    assert failed.status == "failed" and failed.error_message == "LLMError: the judge model is not reachable"
    assert failed.metrics == {} and failed.mean_faithfulness is None
    detail = store.get_run(run.id)
    assert detail.summary is None and detail.results == partial

    other = store.create_run(dataset.id, config={}, target={"target": "http"}, k=5, evaluation_type="full_rag")
    store.add_results(other.id, partial)
    store.fail_run(other.id, "stopped", partial[:1])
    assert store.get_run(other.id).results == partial[:1]
    assert store.get_run(run.id).results == partial  # the other run's results are untouched


def test_results_round_trip_losslessly_with_metric_columns(store: RunStore) -> None:
    outcome = full_rag_outcome(k=3)
    info = store.record(outcome, questions=QUESTIONS, dataset_name="ko", dataset_source="ko.jsonl", config={"k": 3})
    detail = store.get_run(info.id)
    assert detail.results == outcome.results
    assert detail.results[1].judge is not None and detail.results[1].judge.reasons["accuracy"] == "날짜는 맞습니다."
    assert detail.results[1].unscored == outcome.results[1].unscored
    assert detail.summary == outcome.summary
    assert detail.summary is not None and detail.summary.usage["judge"].cost == 0.25

    engine = create_engine(store_url_of(store))
    with Session(engine) as s:
        rows = s.scalars(select(ResultRow).where(ResultRow.run_id == info.id).order_by(ResultRow.position)).all()
    engine.dispose()
    assert [r.position for r in rows] == [0, 1, 2, 3]
    first, second, missing, unscorable = rows
    assert (first.precision, first.recall, first.hit, first.reciprocal_rank) == (
        pytest.approx(1 / 3),
        1.0,
        1.0,
        0.5,
    )
    assert first.retrieved_ids == ["x.md", "a.md"] and first.question_id == "q1"
    assert (first.faithfulness, first.answer_relevancy, first.judge_scores) == (0.9, 0.8, None)
    assert (
        second.question == "오로라는 언제 설립되었나요?"
        and second.answer == "오로라는 2008년 3월 15일에 설립되었습니다."
    )
    assert second.judge_scores == {"faithfulness": 0.5, "accuracy": 3.0}
    assert second.judge_reasons is not None and second.judge_reasons["faithfulness"] == "일부 내용은 문맥에 없습니다."
    assert missing.status == "missing" and missing.reciprocal_rank == 0.0
    assert unscorable.status == "unscorable" and unscorable.precision is None


def test_list_runs_newest_first_with_dataset_filter_and_limit(store: RunStore) -> None:
    one = store.add_dataset(QUESTIONS, name="one", source="one.jsonl")
    two = store.add_dataset(QUESTIONS[:2], name="two", source="two.jsonl")
    ids = []
    for dataset in (one, two, one, two, one):
        run = store.create_run(
            dataset.id, config={}, target={"target": "baseline"}, k=5, evaluation_type="retrieval_only"
        )
        ids.append(run.id)
    runs = store.list_runs()
    assert [r.id for r in runs] == ids[::-1]
    assert [r.dataset_name for r in runs] == ["one", "two", "one", "two", "one"]
    assert [r.id for r in store.list_runs(dataset_id=one.id)] == [ids[4], ids[2], ids[0]]
    assert [r.id for r in store.list_runs(dataset_id=two.id, limit=1)] == [ids[3]]
    assert store.list_runs(dataset_id=999) == []


def test_unknown_ids_raise_store_not_found_with_the_fix(store: RunStore) -> None:
    with pytest.raises(StoreNotFound, match=r"^no dataset with id 7 \(evaluate datasets lists them\)$"):
        store.get_dataset(7)
    with pytest.raises(StoreNotFound, match="no dataset with id 7"):
        store.dataset_questions(7)
    with pytest.raises(StoreNotFound, match="no dataset with id 7"):
        store.create_run(7, config={}, target={}, k=5, evaluation_type="retrieval_only")
    with pytest.raises(StoreNotFound, match=r"^no run with id 9 \(evaluate runs lists them\)$") as caught:
        store.get_run(9)
    assert isinstance(caught.value, UserInputError)  # the CLI turns it into exit code 2
    outcome = retrieval_outcome()
    for call in (
        lambda: store.mark_running(9),
        lambda: store.add_results(9, outcome.results),
        lambda: store.complete_run(9, outcome.summary, outcome.results),
        lambda: store.fail_run(9, "boom"),
    ):
        with pytest.raises(StoreNotFound, match="no run with id 9"):
            call()


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("postgresql+psycopg://u:secret@127.0.0.1:1/db", "server is running"),
        ("postgresql://u:secret@127.0.0.1:1/db", "server is running"),
        ("postgresql+nodriver://u:secret@127.0.0.1:1/db", "unknown database or driver"),
        ("not a url u:secret@host", "not a database URL"),
    ],
)
def test_bad_url_is_one_line_store_error_with_masked_password(url: str, says: str) -> None:
    with pytest.raises(StoreError) as caught:
        RunStore(url)
    message = str(caught.value)
    assert "***" in message and "secret" not in message and says in message
    assert "\n" not in message
    assert not isinstance(caught.value, StoreNotFound)


def test_unwritable_sqlite_path_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    with pytest.raises(StoreError, match="cannot create the folder"):
        RunStore(f"sqlite:///{blocker / 'sub' / 'runs.db'}")


def test_mask_url_hides_passwords_everywhere() -> None:
    assert mask_url("postgresql+psycopg://me:s3cr3t@db:5432/evals") == "postgresql+psycopg://me:***@db:5432/evals"
    assert "s3cr3t" not in mask_url("postgresql+psycopg://me@db/evals?password=s3cr3t")
    assert mask_url("sqlite:////tmp/runs.db") == "sqlite:////tmp/runs.db"


def test_password_never_shows_in_url_str_or_repr(request: pytest.FixtureRequest) -> None:
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = server.create_database("masked").replace(f"{server.user}@", f"{server.user}:hunter2@")  # trust auth
    with RunStore(url) as store:
        assert store.url == url.replace("hunter2", "***")
        assert "hunter2" not in repr(store) and "hunter2" not in str(store)
        assert store.list_runs() == []


def test_two_threads_complete_runs_at_once(store_url: str) -> None:
    """Two writers (separate stores on the same database, like the API and the CLI) plus a reader, in parallel."""
    writers = [RunStore(store_url), RunStore(store_url)]
    dataset = writers[0].add_dataset(QUESTIONS, name="t", source="t.jsonl")
    outcomes = [retrieval_outcome(first="x.md"), retrieval_outcome(first="a.md")]
    barrier = threading.Barrier(3)
    errors: list[BaseException] = []
    done: dict[int, list[int]] = {0: [], 1: []}
    stop = threading.Event()

    def write(n: int) -> None:
        try:
            store, outcome = writers[n], outcomes[n]
            barrier.wait()
            for _ in range(8):
                run = store.create_run(dataset.id, config={"n": n}, target={}, k=5, evaluation_type="retrieval_only")
                store.mark_running(run.id)
                store.add_results(run.id, outcome.results[:2])
                store.complete_run(run.id, outcome.summary, outcome.results)
                done[n].append(run.id)
        except BaseException as exc:
            errors.append(exc)

    def read() -> None:
        try:
            barrier.wait()
            while not stop.is_set():
                for info in writers[0].list_runs(limit=5):
                    writers[0].get_run(info.id)
        except BaseException as exc:
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(n,)) for n in (0, 1)] + [threading.Thread(target=read)]
    for thread in threads:
        thread.start()
    for thread in threads[:2]:
        thread.join(timeout=120)
    stop.set()
    threads[2].join(timeout=60)
    for store in writers:
        store.close()
    assert errors == []
    with RunStore(store_url) as store:
        runs = store.list_runs()
        assert len(runs) == 16 and {r.status for r in runs} == {"completed"}
        for n in (0, 1):
            for run_id in done[n]:
                assert store.get_run(run_id).results == outcomes[n].results


def test_a_store_with_another_table_layout_is_refused_with_the_fix(store_url: str) -> None:
    with RunStore(store_url) as first:
        first.add_dataset(QUESTIONS, name="kept", source="t")
    engine = create_engine(store_url)
    with engine.begin() as connection:  # as a later version of testgen would leave it
        connection.execute(update(MetaRow).where(MetaRow.key == "layout_version").values(value="99"))
    engine.dispose()
    with pytest.raises(StoreLayoutError, match=r"has table layout 99, this version of testgen reads layout 1"):
        RunStore(store_url)
    engine = create_engine(store_url)
    with engine.begin() as connection:
        connection.execute(update(MetaRow).values(value=LAYOUT_VERSION))
    engine.dispose()
    with RunStore(store_url) as again:  # nothing was lost or changed by the refusal
        assert [d.name for d in again.list_datasets()] == ["kept"]
