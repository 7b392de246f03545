"""Lines of other pages that name a fact's subject and touch its value in words of their own.

The closure ties a page to a fact when the page writes the value in a form its rules know. Pages also tell a fact
in words no rule foresees ("the board of trustees chaired by Maggie Thornbury", "Gwen's days only (Mon–Thu)") or
say that it changed ("Lou's hours shift to 9.30–2.30", "영어회화 기초반은 이번 학기에 열지 않습니다"). Left out of
`source_docs`, such a page makes the item wrong for a retriever that finds it; an answer that ignores the change is
wrong outright. This scan is deliberately loose, because it never adds a page to an item: it only drops items. A
line that names the subject (any of its names few pages write, or the first name colleagues write alone) is:

- a change when, just after the name, it says the thing ends ("stand down", "no longer", "열지 않습니다") or, with a
  word or figure of the value beside it, that the value changes ("shift to", "goes up to", "변경", "→"): the item
  is dropped (`ambiguous_key`), as its answer may be the old value;
- a possible restatement when, on another page than the fact's and close to the name, it shares a content word or
  a figure of the value or writes the value whole: an item whose source_docs lack that page is dropped
  (`unclaimed_restatement`). For the organisation its folder is about (a name on most of the folder's pages) and
  for a policy, rules or terms of it, a line of the folder that writes the fact's label counts as naming it
  ("Resoling is 45 pounds a pair"; "타일과 배관은 2년" in the FAQ, of the A/S policy's "타일 보증 기간: 2년").

A person given as the value who leaves makes the item stale too ("Who delivers? 박재훈", where the staff list's row
of 박재훈 says "퇴사").

Some restatements share no word with the value, and are read by where they are: a person's short title written beside
her name ("대표님(윤서진)" of "직함: 대표"), shortened ("Owen Pryce (Sec)") or by its initials ("Karen Whitlock (GLV)"),
any other post beside her name ("The proprietor, Mrs Marlow", "송예린(주말 알바)"), a post's holder beside a word of the
post ("Priya Nandakumar (Membership)"), the same item's row in another price table of the folder ("Slice of cake" for
"Slice of homemade cake"), a rota of the folder naming the person whose days, hours or duties the fact gives, and, for
the organisation's value too common to look for ("Taster visit: free"), a line of the folder that writes the label.
The organisation's hours are stale when a line of its folder writes one of their times as the former one ("until
19:00 (was 18:30)"); an arrow line whose new side is the value ("210,000원 → 220,000원") confirms it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import PurePosixPath

from schemas import FactNode
from testgen.gate.names import document_subject
from testgen.kg.mining import row_label, table_cells, table_top
from testgen.lang import RULE_PAGE, contact_kind, en, ko
from testgen.names import without_trailing_note
from testgen.synth.context import GenContext
from testgen.text import is_cjk, normalize

#: Words of a value that say nothing about which value it is.
_STOP = frozenset(
    "the and for per with from our its their his her this that are was were has have not any all one two "
    "only each every who what when where which into onto over under about".split()
)
#: Lines naming a subject: (document id, line, where the line names it, whether a name few pages write names it).
_Lines = list[tuple[str, str, list[tuple[int, int]], bool]]
#: The heads of Korean compound titles, which colleagues write alone beside a name ("윤서영 실장" of "상담실장").
_KO_TITLE_HEADS = tuple(
    "위원장 지도사 실장 팀장 과장 부장 차장 주임 대리 원장 소장 국장 관장 이사 회장 코치 강사 교사 기사".split()
)
#: Words saying a thing or a person's part in it ends: the line need not write the value ("no longer",
#: "stands down", "영어회화 기초반은 … 열지 않습니다").
_ENDS = re.compile(
    r"(?<![a-z])(?:no longer|cancel(?:l?ed|s)|withdrawn|discontinu\w*|stand(?:s|ing)? down|step(?:s|ping)? down"
    r"|leaving|leaves|has left|left (?:on|in|at|us|the|last)|last (?:working )?(?:day|shift)|resign(?:s|ed|ing)?"
    r"|retir(?:e|es|ed|ing)|maternity|postpon\w*|deferred"
    r"|(?:has|have|had) ended|come to an end|came to an end|last (?:session|class|lesson|meeting)"
    r"|(?:handed|handing|hands|gave|given|giving) in (?:his |her |their )?notice"
    r"|(?:gave|given|giving) (?:(?:his|her|their|\w+ weeks?['’]?|a month['’]?s?) )?notice)(?![a-z])"
    r"|폐강|열지 않|운영하지 않|취소되었|취소됐|취소했|중단|폐지|퇴사|퇴직|사직|그만두|휴직|출산|육아"
    r"|끝으로|운영을 마쳤|마무리(?:되었|됐|했|합니다)|운영 종료|종료(?:되었|됐|했|합니다)"
    r"|사의\s?표명|사의를|(?<![가-힣])사임|(?<![가-힣])이임|물러나|물러납"  # not "회사의", "회사임"
    r"|前\s?(?=[가-힣])"  # "前 담당 박서연 주무관": the former holder
    r"|연기(?:되|됐|했|합|함)|휴강"
)
#: Words saying a value changes to another, which the line then writes ("shift to 9.30–2.30", "→ 10명").
_CHANGES = re.compile(
    r"(?<![a-z])(?:replaced by|replacing|will replace|takes? over|taking over|covering|covers? for|acting"
    r"|moves? to|moving to|moved to|shifts? to|(?:go|goes|going|gone|went) (?:up |down )?to|rises? to"
    r"|increase[sd]?|chang(?:e|es|ed)(?! ?room)|instead|effective|with effect"
    r"|from (?:the )?(?:\d{1,2}(?:st|nd|rd|th)? )?(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*)(?![a-z])"
    r"|변경|바뀝|바뀌|바꿔|바꾸|인상|인하|조정|직무대행|권한대행|대신|맡게|인계|(?:\d일|\d월)\s?부터|→|->|⇒"
)
_ADDRESS = re.compile(r"@|https?:|www\.", re.I)
_STREET = re.compile(
    r"[가-힣\d]+(?:로|길)\s?\d|\d+\w?\s+(?:[A-Z][a-z]+\s+)+(?:Street|St|Road|Rd|Lane|Avenue|Ave|Way|Drive|Place)\b"
)
_LATIN_WORD = re.compile(r"[a-z][a-z'’-]{2,}")
_HANGUL_WORD = re.compile(r"[가-힣]{2,}")
_FIGURE = re.compile(r"\d+(?:[.,:]\d+)*")
_UNIT_DIGIT = re.compile(r"(?<![\d.,:])(?:\d ?(?:[가-힣]|[a-z]+)|\d[\d,.]* ?[가-힣])")
_KO_UNIT = re.compile(r" ?[가-힣]")
#: A word of change denied: "no change to", "will not be cancelled"; "변경 없음", "취소되지 않".
_DENIED_BEFORE = re.compile(r"(?<![a-z])(?:no|not|never|without)\s+(?:be\s+)?$")
_DENIED_AFTER = re.compile(r"\s*(?:없|않|안\s|하지 않|되지 않)")
_NEGATION_CHARS = 12
#: A label that can stand for its fact on a page of the folder: one to three words, none a bare figure.
_LABEL_NAME = re.compile(r"(?=.{2,30}$)[^\W\d_][\w·&'’-]*(?: [^\W\d_][\w·&'’-]*){0,2}")
#: A label and its colon just before a name: "- **Product Owner**: ", "담당자: ".
_AFTER_LABEL = re.compile(r"^[\s>*#•-]*[^:：|]{1,40}[:：][\s*]*$")
#: The longest title looked for beside a name ("대표", "원장", "Quartermaster").
_TITLE_CHARS = 24
#: The most words of a title looked for beside a name ("Group Lead Volunteer", as "GLV").
_TITLE_WORDS = 3
#: A time of day as hours and minutes: "18:30", "9.30".
_WRITTEN_TIME = re.compile(r"(?<![\d:.])\d{1,2}[:.]\d{2}(?![\d:.])")
#: The fewest letters of a word a bracket may shorten it to ("sec", "mgr").
_SHORT_WORD = 3
#: Labels of when a person works, or what she covers: "근무 요일", "근무시간", "담당", "Usual days", "Duties".
_WORK_TIME = re.compile(
    r"근무|출근|요일|담당|업무|working|work days|usual days|days|hours|hrs|shifts?|duties|responsibilit", re.I
)
#: File names of rotas: "근무표_2025_04월", "rota_wc_03-03-2025", "shift schedule".
_ROTA = re.compile(r"근무표|근무\s?일정|분담표|배정표|당번표|시간표|rota|shift|timetable|schedule", re.I)
#: A list of who came ("Present: Karen Whitlock (GLV), …", "참석: 박진우 대표, 이수민 실장"): its names are no other
#: thing's value.
_ATTENDANCE = re.compile(r"(?:present|attendees|attending|apologies|참석자?|불참)\s*[:：][^:：]*$", re.I)
#: The end of a clause or list item.
_CLAUSE_END = re.compile(r"[.!?。]\s|다\.|요\.|[,;]\s")
#: A note in brackets: its commas end no clause ("Intermediate Wheel (Thursdays, 8 weeks) now has 10 places").
_BRACKETED = re.compile(r"\([^()]*\)")
#: The end of a sentence: a change after it is another sentence's.
_SENTENCE_END = re.compile(r"[.!?。]\s|다\.|요\.")
#: A weekday's short name, written out.
_DAY_NAMES = {
    **{day: f"{day}요일" for day in "월화수목금토일"},
    **{day[:3]: day for day in "monday tuesday wednesday thursday friday saturday sunday".split()},
}
#: Labels of the post a person holds.
_POST_LABEL = re.compile(r"^\s*(?:job title|title|(?:job )?roles?|position|post|직책|직위|직함|역할)\s*$", re.I)
#: Posts of those who teach, whom colleagues and parents call "선생님".
_TEACHES = re.compile(r"강사|교사|선생|지도사|코치|트레이너|튜터|teacher|tutor|instructor|coach", re.I)
#: A qualifier saying a fact holds now: "2008년~현재", "2019–present".
_CURRENT = re.compile(r"현재|지금|present|now|current|to date", re.I)
#: A price as a table cell writes it: with a currency sign or 원, with pence ("2.00"), grouped ("580,000") or bare of
#: four figures or more ("580000"), not a year, a time or a date.
_PRICE_FIGURE = re.compile(
    r"(?<![\w.:/-])(?:[£$€₩]\s?\d[\d,]*(?:\.\d{2})?|\d[\d,]*\s?(?:원|만\s?원)|\d{1,3}(?:,\d{3})+(?:\.\d{2})?"
    r"|\d+\.\d{2}|(?!(?:19|20)\d{2}(?!\d))\d{4,})(?![\w.:/-])"
)
#: Columns aligned with spaces or tabs: two spaces or more, or a tab, between cells.
_ALIGNED = re.compile(r"\s{2,}|\t")
#: The fewest cell separators a line of a table has ("| a | b |" has three), and the fewest cells of a line whose
#: columns are aligned with spaces (a sentence may hold one double space).
_CELLS = 2
_ALIGNED_CELLS = 3
#: The fewest letters of a Latin word naming an item ("tea", not "of").
_ITEM_WORD_CHARS = 3
#: The fewest words a row's item and a cell share for a cell naming part of it to name it.
_ITEM_WORDS = 2
#: Courtesy titles written before a surname alone ("Mrs Marlow", "Ms Achterberg").
_COURTESY_TITLES = ("mr", "mrs", "ms", "miss", "dr", "mr.", "mrs.", "ms.", "dr.")
#: What a Korean post may be followed by and still stand beside the name ("정태식 사장님께서").
_KO_AFTER_POST = "께서|께|은|는|이|가|의|과|와|도|으로|로|이고|이며|이자"
#: Characters a subject's name must have to be looked for in a line.
_NAME_CHARS = 3
#: Characters between a subject's name and a word of change for the change to be the subject's.
_CHANGE_SPAN = 60
#: Syllables a Korean stem keeps at least.
_KO_STEM_CHARS = 2
#: Letters a line's word may add to a stem ("chair" → "chaired").
_ENDING_CHARS = 3
#: Letters a stem keeps.
_STEM_CHARS = 4
#: A code ("AB-2024-017", "R7"): told whole or not at all.
_CODE = re.compile(r"(?=\S*\d)[A-Za-z0-9]+(?:[-/][A-Za-z0-9]+)+|[A-Z]+\d+\w*")
#: Characters either side of a subject's name read for its value.
_NEAR = 80
#: Characters either side of the name read for a value of one word or figure.
_NEAR_ONE_WORD = 30
#: What splits a list value into its items: "증명·프로필 촬영, 발주, 출장 보조", "Bookings / front desk" (not "·",
#: which joins the two halves of one item).
_LIST_SPLIT = re.compile(r"\s*[,;/、]\s*|\s+(?:and|및|&)\s+")
#: The shortest Latin list item that tells its list.
_ITEM_CHARS = 4
#: Pages a word may be on and still tie a line to one value, however small the knowledge base.
_FEW_PAGES = 3
#: Characters a Korean word of ending may stand after a name and still be said of it.
_KO_ENDS_SPAN = 20
#: Characters a word of change may stand before a subject's name and still be its change.
_CHANGE_BEFORE = 15
#: Chunks naming a subject beyond which only its own folder is read (a name every page writes tells little).
_MANY_CHUNKS = 400


@dataclass(frozen=True)
class Retelling:
    """What other pages say of one fact: each page with a line that may tell it in other words (doc id, its first
    such line), and the first line (doc id, line) saying it changed or ends."""

    loose: tuple[tuple[str, str], ...]
    changed: tuple[str, str] | None

    def untold(self, docs: set[str] | list[str]) -> tuple[str, str] | None:
        """The first page beyond `docs` that may tell the fact, with its line, or None."""
        return next(((doc, line) for doc, line in self.loose if doc not in docs), None)


@dataclass(frozen=True)
class _Row:
    """A table row: its page, its place, its line, the words of each cell, the words of its table's header."""

    doc_id: str
    order: int  # its place among the knowledge base's rows, for a stable reading order
    line: str
    cells: tuple[tuple[str, ...], ...]
    header: frozenset[str]


