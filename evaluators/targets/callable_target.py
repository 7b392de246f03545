"""A Python function as the system under test: ``callable:pkg.module:function``.

The function takes the question text (and ``k=`` when it has a ``k`` parameter or ``**kwargs``) and returns
a list of contexts or ``{"contexts": [...], "answer": "..."}``; see
:func:`~evaluators.targets.base.record_from_reply`. ``async def`` functions are run to completion.
Questions run in a thread pool; a raise, a timeout or a malformed reply becomes that question's error.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import threading
import time
from collections.abc import Callable
from typing import Any

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
from testgen.importing import load_object
from testgen.retry import Attempts

__all__ = ["CallableTarget", "load_callable"]

_SPEC_HELP = "write it as module:function, e.g. my_rag:search or my_pkg.rag:Pipeline.search"


def load_callable(spec: str, app_dir: str | os.PathLike[str] | None = ".") -> Callable[..., Any]:
    """Import ``module:attribute.path`` and return the callable it names.

    ``app_dir`` (default: the current folder) is put at the front of ``sys.path`` if it is not there yet,
    as uvicorn does, so a ``my_rag.py`` beside the user is found; ``None`` leaves ``sys.path`` alone.
    Raises TargetError for a malformed spec, a module that cannot be imported, a missing attribute or
    something that is not callable.
    """
    module_name, sep, attr_path = spec.partition(":")
    if not (sep and module_name and attr_path):  # said with this target's own example of the form
        raise TargetError(f"bad callable target {spec!r} ({_SPEC_HELP})")
    found = load_object(spec, what="callable target", error=TargetError, app_dir=app_dir)
    if not callable(found):
        raise TargetError(f"{spec!r} is a {type(found).__name__}, not a function ({_SPEC_HELP})")
    return found


def _takes_k(function: Callable[..., Any]) -> bool:
    try:
        parameters = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):  # some builtins and C extensions have no signature
        return False
    return any(p.name == "k" or p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)


class CallableTarget:
    """Calls a Python function once per question, ``concurrency`` at a time, each limited to ``timeout`` s.

    ``function`` is a ``module:function`` spec (see :func:`load_callable`) or the function itself.
    A call still running at its timeout is recorded as ``TimeoutError`` and abandoned (Python cannot stop a
    thread; it runs on as a daemon and its reply is ignored). ``retries`` (default 0) re-calls timed-out
    questions with exponential ``backoff``: off by default because a retried call does not stop the
    abandoned one, and an exception from user code is usually deterministic and is never retried.
    """

    def __init__(
        self,
        function: str | Callable[..., Any],
        *,
        concurrency: int = 8,
        timeout: float | None = 60.0,
        retries: int = 0,
        backoff: float = 0.5,
        app_dir: str | os.PathLike[str] | None = ".",
    ) -> None:
        if timeout is not None and timeout <= 0:
            raise OptionError(f"timeout must be positive seconds, got {timeout!r}")
        if retries < 0 or backoff < 0:
            raise OptionError(f"retries and backoff must be 0 or more, got {retries!r} and {backoff!r}")
        if isinstance(function, str):
            self.spec = function
            self.function = load_callable(function, app_dir)
        else:
            if not callable(function):
                raise TargetError(f"callable target needs a function, got {type(function).__name__}")
            self.function = function
            module = getattr(function, "__module__", None) or "?"
            self.spec = f"{module}:{getattr(function, '__qualname__', type(function).__name__)}"
        self.name = f"callable:{self.spec}"
        self.concurrency = check_concurrency(concurrency)
        self.timeout, self.retries, self.backoff = timeout, retries, backoff
        self._pass_k = _takes_k(self.function)
        self._is_async = inspect.iscoroutinefunction(self.function)

    def describe(self) -> dict[str, Any]:
        """Settings for reports."""
        return {
            "target": "callable",
            "function": self.spec,
            "concurrency": self.concurrency,
            "timeout_s": self.timeout,
            "retries": self.retries,
        }

    def _invoke(self, question: str, k: int) -> Any:
        kwargs = {"k": k} if self._pass_k else {}
        if self._is_async:
            return asyncio.run(self.function(question, **kwargs))
        return self.function(question, **kwargs)

    def _call(self, question: str, k: int) -> Any:
        if self.timeout is None:
            return self._invoke(question, k)
        box: dict[str, Any] = {}
        finished = threading.Event()

        def body() -> None:
            try:
                box["reply"] = self._invoke(question, k)
            except BaseException as exc:  # handed to the waiting thread, which records it
                box["error"] = exc
            finally:
                finished.set()

        threading.Thread(target=body, name="callable-target-call", daemon=True).start()
        if not finished.wait(self.timeout):
            raise TimeoutError(f"no reply within {self.timeout:g} s")
        if "error" in box:
            raise box["error"]
        return box["reply"]

    def _wait(self, attempt: int, exc: Exception) -> float | None:
        """Exponential backoff for a timed-out call; any other failure is final."""
        return self.backoff * 2**attempt if isinstance(exc, TimeoutError) else None

    def _one(self, question: TestQuestion, k: int) -> RunRecord:
        began = time.perf_counter()
        attempts = Attempts(retries=self.retries, wait=self._wait)
        try:
            reply = attempts.call(lambda: self._call(question.question, k))
            return record_from_reply(question, reply, k, (time.perf_counter() - began) * 1000)
        except Exception as exc:  # the system under test failed: recorded, never raised
            failure = exc
        suffix = f" (after {attempts.made} attempts)" if attempts.made > 1 else ""
        return error_record(question, error_text(failure) + suffix, (time.perf_counter() - began) * 1000)

    def run(self, questions: list[TestQuestion], k: int, progress: Progress | None = None) -> list[RunRecord]:
        """Call the function for every question; records in question order, failures with ``error`` set."""
        check_k(k)
        return run_concurrently(questions, lambda question: self._one(question, k), self.concurrency, progress)
