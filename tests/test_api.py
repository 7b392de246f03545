"""The REST API over a real SQLite run store: datasets, asynchronous runs, errors, OpenAPI; the serve command."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fake_openai_server import FakeOpenAIServer, RecordedRequest
from fastapi.testclient import TestClient

from evaluators.api import create_app
from evaluators.api.jobs import CANCELLED, JobRunner, Runner, failure_message
from evaluators.cli_serve import INTERRUPTED, dashboard_url, is_loopback, register, serve_command
from evaluators.evaluate import EvaluationOutcome, score
from evaluators.runner import RunConfig
from evaluators.store import RunStore
from schemas import RetrievedContext, RunRecord, TestQuestion
from testgen.errors import OptionError
from testgen.export.jsonl import write_jsonl

DOCS = {
    "bikes.md": "# Aurora bikes\n\nThe Aurora Trail bike has a carbon frame and weighs 9.8 kilograms. "
    "Every Trail frame is welded in Lisbon and painted in glacier blue.",
    "warranty.md": "# Warranty\n\nThe warranty on every frame lasts seven years. Claims go to the service desk "
    "with the original receipt; batteries are covered for two years only.",
    "shops.md": "# Shops\n\nThe flagship shop opened in Porto in 2019 and repairs electric motors. "
    "Its opening hours are nine to six from Tuesday to Saturday.",
}
QUESTIONS = [
    ("How much does the Aurora Trail bike weigh?", "bikes.md", "direct_fact", "9.8 kilograms"),
    ("Where is every Trail frame welded?", "bikes.md", "direct_fact", "Lisbon"),
    ("How long does the frame warranty last?", "warranty.md", "numerical", "seven years"),
    ("When did the flagship shop in Porto open?", "shops.md", "temporal", "2019"),
]


def _question(text: str, doc: str = "bikes.md", category: str = "direct_fact", answer: str = "x") -> TestQuestion:
    return TestQuestion(question=text, keywords=[answer], reference_answer=answer, category=category, source_docs=[doc])


def _questions() -> list[TestQuestion]:
    return [_question(*item) for item in QUESTIONS]


def _mrr_at_3(results: list[dict[str, Any]]) -> float:
    """MRR@3 worked out from a run's stored rankings and the questions' own source_docs (not by the metric code)."""
    sources = {q.question: set(q.source_docs) for q in _questions()}
    ranks = []
    for result in results:
        hits = [i for i, doc in enumerate(result["retrieved_docs"][:3], start=1) if doc in sources[result["question"]]]
        ranks.append(1 / hits[0] if hits else 0.0)
    return sum(ranks) / len(ranks)


def _payload(questions: Sequence[TestQuestion]) -> list[dict[str, Any]]:
    return [q.to_json_dict() for q in questions]


def _outcome(questions: Sequence[TestQuestion], k: int = 3) -> EvaluationOutcome:
    """A scored run in which every question retrieves its own document second."""
    records = [
        RunRecord(
            question=q.question, contexts=[RetrievedContext(doc_id=d, text="x") for d in ["other.md", *q.source_docs]]
        )
        for q in questions
    ]
    return score(questions, records, k=k, dataset="made-up")


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    folder = tmp_path / "kb"
    folder.mkdir()
    for name, text in DOCS.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    store = RunStore(f"sqlite:///{tmp_path / 'runs.db'}")
    yield store
    store.close()


def _client(store: RunStore, **options: Any) -> TestClient:
    return TestClient(create_app(store, **options))


@pytest.fixture
def client(store: RunStore, kb: Path) -> Iterator[TestClient]:
    with _client(store, default_kb=str(kb)) as client:
        yield client


def _dataset(client: TestClient, questions: Sequence[TestQuestion] | None = None, name: str = "aurora") -> int:
    response = client.post(
        "/evaluation/datasets", json={"name": name, "questions": _payload(questions or _questions())}
    )
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def _poll(client: TestClient, run_id: int, *, until: Sequence[str] = ("completed", "failed")) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    seen = []
    while time.monotonic() < deadline:
        body = client.get(f"/evaluation/runs/{run_id}").json()
        seen.append(body["status"])
        if body["status"] in until:
            return dict(body)
        time.sleep(0.05)
    raise AssertionError(f"run {run_id} never reached {until}; statuses seen: {sorted(set(seen))}")


# ---- datasets ---------------------------------------------------------------------------------------------------


def test_healthz_names_the_store_with_its_password_masked(tmp_path: Path) -> None:
    store = RunStore(f"sqlite:///{tmp_path / 'h.db'}")
    with _client(store) as client:
        response = client.get("/healthz")
    store.close()
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "store": store.url}


def test_dataset_sent_as_json_is_listed_and_read_back(client: TestClient) -> None:
    response = client.post("/evaluation/datasets", json={"name": "aurora", "questions": _payload(_questions())})
    assert response.status_code == 201
    info = response.json()
    assert info["name"] == "aurora" and info["questions"] == 4
    assert info["categories"] == {"direct_fact": 2, "numerical": 1, "temporal": 1}
    assert client.get(f"/evaluation/datasets/{info['id']}").json() == info
    assert [d["id"] for d in client.get("/evaluation/datasets").json()] == [info["id"]]


def test_a_bad_question_is_a_422_naming_its_index_and_field(client: TestClient) -> None:
    items = [*_payload(_questions()[:1]), {"question": "no keywords", "reference_answer": "x", "category": "x"}]
    response = client.post("/evaluation/datasets", json={"name": "bad", "questions": items})
    assert response.status_code == 422
    body = response.json()
    assert "questions[1].keywords" in body["detail"] and "required" in body["detail"].lower()
    assert body["errors"][0]["loc"] == ["body", "questions", 1, "keywords"]
    assert client.get("/evaluation/datasets").json() == []


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"name": "x"}, "give a JSON object with questions"),
        ([1, 2], "give a JSON object with questions"),
        ({"name": "  ", "questions": []}, "name: String should have at least 1 character"),
        ({"name": "x", "questions": [], "extra": 1}, "extra"),
    ],
)
def test_a_dataset_body_of_the_wrong_shape_is_a_422(client: TestClient, body: Any, fragment: str) -> None:
    response = client.post("/evaluation/datasets", json=body)
    assert response.status_code == 422
    assert fragment in response.json()["detail"]


def test_invalid_json_and_other_content_types_are_refused(client: TestClient) -> None:
    broken = client.post("/evaluation/datasets", content=b"{nope", headers={"content-type": "application/json"})
    assert broken.status_code == 422 and "invalid JSON" in broken.json()["detail"]
    text = client.post("/evaluation/datasets", content=b"hello", headers={"content-type": "text/plain"})
    assert text.status_code == 415 and "multipart" in text.json()["detail"]


def test_an_empty_dataset_is_a_400(client: TestClient) -> None:
    response = client.post("/evaluation/datasets", json={"name": "empty", "questions": []})
    assert response.status_code == 400
    assert "no test questions" in response.json()["detail"]


def test_dataset_loaded_from_a_server_side_file(client: TestClient, tmp_path: Path) -> None:
    path = write_jsonl(_questions(), tmp_path / "sets" / "tests.jsonl")
    response = client.post("/evaluation/datasets", json={"source": str(path)})
    assert response.status_code == 201
    info = response.json()
    assert (info["name"], info["source"], info["questions"]) == ("tests.jsonl", str(path), 4)
    named = client.post("/evaluation/datasets", json={"name": "mine", "source": str(path)}).json()
    assert named["name"] == "mine" and named["fingerprint"] == info["fingerprint"]


def test_a_missing_source_file_is_a_400_naming_it(client: TestClient, tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "tests.jsonl"
    response = client.post("/evaluation/datasets", json={"source": str(missing)})
    assert response.status_code == 400
    assert response.json() == {"detail": f"{missing}: no such file (give the path of a tests.jsonl file)"}


def test_a_malformed_source_line_is_a_400_naming_file_and_line(client: TestClient, tmp_path: Path) -> None:
    path = tmp_path / "tests.jsonl"
    path.write_text(json.dumps(_payload(_questions())[0]) + "\n\n{not json}\n", encoding="utf-8")
    response = client.post("/evaluation/datasets", json={"source": str(path)})
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert detail.startswith(f"{path}:3: invalid JSON") and "\n" not in detail


def test_an_uploaded_jsonl_file_is_registered(client: TestClient) -> None:
    data = "\n".join(json.dumps(item, ensure_ascii=False) for item in _payload(_questions())).encode()
    response = client.post("/evaluation/datasets", files={"file": ("tests.jsonl", data, "application/x-ndjson")})
    assert response.status_code == 201
    info = response.json()
    assert (info["name"], info["source"], info["questions"]) == ("tests.jsonl", "upload", 4)
    named = client.post(
        "/evaluation/datasets", files={"file": ("tests.jsonl", data)}, data={"name": "from the form"}
    ).json()
    assert named["name"] == "from the form"


def test_a_malformed_upload_names_the_uploaded_file_and_line(client: TestClient) -> None:
    good = json.dumps(_payload(_questions())[0])
    data = f"{good}\n{json.dumps({'question': 'q', 'keywords': 'not a list'})}\n".encode()
    response = client.post("/evaluation/datasets", files={"file": ("my set.jsonl", data)})
    assert response.status_code == 400
    detail = response.json()["detail"]
    assert detail.startswith("my set.jsonl:2: field 'keywords'") and "testgen-upload" not in detail


def test_an_upload_named_like_a_path_is_read_safely(client: TestClient) -> None:
    data = json.dumps(_payload(_questions())[0]).encode()
    for filename in ("..", "../../etc/tests.jsonl"):
        response = client.post("/evaluation/datasets", files={"file": (filename, data)})
        assert response.status_code == 201, response.text
        assert response.json()["questions"] == 1


def test_an_empty_or_missing_upload_is_refused(client: TestClient) -> None:
    empty = client.post("/evaluation/datasets", files={"file": ("tests.jsonl", b"\n\n")})
    assert empty.status_code == 400 and empty.json()["detail"].startswith("tests.jsonl:1: the file holds no")
    no_file = client.post("/evaluation/datasets", files={"other": ("tests.jsonl", b"{}")})
    assert no_file.status_code == 422 and "file" in no_file.json()["detail"]


def test_unknown_ids_are_404_with_a_detail(client: TestClient) -> None:
    assert client.get("/evaluation/datasets/7").json() == {"detail": "no dataset with id 7"}
    assert client.get("/evaluation/datasets/7").status_code == 404
    assert client.get("/evaluation/runs/99").status_code == 404
    assert client.get("/evaluation/runs/99").json() == {"detail": "no run with id 99"}
    assert client.post("/evaluation/datasets/7/runs", json={"k": 5}).status_code == 404
    assert client.get("/evaluation/runs", params={"dataset_id": 7}).status_code == 404
    assert client.get("/evaluation/datasets/seven").status_code == 422


class _BrokenStore(RunStore):
    def list_datasets(self) -> list[Any]:
        raise RuntimeError("disk on fire at /secret/path")


def test_a_bug_is_a_500_with_a_json_detail_and_no_traceback(tmp_path: Path) -> None:
    store = _BrokenStore(f"sqlite:///{tmp_path / 'b.db'}")
    with TestClient(create_app(store), raise_server_exceptions=False) as client:
        response = client.get("/evaluation/datasets")
    store.close()
    assert response.status_code == 500
    assert response.json() == {"detail": "internal error (RuntimeError); see the server log"}


# ---- runs -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ({"k": 0}, "k: Input should be greater than or equal to 1"),
        ({"k": 51}, "k: Input should be less than or equal to 50"),
        ({"k": 5, "colour": "blue"}, "colour: Extra inputs are not permitted"),
        ({"evaluation_type": "everything"}, "evaluation_type"),
        ({"chunk_size": 100, "chunk_overlap": 100}, "chunk_overlap must be smaller than chunk_size"),
        ([5], "expected a JSON object"),
    ],
)
def test_bad_run_settings_are_a_422(client: TestClient, body: Any, fragment: str) -> None:
    dataset_id = _dataset(client)
    response = client.post(f"/evaluation/datasets/{dataset_id}/runs", json=body)
    assert response.status_code == 422
    assert fragment in response.json()["detail"]
    assert client.get("/evaluation/runs").json() == []


def test_run_settings_sent_as_another_content_type_are_a_415(client: TestClient, kb: Path) -> None:
    dataset_id = _dataset(client)
    url = f"/evaluation/datasets/{dataset_id}/runs"
    settings = json.dumps({"k": 3, "kb": str(kb)}).encode()
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"):
        response = client.post(url, content=settings, headers={"content-type": content_type})
        assert response.status_code == 415, (content_type, response.text)
        assert "Content-Type: application/json" in response.json()["detail"]
    assert client.get("/evaluation/runs").json() == []
    for content_type in ("application/json; charset=utf-8", "application/vnd.api+json"):
        response = client.post(url, content=settings, headers={"content-type": content_type})
        assert response.status_code == 201, (content_type, response.text)
    no_body = client.post(url, headers={"content-type": "text/plain"})  # no settings: the defaults
    assert no_body.status_code == 201, no_body.text
    documented = client.get("/openapi.json").json()["paths"]["/evaluation/datasets/{dataset_id}/runs"]["post"]
    assert "415" in documented["responses"]


def fixed_contexts(question: str) -> dict[str, Any]:
    """A callable target for the API tests: every question retrieves warranty.md."""
    return {"contexts": [{"doc_id": "warranty.md", "text": DOCS["warranty.md"]}], "answer": "See the warranty."}


def test_callable_targets_are_refused_unless_the_server_allows_them(store: RunStore) -> None:
    body = {"k": 3, "target": "callable:test_api:fixed_contexts"}
    with _client(store) as client:
        dataset_id = _dataset(client)
        refused = client.post(f"/evaluation/datasets/{dataset_id}/runs", json=body)
        assert refused.status_code == 422 and "--allow-callable-targets" in refused.json()["detail"]
        assert client.get("/evaluation/runs").json() == []
    with _client(store, allow_callable=True) as client:
        started = client.post(f"/evaluation/datasets/{dataset_id}/runs", json=body)
        assert started.status_code == 201, started.text
        run = _poll(client, started.json()["id"])
    assert run["status"] == "completed", run["error_message"]
    assert {tuple(r["retrieved_docs"]) for r in run["results"]} == {("warranty.md",)}


def test_a_baseline_run_without_any_kb_is_a_422_saying_how_to_give_one(store: RunStore) -> None:
    with _client(store) as client:
        dataset_id = _dataset(client)
        response = client.post(f"/evaluation/datasets/{dataset_id}/runs", json={"k": 5})
    assert response.status_code == 422
    assert "baseline target needs kb" in response.json()["detail"] and "--kb" in response.json()["detail"]


def test_a_run_on_a_real_kb_goes_from_pending_to_completed(client: TestClient, kb: Path) -> None:
    dataset_id = _dataset(client)
    response = client.post(
        f"/evaluation/datasets/{dataset_id}/runs", json={"k": 3, "evaluation_type": "retrieval_only"}
    )
    assert response.status_code == 201
    started = response.json()
    assert started["status"] == "pending" and started["k"] == 3 and started["dataset_name"] == "aurora"
    assert started["target"]["target"] == "baseline" and started["target"]["kb"] == str(kb)
    run = _poll(client, started["id"])
    assert run["status"] == "completed", run["error_message"]
    assert run["metrics"]["MRR@3"] == pytest.approx(_mrr_at_3(run["results"]))  # what the stored rankings give
    assert run["metrics"]["MRR@3"] > 0.5  # the documents are about different things: BM25 ranks the right one high
    assert run["summary"]["questions"] == 4 and set(run["summary"]["by_category"]) == {
        "direct_fact",
        "numerical",
        "temporal",
    }
    assert len(run["results"]) == 4
    by_question = {r["question"]: r for r in run["results"]}
    assert by_question["How long does the frame warranty last?"]["retrieved_docs"][0] == "warranty.md"
    listed = client.get("/evaluation/runs", params={"dataset_id": dataset_id}).json()
    assert [(r["id"], r["status"]) for r in listed] == [(run["id"], "completed")]
    assert "results" not in listed[0]


def test_a_full_rag_run_stores_answers_judge_scores_and_reasons(
    client: TestClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the LLM cache lives in the working directory
    verdict = {
        "accuracy_reason": "matches the reference", "accuracy": 5,
        "completeness_reason": "all of it", "completeness": 5,
        "relevance_reason": "on the question", "relevance": 5,
        "faithfulness_reason": "one of two claims supported", "faithfulness": 0.5,
        "answer_relevancy_reason": "direct", "answer_relevancy": 0.9,
    }  # fmt: skip

    def respond(request: RecordedRequest) -> str:
        return json.dumps(verdict) if "RUBRIC" in request.last_user_text else "It is in the documents."

    dataset_id = _dataset(client)
    with FakeOpenAIServer(respond) as server:
        body = {"k": 3, "evaluation_type": "full_rag", "llm": "openai/test-model", "api_base": server.url}
        started = client.post(f"/evaluation/datasets/{dataset_id}/runs", json=body)
        assert started.status_code == 201, started.text
        run = _poll(client, started.json()["id"])
    assert run["status"] == "completed", run["error_message"]
    assert run["evaluation_type"] == "full_rag"
    assert run["mean_faithfulness"] == 0.5 and run["mean_answer_relevancy"] == 0.9
    assert run["metrics"]["judge_accuracy"] == 5.0
    assert run["metrics"]["MRR@3"] == pytest.approx(_mrr_at_3(run["results"]))
    result = run["results"][0]
    assert result["answer"] == "It is in the documents."
    assert result["judge"]["reasons"]["faithfulness"] == "one of two claims supported"
    assert result["judge"]["prompt"] and result["judge"]["raw"] == [json.dumps(verdict)]
    assert "api_key" not in json.dumps(run["target"]) and run["summary"]["model"] == "openai/test-model"


def test_runs_are_listed_newest_first_and_limited(client: TestClient) -> None:
    dataset_id = _dataset(client)
    ids = [client.post(f"/evaluation/datasets/{dataset_id}/runs", json={"k": k}).json()["id"] for k in (1, 2, 3)]
    for run_id in ids:
        _poll(client, run_id)
    assert [r["id"] for r in client.get("/evaluation/runs").json()] == ids[::-1]
    assert [r["id"] for r in client.get("/evaluation/runs", params={"limit": 2}).json()] == ids[:0:-1]
    assert client.get("/evaluation/runs", params={"limit": 0}).status_code == 422
    summary_only = client.get(f"/evaluation/runs/{ids[0]}", params={"results": "false"}).json()
    assert summary_only["summary"] is not None and summary_only["results"] == []


def test_a_kb_that_does_not_exist_fails_the_run_with_its_message(client: TestClient, tmp_path: Path) -> None:
    dataset_id = _dataset(client)
    missing = tmp_path / "no-such-kb"
    response = client.post(f"/evaluation/datasets/{dataset_id}/runs", json={"kb": str(missing)})
    assert response.status_code == 201 and response.json()["status"] == "pending"
    run = _poll(client, response.json()["id"])
    assert run["status"] == "failed"
    assert str(missing) in run["error_message"] and not run["error_message"].startswith("CorpusError")


def _failing_runner(error: Exception) -> Runner:
    def runner(questions: Sequence[TestQuestion], config: RunConfig, **kwargs: Any) -> EvaluationOutcome:
        kwargs["checkpoint"](_outcome(questions[:2], k=config.k).results)
        raise error

    return runner


@pytest.mark.parametrize(
    ("error", "message"),
    [(RuntimeError("the judge went away"), "RuntimeError: the judge went away"), (OptionError("bad k"), "bad k")],
)
def test_a_runner_that_raises_partway_fails_the_run_and_keeps_partial_results(
    store: RunStore, kb: Path, error: Exception, message: str
) -> None:
    with _client(store, default_kb=str(kb), runner=_failing_runner(error)) as client:
        dataset_id = _dataset(client)
        started = client.post(f"/evaluation/datasets/{dataset_id}/runs", json={"k": 5}).json()
        run = _poll(client, started["id"])
    assert run["status"] == "failed"
    assert run["error_message"] == message
    assert [r["question"] for r in run["results"]] == [q.question for q in _questions()[:2]]
    assert run["summary"] is None


def test_a_run_is_running_while_the_runner_works(store: RunStore, kb: Path) -> None:
    entered, release = threading.Event(), threading.Event()
    calls: list[dict[str, Any]] = []

    def runner(questions: Sequence[TestQuestion], config: RunConfig, **kwargs: Any) -> EvaluationOutcome:
        calls.append({"questions": len(questions), "k": config.k, "kb": config.kb, "dataset": kwargs["dataset"]})
        entered.set()
        assert release.wait(30)
        return _outcome(questions, k=config.k)

    with _client(store, default_kb=str(kb), runner=runner) as client:
        dataset_id = _dataset(client)
        started = client.post(f"/evaluation/datasets/{dataset_id}/runs", json={"k": 4})
        assert started.status_code == 201 and started.json()["status"] == "pending"
        assert entered.wait(30)
        assert client.get(f"/evaluation/runs/{started.json()['id']}").json()["status"] == "running"
        release.set()
        run = _poll(client, started.json()["id"])
    assert calls == [{"questions": 4, "k": 4, "kb": str(kb), "dataset": "aurora"}]
    assert run["status"] == "completed"
    assert run["metrics"]["MRR@4"] == pytest.approx(0.5)  # every question's document came second


def test_shutdown_cancels_queued_runs_and_lets_the_running_one_finish(store: RunStore, kb: Path) -> None:
    entered, release = threading.Event(), threading.Event()

    def runner(questions: Sequence[TestQuestion], config: RunConfig, **kwargs: Any) -> EvaluationOutcome:
        entered.set()
        assert release.wait(30)
        return _outcome(questions, k=config.k)

    app = create_app(store, default_kb=str(kb), runner=runner)
    jobs: JobRunner = app.state.jobs
    with TestClient(app) as client:
        dataset_id = _dataset(client)
        first, second = (client.post(f"/evaluation/datasets/{dataset_id}/runs", json={}).json()["id"] for _ in "ab")
        assert entered.wait(30)
        assert jobs.active() == sorted([first, second])
        jobs.shutdown(wait=False)
        assert store.get_run(second).status == "failed"
        assert store.get_run(second).error_message == CANCELLED
        release.set()
        assert jobs.wait(first, timeout=30)
    assert store.get_run(first).status == "completed"
    with pytest.raises(RuntimeError, match="shut down"):
        jobs.submit(first, dataset_id, "aurora", RunConfig(kb=str(kb)))


def test_failure_messages() -> None:
    assert failure_message(OptionError("k must be 1..50")) == "k must be 1..50"
    assert failure_message(KeyError("x")) == "KeyError: 'x'"
    assert failure_message(RuntimeError()) == "RuntimeError"


# ---- OpenAPI and the dashboard page -----------------------------------------------------------------------------


def test_openapi_documents_every_endpoint(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert schema["info"]["title"] == "testgen evaluation API"
    paths = schema["paths"]
    assert set(paths) == {
        "/evaluation/datasets",
        "/evaluation/datasets/{dataset_id}",
        "/evaluation/datasets/{dataset_id}/runs",
        "/evaluation/runs",
        "/evaluation/runs/{run_id}",
        "/healthz",
    }
    assert set(paths["/evaluation/datasets"]) == {"get", "post"}
    upload = paths["/evaluation/datasets"]["post"]
    assert set(upload["requestBody"]["content"]) == {"application/json", "multipart/form-data"}
    assert upload["responses"]["201"]["content"]["application/json"]["schema"]["$ref"].endswith("/DatasetInfo")
    start = paths["/evaluation/datasets/{dataset_id}/runs"]["post"]
    assert start["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/RunConfig")
    assert start["responses"]["201"]["content"]["application/json"]["schema"]["$ref"].endswith("/RunDetail")
    components = schema["components"]["schemas"]
    assert {"RunConfig", "DatasetQuestions", "DatasetSource", "TestQuestion", "RunInfo", "ErrorBody"} <= set(components)
    assert components["RunConfig"]["properties"]["k"]["maximum"] == 50
    refs = {m for m in json.dumps(schema).split('"') if m.startswith("#/components/schemas/")}
    assert {ref.rsplit("/", 1)[1] for ref in refs} <= set(components)  # every reference resolves


@pytest.mark.parametrize("path", ["/", "/dashboard"])
def test_the_dashboard_page_is_self_contained(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
    assert "default-src 'none'" in response.headers["content-security-policy"]
    page = response.text
    assert "<script src" not in page and "<link" not in page and "@import" not in page
    assert "innerHTML" not in page
    urls = {word for word in page.replace("'", '"').split('"') if word.startswith(("http://", "https://", "//"))}
    assert urls == {"http://www.w3.org/2000/svg"}  # the SVG namespace, not a download


# ---- the serve command ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("host", "loopback"), [("127.0.0.1", True), ("localhost", True), ("::1", True), ("0.0.0.0", False)]
)
def test_is_loopback(host: str, loopback: bool) -> None:
    assert is_loopback(host) is loopback


def test_dashboard_url() -> None:
    assert dashboard_url("127.0.0.1", 8000) == "http://127.0.0.1:8000/"
    assert dashboard_url("::1", 9000) == "http://[::1]:9000/"


def test_serve_refuses_a_remote_host_without_allow_remote() -> None:
    result = CliRunner().invoke(serve_command, ["--host", "0.0.0.0"])
    assert result.exit_code == 2
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: --host 0.0.0.0 is not a loopback address")
    assert "--allow-remote" in lines[0]


def test_serve_refuses_a_kb_that_does_not_exist(tmp_path: Path) -> None:
    result = CliRunner().invoke(serve_command, ["--kb", str(tmp_path / "nope")])
    assert result.exit_code == 2 and "no such folder" in result.output


def test_serve_starts_uvicorn_and_prints_the_dashboard_url(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, kb: Path
) -> None:
    import uvicorn

    seen: dict[str, Any] = {}

    def fake_run(app: Any, **options: Any) -> None:
        seen.update(options, app=app)

    monkeypatch.setattr(uvicorn, "run", fake_run)
    store_url = f"sqlite:///{tmp_path / 'serve.db'}"
    result = CliRunner().invoke(
        serve_command, ["--port", "8123", "--store", store_url, "--kb", str(kb), "--host", "0.0.0.0", "--allow-remote"]
    )
    assert result.exit_code == 0, result.output
    assert "dashboard: http://localhost:8123/" in result.output
    assert (seen["host"], seen["port"]) == ("0.0.0.0", 8123)
    assert seen["app"].state.default_kb == str(kb.resolve())
    assert "--allow-callable-targets" in CliRunner().invoke(serve_command, ["--help"]).output


def test_serve_marks_runs_an_earlier_server_left_unfinished_as_failed(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **options: None)
    store_url = f"sqlite:///{tmp_path / 'serve.db'}"
    with RunStore(store_url) as store:  # a server was killed: one run running with partial results, one queued
        dataset = store.add_dataset(_questions(), name="aurora", source="t")
        running = store.create_run(
            dataset.id, config={}, target={"target": "baseline"}, k=3, evaluation_type="retrieval_only"
        )
        store.mark_running(running.id)
        store.add_results(running.id, _outcome(_questions()).results[:2])
        queued = store.create_run(
            dataset.id, config={}, target={"target": "baseline"}, k=3, evaluation_type="retrieval_only"
        )
        done = store.record(_outcome(_questions()), questions=_questions(), dataset_name="aurora", dataset_source="t")
    result = CliRunner().invoke(serve_command, ["--store", store_url])
    assert result.exit_code == 0, result.output
    assert f"2 run(s) left unfinished by an earlier server marked failed: [{running.id}, {queued.id}]" in result.output
    with RunStore(store_url) as store:
        interrupted = store.get_run(running.id)
        assert interrupted.status == "failed" and interrupted.error_message == INTERRUPTED
        assert len(interrupted.results) == 2  # what it had finished is kept
        assert store.get_run(queued.id).status == "failed"
        assert store.get_run(done.id).status == "completed"
    again = CliRunner().invoke(serve_command, ["--store", store_url])
    assert "left unfinished" not in again.output


def test_register_adds_serve_once() -> None:
    import click

    @click.group()
    def group() -> None:
        """A group."""

    register(group)
    register(group)
    assert group.commands["serve"] is serve_command
    result = CliRunner().invoke(group, ["serve", "--help"])
    assert result.exit_code == 0 and "--allow-remote" in result.output


def test_a_body_over_the_limit_is_refused_with_413_and_nothing_is_stored(store: RunStore, kb: Path) -> None:
    with _client(store, default_kb=str(kb), max_body_bytes=10_000) as client:
        big = {"name": "big", "questions": _payload(_questions()) * 200}
        response = client.post("/evaluation/datasets", json=big)
        assert response.status_code == 413
        assert "10,000 bytes" in response.json()["detail"]
        assert client.get("/evaluation/datasets").json() == []
        small = client.post("/evaluation/datasets", json={"name": "small", "questions": _payload(_questions()[:1])})
        assert small.status_code == 201


def test_deeply_nested_json_is_a_422_not_a_crash(client: TestClient) -> None:
    deep = "[" * 100_000 + "]" * 100_000
    response = client.post("/evaluation/datasets", content=deep, headers={"content-type": "application/json"})
    assert response.status_code == 422
    assert "nested deeper" in response.json()["detail"]
