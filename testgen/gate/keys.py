"""**ambiguous_key**: the same subject and attribute hold more than one value in the knowledge base.

A timeline with four Novembers, a time table with a "10:30" slot every day, a price list whose "Price" label
repeats under each section: asked as "X's <attribute>", each has several right answers, and two items made from
them contradict each other. A key is the subject (entity, else its surface name), the normalised attribute and
the qualifier; when it maps to more than one distinct value, no single-fact question is made from it — unless the
values differ only by the section they stand under and the section is named in the question.
"""

from __future__ import annotations

from collections import defaultdict

from schemas import FactNode
from testgen.text import normalize

_STRUCTURED = frozenset({"key_value", "table", "timeline", "llm"})


def fact_key(fact: FactNode) -> tuple[str, str, str]:
    """What a single-fact question about `fact` pins down: subject, attribute, qualifier."""
    subject = fact.subject_entity or normalize(fact.subject)
    return subject, normalize(fact.attribute), normalize(fact.qualifier or "")


class KeyIndex:
    """Distinct values (and the sections they stand in) per fact key, over every structured fact of the KB."""

    def __init__(self, facts: list[FactNode]) -> None:
        self._values: dict[tuple[str, str, str], dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        for fact in facts:
            if fact.source in _STRUCTURED:
                self._values[fact_key(fact)][normalize(fact.value)].add(normalize(fact.context or ""))

    def ambiguous(self, fact: FactNode, question: str) -> bool:
        """Whether a question about `fact` has another right answer elsewhere in the KB."""
        if fact.source not in _STRUCTURED:
            return False
        values = self._values.get(fact_key(fact), {})
        if len(values) <= 1:
            return False
        mine = normalize(fact.context or "")
        # The section disambiguates only when it is named in the question and no other value shares it.
        if not (mine and mine in normalize(question)):
            return True
        value = normalize(fact.value)
        return any(mine in sections for other, sections in values.items() if other != value)
