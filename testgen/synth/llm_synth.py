"""LLM-quality questions: each offline draft (the seed) is rewritten by ONE structured call, then checked.

The seed fixes everything that can be checked: the category, the facts and their evidence, the answer spans,
the named entities and any derived number or winner. The model only phrases the question, the full-sentence
answer and the keywords, and reviews its own item in the same call (critic fields). Every reply then passes
the deterministic checks (critic, language, the fixed result, then the offline `Validator`: grounding,
closure, leak, dedup, post-condition) and an optional round trip through the baseline BM25 retriever; the
batching, checking and accounting of a whole run live in `testgen.synth.llm_stage`.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, Field

from testgen.categories._registry import get_category
from testgen.errors import OptionError
from testgen.lang.detect import detect_language, script_counts
from testgen.llm._types import (
    LLM,
    Completion,
    LLMBadResponse,
    LLMCallError,
    LLMConnectionFailed,
    LLMRateLimited,
    LLMTimeout,
)
from testgen.llm.parsing import ReplyParseError, parse_reply, with_json_instruction
from testgen.synth.draft import Draft
from testgen.synth.prompts import PROMPT_VERSION, STYLES, build_messages, expected_result
from testgen.text import contains_keyword, normalize

GENERATOR_LLM = "testgen-llm"
STAGE = "generation"
RoundTrip = Literal["drop", "flag", "off"]
Seeds = Literal["mixed", "passages", "facts"]
Fallback = Literal["none", "offline"]


class Persona(BaseModel):
    """Who asks: a name and a one-line description of their role and what they care about."""

    name: str
    description: str = ""


class LLMReply(BaseModel):
    """The structured reply of one rewrite call: the item, then the model's own review of it."""

    question: str = Field(description="The test question, in the requested language and style.")
    reference_answer: str = Field(description="One full sentence stating the fixed result verbatim.")
    keywords: list[str] = Field(description="Short spans copied character for character from the evidence.")
    stated_result: str = Field(description="The value, number, count or winner the answer states.")
    answerable_from_sources: bool = Field(description="The evidence alone answers the question.")
    answer_supported: bool = Field(description="Every claim of the reference answer is in the evidence.")
    needs_all_documents: bool = Field(description="Answering needs evidence from more than one document.")
    issues: str = Field(default="", description="Problems the model saw, or empty.")


@dataclass
class LLMOptions:
    """How the LLM stage runs: concurrency, round-trip check, personas and query styles, safety caps."""

    concurrency: int = 8
    round_trip: RoundTrip = "flag"
    round_trip_k: int = 10
    kb: Path | None = None  # the KB folder the round-trip retriever indexes (set by the pipeline)
    round_trip_target: Any = None  # a prebuilt evaluators Target, instead of the baseline over `kb`
    personas: list[Persona] | None = None
    styles: dict[str, float] | None = None
    max_tokens: int | None = 800
    temperature: float | None = None
    max_calls_per_item: float = 4.0  # per category and draw: stop after quota × this many calls
    max_consecutive_failures: int = 20
    seeds: Seeds = "mixed"  # what questions are written from: mined facts, passages, or both (facts first)
    types: dict[str, float] | None = None  # question-type shares (testgen.synth.types); None: the default mix
    max_overlap: float | None = 0.75  # question–evidence overlap above which a passage question is rephrased
    fallback: Fallback = "none"  # "offline": make up what the model did not deliver with offline items
    first_replies: int = 6  # replies judged before a run whose replies are all unusable is stopped (0: never)
    first_seconds: float | None = 300.0  # ... or seconds without one usable reply (None: no time limit)


def parse_styles(text: str | None) -> dict[str, float] | None:
    """``plain=0.7,web=0.2,misspelled=0.1`` → weights (None for an empty option)."""
    if not text:
        return None
    weights: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, value = part.partition("=")
        name = name.strip()
        if name not in STYLES:
            raise OptionError(f"--style: unknown style {name!r} (use {', '.join(STYLES)})")
        try:
            weights[name] = float(value) if sep else 1.0
        except ValueError:
            raise OptionError(f"--style: weight for {name} is not a number: {value!r}") from None
        if weights[name] < 0:
            raise OptionError(f"--style: weight for {name} must not be negative")
    if sum(weights.values()) <= 0:
        raise OptionError("--style: at least one weight must be positive")
    return weights


def load_personas(path: str | Path) -> list[Persona]:
    """Personas from a YAML or JSON file: a list of ``{name, description}`` (or of plain strings)."""
    try:
        raw = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise OptionError(f"--personas: cannot read {path}: {exc}") from None
    if isinstance(raw, dict):
        raw = raw.get("personas", raw)
    if not isinstance(raw, list) or not raw:
        raise OptionError(f"--personas: {path} must hold a non-empty list of {{name, description}} entries")
    try:
        return [Persona(name=p, description=p) if isinstance(p, str) else Persona.model_validate(p) for p in raw]
    except ValueError as exc:
        raise OptionError(f"--personas: {path}: {exc}") from None


