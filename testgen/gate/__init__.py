"""The quality gate: named checks every candidate passes before it is kept (precision over recall).

Each check looks for one way a generated item goes wrong on real corpora and gives a named reason; the reason is
counted in the build summary (``rejected``), so a shortfall says what was dropped and why. The checks, one
module each:

=============================  ====================================================================================
reason                         what it drops
=============================  ====================================================================================
``placeholder_value``          blanks, marks and debris as answers or keywords (``[Number]``, ``XXXX``, ``✓``)
``incomplete_value``           a value that lost its qualifier, sign, unit, range or year, or was cut out of a clause
``descriptive_value``          a description, instruction or sentence asked as "what is X's <label>?"
``pasted_label``               a cell, time slot, month, variant column or row text used as the attribute
``opaque_label``               a "Notes"/"비고" column asked as if it named a property
``wh_mismatch``                a question word that does not fit the answer (a phone number asked with "who")
``ambiguous_key``              a subject + attribute with several values in the KB
``ubiquitous_bridge``          a bridge or relation end in many documents, a number/contact/heading, or page-less
``sentence_not_standalone``    a prose sentence that needs the text around it, or a question that misreads it
``file_name_subject``          a file name, slug or address where a name belongs
``document_subject``           a document's title as the owner of a fact, or a document's own fact given to a heading
``incomplete_aggregate``       a count or extreme that does not read every document of its kind
``boilerplate_value``          a phone number, e-mail or web address printed on many pages, asked as one page's fact
``weak_keyword``               keywords a wrong answer holds too: one digit, or words of another value of the label
=============================  ====================================================================================

`Gate.check` runs them on a draft (with the knowledge graph at hand); `item_flags` runs the ones that need only
the finished item, for sets made elsewhere (``testgen audit``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise
from typing import NamedTuple

from schemas import FactNode, TestQuestion
from testgen.corpus import ROOT_TYPE
from testgen.gate.aggregates import aggregate_problem
from testgen.gate.bridges import BridgeIndex
from testgen.gate.keys import KeyIndex, namesake_value, person_namesakes, priced_again, priced_otherwise
from testgen.gate.labels import (
    CONTACT_VALUE,
    PROPERTY_HEADS_EN,
    bare_label,
    count_label,
    label_for_value,
    opaque_label,
    pasted_label,
    pasted_punctuation,
    tier_word,
    unnamed_property,
    untimely_label,
)
from testgen.gate.names import (
    DOCUMENT_WORDS,
    day_dated,
    document_kind,
    document_owned,
    document_subject,
    file_name_problem,
    file_stem_title,
    meta_asked_of_another,
    minutes_date,
    organisation_measure,
    rule_words,
)
from testgen.gate.sentences import (
    answer_problem,
    changed_later,
    question_problem,
    standalone_problem,
    words_problem,
)
from testgen.gate.values import clause_pick, descriptive_value, incomplete_value, is_placeholder, row_condition
from testgen.gate.versions import Versions
from testgen.gate.wh import wh_mismatch
from testgen.kg.mining import row_in_label, row_label, table_cells, table_top
from testgen.kg.values import clock_times, find_values, parse_number
from testgen.lang import DAYS, is_contact_value, ko
from testgen.lang.en import is_person_name as en_person_name
from testgen.lang.ko import is_person_name as ko_person_name
from testgen.names import (
    introduced_name,
    is_generic_title,
    is_usable_name,
    name_problems,
    page_kind_title,
    short_title,
    title_core,
    without_parentheticals,
    without_trailing_note,
)
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft
from testgen.text import contains_keyword, is_cjk, normalize

__all__ = ["REASONS", "SINGLE_FACT", "Gate", "GateFailure", "item_flags"]

REASONS = (
    "placeholder_value",
    "incomplete_value",
    "descriptive_value",
    "pasted_label",
    "opaque_label",
    "wh_mismatch",
    "ambiguous_key",
    "ubiquitous_bridge",
    "sentence_not_standalone",
    "file_name_subject",
    "document_subject",
    "incomplete_aggregate",
    "boilerplate_value",
    "weak_keyword",
)
#: Last words that make a phrase of common words the name of a document ("Fleet Discount Policy").
_DOCUMENT_KINDS = frozenset(
    "policy policies guide handbook manual agreement contract plan program programme procedure procedures "
    "regulation regulations rules charter report faq terms code standard standards act".split()
)
#: Abstract nouns that end the title of a page about a topic ("… Accreditation Status", "Special Assistance").
_TOPIC_NOUNS = frozenset(
    "status information assistance services programs programmes options details procedures guidelines "
    "affiliations requirements benefits overview support eligibility fees rates charges prices pricing tariffs "
    "terms conditions".split()
)
#: A year or a span of years closing a page's title ("2024/25", "FY2024", "2023-2024").
_TITLE_PERIOD = re.compile(r"\(?(?:fy)?\d{4}(?:\s*[/–-]\s*\d{2,4})?\)?", re.I)
#: The row-label header of a table whose rows are the page subject's partners.
_COUNTERPARTY = re.compile(
    r"(?:partner(?: institution| university| school| company| organi[sz]ation)?|client|customer|affiliate|sponsor|"
    r"supplier|vendor|collaborator)s?(?: name)?|협력 ?기관|제휴처|파트너|고객사|合作(?:伙伴|院校|机构)|提携先",
    re.I,
)
#: What a partner has of its own, whatever table names it.
_OWN_PLACE = re.compile(
    r"country|city|location|address|website|region|state|nation|국가|도시|위치|주소|国家|城市", re.I
)
#: Pages printing one contact value before it is boilerplate rather than one page's fact.
_BOILERPLATE_PAGES = 3
#: Categories whose item asks one fact.
SINGLE_FACT = frozenset({"direct_fact", "temporal", "numerical"})
#: Other pages with a table row or heading of a page-less row's name before a question must say which table it means.
_SHARED_ROW_PAGES = 3
_LABELLED = frozenset({"key_value", "table", "timeline", "llm"})


class GateFailure(NamedTuple):
    """The named check that failed and what it saw."""

    reason: str
    detail: str


_fail = GateFailure


class Gate:
    """The checks, with the per-KB indexes they need (built once per run)."""

    def __init__(self, ctx: GenContext) -> None:
        self.ctx = ctx
        self.keys = KeyIndex(ctx.facts)
        self.bridges = BridgeIndex(ctx)
        self.versions = Versions(ctx)
        # Names of things: a column headed by one ("| Model | Base | ZX |", "One Series") is a variant, not a property.
        self.names = {normalize(n) for e in ctx.entities.values() for n in (e.name, *e.aliases)}
        self._common: dict[str, bool] = {}
        self._topics: dict[str, str] = {}
        self._dated: dict[str, list[tuple[str | None, str, frozenset[str]]]] = {}
        self._rows: dict[str, set[str]] = {}
        self._rule_titles: list[tuple[str, str, frozenset[str]]] | None = None  # folder, title, `rule_words`
        self._revisions: dict[str, list[tuple[str, str, str]]] = {}  # folder → `_revision_lines`
        self._name_words: set[str] | None = None
        self._namesakes: dict[str, str] | None = None
        self._by_label: dict[str, set[str]] | None = None
        self._changed: dict[str, str | None] = {}  # fact id → a line saying its amount changed
        self._changes: dict[str, list[tuple[str, str | None, str]]] = {}  # folder → `_folder_changes`
        self._posts: dict[str, list[FactNode]] | None = None  # person entity → the facts naming her a post's holder

    def check(self, draft: Draft, *, rewritten: bool = False) -> GateFailure | None:
        """The first check the draft fails, or None when it passes them all.

        A `rewritten` draft (an LLM's wording of an offline seed) skips the checks that read the offline
        phrasing rules' own output (how a sentence was inverted into a question); the seed passed them."""
        for check in (
            self._names,
            self._values,
            self._conditions,
            self._boilerplate,
            self._labels,
            self._on_a_day,
            self._quantities,
            self._sentences,
            self._keys,
            self._links,
            self._keywords,
        ):
            if rewritten and check == self._sentences:
                continue
            failure = check(draft)
            if failure is not None:
                return failure
        return None

    # -- the checks, in the order a reader would spot the problem ---------------------------------
    def _mention(self, draft: Draft) -> GateFailure | None:
        """A relation told by a mention ("온담리빙과 관련된 조직은 조직도 및 내선번호입니다"): a page a home page links
        to is no related thing, and a folder that names no kind reads as debris ("…와 관련된 'IT' 항목")."""
        if "mention" not in draft.template:
            return None
        for fact in draft.facts:
            if document_subject(fact.value) or document_kind(fact.value) or page_kind_title(fact.value):
                return _fail("document_subject", f"'{fact.value[:40]}' is a page, not a thing related to another")
        if re.search(r"'[^']+' 항목", draft.question):
            return _fail("pasted_label", "a folder's name pasted as the kind of thing asked for")
        return None

    def _names(self, draft: Draft) -> GateFailure | None:
        problem = file_name_problem(draft.question)
        if problem:
            return _fail("file_name_subject", problem)
        if _open_bracket(draft.question):
            # "… of the turnaround times (internal version?": a title cut inside its brackets
            return _fail("pasted_label", "a bracket left open in the question")
        question = normalize(draft.question)
        for fact in draft.facts:
            failure = self._kind_page(fact, question) or self._subject_name(fact, question)
            if failure:
                return failure
        mention = self._mention(draft)
        if mention:
            return mention
        for fact in draft.facts:
            # the document is named by its title, or by the heading the fact sits under ("# Cendara University /
            # ## Professional Development Policy / Effective Date: …" is the policy's date)
            document = f"{self.ctx.docs[fact.doc_id].title} / {fact.context or ''}"
            if fact.source in _LABELLED and organisation_measure(fact.attribute, document, fact.subject):
                return _fail("document_subject", f"'{fact.attribute[:30]}' measures a thing, not {fact.subject[:30]}")
            if fact.source in _LABELLED and minutes_date(fact.attribute, self.ctx.docs[fact.doc_id].title):
                return _fail("document_subject", "the date a meeting's minutes open with, not a fact of its subject")
            if fact.source in _LABELLED and document_owned(fact.attribute, document, fact.subject):
                return _fail(
                    "document_subject", f"'{fact.attribute[:30]}' belongs to the document, not to {fact.subject[:30]}"
                )
            if (
                document_kind(short_title(fact.subject))
                and _CONTACT_ATTRIBUTE.search(fact.attribute)
                and is_contact_value(fact.value)
            ):
                # "보증 및 A/S 정책의 전화는 …": a policy has no phone; whoever runs it does
                return _fail("document_subject", f"a contact on a document's page, not {fact.subject[:30]}'s own")
            title = introduced_name(short_title(fact.subject))
            if fact.source in _LABELLED and meta_asked_of_another(fact.attribute, fact.subject, draft.question):
                # "Booking and Cancellation Policy – Brackenfield Sports Hall / Version: 3.1": the policy's version,
                # asked by the hall's name it would be the hall's
                return _fail("document_subject", f"'{fact.attribute[:30]}' is the document's, asked as {title[:30]}'s")
            if (
                fact.source == "sentence"
                and draft.language == "ko"
                and document_kind(title)
                and re.match(rf"{re.escape(normalize(title))}\s?[은는이가]\s", normalize(draft.question))
            ):
                # "주차장 운영 규정은 신고하지 않으면 …": a rule's sentence asked with the rule as its subject
                return _fail("document_subject", f"a document as the sentence's subject: {title[:30]}")
            if _PERIOD_END.search(introduced_name(fact.subject)) and _STANDING_LABEL.search(fact.attribute):
                # "누리담저축은행 2025년 2분기의 본점 소재지": the bank's head office, not the quarter's
                return _fail("document_subject", f"a standing fact given to a period's report: {fact.subject[:30]}")
            room = _room_section(fact, draft.question)
            if room:
                # "## 학과 사무실 / - 위치: 공학관 3층 305호" places the department's office, not the department
                return _fail("document_subject", f"the location of '{room[:30]}', not of {fact.subject[:30]}")
        for fact in draft.facts:
            if _row_after_long_title(fact, draft.question, draft.language):
                return _fail("pasted_label", f"a table row glued to the page's title '{fact.subject[:30]}'")
            row = _row_label(fact)
            if row:
                return _fail("document_subject", f"the row '{row[:30]}' owns the value, not {fact.subject[:30]}")
            topic = self._subtitle_topic(fact)
            if topic:
                return _fail("document_subject", f"the page is about '{topic[:30]}', not {fact.subject[:30]}")
            if self._of_the_partnership(fact):
                return _fail(
                    "document_subject", f"'{fact.attribute[:30]}' tells the partnership, not {fact.subject[:30]}"
                )
        for fact in draft.facts:
            # by its short title too: "API reference — Bookings" is asked as "the API reference"; and as the question
            # writes it, without a post's tag or a bracket ("[공지] … 변경 안내", "… 자주 묻는 질문(FAQ)")
            shorter = {fact.subject, short_title(fact.subject)}
            # "Bramley Green Playgroup News – Spring Term 2025": the issue's title names the newsletter by its short one
            issue = document_subject(fact.subject) and _NEWS_NAME.search(short_title(fact.subject)) is not None
            for name in shorter | {without_parentheticals(introduced_name(n)) for n in shorter}:
                if (document_subject(name) or issue) and normalize(name) in question:
                    return _fail("document_subject", name[:40])
            part = _heading_date(fact, question)
            if part:
                return _fail("document_subject", f"'{part[:30]}' dates the heading '{fact.subject[:30]}'")
        return None

    def _subject_name(self, fact: FactNode, question: str) -> GateFailure | None:
        """Whether the question names the fact's subject by something that is no name: a file name, a common word,
        a page's topic or kind, a headline, a file's name with its date or version."""
        title = self.ctx.docs[fact.doc_id].title
        if _named_by_title(title, question) and file_stem_title(title, fact.doc_id):
            # "원데이 7월 일정 최종2", "fees 2024-25": a page with no heading of its own, called by its file's name
            return _fail("file_name_subject", f"'{title[:30]}' is the file's name, with its date or version")
        entity = self.ctx.entities.get(fact.subject_entity or "")
        names = {fact.subject, short_title(fact.subject), entity.name if entity else ""}
        for name in names | {introduced_name(n) for n in names if n}:
            if not name or normalize(name) not in question:
                continue
            if not is_usable_name(name):
                return _fail("file_name_subject", f"{name[:40]}: {', '.join(name_problems(name))}")
            if self._common_word(name) or tier_word(name):
                return _fail("file_name_subject", f"'{name[:30]}' is a common word here (a table row), not a name")
            if _BARE_CODE.fullmatch(name.strip()) and fact.source == "table":
                # "What are CH1's customers?": a register's row code, not what anyone calls the thing
                return _fail("file_name_subject", f"'{name[:30]}' is a row's code, not a name")
            if self._topic_title(name):
                return _fail("document_subject", f"'{name[:40]}' is the title of a page about a topic")
            if page_kind_title(name):
                return _fail("document_subject", f"'{name[:40]}' names a kind of page, not a thing")
            if fact.source == "sentence" and re.search(r"[\"“”…]", name):
                # '"빛으로 잇는 갈대의 길" … 축제 17일 개막': a press release's headline, not what it is about
                return _fail("document_subject", f"'{name[:40]}' is a headline, not a name")
        return None

    @staticmethod
    def _kind_page(fact: FactNode, question: str) -> GateFailure | None:
        """ "정비사는 …" of "정비사 소개": the page introduces a kind of staff or body; which 정비사 is asked about?"""
        page = short_title(fact.subject)
        if "kind" in name_problems(page) and normalize(introduced_name(page)) in question:
            return _fail("file_name_subject", f"'{page[:30]}' introduces a kind of staff or body, not one")
        return None

    def _of_the_partnership(self, fact: FactNode) -> bool:
        """A column of a table of the page's partners (clients, sponsors, suppliers) that tells the partnership, not
        the partner: "| Partner Institution | Country | Type of Collaboration | Key Areas |" — "What are Victoria
        State University's key areas?" asks the exchange's areas as the university's own. Where a partner is
        (country, city, address, website) is its own."""
        if fact.source != "table" or _OWN_PLACE.search(fact.attribute):
            return False
        chunk = self.ctx.chunks.get(fact.chunk_id)
        if chunk is None:
            return False
        lines = chunk.text.splitlines()
        row = next((i for i, line in enumerate(lines) if line.strip() == fact.evidence.strip()), None)
        if row is None:
            return False
        first = table_cells(lines[table_top(lines, row)])[0].strip(" *")
        return _COUNTERPARTY.fullmatch(first) is not None

    def _common_word(self, name: str) -> bool:
        """Whether `name` is a Latin word, or a short phrase of them, that the KB also writes in lower case
        ("Parking", "Tablets", "Battery Replacement", "Warranty & Service": a table row or a topic page, not the
        name of a thing). A phrase ending in a kind of document ("Fleet Discount Policy") is a name."""
        words = [w for w in re.split(r"\s+(?:&|and|of)\s+|\s+", name.strip()) if w]
        if len(words) == 1:
            return self._lower_word(words[0])
        if not 2 <= len(words) <= 4 or words[-1].lower() in _DOCUMENT_KINDS:
            return False
        return all(re.fullmatch(r"[A-Z][a-z]{2,}", w) for w in words) and all(self._lower_word(w) for w in words)

    def _name_word(self, word: str) -> bool:
        """A capitalised word of the names of things that the KB never writes in lower case ("Cendara")."""
        if self._name_words is None:
            self._name_words = {
                w for e in self.ctx.entities.values() for w in e.name.split() if re.fullmatch(r"[A-Z][a-z]{3,}", w)
            }
        # a word that names a property ("Email" of a contact table's row) is no name, however the KB writes it
        return word in self._name_words and not self._lower_word(word) and word.lower() not in PROPERTY_HEADS_EN

    def _subtitle_topic(self, fact: FactNode) -> str | None:
        """The topic a page's subtitle names when the fact was given to the name before it: under "ZX Bank Ltd. –
        Current Account Overview" a "Coverage amount" is the current account's, not the bank's. The subtitle, less
        its document words, is a topic when the page's text names it again at least twice and it is no entity's
        name ("Airbus A350 – CloudWay 24 Fleet Overview" is the aircraft's page)."""
        if fact.source not in _LABELLED:
            return None
        title = self.ctx.docs[fact.doc_id].title
        head = short_title(title)
        if head == title.strip() or normalize(head).rstrip(".") != normalize(fact.subject).rstrip("."):
            return None
        if fact.doc_id not in self._topics:
            self._topics[fact.doc_id] = self._page_topic(fact.doc_id, title[len(head) :])
        return self._topics[fact.doc_id] or None

    def _page_topic(self, doc_id: str, subtitle: str) -> str:
        rest = " ".join(re.sub(r"^[\s\-–—|:：]+", "", DOCUMENT_WORDS.sub(" ", subtitle)).split()).strip(" &,-–—")
        if not re.search(r"[^\W\d_]{3,}", rest) or normalize(rest) in self.names:
            return ""
        pattern = re.compile(rf"(?<![\w]){re.escape(normalize(rest))}(?![\w])")
        body = " ".join(normalize(c.text) for c in self.ctx.chunks_by_doc.get(doc_id, []))
        return rest if len(pattern.findall(body)) >= 3 else ""  # the title's own line is one of them

    def _topic_title(self, name: str) -> bool:
        """Whether a name is a page's title about a topic of something named in it: "Cendara University
        Accreditation Status", "Special Assistance at CloudWay 24" — common words ending in an abstract noun,
        before or after the name of what they are about."""
        for part in re.split(r"\s+(?:at|for)\s+", name.strip()):
            words = part.split()
            while words and _TITLE_PERIOD.fullmatch(words[-1]):
                words.pop()  # "Planning Application Fees 2024/25": the year the page is for
            tail: list[str] = []
            for word in reversed(words):  # the run of common words at the end of the part
                topic = not tail and word.lower() in _TOPIC_NOUNS  # a topic noun is a common word wherever it is
                if not (topic or word == "&" or (word.isalpha() and word.islower()) or self._lower_word(word)):
                    break
                tail.insert(0, word)
            if len(tail) >= 2 and tail[-1].lower() in _TOPIC_NOUNS:
                return True
        return False

    def _lower_word(self, word: str) -> bool:
        """Whether one capitalised Latin word is also written in lower case in running text; once per word."""
        if not re.fullmatch(r"[A-Z][a-z]{2,}", word):
            return False
        if word not in self._common:
            # written in running text, not inside a web address, a path or an e-mail ("…-across-india)")
            lower = re.compile(rf"(?<![\w./@:\-]){re.escape(word.lower())}(?![\w@/\-])(?!\.\w)")
            self._common[word] = any(
                lower.search(self.ctx.chunks[c].text) for c in sorted(self.ctx.chunks_with(word.lower()))
            )
        return self._common[word]

    @staticmethod
    def _values(draft: Draft) -> GateFailure | None:
        for text in [*draft.keywords, *draft.answer_spans]:
            if is_placeholder(text):
                return _fail("placeholder_value", text[:40])
        if draft.category in SINGLE_FACT and len(draft.facts) == 1 and draft.facts[0].value_type == "text":
            problem = descriptive_value(draft.facts[0].value)
            if problem and draft.facts[0].source in _LABELLED:
                return _fail("descriptive_value", problem)
        if draft.category != "relationship" and any(clause_pick(f) for f in draft.facts):
            # "Member Coverage: supports up to 50,000 members … currently covers 38,000": which is compared?
            return _fail("incomplete_value", "a value picked out of a longer clause (the label names the clause)")
        answer_values = {normalize(s) for s in draft.answer_spans}
        answer = normalize(draft.reference_answer)
        for fact in draft.facts:
            # the answer's own value, and each input a sum, a difference or a comparison quotes ("X (4850mm) is
            # 200 mm longer …" from "Length: ~4850mm" states an estimate as exact)
            if normalize(fact.value) in answer_values or normalize(fact.value) in answer:
                lost = incomplete_value(fact, draft.reference_answer)
                if lost:
                    return _fail("incomplete_value", lost)
        return None

    def _conditions(self, draft: Draft) -> GateFailure | None:
        """A single value whose table row notes whom or when it applies to ("Hybrid and remote staff only"): the
        answer would state it for everyone."""
        if draft.category not in SINGLE_FACT or len(draft.facts) != 1:
            return None
        fact = draft.facts[0]
        chunk = self.ctx.chunks.get(fact.chunk_id)
        note = row_condition(fact, chunk.text, chunk.start) if chunk is not None else None
        if note and normalize(note) not in normalize(draft.reference_answer):
            return _fail("incomplete_value", f"the row notes a condition the answer leaves out: '{note[:40]}'")
        if fact.source in ("sentence", "key_value"):
            rest, _, following = self._paragraph_after(fact).partition("\n")
            if _EXCEPTION_NEXT.match(rest) or _EXCEPTION_NEXT.match(following.split("\n", 1)[0]):
                # "… 시점과 관계없이 전액 환불합니다. (단, 이용일 3일 전 이후에 한 예약은 제외)": the rule has an
                # exception the answer would leave out
                return _fail("incomplete_value", "the next words make an exception ('단, …', 'except …')")
        return None

    def _keywords(self, draft: Draft) -> GateFailure | None:
        """Keywords that a right answer does not write, an amount as a spreadsheet exports it ("580000"), or that
        cannot tell a right answer from a wrong one: a single digit ("3" is in nearly any answer), or words that
        another subject's value of the same label holds whole ("Lecturer" is in "Senior Lecturer",
        "교수" in "부교수"), so an answer naming the wrong value covers every keyword."""
        # "580000" of a spreadsheet's fee column: a right answer writes "580,000원" or "58만 원", never the bare figure
        amounts = {re.sub(r"\D", "", f.value) for f in draft.facts if f.value_type == "money"}
        bare = next((k for k in draft.keywords if _BARE_FIGURE.fullmatch(k.strip()) and k.strip() in amounts), None)
        if bare is not None:
            return _fail("weak_keyword", f"'{bare}' is a spreadsheet's bare figure: a right answer writes it grouped")
        if draft.category not in SINGLE_FACT or len(draft.facts) != 1 or not draft.keywords:
            return None
        if all(re.fullmatch(r"\d", normalize(k)) for k in draft.keywords):
            return _fail("weak_keyword", f"'{draft.keywords[0]}' is one digit: nearly any answer holds it")
        singles = [k for k in draft.keywords if len(normalize(k).strip()) == 1 and is_cjk(k)]
        single = singles[0] if len(singles) == 1 else None
        if single is not None:
            # "일" (Sunday) or "토" of "월~금 / 토": one syllable is in nearly any Korean answer (two, "화" and "목",
            # tell two days together)
            return _fail("weak_keyword", f"'{single}' is one character: nearly any answer holds it")
        clause = next((k for k in draft.keywords if _ko_clause(k)), None)
        if clause is not None:
            # "이름을 쓰거나 사용한 뒤에는 환불 불가": a rule's whole cell, which a right answer words its own way
            return _fail("weak_keyword", f"'{clause[:30]}' is a clause: a right answer words it otherwise")
        fact = draft.facts[0]
        own = normalize(fact.value)
        label = normalize(fact.attribute)
        values = self._label_values()
        # a table row's label carries its row ("오민재 직위"): its column's last word ("직위") groups the column
        siblings = values.get(label, set()) | (
            values.get(label.split()[-1], set()) if fact.source == "table" else set()
        )
        keys = [normalize(k) for k in draft.keywords]
        for other in sorted(siblings):
            # a substring test first: a common label of a large KB has thousands of values
            if other != own and all(k in other for k in keys) and all(contains_keyword(other, k) for k in keys):
                return _fail("weak_keyword", f"the keywords are also in the value '{other[:30]}' of the same label")
        return None

    def _label_values(self) -> dict[str, set[str]]:
        """Normalised label → the normalised values written under it anywhere in the KB (built once)."""
        if self._by_label is None:
            self._by_label = {}
            for fact in self.ctx.facts:
                if fact.source in _LABELLED:
                    label = normalize(fact.attribute)
                    self._by_label.setdefault(label, set()).add(normalize(fact.value))
                    if fact.source == "table" and " " in label:
                        self._by_label.setdefault(label.split()[-1], set()).add(normalize(fact.value))
        return self._by_label

    def _boilerplate(self, draft: Draft) -> GateFailure | None:
        """A phone number, e-mail or web address printed on many pages (the company's number in every page's
        footer) asked as one page's fact: "What is Aventro Aero's phone?" — the car has no phone, and every page
        that prints the number states the answer."""
        if draft.category not in SINGLE_FACT or len(draft.facts) != 1:
            return None
        value = draft.facts[0].value.strip()
        if not CONTACT_VALUE.search(value):
            return None
        pages = {self.ctx.chunks[c].doc_id for c in self.ctx.chunks_with(value)}
        if len(pages) >= _BOILERPLATE_PAGES:
            return _fail("boilerplate_value", f"'{value[:30]}' is printed on {len(pages)} pages")
        title = self.ctx.docs[draft.facts[0].doc_id].title
        fact = draft.facts[0]
        person = en_person_name(fact.subject) or ko_person_name(fact.subject)
        if fact.source == "key_value" and (document_subject(title) or document_kind(title)) and not person:
            # "Careers at Cendara University / Email: careers@…" is the careers desk's, not the university's (a
            # person's under her heading on "Our team" is hers)
            return _fail("boilerplate_value", f"'{value[:30]}' is the contact of the page '{title[:30]}'")
        return None

    def _labels(self, draft: Draft) -> GateFailure | None:
        if draft.category == "relationship":
            return None  # the attribute is the relation word ("Product", "Manager"), checked by the category
        for fact in draft.facts:
            if fact.source not in _LABELLED or (fact.source == "timeline" and fact.value_type == "date"):
                continue  # a dated event's label is the event itself
            problem = pasted_label(fact.attribute)
            if problem:
                return _fail("pasted_label", problem)
            if fact.source in ("key_value", "table") and _person_as_label(fact.attribute):
                # "- 김도윤 원장 : 월 화 수 목 금" under "[수의사별 진료 요일]": whose days, not a property of the page
                return _fail("pasted_label", f"'{fact.attribute[:30]}' is a person, not a property")
            if fact.qualifier and DAYS.match(normalize(fact.value)) and _dated(fact.qualifier):
                # "| 2025.02.06 | 목 | 1,890,000 |": the weekday of a departure is its date's, nothing to look up
                return _fail("pasted_label", f"the weekday of the dated row '{fact.qualifier[:20]}'")
            if _SHARE_LABEL.fullmatch(normalize(fact.attribute)):
                # "| DVD | 433 | 2.0% |" under "대출 자료 구성": a share of what the table breaks down, unsaid
                return _fail("pasted_label", f"'{fact.attribute[:20]}' is a share of something the label leaves out")
            if fact.qualifier and re.search(r"\d\s*\+", fact.qualifier):
                # a row for an open period ("2028+") pasted as "in 2028+", asked in the past
                return _fail("pasted_label", f"the row '{fact.qualifier[:20]}' is an open period, not a date")
            named = next((w for w in re.findall(r"\b[A-Z][a-z]{3,}\b", fact.attribute) if self._name_word(w)), None)
            if named and fact.source in ("key_value", "table"):
                # "Pontifica Universidad del Sur Country", "Cendara Host Department": a name pasted into the label
                return _fail("pasted_label", f"'{named}' in the label is a name, not part of a property")
            problem = label_for_value(fact)
            if problem:
                return _fail("pasted_label", problem)
            if draft.language == "ko" and _KO_BREAKDOWN.search(fact.attribute):
                # "| 조리원 | 4 |" under "직종별 인원": the table breaks a count down ("조리원의 직종별 인원": pasted)
                return _fail("pasted_label", f"'{fact.attribute[:30]}' names how a table is broken down")
            if draft.language == "ko" and fact.source == "key_value" and _KO_CONDITION_LABEL.search(fact.attribute):
                # "- 그 다음 달부터의 교습비 : 전액 반환": one case of a rule, asked as if it were a property
                return _fail("pasted_label", f"'{fact.attribute[:30]}' holds a condition, not a property")
            row = row_in_label(fact) if fact.source == "table" else None
            if row and _KO_CONDITION_ROW.search(row):
                # "| 개막 이후 | … |" of a refund table: a case of the rule, not a thing it is asked of
                return _fail("pasted_label", f"the row '{row[:20]}' is a condition, not a thing")
            column = fact.attribute[len(row) :].strip().lower() if row else ""
            if column in _QUALIFYING_COLUMNS or _PER_UNIT.fullmatch(fact.value.strip()):
                # "| 팀 참가비 | 300,000원 | 팀당 1시즌 |" under "기준", "| Full kit | £45 | per day |" under "Unit":
                # what the amount is per, alone a cell
                return _fail("pasted_label", f"'{column or fact.value[:20]}' only qualifies the row's other cells")
            problem = _column_problem(fact, row or "", column)
            if problem:
                return _fail("pasted_label", problem)
            if fact.source == "table" and normalize(fact.attribute) in self.names:
                return _fail(
                    "pasted_label", f"'{fact.attribute[:30]}' names a thing (a variant column), not a property"
                )
            if opaque_label(fact.attribute):
                return _fail("opaque_label", fact.attribute[:40])
            if fact.value_type == "date" and count_label(fact.attribute):
                return _fail("wh_mismatch", f"a count under '{fact.attribute[:30]}' read as a year")
            if fact.value_type == "date" and not fact.qualifier and untimely_label(fact.attribute):
                return _fail("pasted_label", f"a date under '{fact.attribute[:30]}', a label about something else")
            if draft.template.split(".")[1:2] in (["compare"], ["extreme"]) and bare_label(fact.attribute):
                return _fail("pasted_label", f"'{fact.attribute[:20]}' alone does not say what is compared")
            if _asks_label_as_noun(draft.template):
                problem = (
                    unnamed_property(fact.attribute, draft.language)
                    if fact.value_type != "date"
                    else pasted_punctuation(fact.attribute)
                    if draft.language in ("en", "ko")
                    else None
                )
                if problem:
                    return _fail("pasted_label", problem)
            elif draft.language in ("en", "ko") and normalize(fact.attribute) in normalize(draft.question):
                # any template that writes the label as it is: "Who is …'s open workshop – thu lead?"
                problem = pasted_punctuation(fact.attribute)
                if problem:
                    return _fail("pasted_label", problem)
        if draft.category in SINGLE_FACT and len(draft.facts) == 1:
            fact = draft.facts[0]
            problem = wh_mismatch(draft.question, fact.value, fact.value_type, draft.language)
            if problem:
                return _fail("wh_mismatch", problem)
        return None

    def _sentences(self, draft: Draft) -> GateFailure | None:
        if ".sentence" not in draft.template:
            return None  # a relation found in prose quotes its sentence; only questions made of one are checked
        for fact in draft.facts:
            if fact.source == "sentence":
                problem = standalone_problem(fact, draft.language) or (
                    words_problem(draft.question, fact.evidence) if draft.template.startswith("en.sentence") else None
                )
                if problem:
                    return _fail("sentence_not_standalone", problem)
                if not self._names_a_thing(draft.question, fact):
                    # "일반 판매분만 보면 언제 이용객은 …": whose users? The sentence leaned on its page for them.
                    return _fail("sentence_not_standalone", "the question names no subject and no named thing")
                if changed_later(fact, self._paragraph_after(fact), draft.language):
                    return _fail("ambiguous_key", "the next sentence changes the value ('… was raised to …')")
                other = self._told_otherwise(fact)
                if other:
                    return _fail("ambiguous_key", f"another page says the same with {other[:20]}")
        problem = question_problem(draft.question, draft.template) or answer_problem(
            draft.reference_answer, draft.template
        )
        return _fail("sentence_not_standalone", problem) if problem else None

    def _told_otherwise(self, fact: FactNode) -> str | None:
        """Another figure in the same words around it, anywhere in the KB ("적격자가 800명을 넘으면" in the first
        notice, "적격자가 1,000명을 넘으면" after the change): the figure the sentence gives is one of several; the
        other figure, or None."""
        if fact.number is None or "…" not in fact.attribute:
            return None
        before, after = fact.attribute.split("…", 1)
        left, right = before.split()[-2:], after.split()[:2]
        if len(re.sub(r"\W", "", "".join(left + right))) < _FRAME_CHARS:
            return None
        figure = re.sub(r"\d[\d,.]*", r"\\d[\\d,.]*", re.escape(fact.value))
        pattern = re.compile(
            r"\s+".join(map(re.escape, left)) + r"\s*(" + figure + r")\s*" + r"\s+".join(map(re.escape, right))
        )
        for chunk_id in sorted(self.ctx.chunks_with(" ".join(w for w in left + right if len(w) >= 2))):
            for found in pattern.finditer(self.ctx.chunks[chunk_id].text):
                if found.group(1) != fact.value:
                    return found.group(1)
        return None

    def _names_a_thing(self, question: str, fact: FactNode) -> bool:
        """Whether a question made of a sentence names its subject or some other thing the KB names."""
        asked = normalize(question)
        entity = self.ctx.entities.get(fact.subject_entity or "")
        own = {fact.subject, short_title(fact.subject), *((entity.name, *entity.aliases) if entity else ())}
        own |= {introduced_name(name) for name in own if name}
        if any(name and normalize(name) in asked for name in own):
            return True
        opening = fact.evidence.replace("**", "").split()[:1]  # capitalised only because it began the sentence
        if any(w not in opening for w in re.findall(r"(?<=\s)[A-Z][\w.-]*[A-Za-z0-9]", question)):
            return True  # a capitalised word past the first names something ("When did Remedy sign …", "CDC")
        return any(len(name) >= 2 and name in asked for name in self.names)

    def _paragraph_after(self, fact: FactNode) -> str:
        """The text of the fact's chunk after its evidence, to the end of the paragraph."""
        chunk = self.ctx.chunks.get(fact.chunk_id)
        if chunk is None:
            return ""
        rest = chunk.text[max(fact.end - chunk.start, 0) :]
        return rest.split("\n\n", 1)[0]

    def _keys(self, draft: Draft) -> GateFailure | None:
        # Every structured fact the item rests on: a comparison or a count over a subject whose attribute has
        # two values is as ambiguous as a direct question about it.
        for fact in draft.facts:
            if self.keys.ambiguous(fact, draft.question):
                return _fail("ambiguous_key", f"{fact.subject[:30]} / {fact.attribute[:30]}")
            if fact.value_type == "number" and day_dated(fact.doc_id) and not _names_a_date(draft.question):
                # "How many hours does Sam work?" from "rota_wc_03-03-2025": that week's figure, and the question
                # does not say which week
                return _fail("ambiguous_key", "a figure of a page dated to one day or week, asked without the date")
            later = self.versions.later(fact.doc_id)
            if later:
                # "price_list_2024.csv" beside "Price List 2025 v2 FINAL.csv": the older list's answer is stale
                return _fail("ambiguous_key", f"a later version of the page: '{later[:40]}'")
            fuller = self.keys.fuller_label(fact) if draft.category in SINGLE_FACT else None
            if fuller:
                return _fail("ambiguous_key", f"asked by its fuller label '{fuller[:30]}'")
            twin = self.keys.bracketed_twin(fact, draft.question) if draft.category in SINGLE_FACT else None
            if twin:
                return _fail("ambiguous_key", f"the bracket tells it from '{twin[:30]}', the question does not")
            if draft.category in (*SINGLE_FACT, "comparative") and self._shared_row(fact, draft.question):
                return _fail("ambiguous_key", f"'{fact.subject[:30]}' is a row of tables on several pages")
            revised = None if _VERSION_ASKED.search(draft.question) else self._rule_revised(fact)
            if revised is not None:
                # "보강 및 환불 규정은 언제부터 시행되나요?" when a notice of the folder changes the rule from March
                return _fail("ambiguous_key", f"a page of the folder changes the rule: '{revised[:50]}'")
            other = self._rule_elsewhere(fact, draft.question)
            if other is not None:
                # "예약 및 환불 규정은 언제부터 시행되나요?" when another business of the KB has "예약·취소·환불 규정"
                return _fail("ambiguous_key", f"another body's rule is titled alike: '{other[:40]}'")
            ending = _row_ends(fact)
            if ending:
                # "| Hillside Junior School | … | Mon, Tue, Thu | ENDS 25 July 2025 - not offered from Sept |": the
                # row's own note says the thing ends, so its days answer only until then
                return _fail("ambiguous_key", f"the row says it ends: '{ending[:40]}'")
            other = self._dated_again(fact)
            if other:
                return _fail("ambiguous_key", f"the page dates the same event again: '{other[:40]}'")
            changed = (
                self._changed_elsewhere(fact)
                or self._changed_as_asked(fact, draft.question)
                or self._hours_changed(fact)
                or self._changed_under_its_label(fact)
                or self._amount_arrowed(fact)
            )
            if changed:
                return _fail("ambiguous_key", f"a page says it changed: '{changed[:50]}'")
            namesake = namesake_value(self.ctx, fact) or self._namesake_of(fact.subject_entity, draft.question)
            if not namesake and fact.value_entity:
                namesake = self._namesake_of(fact.value_entity, draft.question)
            if namesake:
                return _fail("ambiguous_key", f"a namesake under the same label: {namesake}")
            row = priced_again(self.ctx, fact)
            if row:
                return _fail("ambiguous_key", f"the page's table gives it as one of several prices: '{row[:50]}'")
            row = priced_otherwise(self.ctx, fact)
            if row:
                return _fail("ambiguous_key", f"another page gives the row another price: '{row[:50]}'")
            other = self._another_post(fact)
            if other:
                return _fail("ambiguous_key", f"the person holds another post too: '{other[:50]}'")
        return None

    def _another_post(self, fact: FactNode) -> str | None:
        """Another post a page gives the person whose role the fact is ("Role: Ordinary member" of Bee Okonjo, who a
        guide names "Sewing & embroidery machines Lead steward"): asked "What role did she hold?", the answer is
        incomplete. The other fact's label and value, or None; not a post that names the role ("Secretary: Owen
        Pryce" of his "Role: Secretary")."""
        if not _POST_LABEL.fullmatch(fact.attribute.strip()) or not fact.subject_entity:
            return None
        if self._posts is None:
            self._posts = {}
            for other in self.ctx.facts:
                if other.value_entity and _HOLDER_LABEL.search(other.attribute):
                    self._posts.setdefault(other.value_entity, []).append(other)
        role = normalize(without_trailing_note(fact.value))
        for other in self._posts.get(fact.subject_entity, []):
            label = normalize(other.attribute)
            if role and role not in label and label not in role and other.doc_id != fact.doc_id:
                return f"{other.attribute}: {other.value}"
        return self._listed_otherwise(fact, role)

    def _listed_otherwise(self, fact: FactNode, role: str) -> str | None:
        """Another page's staff list giving the person another post ("**Dave Rowe** – Travel hoist operator (ext
        204)" in the handbook, "Acting Yard Foreman" in the staff table): the line, or None. A post sharing a word
        with the role ("Yard Manager and Health & Safety lead" for "Yard Manager") is the same post told longer."""
        name = fact.subject.strip()
        if not role or not en_person_name(name):
            return None
        listed = re.compile(rf"^\s*(?:[-*+]\s+)?\**{re.escape(name)}\**\s*[–—-]\s*([^(.;,\n]+)", re.M)
        words = {w for w in re.findall(r"\w+", role) if len(w) > 2}
        for chunk_id in sorted(self.ctx.chunks_with(name)):
            if self.ctx.chunks[chunk_id].doc_id == fact.doc_id:
                continue
            for found in listed.finditer(self.ctx.chunks[chunk_id].text):
                other = normalize(found.group(1))
                if other and not words & set(re.findall(r"\w+", other)):
                    return found.group(0).strip()
        return None

    def _quantities(self, draft: Draft) -> GateFailure | None:
        """A count or a comparison made of an identifier or a class ("농가코드 1130 vs 1015", a boat's type "2x" against
        "1x"): the figures are names, not quantities, so neither a difference nor "the higher one" means anything."""
        if draft.category not in ("numerical", "comparative"):
            return None
        for fact in draft.facts:
            words = normalize(without_trailing_note(fact.attribute)).split()
            if words and _IDENTIFIER_LABEL.fullmatch(words[-1]):
                return _fail("pasted_label", f"'{fact.attribute[:30]}' is an identifier or a class, no quantity")
        return None

    def _on_a_day(self, draft: Draft) -> GateFailure | None:
        """ "What days is The Red Lion on?" of a round's "| Client | … | Day |": the day it is cleaned, not a day the
        pub is "on"; a class or session of a timetable is on a day."""
        if len(draft.facts) == 1 and _WHEN_IS_IT_ON.match(draft.question) and not self._an_event_row(draft.facts[0]):
            return _fail("pasted_label", f"'{draft.facts[0].subject[:30]}' is no class or session to be on a day")
        return None

    def _an_event_row(self, fact: FactNode) -> bool:
        """Whether a table fact's row is a class, session or other event: its table's first column (or the second,
        after a code) says so ("Class", "Session", "Group"). A fact not from a table is asked of whatever its page is
        about."""
        chunk = self.ctx.chunks.get(fact.chunk_id)
        if fact.source != "table" or chunk is None:
            return True
        lines = chunk.text.split("\n")
        at = next((i for i, line in enumerate(lines) if line.strip() == fact.evidence.strip()), None)
        if at is None:
            return True
        # the first column, or the second after a code column ("| Code | Class | …")
        return any(_EVENT_COLUMN.search(cell) for cell in table_cells(lines[table_top(lines, at)])[:2])

    def _namesake_of(self, entity_id: str | None, question: str) -> str | None:
        """Another person of the entity's name, told apart by another title ("Robert Chen", Senior Full Stack
        Engineer, and a client's signatory "Robert Chen", Chief Underwriting Officer): any question naming him is
        ambiguous, not only one asking his title ("Which product is Robert Chen associated with?"); a count over
        every employee that does not name him is not."""
        entity = self.ctx.entities.get(entity_id or "")
        if entity is None or normalize(entity.name) not in normalize(question):
            return None
        if self._namesakes is None:
            self._namesakes = person_namesakes(self.ctx)
        return self._namesakes.get(entity.entity_id)

    def _changed_elsewhere(self, fact: FactNode) -> str | None:
        """A line (on any page) naming the subject that says the fact's amount changed: "the list price of the
        KC-720 Cargo will rise from £649 to £689 on 1 July 2024", "£689, up from £649", "9만 원에서 10만 원으로"
        — asked as it is, the old figure answers for today; or a line or notice item saying it goes to another
        (`_raised_in_prose`). Worked out once per fact: the drafts of several categories ask of one fact."""
        if fact.fact_id not in self._changed:
            amount = fact.number is not None and fact.value_type in ("money", "number", "percent")
            self._changed[fact.fact_id] = (self._change_line(fact) if amount else None) or self._raised_in_prose(fact)
        return self._changed[fact.fact_id]

    def _raised_in_prose(self, fact: FactNode) -> str | None:
        """A line of the fact's folder naming the subject that writes the fact's one amount and then says it goes to
        another: "Chapter & Verse: £4 ticket doesn't cover cake any more. From the April meeting it goes to £5" (a
        staff meeting's note on the book club's "Cost: £4 on the door"). The line, or None."""
        amounts = [v for v in find_values(fact.value) if v.value_type == "money"]
        if len(amounts) != 1 or fact.value_type not in ("money", "text"):
            return None
        amount = amounts[0].text.strip()
        entity = self.ctx.entities.get(fact.subject_entity or "")
        names = {normalize(n) for n in (fact.subject, entity.name if entity else "") if len(n) >= _NAME_CHARS}
        folder = self.ctx.doc_type(fact.doc_id)
        written = re.compile(rf"(?<![\d.,]){re.escape(amount)}(?![\d.,]*\d)")
        for chunk_id in sorted(self.ctx.chunks_with(amount)):
            if self.ctx.doc_type(self.ctx.chunks[chunk_id].doc_id) != folder:
                continue
            for line in self.ctx.chunks[chunk_id].text.split("\n"):
                found = written.search(line)
                if found is None or not any(name in normalize(line) for name in names):
                    continue
                raised = _GOES_TO.search(line, found.end())
                new = find_values(raised.group(1) or raised.group(2)) if raised else []
                if new and new[0].number != amounts[0].number:
                    return line.strip()
        return self._raised_in_an_item(amounts[0].number, names, folder)

    def _raised_in_an_item(self, number: float | None, names: set[str], folder: str) -> str | None:
        """A list item of the folder, its wrapped lines joined, naming the subject and saying its amount goes to
        another from the fact's: " - Giraffe Breakfast: … The price goes up / to 65.00 GBP per person (from 60) for
        bookings made on or after 1 July" (a notice's item; the encounters page still says £60)."""
        chunks = set().union(*(self.ctx.chunks_with(name) for name in names)) if names else set()
        for chunk_id in sorted(chunks):
            if number is None or self.ctx.doc_type(self.ctx.chunks[chunk_id].doc_id) != folder:
                continue
            for item in _list_items_of(self.ctx.chunks[chunk_id].text):
                raised = _GOES_TO.search(item)
                former = _FROM_FIGURE.search(item, raised.end()) if raised else None
                if raised is None or former is None or not any(name in normalize(item) for name in names):
                    continue
                new = find_values(raised.group(1) or raised.group(2))
                if new and new[0].number != number and parse_number(former.group(1)) == number:
                    return item
        return None

    def _hours_changed(self, fact: FactNode) -> str | None:
        """A line of the fact's folder writing the fact's hours with an arrow to others ("평일 08:30 ~ 19:00 → 09:00 ~
        19:00" in a notice): the hours as the page gives them are the old ones, or the new ones not yet in force."""
        times = clock_times(fact.value)
        if len(times) < 2:
            return None
        dayed = _WEEKDAY.search(fact.attribute) is not None
        for _, old, line in self._folder_changes(self.ctx.doc_type(fact.doc_id)):
            if old is not None:
                continue  # a list item of the old value, not a line with an arrow
            before, after = _ARROW.split(line, maxsplit=1)
            if clock_times(before)[-2:] == times[:2] and clock_times(after):
                return line
            if dayed and _WEEKDAY.search(before) and _WEEKDAY.search(after) and not clock_times(line):
                # "정기 휴무: 월요일 → 수요일": the days the hours of "화 ~ 일" are for have moved
                return line
        return None

    def _changed_under_its_label(self, fact: FactNode) -> str | None:
        """A notice of the fact's folder writing the fact's value as the old one under its label: "- 최소 출발 인원 :
        8명 → 10명", or "1. 대출 권수" over "- 변경 전: 1인 5권" and "- 변경 후: 1인 7권". The line, or None."""
        label, value = normalize(fact.attribute), normalize(fact.value)
        if fact.source not in ("key_value", "table") or len(label) < _LABEL_CHARS or not value:
            return None
        for above, old, line in self._folder_changes(self.ctx.doc_type(fact.doc_id)):
            if old is None:  # a line with an arrow: the label, then the value, then the arrow
                said = normalize(line)
                at = said.find(value)
                if at >= 0 and label in said[:at] and _ARROW.match(said[at + len(value) :]):
                    return line
            elif len(old) >= 2 and value.startswith(old) and label in above:
                return line
        return None

    def _amount_arrowed(self, fact: FactNode) -> str | None:
        """A line of the fact's folder with an arrow whose old side is the fact's row, named by the first word of
        its label, and its amount written in any form: "- Session sub £2.00 -> £2.50" in a trustees' minutes, of
        the handbook's "| Session sub | £2 per visit |". The line, or None."""
        amounts = [v.number for v in find_values(fact.value) if v.value_type == "money" and v.number is not None]
        if not amounts and fact.value_type == "money" and fact.number is not None:
            amounts = [fact.number]  # "45000" under "가격(원)": the column gives the currency
        row = normalize(row_label(fact) or fact.attribute)
        words = [w for w in row.split() if len(w) >= _LABEL_CHARS - 1 and w not in _STOP_WORDS][:1]
        # a row opened by a code ("| HD-P05 | 포기김치(배추김치) | 5kg | 45000 |") is named by the cell after it
        named = _first_word(_named_cell(fact))
        words += [named] if named else []
        if len(amounts) != 1 or not words:
            return None
        for _, old, line in self._folder_changes(self.ctx.doc_type(fact.doc_id)):
            if old is not None:
                continue
            before = _ARROW.split(line, maxsplit=1)[0]
            olds = [v for v in find_values(before) if v.value_type == "money"]
            if olds and olds[-1].number == amounts[0] and any(w in normalize(before) for w in words):
                return line
        return None

    def _folder_changes(self, folder: str) -> list[tuple[str, str | None, str]]:
        """The lines of a folder's pages that change a value, worked out once per folder: each "- 변경 전: …" item
        with the three lines above it and its old value (normalised), and each line with an arrow (no old value),
        stripped."""
        if folder in self._changes:
            return self._changes[folder]
        found: list[tuple[str, str | None, str]] = []
        self._changes[folder] = found
        for doc_id in sorted(d for d in self.ctx.docs if self.ctx.doc_type(d) == folder):
            for chunk in self.ctx.chunks_by_doc.get(doc_id, []):
                lines = chunk.text.split("\n")
                for index, line in enumerate(lines):
                    before = _BEFORE_ITEM.match(normalize(line))
                    if before:
                        above = " ".join(normalize(x) for x in lines[max(index - 3, 0) : index])
                        found.append((above, before.group(1).strip(), line.strip()))
                    if _ARROW.search(line):
                        found.append(("", None, line.strip()))
        return found

    def _changed_as_asked(self, fact: FactNode, question: str) -> str | None:
        """A line on any page that writes the fact's amount as changed ("40세 기본형 12,800원 → 13,900원") with two
        words of the question beside it ("…기본형은 40세 기준 월 얼마인가요?"), whatever the page calls the subject:
        the line, or None."""
        if fact.number is None or fact.value_type != "money":
            return None
        asked = {w for w in re.findall(r"[^\W_]{2,}", normalize(question)) if w not in _STOP_WORDS}
        asked = {ko.TRAILING_PARTICLE.sub("", w) if re.search(r"[가-힣]$", w) else w for w in asked}
        asked = {w for w in asked if len(w) >= 2}
        for line in self._lines_changing(fact, self.ctx.chunks_with(fact.value)):
            if sum(w in normalize(line) for w in asked) >= 2:
                return line
        return None

    def _lines_changing(self, fact: FactNode, chunk_ids: set[str]) -> Iterator[str]:
        """The lines of the chunks that write the fact's value as changed ("from £649 to", "12,800원 → 13,900원",
        "5,000" under "(원)" written "5,000원에서 7,000원으로"), stripped, in chunk order."""
        value = fact.value.strip()
        for chunk_id in sorted(chunk_ids):
            text = self.ctx.chunks[chunk_id].text
            at = text.find(value)
            while at >= 0:
                before, after = text[max(0, at - 40) : at], text[at + len(value) : at + len(value) + 40]
                if fact.unit and value[-1:].isdigit() and after.startswith(fact.unit):
                    after = after[len(fact.unit) :]
                if _changed_around(before, after):
                    start, end = text.rfind("\n", 0, at) + 1, text.find("\n", at)
                    yield text[start : end if end >= 0 else len(text)].strip()
                at = text.find(value, at + 1)

    def _change_line(self, fact: FactNode) -> str | None:
        """`_changed_elsewhere`'s scan, once per fact: each place a chunk naming the subject writes the value, with
        the words just around it."""
        entity = self.ctx.entities.get(fact.subject_entity or "")
        # the row's own label names it too: "씨앗회원" of the 씨앗회원 등급 ("씨앗회원 월 회비를 5,000원에서 …")
        names = {normalize(n) for n in (fact.subject, entity.name if entity else "", row_label(fact)) if n}
        naming = set().union(*(self.ctx.chunks_with(name) for name in names)) if names else set()
        # the index narrows first
        holding = self.ctx.chunks_with(fact.value)
        for line in self._lines_changing(fact, holding & naming):
            if any(name in normalize(line) for name in names):
                return line
        # the fact's own line needs no name: "**1,000명** (당초 800명에서 늘어남). 적격자가 1,000명을 넘으면 …"
        own_page = {c for c in holding if self.ctx.chunks[c].doc_id == fact.doc_id}
        evidence = normalize(fact.evidence)
        for line in self._lines_changing(fact, own_page):
            if evidence in normalize(line):
                return line
        return self._changed_in_a_table(fact, names, naming)

    def _changed_in_a_table(self, fact: FactNode, names: set[str], naming: set[str]) -> str | None:
        """A row opening with the subject's name that gives the fact's figure beside another, in a passage with
        columns of before and after ("Now | New members from 1 Nov 2024" over "Day Pass   GBP 22   GBP 25"): the
        row, read by its figures (it may write "GBP 22" where the fact says "£22"), or None."""
        figure = f"{fact.number:g}"
        whole = int(fact.number) if fact.number is not None else 0
        # the index keeps a number's separators: "9,600" is its own token, as "9600" is
        tokens_ = {figure.split(".")[0], f"{whole:,}"}
        # a row folded into the label ("Additional stacked Hearthcell battery price") is named by its row: a line
        # whose label is words of it ("Additional stacked battery   $9,600   $10,100") is the same row
        row = row_in_label(fact)
        row_words = set(normalize(row).split()) if row else set()
        # a row that is the subject ("| **Essential** | … | $17,900 |" of the Essential Package) is named by its label
        own = normalize(row_label(fact))
        own = own if own in normalize(fact.subject) else ""
        indexed = set().union(*(self.ctx.token_index.get(t, set()) for t in tokens_))
        if row_words or own:  # a notice's table of the folder need not repeat the organisation's name
            folder = self.ctx.doc_type(fact.doc_id)
            naming = naming | {c for c in indexed if self.ctx.doc_type(self.ctx.chunks[c].doc_id) == folder}
        for chunk_id in sorted(indexed & naming):
            text = self.ctx.chunks[chunk_id].text
            key = f"before_after:{chunk_id}"
            if key not in self.ctx.memo:  # a chunk is asked about by many facts
                self.ctx.memo[key] = bool(_BEFORE_COLUMN.search(text) and _AFTER_COLUMN.search(text))
            if not self.ctx.memo[key]:
                continue
            for line in text.split("\n"):
                head = normalize(re.sub(r"^[\s|*•-]+", "", line))
                label = re.split(r"\s*[\d$€£¥₩|(]", head, maxsplit=1)[0].split()
                by_row = (len(label) >= _ROW_WORDS and set(label) <= row_words) or bool(own and " ".join(label) == own)
                if not by_row and not any(head.startswith(name) for name in names):
                    continue
                if by_row:
                    if _followed_by_another(fact, line):
                        return line.strip()
                    continue
                amounts = [m.replace(",", "") for m in re.findall(r"(?<![\w.])\d[\d,]*(?:\.\d+)?", line)]
                amounts = [f"{float(a):g}" for a in amounts]
                if figure in amounts and len(set(amounts)) >= 2:
                    return line.strip()
        return None

    def _dated_again(self, fact: FactNode) -> str | None:
        """Another line of the fact's page dating the same event differently: "August 2019: Promoted to Senior
        Frontend Software Engineer" and "June 2019: Salary Increase (Promotion to Senior Engineer)". The same
        event is the event word's stem and at least half of the other words after it."""
        if fact.source != "timeline" or fact.value_type != "date" or not fact.date_key:
            return None
        event = re.split(
            r",|;|\s(?:due to|because|in order to|thanks to|following|resulting in|leading to|with|but|while)\s",
            fact.attribute.lower(),
        )[0]
        words = [w for w in re.findall(r"[a-z]{3,}", event) if w not in _GLUE_WORDS]
        if len(words) < 2:
            return None
        stem, rest = words[0][:5], {w[:5] for w in words[1:]}
        modifiers = {w[:5] for w in words[1:-1]}  # "senior frontend" of "senior frontend engineer"
        for section, line, months in self._dated_lines(fact.doc_id):
            # another section of the page (a salary history beside the career one), not the next step of the same
            # timeline ("Promoted to Staff Engineer" after "Promoted to Senior Engineer")
            low = line.lower()
            if stem not in low or fact.evidence.strip() in line or section == (fact.context or "").strip():
                continue
            said = {w[:5] for w in re.findall(r"[a-z]{3,}", low)}
            if months - {fact.date_key[:7]} and len(rest & said) >= 0.5 * len(rest) and modifiers & said:
                return line.strip()
        return None

    def _dated_lines(self, doc_id: str) -> list[tuple[str | None, str, frozenset[str]]]:
        """The page's lines that hold a date, once per page: (section heading, line, the months of its dates)."""
        if doc_id not in self._dated:
            found: list[tuple[str | None, str, frozenset[str]]] = []
            section = None
            for chunk in sorted(self.ctx.chunks_by_doc.get(doc_id, []), key=lambda c: c.start):
                for line in chunk.text.splitlines():
                    if line.startswith("#"):
                        section = line.lstrip("# ").strip()
                        continue
                    months = frozenset(
                        v.date_key[:7] for v in find_values(line) if v.value_type == "date" and v.date_key
                    )
                    if months:
                        found.append((section, line, months))
            self._dated[doc_id] = found
        return self._dated[doc_id]

    def _rule_elsewhere(self, fact: FactNode, question: str) -> str | None:
        """Another folder's rule whose title holds every word of the fact's rule's title (two businesses' "예약 및
        환불 규정"), when the fact's subject is that rule and the question names nothing but the rule: which business's
        rule is meant, it does not say. The other title, or None."""
        doc = self.ctx.docs.get(fact.doc_id)
        folder = self.ctx.doc_type(fact.doc_id)
        if doc is None or folder == ROOT_TYPE:
            return None  # one body's pages only
        if normalize(short_title(fact.subject)) != normalize(short_title(doc.title)):
            return None  # a fact of something the rule's page names, not of the rule
        words = rule_words(doc.title)
        if not words or not all(w in normalize(question) for w in words):
            return None  # not asked as the rule, or the question adds a name of its own
        if self._rule_titles is None:
            self._rule_titles = [
                (self.ctx.doc_type(d.doc_id), d.title, found)
                for d in self.ctx.docs.values()
                if (found := rule_words(d.title))
            ]
        return next((t for f, t, other in self._rule_titles if f != folder and words <= other), None)

    def _rule_revised(self, fact: FactNode) -> str | None:
        """A line of another page of the rule's folder that changes it (a word of the rule's title beside "변경",
        "개정", "revised", …), when the fact is the date the rule takes effect: which version's date is asked, the
        question does not say. The line, or None."""
        doc = self.ctx.docs.get(fact.doc_id)
        if doc is None or fact.value_type != "date" or not _IN_FORCE_LABEL.search(fact.attribute):
            return None
        words, folder = rule_words(doc.title), self.ctx.doc_type(fact.doc_id)
        if not words or folder == ROOT_TYPE:
            return None
        pages = [d for d in self.ctx.docs if d != fact.doc_id and self.ctx.doc_type(d) == folder]
        # the rule's own words, not the business's name every page writes ("새솔사인 A/S 규정")
        words = frozenset(w for w in words if 5 * sum(w in self.ctx.doc_text[d] for d in pages) <= 3 * len(pages))
        revisions = self._revision_lines(folder) if words else []
        return next((line for d, line, norm in revisions if d != fact.doc_id and any(w in norm for w in words)), None)

    def _revision_lines(self, folder: str) -> list[tuple[str, str, str]]:
        """The lines of a folder's pages that say something changes ("4. 보강 신청 기한 변경"), in page order: page,
        line, normalised line; worked out once per folder."""
        if folder not in self._revisions:
            found = self._revisions[folder] = []
            for doc_id in sorted(d for d in self.ctx.docs if self.ctx.doc_type(d) == folder):
                for chunk in self.ctx.chunks_by_doc.get(doc_id, []):
                    for line in chunk.text.split("\n"):
                        norm = normalize(line)
                        if _REVISION.search(norm):
                            found.append((doc_id, line.strip(), norm))
        return self._revisions[folder]

    def _shared_row(self, fact: FactNode, question: str) -> bool:
        """Whether a table fact's subject is a row label with no page of its own that the tables or headings of
        several other pages also have ("CloudSaver" seats on one aircraft's page, while each aircraft has a
        CloudSaver cabin): asked without the page's own subject, the question has several right answers."""
        if fact.source != "table":
            return False
        entity = self.ctx.entities.get(fact.subject_entity or "")
        if entity is None or entity.home_doc:
            return False
        title = title_core(self.ctx.docs[fact.doc_id].title)
        if title and title in normalize(question):
            return False  # the question names the page's subject ("… on the Boeing 787")
        return len(self._row_pages(entity.entity_id, entity.name) - {fact.doc_id}) >= _SHARED_ROW_PAGES

    def _row_pages(self, entity_id: str, name: str) -> set[str]:
        """Pages whose own tables or headings have a row of that name (prose mentions of a unique thing do not
        count); once per entity."""
        if entity_id not in self._rows:
            norm = normalize(name)
            self._rows[entity_id] = {
                self.ctx.chunks[c].doc_id
                for c in self.ctx.chunks_with(name)
                if any(
                    line.lstrip().startswith(("|", "#")) and norm in normalize(line)
                    for line in self.ctx.chunks[c].text.splitlines()
                )
            }
        return self._rows[entity_id]

    def _links(self, draft: Draft) -> GateFailure | None:
        ends: list[str] = []
        if draft.category == "spanning" and draft.facts and draft.facts[0].value_entity:
            ends = [draft.facts[0].value_entity]
        elif draft.category == "relationship" and draft.facts:
            ends = [e for e in (draft.facts[0].subject_entity, draft.facts[0].value_entity) if e]
        for entity_id in ends:
            problem = self.bridges.problem(entity_id)
            if problem:
                return _fail("ubiquitous_bridge", problem)
        if draft.category == "spanning" and ends:
            bridge = self.ctx.entities.get(ends[0])
            if bridge is not None and not bridge.home_doc:
                # a row of some table ("France" in a visa table) joins unrelated documents by a shared word
                return _fail("ubiquitous_bridge", f"'{bridge.name[:30]}' has no page of its own")
        if draft.category == "holistic":
            problem = aggregate_problem(draft, self.ctx)
            if problem:
                return _fail("incomplete_aggregate", problem)
        return None


# Templates that ask the label itself as a noun ("What is X's <label>?", "Which has the higher <label>?"); the
# verbal forms ("How much does X cost?", "Who joined earlier?") and counts word the question themselves.
_NOUN_TEMPLATES = frozenset(
    {"what", "text", "number", "money", "percent", "where", "how_long", "qualified", "compare", "arith", "extreme"}
    | {"date"}
)


_GLUE_WORDS = frozenset("the and for due with from into onto over that this was were his her their its".split())


#: A register's code in a row's first cell: "BW-TUE", "SP25-W", "CMP-01", "KCC".
_ROW_CODE = re.compile(r"[A-Z0-9][A-Z0-9:-]{0,11}")


def _names_a_date(question: str) -> bool:
    return any(v.value_type == "date" for v in find_values(question))


def row_head(fact: FactNode) -> str:
    """The cell that heads a table fact's row: its first, or its second when the first only sorts rows into groups
    ("| 제증명 | 일반진단서 | 20,000 |" mined as "일반진단서 금액": the miner read the row by its item), or by its
    name after a register's code."""
    cells = [cell.strip(" *") for cell in table_cells(fact.evidence)]
    attribute = normalize(fact.attribute)
    subject = normalize(fact.subject)
    if len(cells) >= 2 and cells[1] and subject.startswith(normalize(cells[1])) and _ROW_CODE.fullmatch(cells[0]):
        return cells[1]  # "| BW-TUE | Beginners Wheel |": the miner read the row by its name, the code is a value
    grouped = len(cells) >= 3 and cells[1] and attribute.startswith(normalize(cells[1]) + " ")
    if grouped and not attribute.startswith(normalize(cells[0])):
        return cells[1]
    return cells[0]


def _row_label(fact: FactNode) -> str | None:
    """The label of a table row given to another subject: "| Career Services | (781) 555-1100 | careers@… |" mined
    as the university's email (a row label made of common words was taken for a heading). None when the row's
    first cell is the subject, the attribute, the value, the qualifier (a year) or a number or date."""
    if fact.source != "table":
        return None
    first = row_head(fact)
    norm = normalize(first)
    if (
        not re.search(r"[^\W\d_]", first)
        or norm in normalize(fact.subject)
        or norm in normalize(fact.attribute)  # the row label folded into the attribute ("Personal car mileage limit")
        or norm == normalize(fact.value)
        or (fact.qualifier and norm in normalize(fact.qualifier))
        or find_values(first)
    ):
        return None
    return first


#: Labels of a way to reach someone (not "Contract Number", which a broader label list would take): a policy or a
#: contract page that gives one gives whoever runs it ("보증 및 A/S 정책의 전화").
_CONTACT_ATTRIBUTE = re.compile(r"phone|\btel\b|fax|e-?mail|hotline|helpline|website|연락처|전화|메일|홈페이지", re.I)


#: Words a line's label shares with a row folded into the fact's label to be that row.
_ROW_WORDS = 2
#: Words naming the side before a change: a column of a table of amounts before and after, or an item of a notice's
#: list ("- 변경 전: 1인 5권", "* Before: £22").
_BEFORE_WORDS = r"\b(?:now|current(?:ly)?|old|before|previous(?:ly)?)\b|기존|현행|현재|변경\s?전|종전|인상\s?전|이전"
#: Column words of a table of amounts before and after a change.
_BEFORE_COLUMN = re.compile(_BEFORE_WORDS, re.I)
_AFTER_COLUMN = re.compile(
    r"\bnew\b|\bfrom\s+\d|\bafter\b|변경\s?후|인상\s?후|조정\s?후|개정\s?후|\d+월\s?\d+일부터|"
    r"(?:변경|인상|조정)\s?\(\s?[\d.월일\s]+~",  # "변경 (2025.01.01~)", "변경 (3월 4일~)"
    re.I,
)


#: Words of a question that say nothing of its subject: question words and endings.
_STOP_WORDS = frozenset(
    "what when where who how much many is are was the of at for does do in on to and 얼마인가요 얼마 무엇인가요 언제 "
    "어디 누구 몇 인가요 있나요 되나요 기준".split()
)
#: A Korean particle at the end of a question's word: "기본형은" → "기본형".


#: Column headers that only qualify a row's other cells: what an amount is per, or in what unit.
_QUALIFYING_COLUMNS = frozenset({"기준", "단위", "산정 기준", "basis", "unit", "per"})
#: A value that only says what an amount is per: "per day", "per person", "each", "1인당", "회당".
_PER_UNIT = re.compile(
    r"(?:per|each|every)\s+[a-z]+(?:\s[a-z]+)?|each|\d*\s?(?:인|회|개|명|건|박|일|시간|팀|가구|세대|평|장|권|대|마리)(?:당|마다)",
    re.I,
)
#: A Korean table row that states a condition or a time: "개막 이후", "7일 전까지", "취소하는 경우".
#: A label naming a breakdown: "직종별 인원", "월별 매출", "지역별 현황" (not "특별", "개별", "구별").
_KO_BREAKDOWN = re.compile(r"(?<![가-힣])[가-힣]{1,4}(?<![특개구차분식])별(?![가-힣])")
_KO_CONDITION_LABEL = re.compile(r"[가-힣](?:부터|이후|이전|까지|경우)의?\s+[가-힣]")
_KO_CONDITION_ROW = re.compile(r"(?:이후|이전|까지|부터|경우)$|\s(?:시|때|전|후)$")


def _dated(text: str) -> bool:
    """Whether `text` writes a date."""
    return any(v.value_type == "date" for v in find_values(text))


def _open_bracket(text: str) -> bool:
    """Whether a bracket of `text` is opened and never closed, or closed and never opened."""
    depth = 0
    for char in text:
        depth += char in "([（［"
        depth -= char in ")]）］"
        if depth < 0:
            return True
    return depth != 0


#: The last word of a label whose values name or sort things rather than count them: "Code", "SKU", "Type", "농가코드".
_IDENTIFIER_LABEL = re.compile(
    r"codes?|ids?|no\.?|ref|sku|types?|class(?:es)?|categor(?:y|ies)|kinds?|grades?|status|[가-힣]*(?:코드|번호)|유형|종류|"
    r"구분|등급|분류",
    re.I,
)
#: Labels of a person's part in an organisation ("Role", "Position", "역할"), which may be several: not a job title,
#: which is one whatever else she leads.
_POST_LABEL = re.compile(r"roles?|position|post|역할", re.I)
#: Labels whose value holds a post: "Lead steward", "Coordinator", "Chair", "총무" (not the person in charge of a
#: document or a contract).
_HOLDER_LABEL = re.compile(
    r"\b(?:lead|leader|head|chair|manager|coordinator|co-ordinator|captain|officer|secretary|treasurer)\b|"
    r"팀장|회장|총무",
    re.I,
)


#: Words of a Korean keyword from which it is a clause, unless it is a date, a time, an address or a number.
_CLAUSE_WORDS = 4
#: What a long Korean keyword may be and stay one string: a date, a clock time, a road address, a phone number.
_KO_WHOLE = re.compile(
    r"\d{2,4}\s?년\s?\d{1,2}\s?월|\d{1,2}:\d\d|[가-힣][가-힣0-9]*(?:로|길)\s?\d+|\d{2,4}-\d{3,4}-\d{4}"
)


def _ko_clause(keyword: str) -> bool:
    """Whether a Korean keyword is a clause ("특강 시작 3일 전까지 취소 시 전액"): four words or more that are not a
    date, a time, an address or a phone number."""
    return (
        bool(re.search(r"[가-힣]", keyword))
        and len(keyword.split()) >= _CLAUSE_WORDS
        and _KO_WHOLE.search(keyword) is None
    )


def _named_cell(fact: FactNode) -> str:
    """The cell of a table fact's row after a code opening it, when it names the row ("포기김치(배추김치)" of
    "| HD-P05 | 포기김치(배추김치) | 5kg | 45000 |"); "" for a row its first cell names."""
    cells = [cell.strip(" *_") for cell in table_cells(fact.evidence)] if fact.source == "table" else []
    if len(cells) < 2 or not _ROW_CODE.fullmatch(cells[0]) or not re.match(r"[^\W\d_]", cells[1]):
        return ""
    return cells[1]


def _first_word(text: str) -> str:
    """A name's first word of three letters or more, normalised and without its brackets ("포기김치" of
    "포기김치(배추김치)"), or ""."""
    word = re.split(r"[\s(（]", normalize(text).strip(), maxsplit=1)[0]
    return word if len(word) >= _LABEL_CHARS - 1 else ""


def _changed_around(before: str, after: str) -> bool:
    """Whether the words around an amount say it changed: "from £649 to", "up from £649", "£649 →", "9만 원에서
    10만 원으로", "종전 80,000원", "£18 (was £15)" (and the amount is not part of a longer number)."""
    if re.match(r"[,.]?\d", after) or re.search(r"\d[,.]?$", before):
        return False  # a digit goes on: part of a longer number
    if re.search(r"\bfrom\s+$", before, re.I) and re.match(r"\s+to\b", after, re.I):
        return True
    if re.search(r"\b(?:up|down|increased|decreased|raised|reduced|rising|falling)\s+from\s+$", before, re.I):
        return True
    if re.match(r"\s*(?:→|->|⇒)|\s*에서\s*\S+?(?:\s\S+?)?(?:으로|로)(?:\s|$)", after):
        return True
    if _FORMER_AFTER.match(after):
        return True
    if _FORMER_BEFORE.search(before):
        return True  # "Concession membership … £18 (was £15)": the amount is the old one
    return re.search(r"(?:종전|기존|현행)\s*$", before) is not None


#: Words saying an amount goes to another, with the new one: "it goes to **£5**", "will rise to $689", "tickets will be
#: £5", "7,000원으로 인상".
_GOES_TO = re.compile(
    r"\b(?:goes|go|going|rises?|rising|increases?|increasing|moves?|changes?|will\s+be|becomes?)\s+(?:up\s+)?(?:to\s+)?"
    r"[*_]*\s*([$€£¥₩]\s?\d[\d,.]*|\d[\d,.]*\s?(?:GBP|USD|EUR|KRW)\b)"
    r"|(\d[\d,]*\s?원)\s*(?:으로|로)\s*(?:인상|변경|조정|오릅|오른|바뀝|바뀐)",
    re.I,
)
#: The former figure a change names after the new one: "(from 60)", "from £4".
_FROM_FIGURE = re.compile(r"\bfrom\s+[$€£¥₩]?\s?(\d[\d,.]*)(?!\s*(?:[:/.-]\d|am|pm|st|nd|rd|th)\b)", re.I)
#: A line that opens a list item: "- …", "* …", "1. …", "2) …".
_ITEM_START = re.compile(r"^\s*(?:[-*•]|\d{1,2}[.)])\s")


def _list_items_of(text: str) -> list[str]:
    """The list items of a text, each with the indented lines that continue it joined on: a notice wraps an item's
    sentence over several lines."""
    items: list[str] = []
    open_item = False  # whether the last line belongs to an item an indented line may go on with
    for line in text.split("\n"):
        if _ITEM_START.match(line):
            items.append(line.strip())
            open_item = True
        elif open_item and line.startswith((" ", "\t")) and line.strip():
            items[-1] += " " + line.strip()
        else:
            open_item = False
    return items


#: The shortest name a line must write to be about the subject.
_NAME_CHARS = 3

#: What splits a heading into its parts: "STAFF MEETING - Mon 10 Feb 2025 - studio (closed day)".
_HEADING_PARTS = re.compile(r"\s+[-–—|:]\s+|\s*[|:]\s*")
#: A table cell saying its row's thing ends, no longer holds or does not happen: "ENDS 25 July 2025", "not offered
#: from Sept", "discontinued", "left in March", "NO SESSION", "3월 폐강", "2025.06 퇴사", "운영 종료".
_ROW_ENDING = re.compile(
    r"(?<![a-z])(?:ends|ended|no longer|not offered|not running|discontinued|withdrawn|cancell?ed|closed down"
    r"|left (?:on|in)|retir(?:es|ed|ing)|no (?:session|class|meeting|event|service)s?)(?![a-z])"
    r"|폐강|폐지|종료|중단|휴강|퇴사|퇴직|운영하지 않|열지 않|없어(?:짐|집니다|졌)",
    re.I,
)


#: The shortest start of a page's title that names the page in a question.
_TITLE_PREFIX_CHARS = 6
#: A register's row code: "CH1", "R04", a booking's "WW-25-0437" (not a model, "KC-360", "BL-900", which people
#: call it by).
_BARE_CODE = re.compile(r"[A-Z]{1,3}\d{1,2}|[A-Z]{1,4}-\d{2,4}-\d{2,}")
#: A question asking on which days or at what time a thing is on.
_WHEN_IS_IT_ON = re.compile(r"What (?:days|day) is .+ on\?$|On which days is .+ held\?$|What time is .+\?$")
#: First columns of tables whose rows are events: classes, sessions, courses, clubs.
_EVENT_COLUMN = re.compile(
    r"class|session|group|course|activit|club|clinic|programme|program|event|service|section|team|lesson|workshop|"
    r"meeting|route|run|shift|rehearsal|performance|show|training|match|fixture",
    re.I,
)
#: Columns that hold what a person does.
_PERSON_COLUMN = re.compile(r"role|position|job(?: title)?|post|직책|직위|역할|직급", re.I)
#: Column words that say the column holds a price.
_PRICE_COLUMN = re.compile(
    r"price|fee|cost|rate|charge|tariff|amount|total|요금|가격|금액|비용|단가|수강료|회비|이용료|价格|费用|料金|価格",
    re.I,
)
#: The money cells that make a row a price grid.
_GRID_PRICES = 3


def _named_by_title(title: str, question: str) -> bool:
    """Whether a question names a page by its title, or by most of it from its start ("2025년4월 팀별" of
    "2025년4월 팀별일정": a kind word dropped)."""
    norm = normalize(title)
    shortest = max(_TITLE_PREFIX_CHARS, (len(norm) + 1) // 2)
    return norm in question or any(norm[:end] in question for end in range(len(norm) - 1, shortest - 1, -1))


def _heading_date(fact: FactNode, question: str) -> str | None:
    """The date of a document's heading the question names as the subject ("STAFF MEETING - Mon 10 Feb 2025 -
    studio": "What are Mon 10 Feb 2025's day rates?"), or None."""
    if not document_subject(fact.subject):
        return None
    parts = [
        p.strip() for p in _HEADING_PARTS.split(fact.subject) if any(v.value_type == "date" for v in find_values(p))
    ]
    if parts == [fact.subject]:
        return None
    return next((p for p in parts if normalize(p) in question), None)


def _column_problem(fact: FactNode, row: str, column: str) -> str | None:
    """Why a table fact's column, asked of its row, is no property of it, or None: a person's column asked of a
    row that is no person ("| House landline | 22 Orchard Close |" under "Who | Role": "Little Acorns' house
    landline role"), a level's column of a price grid ("| Fringe trim | free | £5 | £5 | £5 |" under
    "Apprentice … Director": "Copper Comb's fringe trim director" names neither the price nor who charges it), or
    a day's column ("별빛방 평일")."""
    if row and _PERSON_COLUMN.fullmatch(column) and not (en_person_name(row) or ko_person_name(row)):
        return f"a person's '{column[:20]}' asked of '{row[:20]}', which is no person"
    if column and _price_grid(fact, column):
        return f"'{column[:20]}' is a column of a price grid, not a property"
    if row and DAYS.fullmatch(column):
        # "| 별빛방 | 220,000원 | 260,000원 |" under "평일 | 주말": "별빛방 평일은 얼마인가요" names no property
        return f"a day's column '{column[:20]}' asked of '{row[:20]}'"
    if row and _REGISTER_COLUMN.fullmatch(column):
        # "| Arm warmers | AW-01 | S/M L/XL |" of a kit list: "Calder Vale Wheelers' arm warmers sizes" glues a
        # register's row and column to the club
        return f"a register's column '{column[:20]}' glued to its row '{row[:20]}'"
    return None


#: A register's columns that only file a row (its code, size range, supplier or category): asked of a row glued to
#: its page's owner they read as a pasted table.
_REGISTER_COLUMN = re.compile(
    r"(?:product |item |stock |supplier )?(?:code|ref|sku|id|sizes?|colou?rs?|supplier|category|brand|type|range)|"
    r"(?:품목|상품|제품)?코드|공급처|거래처|분류|규격|사이즈|색상|브랜드",
    re.I,
)


def _price_grid(fact: FactNode, column: str) -> bool:
    """Whether a table fact's column ("director" of "fringe trim director") is one of a price grid's columns
    of levels or variants: its row holds three or more amounts and the column's name says nothing of a price."""
    if fact.value_type != "money" or _PRICE_COLUMN.search(column):
        return False
    cells = table_cells(fact.evidence)[1:]
    return sum(1 for c in cells if any(v.value_type == "money" for v in find_values(c))) >= _GRID_PRICES


def _row_ends(fact: FactNode) -> str | None:
    """A cell of the fact's table row, other than its value and its row label, saying the row's thing ends (a
    school run "ENDS 25 July 2025 - not offered from Sept", a class "3월 폐강"). The cell, or None."""
    if fact.source != "table" or not fact.evidence.lstrip().startswith("|"):
        return None
    value = normalize(fact.value)
    for cell in table_cells(fact.evidence)[1:]:
        said = normalize(cell)
        if said and said != value and value not in said and _ROW_ENDING.search(said):
            return cell
    return None


#: A former figure's mark in brackets just before the amount: "(was £15)", "(기존 15,000원)".
_FORMER_BEFORE = re.compile(
    r"[(（]\s*(?:was|were|previously|formerly|old|before|종전|기존|이전|변경\s?전)\s*[:：]?\s*$", re.I
)
#: A former figure written just after the amount: "1,000명 (당초 800명에서 늘어남)", "£25 (was £22)".
_FORMER_AFTER = re.compile(
    r"[*_]*\s*[(（]\s*(?:당초|종전|기존|변경\s?전|원래|이전|작년|지난해|previously|formerly|was|were|up from|down from|"
    r"increased from|reduced from|raised from)\s*[^)）]*?\d",
    re.I,
)


#: A name ending with the period its report covers: "누리담저축은행 2025년 2분기", "Annual Report 2023", "FY2024".
_PERIOD_END = re.compile(
    r"(?:(?:19|20)\d\d\s*년(?:\s*(?:[1-4]\s*분기|상반기|하반기))?|(?<![\w-])(?:FY|Q[1-4]\s*)?(?:19|20)\d\d|"
    r"(?:19|20)\d\d年(?:度|第[一二三四]季度)?)$"
)
#: Labels of facts that stand whatever the period: where a thing is, how to reach it, who runs it.
_STANDING_LABEL = re.compile(
    r"소재지|주소|위치|본점|본사|연락처|전화|대표자|대표이사|address|location|headquarters|head office|phone|"
    r"chief executive|\bceo\b|所在地|地址|总部|本社",
    re.I,
)

#: Labels of where a thing is.
_WHERE_LABEL = re.compile(r"^(?:location|where|room|위치|장소|소재지|位置|地点|場所)$", re.I)
#: Section headings naming one room or desk of the subject (not its head office, which is where it is).
#: Section headings naming the subject's own seat: its head office, main branch or campus is where it is.
#: Labels of a share, alone: of what, the table's heading says ("비율", "Share", "% of total").
_SHARE_LABEL = re.compile(
    r"비율|비중|구성비|점유율|share|proportion|percentage|percent|%|% of total|占比|比例|割合|比率"
)
#: An item of a notice's list giving the value before a change (matched on a normalised line).
_BEFORE_ITEM = re.compile(rf"^[\s\-*•·]*(?:{_BEFORE_WORDS})\s*[:：]\s*(.+)$")
#: Letters a label needs to be found again above a notice's list of before and after.
_LABEL_CHARS = 4
#: An arrow between an old and a new value: "08:30 ~ 19:00 → 09:00 ~ 19:00".
_ARROW = re.compile(r"\s*(?:→|->|⇒|=>)\s*")
#: A version named in a question ("예약 및 노쇼 규정 v2는 …", "Policy rev.3"): the question says which rule it means.
_VERSION_ASKED = re.compile(
    r"(?<![A-Za-z0-9.])(?:v\d+(?:\.\d+)?|rev\.?\s?\d+|\d+차\s?개정|\d{4}년판)(?![A-Za-z0-9.])", re.I
)
#: Labels of the date a rule or a document takes effect.
_IN_FORCE_LABEL = re.compile(r"시행|effective|in force|valid from", re.I)
#: Words saying a rule is changed: "변경", "개정", "개편", "바뀝니다", "revised", "amended".
_REVISION = re.compile(r"변경|개정|개편|바뀝|바뀌|바꿉|수정|\b(?:revised|amended|changes?|updated)\b", re.I)
#: A day of the week named alone: "화", "수요일", "Mon", "Wednesday" (not the "일" of "일정").
_WEEKDAY = re.compile(
    r"(?<![가-힣])[월화수목금토일](?:요일)?(?![가-힣])|\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day)?s?\b",
    re.I,
)
#: Words opening an exception to the rule just stated: "(단, …)", "※ 다만 …", "except …", "However, …".
_EXCEPTION_NEXT = re.compile(
    r"^\s*[(\[（※*\-–·]*\s*(?:단[,，\s]|다만[,，\s]|except\b|excluding\b|however\b|unless\b|but not\b)", re.I
)
#: Letters a sentence's words around a figure must hold to find the same statement elsewhere.
_FRAME_CHARS = 4
#: Headings of how to find the subject: what they place is the subject itself.
_FIND_US = re.compile(
    r"오시는\s?길|찾아오(?:는|시는)\s?(?:곳|길)|교통|약도|기본\s?정보|개요|\b(?:directions|getting (?:here|there)|"
    r"find(?:ing)? us|how to (?:get|find)|address|contact|about|overview|general information|location)\b",
    re.I,
)
_HOME_HEADING = re.compile(r"\b(?:head office|headquarters|main (?:office|campus|branch))\b|본사|본점|본관|본부", re.I)
_ROOM_HEADING = re.compile(
    r"(?<!head )(?<!main )\b(?:office|desk|lab|laboratory|room|reception|counter)$|사무실|사무소|연구실|실습실|창구|"
    r"데스크|안내실|办公室|事務室|窓口",
    re.I,
)


def _room_section(fact: FactNode, question: str) -> str | None:
    """The heading of the section a location line sits under when it names one room of the subject and the
    question does not: the room's place is not the subject's."""
    heading = (fact.context or "").strip()
    if fact.source != "key_value" or not heading or not _WHERE_LABEL.match(fact.attribute.strip()):
        return None
    if normalize(heading) in normalize(question) or _HOME_HEADING.search(heading):
        return None
    if _ROOM_HEADING.search(heading):
        return heading
    # "■ 관리동 / 매점 / - 위치: 정문 옆 2층": the place of what the section names, unless the section only says
    # what kind of facts follow ("## Location", "기본 정보") or names the subject itself
    generic = (
        is_generic_title(heading)
        or page_kind_title(heading)
        or _WHERE_LABEL.match(heading.strip())
        or _FIND_US.search(heading)
    )
    return None if generic or normalize(heading) in normalize(fact.subject) else heading


def _followed_by_another(fact: FactNode, line: str) -> bool:
    """Whether the line writes the fact's figure and, next, another of the same kind: the old and the new price
    ("Essential  6.15 kW  $17,900  $18,650" changes the price, not the size)."""
    found = find_values(line)
    for here, after in pairwise(found):
        if here.number == fact.number and here.value_type == fact.value_type:
            return after.value_type == here.value_type and after.unit == here.unit and after.number != here.number
    return False


def _row_after_long_title(fact: FactNode, question: str, language: str) -> bool:
    """A Korean table row glued to a page title of three words or more: "2026학년도 2학기 교환학생 파견 모집 핀란드의
    인원은 …" reads as one run of nouns (with 의 between them, "교토 미식 투어 3박 4일의 성인 요금", or after a short
    subject, "하늘여행 경영진의 주요 업무", it reads well)."""
    if language != "ko" or fact.source != "table":
        return False
    row = normalize(row_head(fact))
    attribute = normalize(fact.attribute)
    if not row or row == attribute or not attribute.startswith(row):
        return False
    name = introduced_name(short_title(fact.subject))
    asked = normalize(question)
    return len(name.split()) >= 3 and any(f"{normalize(name)}{of} {row}" in asked for of in ("", "의"))


def _person_as_label(attribute: str) -> bool:
    """Whether a label is a person's name with a post ("김도윤 원장", "박준혁 수의사", "Dr. Ana Ruiz")."""
    label = attribute.strip().rstrip(":：").strip()
    parts = label.split()
    if is_cjk(label):
        full = len(parts) == 2 and len(parts[0]) in (3, 4)  # "지원 인원" is no name with a post
        return full and ko_person_name(parts[0]) and _KO_POST.search(parts[1]) is not None
    return _EN_TITLED.match(label) is not None


#: An amount of four figures or more written without grouping ("580000"), as spreadsheets export it.
_BARE_FIGURE = re.compile(r"\d{4,}")
#: A newsletter's name: "Bramley Green Playgroup News", "Parish News", "늘보 소식".
_NEWS_NAME = re.compile(r"\bnews\s*$|[가-힣]\s?소식$", re.I)
#: A Korean post after a name: 원장, 부원장, 수의사, 간호사, 선생님, 강사, 팀장, 주무관.
_KO_POST = re.compile(
    r"^(?:[가-힣]{0,3}장|[가-힣]{0,2}(?:수의사|간호사|의사|약사|치료사|영양사|변호사|세무사|회계사|기사)|사서|교사|선생님|"
    r"강사|코치|대표|이사|매니저|주임|주무관|위원|교수|연구원|사원|대리|님)$"
)
_EN_TITLED = re.compile(r"^(?:Dr|Mr|Mrs|Ms|Prof|Cllr|Rev)\.?\s+[A-Z][\w'-]+(?:\s+[A-Z][\w'-]+)?$")


def _asks_label_as_noun(template: str) -> bool:
    parts = template.split(".")
    return len(parts) >= 2 and parts[1] in _NOUN_TEMPLATES and parts[-1] not in ("count", "active", "passive", "cost")


def item_flags(item: TestQuestion) -> list[str]:
    """The gate's checks that need only the finished item (no knowledge graph): named reasons, in order."""
    flags = []
    if file_name_problem(item.question):
        flags.append("file_name_subject")
    if any(is_placeholder(k) for k in item.keywords):
        flags.append("placeholder_value")
    if item.keywords and item.category in SINGLE_FACT:
        language = item.language or "en"
        if wh_mismatch(item.question, item.keywords[0], None, language):
            flags.append("wh_mismatch")
    return flags
