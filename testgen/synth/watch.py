"""What a run does when the model's replies are unusable: judge the first few, and if none could be used, stop
and say so — with the reasons, one raw reply excerpt and the likely fix — instead of spending minutes on
replies a model that is too small (or a server without structured output) keeps getting wrong.

Until a reply is usable the stages send one call at a time (`allowance`): a local server that answers one request
at a time then serves each call without queueing (no timeout spent waiting behind the others), and a hopeless
run costs a handful of requests, not a batch per category. The run is also stopped when no reply was usable
within `ReplyWatch.max_seconds`, so a very slow model ends in bounded time too.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from testgen.llm._types import LLMTimeout

logger = logging.getLogger("testgen.llm")

#: Replies judged before a run with no usable one is stopped.
FIRST_REPLIES = 6
#: Seconds a run may go on without one usable reply.
FIRST_SECONDS = 300.0
EXCERPT_CHARS = 240


@dataclass
class ReplyWatch:
    """Counts usable and unusable replies of a run; decides (once) whether the model can do the task."""

    model: str
    limit: int = FIRST_REPLIES
    seen: int = 0
    usable: int = 0
    reasons: Counter[str] = field(default_factory=Counter)
    excerpt: str | None = None
    stopped: str | None = None
    api_base: str | None = None
    structured: Callable[[], str | None] = lambda: None  # the client's structured-output mode, once known
    reached: Callable[[], bool] = lambda: False  # whether the server has answered anything (e.g. a mode probe)
    fallback: bool = False  # --fallback offline is on (the message then does not suggest it)
    max_seconds: float | None = FIRST_SECONDS
    clock: Callable[[], float] = time.monotonic
    started: float | None = None

    def allowance(self) -> int:
        """Calls a stage may send at once: one until a reply was usable, none once the run is stopped."""
        if self.started is None:
            self.started = self.clock()
        if self.stopped:
            return 0
        if self.usable or self.limit <= 0:
            return 1 << 30
        return 1

    def remaining(self) -> float | None:
        """Seconds the calls in flight may still take before the run has gone `max_seconds` without a usable
        reply (None once a reply was usable, or without a time limit): the stages stop waiting then."""
        if self.usable or self.max_seconds is None or self.limit <= 0:
            return None
        if self.started is None:
            self.started = self.clock()
        return max(0.0, self.started + self.max_seconds - self.clock())

    async def bounded(self, calls: list[Any]) -> list[Any]:
        """The outcomes of `calls` (exceptions included), each still running at `remaining` replaced by an
        `LLMTimeout` and cancelled, so a model too slow to answer cannot hold the run past the time limit."""
        tasks = [asyncio.ensure_future(c) for c in calls]
        remaining = self.remaining()
        if tasks and remaining is not None:
            await asyncio.wait(tasks, timeout=remaining)
        else:
            await asyncio.gather(*tasks, return_exceptions=True)
        outcomes: list[Any] = []
        for task in tasks:
            if not task.done():
                task.cancel()
                outcomes.append(LLMTimeout(f"no usable reply within the first {self.max_seconds:g} s of the run"))
            else:
                outcomes.append(task.exception() or task.result())
        await asyncio.gather(*tasks, return_exceptions=True)  # let the cancelled ones finish unwinding
        return outcomes

    def record(self, usable: bool, reason: str | None = None, raw: str | None = None) -> None:
        """One reply (or failed call): usable or not, why, and the raw text when there was one."""
        self.seen += 1
        if usable:
            self.usable += 1
            return
        self.reasons[reason or "unusable"] += 1
        if raw and self.excerpt is None:
            self.excerpt = " ".join(raw.split())[:EXCERPT_CHARS]
        elapsed = self.clock() - (self.started if self.started is not None else self.clock())
        too_long = self.max_seconds is not None and self.limit > 0 and elapsed > self.max_seconds
        if not self.usable and (self.seen >= self.limit > 0 or too_long) and self.stopped is None:
            self.stopped = self.message(self.structured(), self.api_base, elapsed if too_long else None)
            logger.warning("%s", self.stopped)

    def likely_fix(self, structured: str | None = None, api_base: str | None = None) -> str:
        """The most likely fix, read from the reasons the replies failed for and from the replies themselves."""
        failed = {r for r in self.reasons if r in ("connection failed", "timeout", "rate limited", "call error")}
        answered = sum(n for r, n in self.reasons.items() if r not in failed)
        fixes: list[str] = []
        if failed and not answered and not self.reached():
            where = f" ({api_base})" if api_base else ""
            fixes.append(f"check that the server{where} is up and answers (--api-base URL ending in /v1)")
        if "timeout" in failed:
            slow = "the server answers, but the model is too slow for --llm-timeout: " if self.reached() else ""
            fixes.append(f"{slow}a slow local model needs a longer --llm-timeout (and --concurrency 1)")
        if answered:
            echo = self.excerpt is not None and any(
                m in self.excerpt for m in ("$defs", '"properties"', "JSON Schema", "<<SYS>>")
            )
            unparsed = self.reasons.get("unusable reply", 0) * 2 >= answered
            if echo:
                fixes.append("a larger model (the replies repeat the prompt or the JSON schema instead of answering)")
            elif unparsed and structured == "prompt":
                fixes.append(
                    "a larger model, or --structured auto with a server that accepts a JSON schema (llama.cpp, vLLM, "
                    "Ollama): JSON was asked for in the prompt only"
                )
            elif unparsed:
                fixes.append("a larger model (the replies are not JSON of the requested shape)")
            else:
                fixes.append(
                    "a larger model (the replies do not follow the task: they quote, ground or phrase it wrongly)"
                )
        return "; ".join(fixes) or "a larger model"

    def message(self, structured: str | None = None, api_base: str | None = None, seconds: float | None = None) -> str:
        """The stop line: how many replies, why they failed, what one looked like, what to do."""
        reasons = ", ".join(f"{r} {n}" for r, n in sorted(self.reasons.items(), key=lambda x: (-x[1], x[0]))[:4])
        if self.seen > 1:
            text = f"stopped: none of the first {self.seen} replies of {self.model} was usable"
        else:
            text = f"stopped: the first reply of {self.model} was not usable"
        if seconds is not None:
            text += f" in {seconds:.0f} s"
        text += f" ({reasons})"
        if self.excerpt:
            text += f'; one reply began: "{self.excerpt}"'
        text += f"; likely fix: {self.likely_fix(structured, api_base)}"
        return text + (
            "; offline questions make up the set (--fallback offline)"
            if self.fallback
            else "; --fallback offline delivers the set"
        )

    def summary(self) -> dict[str, object]:
        """The watch's account for the run summary."""
        return {
            "judged": min(self.seen, self.limit) if self.limit > 0 else 0,
            "replies": self.seen,
            "usable": self.usable,
            "unusable_by_reason": dict(sorted(self.reasons.items())),
            "excerpt": self.excerpt,
        }