@dataclass
class Rewrite:
    """One finished call: the seed, the rewritten draft and everything its metadata records."""

    seed: Draft
    draft: Draft
    reply: LLMReply
    persona: Persona | None
    style: str
    model: str
    text: str = ""  # the raw reply

    def metadata(self) -> dict[str, Any]:
        """What the item's metadata adds on the LLM path."""
        return {
            "generator": GENERATOR_LLM,
            "model": self.model,
            "prompt_version": PROMPT_VERSION,
            "persona": self.persona.name if self.persona else None,
            "style": self.style,
            "seed_question": self.seed.question,
            "critic": {
                "answerable_from_sources": self.reply.answerable_from_sources,
                "answer_supported": self.reply.answer_supported,
                "needs_all_documents": self.reply.needs_all_documents,
                "issues": self.reply.issues,
            },
        }


class LLMRewriter:
    """Turns an offline draft into an improved one with one structured call; persona and style are drawn
    deterministically from the seed draft, so a rerun (and the LLM cache) sees the same prompt."""

    def __init__(
        self,
        llm: LLM,
        *,
        personas: list[Persona] | None = None,
        styles: dict[str, float] | None = None,
        seed: int = 42,
        max_tokens: int | None = 800,
        temperature: float | None = None,
    ) -> None:
        self.llm = llm
        self.personas = list(personas or [])
        self.styles = {k: v for k, v in (styles or {"plain": 1.0}).items() if v > 0}
        self.seed = seed
        self.max_tokens, self.temperature = max_tokens, temperature

    def choose(self, seed: Draft) -> tuple[Persona | None, str]:
        """The persona and query style for this seed (seeded by the run seed and the seed question)."""
        return choose_voice(seed, self.personas, self.styles, self.seed)

    def messages(self, seed: Draft) -> list[dict[str, str]]:
        """The prompt for this seed."""
        return seed_messages(seed, self.personas, self.styles, self.seed)

    async def rewrite(self, seed: Draft) -> Rewrite:
        """One call; raises the LLM layer's errors (`LLMCallError`, `LLMBudgetExceeded`) unchanged."""
        persona, style = self.choose(seed)
        completion = await self.llm.acomplete(
            self.messages(seed),
            stage=STAGE,
            response_model=LLMReply,
            temperature=self.temperature,
            max_tokens=self.max_tokens,
        )
        reply = _reply(completion)
        draft = replace(
            seed,
            question=reply.question.strip(),
            reference_answer=reply.reference_answer.strip(),
            keywords=[k.strip() for k in reply.keywords if k.strip()],
            flags=[f for f in seed.flags if not f.startswith(("language_fallback", "phrasing:"))],
        )
        return Rewrite(seed, draft, reply, persona, style, completion.model or self.llm.model, completion.text)


def choose_voice(
    seed: Draft, personas: list[Persona], styles: dict[str, float], run_seed: int
) -> tuple[Persona | None, str]:
    """Persona and query style for a seed, drawn from the run seed and the seed question (stable on rerun)."""
    rng = random.Random(f"{run_seed}:{seed.category}:{seed.question}")
    persona = rng.choice(personas) if personas else None
    style = rng.choices(list(styles), weights=list(styles.values()))[0] if styles else "plain"
    return persona, style


def seed_messages(
    seed: Draft, personas: list[Persona], styles: dict[str, float], run_seed: int
) -> list[dict[str, str]]:
    """The rewrite prompt for a seed, with its persona and style."""
    persona, style = choose_voice(seed, personas, styles, run_seed)
    text = f"{persona.name}: {persona.description}" if persona else None
    return build_messages(seed, description=_description(seed.category), persona=text, style=style)


def _description(category: str) -> str:
    try:
        return get_category(category).description
    except KeyError:
        return category


def _reply(completion: Completion) -> LLMReply:
    if isinstance(completion.parsed, LLMReply):
        return completion.parsed
    try:
        if completion.parsed is not None:
            return LLMReply.model_validate(completion.parsed.model_dump())
        parsed = parse_reply(completion.text, LLMReply)
    except (ReplyParseError, ValueError) as exc:
        raise LLMBadResponse(f"unusable reply: {exc}") from None
    assert isinstance(parsed, LLMReply)
    return parsed


def in_language(text: str, language: str) -> bool:
    """Whether `text` is written in `language`, judged by script (ko, ja, zh, en; others are not checked)."""
    counts = script_counts(text)
    if language == "ko":
        return counts["hangul"] > 0
    if language == "ja":
        return counts["kana"] > 0
    if language == "zh":
        return counts["han"] > 0 and counts["hangul"] == 0 and counts["kana"] == 0
    if language == "en":
        return detect_language(text) == "en"
    return True


