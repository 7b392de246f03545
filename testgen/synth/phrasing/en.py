"""English questions and answers: possessives, "the … of …" for common-noun subjects, verb inversion for
sentences ("X was founded in 2011" → "When was X founded?")."""

from __future__ import annotations

import re

from schemas import FactNode
from testgen.lang import GENERIC_HEADINGS, OFFER_KINDS, ValueKind, contact_kind, is_contact_value
from testgen.lang.en import (
    a_or_an,
    base_form,
    counted_noun,
    is_attribute_label,
    is_person_name,
    is_plural_noun,
    noun_phrase,
    person_label,
    plural_to_singular,
    possessive,
    singular,
    value_kind,
    verbal_form,
)
from testgen.names import short_title
from testgen.text import plain_sentence

#: The question word of each kind of value: the one place English chooses it.
WH: dict[ValueKind, str] = {
    "person": "Who",
    "date": "When",
    "amount": "How much",
    "count": "How many",
    "place": "Where",
    "duration": "How long",
    "percent": "What percentage",
    "quantity": "What",
    "detail": "What",
    "other": "What",
}
_TEMPLATES = {
    "person": "en.who",
    "place": "en.where",
    "amount": "en.money",
    "duration": "en.how_long",
    "percent": "en.percent",
}
#: The last word of a body that sells services at a price list's prices: "… Veterinary Hospital", "… Library".
_SERVICE_SELLER = re.compile(
    r"\b(?:Hospital|Clinic|Library|School|College|University|Cent(?:er|re)|Department|Recreation|Hotel|Museum|"
    r"Restaurant|Spa|Salon|Studio|Gym|Club|Practice|Surgery|Office|Authority)$"
)


def _priced_service(item: str) -> bool:
    """Whether a price label's item is a service of two words or more, with no number or bracket ("wellness or
    sick-pet exam"; not "lab", "community" or "second pet, same appointment")."""
    return len(item.split()) >= 2 and not re.search(r"[\d(),/;:]", item)


#: Groups of people a label may name ("Trek customer", "Members"): a percentage under one is their discount.
_GROUP_HEADS = frozenset(
    "customer member student child children adult senior junior visitor guest resident volunteer pensioner family "
    "group".split()
)
_RATE_WORDS = {
    *"rate percentage ratio share margin apr apy yield probability discount abv".split(),
    *"efficiency accuracy occupancy utilisation utilization uptime availability humidity weight weighting".split(),
}
_LISTING = re.compile(
    r"\b(goals|achievements|accomplishments|highlights|responsibilities|skills|notes|objectives|interests|"
    r"strengths|summary|overview|background|education|experience)$",
    re.I,
)
#: A currency in a label's closing bracket: "Price (GBP)", "Cost ($)".
CURRENCY_BRACKET = re.compile(r"\s*\((USD|EUR|GBP|KRW|JPY|CNY|INR|AUD|CAD|CHF|SGD|HKD|[$€£¥₩₹])\)\s*$", re.I)


def bracket_currency(label: str) -> str | None:
    """ "Price (USD)" → "USD": the currency a label's bracket gives its values."""
    m = CURRENCY_BRACKET.search(label.strip())
    return m.group(1).upper() if m else None


#: Each currency's sign: a value written "£60.00" already says GBP.
_SIGN = {"USD": "$", "GBP": "£", "EUR": "€", "KRW": "₩", "JPY": "¥", "CNY": "¥", "INR": "₹"}


def _with_currency(value: str, currency: str | None) -> str:
    """A value with the currency its label's bracket gives, unless it already says it ("£60.00", "8,999 INR")."""
    if not currency or currency in value or _SIGN.get(currency, currency) in value:
        return value
    if re.fullmatch(r"[$€£¥₩₹]", currency):
        return f"{currency}{value}"  # "15.00" under "Price (£)": "£15.00"
    return f"{value} {currency}"


def _outside(attr: str) -> str:
    return re.sub(r"\([^)]*\)", " ", attr)


#: A document kind naming the page's own subject at the head of a label ("Agreement Effective Date").
_AGREEMENT = re.compile(r"(?:agreement|contract|lease|policy|licen[cs]e|subscription)\s+", re.I)

#: A pointer to another page after a dash, which the answer leaves out: "… on 1 July 2024 - see the FAQ".
_CROSS_REFERENCE = re.compile(r"\s[-–—]\s+(?:see|cf\.?|refer to|read)\b", re.I)

#: How long an event lasted, at the end of the clause a when-question is made of ("held over two days").
_DURATION_AT_END = re.compile(
    r"\s+(?:over|for)\s+(?:(?:about|around|nearly|almost)\s+)?(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|"
    r"ten|several|a few)\s+(?:full\s+)?(?:days?|weeks?|months?|years?|hours?|nights?|weekends?)$",
    re.I,
)

_PLACE_ATTRS = re.compile(r"^(location|city|office|based in|headquarters|hq|base|site)$", re.I)
_PLACE_KINDS = frozenset({"country", "city", "region", "state", "province", "county", "district", "continent"})
_GROUP_ATTRS = re.compile(r"^(team|department|division|unit|group)$", re.I)
_ROLE_ATTRS = re.compile(r"^(job title|title|role|position|job)$", re.I)
_INTRANSITIVE = {"join", "start", "begin", "leave", "retire", "move", "arrive", "expire", "end", "close"}
#: Words that follow a verb in a timeline line ("Joined the team", "Moved to Austin"), unlike a noun after a
#: participle ("Revised salary").
_AFTER_VERB = frozenset(
    "the a an to as by for from with into onto on in at over his her their its our new two three several "
    "all both".split()
)
#: Participles that head a timeline line as something done to the person: "Awarded the title of …" is asked
#: "When was X awarded the title of …?", not "When did X award …?".
_CONFERRED = frozenset(
    "awarded granted given named elected appointed honored honoured nominated certified recognized recognised".split()
)
#: Verbs that take "to" without being passive: "Transitioned to …" is asked "When did X transition to …?".
_MOVES = _INTRANSITIVE | {"transition", "switch", "return", "relocate", "shift", "pivot", "rejoin", "graduate"}
_PRICE_CONTEXT = re.compile(r"\b(pricing|price|prices|fees?|costs?|rates?|tiers?|plans?)\b", re.I)
_MONEY_WORDS = re.compile(
    r"\b(pricing|price|fees?|costs?|rates?|salary|amount|value|budget|revenue|pay|"
    r"payment|income|profit|spend|limit|allowance|bonus|stipend|per[- ]diems?|reimbursement|grant|subsidy|wage)\b",
    re.I,
)
#: Names of things held in sessions: a course, a class, a programme, a workshop.
_SESSIONED = re.compile(r"\b(?:course|class|programme|program|workshop|lessons?)$", re.I)
#: An infobox label of who does something to the subject: "Managed by", "Operated by", "Owned by".
_DONE_BY = re.compile(r"([A-Za-z]+ed) by", re.I)
#: Nouns of an event a date column gives: "Passenger closure", "Official opening", "Completion".
_EVENT_NOUNS = frozenset(
    "closure opening completion demolition founding foundation merger acquisition inauguration designation "
    "construction dissolution reopening relaunch consecration dedication".split()
)
#: What a "Year <participle>" column dates about the row's own subject (a university is founded, not initiated).
_OWN_EVENTS = frozenset(
    "founded established built launched released opened introduced incorporated registered completed published "
    "signed born constructed created formed started".split()
)
_HISTORY_WORDS = {"history", "progression", "record", "records", "timeline", "log", "overview"}
_ROLE_CONTEXT = re.compile(r"\b(career|experience|employment|roles?|positions?|work history)\b", re.I)
_NOUNIZE = {
    "reports to": "manager",
    "reporting to": "manager",
    "report to": "manager",
    "managed by": "manager",
    "owned by": "owner",
    "led by": "lead",
    "supervisor": "supervisor",
}
_PRONOUNS = {
    "he",
    "she",
    "it",
    "they",
    "we",
    "i",
    "you",
    "this",
    "that",
    "these",
    "those",
    "there",
    "which",
    "who",
    "his",
    "her",
    "its",
    "their",
    "our",
}
_SUBORDINATORS = {
    "when",
    "after",
    "before",
    "although",
    "though",
    "if",
    "as",
    "since",
    "while",
    "because",
    "once",
    "until",
    "whereas",
    "during",
    "in",
    "on",
    "by",
    "with",
    "from",
    "at",
    "for",
    "of",
}
_PERSON_TYPES = {"person", "people", "employee", "employees", "staff", "member", "members", "team"}
_LOWER_FIRST = {"the", "a", "an", "its", "their", "our", "this", "these", "that", "his", "her"}


#: Measures with their own comparative: "How much wider is X than Y?", not "How much higher is the width of X".
_MEASURE_COMPARATIVES = {
    "width": "wider",
    "length": "longer",
    "height": "taller",
    "weight": "heavier",
    "depth": "deeper",
    "range": "longer",
    "size": "larger",
    "area": "larger",
    "distance": "farther",
}


