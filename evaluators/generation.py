"""The answer side of a ``full_rag`` evaluation: answers, their keyword coverage, the judge, RAGAS metrics.

Per question: the answer is the target's own, or — for the built-in baseline — one written by the configured
model from the top-k retrieved contexts (offline: the best-matching retrieved sentence). Then, on the same
event loop and LLM client (so the disk cache, retries, rate limits and the cost cap apply to every call):

- ``answer_coverage``: the share of the question's keywords found in the answer (no model);
- the judge (``judge_*``): one bundled call per answer, or one call per score;
- the RAGAS metrics asked for (``ragas_*``), computed by RAGAS itself.

Nothing here writes NaN or 0 for a failure: a metric that could not be scored on a question is absent from its
``metrics`` and listed in its ``unscored`` with the reason, and every mean says how many questions it covers.
"""

from __future__ import annotations

import math
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

from evaluators.answer import agenerate_answer, answer_messages, extractive_answer
from evaluators.concurrency import run_until_stopped
from evaluators.judge import JudgeCase, ajudge, judge_calls_per_case
from evaluators.ragas_metrics import RAGAS_METRICS, RagasSample, ascore_ragas, plan_ragas_calls
from evaluators.scales import ANSWER_COVERAGE, JUDGE_ORDER, metric_range
from schemas import JudgeRecord, QuestionResult, RunRecord, TestQuestion
from testgen.llm import LLM, LLMBudgetExceeded
from testgen.llm.cost import estimate_prompt_tokens, request_ceiling
from testgen.llm.loop import EventLoop
from testgen.text import contains_keyword, normalize

T = TypeVar("T")
Progress = Callable[[str, int, int], None]

AnswerSource = Literal["target", "llm", "extractive", "none"]

JUDGE_PROMPT_OVERHEAD = 700
"""Tokens the judge's rubric adds to the question, answer, reference and contexts (for cost planning)."""
JUDGE_COMPLETION_TOKENS = 350
ANSWER_COMPLETION_TOKENS = 150
RAGAS_PROMPT_OVERHEAD = 900
"""RAGAS prompts carry instructions and few-shot examples: tokens added to the sample's own text."""
RAGAS_COMPLETION_TOKENS = 250
BUDGET_REASON = "not run: the --max-cost cap was reached"


@dataclass
class GenerationPlan:
    """LLM calls a full_rag run will make, and what they should cost (before any call)."""

    answer_calls: int = 0
    judge_calls: int = 0
    ragas_calls: int = 0
    estimated_cost: float = 0.0
    priced: bool = False
    """False when a model's price is unknown (a local model, or not in litellm's map): its cost is unknown."""
    max_requests: int = 0
    """Most HTTP requests the calls can take: every structured call's repair re-ask, every retry, mode probes."""
    warnings: list[str] = field(default_factory=list)
    """What the user should know before the run (a --max-cost cap that cannot act on an unpriced model)."""

    @property
    def calls(self) -> int:
        return self.answer_calls + self.judge_calls + self.ragas_calls

    def describe(self) -> str:
        cost = f"≈ ${self.estimated_cost:.4f}" if self.priced else "cost unknown (no price for this model)"
        text = (
            f"planned LLM calls: {self.calls} ({self.answer_calls} answer, {self.judge_calls} judge, "
            f"{self.ragas_calls} RAGAS; at most {self.max_requests} requests with retries and repair re-asks), {cost}"
        )
        return "\n".join([text, *(f"warning: {w}" for w in self.warnings)])


@dataclass
class GenerationConfig:
    """What the answer side does."""

    judge: Literal["bundled", "separate", "off"] = "bundled"
    ragas_metrics: list[str] = field(default_factory=list)
    concurrency: int = 8
    answer_source: AnswerSource = "target"
    """Where answers come from when the target gave none: "llm" / "extractive" for the baseline, else "none"."""


def _contexts(record: RunRecord | None, k: int) -> list[str]:
    if record is None or record.error:
        return []
    return [c.text for c in record.contexts[:k] if c.text]


def _answer_of(record: RunRecord | None) -> str | None:
    if record is None or record.error or not record.answer or not record.answer.strip():
        return None
    return record.answer


