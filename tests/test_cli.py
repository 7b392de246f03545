"""The command line: testgen build / check / kg, and the reserved evaluate command."""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner, Result

from evaluators.cli import main as evaluate_main
from testgen.cli import main
from testgen.export import read_jsonl
from testgen.kg.graph import KnowledgeGraph

EXAMPLES = Path(__file__).parents[1] / "examples"


def documents_in(kb: str) -> int:
    """How many documents an example KB holds (its Markdown files)."""
    return sum(1 for _ in (EXAMPLES / kb).rglob("*.md"))


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def aurora_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("aurora") / "tests.jsonl"
    # a request the example meets in every category: a shortfall's warning is printed even with -q
    result = run("build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(out), "-n", "28", "-q")
    assert result.exit_code == 0, result.output
    assert result.output == ""  # quiet: nothing on stdout or stderr
    return out


@pytest.mark.parametrize("kb", ["aurora_bikes", "haneul_travel"])
def test_build_writes_every_output(kb: str, tmp_path: Path) -> None:
    out = tmp_path / "tests.jsonl"
    result = run("build", "--kb", str(EXAMPLES / kb), "-o", str(out), "-n", "30", "-q")
    assert result.exit_code == 0, result.output
    items = read_jsonl(out)
    assert len(items) == 30
    assert (tmp_path / "tests.kg.json").is_file()
    assert (tmp_path / "tests.hf" / "dataset_info.json").is_file()
    summary = json.loads((tmp_path / "tests.summary.json").read_text(encoding="utf-8"))
    assert summary["total"] == 30
    # the request is met in total; a category the small KB cannot fill is made up from others and explained
    assert sum(summary["generated"].values()) == 30
    assert set(summary["shortfall"]) <= set(summary["requested"])
    assert summary["options"]["num"] == 30
    assert summary["options"]["seed"] == 42
    assert summary["documents"] == len(list((EXAMPLES / kb).rglob("*.md")))
    kg = KnowledgeGraph.load(tmp_path / "tests.kg.json")
    assert kg.stats()["nodes"]["document"] == summary["documents"]
    assert {i.language for i in items} == {"en" if kb == "aurora_bikes" else "ko"}


def test_build_is_byte_identical_across_runs(aurora_build: Path, tmp_path: Path) -> None:
    out = tmp_path / "again.jsonl"
    result = run("build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(out), "-n", "28", "-q", "--no-hf")
    assert result.exit_code == 0
    assert out.read_bytes() == aurora_build.read_bytes()
    assert not (tmp_path / "again.hf").exists()


def test_build_options_for_side_outputs(tmp_path: Path) -> None:
    result = run(
        "build",
        "--kb",
        str(EXAMPLES / "aurora_bikes"),
        "-o",
        str(tmp_path / "set.jsonl"),
        "-n",
        "5",
        "--mix",
        "direct_fact=1",
        "--kg",
        str(tmp_path / "graph.json.gz"),
        "--no-hf",
        "--ragas-jsonl",
        str(tmp_path / "ragas.jsonl"),
        "-q",
    )
    assert result.exit_code == 0, result.output
    assert {i.category for i in read_jsonl(tmp_path / "set.jsonl")} == {"direct_fact"}
    assert KnowledgeGraph.load(tmp_path / "graph.json.gz").stats()["nodes"]["document"] == documents_in("aurora_bikes")
    rows = [json.loads(line) for line in (tmp_path / "ragas.jsonl").read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 5
    assert set(rows[0]) == {"user_input", "reference", "reference_contexts", "reference_context_ids"}
    assert not (tmp_path / "set.hf").exists()
    assert (tmp_path / "set.summary.json").is_file()


def test_build_without_quiet_prints_a_summary(tmp_path: Path) -> None:
    result = run("build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(tmp_path / "t.jsonl"), "-n", "5", "--no-hf")
    assert result.exit_code == 0
    assert result.stdout == ""  # progress and summary go to stderr
    assert f"5 questions from {documents_in('aurora_bikes')} documents" in result.stderr
    assert "wrote: " in result.stderr


def assert_one_line_error(result: Result, *needles: str) -> None:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for needle in needles:
        assert needle in lines[0]
    assert "Traceback" not in result.output


def test_bad_mix_is_a_one_line_error(tmp_path: Path) -> None:
    result = run("build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(tmp_path / "t.jsonl"), "--mix", "bogus=1")
    assert_one_line_error(result, "--mix", "bogus=1")
    assert not (tmp_path / "t.jsonl").exists()


def test_missing_kb_folder_exits_2(tmp_path: Path) -> None:
    result = run("build", "--kb", str(tmp_path / "no_such_kb"), "-o", str(tmp_path / "t.jsonl"), "-q")
    assert_one_line_error(result, "no_such_kb")
    assert not (tmp_path / "t.jsonl").exists()


def test_click_usage_errors_exit_2(tmp_path: Path) -> None:
    result = run("build", "-o", str(tmp_path / "t.jsonl"))
    assert result.exit_code == 2
    assert "Missing option '--kb'" in result.stderr
    result = run("build", "--kb", str(EXAMPLES / "aurora_bikes"), "-n", "0")
    assert result.exit_code == 2
    result = run("build", "--kb", str(EXAMPLES / "aurora_bikes"), "--chunk-size", "100", "--chunk-overlap", "100", "-q")
    assert result.exit_code == 2
    assert "--chunk-overlap" in result.stderr


# ------------------------------------------------------------------------------------------------- check


def test_check_reports_a_good_file(aurora_build: Path) -> None:
    result = run("check", "--dataset", str(aurora_build))
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"{aurora_build}: 28 questions; ")
    assert "direct_fact 10" in first
    result = run("check", "--dataset", str(aurora_build), "--kb", str(EXAMPLES / "aurora_bikes"))
    assert result.exit_code == 0
    assert result.stdout.splitlines()[-1] == "all 28 questions pass (source_docs, keywords, ids, questions)"


def test_check_counts_questions_without_sources(tmp_path: Path) -> None:
    path = tmp_path / "user.jsonl"
    path.write_text(
        '{"question": "Q?", "keywords": ["k"], "reference_answer": "A.", "category": "mine"}\n', encoding="utf-8"
    )
    result = run("check", "--dataset", str(path))
    assert result.exit_code == 1  # check is a CI gate: an item no rank metric can score fails it
    assert "1 questions; mine 1" in result.stdout
    assert f"{path}:1: missing source_docs" in result.stdout


def test_check_names_the_bad_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text(
        '{"question": "Q?", "keywords": ["k"], "reference_answer": "A.", "category": "direct_fact"}\n{oops\n',
        encoding="utf-8",
    )
    result = run("check", "--dataset", str(path))
    assert_one_line_error(result, "bad.jsonl:2", "invalid JSON")


def test_check_missing_file_exits_2(tmp_path: Path) -> None:
    assert_one_line_error(run("check", "--dataset", str(tmp_path / "nope.jsonl")), "nope.jsonl", "no such file")


# ---------------------------------------------------------------------------------------------------- kg


def test_kg_stats(aurora_build: Path) -> None:
    kg_file = aurora_build.with_name("tests.kg.json")
    stats = KnowledgeGraph.load(kg_file).stats()
    result = run("kg", "stats", "--kg", str(kg_file))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "nodes: " + ", ".join(f"{k} {v}" for k, v in stats["nodes"].items())
    assert lines[0].startswith("nodes: chunk ")
    assert f"document {documents_in('aurora_bikes')}" in lines[0]
    assert lines[1].startswith("edges: about ")
    assert "facts per document:" in lines
    assert any(line.strip().endswith("company/overview.md") for line in lines)
    as_json = run("kg", "stats", "--kg", str(kg_file), "--json")
    assert json.loads(as_json.stdout) == stats


def test_kg_stats_from_a_kb_folder() -> None:
    result = run("kg", "stats", "--kb", str(EXAMPLES / "haneul_travel"), "--json")
    assert result.exit_code == 0
    assert json.loads(result.stdout)["nodes"]["document"] == documents_in("haneul_travel")


def test_kg_export_graphml_and_json(aurora_build: Path, tmp_path: Path) -> None:
    kg_file = aurora_build.with_name("tests.kg.json")
    out = tmp_path / "g.graphml"
    result = run("kg", "export", "--kg", str(kg_file), "--format", "graphml", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == f"wrote {out}"
    graph = nx.read_graphml(out)
    kg = KnowledgeGraph.load(kg_file)
    assert graph.number_of_nodes() == kg.graph.number_of_nodes()
    assert graph.number_of_edges() == kg.graph.number_of_edges()
    out_json = tmp_path / "g.json"
    assert run("kg", "export", "--kg", str(kg_file), "--format", "json", "-o", str(out_json)).exit_code == 0
    assert KnowledgeGraph.load(out_json).to_dict() == kg.to_dict()


def test_kg_errors_exit_2(tmp_path: Path) -> None:
    assert_one_line_error(run("kg", "stats"), "--kg")
    bad = tmp_path / "bad.kg.json"
    bad.write_text("{}", encoding="utf-8")
    assert_one_line_error(run("kg", "stats", "--kg", str(bad)), "bad.kg.json", "not a knowledge-graph file")
    result = run("kg", "export", "--kg", str(bad), "--format", "dot", "-o", str(tmp_path / "x"))
    assert result.exit_code == 2


def test_version_and_help() -> None:
    assert run("--version").exit_code == 0
    result = run("--help")
    assert result.exit_code == 0
    for command in ("build", "check", "kg"):
        assert command in result.stdout


def test_evaluate_without_a_target_is_a_one_line_error(tmp_path: Path) -> None:
    dataset = tmp_path / "tests.jsonl"
    dataset.write_text(
        '{"question": "q", "keywords": ["a"], "reference_answer": "a", "category": "direct_fact", '
        '"source_docs": ["a.md"]}\n',
        encoding="utf-8",
    )
    result = CliRunner().invoke(evaluate_main, ["--dataset", str(dataset)])
    assert_one_line_error(result, "nothing to evaluate")


def test_evaluate_baseline_end_to_end(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "tests.jsonl"
    built = runner.invoke(main, ["build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(out), "-n", "30", "-q"])
    assert built.exit_code == 0, built.output
    report = tmp_path / "report"
    result = runner.invoke(
        evaluate_main,
        [
            "--dataset",
            str(out),
            "--kb",
            str(EXAMPLES / "aurora_bikes"),
            "-o",
            str(report),
            "-q",
            "--save-run",
            str(tmp_path / "run.jsonl"),
        ],
    )
    assert result.exit_code == 0, result.output
    summary = json.loads((report / "summary.json").read_text(encoding="utf-8"))
    assert summary["questions"] == 30 and summary["counts"]["scored"] == 30
    assert 0.0 < summary["overall"]["MRR@10"]["mean"] <= 1.0
    assert (report / "report.html").stat().st_size > 10_000
    # the saved run re-scores to the same numbers, and a gate above them fails with exit code 1
    rescored = runner.invoke(
        evaluate_main,
        [
            "--dataset",
            str(out),
            "--run",
            str(tmp_path / "run.jsonl"),
            "-o",
            str(tmp_path / "again"),
            "-q",
            "--no-plots",
            "--fail-under",
            "mrr=1.01",
        ],
    )
    assert rescored.exit_code == 2  # 1.01 is not a valid threshold
    rescored = runner.invoke(
        evaluate_main,
        [
            "--dataset",
            str(out),
            "--run",
            str(tmp_path / "run.jsonl"),
            "-o",
            str(tmp_path / "again"),
            "-q",
            "--no-plots",
            "--fail-under",
            "mrr=1.0",
        ],
    )
    again = json.loads((tmp_path / "again" / "summary.json").read_text(encoding="utf-8"))
    assert again["overall"]["MRR@10"] == summary["overall"]["MRR@10"]
    assert rescored.exit_code == (1 if summary["overall"]["MRR@10"]["mean"] < 1.0 else 0)
    compared = runner.invoke(evaluate_main, ["compare", str(report), str(tmp_path / "again")])
    assert compared.exit_code == 0, compared.output
    assert "MRR@10" in compared.output


def test_a_deeply_nested_or_overlong_line_is_a_file_line_error(tmp_path: Path) -> None:
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    result = run("check", "--dataset", str(deep))
    assert result.exit_code == 2
    assert f"{deep}:1: JSON nested deeper than 64 levels" in result.output
    long = tmp_path / "long.jsonl"
    line = '{"question": "' + "x" * 8_000_001 + '"}'
    long.write_text(line + "\n", encoding="utf-8")
    result = run("check", "--dataset", str(long))
    assert result.exit_code == 2
    assert f"{long}:1: line of {len(line):,} characters (at most 8,000,000)" in result.output
