"""What the LangChain and LlamaIndex targets share: loading the user's object, calling it (async or in threads)
with the run's concurrency and timeout, the doc-id mapping, and the guard that stops a run whose doc ids match
nothing.

A subclass says how to prepare its object for a run (``_prepare``), how to call it (``_call``: a coroutine
function, or a blocking function run in a worker thread) and how to read its output (``_reply``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from evaluators.concurrency import run_sync, run_until_stopped
from evaluators.errors import TargetError
from evaluators.targets.base import (
    Progress,
    check_concurrency,
    check_k,
    error_record,
    error_text,
    record_from_reply,
)
from evaluators.targets.doc_ids import DocIdMapping, check_doc_ids, kb_doc_ids
from schemas import RetrievedContext, RunRecord, TestQuestion
from testgen.errors import OptionError
from testgen.importing import load_object

__all__ = ["PROBE_QUESTIONS", "Call", "FrameworkTarget", "Reply"]

#: Questions run first; the doc-id guard looks at them before the rest of the set is run.
PROBE_QUESTIONS = 10


@dataclass
class Call:
    """How to ask the prepared object one question: ``function(question)``; a coroutine function is awaited on
    the run's event loop, a blocking one runs in one of the run's worker threads."""

    function: Callable[[str], Any]
    is_async: bool


@dataclass
class Reply:
    """What one call gave: the ranked contexts and, for a chain or query engine, the answer."""

    contexts: list[RetrievedContext]
    answer: str | None = None


class FrameworkTarget:
    """Base of the framework targets: ``concurrency`` questions at a time, each limited to ``timeout`` seconds.

    ``obj`` is the object itself or a ``module:object`` spec. ``doc_id_key`` and ``doc_id_root`` set the
    :class:`~evaluators.targets.doc_ids.DocIdMapping`; ``kb`` (optional) adds the knowledge base's file names to
    the ids the guard accepts; ``allow_unmatched`` turns the guard off.
    """

    scheme = ""
    #: What the object must be, for messages.
    expects = ""

    def __init__(
        self,
        obj: Any,
        *,
        concurrency: int = 8,
        timeout: float | None = 60.0,
        doc_id_key: str | Sequence[str] | None = None,
        doc_id_root: str | os.PathLike[str] | None = None,
        allow_unmatched: bool = False,
        kb: str | os.PathLike[str] | None = None,
        app_dir: str | os.PathLike[str] | None = ".",
    ) -> None:
        if timeout is not None and timeout <= 0:
            raise OptionError(f"timeout must be positive seconds, got {timeout!r}")
        if isinstance(obj, str):
            self.spec = obj
            obj = load_object(obj, what=f"{self.scheme} target", error=TargetError, app_dir=app_dir)
        else:
            self.spec = f"{type(obj).__module__}:{type(obj).__qualname__}"
        self.obj = self._resolve(obj)
        self.name = f"{self.scheme}:{self.spec}"
        self.kind = self._kind(self.obj)
        self.concurrency = check_concurrency(concurrency)
        self.timeout = timeout
        self.mapping = DocIdMapping.from_options(doc_id_key, doc_id_root)
        self.allow_unmatched = allow_unmatched
        self.kb = Path(kb) if kb is not None else None

    # -- what a subclass provides ---------------------------------------------------------------------------------

    def _kind(self, obj: Any) -> str:
        """A short name of what the object is (``retriever``, ``chain``...); raise TargetError when unusable."""
        raise NotImplementedError

    def _prepare(self, k: int) -> Call:
        """How to call the object in a run with cut-off ``k``."""
        raise NotImplementedError

    def _reply(self, output: Any) -> Reply:
        """The contexts (and answer) of one output; raise TypeError or ValueError describing a bad one."""
        raise NotImplementedError

    # -- shared ---------------------------------------------------------------------------------------------------

    def _resolve(self, obj: Any) -> Any:
        """``obj``, or what a zero-argument factory function returns when ``obj`` is one."""
        if self._usable(obj):
            return obj
        if callable(obj) and not isinstance(obj, type):
            try:
                built = obj()
            except TypeError as exc:
                raise TargetError(
                    f"{self.spec!r} is a function that is not {self.expects}; name the object itself, or a "
                    f"function taking no arguments that returns one ({exc})"
                ) from exc
            if self._usable(built):
                return built
            obj = built
        raise TargetError(f"{self.spec!r} is a {type(obj).__name__}: expected {self.expects}")

    def _usable(self, obj: Any) -> bool:
        try:
            self._kind(obj)
        except TargetError:
            return False
        return True

    def describe(self) -> dict[str, Any]:
        """Settings for reports."""
        return {
            "target": self.scheme,
            "object": self.spec,
            "kind": self.kind,
            "doc_id_keys": list(self.mapping.keys),
            "doc_id_root": self.mapping.root,
            "concurrency": self.concurrency,
            "timeout_s": self.timeout,
        }

    def run(self, questions: list[TestQuestion], k: int, progress: Progress | None = None) -> list[RunRecord]:
        """Ask every question; records in question order, a failed question with ``error`` set.

        Unless ``allow_unmatched``, the first questions are run alone and their doc ids checked against the test
        set (:func:`~evaluators.targets.doc_ids.check_doc_ids`), then the whole run: TargetError when they match
        nothing, before the rest of the set is run.
        """
        check_k(k)
        call = self._prepare(k)
        known = kb_doc_ids(self.kb) if self.kb is not None and not self.allow_unmatched else set()
        total = len(questions)
        if self.allow_unmatched or total <= PROBE_QUESTIONS:
            return run_sync(self._run_all(questions, k, call, progress, 0, total), None)
        head, rest = questions[:PROBE_QUESTIONS], questions[PROBE_QUESTIONS:]
        records = run_sync(self._run_all(head, k, call, progress, 0, total), None)
        check_doc_ids(questions, records, known=known)
        records += run_sync(self._run_all(rest, k, call, progress, len(head), total), None)
        check_doc_ids(questions, records, known=known)
        return records

    async def _run_all(
        self,
        questions: Sequence[TestQuestion],
        k: int,
        call: Call,
        progress: Progress | None,
        offset: int,
        total: int,
    ) -> list[RunRecord]:
        # A framework's own bridge from async to sync code (LangChain's ainvoke of a sync retriever) runs on the
        # loop's default executor: one sized by --concurrency, so the limit holds for those calls too.
        loop = asyncio.get_running_loop()
        loop.set_default_executor(ThreadPoolExecutor(self.concurrency, thread_name_prefix=f"{self.scheme}-target"))

        def job(question: TestQuestion) -> Callable[[], Awaitable[RunRecord]]:
            return lambda: self._one(question, k, call)

        def step(done: int, _size: int) -> None:
            if progress is not None:
                progress(offset + done, total)

        results, _stopped = await run_until_stopped([job(q) for q in questions], self.concurrency, step, stop_on=())
        return [record for record in results if record is not None]

    async def _one(self, question: TestQuestion, k: int, call: Call) -> RunRecord:
        began = time.perf_counter()
        try:
            async with asyncio.timeout(self.timeout):
                if call.is_async:
                    output = await call.function(question.question)
                else:
                    output = await _in_daemon_thread(call.function, question.question)
            reply = self._reply(output)
            latency = (time.perf_counter() - began) * 1000
            return record_from_reply(question, {"contexts": reply.contexts, "answer": reply.answer}, k, latency)
        except TimeoutError:
            failure = f"TimeoutError: no reply within {self.timeout:g} s"
        except Exception as exc:  # the system under test failed: recorded, never raised
            failure = error_text(exc)
        return error_record(question, failure, (time.perf_counter() - began) * 1000)


async def _in_daemon_thread(function: Callable[[str], Any], argument: str) -> Any:
    """``function(argument)`` in a daemon thread of its own: a call past its timeout is abandoned (Python cannot
    stop a thread) and cannot hold up the end of the run or of the process."""
    loop = asyncio.get_running_loop()
    future: asyncio.Future[Any] = loop.create_future()

    def settle(value: Any, error: BaseException | None) -> None:
        if future.done():  # timed out and cancelled meanwhile
            return
        if error is not None:
            future.set_exception(error)
        else:
            future.set_result(value)

    def body() -> None:
        value: Any = None
        error: BaseException | None = None
        try:
            value = function(argument)
        except BaseException as exc:  # handed to the awaiting coroutine, which records it
            error = exc
        with contextlib.suppress(RuntimeError):  # the run ended (loop closed) while an abandoned call went on
            loop.call_soon_threadsafe(settle, value, error)

    threading.Thread(target=body, name="framework-target-call", daemon=True).start()
    return await future
