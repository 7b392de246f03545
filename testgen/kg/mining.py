"""Facts mined from a document's own structure, without an LLM.

Three shapes carry most facts in real knowledge bases, and each is read for what it is:

* key–value lines: ``- **Founded**: March 15, 2011``, ``**설립일**: 2008년 3월 15일``, ``- Location: Seoul``;
  a key that is itself a date (``- **2014**: Opened the first factory``) makes a timeline event;
* table rows: row header × column header → cell (a first column of dates makes a yearly series of the
  document's subject, with the row as qualifier);
* sentences of prose and plain bullets that hold a date, an amount, a percentage or a counted number.

The subject of a fact is the nearest heading that names a thing, else the document's subject (its title).
"""

from __future__ import annotations

import hashlib
import os
import pickle
import re
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import pairwise

from schemas import Chunk, Document, FactNode, FactSource, ValueType
from testgen.kg.values import ValueSpan, classify_value, find_values
from testgen.lang import DAYS, GENERIC_HEADINGS, KO_SERVICE_KINDS, OFFER_KINDS, SERVICE_KINDS, contact_kind, ko
from testgen.lang.en import base_form
from testgen.lang.en import is_person_name as is_en_person_name
from testgen.names import (
    QUOTED_WORK,
    introduced_name,
    is_generic_title,
    is_usable_name,
    name_problems,
    page_kind_title,
    short_title,
    without_parentheticals,
    without_trailing_note,
)
from testgen.text import is_cjk, normalize, strip_markup

_HEADING = re.compile(r"^(#{1,6})\s+(.+?)\s*#*\s*$")
_LIST_PREFIX = r"(?:[-*+]\s+|\d{1,2}[.)]\s+)?"
_KV_BOLD = re.compile(rf"^\s*{_LIST_PREFIX}\*\*([^*\n]{{1,60}}?)\*\*\s*[:：]\s*(\S.*)$")
_KV_BOLD_INNER = re.compile(rf"^\s*{_LIST_PREFIX}\*\*([^*\n]{{1,60}}?)\s*[:：]\s*\*\*\s*(\S.*)$")
#: A note of the unit a table's bare numbers are in: "(단위: 억원, %)", "单位：万元", "(Unit: USD million)",
#: "(2025. 1. 1. 기준 / 단위: 원, 부가세 포함)" (in English only in brackets: a line "Unit: Engineering" names an
#: organisation's unit); the unit is group 1 or 2.
_BRACKETED_UNIT = r"[(（\[][^)）\]]*?(?:단위|単位|单位|units?)\s*[:：]\s*([^)）\],/]+?)\s*(?:[,/][^)）\]]*)?[)）\]]"
_UNIT_NOTE = re.compile(rf"^\s*(?:{_BRACKETED_UNIT}|(?:단위|単位|单位)\s*[:：]\s*([^)）\],/]+?))\s*$", re.I)
#: The same note in brackets closing a section's title: "[1] 임플란트 및 관련 수술      (단위: 원, 1치아 기준)".
_UNIT_NOTE_AFTER = re.compile(rf"\S\s+{_BRACKETED_UNIT}\s*$", re.I)
_KV_PLAIN = re.compile(r"^\s*[-*+]\s+([^:：*\n|]{1,40}?)\s*[:：]\s+(\S.*)$")
#: A price list's line with a dotted leader: "- Fecal parasite test ........ $42", "입장료 ········ 3,000원".
_KV_LEADER = re.compile(r"^\s*(?:[-*+]\s+)?([^:：*\n|.…·]{1,60}?)\s*(?:\.{4,}|…{2,}|·{4,}|ㆍ{4,})\s*(\S.*)$")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])\s*|(?<=다\.)\s*|(?<=요\.)\s*")
_BULLET = re.compile(r"^\s*(?:[-*+]|\d{1,2}[.)]|>)\s+")  # a list item's marker, or a quote's ">"
_QUALIFIED_KEY = re.compile(r"^(.+?)\s*[(（]([^()（）]+)[)）]$")  # "Revenue (2023)"
_SENTENCE_STOP = re.compile(r"[.!?。]\s")
_HANGUL = re.compile(r"[가-힣]")
_MAX_TEXT_VALUE = 60
_PROGRESS_LINES = 5000  # lines mined between two progress reports
#: Documents at least this long (characters) are mined in two processes when the caller allows it: mining is most of
#: a very large document's build, one process uses one core, and the second half's facts cross back as plain rows.
SPLIT_DOCUMENT = 4_000_000
_NOTE_COLUMNS = frozenset("note notes remark remarks comment comments 비고 참고 备注 備考".split())
_VALUE_COLUMNS = frozenset(
    "value values detail details description content contents condition conditions terms note notes info "
    "내용 값 설명 비고 조건 기준 세부 내역 상세 정보 数值 内容 说明 値 内容 説明 詳細".split()
)


@dataclass
class MinedDocument:
    """What one document yields: its facts and the names its tables list as row headers."""

    facts: list[FactNode] = field(default_factory=list)
    row_entities: list[tuple[str, str]] = field(default_factory=list)  # (name, entity_type)


def fact_id(doc_id: str, start: int, attribute: str, value: str) -> str:
    """Stable id of a fact: hash of where it is and what it says."""
    raw = f"{doc_id}\x00{start}\x00{attribute}\x00{value}"
    return "fact:" + hashlib.sha256(raw.encode()).hexdigest()[:16]


def is_entity_heading(heading: str, known_names: frozenset[str]) -> bool:
    """Whether a section heading names a thing (and so is the subject of facts below it)."""
    norm = normalize(heading)
    if norm in known_names:
        return True
    words = re.findall(r"\w+", norm)
    if not words or all(w in GENERIC_HEADINGS or w.isdigit() for w in words):
        return False
    if re.fullmatch(r"[가-힣]+(?: [가-힣]+)?", heading.strip()):
        # "### 솔내도서관", "## 부산 지점": a Korean name ends with the kind of place or body it is, after a name
        last = heading.split()[-1]
        suffix = _KO_NAME_SUFFIX.search(last)
        return suffix is not None and suffix.start() > 0 and not _KO_COMMON_ENDING.search(last)
    if not re.match(r"[A-Za-z]", heading) or re.match(r"^\d", heading):
        return False  # other non-Latin headings count only when they match a known name
    significant = [w for w in heading.split() if w.lower() not in {"of", "the", "and", "&", "for", "-"}]
    return (
        bool(significant)
        and all(w[0].isupper() or w[0].isdigit() for w in significant)
        and not any(w in GENERIC_HEADINGS for w in words)
    )


def _heading_name(heading: str, known_names: frozenset[str]) -> str | None:
    """The thing a section heading names, or None: the heading itself, or the heading without a note in brackets
    at its end ("## Leeds (Head Office)" is about Leeds)."""
    if is_entity_heading(heading, known_names):
        return heading
    quoted = QUOTED_WORK.findall(heading)
    if len(quoted) == 1:
        return quoted[0]  # "## 1. 《겨울, 수선집》 — 재공연": the section is about the play
    bare = without_trailing_note(heading)
    if bare != heading.strip() and is_entity_heading(bare, known_names):
        return bare
    # "### 박지훈 — PT 팀장", "## Leeds – Head Office": a known name, or a person's name with a post, then what it is
    named = _NAME_THEN_ROLE.match(heading.strip())
    if named is None:
        return None
    name, post = named.group(1), named.group(2).split()[-1]
    if normalize(name) in known_names or (ko.is_person_name(f"{name} {post}") and not ko.is_person_name(post)):
        return name
    return name if is_en_person_name(name) and len(name.split()) >= 2 else None


_NAME_THEN_ROLE = re.compile(r"^(.+?)\s+[—–-]\s+(\S.*)$")


_HEADING_LINE = re.compile(r"^#{1,6}[ \t]+(.+)$", re.M)


def heading_works(text: str) -> set[str]:
    """The works that markdown headings of `text` quote, normalised with and without their brackets."""
    quoted = {q for line in _HEADING_LINE.findall(text) for q in QUOTED_WORK.findall(line)}
    return {normalize(q) for q in quoted} | {normalize(q[1:-1]) for q in quoted}


