"""numerical: a number, amount or percentage, or arithmetic over two facts (sum, difference, ratio),
recomputed from the parsed source values and checked."""

from __future__ import annotations

import itertools
import random
import re
from collections import defaultdict
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from operator import attrgetter

from schemas import FactNode
from testgen.categories._common import (
    attribute_key,
    format_number,
    group_comparable,
    is_duration,
    is_quantity,
    keywords_for_value,
    of_one_kind,
    phraser,
    shown_value,
    single_fact_draft,
    stratified,
    subject_name,
    tax_note,
)
from testgen.categories._registry import register
from testgen.kg.values import find_values, parse_number
from testgen.lang import en, ko
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft
from testgen.text import normalize

#: A row's qualifier that is one day: "2025-04-12", "4/12", "4월 12일".
_DAY_QUALIFIER = re.compile(r"\d{4}[-./]\d{1,2}[-./]\d{1,2}|(?<!\d)\d{1,2}/\d{1,2}(?!\d)|\d{1,2}월\s?\d{1,2}일")
_OPS = ("sum", "difference", "ratio")
#: Units of a span of time: two tenures, ages or terms are compared by their difference only.
_SPANS = en.TIME_UNITS | ko.TIME_UNITS | {"세", "살"}


#: Units that count things or people: two such counts make a total ("staff at both offices"); two measures
#: ("6.15 kW", "38.6 km"), scores ("85점") or frequencies ("월 2회") do not.
_COUNTING = frozenset(
    "명 인 개 곳 건 대 석 권 부 employees people staff members customers clients users units stores offices "
    "branches seats vehicles bikes orders trips tours agents policies claims leads products models".split()
)


#: Labels of a limit, not an amount of anything: two limits add up to nothing.
_THRESHOLD = re.compile(r"최소|최대|한도|제한|상한|하한|minimum|maximum|\bmin\b|\bmax\b|limit|cap\b", re.I)


#: A name of an offer one picks among others: a plan, a pass, a membership, a fare (요금제, 이용권, 회원권).
_OFFER_NAME = re.compile(
    r"\b(?:plan|tier|edition|package|bundle|membership|subscription|pass|fare|concession|ticket)s?$|"
    r"(?:요금제|플랜|이용권|회원권|멤버십|정기권|입장권)$",
    re.I,
)


def _counted(unit: str | None) -> bool:
    return unit is not None and unit.strip().lower() in _COUNTING


def _unit_sentence(fact: FactNode) -> bool:
    """A prose sentence's amount with its unit ("주 2회", "14个"), as the sentence phrasing asks it."""
    return fact.source == "sentence" and fact.value_type in ("number", "money", "percent") and fact.unit is not None


