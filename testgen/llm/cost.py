"""Prices and cost estimates: user overrides first (``--price-per-1k``, per 1M tokens in `LLMSettings`), then
litellm's bundled price map, else 0 with ``known`` False (and ``--max-cost`` refuses such a model).

Local models (Ollama, vLLM, llama.cpp) are unknown to litellm and cost 0 unless prices are given. The
estimate of a call before it is made is deliberately high (one token per 3 UTF-8 bytes of prompt, the full
completion budget), so a ``max_cost`` cap checked against it is not overshot.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

DEFAULT_COMPLETION_BUDGET = 1024
"""Completion tokens assumed for a call's cost estimate when no ``max_tokens`` is set."""


@dataclass(frozen=True)
class Prices:
    """USD per token for prompt and completion tokens."""

    prompt: float = 0.0
    completion: float = 0.0
    known: bool = True
    """False when neither an override nor litellm's price map gave a price: the zeros then mean "unknown"."""

    def cost(self, prompt_tokens: int, completion_tokens: int) -> float:
        """USD for the given token counts."""
        return prompt_tokens * self.prompt + completion_tokens * self.completion


@lru_cache(maxsize=64)
def _litellm_prices(model: str) -> Prices | None:
    from testgen.llm._litellm import import_litellm

    litellm = import_litellm()
    try:
        prompt, completion = litellm.cost_per_token(model=model, prompt_tokens=1_000_000, completion_tokens=1_000_000)
    except Exception:  # litellm raises several types for an unmapped model; unknown means "no price"
        return None
    return Prices(prompt / 1_000_000, completion / 1_000_000)


def resolve_prices(model: str, input_per_mtok: float | None = None, output_per_mtok: float | None = None) -> Prices:
    """Per-token prices of `model`: the overrides (USD per 1M tokens) where given, else litellm's map, else 0."""
    known = _litellm_prices(model) if input_per_mtok is None or output_per_mtok is None else None
    prompt = input_per_mtok / 1_000_000 if input_per_mtok is not None else (known.prompt if known else 0.0)
    completion = output_per_mtok / 1_000_000 if output_per_mtok is not None else (known.completion if known else 0.0)
    priced = known is not None or (input_per_mtok is not None and output_per_mtok is not None)
    return Prices(prompt, completion, known=priced)


def format_cost(usd: float, known: bool) -> str:
    """``$0.0123``, or ``unknown`` when the model has no price (a 0 would read as "free")."""
    return f"${usd:.4f}" if known else "unknown"


def cap_warning(max_cost: float | None, prices: Prices, model: str) -> str | None:
    """Why ``--max-cost`` cannot act on `model` (it has no price, so every call is counted at $0), or None."""
    if max_cost is None or prices.known:
        return None
    return (
        f"--max-cost {max_cost:g} cannot limit {model}: the model has no known price, so its calls are counted "
        "at $0; give its price with --price-per-1k IN,OUT (USD per 1k prompt, completion tokens)"
    )


def per_mtok(price_per_1k: tuple[float, float] | None) -> tuple[float | None, float | None]:
    """``--price-per-1k`` (USD per 1k prompt and completion tokens) as the per-1M overrides of `resolve_prices`."""
    if price_per_1k is None:
        return None, None
    return price_per_1k[0] * 1000, price_per_1k[1] * 1000


def unpriced_cap_error(max_cost: float | None, model: str, price_per_1k: tuple[float, float] | None) -> str | None:
    """Why a run with ``--max-cost`` must not start: `model` has no price, given or in litellm's map (else None).

    Unpriced calls are counted at $0, so the cap would never stop them."""
    if max_cost is None or price_per_1k is not None:
        return None
    return cap_warning(max_cost, resolve_prices(model), model)


MAX_REQUESTS_PER_CALL_FACTOR = 2
"""A structured call sends at most the first request and one repair re-ask, each with its retries."""


def request_ceiling(calls: int, max_retries: int, structured: bool = True, probes: int = 2) -> int:
    """Most HTTP requests `calls` calls can send: each call's first try and (structured) its repair re-ask,
    each retried up to `max_retries` times, plus the structured-output mode probes one run may spend."""
    per_call = (MAX_REQUESTS_PER_CALL_FACTOR if structured else 1) * (1 + max_retries)
    return calls * per_call + (probes if structured and calls else 0)


def estimate_prompt_tokens(messages: Sequence[dict[str, str]]) -> int:
    """An upper-side estimate of a prompt's tokens without a tokenizer (offline: no tiktoken download)."""
    size = sum(len(str(m.get("content", "")).encode("utf-8")) + 16 for m in messages)
    return size // 3 + 1


def estimate_call_cost(prices: Prices, messages: Sequence[dict[str, str]], max_tokens: int | None) -> float:
    """Cost of one call before it is made: estimated prompt tokens plus the full completion budget."""
    return prices.cost(estimate_prompt_tokens(messages), max_tokens or DEFAULT_COMPLETION_BUDGET)
