"""What every command shares: one-line errors with exit code 2, progress on stderr."""

from __future__ import annotations

import functools
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from testgen.errors import UserInputError

F = TypeVar("F", bound=Callable[..., Any])

#: Without a terminal, an unfinished stage prints a line at most this often (seconds).
HEARTBEAT_SECONDS = 10.0


def one_line_errors(*also: type[BaseException]) -> Callable[[F], F]:
    """A decorator: `UserInputError` (and the exception types in `also`) become ``error: <message>`` on stderr
    and exit code 2; bugs keep their traceback."""
    caught: tuple[type[BaseException], ...] = (UserInputError, *also)

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return func(*args, **kwargs)
            except caught as exc:
                click.echo(f"error: {exc}", err=True)
                sys.exit(2)

        return wrapper  # type: ignore[return-value]

    return decorate


user_errors = one_line_errors()
"""Turn `UserInputError` into ``error: <message>`` on stderr and exit code 2; bugs keep their traceback."""


@contextmanager
def progress_reporter(quiet: bool) -> Iterator[Callable[[str, int, int], None]]:
    """A progress callback: a live bar on a terminal, a line per finished stage otherwise."""
    if quiet:
        yield lambda stage, done, total: None
        return
    if sys.stderr.isatty():
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(
            TextColumn("{task.description:<22}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), transient=True
        ) as bar:
            tasks: dict[str, Any] = {}

            def update(stage: str, done: int, total: int) -> None:
                if stage not in tasks:
                    tasks[stage] = bar.add_task(stage, total=total)
                bar.update(tasks[stage], completed=done, total=total)

            yield update
        return
    finished: set[str] = set()
    last: dict[str, float] = {}

    def log(stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if done >= total and stage not in finished:
            finished.add(stage)
            click.echo(f"{stage}: {done}/{total}", err=True)
        elif done < total and now - last.setdefault(stage, now) >= HEARTBEAT_SECONDS:
            last[stage] = now  # a long stage in a log file still shows it is moving
            click.echo(f"{stage}: {done}/{total}", err=True)

    yield log