#: Measures compared with their own adjectives (more, less, the most, the least): "Which is lighter: A or B?".
_COMPARED_MEASURES = {
    "weight": ("heavier", "lighter", "heaviest", "lightest"),
    "height": ("taller", "shorter", "tallest", "shortest"),
    "length": ("longer", "shorter", "longest", "shortest"),
    "width": ("wider", "narrower", "widest", "narrowest"),
    "depth": ("deeper", "shallower", "deepest", "shallowest"),
    "size": ("larger", "smaller", "largest", "smallest"),
    "area": ("larger", "smaller", "largest", "smallest"),
}


#: The superlative a comparison of three or more things uses.
_SUPERLATIVES = {
    "later": "latest",
    "earlier": "earliest",
    "higher": "highest",
    "lower": "lowest",
    "longer": "longest",
    "shorter": "shortest",
    "more": "most",
    "fewer": "fewest",
    "greater": "greatest",
    "smaller": "smallest",
}


def _who_works(most: str, names: str, winner: str, details: str) -> tuple[str, str, str]:
    """A rota's "Hrs" of people compared: "Who works more hours", not "Which has more hours"."""
    return (
        f"Who works {most} hours: {names}?",
        _sentence(f"{winner} works {most} hours ({details})."),
        "en.compare.count",
    )


def _compare_by_adjective(
    own: tuple[str, str, str, str], subjects: list[str], winner: int, higher: bool, details: str
) -> tuple[str, str, str]:
    """ "Which is lighter: KC-500 Mk2 or KC-360?", "Which is the heaviest: …?": a measure's own adjective (`own`:
    more, less, the most, the least), not "Which has the smaller weight"."""
    names = " or ".join(subjects) if len(subjects) == 2 else ", ".join(subjects[:-1]) + ", or " + subjects[-1]
    word = own[0 if higher else 1] if len(subjects) == 2 else f"the {own[2 if higher else 3]}"
    return f"Which is {word}: {names}?", _sentence(f"{subjects[winner]} is {word} ({details})."), "en.compare.measure"


def _plural(noun: str) -> str:
    """The plural of a kind of thing: "contract" → "contracts", "person" → "people", "aircraft" → "aircraft"."""
    if noun == "person":
        return "people"
    if noun.endswith(("s", "craft", "staff", "sheep", "fish")):
        return noun
    if re.search(r"[^aeiou]y$", noun):
        return noun[:-1] + "ies"
    return noun + ("es" if noun.endswith(("ch", "sh", "x")) else "s")


#: Adjectives of places and peoples, written with a capital inside a label too ("European weighted efficiency").
_PROPER_ADJECTIVES = frozenset(
    "european american african asian australian british english scottish welsh irish french german spanish "
    "italian dutch swiss nordic chinese japanese korean indian canadian mexican brazilian russian arabic "
    "latin atlantic pacific".split()
)


#: Abbreviations of column labels, spelled out in a question.
_SPELLED_OUT = {"hrs": "hours", "hr": "hours", "mins": "minutes", "wks": "weeks", "yrs": "years", "qty": "quantity"}


#: Two words or more in capitals, as minutes stress a post ("agreed to be ACTING TREASURER").
_SHOUTED = re.compile(r"\b[A-Z]{3,}(?:\s+[A-Z]{3,})+\b")


def _uncapped(phrased: tuple[str, str, str] | None) -> tuple[str, str, str] | None:
    """A question and answer with words a page wrote in capitals for stress written as a name: "Acting Treasurer"."""
    if phrased is None:
        return None
    question, answer, template = phrased
    return _SHOUTED.sub(_titled, question), _SHOUTED.sub(_titled, answer), template


def _titled(match: re.Match[str]) -> str:
    return match.group(0).title()


def _row_of_another(fact: FactNode, subject: str) -> str | None:
    """The row of a table a fact's label starts with ("Linen tablecloth" of "Linen tablecloth Code") when the question's
    subject is the organisation whose page it is, not the page's own thing: the row is the thing asked about, and
    its column what is asked of it. None otherwise (a row of the subject's own page: "Carllm's basic tier price")."""
    if fact.source != "table" or fact.value_type == "date":
        return None
    cells = [c.strip(" *_") for c in fact.evidence.strip().strip("|").split("|")]
    # the row's name opens the label: the first cell, or the second after a code ("| EQ02 | Linen tablecloth |")
    row = next((c for c in cells[:2] if c and fact.attribute.startswith(c + " ")), "")
    if len(row) < 3 or not fact.attribute.startswith(row + " ") or len(row.split()) > _ROW_WORDS:
        return None
    if re.search(r"[\d(),/;:–—]|\s-\s", row) or not re.search(r"[A-Za-z]", fact.attribute[len(row) :]):
        return None  # a list, a date or a variant ("Season ticket - junior", "Open workshop – Thu") is no thing
    if _SLOT_ROW.search(row) or re.search(r"\b\d{1,2}:\d\d|\b\d{1,2}\.\d\d\s*[ap]\.?m\b", fact.value, re.I):
        return None  # a time of day or a season ("Morning", "Summer six months"), or a time asked of one
    if subject.startswith("the ") or subject.split()[-1].lower() in _PAGE_OWNERS:
        return None  # a page's topic ("the home delivery", "Commissions & Sales policy") sells nothing
    own, asked = fact.subject.lower(), subject.lower()
    if asked in own and _PRICE_PAGE.search(own.replace(asked, " ")):
        return row  # "Saffron & Thyme Events – Price list 2025": the organisation's price list, not a thing's page
    if asked in own and (_SERVICE_SELLER.search(subject) or _LEGAL_FORM.search(subject)):
        return row  # the page of a business ("SAFFRON & THYME EVENTS LTD"): its rows are what it offers
    return None if asked in own or own in asked else row


#: A company's legal form closing its name: "Ltd", "Inc.", "LLC", "plc".
_LEGAL_FORM = re.compile(r"\b(?:ltd|limited|inc|llc|llp|plc|cic|gmbh)\.?$", re.I)
#: Words of a page's title that make it a list of what an organisation offers at a price.
_PRICE_PAGE = re.compile(r"\b(?:price list|prices|pricing|rates|rate card|tariffs?|fees|charges|menu)\b")


def _row_at(fact: FactNode, subject: str, row: str) -> tuple[FactNode, str]:
    """The fact asked of its row at the organisation: "the code of the linen tablecloth at Saffron & Thyme Events",
    not "Saffron & Thyme Events' linen tablecloth code". A row carrying the organisation's name ("Hollins Ridge Aran
    yarn" at Hollins Ridge Alpacas) names the thing whole."""
    column = fact.model_copy(update={"attribute": fact.attribute[len(row) + 1 :]})
    carried = subject.split()[0].lower() in row.lower().split()
    return column, row if carried else f"the {_row_phrase(row)} at {subject}"


#: Row names that are a time of day, a day or a season: slots of a timetable, not things.
_SLOT_ROW = re.compile(
    r"\b(?:morning|afternoon|evening|night|noon|lunch|weekdays?|weekends?|daily|spring|summer|autumn|fall|winter|"
    r"season|peak|off-peak|days?|mon|tue|wed|thu|fri|sat|sun|monday|tuesday|wednesday|thursday|friday|saturday|sunday)s?\b",
    re.I,
)
#: Last words of a subject that is a page or a rule, not a body that offers things.
_PAGE_OWNERS = frozenset("policy policies rules terms handbook guide manual procedure procedures faq list".split())


def _row_phrase(row: str) -> str:
    """A row's name in running text: "Club silicone hat" → "club silicone hat"; "Hollins Ridge Aran yarn" and "UV
    exposure unit" as written."""
    first, _, rest = row.partition(" ")
    sentence_case = first[:1].isupper() and first[1:].islower() and rest == rest.lower()
    return first.lower() + (f" {rest}" if rest else "") if sentence_case else row


#: Heads of a label asked "for" a thing at a place rather than "of" it.
_CHARGED_FOR = frozenset("fee fees charge rate limit deposit discount".split())
#: Words of a row's name beyond which it is a description, not a thing's name.
_ROW_WORDS = 5


