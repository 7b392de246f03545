"""Japanese: what the sentence rules need to know about a sentence's shape."""

from __future__ import annotations

import re

__all__ = ["leading_date_rest"]

#: What follows a date that opens a Japanese sentence: "1839年、…", "2004年に…", "2018年には…", with the era
#: reading in brackets first when there is one ("1945年（昭和20年）に…").
_AFTER_DATE = re.compile(r"(?:（[^）]*）)?(?:には、|に、|、|には|に)")


def leading_date_rest(sentence: str, value: str) -> str | None:
    """The rest of a Japanese sentence that opens with the date `value` and its particle or comma, or None."""
    if not sentence.startswith(value):
        return None
    after = _AFTER_DATE.match(sentence, len(value))
    return sentence[after.end() :] if after else None
