"""Rate limits and the retry policy: token buckets for rpm/tpm caps, backoff with jitter, Retry-After, and the
mapping of litellm/openai/httpx errors into the LLM exception tree (with whether each is worth retrying).

Retried: timeouts, 429s, connection failures, 5xx (and 408/409). Not retried: auth, bad requests, content
policy, context overflow, unknown models (an `LLMConfigError`, which the CLI turns into exit 2). While the
client probes which structured-output mode a server takes, answers that `mode_unsupported` reads as "mode
not supported" move on to the next mode instead of being retried.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from testgen.llm._types import (
    LLMAuthFailed,
    LLMBadResponse,
    LLMBudgetExceeded,
    LLMCallError,
    LLMConfigError,
    LLMConnectionFailed,
    LLMError,
    LLMRateLimited,
    LLMTimeout,
)
from testgen.redact import redact
from testgen.retry import parse_retry_after

MAX_RETRY_AFTER = 120.0
"""Longest Retry-After honoured (seconds); a server asking for more gets this much."""

Jitter = Callable[[float], float]
"""Maps a nominal backoff delay to the delay actually slept."""


def equal_jitter(delay: float) -> float:
    """A random delay in ``[delay/2, delay]`` (spreads retries of concurrent calls)."""
    return random.uniform(delay / 2, delay)


def backoff_delay(
    attempt: int, base: float, cap: float, retry_after: float | None = None, jitter: Jitter = equal_jitter
) -> float:
    """Seconds to wait before retry number `attempt` (0-based): exponential with jitter, never below Retry-After."""
    delay = jitter(min(cap, base * 2**attempt))
    if retry_after is not None:
        delay = max(delay, min(retry_after, MAX_RETRY_AFTER))
    return delay


class TokenBucket:
    """A per-minute budget (requests or tokens) refilled continuously; `acquire` waits until enough is left.

    It holds at most `burst_seconds` worth (3 s by default, at least one unit), so no 60-second window sees
    much more than `per_minute`. The level may go negative through `adjust` when a call used more than
    estimated; later calls then wait.
    """

    def __init__(
        self, per_minute: float, burst_seconds: float = 3.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        if per_minute <= 0:
            raise ValueError(f"per_minute must be positive, got {per_minute}")
        self.rate = per_minute / 60.0
        self.capacity = max(1.0, self.rate * burst_seconds)
        self.level = self.capacity
        self._clock = clock
        self._stamp = clock()

    def _refill(self) -> None:
        now = self._clock()
        self.level = min(self.capacity, self.level + (now - self._stamp) * self.rate)
        self._stamp = now

    async def acquire(self, amount: float = 1.0) -> None:
        """Take `amount` (capped at the capacity, so a huge request can still pass), waiting as needed."""
        need = min(float(amount), self.capacity)
        while True:
            self._refill()
            if self.level >= need:
                self.level -= need
                return
            await asyncio.sleep((need - self.level) / self.rate)

    def adjust(self, delta: float) -> None:
        """Take `delta` more (or give back a negative `delta`) after the real usage is known."""
        self._refill()
        self.level = min(self.capacity, self.level - delta)


@dataclass
class MappedError:
    """An exception from below the client boundary, translated."""

    error: LLMError
    retryable: bool
    retry_after: float | None = None
    status: int | None = None
    """The HTTP status the server answered with, when the error is one."""


def retry_after(exc: BaseException) -> float | None:
    """Seconds from a Retry-After (or retry-after-ms) header found on the exception or its causes."""
    seen = 0
    current: BaseException | None = exc
    while current is not None and seen < 8:
        response = getattr(current, "response", None)
        for headers in (
            getattr(current, "litellm_response_headers", None),
            getattr(current, "headers", None),
            getattr(response, "headers", None),
        ):
            if headers:
                value = parse_retry_after(dict(headers))
                if value is not None:
                    return value
        current = current.__cause__ or current.__context__
        seen += 1
    return None


def _causes(exc: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    current = exc.__cause__ or exc.__context__
    while current is not None and len(chain) < 8:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def _by_status(status: int | None, text: str) -> MappedError:
    if status == 429:
        return MappedError(LLMRateLimited(text), True)
    if status in (401, 403):
        return MappedError(LLMAuthFailed(text), False)
    if status == 404:
        return MappedError(LLMConfigError(f"{text} (check the model name and api_base)"), False)
    if status is None or status >= 500 or status in (408, 409):
        return MappedError(LLMCallError(text), True)
    return MappedError(LLMCallError(text), False)


_MISSING_KEY = re.compile(
    r"missing credentials|missing [\w ]{0,20}api[ _-]?key|no key is set|api_key client option must be set", re.I
)


MODE_REJECTION_STATUSES = frozenset({400, 415, 422, 500, 501})
"""Statuses with which servers turn down a ``response_format`` they do not support (llama.cpp: 500; vLLM,
Ollama and others: 400/422)."""


_FORMAT_WORDS = re.compile(r"response_format|json_schema|json_object|schema|grammar", re.I)


def mode_unsupported(mapped: MappedError) -> bool | None:
    """Whether a failed request means "this structured-output mode is not supported": True for a 4xx among
    `MODE_REJECTION_STATUSES` or a 5xx whose message names the format (llama.cpp: ``response_format type must
    be one of "text" or "json_object"``); None for a bare 5xx, which may be passing trouble (retried, and
    taken as a rejection only when every retry fails the same way); False otherwise."""
    if mapped.status not in MODE_REJECTION_STATUSES or isinstance(mapped.error, LLMConfigError):
        return False
    if mapped.status < 500 or _FORMAT_WORDS.search(str(mapped.error)):
        return True
    return None


def map_error(exc: BaseException, secret: str | None = None) -> MappedError:
    """Translate any exception raised by a litellm call into the tree; `secret` is scrubbed from the message."""
    import httpx
    import openai

    from testgen.llm._litellm import import_litellm

    le = import_litellm().exceptions

    text = f"{type(exc).__name__}: {exc}"
    if secret and len(secret) >= 8:  # a placeholder like "no-key" is no secret, and scrubbing it mangles text
        text = text.replace(secret, "***")
    text = redact(text)[:600]  # any other key the provider echoed, headers, sk-/hf_ tokens
    status = getattr(exc, "status_code", None)
    status = status if isinstance(status, int) else None
    if isinstance(exc, LLMError):
        return MappedError(exc, isinstance(exc, (LLMTimeout, LLMRateLimited, LLMConnectionFailed)))
    if isinstance(exc, le.BudgetExceededError):
        return MappedError(LLMBudgetExceeded(text), False)
    if _MISSING_KEY.search(text):  # raised before any request (often as a 500): no retry can fix it
        return MappedError(
            LLMConfigError(
                f"no API key for the model: {text.split(' - ', 1)[-1][:300]} "
                "(set that variable, or give --api-base for a local OpenAI-compatible server)"
            ),
            False,
        )
    if isinstance(exc, (le.ModelNotMappedError, le.LiteLLMUnknownProvider, le.UnsupportedParamsError)):
        return MappedError(LLMConfigError(f"{text} (check the model string and its parameters)"), False)
    if isinstance(exc, (openai.APITimeoutError, httpx.TimeoutException, TimeoutError)):
        return MappedError(LLMTimeout(text), True)
    if isinstance(exc, openai.RateLimitError):
        return MappedError(LLMRateLimited(text), True, retry_after(exc), 429)
    if isinstance(exc, (openai.AuthenticationError, openai.PermissionDeniedError)):
        return MappedError(LLMAuthFailed(text), False, status=status)
    if isinstance(exc, openai.APIResponseValidationError):
        return MappedError(LLMBadResponse(text), False)
    if isinstance(exc, (openai.APIConnectionError, httpx.TransportError, ConnectionError)):
        return MappedError(LLMConnectionFailed(text), True)
    if isinstance(exc, httpx.HTTPStatusError):
        status = exc.response.status_code
    if status is None or status >= 500:  # litellm reports a refused connection as a 500: look underneath
        for cause in _causes(exc):
            if isinstance(cause, (openai.APITimeoutError, httpx.TimeoutException)):
                return MappedError(LLMTimeout(text), True)
            if isinstance(cause, (openai.APIConnectionError, httpx.TransportError)):
                return MappedError(LLMConnectionFailed(text), True)
    if isinstance(exc, (openai.APIStatusError, openai.APIError, httpx.HTTPStatusError)):
        mapped = _by_status(status, text)
        mapped.retry_after = retry_after(exc) if mapped.retryable else None
        mapped.status = status
        return mapped
    if isinstance(exc, OSError):
        return MappedError(LLMConnectionFailed(text), True)
    return MappedError(LLMCallError(text), False)
