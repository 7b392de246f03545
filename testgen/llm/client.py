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
import contextlib
import logging
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from schemas import StageCost
from testgen.llm import _types
from testgen.llm._litellm import import_litellm
from testgen.llm._types import (
    BlockingComplete,
    Completion,
    LLMAuthFailed,
    LLMBudgetExceeded,
    LLMCallError,
    LLMConfigError,
    LLMTimeout,
)
from testgen.llm.cache import CachedFailure, CachedReply, DiskCache, cache_key
from testgen.llm.cost import Prices, cap_warning, estimate_call_cost, estimate_prompt_tokens, resolve_prices
from testgen.llm.parsing import parse_or_repair, response_format, with_json_instruction
from testgen.llm.ratelimit import Jitter, TokenBucket, backoff_delay, equal_jitter, map_error, mode_unsupported
from testgen.retry import Attempts

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

logger = logging.getLogger("testgen.llm")
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")

StructuredMode = Literal["auto", "json_schema", "json_object", "prompt"]
"""How structured replies are asked for (see `LLMSettings.structured_output`)."""
ProbeOrder = ("json_schema", "json_object", "prompt")
"""The order ``auto`` tries the modes in: the strictest the server accepts wins."""


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
    structured_output: StructuredMode = "auto"
    """How a reply is held to a response model: ``json_schema`` (a JSON-schema response_format), ``json_object``
    (``{"type": "json_object"}`` plus the schema in the prompt), ``prompt`` (the schema in the prompt only), or
    ``auto``: the first of those the server accepts, found once per run (a turned-down mode is not retried and
    is remembered in the cache folder). ``schema`` is read as ``json_schema``."""
    retry_failed: bool = True
    """Re-send calls that failed in an earlier run (recorded in the cache with their reason); False replays the
    recorded failure instead."""
    backoff_base: float = Field(default=1.0, ge=0)
    """First retry waits about this long (seconds, jittered); it doubles per retry."""
    backoff_max: float = Field(default=30.0, ge=0)
    """Longest backoff between retries (a longer Retry-After is still honoured, up to 120 s)."""

    @field_validator("structured_output", mode="before")
    @classmethod
    def _old_spelling(cls, value: Any) -> Any:
        return "json_schema" if value == "schema" else value

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


def key_variable(model: str) -> str:
    """The environment variable litellm reads the key from for `model`'s provider ("openai/…" → OPENAI_API_KEY)."""
    provider = model.split("/", 1)[0] if "/" in model else "openai"
    return re.sub(r"\W", "_", provider).upper() + "_API_KEY"


def completion_of(reply: CachedReply, cost: float, *, cached: bool, model: str) -> Completion:
    """The `Completion` handed back for a reply (fresh or from the cache)."""
    return Completion(
        text=reply.text,
        prompt_tokens=reply.prompt_tokens,
        completion_tokens=reply.completion_tokens,
        cost=cost,
        cached=cached,
        model=model,
        raw={"finish_reason": reply.finish_reason, "served_model": reply.model},
    )


def settle(
    reply: CachedReply,
    *,
    prices: Prices,
    ledger: CostLedger,
    usage: StageCost,
    cache: DiskCache | None,
    key: str,
    model: str,
) -> Completion:
    """Account a paid reply — its cost on the ledger and the stage's usage — and keep it in the cache."""
    cost = prices.cost(reply.prompt_tokens, reply.completion_tokens)
    ledger.spent += cost
    usage.calls += 1
    usage.prompt_tokens += reply.prompt_tokens
    usage.completion_tokens += reply.completion_tokens
    usage.cost += cost
    if cache is not None:
        try:
            cache.put(key, reply)
        except OSError as exc:  # the cache saves money, it is not worth failing a paid call for
            logger.warning("could not write the LLM cache entry %s: %s", key, exc)
    return completion_of(reply, cost, cached=False, model=model)


class _ModeRejected(Exception):
    """A request the server turned down while the client probed a structured-output mode (internal)."""


_RECORDED_ERRORS: dict[str, type[LLMCallError]] = {
    cls.__name__: cls for cls in vars(_types).values() if isinstance(cls, type) and issubclass(cls, LLMCallError)
}


