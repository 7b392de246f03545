"""English surface rules: noun-phrase display of titles, possessives, base forms of past-tense verbs."""

from __future__ import annotations

import re

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
    if is_proper_name(title) and not (lowered & generic_words):
        return title
    if words[0].lower() in ("the", "a", "an"):
        words = words[1:]
    if is_proper_name(title):
        # a title-cased common phrase ("Remote Work Policy"): all of it is generic
        out = [w if w.isupper() and len(w) > 1 else w.lower() for w in words]
    else:
        # "Contract with Greenline Couriers": only the head noun is generic
        out = [words[0].lower(), *words[1:]]
    return "the " + " ".join(out)


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
