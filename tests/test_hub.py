"""Hugging Face Hub push and load, against the local fake Hub in tests/fake_hub.py (never the real Hub)."""

from __future__ import annotations

import io
import json
import logging
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx
import pyarrow.parquet as pq
import pytest
import yaml
from click.testing import CliRunner, Result
from fake_hub import FakeHub

from schemas import TestQuestion
from testgen.cli.push import push
from testgen.errors import DatasetFormatError, UserInputError
from testgen.export import (
    dataset_card,
    from_hf_dataset,
    from_ragas_dataset,
    save_hf_dataset,
    size_category,
    to_hf_dataset,
    to_ragas_dataset,
    write_jsonl,
)
from testgen.hub import HubError, HubRef, dataset_ref_name, load_dataset_ref, push_dataset, read_summary, resolve_token
from testgen.pipeline import build_testset

EXAMPLES = Path(__file__).parents[1] / "examples"
TOKEN = "hf_FAKEtok3n_d0NotLeak_8c1f"
PARQUET = "data/test-00000-of-00001.parquet"
LOGGERS = ("", "huggingface_hub", "httpx", "httpcore", "datasets", "testgen", "filelock", "urllib3")


@pytest.fixture(scope="module")
def items() -> list[TestQuestion]:
    out = build_testset(EXAMPLES / "aurora_bikes", num=14, seed=3).result.items
    out += build_testset(EXAMPLES / "haneul_travel", num=8, seed=3).result.items
    out.append(  # a hand-written five-field item: optional fields absent
        TestQuestion(question="Who?", keywords=["x"], reference_answer="X.", category="my_own", source_docs=["a.md"])
    )
    return out


@pytest.fixture
def dataset_file(items: list[TestQuestion], tmp_path: Path) -> Path:
    path = write_jsonl(items, tmp_path / "tests.jsonl")
    summary = build_testset(EXAMPLES / "aurora_bikes", num=14, seed=3).summary()
    (tmp_path / "tests.summary.json").write_text(json.dumps(summary), encoding="utf-8")
    return path


@pytest.fixture
def logs() -> Iterator[list[str]]:
    """Every log record of every library involved, at DEBUG, formatted with its traceback."""
    records: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(logging.Formatter().format(record))

    handler, saved = Keep(logging.DEBUG), {}
    for name in LOGGERS:
        logger = logging.getLogger(name)
        saved[name] = logger.level
        logger.setLevel(logging.DEBUG)
        logger.addHandler(handler)
    yield records
    for name in LOGGERS:
        logging.getLogger(name).removeHandler(handler)
        logging.getLogger(name).setLevel(saved[name])


@pytest.fixture
def hub(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeHub]:
    """A fake Hub; huggingface_hub pointed at it, with an empty HF_HOME, and every other host refused."""
    import huggingface_hub.constants as constants

    fake = FakeHub().start()
    home = tmp_path / "hf_home"
    monkeypatch.setenv("HF_ENDPOINT", fake.endpoint)
    monkeypatch.setenv("HF_HOME", str(home))
    monkeypatch.setenv("HF_TOKEN", TOKEN)
    for name in ("HUGGING_FACE_HUB_TOKEN", "HF_OIDC_RESOURCE", "HF_HUB_OFFLINE"):
        monkeypatch.delenv(name, raising=False)
    # huggingface_hub reads these at import; a test must neither find a real login nor reach the real Hub.
    monkeypatch.setattr(constants, "ENDPOINT", fake.endpoint)  # as if HF_ENDPOINT had been set before the import
    template = fake.endpoint + "/{repo_id}/resolve/{revision}/{filename}"
    monkeypatch.setattr(constants, "HUGGINGFACE_CO_URL_TEMPLATE", template)  # hf_hub_url builds URLs from this
    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)  # CI sets HF_HUB_OFFLINE=1
    monkeypatch.setattr(constants, "HF_TOKEN_PATH", str(home / "token"))
    monkeypatch.setattr(constants, "HF_STORED_TOKENS_PATH", str(home / "stored_tokens"))
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(home / "hub"))
    monkeypatch.setattr(constants, "AGENT_HARNESSES_PATH", str(home / "agents.json"))
    elsewhere: list[str] = []
    send = httpx.HTTPTransport.handle_request

    def local_only(self: httpx.HTTPTransport, request: httpx.Request) -> httpx.Response:
        if request.url.host != "127.0.0.1":
            elsewhere.append(str(request.url))
            raise httpx.ConnectError("test: only 127.0.0.1 may be contacted", request=request)
        return send(self, request)

    monkeypatch.setattr(httpx.HTTPTransport, "handle_request", local_only)
    yield fake
    fake.stop()
    assert elsewhere == []


