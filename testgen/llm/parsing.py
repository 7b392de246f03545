"""Tolerant JSON extraction from model replies, validation into pydantic models, and the repair prompt.

Small and local models wrap JSON in prose or ``` fences, leave trailing commas, quote with ``'`` or write
Python literals. `extract_json` undoes those habits (never guessing at truncated output: a cut reply fails
and gets the repair re-ask); `parse_reply` validates the result with the requested model.
"""

from __future__ import annotations

import itertools
import json
import logging
import re
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from pydantic import BaseModel, ValidationError

from schemas import StageCost
from testgen.llm._types import Completion, LLMBadResponse

logger = logging.getLogger("testgen.llm")
_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?(.*?)```", re.DOTALL)
_BARE_WORDS = {"true": "true", "false": "false", "null": "null", "True": "true", "False": "false", "None": "null"}


class ReplyParseError(ValueError):
    """A reply that is not (repairable) JSON or does not validate; ``reason`` is a short, model-readable cause."""

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(reason)


def strip_fences(text: str) -> str:
    """The content of the first ``` fenced block if there is one, else the text itself."""
    match = _FENCE.search(text)
    return match.group(1) if match else text


def json_objects(text: str) -> Iterator[str]:
    """Balanced ``{...}`` blocks in order of their opening brace (braces inside strings ignored)."""
    start = text.find("{")
    while start != -1:
        depth, quote, i = 0, "", start
        while i < len(text):
            ch = text[i]
            if quote:
                if ch == "\\":
                    i += 1
                elif ch == quote:
                    quote = ""
            elif ch in "\"'":
                quote = ch
            elif ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    yield text[start : i + 1]
                    break
            i += 1
        start = text.find("{", start + 1)


def first_json_object(text: str) -> str | None:
    """The first balanced ``{...}`` block, or None when none closes (e.g. the reply was cut off)."""
    return next(json_objects(text), None)


def relax_json(text: str) -> str:
    """Rewrite json5-ish text as JSON: comments, trailing commas, single quotes, bare keys, Python literals."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'":
            j, buf = i + 1, []
            while j < n and text[j] != ch:
                if text[j] == "\\" and j + 1 < n:
                    # \' is not a JSON escape; everything else passes through
                    buf.append("'" if text[j + 1] == "'" else text[j : j + 2])
                    j += 2
                    continue
                buf.append('\\"' if text[j] == '"' else text[j])
                j += 1
            out.append('"' + "".join(buf) + '"')
            i = j + 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end == -1 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end == -1 else end + 2
        elif ch == ",":
            j = i + 1
            while j < n and text[j].isspace():
                j += 1
            if j < n and text[j] in "}]":
                i += 1  # trailing comma
            else:
                out.append(ch)
                i += 1
        elif ch.isalpha() or ch == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] == "_"):
                j += 1
            word = text[i:j]
            k = j
            while k < n and text[k].isspace():
                k += 1
            if word in _BARE_WORDS and not (k < n and text[k] == ":"):
                out.append(_BARE_WORDS[word])
            elif k < n and text[k] == ":":
                out.append(f'"{word}"')  # unquoted key
            else:
                out.append(word)
            i = j
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def extract_json(text: str) -> Any:
    """The JSON object in a model reply, tolerating fences, prose around it and json5-ish slips.

    Raises `ReplyParseError` when no complete object can be read (e.g. the reply was cut off).
    """
    body = strip_fences(text).strip()
    try:
        return json.loads(body, strict=False)
    except json.JSONDecodeError:
        pass
    error: json.JSONDecodeError | None = None
    for block in itertools.chain(json_objects(body), json_objects(text) if body != text else ()):
        for candidate in (block, relax_json(block)):
            try:
                return json.loads(candidate, strict=False)
            except json.JSONDecodeError as exc:
                error = error or exc
    if error is None:
        raise ReplyParseError("the reply contains no complete JSON object (it may have been cut off)")
    raise ReplyParseError(f"the JSON object is malformed: {error.msg} at line {error.lineno} column {error.colno}")


