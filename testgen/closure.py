"""Closure by meaning: every document that states the same fact, not only the one it was mined from.

A retriever that returns another page stating the same fact must not be scored as wrong, so an item's
`source_docs` is the set of documents that state its evidence. A document states a fact when one line or sentence
of it names the subject (its name or an alias; on the subject's own page, the attribute is enough) and holds
the same value, read as a value rather than as characters (the line before counts too, as an FAQ's question does for
its answer):

* amounts, numbers and percentages: the same number with a compatible unit — ``3 years`` is stated by
  ``a 3-year warranty``, ``$10,000/month`` by ``$10,000 per month``, while the ``4`` of ``February 4`` states no
  count of four;
* dates: the same calendar key (``March 15, 2008`` = ``2008-03-15``), or the same words;
* text: the same words (normalised, word-bounded).

On the subject's own page, or on a page whose title names the subject ("Contract with Acme for Rellm"), the line
need not repeat the name. A chunk must also show the attribute somewhere (a cue word of its label), so a page
that only mentions the subject next to an unrelated number is left out. A relation is also stated from its other
end: "X's manager is Y" is stated by Y's own page when a line there names X. And a specific amount or full date
next to a word that only the subject's pages use states the fact ("세진전자 임직원 300명" in an FAQ, for the 300
participants of the 세진전자 contract).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from schemas import EntityNode, FactNode
from testgen.corpus import ROOT_TYPE
from testgen.gate.names import document_subject
from testgen.kg.mining import row_in_label, row_label, table_cells, table_top
from testgen.kg.values import ValueSpan, clock_times, find_values, list_items
from testgen.lang import DAYS, KO_SERVICE_KINDS, PHONE_DIGITS, PHONE_RUN, RULE_PAGE, contact_kind, en, ko
from testgen.lang.en import without_honorific
from testgen.lang.scripts import HANGUL
from testgen.names import (
    PAGE_KIND_WORDS,
    PRICE_WORD,
    core_name,
    introduced_name,
    page_kind_title,
    priced_head,
    without_legal_form,
    without_parentheticals,
    without_trailing_note,
)
from testgen.retold import Retold, shortens
from testgen.synth.context import GenContext
from testgen.text import bare_figure, contains_keyword, is_cjk, normalize, squeezable, squeezed, tokens

_STOP = frozenset("the a an of in on at to for and or is was were are be by with from as its their this that".split())
# a line's sentences; "2025. 2. 17. ~ 5. 8." is one date, not five sentences
# and "Dr. Lorraine Whitfield" or "D. Reyes-Hart" is one name
_SEGMENT = re.compile(
    r"\n|(?<=[.!?。！？])(?<!\d\.)(?<!\bDr\.)(?<!\bMr\.)(?<!\bMs\.)(?<!\bMrs\.)(?<!\bProf\.)(?<!\bSt\.)(?<!\b[A-Z]\.)\s+"
    r"|(?<=\d\.)\s+(?=[^\d~(/|,\-–\s])|(?<=다\.)\s*"
)


def attribute_cues(fact: FactNode) -> list[str]:
    """Words that show a chunk talks about the fact's attribute (5-letter stems for Latin words)."""
    label = fact.attribute if fact.source != "sentence" else fact.attribute.replace("…", " ")
    cues = []
    for tok in tokens(label):
        if tok in _STOP or tok.isdigit():
            continue
        if tok.isascii():  # "joined" and "joining" share "join"; "launched" and "launch" share "launc"
            tok = re.sub(r"(?:ing|ed|es|s)$", "", tok) if len(tok) > 4 else tok
            tok = tok[:5]
        cues.append(tok)
    for group in _SAME_EVENT:
        if any(cue in group for cue in cues):
            cues += [word for word in sorted(group) if word not in cues]
    return cues


#: A Korean label of a kind or type: 유형, 종류, 형태, 구분, 방식.
_KO_TYPE_LABEL = re.compile(r"(?:유형|종류|형태|구분|방식)$")


#: A label of a short code a thing goes by: "Airport code", "Ticker", "약칭".
_CODE_LABEL = re.compile(r"\b(?:code|abbreviation|symbol|ticker|iata)\b|코드|약칭|약어", re.I)
#: A label ending in a word for where something is: "서버실 위치", "Office location".
_ENDS_IN_PLACE = re.compile(r"(?:location|address|room|위치|소재지|주소|장소)\s*$", re.I)
#: A room's code in a place: "B103" of "지하 B103호", "514" of "514호", "LL.20" of "room LL.20".
_ROOM_CODE = re.compile(r"(?<![\w.-])([A-Za-z]{0,2}\.?\d{2,4}[A-Za-z]?)(?:호|号)?(?![\w.-])")
#: Words that say what kind of offer a name is, not which: "요금제" of "비즈니스 요금제", "Plan" of "Team Plan".
_KIND_WORDS = frozenset("요금제 플랜 상품 코스 과정 plan plans tier package edition membership".split())
#: A label of a product's name: 제품명, 상품명, 모델명, "Product name".
_NAME_LABEL = re.compile(r"(?:제품|상품|모델)\s?명$|^(?:product |model )?name$", re.I)
#: Words that name the same event: a founding date is stated by "창업", "세웠" or "established" as well.
_SAME_EVENT = (
    frozenset({"found", "estab", "incor", "설립", "설립일", "창업", "창립", "세웠", "세운"}),
    frozenset({"launc", "relea", "debut", "출시", "출시일", "발매", "선보"}),
    frozenset({"join", "입학", "입사", "입단", "들어온", "들어왔", "합류"}),
)


def _unit_stem(unit: str) -> str:
    return unit.lower().removesuffix("s").strip(" -")


_PERIODS = {
    "month": r"monthly|per month|a month|each month|/\s*mo\b|월|매월|每月|月額|月",
    "year": r"annual|annually|yearly|per year|a year|each year|/\s*yr\b|연간|매년|每年|年額",
    "week": r"weekly|per week|a week|each week|주|每周|週",
    "day": r"daily|per day|a day|each day|일|每天|日額",
    "night": r"nightly|per night|a night|박|每晚|泊",
}


def _per_period(fact_unit: str, found_unit: str, segment: str) -> bool:
    """ "$10,000/month" is stated by "a monthly fee of $10,000": same currency, the period said in words."""
    base, _, per = fact_unit.partition("/")
    words = _PERIODS.get(per.strip().lower().removesuffix("s"))
    return bool(per) and found_unit == base and words is not None and re.search(words, segment, re.I) is not None


def _same_value(fact: FactNode, found: ValueSpan, segment: str) -> bool:
    """Whether a typed value found in `segment` is the fact's value."""
    if fact.value_type == "date":
        # the same day, or the same month with or without its day ("August 2016" and "August 15, 2016")
        key, other = fact.date_key or "", found.date_key or ""
        same_month = min(len(key), len(other)) >= 7 and (key.startswith(other) or other.startswith(key))
        return found.value_type == "date" and bool(other) and (other == key or same_month)
    if found.number is None or fact.number is None or abs(found.number - fact.number) > 1e-9:
        return False
    if (found.unit or None) == (fact.unit or None) or fact.unit is None:
        return True
    if found.unit is None:  # "a 3-year warranty": the unit is glued on with a hyphen
        after = segment[found.end : found.end + 12].lower()
        stem = re.escape(_unit_stem(fact.unit))
        # or written once for two numbers: "passed 100 employees in 2020 and reached 148 by 2023"
        return re.match(rf"\s*-?\s*{stem}", after) is not None or (
            fact.unit.isalpha() and re.search(rf"\d\s*{stem}", segment[: found.start].lower()) is not None
        )
    return (
        _unit_stem(found.unit) == _unit_stem(fact.unit)
        or _unit_kind(found.unit) == _unit_kind(fact.unit) is not None
        or _per_period(fact.unit, found.unit, segment)
    )


# Units that count the same thing under different words: "148 employees" is stated by "employ 148 people".
_UNIT_KINDS = {
    "person": frozenset("employee people person staff member worker personnel headcount 명 인 员工 名 人".split()),
}


def _owner_pattern(value: str) -> re.Pattern[str]:
    """Where a line gives `value` to a thing it names: "the price of <owner> is $12,500", "<owner>의 수강료는 …"."""
    figure = re.escape(value)
    return re.compile(
        rf"\bof\s+(?:the\s+|an?\s+)?([^,;:.()]{{3,60}}?)\s+(?:is|was|are|were|costs?|stands at|comes to)\s+"
        rf"(?:about\s+|around\s+)?{figure}"
        rf"|([가-힣A-Za-z0-9][가-힣A-Za-z0-9 ]{{1,30}})의\s+[가-힣 ]{{1,20}}[은는이가]\s*(?:약\s*)?{figure}",
        re.I,
    )


def _owned_by_another(line: str, owner_of: re.Pattern[str], names: Callable[[str], bool]) -> bool:
    """Whether a line gives the figure to something it names that is not the subject: "The price of the operator
    training course is $12,500", "운영 교육 과정의 수강료는 1,250,000원" (`owner_of` from `_owner_pattern`)."""
    owner = owner_of.search(line)
    if owner is None:
        return False
    named = normalize(owner.group(1) or owner.group(2))
    return not names(named)


#: Labels of where a thing is (a place in brackets after its name states it).
_PLACE_LABEL = re.compile(r"^\s*(?:location|address|room|floor|위치|소재지|주소|장소|층)\s*$", re.I)

#: Electrical units whose name says what they measure ("48 V" and "a 48-volt pack", "720 Wh" and "720 watt-hours").
_UNIT_DIMENSION = {"v": "volt", "kv": "volt", "w": "watt", "kw": "watt", "wh": "watt", "kwh": "watt"}

#: Counting words for people and things (a count next to a name is that name's count).
_COUNTERS = frozenset("명 인 개 대 곳 건 석 편 人 名 个 個 台 家".split())


def _is_count_unit(unit: str | None) -> bool:
    """Whether a unit counts people or things ("300명", "148 employees", "12대") rather than measures something."""
    return unit is not None and (unit.strip() in _COUNTERS or _unit_kind(unit) == "person")


def _unit_kind(unit: str) -> str | None:
    stem = _unit_stem(unit)
    stem = "person" if stem in ("people", "persons") else stem
    return next((kind for kind, words in _UNIT_KINDS.items() if stem in words), None)


def states_value(fact: FactNode, segment: str) -> bool:
    """Whether a line or sentence (as written) holds the fact's value."""
    if fact.value_type == "text" or (fact.value_type != "date" and fact.number is None):
        norm = normalize(segment)
        parts = _list_parts(fact.value)
        return (
            contains_keyword(norm, fact.value)
            or (squeezable(fact.value) and contains_keyword(squeezed(norm), squeezed(fact.value)))
            or (fact.value.endswith((")", "）")) and _states_without_note(fact.value, norm))
            or _states_reworded(fact.value, segment)
            or (bool(parts) and all(contains_keyword(norm, part) for part in parts))
            or _same_clock(fact.value, segment)
            or _same_clock(without_trailing_note(fact.value), segment)  # "06:00 ~ 23:00 (무료, …)": the hours
            or _same_range(fact.value, segment)
            or _same_ordinal(fact.value, norm)
        )
    if fact.value_type == "date" and contains_keyword(normalize(segment), fact.value):
        return True
    return any(_same_value(fact, found, segment) for found in find_values(segment))


