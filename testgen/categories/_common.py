"""Helpers shared by the categories: phrasers per language, keyword choice, value formatting."""

from __future__ import annotations

import itertools
import random
import re
from collections import defaultdict
from collections.abc import Callable

from schemas import FactNode
from testgen.corpus import ROOT_TYPE
from testgen.kg.entities import record_contexts
from testgen.kg.mining import BOUNDED_FIGURE
from testgen.kg.values import find_values, list_items
from testgen.lang import DAYS, EXTENSION, GENERIC_HEADINGS, KO_SERVICE_KINDS, PHONE_DIGITS, PHONE_RUN, en, ko
from testgen.lang.en import is_person_name
from testgen.names import (
    PAGE_KIND_WORDS,
    introduced_name,
    short_title,
    title_cased,
    without_legal_form,
    without_parentheticals,
    without_trailing_note,
)
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft
from testgen.synth.phrasing import Phraser, phraser_for
from testgen.synth.phrasing.en import CURRENCY_BRACKET, bracket_currency
from testgen.text import is_cjk, normalize


def phraser(ctx: GenContext, language: str) -> tuple[Phraser, list[str]]:
    """The phraser for a language built with the corpus vocabulary, and the flags its items carry."""
    ph, fallback = phraser_for(language, ctx.vocabulary)
    flags = [f"language_fallback:{language}->en"] if fallback else []
    if language in ("zh", "ja"):
        flags.append("phrasing:basic")
    return ph, flags


def subject_name(ctx: GenContext, fact: FactNode) -> str:
    """The subject as a name (entity name when resolved), without words that only introduce it ("About X"), and
    in the case the KB writes it in running text rather than a letterhead's capitals."""
    if fact.subject_entity and fact.subject_entity in ctx.entities:
        name = as_written(ctx, introduced_name(ctx.entities[fact.subject_entity].name))
    else:
        name = as_written(ctx, introduced_name(short_title(fact.subject)))
    return _topic_owner(ctx, fact, _with_its_owner(ctx, fact, _with_its_brand(ctx, fact, name)))


#: A branch named only by its place among its brand's ("본점", "읍내점", "동막지점"): a row of the brand's store list.
_KO_BRANCH = re.compile(r"[가-힣]{1,3}(?:지점|분점|점)")


def _with_its_brand(ctx: GenContext, fact: FactNode, name: str) -> str:
    """A branch with the brand its page lists it under: "새들농협 하나로마트 본점" for the row "본점" of "새들농협
    하나로마트 점포 안내" — the KB's other brands have a 본점 too."""
    doc = ctx.docs.get(fact.doc_id)
    if doc is None or not _KO_BRANCH.fullmatch(name):
        return name
    brand = introduced_name(short_title(doc.title))
    if brand == short_title(doc.title) or normalize(name) in normalize(brand) or len(brand) > _BRAND_CHARS:
        return name
    return f"{brand} {name}"


_BRAND_CHARS = 20
#: A Korean course, class or route named by a row of its page's table: "둘레길 코스", "탁구 강좌".
_KO_KIND_ROW = re.compile(rf"[가-힣·]+(?: [가-힣·]+)? (?:{'|'.join(sorted(KO_SERVICE_KINDS))})")


def _with_its_owner(ctx: GenContext, fact: FactNode, name: str) -> str:
    """A course or route a table row names, with the named thing whose page it is on: "취령산 도립공원 둘레길
    코스", not "둘레길 코스" alone (every park has one). Only on a page that is a thing's own (its title is the name of
    an entity at home there), not on a listing page ("2025년 강좌 안내")."""
    if fact.source != "table" or not _KO_KIND_ROW.fullmatch(name):
        return name
    doc = ctx.docs.get(fact.doc_id)
    if doc is None:
        return name
    owner = without_parentheticals(short_title(doc.title)).strip()
    home = (fact.doc_id, normalize(owner)) in _homes(ctx)
    words = re.findall(r"\w+", normalize(owner))
    listing = any(
        w in PAGE_KIND_WORDS or w in GENERIC_HEADINGS or re.search(r"\d", w) or _KO_TABLE_WORD.search(w) for w in words
    )
    if not home or listing or normalize(owner) in normalize(name) or len(owner) > _BRAND_CHARS:
        return name
    return f"{owner} {name}"


#: A Korean word naming a page that is a table ("프로그램시간표", "근무표", "명단"): a listing, not a thing's own page.
_KO_TABLE_WORD = re.compile(r"(?:시간|일정|요금|편성|근무|배정|단가|가격|배치)표$|명단$|현황$")


def _topic_owner(ctx: GenContext, fact: FactNode, name: str) -> str:
    """The organisation whose folder holds a page titled with a topic, not a thing ("Fees and funded hours 2024–25",
    "Extras and add-ons"): the page's labelled facts are the organisation's ("Hollyhock House's sibling discount"),
    when the folder is named after one and no other page of it gives the label another value. Not on a page of
    records, one per section ("## Lemur Walk-Through" and "## Penguin Feed", each with its "Group size"): a fact there
    is its section's. English titles only: a topic's first word is one the pages also write in lower case."""
    doc = ctx.docs.get(fact.doc_id)
    if doc is None or fact.source not in ("key_value", "table") or ctx.language_of(fact) != "en":
        return name
    if normalize(name) != normalize(introduced_name(short_title(doc.title))) or _EVENT_PAGE.search(doc.title):
        return name  # a row's thing, a page of its own, or a memo's or minutes' own (a change, a meeting)
    first = re.match(r"[A-Za-z][\w'-]*", name)
    if first is None or _a_name(ctx, first.group(0)) or is_person_name(name) or fact.doc_id in _record_pages(ctx):
        return name
    org = organisation_of(ctx, fact) or folder_organisation(ctx, fact.doc_id)
    # one word ("Council", "Rosewood", "Coworking") may be a kind of body, or a part of a longer name
    if org is None or len(org.split()) < 2 or normalize(org) in normalize(name):
        return name
    if len(_folder_values(ctx).get((fact.doc_id.partition("/")[0], normalize(fact.attribute)), ())) > 1:
        return name  # another page of the folder gives the label another value: which one is the organisation's?
    return as_written(ctx, org)


def folder_organisation(ctx: GenContext, doc_id: str) -> str | None:
    """The organisation a top-level folder is named after, as its pages write it: "Kestrel Hire" for
    "kestrel_hire/…", "Hollyhock House" for "hollyhock_house_nursery/…" (the longest run of the folder name's first
    words that at least `ORGANISATION_SHARE` of its pages write, led by a name). None for a folder named for a kind
    of page or thing ("policies", "pharmacy"), or named in another script than its pages."""
    folder, _, rest = doc_id.partition("/")
    named = ctx.memo.get("folder_organisations")
    if not isinstance(named, dict):
        named = ctx.memo["folder_organisations"] = {}
    if rest and folder not in named:
        named[folder] = _named_folder(ctx, folder)
    return named.get(folder) if rest else None


