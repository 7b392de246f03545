"""Language-aware tokenisation for lexical retrieval (BM25).

Tokens are chosen by script, not by the detected language, so a question and the chunks it is matched
against always tokenise alike, even when one was detected as Korean and the other as English:

- Hangul: with ``kiwipiepy`` installed, Kiwi's morphological analysis keeps nouns, numerals, roots and
  verb/adjective stems and drops particles and endings (서울은 → 서울, 설립되었다 → 설립); without it,
  character bigrams of each Hangul run (a one-syllable run stays a unigram).
- Han and kana (Chinese and Japanese, written without spaces): character bigrams of each run, plus
  unigrams of Han and katakana characters (hiragana unigrams are mostly particles).
- Numbers: kept whole, thousands separators removed (``2,000`` → ``2000``).
- Other letters (Latin, Greek, Cyrillic, ...): words, case-folded. For English-like text (``language``
  None, ``en``, or a CJK language whose Latin words are English terms) a small stopword list is dropped
  and plurals and possessives are stripped (``companies`` → ``company``); for other languages words are
  kept as they are.

All text first goes through :func:`testgen.text.normalize` (NFKC, case-fold, markdown emphasis removed).
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from typing import Any, Literal

from evaluators.errors import TargetError
from testgen.lang.scripts import (
    HAN,
    HANGUL_COMPATIBILITY_JAMO,
    HANGUL_JAMO,
    HANGUL_SYLLABLES,
    HIRAGANA,
    KANA,
    KATAKANA_PHONETIC_EXTENSIONS,
)
from testgen.text import normalize

__all__ = ["ENGLISH_STOPWORDS", "KoreanMode", "Tokenizer", "kiwi_available", "tokenize"]

#: How Hangul is tokenised: Kiwi when installed (``auto``), Kiwi required (``kiwi``), or bigrams (``bigram``).
KoreanMode = Literal["auto", "kiwi", "bigram"]

#: Dropped from English-like text: function words and question words that say nothing about the topic.
ENGLISH_STOPWORDS = frozenset(
    """a about above after again against all also am an and any are as at be because been before being below
    between both but by can could did do does doing down during each few for from further had has have having
    he her here hers him his how i if in into is it its itself just me more most my no nor not of off on once
    only or other our ours out over own same she should so some such than that the their theirs them then
    there these they this those through to too under until up very was we were what when where which while
    who whom whose why will with would you your yours""".split()
)

_HANGUL = HANGUL_JAMO + HANGUL_COMPATIBILITY_JAMO + HANGUL_SYLLABLES
_HAN_KANA = KANA + KATAKANA_PHONETIC_EXTENSIONS + HAN
_LETTER = rf"(?:(?![{_HANGUL}{_HAN_KANA}])[^\W\d_])"
_TOKEN = re.compile(
    r"(?P<num>\d+(?:[.,]\d+)*)"
    rf"|(?P<hangul>[{_HANGUL}]+)"
    rf"|(?P<cjk>[{_HAN_KANA}]+)"
    rf"|(?P<word>{_LETTER}+(?:['’]{_LETTER}+)?)"
)
_HANGUL_CHAR = re.compile(f"[{_HANGUL}]")
_THOUSANDS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?")
_HIRAGANA = re.compile(f"[{HIRAGANA}]")
# Kiwi part-of-speech tags that carry content: general/proper/bound nouns, numerals, roots, verb and
# adjective stems. Irregular stems carry a suffix (VV-I, VA-R) that is cut before the lookup.
_KIWI_KEEP = frozenset({"NNG", "NNP", "NNB", "NR", "XR", "VV", "VA"})
# Foreign words, numbers, hanja, URLs...: passed through the script rules so they match other text.
_KIWI_PASS = frozenset({"SL", "SN", "SH", "W_URL", "W_EMAIL", "W_HASHTAG", "W_MENTION", "W_SERIAL"})
_ENGLISH_LIKE = frozenset({"en", "ko", "ja", "zh"})

_kiwi: Any = None
_kiwi_lock = threading.Lock()


def kiwi_available() -> bool:
    """Whether the ``kiwipiepy`` Korean morphological analyser can be imported."""
    try:
        import kiwipiepy  # noqa: F401
    except ImportError:
        return False
    return True


def _get_kiwi() -> Any:
    global _kiwi
    with _kiwi_lock:
        if _kiwi is None:
            try:
                from kiwipiepy import Kiwi
            except ImportError as exc:
                raise TargetError(
                    "Korean morphological analysis needs the kiwipiepy package; install it with: pip install kiwipiepy"
                ) from exc
            _kiwi = Kiwi()  # loads its model once (about 2 s), then shared by every tokenizer
        return _kiwi


def _english_like(language: str | None) -> bool:
    return language is None or re.split(r"[-_]", language.lower(), maxsplit=1)[0] in _ENGLISH_LIKE


def _strip_suffix(word: str) -> str:
    if word.endswith(("'s", "’s")):
        word = word[:-2]
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith("sses"):
        return word[:-2]
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def _run_ngrams(run: str, out: list[str]) -> None:
    """Han/kana run: unigrams (not hiragana) then bigrams."""
    out.extend(ch for ch in run if not _HIRAGANA.match(ch))
    out.extend(run[i : i + 2] for i in range(len(run) - 1))


def _script_tokens(norm: str, english: bool, out: list[str], korean_bigrams: bool = True) -> None:
    for match in _TOKEN.finditer(norm):
        kind, tok = match.lastgroup, match.group()
        if kind == "num":
            out.append(tok.replace(",", "") if _THOUSANDS.fullmatch(tok) else tok)
        elif kind == "hangul":
            if korean_bigrams:
                out.extend([tok] if len(tok) == 1 else [tok[i : i + 2] for i in range(len(tok) - 1)])
        elif kind == "cjk":
            _run_ngrams(tok, out)
        elif english:
            if tok not in ENGLISH_STOPWORDS:
                out.append(_strip_suffix(tok))
        else:
            out.append(tok)


class Tokenizer:
    """A configured tokeniser; ``korean`` picks the Hangul analyser.

    ``"auto"`` uses Kiwi when ``kiwipiepy`` is installed, else bigrams; ``"kiwi"`` requires it (TargetError
    with the install command otherwise, raised on construction); ``"bigram"`` never uses it.
    """

    def __init__(self, korean: KoreanMode = "auto") -> None:
        if korean not in ("auto", "kiwi", "bigram"):
            raise ValueError(f"korean must be 'auto', 'kiwi' or 'bigram', got {korean!r}")
        if korean == "kiwi" and not kiwi_available():
            raise TargetError("Korean morphological analysis needs kiwipiepy; install it with: pip install kiwipiepy")
        self.korean: Literal["kiwi", "bigram"] = (
            "kiwi" if korean == "kiwi" or (korean == "auto" and kiwi_available()) else "bigram"
        )

    def tokenize(self, text: str, language: str | None = None) -> list[str]:
        """Tokens of ``text``, in order; ``language`` (BCP-47) only decides English stopwords and plurals."""
        return self.tokenize_many([text], [language])[0]

    def tokenize_many(self, texts: Sequence[str], languages: Sequence[str | None] | None = None) -> list[list[str]]:
        """Tokens of each text (Kiwi is called once for all Hangul texts, which is about twice as fast)."""
        if languages is None:
            languages = [None] * len(texts)
        if len(languages) != len(texts):
            raise ValueError(f"got {len(texts)} texts but {len(languages)} languages")
        norms = [normalize(text) for text in texts]
        result: list[list[str]] = [[] for _ in texts]
        korean: list[int] = []
        for index, norm in enumerate(norms):
            if self.korean == "kiwi" and _HANGUL_CHAR.search(norm):
                korean.append(index)
            else:
                _script_tokens(norm, _english_like(languages[index]), result[index])
        if korean:
            analysed = _get_kiwi().tokenize([norms[index] for index in korean])
            for index, morphemes in zip(korean, analysed, strict=True):
                self._kiwi_tokens(morphemes, _english_like(languages[index]), result[index])
        return result

    @staticmethod
    def _kiwi_tokens(morphemes: Any, english: bool, out: list[str]) -> None:
        for morpheme in morphemes:
            tag = morpheme.tag.split("-", 1)[0]
            if tag in _KIWI_KEEP:
                if _HANGUL_CHAR.search(morpheme.form):
                    out.append(morpheme.form)
                else:  # a root or noun Kiwi found in non-Hangul text ("ai", "漢字")
                    _script_tokens(morpheme.form, english, out, korean_bigrams=False)
            elif tag in _KIWI_PASS:
                _script_tokens(morpheme.form, english, out, korean_bigrams=False)


_default: dict[KoreanMode, Tokenizer] = {}


def tokenize(text: str, language: str | None = None, *, korean: KoreanMode = "auto") -> list[str]:
    """Tokenise ``text`` for BM25 (see the module docstring); ``korean`` as in :class:`Tokenizer`."""
    tokenizer = _default.get(korean)
    if tokenizer is None:
        tokenizer = _default.setdefault(korean, Tokenizer(korean))
    return tokenizer.tokenize(text, language)
