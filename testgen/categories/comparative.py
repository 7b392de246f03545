"""comparative: two or three entities of the same type sharing a comparable attribute; the stated winner
is recomputed from the values."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from schemas import FactNode
from testgen.categories._common import (
    group_comparable,
    keywords_for_value,
    of_one_kind,
    owning_organisation,
    phraser,
    shown_value,
    subject_name,
)
from testgen.categories._registry import register
from testgen.kg.values import classify_value, parse_number
from testgen.lang import en, ko
from testgen.names import core_name
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft
from testgen.text import normalize

_COUNT_UNITS = frozenset(
    "명 개 곳 건 대 회 석 employees people staff members customers clients users units stores "
    "offices branches countries cities partners products models seats bikes orders".split()
)


_DURATION_UNITS = en.TIME_UNITS | ko.TIME_UNITS


#: Korean labels of a number of places, people or pages, which are counted ("정원", "쪽수": 더 많은, not 더 높은).
_CAPACITY = re.compile(r"정원|좌석|인원|개수|건수|(?:쪽|페이지|회원|직원|학생|객실|병상|매장|지점)\s?수$")


def _kind(fact: FactNode) -> str:
    """How a comparison is worded: dates (earlier/later), durations (longer), counts (more), amounts."""
    if fact.value_type == "date":
        return "date"
    if fact.value_type == "number" and fact.unit in _DURATION_UNITS:
        return "duration"
    if fact.value_type == "number" and fact.unit in _COUNT_UNITS:
        return "count"
    if fact.value_type == "number" and fact.unit is None and _CAPACITY.search(fact.attribute):
        return "count"  # "정원: 20" has more places than "정원: 16", not a higher one
    return "number"


def sort_key(fact: FactNode) -> float | str:
    """What is compared: the parsed number, or the sortable date key."""
    if fact.value_type == "date":
        return fact.date_key or ""
    return fact.number if fact.number is not None else 0.0


@register
class Comparative:
    name = "comparative"
    description = "Which of two or three same-type entities has the higher/lower (or later/earlier) value."

    def candidates(self, ctx: GenContext, rng: random.Random) -> Iterator[Draft]:
        groups = sorted(group_comparable(ctx, dates=True).items())
        options: list[list[FactNode]] = []
        for _, members in groups:
            facts = sorted(members.values(), key=lambda f: f.fact_id)
            for i in range(len(facts)):
                for j in range(i + 1, len(facts)):
                    options.append([facts[i], facts[j]])
            if len(facts) >= 3:
                for i in range(len(facts) - 2):
                    options.append(facts[i : i + 3])
        rng.shuffle(options)
        for facts in options:
            if not of_one_kind(ctx, facts):
                continue  # a railway's length against a river's, a park's area against its city's
            keys = [sort_key(f) for f in facts]
            if len(set(map(str, keys))) != len(keys):
                continue  # ties have no winner
            if facts[0].value_type == "date" and len({len(str(k)) for k in keys}) != 1:
                continue  # "2019" vs "2019-03-01" cannot be ordered safely
            higher = rng.random() < 0.5
            winner = (
                max(range(len(facts)), key=lambda i: keys[i])
                if higher
                else min(range(len(facts)), key=lambda i: keys[i])
            )
            language = ctx.language_of(facts[0])
            ph, flags = phraser(ctx, language)
            subjects = [ph.subject(subject_name(ctx, f)) for f in facts]
            kind = _kind(facts[0])
            phrased = ph.compare(subjects, facts[0].attribute, [shown_value(f) for f in facts], winner, higher, kind)
            if phrased is None:
                continue
            question, answer, template = phrased
            orgs = {owning_organisation(ctx, f, subject_name(ctx, f)) for f in facts} if language == "en" else set()
            if len(orgs) == 1 and None not in orgs and ": " in question:
                # "Which has the earlier accreditation period at Cendara University: …?"
                head, _, rest = question.partition(": ")
                question = f"{head} at {orgs.pop()}: {rest}"
            keywords = [core_name(subject_name(ctx, facts[winner]))]
            values = [[k for k in keywords_for_value(f.value) if not _lone_digit(k)] for f in facts]
            if values[winner] or not keywords_for_value(facts[winner].value):
                keywords.extend(k for ks in values for k in ks)
            # else the winner's own value is a lone digit ("3" calendars, in nearly any answer): the others' values
            # alone would score an answer naming a loser better than the right one, so the winner's name tells
            yield Draft(
                category=self.name,
                question=question,
                reference_answer=answer,
                keywords=keywords,
                facts=list(facts),
                answer_spans=[f.value for f in facts],
                language=language,
                template=template,
                named_entities=subjects,
                flags=flags,
                derived={"winner": subjects[winner], "higher": higher},
            )

    def check(self, draft: Draft, ctx: GenContext, source_docs: list[str]) -> str | None:
        question = normalize(draft.question)
        if sum(normalize(name) in question for name in draft.named_entities) < 2:
            return "fewer than two entities named"
        keys: list[float | str] = []
        for fact in draft.facts:
            if fact.value_type == "date":
                parsed = classify_value(fact.value)
                keys.append(parsed.date_key if parsed and parsed.date_key else "")
            else:
                number = parse_number(fact.value)
                if number is None:
                    return "value not parseable"
                keys.append(number)
        pick = max if draft.derived["higher"] else min
        winner = pick(range(len(keys)), key=lambda i: keys[i])
        if draft.named_entities[winner] != draft.derived["winner"]:
            return "stated winner is wrong"
        if not normalize(draft.reference_answer).startswith(normalize(draft.derived["winner"])) and normalize(
            draft.derived["winner"]
        ) not in normalize(draft.reference_answer):
            return "answer does not name the winner"
        return None


def _lone_digit(keyword: str) -> bool:
    return re.fullmatch(r"\d", keyword.strip()) is not None