def _named_folder(ctx: GenContext, folder: str) -> str | None:
    """`folder_organisation`'s search, once per folder: the longest leading run of the folder name's words that
    enough of its pages write, as they write it most often."""
    words = [w for w in re.split(r"[_\s-]+", folder) if w]
    docs = {d for d in ctx.docs if d.startswith(f"{folder}/")}
    if not words or not words[0].isascii():
        return None
    for n in range(len(words), 0, -1):
        said = re.compile(r"(?<!\w)" + r"[\s_-]+".join(re.escape(w) for w in words[:n]) + r"(?!\w)", re.I)
        written: dict[str, list[str]] = defaultdict(list)
        for chunk_id in ctx.chunks_with(" ".join(words[:n])):
            chunk = ctx.chunks[chunk_id]
            match = said.search(chunk.text) if chunk.doc_id in docs else None
            if match is not None:
                written[chunk.doc_id].append(match.group(0))
        if n == 1 < len(words):
            return None  # "Pembury" of "pembury_vance_kb" may be a partner's surname as well
        if len(written) >= max(2, ORGANISATION_SHARE * len(docs)):
            forms = sorted((f for found in written.values() for f in found), key=lambda f: f[:1].islower())
            form = max(set(forms), key=forms.count) if forms else ""
            return form if form[:1].isupper() and _a_name(ctx, form.split()[0]) else None
    return None


#: Titles of pages about one event or change, whose facts are theirs (a memo's new fee, the minutes' date).
_EVENT_PAGE = re.compile(
    r"\b(?:memo(?:randum)?|notices?|minutes|meetings?|agenda|circular|newsletter|letter|bulletin|announcements?|"
    r"releases?|reports?|updates?)\b",
    re.I,
)


def _record_pages(ctx: GenContext) -> set[str]:
    """Pages of records, one per section (see `record_contexts`), worked out once per run."""
    pages = ctx.memo.get("record_pages")
    if not isinstance(pages, set):
        by_doc: dict[str, list[FactNode]] = defaultdict(list)
        for f in ctx.facts:
            by_doc[f.doc_id].append(f)
        pages = ctx.memo["record_pages"] = {doc_id for doc_id, facts in by_doc.items() if record_contexts(facts)}
    return pages


def _folder_values(ctx: GenContext) -> dict[tuple[str, str], set[str]]:
    """(top-level folder, normalised label) → the normalised values its labelled facts give (once per run)."""
    values = ctx.memo.get("folder_values")
    if not isinstance(values, dict):
        found: dict[tuple[str, str], set[str]] = defaultdict(set)
        for f in ctx.facts:
            if f.source in ("key_value", "table"):
                found[(f.doc_id.partition("/")[0], normalize(f.attribute))].add(normalize(f.value))
        values = ctx.memo["folder_values"] = found
    return values


def _homes(ctx: GenContext) -> set[tuple[str, str]]:
    """(document, normalised name) of every entity at home on a page (worked out once per run)."""
    homes = ctx.memo.get("homes")
    if not isinstance(homes, set):
        homes = ctx.memo["homes"] = {(e.home_doc, normalize(e.name)) for e in ctx.entities.values() if e.home_doc}
    return homes


def as_written(ctx: GenContext, name: str) -> str:
    """A name in capitals ("COPPER LANTERN RESTAURANT GROUP", a letterhead) as the KB writes it elsewhere ("Copper
    Lantern Restaurant Group"), else with each word capitalised; any other name as it is."""
    tokens_ = name.split()
    words = [t for t in tokens_ if re.fullmatch(r"[A-Z][A-Z&'.-]*[A-Z.]", t) and len(t) >= 3]
    if len(words) < 2 or not name.isupper() or is_cjk(name) or any(re.search(r"[A-Z]\d|\d[A-Z]", t) for t in tokens_):
        return name  # a model code ("ORV-R7L"), a Korean name with "A/S" in it: as written
    memo = ctx.memo.setdefault("as_written", {})
    assert isinstance(memo, dict)
    if name not in memo:
        pattern = re.compile(r"(?<![\w])" + r"\s+".join(re.escape(w) for w in name.split()) + r"(?![\w])", re.I)
        written = (
            found.group(0)
            for chunk_id in sorted(ctx.chunks_with(name))
            for found in pattern.finditer(ctx.chunks[chunk_id].text)
            if not found.group(0).isupper()
        )
        memo[name] = next(written, None) or title_cased(name)
    return str(memo[name])


MAX_KEYWORD_CHARS = 40
"""A value span longer than this is split into keywords."""
_PHRASE_BREAK = re.compile(r"[,;:()\[\]|·、，；：（）]|\s/\s|\s[-–—&+]\s")  # "UX/UI" is one word
_FUNCTION_WORDS = frozenset(
    "a an the of for and or to in on at by with from as per into onto over under its their his her our your "
    "is are was were be been that which who whose than".split()
)
_EDGE_PUNCTUATION = ".!?\"'`*“”‘’。！？"


_NAME_JOINERS = frozenset("of in at for de du la van von".split())
"""Function words that stay inside a name between two capitalised words ("University of Florida", "BS in Physics")."""


def _capitalised(word: str | None) -> bool:
    return word is not None and word[:1].isupper()


def _phrases(value: str, *, join_names: bool = True) -> list[str]:
    """Runs of content words between punctuation and English function words, in order, as they stand; a joining
    word between two capitalised words stays in its name ("BS in Computer Science", "University of Illinois")."""
    phrases = []
    for piece in _PHRASE_BREAK.split(value):
        run: list[str] = []
        words: list[str | None] = [*piece.split(), None]
        for i, word in enumerate(words):
            bare = None if word is None else word.lower().strip(_EDGE_PUNCTUATION)
            joins = (
                join_names
                and bare in _NAME_JOINERS
                and bool(run)
                and _capitalised(run[-1])
                and _capitalised(words[i + 1])
            )
            if word is None or (bare in _FUNCTION_WORDS and not joins):
                phrase = " ".join(run).strip(_EDGE_PUNCTUATION + " ")
                if len(phrase) >= 3 and phrase not in phrases:
                    phrases.append(phrase)
                run = []
            else:
                run.append(word)
    return phrases


def _phone_of(text: str) -> str | None:
    """The one telephone number `text` writes, or None."""
    phones = [p.strip() for p in _PHONE.findall(text) if sum(c.isdigit() for c in p) >= PHONE_DIGITS]
    return phones[0] if len(phones) == 1 else None


