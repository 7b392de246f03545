"""The checks a passage reply passes before it becomes an item; a failure is a named reason, counted by the
stage, and the slot moves on to the next seed.

In order: the model's own review (critic fields), the language, the evidence (every quote found in the passage
it cites, long enough to be a sentence; a multi-document seed quoted from each document), the keywords (inside
the evidence, stated by the answer), the answer's support (every number or date it states is in the evidence),
the category's post-condition as it reads for passages (a date, a number, two named things, ≥ 2 or ≥ 3
documents), no leaked answer, the closure (``source_docs`` = every document stating a quote; a spanning item
must not be answerable from any one of them), no near-duplicate. The question–evidence overlap is measured last;
whether it is too high is the stage's decision (it asks for one rephrase).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from testgen.kg.values import find_values
from testgen.overlap import question_overlap
from testgen.synth.context import GenContext
from testgen.synth.evidence import EvidenceIndex, plain, quote_long_enough, values_in
from testgen.synth.llm_synth import in_language
from testgen.synth.passage_prompts import PassageReply
from testgen.synth.passages import PassageSeed
from testgen.text import char_ngrams, contains_keyword, jaccard, normalize

DUPLICATE_THRESHOLD = 0.85
#: A keyword longer than this many words is a sentence, not a span a grader can look for.
MAX_KEYWORD_WORDS = 8
_YES_NO = re.compile(r"^\W*(yes|no)\b", re.I)


@dataclass
class CheckedItem:
    """A reply that passed: what the item will say, with its evidence and closure."""

    question: str
    reference_answer: str
    keywords: list[str]
    quotes: list[tuple[str, str]]  # (doc_id, quote)
    source_docs: list[str]
    entities: list[str]
    evidence_overlap: float | None
    checks: dict[str, bool] = field(default_factory=dict)


@dataclass
class Rejection:
    """Why a reply was not used."""

    reason: str
    detail: str = ""


class PassageChecker:
    """Checks replies for one run; remembers accepted questions for near-duplicate removal."""

    def __init__(self, ctx: GenContext, evidence: EvidenceIndex | None = None) -> None:
        self.ctx = ctx
        self.evidence = evidence or EvidenceIndex(ctx)
        self.accepted: list[set[str]] = []

    def check(self, seed: PassageSeed, reply: PassageReply) -> CheckedItem | Rejection:
        """The checked item, or the first check it fails."""
        question, answer = reply.question.strip(), reply.reference_answer.strip()
        keywords = [k.strip() for k in reply.keywords if k.strip()]
        if not question or not answer:
            return Rejection("empty question or answer")
        if not reply.answerable_from_passages:
            return Rejection("critic: not answerable from the passages")
        if not reply.answer_supported:
            return Rejection("critic: answer not supported")
        if seed.category in ("spanning", "holistic") and not reply.needs_all_passages:
            return Rejection("critic: does not need all passages")
        if not (in_language(question, seed.language) and in_language(answer, seed.language)):
            return Rejection("wrong language")
        quotes = self._quotes(seed, reply)
        if isinstance(quotes, Rejection):
            return quotes
        if not keywords:
            return Rejection("no keywords")
        for keyword in keywords:
            if len(keyword.split()) > MAX_KEYWORD_WORDS:
                return Rejection("keyword too long", keyword)
            if not _in_quotes(keyword, quotes):
                return Rejection("keyword not in the evidence", keyword)
            if not contains_keyword(normalize(answer), keyword):
                return Rejection("answer does not state a keyword", keyword)
        stated = values_in([answer]) - values_in([question])
        unsupported = sorted(stated - values_in(q for _, q in quotes))
        if unsupported:
            return Rejection("answer states a value not in the evidence", ", ".join(unsupported))
        failure = self._postcondition(seed, reply, question, answer, quotes)
        if failure:
            return Rejection(failure)
        norm_question = normalize(question)
        if seed.question_type != "yes_no" and any(
            contains_keyword(norm_question, k) for k in keywords if k.casefold() not in _lower(reply.entities)
        ):
            return Rejection("answer leaked in question")
        if seed.question_type == "yes_no" and all(contains_keyword(norm_question, k) for k in keywords):
            return Rejection("answer leaked in question")
        closures = [self.evidence.stating(q, doc) for doc, q in quotes]
        source_docs = sorted(set().union(*closures))
        if seed.category == "spanning":
            if len(source_docs) < 2:
                return Rejection("fewer than two source documents")
            if frozenset.intersection(*closures):
                return Rejection("answerable from a single document")
        if seed.category == "holistic" and len(source_docs) < 3:
            return Rejection("fewer than three source documents")
        grams = char_ngrams(question)
        if any(jaccard(grams, other) >= DUPLICATE_THRESHOLD for other in self.accepted):
            return Rejection("near-duplicate")
        overlap = question_overlap(question, [q for _, q in quotes])
        return CheckedItem(
            question,
            answer,
            _dedupe(keywords),
            quotes,
            source_docs,
            [e.strip() for e in reply.entities if e.strip()],
            None if overlap is None else round(overlap, 4),
            {
                "evidence_quoted": True,
                "keywords_in_evidence": True,
                "answer_supported": True,
                "postcondition": True,
                "no_leak": True,
                "closure": True,
                "unique": True,
            },
        )

    def accept(self, question: str) -> None:
        """Remember a delivered question (near-duplicates of it are rejected from now on)."""
        self.accepted.append(char_ngrams(question))

    def _quotes(self, seed: PassageSeed, reply: PassageReply) -> list[tuple[str, str]] | Rejection:
        if not reply.evidence:
            return Rejection("no evidence quoted")
        labels = {f"P{i}": c for i, c in enumerate(seed.chunks, 1)}
        quotes: list[tuple[str, str]] = []
        cited: set[str] = set()
        for item in reply.evidence:
            label = item.passage.strip().strip("[]<>").upper().replace("PASSAGE", "P").replace(" ", "")
            chunk = labels.get(label)
            if chunk is None:
                return Rejection("evidence cites an unknown passage", item.passage)
            if not quote_long_enough(item.quote):
                return Rejection("evidence quote too short", item.quote[:80])
            if not self.evidence.in_chunk(item.quote, chunk.chunk_id):
                return Rejection("quoted sentence not in the cited passage", item.quote[:120])
            quotes.append((chunk.doc_id, item.quote.strip()))
            cited.add(chunk.doc_id)
        needed = {c.doc_id for c in seed.chunks}
        if seed.category in ("spanning", "holistic") and cited != needed:
            return Rejection("evidence does not cover every passage")
        return quotes

    def _postcondition(
        self, seed: PassageSeed, reply: PassageReply, question: str, answer: str, quotes: list[tuple[str, str]]
    ) -> str | None:
        values = find_values(answer)
        if seed.category == "temporal" and not any(v.value_type == "date" for v in values):
            return "answer holds no date expression"
        if seed.category == "numerical" and not any(v.number is not None or v.value_type == "number" for v in values):
            return "answer holds no number"
        if seed.question_type == "yes_no" and seed.language == "en" and not _YES_NO.match(answer):
            return "yes/no answer does not start with yes or no"
        if seed.category in ("comparative", "relationship"):
            names = [e for e in reply.entities if e.strip()]
            evidence = " ".join(normalize(q) for _, q in quotes)
            if len({normalize(n) for n in names}) < 2:
                return "fewer than two entities named"
            for name in names[:2]:
                if not contains_keyword(evidence, name):
                    return f"entity not in the evidence: {name}"
            if seed.category == "comparative" and not all(contains_keyword(normalize(question), n) for n in names[:2]):
                return "fewer than two entities named"
            if seed.category == "relationship" and not all(contains_keyword(normalize(answer), n) for n in names[:2]):
                return "answer does not name both entities"
        return None


def _in_quotes(keyword: str, quotes: list[tuple[str, str]]) -> bool:
    """Whether the keyword is inside one of the quotes (compared as quotes are: `plain`)."""
    return any(contains_keyword(plain(q), plain(keyword)) for _, q in quotes)


def _lower(names: list[str]) -> set[str]:
    return {n.strip().casefold() for n in names}


def _dedupe(keywords: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for k in keywords:
        if normalize(k) not in seen:
            seen.add(normalize(k))
            out.append(k)
    return out
