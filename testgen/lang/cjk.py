"""Chinese and Japanese: what the sentence rules need to know about a sentence's shape."""

from __future__ import annotations

import re

__all__ = ["leading_date_rest"]

#: What follows a date that opens a sentence. Japanese: "1839年、…", "2004年に…", "2018年には…", with the era
#: reading in brackets first when there is one ("1945年（昭和20年）に…"); Chinese: "1921年，…".
_AFTER_DATE = {
    "ja": re.compile(r"(?:（[^）]*）)?(?:には、|に、|、|には|に)"),
    "zh": re.compile(r"[，,]"),
}


def leading_date_rest(sentence: str, value: str, language: str) -> str | None:
    """The rest of a Chinese or Japanese sentence that opens with the date `value` and its particle or comma, or
    None (another language, another opening)."""
    pattern = _AFTER_DATE.get(language)
    if pattern is None or not sentence.startswith(value):
        return None
    after = pattern.match(sentence, len(value))
    return sentence[after.end() :] if after else None
