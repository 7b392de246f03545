"""The engine that runs everything in the calling process, in item order: the default."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, TypeVar

from testgen.engine._base import Engine, Progress, Weight, weigh

S = TypeVar("S")
T = TypeVar("T")
R = TypeVar("R")


class LocalEngine(Engine):
    """One process, one item after another: what every command does without ``--engine``."""

    name: ClassVar[str] = "local"
    in_process: ClassVar[bool] = True

    @property
    def workers(self) -> int:
        """One: items are worked on one at a time."""
        return 1

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
        """``[fn(shared, item) for item in items]``, reporting progress as it goes."""
        units = weigh(items, weight)
        total = sum(units)
        done = 0
        results: list[R] = []
        for n, item in enumerate(items, 1):
            results.append(fn(shared, item))
            before, done = done, done + units[n - 1]
            if progress is not None and (done // every > before // every or n == len(items)):
                progress(stage, done, total)
        return results

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
        """`setup()` once (only when there is an item), then :meth:`map` with its result as `shared`."""
        if not items:
            return []
        return self.map(fn, items, shared=setup(), stage=stage, progress=progress, weight=weight, every=every)
