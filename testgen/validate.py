"""Checks every final item must pass: grounding, source-document closure (`testgen.closure`), no leaked answer, no
near-duplicate, the category's post-condition, and (for spanning items) not answerable from one document.

A failing item is dropped and its reason counted; `validate_draft` never raises for a bad item.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from schemas import FactNode
from testgen.categories._registry import Category
from testgen.closure import Closure
from testgen.gate import SINGLE_FACT, Gate
from testgen.names import NAME_LABEL, without_legal_form, without_trailing_note
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft
from testgen.text import char_ngrams, contains_keyword, is_cjk, jaccard, normalize, squeezed

DUPLICATE_THRESHOLD = 0.85
#: Items one document may give through one question template ("When was <version> released?" × 30 is one test).
MAX_PER_TEMPLATE_AND_DOC = 3


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
        self._closure = Closure(ctx)
        self.gate = Gate(ctx)
        self._per_template: Counter[tuple[str, str]] = Counter()
        self._asked: set[tuple[str, str]] = set()  # (subject, value) of single facts already asked
        # (value, model code, documents) of single facts already asked: the FAQ's "AF-40H의 가격" and the price
        # list's "AP-40 교체용 필터 (AF-40H)" are one fact stated by the same pages
        self._restated: set[tuple[str, str, tuple[str, ...]]] = set()
        self._told: set[tuple[tuple[str, ...], tuple[str, ...]]] = set()  # (keywords, sources) of prose items

    def closure(self, fact: FactNode) -> set[str]:
        if fact.fact_id not in self._closure_cache:
            self._closure_cache[fact.fact_id] = self._closure.of(fact)
        return self._closure_cache[fact.fact_id]

    def _one_page_answers(self, draft: Draft) -> bool:
        """Whether one document names the question's subject, the bridge and the answer together (a person's
        page that lists both the account they serve and that account's manager answers the two hops alone)."""
        first, second = draft.facts[0], draft.facts[-1]
        # the subject by one of its names (short ones too: "bergfeld logistik" for "Contract with Bergfeld
        # Logistik"), or by a word only its pages use
        forms = self._closure.subject_forms(first)
        # (a two-syllable CJK word such as "단체" or "안전" is a common noun, rare only in a small KB: not a name)
        forms |= {w for w in self._closure.distinctive(forms) if not is_cjk(w) or len(w) >= 3}
        pages = {self.ctx.chunks[c].doc_id for c in self.ctx.chunks_with(second.value)}
        for doc_id in sorted(pages):
            text = self.ctx.doc_text[doc_id]
            if (
                contains_keyword(text, first.value)
                and contains_keyword(text, second.value)
                and any(form in text for form in forms)
            ):
                return True
        return False

    def _grounded(self, draft: Draft, source_docs: list[str]) -> bool:
        """Whether every keyword occurs in a source document. A keyword is looked for in the evidence lines of the
        draft's facts first (where it nearly always is): a scan of a whole document per keyword grows with the
        document, and one document may be tens of megabytes."""
        ctx, sources = self.ctx, set(source_docs)
        evidence = [normalize(f.evidence) for f in draft.facts if f.doc_id in sources]
        return all(
            any(contains_keyword(e, keyword) for e in evidence)
            or any(contains_keyword(ctx.doc_text[d], keyword) for d in source_docs)
            for keyword in draft.keywords
        )

    def _duplicate(self, draft: Draft, source_docs: list[str]) -> str | None:
        """Why a draft repeats an accepted one (the same fact, figure or rule asked again, the same question, or a
        template used too often on one page), or None; an accepted draft is remembered."""
        single = len(draft.facts) == 1 and draft.category in SINGLE_FACT
        fact = draft.facts[0] if single else None
        asked = (fact.subject_entity or normalize(fact.subject), squeezed(normalize(fact.value))) if fact else ("", "")
        if single and asked in self._asked:
            return "near-duplicate"  # the same fact asked again, in other words
        restated = (
            {(asked[1], code.lower(), tuple(source_docs)) for code in self._closure.identifiers(fact)}
            if fact is not None and len(source_docs) > 1
            else set()
        )
        if restated & self._restated:
            return "near-duplicate"  # the same figure of the same thing, from another page
        told = (tuple(sorted(normalize(k) for k in draft.keywords)), tuple(source_docs))
        prose = fact is not None and fact.source == "sentence"
        if prose and told in self._told:
            # one rule told by two sentences in other words ("120cm 미만 … 보호자와 함께", "120cm 이상이면 혼자"), or
            # one event ("set the business up in 2011", "founded in 2011"): the same answer from the same pages
            return "near-duplicate"
        shape = (draft.facts[0].doc_id if draft.facts else "", draft.template)
        if self._per_template[shape] >= MAX_PER_TEMPLATE_AND_DOC:
            return "repetitive (same template, same document)"
        question = normalize(draft.question)
        grams = char_ngrams(draft.question)
        for text, other in self.accepted:
            if text == question or jaccard(grams, other) >= DUPLICATE_THRESHOLD:
                return "near-duplicate"
        self.accepted.append((question, grams))
        self._per_template[shape] += 1
        if single:
            self._asked.add(asked)
            self._restated |= restated
            if prose:
                self._told.add(told)
        return None

    def validate(self, draft: Draft, category: Category, *, rewritten: bool = False) -> Verdict:
        """Check one draft; `rewritten` drafts (an LLM's wording) skip the checks of the offline phrasing rules."""
        ctx = self.ctx
        if not draft.question.strip() or not draft.reference_answer.strip():
            return Verdict(False, "empty question or answer")
        if not draft.keywords:
            return Verdict(False, "no keywords")
        closures = [self.closure(f) for f in draft.facts]
        # An aggregate reads every page of its kind (scope_docs). Beyond them, a count cites only pages restating
        # the facts it counts (`answer_facts`); an extreme cites pages restating any compared value, since each
        # value is needed to rule its holder out.
        answer_ids = set(draft.derived.get("answer_facts", ()))
        stating = [c for f, c in zip(draft.facts, closures, strict=True) if not answer_ids or f.fact_id in answer_ids]
        docs: set[str] = set().union(*stating) if stating else set()
        docs.update(draft.scope_docs)
        source_docs = sorted(docs)
        if not self._grounded(draft, source_docs):
            return Verdict(False, "keyword not grounded")
        failed = self.gate.check(draft, rewritten=rewritten)
        if failed is not None:
            return Verdict(False, failed.reason, detail=failed.detail)
        if len(draft.facts) == 1 and draft.category in SINGLE_FACT:
            finer = self._closure.finer_date(draft.facts[0], set(source_docs))
            if finer:
                return Verdict(False, "incomplete_value", detail=f"a source gives the day: {finer}")
        question = normalize(draft.question)
        for span in draft.answer_spans:
            if _leaks(question, span) or (draft.category in SINGLE_FACT and _name_leaks(draft.question, span)):
                return Verdict(False, "answer leaked in question")
        if draft.category in SINGLE_FACT and len(draft.facts) == 1 and _names_itself(draft.facts[0], question):
            # "모래시계랩의 회사명은?" → "주식회사 모래시계랩": the company's name asked by its name
            return Verdict(False, "answer leaked in question")
        if draft.category in SINGLE_FACT and draft.keywords and all(_leaks(question, k) for k in draft.keywords):
            # "주식회사 온담헬스케어의 회사명은?" → "주식회사 온담헬스케어 (ONDAM …)": every keyword is in the question
            return Verdict(False, "answer leaked in question")
        if draft.category == "spanning" and (set.intersection(*closures) or self._one_page_answers(draft)):
            return Verdict(False, "answerable from a single document")
        failure = category.check(draft, ctx, source_docs)
        if failure:
            return Verdict(False, failure)
        for stated in draft.facts:
            unclaimed = self._closure.unclaimed(stated, set(source_docs))
            if unclaimed:
                # a page naming the subject writes the same figure: source_docs may miss it, so the item is not kept
                return Verdict(False, "unclaimed_restatement", detail=f"{stated.value[:20]} in {unclaimed}")
            retold = self._closure.retold.of(stated)
            if retold.changed is not None:
                # "Lou's hours shift to 9.30–2.30": the answer may be the old value
                return Verdict(False, "ambiguous_key", detail=f"a page says it changed: '{retold.changed[1][:50]}'")
            untold = retold.untold(source_docs)
            if untold is not None:
                # "our high ropes are run by Dev": a page may tell it in other words
                return Verdict(False, "unclaimed_restatement", detail=f"'{untold[1][:50]}' in {untold[0]}")
        duplicate = self._duplicate(draft, source_docs)
        if duplicate is not None:
            return Verdict(False, duplicate)
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