def plan_generation(
    questions: Sequence[TestQuestion],
    records: Sequence[RunRecord | None],
    *,
    k: int,
    config: GenerationConfig,
    llm: LLM | None,
    judge_llm: LLM | None = None,
) -> GenerationPlan:
    """Count the LLM calls of the answer side and estimate their cost from the real prompt sizes (answers at
    `llm`'s prices; the judge and RAGAS at `judge_llm`'s, when it is given)."""
    plan = GenerationPlan()
    judge = judge_llm if judge_llm is not None else llm
    if judge is None:  # no model at all: offline answers, no judge, no RAGAS calls
        return plan
    answer_tokens: list[int] = []
    sample_tokens: list[int] = []
    for question, record in zip(questions, records, strict=True):
        contexts = _contexts(record, k)
        messages = answer_messages(question.question, contexts, question.language)
        tokens = estimate_prompt_tokens(messages)
        sample_tokens.append(tokens)
        has_answer = _answer_of(record) is not None
        if not has_answer and record is not None and not record.error and config.answer_source != "none":
            if config.answer_source == "llm" and llm is not None:
                plan.answer_calls += 1
                answer_tokens.append(tokens)
                has_answer = True
            else:  # extractive: a sentence of the retrieved contexts, when there are any
                has_answer = bool(contexts)
        if has_answer and config.judge != "off" and judge is not None:
            plan.judge_calls += judge_calls_per_case(config.judge)
    llm_metrics = [n for n in config.ragas_metrics if RAGAS_METRICS[n].needs_llm]
    if judge is not None and llm_metrics:
        plan.ragas_calls = plan_ragas_calls(llm_metrics, len(questions), k)
    mean = sum(sample_tokens) / len(sample_tokens) if sample_tokens else 0.0
    answer_mean = sum(answer_tokens) / len(answer_tokens) if answer_tokens else 0.0
    answer_prices = getattr(llm, "prices", None)
    judge_prices = getattr(judge, "prices", None)
    priced = [
        p
        for p, used in ((answer_prices, plan.answer_calls), (judge_prices, plan.judge_calls + plan.ragas_calls))
        if used and p is not None
    ]
    if answer_prices is not None:
        plan.estimated_cost += plan.answer_calls * answer_prices.cost(int(answer_mean), ANSWER_COMPLETION_TOKENS)
    if judge_prices is not None:
        plan.estimated_cost += plan.judge_calls * judge_prices.cost(
            int(mean) + JUDGE_PROMPT_OVERHEAD, JUDGE_COMPLETION_TOKENS
        ) + plan.ragas_calls * judge_prices.cost(int(mean) + RAGAS_PROMPT_OVERHEAD, RAGAS_COMPLETION_TOKENS)
    plan.priced = bool(priced) and all(getattr(p, "known", p.prompt > 0 or p.completion > 0) for p in priced)
    answer_retries, judge_retries = _max_retries(llm), _max_retries(judge)
    plan.max_requests = request_ceiling(plan.answer_calls, answer_retries, structured=False) + request_ceiling(
        plan.judge_calls + plan.ragas_calls, judge_retries
    )
    clients = [c for c in dict.fromkeys(c for c in (llm, judge_llm) if c is not None)]
    plan.warnings = [w for w in (getattr(c, "cap_warning", lambda: None)() for c in clients) if w]
    return plan


def _max_retries(llm: LLM | None) -> int:
    return int(getattr(getattr(llm, "settings", None), "max_retries", 0) or 0)


def answer_coverage(answer: str, keywords: Sequence[str]) -> float:
    """Share of `keywords` found in `answer` (NFKC, case-folded, whitespace-collapsed, as keyword coverage)."""
    norm = normalize(answer)
    return sum(1 for kw in keywords if contains_keyword(norm, kw)) / len(keywords)


@dataclass
class _Budget:
    """Set when a call hit the --max-cost cap: the calls after it are not made."""

    reached: bool = False


async def _bounded(
    items: Sequence[Callable[[], Awaitable[T]]], limit: int, tick: Callable[[], None], budget: _Budget
) -> list[T | None]:
    """Run the calls, at most `limit` at once; a call refused by the cost cap (and every later one, in this stage
    and the next) gives None, so the work finished before the cap is kept."""
    if budget.reached:
        return [None] * len(items)
    results, stopped = await run_until_stopped(items, limit, lambda _done, _total: tick())
    budget.reached = stopped is not None
    return results


