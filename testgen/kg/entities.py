"""Entities resolved across documents, and where each is mentioned.

An entity is a named thing with one normalised name: the subject of a document (its title), a row header
of a table, or a short name-like value of a key–value line that recurs across documents (``Client:
Greenline Couriers``). Mentions are found with one trie-shaped regular expression over every name, so
scanning stays linear in the text however many entities there are.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from schemas import Document, EntityNode, FactNode
from testgen.kg.mining import MinedDocument, is_entity_heading
from testgen.kg.values import classify_value
from testgen.lang import KO_SERVICE_KINDS, ko
from testgen.lang.scripts import CJK, HANGUL
from testgen.names import (
    QUOTED_WORK,
    is_generic_title,
    page_kind_title,
    short_title,
    title_cased,
    title_core,
    without_parentheticals,
    without_trailing_note,
)
from testgen.text import normalize

_MAX_NAME = 60


def entity_id(name: str) -> str:
    """Id of the entity with this name: ``entity:`` + normalised name."""
    return "entity:" + normalize(name)


def _core_surface(title: str, core: str) -> str:
    """The words of `title` that make up `core`, as the title writes them, an ampersand between two of them kept
    ("Gull & Lantern" of "About the Gull & Lantern"); a title in capitals gives them capitalised ("GULL & LANTERN -
    STAFF HANDBOOK" → "Gull & Lantern")."""
    wanted = core.split()
    words: list[str] = []
    for token in re.findall(r"\w+|&", title):
        joining = token == "&" and bool(words) and words[-1] != "&"
        if joining or (token != "&" and normalize(token) in wanted):
            words.append(token)
        elif words and words[-1] == "&":
            words.pop()  # "&" before a word that is no part of the core
    while words and words[-1] == "&":
        words.pop()
    surface = " ".join(words) or core
    # a name in capitals, not an acronym ("AFM", "NASA JPL"): words of four letters or more
    spelled = all(len(w) >= 4 or not w.isalpha() for w in words)
    return title_cased(surface) if surface.isupper() and len(words) >= 2 and spelled else surface


#: Values that answer yes or no, or say whether a thing is offered, in a comparison table: no thing's name.
_VERDICTS = frozenset(
    "yes|no|y|n|true|false|none|included|optional|available|unavailable|supported|unlimited|custom|free|"
    "not included|not available|not supported|예|아니오|있음|없음|가능|불가|"
    "지원|미지원|포함|미포함|무제한|무료|유료|별도|해당 없음|免费|收费|無料|有料".split("|")
    + "是|否|有|无|無|可|不可|あり|なし".split("|")
)


def _name_like(value: str) -> bool:
    if len(value) > 40 or classify_value(value) is not None or value.strip().lower() in _VERDICTS:
        return False
    if re.search(f"[{CJK}]", value):
        return len(value.replace(" ", "")) <= 15 and len(value.split()) <= 3
    words = value.split()
    if not 1 <= len(words) <= 5:
        return False
    significant = [w for w in words if w.lower() not in {"of", "the", "and", "&", "for", "de"}]
    return all(w[:1].isupper() or w[:1].isdigit() for w in significant)


@dataclass
class EntityIndex:
    """Resolved entities and the subject each document speaks about."""

    entities: dict[str, EntityNode] = field(default_factory=dict)
    doc_subject: dict[str, str] = field(default_factory=dict)  # doc_id -> entity_id
    _aliases: dict[str, str] | None = None  # normalised alias -> entity_id, rebuilt after changes

    def add(self, name: str, entity_type: str, home_doc: str | None = None) -> str:
        key = entity_id(name)
        existing = self.entities.get(key)
        self._aliases = None
        if existing is None:
            self.entities[key] = EntityNode(entity_id=key, name=name, entity_type=entity_type, home_doc=home_doc)
        elif home_doc and existing.home_doc is None:
            self.entities[key] = existing.model_copy(update={"home_doc": home_doc, "entity_type": entity_type})
        return key

    def add_alias(self, key: str, alias: str) -> None:
        node = self.entities[key]
        self._aliases = None
        if normalize(alias) != normalize(node.name) and alias not in node.aliases:
            self.entities[key] = node.model_copy(update={"aliases": [*node.aliases, alias]})

    def lookup(self, name: str) -> str | None:
        key = entity_id(name)
        return key if key in self.entities else self._alias_map().get(normalize(name))

    def _alias_map(self) -> dict[str, str]:
        if self._aliases is None:
            self._aliases = {normalize(a): key for key, node in self.entities.items() for a in node.aliases}
        return self._aliases

    def surface_forms(self) -> dict[str, str]:
        """Normalised surface form → entity_id, for mention scanning (names shorter than 2 chars skipped)."""
        forms: dict[str, str] = {}
        for key, node in self.entities.items():
            for form in (node.name, *node.aliases):
                norm = normalize(form)
                if len(norm) >= 2 and not (norm.isascii() and len(norm) < 3):
                    forms.setdefault(norm, key)
        return forms


def plain_names(names: list[str]) -> dict[str, str]:
    """Each name → the name questions use: without its bracketed parts when that stays unambiguous.

    "Haneul Travel (하늘여행)" → "Haneul Travel", "Seoul Office (Gangnam)" → "Seoul Office"; but when two
    names drop to the same words ("Mercury (planet)", "Mercury (element)", or "Mercury" itself next to
    "Mercury (planet)"), every one of them keeps its brackets. Names are compared normalised.
    """
    variants: dict[str, set[str]] = {}
    for name in names:
        variants.setdefault(normalize(without_parentheticals(name)), set()).add(normalize(name))
    out = {}
    for name in names:
        bare = without_parentheticals(name)
        out[name] = bare if len(variants[normalize(bare)]) == 1 else name
    return out


def resolve_entities(documents: list[Document], mined: dict[str, MinedDocument]) -> EntityIndex:
    """Collect entities from titles, table rows and recurring name-like values; pick each doc's subject."""
    index = EntityIndex()
    names = {normalize(short_title(d.title)) for d in documents}
    # "About Insurellm", "Insurellm Culture": a core shared by several page titles (or equal to another
    # page's title) names the entity those pages are about; the pages themselves are not entities.
    cores: Counter[str] = Counter()
    core_form: dict[str, str] = {}
    for doc in documents:
        core = title_core(doc.title)
        if core and core != normalize(short_title(doc.title)):
            cores[core] += 1
            core_form.setdefault(core, _core_surface(short_title(doc.title), core))
    page_cores = {core for core, n in cores.items() if n >= 2 or core in names}
    for core in sorted(page_cores - names):
        index.add(core_form[core], "topic")
    subject_docs = [
        doc
        for doc in documents
        # a page about another entity ("History of Aurora Bikes") is not an entity itself
        if not is_generic_title(doc.title)
        and not (title_core(doc.title) in page_cores and title_core(doc.title) != normalize(short_title(doc.title)))
    ]
    rows = [
        (name, entity_type)
        for doc in documents
        for name, entity_type in mined[doc.doc_id].row_entities
        if len(name) <= _MAX_NAME and classify_value(name) is None and not is_generic_title(name)
    ]
    # a work a heading quotes ("『소리를 모으는 사람』") is the one a catalogue's row names bare: one entity, named
    # in its brackets
    quoted = {normalize(name)[1:-1]: name for name, _ in rows if QUOTED_WORK.fullmatch(name)}
    rows = [(quoted.get(normalize(name), name), entity_type) for name, entity_type in rows]
    plain = plain_names([short_title(doc.title) for doc in subject_docs] + [name for name, _ in rows])
    for doc in subject_docs:
        base = short_title(doc.title)
        key = index.add(plain[base], doc.doc_type, doc.doc_id)
        for alias in (base, doc.title):
            index.add_alias(key, alias)  # no-op when equal to the name
    for name, entity_type in rows:
        key = index.add(plain[name], entity_type)
        index.add_alias(key, name)
        if QUOTED_WORK.fullmatch(name):
            index.add_alias(key, name[1:-1])
    # Name-like values that recur in several documents (clients, partners, cities) become entities too.
    seen: Counter[str] = Counter()
    first: dict[str, tuple[str, str]] = {}
    for doc in documents:
        for name in {f.value for f in mined[doc.doc_id].facts if f.value_type == "text" and f.source != "sentence"}:
            if _name_like(name):
                seen[normalize(name)] += 1
                first.setdefault(normalize(name), (name, doc.doc_id))
    for doc in documents:
        for fact in mined[doc.doc_id].facts:
            norm = normalize(fact.value)
            if fact.value_type == "text" and seen[norm] >= 2 and entity_id(fact.value) not in index.entities:
                index.add(first[norm][0], normalize(fact.attribute))
    return index


def build_matcher(forms: dict[str, str]) -> re.Pattern[str] | None:
    """One regex matching any of the normalised forms, longest first, shaped as a trie for speed."""
    if not forms:
        return None
    trie: dict[str, dict] = {}
    for form in forms:
        node = trie
        for ch in form:
            node = node.setdefault(ch, {})
        node[""] = {}

    def render(node: dict[str, dict]) -> str:
        ends = "" in node
        branches = [re.escape(ch) + render(child) for ch, child in sorted(node.items()) if ch]
        if not branches:
            return ""
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        if ends:
            body = "(?:" + body + ")?"
        return body

    # Latin names need word boundaries; CJK names are followed by particles and need none.
    return re.compile(r"(?<![0-9a-z])(" + render(trie) + r")")


def find_mentions(norm_text: str, matcher: re.Pattern[str] | None, forms: dict[str, str]) -> Counter[str]:
    """Entity ids mentioned in a normalised text, with counts."""
    found: Counter[str] = Counter()
    if matcher is None:
        return found
    for match in matcher.finditer(norm_text):
        form = match.group(1)
        end = match.end(1)
        if (
            form[-1:].isascii()
            and form[-1:].isalnum()
            and end < len(norm_text)
            and norm_text[end].isalnum()
            and norm_text[end].isascii()
        ):
            continue  # "Volt" inside "Voltage"
        key = forms.get(form)
        if key:
            found[key] += 1
    return found


#: FactNode fields whose values recur across facts as separate but equal objects: a section's heading, a column
#: header, a repeated cell value, a unit, a date key, a row label. Subject and entity ids are pooled beside them. The
#: document and chunk ids are not (the miner's facts hold the corpus's own, and facts mined in another process one
#: copy per document and chunk), nor a line's evidence and offsets (one object per line already, and lines differ).
_POOLED_FIELDS = ("attribute", "value", "unit", "date_key", "qualifier", "context")


def record_sections(facts: list[FactNode], doc_title: str | None) -> dict[str, str]:
    """Section heading → the name of the thing it is about, on a page of records: sections that give the same labels
    ("## Lemur Walk-Through Experience", "## Penguin Feed", each with "Price" and "Duration") each describe a thing of
    their own, not the page ("Animal Encounters 2024"); "## Employment — for employees and small employers" names
    "Employment". Only sections whose heading reads as a name."""
    subjects: dict[str, str] = {}  # section → the subject the miner gave its facts
    for f in facts:
        if f.source == "key_value" and f.context:
            subjects.setdefault(f.context, f.subject)
    # a heading the miner read as a name keeps it ("Page Turners" of "Page Turners — teen book club (ages 13–17)")
    named = {c: subjects[c] if subjects[c] != doc_title else _record_name(c) for c in record_contexts(facts)}
    return {context: name for context, name in named.items() if name}


def record_contexts(facts: list[FactNode]) -> set[str]:
    """The sections of one page's facts that give a label another section gives too: the records of a page of
    records (a label any section may carry, such as "Notes", does not count)."""
    labels: dict[str, set[str]] = {}
    for f in facts:
        if f.source == "key_value" and f.context and normalize(f.attribute) not in _REMARK_LABELS:
            labels.setdefault(f.context, set()).add(normalize(f.attribute))
    sections = Counter(label for own in labels.values() for label in own)  # label → how many sections give it
    return {context for context, own in labels.items() if any(sections[label] >= 2 for label in own)}


#: Labels any section may carry, which say nothing of what kind of record it is.
_REMARK_LABELS = frozenset("notes note remarks comments details other 비고 참고 기타 메모 备注 備考".split())


def _record_name(heading: str) -> str | None:
    """The name a record's heading gives ("Employment" of "Employment — for employees and small employers",
    "Keeper for a Day"), or None for a heading of no name: generic words ("Terms", "Action Items"), a date, a
    number, or a clause."""
    name = without_trailing_note(re.split(r"\s+[—–-]\s+|:\s", re.sub(r"^[\d.)\s]+", "", heading))[0]).strip()
    words = re.findall(r"\w+", normalize(name))
    if not words or len(words) > _RECORD_NAME_WORDS or is_generic_title(name) or page_kind_title(name):
        return None
    if re.search(r"\d", name):
        return None
    if re.match(f"[{HANGUL}]", name):
        return name if _korean_record_name(name) else None
    return name if name[:1].isupper() else None


#: The last word of a Korean record's name that says it is a unit, a class or a group of people.
_KO_RECORD_KIND = re.compile("(?:" + "|".join(sorted(KO_SERVICE_KINDS)) + r"|강습|그룹|팀|파트|분과)$")


def _korean_record_name(name: str) -> bool:
    """Whether a Korean heading names a record's thing: a place or body ("역삼점"), a person with a post ("이도현
    선생님", "박준혁 수의사"), or a class or unit ("성인 강습", "부동산·건설 그룹") — not a period ("공사 기간"), an
    account ("수입") or a post alone ("행정", "지도교수")."""
    if is_entity_heading(name, frozenset()) or _KO_RECORD_KIND.search(name):
        return True
    return len(name.split()) == 2 and ko.is_person_name(name)


_RECORD_NAME_WORDS = 5


def attach_entities(
    facts: list[FactNode],
    index: EntityIndex,
    doc_subject: str | None,
    pool: dict[str | int, Any] | None = None,
    *,
    in_place: bool = False,
    doc_title: str | None = None,
) -> list[FactNode]:
    """Facts with `subject_entity` and `value_entity` filled where a name resolves.

    With `pool` (each string or offset → the same object, kept by the caller across documents), the facts'
    repeated fields are replaced by the pool's equal object, so a large graph keeps one copy of each, not one
    per fact. With `in_place`, the given facts are filled in rather than copied: only for facts nothing else
    holds (a build's freshly mined ones)."""
    out = []
    found: dict[str, str | None] = {}  # name → entity id: a section's facts share their subject
    records = record_sections(facts, doc_title)

    def lookup(name: str) -> str | None:
        if name not in found:
            found[name] = index.lookup(name)
        return found[name]

    for fact in facts:
        # a record of a page of records keeps its section's name, whether or not it names an entity
        record = records.get(fact.context or "") if fact.source == "key_value" else None
        subject = record or fact.subject
        named = lookup(subject)
        subject_entity = named if named is not None or record else doc_subject
        if subject_entity is not None and named is None:
            subject = index.entities[subject_entity].name  # a page title that names no entity
        value_entity = lookup(fact.value) if fact.value_type == "text" else None
        update: dict[str, Any] = {"subject": subject, "subject_entity": subject_entity, "value_entity": value_entity}
        if pool is not None:
            for name in ("subject", "subject_entity", "value_entity"):
                if update[name] is not None:
                    update[name] = pool.setdefault(update[name], update[name])
            own = fact.__dict__
            for name in _POOLED_FIELDS:
                value = own[name]
                if value is not None:  # a field given a value is in the fact's set fields already
                    update[name] = pool.setdefault(value, value)
        out.append(fact.fill_in(update) if in_place else fact.replaced(update))
    return out
