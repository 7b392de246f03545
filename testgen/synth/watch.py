"""What a run does when the model's replies are unusable: judge the first few, and if none could be used, stop
and say so — with the reasons, one raw reply excerpt and the likely fix — instead of spending minutes on
replies a model that is too small (or a server without structured output) keeps getting wrong.

Until the first `ReplyWatch.limit` replies are in, the stages send no more calls than that many (`allowance`),
so a hopeless run costs a handful of requests, not a batch per category.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

logger = logging.getLogger("testgen.llm")

#: Replies judged before a run with no usable one is stopped.
FIRST_REPLIES = 6
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

    def allowance(self) -> int:
        """Calls a stage may still send before the verdict (no limit once one reply was usable)."""
        if self.usable or self.limit <= 0:
            return 1 << 30
        return max(0, self.limit - self.seen)

    def record(self, usable: bool, reason: str | None = None, raw: str | None = None) -> None:
        """One reply (or failed call): usable or not, why, and the raw text when there was one."""
        self.seen += 1
        if usable:
            self.usable += 1
            return
        self.reasons[reason or "unusable"] += 1
        if raw and self.excerpt is None:
            self.excerpt = " ".join(raw.split())[:EXCERPT_CHARS]
        if not self.usable and self.seen >= self.limit > 0 and self.stopped is None:
            self.stopped = self.message(self.structured(), self.api_base)
            logger.warning("%s", self.stopped)

    def likely_fix(self, structured: str | None = None, api_base: str | None = None) -> str:
        """The most likely fix, read from the reasons the replies failed for."""
        top = self.reasons.most_common(1)[0][0] if self.reasons else ""
        if "connection failed" in top or "timeout" in top:
            where = f" ({api_base})" if api_base else ""
            return (
                f"check that the server{where} is up and answers (--api-base URL ending in /v1); "
                "a slow local model needs a longer --llm-timeout or --concurrency 1"
            )
        if "unusable reply" in top:
            if structured == "prompt":
                return (
                    "the server took no structured-output request, so the JSON was asked for in the prompt only: "
                    "use a server that accepts a JSON schema (llama.cpp, vLLM, Ollama) or a larger model"
                )
            return "a larger model (the replies are not JSON of the requested shape)"
        return "a larger model (the replies do not follow the task: they quote, ground or phrase it wrongly)"

    def message(self, structured: str | None = None, api_base: str | None = None) -> str:
        """The stop line: how many replies, why they failed, what one looked like, what to do."""
        reasons = ", ".join(f"{r} {n}" for r, n in sorted(self.reasons.items(), key=lambda x: (-x[1], x[0]))[:4])
        text = f"stopped: none of the first {self.seen} replies of {self.model} was usable ({reasons})"
        if self.excerpt:
            text += f'; one reply began: "{self.excerpt}"'
        return text + f"; likely fix: {self.likely_fix(structured, api_base)}; --fallback offline delivers the set"

    def summary(self) -> dict[str, object]:
        """The watch's account for the run summary."""
        return {
            "judged": min(self.seen, self.limit) if self.limit > 0 else 0,
            "replies": self.seen,
            "usable": self.usable,
            "unusable_by_reason": dict(sorted(self.reasons.items())),
            "excerpt": self.excerpt,
        }
