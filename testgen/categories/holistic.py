"""holistic: an aggregate over a document type (count, maximum, minimum) that reads at least three
documents; recomputed from every fact it aggregates."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator

from schemas import FactNode
from testgen.categories._common import entity_type_of, group_comparable, phraser, subject_name
from testgen.categories._registry import register
from testgen.kg.values import parse_number
from testgen.names import core_name
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft
from testgen.text import normalize

_MIN_DOCS = 3
#: A count names everyone it counts (they are its keywords); past this many, the answer is a roster, not a fact.
_MAX_COUNTED = 8


@register
class Holistic:
    name = "holistic"
    description = "Counts and extremes over a whole document type (three or more documents)."

    def candidates(self, ctx: GenContext, rng: random.Random) -> Iterator[Draft]:
        options: list[tuple[str, list[FactNode], str]] = []
        for (etype, _, _), members in sorted(group_comparable(ctx, min_subjects=_MIN_DOCS).items()):
            facts = sorted(members.values(), key=lambda f: f.fact_id)
            if len({f.doc_id for f in facts}) >= _MIN_DOCS and etype and "/" not in etype:
                options.append(("max", facts, etype))
                options.append(("min", facts, etype))
        # Counts: a text attribute shared by several subjects of one type ("Location: Seoul").
        text_groups: dict[tuple[str, str], dict[str, FactNode]] = defaultdict(dict)
        for fact in ctx.facts:
            if (
                fact.value_type == "text"
                and fact.source in ("key_value", "table")
                and fact.subject_entity
                and not fact.qualifier
                and len(fact.value) <= 40
            ):
                etype = entity_type_of(ctx, fact) or ""
                if etype and "/" not in etype:
                    text_groups[(etype, normalize(fact.attribute))].setdefault(fact.subject_entity, fact)
        for (etype, _), members in sorted(text_groups.items()):
            facts = sorted(members.values(), key=lambda f: f.fact_id)
            if len({f.doc_id for f in facts}) < _MIN_DOCS:
                continue
            by_value: dict[str, list[FactNode]] = defaultdict(list)
            for f in facts:
                by_value[normalize(f.value)].append(f)
            for value_facts in by_value.values():
                if 2 <= len(value_facts) <= _MAX_COUNTED and len(value_facts) < len(facts):
                    options.append(("count:" + value_facts[0].value, facts, etype))
        rng.shuffle(options)
        for op, facts, etype in options:
            draft = self._draft(ctx, op, facts, etype)
            if draft is not None:
                yield draft

    def _draft(self, ctx: GenContext, op: str, facts: list[FactNode], etype: str) -> Draft | None:
        language = ctx.language_of(facts[0])
        ph, flags = phraser(ctx, language)
        type_word = ph.type_word(etype)
        if op.startswith("count:"):
            value = op.split(":", 1)[1]
            matching = [f for f in facts if normalize(f.value) == normalize(value)]
            names = sorted(subject_name(ctx, f) for f in matching)
            phrased = ph.count(type_word, facts[0].attribute, value, names)
            if phrased is None:
                return None
            question, answer, template = phrased
            return Draft(
                category=self.name,
                question=question,
                reference_answer=answer,
                keywords=[core_name(n) for n in names],  # the value is in the question; the answer names who has it
                facts=facts,
                answer_spans=[],
                language=language,
                template=template,
                flags=flags,
                scope_docs=_kind_docs(ctx, facts, etype),
                derived={
                    "op": "count",
                    "value": value,
                    "count": len(names),
                    "names": names,
                    "answer_facts": [f.fact_id for f in matching],
                },
            )
        numbers = [f.number for f in facts]
        if any(n is None for n in numbers) or len(set(numbers)) != len(numbers):
            return None
        highest = op == "max"
        best = (max if highest else min)(facts, key=lambda f: f.number or 0.0)
        winner = subject_name(ctx, best)
        phrased = ph.extreme(type_word, facts[0].attribute, ph.subject(winner), best.value, highest, len(facts))
        if phrased is None:
            return None
        question, answer, template = phrased
        return Draft(
            category=self.name,
            question=question,
            reference_answer=answer,
            keywords=[core_name(winner), best.value],
            facts=facts,
            answer_spans=[best.value],
            language=language,
            template=template,
            flags=flags,
            scope_docs=_kind_docs(ctx, facts, etype),
            # every compared value is evidence: a page restating another contract's units rules that one out
            derived={"op": op, "winner": winner, "value": best.value},
        )

    def check(self, draft: Draft, ctx: GenContext, source_docs: list[str]) -> str | None:
        if len(source_docs) < _MIN_DOCS:
            return "fewer than three source documents"
        derived = draft.derived
        if derived["op"] == "count":
            count = sum(normalize(f.value) == normalize(derived["value"]) for f in draft.facts)
            if count != derived["count"] or str(count) not in draft.reference_answer:
                return "count does not recompute"
            return None
        parsed = [(parse_number(f.value), f) for f in draft.facts]
        if any(n is None for n, _ in parsed):
            return "value not parseable"
        pick = max if derived["op"] == "max" else min
        best = pick(parsed, key=lambda p: p[0] or 0.0)[1]
        if best.value != derived["value"] or normalize(derived["winner"]) not in normalize(draft.reference_answer):
            return "extreme does not recompute"
        return None


def _kind_docs(ctx: GenContext, facts: list[FactNode], etype: str) -> list[str]:
    """Every document of the kind the aggregate is over (the entities' own kind of page, else the kinds the
    facts come from), plus the facts' own documents: a count or an extreme is confirmed by reading them all."""
    kinds = {etype} if any(ctx.doc_type(d) == etype for d in ctx.docs) else {ctx.doc_type(f.doc_id) for f in facts}
    return sorted({d for d in ctx.docs if ctx.doc_type(d) in kinds} | {f.doc_id for f in facts})
