"""One LLM generation run: fact seeds and passage seeds side by side, question types spread over the categories,
one watch over the first replies, and the fallback's accounting (the offline top-up itself is
`testgen.generate.offline_top_up`, next to the offline generator it runs).

Each category's slots get their question types from `testgen.synth.types.plan_types`. With ``seeds="mixed"``
(the default) a slot whose type a mined fact can ask (a lookup; for comparative, which of two is ahead) is first
tried with a fact seed rewritten by the model (`testgen.synth.llm_stage`), every other slot — and any the facts
could not fill — with a passage seed (`testgen.synth.passage_stage`); when the passages run out, fact seeds make
up the rest. ``seeds="facts"`` is the rewrite path alone, ``seeds="passages"`` the passage path alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from schemas import TestQuestion
from testgen.llm._types import LLM
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft
from testgen.synth.llm_stage import LLMStage, MakeItem
from testgen.synth.llm_synth import LLMOptions
from testgen.synth.passage_stage import PassageStage
from testgen.synth.types import (
    CATEGORY_TYPES,
    DEFAULT_TYPE_MIX,
    SEED_SIZE,
    allowed_types,
    fact_seed_type,
    plan_types,
)
from testgen.synth.watch import ReplyWatch
from testgen.validate import Verdict


@dataclass
class LLMRun:
    """The LLM side of `testgen.generate.generate`: same `draw` as `LLMStage`, over both kinds of seed."""

    llm: LLM
    ctx: GenContext
    options: LLMOptions
    wanted: dict[str, int]
    seed: int = 42
    generator_version: str = "0.1"
    fallback_items: int = 0
    _drawn: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        o = self.options
        self.type_mix = dict(o.types or DEFAULT_TYPE_MIX)
        self.plan = plan_types(self.wanted, self.type_mix)
        settings = getattr(self.llm, "settings", None)
        self.watch = ReplyWatch(
            self.llm.model,
            limit=o.first_replies,
            max_seconds=o.first_seconds,
            api_base=getattr(settings, "api_base", None),
            structured=lambda: getattr(self.llm, "structured_mode", None),
            reached=self._server_answered,
            fallback=o.fallback == "offline",
        )
        self.facts = LLMStage(self.llm, self.ctx, o, seed=self.seed, watch=self.watch)
        self.passages: PassageStage | None = None
        if o.seeds != "facts":
            self.passages = PassageStage(
                self.llm,
                self.ctx,
                o,
                self.watch,
                seed=self.seed,
                loop=self.facts._loop,
                round_trip=self.facts.round_trip,
                generator_version=self.generator_version,
                type_mix=self.type_mix,
            )
            self.passages.sampler.reserve(self.plan, SEED_SIZE)

    def _server_answered(self) -> bool:
        """Whether the server answered at all: a reply, or a structured-output mode it turned down with a status."""
        info = self.llm.run_info() if hasattr(self.llm, "run_info") else {}
        turned_down = info.get("structured_output_rejected") or {}
        return any(str(reason).startswith("HTTP ") for reason in turned_down.values())

    @property
    def uses_passages(self) -> bool:
        """Whether a category can still deliver after its mined facts ran out."""
        return self.passages is not None

    @property
    def stopped(self) -> str | None:
        """Why the run stopped early (budget, failing calls, unusable replies), or None."""
        return self.facts.stopped or (self.passages.stopped if self.passages else None) or self.watch.stopped

    @property
    def notes(self) -> dict[str, str]:
        """Per-category notes of both stages (why a category stopped)."""
        merged = dict(self.facts.notes)
        if self.passages is not None:
            for key, note in self.passages.notes.items():
                merged[key] = f"{merged[key]}; {note}" if key in merged else note
        return merged

    def types_for(self, category: str, count: int) -> list[str]:
        """The question types of `count` slots: the plan's the first time, then the category's types in turn."""
        if category not in self._drawn:
            self._drawn.add(category)
            planned = self.plan.get(category, [])
            if len(planned) >= count:
                return planned[:count]
        cycle = self.plan.get(category) or allowed_types(category, self.type_mix) or ["what"]
        return [cycle[i % len(cycle)] for i in range(count)]

    def draw(
        self,
        category: str,
        quota: int,
        next_seed: Callable[[], Draft | None],
        make_item: MakeItem,
        emit: Callable[[TestQuestion], None],
        rejected: Counter[tuple[str, str]],
    ) -> int:
        """Fill `quota` slots of `category`: fact seeds for the slots they can ask, passages for the rest."""
        types = self.types_for(category, quota)
        fact_type = fact_seed_type(category)

        def typed(draft: Draft, verdict: Verdict, meta: dict[str, Any]) -> TestQuestion:
            return make_item(draft, verdict, meta | {"seed_kind": "fact", "question_type": fact_type})

        if self.passages is None or category not in CATEGORY_TYPES:  # facts only, or a plug-in category
            return self.facts.draw(category, quota, next_seed, typed, emit, rejected)
        rest = list(types)
        accepted = 0
        if self.options.seeds == "mixed" and fact_type in rest:
            got = self.facts.draw(category, rest.count(fact_type), next_seed, typed, emit, rejected)
            for _ in range(got):
                rest.remove(fact_type)
            accepted += got
        if rest and not self.stopped:
            accepted += self.passages.draw(category, rest, emit, rejected)
        if accepted < quota and self.options.seeds == "mixed" and not self.stopped:
            accepted += self.facts.draw(category, quota - accepted, next_seed, typed, emit, rejected)
        return accepted

    def close(self) -> None:
        """Close the run's event loop."""
        self.facts.close()

    def summary(self) -> dict[str, Any]:
        """The run's account: the rewrite stage's, with both stages' calls and items, and the passage path's."""
        info = self.facts.summary()
        passages = self.passages.summary() if self.passages is not None else None
        delivered = self.facts.delivered + (self.passages.delivered if self.passages else 0)
        info["calls"] = self.facts.calls + (self.passages.calls + self.passages.rephrase_calls if self.passages else 0)
        info["failed_calls"] = self.facts.failed + (self.passages.failed if self.passages else 0)
        info["delivered"] = delivered
        info["calls_per_item"] = round(info["requests"] / delivered, 3) if delivered else None
        info["seeds"] = self.options.seeds
        info["fact_items"] = self.facts.delivered
        info["question_types"] = dict(sorted(self.type_mix.items()))
        info["stopped"] = self.stopped
        info["notes"] = self.notes
        info["watch"] = self.watch.summary()
        if passages is not None:
            info["passages"] = passages
        info["fallback"] = {"mode": self.options.fallback, "items": self.fallback_items}
        return info