class _Miner:
    def __init__(
        self,
        doc: Document,
        chunks: list[Chunk],
        known_names: frozenset[str],
        progress: Callable[[int, int], None] | None = None,
    ) -> None:
        self.doc = doc
        self.progress = progress
        self.chunks = sorted(chunks, key=lambda c: c.start)
        self.known = known_names
        self.out = MinedDocument()
        self.headings: list[tuple[int, str]] = []
        self._section: tuple[str, str | None] | None = None  # (subject, context) under the current headings
        # A unit note ("(단위: 억원)") stands above the next table: None when there is none, else the unit its bare
        # numbers take in an answer ("원" for "20,000" → "20,000원"), or "" when they cannot take it as written.
        self._unit_note: str | None = None
        self._starts = [c.start for c in self.chunks]
        self._ends = [c.end for c in self.chunks]
        # The chunker's chunks end in order too (see `chunk_for`); hand-made lists may not.
        self._ends_sorted = all(a <= b for a, b in pairwise(self._ends))
        self._evidence: tuple[tuple[int, int], str, str] = ((-1, -1), "", "")  # the last evidence span, its chunk

    # -- helpers ---------------------------------------------------------------------------------
    def chunk_for(self, start: int, end: int) -> str:
        """The first chunk (by start) holding ``[start, end)`` whole, else the first one ``start`` falls in,
        else the first chunk.

        With chunks ordered by both start and end (what `chunk_document` makes), the chunks starting at or
        before ``start`` are a prefix and those ending at or after a point a suffix, so two bisections find
        the answer: mining stays linear in the document's length (a scan per fact was quadratic)."""
        if not self.chunks:
            return ""
        if not self._ends_sorted:
            return self._chunk_for_scan(start, end)
        started = bisect_right(self._starts, start)  # chunks[:started] start at or before `start`
        whole = bisect_left(self._ends, end)  # chunks[whole:] end at or after `end`
        if whole < started:
            return self.chunks[whole].chunk_id
        inside = bisect_right(self._ends, start)  # chunks[inside:] end after `start`
        return self.chunks[inside].chunk_id if inside < started else self.chunks[0].chunk_id

    def _chunk_for_scan(self, start: int, end: int) -> str:
        best = None
        for chunk in self.chunks:
            if chunk.start <= start and end <= chunk.end:
                return chunk.chunk_id
            if best is None and chunk.start <= start < chunk.end:
                best = chunk.chunk_id
        return best or self.chunks[0].chunk_id

    def _marked_heading(self, line: str) -> bool:
        """Open a plain-text page's section at "■ 관리동 / 매점" or "[수의사별 진료 요일]", held as a bold heading is;
        whether the line was one."""
        marked = _MARKED_HEADING.match(line)
        if marked is None or re.search(r"[.。!?다요]\s*$", line):
            return False
        self.headings = _with_heading(self.headings, _BOLD_LEVEL, next(g for g in marked.groups() if g).strip())
        self._section = None
        return True

    def _current_section(self) -> tuple[str, str | None]:
        # Worked out once per heading change, not once per fact: a section of a long table has thousands.
        if self._section is None:
            named = (
                _bold_name(text, self.known) if level == _BOLD_LEVEL else _heading_name(text, self.known)
                for level, text in reversed(self.headings)
                if level > 1
            )
            subject = next((name for name in named if name), self.doc.title)
            deeper = [text for level, text in self.headings if level > 1]
            self._section = (subject, deeper[-1] if deeper else None)
        return self._section

    def subject(self) -> str:
        return (self._section or self._current_section())[0]

    def context(self) -> str | None:
        return self._current_section()[1]

    def add(
        self,
        *,
        subject: str,
        attribute: str,
        value: ValueSpan | None,
        value_text: str,
        value_start: int,
        source: FactSource,
        ev_start: int,
        ev_end: int,
        qualifier: str | None = None,
    ) -> None:
        value_type: ValueType = value.value_type if value else "text"
        attribute = strip_markup(attribute)
        if not attribute or not value_text.strip():
            return
        if self._evidence[0] != (ev_start, ev_end):  # the cells of a table row share their line
            self._evidence = ((ev_start, ev_end), self.doc.text[ev_start:ev_end], self.chunk_for(ev_start, ev_end))
        _, evidence, chunk_id = self._evidence
        self.out.facts.append(
            FactNode.trusted(
                fact_id=fact_id(self.doc.doc_id, value_start, attribute, value_text),
                subject=subject,
                attribute=attribute,
                value=value_text,
                value_type=value_type,
                number=value.number if value else None,
                unit=value.unit if value else None,
                date_key=value.date_key if value else None,
                qualifier=qualifier,
                context=(self._section or self._current_section())[1],
                source=source,
                doc_id=self.doc.doc_id,
                chunk_id=chunk_id,
                evidence=evidence,
                start=ev_start,
                end=ev_end,
            )
        )

    # -- the three shapes ------------------------------------------------------------------------
    def key_value(self, key: str, value: str, value_start: int, line_start: int, line_end: int) -> None:
        key = strip_markup(key)
        clean = strip_markup(value)
        if _PHONE_KEY.search(key):
            clean = _FAX_AFTER.sub("", clean)  # "02-2647-3300 / 팩스 02-2647-3309": the phone line is the first
        qualifier = None
        qualified = _QUALIFIED_KEY.match(key)
        if qualified:
            inner = classify_value(qualified.group(2))
            if inner is not None and inner.value_type == "date":
                key, qualifier = qualified.group(1).strip(), qualified.group(2).strip()
        lead = value.find(clean[:1]) if clean else 0
        clean_start = value_start + max(lead, 0)
        key_as_date = classify_value(key)
        if key_as_date is not None and key_as_date.value_type == "date":
            self.timeline(key, key_as_date, clean, clean_start, line_start, line_end)
            return
        if clean.endswith((":", "：")):
            return  # a label introducing a nested list, not a value
        typed: ValueSpan | None = classify_value(clean)
        sentence_like = _is_sentence(clean)
        if typed is None and _SPEAKER.fullmatch(key.strip()) and (sentence_like or len(clean) > _MAX_TEXT_VALUE):
            return  # "- 탁현오 이사: 상근 7명으로는 업무가 많다…": what someone said in a meeting, not a property
        placed = _PLACE_KEY.search(key) is not None  # an address's "(역에서 걸어서 6분)" is no value of the address
        if typed is None and sentence_like and not placed:
            found = [v for v in find_values(clean) if not _is_bare(v)]
            if len(found) == 1 and not _in_a_note(clean, found[0]):
                typed = found[0]
        if typed is not None:
            self.add(
                subject=self.subject(),
                attribute=key,
                value=typed,
                value_text=typed.text,
                value_start=clean_start + typed.start,
                source="key_value",
                ev_start=line_start,
                ev_end=line_end,
                qualifier=qualifier,
            )
            return
        if (
            len(clean) <= _MAX_TEXT_VALUE
            and not _SENTENCE_STOP.search(clean)
            and not (_HANGUL.search(clean) and _is_sentence(clean))  # "대표이사에게 보고" is a clause
        ):
            self.add(
                subject=self.subject(),
                attribute=key,
                value=None,
                value_text=clean.rstrip("."),
                value_start=clean_start,
                source="key_value",
                ev_start=line_start,
                ev_end=line_end,
                qualifier=qualifier,
            )
            return
        # A sentence as value ("Client shall pay $10,000 per month ..."): keep its one typed value.
        values = [v for v in find_values(clean) if not _is_bare(v)]
        if len(values) == 1 and not placed and not _in_a_note(clean, values[0]):
            self.add(
                subject=self.subject(),
                attribute=key,
                value=values[0],
                value_text=values[0].text,
                value_start=clean_start + values[0].start,
                source="key_value",
                ev_start=line_start,
                ev_end=line_end,
            )

    def timeline(self, key: str, when: ValueSpan, event: str, event_start: int, line_start: int, line_end: int) -> None:
        """A dated line. What it says decides the fact it makes:

        * "$150,000 base salary + bonus" (one amount) → base salary = $150,000, qualified by the date;
        * "Exceeds Expectations" (a short label) → <section> = label, qualified by the date;
        * "Opened the first factory in Tacoma" (an event) → event happened at the date.
        """
        if len(event) <= 3:
            return
        values = [v for v in find_values(event) if v.value_type != "date" and not _is_bare(v)]
        head = re.split(r"\s[+(;]|[,;]\s|\(|\s[-–]\s", event)[0].strip()
        if values and values[0].start == 0 and values[0].end < len(head):
            label = head[values[0].end :].strip(" :-")
            if 0 < len(label.split()) <= 5:
                self.add(
                    subject=self.subject(),
                    attribute=label,
                    value=values[0],
                    value_text=values[0].text,
                    value_start=event_start + values[0].start,
                    source="timeline",
                    ev_start=line_start,
                    ev_end=line_end,
                    qualifier=key,
                )
                return
        key_pos = self.doc.text.find(key, line_start, line_end)
        context = self.context()
        if context and len(event.split()) <= 10 and not _looks_like_event(event):
            self.add(
                subject=self.subject(),
                attribute=context,
                value=None,
                value_text=event.rstrip("."),
                value_start=event_start,
                source="timeline",
                ev_start=line_start,
                ev_end=line_end,
                qualifier=key,
            )
            return
        self.add(
            subject=self.subject(),
            attribute=event.rstrip("."),
            value=when,
            value_text=key,
            value_start=key_pos,
            source="timeline",
            ev_start=line_start,
            ev_end=line_end,
        )

    def table(self, rows: list[tuple[int, int, str]]) -> None:
        if len(rows) < 3 or not _TABLE_SEP.match(rows[1][2]):
            return
        # "Day(s)", "Fee(s)": one or more, as a plain plural
        header = [re.sub(r"(?<=[a-z])\(s\)(?!\w)", "s", strip_markup(c), flags=re.I) for c in table_cells(rows[0][2])]
        if len(header) < 2:
            return
        body = [(s, e, [strip_markup(c) for c in table_cells(line)]) for s, e, line in rows[2:]]
        header, body = _keyed_by_name(header, body)
        regrouped = _named_by_item(header, body)
        if regrouped is not None:
            header, body = regrouped
        first_is_date = all(
            (cv := classify_value(cells[0])) is not None and cv.value_type == "date" for _, _, cells in body if cells
        )
        # A two-column table of labels and values ("| 항목 | 내용 |") is a key–value list in disguise.
        key_value_table = len(header) == 2 and normalize(header[1]) in _VALUE_COLUMNS
        if len(header) == 3 and normalize(header[1]) in _VALUE_COLUMNS and normalize(header[2]) in _NOTE_COLUMNS:
            # "| 항목 | 내용 | 비고 |": labels and values, with a note beside each that the value's own line keeps
            key_value_table = True
        things = self._compared_columns(header)
        if things:
            self._by_column(header, things, body)
            return
        variant = self._table_variant(rows[0][0])
        if variant:
            # "The figures below are for the KSI-6000 Mk II": the table's values are the variant's, not the page's
            self._section = (variant, self.context())
            self.out.row_entities.append((variant, self.doc.doc_type))  # a name of its own, not the page's
            try:
                self._rows(header, body, key_value_table, first_is_date)
            finally:
                self._section = None  # worked out again from the headings
            return
        self._rows(header, body, key_value_table, first_is_date)

    def _rows(
        self, header: list[str], body: list[tuple[int, int, list[str]]], key_value_table: bool, first_is_date: bool
    ) -> None:
        """Facts of a table read row by row: a row's head names a thing, a period or a case of the section's
        subject, and each of its cells is a value under its column."""
        merged = ""  # the head of the row above, for rows that leave it blank (a merged cell: its trims, its years)
        own_subject = self._table_subject(header)
        # "## 2025년 예산 구성" over "| 사업 | 금액 |": each amount is the year's, not the subject's for good
        period = None if first_is_date or any(find_values(cell) for cell in header) else _period(self.context())
        kind_head = re.sub(r"\s+types?$", "", header[0].strip(), flags=re.I)  # "Room type": its rows are rooms
        kind_column = _kind_word(kind_head) if _ROW_KIND.fullmatch(kind_head) else ""
        if normalize(header[0]) in _STEP_COLUMNS | _TASK_COLUMNS and not first_is_date:
            # "| Stage | Typical time |" over "| Assessment | weeks 3–7 |": a step of a process, which is no thing
            # and whose cells, glued to the page's subject ("the guide's assessment typical time"), ask nothing
            return
        heads = [_FOOTNOTE_MARK.sub("", cells[0]) for _, _, cells in body if len(cells) >= 2 and cells[0]]
        # "| Vehicle | Return |" over "| Car / van up to 5.0 m |", "| Motorcycle |": when most rows describe cases, a
        # capitalised word alone among them ("Motorcycle", "Internet") is a case too, not a name ("PgBouncer", "EPC"
        # and "Library of Things" still name things)
        cases = sum(_row_names_entity(h, self.known, header[0]) for h in heads) * 2 < len(heads)
        led = not first_is_date and _led_by_a_person(header, body)
        for start, end, cells in body:
            if len(cells) < 2 or not (cells[0] or merged):
                continue
            row_head = _FOOTNOTE_MARK.sub("", cells[0]) or merged  # "Blossom Saison*": the note is under the table
            row_head = _ROW_LETTER.sub("", row_head)  # "A. 라이트": the package, not its letter in the list
            merged = row_head
            if normalize(row_head) in _TOTAL_COLUMNS:
                continue  # the rows above summed: asked as "X의 합계 금액", it reads as a pasted label
            if normalize(row_head) in _OTHER_ROWS:
                continue  # "| 기타 | 수면 진정 장비, 러버댐 |": the rest, named by nothing ("X 기타의 장비")
            if _PLACEHOLDER_CELL.fullmatch(row_head.strip()):
                continue  # "| – | 01454 496 001 |": a row whose name is left blank names nothing to ask about
            if key_value_table:
                self.key_value(row_head, cells[1], start + max(self.doc.text[start:end].find(cells[1]), 0), start, end)
                continue
            label_prefix = ""
            qualifier = period
            if first_is_date:
                subject, qualifier = own_subject, row_head
            elif kind_column and (named := _with_kind(row_head, kind_column, self.known)):
                # "| Plan | Monthly uptime target |" over "| Starter | Best effort |": the Starter Plan's
                subject = named
                if cells[0]:
                    self.out.row_entities.append((named, f"{self.doc.doc_type}/{header[0]}"))
            elif kind_column and not is_cjk(row_head):
                # "| Program | Ages |" over "| Camp extended care | 6–12 |": a program with no name to ask it by
                # ("Elmsworth Parks & Recreation's camp extended care ages" glues it to the page's owner)
                continue
            elif _row_names_entity(row_head, self.known, header[0]):
                if cases and re.fullmatch(r"[A-Z][a-z]+", row_head) and normalize(row_head) not in self.known:
                    continue  # glued to the page's subject it would read "Tarbrae Ferries' motorcycle return"
                subject = row_head
                if cells[0]:  # a continuation row names no new entity
                    self.out.row_entities.append((row_head, f"{self.doc.doc_type}/{header[0]}"))
            else:
                # "| 아동 (만 12세 미만) | 1,690,000원 |": a row label of the page's own subject
                subject, label_prefix = own_subject, row_head
            line = self.doc.text[start:end]
            for col, cell in enumerate(cells[1:], start=1):
                if col >= len(header) or not self._holds_value(cell) or _not_the_rows(header, col, led):
                    continue
                column, unit = _column_unit(header[col])
                column = _medium_of(column, cell)
                typed = _unless_numbering(self._typed(cell, unit), column)
                pos = line.find(cell)
                value_text = typed.text if typed else cell
                value_start = start + max(pos, 0) + (typed.start if typed else 0)
                self.add(
                    subject=subject,
                    attribute=_join_label(label_prefix, self._column_label(column)),
                    value=typed,
                    value_text=value_text,
                    value_start=value_start,
                    source="table",
                    ev_start=start,
                    ev_end=end,
                    qualifier=qualifier,
                )

    def _column_label(self, column: str) -> str:
        """A column's name as a property: qualified by its section's heading, and a generic amount column by the
        page's title when no heading says what its amounts are ("| 항목 | 금액 |" on "…병원 비급여 진료비용 안내":
        each item's 비용)."""
        context = self.context()
        unmeasured = context is None or not _HEADING_MEASURE.search(context)
        if unmeasured and normalize(column) in _GENERIC_AMOUNT_COLUMNS and _HEADING_MEASURE.search(self.doc.title):
            context = self.doc.title
        return _qualified_column(column, context)

    def _holds_value(self, cell: str) -> bool:
        """Whether a table cell holds a value to mine: not empty or a dash, not a long text, and not a bare number
        whose unit only a note above the table gives ("12.87" under "(단위: %)")."""
        if not cell or cell in {"-", "–", "—", "N/A", "n/a"}:
            return False
        typed = classify_value(cell)
        if typed is None and len(cell) > _MAX_TEXT_VALUE:
            return False
        if self._unit_note is None or not re.search(r"\d", cell):
            return True
        return typed is not None and (not _is_bare(typed) or (bool(self._unit_note) and typed.text == cell))

    def _typed(self, cell: str, unit: str = "") -> ValueSpan | None:
        """The value of a table cell; a bare number takes its column's unit ("12" under "Weight (kg)") or else the
        unit note's ("20,000" under "(단위: 원)" is 20,000 won), its text still the cell's."""
        typed = classify_value(cell)
        unit = unit or self._unit_note or ""
        bound = BOUNDED_FIGURE.fullmatch(cell.strip())
        if typed is None and bound and unit:
            # "50,000 이상" under "월 후원금(원)": an amount of won, bounded, its text still the cell's
            amount = classify_value(bound.group(1) + unit)
            return replace(amount, start=0, end=len(cell), text=cell.strip()) if amount is not None else None
        if typed is None or not _is_bare(typed) or not unit:
            return typed
        with_unit = classify_value(typed.text + unit)
        if with_unit is None or with_unit.number != typed.number:
            return typed
        return replace(with_unit, start=typed.start, end=typed.end, text=typed.text)

    def _table_variant(self, start: int) -> str | None:
        """The variant of the section's subject that the paragraph right before a table says its figures are for
        ("The figures below are for the KSI-6000 Mk II" on the KSI-6000's page; "아래 수치는 AP-40 Pro 기준입니다"),
        or None. The variant must share a word of three characters or more with the subject and differ from it."""
        before = self.doc.text[max(0, start - 600) : start].rstrip()
        paragraph = before.rsplit("\n\n", 1)[-1].strip()
        if not paragraph or paragraph.startswith(("#", "|")):
            return None
        found = _VARIANT_NOTE.search(paragraph)
        if found is None:
            return None
        variant = strip_markup(next(g for g in found.groups() if g)).strip(" .,:;")
        subject = normalize(self.subject())
        shared = {w for w in normalize(variant).split() if len(w) >= 3} & set(subject.split())
        return variant if shared and normalize(variant) != subject and len(variant) <= 60 else None

    def _compared_columns(self, header: list[str]) -> dict[int, str]:
        """The things a table compares column by column, by column index, or {} for a table read by rows.

        "| | Starter | Team | Business |" over rows "| Monthly billing | Free | $149 / month | $499 / month |" and
        "| Feature | One Series | Edge Series |" give one thing per column: its name, with the kind the page or
        section names when the header is a bare word ("Team" on a page of plans is "Team Plan"). The corner must be
        blank or a word for "feature", and every column a name (a code, a known name, capitalised words); a one-word
        name needs its kind, and totals are left out."""
        if len(header) < 3 or not (header[0] == "" or normalize(header[0]).replace(" ", "") in _CORNER_WORDS):
            return {}
        kind = self._kind_of_columns()
        things: dict[int, str] = {}
        for col, name in enumerate(header[1:], start=1):
            if not name or normalize(name) in _TOTAL_COLUMNS:
                continue
            if not _row_names_entity(name, self.known) or (is_cjk(name) and normalize(name) not in self.known):
                return {}  # "| | 성인 | 아동 |", "| Feature | How to use | Models |": cases or contents, not things
            named = _with_kind(name, kind, self.known) if kind else name
            if not named or (not kind and _bare_word(name, self.known)):
                return {}  # "| | Undergraduate | Graduate |": no kind says what "Graduate" is
            things[col] = named
        return things if len(things) >= 2 else {}

    def _kind_of_columns(self) -> str:
        """The kind of thing a page or section compares, from its nearest heading or title: "Plan" for "Plans &
        Pricing", "요금제" for "요금제 비교"; "" when none is named."""
        for text in [text for _, text in reversed(self.headings)] + [self.doc.title]:
            found = _COMPARED_KIND.search(text)
            if found:
                return _kind_word(found.group(0))
        return ""

    def _by_column(self, header: list[str], things: dict[int, str], body: list[tuple[int, int, list[str]]]) -> None:
        """Facts of a table that compares things column by column: each row is an attribute of every column."""
        for name in dict.fromkeys(things.values()):
            self.out.row_entities.append((name, f"{self.doc.doc_type}/{header[0] or 'column'}"))
        for start, end, cells in body:
            if len(cells) < 2 or not cells[0]:
                continue
            line = self.doc.text[start:end]
            for col, subject in things.items():
                cell = cells[col] if col < len(cells) else ""
                if not self._holds_value(cell):
                    continue
                typed = self._typed(cell)
                value_text = typed.text if typed else cell
                pos = line.find(value_text, _nth_cell_start(line, col))  # this column's, not an equal cell before
                self.add(
                    subject=subject,
                    attribute=cells[0],
                    value=typed,
                    value_text=value_text,
                    value_start=start + max(pos, 0),
                    source="table",
                    ev_start=start,
                    ev_end=end,
                )

    def _table_subject(self, header: list[str]) -> str:
        """Whose values a table under the current headings gives: the section's subject, unless its heading is
        one of the table's own columns ("## Attendance" over "| Year | Dates | Attendance |": a topic of the page,
        not a thing), then the subject above it."""
        subject = self.subject()
        columns = {normalize(cell) for cell in header}
        if normalize(subject) not in columns:
            return subject
        return next(
            (
                text
                for level, text in reversed(self.headings)
                if level > 1 and normalize(text) not in columns and is_entity_heading(text, self.known)
            ),
            self.doc.title,
        )

    def sentences(self, text: str, offset: int) -> None:
        pos = 0
        for piece in _SENTENCE_END.split(text):
            idx = text.find(piece, pos)
            if idx < 0 or not piece.strip():
                continue
            pos = idx + len(piece)
            sentence = piece.strip()
            s_start = offset + idx + (len(piece) - len(piece.lstrip()))
            values = [v for v in find_values(sentence) if not _is_bare(v)]
            if not values or len(values) > 3 or len(sentence) > 400:
                continue
            for value in values:
                predicate = (sentence[: value.start] + "…" + sentence[value.end :]).strip()
                predicate = re.sub(r"[ \t]*\n\s*", " ", predicate)  # a sentence wrapped over lines
                self.add(
                    subject=self.subject(),
                    attribute=predicate[:120],
                    value=value,
                    value_text=value.text,
                    value_start=s_start + value.start,
                    source="sentence",
                    ev_start=s_start,
                    ev_end=s_start + len(sentence),
                )

    # -- driver ----------------------------------------------------------------------------------
    def run(self) -> MinedDocument:
        lines = self._lines()
        self._mine(lines, 0, len(lines))
        return self._done()

    def run_split(self) -> MinedDocument:
        """`run`, with the second half of the document (from a heading near its middle) mined in a forked child
        process while this one mines the first: the same facts in the same order. Falls back to mining the rest
        here when the child fails."""
        lines = self._lines()
        point = _split_point(lines)
        if point is None:
            self._mine(lines, 0, len(lines))
            return self._done()
        split, headings = point
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: the second half, handed back as rows of field values
            os.close(read_end)
            code = 1
            try:
                self.progress, self.headings, self._section = None, headings, None
                self._mine(lines, split, len(lines))
                facts = self.out.facts
                given = facts[0].__pydantic_fields_set__ if facts else set()
                if all(f.__pydantic_fields_set__ is given for f in facts):
                    rows = [tuple(f.__dict__.values()) for f in facts]
                    with os.fdopen(write_end, "wb") as pipe:
                        pickle.dump(
                            (rows, sorted(given), self.out.row_entities), pipe, protocol=pickle.HIGHEST_PROTOCOL
                        )
                    code = 0
            finally:
                os._exit(code)
        os.close(write_end)
        self._mine(lines, 0, split)
        handed: tuple[list[tuple[object, ...]], list[str], list[tuple[str, str]]] | None = None
        with os.fdopen(read_end, "rb") as pipe:
            try:
                handed = pickle.load(pipe)
            except Exception:  # the child died while writing: what it sent is incomplete, and mined again here
                handed = None
        _, status = os.waitpid(pid, 0)
        if handed is None or status != 0:
            self.headings, self._section = headings, None
            self._mine(lines, split, len(lines))
        else:
            rows, names, row_entities = handed
            self.out.facts.extend(FactNode.from_rows(rows, names))
            self.out.row_entities.extend(row_entities)
        return self._done()

    def _lines(self) -> list[tuple[int, int, str]]:
        """(start, end, text) of every line of the document."""
        lines: list[tuple[int, int, str]] = []
        pos = 0
        for raw in self.doc.text.split("\n"):
            lines.append((pos, pos + len(raw), raw))
            pos += len(raw) + 1
        return lines

    def _done(self) -> MinedDocument:
        if self.progress is not None:
            self.progress(len(self.doc.text), len(self.doc.text))
        name = _own_name_row(self.doc, self.out.facts)
        if name is not None:
            # the facts are the name's, and the name a thing the KB knows; its own row asks nothing ("X의 학원명은 X")
            self.out.row_entities.append((name.value, self.doc.doc_type))
            title = self.doc.title
            self.out.facts = [
                f.replaced({"subject": name.value}) if f.subject == title else f
                for f in self.out.facts
                if f is not name
            ]
        return self.out

    def _mine(self, lines: list[tuple[int, int, str]], i: int, stop: int) -> None:
        """The lines ``[i, stop)``: `stop` is the end or a heading outside a code block (no table runs past it)."""
        text = self.doc.text
        in_code = False
        next_report = i
        while i < stop:
            start, _end, line = lines[i]
            if self.progress is not None and i >= next_report:
                self.progress(start, len(text))
                next_report = i + _PROGRESS_LINES
            stripped = line.strip()
            if stripped.startswith("```") or stripped.startswith("~~~"):
                in_code = not in_code
                i += 1
                continue
            if in_code or not stripped:
                i += 1
                continue
            heading = _HEADING.match(line)
            if heading:
                self.headings = _with_heading(self.headings, len(heading.group(1)), heading.group(2))
                named = _heading_name(heading.group(2), self.known)
                if named is not None and named != heading.group(2) and QUOTED_WORK.fullmatch(named):
                    self.out.row_entities.append((named, self.doc.doc_type))  # a work the section is about
                self._section = None
                self._unit_note = None
                i += 1
                continue
            if stripped.startswith("|"):
                j = i
                while j < stop and lines[j][2].strip().startswith("|"):
                    j += 1
                self.table(lines[i:j])
                self._unit_note = None
                i = j
                continue
            if self._marked_heading(stripped):
                i += 1
                continue
            bold = _BOLD_LINE.match(line)
            if bold and _prose_follows(lines, i + 1, stop):
                # "**고양이 우체국** (2022.8, iOS)" over a paragraph about the game: a heading in all but name
                self.headings = _with_heading(self.headings, _BOLD_LEVEL, bold.group(1).strip())
                self._section = None
                named = _bold_name(bold.group(1).strip(), self.known)
                if named:
                    self.out.row_entities.append((named, self.doc.doc_type))
                i += 1
                continue
            note = _UNIT_NOTE.match(line)
            if note:
                self._unit_note = _attachable_unit(note.group(1) or note.group(2) or "")
                i += 1
                continue
            titled = _UNIT_NOTE_AFTER.search(line)
            if titled:  # the title is read as before; the tables under it take the unit
                self._unit_note = _attachable_unit(titled.group(1))
            kv = _KV_BOLD.match(line) or _KV_BOLD_INNER.match(line) or _KV_PLAIN.match(line) or _priced_leader(line)
            if kv and len(kv.group(1).split()) <= 6:
                value_start = start + kv.start(2)
                rstripped_end = start + len(line.rstrip())
                self.key_value(
                    kv.group(1),
                    kv.group(2).rstrip(),
                    value_start,
                    start + len(line) - len(line.lstrip()),
                    rstripped_end,
                )
                i += 1
                continue
            bullet = _BULLET.match(line)
            body_start = start + (bullet.end() if bullet else len(line) - len(line.lstrip()))
            j = i + 1
            while j < stop and _wrapped(lines[j - 1][2], lines[j][2]):
                j += 1  # a paragraph or list item wrapped over lines: its sentences run on
            self.sentences(text[body_start : lines[j - 1][1]], body_start)
            i = j


