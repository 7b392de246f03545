"""**ambiguous_key**: the same subject and attribute hold more than one value in the knowledge base.

A timeline with four Novembers, a time table with a "10:30" slot every day, a price list whose "Price" label
repeats under each section: asked as "X's <attribute>", each has several right answers, and two items made from
them contradict each other. A key is the subject (entity, else its surface name), the normalised attribute and
the qualifier; when it maps to more than one distinct value, no single-fact question is made from it — unless the
values differ only by the section they stand under and the section is named in the question.

A namesake counts too: another page naming someone of the subject's full name with a different value under the
same label (an employee and a client's signatory who share a name); and a labelled price that the subject's own
page gives again beside other prices of one table row (a fare by season): it is one of several; and a table
row's price that another page of its folder writes beside the row's name as another amount (the FAQ still quoting
last year's price). A label that a bracket tells apart from another of its subject ("Cost (members)" beside "Cost
(non-members)") is ambiguous too when the question does not name the bracket.
"""

from __future__ import annotations

import re
from collections import defaultdict

from schemas import FactNode
from testgen.kg.mining import row_in_label, row_label, table_cells
from testgen.kg.values import find_values
from testgen.names import without_parentheticals
from testgen.synth.context import GenContext
from testgen.text import bare_figure, normalize

_STRUCTURED = frozenset({"key_value", "table", "timeline", "llm"})


#: Heads of labels that name the same thing whatever qualifies them: "Office Location" and "Location" of one office
#: are one key, so two pages placing it in two buildings make it ambiguous.
_MERGED_HEADS = frozenset("location address phone email e-mail website hours".split())


def fact_key(fact: FactNode) -> tuple[str, str, str]:
    """What a single-fact question about `fact` pins down: subject, attribute, qualifier."""
    subject = fact.subject_entity or normalize(fact.subject)
    attribute = normalize(fact.attribute)
    head = _head(attribute)
    return subject, head if head in _MERGED_HEADS else attribute, normalize(fact.qualifier or "")


class KeyIndex:
    """Distinct values (and the sections they stand in) per fact key, over every structured fact of the KB."""

    def __init__(self, facts: list[FactNode]) -> None:
        # Facts by subject first; a subject's keys are worked out when a question about it is first checked (a run
        # checks a few thousand drafts, and a large KB holds millions of facts).
        self._by_subject: dict[str, list[FactNode]] = defaultdict(list)
        for fact in facts:
            if fact.source in _STRUCTURED:
                self._by_subject[fact.subject_entity or normalize(fact.subject)].append(fact)
        self._keys: dict[str, dict[tuple[str, str, str], list[FactNode]]] = {}
        self._values: dict[tuple[str, str, str], dict[str, set[str]]] = {}
        self._several: dict[tuple[str, str, str], bool] = {}

    def _of_subject(self, subject: str) -> dict[tuple[str, str, str], list[FactNode]]:
        """One subject's facts by key (its facts share the subject: a key follows from label and qualifier)."""
        groups = self._keys.get(subject)
        if groups is None:
            groups = self._keys[subject] = defaultdict(list)
            keys: dict[tuple[str, str | None], tuple[str, str, str]] = {}
            for fact in self._by_subject.get(subject, ()):
                key = keys.get((fact.attribute, fact.qualifier))
                if key is None:
                    key = keys[(fact.attribute, fact.qualifier)] = fact_key(fact)
                groups[key].append(fact)
        return groups

    def _several_values(self, key: tuple[str, str, str]) -> bool:
        """Whether the key has two distinct values: read up to the second one (a key of a large table may have
        hundreds of thousands of facts, and one other value settles it)."""
        several = self._several.get(key)
        if several is None:
            first: str | None = None
            several = False
            for fact in self._of_subject(key[0]).get(key, ()):
                value = bare_figure(fact.value)  # "296쪽" on the book's page, "296" under a catalogue's 쪽수
                if first is None:
                    first = value
                elif value != first:
                    several = True
                    break
            self._several[key] = several
        return several

    def _values_of(self, key: tuple[str, str, str]) -> dict[str, set[str]]:
        """A key's distinct values → the sections they stand in."""
        values = self._values.get(key)
        if values is None:
            values = self._values[key] = defaultdict(set)
            for fact in self._of_subject(key[0]).get(key, ()):
                values[bare_figure(fact.value)].add(normalize(fact.context or ""))
        return values

    def ambiguous(self, fact: FactNode, question: str) -> bool:
        """Whether a question about `fact` has another right answer elsewhere in the KB."""
        if fact.source not in _STRUCTURED:
            return False
        key = fact_key(fact)
        if not self._several_values(key):
            return False
        mine = normalize(fact.context or "")
        # The section disambiguates only when it is named in the question and no other value shares it.
        if not (mine and mine in normalize(question)):
            return True
        values = self._values_of(key)
        value = bare_figure(fact.value)
        return any(mine in sections for other, sections in values.items() if other != value)

    def fuller_label(self, fact: FactNode) -> str | None:
        """The subject's fuller label of the same thing when `fact`'s label is the bare head ("Main phone" beside a
        table's "Phone"): "What is Leeds' phone number?" leaves open which of an office's numbers is meant, the
        fuller label does not. None when the label is qualified or no fuller one is given."""
        if fact.source not in _STRUCTURED:
            return None
        key = fact_key(fact)
        if normalize(fact.attribute) != key[1] or key[1] not in _MERGED_HEADS:
            return None
        fuller = (other.attribute for other in self._of_subject(key[0]).get(key, ()))
        return next((label for label in fuller if normalize(label) != key[1]), None)

    def bracketed_twin(self, fact: FactNode, question: str) -> str | None:
        """The subject's other label that brackets tell apart from `fact`'s ("Cost (members)" beside "Cost
        (non-members)", "Cost" beside "Cost (non-members)"), when the question does not name the bracket: "How
        much does the course cost?" has two answers. None when there is no such label."""
        if fact.source not in _STRUCTURED:
            return None
        bare = normalize(without_parentheticals(fact.attribute))
        note = normalize(fact.attribute[len(without_parentheticals(fact.attribute)) :]).strip("() ")
        if note and note in normalize(question):
            return None
        if _UNIT_NOTE.fullmatch(note):
            return None  # "Price (INR)" beside "Price (USD)": one price in two currencies
        subject = fact.subject_entity or normalize(fact.subject)
        for other in self._by_subject.get(subject, ()):
            twin = without_parentheticals(other.attribute)
            if (
                other.attribute != fact.attribute
                and other.attribute.startswith(twin)
                and normalize(twin) == bare
                and not _UNIT_NOTE.fullmatch(normalize(other.attribute[len(twin) :]).strip("() "))
                and bare_figure(other.value) != bare_figure(fact.value)
            ):
                return other.attribute
        return None


