"""On-disk cache of finished LLM calls: re-running is free and reproducible, a killed run resumes.

Each entry is its own JSON file ``<dir>/<key[:2]>/<key>.json``, written to a temporary file and renamed as
soon as the call finishes, so a run killed at any moment leaves only whole entries behind. The key is the
sha256 of everything that determines the reply (model, api_base, messages, parameters, response schema);
the API key is never part of a key or an entry.

A call that failed after its retries is kept too, as a `CachedFailure` with its error kind and reason, so a
re-run can choose not to send it again (``retry_failed=False``); a later success overwrites it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import tempfile
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

logger = logging.getLogger("testgen.llm")

CACHE_FORMAT = 1
"""Version of the entry format; part of every key, so a format change never reads old entries wrongly."""


@dataclass
class CachedReply:
    """What is kept of one finished call."""

    text: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    finish_reason: str = ""
    model: str = ""

    @classmethod
    def from_response(cls, response: Any) -> CachedReply:
        """The parts of a litellm ModelResponse worth keeping (never its headers or hidden params)."""
        choice = response.choices[0]
        usage = getattr(response, "usage", None)
        return cls(
            text=choice.message.content or "",
            prompt_tokens=int(getattr(usage, "prompt_tokens", 0) or 0),
            completion_tokens=int(getattr(usage, "completion_tokens", 0) or 0),
            finish_reason=str(choice.finish_reason or ""),
            model=str(getattr(response, "model", "") or ""),
        )


@dataclass
class CachedFailure:
    """A call that failed after its retries: which error (class name in the LLM tree) and why."""

    kind: str
    reason: str


def cache_key(model: str, api_base: str | None, messages: Sequence[dict[str, str]], params: dict[str, Any]) -> str:
    """sha256 (hex) of the request's content; `params` must hold no secret (it is hashed, not stored)."""
    payload = {
        "format": CACHE_FORMAT,
        "model": model,
        "api_base": api_base,
        "messages": [dict(m) for m in messages],
        "params": params,
    }
    blob = json.dumps(payload, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class DiskCache:
    """A directory of cached replies, one file per key."""

    def __init__(self, directory: str | Path) -> None:
        self.directory = Path(directory)

    def path(self, key: str) -> Path:
        """Where the entry for `key` lives."""
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> CachedReply | None:
        """The cached reply, or None when absent, unreadable or a recorded failure (a damaged entry is a miss,
        with a warning)."""
        entry = self.entry(key)
        return entry if isinstance(entry, CachedReply) else None

    def entry(self, key: str) -> CachedReply | CachedFailure | None:
        """The cached reply or recorded failure, or None when absent or unreadable.

        An entry that exists but cannot be read (cut short, hand-edited, another format) is a miss with a
        one-line warning naming its file; the call's next reply or failure is written over it."""
        path = self.path(key)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if "failure" in data:
                return CachedFailure(**data["failure"])
            return CachedReply(**data["reply"])
        except FileNotFoundError:
            return None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            detail = " ".join(str(exc).split()) or type(exc).__name__
            logger.warning(
                "damaged LLM cache entry %s (%s); treated as a miss, the next reply replaces it", path, detail
            )
            return None

    def put(self, key: str, reply: CachedReply) -> None:
        """Write the entry atomically (temporary file in the same folder, then rename)."""
        self._write(key, {"format": CACHE_FORMAT, "key": key, "reply": asdict(reply)})

    def put_failure(self, key: str, failure: CachedFailure) -> None:
        """Record a failed call (atomically, like a reply); a later successful call replaces it."""
        self._write(key, {"format": CACHE_FORMAT, "key": key, "failure": asdict(failure)})

    def read_meta(self, name: str) -> dict[str, Any] | None:
        """A small record about a server (``meta/<name>.json``, e.g. structured-output modes it turned down)."""
        try:
            data = json.loads((self.directory / "meta" / f"{name}.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) else None

    def write_meta(self, name: str, data: dict[str, Any]) -> None:
        """Write a record read back by `read_meta` (atomically)."""
        self._write_file(self.directory / "meta" / f"{name}.json", data)

    def _write(self, key: str, entry: dict[str, Any]) -> None:
        self._write_file(self.path(key), entry)

    def _write_file(self, target: Path, entry: dict[str, Any]) -> None:
        target.parent.mkdir(parents=True, exist_ok=True)
        data = json.dumps(entry, ensure_ascii=False)
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=".tmp-", suffix=".json")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, target)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def __len__(self) -> int:
        """Number of entries on disk."""
        return sum(1 for _ in self.directory.glob("??/*.json")) if self.directory.is_dir() else 0
