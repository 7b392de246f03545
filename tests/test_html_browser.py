"""The HTML report rendered by a real headless browser (skipped when Chromium is not installed)."""

from __future__ import annotations

import subprocess
from pathlib import Path

from browser import CHROMIUM, FLAGS, needs_chromium

from evaluators.evaluate import score
from evaluators.report import write_report
from schemas import RetrievedContext, RunRecord, TestQuestion

pytestmark = needs_chromium


def _report(tmp_path: Path) -> Path:
    questions = [
        TestQuestion(
            question=f"질문 {i}: <b>when</b>?",
            keywords=["x"],
            reference_answer="x",
            category=["direct_fact", "temporal", "spanning"][i % 3],
            source_docs=[f"{i}.md"],
        )
        for i in range(9)
    ]
    records = [
        RunRecord(
            question=q.question,
            contexts=[RetrievedContext(doc_id=d, text="x") for d in (["z.md", f"{i}.md"] if i % 2 else [f"{i}.md"])],
        )
        for i, q in enumerate(questions)
    ]
    written = write_report(score(questions, records, k=5, dataset="browser-check"), tmp_path / "report")
    return written["html"]


def test_report_renders_in_headless_chromium(tmp_path: Path) -> None:
    html = _report(tmp_path)
    profile = tmp_path / "profile"
    dom = subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", html.as_uri()],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    assert "Retrieval evaluation — browser-check" in dom
    assert dom.count("<img") == 3 and "data:image/png;base64," in dom
    assert "&lt;b&gt;when&lt;/b&gt;" in dom and "<b>when</b>" not in dom  # escaped, not rendered as markup
    shot = tmp_path / "shot.png"
    subprocess.run(
        [
            CHROMIUM,
            *FLAGS,
            f"--user-data-dir={profile}",
            "--window-size=1200,1600",
            f"--screenshot={shot}",
            html.as_uri(),
        ],
        capture_output=True,
        timeout=120,
        check=True,
    )
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    assert (width, height) == (1200, 1600)
    assert len(data) > 30_000  # a blank page compresses to a few kB; tables and plots do not
