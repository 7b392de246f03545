"""Offline test-set generation: quotas per category, drafts validated one by one, shortfalls explained."""

from __future__ import annotations

import itertools
import random
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import testgen.categories  # noqa: F401  (registers the built-in categories)
from schemas import TestQuestion
from testgen.categories._registry import category_names, get_category
from testgen.errors import OptionError
from testgen.kg.graph import KnowledgeGraph
from testgen.llm._types import LLM
from testgen.overlap import question_overlap
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft, item_id
from testgen.synth.llm_run import LLMRun, sample_passage_prompts
from testgen.synth.llm_synth import LLMOptions, estimate_plan
from testgen.validate import Validator, Verdict

GENERATOR = "testgen-offline"
GENERATOR_VERSION = "0.1"

#: Default mix, shaped like hand-written test sets: about a third direct facts, the rest spread.
DEFAULT_MIX: dict[str, float] = {
    "direct_fact": 0.34,
    "temporal": 0.14,
    "numerical": 0.12,
    "comparative": 0.10,
    "spanning": 0.12,
    "holistic": 0.08,
    "relationship": 0.10,
}
#: Drafts examined per requested item before a category is declared out of material.
MAX_DRAWS_PER_ITEM = 60


def parse_mix(text: str | None) -> dict[str, float]:
    """Parse ``direct_fact=0.4,temporal=0.2`` into shares that sum to 1 (unnamed categories get 0).

    Names come from the registry, so a plug-in category can be given a share; by default it has none."""
    if not text:
        return dict(DEFAULT_MIX)
    names = category_names()
    mix: dict[str, float] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        name = name.strip()
        if not sep or name not in names:
            raise OptionError(
                f"--mix: cannot read {part.strip()!r}; use name=share pairs with names from {', '.join(names)}"
            )
        try:
            share = float(value)
        except ValueError:
            raise OptionError(f"--mix: share for {name} is not a number: {value!r}") from None
        if share < 0:
            raise OptionError(f"--mix: share for {name} must not be negative")
        mix[name] = share
    total = sum(mix.values())
    if total <= 0:
        raise OptionError("--mix: at least one share must be positive")
    return {name: mix.get(name, 0.0) / total for name in names}


def quotas(num: int, mix: dict[str, float]) -> dict[str, int]:
    """Items per category: largest-remainder rounding of num × share (ties broken in category order).

    Every registered category gets a quota: the built-in seven, then plug-ins (0 unless `mix` gives a share)."""
    if num < 1:
        raise OptionError("--num must be at least 1")
    names = category_names()
    raw = {c: num * mix.get(c, 0.0) for c in names}
    counts = {c: int(v) for c, v in raw.items()}
    left = num - sum(counts.values())
    order = sorted(names, key=lambda c: (-(raw[c] - counts[c]), names.index(c)))
    for c in order[:left]:
        counts[c] += 1
    return counts


@dataclass
class GenerationResult:
    """Generated items and the account of how they were obtained."""

    items: list[TestQuestion]
    requested: dict[str, int]
    rejected: Counter[tuple[str, str]] = field(default_factory=Counter)
    shortfall: dict[str, str] = field(default_factory=dict)
    filled: dict[str, int] = field(default_factory=dict)  # extra items drawn to cover shortfalls
    drafts_seen: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    stopped: str | None = None  # why generation stopped early (LLM budget reached, calls failing)
    llm: dict[str, Any] = field(default_factory=dict)  # the LLM stage's account, when a model was used

    def counts(self) -> dict[str, int]:
        got = Counter(item.category for item in self.items)
        return {c: got.get(c, 0) for c in self.requested}


