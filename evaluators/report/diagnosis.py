"""Named patterns of a full_rag run, per category, each with the next step to take.

Two readings of the means:

- faithfulness × answer relevancy (is the answer grounded in what was retrieved? does it answer the question?);
- retrieval × generation (were the needed documents retrieved? was the answer right?).

Faithfulness and relevancy come from the judge when it ran, else from RAGAS. Retrieval quality is recall at k
(the answer needs every source document); answer quality is the judge's accuracy rescaled to 0–1, else RAGAS
factual correctness, else the answer's keyword coverage.
"""

from __future__ import annotations

from dataclasses import dataclass

from evaluators.report.bands import GOOD
from schemas import EvaluationSummary, MetricMean

HIGH = 0.6
"""A 0–1 answer score at or above this is 'high' (the lower edge of the 'good' band)."""

FAITHFULNESS = ("judge_faithfulness", "ragas_faithfulness")
RELEVANCY = ("judge_answer_relevancy", "ragas_answer_relevancy")
CORRECTNESS = ("judge_accuracy", "ragas_factual_correctness", "answer_coverage")

PATTERNS = {
    (True, True): ("grounded and on point", "healthy: add harder questions or compare a cheaper model"),
    (True, False): (
        "grounded but off the question",
        "the answers follow the contexts but miss what was asked: make the prompt answer the question directly, "
        "and check that retrieval is not returning related-but-wrong passages",
    ),
    (False, True): (
        "on point but not grounded (possible hallucination)",
        "the answers address the question with claims the contexts do not support: tighten the grounding "
        "instruction, lower the temperature, ask for citations, or retrieve more context",
    ),
    (False, False): (
        "neither grounded nor on point",
        "fix retrieval first (see the retrieval panel), then the answer prompt",
    ),
}

MATRIX = {
    (True, True): ("retrieval good, answers good", "healthy"),
    (True, False): (
        "retrieval good, answers poor",
        "the generator: the right documents arrive but the answers are wrong or incomplete; work on the prompt or "
        "the model",
    ),
    (False, True): (
        "retrieval poor, answers good",
        "answers are right without the documents: the model may answer from its own knowledge; check "
        "faithfulness, then improve retrieval (chunking, retriever, k)",
    ),
    (False, False): (
        "retrieval poor, answers poor",
        "retrieval: the answer cannot be right without its documents; improve chunking, the retriever or k first",
    ),
}


@dataclass(frozen=True)
class Finding:
    """One named pattern for one scope (``overall`` or a category)."""

    scope: str
    x_name: str
    x: float
    y_name: str
    y: float
    pattern: str
    next_step: str
    n: int


def _first(means: dict[str, MetricMean], names: tuple[str, ...]) -> tuple[str, MetricMean] | None:
    for name in names:
        if name in means and means[name].n:
            return name, means[name]
    return None


def _pick(summary: EvaluationSummary, names: tuple[str, ...]) -> str | None:
    """The metric of the run's overall means that every scope is read with, so categories stay comparable: a
    category where it went unscored gets no finding rather than a reading from another metric."""
    found = _first(summary.overall, names)
    return found[0] if found else None


def _scored(means: dict[str, MetricMean], name: str | None) -> MetricMean | None:
    mean = means.get(name) if name else None
    return mean if mean is not None and mean.n else None


def _unit(name: str, value: float) -> float:
    """A score on 0–1: the judge's 1–5 accuracy is rescaled, (x − 1) / 4."""
    return (value - 1.0) / 4.0 if name == "judge_accuracy" else value


def _scopes(summary: EvaluationSummary) -> list[tuple[str, dict[str, MetricMean]]]:
    return [("overall", summary.overall), *summary.by_category.items()]


def faithfulness_relevancy(summary: EvaluationSummary) -> list[Finding]:
    """The faithfulness × answer-relevancy pattern, overall and per category (where both were scored)."""
    f_name, r_name = _pick(summary, FAITHFULNESS), _pick(summary, RELEVANCY)
    findings = []
    for scope, means in _scopes(summary):
        f, r = _scored(means, f_name), _scored(means, r_name)
        if f is None or r is None or f_name is None or r_name is None:
            continue
        pattern, step = PATTERNS[(f.mean >= HIGH, r.mean >= HIGH)]
        findings.append(Finding(scope, f_name, f.mean, r_name, r.mean, pattern, step, min(f.n, r.n)))
    return findings


def retrieval_generation(summary: EvaluationSummary) -> list[Finding]:
    """The retrieval × generation cell, overall and per category (where both were scored)."""
    recall = f"R@{summary.k}"
    name = _pick(summary, CORRECTNESS)
    findings = []
    for scope, means in _scopes(summary):
        answer = _scored(means, name)
        if recall not in means or answer is None or name is None:
            continue
        quality = _unit(name, answer.mean)
        pattern, step = MATRIX[(means[recall].mean >= GOOD, quality >= HIGH)]
        findings.append(Finding(scope, recall, means[recall].mean, name, quality, pattern, step, answer.n))
    return findings
