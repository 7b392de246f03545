"""Evaluation runs: ``POST /evaluation/datasets/{dataset_id}/runs`` queues one, ``GET /evaluation/runs`` lists them,
``GET /evaluation/runs/{run_id}`` reads one with its per-question results."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Query, Request
from starlette.concurrency import run_in_threadpool

from evaluators.api.bodies import ERRORS, NOT_FOUND, UNSUPPORTED, invalid_body, json_body, schema_ref, validate
from evaluators.api.deps import AllowCallable, DefaultKb, Jobs, Store
from evaluators.api.jobs import describe_target, stored_config
from evaluators.api.routes.datasets import dataset_or_404
from evaluators.errors import StoreNotFound
from evaluators.runner import RunConfig
from schemas import RunDetail, RunInfo

router = APIRouter()

RUN_BODY = {
    "requestBody": {
        "required": False,
        "description": "The run's configuration; every field is optional (no body: the defaults). "
        "kb defaults to the server's --kb.",
        "content": {"application/json": {"schema": schema_ref(RunConfig)}},
    }
}

CODE_SPECS = ("callable:", "langchain:", "llamaindex:")
"""Target and model forms that name a Python object to import (refused unless the server allows it)."""


def run_settings(raw: Any, *, default_kb: str | None, allow_callable: bool) -> RunConfig:
    """The run's configuration from the request's JSON: `default_kb` filled in, code-running forms refused
    unless `allow_callable`, every field validated (a 422 naming the field otherwise)."""
    if not isinstance(raw, dict):
        raise invalid_body("expected a JSON object of run settings", type_="dict_type")
    if raw.get("kb") is None and default_kb is not None:
        raw = {**raw, "kb": default_kb}
    if str(raw.get("target", "baseline")).strip().startswith("baseline") and not raw.get("kb"):
        raise invalid_body(
            "the baseline target needs kb (the knowledge-base folder): give kb in the request "
            "or start the server with --kb DIR",
            "kb",
        )
    for field in ("target", "llm", "judge_llm"):  # these forms import and run the server's Python code
        if str(raw.get(field) or "").strip().startswith(CODE_SPECS) and not allow_callable:
            raise invalid_body(
                f"{field} {str(raw[field])!r} runs code inside the server: start it with --allow-callable-targets "
                "to accept callable:, langchain: and llamaindex: objects, or serve the system over HTTP and "
                "give its URL as target",
                field,
                type_="value_error",
            )
    config: RunConfig = validate(RunConfig, raw)
    return config


@router.post(
    "/evaluation/datasets/{dataset_id}/runs",
    status_code=201,
    response_model=RunDetail,
    responses={**ERRORS, **NOT_FOUND, **UNSUPPORTED},
    openapi_extra=RUN_BODY,
    summary="Start an evaluation run",
)
async def start_run(
    dataset_id: int,
    request: Request,
    store: Store,
    jobs: Jobs,
    default_kb: DefaultKb,
    allow_callable: AllowCallable,
) -> RunDetail:
    """Queue a run on the test set; it goes pending → running → completed | failed (poll the run)."""
    raw = await json_body(request, empty={}, only_json=True)
    config = run_settings(raw, default_kb=default_kb, allow_callable=allow_callable)
    dataset = await run_in_threadpool(dataset_or_404, store, dataset_id)
    run: RunInfo = await run_in_threadpool(
        lambda: store.create_run(
            dataset.id,
            config=stored_config(config),
            target=describe_target(config),
            k=config.k,
            evaluation_type=config.evaluation_type,
        )
    )
    jobs.submit(run.id, dataset.id, dataset.name, config)
    return RunDetail(**run.model_dump())


@router.get("/evaluation/runs", response_model=list[RunInfo], responses=NOT_FOUND, summary="List runs")
def list_runs(
    store: Store,
    dataset_id: Annotated[int | None, Query(description="Only runs on this test set.")] = None,
    limit: Annotated[int, Query(ge=1, le=1000, description="At most this many runs.")] = 100,
) -> list[RunInfo]:
    """Runs, newest first, without their per-question results."""
    if dataset_id is not None:
        dataset_or_404(store, dataset_id)
    return store.list_runs(dataset_id=dataset_id, limit=limit)


@router.get("/evaluation/runs/{run_id}", response_model=RunDetail, responses=NOT_FOUND, summary="One run")
def get_run(
    run_id: int,
    store: Store,
    results: Annotated[bool, Query(description="Include the per-question results.")] = True,
) -> RunDetail:
    """A run with its summary and (partial while running, or after a failure) per-question results."""
    try:
        return store.get_run(run_id, with_results=results)
    except StoreNotFound:
        raise HTTPException(404, f"no run with id {run_id}") from None
