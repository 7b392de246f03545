"""``evaluate compare A B``: per-metric and per-category deltas between two runs on the same questions,
with a paired randomization test (sign flips of the per-question differences, seeded) and
win/tie/loss counts."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from schemas import QuestionResult
from testgen.errors import DatasetFormatError, UserInputError
from testgen.export.jsonl import json_lines
from testgen.text import normalize

_ORDER = ["MRR", "nDCG", "P", "R", "Hit", "MAP", "CtxPrecision", "Coverage"]


@dataclass(frozen=True)
class MetricComparison:
    """One metric over the questions both runs scored."""

    metric: str
    n: int
    mean_a: float
    mean_b: float
    delta: float
    p_value: float
    wins: int
    ties: int
    losses: int


def load_results(path: str | Path) -> list[QuestionResult]:
    """Per-question results from a report folder (its results.jsonl) or a results.jsonl file."""
    path = Path(path)
    if path.is_dir():
        path = path / "results.jsonl"
    if not path.exists():
        raise UserInputError(f"{path}: no such results file (give a report folder written by `evaluate`)")
    results = []
    for number, raw in json_lines(path, path.read_text(encoding="utf-8"), "give the results.jsonl an evaluation wrote"):
        try:
            results.append(QuestionResult.model_validate(raw))
        except ValueError as exc:
            raise DatasetFormatError(
                str(path),
                number,
                f"not a result record ({exc.__class__.__name__})",
                "give the results.jsonl an evaluation wrote",
            ) from exc
    return results


def paired_randomization(diffs: np.ndarray, *, rounds: int = 10_000, seed: int = 0) -> float:
    """Two-sided p-value that the mean paired difference is 0, by random sign flips (with the +1 correction)."""
    if diffs.size == 0 or not np.any(diffs):
        return 1.0
    rng = np.random.default_rng(seed)
    observed = abs(diffs.mean())
    signs = rng.choice(np.array([-1.0, 1.0]), size=(rounds, diffs.size))
    null = np.abs((signs * diffs).mean(axis=1))
    return float((np.count_nonzero(null >= observed - 1e-12) + 1) / (rounds + 1))


def _key(result: QuestionResult) -> str:
    return result.id or normalize(result.question)


def compare(
    a: list[QuestionResult], b: list[QuestionResult], *, seed: int = 0
) -> tuple[list[MetricComparison], dict[str, list[MetricComparison]], int]:
    """Overall and per-category comparisons, and the number of questions found in only one run."""
    index_b = {_key(r): r for r in b}
    pairs = [(r, index_b[_key(r)]) for r in a if _key(r) in index_b]
    unmatched = len(a) + len(b) - 2 * len(pairs)
    if not pairs:
        raise UserInputError("the two runs share no question (compare runs made on the same test set)")
    overall = _compare_pairs(pairs, seed)
    if not overall:
        raise UserInputError(
            f"the two runs share no metric (A has {_names(a)}; B has {_names(b)}): compare runs made with the same -k"
        )
    categories: dict[str, list[MetricComparison]] = {}
    for category in sorted({ra.category for ra, _ in pairs}):
        categories[category] = _compare_pairs([p for p in pairs if p[0].category == category], seed)
    return overall, categories, unmatched


def _report_order(name: str) -> tuple[int, str]:
    base = name.split("@")[0]
    return (_ORDER.index(base) if base in _ORDER else len(_ORDER), name)


def _names(results: list[QuestionResult]) -> str:
    names = sorted({n for r in results for n in r.metrics}, key=_report_order)
    return ", ".join(names[:4]) + (", …" if len(names) > 4 else "") if names else "none"


def _compare_pairs(pairs: list[tuple[QuestionResult, QuestionResult]], seed: int) -> list[MetricComparison]:
    """Each metric over the questions both runs scored it on (an unscored judgement leaves that question out of
    that metric only, and ``n`` says how many were compared)."""
    names = sorted({n for ra, rb in pairs for n in ra.metrics if n in rb.metrics}, key=_report_order)
    out = []
    for name in names:
        both = [(ra.metrics[name], rb.metrics[name]) for ra, rb in pairs if name in ra.metrics and name in rb.metrics]
        va = np.array([x for x, _ in both])
        vb = np.array([y for _, y in both])
        diffs = vb - va
        out.append(
            MetricComparison(
                metric=name,
                n=len(both),
                mean_a=float(va.mean()),
                mean_b=float(vb.mean()),
                delta=float(diffs.mean()),
                p_value=paired_randomization(diffs, seed=seed),
                wins=int(np.count_nonzero(diffs > 1e-12)),
                ties=int(np.count_nonzero(np.abs(diffs) <= 1e-12)),
                losses=int(np.count_nonzero(diffs < -1e-12)),
            )
        )
    return out