def attr_phrase(attribute: str) -> str:
    """ "Date of Birth" → "date of birth"; acronyms and words with digits keep their case."""
    out = []
    depth = 0
    for w in attribute.strip().rstrip(":").split():
        keep = (
            (w.isupper() and len(w) > 1)
            or any(c.isdigit() for c in w)
            or w[1:] != w[1:].lower()
            or w.strip("()").lower() in _PROPER_ADJECTIVES
        )
        depth += w.count("(")
        out.append(w if keep or depth > 0 else w.lower())  # names in parentheses keep their case
        depth -= w.count(")")
    phrase = re.sub(r"^(?:no\.|nos\.|#)\s*of\s+", "number of ", " ".join(out))  # "No. of Seats" → "number of seats"
    phrase = re.sub(r"^(units|seats|rooms|beds)$", r"number of \1", phrase)  # "Units: 140": "the number of units"
    # a column's abbreviation said in words: "hrs" → "hours", "wks" → "weeks"
    phrase = re.sub(r"\b(hrs|hr|mins|wks|yrs|qty)\b\.?", lambda m: _SPELLED_OUT[m.group(1)], phrase)
    # a contact column named by its medium: "What is the clinic's phone number?", not "… phone?"
    phrase = re.sub(r"\s&\s", " and ", phrase)  # "chief executive & co-founder": a label's sign, said as a word
    # "main phone" too: "What is the office's main phone number?"
    return re.sub(
        r"^((?:main|direct|office|general|switchboard)\s)?(phone|telephone|tel\.?|fax|mobile|cell)$",
        lambda m: (m.group(1) or "") + _MEDIUM[m.group(2)] + " number",
        phrase,
    )


_MEDIUM = {"phone": "phone", "telephone": "phone", "tel": "phone", "tel.": "phone", "fax": "fax", "mobile": "mobile"}
_MEDIUM["cell"] = "cell phone"


def attr_noun(attribute: str) -> str:
    """The attribute as a noun: "Reports To" → "manager"; other labels as :func:`attr_phrase`."""
    phrase = attr_phrase(attribute)
    return _NOUNIZE.get(phrase, phrase)


def fact_attr(fact: FactNode) -> str:
    """The attribute of a fact as a noun phrase, with "price" added under a pricing section."""
    attr = attr_noun(fact.attribute)
    if (
        fact.value_type == "money"
        and fact.context
        and _PRICE_CONTEXT.search(fact.context)
        and not _MONEY_WORDS.search(attr)
    ):
        attr = f"{attr} price"
    return attr


def _role(value: str) -> str:
    """ "Independent consultant for X" → "an independent consultant for X"; titles ("Head of Sales") unchanged."""
    words = value.split()
    if len(words) > 1 and words[0][:1].isupper() and words[1][:1].islower() and words[1] not in ("of", "and", "&"):
        lowered = words[0].lower() + (" " + " ".join(words[1:]))
        return f"{a_or_an(lowered)} {lowered}"
    return value


def period(qualifier: str) -> str:
    """ "2015 - Present" → "since 2015"; "2013 - 2015" → "from 2013 to 2015"; "2019" → "in 2019"; a season or an
    academic year written short ("2024–25", "2024/25") is one period: "in 2024–25"."""
    if re.fullmatch(r"\s*\d{4}\s*[-–/]\s*\d{2}\s*", qualifier):
        return f"in {qualifier.strip()}"
    m = re.match(r"^\s*(.+?)\s*[-–~]\s*(.+?)\s*$", qualifier)
    if m and not re.match(r"^\d{4}-\d\d", qualifier):
        if m.group(2).lower() in ("present", "now", "today", "current"):
            return f"since {m.group(1)}"
        return f"from {m.group(1)} to {m.group(2)}"
    return f"in {qualifier}"


def _prep(fact: FactNode) -> str:
    key = fact.date_key or ""
    return "on" if re.match(r"^\d{4}-\d\d-\d\d$", key) else "in"


#: A value's capitalised qualifier inside a sentence: "… is From 500 req/s" reads "… is from 500 req/s".
_MID_QUALIFIER = re.compile(
    r"(?<=\s)(?:From|Up to|Starting (?:at|from)|Over|Under|About|Around|Approx\.?|Approximately|Minimum|Maximum|"
    r"Less than|More than|At least|At most)(?=\s+[\d$€£¥₹₩])"
)


#: Places and bodies a charge is paid at ("the overdue charge for DVDs at the Hollis Library").
_PAID_AT = re.compile(
    r"\b(?:library|hall|office|centre|center|museum|hotel|store|shop|clinic|college|university|school|bank|branch|"
    r"gym|pool|park|campus)$",
    re.I,
)
#: A date label that is a plural noun and its verb: "applications open", "bookings close", "classes start".
_NOUNS_THEN_VERB = re.compile(r"([a-z][a-z -]*?)\s+(open|close|start|begin|end|resume|restart)")
#: One thing and what it does on the date, in the third person: "DBS expires", "lease ends", "insurance renews".
_NOUN_THEN_VERBS = re.compile(r"([a-z][a-z -]*?)\s+(open|close|start|begin|end|expire|renew|lapse)s", re.I)
#: Heads of a charge's column.
_CHARGE_HEAD = re.compile(r"\b(?:charge|fee|fine|price|rate|deposit)s?$", re.I)


#: Columns of a drinks menu or price list that are a serving of the row's drink ("Pint | Half | Third").
_SERVING = re.compile(
    r"(?:pint|half(?: pint)?|third(?: pint)?|(?:⅔|two-thirds|2/3) pint|schooner|glass|bottle|can|carafe|jug|cup)",
    re.I,
)


def _listed_cases(attribute: str, subject: str) -> tuple[str, str] | None:
    """A table row listing the things a charge applies to, glued to the charge's column ("Chargers and
    calculators overdue charge"), split into the things and the column, for a subject one pays at; else None."""
    if not _PAID_AT.search(subject.strip()):
        return None
    words = attribute.strip().split()
    for i in range(2, len(words) - 1):  # the things end in a plural and hold "and": "DVDs and Blu-rays"
        rows, column = " ".join(words[: i + 1]), " ".join(words[i + 1 :]).lower()
        if words[i].lower().endswith("s") and " and " in f" {rows.lower()} " and _CHARGE_HEAD.search(column):
            first = words[0]
            if first[1:2].islower():  # "Chargers and calculators" reads "chargers and calculators" inside a sentence
                rows = first.lower() + rows[len(first) :]
            return rows, column
    return None


def _reached_at(attr: str, subject: str, value: str) -> tuple[str, str, str] | None:
    """A directory's "Contact" or "Number" column, asked as how to reach the row's service or desk: "What is the phone
    number for National Gas Emergency?", not "What is National Gas Emergency's number?", and "Who is the contact for
    Environmental Health?"; None for a person's own number, any other label, or a value that is no telephone number,
    e-mail address or person."""
    if not _CONTACT_COLUMN.fullmatch(attr.strip()):
        return None
    if is_person_name(subject):
        return None  # "What is Maggie Oduya's phone number?" reads well
    if attr.strip().lower() == "contact" and is_person_name(value):
        return (
            f"Who is the contact for {subject}?",
            _sentence(f"The contact for {subject} is {value}."),
            "en.contact.who",
        )
    noun = {"phone": "phone number", "email": "e-mail address"}.get(contact_kind(value) or "")
    if noun is None:
        return None
    return f"What is the {noun} for {subject}?", _sentence(f"The {noun} for {subject} is {value}."), "en.contact.for"


#: A directory's column that gives how to reach each row without naming the medium: "Contact", "Number", "Tel.".
_CONTACT_COLUMN = re.compile(r"contact(?: (?:number|no\.?|details|e-mail address))?|number|tel\.?", re.I)


def _since(label: str, subject: str, value: str) -> tuple[str, str, str] | None:
    """ "Accredited Since: 1968" → "Since when has X been accredited?"; None for any other label."""
    since = re.match(r"^(\w+ed) since$", label.strip().rstrip(":"), re.I)
    if since is None:
        return None
    done = since.group(1).lower()
    return (
        f"Since when has {subject} been {done}?",
        _sentence(f"{subject} has been {done} since {value}."),
        "en.date.since",
    )


def _things_then_verb(attr: str, subject: str, value: str) -> tuple[str, str, str] | None:
    """ "Transport applications open: 3 March 2025": "When do transport applications open for X?", not "When is the
    transport applications open of X?"; None for any other label."""
    ends = _NOUN_THEN_VERBS.fullmatch(attr)
    last = ends.group(1).split()[-1] if ends is not None else ""
    if ends is not None and (last.isupper() or not is_plural_noun(last)):  # "DBS" is one check
        # "DBS expires: May 2027": "When does Sensei Priya Nair's DBS expire?", not "When are … DBS expires?"
        thing, verb = ends.group(1), ends.group(2).lower()
        on = "in" if re.fullmatch(r"(?:[A-Za-z]+\.?\s+)?\d{4}", value.strip()) else "on"  # "in May 2027"
        return (
            f"When does {possessive(subject)} {thing} {verb}?",
            _sentence(f"{possessive(subject)} {thing} {verb}s {on} {value}."),
            "en.date.ends",
        )
    opened = _NOUNS_THEN_VERB.fullmatch(attr)
    if opened is None or not is_plural_noun(opened.group(1).split()[-1]):
        return None
    things, verb = opened.group(1), opened.group(2)
    return (
        f"When do {things} {verb} for {subject}?",
        _sentence(f"{things} {verb} for {subject} on {value}."),
        "en.date.open",
    )