def run_push(*args: str) -> Result:
    return CliRunner().invoke(push, list(args), catch_exceptions=False)


def front_matter(card: str) -> dict:
    assert card.startswith("---\n")
    return yaml.safe_load(card.split("---\n")[1])


# -------------------------------------------------------------------------------------------------- push


def test_push_uploads_parquet_and_card(
    hub: FakeHub, items: list[TestQuestion], dataset_file: Path, logs: list[str], tmp_path: Path
) -> None:
    result = run_push("--dataset", str(dataset_file), "--repo", "acme/aurora-rag")
    assert result.exit_code == 0, result.output
    assert f"pushed {len(items)} questions to {hub.endpoint}/datasets/acme/aurora-rag" in result.stdout
    uploaded = hub.uploaded()
    assert sorted(uploaded) == ["README.md", PARQUET]
    assert hub.files("acme/aurora-rag")[PARQUET] == uploaded[PARQUET]

    rows = pq.read_table(io.BytesIO(uploaded[PARQUET])).to_pylist()
    assert rows == to_hf_dataset(items).to_list()
    assert from_hf_dataset(rows) == items

    card = uploaded["README.md"].decode()
    meta = front_matter(card)
    assert meta["language"] == ["en", "ko"]
    assert meta["size_categories"] == ["n<1K"]
    assert meta["license"] == "other"
    assert "license: other  # placeholder: set the real license" in card
    assert meta["task_categories"] == ["question-answering"]
    assert meta["tags"] == ["rag", "evaluation", "synthetic"]
    assert meta["configs"] == [{"config_name": "default", "data_files": [{"split": "test", "path": "data/test-*"}]}]
    for category, n in Counter(i.category for i in items).items():
        assert f"| `{category}` | {n} |" in card
    for name, field in TestQuestion.model_fields.items():
        assert f"| `{name}` |" in card and str(field.description) in card
    summary = read_summary(dataset_file)
    assert summary and f"Fingerprint `{summary['kb_fingerprint']}`" in card
    assert "| generator | testgen-offline |" in card and "| seed | 3 |" in card
    assert "datasets import load_dataset" in card and "evaluate --dataset hf://acme/aurora-rag" in card
    assert str(tmp_path) not in card  # no local paths leak into a public card

    # The token authenticates every call to the fake Hub, and appears nowhere else.
    authed = [r for r in hub.requests if r.path.startswith("/api/") and "agent-harnesses" not in r.path]
    assert authed and all(r.headers.get("authorization") == f"Bearer {TOKEN}" for r in authed)
    assert all(TOKEN.encode() not in r.body for r in hub.requests)
    assert all(TOKEN.encode() not in content for content in uploaded.values())
    assert TOKEN not in result.stdout + result.stderr
    assert logs and TOKEN not in "\n".join(logs)


