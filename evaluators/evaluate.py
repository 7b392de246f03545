"""Score a retrieval run against a test set: doc-level rank metrics, keyword coverage, per category.

Every question is accounted for: a question the run does not contain, or on which the target failed,
scores 0 and is counted under its status; a question without `source_docs` cannot be scored by rank metrics,
is left out of their means and counted as ``unscorable``. Means always say how many questions they cover.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from evaluators.metrics import (
    Metric,
    collapse_to_docs,
    context_precision_at_k,
    keyword_coverage,
    parse_metric,
    score_runs,
)
from evaluators.runfile import align
from evaluators.scales import ANSWER_COVERAGE, JUDGE_ORDER, is_generation_metric
from schemas import EvaluationSummary, MetricMean, QuestionResult, RunRecord, TestQuestion
from testgen.engine import Engine, LocalEngine


def default_metrics(k: int) -> list[Metric]:
    """The rank metrics every report shows, at cut-off k."""
    return [parse_metric(f"{name}@{k}") for name in ("MRR", "nDCG", "P", "R", "Hit", "MAP")]


@dataclass
class EvaluationOutcome:
    """Per-question results and the summary of one evaluation."""

    results: list[QuestionResult]
    summary: EvaluationSummary
    records: list[RunRecord | None]


#: Questions per scoring shard. A question's values do not depend on the others in its shard, and the curve means
#: are taken over the shards' values joined in question order, so every shard size gives the same numbers.
SCORE_SHARD = 2048


def score(
    questions: Sequence[TestQuestion],
    records: Sequence[RunRecord | None],
    *,
    k: int,
    dataset: str = "",
    target: dict[str, Any] | None = None,
    seconds: float = 0.0,
    engine: Engine | None = None,
) -> EvaluationOutcome:
    """Score aligned (question, run record) pairs; `records[i]` is None when the run lacks question i.

    `engine` scores shards of `SCORE_SHARD` questions where it runs work (default: this process)."""
    if not 1 <= k <= 50:
        raise ValueError(f"k must be between 1 and 50, got {k}")
    if len(questions) != len(records):
        raise ValueError("questions and records must be aligned (same length)")
    pairs = list(zip(questions, records, strict=True))
    shards = [pairs[start : start + SCORE_SHARD] for start in range(0, len(pairs), SCORE_SHARD)]
    parts = (engine or LocalEngine()).map(_score_shard, shards, shared=k)
    results = [result for part in parts for result in part.results]
    curve: dict[str, list[float]] = {"P": [], "R": []}
    if any(part.scored for part in parts):
        for j in range(1, k + 1):
            for name in ("P", "R"):
                values = np.concatenate([part.curve[f"{name}@{j}"] for part in parts])
                curve[name].append(float(values.mean()))
    summary = summarize(results, dataset=dataset, target=target or {}, k=k, curve=curve, seconds=seconds)
    return EvaluationOutcome(results, summary, list(records))


@dataclass
class _ScoredShard:
    results: list[QuestionResult]
    scored: int  # questions with source_docs, the rows of each curve array
    curve: dict[str, npt.NDArray[np.float64]]  # "P@j", "R@j" → one value per scored question, in order


def _score_shard(k: int, pairs: list[tuple[TestQuestion, RunRecord | None]]) -> _ScoredShard:
    """Per-question results of one shard, and its P@j and R@j values for the curve."""
    metrics = default_metrics(k)
    results: list[QuestionResult] = []
    qrels: dict[str, list[str]] = {}
    run: dict[str, list[str]] = {}
    for i, (question, record) in enumerate(pairs):
        status = "scored"
        error = None
        if record is None:
            status = "missing"
        elif record.error:
            status, error = "error", record.error
        contexts = record.contexts if record is not None and not record.error else []
        ranked = collapse_to_docs([c.doc_id for c in contexts])
        if not question.source_docs:
            status = "unscorable"
        result = QuestionResult(
            id=question.id,
            question=question.question,
            category=question.category,
            source_docs=list(question.source_docs),
            retrieved_docs=ranked[:k],
            status=status,
            error=error,
            answer=record.answer if record is not None else None,
        )
        if status != "unscorable":
            key = str(i)
            qrels[key] = list(question.source_docs)
            run[key] = ranked
            result.metrics[f"CtxPrecision@{k}"] = context_precision_at_k(ranked, question.source_docs, k)
        if question.keywords:
            texts = [c.text for c in contexts[:k]]
            result.metrics[f"Coverage@{k}"] = keyword_coverage(texts, question.keywords)
        results.append(result)

    curve_metrics = [parse_metric(f"{m}@{j}") for j in range(1, k + 1) for m in ("P", "R")]
    curve = {str(m): np.zeros(0, dtype=np.float64) for m in curve_metrics}
    if qrels:
        scored = score_runs(qrels, run, [*metrics, *curve_metrics])
        index = {qid: n for n, qid in enumerate(scored.query_ids)}
        for i, result in enumerate(results):
            row = index.get(str(i))
            if row is None:
                continue
            for metric in metrics:
                result.metrics[str(metric)] = float(scored.scores[str(metric)][row])
        curve = {str(m): scored.scores[str(m)] for m in curve_metrics}
    return _ScoredShard(results, len(qrels), curve)


def evaluate_target(
    questions: Sequence[TestQuestion],
    target: Any,
    *,
    k: int = 10,
    dataset: str = "",
    progress: Callable[[int, int], None] | None = None,
    engine: Engine | None = None,
) -> EvaluationOutcome:
    """Run a target (baseline, run file, callable, HTTP) on the questions and score what it returned
    (`engine`: see :func:`score`); the summary's ``seconds`` counts both."""
    started = time.perf_counter()
    produced: list[RunRecord] = target.run(list(questions), k, progress)
    records, _extra = align(list(questions), produced)
    outcome = score(questions, records, k=k, dataset=dataset, target=target.describe(), engine=engine)
    seconds = round(time.perf_counter() - started, 3)
    return EvaluationOutcome(outcome.results, outcome.summary.model_copy(update={"seconds": seconds}), outcome.records)


