"""The Ray engine: items in batches as Ray tasks (`map`) or on actors that keep what they loaded (`map_with`).

Ray is imported when an engine is made, never at import time: without the ``ray`` extra the toolkit imports and
runs as before, and asking for this engine is a one-line error with the install command.

Failure behaviour: a task whose worker process dies is run again (up to `MAX_RETRIES` times); an actor whose
process dies is restarted, which runs its `setup` again, and its unfinished batches are run again on it.
Results are placed by batch index, so the output does not depend on which worker finished first or on retries.
"""

from __future__ import annotations

import logging
import math
import socket
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

from testgen.engine._base import Engine, Progress, Weight, weigh
from testgen.errors import EngineError, UserInputError

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")

#: What to run when Ray is missing.
INSTALL_HINT = "--engine ray needs Ray; install it with: pip install 'testgen-rag[ray]'"
#: Times a batch is run again after its worker process died (and times an actor is restarted).
MAX_RETRIES = 3
#: Items per task at most, and tasks per worker aimed at: enough tasks to keep every worker busy and to lose
#: little when one is retried, few enough that the per-task overhead (milliseconds) stays small.
MAX_BATCH = 256
TASKS_PER_WORKER = 8
#: Batches in flight per worker: one running, one queued behind it so the worker never waits for the driver.
IN_FLIGHT = 2
#: Seconds to wait for a cluster's port to answer before saying it cannot be reached (Ray itself retries for
#: minutes, printing a warning every few seconds).
CONNECT_TIMEOUT = 5.0


def import_ray() -> Any:
    """The `ray` module, or EngineError with the install command."""
    try:
        import ray
    except ImportError as exc:
        raise EngineError(INSTALL_HINT) from exc
    return ray


def _probe(address: str) -> None:
    """EngineError at once when the ``host:port`` of `address` does not accept a connection (``auto`` is left to
    Ray, which finds the local cluster's address itself)."""
    where = address.removeprefix("ray://")
    host, sep, port = where.rpartition(":")
    if address == "auto" or not sep or not port.isdigit():
        return
    try:
        socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=CONNECT_TIMEOUT).close()
    except OSError as exc:
        raise EngineError(
            f"cannot reach the Ray cluster at {address}: {exc.strerror or exc} (check --ray-address: the head "
            "node's host:port (6379 by default), ray://host:10001 for Ray Client, or auto on a cluster node)"
        ) from exc


def _run_batch(fn: Callable[[Any, Any], Any], shared: Any, batch: list[Any]) -> list[Any]:
    return [fn(shared, item) for item in batch]


class _Holder:
    """An actor's state: what `setup` returned, kept for every batch the actor is given."""

    def __init__(self, setup: Callable[[], Any]) -> None:
        self._state = setup()

    def run(self, fn: Callable[[Any, Any], Any], batch: list[Any]) -> list[Any]:
        return [fn(self._state, item) for item in batch]