#: How long a line of prose is when it was broken only to keep the text narrow (a press release at 72 columns).
_WRAP_WIDTH = 40
#: A line that opens with a label ("Trade sales: …", "담당: …"): a line of its own, not the rest of a sentence.
_LABEL_OPENING = re.compile(r"^\s*[^\s:：|][^:：|]{0,30}[:：]\s")


def _wrapped(line: str, following: str) -> bool:
    """Whether `following` carries on the sentence `line` broke off: `line` is long and stops mid-sentence, and
    `following` starts no heading, table, list item, label or bold line ("1. Kestrel Lane Brewery Ltd was founded
    in 2016 and has brewed at Unit 4," over "   Tanyard Works, Kestrel Lane, … since 2019.")."""
    body = line.strip()
    if len(body) < _WRAP_WIDTH or re.search(r"[.!?。！？:：|]$|다$|\*\*$", body) or body.startswith(("#", "|")):
        return False
    nxt = following.strip()
    if not nxt or nxt.startswith(("#", "|", "```", "~~~", "**", ">")) or _BULLET.match(following):
        return False
    return not (_LABEL_OPENING.match(following) or _LABEL_OPENING.match(line) or _priced_leader(following))


def _in_a_note(text: str, value: ValueSpan) -> bool:
    """Whether the figure stands in a bracketed note after the value's words: "일반과세자 (중개보수에 부가세 10% 별도)"
    is a kind of business, its 10% the tax the note speaks of."""
    opening = max(text.rfind("(", 0, value.start), text.rfind("（", 0, value.start))
    if opening <= 0 or re.search(r"[)）]", text[opening : value.start]):
        return False
    return bool(_WORD_BEFORE_NOTE.search(text[:opening])) and not find_values(text[:opening])


