"""Text normalisation and tokenisation shared by the generator, validators and evaluators.

One normal form everywhere: Unicode NFKC, case-folded, whitespace collapsed. Keyword matching is a substring
match in that form, word-boundary aware for Latin scripts (``"art"`` does not match ``"start"``) and plain
for CJK (Korean particles and Chinese/Japanese run-on text have no spaces to respect).
"""

from __future__ import annotations

import re
import sys
import unicodedata
from functools import lru_cache

from testgen.lang.scripts import CJK

_WS = re.compile(r"\s+")
_MD_MARKUP = re.compile(r"(\*\*|__|`|~~)")
_MD_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
#: A wiki's link: "[[서령선]]", "[[서령대학교|모교]]" (its text after the bar).
_WIKI_LINK = re.compile(r"\[\[(?:[^\[\]|]*\|)?([^\[\]|]+)\]\]")
_TOKEN = re.compile(
    r"[0-9]+(?:[.,][0-9]+)*"  # numbers, with separators kept together
    r"|[a-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]+(?:['’][a-z]+)?"  # Latin/Greek/Cyrillic words
    rf"|[{CJK}]+"  # CJK runs
)
_CJK_RUN = re.compile(f"[{CJK}]")


@lru_cache(maxsize=1 << 18)
def normalize(text: str) -> str:
    """NFKC, case-fold, markdown emphasis removed, whitespace collapsed to single spaces, stripped."""
    text = unicodedata.normalize("NFKC", text)
    text = _MD_MARKUP.sub("", text)
    return _WS.sub(" ", text.casefold()).strip()


def is_cjk(text: str) -> bool:
    """True when the text contains any Hangul, kana or Han character."""
    return _CJK_RUN.search(text) is not None


@lru_cache(maxsize=65536)
def _keyword_pattern(norm_keyword: str) -> re.Pattern[str]:
    escaped = re.escape(norm_keyword)
    # Word boundaries only where the keyword starts/ends with a Latin letter or digit: CJK keywords
    # are matched as plain substrings, and "$1,000" must still match before a comma.
    left = r"(?<![0-9a-z\u00c0-\u024f])" if re.match(r"[0-9a-z\u00c0-\u024f]", norm_keyword) else ""
    right = r"(?![0-9a-z\u00c0-\u024f])" if re.search(r"[0-9a-z\u00c0-\u024f]$", norm_keyword) else ""
    return re.compile(left + escaped + right)


def contains_keyword(norm_text: str, keyword: str) -> bool:
    """Whether ``keyword`` occurs in ``norm_text`` (already passed through :func:`normalize`)."""
    norm_keyword = normalize(keyword)
    if not norm_keyword:
        return False
    # str.find jumps to each occurrence; the pattern then only checks the word boundaries there. A plain
    # search with the pattern (it opens with a look-behind) stepped through the text one character at a time,
    # which cost milliseconds per keyword on a multi-megabyte document.
    pattern = _keyword_pattern(norm_keyword)
    pos = norm_text.find(norm_keyword)
    while pos >= 0:
        if pattern.match(norm_text, pos) is not None:
            return True
        pos = norm_text.find(norm_keyword, pos + 1)
    return False


def tokens(text: str) -> list[str]:
    """Index tokens: Latin words and numbers as they are, CJK runs as character bigrams."""
    return list(_tokens(text))


@lru_cache(maxsize=1 << 18)
def _tokens(text: str) -> tuple[str, ...]:
    # tokens are interned: the cache holds a tuple per chunk text, and a large KB repeats the same words millions
    # of times (about 190 MiB of separate copies at 10,000 documents). The cache holds every chunk of a KB of up to
    # about 100 MB: the graph's similar chunks and the generator's token index read each chunk's tokens, and a
    # cache smaller than the KB misses on every chunk the second time round.
    norm = normalize(text)
    if _CJK_RUN.search(norm) is None:  # no CJK run to split into bigrams: every token as found
        return tuple(map(sys.intern, _TOKEN.findall(norm)))
    out: list[str] = []
    for match in _TOKEN.finditer(norm):
        tok = match.group()
        if _CJK_RUN.match(tok):
            if len(tok) == 1:
                out.append(sys.intern(tok))
            else:
                out.extend(sys.intern(tok[i : i + 2]) for i in range(len(tok) - 1))
        else:
            out.append(sys.intern(tok))
    return tuple(out)


