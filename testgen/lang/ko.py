"""Korean surface rules: particles chosen by the final consonant (받침) and question endings."""

from __future__ import annotations

import re

_HANGUL_BASE = 0xAC00
_HANGUL_LAST = 0xD7A3
# Final letters of non-Hangul words as read aloud in Korean: digits and Latin letters.
_DIGIT_HAS_FINAL = {
    "0": True,
    "1": True,
    "2": False,
    "3": True,
    "4": False,
    "5": False,
    "6": True,
    "7": True,
    "8": True,
    "9": False,
}
_DIGIT_FINAL_RIEUL = {"1", "7", "8"}  # 일, 칠, 팔 end in ㄹ
_LATIN_HAS_FINAL = set("lmnr")  # el, em, en, ar(알) read with a final consonant


def _last_sound(word: str) -> str | None:
    for ch in reversed(word.strip()):
        if ch.isalnum():
            return ch
    return None


def has_final_consonant(word: str) -> bool:
    """Whether the word's last syllable has a final consonant (받침): 설립일 → True, 회사 → False."""
    ch = _last_sound(word)
    if ch is None:
        return False
    code = ord(ch)
    if _HANGUL_BASE <= code <= _HANGUL_LAST:
        return (code - _HANGUL_BASE) % 28 != 0
    if ch in _DIGIT_HAS_FINAL:
        return _DIGIT_HAS_FINAL[ch]
    return ch.lower() in _LATIN_HAS_FINAL


def _final_is_rieul(word: str) -> bool:
    ch = _last_sound(word)
    if ch is None:
        return False
    code = ord(ch)
    if _HANGUL_BASE <= code <= _HANGUL_LAST:
        return (code - _HANGUL_BASE) % 28 == 8
    return ch in _DIGIT_FINAL_RIEUL or ch.lower() in {"l", "r"}


_PAIRS = {
    "은": ("은", "는"),
    "는": ("은", "는"),
    "이": ("이", "가"),
    "가": ("이", "가"),
    "을": ("을", "를"),
    "를": ("을", "를"),
    "과": ("과", "와"),
    "와": ("과", "와"),
    "아": ("아", "야"),
    "야": ("아", "야"),
    "이다": ("이다", "다"),
}


def particle(word: str, kind: str) -> str:
    """The word followed by the right particle: particle("설립일", "은") → "설립일은".

    ``kind`` is either form of the pair (은/는, 이/가, 을/를, 과/와); 으로/로 follows the ㄹ rule.
    """
    if kind in ("으로", "로"):
        use_eu = has_final_consonant(word) and not _final_is_rieul(word)
        return word + ("으로" if use_eu else "로")
    with_final, without = _PAIRS[kind]
    return word + (with_final if has_final_consonant(word) else without)


def topic(word: str) -> str:
    """은/는."""
    return particle(word, "은")


def subj(word: str) -> str:
    """이/가."""
    return particle(word, "이")


def obj(word: str) -> str:
    """을/를."""
    return particle(word, "을")


def copula(word: str) -> str:
    """The polite copula: "2008년" → "2008년입니다", "회사" → "회사입니다"."""
    return word + "입니다"


def possessive_chain(*parts: str) -> str:
    """Join noun phrases with 의: ("하늘여행", "대표이사") → "하늘여행의 대표이사"."""
    return "의 ".join(p for p in parts if p)


_PAST_ENDINGS = [
    (re.compile(r"(되었|됐)(습니다|다|어요)\.?$"), "된"),
    (re.compile(r"(하였|했)(습니다|다|어요)\.?$"), "한"),
]


_PARTICLE_END = re.compile(r"(으로|로|을|를|에서|에|과|와|으로서|로서)$")


def event_clause(event: str) -> str | None:
    """Turn a timeline event into a noun phrase that can take 은/는 before 언제인가요.

    "부산 지점 개설" → "부산 지점 개설"; "부산 지점을 개설했다" → "부산 지점을 개설한 것";
    a sentence with another ending → None (no safe rewrite).
    """
    event = event.strip().rstrip(".")
    if "," in event or "，" in event or len(event.split()) > 6:
        return None  # several events on one line
    for pattern, adnominal in _PAST_ENDINGS:
        if pattern.search(event):
            return pattern.sub(adnominal, event) + " 것"
    if re.search(r"(다|요|니다|까)$", event):
        return None
    words = event.split()
    if len(words) > 1 and any(_PARTICLE_END.search(w) for w in words[:-1]):
        if len(words) > 2 and not _PARTICLE_END.search(words[-2]) and re.search(r"[가-힣]$", words[-2]):
            words[-2] = obj(words[-2])  # "감사 업무 담당" → "감사 업무를 담당"
        return " ".join(words) + "한 것"  # "제주지점장으로 입사" → "제주지점장으로 입사한 것"
    return event
