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
from collections.abc import Awaitable, Callable, Mapping, Sequence
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
        run = _Run(questions, records, results, k=k, config=config, progress=progress, loop=loop)
        return _score(run, llm=llm, judge=judge, embedder=embedder)
    finally:
        if own_loop:
            loop.close()


@dataclass
class _Run:
    """One pass of the answer side: what every stage reads, and the results (and records) it fills in place."""

    questions: Sequence[TestQuestion]
    records: list[RunRecord | None]
    results: list[QuestionResult]
    k: int
    config: GenerationConfig
    progress: Progress | None
    loop: EventLoop
    budget: _Budget = field(default_factory=_Budget)

    def contexts(self, i: int) -> list[str]:
        return _contexts(self.records[i], self.k)


Written = tuple[str | None, str]
"""An answer written for a question, or None with the reason there is none."""


def _score(run: _Run, *, llm: LLM | None, judge: LLM | None, embedder: Any) -> list[str]:
    """The four stages in order: answers, their keyword coverage, the judge, the RAGAS metrics; their notes."""
    for question, result in zip(run.questions, run.results, strict=True):
        result.reference_answer = question.reference_answer
    missing, notes = _answer(run, llm)
    _score_coverage(run, missing)
    notes += _judge_answers(run, judge, missing)
    notes += _score_ragas(run, judge, embedder)
    return notes


def _answer(run: _Run, llm: LLM | None) -> tuple[dict[int, str], list[str]]:
    """Every question's answer (the target's, or one written here) into its result and record.

    Returns why each unanswered question (by index) has no answer, and the notes of the stage."""
    missing, to_write = _target_answers(run)
    if not to_write:
        return missing, []
    if run.config.answer_source == "extractive":
        written, notes = _extractive_answers(run, to_write)
    else:
        assert llm is not None
        written, notes = _llm_answers(run, llm, to_write)
    for i, (text, reason) in zip(to_write, written, strict=True):
        if text and text.strip():
            run.results[i].answer = text
            record = run.records[i]
            if record is not None:
                record.answer = text
        else:
            missing[i] = reason or "no answer"
    return missing, notes


def _target_answers(run: _Run) -> tuple[dict[int, str], list[int]]:
    """The target's own answers into the results; returns why a question has none (by index), and the questions
    whose answer is to be written here."""
    missing: dict[int, str] = {}
    to_write: list[int] = []
    for i, record in enumerate(run.records):
        answer = _answer_of(record)
        if answer is not None:
            run.results[i].answer = answer
        elif record is None:
            missing[i] = "no answer: the question is not in the run"
        elif record.error:
            missing[i] = "no answer: the target failed on this question"
        elif run.config.answer_source == "none":
            missing[i] = "no answer: the target returned none (return {'contexts': ..., 'answer': ...})"
        else:
            to_write.append(i)
    return missing, to_write


def _extractive_answers(run: _Run, to_write: Sequence[int]) -> tuple[list[Written], list[str]]:
    """The best-matching retrieved sentence of each question in `to_write`."""
    written: list[Written] = [
        (
            extractive_answer(run.questions[i].question, run.contexts(i), run.questions[i].language),
            "no answer: nothing was retrieved",
        )
        for i in to_write
    ]
    return written, ["answers are extractive (the best-matching retrieved sentence): no model was configured"]


def _llm_answers(run: _Run, llm: LLM, to_write: Sequence[int]) -> tuple[list[Written], list[str]]:
    """`llm`'s answer to each question in `to_write` from its retrieved contexts (stopped by the cost cap)."""
    stage = _Stage("answering", len(to_write), run.progress)
    calls = [_answer_call(llm, run.questions[i].question, run.contexts(i), run.questions[i].language) for i in to_write]
    answers = run.loop.run(_bounded(calls, run.config.concurrency, stage.tick, run.budget))
    notes = []
    if run.budget.reached:
        notes.append("the --max-cost cap was reached while answering: later LLM stages did not run")
    written: list[Written] = []
    for answered in answers:
        text, error = answered if answered is not None else (None, BUDGET_REASON)
        written.append((text, f"no answer: {error}" if error else ""))
    return written, notes


def _score_coverage(run: _Run, missing: Mapping[int, str]) -> None:
    """Keyword coverage of each answer (no model); a question without an answer is unscored with its reason."""
    for i, (question, result) in enumerate(zip(run.questions, run.results, strict=True)):
        if not question.keywords:
            continue
        if result.answer:
            result.metrics[ANSWER_COVERAGE] = answer_coverage(result.answer, question.keywords)
        else:
            result.unscored[ANSWER_COVERAGE] = missing.get(i, "no answer")


def _judge_answers(run: _Run, judge: LLM | None, missing: Mapping[int, str]) -> list[str]:
    """The judge's scores of every answer (unless the judge is off); returns the stage's notes."""
    config, results = run.config, run.results
    if config.judge == "off":
        return []
    if judge is None:
        return ["the judge did not run: no model configured (--llm or --judge-llm MODEL; llm in an API run)"]
    judged = [i for i, r in enumerate(results) if r.answer]
    for i, r in enumerate(results):
        if not r.answer:
            for name in JUDGE_ORDER:
                r.unscored[f"judge_{name}"] = missing.get(i, "no answer")
    stage = _Stage("judging", len(judged), run.progress)
    cases = [_judge_call(judge, _case(run.questions[i], results[i], run.records[i], run.k), config) for i in judged]
    was_reached = run.budget.reached
    verdicts = run.loop.run(_bounded(cases, config.concurrency, stage.tick, run.budget))
    notes = []
    if run.budget.reached and not was_reached:
        notes.append("the --max-cost cap was reached while judging: unjudged answers are unscored")
    for i, verdict in zip(judged, verdicts, strict=True):
        _apply_judge(results[i], verdict or JudgeRecord(mode=config.judge, error=BUDGET_REASON))
    return notes


def _score_ragas(run: _Run, judge: LLM | None, embedder: Any) -> list[str]:
    """The RAGAS metrics asked for, by RAGAS itself, into each result (a failed one unscored with its reason);
    returns the stage's notes."""
    config = run.config
    if not config.ragas_metrics:
        return []
    samples = [_sample(q, r, rec, run.k) for q, r, rec in zip(run.questions, run.results, run.records, strict=True)]
    progress = run.progress

    def ragas_progress(done: int, total: int) -> None:
        if progress is not None:
            progress("ragas", done, total)

    notes = []
    scores: dict[str, list[Any]] | None = None
    if not run.budget.reached:
        try:
            scores = run.loop.run(
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
        for i, result in enumerate(run.results):
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