def generate(
    kg: KnowledgeGraph,
    *,
    num: int = 50,
    mix: dict[str, float] | None = None,
    seed: int = 42,
    language: str | None = None,
    fill: bool = True,
    progress: Callable[[str, int, int], None] | None = None,
    llm: LLM | None = None,
    llm_options: LLMOptions | None = None,
) -> GenerationResult:
    """Generate `num` validated questions from a knowledge graph, offline (or with `llm`).

    Each category draws until its quota is met or its material runs out (the shortfall is recorded with
    its reason). With `fill`, the items a category could not deliver are then drawn from the categories that
    still have material, largest share first, so the set reaches `num` when the KB allows it.

    With `llm`, questions are written by the model (see `testgen.synth.llm_run`): from offline drafts that pass
    validation (fact seeds, one rewrite call each, validated again — `testgen.synth.llm_stage`) and from passages
    (`testgen.synth.passage_stage`), in the question types of `llm_options.types`; a rejected reply moves on to
    the next seed. With ``llm_options.fallback == "offline"``, what the model did not deliver is made up with
    offline items, flagged in their metadata.
    """
    run = _Run(kg, num, mix or DEFAULT_MIX, seed, language, progress, llm, llm_options or LLMOptions())
    try:
        run.first_pass()
        if fill:
            run.fill_pass()
    finally:
        run.close()
    return run.finish()


class _Run:
    """One generation run: the category streams, the validator, the LLM stage when there is one, the result."""

    def __init__(
        self,
        kg: KnowledgeGraph,
        num: int,
        shares: dict[str, float],
        seed: int,
        language: str | None,
        progress: Callable[[str, int, int], None] | None,
        llm: LLM | None,
        options: LLMOptions,
    ) -> None:
        self.started = time.perf_counter()
        self.kg, self.num, self.shares, self.seed, self.language = kg, num, shares, seed, language
        self.report = progress or (lambda stage, done, total: None)
        self.wanted = quotas(num, shares)
        self.ctx = GenContext.from_graph(kg, language=language)
        self.validator = Validator(self.ctx)
        self.result = GenerationResult(items=[], requested=self.wanted)
        self.streams: dict[str, Iterator[Draft]] = {}
        self.seen: dict[str, int] = {}
        self.exhausted: set[str] = set()
        self.options = options
        self.stage = LLMRun(llm, self.ctx, options, self.wanted, seed, GENERATOR_VERSION) if llm is not None else None
        # with passages, a category whose mined facts ran out can still deliver
        self.facts_only = self.stage is None or not self.stage.uses_passages

    @property
    def stopped(self) -> str | None:
        return self.stage.stopped if self.stage is not None else None

    def next_seed(self, category_name: str, cap: int) -> tuple[Draft, Verdict] | None:
        """The next offline draft of a category that passes validation (rejections counted), or None."""
        category = get_category(category_name)
        while self.seen[category_name] < cap:
            draft = next(self.streams[category_name], None)
            if draft is None:
                self.exhausted.add(category_name)
                return None
            self.seen[category_name] += 1
            verdict = self.validator.validate(draft, category)
            if verdict.ok:
                return draft, verdict
            self.result.rejected[(category_name, verdict.reason or "rejected")] += 1
        return None

    def emit(self, item: TestQuestion) -> None:
        self.result.items.append(item)
        self.report("generating questions", len(self.result.items), self.num)

    def draw(self, category_name: str, quota: int, cap: int) -> int:
        """Up to `quota` items of a category (offline, or through the LLM stage); returns how many."""
        ctx, seed = self.ctx, self.seed
        if self.stage is not None:
            return self.stage.draw(
                category_name,
                quota,
                lambda: got[0] if (got := self.next_seed(category_name, cap)) else None,
                lambda draft, verdict, meta: _item(ctx, draft, verdict, category_name, seed, meta),
                self.emit,
                self.result.rejected,
            )
        accepted = 0
        while accepted < quota and (got := self.next_seed(category_name, cap)) is not None:
            self.emit(_item(ctx, got[0], got[1], category_name, seed))
            accepted += 1
        return accepted

    def first_pass(self) -> None:
        """Each category's quota, in category order; a shortfall recorded with its reason."""
        result = self.result
        for category_name in self.wanted:  # the built-in seven, then plug-ins in registration order
            quota = self.wanted[category_name]
            # One random stream per category, derived from the seed: changing one quota never reshuffles another.
            self.streams[category_name] = iter(
                get_category(category_name).candidates(self.ctx, random.Random(f"{self.seed}:{category_name}"))
            )
            self.seen[category_name] = 0
            if quota == 0:
                continue
            if self.stopped:  # the full reason is the run's `stopped`, said once
                result.shortfall[category_name] = f"0/{quota}: {_first_clause(self.stopped)}"
                continue
            accepted = self.draw(category_name, quota, quota * MAX_DRAWS_PER_ITEM)
            if accepted < quota:
                stage = self.stage
                why = (_first_clause(stage.stopped) or stage.notes.get(category_name)) if stage is not None else None
                result.shortfall[category_name] = _why_short(
                    category_name, accepted, quota, self.seen[category_name], result.rejected, why
                )

    def fill_pass(self) -> None:
        """The items short categories could not deliver, from the categories with material, largest share first."""
        order = list(self.wanted)
        for category_name in sorted(order, key=lambda c: (-self.shares.get(c, 0.0), order.index(c))):
            deficit = self.num - len(self.result.items)
            if deficit <= 0 or self.stopped:
                break
            if (
                (category_name in self.exhausted and self.facts_only)
                or category_name in self.result.shortfall
                or self.shares.get(category_name, 0) <= 0
            ):
                continue
            extra = self.draw(category_name, deficit, self.seen[category_name] + deficit * MAX_DRAWS_PER_ITEM)
            if extra:
                self.result.filled[category_name] = extra

    def close(self) -> None:
        if self.stage is not None:
            self.stage.close()
            self.result.stopped = self.stage.stopped

    def finish(self) -> GenerationResult:
        """The offline fallback when asked for, the LLM account, drafts seen and the time taken."""
        result, stage = self.result, self.stage
        if stage is not None:
            if self.options.fallback == "offline" and len(result.items) < self.num:
                why = stage.stopped or "the model delivered fewer items than requested"
                made_up = offline_top_up(
                    self.kg,
                    result.items,
                    self.wanted,
                    mix=self.shares,
                    seed=self.seed,
                    language=self.language,
                    reason=why,
                )
                result.items.extend(made_up)
                stage.fallback_items = len(made_up)
            result.llm = stage.summary()
        for category_name, count in self.seen.items():
            if count or self.wanted[category_name]:
                result.drafts_seen[category_name] = count
        result.seconds = time.perf_counter() - self.started
        return result


