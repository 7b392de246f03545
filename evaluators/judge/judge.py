"""The LLM-as-judge: scores one answer against its reference answer, question and retrieved contexts.

Two modes: ``bundled`` asks for every score with its reason in one call; ``separate`` makes one call per score
(easier for weaker models, five times the calls). Replies are read tolerantly: numeric strings are accepted,
out-of-range numbers are clamped to the score's scale (never rescaled: a 0.8 accuracy becomes 1, 7 becomes 5),
and a score the judge left out or wrote unreadably is missing from the record with the reason
``judge gave no <name>``. A failed call never raises: the record carries the error and no scores (in separate
mode, only that call's score is missing). `LLMBudgetExceeded` propagates and stops the run.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
from collections.abc import Callable, Sequence
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from evaluators.answer import call_error
from evaluators.concurrency import run_bounded, run_sync
from evaluators.judge.case import JudgeCase
from evaluators.judge.prompts import JUDGE_SCORES, bundled_messages, score_range, single_messages
from schemas import JudgeRecord
from testgen.llm import LLM, LLMBadResponse, LLMBudgetExceeded, LLMCallError
from testgen.llm.loop import EventLoop
from testgen.llm.parsing import ReplyParseError, parse_reply

JudgeMode = Literal["bundled", "separate"]
M = TypeVar("M", bound=BaseModel)

JUDGE_STAGE = "judge"
BUNDLED_MAX_TOKENS = 1_000
"""Completion limit of a bundled call (five one-sentence reasons and scores take about 350 tokens)."""
SINGLE_MAX_TOKENS = 300
"""Completion limit of a single-score call."""
MAX_REASON_CHARS = 500
"""A reason longer than this is cut when stored."""
NO_ANSWER = "no answer to judge"

_LEADING_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")
_REASON_KEYS = ("reason", "explanation", "justification", "rationale", "comment")
_SCORE_KEYS = ("score", "value", "rating", "grade")


def to_number(value: Any) -> float | None:
    """A finite number from a reply value: numbers, numeric strings (``"4"``, ``"0.8"``, ``" 4/5"`` → 4,
    ``"80%"`` → 80, ``"0,8"`` → 0.8); None for anything else (booleans, words, NaN)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        number = float(value)
        return number if math.isfinite(number) else None
    if isinstance(value, str):
        text = value.strip()
        if re.fullmatch(r"[+-]?\d+,\d+", text):
            text = text.replace(",", ".")
        match = _LEADING_NUMBER.match(text)
        return float(match.group()) if match else None
    return None


def clamp(name: str, value: float) -> float:
    """`value` clamped into the scale of score `name` (1–5 or 0–1), never rescaled."""
    low, high = score_range(name)
    return min(max(value, low), high)


def clamp_note(value: float, low: float, high: float, by: str) -> str | None:
    """``clamped: the judge gave 7 on 1–5`` when `value` lies outside [low, high] (`by` gave it), else None."""
    if low <= value <= high:
        return None
    return f"clamped: {by} gave {value:g} on {low:g}–{high:g}"


def _to_reason(value: Any) -> str | None:
    if value is None:
        return None
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    text = " ".join(text.split())
    return text or None


Score = Annotated[float | None, BeforeValidator(to_number)]
Reason = Annotated[str | None, BeforeValidator(_to_reason)]


def _norm_key(key: Any) -> str:
    return re.sub(r"[\s\-]+", "_", str(key).strip().lower())


def _pick(data: dict[str, Any], keys: Sequence[str]) -> Any:
    return next((data[k] for k in keys if data.get(k) is not None), None)


