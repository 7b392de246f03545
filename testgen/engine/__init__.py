"""Engines: where per-item work runs, with the same results wherever that is.

``testgen build`` and ``evaluate`` express their parallel work as maps over items (documents, chunks, batches of
texts, shards of questions) through an :class:`Engine`; everything that needs the whole corpus at once (entity
resolution, graph assembly, similar chunks, generation, means) stays in the calling process.

=========  ======================================================================================
``local``  :class:`LocalEngine`: this process, one item after another (the default)
``ray``    :class:`RayEngine`: Ray tasks and actors on a local instance or a cluster (``ray`` extra)
=========  ======================================================================================

Every engine returns results in item order, so ``--engine ray`` writes the same ``tests.jsonl`` and the same
metric values as ``--engine local``::

    with make_engine("ray", workers=2) as engine:
        outcome = build_testset("examples/aurora_bikes", engine=engine)
"""

from __future__ import annotations

import os

from testgen.engine._base import Engine, Progress, Weight
from testgen.engine._local import LocalEngine
from testgen.engine._ray import INSTALL_HINT, MAX_RETRIES, RayEngine
from testgen.errors import OptionError

__all__ = [
    "ENGINES",
    "ENV_VAR",
    "INSTALL_HINT",
    "MAX_RETRIES",
    "Engine",
    "LocalEngine",
    "Progress",
    "RayEngine",
    "Weight",
    "make_engine",
]

#: Engine names, as ``--engine`` takes them.
ENGINES: tuple[str, ...] = ("local", "ray")
#: Environment variable that chooses the engine when ``--engine`` is not given.
ENV_VAR = "TESTGEN_ENGINE"


def make_engine(name: str | None = None, *, address: str | None = None, workers: int | None = None) -> Engine:
    """The engine called `name` (default: ``$TESTGEN_ENGINE``, else ``local``).

    `address` (a Ray cluster: ``auto``, ``ray://host:10001``, ``host:6379``) and `workers` apply to ``ray``;
    giving them with ``local`` is an OptionError, as is an unknown name. Raises EngineError when Ray is
    missing or its cluster cannot be reached."""
    chosen = (name or os.environ.get(ENV_VAR) or "local").strip().lower()
    if chosen not in ENGINES:
        choices = ", ".join(ENGINES)
        raise OptionError(f"unknown engine {chosen!r} (choose one of: {choices}; set by --engine or ${ENV_VAR})")
    if chosen == "local":
        if address or workers:
            given = "--ray-address" if address else "--ray-workers"
            raise OptionError(f"{given} applies to --engine ray only")
        return LocalEngine()
    return RayEngine(address=address, workers=workers)