def offline_top_up(
    kg: KnowledgeGraph,
    items: list[TestQuestion],
    requested: dict[str, int],
    *,
    mix: dict[str, float],
    seed: int,
    language: str | None,
    reason: str,
) -> list[TestQuestion]:
    """Offline items that make up what an LLM run did not deliver (``--fallback offline``), each flagged.

    The offline generator runs as it would without a model (same mix and seed, so the same items); categories
    below their quota are made up first, then any category, until the requested total; a question already in
    the set is skipped."""
    num = sum(requested.values())
    missing = num - len(items)
    if missing <= 0:
        return []
    offline = generate(kg, num=num, mix=mix, seed=seed, language=language, fill=True)
    have = Counter(item.category for item in items)
    asked = {item.question.casefold() for item in items}
    pool = [item for item in offline.items if item.question.casefold() not in asked]
    picked: list[TestQuestion] = []
    for category, quota in requested.items():
        for item in [i for i in pool if i.category == category][: max(0, quota - have[category])]:
            if len(picked) < missing:
                picked.append(item)
    for item in pool:
        if len(picked) >= missing:
            break
        if item not in picked:
            picked.append(item)
    for item in picked:
        item.metadata = dict(item.metadata or {}) | {"fallback": "offline", "fallback_reason": reason}
    return picked


