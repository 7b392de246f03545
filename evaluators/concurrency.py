"""Bounded concurrency for the LLM stages of an evaluation (answers, judge, RAGAS metrics).

Every stage runs many independent calls at most N at once and must stop cleanly at the ``--max-cost`` cap: no
call starts after it, the ones in flight finish, and what finished before it is kept.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, TypeVar, cast

from testgen.llm import LLMBudgetExceeded
from testgen.llm.loop import EventLoop

__all__ = ["run_bounded", "run_sync", "run_until_stopped"]

T = TypeVar("T")


async def run_until_stopped(
    jobs: Sequence[Callable[[], Awaitable[T]]],
    concurrency: int,
    progress: Callable[[int, int], None] | None = None,
    *,
    stop_on: tuple[type[BaseException], ...] = (LLMBudgetExceeded,),
) -> tuple[list[T | None], BaseException | None]:
    """Run `jobs` at most `concurrency` at once: their results in input order, and the exception that stopped
    them. A job raising one of `stop_on` stops the run: no job starts after it (those give None), the ones in
    flight finish. ``progress(done, total)`` follows every finished job; other exceptions propagate."""
    if concurrency < 1:
        raise ValueError(f"concurrency must be at least 1, got {concurrency}")
    semaphore = asyncio.Semaphore(concurrency)
    stop: list[BaseException] = []
    done = 0
    total = len(jobs)

    async def one(job: Callable[[], Awaitable[T]]) -> T | None:
        nonlocal done
        async with semaphore:
            if stop:
                return None
            try:
                value = await job()
            except stop_on as exc:
                stop.append(exc)
                return None
        done += 1
        if progress is not None:
            progress(done, total)
        return value

    results = await asyncio.gather(*(one(job) for job in jobs))
    return list(results), (stop[0] if stop else None)


async def run_bounded(
    jobs: Sequence[Callable[[], Awaitable[T]]],
    concurrency: int,
    progress: Callable[[int, int], None] | None = None,
) -> list[T]:
    """Run `jobs` at most `concurrency` at once; results in input order.

    `LLMBudgetExceeded` stops the run: no job starts after it, the ones in flight finish, then it is raised.
    """
    results, stopped = await run_until_stopped(jobs, concurrency, progress)
    if stopped is not None:
        raise stopped
    return cast(list[T], results)  # every job finished: no None left


def run_sync(coro: Coroutine[Any, Any, T], loop: EventLoop | None) -> T:
    """Run `coro` on `loop`, or on a private `EventLoop` closed afterwards (works inside a notebook too)."""
    own = loop is None
    runner = loop or EventLoop()
    try:
        result: T = runner.run(coro)
    finally:
        if own:
            runner.close()
    return result