def keywords_for_value(value: str) -> list[str]:
    """Keywords taken from a value span: the parts of a short comma-separated list; the span itself when short;
    else its typed values (dates, amounts, …); else its longest phrases ("independent consultant", "electric scooter
    startups"), in their order; else its longest words."""
    value = value.strip()
    quoted = _QUOTED.fullmatch(value)
    if quoted:
        return keywords_for_value(next(g for g in quoted.groups() if g))  # "'Noeul Pixel 라운지'": no quotes
    value = _POSTCODE_FIRST.sub("", value)  # "(16914) 경기도 용인시 혁신로 87-3": the postcode opens the line
    road = _KO_ROAD_ADDRESS.match(value)
    if road:
        # "서울특별시 서하구 느티나무로 45 (서하동) 서하구립청소년수련관": the road address from its district on,
        # whatever dong, building, floor or name an answer writes after it, and however it writes the city
        # ("서울 마포구", "서울시 마포구")
        words = road.group().split()
        street = next(i for i, w in enumerate(words) if re.match(r"[가-힣][가-힣0-9]*(?:로|길)(?:\d|$)", w))
        return [" ".join(words[max(street - 1, 0) :])]
    value = without_legal_form(value)  # "청운도시가스㈜": an answer may name the company without its legal form
    value = ko.without_honorific(value)  # "최 소장님": an answer may name the post without its honorific
    name = ko.name_before_post(without_trailing_note(value)) or ko.name_after_post(without_trailing_note(value))
    if name is not None:
        return [name]  # "박서윤 팀장", "관리실장 김영호": her name, whatever post an answer writes beside it
    value = _ABOUT.sub("", value)  # "c. 26,000 objects": an answer may say "about 26,000"
    dates = _date_ends(value)
    if dates:
        return dates  # "2025.05.01(목) ~ 06.02(월)": both dates, whatever weekday or "until" an answer writes
    bound = BOUNDED_FIGURE.fullmatch(value)
    if bound:
        return [bound.group(1)]  # "50,000 이상": the figure, whatever unit the answer writes beside it
    bare = without_trailing_note(value)
    if bare != value and len(bare) >= 2 and re.search(r"\w", bare):
        # "경전철 (고무차륜 AGT)", "$2,000–$20,500 (undergrad/grad)": the note qualifies the value; an answer that is
        # right need not repeat it word for word
        return keywords_for_value(bare)
    # "CT(콘빔 CT), 파노라마, 구강 스캐너": a list whose items carry notes of their own
    parts = list_items(value, most=_MOST_ITEMS) or _noted_items(value) or _slash_items(value) or _semicolon_items(value)
    if parts:
        # a list in one cell ("영어, 베트남어"): a correct answer worded differently still names each part; a floor or
        # a unit alone ("2층" of "…풍덕천로 123, 2층") names nothing
        named = [p for p in parts if not _FLOOR_ONLY.fullmatch(p)] or parts
        if _phone_of(named[0]) == named[0].strip():
            # "02-336-5821 / 문자 상담 010-4417-5821": the number asked for leads, a line labelled for other use follows
            return [p for p in named if _phone_of(p) == p.strip()]
        # an item joins parts of its own: "Sat 12:00–18:00" (two times), "수강 등록·결제" (two duties), "어린이반 4명"
        # (the figure is what an answer must give)
        return [k for p in named for k in (_led_span(p) or _span_ends(p) or _figure_of_item(p) or _day_items(p) or [p])]
    money = [v.text for v in find_values(value) if v.value_type == "money"]
    if len(money) == 1 and ("+" in value or value.lower().startswith("from ")):
        return money  # "from £2.10/tablet + consultation": the amount is what an answer must give
    phone = _phone_of(value)
    if phone is not None and phone != value:
        return [phone]  # "본점 고객만족센터 043-872-3351": the number is what an answer must give
    split = _span_ends(value)
    if split:
        return split
    dated = _FULL_DATE.match(value)
    if dated and dated.group().strip() != value and _DATED_REST.fullmatch(value[dated.end() :]):
        return [dated.group().strip()]  # "2025년 1월 1일 예약분부터": the date, whatever the answer writes after it
    amount = _the_amount(value)
    if amount:
        return [amount]  # "제조사 보증 24개월", "20 seated": the figure, whatever words an answer puts around it
    if len(value) <= MAX_KEYWORD_CHARS:
        return [value]
    typed = [v.text for v in find_values(value) if v.value_type != "number" or v.unit]
    if typed:
        return typed[:3]
    phrases = [p for p in _phrases(value) if len(p) <= MAX_KEYWORD_CHARS]
    if not phrases:  # a name joined too long ("Senior UX/UI Designer at DesignStudio NYC"): its parts
        phrases = [p for p in _phrases(value, join_names=False) if len(p) <= MAX_KEYWORD_CHARS]
    if phrases:
        longest = sorted(phrases, key=lambda p: (-len(p), phrases.index(p)))[:3]
        return [p for p in phrases if p in longest]
    # whole words, hyphenated ones whole: "Shock-resistant", not "Shock" and "resistant"
    words = sorted(set(re.findall(r"\w[\w-]{3,}", value)), key=lambda w: (-len(w), w))
    return words[:3]


def _the_amount(value: str) -> str | None:
    """The one amount of a short value that is an amount with a word or two around it ("제조사 보증 24개월", "월
    300,000원", "20 seated"), or None."""
    found = find_values(value)
    if len(found) != 1 or found[0].value_type not in ("number", "money"):
        return None
    amount = found[0].text
    rest = value.replace(amount, " ", 1).split()
    if not 1 <= len(rest) <= _AMOUNT_WORDS or re.search(r"\d", " ".join(rest)):
        return None
    bare = not found[0].unit and found[0].value_type == "number"
    if bare and (len(rest) != 1 or not value.startswith(amount) or len(amount) < _BARE_DIGITS):
        # a bare number only before one word ("20 seated"); "Level 3", "Room 12" name something, and "3" alone is in
        # nearly any answer
        return None
    return amount


_AMOUNT_WORDS = 3
_BARE_DIGITS = 2
#: A Korean road address up to its building number: "서울특별시 중구 충무로9길 14", "가온시 누리로 118".
_KO_ROAD_ADDRESS = re.compile(
    r"(?:[가-힣]+(?:특별시|광역시|특별자치시|특별자치도|도|시|군|구|읍|면)\s)+"
    r"[가-힣][가-힣0-9]*(?:로|길)\s?\d+(?:-\d+)?(?![\d가-힣])"
)
#: A telephone number inside a longer value, with its extension: the line alone is everyone's at the office.
_PHONE = re.compile(rf"{PHONE_RUN.pattern}(?:,?\s*{EXTENSION}\b)?", re.I)
#: A value in quotation marks, whole: "'Noeul Pixel 라운지'", "“Harbour Room”", "「물길 따라, 서하」".
_QUOTED = re.compile(r"'([^']+)'|\"([^\"]+)\"|‘([^’]+)’|“([^”]+)”|「([^」]+)」|『([^』]+)』")


def _span_ends(value: str) -> list[str]:
    """The parts of a value an answer may join otherwise: the two times of a span of hours ("09:00 ~ 18:00" → 09:00,
    18:00; "평일 09:00~18:00" too: "from 9 to 6" on weekdays says the same), the two sides of a size ("1.2m ×
    1.0m"), the items of a list joined by middle dots ("접수·수납·예약"), the one share a short phrase gives ("총
    금액의 50% 선결제" → 50%). Empty for any other value."""
    span = _CLOCK_SPAN.fullmatch(value)
    if span:
        return [span.group("start"), span.group("end")]
    size = _SIZE.fullmatch(value)
    if size and re.search(r"[a-z]", size.group(1) + size.group(2), re.I):
        return [size.group(1).strip(), size.group(2).strip()]  # "1.2m × 1.0m"; "20 x 25" alone is two bare numbers
    ends = re.split(r"\s*[~～]\s*", value)
    if len(ends) == 2 and all(_COUNTED_END.fullmatch(end) for end in ends):
        return ends  # "31일째 ~ 60일째": each end, however an answer joins them ("31일째부터 60일째까지")
    opened = _OPEN_END.fullmatch(value)
    if opened:
        return [opened.group(1)]  # "10:00~ 소진시": the time it starts, whatever an answer says of its end
    if "·" in value:
        parts = [p.strip() for p in value.split("·") if p.strip()]
        # "수강 등록·결제·환불·셔틀": three short items or more, one of two words; two with a space ("기획·제작 PD",
        # "여름·겨울 정기휴원") share the word after them, and "중1·2 심화" shares what comes before
        spaced = re.search(r"\s", value) is not None
        fits = all(2 <= len(p) <= (_DOT_ITEM_CHARS if spaced else 99) and not p[0].isdigit() for p in parts)
        if len(parts) >= (3 if spaced else 2) and fits:
            return parts
    found = find_values(value)
    if len(found) == 1 and found[0].value_type == "percent" and found[0].text != value and len(value.split()) <= 4:
        return [found[0].text]
    return []


