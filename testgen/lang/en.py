"""English surface rules: noun-phrase display of titles, possessives, base forms of past-tense verbs."""

from __future__ import annotations

import re
from dataclasses import dataclass

from schemas import FactNode
from testgen.lang import OFFER_KINDS, SERVICE_KINDS, ValueKind, is_contact_value

# Function words that stay lowercase inside a proper name ("Bank of Korea", "Contract with X" is not a name).
_NAME_GLUE = {"of", "the", "and", "&", "de", "von", "van", "for", "-", "–", "in", "on", "at", "a"}

_IRREGULAR = {
    "became": "become",
    "began": "begin",
    "built": "build",
    "bought": "buy",
    "brought": "bring",
    "chose": "choose",
    "came": "come",
    "did": "do",
    "drew": "draw",
    "fell": "fall",
    "felt": "feel",
    "found": "find",
    "gave": "give",
    "got": "get",
    "went": "go",
    "grew": "grow",
    "had": "have",
    "held": "hold",
    "hit": "hit",
    "kept": "keep",
    "knew": "know",
    "laid": "lay",
    "led": "lead",
    "left": "leave",
    "lent": "lend",
    "lost": "lose",
    "made": "make",
    "met": "meet",
    "paid": "pay",
    "put": "put",
    "ran": "run",
    "rose": "rise",
    "said": "say",
    "saw": "see",
    "sold": "sell",
    "sent": "send",
    "set": "set",
    "shut": "shut",
    "spent": "spend",
    "split": "split",
    "stood": "stand",
    "struck": "strike",
    "swore": "swear",
    "took": "take",
    "taught": "teach",
    "told": "tell",
    "thought": "think",
    "threw": "throw",
    "understood": "understand",
    "won": "win",
    "wrote": "write",
    "overtook": "overtake",
    "undertook": "undertake",
    "withdrew": "withdraw",
    "hired": "hire",
    "moved": "move",
    "closed": "close",
    "based": "base",
    "named": "name",
    "used": "use",
    "released": "release",
    "merged": "merge",
    "changed": "change",
    "retired": "retire",
    "introduced": "introduce",
    "relocated": "relocate",
    "created": "create",
    "acquired": "acquire",
    "secured": "secure",
    "completed": "complete",
    "celebrated": "celebrate",
    "raised": "raise",
    "launched": "launch",
    "opened": "open",
    "joined": "join",
    "signed": "sign",
    "founded": "found",
    "expanded": "expand",
    "reached": "reach",
    "started": "start",
    "entered": "enter",
    "received": "receive",
    "achieved": "achieve",
    "renewed": "renew",
    "surpassed": "surpass",
    "partnered": "partner",
    "announced": "announce",
    "hosted": "host",
    "added": "add",
    "formed": "form",
    "debuted": "debut",
    "unveiled": "unveil",
    "shipped": "ship",
    "passed": "pass",
    "promoted": "promote",
    "appointed": "appoint",
    "registered": "register",
    "established": "establish",
}
_VERB_LIKE = re.compile(r"^[A-Za-z]+ed$")


def is_proper_name(title: str) -> bool:
    """Whether a Latin title reads as a name ("Aurora Volt 500", "Bank of Korea") rather than a common
    noun phrase ("Contract with Greenline", "Travel expense policy")."""
    words = [w for w in re.split(r"\s+", title.strip()) if w]
    if not words or not re.match(r"[A-Za-z]", title):
        return False
    for word in words:
        if word.lower() in _NAME_GLUE:
            continue
        if not (word[0].isupper() or word[0].isdigit()):
            return False
    return True


#: Last words of names that are said with "the": offices and units of an organisation.
_TAKES_THE = (
    frozenset(
        "office headquarters branch department division committee board council unit centre center ward team "
        "service services desk".split()
    )
    | OFFER_KINDS
    | SERVICE_KINDS
)
#: A body named "<kind> of/for <name>" takes "the": "the Association for Distributed Generation Standards", "the
#: University of Florida", "the Royal Society of Chemistry" (a kind before "of" that is a name's own word, "Bank of
#: America", is left alone).
_INSTITUTION_OF = re.compile(
    r"^(?:[A-Z][\w'’-]*\s+){0,2}(?:Association|Society|Institute|Institution|University|College|Academy|Museum|"
    r"Ministry|Department|Office|Board|Council|Commission|Committee|Federation|Foundation|Agency|Authority|Union|"
    r"League|Republic|Kingdom|Centre|Center|Library|Court|Bureau|Organisation|Organization|Alliance|Congress|"
    r"Parliament|Assembly)\s+(?:of|for)\s+(?:the\s+)?[A-Z]"
)