def parse_reply(text: str, model: type[BaseModel]) -> BaseModel:
    """Extract the JSON object from `text` and validate it with `model`; raises `ReplyParseError`."""
    data = extract_json(text)
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or '(root)'}: {err['msg']}" for err in exc.errors()[:8]
        )
        raise ReplyParseError(f"the JSON does not match the schema: {problems}") from exc


def json_schema(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema of a response model, as sent to the provider or written into the prompt."""
    return model.model_json_schema()


def response_format(model: type[BaseModel]) -> dict[str, Any]:
    """An OpenAI-style ``response_format`` asking for JSON that follows the model's schema (non-strict)."""
    return {
        "type": "json_schema",
        "json_schema": {"name": model.__name__, "schema": json_schema(model), "strict": False},
    }


def json_instruction(model: type[BaseModel]) -> str:
    """The prompt text that asks for JSON when the provider cannot enforce a schema."""
    schema = json.dumps(json_schema(model), ensure_ascii=False, separators=(",", ":"))
    return (
        "Reply with a single JSON object and nothing else (no prose, no code fences). "
        f"It must follow this JSON Schema:\n{schema}"
    )


def with_json_instruction(messages: Sequence[dict[str, str]], model: type[BaseModel]) -> list[dict[str, str]]:
    """A copy of `messages` with the JSON instruction appended to the last user message (or added as one)."""
    out = [dict(m) for m in messages]
    instruction = json_instruction(model)
    for message in reversed(out):
        if message.get("role") == "user":
            message["content"] = f"{message.get('content', '')}\n\n{instruction}"
            return out
    out.append({"role": "user", "content": instruction})
    return out


def repair_messages(
    messages: Sequence[dict[str, str]], reply: str, reason: str, *, truncated: bool = False
) -> list[dict[str, str]]:
    """The one re-ask after a bad reply: the conversation, the reply, and what was wrong with it."""
    cut = " Your reply was cut off at the length limit, so keep it shorter." if truncated else ""
    ask = (
        f"Your previous reply could not be used: {reason}.{cut} "
        "Reply again with only the corrected JSON object, no prose and no code fences."
    )
    return [*(dict(m) for m in messages), {"role": "assistant", "content": reply}, {"role": "user", "content": ask}]


async def parse_or_repair(
    first: Completion,
    messages: list[dict[str, str]],
    model: type[BaseModel],
    reask: Callable[[list[dict[str, str]]], Awaitable[Completion]],
    usage: StageCost,
) -> Completion:
    """`first` with ``parsed`` set; if it does not parse, one repair re-ask through `reask` (counted in
    ``usage.repairs``), then `LLMBadResponse` (counted in ``usage.failed_calls``). The result adds up tokens
    and cost of both calls."""
    try:
        return replace(first, parsed=parse_reply(first.text, model))
    except ReplyParseError as exc:
        logger.info("reply not usable as %s (%s); asking once to repair", model.__name__, exc.reason)
        truncated = first.raw.get("finish_reason") == "length"
        usage.repairs += 1
        second = await reask(repair_messages(messages, first.text, exc.reason, truncated=truncated))
    try:
        parsed = parse_reply(second.text, model)
    except ReplyParseError as exc:
        usage.failed_calls += 1
        raise LLMBadResponse(
            f"the reply does not fit {model.__name__} even after a repair re-ask: {exc.reason}", reply=second.text
        ) from exc
    return replace(
        second,
        parsed=parsed,
        prompt_tokens=first.prompt_tokens + second.prompt_tokens,
        completion_tokens=first.completion_tokens + second.completion_tokens,
        cost=first.cost + second.cost,
        cached=first.cached and second.cached,
        raw={**second.raw, "repaired": True},
    )