def _led_span(item: str) -> list[str]:
    """A list item of a day then a span of hours ("Sat 12:00–18:00" → Sat, 12:00, 18:00): the day a list names beside
    others is part of the answer; a one-letter day ("일") names nothing alone. [] for any other item."""
    span = _CLOCK_SPAN.fullmatch(item.strip())
    lead = item.strip()[: span.start("start")].strip() if span else ""
    return [lead, span.group("start"), span.group("end")] if span and len(lead) >= 2 else []


def _day_items(item: str) -> list[str]:
    """The days of a list item joining days with a plus ("Thu + Sat" → Thu, Sat), or the people ("권혁진 팀장 +
    박정훈" → 권혁진, 박정훈: each name, whatever post an answer writes beside it), or []."""
    parts = [p.strip() for p in re.split(r"\s\+\s", item)]
    if len(parts) < 2:
        return []
    if all(DAYS.fullmatch(normalize(p)) for p in parts):
        return parts
    names = [ko.name_before_post(p) or p for p in parts]
    return names if all(ko.is_person_name(n) or is_person_name(n) for n in names) else []


def _figure_of_item(item: str) -> list[str]:
    """The count or amount of a list item that labels it ("어린이반 4명" → 4명; "Adults £12" → £12), or []."""
    found = _LABELLED_FIGURE.fullmatch(item.strip())
    return [found.group(1)] if found else []


#: A list item of a label then one count or amount: "어린이반 4명", "성인반 6명", "Adults £12" (not "솔밭로 112",
#: "지도사 2급", "PA 17940": a name's own number).
_LABELLED_FIGURE = re.compile(
    r"(?:[^\W\d][^\d:]{0,20}?|\d{1,3}[가-힣]{1,4})\s((?:[$€£¥₩]\s?\d[\d,.]*|\d[\d,.]*\s?(?:명|개|회|인|석|대|팀|원)))"
)
#: A clock time then an end named in words: "10:00~ 소진시", "18:00 ~ 마감 시", "7pm – late".
_OPEN_END = re.compile(r"(\d{1,2}:\d\d)\s*[~～\-–]\s*([^\d\s][^\d]{0,10})")
#: An end of a span with its counter: "31일째", "60일", "3개월" (not a bare "5").
_COUNTED_END = re.compile(r"\d[\d,.]*\s?[가-힣]{1,3}")
#: The longest item of a list joined by middle dots with spaces in it ("수강 등록·결제").
_DOT_ITEM_CHARS = 8
#: What may follow a date in a value and be left out of its keyword: "예약분부터", "이후 접수분".
_DATED_REST = re.compile(r"\s*[가-힣][가-힣\s]{0,13}")
#: A date with its year, or with its month and day: "2025.01.01", "2025년 1월 1일", "1월 1일" (not "4.5").
_FULL_DATE = re.compile(r"\d{4}[.\-/]\d{1,2}[.\-/]\d{1,2}\.?|(?:\d{4}년\s?)?\d{1,2}월\s?\d{1,2}일|\d{4}년\s?\d{1,2}월")


def _date_ends(value: str) -> list[str]:
    """The one or two dates of a deadline or a period, bare of weekdays and of "until" ("2025.05.01(목) ~
    06.02(월)" → 2025.05.01, 06.02; "2025년 4월 25일(금)까지" → 2025년 4월 25일; "~ 06.30(월)" → 06.30), or []."""
    bare = _DATE_BOUND.sub("", _WEEKDAY_NOTE.sub("", value)).strip().lstrip("~～").strip()
    parts = [part.strip() for part in re.split(r"\s*[~～]\s*|\s+[-–—]\s+", bare) if part.strip()]
    if not 1 <= len(parts) <= 2 or not all(_DATE_ONLY.fullmatch(part) for part in parts):
        return []
    return parts if len(parts) == 2 or bare != value.strip() else []


#: A weekday in brackets after a date: "(목)", "(금요일)", "(Thu)".
_WEEKDAY_NOTE = re.compile(r"\s?[(（](?:[월화수목금토일](?:요일)?|(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\.?)[)）]", re.I)
#: "Until" or "from" after a date: "25일까지", "1일부터".
_DATE_BOUND = re.compile(r"\s*(?:까지|부터|이내)$")
#: A date alone: "2025.05.01", "06.30", "2025-03-04", "4월 25일", "2025년 4월 25일".
_DATE_ONLY = re.compile(rf"{_FULL_DATE.pattern}|\d{{1,2}}[./]\d{{1,2}}\.?")
#: A span of hours, with days before it: "09:00 ~ 18:00", "Mon–Fri 08:00–16:00", "평일 09:30~19:00".
_CLOCK_SPAN = re.compile(
    r"(?:[^\W\d][\w·,–~ -]*?\s)?(?P<start>\d{1,2}:\d{2}(?:\s?[ap]m)?)\s*(?:~|-|–|—|to)\s*"
    r"(?P<end>\d{1,2}:\d{2}(?:\s?[ap]m)?)",
    re.I,
)
#: A size of two sides: "1.2m × 1.0m", "30 x 40 cm".
_SIZE = re.compile(r"(\d[\d.,]*\s?[a-z]*)\s*[×xX*]\s*(\d[\d.,]*\s?[a-z]*)", re.I)


def _noted_items(value: str) -> list[str]:
    """The items of a list of three to five whose items carry notes ("CT(콘빔 CT), 파노라마, 구강 스캐너"), without
    the notes; [] otherwise (a day in brackets, "25.08.04.(월)", is part of its date)."""
    items = list_items(_INNER_NOTE.sub("", value), most=_MOST_ITEMS)
    return items if len(items) >= 3 else []


#: An approximation's word before a figure: "c. 26,000", "ca. 400", "approx. 12 km", "about 40", "약 300명".
_ABOUT = re.compile(r"^(?:c\.|ca\.|circa|approx\.?|approximately|about|around|roughly|약)\s*(?=\d)", re.I)
#: The most items a one-cell list is split into as keywords (a longer list is named by its longest phrases).
_MOST_ITEMS = 5
_POSTCODE_FIRST = re.compile(r"^\s*[(（]\d{5,6}[)）]\s*(?=\S)")
_INNER_NOTE = re.compile(r"\s?[(（][^()（）]{2,}[)）]")
_FLOOR_ONLY = re.compile(r"\d+\s?(?:층|호|F)|(?:floor|suite|unit|room)\s+\w+|\w+\s+floor", re.I)


def _semicolon_items(value: str) -> list[str]:
    """The two to four short items of a list joined by semicolons ("Treasurer; Volunteer Coordinator") or, with no
    amount in it, by a spaced plus ("관비 전액 + 예치금"), or []."""
    joined = r";\s+" if re.search(r"\d", value) else r";\s+|\s\+\s"
    items = [item.strip() for item in re.split(joined, value)]
    return items if 2 <= len(items) <= 4 and all(0 < len(item) <= 40 for item in items) else []


