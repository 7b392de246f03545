"""English questions and answers: possessives, "the … of …" for common-noun subjects, verb inversion for
sentences ("X was founded in 2011" → "When was X founded?")."""

from __future__ import annotations

import re

from schemas import FactNode
from testgen.kg.entities import short_title
from testgen.lang import GENERIC_HEADINGS
from testgen.lang.en import a_or_an, base_form, noun_phrase, plural_to_singular, possessive

_PERSON_ATTRS = re.compile(
    r"\b(owner|manager|lead|leader|head|founder|ceo|cto|cfo|coo|director|contact|supervisor|mentor|"
    r"representative|champion|sponsor|president|chair|author|reviewer|approver)s?\b",
    re.I,
)
_PLACE_ATTRS = re.compile(r"^(location|city|office|based in|headquarters|hq|base|site)$", re.I)
_INTRANSITIVE = {"join", "start", "begin", "leave", "retire", "move", "arrive", "expire", "end", "close"}
_PRICE_CONTEXT = re.compile(r"\b(pricing|price|prices|fees?|costs?|rates?|tiers?|plans?)\b", re.I)
_MONEY_WORDS = re.compile(
    r"\b(pricing|price|fees?|costs?|rates?|salary|amount|value|budget|revenue|pay|"
    r"payment|income|profit|spend|limit|allowance|bonus|stipend)\b",
    re.I,
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


def attr_phrase(attribute: str) -> str:
    """ "Date of Birth" → "date of birth"; acronyms and words with digits keep their case."""
    out = []
    depth = 0
    for w in attribute.strip().rstrip(":").split():
        keep = (w.isupper() and len(w) > 1) or any(c.isdigit() for c in w) or w[1:] != w[1:].lower()
        depth += w.count("(")
        out.append(w if keep or depth > 0 else w.lower())  # names in parentheses keep their case
        depth -= w.count(")")
    return " ".join(out)


def _plural(word: str) -> bool:
    return word.endswith("s") and not word.endswith(("ss", "us", "is"))


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
    """ "2015 - Present" → "since 2015"; "2013 - 2015" → "from 2013 to 2015"; "2019" → "in 2019"."""
    m = re.match(r"^\s*(.+?)\s*[-–~]\s*(.+?)\s*$", qualifier)
    if m and not re.match(r"^\d{4}-\d\d", qualifier):
        if m.group(2).lower() in ("present", "now", "today", "current"):
            return f"since {m.group(1)}"
        return f"from {m.group(1)} to {m.group(2)}"
    return f"in {qualifier}"


def _prep(fact: FactNode) -> str:
    key = fact.date_key or ""
    return "on" if re.match(r"^\d{4}-\d\d-\d\d$", key) else "in"


def _sentence(text: str) -> str:
    text = text.strip()
    return text[0].upper() + text[1:] if text else text


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
        return f"the {attr} of {subject}" if subject.startswith("the ") else f"{possessive(subject)} {attr}"

    # -- one fact ------------------------------------------------------------------------------------
    def fact(self, fact: FactNode, subject: str) -> tuple[str, str, str] | None:
        if fact.source == "sentence":
            return self._from_sentence(fact, subject)
        if fact.source == "timeline" and fact.value_type == "date":
            return self._event(fact, subject)
        attr = attr_phrase(fact.attribute) if fact.value_type != "money" else fact_attr(fact)
        value = fact.value
        if fact.qualifier:
            return self._qualified(fact, subject, attr)
        if re.match(r"(with|without|for|in|on|per|under|over|at)\b", attr) and fact.value_type in ("money", "number"):
            noun = "price" if fact.value_type == "money" else attr_phrase(fact.context or "value")
            attr = attr_phrase(fact.attribute)
            return (
                f"What is the {noun} of {subject} {attr}?",
                _sentence(f"The {noun} of {subject} {attr} is {value}."),
                "en.with",
            )
        of = self._of(attr, subject)
        if fact.value_type == "date":
            words = fact.attribute.split()
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
            if len(words) == 1 and words[0].isalpha():
                participle = attr + ("d" if attr.endswith("e") else "ed")
                if participle in self.vocabulary:  # "Launch: 2013" and the corpus says "launched"
                    return (
                        f"When was {subject} {participle}?",
                        _sentence(f"{subject} was {participle} {_prep(fact)} {value}."),
                        "en.date.passive",
                    )
            if re.search(r"\b(date|birth|day|birthday|deadline)\b", attr):
                return f"What is {of}?", _sentence(f"{of} is {value}."), "en.date.attr"
            return f"When is {of}?", _sentence(f"{of} is {value}."), "en.date.when"
        if fact.value_type == "text":
            if attr in ("reports to", "reporting to", "reports"):
                return f"Who does {subject} report to?", _sentence(f"{subject} reports to {value}."), "en.reports"
            if _PLACE_ATTRS.match(attr):
                return f"Where is {subject} based?", _sentence(f"{subject} is based in {value}."), "en.place"
            if _plural(attr.split()[-1]):
                wh = "Who" if _PERSON_ATTRS.search(attr) else "What"
                return f"{wh} are {of}?", _sentence(f"{of} are {value}."), "en.what.list"
            if _PERSON_ATTRS.search(attr):
                return f"Who is {of}?", _sentence(f"{of} is {value}."), "en.who"
            return f"What is {of}?", _sentence(f"{of} is {value}."), "en.what"
        if (
            fact.value_type == "number"
            and fact.unit
            and fact.unit.endswith("s")
            and (fact.unit in attr or attr in ("headcount", "staff", "team size", "size"))
        ):
            return (f"How many {fact.unit} does {subject} have?", _sentence(f"{subject} has {value}."), "en.how_many")
        if (
            fact.value_type == "number"
            and fact.unit is None
            and re.fullmatch(r"[a-z]+s", attr)
            and not attr.endswith("ss")
        ):
            return (f"How many {attr} does {subject} have?", _sentence(f"{subject} has {value} {attr}."), "en.how_many")
        return f"What is {of}?", _sentence(f"{of} is {value}."), f"en.{fact.value_type}"

    def _qualified(self, fact: FactNode, subject: str, attr: str) -> tuple[str, str, str] | None:
        when = period(fact.qualifier or "")
        if fact.value_type == "text" and _ROLE_CONTEXT.search(fact.attribute):
            return (
                f"What role did {subject} hold {when}?",
                _sentence(f"{when}, {subject} was {_role(fact.value)}."),
                "en.role",
            )
        words = [w for w in attr.split() if w not in _HISTORY_WORDS]
        if not words:
            return None
        attr = " ".join(words)
        if fact.value_type == "number" and fact.unit is None:
            parts = attr.split()
            verb = base_form(parts[-1], self.vocabulary) if len(parts) == 2 else None
            if verb and _plural(parts[0]):  # "bikes shipped" → "How many bikes did X ship in 2023?"
                return (
                    f"How many {parts[0]} did {subject} {verb} {when}?",
                    _sentence(f"{subject} {parts[-1]} {fact.value} {parts[0]} {when}."),
                    "en.qualified.count",
                )
            if len(parts) == 1 and _plural(parts[0]):
                return (
                    f"How many {parts[0]} did {subject} have {when}?",
                    _sentence(f"{subject} had {fact.value} {parts[0]} {when}."),
                    "en.qualified.count",
                )
        of = self._of(attr, subject)
        return f"What was {of} {when}?", _sentence(f"{of} {when} was {fact.value}."), "en.qualified"

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
        rest = re.split(r",\s(?:where|which|who|while|and|but)\b|;", " ".join(words[1:]))[0].strip()
        if len(rest.split()) > 14:
            return None
        if rest and rest[0].isupper() and rest.split()[0].lower() in _LOWER_FIRST:
            rest = rest[0].lower() + rest[1:]
        if len(words) > 1 and words[1].lower() in ("as", "by", "to", "for") and head.lower().endswith("ed"):
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
        sentence = fact.evidence.replace("**", "").strip()
        pos = sentence.find(fact.value)
        if pos < 0:
            return None
        pre = sentence[:pos].rstrip()
        post = sentence[pos + len(fact.value) :]
        prep = re.search(r"(?:^|\s)(in|on|since|by|during|as of|from|at|of)$", pre, re.I)
        if prep is None:
            return None
        clause = pre[: prep.start()].strip(" ,")
        if not clause:  # "In 2014, the company opened ..." → the clause follows the date
            clause = re.split(r"[.;]", post.lstrip(" ,"))[0].strip()
        clause = re.split(r",\s(?:which|who|where|and|but)\b|;", clause)[0].strip(" ,")
        if len(clause.split()) < 3 or len(clause.split()) > 22:
            return None
        return self._invert(clause, sentence, subject)

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
        pairs = {"date": ("later", "earlier"), "duration": ("longer", "shorter"), "count": ("higher", "lower")}
        adjective = pairs.get(kind, ("higher", "lower"))[0 if higher else 1]
        if len(subjects) > 2:
            adjective = {
                "later": "latest",
                "earlier": "earliest",
                "higher": "highest",
                "lower": "lowest",
                "longer": "longest",
                "shorter": "shortest",
            }[adjective]
        names = " or ".join(subjects) if len(subjects) == 2 else ", ".join(subjects[:-1]) + ", or " + subjects[-1]
        details = "; ".join(f"{s}: {v}" for s, v in zip(subjects, values, strict=True))
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
            if re.fullmatch(r"[a-z]+", attr) and _plural(attr):
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
        if op == "sum":
            return (
                f"What is the combined {attr} of {pair}?",
                _sentence(f"The combined {attr} is {result} ({subjects[0]}: {values[0]}; {subjects[1]}: {values[1]})."),
                "en.arith.sum",
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
        if second.value_type == "date":
            question = f"When is the {a2} of {bridge}?"
        elif _PERSON_ATTRS.search(a2):
            question = f"Who is the {a2} of {bridge}?"
        else:
            question = f"What is the {a2} of {bridge}?"
        answer = _sentence(f"{bridge} is {first.value}, whose {a2} is {second.value}.")
        return question, answer, "en.two_hop"

    def two_hop_mention(self, subject: str, type_word: str, name: str, second: FactNode) -> tuple[str, str, str] | None:
        a2 = fact_attr(second)
        bridge = f"the {type_word} {subject} is associated with"
        wh = "Who" if _PERSON_ATTRS.search(a2) else ("When" if second.value_type == "date" else "What")
        verb = "is"
        return (
            f"{wh} {verb} the {a2} of {bridge}?",
            _sentence(f"{subject} is associated with {name}, whose {a2} is {second.value}."),
            "en.two_hop.mention",
        )

    def relation(self, fact: FactNode, subject: str, inverse: bool, type_word: str = "") -> tuple[str, str, str] | None:
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
        return (
            f"Which {type_word} is {subject} associated with?",
            _sentence(f"{subject} is associated with {name}: {sentence.rstrip('.')}."),
            "en.relation.mention",
        )

    def count(self, type_word: str, attribute: str, value: str, names: list[str]) -> tuple[str, str, str] | None:
        plural = {"person": "people"}.get(type_word, type_word if type_word.endswith("s") else type_word + "s")
        attr = attr_phrase(attribute)
        if _PLACE_ATTRS.match(attr):
            question = f"How many {plural} are based in {value}?"
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
        plural = {"person": "people"}.get(type_word, type_word + "s")
        who = "Who" if type_word == "person" else f"Which {type_word}"
        return (
            f"{who} has the {word} {attr}?",
            _sentence(f"{winner} has the {word} {attr} among the {n} {plural}, at {value}."),
            "en.extreme",
        )

    def type_word(self, doc_type: str) -> str:
        label = doc_type.split("/")[-1]
        return plural_to_singular(label.strip().lower()) if label else "item"
