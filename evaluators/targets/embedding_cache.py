"""A disk cache of passage embeddings, so dense and hybrid baselines embed a knowledge base once, not every run.

Embedding every chunk is the slow part of a dense run on a CPU (minutes for a few thousand chunks); the chunks
of an unchanged knowledge base are the same texts run after run. Vectors are kept in one SQLite file, keyed by
a hash of the model's name and version, the kind of text (passage or query) and the text itself, so a changed
model, a changed chunk or a re-chunked corpus simply misses, and only the missing texts are embedded.

The cache saves time, it is never worth failing a run for: a file that cannot be opened, read or written is
reported once in the log and the run goes on without it.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sqlite3
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

__all__ = ["EmbeddingCache", "default_cache_dir"]

logger = logging.getLogger("evaluators.targets")

FILE_NAME = "embeddings.sqlite"


def default_cache_dir() -> Path:
    """``$TESTGEN_CACHE_DIR``, else ``.testgen_cache`` in the working directory (beside the LLM cache)."""
    return Path(os.environ.get("TESTGEN_CACHE_DIR") or ".testgen_cache")


class EmbeddingCache:
    """Vectors by (model, kind, text) in ``<folder>/embeddings.sqlite``."""

    def __init__(self, folder: str | os.PathLike[str], model_key: str) -> None:
        self.path = Path(folder) / FILE_NAME
        self.model_key = model_key
        self.hits = 0
        self.misses = 0
        self._db: sqlite3.Connection | None = None
        self._broken = False

    def _connect(self) -> sqlite3.Connection | None:
        if self._db is None and not self._broken:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                db = sqlite3.connect(self.path, timeout=30)
                db.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, dim INTEGER, data BLOB)")
                self._db = db
            except (OSError, sqlite3.Error) as exc:
                self._give_up(exc)
        return self._db

    def _give_up(self, exc: BaseException) -> None:
        logger.warning("embedding cache %s not used: %s", self.path, exc)
        self._broken = True
        if self._db is not None:
            self._db.close()
            self._db = None

    def key(self, text: str, kind: str) -> str:
        """The entry key of `text` embedded as `kind` ("passage" or "query") by this cache's model."""
        return hashlib.sha256(f"{self.model_key}\0{kind}\0{text}".encode()).hexdigest()

    def get_many(self, texts: Sequence[str], kind: str, dim: int) -> list[NDArray[np.float32] | None]:
        """The cached vector of each text, None where there is none (or it has another dimension)."""
        found: list[NDArray[np.float32] | None] = [None] * len(texts)
        db = self._connect()
        if db is not None:
            keys = [self.key(t, kind) for t in texts]
            rows: dict[str, tuple[int, bytes]] = {}
            try:
                for start in range(0, len(keys), 500):  # below SQLite's limit on bound parameters
                    batch = keys[start : start + 500]
                    marks = ",".join("?" * len(batch))
                    query = f"SELECT key, dim, data FROM vectors WHERE key IN ({marks})"
                    rows.update({k: (d, b) for k, d, b in db.execute(query, batch)})
            except sqlite3.Error as exc:
                self._give_up(exc)
                rows = {}
            for i, k in enumerate(keys):
                row = rows.get(k)
                if row is not None and row[0] == dim and len(row[1]) == dim * 4:
                    found[i] = np.frombuffer(row[1], dtype=np.float32)
        hits = sum(v is not None for v in found)
        self.hits += hits
        self.misses += len(texts) - hits
        return found

    def put_many(self, texts: Sequence[str], kind: str, vectors: NDArray[np.float32]) -> None:
        """Keep the vector of each text (one row of `vectors` per text)."""
        db = self._connect()
        if db is None or not len(texts):
            return
        dim = int(vectors.shape[1])
        rows = [
            (self.key(t, kind), dim, np.ascontiguousarray(v, dtype=np.float32).tobytes())
            for t, v in zip(texts, vectors, strict=True)
        ]
        try:
            with db:
                db.executemany("INSERT OR REPLACE INTO vectors (key, dim, data) VALUES (?, ?, ?)", rows)
        except sqlite3.Error as exc:
            self._give_up(exc)

    def close(self) -> None:
        """Close the file (the cache opens it again when used)."""
        if self._db is not None:
            self._db.close()
            self._db = None
