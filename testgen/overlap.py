"""How much of a question is copied from its sources: the lexical gap between what people type and what
documents say.

A question written by a person shares fewer words with its source than one pasted together from the source's
own sentence; lexical retrievers (BM25) are flattered by the second kind and dense retrievers are not, so a
synthetic set with too much overlap ranks retrievers differently from a human one. One measure is used for
generated and human-written sets alike:

* text in Latin (and other space-separated) scripts: the share of the question's content words (stop words,
  question words and one-letter tokens dropped) that occur as words in the sources;
* text with Hangul, kana or Han characters: the share of the question's character trigrams (spaces and
  punctuation removed) that occur in the sources' trigrams — CJK text has no reliable word boundaries, and
  Korean particles glue onto words.

The sources are the texts of the item's ``source_docs`` (for a generated item the same thing its evidence
comes from), so a human set without evidence spans is measured the same way.
"""

from __future__ import annotations

import re
import statistics
from collections.abc import Iterable
from functools import lru_cache

from testgen.text import is_cjk, normalize

_WORD = re.compile(r"[0-9]+(?:[.,][0-9]+)*|[^\W\d_]+(?:['’][^\W\d_]+)?")
_FLAT = re.compile(r"[\W_]+")
_STOP = frozenset(
    """a an the of in on at to for and or is was were are be been being by with from as its their his her
    this that these those it they them he she we you i do does did done has have had not no yes can could
    would should will shall may might must what which who whom whose when where why how many much than
    then there here about into onto over under between after before during per any all each some one
    also if so such own same other our your my me him us s""".split()
)


def content_words(text: str) -> list[str]:
    """The content words of a Latin-script text, normalised, in order (stop and question words dropped)."""
    return [w for w in _WORD.findall(normalize(text)) if len(w) > 1 and w not in _STOP]


def question_overlap(question: str, sources: Iterable[str], *, normalized: bool = False) -> float | None:
    """Share (0–1) of the question's content words, or of its character trigrams for CJK text, found in the
    sources; None when the question has nothing to measure (no content word) or there is no source text.
    `normalized`: the sources went through `testgen.text.normalize` already (a pass over a large document is
    seconds)."""
    texts = [t for t in sources if t]
    if not texts:
        return None
    if is_cjk(question):
        grams = char_trigrams(question)
        if not grams:
            return None
        found: set[str] = set()
        for text in texts:
            found |= grams & _source_trigrams(text, normalized)
        return len(found) / len(grams)
    words = set(content_words(question))
    if not words:
        return None
    found_words: set[str] = set()
    for text in texts:
        found_words |= words & _source_words(text, normalized)
    return len(found_words) / len(words)


# A set's items share their few source documents (one large document, in the extreme): each source's words and
# trigrams are worked out once, not once per question.
@lru_cache(maxsize=256)
def _source_words(text: str, normalized: bool) -> frozenset[str]:
    return frozenset(_WORD.findall(text if normalized else normalize(text)))


@lru_cache(maxsize=256)
def _source_trigrams(text: str, normalized: bool) -> frozenset[str]:
    return frozenset(_trigrams(text if normalized else normalize(text)))


def char_trigrams(text: str) -> set[str]:
    """Character trigrams of the normalised text with spaces and punctuation removed."""
    return _trigrams(normalize(text))


def _trigrams(norm: str) -> set[str]:
    flat = _FLAT.sub("", norm)
    if len(flat) < 3:
        return {flat} if flat else set()
    return {flat[i : i + 3] for i in range(len(flat) - 2)}


def median_overlap(values: Iterable[float | None]) -> float | None:
    """Median of the measured overlaps (None ones skipped); None when nothing was measured."""
    measured = [v for v in values if v is not None]
    return round(statistics.median(measured), 4) if measured else None
