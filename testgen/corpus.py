"""Loading a knowledge-base folder into :class:`~schemas.Document` objects.

Real folders hold a mix of encodings (UTF-8 with and without BOM, Windows Korean cp949), stray binaries and
files of other types. Every file either becomes a document or is listed with the reason it was skipped; one
bad file never stops the run.
"""

from __future__ import annotations

import errno
import json
import os
import re
import unicodedata
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import charset_normalizer
import yaml

from schemas import Document, SkippedFile
from testgen.chunking import Block, split_blocks
from testgen.delimited import with_delimited_tables
from testgen.errors import CorpusError
from testgen.lang.detect import detect_language, script_counts
from testgen.names import (
    is_generic_title,
    is_usable_name,
    leading_number_end,
    name_problems,
    page_kind_title,
    short_title,
    without_trailing_note,
)
from testgen.text import strip_markup

__all__ = [
    "SUPPORTED_SUFFIXES",
    "KBFiles",
    "LoadResult",
    "clean_stem",
    "decode_bytes",
    "derive_title",
    "gather_loaded",
    "kb_files",
    "load_kb",
    "load_path",
    "parse_front_matter",
]

#: File suffixes read as documents (compared case-insensitively).
SUPPORTED_SUFFIXES = (".md", ".markdown", ".txt", ".csv", ".tsv")
#: The document type of a page at the top of the folder (a page's type is its first folder).
ROOT_TYPE = "root"

_SNIFF_BYTES = 8192
# Bytes that never appear in text files; tab, newlines, form feed and escape are allowed.
_CONTROL_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27)) + b"\x7f"
_CONTROL_SHARE = 0.3
# Chaos scores (0..1) this close to the best count as a tie between candidate encodings.
_CHAOS_TIE = 0.1
# Language names people write in front matter instead of codes.
_LANGUAGE_NAMES = {
    "english": "en",
    "korean": "ko",
    "한국어": "ko",
    "japanese": "ja",
    "日本語": "ja",
    "chinese": "zh",
    "中文": "zh",
    "汉语": "zh",
    "漢語": "zh",
}
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(?:(.*?)\n)?---[ \t]*(?:\n|\Z)", re.DOTALL)


@dataclass(frozen=True)
class LoadResult:
    """What :func:`load_kb` found: the loaded documents and the files it skipped, both in path order."""

    documents: list[Document]
    skipped: list[SkippedFile]


class _Skip(Exception):
    """A file cannot be loaded; the message is the reason shown to the user."""


def _looks_binary(data: bytes) -> bool:
    head = data[:_SNIFF_BYTES]
    if b"\x00" in head:
        return True
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    return controls > _CONTROL_SHARE * len(head)