#: A word of two letters or more before a note's bracket.
_WORD_BEFORE_NOTE = re.compile(r"[^\W\d_]{2,}")


def _priced_leader(line: str) -> re.Match[str] | None:
    """A dotted-leader line whose value is an amount, a date or a measure; a table of contents' bare page number
    ("Introduction ........ 3") is no value."""
    found = _KV_LEADER.match(line)
    if found is None:
        return None
    typed = classify_value(without_trailing_note(found.group(2)).strip())
    return found if typed is not None and (typed.unit or typed.value_type in ("money", "date", "percent")) else None


#: A line that is only a phrase in bold, with a note in brackets at most: a heading written as bold text. It sits
#: below every markdown heading (a real heading of any level closes it) and the next bold line replaces it.
_BOLD_LINE = re.compile(r"^\s*\*\*([^*:：?？\n]{2,40})\*\*\s*(?:[(（][^)）\n]{0,40}[)）])?\s*$")
_BOLD_LEVEL = 7
#: A line that is only a phrase after a section mark ("■ 관리동 / 매점", "◆ Opening times") or in brackets ("[수의사별
#: 진료 요일]", "【접수 방법】"): a plain-text page's section heading. Not a line with a colon ("■ 주차: 무료", a
#: key and its value) nor a sentence.
_MARKED_HEADING = re.compile(
    r"^\s*(?:[■□◆◇▶▷◈]\s*([^:：\n]{2,40}?)|\[([^\[\]:：\n]{2,30})\]|【([^【】:：\n]{2,30})】)\s*$"
)


