"""Attribute labels that are not attributes: a cell, a time slot or a note column pasted where a question needs
the name of a property.

* **pasted_label** — the label holds a value of its own (a time ``10:30``, a date or a month alone ``11월`` /
  ``November``, an amount ``($1M-5M)``, an e-mail, a web address, a code ``VL-008``) or is too long to be a
  label (a row's full text); asked as "X's <label>", it names no property a user would ask about.
  A digit anywhere in a label marks a row or variant name pasted in front of the column ("standard 42mm battery
  life", "9 address"); a label cut at a preposition ("valid through") is a clause, not a property.
* **opaque_label** — a column that only says "more text here" (``Notes``, ``비고``, ``Description``,
  ``Details``, ``기타``): the answer is whatever the cell held, and the question does not say what is asked.
"""

from __future__ import annotations

import re

from testgen.kg.values import find_values
from testgen.text import is_cjk, normalize

_MONTH = re.compile(
    r"^(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|"
    r"oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|\d{1,2}\s*월|\d{1,2}\s*月|q[1-4]|[1-4]분기|spring|summer|autumn|"
    r"fall|winter|봄|여름|가을|겨울|mon(?:day)?|tue(?:sday)?|wed(?:nesday)?|thu(?:rsday)?|fri(?:day)?|"
    r"sat(?:urday)?|sun(?:day)?|[월화수목금토일]요일)\.?$",
    re.I,
)
_TIME = re.compile(r"\d{1,2}[:시]\s?\d{2}|\b\d{1,2}\s?(?:am|pm)\b|오전|오후", re.I)
_CODE = re.compile(r"\b[A-Z]{1,5}-?\d{2,}[A-Z]?\b|\b\d{3,}-\d{2,}")
_CONTACT = re.compile(r"@|https?://|www\.|\.(?:com|org|net|io|kr|jp|cn)\b", re.I)
_MONEY_RANGE = re.compile(r"[$€£¥₩]\s?\d|\d\s?(?:[kmb]|bn|만|억|千|万)\b", re.I)
_OPAQUE = frozenset(
    """note notes remark remarks comment comments description descriptions detail details other others misc
    miscellaneous etc info information additional additional info extra content contents text value values
    비고 기타 설명 내용 참고 참조 상세 세부 세부사항 세부내용 특이사항 메모 추가 추가정보 정보 값
    备注 其他 说明 内容 详情 其它 備考 その他 説明 内容 詳細 メモ""".split()
)
_DANGLING = re.compile(r"\b(?:through|until|till|by|from|to|of|for|with|in|on|at|as|per|than|and|or)$")
MAX_LABEL_WORDS = 5
_NOUNS_LIKE_ADJECTIVES = frozenset(
    "table cable timetable variable deliverable deliverables receivable payable vegetable stable bible wireless "
    "turntable constable".split()
)
MAX_CJK_LABEL_CHARS = 16


def pasted_label(attribute: str) -> str | None:
    """Why `attribute` is a pasted value rather than a property label, or None when it reads as a label."""
    label = attribute.strip()
    norm = normalize(label)
    if not norm:
        return "empty label"
    if _MONTH.match(norm):
        return "a month, day or season as the label"
    if _TIME.search(label):
        return "a time of day in the label"
    if _CONTACT.search(label):
        return "an address in the label"
    if _CODE.search(label):
        return "a code in the label"
    if _MONEY_RANGE.search(label):
        return "an amount in the label"
    if any(v.value_type in ("date", "money") for v in find_values(label)):
        return "a date or amount in the label"
    if re.search(r"\d", label):
        return "a number in the label (a row or variant name, not a property)"
    if len(re.findall(r"[^\W\d_]", label)) < 2:
        return "a one-letter label"
    words = label.split()
    if len(words) == 1 and re.fullmatch(r"[A-Z]{1,3}", label):
        return "a variant code as the label ('ZX', 'LX')"
    last = words[-1].lower()
    if re.fullmatch(r"[a-z][a-z\-]*(?:able|ible|ous|ful|less)", last) and last not in _NOUNS_LIKE_ADJECTIVES:
        return "an adjective as the label (a yes/no column, not a property)"
    if _DANGLING.search(norm) and len(norm.split()) >= 3:  # "Reports to", "Owned by" are relation labels
        return "a clause cut at a preposition as the label"
    if is_cjk(label):
        if len(re.sub(r"\s+", "", label)) > MAX_CJK_LABEL_CHARS:
            return "a row's text as the label"
    elif len(label.split()) > MAX_LABEL_WORDS:
        return "a row's text as the label"
    return None


_TIME_WORDS_EN = re.compile(
    r"\b(?:date|day|year|month|week|time|when|found|establish|since|start|begin|end|expir|effective|deadline|due|"
    r"period|term|birth|born|join|hire|launch|releas|open|clos|sign|renew|valid|until|through|schedul|updated|"
    r"created|published|session|semester|quarter|calendar|anniversar|graduat|dated|from|season|era|introduced|"
    r"acquired|completed|completion|delivered|delivery|reviewed|audited|inspected|retire|promot|incorporat|"
    r"registered|registration|accredit|certified|awarded)",
    re.I,
)
_TIME_WORDS_KO = re.compile(
    r"일|날짜|기간|시작|종료|설립|입사|마감|연도|년|월|시기|시점|개설|출시|시행|만료|갱신|때|언제|학기|분기"
)


_COUNT_NOUNS = re.compile(
    r"\b(?:employees|staff|students|units|members|people|customers|users|branches|stores|seats|visitors|"
    r"passengers|headcount|population)\b|명|개|대|석|인원|직원|인구|\s수$",
    re.I,
)


def count_label(attribute: str) -> bool:
    """Whether a label counts things ("Annual Employees", "직원 수"): a year-like number under it ("2000") is a
    count, not a date."""
    return _COUNT_NOUNS.search(attribute) is not None


def untimely_label(attribute: str) -> bool:
    """Whether a label holding a date names nothing about time ("Parties Involved: … May 10, 2025"): the date
    was picked out of a clause about something else. English and Korean labels are read; others pass."""
    if re.search(r"[가-힣]", attribute):
        return _TIME_WORDS_KO.search(attribute) is None
    if re.search(r"[A-Za-z]", attribute) and not is_cjk(attribute):
        return _TIME_WORDS_EN.search(attribute) is None
    return False


def opaque_label(attribute: str) -> bool:
    """Whether the label only says that more text follows (``Notes``, ``비고``), naming no property."""
    words = re.findall(r"\w+", normalize(attribute))
    return bool(words) and all(w in _OPAQUE for w in words)
