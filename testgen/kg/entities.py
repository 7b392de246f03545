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

from schemas import Document, EntityNode, FactNode
from testgen.kg.mining import MinedDocument
from testgen.kg.values import classify_value
from testgen.lang import GENERIC_HEADINGS
from testgen.text import normalize

_MAX_NAME = 60


def entity_id(name: str) -> str:
    """Id of the entity with this name: ``entity:`` + normalised name."""
    return "entity:" + normalize(name)


# A subtitle starts after " - ", " – ", " | ", ": " or an em dash (spaced, or unspaced between Latin words:
# "Quinazolinones—Synthesis").
# Between CJK words a single em dash joins names ("罗素—爱因斯坦宣言"); a doubled one starts a subtitle.
_SUBTITLE = re.compile(r"\s[\-–|]\s|[:：]\s|\s+—+\s*|\s*—+\s+|(?<=[^\W\d_])—(?=[A-Za-z])|——+")


def short_title(title: str) -> str:
    """A title without its subtitle: "Contract with X for Y: Z" → "Contract with X for Y",
    "Velvera Watch Series — Product Specification Document" → "Velvera Watch Series"."""
    return _SUBTITLE.split(title.strip())[0].strip() or title.strip()


_PARENTHETICAL = re.compile(r"\s*[(（][^()（）]*[)）]")


def without_parentheticals(name: str) -> str:
    """A name without its bracketed parts: "Haneul Travel (하늘여행)" → "Haneul Travel", "HBO (频道)" → "HBO".

    Returns ``name`` unchanged when nothing would be left. Whether the shorter form is still unambiguous is
    the caller's question (two pages "Mercury (planet)" and "Mercury (element)"): see :func:`resolve_entities`.
    """
    bare = " ".join(_PARENTHETICAL.sub("", name).split())
    return bare if re.search(r"\w", bare) else name.strip()


# -- names people use ---------------------------------------------------------------------------------------

_FILE_EXTENSION = re.compile(
    r"\.(?:md|markdown|txt|rst|html?|xhtml|php|aspx?|pdf|docx?|odt|rtf|json|jsonl|csv|tsv|xlsx?|pptx?|ya?ml|xml)$",
    re.IGNORECASE,
)
# A cleaned file stem keeps its extension as a last word ("recipes html", "40 1 html").
_EXTENSION_WORDS = frozenset("md markdown txt html htm php aspx pdf docx".split())
_TLDS = "com|org|net|io|edu|gov|info|biz|dev|app|ai|co|uk|eu|de|fr|jp|kr|cn|ru|in|au|ca|us|tv|me|wiki|run"
_DOMAIN = re.compile(
    rf"https?://|\bwww\.|\b[a-z0-9][a-z0-9-]*\.(?:[a-z0-9-]+\.)*(?:{_TLDS})\b"
    # a domain whose dots became spaces or underscores: "stardewvalleywiki com", "arxiv org pdf"
    r"|\b[a-z0-9][a-z0-9-]*[\s_](?:com|org|net|io|edu|gov)\b"
)
_HYPHEN_SLUG = re.compile(r"(?<![\w-])[a-z0-9]+(?:-[a-z0-9]+){3,}(?![\w-])")
_PLACEHOLDER = re.compile(r"(?:untitled|new document|document|doc|file|page|noname|no title)[\s_-]*\d*", re.I)
_LABEL_LINE = re.compile(r"(?:abstract|summary|text|title|keywords?|description|tl;?dr|note|background)\s*[:：]", re.I)
_ABBREVIATION_END = re.compile(r"(?:\b[A-Z][A-Za-z]{0,4}|\b[a-z]{1,3})\.$")  # "Ltd.", "Co.", "K.", "spp."
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_MAX_WORDS = 12
_MAX_CJK_CHARS = 25


def _year_like(digits: str) -> bool:
    return len(digits) == 4 and 1000 <= int(digits) <= 2099


