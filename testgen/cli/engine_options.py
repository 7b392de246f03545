"""The engine options `testgen build` and `evaluate` share: ``--engine``, ``--ray-address``, ``--ray-workers``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from testgen.engine import ENGINES, ENV_VAR, Engine, make_engine

F = TypeVar("F", bound=Callable[..., Any])


def engine_options(command: F) -> F:
    """Add ``--engine``, ``--ray-address`` and ``--ray-workers`` (parameters ``engine``, ``ray_address``,
    ``ray_workers``); :func:`open_engine` turns them into an engine."""
    options = [
        click.option(
            "--engine",
            type=click.Choice(ENGINES),
            envvar=ENV_VAR,
            default="local",
            show_default=True,
            help="Where per-document and per-question work runs: this process, or Ray (pip install "
            f"'testgen-rag[ray]'); the output is the same [env: {ENV_VAR}].",
        ),
        click.option(
            "--ray-address",
            default=None,
            metavar="ADDRESS",
            help="--engine ray: an existing cluster (auto, ray://head:10001, head:6379) [default: start a local "
            "Ray instance for this run].",
        ),
        click.option(
            "--ray-workers",
            type=click.IntRange(1, 100_000),
            default=None,
            help="--engine ray: batches run at once (and CPUs of the local instance) [default: every CPU].",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def open_engine(engine: str, ray_address: str | None, ray_workers: int | None) -> Engine:
    """The engine the options name (use it as a context manager so a local Ray instance is shut down)."""
    return make_engine(engine, address=ray_address, workers=ray_workers)
