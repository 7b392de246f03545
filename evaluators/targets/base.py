"""What every target shares: the :class:`Target` protocol, the ``k`` range, turning a system's reply into a
:class:`~schemas.RunRecord`, and running questions concurrently with per-question error capture."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import Any, Protocol, runtime_checkable

from pydantic import ValidationError

from schemas import RetrievedContext, RunRecord, TestQuestion
from testgen.errors import OptionError
from testgen.redact import redact

__all__ = [
    "MAX_K",
    "Progress",
    "Target",
    "check_concurrency",
    "check_k",
    "error_record",
    "error_text",
    "record_from_reply",
    "run_concurrently",
]

#: Largest number of contexts a target may be asked for.
MAX_K = 50
_MAX_ERROR_CHARS = 500

#: ``progress(done, total)``, called after each question.
Progress = Callable[[int, int], None]


@runtime_checkable
class Target(Protocol):
    """A RAG system under test: answers every question with ranked contexts (and maybe an answer)."""

    name: str

    def describe(self) -> dict[str, Any]:
        """JSON-ready settings for reports (retriever, k, chunking, endpoint...); never credentials."""
        ...

    def run(self, questions: list[TestQuestion], k: int, progress: Progress | None = None) -> list[RunRecord]:
        """One record per question, in question order; a failed question is a record with ``error`` set."""
        ...


def check_k(k: int) -> int:
    """Return ``k`` when it is an int in 1..MAX_K; raise OptionError naming the allowed range otherwise."""
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= MAX_K:
        raise OptionError(f"k must be a whole number from 1 to {MAX_K}, got {k!r}")
    return k


def check_concurrency(concurrency: int) -> int:
    """Return ``concurrency`` when it is an int of at least 1; raise OptionError otherwise."""
    if isinstance(concurrency, bool) or not isinstance(concurrency, int) or concurrency < 1:
        raise OptionError(f"concurrency must be a whole number of at least 1, got {concurrency!r}")
    return concurrency


def error_text(exc: BaseException) -> str:
    """``"<type>: <message>"`` on one line, at most 500 characters; just the type when there is no message."""
    message = " ".join(str(exc).split())
    text = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return text if len(text) <= _MAX_ERROR_CHARS else text[: _MAX_ERROR_CHARS - 1] + "…"


def error_record(question: TestQuestion, error: str, latency_ms: float | None = None) -> RunRecord:
    """The record of a failed question: no contexts, ``error`` set."""
    return RunRecord(id=question.id, question=question.question, error=redact(error), latency_ms=latency_ms)


def _context(index: int, item: Any) -> RetrievedContext:
    if isinstance(item, RetrievedContext):
        return item
    if not isinstance(item, Mapping):
        raise TypeError(f"context {index} is a {type(item).__name__}; expected a dict with doc_id, text and score")
    try:
        return RetrievedContext.model_validate(dict(item))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "context"
        raise ValueError(f"context {index}: field {where!r}: {first['msg'].lower()}") from exc


def record_from_reply(question: TestQuestion, reply: Any, k: int, latency_ms: float | None = None) -> RunRecord:
    """Turn a system's reply into a record; contexts beyond ``k`` are dropped.

    ``reply`` is a list of contexts or a mapping ``{"contexts": [...], "answer": "..."}``; a context is a
    :class:`~schemas.RetrievedContext` or a mapping with ``doc_id`` (required), ``text``, ``score`` and
    ``chunk_id``. Raises TypeError or ValueError describing the first problem otherwise; callers record it
    as the question's error.
    """
    answer: Any = None
    if isinstance(reply, Mapping):
        if "contexts" not in reply:
            keys = ", ".join(map(str, list(reply)[:5])) or "none"
            raise ValueError(f"the reply has no 'contexts' key (keys: {keys})")
        contexts, answer = reply["contexts"], reply.get("answer")
    else:
        contexts = reply
    if isinstance(contexts, str | bytes) or not isinstance(contexts, Sequence):
        raise TypeError(f"expected a list of contexts or a dict with 'contexts', got {type(contexts).__name__}")
    if answer is not None and not isinstance(answer, str):
        raise TypeError(f"'answer' must be a string, got {type(answer).__name__}")
    return RunRecord(
        id=question.id,
        question=question.question,
        contexts=[_context(index, item) for index, item in enumerate(contexts[:k])],
        answer=answer,
        latency_ms=latency_ms,
    )


def run_concurrently(
    questions: Sequence[TestQuestion],
    work: Callable[[TestQuestion], RunRecord],
    concurrency: int,
    progress: Progress | None = None,
) -> list[RunRecord]:
    """Run ``work`` on every question with up to ``concurrency`` threads; records come back in question order.

    ``work`` is expected to capture the failures of the system under test in the record it returns; an
    exception escaping it is a bug and is raised (pending questions are cancelled). ``progress`` is called
    from the calling thread as questions finish.
    """
    check_concurrency(concurrency)
    results: list[RunRecord | None] = [None] * len(questions)
    if not questions:
        return []
    pool = ThreadPoolExecutor(max_workers=min(concurrency, len(questions)), thread_name_prefix="target")
    try:
        futures = {pool.submit(work, question): index for index, question in enumerate(questions)}
        for done, future in enumerate(as_completed(futures), start=1):
            results[futures[future]] = future.result()
            if progress is not None:
                progress(done, len(questions))
    except BaseException:
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    return [record for record in results if record is not None]
