"""A scripted, in-process `LLM` for tests: queued replies or a responder function, injected failures.

    llm = FakeLLM()
    llm.enqueue('{"question": "Who?", "answer": "Ada"}')
    done = await llm.acomplete(messages, stage="generation", response_model=Draft)
    llm.history[0].messages  # what was sent

Structured output behaves as in the real client: the reply is parsed tolerantly, a bad one gets one repair
re-ask (the next queued reply or the responder's answer to the repair messages), then `LLMBadResponse`.
Messages are passed to the responder as given (no JSON instruction is added). Tokens are counted as words;
cost is always 0.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from pydantic import BaseModel

from schemas import StageCost
from testgen.llm._types import BlockingComplete, Completion, LLMCallError
from testgen.llm.parsing import parse_or_repair

Responder = Callable[[list[dict[str, str]]], str]
"""A function from the messages of one call to the reply text."""


@dataclass
class FakeCall:
    """One model call the fake answered (or failed): a repair re-ask is a call of its own."""

    messages: list[dict[str, str]]
    stage: str
    response_model: type[BaseModel] | None
    temperature: float | None
    max_tokens: int | None
    reply: str | None
    """The reply text, or None when the call failed."""
    sample: int = 0
    """Which of several completions of the same messages this is (see `LLM.acomplete`)."""


class FakeLLM(BlockingComplete):
    """Implements the `LLM` protocol from a script.

    Replies come from the queue (`enqueue`) first, then from `responder`; with neither, the call is a test
    bug and raises `RuntimeError`. A queued exception is raised in place of a reply. With ``fail_every=n``,
    every n-th call raises `LLMCallError` ("injected failure") without consuming a reply.
    """

    def __init__(
        self,
        responder: Responder | Sequence[str] | None = None,
        *,
        model: str = "fake/model",
        fail_every: int = 0,
    ) -> None:
        self.model = model
        self.fail_every = fail_every
        self.history: list[FakeCall] = []
        self._responder: Responder | None = None
        self._queue: deque[str | BaseException] = deque()
        if callable(responder):
            self._responder = responder
        elif responder is not None:
            self._queue.extend(responder)
        self._usage: dict[str, StageCost] = {}

    def enqueue(self, *replies: str | BaseException) -> FakeLLM:
        """Queue reply texts (or exceptions to raise) for the next calls; returns self for chaining."""
        self._queue.extend(replies)
        return self

    def usage(self) -> dict[str, StageCost]:
        """Accounting so far, by stage (copies)."""
        return {stage: u.model_copy() for stage, u in self._usage.items()}

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
        """One scripted completion; with `response_model`, parsed and repaired like the real client."""
        sent = [dict(m) for m in messages]
        call = FakeCall(sent, stage, response_model, temperature, max_tokens, None, sample)
        first = self._answer(call)
        if response_model is None:
            return first

        async def reask(repair: list[dict[str, str]]) -> Completion:
            return self._answer(replace(call, messages=repair))

        return await parse_or_repair(first, sent, response_model, reask, self._stage(stage))

    def _stage(self, stage: str) -> StageCost:
        return self._usage.setdefault(stage, StageCost())

    def _answer(self, call: FakeCall) -> Completion:
        self.history.append(call)
        usage = self._stage(call.stage)
        usage.requests += 1  # every scripted answer or failure stands for one request to a server
        if self.fail_every and len(self.history) % self.fail_every == 0:
            usage.failed_calls += 1
            raise LLMCallError(f"injected failure (call {len(self.history)}, fail_every={self.fail_every})")
        if self._queue:
            item = self._queue.popleft()
        elif self._responder is not None:
            item = self._responder(call.messages)
        else:
            raise RuntimeError("FakeLLM has no reply queued and no responder: enqueue() one or pass a responder")
        if isinstance(item, BaseException):
            if isinstance(item, LLMCallError):
                usage.failed_calls += 1
            raise item
        call.reply = item
        prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in call.messages)
        completion_tokens = len(item.split())
        usage.calls += 1
        usage.prompt_tokens += prompt_tokens
        usage.completion_tokens += completion_tokens
        return Completion(
            text=item,
            prompt_tokens=prompt_tokens,
            completion_tokens=completion_tokens,
            model=self.model,
            raw={"finish_reason": "stop"},
        )
