"""Shared test settings: keep RAGAS and LiteLLM offline (no telemetry, no model-price download), and keep the
run store and embedding cache of every test in its own temporary folder (never the working directory's .testgen/)."""

import os
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from ci import ci_requires_every_test, failure_text

os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


@pytest.fixture(autouse=True)
def _private_run_store(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    data_dir = tmp_path_factory.mktemp("testgen-data")
    monkeypatch.setenv("TESTGEN_DATA_DIR", str(data_dir))
    monkeypatch.delenv("TESTGEN_STORE_URL", raising=False)
    monkeypatch.setenv("TESTGEN_CACHE_DIR", str(data_dir / "cache"))  # embedding cache
    return data_dir


# ---- under CI=true, the browser and PostgreSQL tests must run (see ci.py) ---------------------------------------


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "ci_required: needs a program .ci/run installs (Chromium, PostgreSQL); under CI=true a skip fails"
    )


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """A skip of a ``ci_required`` test (a ``skipif`` mark, say) is a failure under CI=true."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and ci_requires_every_test() and item.get_closest_marker("ci_required") is not None:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        report.outcome = "failed"
        report.longrepr = failure_text(str(reason).removeprefix("Skipped: "))