#: A clause of an action within the main one, right before a date: "… for setting the scheme up", "… after closing".
_GERUND_BEFORE_DATE = re.compile(r"\b(?:for|after|before|by|without|about|since)\s+[a-z]{2,}ing\b")


def _sentence(text: str) -> str:
    """A sentence: its first letter capitalised, a value's qualifier inside it lowered."""
    text = _MID_QUALIFIER.sub(lambda m: m.group(0).lower(), text.strip())
    return text[0].upper() + text[1:] if text else text


#: A label that is only a price, with the unit of its values in brackets: "Price (Lakh ₹)", "Retail Price (USD)".
_PRICE_LABEL = re.compile(
    r"(?:(?:retail|list|unit|selling|ex-showroom|on-road|base|starting)\s+)?(?:price|cost)(?:\s*\(([^)]*)\))?"
)


def _with_unit(value: str, unit: str | None) -> str:
    """ "12.5" under "Price (Lakh ₹)" → "12.5 Lakh ₹"; a value that shows its unit already stays as it is."""
    if not unit or unit.lower() in value.lower() or re.search(r"[$€£¥₩₹]", value):
        return value
    if re.fullmatch(r"[$€£¥₩₹]", unit):
        return f"{unit}{value}"  # "15.00" under "Price (£)": "£15.00"
    return f"{value} {unit}"


_MEASURE = re.compile(
    r"\b(?:length|width|height|depth|weight|size|capacity|distance|range|area|volume|mileage|speed|diameter)\b"
)