def test_card_configs_are_what_datasets_loads(hub: FakeHub, items: list[TestQuestion], tmp_path: Path) -> None:
    import datasets

    push_dataset(items, "acme/cfg")
    mirror = tmp_path / "mirror"
    for path, content in hub.files("acme/cfg").items():
        (mirror / path).parent.mkdir(parents=True, exist_ok=True)
        (mirror / path).write_bytes(content)
    loaded = datasets.load_dataset(str(mirror), cache_dir=str(tmp_path / "cache"))
    assert list(loaded) == ["test"]
    assert from_hf_dataset(loaded["test"]) == items


def test_push_then_load_round_trip(hub: FakeHub, items: list[TestQuestion], tmp_path: Path) -> None:
    cache = str(tmp_path / "cache")
    first = push_dataset(items, "acme/rt", license="cc-by-4.0")
    back = load_dataset_ref("hf://acme/rt", cache_dir=cache)
    assert back == items
    assert [i.source_docs for i in back] == [i.source_docs for i in items]
    assert [i.metadata for i in back] == [i.metadata for i in items]
    downloads = [r.path for r in hub.requests if "/resolve/" in r.path]
    assert downloads and all(f"/resolve/{first.commit}/" in p for p in downloads)  # pinned to one snapshot

    # A second split: the card lists both, `#split` picks one, no split gives all in split-name order.
    push_dataset(items[:5], "acme/rt", split="validation", license="cc-by-4.0")
    card = hub.files("acme/rt")["README.md"].decode()
    assert front_matter(card)["configs"][0]["data_files"] == [
        {"split": "test", "path": "data/test-*"},
        {"split": "validation", "path": "data/validation-*"},
    ]
    assert front_matter(card)["license"] == "cc-by-4.0" and "placeholder" not in card
    assert load_dataset_ref("hf://acme/rt#validation", cache_dir=cache) == items[:5]
    assert load_dataset_ref(f"hf://acme/rt@{first.commit}", cache_dir=cache) == items
    assert load_dataset_ref("hf://datasets/acme/rt@main", cache_dir=cache) == items + items[:5]


def test_push_to_a_new_branch(hub: FakeHub, items: list[TestQuestion], tmp_path: Path) -> None:
    push_dataset(items, "acme/br", revision="v1")
    assert sorted(hub.files("acme/br", "v1")) == [".gitattributes", "README.md", PARQUET]
    assert sorted(hub.files("acme/br", "main")) == [".gitattributes"]
    assert load_dataset_ref("hf://acme/br@v1#test", cache_dir=str(tmp_path)) == items
    with pytest.raises(HubError, match=r"no Parquet file for that split under data/ \(splits found: none\)"):
        load_dataset_ref("hf://acme/br", cache_dir=str(tmp_path))
    with pytest.raises(HubError, match="acme/br has no revision 'nope'"):
        load_dataset_ref("hf://acme/br@nope", cache_dir=str(tmp_path))


# -------------------------------------------------------------------------------------------------- load


def test_load_local_references(items: list[TestQuestion], dataset_file: Path, tmp_path: Path) -> None:
    folder = save_hf_dataset(items, tmp_path / "tests.hf")
    assert load_dataset_ref(folder) == items
    assert load_dataset_ref(str(dataset_file)) == items
    to_hf_dataset(items).to_parquet(str(tmp_path / "tests.parquet"))
    assert load_dataset_ref(tmp_path / "tests.parquet") == items
    (tmp_path / "empty").mkdir()
    with pytest.raises(UserInputError, match="not a folder written by save_to_disk"):
        load_dataset_ref(tmp_path / "empty")
    bad = tmp_path / "bad.parquet"
    to_hf_dataset(items).remove_columns(["question"]).to_parquet(str(bad))
    with pytest.raises(DatasetFormatError, match=r"bad.parquet:1: row 1, field 'question': field required"):
        load_dataset_ref(bad)