def _prose_follows(lines: list[tuple[int, int, str]], start: int, stop: int) -> bool:
    """Whether the next line with text is a sentence of prose: what a bold line heads as a heading does ("**고양이
    우체국** (2022.8)" over "고양이 집배원이 되어 … 배달하는 캐주얼 게임."), not a signature's "**Date**: …" or an
    address."""
    for _, _, text in lines[start:stop]:
        stripped = text.strip()
        if not stripped:
            continue
        if stripped.startswith(("|", "#", "-", "*", "+", ">")) or _KV_PLAIN.match(text) or ":" in stripped[:30]:
            return False
        return len(stripped.split()) >= 5 and re.search(r"[.!?。]\s*$|[다요]\.?\s*$", stripped) is not None
    return False


def _bold_name(text: str, known: frozenset[str]) -> str | None:
    """The thing a bold line names: a name the KB knows, a Korean name as a heading would give it ("솔내도서관"), or
    two words or more (capitalised, in a Latin script) that make a usable name ("고양이 우체국", "Teen Trek"); None
    for a topic ("Notes", "주의사항", "Paying")."""
    if normalize(text) in known or (is_cjk(text) and is_entity_heading(text, known)):
        return text  # a name the KB knows, or a Korean heading ending as names do ("솔내도서관")
    if not 2 <= len(text.split()) <= 5 or is_generic_title(text) or page_kind_title(text) or not is_usable_name(text):
        return None
    return text if is_cjk(text) or is_entity_heading(text, known) else None  # Latin: capitalised as a heading's name


def _with_heading(headings: list[tuple[int, str]], level: int, title: str) -> list[tuple[int, str]]:
    """The open headings once a heading of `level` starts: the deeper and equal ones closed."""
    return [(lv, t) for lv, t in headings if lv < level] + [(level, strip_markup(title))]


def _split_point(lines: list[tuple[int, int, str]]) -> tuple[int, list[tuple[int, str]]] | None:
    """The first heading at or after the middle line outside a code block, with the headings open before it (what
    the miner holds when it reaches that line); None when there is none."""
    headings: list[tuple[int, str]] = []
    in_code = False
    middle = len(lines) // 2
    for index, (_, _, line) in enumerate(lines):
        stripped = line.strip()
        if stripped.startswith("```") or stripped.startswith("~~~"):
            in_code = not in_code
            continue
        if in_code or not stripped:
            continue
        heading = _HEADING.match(line)
        if heading:
            if index >= middle:
                return index, headings
            headings = _with_heading(headings, len(heading.group(1)), heading.group(2))
    return None


_KO_NAME_SUFFIX = re.compile(
    r"(지점|본사|사무소|영업소|센터|팀|본부|부서|호텔|항공|공항|은행|병원|학교|대학교?|회사|법인|그룹|재단|협회|"
    r"터미널|허브|공장|창고|매장|캠퍼스|사옥|"
    r"점|관|원|청|시|군|구|국)$"
)


# Common nouns that end in one of those syllables ("수강신청", "모집 인원", "연구") and a country's two-syllable name
# ("미국"): a table keyed by them labels cases of the page's own topic (its partner universities by country).
_KO_COMMON_ENDING = re.compile(
    r"(?:신청|요청|인원|직원|회원|지원|교원|정원|연구|요구|도구|출구|입구|수시|정시|동시|표시|게시|장점|단점|시점|관점|"
    r"결국|^[가-힣]국)$"
)


#: Contact media a column may name two of ("Email / mobile"), and what each holds.
_MEDIA = {
    "email": "email", "e-mail": "email", "mail": "email", "이메일": "email", "메일": "email",
    "mobile": "phone", "mob": "phone", "phone": "phone", "tel": "phone", "telephone": "phone", "휴대폰": "phone",
    "전화": "phone", "전화번호": "phone", "핸드폰": "phone",
}  # fmt: skip


def _medium_of(column: str, cell: str) -> str:
    """The one medium of a column naming two that the cell holds: "Mobile" of "Email / mobile" for "07700 900861"
    (a row gives one or the other); the column as it is otherwise."""
    parts = [p for p in re.split(r"\s*(?:/|&|,|·|\band\b|\bor\b)\s*", column.strip()) if p]
    media = [_MEDIA.get(p.lower().rstrip(".")) for p in parts]
    if len(parts) < 2 or None in media:
        return column
    kind = contact_kind(cell)
    return next((p for p, m in zip(parts, media, strict=True) if m == kind), column)


def _join_label(row: str, column: str) -> str:
    """Row label + column header, without repeating a word the row already ends with, and without a generic amount
    column after a row that is itself a sum of money ("| 초등학생 | 학업장려금 | 금액 |": 초등학생 학업장려금, not
    "… 학업장려금 금액")."""
    if not row:
        return column
    if row.endswith(column) or (normalize(column) in _GENERIC_AMOUNT_COLUMNS and _KO_MONEY_NOUN.search(row)):
        return row
    return f"{row} {column}"


#: A Korean noun that names a sum of money or a fee by its last syllables: 장려금, 등록금, 생활비, 수강료, 특별장학.
_KO_MONEY_NOUN = re.compile(r"[가-힣](?:금|비|료|장학|수당)$")


@lru_cache(maxsize=4096)
def _qualified_column(column: str, heading: str | None) -> str:
    """A one-word English column with the word its section's heading qualifies it by: "Hours" under "## 5.
    Support hours and channels" is "Support hours" (a plan has no hours of its own; its support does). A Korean
    column takes it only from a heading that ends with the two: "시간" under "## 진료 시간" is "진료 시간"."""
    measure = _HEADING_MEASURE.search(strip_markup(heading or ""))
    if measure and normalize(column) in _GENERIC_AMOUNT_COLUMNS:
        # "| 사업 | 금액 |" under "## 2025년 예산 구성": each row's budget; under "## 투자 유치", its investment
        word = measure.group(0)
        return f"{word} 금액" if word in _KO_NOT_AMOUNTS else word.lower().removesuffix("s")
    if heading and re.fullmatch(r"[가-힣]{2,}", column):
        # "시간" under "## 진료 시간": the heading ends with the column and the word that qualifies it
        found = re.search(rf"(?:^|\s)([가-힣]{{2,}})\s+{re.escape(column)}$", strip_markup(heading).strip())
        return f"{found.group(1)} {column}" if found else column
    if not heading or not re.fullmatch(r"[A-Za-z]+", column):
        return column
    found = re.search(rf"\b([A-Za-z]{{3,}})\s+{re.escape(column)}\b", strip_markup(heading), re.I)
    if found is None or found.group(1).lower() in _NOT_QUALIFIERS:
        return column
    return f"{found.group(1).capitalize()} {column.lower()}"


#: Columns that say only that a cell is an amount ("금액", "Amount"); the heading may say what amount.
_GENERIC_AMOUNT_COLUMNS = frozenset("금액 액수 값 수치 amount value figure".split())
#: What a section's amounts are, as its heading names it: "2025년 예산 구성", "Revenue by segment".
_HEADING_MEASURE = re.compile(
    r"예산|매출액?|지출|수입|집행액|지원금|보조금|요금|비용|수수료|이용료|수강료|가격|투자|"
    r"\b(?:budget|revenue|spending|expenditure|income|funding|fees?|prices?|costs?)\b",
    re.I,
)
#: Heading words that say what the amounts are for without being amounts: "## 투자 유치" (investment raised).
_KO_NOT_AMOUNTS = frozenset({"투자"})
#: Words before a column's name in a heading that do not qualify it: "Prices and hours", "Our hours".
_NOT_QUALIFIERS = frozenset("and the our your their its for with per all other".split())

#: A code of capitals and digits naming one model, part or course ("ORV-R7", "AP-40", "KSI-6000"), not a period
#: ("FY2024", "Q3", "H1") or a size ("3XL").
_CODE_ROW = re.compile(r"(?!FY\d)[A-Z]{2,}[A-Z-]*\d[A-Z0-9-]*(?<!-)")

#: A code with capitalised words after it, a variant or a model's name: "KC-500 Mk2", "KC-720 Cargo", "ORV-R7 Lite".
_CODED_NAME = re.compile(_CODE_ROW.pattern + r"(?:\s+[A-Z][A-Za-z0-9-]*){1,3}")

#: A note before a table saying which variant its figures are for.
_VARIANT_NOTE = re.compile(
    r"\b(?:figures|values|specifications|specs|data|numbers|ratings)\s+(?:below|that follow|in (?:the|this) table)\s+"
    r"(?:are|apply)\s+(?:to|for)\s+(?:the\s+)?([A-Z][^,.;:()]{1,60}?)(?:\s*[,.;:(]|\s+(?:as|only|and)\b|$)"
    r"|아래\s*(?:수치|사양|표|값|가격)[은는]\s*(.{1,40}?)\s*기준",
)
#: Corner cells of a table whose columns are the things compared ("| Feature | One Series | Edge Series |").
_CORNER_WORDS = frozenset(
    "feature features spec specs specification specifications 항목 사양 기능 비교 비교항목 "
    "项目 规格 規格 仕様 項目".split()
)
#: Column headers that total or average the others, not a thing of their own.
_TOTAL_COLUMNS = frozenset("total totals overall average sum 합계 계 총계 평균 合计 总计 平均 合計".split())
#: Kinds of things a page compares column by column, as its headings name them ("Plans & Pricing", "요금제 비교").
_COMPARED_KIND = re.compile(
    r"\b(?:" + "|".join(f"{kind}s?" for kind in sorted(OFFER_KINDS)) + r")\b|요금제|플랜|등급|套餐|プラン", re.I
)
#: Korean kinds of service a first column names its rows by ("| 강좌명 | 요일 |" over "| 탁구 | 화·목 |").
_KO_SERVICE_KIND = re.compile("|".join(sorted(KO_SERVICE_KINDS, key=len, reverse=True)))
#: A first column naming the kind of its rows: "Plan", "Tier", "Vaccine", "Program", "강좌명".
_ROW_KIND = re.compile(
    _COMPARED_KIND.pattern
    + "|"
    + "|".join(rf"\b{kind}s?\b" for kind in sorted(SERVICE_KINDS))
    + f"|(?:{_KO_SERVICE_KIND.pattern})명?",
    re.I,
)
#: Column headers of record numbers: "Store ID", "Flight No.", "Order #", "접수 번호".
_RECORD_NUMBER = re.compile(r"\b(?:id|no|nr|number|num)\b|#|번호|编号|番号", re.I)
#: Column headers of the codes things are sold or known by ("Model No.", "Part number", "모델 번호").
_MODEL_COLUMN = re.compile(r"model|product|part|모델|제품|型号|型番", re.I)


