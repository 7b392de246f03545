"""The LLM interface every part of the toolkit uses (generator, critic, judge), and its exception tree.

    LLMError                    base (a TestgenError)
    ├── LLMConfigError          bad model string, missing API key, missing package (a UserInputError: exit 2)
    ├── LLMBudgetExceeded       --max-cost reached: the run stops cleanly, finished work is kept
    └── LLMCallError            one call failed after its retries (recorded per item, never a crash)
        ├── LLMTimeout
        ├── LLMRateLimited
        ├── LLMConnectionFailed
        ├── LLMAuthFailed
        └── LLMBadResponse      unparseable or schema-invalid reply after the repair re-ask

Errors of litellm/httpx are mapped to these at the client boundary; nothing else escapes it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from pydantic import BaseModel

from schemas import StageCost
from testgen.errors import TestgenError, UserInputError

M = TypeVar("M", bound=BaseModel)

StageUsage = StageCost
"""The former name of `schemas.StageCost`, the one usage/cost type of generation and evaluation alike."""


class LLMError(TestgenError):
    """Base of every LLM-layer error."""


class LLMConfigError(LLMError, UserInputError):
    """A configuration the user can fix (model string, API key, package)."""


class LLMBudgetExceeded(LLMError):
    """The cost cap (``--max-cost``) was reached; no further call is made."""


class LLMCallError(LLMError):
    """One call failed after its retries; the caller records it with this message as the reason."""


class LLMTimeout(LLMCallError):
    """The provider did not answer in time."""


class LLMRateLimited(LLMCallError):
    """429s persisted after backing off."""


class LLMConnectionFailed(LLMCallError):
    """The server could not be reached."""


class LLMAuthFailed(LLMConfigError):
    """The provider rejected the credentials (401/403). A configuration error, not one failed call: every other
    call would fail the same way, so the run stops (exit 2) with the key's variable named."""


class LLMBadResponse(LLMCallError):
    """The reply could not be parsed into the requested model, even after one repair re-ask; ``reply`` holds the
    last reply's text (None when it is not known, e.g. a failure replayed from the cache)."""

    def __init__(self, message: str, *, reply: str | None = None) -> None:
        super().__init__(message)
        self.reply = reply


@dataclass
class Completion:
    """One finished call (or cache hit)."""

    text: str
    parsed: BaseModel | None = None
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    cached: bool = False
    model: str = ""
    raw: dict[str, Any] = field(default_factory=dict)


class BlockingComplete:
    """The blocking `complete()` of an LLM with an `acomplete` (the real client and the fake share this one)."""

    async def acomplete(
        self,
        messages: Sequence[dict[str, str]],
        *,
        stage: str,
        response_model: type[BaseModel] | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
        sample: int = 0,
    ) -> Completion:
        raise NotImplementedError

    def complete(
        self,
        messages: Sequence[dict[str, str]],
        *,
        stage: str,
        response_model: type[BaseModel] | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
        sample: int = 0,
    ) -> Completion:
        """Blocking `acomplete` for scripts and the REPL; it runs its own event loop, so it cannot be called
        from inside a running loop (await `acomplete` there)."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            coro = self.acomplete(
                messages,
                stage=stage,
                response_model=response_model,
                temperature=temperature,
                max_tokens=max_tokens,
                sample=sample,
            )
            return asyncio.run(coro)
        raise RuntimeError("complete() was called inside a running event loop; await acomplete() instead")


class LLM(Protocol):
    """What generator, critic and judge need from a language model."""

    model: str

    async def acomplete(
        self,
        messages: Sequence[dict[str, str]],
        *,
        stage: str,
        response_model: type[BaseModel] | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
        sample: int = 0,
    ) -> Completion:
        """One chat completion; with `response_model`, `Completion.parsed` is a validated instance.

        `sample` numbers several completions asked for the same messages (sampled at a temperature above 0):
        each is its own request and cache entry, where the same call again would be served from the cache.
        Raises an `LLMCallError` subclass when the call fails after retries and `LLMBudgetExceeded` when the
        cost cap is reached.
        """
        ...

    def usage(self) -> dict[str, StageCost]:
        """Accounting so far, by stage."""
        ...
