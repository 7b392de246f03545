"""Corpus language detection by Unicode script counts.

Only the four languages the toolkit has prompts and tokenisation rules for are told apart: Korean, Japanese,
Chinese and English (the default for Latin text and for anything else). Counting scripts is enough for that
and needs no model, so it is deterministic and fast.
"""

from __future__ import annotations

import re

from testgen.lang.scripts import (
    HALFWIDTH_KATAKANA,
    HAN,
    HAN_SUPPLEMENTARY,
    HANGUL,
    HIRAGANA,
    IDEOGRAPHIC_ITERATION_MARK,
    KATAKANA_LETTERS,
    KATAKANA_PHONETIC_EXTENSIONS,
)

__all__ = ["MAX_DETECT_CHARS", "detect_language", "script_counts", "script_of"]

#: Only this many leading characters are looked at: enough to decide, and bounded cost for huge files.
MAX_DETECT_CHARS = 20_000

# Character classes per script. Kept as regex classes so counting is done in C (``findall`` over runs), not
# by a Python loop per character.
_HANGUL = HANGUL
# U+30FB (katakana middle dot) is left out: Chinese and Korean texts use it as plain punctuation.
_KANA = HIRAGANA + KATAKANA_LETTERS + KATAKANA_PHONETIC_EXTENSIONS + HALFWIDTH_KATAKANA
# U+3005 (々) is the ideographic iteration mark; it behaves like a Han letter.
_HAN = IDEOGRAPHIC_ITERATION_MARK + HAN + HAN_SUPPLEMENTARY
# Latin letters only: × (U+00D7) and ÷ (U+00F7) sit inside Latin-1 but are symbols.
_LATIN = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff\uff21-\uff3a\uff41-\uff5a"

_RUNS = {
    "hangul": re.compile(f"[{_HANGUL}]+"),
    "kana": re.compile(f"[{_KANA}]+"),
    "han": re.compile(f"[{_HAN}]+"),
    "latin": re.compile(f"[{_LATIN}]+"),
}
_SINGLE = {
    name: re.compile(f"[{cls}]")
    for name, cls in (("hangul", _HANGUL), ("kana", _KANA), ("han", _HAN), ("latin", _LATIN))
}

# Text that is Latin whatever the document language: URLs, link targets, fenced and inline code. Counting it
# would tip Korean or Japanese technical notes towards English.
_NOISE = re.compile(
    r"```.*?(?:```|\Z)"
    r"|~~~.*?(?:~~~|\Z)"
    r"|`[^`\n]*`"
    # Link targets stop at brackets so a run of "](" cannot make each attempt rescan to the end.
    r"|\]\([^()\[\]\s]*\)"
    r"|(?:https?|ftp)://\S+"
    r"|www\.\S+"
    # The lookbehind makes an address match start only at the start of a word: without it a long word is
    # rescanned from every position (quadratic time).
    r"|(?<![\w.+-])[\w.+-]+@[\w-]+\.[\w.-]+",
    re.DOTALL,
)

# A Hangul syllable or Han character carries roughly as much text as two Latin letters; weighting them lets a
# Korean note full of English product names still count as Korean.
_CJK_WEIGHT = 2
# Japanese text is usually half kana or more; a few stray kana in Chinese text (brand names) stay below this.
_KANA_SHARE = 0.1


def script_of(ch: str) -> str:
    """Return the script of one character: ``hangul``, ``kana``, ``han``, ``latin`` or ``other``.

    Digits, punctuation, symbols and whitespace are ``other``. Only the first character of ``ch`` is looked
    at; an empty string is ``other``.
    """
    if not ch:
        return "other"
    first = ch[0]
    for name, pattern in _SINGLE.items():
        if pattern.match(first):
            return name
    return "other"


def script_counts(text: str) -> dict[str, int]:
    """Count the letters of ``text`` per script: keys ``hangul``, ``kana``, ``han`` and ``latin``."""
    return {name: sum(map(len, pattern.findall(text))) for name, pattern in _RUNS.items()}


def detect_language(text: str) -> str:
    """Return the dominant language of ``text`` as ``ko``, ``ja``, ``zh`` or ``en``.

    Letters are counted by script over at most the first :data:`MAX_DETECT_CHARS` characters, leaving out
    URLs, e-mail addresses, link targets and code; digits and punctuation never count. Rules:

    * no CJK letters, or Latin letters outweighing CJK ones (each CJK letter counts twice): ``en``;
    * Hangul at least half of the CJK letters: ``ko``;
    * kana at least a tenth of kana plus Han: ``ja`` (Japanese mixes kana and kanji);
    * Han without (enough) kana: ``zh``.

    Empty text and text in other scripts give ``en``, the toolkit's default.
    """
    sample = text[:MAX_DETECT_CHARS]
    counts = script_counts(_NOISE.sub(" ", sample))
    if not any(counts.values()):
        # A document that is all code or links still deserves a guess from what it does contain.
        counts = script_counts(sample)
    hangul, kana, han, latin = counts["hangul"], counts["kana"], counts["han"], counts["latin"]
    cjk = hangul + kana + han
    if cjk == 0 or cjk * _CJK_WEIGHT < latin:
        return "en"
    if hangul * 2 >= cjk:
        return "ko"
    if kana >= _KANA_SHARE * (kana + han):
        return "ja"
    if han >= hangul:
        return "zh"
    return "ko"
