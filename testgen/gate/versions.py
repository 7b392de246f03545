"""**ambiguous_key** (a later version): a price list kept beside its successor.

Shared drives keep last year's price list next to this year's ("price_list_2024.csv", "Price List 2025 v2
FINAL.csv"; "수강료표_2024", "수강료표_2025"). A question made from the older one has a stale answer, and both pages
answer it. A page is superseded when another page of its folder names the same list (its words, less the dates,
versions and draft marks, hold the other's or are held by them, with a word of prices among them) and carries a
later year, or the same year and a higher version.
"""

from __future__ import annotations

import re
from pathlib import PurePosixPath

from testgen.corpus import clean_stem
from testgen.gate.names import VERSION_MARK
from testgen.synth.context import GenContext
from testgen.text import normalize

#: Words of a list of prices: what a price list, a fee table or a tariff is called.
_PRICE_WORDS = re.compile(
    r"^(?:prices?|pricing|fees?|tariffs?|rates?|charges|costs?)$|요금|가격|수강료|수가|단가|비용|수수료|회비|이용료"
)
_YEAR = re.compile(r"(?<!\d)(20\d\d)(?!\d)")
_VERSION = re.compile(r"(?<![a-z])v(\d+)(?:\.(\d+))?(?![a-z])", re.I)
#: What a file name marks a version with, left out of the words that name the list.
_MARKS = re.compile(rf"(?<![a-z])(?:{VERSION_MARK}|old|new|copy)(?![a-z])|\d+", re.I)
_WORD = re.compile(r"[^\W\d_]+")


def _name_words(doc_id: str) -> list[str]:
    """The words a file's name calls its list by, without dates, versions and draft marks."""
    stem = clean_stem(PurePosixPath(PurePosixPath(doc_id).name).stem)
    return _WORD.findall(_MARKS.sub(" ", normalize(stem)))


def _same_list(words: list[str], other: list[str]) -> bool:
    """Whether two names call one list, spaced or not ("비급여 수가표", "비급여수가표"; "price list", "Price List by
    Stylist Level"): the shorter, run together, is in the longer, and it names prices."""
    shorter, longer = sorted((words, other), key=lambda w: len("".join(w)))
    short = "".join(shorter)
    return bool(short) and short in "".join(longer) and any(_PRICE_WORDS.search(w) for w in shorter)


def _rank(doc_id: str) -> tuple[int, int, int]:
    """A page's place among versions of one list: its latest year, then its version."""
    name = PurePosixPath(doc_id).name
    years = [int(y) for y in _YEAR.findall(name)]
    found = _VERSION.search(name)
    major, minor = (int(found.group(1)), int(found.group(2) or 0)) if found else (0, 0)
    return max(years, default=0), major, minor


class Versions:
    """The later version of each price list in a knowledge base, worked out once."""

    def __init__(self, ctx: GenContext) -> None:
        self.ctx = ctx
        self._later: dict[str, str | None] | None = None

    def later(self, doc_id: str) -> str | None:
        """The page that supersedes `doc_id` (a later version of the same price list), or None."""
        if self._later is None:
            self._later = self._work_out()
        return self._later.get(doc_id)

    def _work_out(self) -> dict[str, str | None]:
        lists = {d: _name_words(d) for d in self.ctx.docs}
        lists = {d: words for d, words in lists.items() if any(_PRICE_WORDS.search(w) for w in words)}
        later: dict[str, str | None] = {}
        for doc_id, words in lists.items():
            rank = _rank(doc_id)
            folder = self.ctx.doc_type(doc_id)
            newer = [
                other
                for other, other_words in lists.items()
                if other != doc_id
                and self.ctx.doc_type(other) == folder
                and _same_list(words, other_words)
                and _rank(other) > rank
                and rank[0] <= _rank(other)[0]
            ]
            # an undated list may be the newest: only a dated or numbered one is known to be older
            later[doc_id] = max(newer, key=_rank) if newer and rank != (0, 0, 0) else None
        return later
