"""The litellm-backed `LLM`: structured output, concurrency and rate limits, retries, disk cache, cost cap.

    client = LLMClient(LLMSettings(model="openai/gpt-4.1-mini"))
    done = await client.acomplete(messages, stage="generation", response_model=Question)
    done.parsed  # a validated Question

litellm is imported on the first call, never when testgen is imported, and only after
``LITELLM_LOCAL_MODEL_COST_MAP=True`` is set (otherwise it downloads its price map at import). The API key is
read from the environment at each call and passed straight to litellm: it is not stored on the client, and
never enters a cache key, a cache entry, the usage figures, a log line or an error message.
"""

from __future__ import annotations

import asyncio
import logging
import os
import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from testgen.llm._types import Completion, LLMBudgetExceeded, LLMConfigError, StageUsage
from testgen.llm.cache import CachedReply, DiskCache, cache_key
from testgen.llm.cost import Prices, estimate_call_cost, estimate_prompt_tokens, resolve_prices
from testgen.llm.parsing import parse_or_repair, response_format, with_json_instruction
from testgen.llm.ratelimit import Jitter, TokenBucket, backoff_delay, equal_jitter, map_error

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

logger = logging.getLogger("testgen.llm")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_LITELLM_LOGGERS = ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy")


def import_litellm() -> Any:
    """litellm, imported offline and quiet (no price-map download, no debug banners, no telemetry)."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    try:
        import litellm
    except ImportError as exc:  # pragma: no cover - litellm is a dependency
        raise LLMConfigError("litellm is not installed; install it with: pip install litellm") from exc
    if not getattr(litellm, "_testgen_configured", False):
        litellm.telemetry = False
        litellm.suppress_debug_info = True
        litellm.turn_off_message_logging = True
        litellm.disable_hf_tokenizer_download = True
        if "LITELLM_LOG" not in os.environ:  # the user asked for litellm's own logs: leave them on
            for name in _LITELLM_LOGGERS:
                logging.getLogger(name).setLevel(logging.ERROR)
        # litellm creates its provider coroutine before checking the credentials and drops it when they are
        # missing: the RuntimeWarning would bury our one-line "no API key" error.
        warnings.filterwarnings("ignore", r"coroutine '\w+\.acompletion' was never awaited", RuntimeWarning)
        litellm._testgen_configured = True
    return litellm


class LLMSettings(BaseModel):
    """How to reach and use one model. Holds no secret: the API key stays in the environment."""

    model_config = ConfigDict(extra="forbid", frozen=True, use_attribute_docstrings=True)

    model: str
    """litellm model string, e.g. ``openai/gpt-4.1-mini``, ``ollama/llama3.1``, ``openai/<name>`` + api_base."""
    api_base: str | None = None
    """Base URL of an OpenAI-compatible server (Ollama, vLLM, llama.cpp), e.g. ``http://localhost:8000/v1``."""
    api_key_env: str | None = None
    """NAME of the environment variable holding the key; None uses litellm's usual ones (OPENAI_API_KEY, ...)."""
    temperature: float = 0.0
    """Sampling temperature unless a call overrides it."""
    max_tokens: int | None = Field(default=None, gt=0)
    """Completion token limit unless a call overrides it."""
    timeout: float = Field(default=60.0, gt=0)
    """Seconds one HTTP attempt may take."""
    max_retries: int = Field(default=3, ge=0)
    """Retries after the first attempt, for timeouts, 429s, connection failures and 5xx."""
    concurrency: int = Field(default=8, ge=1)
    """Requests in flight at once."""
    rpm: int | None = Field(default=None, gt=0)
    """Requests per minute cap (client side); None: no cap."""
    tpm: int | None = Field(default=None, gt=0)
    """Tokens per minute cap (client side, estimated before the call); None: no cap."""
    cache_dir: Path | None = Path(".testgen_cache/llm")
    """Disk cache of finished calls (relative to the working directory); None disables it."""
    max_cost: float | None = Field(default=None, ge=0)
    """USD cap: a call whose estimated cost would pass it raises `LLMBudgetExceeded` instead of being made."""
    input_price_per_mtok: float | None = Field(default=None, ge=0)
    """USD per 1M prompt tokens, overriding litellm's price map (local models cost 0 unless given)."""
    output_price_per_mtok: float | None = Field(default=None, ge=0)
    """USD per 1M completion tokens, overriding litellm's price map."""
    structured_output: Literal["auto", "schema", "prompt"] = "auto"
    """``schema``: send a JSON-schema response_format; ``prompt``: ask for JSON in the prompt; ``auto``: schema
    when litellm says the model supports it."""
    backoff_base: float = Field(default=1.0, ge=0)
    """First retry waits about this long (seconds, jittered); it doubles per retry."""
    backoff_max: float = Field(default=30.0, ge=0)
    """Longest backoff between retries (a longer Retry-After is still honoured, up to 120 s)."""

    @field_validator("api_key_env")
    @classmethod
    def _is_a_name(cls, value: str | None) -> str | None:
        if value is not None and not _ENV_NAME.match(value):
            raise ValueError("api_key_env is the NAME of an environment variable (e.g. OPENAI_API_KEY), not a key")
        return value


