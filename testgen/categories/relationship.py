"""relationship: a relation between two entities (who owns, manages, serves which), asked in either
direction; both entities and the relation word must be grounded in the sources."""

from __future__ import annotations

import random
from collections.abc import Iterator

from testgen.categories._common import entity_type_of, phraser, subject_name
from testgen.categories._registry import register
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft
from testgen.text import contains_keyword, normalize


@register
class Relationship:
    name = "relationship"
    description = "How two entities are related, stated in one document and often echoed in the other."

    def candidates(self, ctx: GenContext, rng: random.Random) -> Iterator[Draft]:
        pool = [f for f in ctx.facts if f.value_entity and f.subject_entity and f.value_entity != f.subject_entity
                and f.source in ("key_value", "table") and not f.qualifier]
        rng.shuffle(pool)
        for fact in pool:
            language = ctx.language_of(fact)
            ph, flags = phraser(ctx, language)
            subject = ph.subject(subject_name(ctx, fact))
            inverse = rng.random() < 0.5
            type_word = ph.type_word(entity_type_of(ctx, fact) or "")
            phrased = ph.relation(fact, subject, inverse, type_word)
            if phrased is None and inverse:
                phrased = ph.relation(fact, subject, False, type_word)
                inverse = False
            if phrased is None:
                continue
            question, answer, template = phrased
            value_entity = ctx.entities[fact.value_entity]  # type: ignore[index]
            names = [subject_name(ctx, fact), value_entity.name]
            facts = [fact]
            # The other side often states the relation too (a person's page lists the product they own).
            for other in ctx.facts_by_entity.get(fact.value_entity or "", []):
                if other.value_entity == fact.subject_entity:
                    facts.append(other)
                    break
            yield Draft(
                category=self.name, question=question, reference_answer=answer, keywords=names,
                facts=facts, answer_spans=[names[0] if inverse else names[1]], language=language,
                template=template + (".inverse" if inverse and not template.endswith("inverse") else ""),
                named_entities=names, flags=flags,
            )

    def check(self, draft: Draft, ctx: GenContext, source_docs: list[str]) -> str | None:
        texts = [ctx.doc_text[d] for d in source_docs]
        for name in draft.named_entities:
            if not any(contains_keyword(t, name) for t in texts):
                return f"entity not grounded: {name}"
        relation = normalize(draft.facts[0].attribute)
        if not any(relation in t for t in texts):
            return "relation not grounded"
        return None
