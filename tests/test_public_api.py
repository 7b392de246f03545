"""The evaluators package's Python API gives what the commands give."""

from __future__ import annotations

from pathlib import Path

import pytest

import evaluators
from evaluators import RunConfig, check_dataset, compare_runs, evaluate_dataset, run_evaluation
from testgen import read_jsonl

ROOT = Path(__file__).parents[1]
KB = ROOT / "examples" / "aurora_bikes"
DATASET = ROOT / "tests" / "fixtures" / "aurora_tests.jsonl"


def test_evaluate_is_the_cli_run_for_a_path_or_the_questions(tmp_path: Path) -> None:
    outcome = evaluate_dataset(DATASET, kb=KB, k=5, output=tmp_path / "report")
    direct = run_evaluation(read_jsonl(DATASET), RunConfig(kb=str(KB), k=5))
    assert outcome.summary.overall["MRR@5"].mean == direct.summary.overall["MRR@5"].mean
    assert outcome.summary.overall["MRR@5"].n == len(read_jsonl(DATASET))
    assert (tmp_path / "report" / "results.jsonl").is_file()
    from_items = evaluate_dataset(read_jsonl(DATASET), kb=KB, k=5)
    assert [r.retrieved_docs for r in from_items.results] == [r.retrieved_docs for r in outcome.results]


def test_compare_two_report_folders(tmp_path: Path) -> None:
    evaluate_dataset(DATASET, kb=KB, k=5, output=tmp_path / "a")
    evaluate_dataset(DATASET, kb=KB, k=5, chunk_size=1000, chunk_overlap=100, output=tmp_path / "b")
    overall, by_category, unmatched = compare_runs(tmp_path / "a", tmp_path / "b")
    assert unmatched == 0
    mrr = next(m for m in overall if m.metric == "MRR@5")
    assert mrr.n == len(read_jsonl(DATASET)) and mrr.delta == pytest.approx(mrr.mean_b - mrr.mean_a)
    assert set(by_category) == {q.category for q in read_jsonl(DATASET)}


def test_check_reports_file_line_problems(tmp_path: Path) -> None:
    assert check_dataset(DATASET, kb=KB) == []
    bad = tmp_path / "bad.jsonl"
    lines = DATASET.read_text(encoding="utf-8").splitlines()
    bad.write_text("\n".join([lines[0], lines[0]]) + "\n", encoding="utf-8")
    [problem] = [p for p in check_dataset(bad) if "duplicate question" in p]
    assert problem.startswith(f"{bad}:2: ")


def test_unknown_names_are_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        evaluators.nothing  # noqa: B018
