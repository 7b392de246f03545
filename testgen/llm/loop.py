"""One event loop for a whole LLM run, usable from scripts and from inside a running loop (notebooks)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from typing import Any


class EventLoop:
    """One event loop for the whole run (async clients stay bound to it). Inside an already running loop
    (a notebook) the calls run on a private loop in a worker thread instead."""

    def __init__(self) -> None:
        self._runner: asyncio.Runner | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None

    def run(self, coro: Coroutine[Any, Any, Any]) -> Any:
        if self._runner is None and self._loop is None:
            try:
                asyncio.get_running_loop()
            except RuntimeError:
                self._runner = asyncio.Runner()
            else:
                self._loop = asyncio.new_event_loop()
                self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
                self._thread.start()
        if self._runner is not None:
            return self._runner.run(coro)
        assert self._loop is not None
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    def close(self) -> None:
        if self._runner is not None:
            self._runner.close()
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join()
            self._loop.close()
