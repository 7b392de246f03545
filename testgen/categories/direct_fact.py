"""direct_fact: one fact (subject, attribute, value) stated in one chunk. Answer = the value.

Dates are `temporal`'s and amounts, counts and percentages `numerical`'s (a single amount asked is a numerical
question to a reader), so a direct fact is a name, a code, a place, a status, a description."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from testgen.categories._common import (
    LABELLED_SOURCES,
    attribute_key,
    is_quantity,
    is_relation,
    is_time_value,
    single_fact_draft,
    stratified,
)
from testgen.categories._registry import register
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft
from testgen.text import normalize


@register
class DirectFact:
    name = "direct_fact"
    description = "One fact from one chunk; the answer is its value."

    def candidates(self, ctx: GenContext, rng: random.Random) -> Iterator[Draft]:
        pool = [
            f
            for f in ctx.candidate_facts
            if f.value_type != "date"
            and not is_quantity(f)
            and not is_time_value(f)  # "09:00 ~ 18:00", "Mon–Fri": temporal's to ask
            and not (f.value_entity and is_relation(ctx, f))  # a relation is relationship's to ask
            and f.source in LABELLED_SOURCES
            and not _name_list(f.value)
        ]
        for fact in stratified(pool, rng, attribute_key):
            draft = single_fact_draft(ctx, fact, self.name)
            if draft is not None:
                yield draft

    def check(self, draft: Draft, ctx: GenContext, source_docs: list[str]) -> str | None:
        value = normalize(draft.facts[0].value)
        if value not in normalize(draft.reference_answer):
            return "answer does not state the value"
        if any(normalize(k) not in value for k in draft.keywords):
            return "keyword outside the value span"
        if _ASKS_WHEN.search(draft.question):
            # "Which days does Dr Adeyemi work?" → "Mon–Fri, alt. Saturdays": days a reader asks are temporal's
            return "a question of days, dates or times is temporal's"
        return None


#: A question asking when: which days, what dates, what time, 언제, 무슨 요일, 몇 시.
_ASKS_WHEN = re.compile(
    r"^(?:which|what) (?:days?|dates?|time|times)\b|^when\b|\bthe dates of\b|언제|무슨 요일|몇 시|요일은", re.I
)


def _name_list(value: str) -> bool:
    """ "Harborview Hotels, Summit Trail Tours": a list of names reads badly as one value."""
    parts = [p.strip() for p in value.split(",")]
    return len(parts) >= 2 and all(p[:1].isupper() for p in parts)