def _flatten_scores(data: Any) -> Any:
    """Undo common reply shapes: keys in other case/spacing, a ``scores`` wrapper, ``{"accuracy": {"score": 4,
    "reason": "..."}}`` and ``accuracy_score`` keys."""
    if not isinstance(data, dict):
        return data
    items = {_norm_key(k): v for k, v in data.items()}
    for wrapper in ("scores", "evaluation", "result", "judgement", "judgment"):
        inner = items.get(wrapper)
        if isinstance(inner, dict) and not any(name in items for name in JUDGE_SCORES):
            items = {**items, **{_norm_key(k): v for k, v in inner.items()}}
    out: dict[str, Any] = {}
    for key, value in items.items():
        if key.endswith("_score") and key[: -len("_score")] in JUDGE_SCORES:
            key = key[: -len("_score")]
        if key in JUDGE_SCORES and isinstance(value, dict):
            nested = {_norm_key(k): v for k, v in value.items()}
            out[key] = _pick(nested, _SCORE_KEYS)
            out.setdefault(f"{key}_reason", _pick(nested, _REASON_KEYS))
            continue
        if key.endswith("_explanation") or key.endswith("_justification"):
            key = key.rsplit("_", 1)[0] + "_reason"
        if key not in out or out[key] is None:
            out[key] = value
    return out


class BundledVerdict(BaseModel):
    """Every score with its reason (reason first); values are validated loosely and clamped afterwards."""

    model_config = ConfigDict(extra="ignore")

    accuracy_reason: Reason = None
    accuracy: Score = Field(default=None, json_schema_extra={"minimum": 1, "maximum": 5})
    completeness_reason: Reason = None
    completeness: Score = Field(default=None, json_schema_extra={"minimum": 1, "maximum": 5})
    relevance_reason: Reason = None
    relevance: Score = Field(default=None, json_schema_extra={"minimum": 1, "maximum": 5})
    faithfulness_reason: Reason = None
    faithfulness: Score = Field(default=None, json_schema_extra={"minimum": 0, "maximum": 1})
    answer_relevancy_reason: Reason = None
    answer_relevancy: Score = Field(default=None, json_schema_extra={"minimum": 0, "maximum": 1})

    @model_validator(mode="before")
    @classmethod
    def _shape(cls, data: Any) -> Any:
        return _flatten_scores(data)

    def score_and_reason(self, name: str) -> tuple[float | None, str | None]:
        return getattr(self, name), getattr(self, f"{name}_reason")


class ScoreVerdict(BaseModel):
    """One score with its reason (separate mode)."""

    model_config = ConfigDict(extra="ignore")

    reason: Reason = None
    score: Score = None

    @model_validator(mode="before")
    @classmethod
    def _shape(cls, data: Any) -> Any:
        if isinstance(data, int | float | str) and not isinstance(data, bool):
            return {"score": data}  # a bare number
        flat = _flatten_scores(data)
        if not isinstance(flat, dict):
            return flat
        score = _pick(flat, _SCORE_KEYS)
        if score is None:
            score = _pick(flat, JUDGE_SCORES)
        reason = _pick(flat, _REASON_KEYS) or _pick(flat, [f"{n}_reason" for n in JUDGE_SCORES])
        return {"score": score, "reason": reason}


def judge_calls_per_case(mode: str) -> int:
    """LLM calls one judged answer takes: 1 bundled, one per score (5) separate, 0 when the judge is off."""
    if mode == "bundled":
        return 1
    if mode == "separate":
        return len(JUDGE_SCORES)
    if mode == "off":
        return 0
    raise ValueError(f"judge mode must be 'bundled' or 'separate', got {mode!r}")


def _put(record: JudgeRecord, name: str, score: float | None, reason: str | None) -> None:
    """Store one score (clamped) and its reason, or the missing-score reason."""
    if score is None or not math.isfinite(score):
        record.reasons[name] = (f"judge gave no {name}" + (f": {reason}" if reason else ""))[:MAX_REASON_CHARS]
        return
    record.scores[name] = clamp(name, score)
    record.reasons[name] = (reason or "no reason given")[:MAX_REASON_CHARS]
    note = clamp_note(score, *score_range(name), by="the judge")
    if note is not None:
        record.notes[name] = note