def _name_leaks(question: str, span: str) -> bool:
    """Whether the name an answer opens with is in the question: "What is the product of the contract … for
    Carllm?" → "Carllm Auto Insurance Solution" (a reader answers from the question alone)."""
    code = re.match(r"([A-Za-z]+\d+|\d+[A-Za-z]+)-\w", span.strip())
    if code and re.search(rf"(?<![\w-]){re.escape(code.group(1))}(?![\w-])", question):
        return True  # "What is Airbus A350's aircraft model?" → "A350-900": the question names what is asked
    words = span.split()
    if len(words) < 2:
        return False
    first = words[0].strip(",.;:()")
    if not (len(first) >= 4 and first[:1].isupper() and first.isalnum() and not first.isupper()):
        return False
    return re.search(rf"(?<![\w-]){re.escape(first)}(?![\w-])", question) is not None


#: Words of a name from which a question holding all but its last one has given it away.
_NAMED_WORDS = 3


def _names_itself(fact: FactNode, question: str) -> bool:
    """Whether a fact gives its subject's own name ("회사명: 주식회사 모래시계랩") and the question already says
    it without the legal form or note ("모래시계랩의 회사명은 무엇인가요?"), or the value is the subject's name with
    more after it ("한결 테일러의 상호는?" → "한결 테일러 (Hangyeol Tailor) — 맞춤 양복")."""
    if not NAME_LABEL.fullmatch(fact.attribute.strip()):
        return False
    core = without_legal_form(without_trailing_note(fact.value)).strip()
    if len(core) >= 2 and normalize(core) in question:
        return True
    subject = normalize(fact.subject)
    if len(subject) >= 2 and subject in question and subject in normalize(fact.value):
        return True
    # "서하동 주민센터의 명칭은?" → "서하동 주민센터 자치회관": the question already holds all but the name's last word
    words = normalize(core).split()
    return len(words) >= _NAMED_WORDS and " ".join(words[:-1]) in question