class English:
    """Rules for English."""

    code = "en"

    def __init__(self, vocabulary: frozenset[str] = frozenset()) -> None:
        self.vocabulary = vocabulary

    def subject(self, name: str) -> str:
        return noun_phrase(short_title(name), generic_words=GENERIC_HEADINGS)

    @staticmethod
    def _of(attr: str, subject: str) -> str:
        """ "the annual value of the contract with X" or "Mina Cho's job title"."""
        of = subject.startswith("the ") or " at " in subject  # "the capacity of Willow Hall at Cendara University"
        # what a thing at a place is charged: "the fee for the directors-only payroll at …"
        charged = subject.startswith("the ") and " at " in subject and attr.split()[-1:] != []
        by = "for" if charged and attr.split()[-1] in _CHARGED_FOR else "of"
        return f"the {attr} {by} {subject}" if of else f"{possessive(subject)} {attr}"

    # -- one fact ------------------------------------------------------------------------------------
    def fact(self, fact: FactNode, subject: str) -> tuple[str, str, str] | None:
        if fact.source == "sentence":
            return _uncapped(self._from_sentence(fact, subject))
        if fact.source == "timeline" and fact.value_type == "date":
            return self._event(fact, subject)
        if not is_attribute_label(fact.attribute):
            return None  # a value pasted where the label should be ("10:30", "VL-008 email"): no question
        if fact.qualifier:
            return self._qualified(fact, subject, attr_phrase(fact.attribute))
        if fact.attribute.strip().lower() == "office" and _OFFICE_HELD.fullmatch(fact.value.strip()):
            # a board's "Office" column holds a post, not a room: "Where is X's office? Clerk" would be wrong
            return (
                f"What office does {subject} hold?",
                _sentence(f"{subject} holds the office of {fact.value.strip()}."),
                "en.office",
            )
        row = _row_of_another(fact, subject)
        if row is not None:
            fact, subject = _row_at(fact, subject, row)
        kind = value_kind(fact)
        if kind == "percent" and singular(fact.attribute.split()[-1].lower()) in _GROUP_HEADS:
            return None  # "Trek customer: 10%" is a discount for a group: "What percentage is X's trek customer?"
        session = self._session_length(fact, subject)
        if session is not None:
            return session
        # "the bed socks at …" take no "How much does … cost?": they are asked "What is the price of …?"
        plural_row = row is not None and is_plural_noun(row.split()[-1].lower())
        verbal = None if plural_row else self._verbal(fact, subject, kind)
        if verbal is not None:
            return verbal
        by = _DONE_BY.fullmatch(fact.attribute.strip().rstrip(":"))
        if by and fact.value_type == "text" and not is_contact_value(fact.value):
            # an infobox's "Managed by: Ollerdale Wildlife Trust": "Who is X managed by?", not "Who is X's managed by?"
            done = by.group(1).lower()
            return f"Who is {subject} {done} by?", _sentence(f"{subject} is {done} by {fact.value}."), "en.done_by"
        attr = attr_phrase(fact.attribute) if fact.value_type != "money" else fact_attr(fact)
        if re.fullmatch(r"contacts?(?: details?| info(?:rmation)?)?", attr, re.I):
            # a "Contact" column holding an e-mail or a number: ask for what it holds ("Dr. Marsh's contact e-mail")
            held = {"email": "contact e-mail address", "phone": "contact number"}
            attr = held.get(contact_kind(fact.value) or "", attr)
        reached = _reached_at(attr, subject, fact.value) if fact.value_type == "text" else None
        if reached is not None:
            return reached
        if re.match(r"(with|without|for|in|on|per|under|over|at)(?![\w-])", attr) and fact.value_type in (
            "money",
            "number",
        ):
            attr = attr_phrase(fact.attribute)
            if fact.value_type == "money" and not subject.startswith("the "):
                # "per can": "How much does Night Heron cost per can?", not "How much is the price of … per can?"
                return (
                    f"How much does {subject} cost {attr}?",
                    _sentence(f"{subject} costs {fact.value} {attr}."),
                    "en.with.cost",
                )
            noun = "price" if fact.value_type == "money" else attr_phrase(fact.context or "value")
            wh = "How much" if fact.value_type == "money" else "What"
            return (
                f"{wh} is the {noun} of {subject} {attr}?",
                _sentence(f"The {noun} of {subject} {attr} is {fact.value}."),
                "en.with",
            )
        if fact.value_type == "date":
            return self._date(fact, subject, attr)
        return self._asked(fact, subject, attr, kind)

    def _session_length(self, fact: FactNode, subject: str) -> tuple[str, str, str] | None:
        """A course's or class's length in minutes or hours is a session's: "How long is each session of the
        Watercolour for Beginners Course?", not "How long does … last?" (the course runs six weeks)."""
        label = _outside(fact.attribute).strip().lower()
        timed = re.match(r"(?:min|minutes?|hours?|hrs?)$", (fact.unit or "").lower())
        if label not in ("length", "duration", "session length") or not timed:
            return None
        if not _SESSIONED.search(subject):
            return None
        value = fact.value if re.search(r"[A-Za-z]", fact.value) else f"{fact.value} {fact.unit}"
        return (
            f"How long is each session of {subject}?",
            _sentence(f"Each session of {subject} lasts {value}."),
            "en.session_length",
        )

    def _verbal(self, fact: FactNode, subject: str, kind: ValueKind) -> tuple[str, str, str] | None:
        """ "When was X founded?", "Who does X report to?": a common attribute asked with its verb."""
        form = verbal_form(fact.attribute, kind, is_person_name(subject))
        own = _AGREEMENT.match(fact.attribute.strip())
        if form is None and own and _AGREEMENT.search(subject.removeprefix("the ")):
            # "Agreement Effective Date" of a contract is the contract's effective date: "When does … take effect?"
            form = verbal_form(fact.attribute.strip()[own.end() :], kind, False)
        if form is None:
            return None
        value = fact.value
        answer = form.answer
        if re.search(r"[A-Za-z]$", value):
            answer = re.sub(r"\{v\} (employees|people)", "{v}", answer)  # "148 employees" already says it
        question = form.question
        if kind == "amount":
            currency = bracket_currency(fact.attribute)
            value = _with_currency(value, currency)
            if currency:  # "How much does X cost in USD?" where the page also gives the price in INR
                question = question.removesuffix("?") + f" in {currency}?"
        at = "at" if kind == "place" and re.match(r"\d", value) else _prep(fact)
        answer = answer.replace("located in {v}", "located at {v}") if at == "at" else answer
        fields = {"s": subject, "sp": possessive(subject), "v": value, "at": at}
        return question.format(**fields), _sentence(answer.format(**fields)), f"en.verbal.{form.name}"

    def _date(self, fact: FactNode, subject: str, attr: str) -> tuple[str, str, str] | None:
        value = fact.value
        label = re.sub(r"\s+(on|in|at)$", "", fact.attribute.strip().rstrip(":"), flags=re.I)
        attr = re.sub(r"\s+(on|in|at)$", "", attr)
        special = _since(fact.attribute, subject, value) or _things_then_verb(attr, subject, value)
        if special is not None:
            return special
        words = label.split()
        base = base_form(words[0], self.vocabulary) if len(words) == 1 else None
        if base and base in _INTRANSITIVE:
            return (
                f"When did {subject} {base}?",
                _sentence(f"{subject} {attr} {_prep(fact)} {value}."),
                "en.date.active",
            )
        if base:
            return (
                f"When was {subject} {attr}?",
                _sentence(f"{subject} was {attr} {_prep(fact)} {value}."),
                "en.date.passive",
            )
        if len(words) == 1 and re.fullmatch(r"[a-z]+-[a-z]+ed", attr):
            # "Re-established: 1994": "When was X re-established?", not "When is X's re-established?"
            return (
                f"When was {subject} {attr}?",
                _sentence(f"{subject} was {attr} {_prep(fact)} {value}."),
                "en.date.passive",
            )
        if (
            len(words) == 2
            and words[0].lower() not in ("year", "date", "day", "month")  # "Year sampled": what was sampled?
            and words[1].lower().endswith("ed")
            and base_form(words[1].lower(), self.vocabulary)
        ):
            # "Dam completed: 1957": "When was Coldwell Reservoir's dam completed?"
            noun, done = attr.split()
            return (
                f"When was {self._of(noun, subject)} {done}?",
                _sentence(f"{self._of(noun, subject)} was {done} {_prep(fact)} {value}."),
                "en.date.part_done",
            )
        if len(words) == 1 and words[0].isalpha():
            participle = attr + ("d" if attr.endswith("e") else "ed")
            if participle in self.vocabulary:  # "Launch: 2013" and the corpus says "launched"
                return (
                    f"When was {subject} {participle}?",
                    _sentence(f"{subject} was {participle} {_prep(fact)} {value}."),
                    "en.date.passive",
                )
        if attr in ("year", "yr", "years"):
            return None  # a bare "Year" column says nothing of what happened that year: "When is X's year?"
        if _verbal_date_label(attr):
            return self._dated_label(fact, subject, attr, value)
        happened = re.fullmatch(r"(?:year|date|day) ([a-z]+ed)", attr)
        if happened and happened.group(1) not in _OWN_EVENTS:
            return None  # "Year sampled" of a row: no question says what was sampled ("When is X's year sampled?")
        if attr in ("date", "day", "dated"):
            if is_person_name(subject):
                return None  # a person's "date" says nothing about what it dates
            return f"When is {subject} dated?", _sentence(f"{subject} is dated {value}."), "en.date.dated"
        noun = re.sub(r"^(?:date|day) of (?:the )?|\s+(?:date|day)$", "", attr)  # "Date of Review", "Review Date"
        if noun != attr and noun.split()[-1] in ("end", "start", "effective", "due", "close", "open", "begin"):
            noun = attr  # "When is X's contract end date?", not "… contract end?"
        if noun != attr and re.search(rf"\b{re.escape(noun)}\b", subject, re.I):
            # "Contract Date" of "the contract with X": not "When is the contract of the contract with X?"
            return f"When is {subject} dated?", _sentence(f"{subject} is dated {value}."), "en.date.dated"
        of = self._of(noun, subject)
        if noun == attr and noun.split()[-1] in _EVENT_NOUNS:
            # "Passenger closure: 2 March 1964": "What is the date of …?" reads in any tense ("When is … closure?" not)
            return f"What is the date of {of}?", _sentence(f"The date of {of} is {value}."), "en.date.event"
        be = "are" if is_plural_noun(noun.split()[-1]) else "is"
        if noun != attr:
            return f"When {be} {of}?", _sentence(f"{of} {be} {_prep(fact)} {value}."), "en.date.when"
        return f"When {be} {of}?", _sentence(f"{of} {be} {value}."), "en.date.when"

    def _dated_label(self, fact: FactNode, subject: str, attr: str, value: str) -> tuple[str, str, str] | None:
        """A date column whose label ends in a word that is no noun: "Maintainer since" ("Since when has X been a
        maintainer?"), "Term ends" ("When does X's term end?"); None for one no question reads well from."""
        since = _SINCE_LABEL.fullmatch(attr)
        if since:
            role = since.group(1)
            if not is_person_name(subject):
                return None  # a product's "Available since", a company's "Customer since": no one to be it
            article = "an" if role[:1] in "aeiou" else "a"
            return (
                f"Since when has {subject} been {article} {role}?",
                _sentence(f"{subject} has been {article} {role} since {value}."),
                "en.date.since",
            )
        verb = _VERB_LABEL.fullmatch(attr)
        if verb is None:
            return None
        of = self._of(verb.group(1), subject)
        if verb.group(3):  # "Term began": "When did X's term begin?"
            return (
                f"When did {of} {_PAST_BASE[verb.group(3)]}?",
                _sentence(f"{of} {verb.group(3)} {_prep(fact)} {value}."),
                "en.date.verb",
            )
        return (
            f"When does {of} {verb.group(2)}?",
            _sentence(f"{of} {verb.group(2)}s {_prep(fact)} {value}."),
            "en.date.verb",
        )

    def _asked(self, fact: FactNode, subject: str, attr: str, kind: ValueKind) -> tuple[str, str, str] | None:
        """ "<wh> is X's <label>?" with the question word of the value's kind."""
        value = fact.value
        if kind == "count":
            noun = counted_noun(fact.attribute, fact.unit)
            noun = _SPELLED_OUT.get(noun, noun) if noun else noun  # a column's "hrs": hours
            if noun:
                has = value if value.lower().endswith(noun.split()[-1]) else f"{value} {noun}"
                # a plan or membership includes what it counts: "How many check-ups per year does the Plus Plan
                # include?"; a person works her hours
                offer = subject.split()[-1].lower().removesuffix("s") in OFFER_KINDS
                verb, verbs = ("include", "includes") if offer else ("have", "has")
                if noun == "hours" and is_person_name(subject):
                    verb, verbs = "work", "works"
                return (
                    f"How many {noun} does {subject} {verb}?",
                    _sentence(f"{subject} {verbs} {has}."),
                    "en.how_many",
                )
            kind = "other"
        if fact.value_type in ("number", "money", "percent") and _LISTING.search(attr):
            return None  # "Career Goals: 65%": a section of statements, not a quantity
        role = re.sub(r"^the\s+", "", subject)
        if re.fullmatch(r"(?:full )?name", attr) and is_person_name(value) and person_label(role):
            # a role's row of a "Role | Name" table: "Who is the Head of IT?", not "What is Head of IT's name?"
            return f"Who is the {role}?", _sentence(f"The {role} is {value}."), "en.who.role"
        if re.search(r"\s(?:full )?name$", attr) and is_person_name(value):
            attr, kind = re.sub(r"\s+(?:full )?name$", "", attr), "person"  # "chief executive name": the person
        listed = _listed_cases(fact.attribute, subject) if kind == "amount" else None
        if listed is not None:
            # "Chargers and calculators" × "Overdue charge" of a library: "What is the overdue charge for chargers
            # and calculators at …?", not "… Library's chargers and calculators overdue charge"
            of = f"the {listed[1]} for {listed[0]} at {subject}"
            return f"What is {of}?", _sentence(f"{of} is {value}."), "en.money.for"
        if kind == "amount":
            currency = bracket_currency(fact.attribute)
            attr = re.sub(r"\s*\([^)]*\)$", "", attr) if currency else attr
            shown = _with_currency(value, currency)
            cost = self._cost(subject, attr, shown, f" in {currency}" if currency else "")
            if cost is not None:
                return cost
            value = shown
        head = _outside(attr).split()[-1] if _outside(attr).split() else attr
        prep = next((p for p in (" of ", " on ", " for ") if p in _outside(attr)), None)
        if prep:  # "head of operations" is one head, "hours of operation" several; "discount on treatment" a rate
            head = _outside(attr).split(prep)[0].split()[-1]
        if is_plural_noun(head) and fact.value_type in ("number", "money", "percent"):
            attr = attr[: attr.rfind(head)] + singular(head) + attr[attr.rfind(head) + len(head) :]
            head = singular(head)  # one amount: "volume discounts: 10%" → "the volume discount"
        plural = is_plural_noun(head)
        of = self._of(attr, subject)
        be = "are" if plural or (head == "hours" and kind == "other") else "is"  # "What are X's working hours?"
        wh = WH[kind]
        if kind == "duration" and head in ("age", "limit", "minimum", "maximum", "charge"):
            wh = "What"  # "What is the programme's age limit", not "How long"
        if kind == "percent" and head.lower() in _RATE_WORDS:
            wh = "What"  # "What is the interest rate", not "What percentage is the interest rate"
        if kind == "amount" and head.lower() in ("price", "cost"):
            wh = "What"  # "What is X's battery price?", not "How much is X's battery price?"
        if head.lower() == "discount" and subject.split()[-1].lower().removesuffix("s") in OFFER_KINDS:
            # a plan's "Discount on treatment": "What discount on treatment does the Plus Plan give?"
            return (
                f"What {attr} does {subject} give?",
                _sentence(f"{subject} gives a {value} {attr}."),
                "en.percent.give",
            )
        template = _TEMPLATES.get(kind, "en.what" if fact.value_type == "text" else f"en.{fact.value_type}")
        if plural and kind in ("other", "person"):
            template = "en.what.list"
        if kind == "place" and head in _PLACE_KINDS:  # "Which country is X in?", not "Where is X's country?"
            return f"Which {head} is {subject} in?", _sentence(f"{subject} is in {value}."), "en.where.which"
        currency = bracket_currency(fact.attribute) if kind == "amount" else None
        asked_in = f" in {currency}" if currency else ""
        roomed = _room(subject, value) if kind == "place" and attr == "room" else None
        if roomed is not None:
            return roomed
        if kind == "place" and head in ("office", "room"):  # "Daniel Ochoa's office is in Hadley Hall 118"
            return f"Where {be} {of}?", _sentence(f"{of} {be} in {value}."), template
        return f"{wh} {be} {of}{asked_in}?", _sentence(f"{of} {be} {value}."), template

    def _cost(self, subject: str, attr: str, shown: str, asked_in: str) -> tuple[str, str, str] | None:
        """An amount asked as what something costs: a service at its seller, a serving of a drink, an offer's
        price; None for an amount asked as a noun. `asked_in` names the currency when the page gives two."""
        m = re.match(r"^(.+?)\s+(price|cost)$", attr)
        service = re.match(r"^(.+?)\s+(?:price|cost|fee|charge)$", attr)
        if service and _SERVICE_SELLER.search(subject) and _priced_service(service.group(1)):
            # "Wellness or sick-pet exam | $68" on a clinic's price list: "How much does the wellness or
            # sick-pet exam cost at …?", not "How much is …'s wellness or sick-pet exam price?"
            item = service.group(1).lower()
            return (
                f"How much does the {item} cost at {subject}{asked_in}?",
                _sentence(f"The {item} costs {shown} at {subject}."),
                "en.cost.at",
            )
        if _SERVING.fullmatch(attr) and not subject.startswith("the "):
            # a menu's "Pint | Half | Third" columns: "How much is a pint of Low Tide?"
            size = re.sub(r"(?:⅔|2/3)\s*", "two-thirds ", attr.lower())  # "⅔ pint" is said "two-thirds pint"
            return (
                f"How much is a {size} of {subject}{asked_in}?",
                _sentence(f"A {size} of {subject} costs {shown}."),
                "en.cost.serving",
            )
        if m and m.group(1).split()[-1].lower().removesuffix("s") in OFFER_KINDS:
            # "starter tier price" → "How much does Lifellm's starter tier cost?"; a "community price" is no
            # thing that costs: "What is CX-48's community price?"
            of = self._of(m.group(1), subject)
            return f"How much does {of} cost{asked_in}?", _sentence(f"{of} costs {shown}."), "en.cost"
        return None

    def _qualified(self, fact: FactNode, subject: str, attr: str) -> tuple[str, str, str] | None:
        when = period(fact.qualifier or "")
        if fact.value_type == "text" and _ROLE_CONTEXT.search(fact.attribute):
            if not is_person_name(subject):
                return None  # "What role did Hollin Lane Allotment Association hold …?": a role is a person's
            if when.lower().startswith("since "):  # a role still held: the present perfect
                return (
                    f"What role has {subject} held {when}?",
                    _sentence(f"{when}, {subject} has been {_role(fact.value)}."),
                    "en.role",
                )
            return (
                f"What role did {subject} hold {when}?",
                _sentence(f"{when}, {subject} was {_role(fact.value)}."),
                "en.role",
            )
        words = [w for w in attr.split() if w not in _HISTORY_WORDS]
        if not words:
            return None
        attr = " ".join(words)
        if fact.value_type == "date" and attr in ("date", "day", "dated", "year"):
            return None  # "| Name | … | Date |" under "(2023–2024)": the date of what? ("When was X's date from …?")
        if fact.value_type == "number" and fact.unit is None:
            parts = attr.split()
            verb = base_form(parts[-1], self.vocabulary) if len(parts) == 2 else None
            if verb and is_plural_noun(parts[0]):  # "bikes shipped" → "How many bikes did X ship in 2023?"
                return (
                    f"How many {parts[0]} did {subject} {verb} {when}?",
                    _sentence(f"{subject} {parts[-1]} {fact.value} {parts[0]} {when}."),
                    "en.qualified.count",
                )
            if len(parts) == 1 and is_plural_noun(parts[0]):
                return (
                    f"How many {parts[0]} did {subject} have {when}?",
                    _sentence(f"{subject} had {fact.value} {parts[0]} {when}."),
                    "en.qualified.count",
                )
        of = self._of(attr, subject)
        kind = value_kind(fact)
        if kind == "date" and not re.search(r"\b(date|day|deadline|since|until|when)\b|ed$", attr):
            kind = "other"  # "annual employees in 2023: 2000" read as a year is still a count's label
        wh = WH["other" if kind == "count" else kind]
        if kind == "percent" and attr.split()[-1] in _RATE_WORDS:
            wh = "What"
        head = _outside(attr).split()[-1] if _outside(attr).split() else attr
        was = "were" if is_plural_noun(head) and fact.value_type in ("text", "date") else "was"  # "What were X's dates"
        return f"{wh} {was} {of} {when}?", _sentence(f"{of} {when} {was} {fact.value}."), "en.qualified"

    def _event(self, fact: FactNode, subject: str) -> tuple[str, str, str] | None:
        event = fact.attribute.rstrip(".")
        words = event.split()
        if not words:
            return None
        base = base_form(words[0].split("-")[-1], self.vocabulary)
        if base is None:
            return None
        head = words[0]
        base_word = head[: len(head) - len(head.split("-")[-1])] + base if "-" in head else base
        # The event without its trailing clauses: "joined Insurellm as an SDR, focusing on lead generation" is asked
        # as "When did X join Insurellm as an SDR?" (a person types the event, not the whole line).
        rest = re.split(
            r",\s|;|\s(?:due to|because|in order to|thanks to|following|resulting in|leading to|with (?:a|an|the)|"
            r"but|while|whereas)\s",
            " ".join(words[1:]),
        )[0].strip()
        if len(rest.split()) > 14:
            return None
        if (
            head.lower().endswith("ed")
            and len(words) > 1
            and words[1][:1].islower()
            and words[1].lower() not in _AFTER_VERB
        ):
            return None  # "Revised salary of $125,000": a participle before a noun, not what the person did
        if rest and rest[0].isupper() and rest.split()[0].lower() in _LOWER_FIRST:
            rest = rest[0].lower() + rest[1:]
        if len(words) > 1 and (
            head.lower() in _CONFERRED
            or (words[1].lower() in ("as", "by", "to", "for") and head.lower().endswith("ed") and base not in _MOVES)
        ):
            # "Recognized as SDR of the Month" is passive: "When was X recognized as ...?"
            participle = head[0].lower() + head[1:]
            return (
                f"When was {subject} {participle} {rest}?",
                _sentence(f"{subject} was {participle} {rest} {period(fact.value)}.").replace("  ", " "),
                "en.event.passive",
            )
        question = f"When did {subject} {base_word} {rest}".strip() + "?"
        answer = _sentence(f"{subject} {head[0].lower() + head[1:]} {rest} {period(fact.value)}".strip()) + "."
        answer = answer.replace("  ", " ")
        return question, answer, "en.event"

    def _from_sentence(self, fact: FactNode, subject: str = "") -> tuple[str, str, str] | None:
        if fact.value_type != "date":
            return None
        sentence = plain_sentence(fact.evidence)
        pos = sentence.find(fact.value)
        if pos < 0:
            return None
        pre = sentence[:pos].rstrip()
        post = sentence[pos + len(fact.value) :]
        prep = re.search(r"(?:^|\s)(in|on|since|by|during|as of|from|at|of)$", pre, re.I)
        if prep is None:
            return None
        clause = pre[: prep.start()].strip(" ,")
        answer = _CROSS_REFERENCE.split(sentence)[0].rstrip(" .") + "."  # "… 1 July 2024 - see the FAQ."
        if not clause:  # "In 2014, the company opened ..." → the clause follows the date
            clause = re.split(r"[.;]", post.lstrip(" ,"))[0].strip()
        elif not re.match(r"(?:the|this|its)\s+[a-z]", pre, re.I):
            # the answer ends with the date: "… was founded in 2011 in Gurugram, with a vision to …" runs on
            tail = re.split(
                r"[,;:(]|\s[-–—]\s|\s(?:and|but|which|who|where|with|while|as|to|after|before|when)\s", post
            )[0]
            answer = _sentence(f"{pre} {fact.value}{tail.rstrip(' .')}.")
        clause = re.split(r",\s(?:which|who|where|and|but)\b|;|\s(?:but|while|whereas)\s", clause)[0].strip(" ,")
        # "When was the first Energy Week held over two days?" reads as asking which week first lasted two days
        clause = _DURATION_AT_END.sub("", clause)
        if len(clause.split()) < 3 or len(clause.split()) > 22:
            return None
        if _GERUND_BEFORE_DATE.search(pre):
            # "Committee thanked Keith for setting the scheme up in 2021": the year dates the setting up, not the
            # thanks
            return None
        made = self._invert(clause, sentence, subject)
        return None if made is None else (made[0], answer, made[2])

    def _invert(self, clause: str, sentence: str, subject: str = "") -> tuple[str, str, str] | None:
        words = clause.split()
        # "The bike launched in 2020" on the bike's own page: name it, the question must stand alone.
        if (
            subject
            and len(words) > 2
            and words[0].lower() in ("the", "this", "its")
            and words[1].islower()
            and (base_form(words[2], self.vocabulary) or words[2] in ("was", "is", "were", "are"))
        ):
            words = [*subject.split(), *words[2:]]
        if words[0].lower().strip(",") in _PRONOUNS or words[0].lower() in _SUBORDINATORS:
            return None  # "He took over ..." or "When the bike launched, ..." has no standalone subject
        if words[0].lower() in _LOWER_FIRST:
            words[0] = words[0].lower()
        aux = re.match(r"^(.+?)\s+(was|were|is|are|has been|have been|had been)\s+(.+)$", " ".join(words))
        if aux and len(aux.group(1).split()) <= 8:
            subj, verb, rest = aux.groups()
            if " " in verb:
                have, been = verb.split(" ")
                return f"Since when {have} {subj} {been} {rest}?", sentence, "en.sentence.perfect"
            return f"When {verb} {subj} {rest}?", sentence, "en.sentence.passive"
        for i, word in enumerate(words[1:9], start=1):
            base = base_form(word.split("-")[-1], self.vocabulary)
            if base is not None:
                subject_words = words[:i]
                named = all(w[:1].isupper() or w[:1].isdigit() for w in subject_words)
                determined = subject_words[0] in _LOWER_FIRST
                if not (named or determined) or base_form(subject_words[0], self.vocabulary):
                    return None  # a fragment without a subject ("Increased qualified leads by 65%")
                if "-" in word:
                    base = word[: len(word) - len(word.split("-")[-1])] + base
                subj = " ".join(words[:i])
                rest = " ".join(words[i + 1 :])
                return f"When did {subj} {base} {rest}".rstrip() + "?", sentence, "en.sentence.active"
        return None

    # -- several facts -------------------------------------------------------------------------------
    def compare(
        self, subjects: list[str], attribute: str, values: list[str], winner: int, higher: bool, kind: str
    ) -> tuple[str, str, str] | None:
        attr = attr_phrase(attribute)
        names = " or ".join(subjects) if len(subjects) == 2 else ", ".join(subjects[:-1]) + ", or " + subjects[-1]
        details = "; ".join(f"{s}: {v}" for s, v in zip(subjects, values, strict=True))
        plural = bool(attr.split()) and (is_plural_noun(attr.split()[-1]) or attr.split()[-1] in _SPELLED_OUT.values())
        if kind == "number" and _MEASURE.search(attr):
            kind = "measure"  # "the greater length", not "the higher length"
        elif kind == "number" and plural and not re.search(r"[$€£¥₩%]", " ".join(values)):
            kind = "count"  # "branches: 20" is a count
        pairs = {
            "date": ("later", "earlier"),
            "duration": ("longer", "shorter"),
            "count": ("more", "fewer"),
            "measure": ("greater", "smaller"),
        }
        adjective = pairs.get(kind, ("higher", "lower"))[0 if higher else 1]
        own = _COMPARED_MEASURES.get(attr.lower()) if kind == "measure" else None
        if own is not None:
            return _compare_by_adjective(own, subjects, winner, higher, details)
        if kind == "count" and plural:
            # "Which has more branches: Nepal or Bangladesh?" ("No. of Seats": "the fewest seats")
            attr = attr.removeprefix("number of ")
            most = adjective if len(subjects) == 2 else {"more": "the most", "fewer": "the fewest"}[adjective]
            if attr == "hours" and all(is_person_name(s) for s in subjects):
                return _who_works(most, names, subjects[winner], details)
            return (
                f"Which has {most} {attr}: {names}?",
                _sentence(f"{subjects[winner]} has {most} {attr} ({details})."),
                "en.compare.count",
            )
        if len(subjects) > 2:
            adjective = _SUPERLATIVES[adjective]
        words = attribute.split()
        base = base_form(words[0], self.vocabulary) if kind == "date" and len(words) == 1 else None
        if base in _INTRANSITIVE:
            return (
                f"Who {attr} {adjective}: {names}?",
                _sentence(f"{subjects[winner]} {attr} {adjective} ({details})."),
                "en.compare.active",
            )
        if base:
            return (
                f"Which was {attr} {adjective}: {names}?",
                _sentence(f"{subjects[winner]} was {attr} {adjective} ({details})."),
                "en.compare.passive",
            )
        if kind == "date" and _verbal_date_label(attr.lower()):
            return None  # "the later term ends", "the earlier maintainer since": a label no comparison reads from
        dated = (
            re.fullmatch(r"(?:year|date|day) ([a-z]+ed)|((?:first|last) [a-z]+ed)", attr) if kind == "date" else None
        )
        if dated and dated.group(1) and dated.group(1) not in _OWN_EVENTS:
            # "Year Initiated" in a table of partner universities dates the partnership, not the university: no
            # question says what was initiated, and "the earlier year initiated" is a pasted label
            return None
        if dated:  # "Year Founded": "Which was founded earlier: …?", not "Which has the earlier year founded"
            done = dated.group(1) or dated.group(2)  # "First published": "Which was first published earlier"
            return (
                f"Which was {done} {adjective}: {names}?",
                _sentence(f"{subjects[winner]} was {done} {adjective} ({details})."),
                "en.compare.passive",
            )
        priced = _PRICE_LABEL.fullmatch(attr) if kind == "number" else None
        if priced:  # "Price (Lakh ₹)": "Which costs more: …?", the bracket's unit beside each value
            most = ("more" if higher else "less") if len(subjects) == 2 else ("the most" if higher else "the least")
            shown = "; ".join(f"{s}: {_with_unit(v, priced.group(1))}" for s, v in zip(subjects, values, strict=True))
            return (
                f"Which costs {most}: {names}?",
                _sentence(f"{subjects[winner]} costs {most} ({shown})."),
                "en.compare.cost",
            )
        question = f"Which has the {adjective} {attr}: {names}?"
        answer = _sentence(f"{subjects[winner]} has the {adjective} {attr} ({details}).")
        return question, answer, "en.compare"

    def arithmetic(
        self, op: str, subjects: list[str], attribute: str, values: list[str], result: str, qualifiers: list[str | None]
    ) -> tuple[str, str, str] | None:
        attr = attr_phrase(attribute)
        if len(set(subjects)) == 1 and all(qualifiers):
            subject = subjects[0]
            of = self._of(attr, subject)
            if re.fullmatch(r"[a-z]+", attr) and is_plural_noun(attr):
                of = f"the number of {attr} at {subject}"
            q0, q1 = qualifiers[0] or "", qualifiers[1] or ""
            if op == "difference":
                return (
                    f"By how much did {of} change from {q0} to {q1}?",
                    _sentence(f"{of} went from {values[0]} in {q0} to {values[1]} in {q1}, a change of {result}."),
                    "en.arith.change",
                )
            if op == "sum":
                return (
                    f"What was {of} in {q0} and {q1} combined?",
                    _sentence(f"{of} was {values[0]} in {q0} and {values[1]} in {q1}, {result} in total."),
                    "en.arith.sum_period",
                )
            return None
        pair = f"{subjects[0]} and {subjects[1]}"
        priced = _PRICE_LABEL.fullmatch(attr)
        if priced and op in ("sum", "difference"):  # "Price (Lakh ₹)": what things cost, not "the price (Lakh ₹)"
            unit = priced.group(1)
            a, b, total = (_with_unit(v, unit) for v in (values[0], values[1], result))
            if op == "sum":
                return (
                    f"How much do {pair} cost together?",
                    _sentence(f"{pair} cost {total} together ({subjects[0]}: {a}; {subjects[1]}: {b})."),
                    "en.arith.sum.cost",
                )
            return (
                f"How much more does {subjects[0]} cost than {subjects[1]}?",
                _sentence(f"{subjects[0]} ({a}) costs {total} more than {subjects[1]} ({b})."),
                "en.arith.difference.cost",
            )
        if op == "sum":
            return (
                f"What is the combined {attr} of {pair}?",
                _sentence(f"The combined {attr} is {result} ({subjects[0]}: {values[0]}; {subjects[1]}: {values[1]})."),
                "en.arith.sum",
            )
        comparative = _MEASURE_COMPARATIVES.get(attr_phrase(attribute).lower())
        if op == "difference" and comparative:  # "How much wider is the Grand SUV than the Edge Sedan?"
            return (
                f"How much {comparative} is {subjects[0]} than {subjects[1]}?",
                _sentence(f"{subjects[0]} ({values[0]}) is {result} {comparative} than {subjects[1]} ({values[1]})."),
                "en.arith.difference.measure",
            )
        if op == "difference":
            return (
                f"How much higher is the {attr} of {subjects[0]} than that of {subjects[1]}?",
                _sentence(
                    f"The {attr} of {subjects[0]} ({values[0]}) is {result} higher than that of "
                    f"{subjects[1]} ({values[1]})."
                ),
                "en.arith.difference",
            )
        if op == "ratio":
            return (
                f"What is the ratio of the {attr} of {subjects[0]} to that of {subjects[1]}?",
                _sentence(
                    f"The {attr} of {subjects[0]} ({values[0]}) is {result} times that of {subjects[1]} ({values[1]})."
                ),
                "en.arith.ratio",
            )
        return None

    def two_hop(self, first: FactNode, second: FactNode, subject: str) -> tuple[str, str, str] | None:
        a1, a2 = attr_noun(first.attribute), fact_attr(second)
        bridge = self._of(a1, subject)
        if attr_phrase(second.attribute) in ("reports to", "reporting to"):
            return (
                f"Who does {bridge} report to?",
                _sentence(f"{bridge} is {first.value}, who reports to {second.value}."),
                "en.two_hop.reports",
            )
        kind = value_kind(second)
        wh = WH["other" if kind == "count" else kind]
        if kind == "percent" and a2.split()[-1] in _RATE_WORDS:
            wh = "What"
        if _GROUP_ATTRS.match(a2):  # "Which team is the policy owner of … in?", not "What is the team of …"
            return (
                f"Which {a2} is {bridge} in?",
                _sentence(f"{bridge} is {first.value}, who is in the {second.value} {a2}."),
                "en.two_hop.group",
            )
        question = f"{wh} {'are' if is_plural_noun(a2.split()[-1]) else 'is'} the {a2} of {bridge}?"
        answer = _sentence(f"{bridge} is {first.value}, whose {a2} is {second.value}.")
        return question, answer, "en.two_hop"

    def two_hop_mention(self, subject: str, type_word: str, name: str, second: FactNode) -> tuple[str, str, str] | None:
        a2 = fact_attr(second)
        bridge = f"the {type_word} {subject} is associated with"
        kind = value_kind(second)
        wh = WH["other" if kind == "count" else kind]
        verb = "are" if is_plural_noun(a2.split()[-1]) else "is"
        return (
            f"{wh} {verb} the {a2} of {bridge}?",
            _sentence(f"{subject} is associated with {name}, whose {a2} is {second.value}."),
            "en.two_hop.mention",
        )

    def relation(self, fact: FactNode, subject: str, inverse: bool, type_word: str = "") -> tuple[str, str, str] | None:
        if not inverse and attr_phrase(fact.attribute) == "product" and type_word not in _PERSON_TYPES:
            # "Which product is the contract with Salish Courier Collective for?"
            return (
                f"Which product is {subject} for?",
                _sentence(f"{subject} is for {fact.value}."),
                "en.relation.product",
            )
        if not inverse:
            return self.fact(fact, subject)
        attr = attr_noun(fact.attribute)
        kind = type_word or "one"
        their = "their" if kind in _PERSON_TYPES else "its"
        if kind in _PERSON_TYPES:
            return (
                f"Who has {fact.value} as {their} {attr}?",
                _sentence(f"{fact.value} is {self._of(attr, subject)}."),
                "en.relation.inverse",
            )
        return (
            f"Which {kind} has {fact.value} as {their} {attr}?",
            _sentence(f"{fact.value} is {self._of(attr, subject)}."),
            "en.relation.inverse",
        )

    def mention(self, subject: str, type_word: str, name: str, sentence: str) -> tuple[str, str, str] | None:
        # the answer is the name the question asks for; the sentence that ties them stays in the item's reference
        # contexts (pasted after the name it reads as an answer to a question nobody asked)
        return (
            f"Which {type_word} is {subject} associated with?",
            _sentence(f"{subject} is associated with {name}."),
            "en.relation.mention",
        )

    def count(self, type_word: str, attribute: str, value: str, names: list[str]) -> tuple[str, str, str] | None:
        plural = _plural(type_word)
        attr = attr_phrase(attribute)
        if _PLACE_ATTRS.match(attr):
            question = f"How many {plural} are based in {value}?"
        elif _GROUP_ATTRS.match(attr):  # "How many people are in the Sales team?"
            group = value if value.lower().endswith(attr.lower()) else f"{value} {attr}"
            question = f"How many {plural} are in the {group}?"
        elif _ROLE_ATTRS.match(attr):  # "How many employees hold the title Data Engineer?"
            question = f"How many {plural} hold the title {value}?"
        elif re.fullmatch(r"(?:current )?(?:status|state)", attr) and re.fullmatch(
            r"[A-Za-z][a-z]+(?: [a-z]+)?", value
        ):
            question = f"How many {plural} are {value.lower()}?"  # "Status: Active" → "How many contracts are active?"
        else:
            question = f"How many {plural} have {value} as their {attr}?"
        listed = ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]
        answer = _sentence(f"{len(names)} {plural if len(names) != 1 else type_word}: {listed}.")
        return question, answer, "en.count"

    def extreme(
        self, type_word: str, attribute: str, winner: str, value: str, highest: bool, n: int
    ) -> tuple[str, str, str] | None:
        attr = attr_phrase(attribute)
        word = "highest" if highest else "lowest"
        if re.search(r"\b(hours?|days?|weeks?|months?|years?|minutes?)$", value):
            word = "longest" if highest else "shortest"
        elif re.fullmatch(r"[a-z]+", attr.removeprefix("number of ")) and is_plural_noun(
            attr.removeprefix("number of ")
        ):
            word = "most" if highest else "fewest"  # "the most units", not "the highest units"
            attr = attr.removeprefix("number of ")
        plural = _plural(type_word)
        who = "Who" if type_word == "person" else f"Which {type_word}"
        return (
            f"{who} has the {word} {attr}?",
            _sentence(f"{winner} has the {word} {attr} among the {n} {plural}, at {value}."),
            "en.extreme",
        )

    def type_word(self, doc_type: str) -> str:
        label = doc_type.split("/")[-1]
        return plural_to_singular(label.strip().lower()) if label else "item"