def noun_phrase(title: str, *, generic_words: frozenset[str] = frozenset()) -> str:
    """How a title reads inside a sentence: names as written, common nouns with "the" and lowercased head.

    "Aurora Volt 500" → "Aurora Volt 500"; "Contract with Greenline Couriers" →
    "the contract with Greenline Couriers"; "Remote Work Policy" → "the remote work policy".
    """
    title = re.split(r"\s[:\-–]\s|:\s", title.strip())[0].strip()
    words = title.split()
    if not words:
        return title
    lowered = {w.lower() for w in words}
    if _INSTITUTION_OF.match(title):
        return "the " + title
    if is_proper_name(title) and words[-1].lower() in _TAKES_THE and words[0].lower() != "the":
        return "the " + title  # "the Portland Sales Office", "the Bellingham Headquarters"
    if is_proper_name(title) and (not (lowered & generic_words) or words[-1].lower() not in generic_words):
        return title  # a name, even with a generic word inside ("Velvera Anniversary Experience Box")
    if words[0].lower() in ("the", "a", "an"):
        words = words[1:]
    if is_proper_name(title):
        # a title-cased phrase ending in a kind of page ("Cendara University Accreditation Status"): the generic
        # words are lowered, the rest may be names and keeps its case ("the Cendara University Accreditation status")
        out = [w.lower() if w.lower() in generic_words else w for w in words]
    elif _title_cased(words):
        out = words  # "Home to School Transport": a service's name in title case, short joining words aside
    else:
        # "Contract with Greenline Couriers": only the head noun is generic
        out = [words[0].lower(), *words[1:]]
    return "the " + " ".join(out)


def _title_cased(words: list[str]) -> bool:
    """Whether every word of four letters or more is capitalised, and there are three of them at least."""
    long = [w for w in words if len(w) >= _TITLE_WORD and w[:1].isalpha()]
    return len(long) >= _TITLE_WORDS and all(w[:1].isupper() for w in long)


_TITLE_WORD = 4
_TITLE_WORDS = 3


def possessive(name: str) -> str:
    """ "Mina Cho" → "Mina Cho's"; "Aurora Bikes" → "Aurora Bikes'"; "the contract" → "the contract's"."""
    return name + ("'" if name.endswith("s") and not name.endswith("ss") else "'s")


def base_form(verb: str, vocabulary: frozenset[str] = frozenset()) -> str | None:
    """Base form of a past-tense verb, or None when the word does not look like one.

    Irregular verbs come from a table; regular ones drop -ed, restoring a final -e when the corpus
    vocabulary knows that form ("acquired" → "acquire") and undoubling consonants ("shipped" → "ship").
    """
    low = verb.lower()
    if low in _IRREGULAR:
        return _IRREGULAR[low]
    if not _VERB_LIKE.match(low) or len(low) < 5:
        return None
    if low.endswith("ied"):
        return low[:-3] + "y"
    stem = low[:-2]
    if stem + "e" in vocabulary or stem + "es" in vocabulary:
        return stem + "e"
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "lsfz":
        return stem[:-1]
    if stem in vocabulary or stem + "s" in vocabulary or stem + "ing" in vocabulary:
        return stem
    if re.search(r"(v|z|c|[^aeiou]at|iz|ur|ir|g|[aiu]s)$", stem) and not stem.endswith("cus"):
        return stem + "e"
    return stem


def a_or_an(word: str) -> str:
    """Indefinite article for a word."""
    return "an" if word[:1].lower() in "aeiou" else "a"


def plural_to_singular(word: str) -> str:
    """Rough singular of a folder name: "people" → "person", "policies" → "policy", "products" → "product"."""
    low = word.lower()
    special = {
        "people": "person",
        "staff": "staff member",
        "faq": "FAQ",
        "company": "company",
        "employees": "employee",
        "news": "news item",
    }
    if low in special:
        return special[low]
    if low.endswith("ies"):
        return low[:-3] + "y"
    if low.endswith(("ses", "xes", "ches", "shes")):
        return low[:-2]
    if low.endswith("s") and not low.endswith("ss"):
        return low[:-1]
    return low