def reply_problem(rewrite: Rewrite) -> str | None:
    """The first LLM-specific check a rewrite fails (critic, language, the fixed result), or None."""
    reply, seed = rewrite.reply, rewrite.seed
    if not reply.answerable_from_sources:
        return "critic: not answerable from the sources"
    if not reply.answer_supported:
        return "critic: answer not supported"
    if seed.category == "spanning" and not reply.needs_all_documents:
        return "critic: does not need all documents"
    if not (in_language(reply.question, seed.language) and in_language(reply.reference_answer, seed.language)):
        return "wrong language"
    expected = expected_result(seed)
    if expected is None:
        return None
    kind, text = expected
    label = "winner" if kind == "winner" else "result"
    stated = normalize(reply.stated_result)
    if not stated or not (stated == normalize(text) or contains_keyword(stated, text)):
        return f"wrong {label}"
    answer = normalize(reply.reference_answer)
    if not contains_keyword(answer, text):
        return "answer does not name the winner" if kind == "winner" else "answer does not state the result"
    if seed.category == "comparative":
        found = [answer.find(normalize(n)) for n in seed.named_entities if normalize(n) in answer]
        if answer.find(normalize(text)) > min(found, default=0):
            return "answer does not lead with the winner"
    return None


_FAILURES: tuple[tuple[type[LLMCallError], str], ...] = (
    (LLMTimeout, "timeout"),
    (LLMRateLimited, "rate limited"),
    (LLMConnectionFailed, "connection failed"),
    (LLMBadResponse, "unusable reply"),
)


def call_failure(exc: LLMCallError) -> str:
    """A short reason for a failed call, by kind, so the counts aggregate (the message varies per call)."""
    return next((name for kind, name in _FAILURES if isinstance(exc, kind)), "call error")


#: Completion tokens a rewrite reply takes (a JSON object with a question, a sentence, keywords, a review).
COMPLETION_TOKENS = 250
#: ... and a passage reply (the same, plus the quoted evidence sentences).
PASSAGE_COMPLETION_TOKENS = 350
#: A rephrase call: the question and its evidence in, one question out.
REPHRASE_TOKENS = (220, 40)
#: Share of passage questions expected to copy their evidence and be rephrased once.
EXPECTED_REPHRASE = 0.25


def _token_counts(prompts: list[list[dict[str, str]]], model: str) -> tuple[list[int], Any]:
    """Estimated prompt tokens of each prompt, and the model's prices (None when unknown)."""
    try:
        from testgen.llm.cost import estimate_prompt_tokens, resolve_prices

        return [estimate_prompt_tokens(m) for m in prompts], resolve_prices(model)
    except Exception:  # no client installed yet, or litellm missing: tokens by a rough rule, price unknown
        return [sum(len(m["content"].encode()) for m in p) // 3 + 1 for p in prompts], None


def estimate_plan(
    seeds: list[Draft],
    num: int,
    *,
    model: str,
    options: LLMOptions,
    seed: int = 42,
    expected_rejection: float = 0.25,
    passage_prompts: list[list[dict[str, str]]] | None = None,
    passage_share: float = 0.0,
) -> dict[str, Any]:
    """What an LLM run of `num` questions should cost: calls ≈ num × (1 + rejection rate), tokens per call
    from real prompts — of fact `seeds` and, for the `passage_share` of the calls written from passages, of
    `passage_prompts` — plus a rephrase call for `EXPECTED_REPHRASE` of the passage questions; prices from the
    client's price table when it knows them."""
    styles, personas = options.styles or {"plain": 1.0}, list(options.personas or [])
    # as sent: the JSON instruction (with the reply's schema) is part of the prompt unless json_schema mode is used
    prompts = [with_json_instruction(seed_messages(s, personas, styles, seed), LLMReply) for s in seeds]
    fact_tokens, prices = _token_counts(prompts, model)
    passage_tokens, _ = _token_counts(passage_prompts or [], model)
    share = passage_share if passage_tokens else 0.0
    if not fact_tokens and passage_tokens:
        share = 1.0
    fact_mean = sum(fact_tokens) / len(fact_tokens) if fact_tokens else 0.0
    passage_mean = sum(passage_tokens) / len(passage_tokens) if passage_tokens else 0.0
    prompt_tokens = math.ceil((1 - share) * fact_mean + share * passage_mean)
    completion = math.ceil((1 - share) * COMPLETION_TOKENS + share * PASSAGE_COMPLETION_TOKENS)
    calls = math.ceil(num * (1 + expected_rejection))
    rephrases = math.ceil(num * share * EXPECTED_REPHRASE) if options.max_overlap is not None else 0
    tokens_in = prompt_tokens * calls + REPHRASE_TOKENS[0] * rephrases
    tokens_out = completion * calls + REPHRASE_TOKENS[1] * rephrases
    cost = prices.cost(tokens_in, tokens_out) if prices is not None else None
    return {
        "model": model,
        "prompt_version": PROMPT_VERSION,
        "questions": num,
        "graph_calls": 0,
        "expected_rejection_rate": expected_rejection,
        "expected_calls": calls,
        "expected_rephrase_calls": rephrases,
        "max_calls": math.ceil(num * options.max_calls_per_item),
        "prompt_tokens_per_call": prompt_tokens,
        "completion_tokens_per_call": completion,
        "passage_share": round(share, 3),
        "estimated_tokens": tokens_in + tokens_out,
        "estimated_cost_usd": round(cost, 4) if cost is not None else None,
        "seeds_sampled": len(seeds),
        "passages_sampled": len(passage_tokens),
    }
