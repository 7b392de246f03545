"""The LLM path of one generation run: batches of concurrent rewrites (one event loop for the run), the
checks every reply passes, the round trip through the baseline retriever, and the accounting.

Seeds are rewritten in batches of up to ``concurrency`` and never more than the quota still needs, and the
items are emitted in seed order; so which seeds become items does not depend on the concurrency or on the
order the calls finish in. A failed call moves on to the next seed; the budget cap stops the run cleanly.
"""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from typing import Any

from schemas import TestQuestion
from testgen.categories._registry import get_category
from testgen.llm._types import LLM, LLMBudgetExceeded, LLMCallError
from testgen.llm.cost import format_cost
from testgen.llm.loop import EventLoop
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft
from testgen.synth.llm_synth import LLMOptions, LLMRewriter, Rewrite, call_failure, reply_problem
from testgen.synth.prompts import PROMPT_VERSION
from testgen.synth.watch import ReplyWatch
from testgen.text import normalize
from testgen.validate import Validator, Verdict

MakeItem = Callable[[Draft, Verdict, dict[str, Any]], TestQuestion]


@dataclass
class LLMStage:
    """The LLM path of one generation run: batches of concurrent rewrites, checks, round trip, accounting."""

    llm: LLM
    ctx: GenContext
    options: LLMOptions
    seed: int = 42
    calls: int = 0
    failed: int = 0
    delivered: int = 0
    round_trip_misses: int = 0
    stopped: str | None = None
    notes: dict[str, str] = field(default_factory=dict)
    watch: ReplyWatch | None = None  # judges the run's first replies (shared with the passage stage)

    def __post_init__(self) -> None:
        o = self.options
        self.rewriter = LLMRewriter(
            self.llm,
            personas=o.personas,
            styles=o.styles,
            seed=self.seed,
            max_tokens=o.max_tokens,
            temperature=o.temperature,
        )
        self.validator = Validator(self.ctx)  # own dedup memory: an LLM question is never compared to its seed
        self._loop = EventLoop()
        self._target: Any = o.round_trip_target
        self._consecutive = 0

    def draw(
        self,
        category_name: str,
        quota: int,
        next_seed: Callable[[], Draft | None],
        make_item: MakeItem,
        emit: Callable[[TestQuestion], None],
        rejected: Counter[tuple[str, str]],
    ) -> int:
        """Rewrite seeds in batches of up to `concurrency` (never more than still needed) until `quota` items
        pass; returns how many did. Items are emitted in seed order, whatever order the calls finish in."""
        category = get_category(category_name)
        accepted = calls = 0
        cap = max(quota, math.ceil(quota * self.options.max_calls_per_item))
        while accepted < quota and not self.stopped:
            if self.watch is not None and self.watch.stopped:
                self.stopped = self.watch.stopped
                break
            if calls >= cap:
                self.notes[category_name] = f"stopped after {calls} LLM calls"
                break
            seeds: list[Draft] = []
            allowance = self.watch.allowance() if self.watch is not None else quota
            while len(seeds) < min(self.options.concurrency, quota - accepted, cap - calls, allowance):
                seed = next_seed()
                if seed is None:
                    break
                seeds.append(seed)
            if not seeds:
                break
            outcomes = self._loop.run(self._batch(seeds))
            candidates: list[tuple[Draft, Verdict, dict[str, Any]]] = []
            for outcome in outcomes:
                if isinstance(outcome, LLMBudgetExceeded):
                    self.stopped = "stopped: the LLM cost cap (--max-cost) was reached; finished items were kept"
                    self.notes["budget"] = str(outcome)
                    continue
                calls += 1
                self.calls += 1
                if isinstance(outcome, LLMCallError):
                    self._failure(category_name, outcome, rejected)
                    if self.watch is not None:
                        self.watch.record(False, call_failure(outcome), getattr(outcome, "reply", None))
                    continue
                if isinstance(outcome, BaseException):
                    raise outcome
                self._consecutive = 0
                problem = reply_problem(outcome)
                verdict = self.validator.validate(outcome.draft, category, rewritten=True) if problem is None else None
                if verdict is None or not verdict.ok:
                    reason = problem or (verdict.reason if verdict else None) or "rejected"
                    rejected[(category_name, f"llm: {reason}")] += 1
                    if self.watch is not None:
                        self.watch.record(reason == "near-duplicate", reason, outcome.text)
                    continue
                if self.watch is not None:
                    self.watch.record(True)
                candidates.append((outcome.draft, verdict, outcome.metadata()))
            if self.watch is not None and self.watch.stopped and not candidates:
                self.stopped = self.watch.stopped
            for item in self.round_trip([make_item(*c) for c in candidates], category_name, rejected):
                emit(item)
                accepted += 1
                self.delivered += 1
        return accepted

    async def _batch(self, seeds: list[Draft]) -> list[Rewrite | BaseException]:
        if self.watch is not None:  # calls still running when the watch's time is up count as timeouts
            return await self.watch.bounded([self.rewriter.rewrite(s) for s in seeds])
        return await asyncio.gather(*(self.rewriter.rewrite(s) for s in seeds), return_exceptions=True)

    def _failure(self, category_name: str, exc: LLMCallError, rejected: Counter[tuple[str, str]]) -> None:
        self.failed += 1
        self._consecutive += 1
        rejected[(category_name, f"llm call failed: {call_failure(exc)}")] += 1
        self.notes["last_call_error"] = " ".join(str(exc).split())[:300]
        if self._consecutive >= self.options.max_consecutive_failures:
            self.stopped = f"stopped: {self._consecutive} LLM calls failed in a row (last: {call_failure(exc)})"

    def round_trip(
        self, items: list[TestQuestion], category_name: str, rejected: Counter[tuple[str, str]]
    ) -> list[TestQuestion]:
        """Does each question retrieve one of its sources in the baseline top-K? Flag or drop when not."""
        mode = self.options.round_trip
        if not items or mode == "off" or self._retriever() is None:
            return items
        kept = []
        for item, record in zip(items, self._target.run(items, self.options.round_trip_k), strict=True):
            if record.error is None:
                hit = bool({c.doc_id for c in record.contexts} & set(item.source_docs))
                assert item.metadata is not None
                item.metadata["round_trip"] = hit
                if not hit:
                    self.round_trip_misses += 1
                    if mode == "drop":
                        rejected[(category_name, "llm: round trip: no source retrieved")] += 1
                        gone = normalize(item.question)
                        self.validator.accepted = [a for a in self.validator.accepted if a[0] != gone]
                        continue
            kept.append(item)
        return kept

    def _retriever(self) -> Any:
        if self._target is None and self.options.kb is not None:
            factory = retriever_factory("baseline")
            if factory is None:
                self.notes.setdefault("round_trip", "skipped: no retriever installed (testgen.retrievers)")
                return None
            self._target = factory(self.options.kb, chunk_size=500, chunk_overlap=200, language=self.ctx.language)
        if self._target is None:
            self.notes.setdefault("round_trip", "skipped: no KB folder to retrieve from")
        return self._target

    def close(self) -> None:
        """Close the event loop (the stage makes no more calls)."""
        self._loop.close()

    def summary(self) -> dict[str, Any]:
        """Calls, failures and what the stage delivered, with the client's usage by stage. ``calls_per_item`` is
        the HTTP requests of every stage (retries, repair re-asks and graph enrichment included) per delivered
        item, what the run cost; ``client`` holds the client's settings and findings (structured-output mode)."""
        usage = self.llm.usage()
        requests = sum(u.requests for u in usage.values())
        client: dict[str, Any] = self.llm.run_info() if hasattr(self.llm, "run_info") else {}
        return {
            "model": self.llm.model,
            "prompt_version": PROMPT_VERSION,
            "calls": self.calls,
            "requests": requests,
            "failed_calls": self.failed,
            "delivered": self.delivered,
            "calls_per_item": round(requests / self.delivered, 3) if self.delivered else None,
            "client": client,
            "cost": format_cost(sum(u.cost for u in usage.values()), bool(client.get("priced", True))),
            "round_trip": self.options.round_trip,
            "round_trip_misses": self.round_trip_misses,
            "stopped": self.stopped,
            "notes": dict(self.notes),
            "usage": {name: u.model_dump() for name, u in usage.items()},
        }


def retriever_factory(name: str) -> Callable[..., Any] | None:
    """The retriever class registered under `name` in the ``testgen.retrievers`` entry points (the toolkit's
    evaluators register ``baseline``), or None: testgen finds it by name and never imports the evaluators."""
    found = entry_points(group="testgen.retrievers", name=name)
    return next(iter(found)).load() if found else None
