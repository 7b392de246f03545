"""The one retry loop and the one Retry-After parser (testgen.retry)."""

from __future__ import annotations

import asyncio
import email.utils
import time
from collections.abc import Iterator

import httpx
import pytest

from evaluators.targets.http_target import _retry_after
from testgen.retry import Attempts, parse_retry_after


class Flaky:
    """Fails with the given exceptions in turn, then returns "done"."""

    def __init__(self, *failures: Exception) -> None:
        self.failures: Iterator[Exception] = iter(failures)
        self.calls = 0

    def __call__(self) -> str:
        self.calls += 1
        failure = next(self.failures, None)
        if failure is not None:
            raise failure
        return "done"


def _backoff(attempt: int, exc: Exception) -> float | None:
    return 0.5 * 2**attempt if isinstance(exc, TimeoutError) else None


def test_retried_failures_wait_as_told_and_the_call_succeeds() -> None:
    slept: list[float] = []
    attempts = Attempts(retries=3, wait=_backoff)
    flaky = Flaky(TimeoutError("1"), TimeoutError("2"))
    assert attempts.call(flaky, sleep=slept.append) == "done"
    assert (flaky.calls, attempts.made, slept) == (3, 3, [0.5, 1.0])


def test_the_last_failure_is_raised_once_the_retries_are_spent() -> None:
    slept: list[float] = []
    attempts = Attempts(retries=2, wait=_backoff)
    flaky = Flaky(TimeoutError("1"), TimeoutError("2"), TimeoutError("3"), TimeoutError("4"))
    with pytest.raises(TimeoutError, match=r"^3$"):
        attempts.call(flaky, sleep=slept.append)
    assert (flaky.calls, attempts.made, slept) == (3, 3, [0.5, 1.0])


def test_a_failure_wait_declines_is_raised_at_once() -> None:
    slept: list[float] = []
    attempts = Attempts(retries=5, wait=_backoff)
    flaky = Flaky(TimeoutError("1"), ValueError("final"))
    with pytest.raises(ValueError, match="final"):
        attempts.call(flaky, sleep=slept.append)
    assert (flaky.calls, attempts.made, slept) == (2, 2, [0.5])


def test_no_retries_means_one_attempt() -> None:
    attempts = Attempts(retries=0, wait=_backoff)
    with pytest.raises(TimeoutError):
        attempts.call(Flaky(TimeoutError("once")), sleep=lambda _s: pytest.fail("slept"))
    assert attempts.made == 1
    with pytest.raises(ValueError, match="0 or more"):
        Attempts(retries=-1, wait=_backoff)


def test_the_async_loop_retries_alike() -> None:
    slept: list[float] = []
    flaky = Flaky(TimeoutError("1"))

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    async def call() -> str:
        return flaky()

    attempts = Attempts(retries=1, wait=_backoff)
    assert asyncio.run(attempts.acall(call, sleep=sleep)) == "done"
    assert (attempts.made, slept) == (2, [0.5])


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"Retry-After": "1.5"}, 1.5),
        ({"retry-after": "0"}, 0.0),
        ({"RETRY-AFTER": "-3"}, 0.0),
        ({"retry-after-ms": "250", "retry-after": "9"}, 0.25),
        ({"retry-after": "soon"}, None),
        ({"retry-after": ""}, None),
        ({"retry-after-ms": "x"}, None),
        ({}, None),
    ],
)
def test_retry_after_values(headers: dict[str, str], expected: float | None) -> None:
    assert parse_retry_after(headers) == expected


def test_retry_after_as_an_http_date() -> None:
    later = email.utils.formatdate(time.time() + 60, usegmt=True)
    seconds = parse_retry_after({"Retry-After": later})
    assert seconds is not None and 55 <= seconds <= 60
    past = email.utils.formatdate(time.time() - 60, usegmt=True)
    assert parse_retry_after({"Retry-After": past}) == 0.0


def test_the_http_target_caps_the_servers_retry_after_at_30_seconds() -> None:
    def response(value: str) -> httpx.Response:
        return httpx.Response(503, headers={"Retry-After": value})

    assert _retry_after(response("2")) == 2.0
    assert _retry_after(response("3600")) == 30.0
    assert _retry_after(response(email.utils.formatdate(time.time() + 3600, usegmt=True))) == 30.0
    assert _retry_after(httpx.Response(503)) is None


def test_an_unreadable_retry_after_on_a_provider_error_is_no_advice() -> None:
    import openai

    from testgen.llm.ratelimit import map_error, retry_after

    request = httpx.Request("POST", "http://x")
    response = httpx.Response(429, headers={"Retry-After": "soon"}, request=request)
    error = openai.RateLimitError("slow down", response=response, body=None)
    assert retry_after(error) is None
    mapped = map_error(error)
    assert mapped.retryable and mapped.retry_after is None