@dataclass
class CostLedger:
    """USD spent and reserved by calls in flight, against one cap; clients of one run that share a ledger (an
    answering and a judging model) share the ``max_cost`` cap."""

    spent: float = 0.0
    reserved: float = 0.0


class LLMClient:
    """The `LLM` protocol over litellm. One instance per run and model; it keeps the per-stage accounting.

    `ledger` is where spending is counted against ``settings.max_cost`` (default: a ledger of this client's own).
    """

    def __init__(
        self, settings: LLMSettings, *, jitter: Jitter = equal_jitter, ledger: CostLedger | None = None
    ) -> None:
        self.settings = settings
        self.model = settings.model
        self.cache = DiskCache(settings.cache_dir.resolve()) if settings.cache_dir is not None else None
        self._jitter = jitter
        self._usage: dict[str, StageUsage] = {}
        self._retries: dict[str, int] = {}
        self.ledger = ledger if ledger is not None else CostLedger()
        self._prices: Prices | None = None
        self._schema_mode: bool | None = None
        self._semaphore: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None
        self._rpm = TokenBucket(settings.rpm) if settings.rpm else None
        self._tpm = TokenBucket(settings.tpm) if settings.tpm else None

    def usage(self) -> dict[str, StageUsage]:
        """Accounting so far, by stage (copies). Cache hits count in ``calls`` and ``cached_calls``, with no
        tokens or cost; a repair re-ask is a call of its own; ``failed_calls`` counts calls that raised."""
        return {stage: replace(u) for stage, u in self._usage.items()}

    def retries(self) -> dict[str, int]:
        """Retried HTTP attempts so far, by stage."""
        return dict(self._retries)

    @property
    def spent(self) -> float:
        """USD spent so far on this client's ledger (by every client sharing it)."""
        return self.ledger.spent

    @property
    def prices(self) -> Prices:
        """Per-token prices in use (overrides, else litellm's price map, else 0)."""
        if self._prices is None:
            s = self.settings
            self._prices = resolve_prices(s.model, s.input_price_per_mtok, s.output_price_per_mtok)
        return self._prices

    def estimate_cost(self, calls: int, prompt_tokens: int, completion_tokens: int) -> float:
        """USD for `calls` calls averaging `prompt_tokens` and `completion_tokens` each (for dry runs)."""
        return calls * self.prices.cost(prompt_tokens, completion_tokens)

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

        A reply that does not parse gets one repair re-ask; still unusable raises `LLMBadResponse`. Other
        failures raise an `LLMCallError` subclass after the retries, `LLMBudgetExceeded` at the cost cap.
        """
        params: dict[str, Any] = {
            "temperature": self.settings.temperature if temperature is None else temperature,
            "max_tokens": max_tokens or self.settings.max_tokens,
        }
        send = [dict(m) for m in messages]
        if response_model is not None:
            if self._use_schema():
                params["response_format"] = response_format(response_model)
            else:
                send = with_json_instruction(send, response_model)
        first = await self._call(send, params, stage, sample)
        if response_model is None:
            return first
        return await parse_or_repair(
            first, send, response_model, lambda repair: self._call(repair, params, stage, sample), self._stage(stage)
        )

    def _stage(self, stage: str) -> StageUsage:
        return self._usage.setdefault(stage, StageUsage())

    def _use_schema(self) -> bool:
        mode = self.settings.structured_output
        if mode != "auto":
            return mode == "schema"
        if self._schema_mode is None:
            self._schema_mode = bool(import_litellm().supports_response_schema(self.model))
        return self._schema_mode

    def _api_key(self) -> str | None:
        name = self.settings.api_key_env
        if name:
            key = os.environ.get(name)
            if not key:
                raise LLMConfigError(f"the environment variable {name} (API key for {self.model}) is not set")
            return key
        if self.settings.api_base and self.model.startswith("openai/") and not os.environ.get("OPENAI_API_KEY"):
            return "no-key"  # local OpenAI-compatible servers ignore the key, but the openai SDK demands one
        return None

    def _sem(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()  # a semaphore binds to one loop; complete() makes a new one each time
        if self._semaphore is None or self._semaphore[0] is not loop:
            self._semaphore = (loop, asyncio.Semaphore(self.settings.concurrency))
        return self._semaphore[1]

    async def _call(
        self, messages: list[dict[str, str]], params: dict[str, Any], stage: str, sample: int = 0
    ) -> Completion:
        usage = self._stage(stage)
        # sample 0 keeps the key of a plain call, so caches written before samples existed still hit
        keyed = {**params, "sample": sample} if sample else params
        key = cache_key(self.model, self.settings.api_base, messages, keyed)
        hit = self.cache.get(key) if self.cache is not None else None
        if hit is not None:
            usage.calls += 1
            usage.cached_calls += 1
            return self._completion(hit, 0.0, cached=True)
        estimate = estimate_call_cost(self.prices, messages, params["max_tokens"])
        cap = self.settings.max_cost
        ledger = self.ledger
        if cap is not None and ledger.spent + ledger.reserved + estimate > cap:
            raise LLMBudgetExceeded(
                f"the cost cap of ${cap:.4f} is reached (spent ${ledger.spent:.4f}, in flight ${ledger.reserved:.4f},"
                f" this call up to ${estimate:.4f}); finished work is kept in the cache"
            )
        ledger.reserved += estimate
        try:
            reply = await self._send(messages, params, stage)
        finally:
            ledger.reserved -= estimate
        cost = self.prices.cost(reply.prompt_tokens, reply.completion_tokens)
        ledger.spent += cost
        usage.calls += 1
        usage.prompt_tokens += reply.prompt_tokens
        usage.completion_tokens += reply.completion_tokens
        usage.cost += cost
        if self.cache is not None:
            try:
                self.cache.put(key, reply)
            except OSError as exc:  # the cache saves money, it is not worth failing a paid call for
                logger.warning("could not write the LLM cache entry %s: %s", key, exc)
        return self._completion(reply, cost, cached=False)

    def _completion(self, reply: CachedReply, cost: float, *, cached: bool) -> Completion:
        return Completion(
            text=reply.text,
            prompt_tokens=reply.prompt_tokens,
            completion_tokens=reply.completion_tokens,
            cost=cost,
            cached=cached,
            model=self.model,
            raw={"finish_reason": reply.finish_reason, "served_model": reply.model},
        )

    async def _send(self, messages: list[dict[str, str]], params: dict[str, Any], stage: str) -> CachedReply:
        litellm = import_litellm()
        s = self.settings
        key = self._api_key()
        kwargs: dict[str, Any] = {k: v for k, v in params.items() if v is not None}
        kwargs.update(
            model=s.model, messages=messages, timeout=s.timeout, max_retries=0, num_retries=0, drop_params=True
        )
        if s.api_base:
            kwargs["api_base"] = s.api_base
        if key:
            kwargs["api_key"] = key
        for attempt in range(s.max_retries + 1):
            estimate = estimate_prompt_tokens(messages)
            if self._rpm is not None:
                await self._rpm.acquire(1)
            if self._tpm is not None:
                await self._tpm.acquire(estimate)
            try:
                async with self._sem(), asyncio.timeout(s.timeout + 30):  # a belt in case a transport hangs
                    response = await litellm.acompletion(**kwargs)
                reply = CachedReply.from_response(response)
            except Exception as exc:
                mapped = map_error(exc, key)
                if not mapped.retryable or attempt == s.max_retries:
                    self._stage(stage).failed_calls += 1
                    if not isinstance(mapped.error, LLMConfigError):  # that one stops the run and is shown once
                        logger.warning(
                            "stage %s: call failed after %d attempt(s): %s", stage, attempt + 1, mapped.error
                        )
                    if mapped.error is exc:
                        raise
                    raise mapped.error from exc
                delay = backoff_delay(attempt, s.backoff_base, s.backoff_max, mapped.retry_after, self._jitter)
                self._retries[stage] = self._retries.get(stage, 0) + 1
                logger.info(
                    "stage %s: attempt %d failed (%s); retrying in %.2fs", stage, attempt + 1, mapped.error, delay
                )
                await asyncio.sleep(delay)
                continue
            if self._tpm is not None:
                self._tpm.adjust(reply.prompt_tokens + reply.completion_tokens - estimate)
            return reply
        raise AssertionError("unreachable: the last attempt returns or raises")  # pragma: no cover