async def _call(llm: LLM, messages: list[dict[str, str]], model: type[M], max_tokens: int) -> tuple[str, M]:
    """One judge call: the reply text and the parsed verdict (`LLMBadResponse` if it cannot be read)."""
    done = await llm.acomplete(
        messages, stage=JUDGE_STAGE, response_model=model, temperature=0.0, max_tokens=max_tokens
    )
    if isinstance(done.parsed, model):
        return done.text, done.parsed
    try:  # an LLM implementation that returned text only
        parsed = parse_reply(done.text, model)
    except ReplyParseError as exc:
        raise LLMBadResponse(f"the reply does not fit {model.__name__}: {exc.reason}") from exc
    assert isinstance(parsed, model)
    return done.text, parsed


async def _bundled(case: JudgeCase, llm: LLM) -> JudgeRecord:
    messages = bundled_messages(case)
    record = JudgeRecord(mode="bundled", prompt=messages)
    try:
        text, verdict = await _call(llm, messages, BundledVerdict, BUNDLED_MAX_TOKENS)
    except LLMCallError as exc:
        record.raw.append("")
        record.error = call_error(exc)
        return record
    record.raw.append(text)
    for name in JUDGE_SCORES:
        _put(record, name, *verdict.score_and_reason(name))
    return record


async def _separate(case: JudgeCase, llm: LLM) -> JudgeRecord:
    prompts = [single_messages(case, name) for name in JUDGE_SCORES]
    record = JudgeRecord(mode="separate", prompt=prompts[0])
    replies = await asyncio.gather(
        *(_call(llm, m, ScoreVerdict, SINGLE_MAX_TOKENS) for m in prompts), return_exceptions=True
    )
    failed: list[tuple[str, str]] = []
    for name, reply in zip(JUDGE_SCORES, replies, strict=True):
        if isinstance(reply, LLMBudgetExceeded):
            raise reply
        if isinstance(reply, LLMCallError):
            error = call_error(reply)
            failed.append((name, error))
            record.raw.append("")
            record.reasons[name] = error
            continue
        if isinstance(reply, BaseException):
            raise reply
        text, verdict = reply
        record.raw.append(text)
        _put(record, name, verdict.score, verdict.reason)
    if len(failed) == len(JUDGE_SCORES):
        record.error = failed[0][1]
    elif failed:
        names = ", ".join(name for name, _ in failed)
        record.error = f"judge call failed for {names}: {failed[0][1]}"
    return record


async def ajudge(case: JudgeCase, llm: LLM, *, mode: JudgeMode = "bundled") -> JudgeRecord:
    """Judge one answer (stage ``"judge"``, temperature 0); never raises for a failed call.

    No answer (None or blank): no call, ``error="no answer to judge"``. A failed call: the record has the
    error (``"LLMTimeout: …"``) and no scores; in separate mode only the failed calls' scores are missing, each
    with the error as its reason, and ``error`` names them. `LLMBudgetExceeded` propagates.
    """
    if mode not in ("bundled", "separate"):
        raise ValueError(f"judge mode must be 'bundled' or 'separate', got {mode!r}")
    if case.answer is None or not case.answer.strip():
        return JudgeRecord(mode=mode, error=NO_ANSWER)
    if mode == "separate":
        return await _separate(case, llm)
    return await _bundled(case, llm)


def judge_cases(
    cases: Sequence[JudgeCase],
    llm: LLM,
    *,
    mode: JudgeMode = "bundled",
    concurrency: int = 8,
    progress: Callable[[int, int], None] | None = None,
    loop: EventLoop | None = None,
) -> list[JudgeRecord]:
    """Blocking :func:`ajudge` over `cases`, at most `concurrency` cases at once, records in input order.

    ``progress(done, total)`` after each case. `LLMBudgetExceeded` stops the run (no case starts after it) and
    propagates. Pass the run's `loop` so an async client stays on one event loop (else a private one is used).
    """
    if mode not in ("bundled", "separate"):
        raise ValueError(f"judge mode must be 'bundled' or 'separate', got {mode!r}")
    jobs = [(lambda case=case: ajudge(case, llm, mode=mode)) for case in cases]
    return run_sync(run_bounded(jobs, concurrency, progress), loop)