def plan_llm_calls(
    num: int,
    kg: KnowledgeGraph,
    *,
    model: str,
    mix: dict[str, float] | None = None,
    seed: int = 42,
    language: str | None = None,
    llm_options: LLMOptions | None = None,
    expected_rejection: float = 0.25,
    samples_per_category: int = 2,
) -> dict[str, Any]:
    """A dry run: the LLM calls, tokens and cost `generate(..., llm=...)` should take, without any call.

    Token counts come from the prompts of a few real seeds (facts and passages) per requested category; the
    graph is built offline, so it costs no call.
    """
    wanted = quotas(num, mix or DEFAULT_MIX)
    ctx = GenContext.from_graph(kg, language=language)
    validator = Validator(ctx)
    seeds: list[Draft] = []
    found: dict[str, float] = {}  # share of the sampled fact seeds each category found: its facts' reach
    for name in (c for c in wanted if wanted[c]):
        category = get_category(name)
        drafts = category.candidates(ctx, random.Random(f"{seed}:{name}"))
        taken = 0
        for draft in itertools.islice(drafts, samples_per_category * 10):
            if taken < samples_per_category and validator.validate(draft, category).ok:
                seeds.append(draft)
                taken += 1
        found[name] = taken / samples_per_category if samples_per_category else 0.0
    options = llm_options or LLMOptions()
    if options.seeds == "passages":
        seeds = []
    passage_prompts, share = sample_passage_prompts(
        ctx, wanted, options, seed=seed, per_category=samples_per_category, fact_reach=found
    )
    plan = estimate_plan(
        seeds,
        num,
        model=model,
        options=options,
        seed=seed,
        expected_rejection=expected_rejection,
        passage_prompts=passage_prompts,
        passage_share=share,
    )
    return plan | {"requested": wanted}


def _item(
    ctx: GenContext,
    draft: Draft,
    verdict: Verdict,
    category_name: str,
    seed: int,
    extra: dict[str, Any] | None = None,
) -> TestQuestion:
    metadata: dict[str, Any] = {
        "generator": GENERATOR,
        "generator_version": GENERATOR_VERSION,
        "seed": seed,
        "template": draft.template,
        "model": None,
        "facts": [f.fact_id for f in draft.facts][:10],
        "validation": verdict.checks,
    }
    if draft.derived:
        metadata["derived"] = draft.derived
    if draft.flags:
        metadata["flags"] = draft.flags
    if extra:
        metadata.update(extra)
    # Measured on the final wording (an LLM rewrite included), against the texts of every source document.
    overlap = question_overlap(draft.question, [ctx.doc_text[d] for d in verdict.source_docs], normalized=True)
    metadata["question_overlap"] = None if overlap is None else round(overlap, 4)
    return TestQuestion(
        question=draft.question,
        keywords=_dedupe(draft.keywords),
        reference_answer=draft.reference_answer,
        category=category_name,
        source_docs=verdict.source_docs,
        id=item_id(draft.question, verdict.source_docs),
        language=draft.language,
        reference_contexts=verdict.reference_contexts,
        metadata=metadata,
    )


def _first_clause(stopped: str | None) -> str | None:
    """ "stopped: none of … was usable (…); one reply began: …; likely fix: …" → without the excerpt and the fix
    (said once, in the run's `stopped`)."""
    return re.split(r"; (?:one reply began|likely fix):", stopped, maxsplit=1)[0] if stopped else None


def _dedupe(keywords: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for k in keywords:
        if k and k not in seen:
            seen.add(k)
            out.append(k)
    return out


def _why_short(
    category: str, got: int, quota: int, seen: int, rejected: Counter[tuple[str, str]], why: str | None = None
) -> str:
    reasons = [(r, n) for (c, r), n in rejected.items() if c == category]
    reasons.sort(key=lambda x: (-x[1], x[0]))
    if why is None:  # else the LLM stage said why it stopped (budget, failing calls, its call cap)
        if seen == 0:
            why = "the knowledge graph has no material of this kind"
        elif seen >= quota * MAX_DRAWS_PER_ITEM:
            why = f"stopped after {seen} drafts"
        else:
            why = f"material ran out after {seen} drafts"
    if reasons:
        why += "; most rejections: " + ", ".join(f"{r} ({n})" for r, n in reasons[:3])
    return f"{got}/{quota}: {why}"
