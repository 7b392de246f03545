"""temporal: a fact whose value is a date, time or period; or an event placed in time."""

from __future__ import annotations

import random
from collections.abc import Iterator

from testgen.categories._common import (
    LABELLED_SOURCES,
    attribute_key,
    is_duration,
    is_time_value,
    single_fact_draft,
    stratified,
)
from testgen.categories._registry import register
from testgen.kg.values import find_values
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft


@register
class Temporal:
    name = "temporal"
    description = "When something happened or holds: dates, periods, dated events."

    def candidates(self, ctx: GenContext, rng: random.Random) -> Iterator[Draft]:
        # a date, hours and days given as a value ("평일 09:00~18:00", "Mon–Fri"), or a period ("60 min", "2년")
        pool = [
            f
            for f in ctx.candidate_facts
            if f.value_type == "date" or (is_time_value(f) and f.source in LABELLED_SOURCES) or is_duration(f)
        ]
        # Structured dates first (cleaner questions), then prose sentences, each shuffled.
        structured = [f for f in pool if f.source != "sentence"]
        prose = [f for f in pool if f.source == "sentence"]
        structured = stratified(structured, rng, attribute_key)
        prose = stratified(prose, rng, lambda f: f.doc_id)
        for fact in _interleave(structured, prose):
            draft = single_fact_draft(ctx, fact, self.name)
            if draft is not None:
                yield draft

    def check(self, draft: Draft, ctx: GenContext, source_docs: list[str]) -> str | None:
        if any(is_time_value(f) or is_duration(f) for f in draft.facts):
            return None
        if not any(v.value_type == "date" for v in find_values(draft.reference_answer)):
            return "answer holds no date expression"
        return None


def _interleave(first: list, second: list) -> Iterator:
    """Two of the first for one of the second, so prose facts are used but do not dominate."""
    i = j = 0
    while i < len(first) or j < len(second):
        for _ in range(2):
            if i < len(first):
                yield first[i]
                i += 1
        if j < len(second):
            yield second[j]
            j += 1
