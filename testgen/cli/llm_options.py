"""The LLM client options `testgen build` and `evaluate` share: timeout, retries, structured-output mode and
whether calls that failed in an earlier run are sent again. Each maps onto one `LLMSettings` field."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

STRUCTURED_MODES = ("auto", "json_schema", "json_object", "prompt")


def llm_client_options(command: F) -> F:
    """Add ``--llm-timeout``, ``--llm-retries``, ``--structured`` and ``--retry-failed/--no-retry-failed``
    (parameters ``llm_timeout``, ``llm_retries``, ``structured_output``, ``retry_failed``)."""
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
    ]
    for option in reversed(options):
        command = option(command)
    return command