class RayEngine(Engine):
    """Work spread over a Ray cluster: a new local instance by default, or the cluster at `address`.

    `workers` caps how many batches run at once (default: every CPU of the cluster; for a new local instance it
    is also the number of CPUs it gets). When Ray is already initialised in this process (a notebook, a test
    fixture), that connection is used and left open on :meth:`close`. `batch` fixes the items per task.
    Raises EngineError when Ray is not installed or the cluster cannot be reached."""

    name: ClassVar[str] = "ray"
    in_process: ClassVar[bool] = False

    def __init__(self, *, address: str | None = None, workers: int | None = None, batch: int | None = None) -> None:
        if workers is not None and workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        if batch is not None and batch < 1:
            raise ValueError(f"batch must be at least 1, got {batch}")
        ray = import_ray()
        self._ray = ray
        self.address = address
        self._owns = False
        if not ray.is_initialized():
            if address:
                _probe(address)
            try:
                ray.init(
                    address=address or "local",
                    num_cpus=None if address else workers,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.WARNING,
                )
            except (ConnectionError, TimeoutError, RuntimeError, ValueError) as exc:
                where = f"the Ray cluster at {address}" if address else "a local Ray instance"
                raise EngineError(
                    f"cannot start or reach {where}: {exc} "
                    "(check --ray-address; start a cluster with: ray start --head)"
                ) from exc
            self._owns = True
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._workers = min(workers, cpus) if workers else cpus
        self._batch = batch
        self._task = ray.remote(num_cpus=1, max_retries=MAX_RETRIES)(_run_batch)
        self._actor = ray.remote(num_cpus=1, max_restarts=MAX_RETRIES, max_task_retries=MAX_RETRIES)(_Holder)

    @property
    def workers(self) -> int:
        """Batches that run at once."""
        return self._workers

    def describe(self) -> dict[str, Any]:
        """Engine name, workers, and the cluster address (``local`` for a new local instance)."""
        return {"engine": self.name, "workers": self.workers, "address": self.address or "local"}

    def close(self) -> None:
        """Shut down the local instance this engine started (a cluster it connected to keeps running)."""
        if self._owns and self._ray.is_initialized():
            self._ray.shutdown()
        self._owns = False

    def map(
        self,
        fn: Callable[[S, T], R],
        items: Sequence[T],
        *,
        shared: S = None,  # type: ignore[assignment]
        stage: str = "",
        progress: Progress | None = None,
        weight: Weight | None = None,
        every: int = 1,
    ) -> list[R]:
        """Batches of items as Ray tasks; `shared` is put in the object store once and read by every task."""
        if not items:
            return []
        shared_ref = self._ray.put(shared)
        spans = self._spans(len(items))

        def submit(index: int, slot: int) -> Any:
            start, stop = spans[index]
            return self._task.remote(fn, shared_ref, list(items[start:stop]))

        slots = list(range(self.workers * IN_FLIGHT))
        return self._gather(spans, submit, slots, weigh(items, weight), stage, progress, cancel=True)

    def map_with(
        self,
        setup: Callable[[], S],
        fn: Callable[[S, T], R],
        items: Sequence[T],
        *,
        stage: str = "",
        progress: Progress | None = None,
        weight: Weight | None = None,
        every: int = 1,
    ) -> list[R]:
        """Batches of items on one actor per worker; each actor runs `setup()` once, when it starts."""
        if not items:
            return []
        spans = self._spans(len(items))
        actors = [self._actor.remote(setup) for _ in range(min(self.workers, len(spans)))]

        def submit(index: int, slot: int) -> Any:
            start, stop = spans[index]
            return actors[slot % len(actors)].run.remote(fn, list(items[start:stop]))

        try:
            slots = list(range(len(actors) * IN_FLIGHT))
            return self._gather(spans, submit, slots, weigh(items, weight), stage, progress, cancel=False)
        finally:
            for actor in actors:
                self._ray.kill(actor)

    def _spans(self, n: int) -> list[tuple[int, int]]:
        size = self._batch or max(1, min(MAX_BATCH, math.ceil(n / (self.workers * TASKS_PER_WORKER))))
        return [(start, min(start + size, n)) for start in range(0, n, size)]

    def _gather(
        self,
        spans: list[tuple[int, int]],
        submit: Callable[[int, int], Any],
        slots: list[int],
        units: list[int],
        stage: str,
        progress: Progress | None,
        *,
        cancel: bool,
    ) -> list[Any]:
        """Keep every slot busy, collect results by batch index as they finish, report progress."""
        ray = self._ray
        results: list[list[Any] | None] = [None] * len(spans)
        pending: dict[Any, tuple[int, int]] = {}
        free = list(reversed(slots))
        total, done, following = sum(units), 0, 0
        try:
            while following < len(spans) or pending:
                while following < len(spans) and free:
                    slot = free.pop()
                    pending[submit(following, slot)] = (following, slot)
                    following += 1
                ready, _ = ray.wait(list(pending), num_returns=1)
                for ref in ready:
                    index, slot = pending.pop(ref)
                    free.append(slot)
                    results[index] = self._get(ref)
                    start, stop = spans[index]
                    done += sum(units[start:stop])
                    if progress is not None:
                        progress(stage, done, total)
        except BaseException:
            if cancel:
                for ref in pending:
                    ray.cancel(ref, force=True)
            raise
        return [item for batch in results for item in batch or ()]

    def _get(self, ref: Any) -> Any:
        """A finished batch's results; a user error raised in a worker is raised here as itself."""
        try:
            return self._ray.get(ref)
        except self._ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, UserInputError):
                raise cause from None
            raise
