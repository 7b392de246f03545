"""Typed values found in text: dates, money, percentages and counted numbers, in English, Korean, Chinese
and Japanese forms.

`find_values` returns every typed span of a string with its parsed magnitude (numbers), currency or
counter (unit) and a sortable date key, so that numerical, temporal and comparative questions can be
recomputed and checked instead of trusted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from schemas import ValueType
from testgen.lang.scripts import CJK

MONTHS = {
    name: i
    for i, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
_MONTH = (
    r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
    r"Jan\.?|Feb\.?|Mar\.?|Apr\.?|Jun\.?|Jul\.?|Aug\.?|Sept?\.?|Oct\.?|Nov\.?|Dec\.?)"
)
_YEAR = r"(?:19|20)\d\d"
_CJK_YEAR = r"(?<!\d)\d{3,4}"  # 年/년 marks a year, so older years are safe to read there
_NUM = r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?"
# Indian digit grouping, read after the rupee sign only: "₹1,37,998", "₹30,00,000"
_INR_NUM = r"\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d+)?|" + _NUM
_SCALE_EN = r"(?:\s?(?:thousand|million|billion|trillion|lakhs?|crores?|[kKmMbB](?![a-zA-Z])|bn|mn))?"
_KO_NUM = (
    r"\d[\d,]*(?:\.\d+)?\s?[조억만천백십](?:\s?(?:\d[\d,]*(?:\.\d+)?)?\s?[조억만천백십])*(?:\s?\d[\d,]*)?"
    r"|\d{1,3}(?:,\d{3})+|\d+"
)
_PER = (
    r"(?:\s?(?:/|per\s)\s?(?:month|year|annum|mo|yr|user|seat|unit|lead|claim|policy|person|night|day|hour)"
    r"|\s?(?:a|each)\s(?:month|year))?"
)

_PATTERNS: list[tuple[ValueType, str, re.Pattern[str]]] = [
    # --- dates ---
    ("date", "en_mdy", re.compile(rf"\b({_MONTH})\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+({_YEAR})\b")),
    ("date", "en_dmy", re.compile(rf"\b(\d{{1,2}})\s+({_MONTH})\s+({_YEAR})\b")),
    (
        "date",
        "en_my_range",
        re.compile(rf"\b({_MONTH})\s+({_YEAR})\s?[-–~]\s?(?:{_MONTH}\s+{_YEAR}|[Pp]resent|[Cc]urrent|[Nn]ow)\b"),
    ),
    ("date", "en_my", re.compile(rf"\b({_MONTH})\s+({_YEAR})\b")),
    ("date", "iso", re.compile(rf"\b({_YEAR})[-./](\d{{1,2}})[-./](\d{{1,2}})\b")),
    # a year and a two-digit month with a dot or slash ("2027.04", "2023/12"): a month, never the number 2027.04
    ("date", "ym", re.compile(rf"\b({_YEAR})[./](0[1-9]|1[0-2])\b(?![./]\d)")),
    ("date", "quarter", re.compile(rf"\b(Q[1-4])\s+({_YEAR})\b")),
    ("date", "iso_quarter", re.compile(rf"\b({_YEAR})[-\s]?(Q[1-4])\b")),
    (
        "date",
        "cjk_range",
        re.compile(
            rf"({_CJK_YEAR})\s?[년年](?:\s?\d{{1,2}}\s?[월月])?\s?[-–~]\s?(?:{_CJK_YEAR}\s?[년年](?:\s?\d{{1,2}}\s?[월月])?|현재|現在|至今)"
        ),
    ),
    ("date", "cjk_ymd", re.compile(rf"({_CJK_YEAR})\s?[년年]\s?(\d{{1,2}})\s?[월月]\s?(\d{{1,2}})\s?[일日]")),
    ("date", "cjk_ym", re.compile(rf"({_CJK_YEAR})\s?[년年]\s?(\d{{1,2}})\s?[월月]")),
    ("date", "cjk_md", re.compile(r"(?<!\d)(\d{1,2})\s?[월月]\s?(\d{1,2})\s?[일日]")),
    ("date", "ko_quarter", re.compile(rf"({_CJK_YEAR})\s?년\s?([1-4])\s?분기")),
    ("date", "year_range", re.compile(rf"\b({_YEAR})\s?[-–~]\s?({_YEAR}|[Pp]resent|현재)")),
    ("date", "cjk_y", re.compile(rf"({_CJK_YEAR})\s?[년年](?!\s?\d|代|대)")),
    # a year may end a sentence or a clause ("founded in 2015.", "In 2015, …"), not a decimal or a thousands group
    ("date", "year", re.compile(rf"(?<![\d,.$])\b({_YEAR})\b(?![\d%]|[,.]\d|\s?(?:명|개|원|건|%))")),
    # --- percentages ---
    ("percent", "pct", re.compile(rf"(?<![\w.])(-?(?:{_NUM}))\s?(%|percent\b|퍼센트|％)")),
    # --- money ---
    ("money", "sym", re.compile(rf"([$€£¥₩])\s?({_NUM}){_SCALE_EN}{_PER}")),
    ("money", "inr", re.compile(rf"(₹)\s?({_INR_NUM}){_SCALE_EN}{_PER}")),
    ("money", "code", re.compile(rf"\b(USD|EUR|GBP|KRW|JPY|CNY)\s?({_NUM}){_SCALE_EN}")),
    ("money", "ko_won", re.compile(rf"({_KO_NUM})\s?(원|달러|엔|위안)")),
    ("money", "cjk_yuan", re.compile(rf"({_NUM})\s?(万|亿)?\s?(元|円|日元|美元)")),
    # --- counted numbers ---
    ("number", "ko_nights", re.compile(r"(\d+)\s?박\s?(\d+)\s?일")),
    (
        "number",
        "ko_count",
        re.compile(
            # not the minutes of a time ("18:00 점심"), and a comma only between digits ("18:00, 점심")
            r"(?<![\d:])(\d(?:[\d,]*\d)?(?:\.\d+)?(?:\s?[천백만억])*)\s?(명|개월|개|곳|건|대|박|일|년|회|석|점|배|시간|"
            r"분(?!\s?의\s?\d)|km/h|km|kg)"  # "5분의 1": a fraction, not five minutes
        ),
    ),
    (
        "number",
        "cjk_count",
        re.compile(
            r"(\d[\d,]*(?:\.\d+)?)\s?(个月|個月|か月|ヶ月|个小时|個小時|人|名|个|個|家|件|年(?!代)|天|回|台|次|届|位|本|冊|点)"
        ),
    ),
    (
        "number",
        "unit",
        re.compile(
            rf"(?<![\w$€£¥₩.,])({_NUM}){_SCALE_EN}\s?"
            r"(employees|people|staff|members|customers|clients|users|units|stores|offices|branches|countries|"
            r"cities|partners|products|models|years|months|weeks|days|hours|minutes|km/h|mph|km|kilometers|miles|kg|"
            r"kilograms|lbs|Wh|kWh|MWh|kW|MW|W|V|mm|cm|m|GB|TB|MB|seats|nights|claims|policies|leads|orders|bikes|"
            r"vehicles|trips|tours|agents|percentile|x)\b"
        ),
    ),
    # areas: "612.4 km²", "84㎡", "30평", "2,500 sq ft"
    (
        "number",
        "area",
        re.compile(rf"(?<![\w$€£¥₩.,])({_NUM})\s?(km²|km2|㎢|m²|㎡|sq\.? ?(?:km|m|ft|mi)|평|hectares|acres)(?![\w²])"),
    ),
    ("number", "bare", re.compile(rf"(?<![\w$€£¥₩.,/])(?<!\w-)({_NUM})(?![\w%.,/]|\s?(?:%|percent))")),
]

_KO_UNITS = {"조": 10**12, "억": 10**8, "천만": 10**7, "백만": 10**6, "십만": 10**5, "만": 10**4, "천": 10**3}
_EN_SCALE = {
    "lakh": 1e5,
    "lakhs": 1e5,
    "crore": 1e7,
    "crores": 1e7,
    "thousand": 1e3,
    "k": 1e3,
    "million": 1e6,
    "m": 1e6,
    "mn": 1e6,
    "billion": 1e9,
    "b": 1e9,
    "bn": 1e9,
    "trillion": 1e12,
}


@dataclass(frozen=True)
class ValueSpan:
    """A typed value found in text, with its character offsets in that text."""

    start: int
    end: int
    text: str
    value_type: ValueType
    number: float | None = None
    unit: str | None = None
    date_key: str | None = None


_SMALL_UNITS = {"천": 1e3, "백": 1e2, "십": 1e1, "千": 1e3, "百": 1e2}
_BIG_UNITS = {"조": 1e12, "억": 1e8, "만": 1e4, "万": 1e4, "亿": 1e8, "兆": 1e12}


def _parse_east_asian(text: str) -> float | None:
    """Korean/Chinese grouped numbers: 4억 2천만 → 420,000,000; 2천5백만 → 25,000,000; 3,000万 → 30,000,000."""
    total = 0.0
    group = 0.0
    pending: float | None = None
    seen = False
    for token in re.findall(r"\d[\d,]*(?:\.\d+)?|[조억만천백십千百万亿兆]", text):
        if token[0].isdigit():
            pending = float(token.replace(",", ""))
            seen = True
        elif token in _SMALL_UNITS:
            group += (pending if pending is not None else 1.0) * _SMALL_UNITS[token]
            pending = None
        else:
            group += pending or 0.0
            total += (group or 1.0) * _BIG_UNITS[token]
            group, pending = 0.0, None
    if not seen:
        return None
    return total + group + (pending or 0.0)


def parse_number(text: str) -> float | None:
    """Parse `1,290,000`, `18.2`, `4억 2천만`, `3,000万`, `$5M`, `18.2 million`, `-12억` into a float.

    Returns None when the text holds no number. A leading minus (``-``, ``−``, ``△``) makes it negative.
    """
    text = text.strip()
    sign = -1.0 if re.match(r"^[-−△▲]\s?\d", text.lstrip("$€£¥₩ ")) or re.match(r"^[$€£¥₩]?\s?[-−]", text) else 1.0
    if re.search(r"\d\s?[조억만천백십千百万亿兆]", text):
        value = _parse_east_asian(text)
        return None if value is None else sign * value
    plain = re.search(
        rf"({_INR_NUM})\s?(thousand|million|billion|trillion|lakhs?|crores?|bn|mn|[kKmMbB](?![a-zA-Z]))?", text
    )
    if not plain:
        return None
    value = float(plain.group(1).replace(",", ""))
    if plain.group(2):
        value *= _EN_SCALE[plain.group(2).lower()]
    return sign * value


def _date_key(kind: str, groups: tuple[str | None, ...]) -> str | None:
    g = [x or "" for x in groups]
    if kind == "en_mdy":
        return f"{g[2]}-{MONTHS[g[0].lower().rstrip('.')]:02d}-{int(g[1]):02d}"
    if kind == "en_dmy":
        return f"{g[2]}-{MONTHS[g[1].lower().rstrip('.')]:02d}-{int(g[0]):02d}"
    if kind in ("en_my", "en_my_range"):
        return f"{g[1]}-{MONTHS[g[0].lower().rstrip('.')]:02d}"
    if kind in ("iso", "cjk_ymd"):
        month, day = int(g[1]), int(g[2])
        if not (1 <= month <= 12 and 1 <= day <= 31):
            return None
        return f"{g[0]}-{month:02d}-{day:02d}"
    if kind == "cjk_md":
        month, day = int(g[0]), int(g[1])
        return f"--{month:02d}-{day:02d}" if 1 <= month <= 12 and 1 <= day <= 31 else None
    if kind in ("cjk_ym", "ym"):
        return f"{g[0]}-{int(g[1]):02d}" if 1 <= int(g[1]) <= 12 else None
    if kind == "iso_quarter":
        return f"{g[0]}-{g[1]}"
    if kind == "quarter":
        return f"{g[1]}-{g[0]}"
    if kind == "ko_quarter":
        return f"{g[0]}-Q{g[1]}"
    if kind in ("year_range", "cjk_y", "year", "cjk_range"):
        return g[0]
    return None


_DIGIT = re.compile(r"\d")
_CJK = re.compile(f"[{CJK}年月日]")
_CJK_KINDS = frozenset(
    {
        "cjk_range",
        "cjk_ymd",
        "cjk_ym",
        "cjk_md",
        "ko_quarter",
        "cjk_y",
        "ko_won",
        "cjk_yuan",
        "ko_nights",
        "ko_count",
        "cjk_count",
    }
)


_MONTH_ANY = re.compile(_MONTH)
_MONTH_KINDS = frozenset({"en_mdy", "en_dmy", "en_my_range", "en_my"})
_TRIGGERS: dict[str, tuple[str, ...]] = {
    "en_my_range": ("-", "–", "~"),
    "year_range": ("-", "–", "~"),
    "cjk_range": ("-", "–", "~"),
    "quarter": ("Q",),
    "iso_quarter": ("Q",),
    "pct": ("%", "percent", "퍼센트", "％"),
    "sym": ("$", "€", "£", "¥", "₩"),
    "inr": ("₹",),
    "code": ("USD", "EUR", "GBP", "KRW", "JPY", "CNY"),
    "ko_won": ("원", "달러", "엔", "위안"),
    "cjk_yuan": ("元", "円"),
    "ko_nights": ("박",),
    "ko_quarter": ("분기",),
    "cjk_md": ("月", "월"),
}


_TRIGGER_PATTERNS = {kind: re.compile("|".join(map(re.escape, markers))) for kind, markers in _TRIGGERS.items()}
#: The patterns to try on a text, by (it holds CJK, it names a month), each with its marker pattern (None: none).
_APPLICABLE: dict[tuple[bool, bool], list[tuple[ValueType, str, re.Pattern[str], re.Pattern[str] | None]]] = {
    (cjk, month): [
        (value_type, kind, pattern, _TRIGGER_PATTERNS.get(kind))
        for value_type, kind, pattern in _PATTERNS
        if (cjk or kind not in _CJK_KINDS) and (month or kind not in _MONTH_KINDS)
    ]
    for cjk in (False, True)
    for month in (False, True)
}


def _overlaps(start: int, end: int, taken: list[tuple[int, int]]) -> bool:
    # a loop, not any() over a generator: called for every match, over the two or three spans already taken
    for t_start, t_end in taken:  # noqa: SIM110
        if start < t_end and t_start < end:
            return True
    return False


def find_values(text: str) -> list[ValueSpan]:
    """Every non-overlapping typed value in `text`, earliest and longest first, in text order."""
    return list(_find_values(text))


@lru_cache(maxsize=1 << 16)
def _find_values(text: str) -> tuple[ValueSpan, ...]:
    # Labels and values repeat across a corpus ("Job Title", "2023"): parsed once, reused.
    found: list[ValueSpan] = []
    taken: list[tuple[int, int]] = []
    if _DIGIT.search(text) is None:
        return ()  # every value form holds a digit: most prose lines stop here
    patterns = _APPLICABLE[(_CJK.search(text) is not None, _MONTH_ANY.search(text) is not None)]
    for value_type, kind, pattern, trigger in patterns:
        if trigger is not None and trigger.search(text) is None:
            continue  # cheap pre-checks: most patterns cannot match a text without their marker
        for match in pattern.finditer(text):
            start, end = match.span()
            span_text = match.group().rstrip(" ,")
            end = start + len(span_text)
            if _overlaps(start, end, taken):
                continue
            number: float | None = None
            unit: str | None = None
            date_key: str | None = None
            if value_type == "date":
                date_key = _date_key(kind, match.groups())
                if date_key is None:
                    continue
                if re.match(r"\d{3}(?:-|$)", date_key):
                    date_key = "0" + date_key  # keys sort as text: pad three-digit years
            elif value_type == "percent":
                number, unit = parse_number(match.group(1)), "%"
            elif value_type == "money":
                if kind in ("sym", "code", "inr"):
                    unit = match.group(1)
                    number = parse_number(span_text[len(unit) :])
                    per = re.search(r"(?:/|per\s|a\s|each\s)\s?(\w+)$", span_text)
                    if per:
                        unit += "/" + per.group(1).lower()
                elif kind == "ko_won":
                    number, unit = parse_number(match.group(1)), match.group(2)
                else:
                    number = parse_number(match.group(1))
                    if number is not None and match.group(2):
                        number *= 10**4 if match.group(2) == "万" else 10**8
                    unit = match.group(3)
            elif kind == "ko_nights":
                number, unit = float(match.group(2)), "박일"  # compared by days
            else:
                number = parse_number(match.group(1))
                unit = match.group(match.lastindex or 1) if kind != "bare" else None
                if kind == "unit" and unit is not None:
                    unit = unit.lower()
            if value_type != "date" and number is None:
                continue
            if value_type == "number" and _KO_ORDINAL_BEFORE.search(text, 0, start):
                continue  # "제1회 추경", "제3127호": an ordinal naming one of a series, not a count of 1
            if (
                number is not None
                and number > 0
                and start > 0
                and text[start - 1] in "-−△"
                and (start == 1 or not text[start - 2].isalnum())
            ):
                start -= 1  # "-12억 원", "−3%": a sign written before the value
                span_text = text[start:end]
                number = -number
            found.append(ValueSpan(start, end, span_text, value_type, number, unit, date_key))
            taken.append((start, end))
    found.sort(key=lambda v: v.start)
    return tuple(found)


#: "제" opening an ordinal ("제1회", "제3차"), not the end of a word ("문제 3개").
_KO_ORDINAL_BEFORE = re.compile(r"(?:^|[^가-힣])제\s?$")
_WORDS = re.compile(r"[^\W\d_]{2,}")
_ALNUM_RUNS = re.compile(r"[^\W_]+")
_QUALIFIER_WORDS = frozenset(
    "approx approximately about around est estimated total each per month year annual annually monthly "
    "yearly net gross min max minimum maximum up to over under only average avg roughly nearly "
    "약 총 각 연 월 기준 이상 이하 미만 초과 내외 평균 최대 최소 연간 월간 예정 추정 정도".split()
)


@lru_cache(maxsize=1 << 16)
def classify_value(text: str) -> ValueSpan | None:
    """The typed value when `text` is essentially one value (a key–value bullet's value), else None.

    "March 15, 2011" → date; "$1,000/month" → money; "148 employees" → number; "Head of Product" → None.
    Cached: table cells and labels repeat ("2023", "Active"), and a span is immutable.
    """
    stripped = text.strip().rstrip(".")
    values = find_values(stripped)
    if len(values) != 1:
        return None
    value = values[0]
    rest = (stripped[: value.start] + stripped[value.end :]).strip(" ()-,:;")
    words = _WORDS.findall(rest)
    if value.value_type != "date" and any(w.lower() not in _QUALIFIER_WORDS for w in words):
        return None  # "교토 미식 투어 3박 4일" names a product; the number is part of the name
    if value.value_type == "number" and value.unit is None and rest:
        return None  # "Aurora Ridge 700" is a name, not the number 700
    if value.value_type == "date" and any(w.lower() not in _QUALIFIER_WORDS for w in _ALNUM_RUNS.findall(rest)):
        return None  # "Revenue (2023)" or "AB-2022-014" is not a date
    # A short remainder ("approx.", "(est.)", "per month") keeps the value; a sentence around it does not.
    if len(rest) > max(12, len(value.text)):
        return None
    return value


def list_items(value: str, *, most: int) -> list[str]:
    """The items of a short list written in one value ("영어, 베트남어", "계약 금액의 10%, 27,000,000원"), or [] when
    the value is not such a list: a bracket in it, a typed value holding a comma ("March 15, 2008"), an empty item,
    fewer than two items or more than `most`."""
    if re.search(r"[()（）\[\]]", value):
        return []
    items = [item.strip() for item in re.split(r",\s+|、", value.strip())]
    if not 2 <= len(items) <= most or not all(items):
        return []
    if any(", " in v.text for v in find_values(value)):
        return []
    return items


#: A time of day as written: "14:00", "오후 5시", "오전 9시 30분", "9시 반", "5 pm", "10:30 a.m.".
_CLOCK = re.compile(
    r"(?P<ko_half>오전|오후|새벽|아침|저녁|밤|낮)?\s*(?<![\d.])(?P<ko_h>\d{1,2})\s*시(?![간각])(?:\s*(?P<ko_m>\d{1,2})\s*분|\s*(?P<ko_half_hour>반))?"
    r"|(?<![\d:.])(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?\s*(?P<ampm>[ap])\.?\s?m\b\.?"
    r"|(?<![\d:.])(?P<hh>\d{1,2}):(?P<mm>\d{2})(?![\d:])",
    re.I,
)


#: The earliest hour "저녁"/"밤" names in the afternoon's count ("밤 1시" is 01:00, "밤 9시" 21:00).
_EVENING_FROM = 5


#: A range of the day whose start leaves "am"/"pm" to its end: "10–11.30 am", "1.00–3.30pm", "10 to 2 pm".
_SHARED_MERIDIEM = re.compile(
    r"(?<![\d:.£$€₩¥])(?P<h>\d{1,2})(?:[:.](?P<m>\d{2}))?\s*(?:[–—~-]|to|until|till)\s*"
    r"(?P<h2>\d{1,2})(?:[:.]\d{2})?\s*(?P<ampm>[ap])\.?\s?m\b",
    re.I,
)


def _range_starts(text: str) -> list[tuple[int, str]]:
    """The starts of ranges that leave "am"/"pm" to their end, with where each is written: the start takes the end's
    half of the day when its hour is earlier ("1.00–3.30pm" starts at 13:00), the other half when later ("10–2 pm"
    starts at 10:00); noon before a "pm" end is 12:00."""
    starts = []
    for m in _SHARED_MERIDIEM.finditer(text):
        hour, minute, end = int(m.group("h")), int(m.group("m") or 0), int(m.group("h2"))
        if not (1 <= hour <= 12 and 1 <= end <= 12 and minute < 60):
            continue
        pm = m.group("ampm").lower() == "p"
        if hour == 12:
            hour = 12 if pm else 0
        elif (hour < end) == pm:
            hour += 12
        starts.append((m.start(), f"{hour:02d}:{minute:02d}"))
    return starts


def clock_times(text: str) -> list[str]:
    """The times of day `text` writes, in order, as 24-hour "HH:MM": "평일 오전 10시 ~ 오후 5시" and "평일 10:00 ~
    17:00" both give ["10:00", "17:00"]; "5 pm" gives "17:00", "1.00–3.30pm" ["13:00", "15:30"]."""
    starts = _range_starts(text)
    shared = {at for at, _ in starts}
    times = []
    for m in _CLOCK.finditer(text):
        while starts and starts[0][0] < m.start():
            times.append(starts.pop(0)[1])
        if m.start() in shared:
            continue  # "10:00–11:30 am": the start read above, with the end's half of the day
        if m.group("ko_h") is not None:
            hour = int(m.group("ko_h"))
            minute = 30 if m.group("ko_half_hour") else int(m.group("ko_m") or 0)
            half = m.group("ko_half")
            # "밤 11시" is 23:00, "저녁 7시" 19:00, "낮 2시" 14:00 ("낮 12시" is noon, "밤 12시" midnight)
            if (
                half == "오후" or (half in ("저녁", "밤") and hour >= _EVENING_FROM) or (half == "낮" and hour < 7)
            ) and (hour < 12):
                hour += 12
        elif m.group("h") is not None:
            hour, minute = int(m.group("h")), int(m.group("m") or 0)
            if m.group("ampm").lower() == "p" and hour < 12:
                hour += 12
            elif m.group("ampm").lower() == "a" and hour == 12:
                hour = 0
        else:
            hour, minute = int(m.group("hh")), int(m.group("mm"))
        if hour <= 24 and minute < 60:
            times.append(f"{hour:02d}:{minute:02d}")
    return times + [time for _, time in starts]