@lru_cache(maxsize=65536)
def _clock_range(value: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A value's times of day, when it writes two or more, and its other words ("평일", "점심"); ((), ()) otherwise."""
    times = tuple(clock_times(value))
    if len(times) < 2:
        return (), ()
    words = tuple(w for w in re.findall(r"[^\W\d_]{2,}", normalize(value)) if w not in _CLOCK_WORDS)
    return times, words


_CLOCK_WORDS = frozenset({"오전", "오후", "새벽", "아침", "저녁", "밤", "낮", "am", "pm", "시", "분", "반"})


def _same_clock(value: str, segment: str) -> bool:
    """Whether a line writes a value's times of day in other notation, with its other words: "평일 10:00 ~ 17:00"
    states "평일 오전 10시 ~ 오후 5시", "10 am – 5 pm" states "10:00–17:00"."""
    times, words = _clock_range(value)
    if not times:
        return False
    found = clock_times(segment)
    n = len(times)
    if not any(tuple(found[i : i + n]) == times for i in range(len(found) - n + 1)):
        return False
    norm = normalize(segment)
    return all(w in norm for w in words)


def _states_without_note(value: str, norm: str) -> bool:
    """Whether a line writes a value's figures without the note in brackets after them: "화~토 14:00~20:00" states
    "14:00 ~ 20:00 (저녁 17:30~18:30)"."""
    bare = without_trailing_note(value)
    if bare == value.strip() or len(bare) < 5 or not re.search(r"\d", bare):
        return False
    return contains_keyword(squeezed(norm), squeezed(bare))


#: Words that join two things named in a row: "A의 운영과 B의 관리", "책임자이며", "launched A and signed B".
_COORDINATED = re.compile(r"(?:과|와|및|이며|이고|하고)\s|,\s|\s(?:and|as well as|while|also)\s")


#: Labels of a bare count whose unit is the thing counted ("Units: 40", "Quantity: 12").
_COUNT_LABEL = re.compile(r"units?|quantity|qty|count|number of units|fleet size|수량|대수|数量")
_NOT_COUNTED = re.compile(
    r"^(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|km|kg|g|m|cm|mm|miles?|%|percent|times|x)$", re.I
)


def _counts_things(fact: FactNode, line: str) -> bool:
    """Whether the line gives the fact's number as a count of things ("40 bikes"), not a time or a measure."""
    return any(
        found.number == fact.number and found.unit is not None and not _NOT_COUNTED.match(found.unit)
        for found in find_values(line)
    )


def _lower_case_use(value: str, line: str, forms: set[str]) -> bool:
    """Whether a one-word capitalised value ("Executive", "Sales") shows in the line only as a common word that
    is not tied to the subject: "trips by the executive team are approved by Ingrid" names no team of hers, while
    "Marcus Okafor's engineering team" and "the engineering team led by Marcus Okafor" do."""
    word = value.strip()
    if not re.fullmatch(r"[A-Z][a-z]+", word) or re.search(rf"(?<![\w-]){word}(?![\w-])", line):
        return False
    low = word.lower()
    names = _alternation(forms)
    tied = names and re.search(
        rf"(?:{names})['’]s {low}\b|\b{low} \w+ (?:led|headed|run|managed|directed) by (?:{names})", normalize(line)
    )
    return not tied


def _signs_off(text: str, found: re.Match[str]) -> bool:
    """Whether a first name followed by a capitalised word on the next line stands alone on its line: a letter's
    sign-off, the line after it her title or the organisation."""
    gap = text[found.start() : found.start(1)]
    if "\n" not in gap:
        return False
    line_start = text.rfind("\n", 0, found.start()) + 1
    return not text[line_start : found.start()].strip(" \t-–—*_")


def _side_by_side(norm: str, forms: set[str], value: str, cues: list[str]) -> bool:
    """Whether the line names the subject and the value joined by "and" (or 과/와/이며), which does not say how
    they are related — unless the attribute is written right beside one of them ("제주지점장 최서연")."""
    at = norm.find(value)
    if at < 0:
        return False
    for name in (value, *forms):
        if any(re.search(rf"{re.escape(cue)}\w*\W{{0,2}}{re.escape(name)}", norm) for cue in cues if len(cue) > 1):
            return False
    for form in forms:
        pos = norm.find(form)
        if pos < 0:
            continue
        between = norm[pos + len(form) : at] if pos < at else norm[at + len(value) : pos]
        if _COORDINATED.search(between):
            return True
    return False


@lru_cache(maxsize=1 << 16)
def _list_parts(value: str) -> tuple[str, ...]:
    """The items of a short list value ("재무, 인사, 총무, 계약 검토"), stated in any order and joined by any words
    ("재무, 인사, 총무와 계약 검토를 맡는다"); () for anything else (cached: the same values are asked often)."""
    amounts = re.split(r"\s+/\s+|\s+or\s+", value.strip())
    if len(amounts) == 2 and all(re.search(r"\d", a) and len(a.split()) <= 2 for a in amounts):
        return tuple(amounts)  # one price in two currencies ("₹8,999 / $109"), two columns of a table row
    parts = list_items(value, most=5) if len(value) <= 60 else []
    if len(value) <= 60:
        # names joined by "and" or "&" ("Ingrid Solberg and Marcus Okafor", "A Smith, B Jones and C Wu")
        last = parts.pop() if parts else value
        pieces = re.split(r"\s+(?:and|&)\s+", last)
        if len(pieces) > 1 and all(re.fullmatch(r"[A-Z][\w.'-]*(?:\s+[A-Z][\w.'-]*){0,3}", p) for p in pieces):
            parts += pieces
        elif parts:
            parts.append(last)
    if any(len(p) > 20 or p.replace(",", "").isdigit() for p in parts):
        return ()
    return tuple(parts)


@lru_cache(maxsize=65536)
def _one_amount(value: str) -> ValueSpan | None:
    """The one amount with a unit a short text value is built around ("연간 왕복 6,000석", "3억 원 (시비 100%)":
    a note in brackets after it aside), or None."""
    value = without_trailing_note(value)
    typed = [v for v in find_values(value) if v.number is not None and v.unit]
    return typed[0] if len(typed) == 1 and len(value) <= 40 else None


def _states_reworded(value: str, segment: str) -> bool:
    """A short text value built around one amount, stated with its words in another order: "연간 왕복 6,000석" by
    "연간 6,000석의 왕복 좌석", "1인당 100,000원" by "100,000원 (1인당)". Every word of the value must be in the
    segment (Korean words by their stem before a particle), and the amount with the same unit."""
    amount = _one_amount(value)
    if amount is None:
        return False
    raw, value = value, without_trailing_note(value)  # the amount's offsets are in the value without its note
    rest = (value[: amount.start] + " " + value[amount.end :]).split()
    if (not rest and value == raw.strip()) or not any(
        f.number == amount.number and f.unit and _unit_stem(f.unit) == _unit_stem(amount.unit or "")
        for f in find_values(segment)
    ):
        return False
    norm = normalize(segment)
    return all(_said(normalize(word).rstrip("의은는이가을를에"), norm) for word in rest)


#: A range of amounts: "300,000~500,000원", "30~50만원" (a scale word after the second figure scales both).
_RANGE = re.compile(r"(\d[\d,]*(?:\.\d+)?)\s*(만|천|억)?\s*원?\s*[~〜～–-]\s*(\d[\d,]*(?:\.\d+)?)\s*(만|천|억)?")
_SCALE = {"천": 1e3, "만": 1e4, "억": 1e8}


def _ranges(text: str) -> set[tuple[float, float]]:
    """The ranges of amounts a text writes, as (low, high) numbers."""
    found = set()
    for match in _RANGE.finditer(text):
        low_scale, high_scale = match.group(2), match.group(4)
        low_scale = low_scale or high_scale
        low = float(match.group(1).replace(",", "")) * _SCALE.get(low_scale or "", 1)
        high = float(match.group(3).replace(",", "")) * _SCALE.get(high_scale or "", 1)
        found.add((low, high))
    return found


def _same_range(value: str, segment: str) -> bool:
    """A range value written with other figures: "300,000~500,000원" by "30~50만원"."""
    own = _ranges(value)
    return len(own) == 1 and bool(own & _ranges(segment)) and min(next(iter(own))) >= _RANGE_FLOOR


#: The Korean ordinal prefix before a number: "제39기" is "39기", "제51차" is "51차".
_ORDINAL = re.compile(r"제\s?(?=\d)")


def _same_ordinal(value: str, norm: str) -> bool:
    """ "사법연수원 39기" stated by "사법연수원 제39기" (or the other way round)."""
    if not re.search(r"\d", value):
        return False
    return contains_keyword(_ORDINAL.sub("", norm), _ORDINAL.sub("", normalize(value)))


#: Ranges below this are counts, hours or scores written alike in many places ("2~3", "9~18").
_RANGE_FLOOR = 1000


#: Words that bound a period the same way: "7일 이내" is stated by "7일 안에".
_WITHIN = frozenset({"이내", "안에", "내에", "안으로", "以内", "之内", "within"})


def _said(word: str, norm: str) -> bool:
    return word in norm or (word in _WITHIN and any(w in norm for w in _WITHIN))


_QUESTION_LINE = re.compile(r"^\s*(?:#|\*\*|Q\s*[.:：)]|질문|问[：:])|[?？]\s*(?:\*\*)?\s*$")


_PARTICLES = "의|은|는|이|가|을|를|께서|으로|로|에게"
#: What stands between a post and the name after it ("대표이사: 박하늘", "(CEO) Jane Roe"), and between a name and
#: the post after it ("Jane Roe, CEO", "윤정애(대표)", "**Dana Whitcomb**, Owner", "Dana Whitcomb / Owner").
_POST_TO_NAME = r"[\s:：*,(（|-]"
_NAME_TO_POST = r"[\s,(（|*/—–-]"
#: Labels that say which group a record belongs to.
_MEMBERSHIP = re.compile(r"소속|부서|팀$|^팀|부문|\bteam\b|department|division|\bgroup\b|\bunit\b|所属|部门|部署")
#: A labelled line of a record: "- **팀 인원**: 12명", "Team: Sales".
_LABELLED_LINE = re.compile(r"^\s*(?:[-*+]\s+)?(?:\*\*)?([^:：|\n]{1,24}?)(?:\*\*)?\s*[:：]")
#: Verbs that tell one thing uses, buys or runs another ("Bergfeld Logistik uses the Aurora Cargo Max").
_USES = (
    r"uses|use|used|leases|lease|leased|rents|rented|bought|buys|purchased|ordered|operates|runs|deploys|deployed|"
    r"adopted|chose|subscribes to|licenses|licensed|rolled out|이용|사용|도입|운영|구매"
)
#: Words that say how a line's two names are related ("Harborview uses …", "signed", "manages", "고객").
_RELATION_TOLD = re.compile(
    rf"(?<!\w)(?:{_USES}|customers?|clients?|users?|partners?|contracts?|signed|agreements?|deals?|"
    r"manages|managed|manage|leads|led|team|reports?)(?!\w)|고객|거래처|계약|관리|담당|팀원|소속"
)
#: Labels of the unit a person works in.
_UNIT_LABEL = re.compile(r"근무지|근무 지점|소속|부서|지점|본부|(?:^|\s)팀$", re.I)
#: Column headers naming the head of whatever unit the row is ("부서장" over rows of teams and offices).
_GENERIC_HEADS = frozenset({"부서장", "책임자", "조직장", "기관장"})
#: Labels of what kind of thing the subject is.
_KIND_LABEL = re.compile(r"^\s*(?:category|type|kind|class|segment|genre)\s*$", re.I)
#: The head of a Korean unit, the unit's kind with 장: 팀장, 지점장, 본부장, 센터장, 파트장, 실장.
_UNIT_KIND = re.compile(r"(?:팀|지점|본부|센터|파트|실|사업부)장$")
#: Characters (spaces squeezed) between a unit's name and its head's title written before the holder's name.
_UNIT_TO_HEAD = 12
#: The end of a unit's name: "운영지원팀", "기획실", "영업본부".
_UNIT_END = re.compile(r"[가-힣](?:팀|지점|본부|센터|파트|실|사업부|과)$")
#: Labels of the role a person holds.
_ROLE_LABEL = re.compile(
    r"^\s*(?:job title|title|(?:job )?roles?|position|post|team|department|qualification|"
    r"직책|직위|직함|역할|소속|부서|팀|자격)\s*$",
    re.I,
)


#: How many labels two entities share to be things of one kind described alike (see `Closure._sibling`).
_SIBLING_LABELS = 2
_NAME_WORD = 3
_HOLDER_CHARS = 40  # longer than a name with its title
_SHORT_TEXT = 4  # a text value this short ("중앙동", "Yes") needs its label beside it in another page's line
#: A heading, a table row or a list item: a line that lists a post beside its holder rather than telling of it.
_LISTED_LINE = re.compile(r"^\s*(?:#{1,6}\s|\||[-*•·]\s)")
_RETOLD_WORDS = 3  # rare words of a sentence another page's line must share with it to tell its figure again
_EN_STEM_CHARS = 5  # an English word is found by its start this long at least ("start" of "started")
_FIRST_NAME_CHARS = 3
#: English words too common to tell one sentence from another, however few pages of a small folder use them.
_EN_FUNCTION_WORDS = frozenset(
    "that this these those with from into onto over under after before about above below between through during "
    "since until while when where which whose what they them their there then than have been being were will "
    "would could should also each every some such very more most much many only other just like both either "
    "neither upon within without".split()
)
_ROW_FORM_CHARS = 4  # a row label this long ("Italian" of "the Italian Course") names its row on other pages
_MEASURE_WORDS = 2  # rare words of a sentence a line writing its measure must share with it to state it
#: Words between "is" and the post it names: "is also our", "is now the".
_ROLE_FILLER = r"(?:(?:also|now|currently|our|the|a|an)\s+){0,3}"
_POST_HEAD_CHARS = 4  # a post's head word before "of the …" this long names the post ("Chair" of "Chair of the Trust")
_CODE_CHARS = 5  # a code this long ("HJ-CTS-05", not "A1") names one thing wherever it is written
_ROLE_CHARS = 40  # "Accuracy Checking Pharmacy Technician": a post, longer than this a description
_LABELS_TRIED = 12  # labels of an entity tried in pairs when looking for one described alike
#: A Korean road-name address's road and building number: "서초중앙로 118", "매영로310번길 12", "혁신로 87-3".
_KO_ROAD = re.compile(r"([가-힣0-9]{2,}(?:로|길)(?:\s?\d+번?길)?)\s?(\d+)(?:-\d+)?(?![\d가-힣])")
#: Korean labels people shorten: "점심시간" to "점심", "토요일" to "토".
_SHORT_LABEL = re.compile(r"([가-힣]{2,})시간|([월화수목금토일])요일")
#: How far past its label a value may run on in a line (spaces closed up or opened, a note).
_AFTER_LABEL = 12
#: A numbered or marked item opening a line at its margin: the heading of the indented notes under it in minutes
#: and plain-text pages ("3. 『숫자로 읽는 동네』 진행 상황", "■ 회의 안건", "II. Budget").
_OUTLINE_ITEM = re.compile(r"(?:\d{1,2}[.)]|[IVX]{1,4}\.|[■□▶▷◆◇●]|제\s?\d+\s?[조장절])\s*\S")

#: How many pages may write a figure for its label alone to tie a line to the fact; and for the figure alone.
_FEW_PAGES = 12
_RARE_PAGES = 3


def _one_amount_text(fact: FactNode) -> bool:
    """A short text built around one amount: "약 5,000명 (예산 소진 시 조기 마감)"."""
    return fact.value_type == "text" and len(fact.value) <= 60 and _one_amount(fact.value) is not None


def _labelled_otherwise(line: str, fact: FactNode, label: list[str]) -> bool:
    """Whether a line gives the figure under a label of its own that shares no word with the fact's: "Total contract
    value: $135,000" is no one's current salary; "기본형 검진: 150,000원" may well be the 종합검진 기본형's price."""
    at = min((m.start() for m in (re.search(re.escape(t), line) for t in tokens(fact.value)) if m), default=-1)
    if at < 0:
        return False
    named = re.search(r"([^:：|]{2,40}?)\s*[:：]\s*(?:약\s*|about\s*|approx\.?\s*)?[$€£¥₩₹]?\s*$", line[:at], re.I)
    if named is None:
        return False
    words = normalize(named.group(1))
    return not any(cue in words for cue in [*label, *attribute_cues(fact)])


def _distinct_figure(fact: FactNode) -> bool:
    """A figure unlikely to recur by chance: an amount of money, a date, a number of 100 or more, a percentage
    with decimals (not "40명" or "2회", which other events in the same KB may well share)."""
    if fact.value_type in ("money", "date"):
        return True
    number = abs(fact.number or 0)
    if fact.value_type == "percent":
        return number >= 10 or number != int(number)
    return fact.value_type == "number" and number >= 100


def _numbered_name(fact: FactNode) -> bool:
    """A text value that is a name with its number ("사법연수원 39기", "Cohort 12", "Room 204"): particular enough
    that a line naming the subject and writing it states it, whatever the line calls it."""
    return (
        fact.value_type == "text"
        and len(fact.value) <= _NUMBERED_NAME_CHARS
        and _NUMBERED.fullmatch(fact.value.strip()) is not None
    )


_NUMBERED = re.compile(r"(?:[^\W\d_]{2,}\s)+(?:제\s?)?\d{1,4}\s?[^\W\d_]{0,2}", re.U)
_NUMBERED_NAME_CHARS = 30


def _address_like(fact: FactNode) -> bool:
    """A text value long and particular enough to be the same fact wherever a page naming the subject writes it
    whole: a street address ("218 Millrace Road, Harlan Falls, PA 17940"), not "Monday" or "Yes"."""
    value = fact.value.strip()
    if fact.value_type != "text" or fact.value_entity or len(value) < 15 or len(value.split()) < 3:
        return False
    # a number first ("218 Millrace Road, …") or parts after a comma ("가온시 테크노2로 48, 가온창업센터 5층"); not a
    # model's name ("Aurora Courier 600")
    return bool(re.search(r"\d", value)) and (value[:1].isdigit() or "," in value)


#: Words that tell a founding: "founded", "set the business up", "established", "설립", "창업".
_FOUNDED = re.compile(
    r"\b(?:co-?)?found(?:ed|ing|s)?\b|\bestablish(?:ed|es)?\b|\bset\s+(?:\w+\s+){0,3}up\b|\bincorporated\b|"
    r"설립|창업|창립|문을 열",
    re.I,
)
#: A model or part code written in brackets after a name: "(ORV-R7)", "（AP-40H）".
_BRACKETED_CODE = re.compile(r"[(（]([A-Z][A-Z0-9]*-?[A-Z0-9]*\d[A-Z0-9-]*)[)）]")
#: A Korean name made of a word and the kind of course it is ("박사 과정", "탁구 강좌").
_KO_KIND_AFTER = re.compile(
    r"([가-힣][가-힣·]*(?:\s[가-힣\w·]+)*)\s(?:" + "|".join(sorted(KO_SERVICE_KINDS, key=len, reverse=True)) + ")"
)
#: Quotation brackets around the title of a work: 《 》 「 」 『 』 〈 〉 “ ”.
_TITLE_QUOTES = re.compile(r"[《》「」『』〈〉“”]")
#: A company's legal form, written with its name: "(주)하루결에프앤비", "Millrace Lettings Ltd".
_LEGAL_FORM = re.compile(r"\(주\)|㈜|주식회사|유한회사|(?<!\w)(?:ltd|limited|inc|llc|llp|gmbh|plc|corp)(?!\w)", re.I)
#: Labels of a brand's legal name.
_LEGAL_LABEL = re.compile(r"법인명|회사명|상호|운영사|legal name|company name|registered name|operated by", re.I)
#: How far apart, in characters of one line, a brand and the company that runs it are written.
_LEGAL_NEAR = 30
#: A list value is retold by a line naming its subject with this share of its words (of at least this many).
_RETOLD_SHARE = 0.7
_LIST_RETOLD_WORDS = 4
#: A list of this many items or more, all in one line of a page in the same folder, is the same list.
_LISTED_AGAIN = 3
_LIST_ITEM_CHARS = 20
#: The kinds of street an English address names, with the short forms people write them in.
_STREET_KINDS = {
    "road": "rd",
    "street": "st",
    "avenue": "ave",
    "boulevard": "blvd",
    "drive": "dr",
    "lane": "ln",
    "place": "pl",
    "court": "ct",
    "highway": "hwy",
    "parkway": "pkwy",
    "square": "sq",
    "terrace": "ter",
    "crescent": "cres",
}


@lru_cache(maxsize=4096)
def _street_pattern(value: str) -> re.Pattern[str] | None:
    """A pattern for a street address ("45 Canal Road") written whole or with the street's kind short ("45 Canal
    Rd."), up to that word; None for a value that is no such address."""
    # the street part of a longer address ("The Gull & Lantern, 14 Quayside Terrace, Merrowby MR7 2QT")
    street = re.search(r"(?<![\w-])\d+[A-Za-z]?\s+[A-Z][^,;()]*", value)
    words = street.group(0).split() if street else []
    if len(words) < 3:
        return None
    for i, word in enumerate(words[1:5], start=1):
        bare = word.strip(".,").lower()
        full = bare if bare in _STREET_KINDS else next((k for k, v in _STREET_KINDS.items() if v == bare), None)
        if full is not None and i >= 2:
            head = r"\s+".join(re.escape(w) for w in words[:i])
            return re.compile(rf"(?<![\w-]){head}\s+(?:{full}|{_STREET_KINDS[full]}\.?)(?!\w)", re.I)
    return None


def _split_at_arrow(line: str) -> tuple[str, str, str]:
    """A line split at its first arrow ("Family £26 → £28"): before, the arrow, after; ("", "", "") without one."""
    match = re.search(r"→|->|⇒", line)
    return (line[: match.start()], match.group(0), line[match.end() :]) if match else ("", "", "")


def _name_then_post(names: str, roles: str) -> str:
    """A pattern for one of `names` then, past a separator or four, one of `roles`, which may carry one word of its
    body before it ("Desmond Okereke, Board Clerk"), never "former" ("Lesley (Treasurer)", "도현씨 중개보조원")."""
    return rf"(?<![\w가-힣])(?:{names}){_NAME_TO_POST}{{1,4}}(?:(?!former\s|retired\s|past\s)[a-z]+\s)?(?:{roles})"


def _specific(fact: FactNode) -> bool:
    """A typed value specific enough to be recognised away from its label: an amount with its unit, a full date."""
    if fact.value_type in ("money", "percent") or (fact.value_type == "number" and fact.unit):
        return True
    return fact.value_type == "date" and fact.date_key is not None and len(fact.date_key) >= 10


def _measure_written(match: re.Match[str]) -> str:
    """A measure as one string whatever its spacing and dashes: "220–240 v" and "220 - 240 v" are "220-240v"."""
    figure = re.sub(r"\s+", "", match.group(1)).replace("–", "-").replace("~", "-").replace(",", "")
    return figure + {"m²": "m2"}.get(match.group(2), match.group(2))  # normalising writes "㎡" as "m2"


def measure_of(value: str) -> str | None:
    """The one measure a value is ("212㎡", "220–240 V ~"), written as `_measure_written` does; None for any other
    value ("1450 W, 220–240 V" holds two)."""
    norm = normalize(value)
    if not _MEASURE_VALUE.fullmatch(norm):
        return None
    match = _MEASURE.search(norm)
    return _measure_written(match) if match else None


def _same_row(fact: FactNode, label: str, line: str) -> bool:
    """A table row of another page opening with `label`, the label of the fact's own row, its figure in the same
    row, or a line writing the figure right beside that label: a notice's "  Essential    6.15 kW    $17,900" and
    an FAQ's "the 6.15 kW Essential system" restate the price sheet's "| **Essential** | 6.15 kW |" (whose entity
    is the "Essential Package")."""
    if re.match(rf"\s*\|?\s*[*_]*{re.escape(label)}[*_]*(?:\s*\||\s{{2,}}|\t)", line, re.I):
        return True
    # or the figure written right beside the label, as written (a capitalised label in its case): an FAQ's "the
    # 8.2 kW Standard", "Essential (6.15 kW)"
    named = re.escape(label)
    for found in find_values(line):
        if _same_value(fact, found, line) and (
            re.match(rf"\s*[*_]*{named}\b", line[found.end :])
            or re.search(rf"\b{named}[*_]*\s*[(:–—-]?\s*$", line[: found.start])
        ):
            return True
    return False


def _recorded_figure(value: str) -> str:
    """A recorded value as compared across records: its bare figure, an English day or days by their first three
    letters ("Saturday" and "Sat" are one cell)."""
    if DAYS.match(value.strip()):
        return re.sub(r"\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*", r"\1", normalize(value))
    return bare_figure(value)


def _alternation(names: set[str], shortest: int = 1) -> str:
    """A regex alternation of the names of at least `shortest` characters, longest first (so "aurora bikes" is
    tried before "aurora"); "" when none is left."""
    return "|".join(re.escape(n) for n in sorted((n for n in names if len(n) >= shortest), key=len, reverse=True))


def _tells_the_same(cues: list[str], norm: str) -> bool:
    """Whether a line holds most of a prose fact's own words (its cues): the same event, not another one on the
    same date ("On January 30, 2020, WHO declared …" does not tell "the CDC reported … household")."""
    return not cues or sum(cue in norm for cue in cues) >= 0.6 * len(cues)


def _label_stems(label: str) -> set[str]:
    """The words of a date label that say what happened, as stems: "passe" of "Passenger closure" ("closu" too),
    "개통" of "개통일"; not the words every date label has ("date", "year", "일자")."""
    stems = set()
    for word in re.findall(r"[A-Za-z]{4,}|[가-힣]{2,}", label):
        low = word.lower()
        if low in _DATE_WORDS or low in _STOP:
            continue
        stems.add(low[:5] if word.isascii() else re.sub(r"(?:일자|일|년도|연도|시기)$", "", word) or word)
    return {s for s in stems if len(s) >= 2}


#: Words every date label may hold, saying nothing of the event.
_DATE_WORDS = frozenset("date dates year years day when time period 날짜 일자 연도 년도 시기 기간".split())


def _few(documents: int) -> int:
    """How many pages of a knowledge base of `documents` pages are few: 6 of 22, 63 of 1,000 (rare for its size)."""
    return max(5, int(documents**0.6))


def _with_its_question(lines: list[str], index: int) -> str:
    """A line, and the line before it when that is a heading or a question (an FAQ answer under its question)."""
    if index > 0 and _QUESTION_LINE.search(lines[index - 1]):
        return lines[index - 1] + " " + lines[index]
    return lines[index]


def _with_its_header(lines: list[str], index: int) -> str:
    """A table row with the header of its table before it (the first row of the run of rows it is in); other lines
    as they are."""
    if not lines[index].lstrip().startswith("|"):
        return lines[index]
    top = table_top(lines, index)
    return lines[top] + " " + lines[index] if top < index else lines[index]


_WORDS = re.compile(r"\w+")
#: A code of letters and digits: "AF-40H", "KSI-6000", "H13" (a letter first; "5kg" and "2024년" are no codes).
#: A measure written with its unit, one figure or a range (normalised text): "212m2" ("212㎡"), "1450 w", "220–240 v".
_MEASURE = re.compile(
    r"(?<![\d.,])(\d[\d,]*(?:\.\d+)?(?:\s*[-–~/]\s*\d[\d,]*(?:\.\d+)?)?)\s*"
    r"(kwh|wh|mah|kw|kv|w|v|hz|mm|cm|km|kg|ml|m2|m²|bar|db|°c|l|g|m)(?![a-z\d²])"
)
#: What may follow a measure and still leave it one figure: the mark of alternating current ("220–240 V ~").
_MEASURE_VALUE = re.compile(rf"\s*(?:{_MEASURE.pattern})\s*(?:~|ac|dc)?\s*")
_IDENTIFIER = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z-]*\d[A-Za-z0-9-]*(?<!-)(?![\w-])", re.ASCII)


