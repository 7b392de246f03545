"""spanning: a two-hop question across documents. The first fact's value is an entity (the bridge) whose
own facts live in another document: "What is the join date of the product owner of X?"."""

from __future__ import annotations

import random
from collections.abc import Iterator

from testgen.categories._common import keywords_for_value, phraser, subject_name, without_answer
from testgen.categories._registry import register
from testgen.categories.relationship import mention_relations
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft
from testgen.text import normalize


@register
class Spanning:
    name = "spanning"
    description = "Two facts in two documents joined by a shared entity; needs both documents."

    def candidates(self, ctx: GenContext, rng: random.Random) -> Iterator[Draft]:
        firsts = [
            f
            for f in ctx.candidate_facts
            if f.value_entity
            and f.source in ("key_value", "table")
            and not f.qualifier
            and f.value_entity != f.subject_entity
        ]
        rng.shuffle(firsts)
        prose = mention_relations(ctx)
        rng.shuffle(prose)
        for first in firsts + prose:
            assert first.value_entity is not None
            seconds = [
                g
                for g in ctx.facts_by_entity.get(first.value_entity, [])
                if g.doc_id != first.doc_id
                and g.source in ("key_value", "table")
                and not g.qualifier
                and g.value_entity != first.subject_entity
                and ", " not in g.value
                and normalize(first.value) not in normalize(g.value)
            ]
            if not seconds:
                continue
            second = rng.choice(seconds)
            language = ctx.language_of(first)
            ph, flags = phraser(ctx, language)
            subject = without_answer(ctx, ph.subject(subject_name(ctx, first)), first.value)
            if first.source == "sentence":
                type_word = ph.type_word(ctx.entities[first.value_entity].entity_type)
                phrased = ph.two_hop_mention(subject, type_word, first.value, second)
            else:
                phrased = ph.two_hop(first, second, subject)
            if phrased is None:
                continue
            question, answer, template = phrased
            yield Draft(
                category=self.name,
                question=question,
                reference_answer=answer,
                keywords=keywords_for_value(first.value) + keywords_for_value(second.value),
                facts=[first, second],
                answer_spans=[second.value, first.value],
                language=language,
                template=template,
                flags=flags,
            )

    def check(self, draft: Draft, ctx: GenContext, source_docs: list[str]) -> str | None:
        if len(source_docs) < 2:
            return "fewer than two source documents"
        return None  # "not answerable from one document" is checked by the validator on the closures