#: The header of a column of codes that number rows for a register: "Code", "course_code", "Ref", "SKU", "코드".
_CODE_COLUMN = re.compile(r"(?:^|[\s_])(?:code|ref|id|sku)$|코드$|代码$|コード$", re.I)
#: The longest code of a row, and the most words a name of a row's thing has.
_CODE_CHARS = 12
_NAME_WORDS = 8


def _coded_rows(header: list[str], body: list[tuple[int, int, list[str]]]) -> bool:
    """Whether a table's first column is a register's codes ("Code", "course_code": "BW-TUE", "SP25-W") and its
    second names each row's thing ("Beginners Wheel"): people ask about the class, not its code. A model's code
    ("Model": "BL-900") is a name people use, and stays."""
    column = normalize(header[0])
    if len(header) < 3 or not _CODE_COLUMN.search(column) or _MODEL_COLUMN.search(column):
        return False
    rows = [cells for _, _, cells in body if cells]
    return len(rows) >= 2 and all(
        len(cells) > 1
        and 0 < len(cells[0].strip()) <= _CODE_CHARS
        and " " not in cells[0].strip()
        and re.search(r"[^\W\d_]", cells[1]) is not None
        and not _wholly_a_value(cells[1])  # "2024-03-01", "3 kg" name nothing; "1종 평일반" does
        and not _CODE_ROW.fullmatch(cells[1].strip())  # "| Loan ID | Asset tag |": a second code names no thing
        and len(cells[1].split()) <= _NAME_WORDS
        for cells in rows
    )


#: A list letter opening a Korean row's name: "A. 라이트", "B) 스탠다드".
_ROW_LETTER = re.compile(r"^[A-Z][.)]\s+(?=[가-힣])")
#: A cell left blank in words: a dash, a dot, "n/a", "tbc".
_PLACEHOLDER_CELL = re.compile(r"[-–—·.…/\s]+|n/?a|tb[cd]", re.I)


def _wholly_a_value(cell: str) -> bool:
    """Whether a cell is a date, an amount or a number and nothing else."""
    text = cell.strip()
    return bool(re.match(r"\d", text)) and any(v.text.strip() == text for v in find_values(text))


def _not_the_rows(header: list[str], col: int, led: bool) -> bool:
    """Whether a column's cells are no values of their row's own thing."""
    if normalize(header[0]) in _PLACE_COLUMNS and _WHEREABOUTS.search(header[col]):
        return True  # "the address of Chattogram" is the address of a branch in Chattogram
    if led and normalize(header[col]) in _POST_COLUMNS:
        return True  # the rank of a unit's leader, not of the unit
    # "| Item | Unit | Price |": "per month" is the price's, no value of the row's own
    return normalize(header[col]) in _UNIT_COLUMNS_ALONE


def _keyed_by_name(
    header: list[str], body: list[tuple[int, int, list[str]]]
) -> tuple[list[str], list[tuple[int, int, list[str]]]]:
    """A table's columns with the one that names its rows first: a row's number ("| No | 도서명 |" over "| 5 | 소리를
    모으는 사람 |") names nothing, and in a staff list keyed by post ("| 직위 | 이름 |" over "| 조리원 | 정순자 |")
    the person is the row's subject, the post one of her values."""
    numbered = all(not cells or re.fullmatch(r"\d{0,3}\.?", cells[0].strip()) for _, _, cells in body)
    if normalize(header[0]) in _INDEX_COLUMNS and len(header) > 2 and numbered:
        header, body = header[1:], [(s, e, cells[1:]) for s, e, cells in body]
    if _coded_rows(header, body):
        # "| Code | Class |" over "| BW-TUE | Beginners Wheel |": the class is what people ask about, its code one of
        # its values
        order = [1, 0, *range(2, len(header))]
        header = [header[j] for j in order]
        body = [(s, e, [cells[j] if j < len(cells) else "" for j in order]) for s, e, cells in body]
        # two classes a note tells apart ("Beginners Wheel", "Beginners Wheel (daytime)") are one name to a question:
        # neither row is asked about
        names: dict[str, set[str]] = defaultdict(set)
        for _, _, cells in body:
            if cells:
                names[normalize(without_parentheticals(cells[0]))].add(cells[0].strip())
        body = [row for row in body if row[2] and len(names[normalize(without_parentheticals(row[2][0]))]) == 1]
    first = normalize(header[0])
    # a staff list sorted by unit ("| 부서 | 직위 | 이름 |" over "| 하나로마트 본점 | 점장 | 최동민 |") is keyed by the
    # person too: a unit has no post, and a unit of two people would be two rows of one name
    by_unit = first in _UNIT_COLUMNS and any(normalize(h) in _POST_COLUMNS for h in header[1:])
    if first in _POST_COLUMNS or by_unit:
        named = next((j for j, h in enumerate(header) if j and normalize(h) in _PERSON_COLUMNS), None)
        if named is not None:
            order = [named, *(j for j in range(len(header)) if j != named)]
            header = [header[j] for j in order]
            body = [(s, e, [cells[j] if j < len(cells) else "" for j in order]) for s, e, cells in body]
            # a row of several people ("| 감사 | 윤재복, 남궁현 |", "최병두 외 8명") is no one person's
            body = [row for row in body if not (row[2] and _SEVERAL_PEOPLE.search(row[2][0]))]
    return header, body


#: A figure with a bound after it: "50,000 이상", "3 미만" (the figure, then the bound).
BOUNDED_FIGURE = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(이상|이하|미만|초과)(?!\S)")


def _unless_numbering(typed: ValueSpan | None, column: str) -> ValueSpan | None:
    """A cell's typed value, or None (its text) for a bare number under a column that numbers rooms, gates or
    lines: "| Room | 1.30 |", "| 내선 | 1121 |" name something, no amount to compare or add."""
    return None if typed is not None and _is_bare(typed) and _NUMBERING.search(column) else typed


def _led_by_a_person(header: list[str], body: list[tuple[int, int, list[str]]]) -> bool:
    """Whether a table's rows are units, each with a column naming the person who leads it ("| 조직 | 리더 | 직급 |"
    over "| 인사팀 | 김하늘 | 차장 |"): its rank column is then the leader's, not the team's."""
    people = [
        sum(ko.is_person_name(cells[j]) or is_en_person_name(cells[j]) for _, _, cells in body if j < len(cells)) * 2
        > len(body)
        for j in range(len(header))
    ]
    return not people[0] and any(
        named and normalize(header[j]) in _PERSON_COLUMNS | _LEADER_COLUMNS for j, named in enumerate(people) if j
    )


def _row_names_entity(row: str, known: frozenset[str], column: str = "") -> bool:
    """Whether a table's row header (under `column`) names a thing (a branch, a product) rather than labels a case."""
    if normalize(row) in known:
        return True
    if normalize(row) in _TOTAL_COLUMNS:
        return False  # "| **Total** | 1,284 | 100% |": the rows above summed, not a thing
    if DAYS.match(normalize(row)) or normalize(row) in _TIMES_OF_DAY:
        return False  # "Saturday and Sunday", "평일", "Morning": a row of opening hours or slots, not a thing
    if normalize(column) in _TITLE_COLUMNS and len(row) <= _MAX_TITLE_CELL and re.search(r"[^\W\d_]", row):
        return True  # "| 도서명 | 저자 |" over "| 바다의 문법 | 김하람 |": a title names its work, however it reads
    if (
        _KO_NAME_COLUMN.fullmatch(normalize(column))
        and len(row) <= _MAX_TITLE_CELL
        and re.search(r"[^\W\d_]", row)
        and not re.search(r"[()（）~%:/]", row)
    ):
        # "| 대회명 | 기간 |" over "| 서부리틀연맹 추계리그 | … |": a column of names names each row; "뷔페 (소인
        # 4~12세)" is a case of one
        return True
    if _CODE_ROW.fullmatch(row.strip()) or _CODED_NAME.fullmatch(row.strip()):
        # a model or standard's code names it ("ORV-R7", "KSI-6000", "ADGS-1"); a record's number under "Store ID"
        # or "Flight No." does not: people ask for the store in Kochi, not for VL-005
        return not _RECORD_NUMBER.search(column) or _MODEL_COLUMN.search(column) is not None  # "Model No." names
    if re.search(r"[\d()~%:/]", row):
        return False  # "1인실 추가 요금 (1박)", "출발 29일~20일 전", "Hotel (standard cities)"
    if re.search(r"[가-힣]", row):
        if normalize(column) in _PERSON_COLUMNS and ko.is_person_name(row) and not re.search(r"[,·/]", row):
            return True  # "| 이름 | 직위 |" over "| 문경호 | 대표세무사 |": a person
        if _KO_ORG_COLUMN.search(normalize(column)) and len(row) <= 12 and " " not in row.strip():
            return True  # "| 보험사 | 구분 |" over "| 푸른해상화재 | 손해보험 |": a company, named
        suffix = _KO_NAME_SUFFIX.search(row)
        # "병원", "센터" alone (a group of customers, a kind of place) is the kind a name ends with, not a name
        # 시 and 원 need a name of two syllables before them: "수원시", not "택시"; "연구원", not "직원" or "회원"
        least = 2 if suffix is not None and suffix.group() in ("시", "원") else 1
        return suffix is not None and suffix.start() >= least and not _KO_COMMON_ENDING.search(row)
    words = [w for w in row.split() if w.lower() not in {"of", "the", "and", "&", "for", "de"}]
    # every part capitalised, past hyphens too: "Rolls-Royce" names a thing, "Out-of-state" and "Blu-rays" label cases
    return bool(words) and all(part[:1].isupper() or part[:1].isdigit() for w in words for part in w.split("-") if part)


