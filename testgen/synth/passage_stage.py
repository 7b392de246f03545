"""The passage path of an LLM run: seeds drawn per slot (category, question type), one call each in concurrent
batches, every reply checked (`testgen.synth.passage_check`), a rephrase for questions that copy their evidence,
the round trip, and the accounting.

A rejected reply is counted by reason and its slot is tried again from the next seed; items are emitted in slot
order, so which seeds become items does not depend on the concurrency or on the order calls finish in.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from schemas import TestQuestion
from testgen.llm._types import LLM, Completion, LLMBadResponse, LLMBudgetExceeded, LLMCallError
from testgen.llm.loop import EventLoop
from testgen.synth.context import GenContext
from testgen.synth.draft import item_id
from testgen.synth.evidence import EvidenceIndex
from testgen.synth.llm_synth import GENERATOR_LLM, LLMOptions, call_failure
from testgen.synth.passage_check import CheckedItem, PassageChecker, Rejection
from testgen.synth.passage_prompts import (
    PASSAGE_PROMPT_VERSION,
    PassageReply,
    RephraseReply,
    passage_messages,
    rephrase_messages,
)
from testgen.synth.passages import PassageSampler, PassageSeed
from testgen.synth.prompts import STYLES
from testgen.synth.types import SEED_SIZE, allowed_types
from testgen.synth.watch import ReplyWatch

STAGE = "passages"
REPHRASE_STAGE = "rephrase"
RoundTrip = Callable[[list[TestQuestion], str, Counter[tuple[str, str]]], list[TestQuestion]]


@dataclass
class _Candidate:
    seed: PassageSeed
    item: CheckedItem
    reply: PassageReply
    model: str
    original: str | None = None  # the question before a rephrase


@dataclass
class PassageStage:
    """Questions written from passages for one run (shares the run's event loop and reply watch)."""

    llm: LLM
    ctx: GenContext
    options: LLMOptions
    watch: ReplyWatch
    seed: int = 42
    loop: EventLoop | None = None
    round_trip: RoundTrip | None = None
    generator_version: str = "0.1"
    type_mix: dict[str, float] = field(default_factory=dict)
    calls: int = 0
    failed: int = 0
    delivered: int = 0
    rephrased: int = 0
    rephrase_calls: int = 0
    stopped: str | None = None
    notes: dict[str, str] = field(default_factory=dict)
    types_delivered: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        self.sampler = PassageSampler(self.ctx, self.seed)
        self.checker = PassageChecker(self.ctx, EvidenceIndex(self.ctx))
        self._own_loop = self.loop is None
        self._loop = self.loop or EventLoop()
        self._titles = {d: doc.title for d, doc in self.ctx.docs.items()}
        self._styles = {k: v for k, v in (self.options.styles or {"plain": 1.0}).items() if v > 0}

    @classmethod
    def for_planning(cls, ctx: GenContext, options: LLMOptions, seed: int = 42) -> PassageStage:
        """A stage that only draws seeds and writes prompts (a dry run): no model, no event loop."""
        stage = cls.__new__(cls)
        stage.ctx, stage.options, stage.seed = ctx, options, seed
        stage.sampler = PassageSampler(ctx, seed)
        stage._titles = {d: doc.title for d, doc in ctx.docs.items()}
        stage._styles = {k: v for k, v in (options.styles or {"plain": 1.0}).items() if v > 0}
        return stage

    # -- one category ------------------------------------------------------------------------------------------

    def draw(
        self,
        category: str,
        types: list[str],
        emit: Callable[[TestQuestion], None],
        rejected: Counter[tuple[str, str]],
    ) -> int:
        """Fill the slots `types` (one question type each) of `category`; returns how many items passed."""
        pending = list(types)
        accepted = calls = 0
        cap = max(len(types), math.ceil(len(types) * self.options.max_calls_per_item))
        dry: set[str] = set()  # types the KB has no passage left for (in this category)
        while pending and not self.stopped:
            if self.watch.stopped:
                self.stopped = self.watch.stopped
                break
            if calls >= cap:
                self.notes[category] = f"stopped after {calls} LLM calls"
                break
            room = min(self.options.concurrency, len(pending), cap - calls, self.watch.allowance())
            batch: list[tuple[int, PassageSeed]] = []
            for index, qtype in enumerate(pending):
                if len(batch) >= room:
                    break
                seed = self._seed(category, qtype, dry)
                if seed is not None:
                    batch.append((index, seed))
            if not batch:
                self.notes.setdefault(category, "no passage left that fits")
                break
            outcomes = self._loop.run(self._calls([self._ask(s) for _, s in batch]))
            candidates: list[tuple[int, _Candidate]] = []
            for (index, seed), outcome in zip(batch, outcomes, strict=True):
                if isinstance(outcome, LLMBudgetExceeded):
                    self.stopped = "stopped: the LLM cost cap (--max-cost) was reached; finished items were kept"
                    continue
                calls += 1
                self.calls += 1
                found = self._judge(category, seed, outcome, rejected)
                if found is not None:
                    candidates.append((index, found))
            candidates = self._rephrase(category, candidates, rejected)
            done: set[int] = set()
            for index, item in self._finish(category, candidates, rejected):
                emit(item)
                accepted += 1
                done.add(index)
            pending = [t for i, t in enumerate(pending) if i not in done]
        return accepted

    def _seed(self, category: str, qtype: str, dry: set[str]) -> PassageSeed | None:
        """A seed for the slot's type, else for another type the category takes (the type's passages ran out)."""
        others = [t for t in allowed_types(category, self.type_mix or {qtype: 1.0}) if t != qtype]
        for candidate in [qtype, *others]:
            if candidate in dry:
                continue
            seed = self.sampler.draw(category, candidate, SEED_SIZE.get(category, 1))
            if seed is not None:
                return seed
            dry.add(candidate)
        return None

    # -- calls -------------------------------------------------------------------------------------------------

    async def _calls(self, calls: list[Any]) -> list[Any]:
        return await self.watch.bounded(calls)

    def voice(self, seed: PassageSeed) -> tuple[str | None, str]:
        """Persona and query style of a seed, drawn from the run seed and the seed's key (stable on re-runs)."""
        rng = random.Random(f"{self.seed}:{seed.key}")
        personas = list(self.options.personas or [])
        persona = rng.choice(personas) if personas else None
        style = rng.choices(list(self._styles), weights=list(self._styles.values()))[0]
        return (f"{persona.name}: {persona.description}" if persona else None), style

    def messages(self, seed: PassageSeed) -> list[dict[str, str]]:
        """The prompt of a seed, with its persona and style."""
        persona, style = self.voice(seed)
        return passage_messages(
            seed, self._titles, persona=persona, style=None if style == "plain" else STYLES.get(style, style)
        )

    async def _ask(self, seed: PassageSeed) -> Completion:
        return await self.llm.acomplete(
            self.messages(seed),
            stage=STAGE,
            response_model=PassageReply,
            temperature=self.options.temperature,
            max_tokens=self.options.max_tokens,
        )

    def _judge(
        self, category: str, seed: PassageSeed, outcome: Any, rejected: Counter[tuple[str, str]]
    ) -> _Candidate | None:
        if isinstance(outcome, LLMCallError):
            self.failed += 1
            reason = call_failure(outcome)
            rejected[(category, f"llm call failed: {reason}")] += 1
            self.notes["last_call_error"] = " ".join(str(outcome).split())[:300]
            self.watch.record(False, reason, getattr(outcome, "reply", None))
            return None
        if isinstance(outcome, BaseException):
            raise outcome
        reply = outcome.parsed if isinstance(outcome.parsed, PassageReply) else None
        if reply is None:  # a client that validated into another model: re-read it
            try:
                reply = PassageReply.model_validate(outcome.parsed.model_dump() if outcome.parsed else {})
            except ValueError:
                self.watch.record(False, "unusable reply", outcome.text)
                rejected[(category, "llm call failed: unusable reply")] += 1
                return None
        checked = self.checker.check(seed, reply)
        if isinstance(checked, Rejection):
            rejected[(category, f"llm: {checked.reason}")] += 1
            self.watch.record(checked.reason == "near-duplicate", checked.reason, outcome.text)
            return None
        self.watch.record(True)
        return _Candidate(seed, checked, reply, outcome.model or self.llm.model)

    def _rephrase(
        self, category: str, candidates: list[tuple[int, _Candidate]], rejected: Counter[tuple[str, str]]
    ) -> list[tuple[int, _Candidate]]:
        """One rephrase call for each question above the overlap threshold; still above it → dropped."""
        limit = self.options.max_overlap
        high = [(i, c) for i, c in candidates if limit is not None and (c.item.evidence_overlap or 0.0) > limit]
        if not high:
            return candidates
        asks = [
            self.llm.acomplete(
                rephrase_messages(c.item.question, [q for _, q in c.item.quotes], c.seed.language),
                stage=REPHRASE_STAGE,
                response_model=RephraseReply,
                temperature=self.options.temperature,
                max_tokens=200,
            )
            for _, c in high
        ]
        outcomes = self._loop.run(self._calls(asks))
        replaced: dict[int, _Candidate | None] = {}
        for (index, cand), outcome in zip(high, outcomes, strict=True):
            self.rephrase_calls += 1
            replaced[index] = None
            if isinstance(outcome, LLMBudgetExceeded):
                self.stopped = "stopped: the LLM cost cap (--max-cost) was reached; finished items were kept"
                continue
            if isinstance(outcome, LLMCallError | LLMBadResponse):
                rejected[(category, "llm: question copies the evidence (rephrase failed)")] += 1
                continue
            if isinstance(outcome, BaseException):
                raise outcome
            new = outcome.parsed.question.strip() if isinstance(outcome.parsed, RephraseReply) else ""
            reply = cand.reply.model_copy(update={"question": new})
            checked = self.checker.check(cand.seed, reply) if new else Rejection("empty question or answer")
            if isinstance(checked, Rejection):
                rejected[(category, f"llm: rephrased: {checked.reason}")] += 1
                continue
            if limit is not None and (checked.evidence_overlap or 0.0) > limit:
                rejected[(category, "llm: question copies the evidence (after a rephrase)")] += 1
                continue
            self.rephrased += 1
            replaced[index] = _Candidate(cand.seed, checked, reply, cand.model, original=cand.item.question)
        out = []
        for index, cand in candidates:
            if index in replaced:
                if replaced[index] is not None:
                    out.append((index, replaced[index]))
            else:
                out.append((index, cand))
        return [(i, c) for i, c in out if c is not None]

    def _finish(
        self, category: str, candidates: list[tuple[int, _Candidate]], rejected: Counter[tuple[str, str]]
    ) -> list[tuple[int, TestQuestion]]:
        """Items in slot order, after the within-batch duplicate check and the round trip."""
        items: list[tuple[int, TestQuestion]] = []
        for index, cand in sorted(candidates, key=lambda x: x[0]):
            again = self.checker.check(cand.seed, cand.reply)  # an earlier item of this batch may repeat it
            if isinstance(again, Rejection):
                rejected[(category, f"llm: {again.reason}")] += 1
                continue
            self.checker.accept(cand.item.question)
            items.append((index, self._item(category, cand)))
        if self.round_trip is not None and items:
            kept = {id(x) for x in self.round_trip([it for _, it in items], category, rejected)}
            items = [(i, it) for i, it in items if id(it) in kept]
        for _, item in items:
            self.delivered += 1
            self.types_delivered[str((item.metadata or {}).get("question_type"))] += 1
        return items

    def _item(self, category: str, cand: _Candidate) -> TestQuestion:
        from testgen.overlap import question_overlap

        seed, checked = cand.seed, cand.item
        persona, style = self.voice(seed)
        overlap = question_overlap(checked.question, [self.ctx.doc_text[d] for d in checked.source_docs])
        metadata: dict[str, Any] = {
            "generator": GENERATOR_LLM,
            "generator_version": self.generator_version,
            "seed": self.seed,
            "model": cand.model,
            "prompt_version": PASSAGE_PROMPT_VERSION,
            "seed_kind": "passage",
            "question_type": seed.question_type,
            "passages": [
                {"doc_id": c.doc_id, "chunk_id": c.chunk_id, "heading_path": list(c.heading_path)} for c in seed.chunks
            ],
            "topic": seed.topic,
            "entities": checked.entities,
            "persona": persona.split(":", 1)[0] if persona else None,
            "style": style,
            "critic": {
                "answerable_from_passages": cand.reply.answerable_from_passages,
                "answer_supported": cand.reply.answer_supported,
                "needs_all_passages": cand.reply.needs_all_passages,
                "issues": cand.reply.issues,
            },
            "evidence_overlap": checked.evidence_overlap,
            "rephrased_from": cand.original,
            "validation": checked.checks,
            "question_overlap": None if overlap is None else round(overlap, 4),
        }
        return TestQuestion(
            question=checked.question,
            keywords=checked.keywords,
            reference_answer=checked.reference_answer,
            category=category,
            source_docs=checked.source_docs,
            id=item_id(checked.question, checked.source_docs),
            language=seed.language,
            reference_contexts=[q for _, q in checked.quotes],
            metadata=metadata,
        )

    def close(self) -> None:
        """Close the event loop when the stage made its own."""
        if self._own_loop:
            self._loop.close()

    def summary(self) -> dict[str, Any]:
        """What the passage path did: calls, rephrases, items by question type."""
        return {
            "calls": self.calls,
            "failed_calls": self.failed,
            "delivered": self.delivered,
            "rephrase_calls": self.rephrase_calls,
            "rephrased": self.rephrased,
            "max_overlap": self.options.max_overlap,
            "prompt_version": PASSAGE_PROMPT_VERSION,
            "by_question_type": dict(sorted(self.types_delivered.items())),
            "documents_seeded": len(self.sampler.usage),
            "notes": dict(self.notes),
        }