#: A date column named by a role and "since": "Maintainer since", "Member since".
_SINCE_LABEL = re.compile(r"([a-z][a-z -]*?)\s+since")
#: A date column named by a noun and a verb of its end or start: "Term ends", "Contract expires".
_VERB_LABEL = re.compile(
    r"([a-z][a-z -]*?)\s+(?:(end|start|begin|expire|close|open|finish|renew)s|"
    r"(ended|started|began|expired|closed|opened|finished|renewed))"
)


def _verbal_date_label(label: str) -> bool:
    """Whether a lower-cased date column's label ends in a word that is no noun ("maintainer since", "term ends")."""
    return bool(_SINCE_LABEL.fullmatch(label) or _VERB_LABEL.fullmatch(label))


#: The base form of a past tense in `_VERB_LABEL`.
_PAST_BASE = {
    "began": "begin",
    "ended": "end",
    "started": "start",
    "expired": "expire",
    "closed": "close",
    "opened": "open",
    "finished": "finish",
    "renewed": "renew",
}


def _room(subject: str, value: str) -> tuple[str, str, str] | None:
    """A room asked as which room: a class's room named like a place ("Seville"): "Which room is the Spanish Course
    in?", answered with the room, not "in Seville" (a city); a staff list's "Room: Acorns", the room a person works
    in ("Where is Chloe's room? Acorns" reads as asking the way there). None for a person's numbered room."""
    if not is_person_name(subject):
        room = value if re.search(r"\d|\b(?:room|hall|studio|lab)\b", value, re.I) else f"the {value} room"
        room = f"room {value}" if re.fullmatch(r"[A-Z]?\d[\w.-]*", value) else room
        return f"Which room is {subject} in?", _sentence(f"{subject} is in {room}."), "en.where.room"
    if not re.search(r"\d", value):
        return f"Which room does {subject} work in?", _sentence(f"{subject} works in {value}."), "en.where.room"
    return None


#: Posts held on a board or council, the values of an "Office" column that is no room.
_OFFICE_HELD = re.compile(
    r"(?:vice[- ]|deputy |assistant )?(?:president|chair(?:person|man|woman)?|clerk|treasurer|secretary|director|"
    r"member|trustee|commissioner|officer)",
    re.I,
)
