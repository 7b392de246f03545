"""Evaluate RAG systems on test sets: the Python API the ``evaluate`` command mirrors::

    from evaluators import check_dataset, compare_runs, evaluate_dataset

    outcome = evaluate_dataset("tests.jsonl", kb="examples/aurora_bikes", k=10)      # the built-in baseline
    outcome.summary.overall["MRR@10"].mean
    outcome = evaluate_dataset("tests.jsonl", target="callable:my_rag:search", k=5)  # any target the CLI takes
    overall, by_category, unmatched = compare_runs("eval_a/", "eval_b/")             # two report folders
    problems = check_dataset("tests.jsonl", kb="examples/aurora_bikes")              # file:line problems

(``evaluate``, ``compare`` and ``check`` name the package's own modules, hence the longer names.)

The names are loaded on first use (`evaluators.library`), so importing one submodule stays light.
"""

from __future__ import annotations

from typing import Any

__all__ = [
    "EvaluationOutcome",
    "RunConfig",
    "check_dataset",
    "compare_runs",
    "evaluate_dataset",
    "make_target",
    "run_evaluation",
    "write_report",
]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from evaluators import library

        return getattr(library, name)
    raise AttributeError(f"module 'evaluators' has no attribute {name!r}")
