"""Faults a user meets, run end to end the way a user would: large documents, echoed secrets, killed runs.

Each test drives the command line (in-process with click's runner, or as a subprocess where a kill or a real
server is involved) and checks what lands on disk and on the console.
"""

from __future__ import annotations

import json
import threading
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
    from testgen.cli import _common
    from testgen.kg import build as kg_build

    kb = _kb_with_a_long_document(tmp_path)
    monkeypatch.setattr(kg_build, "LARGE_DOCUMENT", 2000)  # catalogue.md counts as large, orbit_arm.md not
    monkeypatch.setattr(_common, "HEARTBEAT_SECONDS", 0.0)  # every report of an unfinished stage is printed
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
    assert built.exit_code != 0  # every call is refused: nothing to deliver
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
    records = [json.loads(line) for line in (tmp_path / "report" / "results.jsonl").read_text().splitlines()]
    assert len(records) == 3
    assert all("[redacted]" in json.dumps(r) for r in records), records  # the provider's reason is kept, redacted
    stored = "\n".join(
        repr(row) for table in ("results", "runs") for row in sqlite3.connect(store).execute(f"select * from {table}")
    )
    assert _leaks(tmp_path, stored, built.output, result.output) == []
