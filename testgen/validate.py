"""Checks every final item must pass: grounding, source-document closure, no leaked answer, no
near-duplicate, the category's post-condition, and (for spanning items) not answerable from one document.

A failing item is dropped and its reason counted; `validate_draft` never raises for a bad item.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from schemas import FactNode
from testgen.categories._registry import Category
from testgen.gate import Gate
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft
from testgen.text import char_ngrams, contains_keyword, jaccard, normalize, tokens

DUPLICATE_THRESHOLD = 0.85
#: Items one document may give through one question template ("When was <version> released?" × 30 is one test).
MAX_PER_TEMPLATE_AND_DOC = 3
_STOP = frozenset("the a an of in on at to for and or is was were are be by with from as its their this that".split())


def _attribute_cues(fact: FactNode) -> list[str]:
    """Words that show a chunk talks about the fact's attribute (4-letter stems for Latin words)."""
    label = fact.attribute if fact.source != "sentence" else fact.attribute.replace("…", " ")
    cues = []
    for tok in tokens(label):
        if tok in _STOP or tok.isdigit():
            continue
        cues.append(tok[:5] if tok.isascii() and len(tok) > 5 else tok)
    return cues


def fact_closure(ctx: GenContext, fact: FactNode) -> set[str]:
    """Every document that states this fact: it holds the value near the subject and the attribute.

    The fact's own document always belongs. Another document belongs when one of its chunks contains the
    value (normalised, word-bounded) in the same line or sentence as the subject's name (or, on the subject's
    own page, as the attribute) and shows the attribute somewhere in the chunk.
    """
    docs = {fact.doc_id}
    subject_forms = [normalize(fact.subject)]
    entity = ctx.entities.get(fact.subject_entity or "")
    if entity is not None:
        subject_forms += [normalize(entity.name), *(normalize(a) for a in entity.aliases)]
    home = entity.home_doc if entity is not None else None
    cues = _attribute_cues(fact)
    # Only chunks that hold the value *and* are about the subject can state the fact: intersect first.
    about: set[str] = set()
    if entity is not None:
        about |= ctx.entity_chunks.get(entity.entity_id, set())
    if home:
        about |= {c.chunk_id for c in ctx.chunks_by_doc.get(home, [])}
    for form in set(subject_forms):
        about |= ctx.chunks_with(form)
    for chunk_id in sorted(ctx.chunks_with(fact.value) & about):
        chunk = ctx.chunks[chunk_id]
        if chunk.doc_id in docs:
            continue
        norm = ctx.chunk_norm[chunk_id]
        if cues and not any(cue in norm for cue in cues):
            continue
        if not contains_keyword(norm, fact.value):
            continue
        for segment in ctx.segments(chunk_id):
            if not contains_keyword(segment, fact.value):
                continue
            if any(form and form in segment for form in subject_forms) or (
                chunk.doc_id == home and (not cues or any(cue in segment for cue in cues))
            ):
                docs.add(chunk.doc_id)
                break
    return docs


@dataclass
class Verdict:
    """The outcome of validating one draft."""

    ok: bool
    reason: str | None = None
    source_docs: list[str] = field(default_factory=list)
    reference_contexts: list[str] = field(default_factory=list)
    checks: dict[str, bool] = field(default_factory=dict)
    detail: str | None = None  # what a failed quality-gate check saw


class Validator:
    """Validates drafts one by one, remembering accepted questions for near-duplicate removal."""

    def __init__(self, ctx: GenContext) -> None:
        self.ctx = ctx
        self.accepted: list[tuple[str, set[str]]] = []
        self._closure_cache: dict[str, set[str]] = {}
        self.gate = Gate(ctx)
        self._per_template: Counter[tuple[str, str]] = Counter()

    def closure(self, fact: FactNode) -> set[str]:
        if fact.fact_id not in self._closure_cache:
            self._closure_cache[fact.fact_id] = fact_closure(self.ctx, fact)
        return self._closure_cache[fact.fact_id]

    def validate(self, draft: Draft, category: Category, *, rewritten: bool = False) -> Verdict:
        """Check one draft; `rewritten` drafts (an LLM's wording) skip the checks of the offline phrasing rules."""
        ctx = self.ctx
        if not draft.question.strip() or not draft.reference_answer.strip():
            return Verdict(False, "empty question or answer")
        if not draft.keywords:
            return Verdict(False, "no keywords")
        closures = [self.closure(f) for f in draft.facts]
        docs: set[str] = set().union(*closures) if closures else set()
        docs.update(draft.scope_docs)
        source_docs = sorted(docs)
        texts = [ctx.doc_text[d] for d in source_docs]
        for keyword in draft.keywords:
            if not any(contains_keyword(t, keyword) for t in texts):
                return Verdict(False, "keyword not grounded")
        failed = self.gate.check(draft, rewritten=rewritten)
        if failed is not None:
            return Verdict(False, failed.reason, detail=failed.detail)
        question = normalize(draft.question)
        for span in draft.answer_spans:
            if _leaks(question, span):
                return Verdict(False, "answer leaked in question")
        if draft.category == "spanning" and set.intersection(*closures):
            return Verdict(False, "answerable from a single document")
        failure = category.check(draft, ctx, source_docs)
        if failure:
            return Verdict(False, failure)
        shape = (draft.facts[0].doc_id if draft.facts else "", draft.template)
        if self._per_template[shape] >= MAX_PER_TEMPLATE_AND_DOC:
            return Verdict(False, "repetitive (same template, same document)")
        grams = char_ngrams(draft.question)
        for text, other in self.accepted:
            if text == question or jaccard(grams, other) >= DUPLICATE_THRESHOLD:
                return Verdict(False, "near-duplicate")
        self.accepted.append((question, grams))
        self._per_template[shape] += 1
        contexts = []
        for fact in draft.facts:
            if fact.evidence not in contexts:
                contexts.append(fact.evidence)
        return Verdict(
            True,
            None,
            source_docs,
            contexts,
            {"grounded": True, "closure": True, "gate": True, "no_leak": True, "unique": True, "postcondition": True},
        )


def _leaks(norm_question: str, span: str) -> bool:
    norm = normalize(span)
    if len(norm) < 2:
        return False
    if re.fullmatch(r"\d{1,2}", norm):
        return False  # tiny numbers ("3") appear in names and ordinals; not a leak of the answer
    return contains_keyword(norm_question, span)