#: A bracket giving a label's currency or unit: the same value in other terms, not another value.
_UNIT_NOTE = re.compile(r"[a-z]{3}|[₹$£€¥₩%]|원|엔|円|元|달러|유로|천원|만원|kg|g|ml|l|mm|cm|m|km|h|hrs?|mins?|분|시간")


# "Job Title" and "**Title**:" name the same attribute; "Current" and "Annual" do not tell attributes apart.
_LABEL_LINE = re.compile(r"^\W*([^\W\d][^:：|]{0,40}?)\W*[:：]\s*\**\s*(\S.*)$")
_LOOSE_WORDS = frozenset("current present annual actual official full main primary".split())
#: Lines after a name that still describe the person it names (a signature block: name, title, company, date).
_BLOCK_LINES = 3


def _label_words(label: str) -> set[str]:
    return {w for w in normalize(label).split() if w not in _LOOSE_WORDS}


def namesake_value(ctx: GenContext, fact: FactNode) -> str | None:
    """Another page naming someone of the fact's full name with a different value under the same label: the
    employee "Marcus Johnson" (Job Title: Customer Success Manager) and a client's signatory "Marcus Johnson"
    (Title: Chief Claims Officer). "What is Marcus Johnson's job title?" then has two right answers.

    Only for labelled facts of a subject of two or more words (a person's or a company's full name); the other
    name must stand alone on its line (a heading, a signature, "Name: …") and the other value under a label with
    the same head noun ("Title" for "Job Title") within the next few lines (a signature or contact block)."""
    if fact.source not in _STRUCTURED or not fact.subject_entity:
        return None
    entity = ctx.entities.get(fact.subject_entity)
    name = entity.name if entity else fact.subject
    wanted = _label_words(fact.attribute)
    if len(name.split()) < 2 or not wanted:
        return None
    needle, value = normalize(name), normalize(fact.value)
    for chunk_id in sorted(ctx.chunks_with(name)):
        chunk = ctx.chunks[chunk_id]
        if chunk.doc_id == fact.doc_id:
            continue
        lines = chunk.text.splitlines()
        for at, line in enumerate(lines):
            if _named_alone(line) != needle:
                continue
            for near in lines[at + 1 : at + 1 + _BLOCK_LINES]:
                match = _LABEL_LINE.match(_plain(near))
                if match is None:
                    continue
                label, other = _label_words(match.group(1)), normalize(match.group(2))
                same = bool(label) and label <= wanted and _head(match.group(1)) == _head(fact.attribute)
                if same and other and other != value and value not in other:
                    return f"{chunk.doc_id}: {near.strip()[:60]}"
    return None


#: Labels of a person's title, which tells two people of one name apart.
_TITLE_LABEL = re.compile(r"^\s*(?:job title|title|position|role|직책|직위|직함|职位|職位|役職)\s*$", re.I)


