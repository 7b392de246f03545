"""A LangChain chat model as the toolkit's `LLM`: ``--llm langchain:pkg.module:object``.

    llm = LangChainLLM("langchain:my_models:chat")      # my_models.py: chat = ChatOpenAI(model="gpt-4.1-mini")
    done = await llm.acomplete(messages, stage="judge", response_model=Verdict)

The object is any LangChain ``BaseChatModel`` (``ChatOpenAI``, ``ChatAnthropic``, ``ChatOllama``, a fake one in
tests), or a function taking no argument that returns one. It is configured by the user, so its own settings
(temperature, max tokens, retries, endpoint, key) apply: the toolkit's per-call temperature and token limit are not
forwarded, since chat-model classes do not all accept them.

What the litellm client gives, this gives too: the same disk cache (``.testgen_cache/llm/``; the key is the
model's class and its identifying parameters, never a key or a secret), structured output by a JSON instruction in
the prompt with one repair re-ask, per-stage accounting, and the ``max_cost`` cap on a ledger shared with the other
model of the run. Tokens come from the reply's ``usage_metadata`` (or ``token_usage`` in its response metadata);
a model that reports none counts 0 tokens. Cost is priced by the model's name in litellm's price map (or the
prices given), so ``ChatOpenAI(model="gpt-4.1-mini")`` is priced and a local model costs 0.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from schemas import StageCost
from testgen.llm._types import Completion, LLMBudgetExceeded, LLMConfigError, LLMTimeout
from testgen.llm.cache import CachedReply, DiskCache, cache_key
from testgen.llm.client import CostLedger, completion_of, settle
from testgen.llm.cost import Prices, estimate_call_cost, resolve_prices
from testgen.llm.parsing import parse_or_repair, with_json_instruction

__all__ = ["SCHEME", "LangChainLLM"]

SCHEME = "langchain:"
"""Prefix of a model string naming a LangChain chat model (``langchain:pkg.module:object``)."""

_ROLES = {"system": "SystemMessage", "user": "HumanMessage", "assistant": "AIMessage"}


class LangChainLLM:
    """The `LLM` protocol over a LangChain chat model (see the module docstring).

    ``chat`` is the model, or ``langchain:module:object`` (``module:object`` also works) naming it. ``timeout``
    bounds one call in seconds (the model's own retries happen inside it); ``concurrency`` calls run at once.
    Prices per 1M tokens override litellm's map; ``cache_dir=None`` turns the cache off.
    """

    def __init__(
        self,
        chat: Any,
        *,
        concurrency: int = 8,
        timeout: float = 120.0,
        max_cost: float | None = None,
        ledger: CostLedger | None = None,
        cache_dir: str | os.PathLike[str] | None = ".testgen_cache/llm",
        input_price_per_mtok: float | None = None,
        output_price_per_mtok: float | None = None,
        app_dir: str | os.PathLike[str] | None = ".",
    ) -> None:
        if concurrency < 1 or timeout <= 0:
            raise LLMConfigError(f"concurrency must be at least 1 and timeout positive, got {concurrency}, {timeout}")
        if isinstance(chat, str):
            from testgen.importing import load_object

            spec = chat.removeprefix(SCHEME)
            found = load_object(spec, what="LangChain chat model", error=LLMConfigError, app_dir=app_dir)
            chat = _chat_model(found, spec)
            self.model = SCHEME + spec
        else:
            chat = _chat_model(chat, type(chat).__name__)
            self.model = f"{SCHEME}{type(chat).__module__}:{type(chat).__qualname__}"
        self.chat = chat
        self.concurrency, self.timeout, self.max_cost = concurrency, timeout, max_cost
        self.ledger = ledger if ledger is not None else CostLedger()
        self.cache = DiskCache(Path(cache_dir).resolve()) if cache_dir is not None else None
        #: The provider's model name, when the object has one (prices are looked up by it).
        self.model_name = next(
            (str(v) for v in (getattr(chat, "model_name", None), getattr(chat, "model", None)) if isinstance(v, str)),
            "",
        )
        self._price_overrides = (input_price_per_mtok, output_price_per_mtok)
        self._prices: Prices | None = None
        self._identity = _identity(chat)
        self._usage: dict[str, StageCost] = {}
        self._semaphore: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None

    @property
    def prices(self) -> Prices:
        """Per-token prices in use (overrides, else litellm's map for ``model_name``, else 0)."""
        if self._prices is None:
            self._prices = resolve_prices(self.model_name or self.model, *self._price_overrides)
        return self._prices

    def estimate_cost(self, calls: int, prompt_tokens: int, completion_tokens: int) -> float:
        """USD for `calls` calls averaging `prompt_tokens` and `completion_tokens` each (for dry runs)."""
        return calls * self.prices.cost(prompt_tokens, completion_tokens)

    def usage(self) -> dict[str, StageCost]:
        """Accounting so far, by stage (copies); cache hits count in ``calls`` and ``cached_calls``."""
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
        """One chat completion; with `response_model`, `Completion.parsed` is a validated instance.

        `temperature` and `max_tokens` are not forwarded (the model object's own settings apply). Raises an
        `LLMCallError` subclass when the model fails, `LLMBudgetExceeded` at the cost cap.
        """
        send = [dict(m) for m in messages]
        if response_model is not None:
            send = with_json_instruction(send, response_model)
        first = await self._call(send, stage, sample)
        if response_model is None:
            return first
        return await parse_or_repair(
            first, send, response_model, lambda repair: self._call(repair, stage, sample), self._stage(stage)
        )

    def _stage(self, stage: str) -> StageCost:
        return self._usage.setdefault(stage, StageCost())

    def _sem(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()  # a semaphore binds to one loop
        if self._semaphore is None or self._semaphore[0] is not loop:
            self._semaphore = (loop, asyncio.Semaphore(self.concurrency))
        return self._semaphore[1]

    async def _call(self, messages: list[dict[str, str]], stage: str, sample: int) -> Completion:
        usage = self._stage(stage)
        key = cache_key(self._identity, None, messages, {"sample": sample} if sample else {})
        hit = self.cache.get(key) if self.cache is not None else None
        if hit is not None:
            usage.calls += 1
            usage.cached_calls += 1
            return completion_of(hit, 0.0, cached=True, model=self.model)
        estimate = estimate_call_cost(self.prices, messages, None)
        ledger = self.ledger
        if self.max_cost is not None and ledger.spent + ledger.reserved + estimate > self.max_cost:
            raise LLMBudgetExceeded(
                f"the cost cap of ${self.max_cost:.4f} is reached (spent ${ledger.spent:.4f}, in flight "
                f"${ledger.reserved:.4f}, this call up to ${estimate:.4f}); finished work is kept in the cache"
            )
        ledger.reserved += estimate
        try:
            reply = await self._send(messages, usage)
        finally:
            ledger.reserved -= estimate
        return settle(
            reply, prices=self.prices, ledger=ledger, usage=usage, cache=self.cache, key=key, model=self.model
        )

    async def _send(self, messages: list[dict[str, str]], usage: StageCost) -> CachedReply:
        usage.requests += 1  # what the model object was asked; retries inside it are its own and not seen here
        try:
            async with self._sem(), asyncio.timeout(self.timeout):
                message = await self.chat.ainvoke(_to_langchain(messages))
        except TimeoutError as exc:
            usage.failed_calls += 1
            raise LLMTimeout(f"{self.model}: no reply within {self.timeout:g} s") from exc
        except Exception as exc:
            from testgen.llm.ratelimit import map_error

            usage.failed_calls += 1
            mapped = map_error(exc).error
            if mapped is exc:
                raise
            raise mapped from exc
        return _reply(message)


def _chat_model(obj: Any, name: str) -> Any:
    """``obj`` when it is a LangChain chat model, or what a zero-argument factory returns; else LLMConfigError."""
    from langchain_core.language_models import BaseChatModel

    if not isinstance(obj, BaseChatModel) and callable(obj) and not isinstance(obj, type):
        try:
            obj = obj()
        except TypeError as exc:
            raise LLMConfigError(
                f"{name!r} is a function that is not a LangChain chat model; name the model object, or a function "
                f"taking no arguments that returns one ({exc})"
            ) from exc
    if not isinstance(obj, BaseChatModel):
        raise LLMConfigError(
            f"{name!r} is a {type(obj).__name__}, not a LangChain chat model (BaseChatModel, e.g. ChatOpenAI)"
        )
    return obj


def _identity(chat: Any) -> str:
    """What names the model in cache keys: its class and its JSON-representable identifying parameters."""
    params: dict[str, Any] = {}
    try:
        identifying = dict(chat._identifying_params)
    except Exception:  # a model without them is keyed by its class alone
        identifying = {}
    for name, value in sorted(identifying.items()):
        try:
            json.dumps(value)
        except (TypeError, ValueError):
            continue  # iterators, clients and other live objects say nothing stable about the replies
        params[str(name)] = value
    cls = type(chat)
    return f"{SCHEME}{cls.__module__}.{cls.__qualname__}:" + json.dumps(params, sort_keys=True, default=str)


def _to_langchain(messages: Sequence[dict[str, str]]) -> list[Any]:
    from langchain_core import messages as lc

    out = []
    for message in messages:
        role = message.get("role", "user")
        kind = _ROLES.get(role)
        if kind is None:
            raise LLMConfigError(f"cannot send a {role!r} message to a LangChain chat model")
        out.append(getattr(lc, kind)(content=message.get("content", "")))
    return out


def _reply(message: Any) -> CachedReply:
    """The parts of an ``AIMessage`` worth keeping: text, token counts, finish reason, served model."""
    content = getattr(message, "content", message)
    if isinstance(content, list):  # content blocks: keep the text ones
        content = "".join(
            part if isinstance(part, str) else str(part.get("text", ""))
            for part in content
            if isinstance(part, str) or (isinstance(part, dict) and part.get("type") == "text")
        )
    metadata = getattr(message, "response_metadata", None) or {}
    usage = getattr(message, "usage_metadata", None) or {}
    token_usage = metadata.get("token_usage") or {}
    prompt = usage.get("input_tokens", token_usage.get("prompt_tokens", 0))
    completion = usage.get("output_tokens", token_usage.get("completion_tokens", 0))
    return CachedReply(
        text=str(content or ""),
        prompt_tokens=int(prompt or 0),
        completion_tokens=int(completion or 0),
        finish_reason=str(metadata.get("finish_reason") or ""),
        model=str(metadata.get("model_name") or ""),
    )