# -- labels and values -------------------------------------------------------------------------------------

_MONTH_NAMES = frozenset(
    "january february march april may june july august september october november december "
    "jan feb mar apr jun jul aug sep sept oct nov dec".split()
)
_DIGIT_OK_BEFORE = frozenset("year phase tier level day week month stage grade step round quarter".split())
_CODE = re.compile(r"^[A-Za-z]{1,5}-?\d{2,}[A-Za-z]?$|^\d+[:/.-]\d+")
_NUMBERED = re.compile(r"^(q[1-4]|h[12]|fy\d{2,4}|(19|20)\d\d)$", re.I)
_PREPOSITIONS = frozenset("on of in at by for to from with as and or the a an".split())
_NOT_FIRST = frozenset(
    "and or for to if when how why what which do don't don’t please you your we our it this that".split()
)
_NOT_PLURAL = frozenset(
    "news series species status analysis basis bonus campus census chassis corpus focus lens plus process "
    "address access business class canvas radius thesis diagnosis virus bus gas yes hours".split()
)


def _outside_brackets(label: str) -> str:
    return re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", label)


def is_attribute_label(label: str) -> bool:
    """Whether a key–value label or column header reads as the name of an attribute ("Founded", "Price (USD)")
    rather than a value pasted into the label's place ("10:30", "VL-008 email", "March", "($1M-5M)", an
    e-mail address, or a whole clause of more than six words)."""
    label = label.strip().rstrip(":").strip()
    if not label or "@" in label or re.search(r"[\"“”?!;]", label):
        return False
    for bracket in re.findall(r"\(([^)]*)\)|\[([^\]]*)\]", label):
        inner = "".join(bracket)
        if re.search(r"\d", inner) or re.search(r"[$€£¥₩]", inner) or len(inner.split()) > 6:
            return False
    words = _outside_brackets(label).replace(",", " ").split()
    if not words or len(words) > 6:
        return False
    low = [w.lower().strip(".") for w in words]
    if len(low) == 1 and low[0] in _MONTH_NAMES:
        return False
    if low[-1] in _PREPOSITIONS - {"on", "in", "at", "by", "to"} or low[0] in _NOT_FIRST:
        return False  # "Payment of", "For claim status, contact", "If delayed"
    if "," in _outside_brackets(label) or re.search(r"\bdo(n['’]t)?s\b|\bdon['’]ts\b", label, re.I):
        return False  # a list or a do/don't line, not one attribute
    for i, word in enumerate(words):
        if not any(c.isdigit() for c in word):
            continue
        if _CODE.match(word) or not (_NUMBERED.match(word) or (i and low[i - 1] in _DIGIT_OK_BEFORE)):
            return False
    return True


def is_plural_noun(word: str) -> bool:
    """Whether an English label's head word is a plural noun ("goals", "founders"; not "status", "news")."""
    low = word.lower()
    if low in _NOT_PLURAL or len(low) < 3 or not low.isalpha():
        return False
    return low.endswith("s") and not low.endswith(("ss", "us", "is", "ics"))


def singular(word: str) -> str:
    """Singular of an English plural noun: "discounts" → "discount", "policies" → "policy"."""
    low = word
    if low.endswith("ies") and len(low) > 4:
        return low[:-3] + "y"
    if low.endswith(("sses", "xes", "ches", "shes", "zes")):
        return low[:-2]
    if low.endswith("s") and not low.endswith("ss"):
        return low[:-1]
    return low


#: A post as any page writes it beside a name, before or after it ("The owner, Mrs Marlow", "Chris (Editor)",
#: "Maggie Oduya, safeguarding lead"), lower-cased.
POST_WORD = re.compile(
    r"(?:(?:acting|deputy|assistant|interim|joint|co-?|vice[- ]?|head|senior|junior|lead|chief|general|office|"
    r"centre|center|shop|site|branch|practice|studio|kitchen|duty|shift|area|team|club)\s?)*"
    r"(?:owner|proprietor|founder|manager|director|chair(?:man|woman|person)?|president|treasurer|secretary|editor|"
    r"co-?ordinator|officer|lead|head|assistant|teacher|tutor|instructor|coach|driver|trustee|receptionist|"
    r"supervisor|technician|administrator|admin|ceo|cfo|coo|cto|partner|principal|warden|captain|clerk|"
    r"accountant|bookkeeper|chef|cook|cleaner|caretaker|leader|organi[sz]er|convenor|steward|ranger|nurse|"
    r"groomer|apprentice|trainee|deputy|stylist|mechanic|therapist|volunteer|keeper|minister|vicar|governor)s?"
)


