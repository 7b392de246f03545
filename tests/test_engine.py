"""The engine interface without Ray: the local engine's order, progress and setup, choosing an engine, and what
happens when Ray is asked for but not installed (the Ray engine itself: tests/test_engine_ray.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from evaluators.cli import main as evaluate_main
from testgen.cli import main as tg_main
from testgen.engine import ENV_VAR, INSTALL_HINT, LocalEngine, make_engine
from testgen.errors import EngineError, OptionError

ROOT = Path(__file__).parents[1]
AURORA = ROOT / "examples" / "aurora_bikes"


def _square(offset: int, item: int) -> int:
    return item * item + offset


def test_local_map_keeps_item_order_and_passes_shared() -> None:
    assert LocalEngine().map(_square, [3, 1, 2], shared=10) == [19, 11, 14]
    assert LocalEngine().map(_square, [], shared=10) == []


def test_local_progress_is_reported_at_each_multiple_of_every_and_at_the_end() -> None:
    calls: list[tuple[str, int, int]] = []
    LocalEngine().map(_square, list(range(5)), shared=0, stage="s", progress=lambda *c: calls.append(c), every=2)
    assert calls == [("s", 2, 5), ("s", 4, 5), ("s", 5, 5)]


def test_local_progress_counts_weights_and_reports_crossed_multiples_once() -> None:
    calls: list[tuple[str, int, int]] = []
    items = [3, 1, 4]  # weights: 3, 1, 4 → totals 3, 4, 8
    LocalEngine().map(
        _square, items, shared=0, stage="w", progress=lambda *c: calls.append(c), weight=lambda n: n, every=2
    )
    assert calls == [("w", 3, 8), ("w", 4, 8), ("w", 8, 8)]


def test_local_progress_is_silent_for_no_items() -> None:
    calls: list[tuple[str, int, int]] = []
    LocalEngine().map(_square, [], stage="s", progress=lambda *c: calls.append(c))
    assert calls == []


def test_local_map_with_sets_up_once_and_not_at_all_for_no_items() -> None:
    setups: list[int] = []

    def setup() -> int:
        setups.append(1)
        return 100

    assert LocalEngine().map_with(setup, _square, [1, 2, 3]) == [101, 104, 109]
    assert setups == [1]
    assert LocalEngine().map_with(setup, _square, []) == []
    assert setups == [1]


def test_make_engine_defaults_to_local_and_reads_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    assert isinstance(make_engine(), LocalEngine)
    monkeypatch.setenv(ENV_VAR, "Local")
    assert make_engine().describe() == {"engine": "local", "workers": 1}


def test_make_engine_refuses_unknown_names_and_ray_options_on_local() -> None:
    with pytest.raises(OptionError, match="unknown engine 'spark'"):
        make_engine("spark")
    with pytest.raises(OptionError, match="--ray-address applies to --engine ray only"):
        make_engine("local", address="auto")
    with pytest.raises(OptionError, match="--ray-workers applies to --engine ray only"):
        make_engine("local", workers=2)


@pytest.fixture
def no_ray(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make `import ray` fail as it does where the extra is not installed."""
    monkeypatch.setitem(sys.modules, "ray", None)


@pytest.mark.usefixtures("no_ray")
def test_ray_missing_is_an_engine_error_with_the_install_command() -> None:
    with pytest.raises(EngineError) as caught:
        make_engine("ray")
    assert str(caught.value) == INSTALL_HINT
    assert "pip install 'testgen-rag[ray]'" in INSTALL_HINT


@pytest.mark.usefixtures("no_ray")
def test_build_with_engine_ray_and_no_ray_exits_2_with_the_hint(tmp_path: Path) -> None:
    out = tmp_path / "tests.jsonl"
    result = CliRunner().invoke(tg_main, ["build", "--kb", str(AURORA), "-o", str(out), "--engine", "ray"])
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: {INSTALL_HINT}"
    assert not out.exists()


@pytest.mark.usefixtures("no_ray")
def test_evaluate_takes_the_engine_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    dataset = tmp_path / "tests.jsonl"
    dataset.write_text(
        '{"question": "q", "keywords": [], "reference_answer": "a", "category": "direct_fact", '
        '"source_docs": ["x.md"]}\n',
        encoding="utf-8",
    )
    monkeypatch.setenv(ENV_VAR, "ray")
    args = ["--dataset", str(dataset), "--kb", str(AURORA), "-o", str(tmp_path / "report"), "--no-store", "-q"]
    result = CliRunner().invoke(evaluate_main, args)
    assert result.exit_code == 2
    assert result.stderr.strip() == f"error: {INSTALL_HINT}"


def test_the_packages_import_without_importing_ray() -> None:
    code = (
        "import sys; import testgen, testgen.engine, testgen.cli, evaluators, evaluators.cli, "
        "evaluators.targets; print('ray' in sys.modules)"
    )
    env = dict(os.environ, LITELLM_LOCAL_MODEL_COST_MAP="True", RAGAS_DO_NOT_TRACK="true")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    assert done.stdout.strip() == "False"
