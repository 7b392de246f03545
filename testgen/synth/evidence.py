"""Evidence a model quotes, checked by the project: is each quote in the passage it cites, and which documents
state it (the closure that becomes ``source_docs``).

Quotes are compared after normalisation (NFKC, case-fold, whitespace collapsed — `testgen.text.normalize`),
with markdown markup (emphasis, link targets, list and heading marks) and typographic quotes and dashes
evened out, since a model copying "**Step 1**: open [Settings](/s)" rightly writes "Step 1: open Settings".
An ellipsis in a quote may skip words: each piece must be found, in order. Nothing else is forgiven — a
paraphrase is not a quote.

A document states a quote when its text holds it (a page restated in another document), or one of its
sentences carries at least `RESTATED` of the quote's content words and every number of the quote: the same
claim, reworded a little.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from testgen.kg.values import find_values
from testgen.overlap import content_words
from testgen.synth.context import GenContext
from testgen.text import is_cjk, normalize, tokens

#: Share of a quote's content words a sentence of another document must carry to state the same thing.
RESTATED = 0.9
#: A quote shorter than this (characters, after normalisation) is a phrase, not evidence.
MIN_QUOTE_CHARS = 12

_LINK = re.compile(r"!?\[([^\]]*)\]\([^)]*\)")
_MARKS = re.compile(r"(?m)^\s*(?:[-*+•>]|#{1,6}|\d+[.)])\s+")
_TYPO = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"', "–": "-", "—": "-", "‐": "-", "\u00a0": " "})
_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…|\[\.\.\.\]|\[…\])\s*")
_EDGE = re.compile(r"^[\s\"'.,;:!?()\[\]-]+|[\s\"'.,;:!?()\[\]-]+$")


def plain(text: str) -> str:
    """Text in the form quotes are compared in: markup and typography evened out, then `normalize`d."""
    text = _LINK.sub(r"\1", text)
    text = _MARKS.sub("", text)
    text = text.translate(_TYPO).replace("*", "").replace("_", " ").replace("|", " ")
    return normalize(text)


def quote_pieces(quote: str) -> list[str]:
    """The pieces of a quote an ellipsis separates, each in the compared form, edge punctuation dropped."""
    pieces = [_EDGE.sub("", plain(p)) for p in _ELLIPSIS.split(quote.translate(_TYPO))]
    return [p for p in pieces if p]


def quote_in(quote: str, text_plain: str) -> bool:
    """Whether every piece of `quote` occurs in `text_plain` (already `plain`), in order."""
    pieces = quote_pieces(quote)
    if not pieces:
        return False
    pos = 0
    for piece in pieces:
        found = text_plain.find(piece, pos)
        if found < 0:
            return False
        pos = found + len(piece)
    return True


def quote_long_enough(quote: str) -> bool:
    """A sentence or a clause, not a word or two."""
    joined = " ".join(quote_pieces(quote))
    return len(joined) >= MIN_QUOTE_CHARS and (is_cjk(joined) or len(joined.split()) >= 3)


class EvidenceIndex:
    """Quote matching and closure over one knowledge base (each chunk put in the compared form once)."""

    def __init__(self, ctx: GenContext) -> None:
        self.ctx = ctx
        self._plain: dict[str, str] = {}
        self._closure: dict[str, frozenset[str]] = {}

    def chunk_plain(self, chunk_id: str) -> str:
        """A chunk's text in the compared form (cached)."""
        cached = self._plain.get(chunk_id)
        if cached is None:
            cached = self._plain[chunk_id] = plain(self.ctx.chunks[chunk_id].text)
        return cached

    def in_chunk(self, quote: str, chunk_id: str) -> bool:
        """Whether the quote is found in the chunk."""
        return quote_in(quote, self.chunk_plain(chunk_id))

    def stating(self, quote: str, home_doc: str) -> frozenset[str]:
        """Every document that states the quote: `home_doc` (where it was found), documents holding it, and
        documents with a sentence restating it (`RESTATED` of its content words and all its numbers)."""
        key = home_doc + "\x00" + quote
        cached = self._closure.get(key)
        if cached is not None:
            return cached
        docs = {home_doc}
        pieces = quote_pieces(quote)
        words = set(content_words(" ".join(pieces)))
        numbers = {v.text for p in pieces for v in find_values(p) if v.number is not None}
        for chunk_id in sorted(self._candidates(pieces)):
            doc_id = self.ctx.chunks[chunk_id].doc_id
            if doc_id in docs:
                continue
            text = self.chunk_plain(chunk_id)
            if quote_in(quote, text) or (words and self._restates(text, words, numbers, pieces)):
                docs.add(doc_id)
        found = frozenset(docs)
        self._closure[key] = found
        return found

    def _candidates(self, pieces: list[str]) -> set[str]:
        """Chunks holding the quote's rarest index tokens (a restatement keeps its specific words)."""
        toks = sorted({t for p in pieces for t in tokens(p)}, key=lambda t: (len(self.ctx.token_index.get(t, ())), t))
        result: set[str] | None = None
        for tok in toks[:3]:
            posting = self.ctx.token_index.get(tok, set())
            result = set(posting) if result is None else result & posting
        return result or set()

    def _restates(self, text: str, words: set[str], numbers: set[str], pieces: list[str]) -> bool:
        if is_cjk(" ".join(pieces)):
            return False  # CJK has no content words to count: only a verbatim copy states it
        for sentence in re.split(r"(?<=[.!?])\s+|\n", text):
            have = set(content_words(sentence))
            if len(words & have) >= RESTATED * len(words) and all(n in sentence for n in numbers):
                return True
        return False


def values_in(texts: Iterable[str]) -> set[str]:
    """Numbers and dates stated in `texts`, normalised (what an answer may state)."""
    return {normalize(v.text) for t in texts for v in find_values(t) if v.number is not None or v.date_key}