_NAME_WORD = re.compile(r"^(?:[A-Z][a-z'’\-]+(?:-[A-Z][a-z]+)?|[A-Z]\.|[A-Z][a-z]*[A-Z][a-z]+|[A-Z]{2,3})$")
_NAME_PARTICLES = frozenset("van von de der den da di du del la le bin al el ter ten".split())
_HONORIFICS = frozenset("dr dr. prof prof. mr mr. mrs mrs. ms ms. mx mx. sir dame".split())
_NOT_NAME_WORDS = frozenset(
    """inc inc. ltd ltd. llc corp corp. co co. company group bank university college school institute department
    dept team office agency insurance holdings partners services solutions systems labs capital ventures
    foundation association council committee board center centre hospital clinic the of and none tbd n/a
    pending vacant unassigned same above below
    housing co-op coop co-operative cooperative club society trust charity couriers courier orchard nursery surgery
    cattery kennels garage salon bakery brewery farm market museum cinema theatre theater library academy workshop
    choir orchestra band scouts gym pharmacy opticians accountants solicitors lettings motors taxis tours travel
    radio studios cafe café restaurant hotel hostel emergency helpline line desk police health roasters dairy
    archers anglers ramblers wheelers harriers rovers runners riders cyclists swimmers singers players walkers growers
    makers volunteers friends laundrette launderette chandlery boatyard""".split()
)
_GLUE_WORDS = frozenset({"the", "of", "and"})


def is_person_name(value: str) -> bool:
    """Whether a value reads as one or more person names: "Ingrid Solberg", "Dr. Mina Cho",
    "Ingrid Solberg and Marcus Okafor", "Tomas Novak (Head of Product)" — not "ZX Bank", "+1 555 0100",
    "Operations" or "Passport and visa"."""
    text = re.sub(r"\s*\([^)]*\)\s*$", "", value.strip())
    if not text or any(c.isdigit() for c in text) or "@" in text or len(text) > 80:
        return False
    parts = [p for p in re.split(r",\s*|\s+and\s+|\s*&\s*|;\s*", text) if p]
    if not parts or len(parts) > 6:
        return False
    for i, part in enumerate(parts):
        words = part.split()
        if words and words[0].lower() in _HONORIFICS:
            words = words[1:]
        titled = i == 1 and len(parts) == 2 and 1 <= len(words) <= 5 and words[0][:1].isupper()
        if titled and not any(w.lower() in _NOT_NAME_WORDS - _GLUE_WORDS for w in words):
            continue  # "Ingrid Solberg, CEO": a title after the name
        if not 2 <= len(words) <= 4 or not _all_names(words):
            return False
    return True


def without_honorific(name: str) -> str:
    """A person's name without the title before it, as other pages write it: "Prof. Gareth Pym" → "Gareth Pym";
    the name itself when no title opens it or a single word would be left ("Dr. Who")."""
    words = name.split()
    if len(words) >= 3 and words[0].lower() in _HONORIFICS:
        return " ".join(words[1:])
    return name


def _all_names(words: list[str]) -> bool:
    return all(
        (w in _NAME_PARTICLES or _NAME_WORD.match(w)) and w.lower() not in _NOT_NAME_WORDS for w in words
    ) and not all(w in _NAME_PARTICLES for w in words)


# -- what a value is, for the question word ----------------------------------------------------------------