def leading_number_end(name: str, *, spaced: bool) -> int:
    """Where a number that numbers a file rather than naming a thing ends (0 when there is none).

    Followed by ``_`` or ``)`` ("3_notes", "2628_…", "1)"), by ". " ("1. Overview"), or by "-" and a letter
    when zero-padded or a long non-year ("01-intro", "123-x"; "2019-nCoV" and "3-year" are names). With
    ``spaced``, a number followed by a space counts too, unless it is a year or a small count ("1918
    Influenza", "3 Idiots"): zero-padded, five digits and more, or three to four digits that are no year.
    """
    match = re.match(r"(\d+)(?:([_)])|(\.)\s|(-)(?=[^\W\d_])|(\s)(?=\S))", name)
    if match is None:
        return 0
    digits = match.group(1)
    numbered = digits.startswith("0") or len(digits) >= 5 or (len(digits) >= 3 and not _year_like(digits))
    if match.group(2) or match.group(3) or (match.group(4) and numbered) or (match.group(5) and spaced and numbered):
        return match.end()
    return 0


def _leading_id(name: str) -> bool:
    """A number that numbers the file rather than naming the thing: "2628 Haunted…", "01-intro", "3_notes"."""
    return leading_number_end(name, spaced=True) > 0


def _id_token(word: str) -> bool:
    """A hash or opaque id ("ljtdg6eaucrbf1aksw5rm", "acf2defda30e"): long, lowercase, letters and digits mixed."""
    if len(word) < 8 or not word.isalnum() or not word.isascii() or word.lower() != word:
        return False
    return sum(ch.isdigit() for ch in word) >= 2 and sum(ch.isalpha() for ch in word) >= 2


def _sentence_like(name: str) -> bool:
    text = name.strip().strip("\"'“”‘’")
    if _LABEL_LINE.match(text):
        return True  # "Abstract: We report…"
    if "。" in text.rstrip("。") or re.search(r"[?？]\s*\S", text):
        return True  # a sentence break inside the name
    if text.endswith(("?", "？", "。")):
        return True  # a question or a statement; "!" ends brand names too ("Yahoo!", "停止！！云雀")
    words = text.split()
    if text.endswith("!") and len(words) >= 4:
        return True  # "Earn SkyPoints Faster with Us!"
    if text.endswith(".") and not _ABBREVIATION_END.search(text):
        return True
    # "condition is a boolean, True of False": prose starts with a lowercase word; names rarely do
    return len(words) >= 4 and words[0].isalpha() and words[0].isascii() and words[0].islower()


def name_problems(name: str) -> tuple[str, ...]:
    """Why ``name`` is not a name a person would type as the subject of a question; ``()`` when it is.

    Each problem is one of:

    - ``empty``: nothing but spaces or punctuation;
    - ``file extension``: ends with ``.md``, ``.txt``, ``.html``, ``.pdf``, … or, once cleaned, a last word
      ``html``/``md``/… ("15 chakoteya net DoctorWho 40 1 html");
    - ``underscore``: a slug or identifier (``Version_History``, ``Google_検索``);
    - ``url or domain``: ``https://``, ``www.``, ``example.com``, or a domain whose dots became spaces
      (``stardewvalleywiki com``);
    - ``slug``: four or more lowercase words joined by hyphens (``so-into-northern-spain``), or an opaque
      id token (``ljtdg6eaucrbf1aksw5rm``);
    - ``leading id``: a number that numbers the file, not the thing ("2628 Haunted…", "01-intro",
      "3_notes", "1. Overview"); years ("1918 Influenza") and small counts ("3 Idiots") are fine;
    - ``placeholder``: "untitled", "untitled 2", "document 3", …;
    - ``too long``: more than 12 words, or a run of more than 25 Chinese/Japanese/Korean characters;
    - ``sentence``: reads as prose, not as a name: ends with ``. ? !`` (abbreviations such as "Ltd." and
      initials are fine), has a sentence break inside, opens with a label such as "Abstract:", or opens
      with a lowercase word and runs to four words or more;
    - ``lowercase``: two or more Latin words with no capital letter or digit at all ("audio catalog",
      "so into northern spain"): a cleaned slug, not a name as it is written.

    Names in any script are judged; the checks on case apply only to Latin words. The function is pure and
    cheap, so a quality gate can call it on every generated question's subject.
    """
    text = " ".join(name.split())
    if not re.search(r"\w", text):
        return ("empty",)
    problems: list[str] = []
    words = [w for w in text.split() if re.search(r"\w", w)]  # "&" and "—" are not words
    if _FILE_EXTENSION.search(text) or (len(words) > 1 and words[-1] in _EXTENSION_WORDS):
        problems.append("file extension")
    if "_" in text:
        problems.append("underscore")
    if _DOMAIN.search(text):
        problems.append("url or domain")
    if _HYPHEN_SLUG.search(text) or any(_id_token(w) for w in words):
        problems.append("slug")
    if _leading_id(text):
        problems.append("leading id")
    if _PLACEHOLDER.fullmatch(text):
        problems.append("placeholder")
    if len(words) > _MAX_WORDS or any(len(run) > _MAX_CJK_CHARS for run in re.findall(f"(?:{_CJK.pattern})+", text)):
        problems.append("too long")
    if _sentence_like(text):
        problems.append("sentence")
    latin = [w for w in words if re.fullmatch(r"[A-Za-z][A-Za-z'’&.-]*", w)]
    if len(words) >= 2 and len(latin) == len(words) and text == text.lower():
        problems.append("lowercase")
    return tuple(problems)


