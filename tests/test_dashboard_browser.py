"""The dashboard rendered by a real headless browser against a live server (skipped without Chromium)."""

from __future__ import annotations

import socket
import struct
import subprocess
import threading
import time
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest
import uvicorn
from browser import CHROMIUM, FLAGS, needs_chromium

from evaluators.api import create_app
from evaluators.evaluate import EvaluationOutcome, score, summarize
from evaluators.store import RunStore
from schemas import EvaluationSummary, RetrievedContext, RunDetail, RunRecord, TestQuestion

pytestmark = needs_chromium
K = 5
CATEGORIES = ["direct_fact", "temporal", "numerical"]


@dataclass
class Served:
    """A live server over a store with two completed retrieval runs, a failed one and a full_rag one."""

    url: str
    english: int
    korean: int
    failed: int
    full_rag: int
    outcomes: dict[int, EvaluationOutcome]
    full_rag_summary: EvaluationSummary


def _questions(texts: list[str]) -> list[TestQuestion]:
    return [
        TestQuestion(
            question=text, keywords=["x"], reference_answer="x", category=CATEGORIES[i % 3], source_docs=[f"{i}.md"]
        )
        for i, text in enumerate(texts)
    ]


def _outcome(questions: list[TestQuestion], miss_every: int) -> EvaluationOutcome:
    """Question i retrieves its document first, or second when i is a multiple of `miss_every`."""
    records = [
        RunRecord(
            question=q.question,
            contexts=[
                RetrievedContext(doc_id=d, text="x")
                for d in (["z.md", f"{i}.md"] if i % miss_every == 0 else [f"{i}.md", "z.md"])
            ],
        )
        for i, q in enumerate(questions)
    ]
    target = {"target": "baseline", "kb": "kb"}
    return score(questions, records, k=K, dataset="browser-check", target=target, seconds=12.34)


def _completed(
    store: RunStore, questions: list[TestQuestion], name: str, miss_every: int
) -> tuple[int, EvaluationOutcome]:
    dataset = store.add_dataset(questions, name=name, source="upload")
    run = store.create_run(
        dataset.id, config={"k": K}, target={"target": "baseline", "kb": "kb"}, k=K, evaluation_type="retrieval_only"
    )
    store.mark_running(run.id)
    outcome = _outcome(questions, miss_every)
    store.complete_run(run.id, outcome.summary, outcome.results)
    return run.id, outcome


def _full_rag(store: RunStore, dataset_id: int, outcome: EvaluationOutcome) -> tuple[int, EvaluationSummary]:
    """A full_rag run: the retrieval results plus answers and judge/RAGAS scores."""
    results = [
        r.model_copy(
            update={
                "answer": f"답변 {i}: <script>alert(1)</script>",
                "metrics": {
                    **r.metrics,
                    "judge_accuracy": 3.0 + i % 3,
                    "judge_faithfulness": 0.5 + 0.1 * (i % 3),
                    "judge_answer_relevancy": 0.9,
                    "ragas_faithfulness": 0.45,
                },
            }
        )
        for i, r in enumerate(outcome.results)
    ]
    target = {"target": "baseline", "kb": "kb"}
    summary = summarize(results, dataset="한국어 세트", target=target, k=K, evaluation_type="full_rag", model="judge-9")
    run = store.create_run(dataset_id, config={"k": K}, target=target, k=K, evaluation_type="full_rag")
    store.complete_run(run.id, summary, results)
    return run.id, summary


@contextmanager
def _serving(store: RunStore) -> Iterator[str]:
    """Serve the API over `store` on a free loopback port; yield its base URL."""
    app = create_app(store)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(30)
        sock.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    store = RunStore(f"sqlite:///{tmp_path_factory.mktemp('dashboard') / 'runs.db'}")
    english_qs = _questions([f"Question {i}: is <b>x</b> bold?" for i in range(6)])
    korean_qs = _questions(
        ["자전거 보증 기간은 몇 년인가요?", "포르투 매장은 언제 열었나요?", "프레임 무게는 얼마인가요?"] * 2
    )
    english, english_outcome = _completed(store, english_qs, "english <set>", miss_every=2)
    korean, korean_outcome = _completed(store, korean_qs, "한국어 세트", miss_every=3)
    failing = store.create_run(
        store.get_run(english).dataset_id, config={"k": K}, target={}, k=K, evaluation_type="retrieval_only"
    )
    store.fail_run(failing.id, "RuntimeError: <i>judge</i> went away", english_outcome.results[:2])
    full, full_summary = _full_rag(store, store.get_run(korean).dataset_id, korean_outcome)
    try:
        with _serving(store) as url:
            yield Served(
                url, english, korean, failing.id, full, {english: english_outcome, korean: korean_outcome}, full_summary
            )
    finally:
        store.close()


