"""Unscored reasons, normalised for counting: the same failure with other timings is one reason.

A reason keeps its words, its kind of error and its HTTP status; what varies from call to call — timings
(``time taken=60.01 seconds``, ``0.3 s``), decimals, ``key=value`` numbers and long request ids — is taken
out into a detail field:

    >>> split_reason("LLMTimeout: Request timed out - timeout value=60.0, time taken=60.01 seconds")
    Reason(reason='LLMTimeout: Request timed out - timeout value=#, time taken=# seconds', detail='60.0, 60.01')

Integers that name something (``HTTP 500``, ``Error code: 429``, ``judge gave no accuracy``) stay, so a 429 and a
500 are counted apart. Only the first line of a reason is read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import NamedTuple

PLACEHOLDER = "#"
"""What a stripped number becomes in the normalised reason."""
MAX_REASON_CHARS = 160
"""A normalised reason is cut here (a long provider message would otherwise never repeat)."""

_NUMBER = re.compile(
    r"(?<![\w.])-?\d+(?:\.\d+)?(?=(?:ms|s|secs?)?\b)(?!\.\d)"  # a number, possibly glued to a time unit
    r"|\b(?=[0-9a-f-]*\d)[0-9a-f]{8,}(?:-[0-9a-f]{4,})*\b",  # a request id
    re.I,
)
_TIME_UNIT = re.compile(r"\s*(?:ms|milliseconds?|s|secs?|seconds?|minutes?|mins?)\b", re.I)
_AFTER_EQUALS = re.compile(r"[=:]\s*$")


class Reason(NamedTuple):
    """A reason as counted, and the numbers taken out of it (comma-separated, in order)."""

    reason: str
    detail: str


def _varies(text: str, match: re.Match[str]) -> bool:
    token = match.group()
    if not token.lstrip("-").replace(".", "").isdigit():  # a long hex id
        return True
    if "." in token or len(token.lstrip("-")) >= 5:
        return True
    if _TIME_UNIT.match(text, match.end()):
        return True
    before = text[max(0, match.start() - 3) : match.start()]
    return bool(_AFTER_EQUALS.search(before)) and not before.rstrip().endswith(":")


def split_reason(text: str | None) -> Reason:
    """The normalised reason (timings, decimals, ``key=number`` values and ids replaced by ``#``) and the detail
    holding what was replaced; an empty reason is ``unknown``."""
    line = (text or "").strip().splitlines()[0].strip() if text and text.strip() else ""
    if not line:
        return Reason("unknown", "")
    taken: list[str] = []

    def strip(match: re.Match[str]) -> str:
        if _varies(line, match):
            taken.append(match.group())
            return PLACEHOLDER
        return match.group()

    reason = " ".join(_NUMBER.sub(strip, line).split())[:MAX_REASON_CHARS]
    return Reason(reason, ", ".join(taken))


@dataclass
class ReasonCount:
    """How often one normalised reason occurred, with the details seen (first few, distinct)."""

    reason: str
    count: int = 0
    details: list[str] = field(default_factory=list)


def tally_reasons(reasons: Iterable[str | None], limit: int | None = None, details: int = 3) -> list[ReasonCount]:
    """Normalised reasons by count (most frequent first, then alphabetically), each with up to `details`
    distinct details."""
    counts: dict[str, ReasonCount] = {}
    for text in reasons:
        reason, detail = split_reason(text)
        entry = counts.setdefault(reason, ReasonCount(reason))
        entry.count += 1
        if detail and detail not in entry.details and len(entry.details) < details:
            entry.details.append(detail)
    ordered = sorted(counts.values(), key=lambda c: (-c.count, c.reason))
    return ordered if limit is None else ordered[:limit]
