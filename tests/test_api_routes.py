"""Each API router mounted alone on a bare FastAPI app: what it serves, and what it reads from ``app.state``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.exceptions import RequestValidationError
from fastapi.testclient import TestClient

from evaluators.api.deps import job_runner
from evaluators.api.handlers import add_error_handlers, where
from evaluators.api.routes import dashboard, datasets, health, runs
from evaluators.runner import RunConfig
from evaluators.store import RunStore
from schemas import TestQuestion

QUESTION = TestQuestion(
    question="How much does the Aurora Trail bike weigh?",
    keywords=["9.8 kilograms"],
    reference_answer="9.8 kilograms",
    category="direct_fact",
    source_docs=["bikes.md"],
)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RunStore]:
    store = RunStore(f"sqlite:///{tmp_path / 'runs.db'}")
    yield store
    store.close()


def _alone(router: Any, **state: Any) -> FastAPI:
    app = FastAPI()
    app.include_router(router)
    for name, value in state.items():
        setattr(app.state, name, value)
    return app


def test_the_health_router_alone_names_its_store_and_serves_nothing_else(store: RunStore) -> None:
    with TestClient(_alone(health.router, store=store)) as client:
        assert client.get("/healthz").json() == {"status": "ok", "store": store.url}
        assert client.get("/evaluation/datasets").status_code == 404


def test_the_dashboard_router_alone_serves_the_page_with_its_policy() -> None:
    with TestClient(_alone(dashboard.router)) as client:
        for path in ("/", "/dashboard"):
            response = client.get(path)
            assert response.status_code == 200
            assert response.headers["content-security-policy"] == dashboard.DASHBOARD_CSP
            assert "<html" in response.text.lower()
        assert client.get("/healthz").status_code == 404


def test_the_datasets_router_alone_registers_lists_and_reads_a_test_set(store: RunStore) -> None:
    with TestClient(_alone(datasets.router, store=store)) as client:
        response = client.post("/evaluation/datasets", json={"name": "bikes", "questions": [QUESTION.to_json_dict()]})
        assert response.status_code == 201, response.text
        dataset_id = response.json()["id"]
        assert [d["name"] for d in client.get("/evaluation/datasets").json()] == ["bikes"]
        assert client.get(f"/evaluation/datasets/{dataset_id}").json()["categories"] == {"direct_fact": 1}
        assert client.get(f"/evaluation/datasets/{dataset_id + 1}").status_code == 404
    assert [d.name for d in store.list_datasets()] == ["bikes"]


class RecordingJobs:
    """Stands in for the job runner: records what was submitted, runs nothing."""

    def __init__(self) -> None:
        self.submitted: list[tuple[int, int, str, RunConfig]] = []

    def submit(self, run_id: int, dataset_id: int, dataset: str, config: RunConfig) -> None:
        self.submitted.append((run_id, dataset_id, dataset, config))


def test_the_runs_router_alone_queues_a_run_with_the_servers_default_kb(store: RunStore, tmp_path: Path) -> None:
    dataset = store.add_dataset([QUESTION], name="bikes", source="upload")
    jobs = RecordingJobs()
    app = _alone(runs.router, store=store, default_kb=str(tmp_path), allow_callable=False)
    app.dependency_overrides[job_runner] = lambda: jobs
    with TestClient(app) as client:
        response = client.post(f"/evaluation/datasets/{dataset.id}/runs", json={"k": 3})
        assert response.status_code == 201, response.text
        run = response.json()
        assert run["status"] == "pending"
        assert [r["id"] for r in client.get("/evaluation/runs").json()] == [run["id"]]
        assert client.get(f"/evaluation/runs/{run['id']}").json()["dataset_id"] == dataset.id
    [(run_id, dataset_id, name, config)] = jobs.submitted
    assert (run_id, dataset_id, name) == (run["id"], dataset.id, "bikes")
    assert (config.kb, config.k) == (str(tmp_path), 3)


def test_run_settings_fill_the_default_kb_and_refuse_code_unless_allowed() -> None:
    config = runs.run_settings({"k": 2}, default_kb="kb", allow_callable=False)
    assert (config.kb, config.k, config.target) == ("kb", 2, "baseline")
    assert runs.run_settings({"kb": "mine"}, default_kb="kb", allow_callable=False).kb == "mine"
    with pytest.raises(RequestValidationError, match="needs kb"):
        runs.run_settings({}, default_kb=None, allow_callable=False)
    with pytest.raises(RequestValidationError, match="--allow-callable-targets"):
        runs.run_settings({"target": "callable:pkg.mod:fn"}, default_kb="kb", allow_callable=False)
    assert runs.run_settings({"target": "callable:pkg.mod:fn"}, default_kb="kb", allow_callable=True).target == (
        "callable:pkg.mod:fn"
    )
    with pytest.raises(RequestValidationError, match="JSON object"):
        runs.run_settings([1], default_kb="kb", allow_callable=False)


def test_error_handlers_on_a_bare_app_answer_with_one_line_details(store: RunStore) -> None:
    app = _alone(datasets.router, store=store)
    add_error_handlers(app)
    with TestClient(app) as client:
        response = client.post("/evaluation/datasets", json={"name": "bikes", "questions": [{"question": "q"}]})
        assert response.status_code == 422
        assert response.json()["detail"].startswith("questions[0].")
        assert client.post("/evaluation/datasets", json={"name": "empty", "questions": []}).json() == {
            "detail": "the dataset holds no test questions (give at least one)"
        }


@pytest.mark.parametrize(
    ("loc", "expected"),
    [
        (("body", "questions", 1, "keywords"), "questions[1].keywords"),
        (("body",), "body"),
        ((), "body"),
        (("query", "limit"), "query parameter limit"),
        (("path",), "path"),
    ],
)
def test_where_names_the_field(loc: tuple[Any, ...], expected: str) -> None:
    assert where(loc) == expected
