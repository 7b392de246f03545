"""An HTTP endpoint as the system under test: ``http://host/path`` or ``https://...``.

Each question is sent as ``POST {"question": "...", "k": 10}`` (JSON); the reply is JSON with the shape a
callable returns (a list of contexts or ``{"contexts": [...], "answer": "..."}``). Requests run in a thread
pool over one ``httpx.Client``. Timeouts, connection errors, 5xx and 429 replies are retried with
exponential backoff (``Retry-After``, in seconds or as an HTTP date, honoured up to 30 s); whatever still
fails, including 4xx replies and bodies that are not JSON, becomes that question's error.
"""

from __future__ import annotations

import json
import time
from typing import Any
from urllib.parse import SplitResult, urlsplit

import httpx

from evaluators.errors import TargetError
from evaluators.targets.base import (
    Progress,
    check_concurrency,
    check_k,
    error_record,
    error_text,
    record_from_reply,
    run_concurrently,
)
from schemas import RunRecord, TestQuestion
from testgen.errors import OptionError
from testgen.redact import public_url, register_secret
from testgen.retry import Attempts, parse_retry_after

__all__ = ["HttpTarget"]

_MAX_RETRY_AFTER = 30.0
_TRANSIENT = (httpx.TimeoutException, httpx.NetworkError, httpx.RemoteProtocolError)


class _Retryable(Exception):
    """A reply worth another attempt (5xx, 429); carries the server's Retry-After, if any."""

    def __init__(self, message: str, retry_after: float | None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class _Failed(Exception):
    """A reply that is final and wrong (4xx, not JSON); the message is the question's error as is."""


def _retry_after(response: httpx.Response) -> float | None:
    """The wait the server asks for (seconds or an HTTP date), at most `_MAX_RETRY_AFTER`."""
    seconds = parse_retry_after(response.headers)
    return None if seconds is None else min(seconds, _MAX_RETRY_AFTER)


def _valid_port(parts: SplitResult) -> bool:
    try:
        parts.port  # noqa: B018 (reading it checks it: a port out of 0-65535 or not a number raises)
    except ValueError:
        return False
    return True


class HttpTarget:
    """POSTs each question to ``url``; ``headers`` (e.g. an API key) are sent but never reported.

    ``name`` is the URL without user, password or query string, for the same reason.

    Raises TargetError for a URL that is not http(s) with a host, OptionError for bad numeric options.
    """

    def __init__(
        self,
        url: str,
        *,
        concurrency: int = 8,
        timeout: float = 60.0,
        retries: int = 2,
        backoff: float = 0.5,
        headers: dict[str, str] | None = None,
    ) -> None:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname or not _valid_port(parts):
            raise TargetError(f"bad endpoint URL {url!r} (write it as http://host:port/path or https://...)")
        if timeout <= 0:
            raise OptionError(f"timeout must be positive seconds, got {timeout!r}")
        if retries < 0 or backoff < 0:
            raise OptionError(f"retries and backoff must be 0 or more, got {retries!r} and {backoff!r}")
        self.url = url
        self.name = public_url(url)
        self.concurrency = check_concurrency(concurrency)
        self.timeout, self.retries, self.backoff = timeout, retries, backoff
        self._headers = dict(headers or {})
        for value in self._headers.values():  # a reply quoting them must not land in a report
            register_secret(value)

    def describe(self) -> dict[str, Any]:
        """Settings for reports: the URL without credentials, never the headers."""
        return {
            "target": "http",
            "url": self.name,
            "concurrency": self.concurrency,
            "timeout_s": self.timeout,
            "retries": self.retries,
        }

    def _attempt(self, client: httpx.Client, question: TestQuestion, k: int) -> Any:
        response = client.post(self.url, json={"question": question.question, "k": k})
        status = f"{response.status_code} {response.reason_phrase}".strip()
        if response.status_code == 429 or response.status_code >= 500:
            raise _Retryable(f"HTTPStatusError: {status}", _retry_after(response))
        if response.status_code >= 400:
            body = " ".join(response.text.split())[:200]
            raise _Failed(f"HTTPStatusError: {status}" + (f": {body}" if body else ""))
        try:
            return response.json()
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            start = response.text[:60]
            raise _Failed(f"{type(exc).__name__}: the reply is not JSON ({exc}); it starts {start!r}") from exc

    def _wait(self, attempt: int, exc: Exception) -> float | None:
        """Exponential backoff, at least the server's Retry-After, for timeouts, network errors, 5xx and 429."""
        if not isinstance(exc, (_Retryable, *_TRANSIENT)):
            return None
        wait = self.backoff * 2**attempt
        if isinstance(exc, _Retryable) and exc.retry_after is not None:
            wait = max(wait, exc.retry_after)
        return wait

    def _one(self, client: httpx.Client, question: TestQuestion, k: int) -> RunRecord:
        began = time.perf_counter()
        attempts = Attempts(retries=self.retries, wait=self._wait)
        try:
            reply = attempts.call(lambda: self._attempt(client, question, k))
            return record_from_reply(question, reply, k, (time.perf_counter() - began) * 1000)
        except (_Retryable, _Failed) as exc:
            error = str(exc)
        except Exception as exc:  # anything else the endpoint caused: recorded, never raised
            error = error_text(exc)
        suffix = f" (after {attempts.made} attempts)" if attempts.made > 1 else ""
        return error_record(question, error + suffix, (time.perf_counter() - began) * 1000)

    def run(self, questions: list[TestQuestion], k: int, progress: Progress | None = None) -> list[RunRecord]:
        """Send every question; records in question order, failures with ``error`` set."""
        check_k(k)
        limits = httpx.Limits(max_connections=self.concurrency, max_keepalive_connections=self.concurrency)
        with httpx.Client(timeout=self.timeout, headers=self._headers, limits=limits) as client:

            def work(question: TestQuestion) -> RunRecord:
                return self._one(client, question, k)

            return run_concurrently(questions, work, self.concurrency, progress)
