"""The Python API the ``evaluate`` command mirrors, exported by the `evaluators` package (see its docstring).

Each function takes the same inputs as the command of the same name (a test set as a path, a ``tests.hf/``
folder, a Parquet file, an ``hf://`` reference or the questions themselves) and raises the project's errors where
the command exits 2. The lower layers stay importable: `run_evaluation` with a `RunConfig`, `make_target`,
`write_report`.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evaluators import __all__ as __all__  # the exported names are listed once, in the package
from evaluators.compare import MetricComparison, load_results
from evaluators.compare import compare as _compare_results
from evaluators.evaluate import EvaluationOutcome
from evaluators.report import write_report
from evaluators.runner import RunConfig, run_evaluation
from evaluators.targets import make_target as make_target  # re-exported
from schemas import QuestionResult, TestQuestion
from testgen.engine import Engine

Dataset = str | os.PathLike[str] | Sequence[TestQuestion]


def evaluate_dataset(
    dataset: Dataset,
    *,
    target: str = "baseline",
    kb: str | os.PathLike[str] | None = None,
    k: int = 10,
    evaluation_type: str = "retrieval_only",
    output: str | os.PathLike[str] | None = None,
    engine: Engine | None = None,
    **options: Any,
) -> EvaluationOutcome:
    """One evaluation, as ``evaluate --dataset DATASET --target TARGET --kb KB -k K --type TYPE`` runs it.

    `options` are the other `RunConfig` fields (``retriever``, ``chunk_size``, ``llm``, ``judge``,
    ``ragas_metrics``, ``max_cost``, …); with `output`, the report folder is written there as the command
    writes it (without plots). `engine` is ``--engine`` (`testgen.engine.make_engine`; default: this process)."""
    questions, name = _questions(dataset)
    config = RunConfig(
        target=target,
        kb=str(kb) if kb is not None else None,
        k=k,
        evaluation_type=evaluation_type,
        **options,
    )
    outcome = run_evaluation(questions, config, dataset=name, engine=engine)
    if output is not None:
        write_report(outcome, Path(output), plots=False)
    return outcome


def compare_runs(
    a: str | os.PathLike[str] | list[QuestionResult],
    b: str | os.PathLike[str] | list[QuestionResult],
    *,
    seed: int = 0,
) -> tuple[list[MetricComparison], dict[str, list[MetricComparison]], int]:
    """Overall and per-category paired comparisons of two runs (report folders, results.jsonl files or results),
    and how many questions only one of them has — what ``evaluate compare`` prints."""
    first = load_results(Path(a)) if isinstance(a, str | os.PathLike) else a
    second = load_results(Path(b)) if isinstance(b, str | os.PathLike) else b
    return _compare_results(first, second, seed=seed)


def check_dataset(dataset: str | os.PathLike[str], *, kb: str | os.PathLike[str] | None = None) -> list[str]:
    """The problems ``testgen check`` reports, as ``file:line: reason`` lines ([] when every item passes)."""
    from testgen.check import check_items, load_checked_set
    from testgen.corpus import load_kb
    from testgen.text import normalize

    items, lines = load_checked_set(dataset)
    texts = {d.doc_id: normalize(d.text) for d in load_kb(kb).documents} if kb is not None else None
    name = str(dataset).rstrip("/")
    return [f"{name}:{p.line}: {p.reason}" for p in check_items(items, lines, texts)]


def _questions(dataset: Dataset) -> tuple[list[TestQuestion], str]:
    if isinstance(dataset, str | os.PathLike):
        from testgen.hub import dataset_ref_name, load_dataset_ref

        return load_dataset_ref(dataset), dataset_ref_name(dataset)
    return list(dataset), ""