def test_hub_ref_syntax() -> None:
    assert HubRef.parse("hf://acme/set") == HubRef("acme/set")
    assert HubRef.parse("hf://acme/set@v1.0#test") == HubRef("acme/set", "v1.0", "test")
    assert HubRef.parse("hf://acme/set#validation") == HubRef("acme/set", None, "validation")
    assert HubRef.parse("hf://datasets/acme/set@refs/pr/1") == HubRef("acme/set", "refs/pr/1", None)
    assert dataset_ref_name("hf://acme/set@v1#test") == "hf://acme/set@v1#test"
    assert dataset_ref_name(Path("out/tests.jsonl")) == "tests.jsonl"
    for bad in ("hf://acme", "hf://a/b/c", "hf://acme/set#bad-split", "hf://acme/set@", "hf://acme/--x"):
        with pytest.raises(HubError):
            HubRef.parse(bad)


# -------------------------------------------------------------------------------------------------- RAGAS


def test_ragas_round_trip(items: list[TestQuestion]) -> None:
    from ragas import EvaluationDataset

    hf = to_ragas_dataset(items).to_hf_dataset()
    assert hf.column_names[:2] == ["user_input", "reference_contexts"]
    for back in (from_ragas_dataset(EvaluationDataset.from_hf_dataset(hf)), from_ragas_dataset(hf.to_list())):
        assert [b.question for b in back] == [i.question for i in items]
        assert [b.reference_answer for b in back] == [i.reference_answer for i in items]
        assert [b.reference_contexts for b in back] == [i.reference_contexts for i in items]
        assert [b.source_docs for b in back] == [i.source_docs for i in items]
        assert [b.id for b in back[:-1]] == [i.id for i in items[:-1]]  # generated ids are recomputed exactly
        assert {b.category for b in back} == {"uncategorized"} and all(b.keywords == [] for b in back)
    with pytest.raises(UserInputError, match="RAGAS sample 1: user_input is not a single-turn question"):
        from_ragas_dataset([{"user_input": [{"content": "hi", "type": "human"}]}])


# -------------------------------------------------------------------------------------------------- card


def test_card_without_summary_and_sizes(items: list[TestQuestion]) -> None:
    card = dataset_card(items[:3], "acme/x", license="mit")
    assert "Rejection statistics are not available" in card and "Not available: no build summary" in card
    assert front_matter(card)["license"] == "mit"
    assert [size_category(n) for n in (0, 999, 1000, 9_999, 10_000, 999_999, 10**6, 10**12)] == [
        "n<1K", "n<1K", "1K<n<10K", "1K<n<10K", "10K<n<100K", "100K<n<1M", "1M<n<10M", "n>1T",
    ]  # fmt: skip


# -------------------------------------------------------------------------------------------------- errors