def person_namesakes(ctx: GenContext) -> dict[str, str]:
    """Entity id → a namesake of another title (see :func:`namesake_value`), for every entity whose title has
    one: "Robert Chen" the engineer and "Robert Chen" a client's Chief Underwriting Officer."""
    found: dict[str, str] = {}
    for fact in ctx.facts:
        if fact.subject_entity and fact.subject_entity not in found and _TITLE_LABEL.search(fact.attribute):
            other = namesake_value(ctx, fact)
            if other:
                found[fact.subject_entity] = other
    return found


def _plain(line: str) -> str:
    return line.replace("*", "").replace("_", " ").strip(" -#>\t")


def _named_alone(line: str) -> str:
    """The name a line holds alone (a heading, a bold signature line, "Name: X"), normalised; else ""."""
    text = _plain(line)
    match = _LABEL_LINE.match(text)
    if match is not None and _head(match.group(1)) == "name":
        text = match.group(2)
    return normalize(text)


def _head(label: str) -> str:
    """The last word of a label, its head noun ("Job Title" → "title")."""
    words = normalize(label).split()
    return words[-1] if words else ""


#: Labels of a price, which a page's price table may give again by season, age or plan.
_PRICE_LABEL = re.compile(
    r"price|pricing|\bfees?\b|\bcost\b|\bfares?\b|tuition|가격|판매가|요금|정가|价格|票价|価格|料金", re.I
)


def priced_again(ctx: GenContext, fact: FactNode) -> str | None:
    """A labelled price that the page's own table gives again beside other prices of the same row ("판매가:
    1,290,000원" and "| 성인 | 1,290,000원 | 1,490,000원 |" by season) on the subject's own page: "How much
    is X?" then has several right answers, and the label alone does not say which one it is."""
    if fact.source not in ("key_value", "table") or fact.value_type != "money" or fact.qualifier:
        return None
    if not _PRICE_LABEL.search(fact.attribute):
        return None
    entity = ctx.entities.get(fact.subject_entity or "")
    if entity is None or entity.home_doc is None:
        return None  # only the subject's own page tells its prices apart; a catalog's rows are other things
    value, own = normalize(fact.value), normalize(fact.evidence)
    for chunk in ctx.chunks_by_doc.get(entity.home_doc, []):
        if value not in ctx.chunk_norm[chunk.chunk_id]:
            continue
        for line in chunk.text.splitlines():
            if not line.lstrip().startswith("|") or value not in normalize(line) or normalize(line) in own:
                continue
            if find_values(table_cells(line)[0]):
                continue  # a year's row ("| 2024년 | 212억 원 | 21억 원 |"): a dated value, not a variant
            amounts = {normalize(v.text) for v in find_values(line) if v.value_type == "money"}
            if amounts - {value}:
                return line.strip()
    return None


#: How far past a row's name, in characters, another page may write its price ("데일리 패스(1일 25,000원").
_PRICE_NEAR = 12
#: Letters a row's name must have to be found on other pages as that row ("Day Pass", "데일리 패스"; not "성인").
_ROW_NAME_LETTERS = 4


def priced_otherwise(ctx: GenContext, fact: FactNode) -> str | None:
    """A table row's price that another page of the same folder writes just after the row's name as another amount
    of the same currency, without the fact's own ("| 데일리 패스 | 1일 자유석 | 30,000원 / 1일 |" and the FAQ's
    "데일리 패스(1일 25,000원, VAT 별도)"): the knowledge base gives two prices for the row, one of them stale,
    and a question about it has two answers. The line, or None."""
    label = (row_in_label(fact) or row_label(fact)).strip(" *_") if fact.source == "table" else ""
    if len(re.sub(r"\W", "", label)) < _ROW_NAME_LETTERS:
        return None
    amounts = [v for v in find_values(fact.value) if v.value_type == "money" and v.number is not None]
    priced_cells = [c for c in table_cells(fact.evidence) if any(v.value_type == "money" for v in find_values(c))]
    if not amounts or len(priced_cells) > 1:
        return None  # a row of several prices (a half, a pint, a case) is named beside each of them elsewhere
    mine, name = amounts[0], normalize(label)
    folder = ctx.doc_type(fact.doc_id)
    for chunk_id in sorted(ctx.chunks_with(name)):
        doc_id = ctx.chunks[chunk_id].doc_id
        if doc_id == fact.doc_id or ctx.doc_type(doc_id) != folder:
            continue
        for line in ctx.chunks[chunk_id].text.splitlines():
            norm = normalize(line)
            at = norm.find(name)
            if at < 0 or normalize(mine.text) in norm:
                continue  # a notice's row of old and new prices, the fact's among them, is another check's
            near = norm[at + len(name) : at + len(name) + _PRICE_NEAR + len(mine.text)]
            if any(
                v.value_type == "money" and v.unit == mine.unit and v.number not in (None, mine.number)
                for v in find_values(near)
            ):
                return line.strip()
    return None