_PERSON_LABEL = re.compile(
    r"\b(owner|manager|lead|leader|head|founder|co-founder|ceo|cto|cfo|coo|cio|cmo|director|contact|supervisor|"
    r"mentor|representative|champion|sponsor|president|chair|chairman|chairperson|author|reviewer|approver|"
    r"advisor|adviser|coordinator|assignee|principal|partner in charge|officer|chief|dean|secretary|treasurer|"
    r"administrator|clinician|specialist|consultant|physician|doctor|surgeon|nurse|therapist|instructor|teacher|"
    r"tutor|coach|trainer|"
    r"(founded|managed|led|owned|headed|written|approved|signed|reviewed|sponsored) by|reports to|reporting to)s?\b",
    re.I,
)
_NOT_PERSON_HEAD = frozenset(
    "number no no. phone telephone tel mobile email e-mail mail address id code fax details info information "
    "visa visas document documents hours form forms line link url website email address channel method".split()
)
_PLACE_LABEL = re.compile(
    r"^(location|locations|city|town|country|region|office location|based in|based|base|headquarters|hq|"
    r"head office|headquartered|headquartered in|located|located in|site|venue|place|office|room)$",
    re.I,
)
TIME_UNITS = frozenset(
    "second seconds minute minutes min mins hour hours hr hrs day days week weeks month months year years night "
    "nights".split()
)
_MEASURES = frozenset("km kilometers miles kg kilograms lbs mm cm m gb tb mb wh kwh w v km/h mph x percentile".split())
# Labels whose text value "6 months" is a length of time (not "Income proof: 6 months" of statements).
_SPAN_LABEL = re.compile(
    r"\b(term|period|duration|length|warranty|validity|time|stay|leave|holiday|notice|tenure|window|trial|"
    r"coverage|lifespan|life)\b",
    re.I,
)
_COUNT_LABEL = re.compile(r"^(?:number|no\.?|#|count|total number|total no\.?) of (.+)$|^(.+?) count$", re.I)
#: A count per period or per person: "Check-ups per year", "Hygiene visits (30 min) per year", "Guests per room".
_PER_LABEL = re.compile(
    r"^([a-z][a-z-]*(?: [a-z][a-z-]*)?) (per|a|each) "
    r"(year|month|week|day|night|visit|term|semester|season|person|member|guest|room|booking|household)$"
)


def person_label(label: str) -> bool:
    """Whether a label names a role a person fills ("Account Manager", "Reports To") — and not a way to reach
    one ("Contact Number", "Owner Email")."""
    words = _outside_brackets(label).lower().split()
    return bool(words) and words[-1] not in _NOT_PERSON_HEAD and bool(_PERSON_LABEL.search(" ".join(words)))


def counted_noun(label: str, unit: str | None) -> str | None:
    """The plural noun a count is of: the unit ("148 employees"), "Number of Stores" → "stores", or a plural
    label ("Seats" → "seats"); None when there is none."""
    if unit and unit.lower() not in _MEASURES and unit.lower() not in TIME_UNITS and is_plural_noun(unit):
        return unit.lower()
    written = _outside_brackets(label).strip()
    label = written.lower()
    m = _COUNT_LABEL.match(label)
    if m:
        noun = (m.group(1) or m.group(2) or "").strip()
        if noun and len(noun.split()) <= 3:
            acronyms = {w.lower(): w for w in written.split() if len(w) > 1 and w.isupper()}  # "MPP trackers"
            noun = " ".join(acronyms.get(w, w) for w in noun.split())
            return noun if is_plural_noun(noun.split()[-1]) else noun + "s"
    if unit is None and re.fullmatch(r"[a-z]+", label) and is_plural_noun(label):
        return label
    per = _PER_LABEL.match(re.sub(r"\s+", " ", label)) if unit is None else None
    if per and is_plural_noun(per.group(1).split()[-1].split("-")[-1]):
        return f"{per.group(1)} per {per.group(3)}"  # "check-ups per year": the plan includes 2 check-ups per year
    return None


def value_kind(fact: FactNode) -> ValueKind:
    """The kind of an English fact's value (see `testgen.lang.ValueKind`). A person is decided from the value
    — a name-shaped value under a role label — so a phone number under "Contact" is never asked with "Who"."""
    if fact.value_type == "date":
        return "date"
    if fact.value_type == "money":
        return "amount"
    if fact.value_type == "percent":
        return "percent"
    unit = (fact.unit or "").lower()
    if fact.value_type == "number":
        if unit in TIME_UNITS:
            return "duration"
        return "count" if counted_noun(fact.attribute, fact.unit) else "quantity"
    if is_contact_value(fact.value):
        return "other"
    if person_label(fact.attribute) and is_person_name(fact.value):
        return "person"
    if _PLACE_LABEL.match(_outside_brackets(fact.attribute).strip()) and not re.match(r"\d", fact.value):
        return "place"
    if _SPAN_LABEL.search(fact.attribute) and re.fullmatch(
        r"(?:about |up to |approx\. )?\d+(?:\.\d+)?\s?(?:" + "|".join(TIME_UNITS) + r")", fact.value
    ):
        return "duration"
    if _PRICE_ALONE.fullmatch(fact.attribute.strip()) and _PRICED_TEXT.match(fact.value.strip()):
        return "amount"  # "Price: £55 per dose" is asked "How much does … cost?", as "Price: £55" is
    return "other"


