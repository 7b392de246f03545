"""The REST API over the run store: register test sets, start evaluation runs, read their results; the dashboard.

    store = RunStore("sqlite:///runs.db")
    app = create_app(store, default_kb="examples/aurora_bikes")   # then: uvicorn, or `evaluate serve`

The routes live in :mod:`evaluators.api.routes`, one router per area; :func:`create_app` only assembles them with
the error handlers (:mod:`evaluators.api.handlers`), the body-size limit and the OpenAPI document. Every error body
is ``{"detail": "<one line>"}``; a request that fails validation (422) also carries ``errors``, the list of
``{loc, msg, type}``. Runs execute in worker threads (see :mod:`evaluators.api.jobs`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from typing import TYPE_CHECKING

from fastapi import FastAPI
from starlette.concurrency import run_in_threadpool

from evaluators.api.handlers import add_error_handlers
from evaluators.api.jobs import JobRunner, Runner
from evaluators.api.limits import DEFAULT_MAX_BODY_BYTES, BodyLimit
from evaluators.api.openapi import use_full_schema
from evaluators.api.routes import dashboard, datasets, health, runs
from evaluators.api.routes.dashboard import DASHBOARD_CSP
from evaluators.runner import run_evaluation

if TYPE_CHECKING:
    from evaluators.store import RunStore

__all__ = ["DASHBOARD_CSP", "TITLE", "create_app"]

TITLE = "testgen evaluation API"


def shut_down_with_app(jobs: JobRunner) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """A lifespan that shuts `jobs` down (queued runs cancelled, running ones awaited) when the app stops."""

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        await run_in_threadpool(jobs.shutdown)

    return lifespan


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
    app = FastAPI(
        title=TITLE,
        version="1",
        description="Register test sets, run evaluations on them in the background, read metrics and results.",
        lifespan=shut_down_with_app(jobs),
    )
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    app.state.store = store
    app.state.jobs = jobs
    app.state.default_kb = default_kb
    app.state.allow_callable = allow_callable
    add_error_handlers(app)
    for area in (datasets, runs, health, dashboard):
        app.include_router(area.router)
    use_full_schema(app)
    return app