#: Column headers whose numbers name a room, gate or line rather than measure anything.
_NUMBERING = re.compile(
    r"^(?:room|rooms|gate|platform|suite|office|bay|desk|berth|stand|terminal|floor|level|ward|locker|flight|"
    r"ext\.?|extension|room no\.?|room number)$|호실|내선|편명|게이트|승강장|^층$",
    re.I,
)
#: Column headers of the unit a row's price or amount is per: asked alone ("the joining fee's unit") they ask nothing.
_UNIT_COLUMNS_ALONE = frozenset("unit units per basis 단위 과금단위 기준단위 单位 単位".split())
#: Row heads that gather the rest of a table: no name to ask a question by.
_OTHER_ROWS = frozenset("기타 그외 그 외 other others misc miscellaneous etc 其他 その他".split()) | {"그 외"}
#: Column headers of a row's number, which names nothing.
_INDEX_COLUMNS = frozenset("no no. # nr nr. 번호 순번 연번 序号 番号 编号 №".split())
#: Column headers of the post a row's person holds.
_POST_COLUMNS = frozenset("직위 직책 직급 직함 역할 position role post 职位 職位 役職".split()) | {"job title"}
#: Column headers of an action list ("| # | Action | Owner | Due |"): a task is no thing, asked "X's owner" it is
#: a pasted cell.
_TASK_COLUMNS = frozenset("action actions task tasks to-do todo 할일 조치 조치사항 과제 액션 待办 任务".split()) | {
    "할 일",
    "조치 사항",
    "action item",
    "action items",
}
#: Column headers of the place a row stands for ("| City | Address |" over "| Sylhet | 15 Zindabazar |"): its address
#: or telephone is of a branch there, not of the city.
_PLACE_COLUMNS = frozenset(
    "city cities town region area district country state province 도시 지역 시도 지방 城市 地区".split()
)
_WHEREABOUTS = re.compile(
    r"address|location|phone|tel\b|contact|e-?mail|주소|위치|소재지|전화|연락처|地址|电话|住所|電話", re.I
)
#: Column headers of a table's first column whose rows are the steps of a process, not things.
_STEP_COLUMNS = frozenset("stage stages step steps phase phases 단계 절차 순서 阶段 步骤 段階 ステップ".split())
#: Column headers over the titles of works or the proper names of places: every row names one ("Title" in English
#: is as often a job title).
_TITLE_COLUMNS = frozenset("도서명 서명 제목 작품명 공연명 명칭 书名 书名称 タイトル 書名 作品名".split()) | {
    "book title"
}
_MAX_TITLE_CELL = 40
#: Korean column headers of a thing's name: a kind of two syllables or more and 명 ("대회명", "프로그램명"; not "설명").
_KO_NAME_COLUMN = re.compile(r"[가-힣]{2,5}명")

#: Column headers of a table's first column that names people ("| 이름 | 직위 |").
_PERSON_COLUMNS = frozenset("이름 성명 직원 직원명 구성원 담당자 name names 姓名 氏名 名前".split())
#: First-column headers whose rows are organisations by name: 보험사, 협력사, 거래처, 고객사, 업체, 기관.
_KO_ORG_COLUMN = re.compile(
    r"^(?:보험사|협력사|거래처|고객사|파트너사|제휴사|업체|업체명|회사|회사명|기관|기관명|은행)$"
)
#: Kinds of place or unit a name may end with: "… Centre", "… Unit", "… Suite".
_PLACE_KINDS = frozenset(
    "centre center unit service team office lab laboratory department ward line suite studio apartment cabin "
    "dormitory".split()
)
#: The last word of a name that already says what kind of thing it is: "… Centre", "… Unit", "… Service".
_OWN_KIND_END = re.compile(
    rf"\b(?:{'|'.join(sorted(SERVICE_KINDS | _PLACE_KINDS))})s?$",
    re.I,
)
#: Rows that name a part of the day ("| Morning | 9:00–12:00 |" of delivery slots): a time, not a thing.
_TIMES_OF_DAY = frozenset("morning afternoon evening night midday noon overnight 오전 오후 저녁 야간 새벽 점심".split())
#: A row naming people, not a thing of its table's kind: "셔틀버스 이용객", "현장 방문객", "Walk-in visitors".
_PEOPLE_ROW = re.compile(
    r"(?:이용객|방문객|관람객|관광객|이용자|참가자|참여자|입장객|탑승객)$|\b(?:visitors|users|attendees|riders)$", re.I
)
#: Column headers of the person who leads a row's unit ("| 조직 | 리더 | 직급 |").
_LEADER_COLUMNS = frozenset("리더 책임자 팀장 부서장 본부장 leader head lead manager".split())
#: A cell naming several people: "윤재복, 남궁현", "최병두 외 8명", "Ana Ruiz and Ben Cole".
_SEVERAL_PEOPLE = re.compile(r"[,，、;/]|\s외\s|\s(?:and|&)\s|\s및\s")
#: Column headers of the unit a staff list's person works in.
_UNIT_COLUMNS = frozenset("부서 소속 부서명 팀 지점 department dept team unit branch 部门 部署 所属".split())

#: Column headers of a table's first column that sort its rows into groups ("분류", "Category"), not name them.
_GROUP_COLUMNS = frozenset(
    "category categories type group class 분류 구분 종류 유형 카테고리 类别 分类 类型 分類 種類 区分".split()
)


#: Rows whose item repeats, as a share (one in this many) above which every row is named with its group.
_GROUPED_SHARE = 3
#: Column headers of the column that names a table's rows within their group ("항목", "Item").
_ITEM_COLUMNS = frozenset("item items name names 항목 품목 명칭 이름 내역 项目 名称 品目 項目".split())


def _named_by_item(
    header: list[str], body: list[tuple[int, int, list[str]]]
) -> tuple[list[str], list[tuple[int, int, list[str]]]] | None:
    """The table read with one column fewer when its first column only sorts the rows into groups ("분류": 제증명,
    제증명, 검사, …; a blank cell carries the group above) and its second names them, or None.

    A row is named by its item ("| 제증명 | 일반진단서 | 20,000 |": 일반진단서), or by group and item when its item
    repeats across groups under an item column ("| 초등학생 | 학업장려금 | 300,000원 |", "| 중학생 | 학업장려금 |
    …": 초등학생 학업장려금)."""
    if len(header) < 3 or normalize(header[0]) not in _GROUP_COLUMNS:
        return None
    rows: list[tuple[int, int, str, list[str]]] = []
    group = ""
    for start, end, cells in body:
        if len(cells) >= 3:
            group = cells[0] or group
            rows.append((start, end, group, cells))
    groups = [g for _, _, g, _ in rows if g]
    items = [cells[1] for _, _, _, cells in rows if cells[1]]
    if normalize(header[1]) in _ITEM_COLUMNS and len(set(items)) < len(items):
        # where most items repeat, the group is part of every row's name ("대학생 생활비" beside "대학생 등록금"); on a
        # long menu where a few do, only those need it ("Shakes Milkshake"): "Brownie Sundae" is the only one
        counts = Counter(items)
        repeated = {item for item, n in counts.items() if n > 1}
        grouped = sum(counts[item] for item in repeated) * _GROUPED_SHARE >= len(items)
        named = [
            (
                s,
                e,
                [_group_item(g, cells[1]) if grouped or cells[1] in repeated or not cells[1] else cells[1], *cells[2:]],
            )
            for s, e, g, cells in rows
        ]
    elif len(set(groups)) < len(groups):
        named = [(s, e, cells[1:]) for s, e, _, cells in rows]
    else:
        return None
    return header[1:], named


def _column_unit(column: str) -> tuple[str, str]:
    """A column's name and the unit its header gives its bare numbers: "Weight (kg)" → ("Weight", "kg"), "인원(명)"
    → ("인원", "명"); a unit a number cannot simply take ("Price (USD)") or a note that is no unit stays in the
    name, with no unit."""
    found = _QUALIFIED_KEY.match(column.strip())
    sign = re.fullmatch(r"(.*\w)\s+([£$€¥₩₹])", column.strip())
    if found is None and sign is not None:  # "Price £": a currency sign after the name, read as "Price (£)"
        return f"{sign.group(1)} ({sign.group(2)})", ""
    if found is None:
        return column, ""
    unit = _attachable_unit(found.group(2))
    return (found.group(1), unit) if unit else (column, "")


def _group_item(group: str, item: str) -> str:
    """A row's name from its group and item, the kind last as Korean puts it: "초등학생 학업장려금", but "예체능
    특별장학" for "| 특별장학 | 예체능 |" (the group is the scholarship, the item its field)."""
    if group and item and _KO_MONEY_NOUN.search(group) and not _KO_MONEY_NOUN.search(item):
        return f"{item} {group}"
    return " ".join(p for p in (group, item) if p)


def _attachable_unit(unit: str) -> str:
    """The unit of a note as bare numbers take it in an answer ("원", "%", "명", "円"), or "" when a number cannot
    simply be written with it: "억원" scales the number, "USD" is no suffix."""
    unit = unit.strip()
    typed = classify_value("1" + unit) if unit else None
    if typed is None or typed.number != 1 or typed.unit != unit:
        return ""
    if typed.value_type not in ("money", "percent", "number"):
        return ""
    return unit