def _slash_items(value: str) -> list[str]:
    """The sides of a short spaced-slash pair or list ("영어 / 중국어", "₹8,999 / $109"), or the three or four items
    of a list joined by spaced middle dots ("대표 · 예술감독 · 연출"), or []."""
    if "/" in value and not re.search(r"\s|\d", value):
        # "포장/카운터": a Korean cell's short list joined by a bare slash ("UX/UI" is one term)
        parts = value.split("/")
        if 2 <= len(parts) <= 4 and all(re.fullmatch(r"[가-힣]{2,}", part) for part in parts):
            return parts
    dotted = [item.strip() for item in re.split(r"\s[·ㆍ]\s", value)]
    if 3 <= len(dotted) <= 4 and all(0 < len(item) <= 15 for item in dotted):  # "기획 · 제작 PD" is one post
        return dotted
    items = [item.strip() for item in re.split(r"\s/\s", value)]
    if len(items) == 2 and re.search(r"\d", items[0]) and not re.search(r"\d", items[1]) and len(items[1]) <= 12:
        return []  # "£22 / day", "£35 / hr": an amount per unit, one value
    if 2 <= len(items) <= 4 and all(0 < len(item) <= 25 for item in items):
        return items
    return []


def is_quantity(fact: FactNode) -> bool:
    """An amount, a percentage, a count ("148", "34 engineers") or a short value built around one amount ("$120 per
    guest", "30 days from delivery"): what `numerical` asks about, never `direct_fact`."""
    if fact.value_type in ("money", "percent", "number"):
        return True
    if fact.value_type != "text" or len(fact.value) > 40:
        return False
    if re.search(
        r"\d\s*\S*\s*(?:전까지|이전|이후|이내|까지|전|후)(?=$|[\s,])|\d\s*\S*\s*(?:以内|之前|之后|前|後)$|"
        r"\b(?:before|after|prior to|within)\b",
        fact.value,
    ):
        # "출발 21일 전", "30 days before departure", "14일 이내 무상 교환": a deadline or a rule, not an amount
        return False
    bare = re.sub(r"\s*[(（][^)）]*[)）]$", "", _ABOUT.sub("", fact.value.strip()))  # "5000mAh (non-removable)"
    if _MEASURE.fullmatch(bare):  # "180 liters", "540 square meters", "5000mAh": a unit the parser lacks
        return True
    # the amounts of the value itself, not of its note: "한도윤 (제3대, 2021년 3월 취임)" is a person
    amounts = [v for v in find_values(bare) if v.number is not None and v.unit]
    # one amount, or a share and the sum it comes to ("계약 금액의 30%, 288,000,000원")
    return len(amounts) == 1 or (len(amounts) == 2 and all(v.value_type in ("money", "percent") for v in amounts))


#: Fact sources that give a value under a label (not a sentence): what a single-fact question asks by its label.
LABELLED_SOURCES = frozenset({"key_value", "table", "timeline", "llm"})


def is_duration(fact: FactNode) -> bool:
    """A number of time units: "60 min", "36 months", "2년", "3영업일" — a period, which `temporal` asks about."""
    unit = (fact.unit or "").lower()
    if _TOTAL_LABEL.search(fact.attribute):
        return False  # "총 수업시간 240시간", "Total hours": an amount of time added up, which `numerical` asks about
    return fact.value_type == "number" and (unit in en.TIME_UNITS or unit in ko.TIME_UNITS)


#: A label of a sum: "총 수업시간", "Total hours", "합계".
_TOTAL_LABEL = re.compile(r"^총\s?[가-힣]|합계|누적|^total\s(?:hours|minutes|days|weeks)\b", re.I)


def is_time_value(fact: FactNode) -> bool:
    """A value that is a time of day, a span of hours or a set of days and nothing more ("09:00 ~ 18:00", "Mon–Fri,
    9–2", "평일 오전 10시 ~ 오후 5시", "매월 1일~5일", "화·목"): what `temporal` asks about, never `direct_fact`."""
    value = without_trailing_note(fact.value)  # "12:30 (드레스·헤어 완료 후)"
    if fact.value_type != "text" or len(value) > _TIME_VALUE_CHARS:
        return False
    dates = [v for v in find_values(value) if v.value_type == "date"]  # "2025년 4월 30일(수) 오후 6시까지"
    for date in sorted(dates, key=lambda v: v.start, reverse=True):
        value = f"{value[: date.start]} {value[date.end :]}"
    if not (dates or _TIME_OF_DAY.search(value) or _DAY_WORD.search(value)):
        return False
    rest = _DAY_WORD.sub(" ", _TIME_OF_DAY.sub(" ", value.lower()))
    return not re.search(r"[^\W\d_]{2,}", _TIME_FILLER.sub(" ", rest))


#: Characters a value of times or days has at most.
_TIME_VALUE_CHARS = 60
#: A time of day: "09:00", "9.30", "6pm", "오전 10시 30분", "오후 2시 반".
_TIME_OF_DAY = re.compile(
    # ("9.30" only with am/pm or in a span: "1.30" alone is as likely a room)
    r"(?<![\w.])(?:\d{1,2}:\d{2}(?:\s*[ap]\.?m\.?)?|\d{1,2}\.\d{2}\s*[ap]\.?m\.?"
    r"|\d{1,2}\.\d{2}(?=\s*[–-]\s*\d)|(?<=[–-])\d{1,2}\.\d{2}|\d{1,2}\s*[ap]\.?m\.?)"
    r"|(?:오전|오후|저녁|밤|낮|새벽)?\s*\d{1,2}시(?:\s*\d{1,2}분|\s*반)?",
    re.I,
)
#: A day, a set of days or a day of the month: "Mon", "weekdays", "토요일", "화·목", "평일", "매월 1일".
_DAY_WORD = re.compile(
    r"(?<![a-z])(?:mon|tues?|wed(?:nes)?|thu(?:rs?)?|fri|sat(?:ur)?|sun)(?:day)?s?(?![a-z])|weekdays?|weekends?"
    r"|(?<![가-힣])[월화수목금토일](?:요일)?(?=\s*[~\-–·,/및)]|\s*$|요일)|(?<=[~\-–·,/])\s*[월화수목금토일](?:요일)?|평일|주말"
    r"|(?:매월|매달)\s*\d{1,2}일|\d{1,2}일(?=\s*[~\-–]\s*\d{1,2}일)",
    re.I,
)
#: Words a value of times or days may hold besides them.
_TIME_FILLER = re.compile(
    r"(?<![a-z])(?:to|and|from|until|till|daily|every|only|closed|open|noon|midnight|[a-z]st|gmt|utc|kst)(?![a-z])"
    r"|매주|매월|매일|격주|전일|오전|오후|부터|까지|및|휴무|휴일|공휴일|첫째|둘째|셋째|넷째|다섯째|마지막|예약분|접수분|\d+|[^\w]",
    re.I,
)


# A number and one or two lower-case unit words ("34 engineers"), or a unit glued to it in any case ("5000mAh");
# an address ("1140 Harbor Loop Way") is capitalised and spaced.
_MEASURE = re.compile(r"\d[\d.,]*(?:[A-Za-z][A-Za-z.]+|[%°]|\s*[a-z%°][a-z.]*)(?:\s[a-z][a-z.]*)?")


def entity_type_of(ctx: GenContext, fact: FactNode) -> str | None:
    if fact.subject_entity and fact.subject_entity in ctx.entities:
        return ctx.entities[fact.subject_entity].entity_type
    return None


#: Share of two entities' labels in common for things of one kind (a railway and a river share "길이" and little
#: else; two railway lines share most of theirs).
_ALIKE_LABELS = 0.3