def compute(op: str, a: float, b: float) -> float | None:
    """The arithmetic the question asks for; None when it is undefined (ratio by zero)."""
    if op == "sum":
        return a + b
    if op == "difference":
        return a - b
    if op == "ratio":  # rounded half up, as a person would: 58.80 / 48.00 = 1.225 → 1.23
        if not b:
            return None
        ratio = Decimal(repr(a)) / Decimal(repr(b))
        return float(ratio.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
    raise ValueError(f"unknown operation {op!r}")


@register
class Numerical:
    name = "numerical"
    description = "Numbers, amounts, percentages; sums, differences and ratios over two facts."

    def candidates(self, ctx: GenContext, rng: random.Random) -> Iterator[Draft]:
        # a period ("60 min", "2년") is temporal's
        singles = [
            f
            for f in ctx.candidate_facts
            if ((is_quantity(f) and f.source != "sentence") or _unit_sentence(f)) and not is_duration(f)
        ]
        singles = stratified(singles, rng, attribute_key)
        arithmetic = self._arithmetic(ctx, rng)
        single_iter = (d for f in singles if (d := single_fact_draft(ctx, f, self.name)) is not None)
        # Alternate: one arithmetic item for every two single-value items.
        while True:
            produced = False
            for source in (single_iter, single_iter, arithmetic):
                item = next(source, None)
                if item is not None:
                    produced = True
                    yield item
            if not produced:
                return

    def _arithmetic(self, ctx: GenContext, rng: random.Random) -> Iterator[Draft]:
        pairs: list[tuple[FactNode, FactNode]] = []
        for group in sorted(group_comparable(ctx).items()):
            facts = sorted(group[1].values(), key=lambda f: f.fact_id)
            for i in range(len(facts)):
                for j in range(i + 1, min(len(facts), i + 4)):
                    pairs.append((facts[i], facts[j]))
        # The same subject's value in two periods (rows of a yearly table, dated amounts).
        series: dict[tuple[str, str, str], list[FactNode]] = defaultdict(list)
        for fact in ctx.candidate_facts:
            if fact.qualifier and fact.number is not None and fact.subject_entity:
                series[(fact.subject_entity, normalize(fact.attribute), fact.unit or "")].append(fact)
        for facts in series.values():
            facts.sort(key=attrgetter("start"))
            pairs.extend(itertools.pairwise(facts))
        rng.shuffle(pairs)
        for a, b in pairs:
            if not a.number or not b.number or a.number == b.number:
                # a register's 0 ("납부액 0", exempt or unpaid) is no amount anyone adds or compares, and "0" as a
                # keyword is in nearly any answer
                continue
            if a.subject_entity != b.subject_entity and not of_one_kind(ctx, [a, b]):
                continue  # two things of different kinds in one flat folder: no difference anyone asks
            same_subject = a.subject_entity == b.subject_entity
            if same_subject and _DAY_QUALIFIER.search(a.qualifier or "") and _DAY_QUALIFIER.search(b.qualifier or ""):
                continue  # a schedule's rows of two days are two events (two jobs, two classes), not one thing's change
            # Over periods only the change is meaningful (adding two years' headcounts is not).
            op = "difference" if same_subject else rng.choice(_OPS)
            if a.value_type == "percent":
                op = "difference"  # rates are compared, never added (a "combined placement rate of 189%") or divided
            if a.value_type == "number" and (a.unit is None or a.unit in _SPANS):
                op = "difference"  # two people's years of experience or two classes' places are not added or divided
            if op == "sum" and ((a.value_type == "number" and not _counted(a.unit)) or _THRESHOLD.search(a.attribute)):
                # two systems' sizes or two lines' lengths are no total anyone needs, nor two tours' minimum sizes
                op = "difference"
            if op == "sum" and any(_OFFER_NAME.search(subject_name(ctx, f)) for f in (a, b)):
                op = "difference"  # two plans or passes are chosen between, never bought together
            if op == "ratio" and (a.value_type == "money" or (a.value_type == "number" and not _counted(a.unit))):
                # "the ratio of the size of X to that of Y", "the price of a jug is 1.08 times that of a filter":
                # measures and prices are told apart by how much
                op = "difference"
            if op in ("difference", "ratio") and not same_subject and (a.number or 0.0) < (b.number or 0.0):
                a, b = b, a
            x, y = a.number or 0.0, b.number or 0.0
            # for one subject over time, the difference is the change from the earlier to the later value
            result = compute(op, y, x) if same_subject and op == "difference" else compute(op, x, y)
            if result is None:
                continue
            draft = self._phrase(ctx, op, a, b, result)
            if draft is not None:
                yield draft

    def _phrase(self, ctx: GenContext, op: str, a: FactNode, b: FactNode, result: float) -> Draft | None:
        language = ctx.language_of(a)
        ph, flags = phraser(ctx, language)
        if op == "ratio":
            result_text = f"{result:g}"
        elif a.value_type == "percent" and op == "difference":
            points = "percentage point" if abs(result) == 1 else "percentage points"
            result_text = f"{result:g}%p" if language == "ko" else f"{result:g} {points}"
        else:
            result_text = format_number(result, a.unit, a.value_type, like=(a.value, b.value))
            note = tax_note(ctx, a)  # a sum of trade prices is ex VAT as they are
            result_text += f"({note})" if note and language == "ko" else f" {note}" if note else ""
        subjects = [ph.subject(subject_name(ctx, a)), ph.subject(subject_name(ctx, b))]
        shown = [shown_value(a), shown_value(b)]  # "3.4" under "무게 (kg)" is "3.4kg"
        phrased = ph.arithmetic(op, subjects, a.attribute, shown, result_text, [a.qualifier, b.qualifier])
        if phrased is None:
            return None
        question, answer, template = phrased
        operands = (
            [a.number, b.number]
            if not (a.subject_entity == b.subject_entity and op == "difference")
            else [b.number, a.number]
        )
        return Draft(
            category=self.name,
            question=question,
            reference_answer=answer,
            keywords=keywords_for_value(a.value) + keywords_for_value(b.value),
            facts=[a, b],
            answer_spans=[result_text],
            language=language,
            template=template,
            flags=flags,
            derived={"op": op, "operands": operands, "result": result, "result_text": result_text},
        )

    def check(self, draft: Draft, ctx: GenContext, source_docs: list[str]) -> str | None:
        if not any(v.number is not None or v.value_type == "number" for v in find_values(draft.reference_answer)):
            return "answer holds no number"
        derived = draft.derived
        if derived:
            # Recompute from the source spans themselves, not from the numbers the category carried.
            a, b = (parse_number(f.value) for f in draft.facts)
            if a is None or b is None:
                return "operand not parseable"
            same = draft.facts[0].subject_entity == draft.facts[1].subject_entity
            x, y = (b, a) if same and derived["op"] == "difference" else (a, b)
            expected = compute(derived["op"], x, y)
            if expected is None or abs(expected - derived["result"]) > 1e-6 * max(1.0, abs(expected)):
                return "derived number does not recompute"
            if normalize(derived["result_text"]) not in normalize(draft.reference_answer):
                return "answer does not state the derived number"
        return None
