"""The engine interface: map a function over items, results in item order, on one process or many."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any, ClassVar, TypeVar

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")

Progress = Callable[[str, int, int], None]
"""progress(stage, done, total): units done (documents, chunks, questions) across every worker."""

Weight = Callable[[Any], int]
"""How many progress units one item counts for (1 when not given)."""


class Engine(ABC):
    """Where per-item work runs: in this process (`LocalEngine`) or on a Ray cluster (`RayEngine`).

    Both methods return one result per item **in item order**, whatever order the work finished in, so a caller
    that assembles the results gets the same output from every engine. `fn` and `setup` must be module-level
    functions (or other picklable callables) and `shared` and the items picklable values: a distributed engine
    sends them to other processes. A function that raises is a bug or a user error and the error reaches the
    caller; a worker process that dies is the engine's to recover from (Ray retries the work elsewhere)."""

    #: Name used by ``--engine``.
    name: ClassVar[str]
    #: Whether `fn` runs in the calling process, so it may report to the caller's own objects (progress bars).
    in_process: ClassVar[bool]

    @property
    @abstractmethod
    def workers(self) -> int:
        """How many items can be worked on at once."""

    @abstractmethod
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
        """``[fn(shared, item) for item in items]``; `shared` is sent to each worker once per call.

        `progress(stage, done, total)` counts `weight(item)` units (1 each by default); in-process it is
        reported whenever `done` passes a multiple of `every`, and always at the end (never for no items)."""

    @abstractmethod
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
        """Like :meth:`map`, but each worker calls `setup()` once (loads a model) and passes its result to
        `fn` for every item it is given."""

    def describe(self) -> dict[str, Any]:
        """What ran the work, for run summaries."""
        return {"engine": self.name, "workers": self.workers}

    def close(self) -> None:  # noqa: B027 - an engine with nothing to release keeps this
        """Release what the engine started (a local Ray instance); idempotent."""

    def __enter__(self) -> Engine:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def weigh(items: Sequence[Any], weight: Weight | None) -> list[int]:
    """The progress units of each item."""
    return [1] * len(items) if weight is None else [weight(item) for item in items]