class Closure:
    """Closures of facts over one knowledge base (the raw lines of each chunk are split once)."""

    def __init__(self, ctx: GenContext) -> None:
        self.ctx = ctx
        self._lines: dict[str, list[str]] = {}
        self._rare_words: dict[str, bool] = {}
        self._few_words: dict[str, bool] = {}  # a word written as it is → whether few pages write it
        self._brands: set[str] | None = None
        self._homes: dict[str, str] | None = None
        self._by_type: dict[str, set[str]] | None = None
        self._by_cell: dict[str, list[FactNode]] | None = None
        self._doc_chunks: dict[str, frozenset[str]] = {}
        self._last_candidates: tuple[str, set[str]] = ("", set())  # (fact id, its candidate chunks)
        self._restating: dict[str, list[str]] = {}  # fact id → documents that may restate it (see `unclaimed`)
        self._titles: dict[str, str] = {}  # doc id → normalised title
        self._chunk_kinds: dict[str, dict[str, set[str]]] | None = None  # chunk → entity type → entities named
        self._homes_by_kind: dict[tuple[str, str], set[str]] = {}  # (entity type, doc id) → entities it is home to
        self._document_pages: set[str] | None = None  # see `_document_page`
        self._entity_names: dict[str, str] = {}  # normalised entity name → entity id
        self._legal: dict[str, set[str]] = {}  # entity id → the legal names its facts give it
        self._by_chunk: dict[str, list[FactNode]] | None = None  # chunk id → the facts mined from it
        self._by_key: dict[tuple[str, str, str], set[str]] | None = None  # (entity, label, figure) → documents
        self._short_names: dict[tuple[str, str, str], set[str]] = {}  # (folder, first, last) → her shortened names
        self._by_number: dict[float, list[FactNode]] | None = None  # a table cell's number → the facts giving it
        self._labels: dict[str, set[str]] | None = None  # entity id → the labels of its structured facts
        self._by_label: dict[str, set[str]] | None = None  # label → the entities with a fact under it
        self._many: dict[str, bool] = {}  # entity id → whether another entity is described alike
        # labelled facts by normalised value, and by the one measure they give (see `_structured`)
        self._by_value: tuple[dict[str, list[FactNode]], dict[str, list[FactNode]]] | None = None
        self.retold = Retold(ctx, self.subject_forms, self._colleague_name, self._first_name)

    def lines(self, chunk_id: str) -> list[str]:
        """Lines and sentences of a chunk as written (the typed value parser needs the original case)."""
        if chunk_id not in self._lines:
            self._lines[chunk_id] = [p for p in _SEGMENT.split(self.ctx.chunks[chunk_id].text) if p.strip()]
        return self._lines[chunk_id]

    def _candidates(self, fact: FactNode) -> set[str]:
        """Chunks of other pages that may hold the value (its own page states it already; a large page may hold
        thousands of such chunks): worked out once per fact, though several scans of `of` ask."""
        if self._last_candidates[0] != fact.fact_id:
            self._last_candidates = (fact.fact_id, self._value_chunks(fact) - self._chunk_ids(fact.doc_id))
        return self._last_candidates[1]

    def _value_chunks(self, fact: FactNode) -> set[str]:
        """Chunks that may hold the value: its words, or for a typed value its number or year alone."""
        if fact.value_type == "text" or (fact.value_type != "date" and fact.number is None):
            found = self.ctx.chunks_with(fact.value)
            for written in {squeezed(fact.value), squeezed(without_trailing_note(fact.value))} - {fact.value}:
                if len(written) >= 5:  # "기획·제작 PD", "14:00~20:00" (see states_value)
                    found = found | self.ctx.chunks_with(written)
            parts = _list_parts(fact.value)
            if parts:  # a list may be stated with other joining words
                found = found | self.ctx.chunks_with(max(parts, key=len))
            times = _clock_range(fact.value)[0]
            if times:  # "오전 10시 ~ 오후 5시" may be written "10:00 ~ 17:00", "10 am – 5 pm"
                found = found | (self._hour_chunks(times[0]) & self._hour_chunks(times[-1]))
            amount = _one_amount(fact.value)
            if amount is not None:  # the amount may be stated with the words reordered
                numbers = [t for t in tokens(amount.text) if t[:1].isdigit()]
                if numbers:
                    found = found | self.ctx.token_index.get(max(numbers, key=len), set())
            return found
        digits = [t for t in tokens(fact.value) if t[:1].isdigit()]
        if not digits:
            return self.ctx.chunks_with(fact.value)
        key = max(digits, key=len)  # the year of a date, the amount of a price
        if fact.value_type == "date" and fact.date_key and fact.date_key[:4].isdigit():
            key = fact.date_key[:4]  # "2011.11" is also written "2011년 11월": the year alone
        found = self.ctx.token_index.get(key, set()) | self.ctx.chunks_with(fact.value)
        return found | self._figure_chunks(fact, key)

    def _figure_chunks(self, fact: FactNode, figure: str) -> set[str]:
        """Chunks writing an amount's figure otherwise: grouped or not ("580000" of a spreadsheet is "580,000" on a
        page, and back), a round sum of won by 만 ("70,000원" is also "7만 원")."""
        index = self.ctx.token_index
        found: set[str] = set()
        if re.fullmatch(r"\d{4,}", figure):
            found |= index.get(f"{int(figure):,}", set())
        elif re.fullmatch(r"\d{1,3}(?:,\d{3})+", figure):
            found |= index.get(figure.replace(",", ""), set())
        if fact.number and fact.unit == "원" and fact.number % 10_000 == 0:
            # "24만원" is one token of the index with its 원: either way
            man = self.ctx.chunks_with("만") | self.ctx.chunks_with("만원")
            found |= index.get(f"{fact.number / 10_000:g}", set()) & man
        return found

    def _hour_chunks(self, time: str) -> set[str]:
        """Chunks writing a time's hour, in 24-hour or 12-hour form ("17" or "5" for 17:00)."""
        hour = int(time[:2])
        forms = {str(hour), f"{hour:02d}", str(hour - 12) if hour > 12 else str(hour)}
        return set().union(*(self.ctx.token_index.get(form, set()) for form in forms))

    def of(self, fact: FactNode) -> set[str]:
        """Every document that states `fact` (its own document always)."""
        ctx = self.ctx
        docs = {fact.doc_id}
        # short names only for a value the line states in full (a date, an amount): for a relation, the two names
        # side by side in a line ("launched the Courier 600 and signed Salish") need not state it
        forms = self.subject_forms(fact, short=not fact.value_entity)
        entity = ctx.entities.get(fact.subject_entity or "")
        home = entity.home_doc if entity is not None else None
        cues = attribute_cues(fact)
        # a short text value around one amount ("연간 왕복 6,000석") or a short list: the amount with its unit and the
        # value's words, or every item, in one line naming the subject are evidence enough, whatever the chunk calls
        # the attribute
        reworded = fact.value_type == "text" and (_one_amount(fact.value) is not None or bool(_list_parts(fact.value)))
        if fact.unit and cues and fact.unit.isalpha() and not (fact.unit.isascii() and len(fact.unit) <= 3):
            # the unit names what is counted ("Headcount: 148 employees" is about employees, "employ 148 people");
            # a measure's unit ("kg", "mm") names nothing about the attribute
            cues.append(_unit_stem(fact.unit)[:5])
        dimension = _UNIT_DIMENSION.get((fact.unit or "").lower())
        if dimension and cues:
            cues.append(dimension)  # "a 48-volt pack" tells a voltage, whatever the label calls it
        if cues and _KO_TYPE_LABEL.search(fact.attribute.strip()) and re.fullmatch(f"[{HANGUL}]+", fact.value):
            cues.append(fact.value + "형")  # "유형: 순수보장" is told by "…순수보장형이라", whatever calls it a type
        counted = _COUNT_LABEL.fullmatch(normalize(fact.attribute)) is not None and fact.unit is None
        for chunk_id in self._about(fact, forms, home):
            if ctx.chunks[chunk_id].doc_id in docs:
                continue
            # the attribute must show in the chunk, except for an amount of money: "Aurora Cargo Max ($5,450)"
            if (
                cues
                and fact.value_type != "money"
                and not contact_kind(fact.value)  # a telephone number or address is its own evidence
                and not _address_like(fact)  # "## 오시는 길" over the firm's street address: no "주소" in sight
                and not reworded
                and not counted  # "Units: 40" is stated by "leasing 40 bikes"
                and not _numbered_name(fact)  # "사법연수원 제39기" beside his name, with no "자격" in sight
                and not any(cue in ctx.chunk_norm[chunk_id] for cue in cues)
            ):
                continue
            if self._chunk_states(fact, chunk_id, forms, cues, home, counted):
                docs.add(ctx.chunks[chunk_id].doc_id)
        docs |= self._restated_rule(fact, cues, docs)
        docs |= self._told_again(fact, cues, docs)
        docs |= self._event_retold(fact, forms, docs)
        docs |= self._figure_retold(fact, forms, docs)
        docs |= self._year_told_in_prose(fact, forms, docs)
        docs |= self._same_names_and_verb(fact, docs)
        docs |= self._founding_told(fact, docs)
        docs |= self._association_told(fact, forms, docs)
        docs |= self._by_distinctive_words(fact, forms, docs)
        docs |= self._by_identifier(fact, docs)
        docs |= self._same_event(fact, docs)
        docs |= self._role_beside_name(fact, forms, docs)
        docs |= self._holder_beside_post(fact, forms, docs)
        docs |= self._rows_naming(fact, forms, docs)
        docs |= self._row_under_named_heading(fact, forms, docs)
        docs |= self._head_of_unit(fact, forms, docs)
        docs |= self._title_after_name(fact, forms, docs)
        docs |= self._in_apposition(fact, forms, docs)
        docs |= self._measure_in_brackets(fact, forms, docs)
        docs |= self._figure_in_folder(fact, docs)
        docs |= self._street_written_short(fact, forms, docs)
        docs |= self._road_written(fact, docs)
        docs |= self._list_retold(fact, forms, docs)
        docs |= self._price_retold(fact, docs)
        docs |= self._beside_its_row_label(fact, cues, docs)
        return self._named_otherwise(fact, forms, cues, docs)

    def _named_otherwise(self, fact: FactNode, forms: set[str], cues: list[str], docs: set[str]) -> set[str]:
        """`of`'s last passes: the fact told by a code, a contact, a legal name, a record or a relation's other end."""
        docs |= self._address_written(fact, forms, docs)
        docs |= self._name_beside_code(fact, forms, docs)
        docs |= self._code_under_its_column(fact, docs)
        docs |= self._room_code_retold(fact, docs)
        docs |= self._legal_name_beside(fact, forms, docs)
        docs |= self._contact_in_folder(fact, docs)
        docs |= self._said_of_every_variant(fact, cues, docs)
        docs |= self._recorded_again(fact, forms)
        docs |= self._cell_of_a_comparison(fact, docs)
        docs |= self._labelled_in_folder(fact, docs)
        short_forms = self.subject_forms(fact) if fact.value_entity else forms
        docs |= self._from_the_other_end(fact, short_forms | self.distinctive(forms))
        docs |= self._relation_in_prose(fact, short_forms, docs)
        docs |= self._from_the_listed_pages(fact, forms)
        return docs

    def unclaimed(self, fact: FactNode, docs: set[str]) -> str | None:
        """A document beyond `docs` with a chunk that names the subject and writes the fact's specific value (an
        amount with its unit, a full date) in a line: "Just under four and a half kilos (4.3 kg)" under an FAQ question
        about "the Cargo pack" likely states the KC-720 Cargo's weight in words the closure cannot tie to it. Its
        id, or None."""
        if not (_specific(fact) or _one_amount_text(fact) or _address_like(fact)):
            return None
        restating = self._restating.get(fact.fact_id)
        if restating is None:
            restating = self._restating[fact.fact_id] = self._restating_docs(fact)
        return next((doc_id for doc_id in restating if doc_id not in docs), None)

    def _restating_docs(self, fact: FactNode) -> list[str]:
        """The documents (other than the fact's own) with a chunk that names the subject and a line stating the
        value not given to another thing (worked out once per fact: the validator asks for every draft)."""
        forms = {f for f in self.subject_forms(fact) if len(f) >= 3}
        if not forms:
            return []
        named = re.compile(rf"(?<!\w)(?:{_alternation(forms)})(?!\w)")
        owned = _owner_pattern(fact.value)

        def names(text: str) -> bool:
            return named.search(text) is not None

        found: list[str] = []
        amount = _one_amount(fact.value) if _one_amount_text(fact) else None
        whole = without_trailing_note(fact.value)  # "상근 7명" of "상근 7명 (사무국장 포함)"
        if amount is not None:  # "약 5,000명 (예산 소진 시 조기 마감)": the amount is what another page writes
            fact = fact.model_copy(
                update={
                    "value": amount.text,
                    "value_type": amount.value_type,
                    "number": amount.number,
                    "unit": amount.unit,
                }
            )
        holding = self.ctx.chunks_with(fact.value)
        written_otherwise: set[str] = set()
        if amount is None and re.fullmatch(r"[\d,]+", fact.value.strip()):
            # "50000" of a spreadsheet's fee column, written "5만 원" in the FAQ's line naming the course
            written_otherwise = (self._figure_chunks(fact, fact.value.strip()) & self._chunks_naming(forms)) - holding
            holding = holding | written_otherwise
        pages = {self.ctx.chunks[c].doc_id for c in holding}
        # A figure few pages write is the same fact wherever it is written with its label ("지원 인원(약 5,000명)")
        # or, when only two or three pages write it at all, wherever it is written ("기본형 검진: 150,000원" in a
        # patient's blog): the index narrows first, since a common price may be on thousands of chunks.
        distinct = _distinct_figure(fact)
        few = len(pages) <= _FEW_PAGES
        rare = len(pages) <= _RARE_PAGES and distinct
        own = set(tokens(" ".join(forms)))
        label = [cue for cue in attribute_cues(fact) if cue not in own]
        chunks = holding if few else holding & self._chunks_naming(forms)
        for chunk_id in sorted(chunks):
            doc_id = self.ctx.chunks[chunk_id].doc_id
            if doc_id == fact.doc_id or doc_id in found:
                continue
            # a page titled with the subject ("재단법인 늘품나눔재단 … 회의록") is about it past its first chunk
            naming = names(self.ctx.chunk_norm[chunk_id]) or names(self._title_norm(doc_id))
            if not (naming or few):
                continue
            for index, line in enumerate(self.lines(chunk_id)):
                # "The price of the operator training course is $12,500" names another owner of the figure
                if not states_value(fact, line) or _owned_by_another(line, owned, names):
                    continue
                if chunk_id in written_otherwise and not names(normalize(line)):
                    continue
                labelled = bool(label) and all(cue in normalize(line) for cue in label)
                if amount is not None and not labelled and not contains_keyword(normalize(line), whole):
                    continue  # "1TB" of "Up to 1TB via microSD" is another 1TB unless the line says what it is
                # "Concession £4.50" in a notice's list of prices, for the price list's "Concession single | £4.50":
                # a figure few pages write, beside its label's first word and half of the rest ("Basic Tier" is no
                # "Enterprise Tier")
                said = [cue in normalize(line) for cue in label]
                partly = bool(label) and said[0] and 2 * sum(said) >= len(label)
                tied = (rare and not _labelled_otherwise(line, fact, label)) or (distinct and (labelled or partly))
                # "Base Salary: $225,000" on another employee's page is that employee's; a notice or an FAQ of the
                # subject's folder is a page of its own, no rival
                paged = not self._document_page(doc_id)
                if naming or (tied and not self._names_a_rival(fact, chunk_id, index, pages=paged)):
                    found.append(doc_id)
                    break
        return found

    def _document_page(self, doc_id: str) -> bool:
        """Whether a page is a document of its own (a notice, an FAQ, minutes): every thing homed on it is named by a
        document's title, so it describes no thing like the subject (another product, another employee)."""
        if self._document_pages is None:
            names: dict[str, list[str]] = {}
            for entity in self.ctx.entities.values():
                if entity.home_doc:
                    names.setdefault(entity.home_doc, []).append(entity.name)
            self._document_pages = {
                doc for doc, homed in names.items() if all(document_subject(n) or page_kind_title(n) for n in homed)
            }
        return doc_id in self._document_pages

    def _names_a_rival(self, fact: FactNode, chunk_id: str, index: int, *, pages: bool = True) -> bool:
        """Whether line `index` of a chunk is about another thing of the subject's kind (another employee, another
        product): a figure there, written without the subject's name, is more likely that thing's. With `pages`
        false, a page of the folder is no rival for being a page of its own, unless it describes a thing like the
        subject (another contract)."""
        entity = self.ctx.entities.get(fact.subject_entity or "")
        if entity is None:
            return False
        kinds = self._kinds_by_chunk()
        node = self.ctx.chunks[chunk_id]
        own = {entity.entity_id}
        homes = self._homes_by_kind.get((entity.entity_type, node.doc_id), set())
        if not pages and not any(self._sibling(entity.entity_id, home) for home in homes):
            own |= homes  # a notice's or a care sheet's own name, in its title, is no rival; another contract is
        if kinds.get(chunk_id, {}).get(entity.entity_type, set()) - own:
            return True
        # or under a heading naming another thing ("### 1. Velvera Buds" above the line), whatever kind the graph
        # gave it
        line = self.lines(chunk_id)[index]
        if line.lstrip().startswith("|"):  # a table row headed by another thing: "| **Velvera Buds** | … | ₹8,999 |"
            head = normalize(line.strip().strip("|").split("|")[0].strip(" *"))
            if self._entity_names.get(head, entity.entity_id) not in own:
                return True
        at = node.text.find(line)
        before = node.text[: max(at, 0)].split("\n")
        # a section's heading, not the page's title (every page's title is a name in the graph)
        above = [ln.lstrip("# ").strip() for ln in before if ln.lstrip().startswith("##")]
        heading = above[-1] if above else (node.heading_path[-1] if len(node.heading_path) > 1 else "")
        heading = normalize(re.sub(r"^\s*\d+[.)]\s*", "", heading))
        if heading and self._entity_names.get(heading, entity.entity_id) not in own:
            return True
        # or on the page of one ("## Compensation" on James Wilson's page)
        return bool(homes - own)

    def _entity_labels(self) -> dict[str, set[str]]:
        """Entity id → the labels of its structured facts (built once)."""
        if self._labels is None:
            self._labels = {}
            for f in self.ctx.facts:
                if f.subject_entity and f.source in ("key_value", "table"):
                    self._labels.setdefault(f.subject_entity, set()).add(normalize(f.attribute))
        return self._labels

    def _one_of_many(self, entity_id: str | None) -> bool:
        """Whether an entity is one of several things described alike (another shares two of its labels): a
        course among a centre's courses, not the centre."""
        if not entity_id:
            return False
        if entity_id not in self._many:
            by_entity = self._entity_labels()
            labels = sorted(by_entity.get(entity_id, set()))
            if self._by_label is None:
                self._by_label = {}
                for other, theirs in by_entity.items():
                    for label in theirs:
                        self._by_label.setdefault(label, set()).add(other)
            found = False
            for i, first in enumerate(labels[:_LABELS_TRIED]):
                with_first = self._by_label.get(first, set()) - {entity_id}
                if any(with_first & self._by_label.get(second, set()) for second in labels[i + 1 : _LABELS_TRIED]):
                    found = True
                    break
            self._many[entity_id] = found
        return self._many[entity_id]

    def _sibling(self, entity_id: str, other_id: str) -> bool:
        """Whether two entities are things of one kind: they share two or more labels of their facts (two contracts'
        "Term" and "Annual fee") or a word at the edge of their names, as a notice and the clinic it speaks for do
        not."""
        by_entity = self._entity_labels()
        if len(by_entity.get(entity_id, set()) & by_entity.get(other_id, set())) >= _SIBLING_LABELS:
            return True
        # or named alike: "Contract with Atlantic Risk" and "Contract with Heritage Life", "CIS 214 …" and "CIS 331 …"
        mine, other = self.ctx.entities.get(entity_id), self.ctx.entities.get(other_id)
        if mine is None or other is None:
            return False
        a, b = normalize(mine.name).split(), normalize(other.name).split()
        if not a or not b:
            return False
        return (a[0] == b[0] and len(a[0]) >= _NAME_WORD) or (a[-1] == b[-1] and a[-1] not in PAGE_KIND_WORDS)

    def _kinds_by_chunk(self) -> dict[str, dict[str, set[str]]]:
        """Chunk → entity type → the entities it names; built once, with the names and home pages of every entity
        that `_names_a_rival` also reads."""
        if self._chunk_kinds is None:
            kinds: dict[str, dict[str, set[str]]] = {}
            for entity_id, chunk_ids in self.ctx.entity_chunks.items():
                other = self.ctx.entities.get(entity_id)
                if other is None:
                    continue
                for chunk in chunk_ids:
                    kinds.setdefault(chunk, {}).setdefault(other.entity_type, set()).add(entity_id)
            self._chunk_kinds = kinds
            self._entity_names = {normalize(e.name): e.entity_id for e in self.ctx.entities.values()}
            for other in self.ctx.entities.values():
                if other.home_doc:
                    self._homes_by_kind.setdefault((other.entity_type, other.home_doc), set()).add(other.entity_id)
        return self._chunk_kinds

    def _about(self, fact: FactNode, forms: set[str], home: str | None) -> list[str]:
        """Chunks that may hold the value and are about the subject: its mentions, its own page, its names, a page
        titled with it; tested per candidate (the candidates are few) rather than by collecting every chunk of the
        subject's page for every fact."""
        ctx = self.ctx
        entity = ctx.entities.get(fact.subject_entity or "")
        mentions = ctx.entity_chunks.get(entity.entity_id, set()) if entity is not None else set()
        named: set[str] = set().union(*(ctx.chunks_with(form) for form in forms)) if forms else set()
        candidates = self._candidates(fact)
        near = (mentions | named) & candidates
        rest = candidates - near
        # a page titled with the subject, or a page of the folder named after it ("달빛캠핑장/02_FAQ.md")
        titled = {
            d
            for d in {ctx.chunks[c].doc_id for c in rest}
            if d == home or self._titled(d, forms) or self._folder_of(fact, d, forms)
        }
        # a page titled with the subject ("History of Aurora Bikes") is about it past its first chunk
        return sorted(near | {c for c in rest if ctx.chunks[c].doc_id in titled})

    def _chunk_ids(self, doc_id: str) -> frozenset[str]:
        """The ids of a document's chunks, as a set (cached)."""
        ids = self._doc_chunks.get(doc_id)
        if ids is None:
            ids = self._doc_chunks[doc_id] = frozenset(c.chunk_id for c in self.ctx.chunks_by_doc.get(doc_id, []))
        return ids

    def _chunk_states(
        self, fact: FactNode, chunk_id: str, forms: set[str], cues: list[str], home: str | None, counted: bool
    ) -> bool:
        """Whether a line of the chunk states the fact of this subject."""
        doc_id = self.ctx.chunks[chunk_id].doc_id
        # On the subject's own page, or a page whose title names it ("Contract with X for Rellm"), the line need not
        # repeat the name: the attribute is enough.
        on_its_page = doc_id == home or self._titled(doc_id, forms)
        # a page of the folder named after the subject ("솔바람오토캠핑장/07_FAQ.md") is its page too, as long as the
        # line shows the attribute ("온수는 새벽 6시부터 밤 11시까지")
        in_its_folder = bool(cues) and self._folder_of(fact, doc_id, forms)
        address = _address_like(fact)  # a street address on the subject's page needs no "주소" beside it
        lines = self.lines(chunk_id)
        for index, line in enumerate(lines):
            if not states_value(fact, line) or (counted and not _counts_things(fact, line)):
                continue
            # the line, with the line before it: an FAQ answer under the question that names the subject
            norm = normalize(_with_its_question(lines, index))
            if fact.source == "sentence" and not _tells_the_same(cues, norm):
                continue  # a prose fact: the other line must tell the same event, not only share a date
            if _lower_case_use(fact.value, line, forms):
                continue  # "Trips by the executive team …" does not name the team "Executive"
            if fact.value_entity and _side_by_side(norm, forms, normalize(fact.value), cues):
                continue  # "X의 현지 운영과 Y 관리를 맡는다": two things named in a row, not the relation
            # a line with part of a relation's label names another one: "| Regional Manager, South West | Helen Okafor
            # | Bristol |" names her and the office, but not as its office manager (a row with none of the label's
            # words, under a column that gives it, may still state it)
            shown = sum(cue in norm for cue in cues)
            told = not fact.value_entity or shown in (0, len(cues))
            # ("화·목" beside a class are its days, whatever the label)
            short = len(normalize(fact.value)) <= _SHORT_TEXT and not DAYS.match(fact.value.strip())
            # a table row shows its column's label in the header ("| … | 과정코드 | …" over "| … | C01 | …")
            labelled = shown == len(cues) or all(cue in normalize(_with_its_header(lines, index)) for cue in cues)
            if short and fact.value_type == "text" and not labelled:
                # "중앙동" in "| 본사 | 서령시 중앙동 …" or "소재지: 서령시 중앙동" is the paper's or the market's
                # place, not the city hall's: a short value needs its whole label beside it
                told = False
            if (
                (told and any(form in norm for form in forms))
                or (on_its_page and (not cues or address or any(cue in norm for cue in cues)))
                or (in_its_folder and any(cue in norm for cue in cues))
                or self._under_its_heading(fact, chunk_id, index, forms, cues)
                or self._named_just_before(fact, chunk_id, index, forms, cues)
                or self._record_of(chunk_id, line, forms, cues)
            ):
                return True
        return False

    def _folder_of(self, fact: FactNode, doc_id: str, forms: set[str]) -> bool:
        """Whether the page is in the fact's own folder and the folder is named after the subject."""
        folder = self.ctx.doc_type(doc_id)
        if folder == ROOT_TYPE or folder != self.ctx.doc_type(fact.doc_id):
            return False
        return normalize(" ".join(re.split(r"[_\-]+", folder))) in forms

    def _named_just_before(self, fact: FactNode, chunk_id: str, index: int, forms: set[str], cues: list[str]) -> bool:
        """A specific value in a sentence that speaks of the subject as "the bike" or "its", named by the sentence
        before it in the same paragraph: "The Aurora Fold 250 was his first project. He cut its weight to 16.2 kg."
        The attribute must show in the sentence, and no other thing of the subject's kind may be named in it."""
        if not (_specific(fact) and cues and index > 0):
            return False
        lines = self.lines(chunk_id)
        text = self.ctx.chunks[chunk_id].text
        before, line = lines[index - 1], lines[index]
        start = text.find(line)
        end_before = text.rfind(before, 0, max(start, 0))
        if start < 0 or end_before < 0 or "\n" in text[end_before + len(before) : start]:
            return False  # another paragraph, list item or table row
        norm, norm_before = normalize(line), normalize(before)
        if not any(cue in norm for cue in cues) or not any(form in norm_before for form in forms):
            return False
        return not any(name in norm for name in self._kin_names(fact, forms))

    def _under_its_heading(self, fact: FactNode, chunk_id: str, index: int, forms: set[str], cues: list[str]) -> bool:
        """Whether the line sits in a section whose heading is the subject's name ("#### Velvera Wireless Dock /
        Price: ₹8,999 / $109" on a catalogue page), or gives the attribute under a numbered item of minutes or a
        plain-text page that names the subject and nothing else of its kind ("3. 『숫자로 읽는 동네』(배진우) 진행
        상황" over "  - … 정가 19,800원은 일단 유지.")."""
        lines = self.lines(chunk_id)
        line_norm = normalize(lines[index])
        outlined = bool(cues) and any(cue in line_norm for cue in cues) and _specific(fact)
        for line in reversed(lines[:index]):
            if line.lstrip().startswith("#"):
                heading = normalize(line.lstrip("# ").strip())
                return any(heading == form or heading.startswith(form + " (") for form in forms)
        if not outlined:
            return False
        # the item's heading is a whole line of the text (a segment may be one sentence of it)
        text = self.ctx.chunks[chunk_id].text
        at = text.find(lines[index].strip())
        above = text[: max(at, 0)].split("\n")
        if at <= 0 or _OUTLINE_ITEM.match(above[-1] + lines[index].strip()):
            return False  # the first line, or an item of its own
        for raw in reversed(above[:-1]):
            if raw.lstrip().startswith("#"):
                return False
            if _OUTLINE_ITEM.match(raw):
                heading = normalize(raw)
                return any(len(form) >= _NAME_WORD and form in heading for form in forms) and not any(
                    name in heading for name in self._kin_names(fact, forms)
                )
        return False

    def _chunks_naming(self, forms: set[str]) -> set[str]:
        """Chunks whose text holds one of the names (the index lookup that narrows a scan of lines)."""
        return set().union(*(self.ctx.chunks_with(form) for form in forms)) if forms else set()

    def _record_of(self, chunk_id: str, line: str, forms: set[str], cues: list[str]) -> bool:
        """Whether `line` is a labelled line whose label names the attribute, in a record with another labelled
        line whose value is the subject: a team lead's profile with "소속: 상품기획팀" and "팀 인원: 12명" states
        the team's size."""
        labelled = _LABELLED_LINE.match(line)
        if not cues or labelled is None or not any(cue in normalize(labelled.group(1)) for cue in cues):
            return False
        for other in self.lines(chunk_id):
            match = _LABELLED_LINE.match(other)
            if match is None or other == line or not _MEMBERSHIP.search(normalize(match.group(1))):
                continue  # only a group the record belongs to ("소속", "Team"), not its manager or a date
            value = normalize(other[match.end() :].strip(" *"))
            if any(value == form or re.fullmatch(rf"{re.escape(form)}\s*[(（][^)）]*[)）]", value) for form in forms):
                return True
        return False

    def _kin_names(self, fact: FactNode, forms: set[str]) -> set[str]:
        """Names (normalised) of the other things of the subject's kind."""
        entity = self.ctx.entities.get(fact.subject_entity or "")
        if entity is None:
            return set()
        if self._by_type is None:
            self._by_type = {}
            for other in self.ctx.entities.values():
                self._by_type.setdefault(other.entity_type, set()).add(normalize(other.name))
        own = forms | {normalize(entity.name)}
        return {n for n in self._by_type.get(entity.entity_type, set()) if len(n) >= 3 and n not in own}

    def _same_event(self, fact: FactNode, found: set[str]) -> set[str]:
        """A dated event of a timeline ("2019년 10월: 교토 미식 투어 3박 4일 출시") written with the same words and
        date in another document's timeline or text: that document dates the same event."""
        event = normalize(fact.attribute)
        if fact.source != "timeline" or len(event.split()) < 3 or len(event) < 8:
            return set()
        docs: set[str] = set()
        for chunk_id in sorted(self.ctx.chunks_with(fact.attribute)):
            doc_id = self.ctx.chunks[chunk_id].doc_id
            if doc_id in found or doc_id in docs:
                continue
            if any(event in normalize(line) and states_value(fact, line) for line in self.lines(chunk_id)):
                docs.add(doc_id)
        return docs

    def _role_beside_name(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """A role written right beside its holder's name ("대표이사 박하늘", "대표이사: 박하늘", "Jane Roe, CEO") in a
        document that never uses the label ("직책", "Title"): it states the person's role all the same."""
        value = normalize(fact.value)
        post = _ROLE_LABEL.search(fact.attribute) or fact.attribute.strip().lower() == "office"  # a board's posts
        # "대표이사 (CEO)" is written "| 대표이사 | 한지우 |" on the company's page: the role without its note
        bare = normalize(without_trailing_note(fact.value))
        longest = max((len(p) for p in re.split(r";\s*", bare)), default=0)  # "Centre Manager; Designated …": two
        if not post or fact.value_type != "text" or not 2 <= longest <= _ROLE_CHARS:
            return set()
        joined = _alternation(forms, shortest=2)
        if not joined:
            return set()
        # "Accuracy Checking Pharmacy Technician (ACPT)" is told by "ACPT (K. Moss)": the initials it gives itself
        note = normalize(fact.value)[len(bare) :].strip(" ()（）")
        own_initials = {note} if note.isalpha() and note == "".join(w[0] for w in bare.split()) else set()
        # "대표 / 게임 디렉터" is told by "서지호 대표" too: each post of a short list is the person's
        # ("Release & QA Engineer" is one post: "and" and "&" join its work, not two posts)
        listed = () if re.search(r"\s(?:&|and)\s", fact.value) else _list_parts(fact.value)
        posts = {normalize(p) for p in listed} | {normalize(p) for p in re.split(r"\s+/\s+|;\s*", bare)}
        # "Chair of the Trust" is written "Chair" beside the name on the trust's own pages
        posts |= {head for p in posts if len(head := re.sub(r"\s+of\s+(?:the\s+)?\S.*$", "", p)) >= _POST_HEAD_CHARS}
        written = {value, bare} | posts | own_initials
        written |= {squeezed(v) for v in written}  # "기획 · 제작 PD" is also written "기획·제작 PD"
        roles = "|".join(re.escape(v) for v in sorted(written, key=len, reverse=True) if len(v) >= 2)
        # "Rachel Nguyen (EM)": a role of two words or more is also written by its initials in brackets
        initials = {"".join(w[0] for w in v.split()) for v in written if len(v.split()) >= 2 and v.isascii()}
        acronyms = "|".join(sorted(re.escape(a) for a in initials if a.isalpha()))
        beside = re.compile(
            rf"(?<!\w)(?:{roles}){_POST_TO_NAME}{{0,5}}(?:(?:dr|mr|mrs|ms|prof)\.?\s+)?(?:{joined})(?![a-z])"
            rf"|{_name_then_post(joined, roles)}(?:{_PARTICLES})?(?![a-z가-힣])"
            # "Tomasz Wierzbicki, who is also Deputy Manager", "Ana Ruiz is now our Head of Sales"
            rf"|(?<!\w)(?:{joined}),?\s+(?:who\s+)?(?:is|serves as|works as|acts as)\s+{_ROLE_FILLER}"
            rf"(?:{roles})(?![a-z])"
            # "our Centre Manager is Rhiannon Pryce-Doyle"
            rf"|(?<!\w)(?:{roles})\s+is\s+(?:(?:dr|mr|mrs|ms|prof)\.?\s+)?(?:{joined})(?![a-z])"
            + (rf"|(?<![\w가-힣])(?:{joined})\s*[(（](?:{acronyms})[)）]" if acronyms else "")
        )
        # a signature: the name alone on a line, the role opening the next ("Dana Whitcomb" over "Owner, Northside
        # Forge Fitness")
        signed = re.compile(rf"[\s*_>—–-]*(?:{joined})[\s*_,]*")
        opening = re.compile(rf"[\s*_]*(?:{roles})[\s*_]*(?:$|[,|(（]|\s(?:at|of)\s)")
        held = {bare or fact.value} | posts
        spaced = any(squeezable(v) for v in held)  # then a line may write the role closed up ("기획·제작 PD")
        holding = set().union(
            *(self.ctx.chunks_with(v) for v in held | {squeezed(v) for v in held} | initials if len(v) >= 2)
        )
        chunk_ids = holding & self._chunks_naming({f for f in forms if len(f) >= 2})

        def says(lines: list[str], index: int) -> bool:
            line = normalize(lines[index])
            if index + 1 < len(lines) and signed.fullmatch(line) and opening.match(normalize(lines[index + 1])):
                return True
            return bool(beside.search(line) or (spaced and beside.search(squeezed(line))))

        docs = self._docs_with_a_line(chunk_ids, found, says)
        first = self._first_name(fact)
        if first is None:
            return docs
        # in the person's own folder, the first name alone: "with me or with Lesley (Treasurer)"
        by_first = re.compile(
            rf"{_name_then_post(rf'{re.escape(first)}(?:씨|님)?', roles)}(?![a-z])"
            rf"|(?<!\w)(?:{roles})\s+is\s+{re.escape(first)}(?![\w-])"  # "our Head of Paddlesport is Ailsa"
        )
        folder = self.ctx.doc_type(fact.doc_id)
        return docs | self._docs_with_a_line(
            holding & self._in_folder(self.ctx.chunks_with(first), folder),
            found | docs,
            lambda lines, i: bool(by_first.search(normalize(lines[i]))),
        )

    def _first_name(self, fact: FactNode) -> str | None:
        """An English person's first name (normalised), as colleagues write it alone, when no one else in the folder
        goes by it: no other surname follows it there; a Korean person's given name ("도현" of 이도현, written
        "도현씨"), when no other surname comes before it there."""
        name = without_honorific(fact.subject.strip())
        korean = re.fullmatch(r"([가-힣])([가-힣]{2})", name)
        if name[:2] in ko.COMPOUND_SURNAMES:  # "예린" of 남궁예린
            korean = re.fullmatch(r"([가-힣]{2})([가-힣]{2})", name)
        if korean is not None:
            return self._given_name(fact, korean.group(1), korean.group(2))
        person = without_honorific(fact.subject.strip()).split()
        if len(person) != 2 or not en.is_person_name(" ".join(person)) or len(person[0]) < _FIRST_NAME_CHARS:
            return None
        first, last = person
        named = re.compile(rf"(?<![\w-]){re.escape(first)}\s+([A-Z][\w'’-]*)")
        folder = self.ctx.doc_type(fact.doc_id)
        for chunk_id in self._in_folder(self.ctx.chunks_with(first), folder):
            # "Tomasz W." is Tomasz Wierzbicki by his initial; "Tomasz Nowak" another Tomasz
            text = self.ctx.chunks[chunk_id].text
            # a day after the name ("Dave Mon-Thu" of a rota's note) is no surname, nor the line after a sign-off
            # ("Rachel" over "Bookings & Reception Manager")
            if any(
                re.sub(r"['’]s$", "", m.group(1)) not in (last, last[0])
                and not DAYS.match(normalize(m.group(1)))
                and not _signs_off(text, m)
                for m in named.finditer(text)
            ):
                return None
        return normalize(first)

    def _short_first_names(self, fact: FactNode, first: str, last: str) -> set[str]:
        """The person written with her first name shortened, in her folder: "Sam Okafor" of "Samuel Okafor" (the
        first letters of the first name, three or more, before the same surname)."""
        if len(first) <= _FIRST_NAME_CHARS:
            return set()
        key = (self.ctx.doc_type(fact.doc_id), first, last)
        if key in self._short_names:  # asked for every fact of hers: the folder is read once
            return self._short_names[key]
        short = re.compile(rf"(?<![\w-])({re.escape(first[:3])}[a-z]*)\s+{re.escape(last)}(?![\w-])")
        found = set()
        for chunk_id in self._in_folder(self.ctx.chunks_with(normalize(last)), key[0]):
            for m in short.finditer(self.ctx.chunks[chunk_id].text):
                if m.group(1) != first and first.startswith(m.group(1)):
                    found.add(normalize(m.group(0)))
        self._short_names[key] = found
        return found

    def _colleague_name(self, fact: FactNode) -> str | None:
        """The first name a person who holds a post goes by in the folder (`_first_name`), for `Retold`: a page title
        that reads like a name ("Version History") has none."""
        if not self._holds_a_post(self.ctx.entities.get(fact.subject_entity or "")):
            return None
        return self._first_name(fact)

    def _given_name(self, fact: FactNode, surname: str, given: str) -> str | None:
        """`_first_name` for a Korean name of three syllables: its given name, if the folder writes it after no
        other surname."""
        if not ko.is_person_name(surname + given):
            return None
        after = re.compile(rf"([가-힣]){re.escape(given)}")
        folder = self.ctx.doc_type(fact.doc_id)
        for chunk_id in self._in_folder(self.ctx.chunks_with(given), folder):
            if any(m.group(1) != surname[-1] for m in after.finditer(self.ctx.chunks[chunk_id].text)):
                return None
        return given

    def _holder_beside_post(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """A post's holder written beside the post in a page naming the organisation: the minutes' "참석: 윤정애(대표),
        오태석(편집장)" under "소금빛 주간 편집회의록" state that 도서출판 소금빛's 대표 is 윤정애, as "Omar Haddad,
        CEO" in a memo naming the company states its CEO."""
        if fact.value_type != "text" or len(fact.value) > _HOLDER_CHARS:
            return set()
        holder = without_honorific(without_trailing_note(fact.value).strip())  # "서민규 (수학)": the name
        post = normalize(fact.attribute)
        if not (ko.is_person_name(holder) or en.is_person_name(holder)) or not 2 <= len(post) <= 20:
            return set()
        plain = post
        name, post = re.escape(normalize(holder)), re.escape(post)
        beside = re.compile(
            rf"(?<![\w가-힣])(?:{post}){_POST_TO_NAME}{{0,3}}{name}(?![a-z가-힣])"
            rf"|(?<![\w가-힣]){name}{_NAME_TO_POST}{{0,3}}(?:{post})(?:[)）]|님|{_PARTICLES})?(?![a-z가-힣])"
        )
        naming = self._chunks_naming({f for f in forms if len(f) >= 2})
        holding = self.ctx.chunks_with(holder)
        docs = self._docs_with_a_line(
            holding & naming, found, lambda lines, i: bool(beside.search(normalize(lines[i])))
        )
        person = without_honorific(fact.subject.strip())
        folder = self.ctx.doc_type(fact.doc_id)
        if folder == ROOT_TYPE or ko.is_person_name(person) or en.is_person_name(person):
            return docs
        # the organisation's own folder: its staff page ("### 서민규 원장") or a programme's table ("| 서민규 원장 |")
        # need not name it; a line of prose there may speak of another's head (a person's "Reports to" is another
        # matter: a colleague's page says whom the colleague reports to)
        # … and any line writing the post right beside the name, with nothing but a bracket between: a notice
        # signed "대표 최현우", a rule's "대표(최현우)"
        tight = re.compile(
            rf"(?<![\w가-힣])(?:{post})\s*[:：(（]?\s*{name}(?![a-z가-힣])|(?<![\w가-힣]){name}\s*[(（]?\s*(?:{post})"
            rf"(?:[)）]|님|{_PARTICLES})?(?![a-z가-힣])"
        )
        # … or the post shortened in the bracket: the minutes' "Owen Pryce (Sec), Tom Elkington (Press Mgr)"
        bracket = re.compile(rf"(?<![\w가-힣]){name}\s*[(（]([^)）]{{2,30}})[)）]")
        return docs | self._docs_with_a_line(
            self._in_folder(holding, folder),
            found | docs,
            lambda lines, i: bool(
                (_LISTED_LINE.match(lines[i]) and beside.search(normalize(lines[i])))
                or tight.search(normalize(lines[i]))
                or any(shortens(m.group(1), plain) for m in bracket.finditer(normalize(lines[i])))
            ),
        )

    def _head_of_unit(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """A unit's head written before his name states where he works: "부산지점장 오승민" (the 부산 지점's head)
        states 오승민's 근무지 "부산 지점", "영업팀장 김하나" her team. Korean writes a unit's head as the unit's
        name with 장 glued on."""
        if fact.value_type != "text" or not _UNIT_LABEL.search(fact.attribute):
            return set()
        unit = re.sub(r"\s+", "", normalize(fact.value))
        if not unit or not re.search(f"[{HANGUL}]$", unit):
            return set()
        return self._name_between(forms, found, rf"{re.escape(unit)}장(?:인|이자|이며)?", "")

    def _title_after_name(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """A Korean role written around the name: "경영지원팀 윤태경 팀장" states 윤태경's 직책 "경영지원팀장"
        (the unit, the name, then the unit's kind with 장), "부산 지점 개설, 초대 지점장 오승민" 오승민's "부산지점장"
        (the unit, then its head's title before the name), "홍보팀 문가영 주무관" her "홍보팀 주무관"."""
        if fact.value_type != "text" or not _ROLE_LABEL.search(fact.attribute):
            return set()
        words = normalize(fact.value).split()
        if len(words) == 2 and _UNIT_END.search(words[0]) and re.fullmatch(f"[{HANGUL}]{{2,}}", words[1]):
            # "운영지원팀 주무관" is told by "운영지원팀 임현수 주무관": the unit, the name, then the post
            return self._name_between(forms, found, re.escape(words[0]), re.escape(words[1]))
        role = "".join(words)
        kind = _UNIT_KIND.search(role)
        if kind is None or kind.start() == 0:
            return set()
        unit, head = re.escape(role[:-1]), re.escape(kind.group(0))
        # or the unit, then its head before the name: "부산 지점 개설, 초대 지점장 오승민" of "부산지점장"
        docs = self._name_between(forms, found, rf"{unit}[^|]{{0,{_UNIT_TO_HEAD}}}?{head}", "")
        return docs | self._name_between(forms, found | docs, unit, head)

    def _name_between(self, forms: set[str], found: set[str], before: str, after: str) -> set[str]:
        """Documents beyond `found` with a line saying `before`, one of the names, then `after` (patterns), its
        spaces ignored as Korean writes them freely around titles."""
        joined = _alternation({re.sub(r"\s+", "", f) for f in forms if len(f) >= 2}, shortest=2)
        if not joined:
            return set()
        said = re.compile(rf"{before}(?:{joined}){after}")
        return self._docs_with_a_line(
            self._chunks_naming(forms),
            found,
            lambda lines, i: bool(said.search(re.sub(r"\s+", "", normalize(lines[i])))),
        )

    def _in_apposition(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """A kind said in apposition to the name: "the Aurora Ridge 700, the company's electric mountain bike," and
        "the Aurora Courier 600, a lighter delivery bike" state their "Category" without the word."""
        if fact.value_type != "text" or not _KIND_LABEL.search(fact.attribute) or len(fact.value.split()) > 4:
            return set()
        names = _alternation(forms, shortest=3)
        if not names:
            return set()
        modifier = r"(?!(?:of|for|to|with|than|like|unlike|not)\s)[\w-]+\s+"  # "lighter", not "rival of"
        said = re.compile(
            rf"(?<!\w)(?:{names}),\s+(?:the|a|an|its|their|our|the company's)\s+(?:{modifier}){{0,3}}?"
            rf"{re.escape(normalize(fact.value))}(?!\w)"
        )
        return self._docs_with_a_line(
            self._chunks_naming(forms), found, lambda lines, i: bool(said.search(normalize(lines[i])))
        )

    def _measure_in_brackets(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """An amount with its unit, a place or a code in brackets right after the subject's name: "Support for the
        KC-720 Cargo (48 V)" states its nominal voltage, "가온누리병원 건강검진센터(별관 3층, 내선 7360)" the centre's
        location, "Halvergate (HVG)" its code, when no other attribute of the subject has that value."""
        placed = fact.value_type == "text" and _PLACE_LABEL.search(fact.attribute) is not None
        # a code in brackets after the name: "| Halvergate (HVG) | …" states Halvergate's airport code
        coded = _CODE_LABEL.search(fact.attribute) is not None and re.fullmatch(r"[A-Z0-9]{2,6}", fact.value.strip())
        if not (placed or coded or (_specific(fact) and fact.value_type != "date")):
            return set()
        entity = fact.subject_entity or normalize(fact.subject)
        own = [f for f in self.ctx.facts_by_entity.get(entity, []) if normalize(f.value) == normalize(fact.value)]
        if any(normalize(f.attribute) != normalize(fact.attribute) for f in own):
            return set()  # the subject's weight and its shipping weight are both 4.3 kg: which one is meant?
        names = _alternation(forms, shortest=3)
        if not names:
            return set()
        said = re.compile(rf"(?<!\w)(?:{names})\s*[(（]\s*{re.escape(normalize(fact.value))}(?![\w.])[^()（）]*[)）]")
        chunks = self._chunks_naming(forms) & self.ctx.chunks_with(fact.value)  # the index narrows first
        return self._docs_with_a_line(chunks, found, lambda lines, i: bool(said.search(normalize(lines[i]))))

    def _figure_in_folder(self, fact: FactNode, found: set[str]) -> set[str]:
        """A rare measure or code of the fact's written again on another page of its folder, or a row's new figure
        written after an arrow (see below)."""
        docs = self._measure_in_folder(fact, found)
        docs |= self._code_in_folder(fact, found | docs)
        return docs | self._arrow_to_figure(fact, found | docs)

    def _arrow_to_figure(self, fact: FactNode, found: set[str]) -> set[str]:
        """A table row's figure written after an arrow on another page of its folder, in a line naming the row:
        the minutes' "Family £26 → £28" states the notice's "| Family ticket | £26.00 | **£28.00** |"."""
        if fact.number is None or fact.value_type not in ("money", "number", "percent"):
            return set()
        word = re.search(r"[^\W\d_]{4,}", normalize(row_label(fact)))  # "family" of "Family ticket"
        if word is None:
            return set()
        named = re.compile(rf"(?<!\w){re.escape(word.group(0))}")

        def tells(lines: list[str], index: int) -> bool:
            before, arrow, after = _split_at_arrow(lines[index])
            if not arrow or not named.search(normalize(before)):
                return False
            new = find_values(after)
            return bool(new) and new[0].number == fact.number and (new[0].unit or "") == (fact.unit or "")

        figures = {f"{fact.number:g}"} | ({f"{fact.number:,.0f}"} if fact.number == int(fact.number) else set())
        chunks = set().union(*(self.ctx.token_index.get(t, set()) for t in figures)) - self._chunk_ids(fact.doc_id)
        return self._docs_with_a_line(self._in_folder(chunks, self.ctx.doc_type(fact.doc_id)), found, tells)

    def _measure_in_folder(self, fact: FactNode, found: set[str]) -> set[str]:
        """A measure few pages write ("212㎡", "220–240 V ~") written again on another page of the fact's own folder,
        whatever the line calls it: the facility page's "2층 전체(212㎡)" states the library's 면적, the safety
        sheet's "220-240 V AC" the machine's rated voltage. Not when a labelled line or row gives the same measure to
        another thing, or under another label (a weight and a packed weight). Only for a labelled line's figure: a
        table row's is one of its rows', which a line naming no row does not single out. A sentence's measure is
        told again by a sentence sharing two of its rare words besides, with the sentence after it: "키 120cm 미만
        어린이는 보호자와 함께 들어가야" and "키가 120cm 이상이면 혼자 … 성인 보호자가 함께 물에 들어가야" state one
        rule."""
        measure = measure_of(fact.value) if fact.source in ("key_value", "sentence") else None
        if measure is None or self._given_otherwise(fact, self._structured()[1].get(measure, [])):
            return set()

        def writes(lines: list[str], index: int) -> bool:
            return any(_measure_written(m) == measure for m in _MEASURE.finditer(normalize(lines[index])))

        chunks = self._value_chunks(fact)
        pages = self._docs_with_a_line(chunks, {fact.doc_id}, writes)
        folder = self.ctx.doc_type(fact.doc_id)
        if len(pages) > _RARE_PAGES or any(self.ctx.doc_type(d) != folder for d in pages):
            return set()
        if fact.source != "sentence":
            return pages - found
        _, words = self._sentence_words(fact, set())

        def tells(lines: list[str], index: int) -> bool:
            told = normalize(" ".join(lines[index : index + 2]))  # the figure's sentence and the one after it
            return writes(lines, index) and self._rare_words_shared(words, told) >= _MEASURE_WORDS

        return self._docs_with_a_line({c for c in chunks if self.ctx.chunks[c].doc_id in pages}, found, tells)

    def _code_in_folder(self, fact: FactNode, found: set[str]) -> set[str]:
        """A code that is the value ("상품코드: HJ-CTS-05") written on another page of the same folder: the terms'
        "홋카이도 겨울 상품 (HJ-CTS-05)" and the airline list's row for it name the product by its code. Only a code
        few pages write, which no labelled line gives as another thing's code."""
        code = normalize(fact.value.strip())
        if fact.value_type != "text" or not _CODE_LABEL.search(fact.attribute) or len(code) < _CODE_CHARS:
            return set()
        if not _IDENTIFIER.fullmatch(fact.value.strip()) or not self._rare(code):
            return set()
        coded = [f for f in self._structured()[0].get(code, []) if _CODE_LABEL.search(f.attribute)]
        if self._given_otherwise(fact, coded):
            return set()
        said = re.compile(rf"(?<![\w-]){re.escape(code)}(?![\w-])")
        folder = self.ctx.doc_type(fact.doc_id)
        return self._docs_with_a_line(
            self._in_folder(self.ctx.chunks_with(code), folder),
            found,
            lambda lines, i: bool(said.search(normalize(lines[i]))),
        )

    def _structured(self) -> tuple[dict[str, list[FactNode]], dict[str, list[FactNode]]]:
        """The labelled lines' and rows' facts by normalised value, and those whose value is one measure by the
        measure (built once per run)."""
        if self._by_value is None:
            by_value: dict[str, list[FactNode]] = {}
            by_measure: dict[str, list[FactNode]] = {}
            for f in self.ctx.facts:
                if f.source in ("table", "key_value"):
                    by_value.setdefault(normalize(f.value), []).append(f)
                    measure = measure_of(f.value)
                    if measure is not None:
                        by_measure.setdefault(measure, []).append(f)
            self._by_value = (by_value, by_measure)
        return self._by_value

    @staticmethod
    def _given_otherwise(fact: FactNode, others: list[FactNode]) -> bool:
        """Whether one of `others` gives the value to another subject, or to the same under another label."""
        own = fact.subject_entity or normalize(fact.subject)
        return any(
            (f.subject_entity or normalize(f.subject)) != own or normalize(f.attribute) != normalize(fact.attribute)
            for f in others
        )

    def _name_beside_code(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """A product's name written right beside its code, in either order or in brackets: "바삭 오븐 AF-700",
        "'바삭 오븐(AF-700)'" state AF-700's 제품명 "바삭 오븐" without the label."""
        if fact.value_type != "text" or not _NAME_LABEL.search(fact.attribute.strip()):
            return set()
        codes = {f for f in forms if _IDENTIFIER.fullmatch(f.upper()) or re.search(r"[a-z]-?\d", f)}
        if not codes or len(fact.value) > _ROLE_CHARS:
            return set()
        value = re.escape(normalize(fact.value))
        code = _alternation(codes, shortest=2)
        said = re.compile(
            rf"(?<!\w){value}\s*[(（]?\s*(?:{code})(?![\w-])|(?<![\w-])(?:{code})\s*[)）]?\s*{value}(?!\w)"
        )
        return self._docs_with_a_line(
            self._chunks_naming(forms), found, lambda lines, i: bool(said.search(normalize(lines[i])))
        )

    def _code_under_its_column(self, fact: FactNode, found: set[str]) -> set[str]:
        """A code a table gives its row (`과정코드` C01), written in another table under a column of the same label:
        the code identifies the row, whatever that table calls it ("제과기능사 주간반" and "제과기능사
        자격증반(주간)" are both C01)."""
        label = normalize(fact.attribute)
        if fact.source != "table" or not _CODE_LABEL.search(label) or not _IDENTIFIER.fullmatch(fact.value.upper()):
            return set()
        code = normalize(fact.value)

        def under_its_column(lines: list[str], index: int) -> bool:
            top = table_top(lines, index)
            if not lines[index].lstrip().startswith("|") or top == index:
                return False
            heads = [normalize(c) for c in table_cells(lines[top])]
            cells = [normalize(c) for c in table_cells(lines[index])]
            return any(c == code and i < len(heads) and heads[i] == label for i, c in enumerate(cells))

        return self._docs_with_a_line(self.ctx.chunks_with(fact.value), found, under_its_column)

    def _room_code_retold(self, fact: FactNode, found: set[str]) -> set[str]:
        """A place given by its room's code, told again with the room's name beside the code: "서버실 위치: 공학2호관
        지하 B103호" is told by "isp-gpu1(서버실 B103)", "실험실 위치: 514호" by "실험실(514호)". The code must hold
        three characters or more and the line must write the room's own word of the label (not "위치")."""
        if fact.value_type != "text" or not _ENDS_IN_PLACE.search(fact.attribute):
            return set()
        codes = {m.group(1) for m in _ROOM_CODE.finditer(fact.value) if len(m.group(1)) >= 3}
        rooms = [w for w in re.findall(f"[{HANGUL}A-Za-z]{{2,}}", fact.attribute) if not _ENDS_IN_PLACE.fullmatch(w)]
        if not codes or not rooms:
            return set()
        code = "|".join(re.escape(c.lower()) for c in sorted(codes))
        said = re.compile(rf"(?<![\w-])(?:{code})(?:호)?(?![\w-])")

        def tells(lines: list[str], index: int) -> bool:
            norm = normalize(lines[index])
            return bool(said.search(norm)) and any(normalize(room) in norm for room in rooms)

        chunks = set().union(*(self.ctx.chunks_with(c) for c in codes)) - self._chunk_ids(fact.doc_id)
        return self._docs_with_a_line(chunks, found, tells)

    def _address_written(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """Pages that write the subject's e-mail address and name the subject: an article's byline ("송재원 기자" at
        its head, "jwsong@eunpotoday.co.kr" at its foot) states the reporter's address as the staff list does. An
        address is one person's or desk's, wherever on the page it is written."""
        if fact.value_type != "text" or contact_kind(fact.value) != "email":
            return set()
        names = {f for f in forms if len(f) >= 2}
        if not names:
            return set()
        naming = {self.ctx.chunks[c].doc_id for c in self._chunks_naming(names)}
        address = fact.value.strip().lower()
        # the index finds chunks with the address's words ("sofia", "rosewooddance"): the address itself must be there
        writing = {
            self.ctx.chunks[c].doc_id
            for c in self.ctx.chunks_with(fact.value)
            if address in self.ctx.chunks[c].text.lower()
        }
        return (writing & naming) - found

    def _said_of_every_variant(self, fact: FactNode, cues: list[str], found: set[str]) -> set[str]:
        """A value every variant of a compared table shares, said of the kind they are variants of: "| Discount on
        treatment | 10% | 10% |" under "## Tanners Row Care Plan" is told by "Care Plan members get 10% off
        treatment" in the same folder — for the Plus Plan as for the Essentials Plan."""
        kind = fact.subject.split()[-1].lower() if fact.subject.split() else ""
        heading = re.sub(r"^\s*\d+[.)]\s*", "", fact.context or "").strip()
        words = heading.split()
        if fact.source != "table" or not cues or len(words) < 2 or words[-1].lower() != kind:
            return set()
        row = [
            f
            for f in self._facts_in_chunk(fact.chunk_id)
            if (f.evidence, f.attribute) == (fact.evidence, fact.attribute)
        ]
        if len(row) < 2 or len({normalize(f.value) for f in row}) != 1:
            return set()  # the variants differ: a line about the kind says nothing of this one
        group = normalize(" ".join(words[-2:]))  # "care plan"
        chunks = self._in_folder(self._chunks_naming({group}), self.ctx.doc_type(fact.doc_id))
        return self._docs_with_a_line(
            chunks,
            found,
            lambda lines, i: group in normalize(lines[i]) and states_value(fact, lines[i]),
            cues,
        )

    def _facts_in_chunk(self, chunk_id: str) -> list[FactNode]:
        """The facts mined from one chunk (indexed once)."""
        if self._by_chunk is None:
            self._by_chunk = {}
            for f in self.ctx.facts:
                self._by_chunk.setdefault(f.chunk_id, []).append(f)
        return self._by_chunk.get(chunk_id, [])

    def _labelled_in_folder(self, fact: FactNode, found: set[str]) -> set[str]:
        """Pages of the subject's own folder with a line writing the fact's label (or its short form) and then its
        value: the clinic's holiday notice's "점심시간   13:00 ~ 14:00" restates its about page's row "| 점심시간 |
        13:00 ~ 14:00 |", a care sheet's "점심 13:00~14:00" too. Not for one thing among many described alike (a
        course's fee beside the label in a news item may be another course's), nor in a line of a page about
        another thing like the subject."""
        if fact.source not in ("key_value", "table") or not re.search(r"\d", fact.value):
            return set()
        subject = without_honorific(fact.subject.strip())
        if ko.is_person_name(subject) or en.is_person_name(subject) or self._one_of_many(fact.subject_entity):
            return set()  # a course among courses: another's fee may be written beside the same label
        row = row_in_label(fact)  # "점심시간" of "점심시간 진료시간": the row names what the value is
        label = normalize(row or fact.attribute)
        specific = len(label.split()) >= 2 or (is_cjk(label) and len(label) >= 3)
        if not specific:
            return set()
        # the label as people shorten it: "점심" for 점심시간, "토" for 토요일
        short = _SHORT_LABEL.fullmatch(label)
        written = {label} | ({g for g in short.groups() if g} if short else set())
        said = re.compile(rf"(?:^|(?<=[\s\-*•·#|>:(,/]))(?:{_alternation(written)})(?![가-힣a-z])[\s:：|*]*", re.I)
        docs: set[str] = set()
        for chunk_id in sorted(self._in_folder(self._candidates(fact), self.ctx.doc_type(fact.doc_id))):
            doc_id = self.ctx.chunks[chunk_id].doc_id
            if doc_id in found or doc_id in docs:
                continue
            # "Final exam: 30%" on another course's page is that course's own fact under the label
            theirs = any(
                f.subject_entity != fact.subject_entity and normalize(f.attribute).startswith(label)
                for f in self._facts_in_chunk(chunk_id)
            )
            if theirs:
                continue
            for index, line in enumerate(self.lines(chunk_id)):
                # the label, then the value right after it ("변경 후: 토요일 09:30 ~ 15:00", "점심 13:00~14:00")
                if any(
                    states_value(fact, line[m.end() : m.end() + len(fact.value) + _AFTER_LABEL])
                    for m in said.finditer(line)
                ) and not self._names_a_rival(fact, chunk_id, index, pages=False):
                    docs.add(doc_id)
                    break
        return docs

    def _recorded_again(self, fact: FactNode, forms: set[str]) -> set[str]:
        """Pages recording the same thing's same attribute with the same value under the same label: a catalogue's
        row "| 소리를 모으는 사람 | … | 296 |" under 쪽수 records the book page's "쪽수: 296쪽", and a grid of another
        term whose row names the thing ("| Musical Theatre Co. (MTC) | … | Studio 1 |" under Room, read as the label
        "Musical Theatre Co. (MTC) Room" of the page) records the summer timetable's "Room: Studio 1"."""
        if self._by_key is None:
            self._by_key = {}
            for f in self.ctx.facts:
                if f.source in ("key_value", "table"):
                    if f.subject_entity:
                        key = (f.subject_entity, normalize(f.attribute), _recorded_figure(f.value))
                        self._by_key.setdefault(key, set()).add(f.doc_id)
                    if row_in_label(f):
                        key = ("", normalize(without_parentheticals(f.attribute)), _recorded_figure(f.value))
                        self._by_key.setdefault(key, set()).add(f.doc_id)
        if not fact.subject_entity or fact.source not in ("key_value", "table"):
            return set()
        label, figure = normalize(fact.attribute), _recorded_figure(fact.value)
        docs = set(self._by_key.get((fact.subject_entity, label, figure), set()))
        for form in forms:
            docs |= self._by_key.get(("", f"{normalize(without_parentheticals(form))} {label}", figure), set())
        return docs

    def _cell_of_a_comparison(self, fact: FactNode, found: set[str]) -> set[str]:
        """A comparison table of another page whose row is the fact's label and whose column is the subject: the
        plans page's "| 월 가용성 목표 (%) | 보장 없음 | 99.5 | 99.9 |" under "| 구분 | 스타터 | 비즈니스 | … |"
        states the SLA page's "비즈니스 요금제 / 월 가용성 목표: 99.5%" (read as the label "월 가용성 목표 (%)
        비즈니스"). The same figure, the label whole in the cell's label and a word of the subject's name after it."""
        if fact.number is None or fact.source not in ("key_value", "table"):
            return set()
        if self._by_number is None:
            self._by_number = {}
            for f in self.ctx.facts:
                if f.source == "table" and f.number is not None:
                    self._by_number.setdefault(f.number, []).append(f)
        label = normalize(without_parentheticals(fact.attribute)).strip()
        names = {w for w in normalize(fact.subject).split() if len(w) >= 2 and w not in _KIND_WORDS}
        if len(label) < 2 or not names:
            return set()
        docs = set()
        for other in self._by_number.get(fact.number, []):
            if other.doc_id in found or other.doc_id == fact.doc_id:
                continue
            if other.unit is not None and other.unit != fact.unit:
                continue  # "99.5" under "(%)" read bare is the same figure; "99.5 kg" is not
            cell = normalize(without_parentheticals(other.attribute))
            if cell.startswith(label) and set(cell[len(label) :].split()) & names:
                docs.add(other.doc_id)
        return docs

    def _contact_in_folder(self, fact: FactNode, found: set[str]) -> set[str]:
        """Pages of the same kind (folder) that print an organisation's or a place's telephone number or e-mail
        address, which few pages print: the ticketing policy's "전화 02-765-4821 (평일 …)" gives the theatre's
        number as its about page does, whether or not the line names the theatre. A person's number is theirs only
        beside their name."""
        bare = without_trailing_note(fact.value) if fact.value_type == "text" else ""
        if contact_kind(bare) not in ("phone", "email"):
            return set()
        subject = without_honorific(fact.subject.strip())
        if ko.is_person_name(subject) or en.is_person_name(subject):
            return set()  # a notice's "문의는 teo@… 로" gives a person's address without saying whose it is
        written = normalize(bare)
        holding = {c for c in self.ctx.chunks_with(bare) if written in self.ctx.chunk_norm[c]}
        if contact_kind(bare) == "phone":
            holding |= self._dialled_alike(bare)  # "031-206-4417" is also written "031)206-4417"
        if len({self.ctx.chunks[c].doc_id for c in holding}) > _FEW_PAGES:
            return set()
        return {self.ctx.chunks[c].doc_id for c in self._in_folder(holding, self.ctx.doc_type(fact.doc_id))} - found

    def _dialled_alike(self, number: str) -> set[str]:
        """Chunks writing a telephone number with the same digits in other separators ("031)206-4417", "031 206
        4417")."""
        digits = re.sub(r"\D", "", number)
        last = re.findall(r"\d{4,}", number)
        if len(digits) < PHONE_DIGITS or not last:
            return set()
        found = set()
        for chunk_id in self.ctx.token_index.get(last[-1], set()):
            runs = PHONE_RUN.findall(self.ctx.chunks[chunk_id].text)
            if any(re.sub(r"\D", "", run) == digits for run in runs):
                found.add(chunk_id)
        return found

    def _legal_name_beside(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """Pages writing a company's legal name close beside the subject's name in one line: a press release's
        "하루결커피를 운영하는 (주)하루결에프앤비" states the brand's 법인명 as the brand page's table does. A legal
        name is one company's; written a few words from the brand, it is said of the brand."""
        if fact.value_type != "text" or not _LEGAL_FORM.search(fact.value) or fact.value_entity:
            return set()
        value = normalize(fact.value)
        names = _alternation({f for f in forms if len(f) >= 2 and f not in value}, shortest=2)
        if not names:
            return set()
        near = f".{{0,{_LEGAL_NEAR}}}"
        said = re.compile(rf"(?<!\w)(?:{names}){near}{re.escape(value)}|{re.escape(value)}{near}(?<!\w)(?:{names})")
        chunks = self._chunks_naming(forms) & self.ctx.chunks_with(fact.value)
        return self._docs_with_a_line(chunks, found, lambda lines, i: bool(said.search(normalize(lines[i]))))

    def _price_retold(self, fact: FactNode, found: set[str]) -> set[str]:
        """Pages of the same kind (folder) writing a price few pages write, in a line with the priced item's head word
        and a word for a price: "The exam fee stays at $68" and "the new-client exam costs … $68" retell the price
        list's "Wellness or sick-pet exam | $68"."""
        head = priced_head(fact.attribute) if fact.value_type == "money" else None
        if head is None:
            return set()
        holding = self.ctx.chunks_with(fact.value)
        if len({self.ctx.chunks[c].doc_id for c in holding}) > _FEW_PAGES:
            return set()
        same_kind = self._in_folder(holding, self.ctx.doc_type(fact.doc_id))

        def retells(lines: list[str], index: int) -> bool:
            line = normalize(lines[index])
            priced = PRICE_WORD.search(line) is not None
            return priced and contains_keyword(line, head) and states_value(fact, lines[index])

        return self._docs_with_a_line(same_kind, found, retells)

    def _list_retold(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """Pages with a line naming the subject and most of the words of its list value, worded a little
        differently: a staff list's "김다은 … 예약, 수수료 청구·CMS, 서류 접수" retells 김다은's 주요 업무 "상담 예약,
        수수료 청구·수납, 서류 접수"."""
        items = _list_parts(fact.value) or tuple(p for p in re.split(r"\s*[,、，]\s*", fact.value.strip()) if p)
        if fact.value_type != "text" or len(items) < 2 or any(len(p) > _LIST_ITEM_CHARS for p in items):
            return set()
        words = set(tokens(fact.value))
        names = {f for f in forms if len(f) >= 2}
        if len(words) < _LIST_RETOLD_WORDS or not names:
            return set()
        named = re.compile(rf"(?<![\w가-힣])(?:{_alternation(names)})(?![a-z])")

        parts = [normalize(p) for p in items]
        folder = self.ctx.doc_type(fact.doc_id)

        def retells(lines: list[str], index: int) -> bool:
            line = normalize(lines[index])
            return named.search(line) is not None and len(words & set(tokens(line))) >= _RETOLD_SHARE * len(words)

        def listed_again(lines: list[str], index: int) -> bool:
            # three items or more, every one in one line of a page beside it: "A. 한국어, 영어, 일본어, 중국어(간체)
            # 입니다" in the game's FAQ, under a question that names no game
            line = normalize(lines[index])
            return len(parts) >= _LISTED_AGAIN and all(contains_keyword(line, p) for p in parts)

        # only chunks holding enough of the words can hold such a line: the index counts them first
        counts: dict[str, int] = {}
        for word in words:
            for chunk_id in self.ctx.token_index.get(word, ()):
                counts[chunk_id] = counts.get(chunk_id, 0) + 1
        holding = {c for c, n in counts.items() if n >= _RETOLD_SHARE * len(words)}
        chunk_ids = (holding & self._chunks_naming(names)) - self._chunk_ids(fact.doc_id)
        beside = self._in_folder(holding, folder) - self._chunk_ids(fact.doc_id)
        return self._docs_with_a_line(chunk_ids, found, retells) | self._docs_with_a_line(beside, found, listed_again)

    def _street_written_short(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """Pages writing a street address with the street's kind abbreviated, in a line naming the subject:
        "Riverside Park, 45 Canal Rd." states the address "45 Canal Road". A page in the same folder needs no name:
        a street number and name are one place ("stop by the office at 218 Millrace Road" in the utility's FAQ)."""
        pattern = _street_pattern(fact.value) if fact.value_type == "text" else None
        names = {f for f in forms if len(f) >= 3}
        if pattern is None or not names:
            return set()
        named = re.compile(rf"(?<!\w)(?:{_alternation(names)})(?!\w)")
        number = re.search(r"(?<![\w-])(\d+)[A-Za-z]?\s+[A-Z]", fact.value)
        holding = self.ctx.token_index.get(number.group(1), set()) if number else set()
        beside = self._in_folder(holding, self.ctx.doc_type(fact.doc_id))
        written = self._docs_with_a_line(beside, found, lambda lines, i: bool(pattern.search(lines[i])))
        return written | self._docs_with_a_line(
            holding - beside,
            found,
            lambda lines, i: bool(pattern.search(lines[i])) and named.search(normalize(lines[i])) is not None,
        )

    def _road_written(self, fact: FactNode, found: set[str]) -> set[str]:
        """Pages of the same folder writing a Korean address's road and building number in any spacing: a notice's
        signature "서초중앙로118 정현빌딩 7F" gives the firm's address "서울특별시 서초구 서초중앙로 118, 정현빌딩 7층"
        (a road name and number are one building)."""
        road = _KO_ROAD.search(fact.value) if _address_like(fact) else None
        if road is None:
            return set()
        written = re.sub(r"\s+", "", road.group(0))
        holding = self.ctx.token_index.get(road.group(2), set())
        beside = self._in_folder(holding, self.ctx.doc_type(fact.doc_id))
        return self._docs_with_a_line(beside, found, lambda lines, i: written in re.sub(r"\s+", "", lines[i]))

    def _rows_naming(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """Table rows elsewhere whose cell names the subject: "| 제주 지점 | … | 최서연 |" under "지점장" states her
        role "제주지점장" (the row and the column make it), and rows "| 교토 미식 투어 … | 김민지 |" for each product of
        her list "책임 상품" state the list."""
        if fact.value_type != "text" or fact.source not in ("key_value", "table"):
            return set()
        if self._by_cell is None:  # normalised cell value → table facts, once per run (a name is a text value)
            self._by_cell = {}
            for f in self.ctx.facts:
                if f.source == "table" and f.value_type == "text":
                    self._by_cell.setdefault(normalize(f.value), []).append(f)
        rows = [f for form in forms for f in self._by_cell.get(form, []) if f.doc_id not in found]
        value = re.sub(r"\s+", "", normalize(fact.value))
        parts = {normalize(p) for p in _list_parts(fact.value)}
        docs: set[str] = set()
        by_doc: dict[str, set[str]] = {}
        role = _ROLE_LABEL.search(fact.attribute) is not None
        for row in rows:
            header = re.sub(r"\s+", "", normalize(row.attribute))
            key = re.sub(r"\s+", "", normalize(row.subject))
            head = value[: len(value) - len(header)]
            if role and value.endswith(header) and head and key.startswith(head):
                docs.add(row.doc_id)
            elif role and header in _GENERIC_HEADS and value == f"{key}장":
                docs.add(row.doc_id)  # "| 경영지원팀 | 윤태경 |" under "부서장": the head of 경영지원팀, "경영지원팀장"
            elif role and self._post_in_row(row, fact):
                docs.add(row.doc_id)  # "| B-05 | 동해수산 | 최동수 | … | 상인회 감사 |": the shop list gives his post
            by_doc.setdefault(row.doc_id, set()).update((normalize(row.subject), normalize(row.attribute)))
        if len(parts) > 1:
            # a row label without a page of its own is written into the attribute ("경주 역사 투어 상품 책임자")
            docs |= {
                doc_id
                for doc_id, labels in by_doc.items()
                if all(any(x == p or x.startswith(p + " ") for x in labels) for p in parts)
            }
        return docs

    @staticmethod
    def _post_in_row(row: FactNode, fact: FactNode) -> bool:
        """Whether another short cell of the row naming the person ends with the post ("상인회 감사" for "감사")."""
        post = normalize(without_trailing_note(fact.value))
        if not 2 <= len(post) <= _ROLE_CHARS:
            return False
        name = normalize(row.value)
        cells = [normalize(without_trailing_note(c)) for c in table_cells(row.evidence)]
        return any(c != name and len(c) <= _ROLE_CHARS and re.search(rf"(?<!\w){re.escape(post)}$", c) for c in cells)

    def _row_under_named_heading(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """Table rows of other pages that state an amount where the subject's name is split between the section
        heading and the row's cells: "### 10. Edge (Sedan)" over "| Diesel | X | 14.3 |" states the price of
        "Edge Sedan Diesel X" — the same value in the row, every word of a name of two words or more in the heading
        and the row together, and the attribute in the chunk."""
        if fact.source != "table" or fact.number is None or fact.value_type not in ("money", "number"):
            return set()
        names = [set(_WORDS.findall(form)) for form in forms if len(form.split()) >= 2]
        cues = attribute_cues(fact)
        if not names or not cues:
            return set()
        docs: set[str] = set()
        for chunk_id in sorted(self._candidates(fact)):
            chunk = self.ctx.chunks[chunk_id]
            if (
                chunk.doc_id in found
                or chunk.doc_id in docs
                or not any(c in self.ctx.chunk_norm[chunk_id] for c in cues)
            ):
                continue
            heading = chunk.heading_path[-1] if chunk.heading_path else ""
            for line in chunk.text.split("\n"):  # whole lines: a heading "### 10. Edge (Sedan)" is no two sentences
                if line.lstrip().startswith("#"):
                    heading = line.lstrip("# ")
                elif line.lstrip().startswith("|") and states_value(fact, line):
                    said = set(_WORDS.findall(normalize(heading))) | set(_WORDS.findall(normalize(line)))
                    if any(name <= said for name in names):
                        docs.add(chunk.doc_id)
                        break
        return docs

    def finer_date(self, fact: FactNode, docs: set[str]) -> str | None:
        """A date that one of `docs` gives for a month-only fact, with its day ("2019년 10월 7일" where the fact
        says "2019년 10월"), or None: the answer would leave out what a source says."""
        key = fact.date_key or ""
        cues = attribute_cues(fact)
        if fact.value_type != "date" or len(key) != 7 or not cues or fact.source == "sentence":
            return None
        for doc_id in sorted(docs):
            for chunk in self.ctx.chunks_by_doc.get(doc_id, []):
                for found in find_values(chunk.text):
                    other = found.date_key or ""
                    if found.value_type == "date" and len(other) == 10 and other.startswith(key):
                        line = next((ln for ln in self.lines(chunk.chunk_id) if found.text in ln), "")
                        if line and states_value(fact, line) and any(cue in normalize(line) for cue in cues):
                            return found.text  # the same event ("출시일: 2019년 10월 7일"), not another one
        return None

    def subject_forms(self, fact: FactNode, *, short: bool = True) -> set[str]:
        """The names the fact's subject goes by, normalised: its surface form, entity name and aliases, and the
        short names people write — without the kind word ("Summit Trail Tours" for "Contract with Summit Trail
        Tours") or without a brand word many names share ("Courier 600" for "Aurora Courier 600")."""
        forms = {normalize(fact.subject)}
        entity = self.ctx.entities.get(fact.subject_entity or "")
        if entity is not None:
            forms |= {normalize(entity.name), *(normalize(a) for a in entity.aliases)}
            forms |= self._legal_names(entity.entity_id)
        # "늘품나눔재단" of "재단법인 늘품나눔재단", "청람고속" of "청람고속 주식회사 (Cheongram Express Co.,
        # Ltd.)": as specific
        forms |= {without_legal_form(f) for f in forms} | {without_legal_form(without_parentheticals(f)) for f in forms}
        # "온새미 클린보 R7 (ORV-R7) 사용 설명서" is the manual of "온새미 클린보 R7", as its questions name it, and
        # "청람고속 회사소개 (내부 위키용)" the page of 청람고속
        for said in {fact.subject, without_parentheticals(fact.subject)}:
            introduced = introduced_name(said)
            if introduced != said:
                forms |= {normalize(introduced), normalize(without_parentheticals(introduced))}
        # a work's title is written with or without its quotation brackets: "《물 위의 이름들》", "물 위의 이름들"
        forms |= {_TITLE_QUOTES.sub("", f).strip() for f in forms if _TITLE_QUOTES.search(f)}
        # a person is written with the first name's initial: "D. Reyes-Hart" (an SOP's author line)
        person = without_honorific(fact.subject.strip())
        if en.is_person_name(person) and len(person.split()) == 2 and self._holds_a_post(entity):
            first, last = person.split()
            forms |= {normalize(f"{first[0]}. {last}")} | self._short_first_names(fact, first, last)
        # "Italian" of "the Italian Course": the row as the pages write it, before its kind (its first cell, or the
        # cell naming it after a code: "| OB1 | Online Banking |"); only beside a name or a phrase ("**Matteo
        # Bellini** - Italian"), as a figure beside "Team" may be any of its limits
        cells = [row_label(fact), *table_cells(fact.evidence)[1:2]] if fact.value_type == "text" else []
        for row in (normalize(cell.strip(" *_")) for cell in cells):
            if len(row) >= _ROW_FORM_CHARS and normalize(fact.subject).startswith(row + " "):
                forms.add(row)
                break
        if not short:
            forms.discard("")
            return forms
        shorter = {normalize(core_name(f)) for f in forms} | {without_honorific(f) for f in forms}  # "gareth pym"
        for form in forms:
            first, _, rest = form.partition(" ")
            if first in self._brand_words() and (len(rest.split()) >= 2 or re.search(r"\d", rest)):
                shorter.add(rest)
        forms |= {f for f in shorter if len(f.split()) >= 2 or (is_cjk(f) and len(f) >= 3)}
        # "박사 과정", "탁구 강좌" are written "박사", "탁구" beside their fee: the name before the kind word
        forms |= {m.group(1) for f in forms if (m := _KO_KIND_AFTER.fullmatch(f))}
        # a model code in brackets after the name ("클린보 R7 (ORV-R7)") names it as well
        forms |= {normalize(code) for code in _BRACKETED_CODE.findall(fact.subject)}
        forms.discard("")
        return forms

    def _holds_a_post(self, entity: EntityNode | None) -> bool:
        """Whether the pages give the entity a role or post: a person, where "Essential Package" only reads like a
        name."""
        if entity is None:
            return False
        return any(_ROLE_LABEL.search(f.attribute) for f in self.ctx.facts_by_entity.get(entity.entity_id, []))

    def _legal_names(self, entity_id: str) -> set[str]:
        """The legal name a brand's page gives it ("법인명 | (주)하루결에프앤비"): the company's org chart, titled with
        that name, is the brand's. Worked out once per entity."""
        if entity_id not in self._legal:
            self._legal[entity_id] = {
                normalize(f.value)
                for f in self.ctx.facts_by_entity.get(entity_id, [])
                if f.value_type == "text" and _LEGAL_LABEL.search(f.attribute) and _LEGAL_FORM.search(f.value)
            }
        return self._legal[entity_id]

    def _brand_words(self) -> set[str]:
        """First words that open the names of three things or more ("aurora" of Aurora Fold 250, Aurora Ridge 700 …)."""
        if self._brands is None:
            firsts: dict[str, int] = {}
            for entity in self.ctx.entities.values():
                words = normalize(entity.name).split()
                if len(words) >= 2:
                    firsts[words[0]] = firsts.get(words[0], 0) + 1
            self._brands = {w for w, n in firsts.items() if n >= 3 and len(w) >= 3}
        return self._brands

    def distinctive(self, forms: set[str]) -> set[str]:
        """Words of the subject's names that few documents use ("세진전자" of "세진전자 임직원 포상여행 계약")."""
        words = {word.strip(":;,.()[]\"'") for form in forms for word in form.split()}
        return {word for word in words if self._rare(word)}

    def _rare(self, word: str) -> bool:
        """Whether a word names something few pages mention (decided once per word and run)."""
        if word not in self._rare_words:
            rare = False
            if len(word) >= (2 if is_cjk(word) else 4):
                chunks = self.ctx.chunks_with(word)
                pages = {self.ctx.chunks[c].doc_id for c in chunks}
                limit = _few(len(self.ctx.docs))
                # a Latin word must be a name ("Evergreen", "Harborview"): one the corpus also writes in lower
                # case ("life", "insurance") is a common word, however few pages use it
                lower = not is_cjk(word) and any(
                    re.search(rf"(?<![\w.]){re.escape(word)}(?!\w)", self.ctx.chunks[c].text) for c in chunks
                )
                rare = 0 < len(pages) <= limit and not lower
            self._rare_words[word] = rare
        return self._rare_words[word]

    def _few_pages(self, word: str) -> bool:
        """Whether few pages write `word` as it is (as `_rare` counts them, but with the characters in a row:
        "국가대표" is not written by a page that only has "국가" and "대표")."""
        if word not in self._few_words:
            pages = {self.ctx.chunks[c].doc_id for c in self.ctx.chunks_with(word) if word in self.ctx.chunk_norm[c]}
            self._few_words[word] = 0 < len(pages) <= _few(len(self.ctx.docs))
        return self._few_words[word]

    def _by_distinctive_words(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """A specific typed value (an amount with its unit, a full date) next to a word only the subject's pages
        use: "세진전자 임직원 300명" in an FAQ states the 300 participants of the 세진전자 contract."""
        # a short text built around one amount ("약 5,000명 (예산 소진 시 조기 마감)") is specific by its amount, and
        # then must show its label too
        noted = fact.value_type == "text" and _one_amount(fact.value) is not None
        if not (_specific(fact) or noted):
            return set()
        words = self.distinctive(forms)
        if not words:
            return set()
        cues = attribute_cues(fact)
        # a measure beside the name may be another part's ("AP-40 포장 상자는 6.5kg"): its attribute must show; an
        # amount of money or a count of people is specific enough ("세진전자 임직원 300명")
        measure = noted or (fact.source != "sentence" and fact.value_type != "money" and not _is_count_unit(fact.unit))
        own = {t for word in words for t in tokens(word)}
        label = [cue for cue in cues if cue not in own]
        if noted and not label:
            return set()

        def states(lines: list[str], index: int) -> bool:
            norm = normalize(_with_its_question(lines, index))
            if fact.source == "sentence" and not _tells_the_same(cues, norm):
                return False
            if measure and label and not any(cue in norm for cue in label):
                return False
            return states_value(fact, lines[index])

        def names_it(lines: list[str], index: int) -> bool:
            norm = normalize(_with_its_question(lines, index))
            return any(contains_keyword(norm, w) for w in words) and states(lines, index)

        docs = self._docs_with_a_line(self._candidates(fact), found, names_it)
        # a page titled with two of those words is about the subject throughout: "시민 건강검진 본인부담금 지원 자주
        # 묻는 질문" answers "예산 범위(약 5,000명)" without naming the programme again
        candidates = self._candidates(fact)
        pages = {self.ctx.chunks[c].doc_id for c in candidates} - found - docs
        titled_pages = {d for d in pages if sum(contains_keyword(self._title_norm(d), w) for w in words) >= 2}
        if not titled_pages:
            return docs
        titled = {c for c in candidates if self.ctx.chunks[c].doc_id in titled_pages}
        return docs | self._docs_with_a_line(titled, found | docs, states)

    def identifiers(self, fact: FactNode) -> set[str]:
        """Model codes and other names made of letters and digits ("AF-40H", "KSI-6000") that few pages use, said
        where the value is: in the row's label or the subject for a table or labelled line, in the sentence for a
        prose fact (not its page's title)."""
        said = fact.attribute if fact.source == "sentence" else f"{fact.subject} {fact.attribute}"
        found = {m.group(0) for m in _IDENTIFIER.finditer(said)}
        return {code for code in found if self._rare(code.lower())}

    def _by_identifier(self, fact: FactNode, found: set[str]) -> set[str]:
        """An amount with its unit (money, or a measure whose label shows) in a line of another page that writes
        one of the fact's model codes: "AP-40 교체용 필터 (AF-40H): 59,000원" in a price list, "교체용
        필터(AF-40H, 59,000원 상당)" in a press release and an FAQ answer all state the filter's price. A code that
        rare, with the same amount and unit, is the same thing's figure, whatever the page calls it."""
        if fact.number is None or not (fact.value_type == "money" or (fact.value_type == "number" and fact.unit)):
            return set()
        codes = self.identifiers(fact)
        if not codes:
            return set()
        parts = {t for code in codes for t in tokens(code)}  # "AP-40 무게": the code's letters are no attribute
        cues = [] if fact.value_type == "money" else [c for c in attribute_cues(fact) if c not in parts]
        if fact.value_type != "money" and (not cues or fact.source == "sentence"):
            return set()  # a measure must show its attribute, which a sentence's words do not single out
        pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(code)}(?![\w-])" for code in sorted(codes)), re.I | re.A)

        candidates = self._candidates(fact)
        # a measure on a page titled with the code ("AP-40 사양" with "무게: 6.5kg") is the coded thing's own
        titled = {d for d in {self.ctx.chunks[c].doc_id for c in candidates} if pattern.search(self.ctx.docs[d].title)}

        def names_it(lines: list[str], index: int, doc_id: str) -> bool:
            line = lines[index]
            if not (pattern.search(line) or (cues and doc_id in titled)) or not states_value(fact, line):
                return False
            return not cues or any(cue in normalize(_with_its_question(lines, index)) for cue in cues)

        docs: set[str] = set()
        for chunk_id in sorted(candidates):
            doc_id = self.ctx.chunks[chunk_id].doc_id
            lines = self.lines(chunk_id)
            if doc_id not in found and any(names_it(lines, i, doc_id) for i in range(len(lines))):
                docs.add(doc_id)
        return docs

    def _beside_its_row_label(self, fact: FactNode, cues: list[str], found: set[str]) -> set[str]:
        """Pages of the fact's folder with a line writing its figure beside its table row's label (`_same_row`),
        in a chunk that shows the attribute: the row's label ("Essential") is how other pages name the row's
        thing ("Essential Package"), which the subject's own names would not find."""
        label = row_label(fact)
        # the row must be the subject ("Essential" of the Essential Package), not a part of it ("Final exam" of a
        # course, whose sibling course has a final exam too)
        if not label or not _specific(fact) or normalize(label) not in normalize(fact.subject):
            return set()
        chunks = self._in_folder(self._candidates(fact) & self.ctx.chunks_with(label), self.ctx.doc_type(fact.doc_id))
        return self._docs_with_a_line(
            chunks, found, lambda lines, i: states_value(fact, lines[i]) and _same_row(fact, label, lines[i]), cues
        )

    def _in_folder(self, chunk_ids: set[str], folder: str) -> set[str]:
        """The chunks among `chunk_ids` of pages in `folder` (a document type)."""
        return {c for c in chunk_ids if self.ctx.doc_type(self.ctx.chunks[c].doc_id) == folder}

    def _entity_forms(self, fact: FactNode, entity: EntityNode) -> set[str]:
        """The names another entity goes by, worked out as the fact's subject's are."""
        return self.subject_forms(fact.model_copy(update={"subject": entity.name, "subject_entity": entity.entity_id}))

    def _docs_with_a_line(
        self,
        chunk_ids: set[str],
        found: set[str],
        holds: Callable[[list[str], int], bool],
        cues: list[str] | None = None,
    ) -> set[str]:
        """Documents beyond `found` with a line, among `chunk_ids` (given `cues`, those showing one of them), for
        which `holds(lines, index)` is true."""
        docs: set[str] = set()
        for chunk_id in sorted(chunk_ids):
            doc_id = self.ctx.chunks[chunk_id].doc_id
            if doc_id in found or doc_id in docs:
                continue
            if cues and not any(cue in self.ctx.chunk_norm[chunk_id] for cue in cues):
                continue
            lines = self.lines(chunk_id)
            if any(holds(lines, index) for index in range(len(lines))):
                docs.add(doc_id)
        return docs

    def _told_again(self, fact: FactNode, cues: list[str], found: set[str]) -> set[str]:
        """A dated prose fact told again in another document in nearly the same words, whatever that document is
        about: "MERS was first reported in September 2012 in Saudi Arabia" in a second paper tells "Middle East
        respiratory syndrome coronavirus was first recognized in September 2012 in Saudi Arabia". Three quarters of
        the sentence's own words (at least six) and the same date, in one sentence. Not for Chinese or Japanese,
        whose sentences often leave their subject to the sentence before ("1934年获博士学位" is told of many)."""
        if fact.source != "sentence" or fact.value_type != "date" or len(cues) < 6 or is_cjk(fact.evidence):
            return set()
        return self._docs_with_a_line(
            self._candidates(fact),
            found,
            lambda lines, i: (
                states_value(fact, lines[i]) and sum(cue in normalize(lines[i]) for cue in cues) >= 0.75 * len(cues)
            ),
            cues,
        )

    def _event_retold(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """A dated Korean or English prose fact told again in other words: "1961년 하곡까지 노선이 연장되면서" on the
        station's page tells the line's "1961년에는 탄광이 있는 하곡까지 연장되었다", "Keith started the firm in 1987"
        Keith Brindley's "started the business in 1987". The same date in one line with words of the event that few
        pages use (see `_rare_words_shared`): two of them, or one when the line also names the subject ("2022년
        한도윤의 국가대표 데뷔")."""
        if fact.value_type != "date":
            return set()
        names, words = self._sentence_words(fact, forms)
        if not words:
            return set()

        # an English line must share a word of the event itself, written in lower case in the sentence: names alone
        # ("In 2011 Helen Ashdown moved …" beside "Helen Ashdown set the business up in 2011") are another event
        lower = {normalize(w) for w in re.findall(r"(?<![A-Za-z])[a-z]{4,}", fact.attribute)}
        event = None if re.search(f"[{HANGUL}]", fact.attribute) else [w for w in words if w in lower]

        def tells(lines: list[str], index: int) -> bool:
            if not states_value(fact, lines[index]):
                return False
            norm = normalize(lines[index])
            if event is not None and not self._rare_words_shared(event, norm):
                return False
            shared = self._rare_words_shared(words, norm)
            return shared >= 2 or (shared == 1 and any(name in norm for name in names))

        return self._docs_with_a_line(self._candidates(fact), found, tells)

    def _figure_retold(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """A rule's figure told again in other words on another page of the same folder: the FAQ's "차량번호로
        5년간 정비 이력을 보관해요" tells the warranty terms' "정비 이력은 차량번호 기준으로 5년간 보관합니다". The same
        figure in one line with three words of the sentence that few pages use (a figure is less telling than a
        date, so the folder must be the fact's own)."""
        if fact.number is None:
            return set()
        _, words = self._sentence_words(fact, forms)
        if len(words) < _RETOLD_WORDS:
            return set()

        def tells(lines: list[str], index: int) -> bool:
            if not states_value(fact, lines[index]):
                return False
            return self._rare_words_shared(words, normalize(lines[index])) >= _RETOLD_WORDS

        folder = self.ctx.doc_type(fact.doc_id)
        return self._docs_with_a_line(self._in_folder(self._candidates(fact), folder), found, tells)

    @staticmethod
    def _sentence_words(fact: FactNode, forms: set[str]) -> tuple[set[str], list[str]]:
        """The subject's names (normalised) and the words of a Korean or English prose fact's sentence that are no
        part of them (an English person is named by the first name too: "Keith started the firm in 1987" tells
        Keith Brindley's); no words for any other fact."""
        said = normalize(fact.attribute.replace("…", " "))
        if fact.source != "sentence" or (is_cjk(fact.attribute) and not re.search(f"[{HANGUL}]", fact.attribute)):
            return set(), []
        names = {normalize(f) for f in forms if len(f) >= 2}
        if re.search(f"[{HANGUL}]", fact.attribute):
            words = re.findall(f"[{HANGUL}]{{2,}}", said)
        else:
            person = without_honorific(fact.subject.strip()).split()
            if len(person) >= 2 and en.is_person_name(" ".join(person)) and len(person[0]) >= _FIRST_NAME_CHARS:
                names.add(normalize(person[0]))
            words = [w for w in re.findall(r"[a-z]{4,}", said) if w not in _EN_FUNCTION_WORDS]
        return names, [w for w in words if not any(name in w or w in name.split() for name in names)]

    def _rare_words_shared(self, words: list[str], norm: str) -> int:
        """How many of `words` a line writes, each by its longest start ("연장되" of "연장되었다" and of
        "연장되면서"; "start" of "started" and "starting"), counting only starts that few pages use."""
        shared = 0
        for word in words:
            shortest = 1 if re.match(f"[{HANGUL}]", word) else min(len(word), _EN_STEM_CHARS) - 1
            start = next((word[:k] for k in range(len(word), shortest, -1) if word[:k] in norm), None)
            shared += start is not None and self._few_pages(start)
        return shared

    def _year_told_in_prose(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """An infobox's dated event told again in another article's prose, by its year: "| Passenger closure | 2 March
        1964 |" is told by "After the passenger service was withdrawn in 1964 …" in a paragraph that names the
        Ollerdale Railway. The sentence must give the year and a word of the label's own ("passenger", not "date"),
        the paragraph the subject's name."""
        if fact.source not in ("table", "key_value") or fact.value_type != "date" or not fact.date_key:
            return set()
        year = fact.date_key[:4]
        if not year.isdigit():
            return set()
        names = [normalize(f) for f in forms if len(f) >= 4]
        # a word of the subject's own name says nothing of the event ("계약" of "… 계약 시작일" and "계약 체결")
        stems = {stem for stem in _label_stems(fact.attribute) if not any(stem in name for name in names)}
        if not stems or not names:
            return set()
        said_year = re.compile(rf"(?<!\d){year}(?!\d)")
        docs: set[str] = set()
        for chunk_id in sorted(self._chunks_naming(forms) & self.ctx.token_index.get(year, set())):
            doc_id = self.ctx.chunks[chunk_id].doc_id
            if doc_id in found or doc_id in docs or doc_id == fact.doc_id:
                continue
            for paragraph in self.ctx.chunks[chunk_id].text.split("\n"):
                norm = normalize(paragraph)
                if not any(name in norm for name in names):
                    continue
                sentences = [normalize(p) for p in _SEGMENT.split(paragraph) if p.strip()]
                if any(said_year.search(x) and any(stem in x for stem in stems) for x in sentences):
                    docs.add(doc_id)
                    break
        return docs

    def _same_names_and_verb(self, fact: FactNode, found: set[str]) -> set[str]:
        """A dated event told again with its names and its verb in other words: "Founded in 2019 by Tomasz Iwanicki
        and Rafaela Venn, Lumenday provides …" tells "Rafaela Venn co-founded Lumenday in 2019 with Tomasz
        Iwanicki". The asked clause (up to its first comma) must name three words or more with capitals (two when
        one is a model code: "the list price of the KC-720 Cargo will rise … on 1 July 2024"), and a
        line of another document give every one of them, a word of the clause's verb and the same date. Not for
        Chinese or Japanese (no capitals to find names by)."""
        if fact.source != "sentence" or fact.value_type != "date" or is_cjk(fact.attribute):
            return set()
        clause = re.split(r"[,;]|\s[-–—]\s", fact.attribute, maxsplit=1)[0]  # "… on … - see the FAQ": not the pointer
        words = re.findall(r"[\w'’-]+", clause)
        # the clause's first word is a name only when the next one is too ("Rafaela Venn …", not "Founded in …")
        named = [w[:1].isupper() and (i > 0 or len(words) == 1 or words[1][:1].isupper()) for i, w in enumerate(words)]
        names = {normalize(w) for w, name in zip(words, named, strict=True) if name and normalize(w) not in _STOP}
        verbs = {  # the clause's other words, cut to a stem: "found" of "co-founded" and of "Founded"
            normalize(part)[:5]
            for w, name in zip(words, named, strict=True)
            if not name
            for part in w.split("-")
            if len(part) >= 4 and normalize(part) not in _STOP
        }
        # three names, or two with a model code among them ("The KC-720 Cargo price changed on …")
        coded = _IDENTIFIER.search(clause) is not None
        if not verbs or len(names) < (2 if coded else 3):
            return set()

        def tells(lines: list[str], index: int) -> bool:
            line = normalize(lines[index])
            said = set(re.findall(r"[\w'’-]+", line))
            return names <= said and any(verb in line for verb in verbs) and states_value(fact, lines[index])

        return self._docs_with_a_line(self._candidates(fact), found, tells)

    def _association_told(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """For a relation a page tells only by naming another thing in prose ("Each year we support a local cause –
        at the moment that's Hartle Lane Animal Rescue"): every page that names both, and every page among the other
        thing's own (its folder) that names the subject ("**Headline sponsor:** Millrace Lettings" on the charity's
        fun-run page), tells the same association."""
        target = self.ctx.entities.get(fact.value_entity or "")
        if fact.source != "sentence" or fact.attribute != fact.evidence or target is None or not target.home_doc:
            return set()
        names = {f for f in forms if len(f) >= 3}
        if not names:
            return set()
        target_forms = {f for f in self._entity_forms(fact, target) if len(f) >= 3}
        naming = {self.ctx.chunks[c].doc_id for c in self._chunks_naming(names)}
        naming_target = {self.ctx.chunks[c].doc_id for c in self._chunks_naming(target_forms)}
        folder = self.ctx.doc_type(target.home_doc)
        # the other thing's folder only when it has one of its own (in a flat KB every page shares the one folder)
        own_folder = folder != self.ctx.doc_type(fact.doc_id)
        theirs = {d for d in naming if own_folder and self.ctx.doc_type(d) == folder}
        return ((naming & naming_target) | theirs) - found

    def _founding_told(self, fact: FactNode, found: set[str]) -> set[str]:
        """A founding told again in other words by a page of the same folder: "Helen Ashdown set the business up in
        2011" tells "Millrace Lettings Ltd was founded in 2011 by Helen Ashdown" — a founding verb, the same date
        and two capitalised name words of the sentence in one line."""
        if fact.source != "sentence" or fact.value_type != "date" or not _FOUNDED.search(fact.attribute):
            return set()
        names = {normalize(w) for w in re.findall(r"\b[A-Z][\w'’-]+", fact.attribute) if normalize(w) not in _STOP}
        if len(names) < 2:
            return set()
        beside = self._in_folder(self._candidates(fact), self.ctx.doc_type(fact.doc_id))

        def tells(lines: list[str], index: int) -> bool:
            line = lines[index]
            said = {normalize(w) for w in re.findall(r"[\w'’-]+", line)}
            return bool(_FOUNDED.search(line)) and len(names & said) >= 2 and states_value(fact, line)

        return self._docs_with_a_line(beside, found, tells)

    def _restated_rule(self, fact: FactNode, cues: list[str], found: set[str]) -> set[str]:
        """A rule of a policy restated elsewhere without naming the policy: an FAQ answer "취소 접수 후 영업일 기준
        7일 안에 환불됩니다" under "환불금은 언제 들어오나요?" states the refund policy's "환불 처리 기한". Only for a
        value of three words or more (a phrase that specific is the same rule), with a word of the attribute in the
        line or the question above it."""
        if (
            not RULE_PAGE.search(self.ctx.docs[fact.doc_id].title)
            or fact.value_type != "text"
            or len(tokens(fact.value)) < 3
            or not cues
        ):
            return set()
        return self._docs_with_a_line(
            self._candidates(fact),
            found,
            lambda lines, i: (
                states_value(fact, lines[i]) and any(cue in normalize(_with_its_question(lines, i)) for cue in cues)
            ),
            cues,
        )

    def _title_norm(self, doc_id: str) -> str:
        """A document's title, normalised (cached: closures ask for the titles of many pages)."""
        title = self._titles.get(doc_id)
        if title is None:
            title = self._titles[doc_id] = normalize(self.ctx.docs[doc_id].title)
        return title

    def _titled(self, doc_id: str, forms: set[str]) -> bool:
        title = self._title_norm(doc_id)
        return any(re.search(rf"(?<!\w){re.escape(form)}(?!\w)", title) for form in forms if len(form) > 2)

    def _from_the_other_end(self, fact: FactNode, forms: set[str]) -> set[str]:
        """The value entity's own page, when one of its lines names the subject (a relation stated back)."""
        target = self.ctx.entities.get(fact.value_entity or "")
        if target is None or not target.home_doc or target.home_doc == fact.doc_id:
            return set()
        # "Contract with Summit for Bizllm": the word "bizllm" on Bizllm's own page names the page, not the contract
        own = {w for name in (target.name, *target.aliases) for w in normalize(name).split()}
        forms = {form for form in forms if form not in own}
        # the line must say what the relation is, not only name the subject: "Location: Bellingham Headquarters" on
        # a person's page does not make her the site lead there
        cues = attribute_cues(fact)
        for chunk in self.ctx.chunks_by_doc.get(target.home_doc, []):
            for line in self.lines(chunk.chunk_id):
                norm = normalize(line)
                if (
                    any(form in norm for form in forms)
                    and not norm.lstrip("# ").startswith(tuple(forms))
                    and (not cues or any(cue in norm for cue in cues) or _RELATION_TOLD.search(norm))
                ):
                    return {target.home_doc}
        return set()

    def _relation_in_prose(self, fact: FactNode, forms: set[str], found: set[str]) -> set[str]:
        """A sentence telling a relation with a verb between its two names: "Bergfeld Logistik uses the Aurora Cargo
        Max" (a contract's product), "the largest Cargo Max customer is Bergfeld Logistik"."""
        target = self.ctx.entities.get(fact.value_entity or "")
        if target is None or not forms:
            return set()
        targets = self._entity_forms(fact, target)
        subj, obj = _alternation(forms), _alternation(targets)
        gap = r"(?:\W+\S+){0,3}?\W+"
        told = re.compile(
            rf"(?<!\w)(?:{subj}){gap}(?:{_USES}){gap}(?:{obj})(?!\w)|(?<!\w)(?:{obj})\s+(?:customer|client|user)s?\s+"
            rf"(?:is|are|include|includes){gap}(?:{subj})(?!\w)"
        )
        both = set().union(*(self.ctx.chunks_with(t) for t in targets)) & self._chunks_naming(forms)
        return self._docs_with_a_line(both, found, lambda lines, i: bool(told.search(normalize(lines[i]))))

    def _from_the_listed_pages(self, fact: FactNode, forms: set[str]) -> set[str]:
        """A list of things with pages of their own ("담당 계약: 세진전자 … 계약, 그린모빌리티 … 계약"): each listed
        page that names the subject in a line states its part of the list (the contract page naming its manager)."""
        parts = _list_parts(fact.value)
        if not parts or fact.source not in ("key_value", "table"):
            return set()
        if self._homes is None:  # name → home page, once per run
            self._homes = {normalize(e.name): e.home_doc for e in self.ctx.entities.values() if e.home_doc}
        found: set[str] = set()
        for part in parts:
            home = self._homes.get(normalize(part))
            if home is None or home == fact.doc_id:
                continue
            for chunk in self.ctx.chunks_by_doc.get(home, []):
                if any(any(form in normalize(line) for form in forms) for line in self.lines(chunk.chunk_id)):
                    found.add(home)
                    break
        return found


def fact_closure(ctx: GenContext, fact: FactNode) -> set[str]:
    """Every document that states `fact` (one-off; `Closure` caches the per-chunk work across facts)."""
    return Closure(ctx).of(fact)
