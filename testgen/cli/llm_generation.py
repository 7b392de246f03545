"""The options of ``testgen build`` that shape LLM generation: what questions are written from (``--seeds``), which
kinds of question (``--types``), the lexical gap (``--max-overlap``) and what happens when the model delivers
too little (``--fallback``). Each maps onto a field of `testgen.synth.llm_synth.LLMOptions`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from testgen.synth.types import DEFAULT_TYPE_MIX, parse_types

F = TypeVar("F", bound=Callable[..., Any])


def _types(ctx: click.Context | None, param: click.Parameter | None, value: str | None) -> Any:
    return parse_types(value) if value else None


def llm_generation_options(command: F) -> F:
    """Add ``--seeds``, ``--types``, ``--max-overlap`` and ``--fallback`` (parameters ``seeds``, ``types``: None or
    shares by question type, ``max_overlap``: None when 1 or more, ``fallback``)."""
    default_mix = ",".join(f"{k}={v:g}" for k, v in DEFAULT_TYPE_MIX.items())
    options = [
        click.option(
            "--seeds",
            type=click.Choice(["mixed", "passages", "facts"]),
            default="mixed",
            show_default=True,
            help="With --llm: what questions are written from. mixed: mined facts for lookups, passages (one "
            "chunk, or chunks of 2-3 documents on one topic) for every other kind of question; passages or "
            "facts alone.",
        ),
        click.option(
            "--types",
            default=None,
            callback=_types,
            help="With --llm: shares of question types (what, why, how, conditional, yes_no, list, contrast, "
            f"summary), e.g. why=0.5,how=0.5 [default: {default_mix}].",
        ),
        click.option(
            "--max-overlap",
            type=click.FloatRange(0, 1),
            default=0.75,
            show_default=True,
            help="With --llm: a passage question sharing more than this share of its content words with its "
            "evidence is rephrased once, and dropped if it still does (1: never).",
        ),
        click.option(
            "--fallback",
            type=click.Choice(["none", "offline"]),
            default="none",
            show_default=True,
            help="With --llm: offline makes up what the model did not deliver (unusable replies, too little "
            "material) with offline questions, flagged in their metadata.",
        ),
    ]
    for option in reversed(options):
        command = option(command)
    return command