def _dom(url: str, profile: Path) -> str:
    dom = subprocess.run(
        [CHROMIUM or "chromium", *FLAGS, f"--user-data-dir={profile}", "--virtual-time-budget=5000", "--dump-dom", url],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    assert "[object " not in dom  # every value rendered as text, none as a stringified object
    assert 'class="banner error">' not in dom  # no request failed (a run's own error has id="run-error")
    return dom


def test_a_run_shows_its_metrics_categories_and_escaped_questions(served: Served, tmp_path: Path) -> None:
    dom = _dom(f"{served.url}/#run={served.english}", tmp_path / "profile")
    summary = served.outcomes[served.english].summary
    assert f"Run #{served.english}" in dom and "english &lt;set&gt;" in dom
    for name in (f"MRR@{K}", f"nDCG@{K}", f"Hit@{K}"):
        assert f'data-metric="{name}"' in dom
        assert f"{summary.overall[name].mean:.3f}" in dom
    for category in CATEGORIES:
        assert f'data-category="{category}"' in dom
    assert "<svg" in dom and "per-category MRR@5 and nDCG@5" in dom
    assert "Question 0: is &lt;b&gt;x&lt;/b&gt; bold?" in dom
    assert "<b>x</b>" not in dom  # escaped, never rendered as markup
    assert 'class="pill completed"' in dom
    assert f'data-run="{served.korean}"' in dom and "한국어 세트" in dom  # the other runs are listed


def test_precision_is_banded_against_the_best_the_set_allows(served: Served, tmp_path: Path) -> None:
    dom = _dom(f"{served.url}/#run={served.english}", tmp_path / "profile")
    # one relevant document per question, each found in the top 2: P@5 = 0.2, the best any ranking reaches
    assert served.outcomes[served.english].summary.overall[f"P@{K}"].mean == pytest.approx(0.2)
    row = dom.split(f'data-metric="P@{K}"', 1)[1].split("</tr>", 1)[0]
    assert 'class="num excellent"' in row and "excellent (best possible 0.200)" in row
    assert "needs work" not in row
    meta = dom.split(f"Run #{served.english}", 1)[1].split('<p class="meta">', 1)[1].split("</p>", 1)[0]
    assert "questions (6 scored) · run time 12.3 s" in meta


def test_a_korean_run_renders_its_questions(served: Served, tmp_path: Path) -> None:
    dom = _dom(f"{served.url}/#run={served.korean}", tmp_path / "profile")
    assert "자전거 보증 기간은 몇 년인가요?" in dom and "한국어 세트" in dom
    mrr = served.outcomes[served.korean].summary.overall[f"MRR@{K}"].mean
    assert f"{mrr:.3f}" in dom


def test_a_failed_run_shows_its_error_escaped_and_its_partial_results(served: Served, tmp_path: Path) -> None:
    dom = _dom(f"{served.url}/#run={served.failed}", tmp_path / "profile")
    assert 'class="pill failed"' in dom
    assert "RuntimeError: &lt;i&gt;judge&lt;/i&gt; went away" in dom and "<i>judge</i>" not in dom
    assert "Partial results: 2 questions" in dom and "Questions (2)" in dom


def test_compare_shows_both_runs_and_their_deltas(served: Served, tmp_path: Path) -> None:
    a, b = served.english, served.korean
    dom = _dom(f"{served.url}/#compare={a},{b}", tmp_path / "profile")
    assert f"Compare run #{a} (A) with run #{b} (B)" in dom
    assert "english &lt;set&gt;" in dom and "한국어 세트" in dom
    assert "Δ (B − A)" in dom
    name = f"MRR@{K}"
    mean_a = served.outcomes[a].summary.overall[name].mean
    mean_b = served.outcomes[b].summary.overall[name].mean
    delta = mean_b - mean_a
    assert delta > 0  # the Korean run misses less often
    assert f"+{delta:.3f}" in dom and 'class="num delta pos"' in dom
    by_category = dom.split('id="compare-categories"', 1)[1].split("</table>", 1)[0]
    for category in CATEGORIES:
        assert f'data-category="{category}"' in by_category
        means = [served.outcomes[run].summary.by_category[category][name].mean for run in (a, b)]
        shift = means[1] - means[0]
        sign = "+" if shift > 0.0005 else "−" if shift < -0.0005 else "±"
        assert f">{sign}{abs(shift):.3f}</td>" in by_category
    assert "per-category delta of MRR@5" in dom


def test_a_full_rag_run_shows_answer_metrics_and_escaped_answers(served: Served, tmp_path: Path) -> None:
    dom = _dom(f"{served.url}/#run={served.full_rag}", tmp_path / "profile")
    overall = served.full_rag_summary.overall
    generation = dom.split('id="generation"', 1)[1].split("</table>", 1)[0]
    assert "Answers — judge-9" in dom
    for name in ("judge_accuracy", "judge_faithfulness", "judge_answer_relevancy", "ragas_faithfulness"):
        assert f'data-metric="{name}"' in generation
    assert f"{overall['judge_accuracy'].mean:.2f}" in generation  # the 1–5 score, two decimals
    assert "mean faithfulness" in generation and f"{overall['judge_faithfulness'].mean:.3f}" in generation
    assert 'class="num fair" title="fair">0.450<' in generation  # ragas_faithfulness in the 0.4–0.6 band
    assert "답변 0: &lt;script&gt;alert(1)&lt;/script&gt;" in dom and "<script>alert(1)" not in dom
    assert "Answers by category" in dom


class _CompletesAfterFirstRead(RunStore):
    """A store whose run `watched` is running until the dashboard has read it once, then completed."""

    watched = 0
    reads = 0
    outcome: EvaluationOutcome | None = None

    def get_run(self, run_id: int, *, with_results: bool = True) -> RunDetail:
        detail = super().get_run(run_id, with_results=with_results)
        if run_id == self.watched:
            self.reads += 1
            if self.reads == 1 and self.outcome is not None:
                self.complete_run(run_id, self.outcome.summary, self.outcome.results)
        return detail


def test_a_running_run_refreshes_until_it_completes(tmp_path: Path) -> None:
    store = _CompletesAfterFirstRead(f"sqlite:///{tmp_path / 'runs.db'}")
    questions = _questions(["달리는 중인 질문?", "second question?", "third question?"])
    dataset = store.add_dataset(questions, name="live", source="upload")
    run = store.create_run(dataset.id, config={}, target={"target": "baseline"}, k=K, evaluation_type="retrieval_only")
    store.mark_running(run.id)
    store.watched, store.outcome = run.id, _outcome(questions, miss_every=2)
    try:
        with _serving(store) as url:
            dom = _dom(f"{url}/#run={run.id}", tmp_path / "profile")
    finally:
        store.close()
    assert store.reads >= 2  # read running, then again after the 2 s refresh
    assert 'class="pill completed"' in dom and 'class="pill running"' not in dom
    assert f"{store.outcome.summary.overall[f'MRR@{K}'].mean:.3f}" in dom and "달리는 중인 질문?" in dom


def _png_pixels(data: bytes) -> tuple[int, int, set[bytes]]:
    """Width, height and the distinct pixel values of an 8-bit RGB or RGBA PNG (enough for Chromium's shots)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        (length,), kind = struct.unpack(">I", data[pos : pos + 4]), data[pos + 4 : pos + 8]
        chunk = data[pos + 8 : pos + 8 + length]
        header = chunk if kind == b"IHDR" else header
        idat += chunk if kind == b"IDAT" else b""
        pos += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6), (depth, colour)
    bpp = 4 if colour == 6 else 3
    raw, stride = zlib.decompress(idat), width * bpp
    previous = bytearray(stride)
    colours: set[bytes] = set()
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up, corner = previous[i], previous[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                line[i] = (line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        if y % 4 == 0:
            colours.update(bytes(line[i : i + bpp]) for i in range(0, stride, bpp * 2))
        previous = line
    return width, height, colours


def test_a_screenshot_of_the_dashboard_is_not_blank(
    served: Served, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shot = tmp_path / "dashboard.png"
    subprocess.run(
        [
            CHROMIUM or "chromium",
            *FLAGS,
            f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1400,1000",
            "--virtual-time-budget=5000",
            "--hide-scrollbars",
            f"--screenshot={shot}",
            f"{served.url}/#run={served.english}",
        ],
        capture_output=True,
        timeout=120,
        check=True,
    )
    with capsys.disabled():
        print(f"\ndashboard screenshot: {shot}")
    data = shot.read_bytes()
    width, height, colours = _png_pixels(data)
    assert (width, height) == (1400, 1000)
    assert len(colours) > 50  # text, bands, pills and bars; a blank page has one or two
    assert len(data) > 30_000
