"""Surface forms of questions and answers, one module per language.

Every phraser implements the same methods (see `Phraser`); a method returns ``None`` when its rules have
no natural form for the material, and the category then draws other material rather than emit an
awkward question. Languages without their own rules use English and flag the item.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from schemas import FactNode
from testgen.synth.phrasing import cjk, en, ko


class Phraser(Protocol):
    """What a language module provides."""

    code: str

    def subject(self, name: str) -> str: ...
    def fact(self, fact: FactNode, subject: str) -> tuple[str, str, str] | None: ...
    def compare(
        self, subjects: list[str], attribute: str, values: list[str], winner: int, higher: bool, kind: str
    ) -> tuple[str, str, str] | None: ...
    def arithmetic(
        self, op: str, subjects: list[str], attribute: str, values: list[str], result: str, qualifiers: list[str | None]
    ) -> tuple[str, str, str] | None: ...
    def two_hop(self, first: FactNode, second: FactNode, subject: str) -> tuple[str, str, str] | None: ...
    def two_hop_mention(
        self, subject: str, type_word: str, name: str, second: FactNode
    ) -> tuple[str, str, str] | None: ...
    def relation(
        self, fact: FactNode, subject: str, inverse: bool, type_word: str = ""
    ) -> tuple[str, str, str] | None: ...
    def type_word(self, doc_type: str) -> str: ...
    def mention(self, subject: str, type_word: str, name: str, sentence: str) -> tuple[str, str, str] | None: ...
    def count(self, type_word: str, attribute: str, value: str, names: list[str]) -> tuple[str, str, str] | None: ...
    def extreme(
        self, type_word: str, attribute: str, winner: str, value: str, highest: bool, n: int
    ) -> tuple[str, str, str] | None: ...


PhraserFactory = Callable[[frozenset[str]], Phraser]
"""Builds a language's phraser from the corpus vocabulary (English uses it for verb base forms)."""

_PHRASERS: dict[str, PhraserFactory] = {"en": en.English, "ko": ko.Korean, "zh": cjk.Chinese, "ja": cjk.Japanese}


def phraser_for(language: str, vocabulary: frozenset[str] = frozenset()) -> tuple[Phraser, bool]:
    """The phraser for a language, and whether it is a fallback (the item is then flagged)."""
    if language in _PHRASERS:
        return _PHRASERS[language](vocabulary), False
    return _PHRASERS["en"](vocabulary), True


def register_phraser(code: str, factory: PhraserFactory) -> None:
    """Add or replace the rules of one language: `factory(vocabulary)` returns its phraser."""
    _PHRASERS[code] = factory
