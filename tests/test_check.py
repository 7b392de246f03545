"""testgen check as a CI gate: each failed check as file:line: reason, exit 1; every dataset form evaluate reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from schemas import TestQuestion
from testgen.check import Problem, check_items, item_lines
from testgen.cli import main

EXAMPLES = Path(__file__).parents[1] / "examples"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def item(question: str, keywords: list[str], sources: list[str], id: str | None = None) -> TestQuestion:
    return TestQuestion(
        question=question, keywords=keywords, reference_answer="A.", category="direct_fact", source_docs=sources, id=id
    )


def test_each_check_names_its_line() -> None:
    texts = {"a.md": "the price is $1,200 and the city is lyon", "b.md": "founded in 2011"}
    items = [
        item("What is the price?", ["$1,200"], ["a.md"], id="q1"),
        item("What is the  PRICE?", ["$1,200"], ["a.md"], id="q2"),  # same question, normalised
        item("When was it founded?", ["2011"], ["b.md", "gone.md"], id="q1"),
        item("Which city?", ["Paris"], ["a.md"]),
        item("Who knows?", ["x"], []),
    ]
    problems = check_items(items, [1, 2, 4, 5, 6], texts)
    assert problems == [
        Problem(2, "duplicate question (first at line 1)"),
        Problem(4, "duplicate id 'q1' (first at line 1)"),
        Problem(4, "unknown source_docs: 'gone.md'"),
        Problem(5, "keyword not grounded: 'Paris' is in none of its source_docs"),
        Problem(6, "missing source_docs: name every document that holds the answer"),
    ]
    # without the KB only what the file itself shows
    assert [p.line for p in check_items(items, [1, 2, 4, 5, 6])] == [2, 4, 6]
    with pytest.raises(ValueError):
        check_items(items, [1, 2])


def test_lines_count_blank_lines_as_the_file_has_them(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text("\n{}\n\n\n{}\n", encoding="utf-8")
    assert item_lines(path, 2) == [2, 5]
    assert item_lines(tmp_path, 3) == [1, 2, 3]  # a folder: row numbers


def _write(path: Path, items: list[TestQuestion]) -> Path:
    path.write_text("".join(json.dumps(i.to_json_dict()) + "\n" for i in items), encoding="utf-8")
    return path


def test_cli_gate_exits_1_with_file_line_reasons(tmp_path: Path) -> None:
    path = _write(
        tmp_path / "set.jsonl",
        [
            item("What is the price of the Aurora Cargo Max?", ["$5,450"], ["products/aurora_cargo_max.md"], "a"),
            item("What is the price of the Aurora Cargo Max?", ["$5,450"], ["products/aurora_cargo_max.md"], "b"),
            item("What is its range?", ["9,999 km"], ["products/aurora_cargo_max.md", "nope.md"], "a"),
        ],
    )
    result = run("check", "--dataset", str(path), "--kb", str(EXAMPLES / "aurora_bikes"))
    assert result.exit_code == 1
    assert result.stdout.splitlines()[1:] == [
        f"{path}:2: duplicate question (first at line 1)",
        f"{path}:3: duplicate id 'a' (first at line 1)",
        f"{path}:3: unknown source_docs: 'nope.md'",
        f"{path}:3: keyword not grounded: '9,999 km' is in none of its source_docs",
    ]
    assert "2 of 3 questions fail a check (4 problems)" in result.stderr


def test_cli_gate_passes_a_built_set_in_every_form_evaluate_reads(tmp_path: Path) -> None:
    out = tmp_path / "tests.jsonl"
    assert run("build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(out), "-n", "8", "-q").exit_code == 0
    for dataset in (out, tmp_path / "tests.hf"):
        result = run("check", "--dataset", str(dataset), "--kb", str(EXAMPLES / "aurora_bikes"))
        assert result.exit_code == 0, result.output
        assert result.stdout.splitlines()[-1] == "all 8 questions pass (source_docs, keywords, ids, questions)"
    # a broken row in the HF folder is reported by row number
    from datasets import load_from_disk

    from testgen.export import from_hf_dataset, save_hf_dataset

    rows = from_hf_dataset(load_from_disk(str(tmp_path / "tests.hf")))
    rows[3] = rows[3].model_copy(update={"source_docs": ["elsewhere.md"]})
    save_hf_dataset(rows, tmp_path / "edited.hf")
    result = run("check", "--dataset", str(tmp_path / "edited.hf"), "--kb", str(EXAMPLES / "aurora_bikes"))
    assert result.exit_code == 1
    assert f"{tmp_path / 'edited.hf'}:4: unknown source_docs: 'elsewhere.md'" in result.stdout


def test_cli_unreadable_input_is_still_exit_2(tmp_path: Path) -> None:
    result = run("check", "--dataset", str(tmp_path / "missing.jsonl"))
    assert result.exit_code == 2 and "missing.jsonl: no such file" in result.stderr
    result = run("check", "--dataset", str(tmp_path))
    assert result.exit_code == 2 and "not a folder written by save_to_disk" in result.stderr
