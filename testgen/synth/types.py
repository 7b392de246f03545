"""The kinds of question people ask, and how a run's slots are spread over them and over the categories.

A hand-written test set over prose asks more than "what is X's Y": *why* something holds, *how* to do something,
what happens *if*, yes/no, lists, contrasts and summaries. Each LLM item records its type in
``metadata.question_type``. The category contract (ARCHITECTURE §4) still decides what is checked on the item;
the type decides how the question is asked, so each category takes only the types its post-condition allows (a
summary over several documents is ``holistic``, a contrast ``comparative``, a synthesis of two documents
``spanning``).

The default mix follows the shape of hand-written sets. Counting the question words of the human sets in
``shared/corpora`` (STICI-note 80 answerable, COVID-QA 1,380, RAG-Multi-Corpus 1,066; `classify_question`) gives
what/which 0.72 / 0.79 / 0.25, list 0.14 / 0.05 / 0.10, how 0.05 / 0.03 / 0.23, why 0.03 / 0.07 / 0.13, yes/no
0.01 / 0.03 / 0.14, contrast 0.04 / 0.02 / 0.13, summary 0.01 / 0.01 / 0.00, conditional 0.00 / 0.00 / 0.01;
`DEFAULT_TYPE_MIX` is about their mean, with a floor so each kind a test set should probe is present.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from testgen.errors import OptionError


@dataclass(frozen=True)
class QuestionType:
    """One kind of question: how the prompt asks for it and what a good one looks like."""

    name: str
    ask: str
    example: str


QUESTION_TYPES: dict[str, QuestionType] = {
    t.name: t
    for t in (
        QuestionType(
            "what",
            "a what/which/who/when/where/how-many question about one specific point the passage states",
            "Which file format does the exporter write by default?",
        ),
        QuestionType(
            "why",
            "a why question: the reason, cause or purpose the passage gives for something",
            "Why does the cache get cleared after an upgrade?",
        ),
        QuestionType(
            "how",
            "a how-to question about a procedure or mechanism the passage describes (the answer gives the steps or "
            "the way it works)",
            "How do I turn on the accessibility shortcut?",
        ),
        QuestionType(
            "conditional",
            "a conditional question: what holds or happens in a situation the passage names (if / when / unless)",
            "If I cancel 30 days before departure, do I get my deposit back?",
        ),
        QuestionType(
            "yes_no",
            "a yes/no question the passage settles; the reference answer starts with Yes or No and gives the reason",
            "Can the free plan export to PDF?",
        ),
        QuestionType(
            "list",
            "a question whose answer is a list of several items the passages name",
            "What are the ingredients of the sauce?",
        ),
        QuestionType(
            "contrast",
            "a question about how two things differ (or which of the two does something); name both things",
            "How does the annual plan differ from the monthly one?",
        ),
        QuestionType(
            "summary",
            "a question asking for an overview of what the passages say about one topic, answered in two or three "
            "sentences",
            "What do the guides say about choosing a GPU for training?",
        ),
    )
}

#: Shares of each type in a run, about the mean of the human sets (see the module docstring).
DEFAULT_TYPE_MIX: dict[str, float] = {
    "what": 0.44,
    "list": 0.10,
    "how": 0.10,
    "why": 0.09,
    "yes_no": 0.07,
    "contrast": 0.07,
    "summary": 0.07,
    "conditional": 0.06,
}

#: The types a category's post-condition allows, most natural first.
CATEGORY_TYPES: dict[str, tuple[str, ...]] = {
    "direct_fact": ("what", "how", "why", "conditional", "yes_no", "list"),
    "temporal": ("what", "conditional", "yes_no"),
    "numerical": ("what", "conditional", "yes_no"),
    "comparative": ("contrast", "yes_no"),
    "spanning": ("why", "what", "how", "conditional", "yes_no"),
    "holistic": ("summary", "list"),
    "relationship": ("what", "why"),
}

#: Passages per seed: one chunk, or chunks of two or three documents sharing a topic.
SEED_SIZE: dict[str, int] = {
    "direct_fact": 1,
    "temporal": 1,
    "numerical": 1,
    "comparative": 2,
    "spanning": 2,
    "holistic": 3,
    "relationship": 1,
}


def fact_seed_type(category: str) -> str:
    """The type a rewritten fact seed asks: a lookup, or for a comparative seed which of two is ahead."""
    return "contrast" if category == "comparative" else "what"


def parse_types(text: str | None) -> dict[str, float]:
    """``why=0.3,how=0.2,what=0.5`` → shares that sum to 1 (unnamed types get 0); None → the default mix."""
    if not text:
        return dict(DEFAULT_TYPE_MIX)
    shares: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        name = name.strip().replace("-", "_").replace("/", "_")
        name = "yes_no" if name in ("yesno", "yes_no") else name
        if name not in QUESTION_TYPES:
            raise OptionError(f"--types: unknown question type {name!r} (use {', '.join(QUESTION_TYPES)})")
        try:
            share = float(value) if sep else 1.0
        except ValueError:
            raise OptionError(f"--types: share for {name} is not a number: {value!r}") from None
        if share < 0:
            raise OptionError(f"--types: share for {name} must not be negative")
        shares[name] = share
    total = sum(shares.values())
    if total <= 0:
        raise OptionError("--types: at least one share must be positive")
    return {name: shares.get(name, 0.0) / total for name in QUESTION_TYPES}


def allowed_types(category: str, mix: dict[str, float]) -> list[str]:
    """The types `category` may take that have a share in `mix` (plug-in categories: ``what`` only)."""
    return [t for t in CATEGORY_TYPES.get(category, ("what",)) if mix.get(t, 0.0) > 0]


def plan_types(quotas: dict[str, int], mix: dict[str, float]) -> dict[str, list[str]]:
    """The question type of each slot of each category, deterministic.

    The category quotas are the contract and stay as they are; the types follow `mix` as closely as the
    categories allow: the most constrained categories choose first, and each slot takes the allowed type
    below its target (``num × share``) that the fewest categories can ask, then the one furthest below, ties in
    type order. A category none of whose types has a
    share gets its natural first type, so a quota is never left without a way to be asked."""
    num = sum(quotas.values())
    total = sum(max(0.0, mix.get(t, 0.0)) for t in QUESTION_TYPES) or 1.0  # shares need not sum to 1
    target = {t: num * max(0.0, mix.get(t, 0.0)) / total for t in QUESTION_TYPES}
    given: Counter[str] = Counter()
    order = sorted(quotas, key=lambda c: (len(allowed_types(c, mix)) or 99, list(quotas).index(c)))
    plan: dict[str, list[str]] = {c: [] for c in quotas}
    names = list(QUESTION_TYPES)
    # a type few categories can ask (summary: holistic only) goes first where it can, until its target is met
    homes = {t: sum(1 for c in quotas if quotas[c] and t in allowed_types(c, mix)) or 1 for t in names}
    for category in order:
        choices = allowed_types(category, mix) or list(CATEGORY_TYPES.get(category, ("what",)))[:1]
        for _ in range(quotas[category]):
            pick = max(choices, key=lambda t: _priority(t, target[t] - given[t], homes[t], names))
            given[pick] += 1
            plan[category].append(pick)
    return plan


def _priority(name: str, deficit: float, homes: int, names: list[str]) -> tuple[float, ...]:
    """Below target first, and among those the type the fewest categories can ask; then the furthest below."""
    return (float(deficit > 0), -float(homes) if deficit > 0 else 0.0, deficit, -float(names.index(name)))


_CONTRAST = re.compile(r"\b(differ|difference|compare[sd]?|comparison|versus|vs\.?|contrast)\b")
_SUMMARY = re.compile(
    r"\b(summari[sz]e|summary|overview|what happens|main (idea|point|argument)s?)\b|what is .* about\b"
)
_WHY = re.compile(r"^why\b|\b(reason|cause[sd]?|because|purpose)\b")
_CONDITIONAL = re.compile(r"\bif\b|\bin case\b|\bunless\b|\bwhat happens when\b")
_HOW = re.compile(r"^how (do|does|can|should|to|would|could|did)\b|\b(steps?|procedure)\b")
_YES_NO = re.compile(r"^(is|are|does|do|did|can|could|was|were|has|have|had|will|should|would)\b")
_LIST = re.compile(r"\b(list|name (all|the)|what are (the|some)|what (kinds|types)|which .* are)\b")


def classify_question(question: str) -> str:
    """The type of an English question by its wording (for measuring human and generated sets; other
    languages come out as ``what``). Checked in order: contrast, summary, why, conditional, how, yes/no,
    list, else what."""
    text = question.strip().lower()
    for name, pattern in (
        ("contrast", _CONTRAST),
        ("summary", _SUMMARY),
        ("why", _WHY),
        ("conditional", _CONDITIONAL),
        ("how", _HOW),
        ("yes_no", _YES_NO),
        ("list", _LIST),
    ):
        if pattern.search(text):
            return name
    return "what"
