"""Offline test-set generation: quotas per category, drafts validated one by one, shortfalls explained."""

from __future__ import annotations

import hashlib
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import testgen.categories  # noqa: F401  (registers the built-in categories)
from schemas import CATEGORIES, TestQuestion
from testgen.categories._registry import get_category
from testgen.errors import OptionError
from testgen.kg.graph import KnowledgeGraph
from testgen.synth.context import GenContext
from testgen.validate import Validator

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
    """Parse ``direct_fact=0.4,temporal=0.2`` into shares that sum to 1 (unnamed categories get 0)."""
    if not text:
        return dict(DEFAULT_MIX)
    mix: dict[str, float] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        name, sep, value = part.partition("=")
        name = name.strip()
        if not sep or name not in CATEGORIES:
            raise OptionError(
                f"--mix: cannot read {part.strip()!r}; use name=share pairs with names from {', '.join(CATEGORIES)}"
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
    return {name: mix.get(name, 0.0) / total for name in CATEGORIES}


def quotas(num: int, mix: dict[str, float]) -> dict[str, int]:
    """Items per category: largest-remainder rounding of num × share (ties broken in category order)."""
    if num < 1:
        raise OptionError("--num must be at least 1")
    raw = {c: num * mix.get(c, 0.0) for c in CATEGORIES}
    counts = {c: int(v) for c, v in raw.items()}
    left = num - sum(counts.values())
    order = sorted(CATEGORIES, key=lambda c: (-(raw[c] - counts[c]), CATEGORIES.index(c)))
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
    drafts_seen: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    def counts(self) -> dict[str, int]:
        got = Counter(item.category for item in self.items)
        return {c: got.get(c, 0) for c in self.requested}


def item_id(question: str, source_docs: list[str]) -> str:
    """Stable id: hash of the question and its sources."""
    raw = question + "\x00" + "\x00".join(source_docs)
    return hashlib.sha256(raw.encode()).hexdigest()[:16]


def generate(
    kg: KnowledgeGraph,
    *,
    num: int = 50,
    mix: dict[str, float] | None = None,
    seed: int = 42,
    language: str | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> GenerationResult:
    """Generate `num` validated questions from a knowledge graph, offline."""
    started = time.perf_counter()
    report = progress or (lambda stage, done, total: None)
    wanted = quotas(num, mix or DEFAULT_MIX)
    ctx = GenContext.from_graph(kg, language=language)
    validator = Validator(ctx)
    result = GenerationResult(items=[], requested=wanted)
    done = 0
    for category_name in CATEGORIES:
        quota = wanted[category_name]
        if quota == 0:
            continue
        category = get_category(category_name)
        # One random stream per category, derived from the seed: changing one quota never reshuffles another.
        rng = random.Random(f"{seed}:{category_name}")
        accepted = 0
        seen = 0
        for draft in category.candidates(ctx, rng):
            seen += 1
            verdict = validator.validate(draft, category)
            if not verdict.ok:
                result.rejected[(category_name, verdict.reason or "rejected")] += 1
            else:
                metadata = {
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
                result.items.append(
                    TestQuestion(
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
                )
                accepted += 1
                done += 1
                report("generating questions", done, num)
                if accepted >= quota:
                    break
            if seen >= quota * MAX_DRAWS_PER_ITEM:
                break
        result.drafts_seen[category_name] = seen
        if accepted < quota:
            result.shortfall[category_name] = _why_short(category_name, accepted, quota, seen, result.rejected)
    result.seconds = time.perf_counter() - started
    return result


def _dedupe(keywords: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for k in keywords:
        if k and k not in seen:
            seen.add(k)
            out.append(k)
    return out


def _why_short(category: str, got: int, quota: int, seen: int, rejected: Counter[tuple[str, str]]) -> str:
    reasons = [(r, n) for (c, r), n in rejected.items() if c == category]
    reasons.sort(key=lambda x: (-x[1], x[0]))
    if seen == 0:
        why = "the knowledge graph has no material of this kind"
    elif seen >= quota * MAX_DRAWS_PER_ITEM:
        why = f"stopped after {seen} drafts"
    else:
        why = f"material ran out after {seen} drafts"
    if reasons:
        why += "; most rejections: " + ", ".join(f"{r} ({n})" for r, n in reasons[:3])
    return f"{got}/{quota}: {why}"