class LLMClient(BlockingComplete):
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
        self._usage: dict[str, StageCost] = {}
        self.ledger = ledger if ledger is not None else CostLedger()
        self._prices: Prices | None = None
        mode = settings.structured_output
        self._mode: str | None = None if mode == "auto" else mode
        self._rejected: dict[str, str] | None = None  # auto: modes the server turned down, with why
        self._rejected_earlier: set[str] = set()
        self._probe_lock: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None
        self._semaphore: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None
        self._rpm = TokenBucket(settings.rpm) if settings.rpm else None
        self._tpm = TokenBucket(settings.tpm) if settings.tpm else None

    def usage(self) -> dict[str, StageCost]:
        """Accounting so far, by stage (copies): calls answered (cache hits with no tokens or cost), HTTP
        requests sent, retries, repair re-asks, cached and failed calls."""
        return {stage: u.model_copy() for stage, u in self._usage.items()}

    def retries(self) -> dict[str, int]:
        """Retried HTTP attempts so far, by stage (stages with none left out)."""
        return {stage: u.retries for stage, u in self._usage.items() if u.retries}

    @property
    def spent(self) -> float:
        """USD spent so far on this client's ledger (by every client sharing it)."""
        return self.ledger.spent

    @property
    def prices(self) -> Prices:
        """Per-token prices in use (overrides, else litellm's price map, else 0 with ``known`` False)."""
        if self._prices is None:
            s = self.settings
            self._prices = resolve_prices(s.model, s.input_price_per_mtok, s.output_price_per_mtok)
        return self._prices

    @property
    def structured_mode(self) -> str | None:
        """The structured-output mode in use: set, or found by ``auto`` (None until a structured call settled it)."""
        return self._mode

    def cap_warning(self) -> str | None:
        """Why ``max_cost`` cannot act on this model (no known price), or None."""
        return cap_warning(self.settings.max_cost, self.prices, self.model)

    def run_info(self) -> dict[str, Any]:
        """The settings that shaped this run's calls and what the client found out, for a run's summary."""
        s = self.settings
        rejected = self._rejected or {}
        return {
            "model": self.model,
            "timeout": s.timeout,
            "max_retries": s.max_retries,
            "structured_output": self._mode or "none (no structured call was made)",
            "structured_output_setting": s.structured_output,
            "structured_output_rejected": {
                mode: reason + (" (found by an earlier run)" if mode in self._rejected_earlier else "")
                for mode, reason in rejected.items()
            },
            "retry_failed": s.retry_failed,
            "priced": self.prices.known,
        }

    def estimate_cost(self, calls: int, prompt_tokens: int, completion_tokens: int) -> float:
        """USD for `calls` calls averaging `prompt_tokens` and `completion_tokens` each (for dry runs)."""
        return calls * self.prices.cost(prompt_tokens, completion_tokens)

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
        if response_model is None:
            return await self._call([dict(m) for m in messages], params, stage, sample)
        first, send, shaped = await self._structured_call(messages, params, response_model, stage, sample)
        return await parse_or_repair(
            first, send, response_model, lambda repair: self._call(repair, shaped, stage, sample), self._stage(stage)
        )

    def _stage(self, stage: str) -> StageCost:
        return self._usage.setdefault(stage, StageCost())

    # -- structured output ------------------------------------------------------------------------------------

    @staticmethod
    def _shape(
        messages: Sequence[dict[str, str]], params: dict[str, Any], model: type[BaseModel], mode: str
    ) -> tuple[list[dict[str, str]], dict[str, Any]]:
        """The messages and parameters of a structured call in `mode`."""
        if mode == "json_schema":
            return [dict(m) for m in messages], {**params, "response_format": response_format(model)}
        send = with_json_instruction(messages, model)
        if mode == "json_object":
            return send, {**params, "response_format": {"type": "json_object"}}
        return send, dict(params)

    def _meta_name(self) -> str:
        return "structured-" + cache_key(self.model, self.settings.api_base, [], {})[:32]

    def _candidates(self) -> list[str]:
        """Modes ``auto`` may still try, in order (one the server turned down is never tried again)."""
        if self._rejected is None:
            self._rejected = {}
            known = self.cache.read_meta(self._meta_name()) if self.cache is not None else None
            for mode, reason in ((known or {}).get("rejected") or {}).items():
                if mode in ProbeOrder[:-1]:
                    self._rejected[mode] = str(reason)
                    self._rejected_earlier.add(mode)
            try:
                supported = import_litellm().get_supported_openai_params(model=self.model) or []
            except Exception:  # a provider litellm cannot place: let the server answer for itself
                supported = ["response_format"]
            if "response_format" not in supported:
                # litellm would drop the parameter silently (drop_params): the schema must go in the prompt
                self._rejected.setdefault("json_schema", "litellm does not pass response_format to this provider")
                self._rejected.setdefault("json_object", "litellm does not pass response_format to this provider")
        return [m for m in ProbeOrder if m not in self._rejected]

    def _lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if self._probe_lock is None or self._probe_lock[0] is not loop:
            self._probe_lock = (loop, asyncio.Lock())
        return self._probe_lock[1]

    async def _structured_call(
        self,
        messages: Sequence[dict[str, str]],
        params: dict[str, Any],
        model: type[BaseModel],
        stage: str,
        sample: int,
    ) -> tuple[Completion, list[dict[str, str]], dict[str, Any]]:
        """The first reply of a structured call, with the messages and parameters it was sent with.

        While ``auto`` has not settled a mode, calls go one at a time: the first tries json_schema, then
        json_object, then prompt, moving on at once when the server turns a mode down; the first mode that
        gets a reply is used for the rest of the run."""
        if self._mode is None:
            async with self._lock():
                while self._mode is None:
                    mode = self._candidates()[0]
                    send, shaped = self._shape(messages, params, model, mode)
                    try:
                        done = await self._call(send, shaped, stage, sample, probing=mode != "prompt")
                    except _ModeRejected as exc:
                        assert self._rejected is not None
                        self._rejected[mode] = str(exc)
                        logger.info("%s: structured mode %s turned down (%s); trying the next", self.model, mode, exc)
                        if self.cache is not None:
                            with contextlib.suppress(OSError):
                                self.cache.write_meta(self._meta_name(), {"rejected": self._rejected})
                        continue
                    self._mode = mode
                    return done, send, shaped
        send, shaped = self._shape(messages, params, model, self._mode)
        return await self._call(send, shaped, stage, sample), send, shaped

    # -- one call: cache, budget, send ----------------------------------------------------------------------

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
        self, messages: list[dict[str, str]], params: dict[str, Any], stage: str, sample: int = 0, probing: bool = False
    ) -> Completion:
        usage = self._stage(stage)
        # sample 0 keeps the key of a plain call, so caches written before samples existed still hit
        keyed = {**params, "sample": sample} if sample else params
        key = cache_key(self.model, self.settings.api_base, messages, keyed)
        hit = self.cache.entry(key) if self.cache is not None else None
        if isinstance(hit, CachedReply):
            usage.calls += 1
            usage.cached_calls += 1
            return completion_of(hit, 0.0, cached=True, model=self.model)
        if isinstance(hit, CachedFailure) and not self.settings.retry_failed:
            usage.cached_calls += 1
            usage.failed_calls += 1
            error = _RECORDED_ERRORS.get(hit.kind, LLMCallError)
            raise error(f"{hit.reason} (recorded by an earlier run; --retry-failed sends it again)")
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
            reply = await self._send(messages, params, stage, probing)
        except LLMCallError as exc:
            if self.cache is not None:  # (a rejected key is no LLMCallError: fixed credentials must take effect)
                with contextlib.suppress(OSError):
                    self.cache.put_failure(key, CachedFailure(type(exc).__name__, " ".join(str(exc).split())))
            raise
        finally:
            ledger.reserved -= estimate
        return settle(
            reply, prices=self.prices, ledger=ledger, usage=usage, cache=self.cache, key=key, model=self.model
        )

    async def _send(
        self, messages: list[dict[str, str]], params: dict[str, Any], stage: str, probing: bool = False
    ) -> CachedReply:
        litellm = import_litellm()
        s = self.settings
        usage = self._stage(stage)
        key = self._api_key()
        kwargs: dict[str, Any] = {k: v for k, v in params.items() if v is not None}
        kwargs.update(
            model=s.model, messages=messages, timeout=s.timeout, max_retries=0, num_retries=0, drop_params=True
        )
        if s.api_base:
            kwargs["api_base"] = s.api_base
        if key:
            kwargs["api_key"] = key
        attempts = Attempts(retries=s.max_retries, wait=lambda attempt, exc: self._retry_in(attempt, exc, key, stage))

        async def attempt() -> CachedReply:
            last = attempts.made - 1 == s.max_retries
            estimate = estimate_prompt_tokens(messages)
            if self._rpm is not None:
                await self._rpm.acquire(1)
            if self._tpm is not None:
                await self._tpm.acquire(estimate)
            try:
                async with self._sem(), asyncio.timeout(s.timeout + 30):  # a belt in case a transport hangs
                    usage.requests += 1
                    usage.retries += attempts.made > 1
                    response = await litellm.acompletion(**kwargs)
                reply = CachedReply.from_response(response)
            except Exception as exc:
                if probing:  # a server that turns the output mode down: the next mode is tried, not this one again
                    mapped = map_error(exc, key)
                    unsupported = mode_unsupported(mapped)
                    if unsupported or (unsupported is None and last):
                        raise _ModeRejected(f"HTTP {mapped.status}: {str(mapped.error)[:200]}") from exc
                raise
            if self._tpm is not None:
                self._tpm.adjust(reply.prompt_tokens + reply.completion_tokens - estimate)
            return reply

        try:
            return await attempts.acall(attempt)
        except _ModeRejected:
            raise
        except Exception as exc:
            error = self._given_up(exc, key, stage, usage, attempts.made)
            if error is exc:
                raise
            raise error from exc

    def _retry_in(self, attempt: int, exc: Exception, key: str | None, stage: str) -> float | None:
        """Seconds before retry number `attempt` after `exc` (the server's Retry-After when it gives one), or None
        when the failure is not worth another attempt."""
        if isinstance(exc, _ModeRejected):
            return None
        mapped = map_error(exc, key)
        if not mapped.retryable:
            return None
        s = self.settings
        delay = backoff_delay(attempt, s.backoff_base, s.backoff_max, mapped.retry_after, self._jitter)
        logger.info("stage %s: attempt %d failed (%s); retrying in %.2fs", stage, attempt + 1, mapped.error, delay)
        return delay

    def _given_up(self, exc: Exception, key: str | None, stage: str, usage: StageCost, made: int) -> Exception:
        """The error a call ends with after its last attempt: a rejected key stops the run (with the variable to
        set), a configuration error is shown once, any other failure is counted and named with its attempts."""
        mapped = map_error(exc, key)
        if isinstance(mapped.error, LLMAuthFailed):  # stops the run: every call would fail alike
            usage.failed_calls += 1
            return self._auth_error(mapped.error)
        if isinstance(mapped.error, LLMConfigError):  # that one stops the run and is shown once
            return mapped.error
        usage.failed_calls += 1
        error = self._final_error(mapped.error, made)
        logger.warning("stage %s: call failed after %d attempt(s): %s", stage, made, error)
        return error

    def _auth_error(self, error: LLMAuthFailed) -> LLMAuthFailed:
        """The provider's refusal, with the variable that holds the key this client sent."""
        variable = self.settings.api_key_env or key_variable(self.model)
        return LLMAuthFailed(
            f"{self.model}: the provider rejected the API key ({error}); set {variable} to a valid key"
        )

    def _final_error(self, error: _types.LLMError, attempts: int) -> _types.LLMError:
        """A timeout says what the limit was and which setting raises it; other errors pass unchanged."""
        if not isinstance(error, LLMTimeout):
            return error
        return LLMTimeout(
            f"no reply within the LLM timeout of {self.settings.timeout:g} s ({attempts} attempt(s); raise it with "
            f"--llm-timeout SECONDS, llm_timeout in the API): {error}"
        )