class _Stage:
    """Progress of one stage: ``progress(name, done, total)`` after every item."""

    def __init__(self, name: str, total: int, progress: Progress | None) -> None:
        self.name, self.total, self.done, self.progress = name, total, 0, progress
        if progress is not None and total:
            progress(name, 0, total)

    def tick(self) -> None:
        self.done += 1
        if self.progress is not None:
            self.progress(self.name, self.done, self.total)


def score_generation(
    questions: Sequence[TestQuestion],
    records: list[RunRecord | None],
    results: list[QuestionResult],
    *,
    k: int,
    config: GenerationConfig,
    llm: LLM | None,
    embedder: Any = None,
    progress: Progress | None = None,
    loop: EventLoop | None = None,
    judge_llm: LLM | None = None,
) -> list[str]:
    """Answer, then score the answers, in place on `results` (and `records`, whose answers are filled in).

    `llm` writes the baseline's answers; `judge_llm` (default: `llm`) judges them and runs the RAGAS metrics.

    Returns notes for the summary (stages skipped and why). `LLMBudgetExceeded` does not escape: the stage it
    interrupts and the later ones leave their questions unscored with the reason.
    """
    own_loop = loop is None
    loop = loop or EventLoop()
    try:
        judge = judge_llm if judge_llm is not None else llm
        return _score(questions, records, results, k, config, llm, judge, embedder, progress, loop)
    finally:
        if own_loop:
            loop.close()


def _score(
    questions: Sequence[TestQuestion],
    records: list[RunRecord | None],
    results: list[QuestionResult],
    k: int,
    config: GenerationConfig,
    llm: LLM | None,
    judge: LLM | None,
    embedder: Any,
    progress: Progress | None,
    loop: EventLoop,
) -> list[str]:
    notes: list[str] = []
    budget = _Budget()
    for question, result in zip(questions, results, strict=True):
        result.reference_answer = question.reference_answer

    # 1. Answers.
    missing_reason: dict[int, str] = {}
    to_generate: list[int] = []
    for i, record in enumerate(records):
        answer = _answer_of(record)
        if answer is not None:
            results[i].answer = answer
        elif record is None:
            missing_reason[i] = "no answer: the question is not in the run"
        elif record.error:
            missing_reason[i] = "no answer: the target failed on this question"
        elif config.answer_source == "none":
            missing_reason[i] = "no answer: the target returned none (return {'contexts': ..., 'answer': ...})"
        else:
            to_generate.append(i)
    if to_generate and config.answer_source == "extractive":
        for i in to_generate:
            text = extractive_answer(questions[i].question, _contexts(records[i], k), questions[i].language)
            _set_answer(i, text, records, results, missing_reason, "no answer: nothing was retrieved")
        notes.append("answers are extractive (the best-matching retrieved sentence): no model was configured")
    elif to_generate:
        assert llm is not None
        stage = _Stage("answering", len(to_generate), progress)
        calls = [
            _answer_call(llm, questions[i].question, _contexts(records[i], k), questions[i].language)
            for i in to_generate
        ]
        answers = loop.run(_bounded(calls, config.concurrency, stage.tick, budget))
        if budget.reached:
            notes.append("the --max-cost cap was reached while answering: later LLM stages did not run")
        for i, answered in zip(to_generate, answers, strict=True):
            text, error = answered if answered is not None else (None, BUDGET_REASON)
            _set_answer(i, text, records, results, missing_reason, f"no answer: {error}" if error else "")

    # 2. Keyword coverage of the answer (no model).
    for i, (question, result) in enumerate(zip(questions, results, strict=True)):
        if not question.keywords:
            continue
        if result.answer:
            result.metrics[ANSWER_COVERAGE] = answer_coverage(result.answer, question.keywords)
        else:
            result.unscored[ANSWER_COVERAGE] = missing_reason.get(i, "no answer")

    # 3. The judge.
    if config.judge != "off" and judge is None:
        notes.append("the judge did not run: no model configured (--llm or --judge-llm MODEL; llm in an API run)")
    elif config.judge != "off" and judge is not None:
        judged = [i for i, r in enumerate(results) if r.answer]
        for i, r in enumerate(results):
            if not r.answer:
                for name in JUDGE_ORDER:
                    r.unscored[f"judge_{name}"] = missing_reason.get(i, "no answer")
        stage = _Stage("judging", len(judged), progress)
        cases = [_judge_call(judge, _case(questions[i], results[i], records[i], k), config) for i in judged]
        was_reached = budget.reached
        verdicts = loop.run(_bounded(cases, config.concurrency, stage.tick, budget))
        if budget.reached and not was_reached:
            notes.append("the --max-cost cap was reached while judging: unjudged answers are unscored")
        for i, verdict in zip(judged, verdicts, strict=True):
            _apply_judge(results[i], verdict or JudgeRecord(mode=config.judge, error=BUDGET_REASON))

    # 4. RAGAS metrics.
    if config.ragas_metrics:
        samples = [_sample(q, r, rec, k) for q, r, rec in zip(questions, results, records, strict=True)]

        def ragas_progress(done: int, total: int) -> None:
            if progress is not None:
                progress("ragas", done, total)

        scores: dict[str, list[Any]] | None = None
        if not budget.reached:
            try:
                scores = loop.run(
                    ascore_ragas(
                        samples,
                        config.ragas_metrics,
                        llm=judge,
                        embedder=embedder,
                        concurrency=config.concurrency,
                        progress=ragas_progress,
                    )
                )
            except LLMBudgetExceeded:
                notes.append("the --max-cost cap was reached during the RAGAS metrics: they are unscored")
        for name in config.ragas_metrics:
            result_name = RAGAS_METRICS[name].result_name
            for i, result in enumerate(results):
                if scores is None:
                    result.unscored[result_name] = BUDGET_REASON
                    continue
                item = scores[result_name][i]
                if item.value is None or not math.isfinite(item.value):
                    result.unscored[result_name] = item.reason or "RAGAS gave no score"
                else:
                    result.metrics[result_name] = float(item.value)
                    if item.note:
                        result.notes[result_name] = item.note
    return notes


