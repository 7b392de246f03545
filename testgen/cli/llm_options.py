"""The LLM client options `testgen build` and `evaluate` share: timeout, retries, structured-output mode,
whether calls that failed in an earlier run are sent again, and the model's price. Each maps onto `LLMSettings`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

STRUCTURED_MODES = ("auto", "json_schema", "json_object", "prompt")


def parse_price_per_1k(ctx: click.Context | None, param: click.Parameter | None, value: str | None) -> Any:
    """``0.5`` (one price for prompt and completion tokens) or ``0.15,0.6`` (prompt, completion): USD per 1k tokens."""
    if value is None:
        return None
    parts = [p.strip() for p in value.split(",")]
    try:
        prices = [float(p) for p in parts]
    except ValueError:
        prices = []
    if len(prices) not in (1, 2) or any(not p >= 0 or p == float("inf") for p in prices):
        raise click.BadParameter(
            f"{value!r}: give USD per 1k tokens as one number (e.g. 0.5) or prompt,completion (e.g. 0.15,0.6)"
        )
    return (prices[0], prices[-1])


def llm_client_options(command: F) -> F:
    """Add ``--llm-timeout``, ``--llm-retries``, ``--structured``, ``--retry-failed/--no-retry-failed`` and
    ``--price-per-1k`` (parameters ``llm_timeout``, ``llm_retries``, ``structured_output``, ``retry_failed``,
    ``price_per_1k``: None or a (prompt, completion) tuple of USD per 1k tokens)."""
    options = [
        click.option(
            "--llm-timeout",
            type=click.FloatRange(min=0, min_open=True),
            default=60.0,
            show_default=True,
            help="Seconds one LLM request may take. A local server answers one request at a time, so queued "
            "requests count against it: raise it (or lower --concurrency) for a slow local model.",
        ),
        click.option(
            "--llm-retries",
            type=click.IntRange(0, 20),
            default=3,
            show_default=True,
            help="Retries of a failed LLM request (timeouts, 429s, 5xx, lost connections).",
        ),
        click.option(
            "--structured",
            "structured_output",
            type=click.Choice(STRUCTURED_MODES),
            default="auto",
            show_default=True,
            help="How replies are held to JSON: a json_schema response_format, json_object plus the schema in "
            "the prompt, or the prompt alone; auto uses the first the server accepts (found once per run).",
        ),
        click.option(
            "--retry-failed/--no-retry-failed",
            default=True,
            show_default=True,
            help="Send LLM calls that failed in an earlier run again (their failures are kept in the cache).",
        ),
        click.option(
            "--price-per-1k",
            metavar="IN[,OUT]",
            default=None,
            callback=parse_price_per_1k,
            help="USD per 1k prompt (and completion) tokens, overriding litellm's price map; one number prices both. "
            "--max-cost needs a price: a model litellm does not know (a local one) is refused without it.",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command
