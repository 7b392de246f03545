"""What a route needs from the app it is mounted on, as FastAPI dependencies read from ``app.state``.

:func:`~evaluators.api.app.create_app` sets ``app.state.store``, ``jobs``, ``default_kb`` and ``allow_callable``;
a test that mounts one router on a bare ``FastAPI()`` sets the ones that router uses (or overrides these functions
with ``app.dependency_overrides``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from evaluators.api.jobs import JobRunner
from evaluators.store import RunStore


def run_store(request: Request) -> RunStore:
    """The run store the app serves."""
    store: RunStore = request.app.state.store
    return store


def job_runner(request: Request) -> JobRunner:
    """The threads that run evaluations."""
    jobs: JobRunner = request.app.state.jobs
    return jobs


def default_kb(request: Request) -> str | None:
    """The knowledge-base folder a run uses when its request names none (the server's ``--kb``)."""
    kb: str | None = getattr(request.app.state, "default_kb", None)
    return kb


def allow_callable(request: Request) -> bool:
    """Whether a request may name Python code to run (``callable:``, ``langchain:``, ``llamaindex:``)."""
    return bool(getattr(request.app.state, "allow_callable", False))


Store = Annotated[RunStore, Depends(run_store)]
Jobs = Annotated[JobRunner, Depends(job_runner)]
DefaultKb = Annotated[str | None, Depends(default_kb)]
AllowCallable = Annotated[bool, Depends(allow_callable)]
