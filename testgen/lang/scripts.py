"""The Unicode ranges of the scripts the toolkit treats specially (Hangul, kana, Han), in one place.

Each name is the body of a regular-expression character class (no brackets), so classes combine by
concatenation: ``re.compile(f"[{HANGUL}{KANA}]")``. Users pick the blocks they mean: script detection counts
every Hangul letter (:data:`HANGUL`), while keyword matching and tokenising take :data:`CJK`.
"""

from __future__ import annotations

__all__ = [
    "CJK",
    "HALFWIDTH_KATAKANA",
    "HAN",
    "HANGUL",
    "HANGUL_COMPATIBILITY_JAMO",
    "HANGUL_JAMO",
    "HANGUL_JAMO_EXTENDED",
    "HANGUL_SYLLABLES",
    "HAN_SUPPLEMENTARY",
    "HIRAGANA",
    "IDEOGRAPHIC_ITERATION_MARK",
    "KANA",
    "KATAKANA",
    "KATAKANA_LETTERS",
    "KATAKANA_PHONETIC_EXTENSIONS",
]

HANGUL_SYLLABLES = "\uac00-\ud7a3"
"""가 to 힣: every precomposed Hangul syllable."""
HANGUL_JAMO = "\u1100-\u11ff"
HANGUL_COMPATIBILITY_JAMO = "\u3130-\u318f"
"""ㄱ, ㅏ ...: jamo written on their own."""
HANGUL_JAMO_EXTENDED = "\ua960-\ua97f\ud7b0-\ud7ff"
"""Old jamo (Extended-A and -B)."""
HANGUL = HANGUL_SYLLABLES + HANGUL_JAMO + HANGUL_COMPATIBILITY_JAMO + HANGUL_JAMO_EXTENDED
"""Every Hangul letter."""

HIRAGANA = "\u3040-\u309f"
KATAKANA_LETTERS = "\u30a0-\u30fa\u30fc-\u30ff"
"""The Katakana block without U+30FB (katakana middle dot), which Chinese and Korean texts use as punctuation."""
KATAKANA = KATAKANA_LETTERS + "\u30fb"
"""The whole Katakana block."""
KATAKANA_PHONETIC_EXTENSIONS = "\u31f0-\u31ff"
HALFWIDTH_KATAKANA = "\uff66-\uff9d"
KANA = HIRAGANA + KATAKANA

HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
"""CJK Unified Ideographs, their Extension A and the Compatibility Ideographs."""
HAN_SUPPLEMENTARY = "\U00020000-\U0002ffff"
"""Extensions B and later (outside the Basic Multilingual Plane)."""
IDEOGRAPHIC_ITERATION_MARK = "\u3005"
"""々: repeats the Han character before it, and reads like one."""

CJK = HANGUL_SYLLABLES + KANA + HAN
"""Korean, Japanese or Chinese text: syllables, kana and the Han blocks of the Basic Multilingual Plane."""