def _set_answer(
    i: int,
    text: str | None,
    records: list[RunRecord | None],
    results: list[QuestionResult],
    missing_reason: dict[int, str],
    reason: str,
) -> None:
    if text and text.strip():
        results[i].answer = text
        record = records[i]
        if record is not None:
            record.answer = text
    else:
        missing_reason[i] = reason or "no answer"


async def _answer_call_impl(
    llm: LLM, question: str, contexts: list[str], language: str | None
) -> tuple[str | None, str | None]:
    return await agenerate_answer(question, contexts, llm, language=language)


def _answer_call(
    llm: LLM, question: str, contexts: list[str], language: str | None
) -> Callable[[], Awaitable[tuple[str | None, str | None]]]:
    return lambda: _answer_call_impl(llm, question, contexts, language)


def _judge_call(llm: LLM, case: JudgeCase, config: GenerationConfig) -> Callable[[], Awaitable[JudgeRecord]]:
    mode: Literal["bundled", "separate"] = "separate" if config.judge == "separate" else "bundled"
    return lambda: ajudge(case, llm, mode=mode)


def _case(question: TestQuestion, result: QuestionResult, record: RunRecord | None, k: int) -> JudgeCase:
    return JudgeCase(
        question=question.question,
        answer=result.answer,
        reference_answer=question.reference_answer,
        keywords=list(question.keywords),
        contexts=_contexts(record, k),
        language=question.language,
    )


def _apply_judge(result: QuestionResult, record: JudgeRecord) -> None:
    """The judge's scores into the result's metrics; a missing score gets its own reason from the record (in
    separate mode, that score's failed call or "judge gave no <name>"), the record's error only when it has none
    (a bundled call that failed, the cost cap)."""
    result.judge = record
    for name in JUDGE_ORDER:
        metric = f"judge_{name}"
        value = record.scores.get(name)
        if value is None or not math.isfinite(value):
            result.unscored[metric] = record.reasons.get(name) or record.error or f"the judge gave no {name}"
            continue
        low, high = metric_range(metric)
        result.metrics[metric] = min(max(float(value), low), high)
        if name in record.notes:
            result.notes[metric] = record.notes[name]


def _sample(question: TestQuestion, result: QuestionResult, record: RunRecord | None, k: int) -> RagasSample:
    contexts = record.contexts[:k] if record is not None and not record.error else []
    return RagasSample(
        user_input=question.question,
        response=result.answer,
        retrieved_contexts=[c.text for c in contexts],
        retrieved_context_ids=[c.doc_id for c in contexts],
        reference=question.reference_answer,
        reference_contexts=list(question.reference_contexts or []),
        reference_context_ids=list(question.source_docs),
    )
