"""The REST API over the run store: register test sets, start evaluation runs, read their results; the dashboard.

    store = RunStore("sqlite:///runs.db")
    app = create_app(store, default_kb="examples/aurora_bikes")   # then: uvicorn, or `evaluate serve`

Every error body is ``{"detail": "<one line>"}``; a request that fails validation (422) also carries ``errors``,
the list of ``{loc, msg, type}``. Runs execute in worker threads (see :mod:`evaluators.api.jobs`).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from importlib import resources
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, HTTPException, Query, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import HTMLResponse, JSONResponse
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from evaluators.api.jobs import JobRunner, Runner, describe_target, stored_config
from evaluators.api.limits import DEFAULT_MAX_BODY_BYTES, BodyLimit
from evaluators.errors import StoreError, StoreNotFound
from evaluators.runner import RunConfig, run_evaluation
from schemas import DatasetInfo, RunDetail, RunInfo, TestQuestion
from testgen.errors import UserInputError
from testgen.export.jsonl import MAX_DEPTH, json_depth

if TYPE_CHECKING:
    from evaluators.store import RunStore

TITLE = "testgen evaluation API"
DASHBOARD_CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The dashboard loads nothing from elsewhere: its script may only call this server."""


Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class ErrorBody(BaseModel):
    """Every error response."""

    detail: str = Field(description="What went wrong, in one line.")
    errors: list[dict[str, Any]] | None = Field(
        default=None, description="Validation errors (422 only): loc, msg and type of each."
    )


class DatasetQuestions(BaseModel):
    """Register a test set sent in the request."""

    model_config = ConfigDict(extra="forbid")

    name: Name = Field(description="Short name of the test set.")
    questions: list[TestQuestion] = Field(description="The test questions (the tests.jsonl contract).")


class DatasetSource(BaseModel):
    """Register a test set the server loads itself."""

    model_config = ConfigDict(extra="forbid")

    name: Name | None = Field(default=None, description="Default: the file or Hub name.")
    source: str = Field(
        min_length=1,
        description="A path on the server (tests.jsonl, tests.parquet, a save_to_disk folder) or "
        "hf://org/name[@revision][#split].",
    )


class Health(BaseModel):
    """The server is up."""

    status: str = "ok"
    store: str = Field(description="The run store's URL, password masked.")


def _schema_ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{model.__name__}"}


_DATASET_BODY = {
    "requestBody": {
        "required": True,
        "content": {
            "application/json": {"schema": {"anyOf": [_schema_ref(DatasetQuestions), _schema_ref(DatasetSource)]}},
            "multipart/form-data": {
                "schema": {
                    "type": "object",
                    "properties": {
                        "file": {"type": "string", "format": "binary", "description": "A tests.jsonl file."},
                        "name": {"type": "string", "description": "Default: the file name."},
                    },
                    "required": ["file"],
                }
            },
        },
    }
}
_RUN_BODY = {
    "requestBody": {
        "required": False,
        "description": "The run's configuration; every field is optional (no body: the defaults). "
        "kb defaults to the server's --kb.",
        "content": {"application/json": {"schema": _schema_ref(RunConfig)}},
    }
}
_ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "Bad input (message names the fix)"},
    422: {"model": ErrorBody, "description": "Invalid request (fields named in detail and errors)"},
}
_NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody, "description": "No such dataset or run"}}


def _where(loc: Sequence[Any]) -> str:
    """``("body", "questions", 1, "keywords")`` → ``questions[1].keywords``; query and path parameters named so."""
    head, *rest = [*loc] or ["body"]
    path = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in rest).lstrip(".")
    if head == "body":
        return path or "body"
    return f"{head} parameter {path}" if path else str(head)


def _invalid_body(msg: str, *loc: str | int, type_: str = "missing") -> RequestValidationError:
    """A 422 about the request body (or the field at `loc` in it)."""
    return RequestValidationError([{"loc": ("body", *loc), "msg": msg, "type": type_}])


def _validate_name(name: str) -> str:
    try:
        return str(TypeAdapter(Name).validate_python(name))
    except ValidationError as exc:
        raise _invalid_body(exc.errors()[0]["msg"], "name") from None


