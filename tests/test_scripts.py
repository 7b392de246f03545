"""The script ranges of testgen.lang.scripts: which letters each names, and that the users share them."""

from __future__ import annotations

import re

import pytest

from testgen.lang import scripts
from testgen.lang.detect import script_of
from testgen.text import is_cjk


def _has(cls: str, ch: str) -> bool:
    return re.fullmatch(f"[{cls}]", ch) is not None


@pytest.mark.parametrize(
    ("cls", "inside", "outside"),
    [
        (scripts.HANGUL_SYLLABLES, "가힣한", "ㄱᄀa漢カ"),
        (scripts.HANGUL, "가힣ㄱᄀꥠ", "a漢カ"),
        (scripts.HIRAGANA, "あんゖ", "アa漢"),
        (scripts.KATAKANA_LETTERS, "アンヿー", "・あ"),
        (scripts.KATAKANA, "アン・", "あ"),
        (scripts.KANA, "あア・", "漢가"),
        (scripts.HAN, "漢中㐀豈", "々𠀀あ가"),
        (scripts.HAN_SUPPLEMENTARY, "𠀀𪜀", "漢"),
        (scripts.CJK, "가あア・漢", "ㄱ𠀀a1é"),
    ],
)
def test_each_range_holds_its_letters_and_no_others(cls: str, inside: str, outside: str) -> None:
    assert [ch for ch in inside if not _has(cls, ch)] == []
    assert [ch for ch in outside if _has(cls, ch)] == []


def test_the_users_read_the_same_ranges() -> None:
    assert [script_of(ch) for ch in "한ㄱあア・漢々𠀀a"] == [
        "hangul",
        "hangul",
        "kana",
        "kana",
        "other",  # the katakana middle dot is punctuation to detection
        "han",
        "han",
        "han",
        "latin",
    ]
    assert [is_cjk(ch) for ch in "한あア漢aㄱ"] == [True, True, True, True, False, False]