def is_usable_name(name: str) -> bool:
    """Whether ``name`` can be the subject of a question: the name a person would type for the thing.

    False for file names with an extension, slugs and identifiers with underscores, URLs and domains,
    hyphenated lowercase slugs and opaque ids, leading numeric ids ("2628 …", "01-…"), placeholders
    ("untitled 2"), names over about 12 words (25 CJK characters), sentence-like text and all-lowercase
    multi-word Latin slugs. :func:`name_problems` gives the reasons. Examples::

        is_usable_name("Aurora Cargo Max")                         # True
        is_usable_name("하늘여행")                                   # True
        is_usable_name("陆军总司令部")                               # True
        is_usable_name("16 stardewvalleywiki com Version History")  # False: url or domain, leading id
        is_usable_name("notes.md")                                  # False: file extension
        is_usable_name("Abstract: We measured …")                   # False: sentence

    Subjects built by :func:`resolve_entities` are short titles of documents, table row headers and
    recurring values; a quality gate rejects a question whose subject fails this test.
    """
    return not name_problems(name)


def is_generic_title(title: str) -> bool:
    """Titles that name a kind of page, not a thing ("Company Overview", "연혁", "FAQ")."""
    words = re.findall(r"\w+", normalize(title))
    return not words or all(w in GENERIC_HEADINGS or w.isdigit() for w in words)


_GLUE = {"of", "the", "and", "&", "for", "about", "on", "및", "의"}


def title_core(title: str) -> str:
    """A title without its generic words: "History of Aurora Bikes" → "aurora bikes", "하늘여행 연혁" → "하늘여행"."""
    words = re.findall(r"\w+", normalize(short_title(title)))
    return " ".join(w for w in words if w not in GENERIC_HEADINGS and w not in _GLUE)


def _core_surface(title: str, core: str) -> str:
    """The words of `title` that make up `core`, with their original casing."""
    wanted = core.split()
    words = [w for w in re.findall(r"\w+", title) if normalize(w) in wanted]
    return " ".join(words) or core


def _name_like(value: str) -> bool:
    if len(value) > 40 or classify_value(value) is not None:
        return False
    if re.search(r"[\uac00-\ud7af\u3040-\u30ff\u4e00-\u9fff]", value):
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
    plain = plain_names([short_title(doc.title) for doc in subject_docs] + [name for name, _ in rows])
    for doc in subject_docs:
        base = short_title(doc.title)
        key = index.add(plain[base], doc.doc_type, doc.doc_id)
        for alias in (base, doc.title):
            index.add_alias(key, alias)  # no-op when equal to the name
    for name, entity_type in rows:
        key = index.add(plain[name], entity_type)
        index.add_alias(key, name)
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


def attach_entities(facts: list[FactNode], index: EntityIndex, doc_subject: str | None) -> list[FactNode]:
    """Facts with `subject_entity` and `value_entity` filled where a name resolves."""
    out = []
    for fact in facts:
        subject_entity = index.lookup(fact.subject)
        if subject_entity is None and doc_subject is not None:
            subject_entity = doc_subject
        subject = fact.subject
        if subject_entity is not None and index.lookup(fact.subject) is None:
            subject = index.entities[subject_entity].name  # a page title that names no entity
        value_entity = index.lookup(fact.value) if fact.value_type == "text" else None
        out.append(
            fact.model_copy(update={"subject": subject, "subject_entity": subject_entity, "value_entity": value_entity})
        )
    return out