def char_ngrams(text: str, n: int = 3) -> set[str]:
    """Character n-grams of the normalised text without spaces: a language-neutral similarity basis."""
    flat = normalize(text).replace(" ", "")
    if len(flat) <= n:
        return {flat} if flat else set()
    return {flat[i : i + n] for i in range(len(flat) - n + 1)}


def jaccard(a: set[str], b: set[str]) -> float:
    """Jaccard similarity of two sets; 0.0 when both are empty."""
    if not a and not b:
        return 0.0
    return len(a & b) / len(a | b)


def strip_markup(text: str) -> str:
    """Remove emphasis, links and trailing markdown hard breaks from a span of markdown."""
    if "[" in text:
        text = _WIKI_LINK.sub(r"\1", _MD_LINK.sub(r"\1", text))
    if "*" in text or "_" in text or "`" in text:
        text = text.replace("**", "").replace("__", "").replace("`", "")
    text = text.strip()
    return text.rstrip("\\").strip() if text.endswith("\\") else text


# Inline citation marks a sentence of a paper or an encyclopedia carries: "[27]", "[3, 5–7]", "[citation needed]",
# "(Smith et al., 2019; Jones, 2020)". A question made of the sentence leaves them out.
_NUMBERED_CITATION = re.compile(r"\s*\[\s*\d+(?:\s*[-–,]\s*\d+)*\s*\]|\s*\[\s*(?:citation|ref|note)[^\]]*\]", re.I)
_AUTHOR_YEAR = re.compile(r"\s*\((?:[^()]*?(?:\bet al\.?|\b[A-Z][\w'’-]+),\s*(?:1[5-9]|20)\d{2}[a-z]?;?\s*)+\)")
_SPACE_BEFORE_MARK = re.compile(r"\s+([,.;:!?，。；：！？])")


_WRAP = re.compile(r"(?<=(.))[ \t]*\n\s*(?=(.))")
_UNSPACED = re.compile(r"[\u3040-\u30ff\u3400-\u9fff。、，]{2}")


#: Marks writers space or not: a middle dot, a slash, a bar, a tilde.
_SQUEEZABLE = re.compile(r"\s*([·ㆍ/|~～])\s*")


def squeezed(text: str) -> str:
    """`text` without the spaces around a middle dot, a slash, a bar or a tilde, which writers put in or leave out
    ("기획 · 제작 PD" and "기획·제작 PD", "14:00 ~ 20:00" and "14:00~20:00")."""
    return _SQUEEZABLE.sub(r"\1", text)


def squeezable(text: str) -> bool:
    """Whether `text` holds a mark `squeezed` would close up (so that it may be written the other way)."""
    return _SQUEEZABLE.search(text) is not None


#: A figure with a short unit glued or spaced after it: "296쪽", "17,000 원", "40%".
_FIGURE_UNIT = re.compile(r"([\d][\d,.]*)\s*[^\W\d_]{1,3}|([\d][\d,.]*)\s*%")


def bare_figure(value: str) -> str:
    """A value as its figure alone when it is a figure and a short unit ("296쪽" and a catalogue's "296" under
    쪽수 are one page count), else the value normalised: what two records of one attribute are compared by."""
    norm = normalize(value)
    figure = _FIGURE_UNIT.fullmatch(norm)
    return (figure.group(1) or figure.group(2)) if figure else norm


#: The number a rule's clause or a list item opens with: "①", "(2)", "3)", "가.".
_ENUMERATOR = re.compile(r"^(?:[①-⑳]|\(\d{1,2}\)|\d{1,2}\)|[가-하]\.)\s*")


def plain_sentence(evidence: str) -> str:
    """A sentence of prose as a question may quote it: emphasis markup and inline citation marks removed."""
    text = _ENUMERATOR.sub(
        "", evidence.replace("**", "").replace("__", "").strip()
    )  # "① 승무원은 …": a clause's number
    if "\n" in text:  # a sentence wrapped over lines reads as one line; Chinese and Japanese join with no space
        text = _WRAP.sub(lambda m: "" if _UNSPACED.match(m.group(1) + m.group(2)) else " ", text)
    if "[" not in text and "(" not in text:
        return text
    cleaned = _AUTHOR_YEAR.sub("", _NUMBERED_CITATION.sub("", _WIKI_LINK.sub(r"\1", text)))
    return _SPACE_BEFORE_MARK.sub(r"\1", cleaned).strip() if cleaned != text else text