def of_one_kind(ctx: GenContext, facts: list[FactNode]) -> bool:
    """Whether the facts' subjects are things of one kind to compare or add: of one document type, or — in a
    folder of pages all of one type (a wiki) — described with mostly the same labels."""
    if any(entity_type_of(ctx, f) != ROOT_TYPE for f in facts):
        return True
    labels = [_labels_of(ctx, f.subject_entity or "") for f in facts]
    return all(len(a & b) >= _ALIKE_LABELS * len(a | b) for a, b in itertools.combinations(labels, 2) if a | b)


def _labels_of(ctx: GenContext, entity_id: str) -> frozenset[str]:
    """The labels an entity's facts are given, once per entity (comparisons ask for every pair)."""
    memo = ctx.memo.setdefault("labels_of", {})
    assert isinstance(memo, dict)
    if entity_id not in memo:
        memo[entity_id] = frozenset(attribute_key(g) for g in ctx.facts_by_entity.get(entity_id, []))
    labels: frozenset[str] = memo[entity_id]
    return labels


def attribute_key(fact: FactNode) -> str:
    """Attributes compared across subjects: same normalised label (and same context for table columns)."""
    return normalize(fact.attribute)


def group_comparable(
    ctx: GenContext, *, numeric: bool = True, dates: bool = False, min_subjects: int = 2
) -> dict[tuple[str, str, str], dict[str, FactNode]]:
    """(entity type, attribute, unit) → {subject entity → one fact}; only unqualified kv/table facts. The groups
    are worked out once per run (three categories ask) and shared: callers read them, never change them."""
    groups = ctx.memo.get("comparable")
    if not isinstance(groups, dict):
        groups = ctx.memo["comparable"] = _comparable_groups(ctx)
    return {
        key: members
        for key, members in groups.items()
        if len(members) >= min_subjects and (dates if key[2] == _DATES else numeric)
    }


_DATES = "date"  # the unit of a group of dates


def _comparable_groups(ctx: GenContext) -> dict[tuple[str, str, str], dict[str, FactNode]]:
    groups: dict[tuple[str, str, str], dict[str, FactNode]] = defaultdict(dict)
    for fact in ctx.facts:
        if fact.source not in ("key_value", "table") or fact.qualifier or not fact.subject_entity:
            continue
        if fact.value_type == "date":
            if not fact.date_key:
                continue
            unit = _DATES
        elif fact.value_type in ("money", "number", "percent"):
            if fact.number is None or BOUNDED_FIGURE.search(fact.value):
                continue  # "50,000원 이상" is a floor, not an amount to compare or add
            unit = fact.unit or ""
        else:
            continue
        if _FORMER_LABEL.search(fact.attribute):
            continue  # "Previous price": a superseded figure is looked up, never compared or added
        etype = entity_type_of(ctx, fact) or ""
        groups[(etype, attribute_key(fact), unit)].setdefault(fact.subject_entity, fact)
    return dict(groups)


#: Labels of a figure that has been replaced: "Previous price", "Old rate", "기존 요금", "변경 전", "旧价格".
_FORMER_LABEL = re.compile(
    r"\b(?:previous|former|old|prior|before)\b|기존|종전|변경\s?전|인상\s?전|조정\s?전|이전\s?(?:요금|가격|금액)|旧|以前|改定前",
    re.I,
)


def format_number(value: float, unit: str | None, value_type: str, like: tuple[str, ...] = ()) -> str:
    """A computed number in the style of the values it came from ("$1,500/month", "1,290,000원", "12%")."""
    if value < 0:
        return "-" + format_number(-value, unit, value_type, like)
    for word, scale in (("billion", 1e9), ("million", 1e6)):
        if like and all(word in v.lower() for v in like):
            # the sources write "$16.9 million": so does the answer
            scaled = f"{value / scale:,.2f}".rstrip("0").rstrip(".")
            base, _, per = (unit or "").partition("/")
            if base and base in "$€£¥₩₹":
                return f"{base}{scaled} {word}" + (f"/{per}" if per else "")
            return f"{scaled} {word}" + (f" {unit}" if unit else "")
    text = f"{value:,.0f}" if abs(value - round(value)) < 1e-9 else f"{value:,.2f}".rstrip("0").rstrip(".")
    if value_type == "money" and like and all(re.search(r"\d\.\d\d(?!\d)", v) for v in like):
        text = f"{value:,.2f}"  # the sources write pence and cents ("£52.80"): so does the answer ("£4.80")
    if unit is None:
        return text
    if value_type == "money":
        base, _, per = unit.partition("/")
        if base == "₹" and any(re.search(r"\d,\d\d,\d{3}", v) for v in like):
            out = f"₹{_lakh_grouped(text)}"  # the sources group by lakh: "₹2,64,998", not "₹264,998"
        elif base in "$€£¥₩₹":
            out = f"{base}{text}"
        elif base in ("USD", "EUR", "GBP", "KRW", "JPY", "CNY"):
            out = f"{base} {text}"
        else:
            out = f"{text}{base}"
        return out + (f"/{per}" if per else "")
    if unit == "%":
        return f"{text}%"
    if re.match(r"[가-힣]", unit):
        return f"{text}{unit}"
    written = next(
        (m.group(0) for v in like if (m := re.search(rf"(?<![^\W\d]){re.escape(unit)}(?![^\W\d])", v, re.I))), None
    )
    return f"{text} {written or unit}"  # as the sources write it: "350 Wh", not the parser's "wh"


def _lakh_grouped(text: str) -> str:
    """ "264,998" → "2,64,998": Indian digit grouping (the last three digits, then pairs)."""
    whole, dot, fraction = text.replace(",", "").partition(".")
    head, tail = whole[:-3], whole[-3:]
    pairs = [head[max(i - 2, 0) : i] for i in range(len(head), 0, -2)][::-1]
    return ",".join([*pairs, tail]) + (dot + fraction if dot else "")


def _value_inside_name(ctx: GenContext, fact: FactNode) -> bool:
    evidence = normalize(fact.evidence)
    value = normalize(fact.value)
    for key in ctx.chunk_mentions.get(fact.chunk_id, ()):
        name = normalize(ctx.entities[key].name)
        if value in name and name in evidence:
            return True
    return False


def _beside_the_subject(keywords: list[str], name: str) -> list[str]:
    """Keywords without a part that only names the subject the question already names ("The Gull & Lantern" of
    "The Gull & Lantern, 14 Quayside Terrace, Merrowby"): the answer's own parts are what a grader looks for."""
    own = re.sub(r"^the\s+", "", normalize(name))
    kept = [k for k in keywords if re.sub(r"^the\s+", "", normalize(k)) != own]
    return kept or keywords


def _in_its_only_currency(ctx: GenContext, fact: FactNode) -> FactNode:
    """A price under "Price (GBP)" asked without "in GBP" when its value says the currency ("£60.00") and the
    subject is priced in no other ("Price (INR)" beside "Price (USD)" keeps "in USD")."""
    currency = bracket_currency(fact.attribute)
    if currency is None or fact.value_type != "money" or not re.search(r"[^\d\s.,]", fact.value):
        return fact
    label = CURRENCY_BRACKET.sub("", fact.attribute).strip()
    others = ctx.facts_by_entity.get(fact.subject_entity or "", [])
    if any(
        o.fact_id != fact.fact_id
        and bracket_currency(o.attribute) not in (None, currency)
        and CURRENCY_BRACKET.sub("", o.attribute).strip().lower() == label.lower()
        for o in others
    ):
        return fact
    return fact.model_copy(update={"attribute": label})