def summarize(
    results: list[QuestionResult],
    *,
    dataset: str,
    target: dict[str, Any],
    k: int,
    curve: dict[str, list[float]] | None = None,
    seconds: float = 0.0,
    **extra: Any,
) -> EvaluationSummary:
    """The summary of per-question results: counts, means with n (and unscored), per category."""
    return EvaluationSummary(
        dataset=dataset,
        target=target,
        k=k,
        questions=len(results),
        counts=_counts(results),
        overall=_means(results),
        by_category=_by_category(results),
        never_scored=_never_scored(results),
        curve=curve or {},
        seconds=round(seconds, 3),
        **extra,
    )


def metric_order(summary: EvaluationSummary) -> list[str]:
    """Retrieval metric names in report order: rank metrics, then context precision and coverage."""
    k = summary.k
    names = [str(m) for m in default_metrics(k)] + [f"CtxPrecision@{k}", f"Coverage@{k}"]
    return [n for n in names if n in summary.overall]


def generation_metric_order(summary: EvaluationSummary) -> list[str]:
    """Answer metric names in report order: keyword coverage of the answer, the judge's, then RAGAS's."""
    names = [n for n in summary.overall if is_generation_metric(n)]
    judge_rank = {f"judge_{n}": i for i, n in enumerate(JUDGE_ORDER)}
    return sorted(
        names, key=lambda n: (0 if n == ANSWER_COVERAGE else 1 if n in judge_rank else 2, judge_rank.get(n, 0), n)
    )


def _counts(results: list[QuestionResult]) -> dict[str, int]:
    counts = {"scored": 0, "missing": 0, "error": 0, "unscorable": 0}
    for result in results:
        counts[result.status] += 1
    return counts


def _means(results: list[QuestionResult]) -> dict[str, MetricMean]:
    sums: dict[str, float] = {}
    ns: dict[str, int] = {}
    unscored: dict[str, int] = {}
    for result in results:
        for name, value in result.metrics.items():
            sums[name] = sums.get(name, 0.0) + value
            ns[name] = ns.get(name, 0) + 1
        for name in result.unscored:
            unscored[name] = unscored.get(name, 0) + 1
    # A metric scored on no question has no mean: it is absent here and counted in `never_scored`.
    return {name: MetricMean(mean=sums[name] / ns[name], n=ns[name], unscored=unscored.get(name, 0)) for name in sums}


def _never_scored(results: list[QuestionResult]) -> dict[str, int]:
    scored = {name for r in results for name in r.metrics}
    counts: dict[str, int] = {}
    for r in results:
        for name in r.unscored:
            if name not in scored:
                counts[name] = counts.get(name, 0) + 1
    return counts


def _by_category(results: list[QuestionResult]) -> dict[str, dict[str, MetricMean]]:
    groups: dict[str, list[QuestionResult]] = {}
    for result in results:
        groups.setdefault(result.category, []).append(result)
    return {category: _means(group) for category, group in sorted(groups.items())}
