"""One retry loop and one ``Retry-After`` parser, for every call that may fail for a while: an embedding model,
the HTTP endpoint or Python function under test (the LLM client reads ``Retry-After`` with the same parser).

    attempts = Attempts(retries=2, wait=lambda attempt, exc: 0.5 * 2**attempt if is_transient(exc) else None)
    reply = attempts.call(lambda: send(question))   # the last failure is raised; attempts.made counts the calls

What is worth another attempt, and how long to wait, stays with the caller (its `wait`); the loop is the same
everywhere.
"""

from __future__ import annotations

import asyncio
import email.utils
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

__all__ = ["Attempts", "Wait", "parse_retry_after"]

T = TypeVar("T")

Wait = Callable[[int, Exception], "float | None"]
"""``wait(attempt, exc)``: seconds to sleep before retry number `attempt` (0-based) after the failure `exc`, or None
when `exc` is not worth another attempt."""


class Attempts:
    """The attempts of one call: the first, then at most `retries` more while `wait` gives a delay.

    Make one per call: `made` counts that call's attempts (for messages such as "after 3 attempts").
    """

    def __init__(self, *, retries: int, wait: Wait) -> None:
        if retries < 0:
            raise ValueError(f"retries must be 0 or more, got {retries}")
        self.retries = retries
        self.wait = wait
        self.made = 0

    def _delay(self, exc: Exception) -> float | None:
        attempt = self.made - 1
        return self.wait(attempt, exc) if attempt < self.retries else None

    def call(self, fn: Callable[[], T], *, sleep: Callable[[float], object] = time.sleep) -> T:
        """`fn()`, tried again after each failure `wait` gives a delay for; the last failure is raised as is."""
        while True:
            self.made += 1
            try:
                return fn()
            except Exception as exc:
                delay = self._delay(exc)
                if delay is None:
                    raise
            sleep(delay)

    async def acall(
        self, fn: Callable[[], Awaitable[T]], *, sleep: Callable[[float], Awaitable[object]] = asyncio.sleep
    ) -> T:
        """`await fn()`, as :meth:`call`."""
        while True:
            self.made += 1
            try:
                return await fn()
            except Exception as exc:
                delay = self._delay(exc)
                if delay is None:
                    raise
            await sleep(delay)


def parse_retry_after(headers: Mapping[str, Any]) -> float | None:
    """Seconds a server asks to wait, from ``retry-after-ms`` or ``Retry-After`` (seconds or an HTTP date), never
    below 0; None when neither header is there or readable. Header names are matched in any case; callers cap
    the value at what they are willing to wait."""
    try:
        lowered = {str(k).lower(): v for k, v in headers.items()}
        ms = lowered.get("retry-after-ms")
        if ms is not None:
            return max(0.0, float(ms) / 1000)
        value = lowered.get("retry-after")
    except (AttributeError, TypeError, ValueError):
        return None
    if value is None:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        parsed = email.utils.parsedate_to_datetime(str(value))
    except (TypeError, ValueError):  # neither seconds nor an HTTP date ("soon", ""): no advice
        return None
    return max(0.0, parsed.timestamp() - time.time())