def single_fact_draft(ctx: GenContext, fact: FactNode, category: str) -> Draft | None:
    """A question about one fact, or None when the language rules have no natural form for it."""
    language = ctx.language_of(fact)
    ph, flags = phraser(ctx, language)
    if fact.source == "sentence" and _value_inside_name(ctx, fact):
        return None  # "제주 힐링 3박 4일": the number belongs to a product name, not a quantity
    if fact.source in ("key_value", "table") and _FORMER_LABEL.search(fact.attribute):
        return None  # "Old price", "변경 전": a superseded figure, which no one asks for as the thing's own
    name = subject_name(ctx, fact)
    subject = ph.subject(name)
    asked, fact = fact, _in_its_only_currency(ctx, with_stated_unit(fact))
    org = owning_organisation(ctx, fact, name) if language == "en" else None
    phrased = None
    if org:
        # several organisations in one KB: "the IT Help Desk at Cendara University", not a help desk of anyone's
        phrased = ph.fact(fact, f"{subject} at {org}")
        if phrased is not None and f"{org}'" in phrased[0]:
            phrased = None  # "… at Cendara University's …": the possessive of the whole phrase reads wrong
    phrased = phrased or ph.fact(fact, subject)
    if phrased is None:
        return None
    question, answer, template = phrased
    answer = with_tax_note(ctx, asked, answer)
    return Draft(
        category=category,
        question=question,
        reference_answer=answer,
        keywords=_beside_the_subject(keywords_for_value(asked.value), name),
        facts=[asked],
        answer_spans=[asked.value],
        language=language,
        template=template,
        flags=flags,
    )


def with_stated_unit(fact: FactNode) -> FactNode:
    """The fact as an answer states it: a bare number that a table's unit note gives its unit ("20,000" under "(단위:
    원)") written with the unit ("20,000원"); a price under a heading that says what it is per ("## Vaccines (per
    dose, exam not included)") with that ("$34 per dose"); any other fact as it is."""
    if fact.value_type == "money" and fact.source == "table" and not re.search(r"\bper\b|/|당", fact.value):
        per = _HEADING_PER.search(fact.context or "")
        if per:
            return fact.model_copy(update={"value": f"{fact.value} per {per.group(1)}"})
    shown = shown_value(fact)
    return fact if shown == fact.value else fact.model_copy(update={"value": shown})


def shown_value(fact: FactNode) -> str:
    """A fact's value as an answer writes it: a bare number with the unit its column or note gives ("3.4" under
    "무게 (kg)" → "3.4kg" in Korean, "3.4 kg" in English; "120" under "Price ($)" → "$120"), the digits as written."""
    unit = fact.unit
    bound = BOUNDED_FIGURE.fullmatch(fact.value.strip())
    if unit and bound and fact.value_type in ("money", "number") and unit[:1].isalnum():
        return f"{bound.group(1)}{unit} {bound.group(2)}"  # "50,000 이상" under "월 후원금(원)": "50,000원 이상"
    if not unit or fact.value_type not in ("money", "percent", "number") or not _BARE_NUMBER.fullmatch(fact.value):
        return fact.value
    if not unit[:1].isalnum() and unit != "%":
        return unit + fact.value  # "$", "£", "₩": before the figure
    spaced = unit.isascii() and unit[:1].isalpha() and not is_cjk(fact.evidence)
    return f"{fact.value} {unit}" if spaced else fact.value + unit


#: A heading's note saying what its prices are for: "Vaccines (per dose, exam not included)", "Rates (per night)".
_HEADING_PER = re.compile(r"[(（][^()（）]*?\bper\s+([a-z]+(?:\s[a-z]+)?)\b[^()（）]*[)）]", re.I)


_BARE_NUMBER = re.compile(r"[-−△]?\d[\d,]*(?:\.\d+)?")  # "△0.31": a minus in Korean reports


def stratified(facts: list[FactNode], rng: random.Random, key: Callable[[FactNode], str]) -> list[FactNode]:
    """Facts in a seeded order that rotates over groups (attributes, documents), so one frequent
    attribute (every employee's birth date) does not fill a whole category.

    In a KB whose documents sit in folders (contracts/, employees/, products/), each folder's facts are
    rotated on their own and the folders interleaved in proportion to how many documents each contributes:
    a folder whose pages carry many kinds of attribute (a personnel file) does not crowd out the folders
    whose pages carry few (a product sheet), and a set covers the kinds of page the KB holds."""
    folders: dict[str, list[FactNode]] = defaultdict(list)
    for fact in facts:
        folders[fact.doc_id.rpartition("/")[0].partition("/")[0]].append(fact)
    if len(folders) <= 1:
        return _rotated(facts, rng, key)
    keyed: list[tuple[float, float, FactNode]] = []
    for folder in sorted(folders):
        part = _rotated(folders[folder], rng, key)
        documents = len({f.doc_id for f in part})
        keyed += [((i + 0.5) / documents, rng.random(), fact) for i, fact in enumerate(part)]
    keyed.sort(key=lambda entry: entry[:2])
    return [fact for _, _, fact in keyed]


def _rotated(facts: list[FactNode], rng: random.Random, key: Callable[[FactNode], str]) -> list[FactNode]:
    """Facts shuffled within their `key` group, then taken one per group in a shuffled group order."""
    groups: dict[str, list[FactNode]] = defaultdict(list)
    for fact in facts:
        groups[key(fact)].append(fact)
    order = sorted(groups)
    rng.shuffle(order)
    for name in order:
        if len(groups[name]) > 1:  # a group of one draws nothing from rng: skipping it leaves the same order
            rng.shuffle(groups[name])
    out: list[FactNode] = []
    active = [groups[name] for name in order]
    depth = 0
    while active:  # one fact of each group still holding one, group by group; linear however uneven the groups
        out.extend(group[depth] for group in active)
        depth += 1
        active = [group for group in active if len(group) > depth]
    return out


def without_answer(ctx: GenContext, subject: str, answer: str) -> str:
    """A subject phrase that does not give the answer away: "the contract with X for Carllm" asked about
    its product becomes "the contract with X" when that still names one entity only; else unchanged
    (the leak check then rejects the draft)."""
    if normalize(answer) not in normalize(subject):
        return subject
    shorter = re.sub(rf"\s+(?:for|of|with|by|on)\s+{re.escape(answer)}\b.*$", "", subject).strip()
    if not shorter or shorter == subject or normalize(answer) in normalize(shorter):
        return subject
    core = normalize(shorter.removeprefix("the "))
    holders = sum(1 for e in ctx.entities.values() if core in normalize(e.name))
    return shorter if holders == 1 else subject


#: Share of a folder's page titles that must name one organisation for the folder to be that organisation's.
ORGANISATION_SHARE = 0.4


def organisation_of(ctx: GenContext, fact: FactNode) -> str | None:
    """The organisation a fact's folder belongs to, in a knowledge base that holds several ("Cendara University"
    for "Cendara_University/campus_map.md" beside an airline's and a bank's folders); None in a knowledge base of
    one organisation, where a question need not say whose help desk it means."""
    orgs = ctx.memo.get("organisations")
    if not isinstance(orgs, dict):
        orgs = ctx.memo["organisations"] = _folder_organisations(ctx)
    folder, _, rest = fact.doc_id.partition("/")
    return orgs.get(folder) if rest else None


