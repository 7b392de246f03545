"""``evaluate runs | datasets | results`` on stored runs, and stored run ids as ``compare`` references."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from postgres_server import PostgresServer, postgres_server  # noqa: F401
from test_store import QUESTIONS, full_rag_outcome, retrieval_outcome

from evaluators.cli import main
from evaluators.cli_store import load_results_ref, register, stored_outcome
from evaluators.compare import compare, load_results
from evaluators.errors import StoreNotFound
from evaluators.report import write_report
from evaluators.store import RunStore
from schemas import DatasetInfo, RunDetail, RunInfo
from testgen.errors import UserInputError

register(main)

UNREACHABLE = "postgresql+psycopg://u:secret@127.0.0.1:1/db"


def invoke(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False, env={"COLUMNS": "200"})


def fill(store: RunStore) -> dict[str, int]:
    """Four runs: retrieval completed, full_rag completed, failed with partial results, pending on another set."""
    plain = store.record(retrieval_outcome(), questions=QUESTIONS, dataset_name="tests.jsonl", dataset_source="t")
    rag = store.record(full_rag_outcome(), questions=QUESTIONS, dataset_name="tests.jsonl", dataset_source="t")
    failed = store.create_run(plain.dataset_id, config={}, target={"target": "http"}, k=5, evaluation_type="full_rag")
    store.add_results(failed.id, retrieval_outcome().results[:3])
    store.fail_run(failed.id, "LLMError: the judge [model] is down")
    other = store.add_dataset(QUESTIONS[:2], name="other.jsonl", source="other.jsonl")
    pending = store.create_run(
        other.id, config={}, target={"target": "baseline"}, k=3, evaluation_type="retrieval_only"
    )
    return {"plain": plain.id, "rag": rag.id, "failed": failed.id, "pending": pending.id, "other": other.id}


@pytest.fixture
def runs() -> dict[str, int]:
    """The default store (a private folder per test, see conftest) holding the four runs of `fill`."""
    with RunStore() as store:
        return fill(store)


def test_register_adds_the_commands_once() -> None:
    before = dict(main.commands)
    register(main)
    assert main.commands == before
    assert {"runs", "datasets", "results", "compare"} <= set(main.commands)


def test_runs_table_lists_newest_first_with_metrics(runs: dict[str, int]) -> None:
    result = invoke("runs")
    assert result.exit_code == 0, result.output
    rows = [line for line in result.stdout.splitlines() if line.startswith("│")]
    assert [int(row.split("│")[1]) for row in rows] == [runs["pending"], runs["failed"], runs["rag"], runs["plain"]]
    plain, rag = rows[3], rows[2]
    assert "completed" in plain and "retrieval" in plain and "0.500" in plain and "baseline" in plain
    assert "tests.jsonl #" in plain
    assert "full_rag" in rag and "0.700" in rag and "$0.3750" in rag
    assert "failed" in rows[1] and "pending" in rows[0] and "other.jsonl" in rows[0]


def test_runs_json_filter_and_limit(runs: dict[str, int]) -> None:
    listed = [RunInfo.model_validate(r) for r in json.loads(invoke("runs", "--json").stdout)]
    assert [r.id for r in listed] == [runs["pending"], runs["failed"], runs["rag"], runs["plain"]]
    assert listed[2].cost == pytest.approx(0.375) and listed[1].error_message == "LLMError: the judge [model] is down"
    only = json.loads(invoke("runs", "--json", "--dataset-id", str(runs["other"])).stdout)
    assert [r["id"] for r in only] == [runs["pending"]]
    assert [r["id"] for r in json.loads(invoke("runs", "--json", "--limit", "2").stdout)] == [
        runs["pending"],
        runs["failed"],
    ]
    missing = invoke("runs", "--dataset-id", "99")
    assert missing.exit_code == 2
    assert missing.stderr == "error: no dataset with id 99 (evaluate datasets lists them)\n"


def test_empty_store_says_so() -> None:
    result = invoke("runs")
    assert result.exit_code == 0 and "no runs in sqlite:///" in result.stdout
    assert invoke("runs", "--json").stdout.strip() == "[]"
    assert "no datasets" in invoke("datasets").stdout


def test_datasets_table_and_json(runs: dict[str, int]) -> None:
    table = invoke("datasets").stdout
    assert "tests.jsonl" in table and "other.jsonl" in table and "direct_fact 1, temporal 1" in table
    listed = [DatasetInfo.model_validate(d) for d in json.loads(invoke("datasets", "--json").stdout)]
    assert [(d.name, d.questions) for d in listed] == [("tests.jsonl", 4), ("other.jsonl", 2)]


def _lines(*args: str, columns: int) -> list[str]:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False, env={"COLUMNS": str(columns)})
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def _row(lines: list[str], first: int) -> list[str]:
    """The cells (words) of the table row that starts with `first`, boxed or not."""
    rows = [line.replace("│", " ").split() for line in lines]
    return next(row for row in rows if row and row[0] == str(first))


@pytest.mark.parametrize("columns", [80, 60])
def test_narrow_terminals_show_every_metric_value_whole(runs: dict[str, int], columns: int) -> None:
    with RunStore() as store:  # a long dataset name and target, which must give way to the numbers
        long = store.record(
            retrieval_outcome(),
            questions=QUESTIONS,
            dataset_name="quarterly regression suite for the support assistant.jsonl",
            dataset_source="t",
        )
        stored = {run.id: run for run in store.list_runs()}
        datasets = store.list_datasets()
    lines = _lines("runs", columns=columns)
    assert all(len(line) <= columns for line in lines), "\n".join(lines)
    for run_id, run in stored.items():
        row = _row(lines, run_id)
        for name in (f"MRR@{run.k}", f"nDCG@{run.k}"):
            value = run.metrics.get(name)
            assert (f"{value:.3f}" if value is not None else "–") in row, (name, row)
        if run.cost:
            assert f"${run.cost:.4f}" in row
        if run.mean_faithfulness is not None:
            assert f"{run.mean_faithfulness:.3f}" in row
    assert long.id in stored and any("quarterly" in line for line in lines)
    if columns < 80:
        note = " ".join(" ".join(lines[-2:]).split())
        assert note == "(left out on a terminal this narrow: created, type; --json shows every field)"
    else:
        assert not any("left out" in line for line in lines)
    lines = _lines("datasets", columns=columns)
    assert all(len(line) <= columns for line in lines), "\n".join(lines)
    for dataset in datasets:
        row = _row(lines, dataset.id)
        assert str(dataset.questions) in row and dataset.fingerprint[:12] in row


def test_results_prints_the_panels_of_a_completed_run(runs: dict[str, int]) -> None:
    result = invoke("results", str(runs["rag"]))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith(f"run {runs['rag']} — completed — dataset tests.jsonl")
    assert "Retrieval — tests.jsonl (k=5)" in out and "By category" in out
    assert "Answers — fake/judge" in out  # the generation panel of a full_rag run
    assert "1 missing" in out and "1 unscorable" in out


def test_results_json_is_the_stored_detail(runs: dict[str, int]) -> None:
    result = invoke("results", str(runs["rag"]), "--json")
    detail = RunDetail.model_validate_json(result.stdout)
    with RunStore() as store:
        assert detail == store.get_run(runs["rag"])
    outcome = full_rag_outcome()
    assert detail.results == outcome.results and detail.summary == outcome.summary


def test_results_out_dir_writes_the_usual_report(runs: dict[str, int], tmp_path: Path) -> None:
    out = tmp_path / "report"
    result = invoke("results", str(runs["plain"]), "--out-dir", str(out), "--no-plots")
    assert result.exit_code == 0, result.output
    assert {"results.jsonl", "summary.json", "results.csv", "report.md", "report.html"} <= {
        p.name for p in out.iterdir()
    }
    assert "wrote 5 files" in result.stderr
    assert load_results(out) == retrieval_outcome().results
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["overall"]["MRR@5"]["mean"] == 0.5


def test_failed_run_shows_status_error_and_partial_results(runs: dict[str, int], tmp_path: Path) -> None:
    result = invoke("results", str(runs["failed"]))
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert f"run {runs['failed']} — failed" in out
    assert "error: LLMError: the judge [model] is down" in out  # markup-like text is shown as written
    assert "partial results: 3 question(s)" in out and "Retrieval — tests.jsonl (k=5)" in out
    detail = RunDetail.model_validate_json(invoke("results", str(runs["failed"]), "--json").stdout)
    outcome = stored_outcome(detail)
    assert outcome is not None and outcome.summary.questions == 3
    assert outcome.summary.notes == ["partial results of a failed run"]
    assert invoke("results", str(runs["failed"]), "-o", str(tmp_path / "r"), "--no-plots").exit_code == 0
    assert len(load_results(tmp_path / "r")) == 3


def test_pending_run_has_no_results_yet(runs: dict[str, int], tmp_path: Path) -> None:
    result = invoke("results", str(runs["pending"]))
    assert result.exit_code == 0 and "— pending —" in result.stdout and "no results yet" in result.stdout
    written = invoke("results", str(runs["pending"]), "--out-dir", str(tmp_path / "r"))
    assert written.exit_code == 2
    assert written.stderr.strip().endswith(f"run {runs['pending']} has no results to write (status pending)")
    assert not (tmp_path / "r").exists()


def test_unknown_run_id_is_one_line_and_exit_2(runs: dict[str, int]) -> None:
    result = invoke("results", "99")
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == "error: no run with id 99 (evaluate runs lists them)\n"


@pytest.mark.parametrize("command", [["runs"], ["datasets"], ["results", "1"]])
def test_unreachable_store_is_one_line_and_exit_2_without_the_password(command: list[str]) -> None:
    result = invoke(*command, "--store", UNREACHABLE)
    assert result.exit_code == 2 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: cannot open the run store postgresql+psycopg://u:***@")
    assert "secret" not in result.stderr


def test_store_option_of_the_group_is_used_by_the_commands(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'elsewhere' / 'runs.db'}"
    with RunStore(url) as store:
        run = store.record(retrieval_outcome(), questions=QUESTIONS, dataset_name="far", dataset_source="far")
    assert [r["id"] for r in json.loads(invoke("--store", url, "runs", "--json").stdout)] == [run.id]
    assert json.loads(invoke("runs", "--json").stdout) == []  # the default store is another one
    assert [r["id"] for r in json.loads(invoke("runs", "--store", url, "--json").stdout)] == [run.id]


def test_load_results_ref_reads_stored_runs_folders_and_files(
    runs: dict[str, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert load_results_ref(str(runs["plain"])) == retrieval_outcome().results
    assert load_results_ref(f"run:{runs['rag']}") == full_rag_outcome().results
    partial = load_results_ref(str(runs["failed"]))  # a failed run's partial results compare too
    overall, _categories, unmatched = compare(partial, load_results_ref(str(runs["plain"])))
    assert unmatched == 1 and {c.metric for c in overall} >= {"MRR@5", "nDCG@5"}

    monkeypatch.chdir(tmp_path)
    other = retrieval_outcome(first="a.md")
    write_report(other, tmp_path / str(runs["plain"]), plots=False)  # a folder named like the run id wins
    assert load_results_ref(str(runs["plain"])) == other.results
    assert load_results_ref(str(tmp_path / str(runs["plain"]) / "results.jsonl")) == other.results

    with pytest.raises(StoreNotFound, match="no run with id 99"):
        load_results_ref("99")
    with pytest.raises(UserInputError, match=f"run {runs['pending']} has no results to compare"):
        load_results_ref(str(runs["pending"]))
    with pytest.raises(UserInputError, match="no such results file"):
        load_results_ref("no_such_folder")
    with pytest.raises(UserInputError, match=r"u:\*\*\*@") as caught:
        load_results_ref("77", UNREACHABLE)
    assert "secret" not in str(caught.value)


def test_commands_on_a_postgresql_store(request: pytest.FixtureRequest) -> None:
    server: PostgresServer = request.getfixturevalue("postgres_server")
    url = server.create_database("cli")
    with RunStore(url) as store:
        ids = fill(store)
    listed = json.loads(invoke("runs", "--store", url, "--json").stdout)
    assert [r["id"] for r in listed] == [ids["pending"], ids["failed"], ids["rag"], ids["plain"]]
    shown = invoke("results", str(ids["rag"]), "--store", url)
    assert shown.exit_code == 0 and "Answers — fake/judge" in shown.stdout
    assert load_results_ref(str(ids["rag"]), url) == full_rag_outcome().results