def _utf16_without_bom(data: bytes) -> tuple[str, str] | None:
    """`data` as UTF-16 saved without a BOM, or None when it is not that.

    Letters, digits, spaces and newlines of the ASCII range are one zero byte and one non-zero byte in UTF-16, so
    text in it has NUL bytes on one side of each byte pair: the high byte, second in little-endian, first in
    big-endian. Korean and Chinese text has them too (its spaces, newlines, digits and punctuation), and a few on
    the other side (가 U+AC00, 一 U+4E00). A binary file has NULs on both sides, and runs of them (U+0000); the
    decoded text must also be printable, with no NUL and almost no control, unassigned or private-use character."""
    if len(data) % 2:
        return None
    head = data[:_SNIFF_BYTES]
    units = len(head) // 2
    nuls_first, nuls_second = head[0::2].count(0), head[1::2].count(0)
    for encoding, high, low in (("utf-16-le", nuls_second, nuls_first), ("utf-16-be", nuls_first, nuls_second)):
        if high < max(1, units // 100) or low >= high:
            continue
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if "\x00" not in text and _plausible_text(text[: _SNIFF_BYTES // 2]):
            return text, encoding
    return None


def _plausible_text(text: str) -> bool:
    """At most 1 in 100 characters a control (other than tab, newlines, form feed, escape), unassigned, private-use
    or a lone surrogate."""
    odd = sum(1 for ch in text if ch not in "\t\n\r\x0c\x1b" and unicodedata.category(ch) in ("Cc", "Cn", "Co", "Cs"))
    return odd * 100 <= len(text)


def _plausibly_korean(text: str) -> bool:
    # Chinese GBK/GB18030 bytes fall in the same ranges as EUC-KR and decode "successfully" into a jumble of
    # hanja with some Hangul; real Korean text has far more Hangul than hanja.
    counts = script_counts(text)
    return counts["hangul"] >= counts["han"] + counts["kana"]


def decode_bytes(data: bytes) -> tuple[str, str]:
    """Decode file contents, returning ``(text, encoding)``; newlines are not touched.

    Tries UTF-16 with a BOM, UTF-16 without one (told from a binary file by where its NUL bytes are), UTF-8
    (``utf-8-sig`` when a BOM is present, which is dropped), then EUC-KR and
    its superset cp949 (the usual encodings of Korean files saved on Windows) when the result has more Hangul
    than hanja, then charset-normalizer's best guess (cp1252 when it ties). Raises ValueError naming the
    reason (``binary file``, ``cannot decode (...)``) otherwise.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        # UTF-16 is full of NUL bytes, so it must be recognised by its BOM before the binary check.
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError:
            pass
    if _looks_binary(data):
        # UTF-16 without a BOM is full of NUL bytes too: only their pattern tells it from a binary file.
        utf16 = _utf16_without_bom(data)
        if utf16 is not None:
            return utf16
        raise ValueError("binary file")
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data.decode("utf-8-sig"), "utf-8-sig"
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    # EUC-KR first so files that use only its characters are reported as such; cp949 adds 8,822 syllables.
    for encoding in ("euc-kr", "cp949"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if _plausibly_korean(text):
            return text, encoding
    matches = charset_normalizer.from_bytes(data)
    best = matches.best()
    # best() is None unless some encoding decodes with little "chaos"; that is the confidence bar.
    if best is not None and best.encoding:
        # For short Western text, several single-byte code pages tie and the winner is arbitrary (cp1250
        # turns "crème" into "crčme"). Non-UTF-8 Western files are nearly always Windows-1252: prefer it.
        tied = [m for m in matches if m.chaos <= best.chaos + _CHAOS_TIE]
        if best.encoding != "cp1252" and any("cp1252" in m.could_be_from_charset for m in tied):
            try:
                return data.decode("cp1252"), "cp1252"
            except UnicodeDecodeError:
                pass
        return str(best), best.encoding
    raise ValueError("cannot decode (tried utf-8, euc-kr, cp949 and charset detection)")


def _stringify(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):  # YAML's spelling, not Python's True/False
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ", ".join(_stringify(item) for item in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)


def parse_front_matter(text: str) -> tuple[dict[str, str], int]:
    """Find a leading ``---`` YAML block in ``text``; return ``(fields, characters to remove)``.

    Values are stringified (lists joined with ", "). A block that is not valid YAML, or is YAML but not a
    mapping (a document opening with a ``---`` rule), is not front matter: ``({}, 0)`` is returned and the
    block stays part of the text.
    """
    match = _FRONT_MATTER.match(text)
    if match is None:
        return {}, 0
    try:
        data = yaml.safe_load(match.group(1) or "")
    except Exception:
        # Not only YAMLError: PyYAML raises ValueError for impossible dates and RecursionError for deep
        # nesting. Any failure means "not front matter", never a crash.
        return {}, 0
    if data is None:
        return {}, match.end()
    if not isinstance(data, dict):
        return {}, 0
    return {str(key): _stringify(value) for key, value in data.items()}, match.end()


def _fold(text: str) -> str:
    # Titles and file names differ in punctuation, case and width ("Contract: X" vs "Contract - X.md").
    return "".join(ch for ch in unicodedata.normalize("NFKC", text).casefold() if ch.isalnum())


# -- titles -------------------------------------------------------------------------------------------------
# A document's title is the first of: front matter `title`; an H1 naming the file; an H1 near the top; the
# opening heading or line; the last part of its source URL; its file stem, cleaned. Candidates that are file
# names, slugs, URLs or sentences are passed over (testgen.names.name_problems), so a page scraped as
# "16_example_com_Version_History.md" is titled by its own first line "Version History".

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_URL = re.compile(r"https?://[^\s<>\"'`]+")
_URL_FIELDS = ("url", "source_url", "source", "link", "permalink", "canonical_url", "original_url")
# Prose allowed above an H1 that still counts as the title: a comment, a breadcrumb, a one-line teaser.
# Further down, "# ..." is more likely a section or a comment inside unfenced code.
_PREAMBLE_CHARS = 300
_MAX_LINE_WORDS = 30
_MAX_LINE_CHARS = 250
# Problems that disqualify a title candidate; length and the case of a page's own words do not.
_NOT_A_TITLE = frozenset(
    {"empty", "file extension", "underscore", "url or domain", "slug", "leading id", "placeholder"}
)
_DOC_SUFFIX = re.compile(r"[._](?:md|markdown|txt|csv|tsv|html?|php|aspx?|pdf)$", re.IGNORECASE)


def _clean_title(text: str) -> str:
    """A heading or line as a title: markup removed, a bare slug's underscores made spaces, space collapsed."""
    text = strip_markup(_HTML_COMMENT.sub("", text))
    text = re.sub(r"\s*-{2,}\s*", " — ", text)  # "--" and "---" stand for a dash in plain text
    text = re.split(r"\s(?:›|»|>)\s", text)[-1]  # a breadcrumb: "Ops wiki › Front desk › Opening & closing"
    if "_" in text and not re.search(r"\s", text.strip()):
        text = text.replace("_", " ")  # a wiki slug as heading: "Google_検索"
    # ASCII runs only: an ideographic space is part of how a CJK title is written
    text = re.sub(r"[ \t\n]+", " ", text).strip(" \t,;:—-")
    if re.fullmatch(r"(?:[가-힣] ){2,}[가-힣]", text):
        text = text.replace(" ", "")  # "보 도 자 료": a word spaced out letter by letter
    bracketed = re.fullmatch(r"\[([^\[\]]+)\]", text)
    if bracketed:
        text = bracketed.group(1).strip()  # "[햇살고개농장 오시는 길]": the title in brackets
    return text


def clean_stem(stem: str) -> str:
    """A file stem as a title: NFC, leading numbering removed ("2628_", "01-", "1559 "), underscores made
    spaces (and a slug's hyphens, when the stem has no spaces), a trailing ``html``/``md`` dropped.

    Numbers that are part of the name stay ("2007-08年…", "1918_Influenza" after "2684_"); numbering that
    is all there is stays too ("2024.md" → "2024")."""
    text = unicodedata.normalize("NFC", stem).strip()
    text = _DOC_SUFFIX.sub("", text)
    # In a file name any number before a space is numbering ("1559 COVID-19 and smoking").
    end = leading_number_end(text, spaced=False) or (m.end() if (m := re.match(r"\d+\s+", text)) else 0)
    if end and re.search(r"[^\W\d_]", text[end:]):
        text = text[end:]
    if not re.search(r"\s", text):
        text = re.sub(r"(?<!\d)-|-(?!\d)", " ", text)  # a slug's hyphens, not a range's ("2007-08年")
    text = text.replace("_", " ")
    return " ".join(text.split()) or stem


def _title_problems(title: str) -> set[str]:
    return set(name_problems(short_title(title))) & _NOT_A_TITLE


def _prose_before(text: str, blocks: list[Block], start: int) -> int:
    return sum(
        len(_HTML_COMMENT.sub("", text[b.start : b.end]).strip())
        for b in blocks
        if b.end <= start and b.kind != "heading"
    )


def _opening(text: str, blocks: list[Block]) -> tuple[str, bool] | None:
    """The document's first heading or first line of text (comments, rules and a plain-text masthead skipped),
    and whether it is a heading; None when the document opens with a table, a list or code."""
    skipped = 0
    recorded = False  # the line above was a masthead's record, whose run-ons are indented
    for block in blocks:
        if block.kind == "heading":
            if block.heading.strip():
                return block.heading, True
            continue
        if block.kind != "paragraph":
            return None
        for line in _HTML_COMMENT.sub("", text[block.start : block.end]).splitlines():
            if not re.search(r"\w", line):
                continue
            if skipped and (_MASTHEAD_RECORD.match(line) or (recorded and line[:1].isspace())):
                recorded = True
                continue  # under a masthead, its record: "배포일시 : 2024. 9. 5.", "담당부서 : …" and their run-ons
            recorded = False
            if skipped and _CONTACT_LINE.search(line):
                continue  # under a letterhead, its address and numbers: "Harbour Office, Quay Road, DU7 3HQ"
            if re.search(r"[:：]\s*$", line):
                return None  # "Media contact:" opens a block of its own, it names no page
            if not (skipped < _MAX_MASTHEAD_LINES and _masthead(line)):
                return line, False
            skipped += 1
    return None


#: A line of an address or of numbers to call: a telephone or e-mail label, an address, a postcode.
_CONTACT_LINE = re.compile(
    r"\b(?:tel|phone|fax)\b\.?\s*[:：]?\s*[+(\d]|@|\b[A-Z]{1,2}\d[A-Z\d]?\s+\d[A-Z]{2}\b|전화|팩스|주소\s*[:：]|"
    r"\d+\s+[A-Z][a-z]+\s+(?:Road|Street|Avenue|Lane|Quay|Way|Drive)\b|,\s*[A-Z][a-z]+\s+(?:Road|Street|Avenue|Lane|Quay)\b",
    re.I,
)
#: The header lines a saved e-mail opens with, and its subject.
_MAIL_HEADER = re.compile(
    r"^\s*(?:from|to|cc|bcc|date|sent|reply-to|attachments?|보낸\s*사람|받는\s*사람|발신|수신|(?:숨은\s*)?참조|날짜|첨부)"
    r"\s*[:：]",
    re.I,
)
_MAIL_SUBJECT = re.compile(r"^\s*(?:subject|제목)\s*[:：]\s*(?:(?:re|fwd?|회신|전달)\s*[:：]\s*)*(.+?)\s*$", re.I)


def _mail_subject(text: str) -> str:
    """The subject of a document that opens with e-mail headers ("From: …", "To: …", "Subject: …") or with its
    subject line alone ("제목: [숨결 레터 3월호] …", a newsletter sent by mail), else ""."""
    lines = [line for line in text.lstrip().splitlines()[:8] if line.strip()]
    if not lines or not (_MAIL_HEADER.match(lines[0]) or _MAIL_SUBJECT.match(lines[0])):
        return ""
    for line in lines:
        subject = _MAIL_SUBJECT.match(line)
        if subject:
            return _clean_title(subject.group(1))
        if not (_MAIL_HEADER.match(line) or line[:1].isspace()):
            return ""
    return ""


#: A line of a masthead's record (who sends it, when): a short label, a colon, a value.
_MASTHEAD_RECORD = re.compile(r"^\s*[^\s:：][^:：]{0,15}\s*[:：]\s*\S")


#: Plain-text lines above a title that only say what kind of page it is or who wrote it when.
_MAX_MASTHEAD_LINES = 2
_BYLINE = re.compile(r"기자|특파원|reporter|correspondent|^\s*by\s+[A-Z]|記者", re.I)
_DATE_IN_LINE = re.compile(r"\b(?:19|20)\d\d[./-]\d{1,2}[./-]\d{1,2}\b|\b\d{1,2}:\d{2}\b|(?:19|20)\d\d년")
_FULL_DATE_IN_LINE = re.compile(
    r"\b(?:19|20)\d\d[./-]\d{1,2}[./-]\d{1,2}\b|\b\d{1,2}:\d{2}\b|(?:19|20)\d\d년\s*\d{1,2}월"
)


#: A line that is only a date: "27 February 2024", "March 3, 2025", "2025.11.08", "2025년 3월 14일(금)".
_DATE_LINE = re.compile(
    r"(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s+)?(?:\d{1,2}(?:st|nd|rd|th)?\s+[A-Z][a-z]+\.?,?\s+\d{4}"
    r"|[A-Z][a-z]+\.?\s+\d{1,2}(?:st|nd|rd|th)?,?\s+\d{4}|\d{4}[./-]\s?\d{1,2}[./-]\s?\d{1,2}\.?"
    r"|\d{4}년\s*\d{1,2}월\s*\d{1,2}일(?:\s*\(\S\))?)",
    re.I,
)


def _masthead(line: str) -> bool:
    """Whether a plain-text document's opening line is its masthead, not its title: a newspaper's "가온일보 | 사회 |
    2025.03.14 16:42 | 최유진 기자", a "PRESS RELEASE - FOR IMMEDIATE RELEASE" tag."""
    parts = [p for p in re.split(r"\s[|·\-–—]\s|\s*\|\s*", _clean_title(line)) if p.strip()]
    if len(parts) >= 2 and (_BYLINE.search(line) or _FULL_DATE_IN_LINE.search(line)):
        return True
    if len(parts) >= 3 and _DATE_IN_LINE.search(line):
        return (
            True  # "가온일보 | 사회 | 2025년": a paper, its section, its date; "…비상연락망 - 2024년 상반기" is a title
        )
    if _RELEASE_TAG.fullmatch(_clean_title(line)) or _NOTICE_NUMBER.search(line):
        return True
    if re.fullmatch(r"\S+(?:\s\S+)?\s+" + _RELEASE_TAG.pattern, _clean_title(line), re.I):  # "새벌구청 보도자료"
        return True
    dated = _DATE_IN_LINE.search(line)
    rest = _DATE_IN_LINE.sub(" ", line).split() if dated else []
    if dated and len(rest) <= 2 and any(re.fullmatch(r"[\[【(][^\]】)]{1,20}[\]】)]", w) for w in rest):
        return True  # "[온빛일보] 2025.11.08 지역사회": a newspaper's tag, the date and the section
    if _DATE_LINE.fullmatch(line.strip()):
        return True  # "27 February 2024" under "PRESS RELEASE": the dateline, not the title
    if re.match(r"\s*(?:※|\*\s|note:|참고:|注[:：])", line, re.I):
        return True  # "※ 편집국 보관본 (지면 4월 12일자 3면)": a note above the title
    if _LETTERHEAD.fullmatch(line.strip()):
        return True  # "BRACKETT VALLEY WATER AUTHORITY" over the notice's own title: who sent it
    # "News | Updates": two tags; one ("Release Notes") is the page's title
    return len(parts) >= 2 and all(page_kind_title(part) for part in parts)


#: An organisation's name in capitals, as a letterhead above a plain-text document's title.
_LETTERHEAD = re.compile(
    r"(?:[A-Z][A-Z&.'-]*\s+){1,6}(?:AUTHORITY|COMPANY|CO\.|INC\.?|LLC|LTD\.?|CORPORATION|CORP\.?|FOUNDATION|"
    r"UNIVERSITY|COLLEGE|DEPARTMENT|COUNCIL|BANK|ASSOCIATION|SOCIETY|DISTRICT|AGENCY|COMMISSION|TRUST|INSTITUTE)"
)
#: A notice's serial number above its title: "늘품나눔재단 공고 제2025-07호", "가온시 고시 제2025-112호", "Notice No.
#: 2025-07".
_NOTICE_NUMBER = re.compile(
    r"(?:공고|고시|공지|훈령|지침|통지)\s*제?\s*[\d-]+\s*호\s*$|^\s*(?:notice|circular|bulletin)\s+no\.?\s*[\w-]+\s*$",
    re.I,
)
_RELEASE_TAG = re.compile(
    r"(?:for immediate release|(?:press|news|media) release|보도\s*자료|新闻稿|プレスリリース)", re.I
)


def _line_is_title(line: str, stem: str) -> bool:
    """Whether a document's first line of plain text is its title: short and not prose, or confirmed by a
    file stem it starts with (file names are often the title cut at a length)."""
    if len(line) > _MAX_LINE_CHARS * 2:
        return False
    folded_stem = _fold(clean_stem(stem))
    if len(folded_stem) >= 8 and _fold(line).startswith(folded_stem):
        return True
    if len(line) > _MAX_LINE_CHARS or len(line.split()) > _MAX_LINE_WORDS:
        return False
    if _RECORD_LINE.match(line):
        return False  # "최종 수정: 2025.07.01 (v3) / 담당: 서지민": when and by whom, not what the page is
    if re.search(r"→|->", line):
        return False  # "[초안] 작성 배수진 / 검토 대표님 → 11/13 업로드 예정": a note on the draft's way
    return "sentence" not in name_problems(short_title(line))


#: A page's record line: who last changed it or when ("Last updated: 3 March 2025", "작성: People팀").
_RECORD_LINE = re.compile(
    r"^\s*(?:(?:last\s+)?(?:updated|modified|revised|edited)|author|owner|prepared by|version|"
    r"(?:최종\s*)?(?:수정|작성|업데이트|개정)(?:일|자)?|담당(?:자)?|버전)\s*[:：]",
    re.I,
)


def _url_slug(text: str, front_matter: dict[str, str]) -> str:
    """The last path segment of the page's source URL (front matter ``url``/``source``/…, or a comment at
    the top), as words: "https://example.org/wiki/Bullet_Kin" → "Bullet Kin"; "" when there is none."""
    url = ""
    for key in _URL_FIELDS:
        match = _URL.search(front_matter.get(key, ""))
        if match:
            url = match.group(0)
            break
    if not url:
        comment = _HTML_COMMENT.match(text.lstrip())
        match = _URL.search(comment.group(0)) if comment else None
        url = match.group(0) if match else ""
    if not url:
        return ""
    path = urllib.parse.urlsplit(url).path
    segment = next((part for part in reversed(path.split("/")) if part), "")
    words = _DOC_SUFFIX.sub("", urllib.parse.unquote(segment)).replace("_", " ").replace("-", " ").split()
    letters = sum(ch.isalpha() for ch in "".join(words))
    digits = sum(ch.isdigit() for ch in "".join(words))
    if letters <= digits or (len(words) == 1 and digits and letters):
        return ""  # an id ("2404.10981", "QANDA_21_1683", "a3gstd"), not a name
    return " ".join(words)


def derive_title(text: str, front_matter: dict[str, str], stem: str) -> tuple[str, str]:
    """A document's title and where it came from: ``front matter``, ``h1``, ``opening`` (first heading or
    line), ``url`` (last part of the source URL) or ``stem`` (the file name, cleaned by :func:`clean_stem`).

    Candidates are tried in that order; file names, slugs, URLs and ids are passed over, and a first line of
    plain text counts only when it is short and not a sentence (or the file name starts it). When nothing
    better exists the stem is used even if it is no name (``testgen.names.is_usable_name`` says so).
    """
    title = front_matter.get("title", "").strip()
    if title:
        return title, "front matter"  # the author's choice, kept as written
    subject = _mail_subject(text)
    if subject:
        return subject, "opening"  # a saved e-mail is titled by its subject, not its "From:" line
    blocks = split_blocks(text)
    h1s = [
        (block.start, _clean_title(block.heading))
        for block in blocks
        if block.kind == "heading" and block.level == 1 and _clean_title(block.heading)
    ]
    wanted = _fold(stem)
    # A file often opens with a generic H1 ("Product Summary") before the one naming it; the match wins.
    for _, h1 in h1s:
        if wanted and wanted in (_fold(h1), _fold(short_title(h1))):
            return h1, "h1"
    candidates: list[tuple[str, str]] = []
    early = [h1 for start, h1 in h1s if _prose_before(text, blocks, start) <= _PREAMBLE_CHARS]
    candidates += [(h1, "h1") for h1 in sorted(early, key=is_generic_title)]  # naming H1s first, else in order
    opening = _opening(text, blocks)
    if opening is not None:
        line, is_heading = opening
        line = _clean_title(line)
        if line and (is_heading or _line_is_title(line, stem)):
            candidates.append((line, "opening"))
    for candidate in candidates:
        if not _title_problems(candidate[0]):
            return candidate
    fallbacks = [
        (name, source) for name, source in ((_url_slug(text, front_matter), "url"), (clean_stem(stem), "stem")) if name
    ]
    for name, source in fallbacks:
        if not _title_problems(name) and "lowercase" not in name_problems(name):
            return name, source
    return fallbacks[0] if fallbacks else (stem, "stem")


def _title(text: str, front_matter: dict[str, str], stem: str) -> str:
    title, _ = derive_title(text, front_matter, stem)
    if page_kind_title(title):
        # "# 재단 소개" over "| 법인명 | 재단법인 늘품나눔재단 |": the page is the foundation's, by the name it gives
        named = _NAME_KEY.search(text[:_NAME_KEY_CHARS])
        name = without_trailing_note(strip_markup(named.group(1))).strip() if named else ""
        if name and is_usable_name(name) and not page_kind_title(name) and len(name) <= _MAX_LINE_CHARS:
            return name
    return title


#: A line giving an organisation's own name ("- 법인명: 재단법인 늘품나눔재단", "| 회사명 | 주식회사 온담 |",
#: "Legal name: Acme Ltd"), looked for near the top of a page whose title only says what kind of page it is.
_NAME_KEY = re.compile(
    r"^[ \t]*(?:[-*+][ \t]+|\|[ \t]*)?\**(?:법인명|회사명|기관명|단체명|상호|정식\s*명칭|"
    r"(?:legal|company|organi[sz]ation|official)\s+name)\**[ \t]*(?:[:：]|\|)[ \t]*([^|\n]+?)[ \t]*\|?[ \t]*$",
    re.I | re.M,
)
_NAME_KEY_CHARS = 3000


def _language(text: str, front_matter: dict[str, str], forced: str | None) -> str:
    if forced:
        return forced
    for key in ("lang", "language"):
        value = front_matter.get(key, "").strip().lower()
        if value:
            # "ko-KR", "zh_Hant" -> the primary subtag: downstream rules are per language, not per region.
            return _LANGUAGE_NAMES.get(value, re.split(r"[-_]", value, maxsplit=1)[0])
    return detect_language(text)


def _loops(link: Path) -> bool:
    """Whether following the symbolic link `link` never ends (links pointing to each other)."""
    try:
        os.stat(link)
    except OSError as exc:
        return exc.errno == errno.ELOOP
    return False


def _load_file(path: Path, doc_id: str, language: str | None) -> Document:
    if not path.is_file():
        if path.is_symlink():
            raise _Skip("symbolic link loop" if _loops(path) else "broken symbolic link")
        raise _Skip("not a regular file")
    if path.suffix.lower() not in SUPPORTED_SUFFIXES:
        raise _Skip(
            f"unsupported file type '{path.suffix.lower()}'" if path.suffix else "unsupported file type (no suffix)"
        )
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise _Skip(f"cannot read file: {exc.strerror or exc}") from exc
    if not data.strip():
        raise _Skip("empty file")
    try:
        raw, encoding = decode_bytes(data)
    except ValueError as exc:
        raise _Skip(str(exc)) from exc
    # Offsets everywhere refer to this normalised text, so it is done before anything else looks at it.
    text = with_table_bars(with_delimited_tables(raw.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")))
    if not text.strip():
        raise _Skip("empty file")
    front_matter, body_offset = parse_front_matter(text)
    body = text[body_offset:]
    if not body.strip():
        raise _Skip("empty file (front matter only)")
    parts = doc_id.split("/")
    return Document(
        doc_id=doc_id,
        doc_type=parts[0] if len(parts) > 1 else ROOT_TYPE,
        title=_title(body, front_matter, path.stem),
        text=body,
        body_offset=body_offset,
        front_matter=front_matter,
        encoding=encoding,
        language=_language(body, front_matter, language),
    )


#: A rule under a table's header in plain text: dashes alone ("-------") or dashes between bars ("---|---").
_PLAIN_RULE = re.compile(r"\s*(?:-{3,}|={3,}|[-=:]{2,}(?:\s*[|+]\s*[-=:]{2,})+)\s*")


def with_table_bars(text: str) -> str:
    """`text` with each table written in plain text ("항목 | 금액" over a rule of dashes, rows "일반진단서 | 20,000")
    given the bars at both ends of its lines that a markdown table has, so every reader of tables reads it. A
    block is a table when a header of two or more cells stands over a rule and two or more rows of two or more
    cells follow; a title with a bar over a rule ("Company | About" under dashes) is not one. Lines already
    starting with a bar are left alone."""
    if "|" not in text:
        return text
    lines = text.split("\n")
    fenced = _fenced_lines(lines)
    i = 0
    while i + 3 < len(lines):
        if i in fenced or not _plain_row(lines[i]) or not _PLAIN_RULE.fullmatch(lines[i + 1]):
            i += 1
            continue
        width = len(lines[i].split("|"))
        end = i + 2
        while end < len(lines) and (_plain_row(lines[end]) or _continued_row(lines[end], width)):
            end += 1
        if end - (i + 2) < 2:
            i += 1
            continue
        lines[i + 1] = "|" + "---|" * width
        for row in (i, *range(i + 2, end)):
            lines[row] = "| " + " | ".join(cell.strip() for cell in lines[row].split("|")) + " |"
        i = end
    return "\n".join(lines)


def _fenced_lines(lines: list[str]) -> set[int]:
    """The indexes of lines inside fenced code blocks (a shell pipe over a rule is no table)."""
    inside, fenced = False, set()
    for index, line in enumerate(lines):
        if line.lstrip().startswith(("```", "~~~")):
            inside = not inside
        elif inside:
            fenced.add(index)
    return fenced


def _continued_row(line: str, width: int) -> bool:
    """A plain table's row whose first cell is blank (merged with the row above): " | 생활비 | 500,000원" under a
    header of three cells."""
    stripped = line.strip()
    return stripped.startswith("|") and not stripped.endswith("|") and len(line.split("|")) == width


def _plain_row(line: str) -> bool:
    """A line of two or more cells split by bars, not already a markdown row: "제증명 | 일반진단서 | 20,000"."""
    stripped = line.strip()
    if "|" not in stripped or stripped.startswith("|"):
        return False
    cells = [cell.strip() for cell in stripped.split("|")]
    return len(cells) >= 2 and bool(cells[0]) and sum(1 for cell in cells if cell) >= 2


def _folder_link_reason(link: Path, root: Path) -> str:
    """Why the symbolic link to a folder `link` is skipped: a loop when it points to its own folder or one above."""
    try:
        target, here = link.resolve(), link.parent.resolve()
    except (OSError, RuntimeError):  # RuntimeError: a chain of links that loops (Python < 3.13)
        return "symbolic link loop"
    try:
        inside = target.relative_to(root.resolve()).as_posix()
    except ValueError:
        return f"symbolic link to a folder, not followed (points to {target}; copy or move its files in)"
    shown = f"the knowledge base's folder {inside}" if inside != "." else "the knowledge base's top folder"
    if here == target or target in here.parents:
        return f"symbolic link loop (points to {shown}, which holds the link)"
    return f"symbolic link to a folder, not followed (points to {shown}, whose files are read there)"


def _walk(root: Path, skipped: list[SkippedFile]) -> list[Path]:
    found: list[Path] = []

    def unreadable(exc: OSError) -> None:
        # os.walk silently drops folders it cannot list; the user should hear about them.
        where = Path(exc.filename).relative_to(root).as_posix() if exc.filename else "."
        skipped.append(SkippedFile(path=where, reason=f"cannot read folder: {exc.strerror or exc}"))

    for folder, dirnames, filenames in os.walk(root, onerror=unreadable):
        # Pruning in place stops os.walk from entering hidden folders (.git, .obsidian, ...).
        dirnames[:] = [name for name in dirnames if not name.startswith(".")]
        # os.walk does not enter symbolic links to folders (one may loop back to a folder above it); they are
        # listed instead of dropped without a word.
        for name in [name for name in dirnames if Path(folder, name).is_symlink()]:
            dirnames.remove(name)
            link = Path(folder, name)
            skipped.append(SkippedFile(path=link.relative_to(root).as_posix(), reason=_folder_link_reason(link, root)))
        found.extend(Path(folder, name) for name in filenames if not name.startswith("."))
    # Sorting by path parts gives the same order on every machine, whatever the file system returns.
    return sorted(found, key=lambda path: path.relative_to(root).parts)


@dataclass(frozen=True)
class KBFiles:
    """The files of a KB folder, in path order, and the folders that could not be listed."""

    root: Path
    paths: list[Path]
    skipped: list[SkippedFile]


def kb_files(root: str | os.PathLike[str]) -> KBFiles:
    """Every non-hidden file under ``root``, in path order (the first half of :func:`load_kb`).

    Raises CorpusError when ``root`` is missing or not a folder."""
    base = Path(root)
    if not base.exists():
        raise CorpusError(f"knowledge-base folder not found: {base} (check the path, or create the folder)")
    if not base.is_dir():
        raise CorpusError(f"knowledge-base path is not a folder: {base} (pass the folder holding the files)")
    skipped: list[SkippedFile] = []
    paths = _walk(base, skipped)
    return KBFiles(base, paths, skipped)


def load_path(root: Path, path: Path, language: str | None = None) -> Document | SkippedFile:
    """One file of :func:`kb_files` as a document, or as a skipped file with the reason."""
    doc_id = path.relative_to(root).as_posix()
    try:
        doc_id.encode("utf-8")
        return _load_file(path, doc_id, language)
    except UnicodeEncodeError:
        # Undecodable name bytes come back as surrogates, which no JSON output can carry.
        return SkippedFile(
            path=doc_id.encode("utf-8", "replace").decode("utf-8"),
            reason="file name is not valid UTF-8 (rename the file)",
        )
    except _Skip as exc:
        return SkippedFile(path=doc_id, reason=str(exc))


def gather_loaded(files: KBFiles, loaded: list[Document | SkippedFile]) -> LoadResult:
    """The :func:`load_path` results of `files` (in their order) as one LoadResult.

    Raises CorpusError when no document could be loaded."""
    documents = [item for item in loaded if isinstance(item, Document)]
    skipped = files.skipped + [item for item in loaded if isinstance(item, SkippedFile)]
    skipped.sort(key=lambda item: item.path.split("/"))  # unreadable folders among the files, in path order
    if not documents:
        base, paths = files.root, files.paths
        supported = ", ".join(SUPPORTED_SUFFIXES)
        if not paths and not skipped:
            raise CorpusError(f"knowledge-base folder {base} has no files (add {supported} files to it)")
        example = f"; e.g. {skipped[0].path}: {skipped[0].reason}" if skipped else ""
        raise CorpusError(
            f"no document could be loaded from {base}: {len(paths)} file(s) seen, {len(skipped)} skipped"
            f"{example} (add readable {supported} files)"
        )
    return LoadResult(documents=documents, skipped=skipped)


def load_kb(
    root: str | os.PathLike[str],
    *,
    language: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> LoadResult:
    """Load every supported file under ``root`` (recursively, hidden files and folders ignored).

    ``doc_id`` is the POSIX path relative to ``root``, ``doc_type`` its first folder (``root`` for top-level
    files). ``language`` forces the language of every document; otherwise front matter ``lang``/``language``
    (reduced to its primary subtag, ``ko-KR`` -> ``ko``) or detection decides. ``on_progress(done, total)``
    is called after each file, ``total`` counting every non-hidden file. Files that cannot be used, and
    folders that cannot be listed, are in ``skipped`` with a reason.

    Raises CorpusError when ``root`` is missing or not a folder, or when no document could be loaded.
    """
    files = kb_files(root)
    loaded: list[Document | SkippedFile] = []
    for done, path in enumerate(files.paths, start=1):
        loaded.append(load_path(files.root, path, language))
        if on_progress is not None:
            on_progress(done, len(files.paths))
    return gather_loaded(files, loaded)
