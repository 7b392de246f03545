"""Shared test settings: keep RAGAS and LiteLLM offline (no telemetry, no model-price download), and keep the
run store and embedding cache of every test in its own temporary folder (never the working directory's .testgen/)."""

import os
from pathlib import Path

import pytest

os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


@pytest.fixture(autouse=True)
def _private_run_store(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    data_dir = tmp_path_factory.mktemp("testgen-data")
    monkeypatch.setenv("TESTGEN_DATA_DIR", str(data_dir))
    monkeypatch.delenv("TESTGEN_STORE_URL", raising=False)
    monkeypatch.setenv("TESTGEN_CACHE_DIR", str(data_dir / "cache"))  # embedding cache
    return data_dir
