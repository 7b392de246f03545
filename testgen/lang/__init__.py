"""Language rules: detection, Korean particles, English phrasing, and words that mark generic headings."""

from __future__ import annotations

import re
from typing import Literal

#: Headings that name a section, not a thing: never used as the subject of a fact.
GENERIC_HEADINGS = frozenset(
    """summary overview details detail specifications specification specs pricing price prices features
    feature terms term renewal support about introduction background history timeline notes note contact
    contacts faq faqs key facts information info general description profile career history experience
    education skills responsibilities highlights performance compensation benefits policy policies
    overview culture values mission vision team teams organization organisation structure products product
    services service clients client customers contracts contract agreement scope payment schedule
    conditions condition appendix references reference glossary metrics results status roadmap
    company corporate other hr annual
    개요 요약 주요 정보 상세 소개 연혁 경력 이력 학력 일정 요금 가격 조건 계약 규정 정책 특징 기능 문의
    참고 비고 현황 구성 조직 성과 평가 보상 내역 담당 세부 사항 기본 회사 상품 직원 목차
    지점 부서 인원 안내 목록""".split()
)


#: Kinds of offer a name ends in, or a page compares ("Team Plan", "Pro Edition", "Plans & Pricing"): the words
#: before the kind are the offer's name, and the offer takes "the".
OFFER_KINDS = frozenset("plan tier edition package bundle membership subscription".split())
#: Kinds of service a first column can name its rows by ("| Vaccine | Price |" over "| Lyme | $34 |": the Lyme
#: Vaccine, not "Lyme", a disease).
SERVICE_KINDS = frozenset("vaccine course class workshop program programme route clinic room".split())
#: The Korean kinds of course, class or route a name ends with ("탁구 강좌", "박사 과정", "당진 ↔ 천안 노선") or a
#: first column names ("| 강좌명 | 요일 |").
KO_SERVICE_KINDS = frozenset("강좌 프로그램 교실 과정 코스 반 노선".split())


#: Titles of pages that set rules: their facts are what the rules say (an FAQ restates them without naming the
#: page; a question asks "…정책에 따른 …", not "…정책의 …").
RULE_PAGE = re.compile(
    r"\b(?:polic(?:y|ies)|procedures?|regulations?|rules|terms|guidelines?)\b|규정|정책|약관|지침|방침|규칙|수칙|준칙|회칙|정관|내규|세칙|"
    r"政策|规定|条款|規程|規定",
    re.I,
)


ValueKind = Literal["person", "date", "amount", "count", "place", "duration", "percent", "quantity", "detail", "other"]
"""What a value is, as far as the question word is concerned: each language maps every kind to its question
word in one table (`testgen.synth.phrasing.en.WH`, `testgen.synth.phrasing.ko.WH`). ``quantity`` is a measured
number without a counter (500 Wh, 25 km/h); ``detail`` a text value that states a condition with numbers
("within 4 business hours")."""

_CONTACT = re.compile(
    r"@|https?://|www\.|(?<![\d.])(?!(?:19|20)?\d\d\.\s?\d{1,2}\.\s?\d{1,2}\b)\+?\d[\d\s().-]{6,}\d|"
    r"\b\d{2,4}-\d{3,4}-\d{4}\b",
)


def is_contact_value(value: str) -> bool:
    """Whether a value is a phone number, an e-mail address or a web address: never a person, whatever its
    label says ("Contact: +1 555 0100")."""
    return bool(_CONTACT.search(value))


#: A telephone number inside a line, whatever its separators ("(970) 555-0182", "031)206-4417"), and the fewest
#: digits one has.
PHONE_RUN = re.compile(r"(?<![\d-])\+?\(?\d[\d\s().-]{6,}\d(?![\d-])")
PHONE_DIGITS = 8
#: A telephone extension: "ext. 102", "x204", "내선 3320".
EXTENSION = r"(?:ext\.?|extension|x|내선|内線|分机)\s*\d{1,5}"

ContactKind = Literal["email", "web", "phone"]
_WHOLE_CONTACT: tuple[tuple[ContactKind, re.Pattern[str]], ...] = (
    ("email", re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")),
    ("web", re.compile(r"(?:https?://|www\.)\S+")),
    ("phone", re.compile(r"[+(]?\d[\d\s().-]{6,}\d")),
)


def contact_kind(value: str) -> ContactKind | None:
    """What a value is when it is nothing but an address or a number: "email" for "amira.haddad@example.org",
    "web", "phone" for "+44 1632 960 123"; None for anything else ("via the office", "Call 555 0100 after 6")."""
    text = value.strip()
    return next((kind for kind, pattern in _WHOLE_CONTACT if pattern.fullmatch(text)), None)


# Days, a range or a list of them ("Saturday and Sunday", "Mon–Fri", "일요일 및 공휴일", "평일"): a row of an
# opening-hours table, never a property of anything.
_DAY = (
    r"(?:mon|tues?|wed(?:nes)?|thu(?:rs)?|fri|sat(?:ur)?|sun)(?:day)?s?|weekdays?|weekends?|"
    r"(?:public |bank )?holidays?|[월화수목금토일](?:요일)?|평일|주말|공휴일|휴일|명절"
)
#: A label or row made only of days.
DAYS = re.compile(rf"^(?:{_DAY})(?:\s*(?:,|and|&|및|·|/|~|-|–|to|through)?\s*(?:{_DAY}))*\.?$", re.I)