@dataclass(frozen=True)
class _Marks:
    """A value's evidence: its whole text (bare of a trailing note), content-word stems and figures."""

    whole: str
    stems: frozenset[str]
    figures: frozenset[str]
    person: bool
    raw: frozenset[str] = frozenset()  # every figure, however short: a change line writes the old one bare


#: No evidence of a value: only a word of ending counts beside a name.
_NO_MARKS = _Marks("", frozenset(), frozenset(), False)


class Retold:
    """The retellings of facts over one knowledge base (each worked out once)."""

    def __init__(
        self,
        ctx: GenContext,
        forms: Callable[[FactNode], set[str]],
        first_name: Callable[[FactNode], str | None],
        given_name: Callable[[FactNode], str | None] | None = None,
    ) -> None:
        self.ctx = ctx
        self._forms = forms
        self._first_name = first_name  # of a subject that holds a post
        self._given_name = given_name or first_name  # of a person, whether or not the pages give her a post
        self._cache: dict[str, Retelling] = {}
        self._pages: dict[str, frozenset[str]] = {}  # word or name → the documents that write it
        self._folders: dict[str, frozenset[str]] = {}  # folder → its documents
        self._labels: dict[str, set[tuple[str, str | None]]] | None = None  # document → (label, subject) of its facts
        self._post_values: set[str] | None = None  # the posts the knowledge base gives people
        self._rows: dict[str, list[_Row]] | None = None  # word → the table rows with a figure that write it

    def of(self, fact: FactNode) -> Retelling:
        if fact.fact_id not in self._cache:
            self._cache[fact.fact_id] = self._scan(fact)
        return self._cache[fact.fact_id]

    def _scan(self, fact: FactNode) -> Retelling:
        forms = {f for f in self._forms(fact) if len(f) >= _NAME_CHARS}
        first = self._first_name(fact)
        own = {w for f in forms for w in _stems(f)}
        if not (forms or first):
            return Retelling((), None)
        marks = _marks(fact, own, self._common)
        # a date, a number to dial, an address or a code is told whole or not at all: only a line saying that its
        # holder leaves is read ("Helen has handed in her notice" for her e-mail address)
        ending_only = marks is None or not (marks.stems or marks.raw or _whole_told(marks))
        generic = marks is not None and ending_only  # "free", "yes": a value too common to look for
        if marks is None:
            marks = _Marks(normalize(fact.value), frozenset(), frozenset(), False)
        # two names in one line need not tell how they relate ("Founders: Ingrid Solberg and Marcus Okafor"): a
        # relation's pages are the closure's to find
        value = self.ctx.entities.get(fact.value_entity or "")
        relation = value is not None and value.home_doc is not None and value.home_doc != fact.doc_id
        loose: dict[str, str] = {}  # doc id → its first line that may tell the fact
        lines = self._lines_naming(fact, forms, first)  # read once: the scans below look at the same lines
        changed = self._read(fact, lines, marks, loose, ending_only, relation)
        # the organisation, or a policy of it: an FAQ that restates "타일 2년" of the A/S policy names neither. There
        # the label stands for the name: its own words are no evidence ("dam" of "dam type"), and nobody leaves
        if not ending_only and self._of_the_organisation(fact, forms):
            labelled = self._lines_labelling(fact, figured=bool(marks.figures))
            marks = replace(marks, stems=marks.stems - _stems(fact.attribute))
            label = normalize(without_trailing_note(fact.attribute))
            changed = changed or self._read(fact, labelled, marks, loose, False, relation, label=label)
        elif generic and self._of_the_organisation(fact, forms):
            # the organisation's "Taster visit: free": a page of the folder writing the label may tell it in words
            # of its own ("Taster visits … still FREE (up to 2)"), which no value can be looked for by
            for doc_id, line, _, _ in self._lines_labelling(fact, figured=False):
                loose.setdefault(doc_id, line.strip())
        for doc_id, line in {
            **self._signed_pages(fact, forms, first, lines),
            **self._title_beside_name(fact, forms, first, lines),
            **self._post_beside_name(fact, forms, first, lines),
            **self._holder_beside_post(fact),
        }.items():
            loose.setdefault(doc_id, line)
        for doc_id, line in self._rows_elsewhere(fact).items():
            loose.setdefault(doc_id, line)
        rota = self._rota_naming(fact, forms)
        if rota is not None:
            loose.setdefault(rota, f"a rota naming {fact.subject}")
        if changed is None and marks.person:
            changed = self._value_leaves(fact)
        if (
            changed is None
            and _WRITTEN_TIME.search(fact.value)
            and (document_subject(fact.subject) or self._of_the_organisation(fact, forms))
        ):
            changed = self._time_was(fact)  # the organisation's hours, or a page's of it ("Staff & contact list")
        return Retelling(tuple(loose.items()), changed)

    def _time_was(self, fact: FactNode) -> tuple[str, str] | None:
        """A line of the organisation's folder that writes one of its hours' times as the former one: "Mon–Fri we'll
        now take jobs until 19:00 (was 18:30)" makes "Opening hours: Mon–Fri 07:30–18:30" stale, whatever the line
        calls them. The page and line, or None."""
        times = "|".join(sorted({re.escape(t) for t in _WRITTEN_TIME.findall(fact.value)}))
        former = re.compile(
            rf"(?:[(（]\s*(?:was|previously|formerly|기존|종전|변경\s?전)\s*[:：]?\s*|\bfrom\s+|기존\s*|종전\s*)(?:{times})(?![\d:])"
            rf"|(?<![\d:.])(?:{times})\s*(?:→|->|에서\s*\d)",
            re.I,
        )
        for doc_id in sorted(self._folder_pages(fact.doc_id) - {fact.doc_id}):
            for chunk in self.ctx.chunks_by_doc.get(doc_id, []):
                found = next((line for line in chunk.text.split("\n") if former.search(line)), None)
                if found is not None:
                    return doc_id, found.strip()
        return None

    def _title_beside_name(self, fact: FactNode, forms: set[str], first: str | None, lines: _Lines) -> dict[str, str]:
        """A line of another page writing a person's short title right beside her name, of the contacts page's
        "직함: 대표": "대표님(윤서진)", "서은비 원장님", "Chair Helen Marsh", its initials ("Karen Whitlock (GLV)",
        "YL Ellie" of "Young Leader") or a word of it in brackets ("Colin Maddox (Green)" of "Green Ranger"). A title of
        a few words is told that way wherever she is named. Each page beyond the fact's own with its first such
        line."""
        title = normalize(without_trailing_note(fact.value))
        if (
            not _a_person(fact.subject)
            or not title
            or fact.value_entity  # "Reports to: Ingrid Solberg" names another, no title
            or len(title.split()) > _TITLE_WORDS
            or len(title) > _TITLE_CHARS
            or re.search(r"\d", title)
        ):
            return {}
        names = "|".join(re.escape(f) for f in sorted(forms | ({first} if first else set()), key=len, reverse=True))
        words = re.findall(r"[a-z]+|[가-힣]+", title)
        parts = "|".join(re.escape(w) for w in words if len(w) >= (2 if is_cjk(w) else _ITEM_CHARS))
        # initials in capitals, in brackets after the name or just before it: "Karen Whitlock (GLV)", "YL Ellie"
        initials = _initials(words).upper() if len(words) >= 2 and re.fullmatch(r"[a-z ]+", title) else ""
        told = re.compile(
            rf"(?<!\w){re.escape(title)}님?\s*[(（]\s*(?:{names})|(?<!\w)(?:{names})\s*[(（]?\s*{re.escape(title)}(?:님)?(?!\w)"
            rf"|(?<!\w){re.escape(title)}\s+(?:{names})(?!\w)|(?<!\w)(?:{names}),\s+(?:our|the)\s+{re.escape(title)}(?!\w)"
            + (rf"|(?<!\w)(?:{names})\s*[(（]\s*(?:{parts})\s*[)）]" if parts else ""),
            re.I,
        )
        # the name in any case, the initials in capitals only ("Ivy Summers is …" is no "IS")
        initialled = (
            re.compile(rf"(?<!\w)(?i:{names})\s*\(\s*{initials}\s*\)|(?<!\w){initials}\s+(?i:{names})(?!\w)")
            if initials
            else None
        )
        bracketed = re.compile(rf"(?<!\w)(?:{names})\s*[(（]([^)）]{{2,30}})[)）]")
        # a Korean compound title by its head beside the name: "윤서영 실장" of "상담실장", "최민재 지도사" of
        # "청소년지도사"
        head = next((h for h in _KO_TITLE_HEADS if title.endswith(h) and len(title) > len(h)), None)
        headed = (
            re.compile(rf"(?<!\w)(?:{names})\s*{head}(?:님)?(?![가-힣])|(?<![가-힣]){head}\s+(?:{names})(?!\w)")
            if head
            else None
        )
        pages: dict[str, str] = {}
        for doc_id, line, _, _ in lines:
            if doc_id == fact.doc_id:
                continue
            norm = normalize(line)
            if (
                told.search(norm)
                or (initialled is not None and initialled.search(line))
                or any(shortens(m.group(1), title) for m in bracketed.finditer(norm))
                or (headed is not None and headed.search(norm))
            ):
                pages.setdefault(doc_id, line.strip())
        return pages

    def _post_beside_name(self, fact: FactNode, forms: set[str], first: str | None, lines: _Lines) -> dict[str, str]:
        """A line of another page writing any post right beside a person's name, of a fact giving her post: "The
        owner, Mrs Marlow" of "Role: Owner", "정태식 사장님" of "직책: 대표", "송예린(주말 알바)" of "주말 아르바이트",
        "Chris (Editor)" of "Newsletter & website". It may tell her post in words of its own, or another post of hers,
        which leaves the answer incomplete. Each page beyond the fact's own with its first such line."""
        if not _a_person(fact.subject) or fact.value_entity or not _POST_LABEL.search(fact.attribute):
            return {}
        if fact.qualifier and not _CURRENT.search(fact.qualifier):
            return {}  # her post of 1996–2001 ("경력" rows): today's post beside her name is not it
        person = en.without_honorific(fact.subject.strip()).split()
        courtesy = (
            {f"{title} {person[-1].lower()}" for title in _COURTESY_TITLES}
            if len(person) >= 2 and en.is_person_name(" ".join(person))
            else set()
        )
        if courtesy:  # "Mrs Marlow" is named by no form of Denise Marlow's
            lines = lines + self._lines_naming(fact, courtesy, None)
        names = "|".join(
            re.escape(f) for f in sorted(forms | courtesy | ({first} if first else set()), key=len, reverse=True)
        )
        posts = "|".join(
            re.escape(p)
            for p in sorted(self._posts() | {normalize(without_trailing_note(fact.value))}, key=len, reverse=True)
            if p
        )
        # "미옥 선생님" tells a teacher's post, not the office clerk's ("사무실 구민정 선생님께")
        teacher = r"|선생님|쌤|샘" if _TEACHES.search(fact.value) else ""
        post = rf"(?:{en.POST_WORD.pattern}|{ko.POST_WORD.pattern}|{posts}{teacher})"
        name = rf"(?<![\w가-힣])(?:{names})(?:씨|님|이|샘|쌤)?"
        after = rf"님?(?:{_KO_AFTER_POST})?(?![a-z가-힣])"
        cell = r"님?\s*(?:[(（][^)）]*[)）])?\s*"  # a cell holding the post alone, its note in brackets
        beside = re.compile(
            # after the name: "송예린(주말 알바)", "정태식 사장님께서", "Maggie Oduya, safeguarding lead", in a cell
            rf"{name}\s*[(（]\s*{post}{after}"
            rf"|{name}\s*(?:[,:：—–-]\s*)?(?:(?:is|was|as)\s+)?(?:(?:the|our|a|an)\s+)?{post}{after}"
            rf"|{name}\s*\|\s*{post}{cell}(?:\||$)"
            # before it: "기사: 윤대식", "보조 한지우", "원장님(윤서아)", "The owner, Mrs Marlow", "| 대표 | 박정훈 |";
            # not the post of the name before ("박소연 주임, 이승민")
            rf"|(?<![\w가-힣]){post}님?\s*[:：(（]?\s*{name}(?![a-z가-힣])"
            rf"|(?<![\w가-힣])(?:the|our)\s+{post},\s*{name}(?![a-z가-힣])"
            rf"|(?:^|\|)\s*{post}{cell}\|\s*{name}\s*(?:\||$)"
        )
        return _first_lines(lines, fact.doc_id, beside)

    def _holder_beside_post(self, fact: FactNode) -> dict[str, str]:
        """For a post's holder (the club's "Membership secretary: Priya Nandakumar"), a line of another page writing
        her name beside a word of the post: "Priya Nandakumar (Membership)", "Our Club Welfare Officer is Helen
        Marsh". Each page beyond the fact's own with its first such line."""
        holder = normalize(without_trailing_note(fact.value))
        attribute = normalize(fact.attribute)
        if not _a_person(without_trailing_note(fact.value)) or not (
            en.POST_WORD.search(attribute) or ko.POST_WORD.search(attribute)
        ):
            return {}
        # a word of its own, not a post's head ("Product Owner" of another thing is no "Policy Owner")
        words = {
            w
            for w in re.findall(r"[a-z]{4,}|[가-힣]{2,}", attribute)
            if w not in _STOP and not (en.POST_WORD.fullmatch(w) or ko.POST_WORD.fullmatch(w))
        }
        post = "|".join(re.escape(w) for w in sorted(words | {attribute}, key=len, reverse=True))
        name = rf"(?<![\w가-힣]){re.escape(holder)}"
        beside = re.compile(
            rf"{name}\s*(?:[,(（:：—–-]\s*)?(?:(?:the|our)\s+)?(?:{post})(?![a-z])"
            rf"|(?<![\w가-힣])(?:{post})(?:\s+is\s+|\s*[:：(（]?\s*){name}(?![a-z])"
        )
        return _first_lines(self._lines_naming(fact, {holder}, None), fact.doc_id, beside)

    def _posts(self) -> set[str]:
        """The posts the knowledge base gives people (normalised, short ones only), worked out once: a page may write
        any of them beside a name ("다은이(카운터)")."""
        if self._post_values is None:
            self._post_values = {
                post
                for fact in self.ctx.facts
                if _POST_LABEL.search(fact.attribute) and not fact.value_entity and _a_person(fact.subject)
                for post in [normalize(without_trailing_note(fact.value))]
                if 2 <= len(post) <= _TITLE_CHARS and len(post.split()) <= _TITLE_WORDS and not re.search(r"\d", post)
            }
        return self._post_values

    def _signed_pages(self, fact: FactNode, forms: set[str], first: str | None, lines: _Lines) -> dict[str, str]:
        """Another page signed with the person's name on a line of its own and her title on the next ("Rachel" over
        "Bookings & Reception Manager"): it states her title, however long. Each such page with its sign-off line."""
        title = normalize(without_trailing_note(fact.value))
        if not _a_person(fact.subject) or not title or fact.value_entity or re.search(r"\d", title):
            return {}
        signed = forms | ({first} if first else set())
        return {
            doc_id: line.strip()
            for doc_id, line, _, _ in lines
            if doc_id != fact.doc_id
            and normalize(line).strip(" ,.-–—") in signed
            and _signed_with(self._text_of(doc_id), line, title)
        }

    def _text_of(self, doc_id: str) -> str:
        """A document's text, from its chunks."""
        return "\n".join(chunk.text for chunk in self.ctx.chunks_by_doc.get(doc_id, ()))

    def _rows_elsewhere(self, fact: FactNode) -> dict[str, str]:
        """Rows of tables on other pages of the folder for the same item, with a figure of the value's kind under a
        header sharing a word of the value's column: the March price list's "| Cakes | Slice of cake | 2.00 | 2.00 |"
        under "Old price (GBP)" tells the January menu's "| Slice of homemade cake | £2.00 |" (under "Price") again,
        or gives its new price. Each such page with its first such row."""
        if fact.source != "table" or not re.search(r"\d", fact.value):
            return {}
        figure = _row_figure(fact)
        if figure is None:
            return {}
        attribute = normalize(fact.attribute)
        labels = {normalize(c) for c in table_cells(fact.evidence) if c and attribute.startswith(normalize(c))}
        items = [words for label in labels | {normalize(row_label(fact))} if (words := _item_stems(label))]
        column = _item_words(attribute) - {w for words in items for w in words}
        if not column:
            return {}
        # the rows of the folder's other pages sharing a word of the item, by the index of table rows
        pages = self._folder_pages(fact.doc_id) - {fact.doc_id}
        index = self._table_rows()
        rows = {row for w in {w for words in items for w in words} for row in index.get(w, ()) if row.doc_id in pages}
        found: dict[str, str] = {}
        for row in sorted(rows, key=lambda r: (r.doc_id, r.order)):
            if (
                row.doc_id not in found
                and figure.search(row.line)
                and any(_same_item(cell, words) for cell in row.cells for words in items)
                and _share_a_word(column, row.header)
            ):
                found[row.doc_id] = row.line.strip()
        return found

    def _table_rows(self) -> dict[str, list[_Row]]:
        """Every table row of the knowledge base with a figure, by each word of its cells (built once): a price list
        may have hundreds of rows and a folder thousands of pages."""
        if self._rows is None:
            self._rows = {}
            order = 0
            for chunk in self.ctx.chunks.values():
                # the page's title and its file's name say what its figures are ("PRICE CHANGES from 1st April 2025")
                node = self.ctx.docs.get(chunk.doc_id)
                title = _item_words(f"{node.title if node else ''} {PurePosixPath(chunk.doc_id).stem}")
                lines = chunk.text.split("\n")
                for index, line in enumerate(lines):
                    if not re.search(r"\d", line):
                        continue
                    if line.count("|") >= _CELLS:
                        parts, top = line.split("|"), lines[table_top(lines, index)]
                    elif len(_ALIGNED.split(line.strip())) >= _ALIGNED_CELLS:
                        # a notice's columns aligned with spaces: "Routine treatment (30 mins)    £44    £47"
                        parts, top = _ALIGNED.split(line.strip()), lines[_aligned_top(lines, index)]
                    else:
                        continue
                    # a cell's note in brackets names nothing: "Routine treatment (30 mins)"
                    cells = tuple(tuple(w) for cell in parts if (w := _item_stems(_BRACKETED.sub("", cell))))
                    row = _Row(chunk.doc_id, order, line, cells, frozenset(_item_words(top) | title))
                    order += 1
                    for stem in {w for words in cells for w in words}:
                        self._rows.setdefault(stem, []).append(row)
        return self._rows

    def _rota_naming(self, fact: FactNode, forms: set[str]) -> str | None:
        """Another page of the folder that is a rota and names the person whose working days, hours or duties the fact
        gives ("근무표_2025_04월" with a column "정하늘(파트)", of the contacts page's "근무 요일: 목(야간), 토"): it
        tells her days in its own cells, which no value can be looked for by. Its id, or None."""
        if not _WORK_TIME.search(fact.attribute) or not _a_person(fact.subject):
            return None
        for doc_id in sorted(self._folder_pages(fact.doc_id) - {fact.doc_id}):
            if _ROTA.search(doc_id) and any(doc_id in self._pages_with(f) for f in forms):
                return doc_id
        return None

    def _value_leaves(self, fact: FactNode) -> tuple[str, str] | None:
        """A line saying the person who is the fact's value leaves: "Who delivers? 박재훈" is stale once a staff list
        says "박재훈 … ★ 2025-08-31 퇴사". Her own row of a table says it anywhere in the row; a line of prose just
        after her name."""
        name = normalize(without_trailing_note(fact.value))
        if len(name) < _NAME_CHARS or "," in name:
            return None
        # the minutes call her by her first name when no one else in the folder goes by it ("Gareth is moving to
        # Bristol and will step down at the end of December")
        holder = fact.model_copy(
            update={"subject": without_trailing_note(fact.value), "subject_entity": fact.value_entity}
        )
        first = self._given_name(holder) if fact.value_entity else None
        for doc_id, line, spans, _ in self._lines_naming(fact, {name}, first):
            norm = normalize(line)
            own_row = norm.lstrip().startswith("|") and norm.strip("| ").startswith(name)
            if (own_row and _ENDS.search(norm)) or _change_near(norm, spans, _NO_MARKS):
                return doc_id, line.strip()
        return None

    def _of_the_organisation(self, fact: FactNode, forms: set[str]) -> bool:
        """Whether a fact is the organisation's its folder is about: its subject is the organisation (a name on most
        of the folder's pages), a policy of it, or a page about it titled as a document ("한결 테일러 매장 안내")."""
        if self._common_in_folder(normalize(fact.subject), fact.doc_id) or RULE_PAGE.search(fact.subject):
            return True
        if not document_subject(fact.subject):
            return False
        # "Welcome to Harrowby Men's Shed — Members' Handbook (v3)": the organisation's name inside the title, a part of
        # it of its own ("Velvera One" of "Velvera One Pro — Specifications" is a product's family, not the title's)
        title = normalize(fact.subject)
        words = title.split()
        spans = {" ".join(words[i : i + n]) for n in range(2, 5) for i in range(len(words) - n + 1)}
        whole = {f for f in spans if re.search(rf"{re.escape(f)}\s*(?:[—–:|(-]|$)", title)}
        return any(self._common_in_folder(f, fact.doc_id) for f in forms | whole)

    def _read(
        self,
        fact: FactNode,
        lines: _Lines,
        marks: _Marks,
        loose: dict[str, str],
        ending_only: bool,
        relation: bool,
        *,
        label: str | None = None,
    ) -> tuple[str, str] | None:
        """Read lines naming a fact's subject: add to `loose` each page's first line that may tell the fact in other
        words (not for a value told whole or not at all, nor for a relation), and return the first line saying the
        fact changed or ends (only that it ends for a value told whole), if any. Lines that name the fact by its
        label instead say nothing ends, and a change only when they write the label whole ("예약" of "예약 단위" may
        be any booking's)."""
        endings = label is None
        changed: tuple[str, str] | None = None
        for doc_id, line, spans, telling in lines:
            norm = normalize(line)
            if not telling:
                continue
            if doc_id == fact.doc_id:
                # its own page only for an ending: "| Imran Siddiqui | Branch Manager | … | leaving – last day … |"
                if endings and changed is None and _ENDS.search(norm) and _change_near(norm, spans, marks):
                    changed = (doc_id, line.strip())
                continue
            # a value told whole changes only by its holder's leaving
            telling_change = (label is None or label in norm) and (not ending_only or _ENDS.search(norm) is not None)
            if changed is None and telling_change and _change_near(norm, spans, marks, endings=endings):
                changed = (doc_id, line.strip())
                continue
            if ending_only or relation or doc_id in loose or _named_as_a_value(norm, spans):
                continue
            # only the words around the name, the name itself blanked: a paragraph on one line names many things,
            # and "250" of "Aurora Fold 250" is not its 250 Wh
            # (a value of one word must stand closer: "Sales" of "the Portland Sales Office …, led by Rosa" is not
            # her team)
            reach = _NEAR if len(marks.stems) + len(marks.figures) >= 2 else _NEAR_ONE_WORD
            near = " … ".join(
                f"{norm[max(0, start - reach) : start]} ~ {norm[end : end + reach]}" for start, end in spans
            )
            if _shares(near, marks) or _states_whole(near, marks):
                loose[doc_id] = line.strip()
        return changed

    def _lines_labelling(self, fact: FactNode, *, figured: bool) -> _Lines:
        """For a subject most pages of its folder name (the organisation) or a policy of it, the lines of the
        folder's other pages, not another thing's own, that write the fact's label or its first word: there the label
        names the fact ("타일은 2년, 도배는 1년" in the FAQ, of the company's "타일: 2년")."""
        label = normalize(without_trailing_note(fact.attribute))
        # "타일 보증 기간" is told by "타일은 2년": its first word, when few pages of the folder write it or a figure
        # of the value must stand beside it
        head = label.split()[0] if label.split() else ""
        # a day of a rota's column is written out where a notice changes it: "토" → "토요일", "sat" → "saturday"
        head = _DAY_NAMES.get(head, head)
        telling_head = (
            len(head) >= 2
            and head not in _STOP
            and _LABEL_NAME.fullmatch(head) is not None
            and (figured or not self._common_in_folder(head, fact.doc_id))
        )
        names = ({label} if _LABEL_NAME.fullmatch(label) else set()) | ({head} if telling_head else set())
        if not names:
            return []
        folder = self._folder_pages(fact.doc_id)
        # not another thing's own page with the same label: "Education: …" on another employee's page is hers
        return [
            (doc_id, line, spans, True)
            for doc_id, line, spans, _ in self._lines_naming(fact, names, None)
            if doc_id in folder and doc_id != fact.doc_id and not self._labelled_elsewhere(doc_id, fact)
        ]

    def _labelled_elsewhere(self, doc_id: str, fact: FactNode) -> bool:
        """Whether a page has a fact of another thing under the same label: "Job Title" on another employee's page,
        "색상" on another product's sheet, are theirs."""
        if self._labels is None:
            labels: dict[str, set[tuple[str, str | None]]] = {}
            for other in self.ctx.facts:
                labels.setdefault(other.doc_id, set()).add((normalize(other.attribute), other.subject_entity))
            self._labels = labels
        label = normalize(fact.attribute)
        return any(a == label and e != fact.subject_entity for a, e in self._labels.get(doc_id, ()))

    def _pages_with(self, word: str) -> frozenset[str]:
        """The documents whose chunks write a word or name (worked out once per word)."""
        if word not in self._pages:
            self._pages[word] = frozenset(self.ctx.chunks[c].doc_id for c in self.ctx.chunks_with(word))
        return self._pages[word]

    def _folder_pages(self, doc_id: str) -> frozenset[str]:
        """The documents of a document's folder (worked out once per folder)."""
        folder = self.ctx.doc_type(doc_id)
        if folder not in self._folders:
            self._folders[folder] = frozenset(d for d in self.ctx.docs if self.ctx.doc_type(d) == folder)
        return self._folders[folder]

    def _common_in_folder(self, name: str, doc_id: str) -> bool:
        """Whether a name is on most pages of a document's folder (the organisation the folder is about)."""
        pages = self._folder_pages(doc_id)
        return len(pages) >= _FEW_PAGES and len(self._pages_with(name) & pages) * 2 > len(pages)

    def _common(self, word: str) -> bool:
        """Whether a word or name is on too many pages to tie a line to one value ("product", "sales") or thing."""
        return len(self._pages_with(word)) > max(_FEW_PAGES, len(self.ctx.docs) // 2)

    def _lines_naming(self, fact: FactNode, forms: set[str], first: str | None) -> _Lines:
        """Each line (in chunk order) that names the subject, with where it names it (in the
        normalised line) and whether a name few pages write names it there; a first name only in the fact's folder,
        and a name written on very many chunks only there too."""
        ctx = self.ctx
        folder = ctx.doc_type(fact.doc_id)
        named = re.compile(rf"(?<![\w-])(?:{'|'.join(re.escape(f) for f in sorted(forms, key=len, reverse=True))})")
        by_first = re.compile(rf"(?<![\w-]){re.escape(first)}(?![a-z-])") if first else None
        chunks: dict[str, bool] = {}  # chunk id → whether only its first name may name the subject there
        for form in forms:
            found = ctx.chunks_with(form)
            if len(found) > _MANY_CHUNKS:
                found = {c for c in found if ctx.doc_type(ctx.chunks[c].doc_id) == folder}
            chunks.update(dict.fromkeys(found, False))
        if first:
            for chunk_id in ctx.chunks_with(first):
                if ctx.doc_type(ctx.chunks[chunk_id].doc_id) == folder:
                    chunks.setdefault(chunk_id, True)
        everywhere = {f for f in forms if self._common(f)}
        out: _Lines = []
        for chunk_id in sorted(chunks):
            doc_id = ctx.chunks[chunk_id].doc_id
            for line in ctx.chunks[chunk_id].text.split("\n"):
                norm = normalize(line)
                spans = [m.span() for m in named.finditer(norm)] if forms else []
                if by_first is not None:
                    spans += [m.span() for m in by_first.finditer(norm)]
                if spans:
                    # a name most pages write ("하늘여행" in its own wiki) ties a line to nothing in particular
                    telling = any(norm[a:b] not in everywhere for a, b in spans)
                    out.append((doc_id, line, spans, telling))
        return out


def _item_stems(text: str) -> list[str]:
    """The words naming an item or a column, stemmed and in order, codes whole ("kc-360", "canned drinks" → "cann",
    "drink")."""
    words = re.findall(r"[a-z0-9가-힣]+(?:[-.][a-z0-9가-힣]+)*", normalize(text))
    return [_stem(w) for w in words if w not in _STOP and (len(w) >= _ITEM_WORD_CHARS or (is_cjk(w) and len(w) >= 2))]


def _item_words(text: str) -> set[str]:
    return set(_item_stems(text))


def _first_lines(lines: _Lines, own: str, pattern: re.Pattern[str]) -> dict[str, str]:
    """Each page but `own` with its first line (as written) that `pattern` finds in, normalised."""
    pages: dict[str, str] = {}
    for doc_id, line, _, _ in lines:
        if doc_id != own and doc_id not in pages and pattern.search(normalize(line)):
            pages[doc_id] = line.strip()
    return pages


def _share_a_word(words: set[str], others: frozenset[str]) -> bool:
    """Whether two sets of stems share a word, one stem perhaps the other's start ("pric" of "prices", "price")."""
    return any(
        w == o or (min(len(w), len(o)) >= _STEM_CHARS and (w.startswith(o) or o.startswith(w)))
        for w in words
        for o in others
    )


def _aligned_top(lines: list[str], index: int) -> int:
    """The first line of the block of space-aligned columns that line `index` is in (its header, if it has one)."""
    top = index
    while top > 0 and len(_ALIGNED.split(lines[top - 1].strip())) >= _ALIGNED_CELLS:
        top -= 1
    return top


def _same_item(cell: Sequence[str], label: Sequence[str]) -> bool:
    """Whether a table cell names the item a row label names: the same words ("Canned drink", "Canned drinks"), or
    the words of one, two at least, all in the other with one more that is not its head ("Slice of cake" in "Slice of
    homemade cake", not "Alpaca Walk" in "Alpaca walking socks")."""
    if not cell or not label:
        return False
    if set(cell) == set(label):
        return True
    smaller, larger = sorted((cell, label), key=lambda words: len(set(words)))
    few, many = set(smaller), set(larger)
    return len(few) >= _ITEM_WORDS and few <= many and len(many) == len(few) + 1 and larger[-1] in few


def _row_figure(fact: FactNode) -> re.Pattern[str] | None:
    """What a row must write to give a figure of the fact's kind: a price for a price ("2.00", "£2", "580000",
    "58만 원"), the figure with its unit for a measure ("12시간", "8 weeks"); None for anything else."""
    if fact.value_type == "money":
        return _PRICE_FIGURE
    if fact.unit and fact.value_type == "number" and not _WRITTEN_TIME.search(fact.value):
        return re.compile(rf"(?<![\w.:/])\d+(?:[.,]\d+)?\s?{re.escape(fact.unit)}(?![a-z])", re.I)
    return None


def _a_person(name: str) -> bool:
    """Whether a name reads as a person's, in English or Korean."""
    return en.is_person_name(name) or ko.is_person_name(name)


def shortens(short: str, title: str) -> bool:
    """Whether a bracket's words shorten a title's, word for word: "sec" of "secretary", "press mgr" of "press
    manager", "vol coord" of "volunteer coordinator" (a word's start, or its letters in order from its first)."""
    shorts, words = short.replace(".", " ").split(), title.split()
    if len(shorts) != len(words) or not all(re.fullmatch(r"[a-z]{2,}", w) for w in shorts):
        return False
    return (
        shorts != words
        and all(
            w.startswith(s) or (s[0] == w[0] and len(s) >= _SHORT_WORD and _in_order(s, w))
            for s, w in zip(shorts, words, strict=True)
        )
        and any(len(s) >= _SHORT_WORD for s in shorts)
    )


def _in_order(letters: str, word: str) -> bool:
    """Whether the letters appear in the word in their order ("mgr" in "manager")."""
    rest = iter(word)
    return all(c in rest for c in letters)


def _named_as_a_value(norm: str, spans: list[tuple[int, int]]) -> bool:
    """Whether the line gives the subject as another thing's value ("- **Product Owner**: Jonas Berg"): its label is
    that thing's attribute, not the subject's."""
    return any(_AFTER_LABEL.search(norm[:start]) and not _ATTENDANCE.search(norm[:start]) for start, _ in spans)


def _words(text: str) -> set[str]:
    """Content words of a text: Latin words of three letters or more, Korean words of two syllables or more."""
    norm = normalize(text)
    return {w for w in _LATIN_WORD.findall(norm) if w not in _STOP} | set(_HANGUL_WORD.findall(norm))


def _stem(word: str) -> str:
    """A word's stem: a Latin word without an ending ("chair" of "chaired", "trust" of "trustees"), a Korean word's
    first two syllables."""
    if re.match("[가-힣]", word):
        return ko.TRAILING_PARTICLE.sub("", word) if len(word) > _KO_STEM_CHARS else word
    bare = re.sub(r"(?:['’]s|ing|ed|es|s)$", "", word)
    return bare if len(bare) >= _STEM_CHARS else word


def _stems(text: str) -> set[str]:
    return {s for s in map(_stem, _words(text)) if _telling(s)}


def _telling(stem: str) -> bool:
    """Whether a stem can tie a line to a value: a Korean word of two syllables ("상품", "일본") is too general."""
    return len(stem) > _KO_STEM_CHARS if re.match("[가-힣]", stem) else len(stem) >= 2


def _list_item(part: str) -> bool:
    """Whether a list item can tie a line to the list: a Korean word of two syllables or more, a Latin phrase of
    four letters or more, no figure."""
    if re.search(r"\d", part):
        return False
    return len(part.replace(" ", "")) >= _KO_STEM_CHARS if re.match("[가-힣]", part) else len(part) >= _ITEM_CHARS


def _marks(fact: FactNode, own: set[str], common: Callable[[str], bool]) -> _Marks | None:
    """The value's evidence, or None for a value told whole or not at all (a date, a number to dial, an address, a
    code), which the closure's own rules tie to pages."""
    if fact.value_type == "date" or contact_kind(without_trailing_note(fact.value)) or _ADDRESS.search(fact.value):
        return None
    if _CODE.fullmatch(fact.value.strip()) or _STREET.search(fact.value):
        return None
    value = normalize(without_trailing_note(fact.value))
    stems: frozenset[str] = frozenset()
    if not is_cjk(value) or re.search("[가-힣]", value):
        stems = frozenset(s for w in _words(value) if _telling(s := _stem(w)) and s not in own and not common(w))
        # each item of a list ("증명·프로필 촬영, 발주, 출장 보조": a person's duties) tells it, whatever its length
        # ("인화지 발주 - 이수민" in a rota; "출장 보조는 이수민 실장 고정")
        parts = [p.strip() for p in _LIST_SPLIT.split(_BRACKETED.sub("", value)) if p.strip()]  # not a note's
        if len(parts) >= 2:
            stems |= {p for p in parts if _list_item(p) and p not in own and not common(p)}
        # a title of three capitalised words or more is also written by its initials: "Karen Whitlock (GLV)"
        titled = re.fullmatch(r"(?:[A-Z][a-z]+[\s-]+){2,4}[A-Z][a-z]+", without_trailing_note(fact.value).strip())
        if titled:  # ("mjw" of a person "Mary Jane Watson" is written nowhere)
            stems |= {_initials(re.split(r"[\s-]+", titled.group())).lower()}
    # a figure of one digit, or one a Korean unit follows, is told with its unit ("7일", "24명": not any 7 or 24 of
    # a paragraph)
    norm = normalize(fact.value)
    figures = frozenset(
        m.group().replace(",", "")
        for m in _FIGURE.finditer(norm)
        if len(m.group()) >= 2 and not _KO_UNIT.match(norm, m.end())
    ) | frozenset(m.group().replace(" ", "") for m in _UNIT_DIGIT.finditer(norm))
    # "박서연 주무관 (내선 213)": her, with her post and a note
    bare = without_trailing_note(fact.value).strip()
    person = _a_person(bare) or _a_person(ko.name_before_post(bare) or "")
    raw = frozenset(f.replace(",", "") for f in _FIGURE.findall(norm))
    return _Marks(value, stems, figures, person, raw)


def _change_near(norm: str, spans: list[tuple[int, int]], marks: _Marks, *, endings: bool = True) -> bool:
    """Whether the line says, just after one of the places it names the subject, that the thing ends ("Tariq will
    stand down as …", "영어회화 기초반은 이번 학기에 열지 않습니다"), or that its value changes ("Lou's hours shift to
    9.30–2.30", "Family £26 → £28") with a word or figure of the value beside the word of change; or says so just before
    the name ("covering for Chloe"). Without `endings`, only a change of value counts."""
    for found in (*(_ENDS.finditer(norm) if endings else ()), *_CHANGES.finditer(norm)):
        ends = found.re is _ENDS
        # Korean says who ends right after the name ("한지수 팀장 육아휴직 예정"), not a clause later ("윤도경 국장은
        # … 순환 휴직 계획을 …")
        span = _KO_ENDS_SPAN if ends and re.match("[가-힣]", found.group()) else _CHANGE_SPAN
        # a change past a comma is another item's ("Graham Pellow (Chair), …, Priya Raman (Acting Treasurer)")
        apart = _SENTENCE_END if ends else _CLAUSE_END
        # … and a table's next cell is another item too ("| 17-22: Sophie, Marco | … | Callum's LAST SHIFT |"),
        # unless the name heads the row ("| Imogen Vance | Branch Manager | leaving - last day 30 April |")
        near = any(
            (
                0 <= found.start() - end <= span
                and not apart.search(_BRACKETED.sub("", norm[end : found.start()]))
                and ("|" not in norm[end : found.start()] or _heads_row(norm, start))
            )
            or ((not ends or found.group().startswith("前")) and 0 <= start - found.end() <= _CHANGE_BEFORE)
            for start, end in spans
        )
        if not near:
            continue
        around = norm[max(0, found.start() - _CHANGE_SPAN) : found.end() + _CHANGE_SPAN]
        before, after = norm[max(0, found.start() - _NEGATION_CHARS) : found.start()], norm[found.end() :]
        if _DENIED_BEFORE.search(before) or _DENIED_AFTER.match(after):
            continue  # "no change to", "변경 없음"
        if found.group() in _ARROWS and _figured(after, marks) and not _figured(norm[: found.start()], marks):
            continue  # "파이썬 중급 210,000원 → 220,000원" of 220,000원: the value is the new one
        if ends or _has_any(around, marks.stems) or _has_bare_figure(around, marks):
            return True
    return False


def _signed_with(text: str, line: str, title: str) -> bool:
    """Whether a sign-off line of a name ("Rachel") is followed by a line opening with the title ("Bookings &
    Reception Manager"): a letter signed with her title."""
    lines = text.split("\n")
    for i, own in enumerate(lines[:-1]):
        if own.strip() == line.strip() and normalize(lines[i + 1]).startswith(title):
            return True
    return False


def _initials(words: list[str]) -> str:
    """The first letters of a title's words, as written ("GLV" of "Group Lead Volunteer")."""
    return "".join(w[0] for w in words)


def _heads_row(norm: str, start: int) -> bool:
    """Whether a name written at `start` is in the first cell of a table row."""
    row = norm.lstrip()
    return row.startswith("|") and "|" not in norm[norm.index("|") + 1 : start]


def _figured(norm: str, marks: _Marks) -> bool:
    """Whether a part of a line writes the value whole or its figures ("220,000원")."""
    return (bool(marks.figures) and _has_figure(norm, marks.figures)) or (bool(marks.whole) and marks.whole in norm)


#: The arrows `_CHANGES` reads between an old value and a new one.
_ARROWS = frozenset({"→", "->", "⇒"})


def _figures_at(plain: str, figure: str) -> Iterator[re.Match[str]]:
    """Where a line (its commas removed) writes a figure as a number of its own ("8", not the 8 of "18" or "8.5")."""
    return re.finditer(rf"(?<![\d.,:]){re.escape(figure)}(?!\d)", plain)


def _has_bare_figure(norm: str, marks: _Marks) -> bool:
    """Whether a line writes a figure of the value bare, or with the value's own unit: "(currently 8)" of 8 places,
    not "1팀" of "1시간 30분"."""
    plain = norm.replace(",", "")
    units = [m.replace(",", "") for m in marks.figures if not m.isdigit()]  # "1시간", "30분": with their units
    for figure in marks.raw:
        for found in _figures_at(plain, figure):
            unit = re.match(r" ?([가-힣]+|[a-z]+)", plain[found.end() :])
            if unit is None or not units or any(f"{figure}{unit.group(1)}".startswith(m) for m in units):
                return True
    return False


def _has_figure(norm: str, figures: frozenset[str]) -> bool:
    plain = norm.replace(",", "")
    return any(next(_figures_at(plain, f), None) is not None for f in figures)


def _has_any(norm: str, stems: set[str] | frozenset[str]) -> bool:
    return any(_said(stem, norm) for stem in stems)


def _said(stem: str, norm: str) -> bool:
    """Whether a line writes a stem: a Korean one anywhere, a Latin one as a word with a short ending ("chaired",
    "trustees"; not "bar" in "barbecue")."""
    if re.match("[가-힣]", stem):
        return stem in norm
    return re.search(rf"(?<![a-z]){re.escape(stem)}[a-z]{{0,{_ENDING_CHARS}}}(?![a-z])", norm) is not None


def _shares(norm: str, marks: _Marks) -> bool:
    """Whether a line has a content word or a figure of the value."""
    return _has_any(norm, marks.stems) or _has_figure(norm, marks.figures)


def _whole_told(marks: _Marks) -> bool:
    """Whether the value, written whole beside the subject, states the fact: with a figure, of two words or more,
    or a person's full name ("Office" beside a name may be another thing's)."""
    return len(marks.whole) >= _NAME_CHARS and bool(marks.figures or marks.person or len(marks.whole.split()) >= 2)


def _states_whole(norm: str, marks: _Marks) -> bool:
    """Whether a line writes the value whole: its text (with a figure, of two words or more, or a person's full
    name), or every content word of a value of two or more."""
    if _whole_told(marks) and re.search(rf"(?<![\w]){re.escape(marks.whole)}(?!\w)", norm):
        return True
    return len(marks.stems) >= 2 and all(_said(stem, norm) for stem in marks.stems)
