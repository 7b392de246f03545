"""Evaluation runs in worker threads: pending → running → completed | failed, always recorded in the store."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from typing import TYPE_CHECKING, Any

from evaluators.runner import RunConfig, run_evaluation
from testgen.errors import UserInputError
from testgen.redact import public_url

if TYPE_CHECKING:
    from evaluators.evaluate import EvaluationOutcome
    from evaluators.store import RunStore
    from schemas import QuestionResult, TestQuestion

Runner = Callable[..., "EvaluationOutcome"]
"""``runner(questions, config, *, dataset=..., checkpoint=...)``: `run_evaluation` or a stand-in."""

CANCELLED = "cancelled: the server stopped before the run started"

log = logging.getLogger(__name__)


def failure_message(exc: BaseException) -> str:
    """The run's error message: the plain message for errors the user can fix, else ``Type: message``."""
    if isinstance(exc, UserInputError):
        return str(exc)
    text = str(exc)
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


class JobRunner:
    """Runs evaluations on a pool of `workers` threads and records each step in `store`.

    ``submit`` returns at once; the run is marked running when a thread takes it. Any exception ends the run
    "failed" with its message, keeping the results the runner passed to its ``checkpoint`` callback.
    """

    def __init__(self, store: RunStore, *, workers: int = 1, runner: Runner = run_evaluation) -> None:
        if workers < 1:
            raise ValueError(f"workers must be 1 or more, got {workers}")
        self.store = store
        self.runner = runner
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="evaluation")
        self._futures: dict[int, Future[None]] = {}
        self._lock = threading.Lock()
        self._closed = False

    def submit(self, run_id: int, dataset_id: int, dataset: str, config: RunConfig) -> None:
        """Queue run `run_id` (already created, pending) on the questions of dataset `dataset_id`."""
        with self._lock:
            if self._closed:
                raise RuntimeError("the job runner is shut down")
            future = self._pool.submit(self._execute, run_id, dataset_id, dataset, config)
            self._futures[run_id] = future
        future.add_done_callback(lambda _f: self._forget(run_id))

    def active(self) -> list[int]:
        """Ids of the runs queued or running in this process."""
        with self._lock:
            return sorted(self._futures)

    def wait(self, run_id: int, timeout: float | None = None) -> bool:
        """Block until run `run_id` has finished here (or was never queued); False when `timeout` ran out first."""
        with self._lock:
            future = self._futures.get(run_id)
        if future is None:
            return True
        done, _ = wait_futures([future], timeout=timeout)
        return bool(done)

    def shutdown(self, *, wait: bool = True) -> None:
        """Stop taking runs; runs not started yet end "failed" (cancelled); running ones finish when `wait`."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            queued = dict(self._futures)
        self._pool.shutdown(wait=False, cancel_futures=True)
        for run_id, future in queued.items():
            if future.cancelled():
                self._record_failure(run_id, CANCELLED)
        if wait:
            self._pool.shutdown(wait=True)

    def _forget(self, run_id: int) -> None:
        with self._lock:
            self._futures.pop(run_id, None)

    def _execute(self, run_id: int, dataset_id: int, dataset: str, config: RunConfig) -> None:
        partial: list[QuestionResult] = []

        def checkpoint(results: list[QuestionResult]) -> None:
            partial[:] = results
            self.store.add_results(run_id, results)

        try:
            self.store.mark_running(run_id)
            questions: Sequence[TestQuestion] = self.store.dataset_questions(dataset_id)
            outcome = self.runner(questions, config, dataset=dataset, checkpoint=checkpoint)
            self.store.complete_run(run_id, outcome.summary, outcome.results)
        except Exception as exc:
            if not isinstance(exc, UserInputError):
                log.exception("run %d failed", run_id)
            self._record_failure(run_id, failure_message(exc), partial or None)

    def _record_failure(self, run_id: int, message: str, results: list[QuestionResult] | None = None) -> None:
        try:
            self.store.fail_run(run_id, message, results)
        except Exception:  # the store itself is broken: nothing left to record the failure in
            log.exception("could not record the failure of run %d", run_id)


def stored_config(config: RunConfig) -> dict[str, Any]:
    """The run's configuration as stored, with an HTTP target's credentials removed."""
    data = config.model_dump(mode="json")
    if config.target.lower().startswith(("http://", "https://")):
        data["target"] = public_url(config.target)
    return data


def describe_target(config: RunConfig) -> dict[str, Any]:
    """What a run will evaluate, before the target is built (no credentials: an HTTP URL loses user and query)."""
    spec = config.target.strip()
    if spec.startswith("baseline"):
        return {
            "target": "baseline",
            "retriever": config.retriever,
            "kb": config.kb,
            "chunk_size": config.chunk_size,
            "chunk_overlap": config.chunk_overlap,
        }
    if spec.lower().startswith(("http://", "https://")):
        return {"target": "http", "url": public_url(spec)}
    kind, _, argument = spec.partition(":")
    key = {"runfile": "path", "callable": "function"}.get(kind, "spec")
    return {"target": kind, key: argument}
