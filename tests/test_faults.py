"""Faults a user meets, run end to end the way a user would: large documents, echoed secrets, killed runs.

Each test drives the command line (in-process with click's runner, or as a subprocess where a kill or a real
server is involved) and checks what lands on disk and on the console.
"""

from __future__ import annotations

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