def _validate(model: type[BaseModel], raw: Any) -> Any:
    """`raw` as a `model`, or a 422 naming each bad field under ``body``."""
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        errors = [{"loc": ("body", *e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
        raise RequestValidationError(errors) from None


async def _json_body(request: Request, *, empty: Any = None) -> Any:
    body = await request.body()
    if not body.strip():
        if empty is None:
            raise _invalid_body("a JSON body is required")
        return empty
    try:
        raw = json.loads(body)
    except RecursionError:
        raise _invalid_body(f"JSON nested deeper than {MAX_DEPTH} levels", type_="json_invalid") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        msg = (
            f"invalid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
            if isinstance(exc, json.JSONDecodeError)
            else "the body is not UTF-8"
        )
        raise _invalid_body(msg, type_="json_invalid") from None
    if json_depth(raw) > MAX_DEPTH:
        raise _invalid_body(f"JSON nested deeper than {MAX_DEPTH} levels", type_="json_invalid")
    return raw


def _parse_upload(data: bytes, filename: str) -> list[TestQuestion]:
    """Questions from an uploaded tests.jsonl, errors naming the uploaded file's name and line."""
    from testgen.export.jsonl import read_jsonl

    with tempfile.TemporaryDirectory(prefix="testgen-upload-") as folder:
        path = Path(folder) / "upload.jsonl"  # never the client's name: it could be "..", or hold a separator
        path.write_bytes(data)
        try:
            return read_jsonl(path)
        except UserInputError as exc:
            raise UserInputError(str(exc).replace(str(path), filename)) from None


def _check_not_empty(questions: Sequence[TestQuestion]) -> None:
    if not questions:
        raise UserInputError("the dataset holds no test questions (give at least one)")


_CODE_SPECS = ("callable:", "langchain:", "llamaindex:")
"""Target and model forms that name a Python object to import (refused unless the server allows it)."""


def create_app(
    store: RunStore,
    *,
    default_kb: str | None = None,
    workers: int = 1,
    runner: Runner = run_evaluation,
    allow_callable: bool = False,
    max_body_bytes: int = DEFAULT_MAX_BODY_BYTES,
) -> FastAPI:
    """The API and dashboard over `store`; runs use `default_kb` when a request gives no kb.

    A ``callable:pkg.mod:fn`` target (likewise a ``langchain:`` or ``llamaindex:`` target, or a ``langchain:`` model)
    imports and calls any object of the server's Python, so a request may name one only when `allow_callable` is set
    (whoever can reach the API can then run code as the server's user). A request body over `max_body_bytes` is
    answered 413 before it is read whole.

    `workers` threads run evaluations; `runner` is :func:`~evaluators.runner.run_evaluation` or a stand-in with its
    signature. The job runner is ``app.state.jobs``; it is shut down (queued runs cancelled, running ones awaited)
    when the app's lifespan ends.
    """
    jobs = JobRunner(store, workers=workers, runner=runner)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        await run_in_threadpool(jobs.shutdown)

    app = FastAPI(
        title=TITLE,
        version="1",
        description="Register test sets, run evaluations on them in the background, read metrics and results.",
        lifespan=lifespan,
    )
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    app.state.store = store
    app.state.jobs = jobs
    app.state.default_kb = default_kb
    dashboard = resources.files("evaluators.api").joinpath("dashboard.html").read_text(encoding="utf-8")

    @app.exception_handler(RequestValidationError)
    async def _invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [
            {"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")} for e in exc.errors()
        ]
        detail = "; ".join(f"{_where(e['loc'])}: {e['msg']}" for e in errors[:5])
        if len(errors) > 5:
            detail += f"; and {len(errors) - 5} more"
        return JSONResponse(status_code=422, content=jsonable_encoder({"detail": detail, "errors": errors}))

    @app.exception_handler(StoreNotFound)
    async def _not_found(_request: Request, exc: StoreNotFound) -> JSONResponse:
        return JSONResponse(status_code=404, content={"detail": str(exc)})

    @app.exception_handler(UserInputError)
    async def _user_error(_request: Request, exc: UserInputError) -> JSONResponse:
        return JSONResponse(status_code=400, content={"detail": str(exc)})

    @app.exception_handler(Exception)
    async def _bug(_request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse(
            status_code=500, content={"detail": f"internal error ({type(exc).__name__}); see the server log"}
        )

    @app.exception_handler(StoreError)
    async def _store_error(_request: Request, exc: StoreError) -> JSONResponse:
        return JSONResponse(status_code=503, content={"detail": f"run store unavailable: {exc}"})

    def dataset_or_404(dataset_id: int) -> DatasetInfo:
        try:
            return store.get_dataset(dataset_id)
        except StoreNotFound:
            raise HTTPException(404, f"no dataset with id {dataset_id}") from None

    @app.post(
        "/evaluation/datasets",
        status_code=201,
        response_model=DatasetInfo,
        responses={**_ERRORS, 415: {"model": ErrorBody, "description": "Neither JSON nor multipart"}},
        openapi_extra=_DATASET_BODY,
        summary="Register a test set",
    )
    async def add_dataset(request: Request) -> DatasetInfo:
        """Send the questions (JSON), name a source the server loads (JSON), or upload a tests.jsonl (multipart)."""
        content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if content_type == "multipart/form-data":
            async with request.form() as form:
                upload = form.get("file")
                if not isinstance(upload, UploadFile):
                    raise _invalid_body("upload the tests.jsonl as form field file", "file")
                filename = PurePath(upload.filename or "").name or "upload.jsonl"
                given = form.get("name")
                name = _validate_name(given if isinstance(given, str) and given.strip() else filename)
                data = await upload.read()
            questions = await run_in_threadpool(_parse_upload, data, filename)
            source = "upload"
        elif content_type in ("application/json", ""):
            raw = await _json_body(request)
            if isinstance(raw, dict) and "questions" in raw:
                sent: DatasetQuestions = _validate(DatasetQuestions, raw)
                name, questions, source = sent.name, sent.questions, "upload"
            elif isinstance(raw, dict) and "source" in raw:
                ref: DatasetSource = _validate(DatasetSource, raw)
                questions = await run_in_threadpool(_load_source, ref.source)
                name, source = ref.name or _ref_name(ref.source), ref.source
            else:
                raise _invalid_body(
                    "give a JSON object with questions (a list of test questions) or source "
                    "(a tests.jsonl path on the server, or hf://org/name)"
                )
        else:
            raise HTTPException(415, "send JSON (questions or source) or a multipart upload (form field file)")
        _check_not_empty(questions)
        info: DatasetInfo = await run_in_threadpool(lambda: store.add_dataset(questions, name=name, source=source))
        return info

    @app.get("/evaluation/datasets", response_model=list[DatasetInfo], summary="List test sets")
    def list_datasets() -> list[DatasetInfo]:
        """Every registered test set."""
        return store.list_datasets()

    @app.get(
        "/evaluation/datasets/{dataset_id}", response_model=DatasetInfo, responses=_NOT_FOUND, summary="One test set"
    )
    def get_dataset(dataset_id: int) -> DatasetInfo:
        """One test set (question count by category)."""
        return dataset_or_404(dataset_id)

    @app.post(
        "/evaluation/datasets/{dataset_id}/runs",
        status_code=201,
        response_model=RunDetail,
        responses={**_ERRORS, **_NOT_FOUND},
        openapi_extra=_RUN_BODY,
        summary="Start an evaluation run",
    )
    async def start_run(dataset_id: int, request: Request) -> RunDetail:
        """Queue a run on the test set; it goes pending → running → completed | failed (poll the run)."""
        raw = await _json_body(request, empty={})
        if not isinstance(raw, dict):
            raise _invalid_body("expected a JSON object of run settings", type_="dict_type")
        if raw.get("kb") is None and default_kb is not None:
            raw = {**raw, "kb": default_kb}
        if str(raw.get("target", "baseline")).strip().startswith("baseline") and not raw.get("kb"):
            raise _invalid_body(
                "the baseline target needs kb (the knowledge-base folder): give kb in the request "
                "or start the server with --kb DIR",
                "kb",
            )
        for field in ("target", "llm", "judge_llm"):  # these forms import and run the server's Python code
            if str(raw.get(field) or "").strip().startswith(_CODE_SPECS) and not allow_callable:
                raise _invalid_body(
                    f"{field} {str(raw[field])!r} runs code inside the server: start it with --allow-callable-targets "
                    "to accept callable:, langchain: and llamaindex: objects, or serve the system over HTTP and "
                    "give its URL as target",
                    field,
                    type_="value_error",
                )
        config: RunConfig = _validate(RunConfig, raw)
        dataset = await run_in_threadpool(dataset_or_404, dataset_id)
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

    @app.get("/evaluation/runs", response_model=list[RunInfo], responses=_NOT_FOUND, summary="List runs")
    def list_runs(
        dataset_id: Annotated[int | None, Query(description="Only runs on this test set.")] = None,
        limit: Annotated[int, Query(ge=1, le=1000, description="At most this many runs.")] = 100,
    ) -> list[RunInfo]:
        """Runs, newest first, without their per-question results."""
        if dataset_id is not None:
            dataset_or_404(dataset_id)
        return store.list_runs(dataset_id=dataset_id, limit=limit)

    @app.get("/evaluation/runs/{run_id}", response_model=RunDetail, responses=_NOT_FOUND, summary="One run")
    def get_run(
        run_id: int,
        results: Annotated[bool, Query(description="Include the per-question results.")] = True,
    ) -> RunDetail:
        """A run with its summary and (partial while running, or after a failure) per-question results."""
        try:
            return store.get_run(run_id, with_results=results)
        except StoreNotFound:
            raise HTTPException(404, f"no run with id {run_id}") from None

    @app.get("/healthz", response_model=Health, summary="Health check")
    def healthz() -> Health:
        """The server is up; which store it uses."""
        return Health(store=store.url)

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    @app.get("/dashboard", response_class=HTMLResponse, include_in_schema=False)
    def show_dashboard() -> HTMLResponse:
        return HTMLResponse(dashboard, headers={"Content-Security-Policy": DASHBOARD_CSP, "Cache-Control": "no-cache"})

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
            components = schema.setdefault("components", {}).setdefault("schemas", {})
            for model in (DatasetQuestions, DatasetSource, RunConfig):
                model_schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
                for name, definition in model_schema.pop("$defs", {}).items():
                    components.setdefault(name, definition)
                components.setdefault(model.__name__, model_schema)
            app.openapi_schema = schema
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    return app


def _load_source(ref: str) -> list[TestQuestion]:
    from testgen.hub import load_dataset_ref

    try:
        return load_dataset_ref(ref)
    except OSError as exc:
        raise UserInputError(f"{ref}: cannot read: {exc.strerror or exc}") from exc


def _ref_name(ref: str) -> str:
    from testgen.hub import dataset_ref_name

    return dataset_ref_name(ref) or ref