def owning_organisation(ctx: GenContext, fact: FactNode, name: str) -> str | None:
    """The organisation a question about `name` must name to stand alone in a KB of several ("IT Help Desk" of
    Cendara University), or None: one organisation only, a name that carries it already, a person, or an
    organisation of its own."""
    org = organisation_of(ctx, fact)
    if org is None or normalize(org.split()[0]) in normalize(name) or _own_body(ctx, name):
        return None
    return as_written(ctx, org)


def _folder_organisations(ctx: GenContext) -> dict[str, str]:
    """Folder → the name most of its page titles carry (a run of capitalised words whose first word the corpus
    never writes in lower case, in at least `ORGANISATION_SHARE` of the titles and three of them); kept only when
    two folders or more name different organisations."""
    titles: dict[str, list[str]] = defaultdict(list)
    for doc_id, doc in ctx.docs.items():
        folder, _, rest = doc_id.partition("/")
        if rest:
            titles[folder].append(doc.title)
    found: dict[str, str] = {}
    for folder, names in titles.items():
        counts: dict[str, int] = defaultdict(int)
        for title in names:
            words = re.findall(r"[A-Z][\w&'-]*|\d+", title)
            grams = {" ".join(words[i : i + n]) for n in (1, 2, 3, 4) for i in range(len(words) - n + 1)}
            for gram in grams:
                if gram in title and gram[:1].isupper():
                    counts[gram] += 1
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], -len(kv[0].split()), kv[0]))
        need = max(3, ORGANISATION_SHARE * len(names))
        best = next((gram for gram, n in ranked if n >= need and _a_name(ctx, gram.split()[0])), None)
        if best is not None:
            found[folder] = best
    # "Aurora Bikes" and "Aurora" (a brand's products) are one organisation
    return found if len({normalize(name.split()[0]) for name in found.values()}) >= 2 else {}


# A person, or an organisation of its own (a partner bank, an exchange university), is not "at" the organisation
# whose page lists it: "SecureFirst Bank at Aventro" would be wrong.
_OWN_BODY = re.compile(
    r"^(?:Dr|Prof|Mr|Mrs|Ms|Sir)\.?\s|\b(?:Bank|Institute|University|Universit\w+|Universidad|College|Academy|"
    r"Ltd|Inc|Corp|Corporation|Company|Group|Foundation|Association|Agency|Ministry|Hospital|Airlines?|Airways)\b"
)


def _own_body(ctx: GenContext, name: str) -> bool:
    """A person ("Gina Han": a name whose first word the corpus never writes in lower case, unlike "IT Help Desk")
    or an organisation of its own."""
    if _OWN_BODY.search(name):
        return True
    if _UNIT.search(name):
        return False  # "Rowing Club", "IT Help Desk": a unit, however name-like its words
    return is_person_name(name) and _a_name(ctx, name.split()[0])


#: The last word of a unit or an offering of an organisation, never of a person's name.
_UNIT = re.compile(
    r"\b(?:Club|Team|Society|Office|Desk|Center|Centre|Hall|Department|Service|Services|Program|Programme|Loan|"
    r"Plan|Card|Account|Policy|Committee|Council|Clinic|Library|Lab|Laboratory)$"
)


def _a_name(ctx: GenContext, word: str) -> bool:
    """Whether the corpus writes `word` only capitalised (a name: "Cendara", not "Contract"); decided once per
    word and run (every single-fact draft of a KB of several organisations asks of its subject)."""
    known = ctx.memo.get("capitalised_only")
    if not isinstance(known, dict):
        known = ctx.memo["capitalised_only"] = {}
    if word not in known:
        # lower case in an address ("helpdesk@cendara.edu", "www.velvera.com") is no common use of the word
        pattern = re.compile(rf"(?<![\w.@/]){re.escape(word.lower())}(?![\w.@])")
        known[word] = (
            len(word) >= 2
            and normalize(word) not in GENERIC_HEADINGS
            and not any(pattern.search(ctx.chunks[c].text) for c in ctx.chunks_with(word))
        )
    return bool(known[word])


#: A page's note that its prices leave out a sales tax, and one that they include it.
_TAX_EXCLUDED = re.compile(
    r"\b(?:ex(?:cl(?:uding|\.)?)?\.?|exclude[sd]?|exclusive of|before|plus|\+)\s?VAT\b"
    r"|(?:부가세|부가가치세|VAT)\s*별도",
    re.I,
)
#: How far below an amount a note on its table's tax may stand (in its section).
_NOTE_REACH = 1500
_TAX_INCLUDED = re.compile(
    r"\b(?:inc(?:l(?:ud(?:e[sd]?|ing)|\.)?)?\.?|inclusive of)\s?VAT\b|(?:부가세|부가가치세|VAT)\s*포함", re.I
)


def tax_note(ctx: GenContext, fact: FactNode) -> str:
    """ "ex VAT" (Korean "부가세 별도") when the page says, above the amount, that its prices leave the tax out and
    never that some include it — "£58.80" on a trade price list "ex VAT" is not what a buyer pays; else ""."""
    priced = fact.value_type == "money" or (
        fact.value_type == "text" and any(v.value_type == "money" for v in find_values(fact.value))
    )  # "£18 / hr" is a price per hour
    if not priced or _TAX_EXCLUDED.search(fact.value):
        return ""
    key = f"tax_note:{fact.doc_id}"
    if key not in ctx.memo:  # where the page says its prices leave the tax out, and where its sections start
        chunks = ctx.chunks_by_doc.get(fact.doc_id, [])
        noted = sorted(
            {c.start + found.start() for c in chunks for found in _TAX_EXCLUDED.finditer(c.text.replace("*", " "))}
        )
        both = any(_TAX_INCLUDED.search(c.text) for c in chunks)
        headings = sorted({c.start + h.start() for c in chunks for h in re.finditer(r"(?m)^#{1,6}\s", c.text)})
        ctx.memo[key] = ([] if both else noted, headings)
    noted, headings = ctx.memo[key]  # type: ignore[misc]
    # in the page's opening, above its first section, or in the amount's own section above or below it (a note
    # under the table: "Non-member prices exclude VAT")
    opening = min((h for h in headings if h > 0), default=fact.start + 1)
    above = any(at <= fact.start and (at < opening or not any(at < h < fact.start for h in headings)) for at in noted)
    below = any(
        fact.start < at <= fact.start + _NOTE_REACH and not any(fact.start < h < at for h in headings) for at in noted
    )
    if not (above or below):
        return ""
    return "부가세 별도" if is_cjk(fact.evidence) else "ex VAT"


def with_tax_note(ctx: GenContext, fact: FactNode, answer: str) -> str:
    """The answer with the page's tax note after it ("£58.80 (ex VAT)"; see `tax_note`)."""
    note = tax_note(ctx, fact)
    if not note:
        return answer
    if answer.endswith("다."):
        return f"{answer} ({note})"
    return f"{answer.removesuffix('.')} ({note})."


def is_relation(ctx: GenContext, fact: FactNode) -> bool:
    """A value naming an entity with a page of its own, other than the page stating the relation: a relation between
    two things the knowledge base describes ("Who does Lukas Brandt report to?", with his manager's profile). A
    value with no page of its own ("대표: 최현우" on the gym's page, a product's code) is one fact of the subject's,
    which direct_fact asks."""
    entity = ctx.entities.get(fact.value_entity or "")
    return entity is not None and entity.home_doc is not None and entity.home_doc != fact.doc_id