def test_no_token(hub: FakeHub, dataset_file: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("HF_TOKEN")
    message = "no Hugging Face token: set HF_TOKEN or run `hf auth login`"
    with pytest.raises(HubError) as caught:
        resolve_token()
    assert str(caught.value) == message
    result = run_push("--dataset", str(dataset_file), "--repo", "acme/x")
    assert result.exit_code == 2 and result.stderr == f"error: {message}\n"
    result = run_push("--dataset", str(dataset_file), "--repo", "acme/x", "--token-env", "MY_HF_TOKEN")
    assert result.exit_code == 2 and "$MY_HF_TOKEN is empty" in result.stderr
    assert [r for r in hub.requests if "/api/repos" in r.path] == []


def test_token_env(
    hub: FakeHub, items: list[TestQuestion], dataset_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("HF_TOKEN")
    monkeypatch.setenv("MY_HF_TOKEN", "hf_other_token_42")
    result = run_push("--dataset", str(dataset_file), "--repo", "acme/env", "--token-env", "MY_HF_TOKEN")
    assert result.exit_code == 0, result.output
    commit = next(r for r in hub.requests if "/commit/" in r.path)
    assert commit.headers["authorization"] == "Bearer hf_other_token_42"


@pytest.mark.parametrize("exists", [True, False])
def test_forbidden(hub: FakeHub, dataset_file: Path, logs: list[str], exists: bool) -> None:
    if exists:
        hub.add_repo("acme/locked", {"README.md": b"hello"})
    hub.deny_write("acme/locked")
    result = run_push("--dataset", str(dataset_file), "--repo", "acme/locked")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: cannot write to acme/locked: the token lacks write access")
    assert result.stderr.count("\n") == 1 and TOKEN not in result.output + "\n".join(logs)
    assert not any("/commit/" in r.path for r in hub.requests)  # refused at preupload, before any commit
    if exists:
        assert hub.files("acme/locked") == {"README.md": b"hello"}
    else:
        assert "acme/locked" not in hub.repos


def test_private_refused_on_public_repo(hub: FakeHub, items: list[TestQuestion]) -> None:
    hub.add_repo("acme/public")
    with pytest.raises(HubError, match="acme/public exists and is public"):
        push_dataset(items, "acme/public", private=True)
    push_dataset(items, "acme/secret", private=True)
    assert hub.repos["acme/secret"].private


@pytest.mark.parametrize("repo", ["noslash", "a/b/c", "acme/bad--name", "acme/-x", "acme/" + "x" * 97])
def test_invalid_repo_name(hub: FakeHub, dataset_file: Path, repo: str) -> None:
    result = run_push("--dataset", str(dataset_file), "--repo", repo)
    assert result.exit_code == 2 and result.stderr.startswith(f"error: invalid repo name {repo!r}: use namespace/name")
    assert not any("/api/repos" in r.path for r in hub.requests)


def test_unreachable_hub(hub: FakeHub, items: list[TestQuestion], dataset_file: Path, logs: list[str]) -> None:
    hub.stop()
    expected = f"cannot reach the Hub at {hub.endpoint} ("
    with pytest.raises(HubError) as caught:
        push_dataset(items, "acme/x")
    assert str(caught.value).startswith(expected) and str(caught.value).endswith(
        "check the network, proxy and HF_ENDPOINT"
    )
    with pytest.raises(HubError, match="cannot reach the Hub at"):
        load_dataset_ref("hf://acme/x")
    result = run_push("--dataset", str(dataset_file), "--repo", "acme/x")
    assert result.exit_code == 2 and result.stderr.startswith(f"error: {expected}")
    assert TOKEN not in result.output + "\n".join(logs)


def test_missing_dataset_and_repo(hub: FakeHub, tmp_path: Path) -> None:
    with pytest.raises(HubError, match=r"dataset acme/nope not found at http://127\.0\.0\.1:\d+, or private"):
        load_dataset_ref("hf://acme/nope")
    result = run_push("--dataset", str(tmp_path / "missing.jsonl"), "--repo", "acme/x")
    assert result.exit_code == 2 and "missing.jsonl: no such file" in result.stderr
    (tmp_path / "broken.jsonl").write_text("{not json\n", encoding="utf-8")
    result = run_push("--dataset", str(tmp_path / "broken.jsonl"), "--repo", "acme/x")
    assert result.exit_code == 2 and "broken.jsonl:1: invalid JSON" in result.stderr


def test_evaluate_reads_hub_dataset(hub: FakeHub, items: list[TestQuestion], tmp_path: Path) -> None:
    from evaluators.cli import main as evaluate_main

    push_dataset(items, "acme/eval")
    out = tmp_path / "report"
    args = [
        "--dataset",
        "hf://acme/eval#test",
        "--kb",
        str(EXAMPLES / "aurora_bikes"),
        "-o",
        str(out),
        "--no-plots",
        "-q",
    ]
    result = CliRunner().invoke(evaluate_main, args)
    assert result.exit_code == 0, result.output
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["dataset"] == "hf://acme/eval#test"
    assert summary["questions"] == len(items)
    assert CliRunner().invoke(evaluate_main, ["--dataset", "hf://acme/nope", "--kb", "x"]).exit_code == 2