def sample_passage_prompts(
    ctx: GenContext,
    wanted: dict[str, int],
    options: LLMOptions,
    *,
    seed: int = 42,
    per_category: int = 2,
    fact_reach: dict[str, float] | None = None,
) -> tuple[list[list[dict[str, str]]], float]:
    """For a dry run: the prompts (as sent, JSON instruction included) of a few passage seeds per requested
    category, and the share of the run's calls expected to be passage calls: the slots no fact seed asks, and
    of those a fact seed could ask, the part its category's mined facts do not reach (`fact_reach`: the share
    of the sampled fact seeds found, 1 when not given — on prose it is low)."""
    from testgen.llm.parsing import with_json_instruction
    from testgen.synth.passage_prompts import PassageReply

    if options.seeds == "facts":
        return [], 0.0
    plan = plan_types(wanted, dict(options.types or DEFAULT_TYPE_MIX))
    stage = PassageStage.for_planning(ctx, options, seed)
    prompts = []
    for category, types in plan.items():
        for qtype in types[:per_category]:
            drawn = stage.sampler.draw(category, qtype, SEED_SIZE.get(category, 1))
            if drawn is not None:
                prompts.append(with_json_instruction(stage.messages(drawn), PassageReply))
    slots = [(c, t) for c, types in plan.items() for t in types]
    reach = fact_reach or {}
    facts = sum(reach.get(c, 1.0) for c, t in slots if options.seeds == "mixed" and t == fact_seed_type(c))
    return prompts, (1 - facts / len(slots)) if slots else 0.0