#: A label that is a price and nothing else, and a text value that opens with an amount of money.
_PRICE_ALONE = re.compile(r"(?:price|cost|fee|charge|rate)s?", re.I)
_PRICED_TEXT = re.compile(r"(?:from\s+)?[$€£¥₩₹]\s?\d")


# -- common attributes asked with a verb ---------------------------------------------------------------------


@dataclass(frozen=True)
class Verbal:
    """A common attribute asked with a verb instead of "X's <label>": every label in `labels` (lower-cased,
    bracketed units removed) with a value of one of `kinds` is asked with `question` and answered with
    `answer`, where {s} is the subject, {v} the value verbatim and {at} "on"/"in"/"at" as the value needs."""

    labels: frozenset[str]
    kinds: frozenset[str]
    question: str
    answer: str
    person_subject: bool | None = None  # True: only when the subject is a person; False: only when it is not
    name: str = ""  # names the template in an item's metadata ("en.verbal.founded")


def _v(labels: str, kinds: str, question: str, answer: str, person_subject: bool | None = None) -> Verbal:
    names = [x.strip() for x in labels.split("|")]
    return Verbal(
        frozenset(names), frozenset(kinds.split()), question, answer, person_subject, re.sub(r"\W+", "_", names[0])
    )


VERBAL: tuple[Verbal, ...] = (
    # dates
    _v(
        "founded|founding|founding date|date founded|year founded|founding year|founded in|established|"
        "establishment|date established|year established|inception|incorporated|incorporation date|"
        "date of incorporation",
        "date",
        "When was {s} founded?",
        "{s} was founded {at} {v}.",
    ),
    _v(
        "launched|launch|launch date|date launched|go-live|go-live date|go live|go live date",
        "date",
        "When was {s} launched?",
        "{s} was launched {at} {v}.",
    ),
    _v(
        "released|release|release date|date released|first released|initial release",
        "date",
        "When was {s} released?",
        "{s} was released {at} {v}.",
    ),
    _v(
        "first published|first publication|date first published|year first published|first edition",
        "date",
        "When was {s} first published?",
        "{s} was first published {at} {v}.",
    ),
    _v(
        "published|publication|publication date|date published|date of publication|year published|year of publication",
        "date",
        "When was {s} published?",
        "{s} was published {at} {v}.",
    ),
    _v(
        "latest revision|last revision|last revised|revised|revision date|date revised",
        "date",
        "When was {s} last revised?",
        "{s} was last revised {at} {v}.",
    ),
    _v(
        "last updated|updated|date updated|update date|last update",
        "date",
        "When was {s} last updated?",
        "{s} was last updated {at} {v}.",
    ),
    _v("opened|opening|opening date|date opened|opened in", "date", "When did {s} open?", "{s} opened {at} {v}."),
    _v(
        "born|birth|date of birth|dob|birth date|birthdate|birthday",
        "date",
        "When was {s} born?",
        "{s} was born {at} {v}.",
    ),
    _v(
        "joined|join date|joining date|date joined|date of joining|start date|started|employee since",
        "date",
        "When did {s} join?",
        "{s} joined {at} {v}.",
        person_subject=True,
    ),
    _v("hired|hire date|date hired|date of hire", "date", "When was {s} hired?", "{s} was hired {at} {v}."),
    _v(
        "signed|signing date|date signed|signature date|signed on|date of signing|execution date",
        "date",
        "When was {s} signed?",
        "{s} was signed {at} {v}.",
    ),
    _v(
        "start|start date|started|starts|commencement|commencement date|begins|begin date|beginning|"
        "service commencement|valid from",
        "date",
        "When does {s} start?",
        "{s} starts {at} {v}.",
        person_subject=False,
    ),
    _v(
        "effective date|effective|effective from|date effective",
        "date",
        "When does {s} take effect?",
        "{s} takes effect {at} {v}.",
    ),
    _v("end|end date|ends|ending|completion date|finish date", "date", "When does {s} end?", "{s} ends {at} {v}."),
    _v(
        "expiry|expiry date|expiration|expiration date|expires|expires on|valid until|valid through|valid thru|"
        "termination date",
        "date",
        "When does {s} expire?",
        "{s} expires {at} {v}.",
    ),
    # people
    _v(
        "founder|founders|co-founder|co-founders|founded by|co-founded by",
        "person",
        "Who founded {s}?",
        "{s} was founded by {v}.",
    ),
    _v(
        "reports to|reporting to|reports|manager|line manager|direct manager|supervisor|reporting line",
        "person",
        "Who does {s} report to?",
        "{s} reports to {v}.",
        person_subject=True,
    ),
    _v("manager|managed by", "person", "Who manages {s}?", "{s} is managed by {v}.", person_subject=False),
    _v("lead|leader|led by", "person", "Who leads {s}?", "{s} is led by {v}.", person_subject=False),
    _v("owner|owned by", "person", "Who owns {s}?", "{s} is owned by {v}.", person_subject=False),
    _v("head|headed by", "person", "Who heads {s}?", "{s} is headed by {v}.", person_subject=False),
    _v("author|authors|written by", "person", "Who wrote {s}?", "{s} was written by {v}."),
    _v("approver|approved by", "person", "Who approved {s}?", "{s} was approved by {v}."),
    # places
    _v(
        "location|located|located in|city|town|site|office location|campus location|building location",
        "place",
        "Where is {s} located?",
        "{s} is located in {v}.",
    ),
    _v(
        "headquarters|hq|head office|headquartered|headquartered in",
        "place",
        "Where is {s} headquartered?",
        "{s} is headquartered in {v}.",
    ),
    _v("based in|based|base", "place", "Where is {s} based?", "{s} is based in {v}."),
    # who and when a programme is for
    _v("ages|age|age range|age group|ages served", "other", "What ages is {s} for?", "The ages for {s} are {v}."),
    _v("dates|date range|session dates|run dates", "other", "What are the dates of {s}?", "The dates of {s} are {v}."),
    _v("post|office held", "other", "What post does {s} hold?", "{s} holds the post of {v}.", person_subject=True),
    _v("time|times|session time|session times", "other", "What time is {s}?", "{s} is at {v}."),
    _v(
        "usual days|usual working days|normal days|regular days",
        "other",
        "Which days does {s} usually work?",
        "{s} usually works {v}.",
        person_subject=True,
    ),
    _v(
        "working days|work days|workdays|days worked|days working|days in|days on duty|shift days",
        "other",
        "Which days does {s} work?",
        "{s} works {v}.",
        person_subject=True,
    ),
    _v("day|session day", "other", "What day is {s} on?", "{s} is on {v}."),
    _v("days|session days", "other", "On which days is {s} held?", "{s} is held on {v}."),
    # counts, amounts, durations
    _v(
        "employees|number of employees|no. of employees|employee count|headcount|staff|staff count|workforce|"
        "total employees",
        "count",
        "How many employees does {s} have?",
        "{s} has {v} employees.",
    ),
    _v(
        "team size",
        "count other",
        "How many people are on {sp} team?",
        "{sp} team has {v} people.",
        person_subject=True,
    ),
    _v(
        "price|cost|list price|retail price|msrp|unit price|sale price|selling price|base price|starting price",
        "amount",
        "How much does {s} cost?",
        "{s} costs {v}.",
    ),
    _v("salary|annual salary|base salary", "amount", "How much does {s} earn?", "{s} earns {v}.", person_subject=True),
    _v(
        "term|duration|length|contract term|contract length|contract duration|contract period|validity|validity period",
        "duration",
        "How long does {s} last?",
        "{s} lasts {v}.",
    ),
)


def verbal_form(label: str, kind: str, subject_is_person: bool) -> Verbal | None:
    """The verbal form for a label and value kind, or None."""
    key = re.sub(r"\s+", " ", _outside_brackets(label).strip().rstrip(":").lower()).strip()
    for form in VERBAL:
        if key in form.labels and kind in form.kinds:
            if form.person_subject is not None and form.person_subject != subject_is_person:
                continue
            return form
    return None