def _period(heading: str | None) -> str | None:
    """The year a section heading dates its table to ("2025년 예산 구성" → "2025년", "FY2024 Results" → "FY2024",
    "Faculty Recognition (2023–2024)" → "2023–2024"), or None."""
    if _AS_OF.search(heading or ""):
        return None  # "구성원 (2025년 7월 기준)": the table is current as of a date, not about that year
    found = _HEADING_PERIOD.search(heading or "")
    return found.group(0).strip() if found else None


_AS_OF = re.compile(r"기준|현재|\bas (?:of|at)\b|時点|截至", re.I)


_HEADING_PERIOD = re.compile(
    r"(?<![\w.\-/])(?:FY\s?\d{2,4}|(?:19|20)\d\d(?:\s?[–~-]\s?(?:19|20)?\d\d)?(?:년도?)?)(?![\w.\-/–~])"
)


#: Labels of a telephone number, and a fax number written after one.
_PHONE_KEY = re.compile(r"전화|대표번호|phone|tel\b", re.I)
_FAX_AFTER = re.compile(r"\s*[/,|·]\s*(?:팩스|fax|F)\s*[.:：]?\s*[+\d(].*$", re.I)
#: A footnote mark closing a row's name: "Blossom Saison*", "Pro Plan†".
_FOOTNOTE_MARK = re.compile(r"(?<=\w)\s?(?:\*{1,2}|†|‡)$")
#: Labels of where something is: a number in the value ("… 걸어서 6분", "Gate 4") is part of the place.
_PLACE_KEY = re.compile(r"주소|소재지|위치|찾아오시는|오시는 길|address|location|directions", re.I)


def _kind_word(word: str) -> str:
    """A kind of offer as a name's last word: "Plans" → "Plan", "요금제" as it is."""
    word = word.strip()
    if re.fullmatch(f"(?:{_KO_SERVICE_KIND.pattern})명", word):
        return word[:-1]  # "강좌명": the rows are 강좌
    return word.lower().removesuffix("s").title() if word.isascii() else word


def _bare_word(name: str, known: frozenset[str]) -> bool:
    """Whether a name is one plain word ("Team", "베이직"), which says what it is only with a kind beside it."""
    return len(name.split()) == 1 and not _CODE_ROW.fullmatch(name) and normalize(name) not in known


def _with_kind(name: str, kind: str, known: frozenset[str]) -> str:
    """A plan's or tier's name with its kind: "Team" with "Plan" → "Team Plan"; a name that already ends with the
    kind, or that is longer than one word, as it is; "" when the cell is no name ("Total", "1–5 users")."""
    cjk_name = is_cjk(name) and len(name) <= 10 and not re.search(r"[\d()~%:/]", name)  # "베이직" under "요금제"
    if not (cjk_name or _row_names_entity(name, known)) or normalize(name) in _TOTAL_COLUMNS:
        return ""
    if _PEOPLE_ROW.search(name):
        return ""  # "| 셔틀버스 이용객 | 28,100 |" under "프로그램": the people counted, no programme
    own = normalize(name)
    if own.endswith(normalize(kind)) or re.search(rf"(?<!\w){re.escape(normalize(kind))}(?!\w)", own):
        return name  # "돌고래반" under "반"; "Rehearsal Room B" under "Room": the kind is in the name already
    # "Respiratory and COPD" under "Clinic" is the Respiratory and COPD Clinic; a name ending in a kind of its own
    # ("Diabetes Education Centre") or an offer's longer name ("Pro Max" under "Plan") stays as it is
    served = kind.lower() in SERVICE_KINDS and not _OWN_KIND_END.search(name)
    if not (_bare_word(name, known) or _KO_SERVICE_KIND.fullmatch(kind) or served):
        return name
    if not is_cjk(kind) and re.fullmatch(r"[A-Z0-9]{1,2}", name.strip()):
        return f"{kind} {name}"  # "A" under "Course" is Course A, as people say it, not "the A Course"
    return f"{name} {kind}"  # "탁구" under "강좌명" is the 탁구 강좌, "성인 초급 A" the 성인 초급 A 강좌


def _nth_cell_start(line: str, col: int) -> int:
    """Where cell `col` (0 = the row's head) starts in a markdown table row; 0 when the row has fewer cells."""
    bars = [i for i, ch in enumerate(line) if ch == "|"]
    if not line.lstrip().startswith("|"):
        bars = [-1, *bars]  # "a | b": the first cell starts the line
    return bars[col] + 1 if col < len(bars) else 0


def row_in_label(fact: FactNode) -> str | None:
    """The row label a table fact's attribute starts with ("경영진" of "경영진 주요 업무", "점심시간" of "점심시간
    진료시간": `_join_label` wrote the row before its column), or None."""
    if fact.source != "table":
        return None
    first = table_cells(fact.evidence)[0].strip(" *")
    if first and fact.attribute.startswith(first + " ") and len(fact.attribute) > len(first) + 1:
        return first
    return None


def row_label(fact: FactNode) -> str:
    """The first cell of a table fact's own row as it reads ("Essential" of "| **Essential** | 6.15 kW |"), or ""
    when the fact is not from a table or the cell names nothing (a number, one or two characters)."""
    cells = table_cells(fact.evidence) if fact.source == "table" else []
    label = cells[0].strip(" *_") if cells else ""
    return "" if len(label) < _ROW_LABEL_CHARS or label[:1].isdigit() else label


_ROW_LABEL_CHARS = 3


def table_top(lines: list[str], index: int) -> int:
    """The index of the first row (the header) of the markdown table that row `index` of `lines` is in."""
    top = index
    while top > 0 and lines[top - 1].lstrip().startswith("|"):
        top -= 1
    return top


def table_cells(line: str) -> list[str]:
    """The cells of a markdown table row, stripped: "| Adult | $1,290 |" → ["Adult", "$1,290"]."""
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    return [c.strip() for c in inner.split("|")]


#: A key that names who spoke, in minutes or a report of a meeting: "탁현오 이사", "사무국장 설명", "Dr. Lee",
#: "Trustee Alvarez".
_SPEAKER = re.compile(
    r"[가-힣]{2,4}\s*(?:이사장|이사|감사|사무국장|사무총장|국장|본부장|팀장|과장|부장|실장|위원장|위원|대표|주임|관장|원장|"
    r"시장|의원|교수|회장|사장|씨)|(?:[가-힣]{2,5}\s)?[가-힣]{2,5}\s*(?:설명|발언|의견|답변|질의|보고)"
    r"|(?:Mr|Mrs|Ms|Dr|Prof|Cllr|Councillor|Councilor|Trustee|Director|Commissioner|Chair|Chairman|Chairwoman)\.?"
    r"\s+[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?"
)
#: A word with its particle before the next word of a clause: "대표이사에게 보고" (not "정형외과 (본관 3층)", whose
#: 과 ends a name, nor "누리로 45", a road and its number).
_KO_PARTICLE_WORD = re.compile(
    r"[가-힣](?:은|는|이|가|을|를|에|에서|에게|께|한테|와|과|도)\s+(?=[가-힣\w])|[가-힣](?:으로|로)\s+(?=[가-힣A-Za-z])"
)
_KO_PREDICATE_END = re.compile(r"(다|요|니다|음|함|됨|임)\.?$")


def _is_sentence(text: str) -> bool:
    """A clause with grammar around its value ("Client shall pay $10,000 per month"), not a name that
    happens to hold a number ("Aurora Ridge 700", "다낭 가족 리조트 4박 5일")."""
    if re.search(r"[가-힣]", text):
        return bool(_KO_PARTICLE_WORD.search(text) or _KO_PREDICATE_END.search(text))
    lower = [w for w in re.findall(r"[A-Za-z]+", text) if w.islower() and len(w) > 2]
    return len(text.split()) > 4 and len(lower) >= 2


def _looks_like_event(text: str) -> bool:
    """Whether a timeline entry describes something happening (a verb) rather than naming a label."""
    if re.search(r"[가-힣]", text):
        return True  # Korean entries ("부산 지점 개설") are events; the question rules decide the form
    words = re.findall(r"[A-Za-z][A-Za-z-]*", text)
    return any(base_form(w.split("-")[-1]) is not None for w in words[:4])


def _is_bare(value: ValueSpan) -> bool:
    return value.value_type == "number" and value.unit is None


#: A row giving the name of what a page introduces: "| 학원명 | 한결수학영어학원 |", "- Company name: Orbit Labs Ltd".
_NAME_ROW = re.compile(
    r"(?:학원|병원|의원|회사|기관|단체|법인|업체|시설|캠핑장|센터|학교|도서관|매장|점포|가게|농장|상호|재단|협회)명|상호|"
    r"정식\s?명칭|명칭|(?:official|legal|registered|trading|company|business|organi[sz]ation)\s+name",
    re.I,
)


def _own_name_row(doc: Document, facts: list[FactNode]) -> FactNode | None:
    """The fact naming what a page titled by its kind ("학원 소개", "About us") introduces ("| 학원명 |
    한결수학영어학원 |"), or None."""
    title = introduced_name(short_title(doc.title))
    if not (is_generic_title(doc.title) or page_kind_title(title) or "kind" in name_problems(title)):
        return None
    return next(
        (
            f
            for f in facts
            if f.subject == doc.title
            and _NAME_ROW.fullmatch(f.attribute.strip(" *:"))
            and is_usable_name(f.value)
            and without_trailing_note(f.value) == f.value
        ),
        None,
    )


def mine_document(
    doc: Document,
    chunks: list[Chunk],
    known_names: frozenset[str] = frozenset(),
    *,
    progress: Callable[[int, int], None] | None = None,
    split: bool = False,
) -> MinedDocument:
    """Every fact the structure of `doc` states; `known_names` (normalised) lets headings name entities.

    ``progress(done, total)``, when given, is called with the characters mined so far and the document's
    length: at the start, every few thousand lines and at the end (for a bar on a large document). With `split`,
    a document of `SPLIT_DOCUMENT` characters or more is mined in two processes where the platform can fork (see
    `_Miner.run_split`): only for a caller that runs in its own process, not in an engine's worker."""
    miner = _Miner(doc, chunks, known_names, progress)
    if split and len(doc.text) >= SPLIT_DOCUMENT and hasattr(os, "fork"):
        return miner.run_split()
    return miner.run()
