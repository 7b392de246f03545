"""bench/review.py: stratified sample, review CSV (never overwriting ratings), review sheet, scoring."""

from __future__ import annotations

import csv
import importlib.util
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType

import pytest

from schemas import TestQuestion
from testgen.export import read_jsonl, write_jsonl
from testgen.pipeline import build_testset

ROOT = Path(__file__).parents[1]
KB = ROOT / "examples" / "aurora_bikes"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_review", ROOT / "bench" / "review.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_review"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


review = _load()


@pytest.fixture(scope="module")
def items() -> list[TestQuestion]:
    return build_testset(KB, num=30, seed=3).result.items


@pytest.fixture(scope="module")
def dataset(items: list[TestQuestion], tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_jsonl(items, tmp_path_factory.mktemp("set") / "tests.jsonl")


def read_rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        return list(reader.fieldnames or []), list(reader)


def test_sample_is_stratified_round_robin(items: list[TestQuestion]) -> None:
    available = Counter(i.category for i in items)
    assert len(available) >= 5  # the example KB feeds most categories
    for n in (len(available), 12, 25):
        sample = review.sample_items(items, n, seed=1)
        assert len(sample) == n
        assert len({i.id for i in sample}) == n
        picked = Counter(i.category for i in sample)
        if n >= len(available):
            assert set(picked) == set(available)
        # round robin: a category with items left never has two fewer picks than another
        for a in available:
            if picked[a] < available[a]:
                assert all(picked[b] <= picked[a] + 1 for b in available), (a, picked)
    assert review.sample_items(items, 12, seed=1) == review.sample_items(items, 12, seed=1)
    assert [i.id for i in review.sample_items(items, 12, seed=1)] != [i.id for i in review.sample_items(items, 12, 2)]
    assert len(review.sample_items(items, 1000, seed=1)) == len(items)


def test_csv_columns_and_sheet(dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out, dump = tmp_path / "reviews", tmp_path / "sheet.txt"
    args = ["--dataset", str(dataset), "--kb", str(KB), "--corpus", "aurora", "-n", "9", "--out", str(out)]
    assert review.main([*args, "--dump", str(dump)]) == 0
    printed = capsys.readouterr().out
    header, rows = read_rows(out / "aurora.csv")
    assert header == [
        "id",
        "category",
        "question",
        "reference_answer",
        "keywords",
        "source_docs",
        "fluent",
        "answerable",
        "answer_correct",
        "category_fits",
        "keywords_ok",
        "source_docs_complete",
        "notes",
    ]
    assert len(rows) == 9
    by_id = {i.id: i for i in read_jsonl(dataset)}
    for row in rows:
        item = by_id[row["id"]]
        assert row["keywords"] == " | ".join(item.keywords)
        assert row["source_docs"] == " | ".join(item.source_docs)
        assert all(row[r] == "" for r in review.RATINGS) and row["notes"] == ""

    assert dump.read_text(encoding="utf-8") == printed
    assert printed.count("\n=== [") == 9
    first = by_id[rows[0]["id"]]
    assert f"question:         {first.question}" in printed
    for doc_id in first.source_docs:
        assert f"[{doc_id}] title: " in printed
    assert "«" in printed  # a keyword occurrence is marked in a source passage


def test_never_overwrites_ratings_without_force(dataset: Path, tmp_path: Path) -> None:
    out = tmp_path / "reviews"
    args = ["--dataset", str(dataset), "--kb", str(KB), "--corpus", "aurora", "-n", "5", "--out", str(out)]
    assert review.main(args) == 0
    assert review.main([*args, "--seed", "2"]) == 0  # nothing rated yet: replacing is fine
    target = out / "aurora.csv"
    header, rows = read_rows(target)
    rows[2]["answerable"] = "1"
    with target.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)
    rated = target.read_bytes()
    assert review.main(args) == 2
    assert target.read_bytes() == rated
    assert review.main([*args, "--force"]) == 0
    assert all(row["answerable"] == "" for row in read_rows(target)[1])


def write_csv(path: Path, ratings: list[list[str]]) -> None:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle)
        writer.writerow(review.COLUMNS)
        for n, values in enumerate(ratings):
            writer.writerow([f"id{n}", "direct_fact", "q?", "a.", "k", "d.md", *values, ""])


def test_scoring_math(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "reviews"
    folder.mkdir()
    write_csv(
        folder / "alpha.csv",
        [
            ["1", "1", "1", "1", "1", "1"],  # passes all
            ["1", "1", "1", "1", "0", "1"],  # keywords wrong
            ["0", "0", "1", "1", "1", "1"],  # not fluent, not answerable
            ["1", "1", "", "1", "1", "1"],  # unrated: left out
        ],
    )
    write_csv(folder / "beta.csv", [["1", "", "", "", "", ""]])
    scores = review.score_folder(folder)
    alpha = scores["alpha"]
    assert (alpha.rated, alpha.unrated) == (3, 1)
    assert alpha.all_pass == pytest.approx(1 / 3)
    assert alpha.per_check == pytest.approx(
        {
            "fluent": 2 / 3,
            "answerable": 2 / 3,
            "answer_correct": 1.0,
            "category_fits": 1.0,
            "keywords_ok": 2 / 3,
            "source_docs_complete": 1.0,
        }
    )
    beta = scores["beta"]
    assert (beta.rated, beta.unrated, beta.all_pass) == (0, 1, None)

    assert review.main(["--score", str(folder)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split() == ["alpha", "3", "1", "0.33", "0.67", "0.67", "1.00", "1.00", "0.67", "1.00"]
    assert lines[2].split() == ["beta", "0", "1", "n/a", *["n/a"] * 6]

    write_csv(folder / "gamma.csv", [["1", "1", "yes", "1", "1", "1"]])
    assert review.main(["--score", str(folder)]) == 2
    assert "gamma.csv:2: ratings must be 1 or 0" in capsys.readouterr().err


def test_the_sheet_marks_a_keyword_where_the_metric_would_match_it() -> None:
    # "5%" is in "15%" as characters but not as the metric's word-bounded match: the mark skips it
    marked = review.keyword_passage("Lab 3 weight 15% and paper 5% here", ["5%"])
    assert marked == "Lab 3 weight 15% and paper «5%» here"
    assert review.keyword_passage("calendars 500 and 50", ["50"]) == "calendars 500 and «50»"
    assert review.keyword_passage("지능로봇공학과 부교수", ["부교수"]) == "지능로봇공학과 «부교수»"


def test_a_keyword_is_marked_in_the_row_the_item_is_about() -> None:
    keyword_passage = review.keyword_passage
    text = "| Name | Term ends |\n|---|---|\n| Joaquim | Dec 31, 2025 |\n| Hadiza | Dec 31, 2025 |\n"
    marked = keyword_passage(text, ["Dec 31, 2025"], near=("| Hadiza | Dec 31, 2025 |",))
    assert marked is not None and "| Hadiza | «Dec 31, 2025» |" in marked and "| Joaquim | Dec 31, 2025 |" in marked
    assert "| Joaquim | «Dec 31, 2025» |" in (keyword_passage(text, ["Dec 31, 2025"]) or "")  # the first, without
