"""Under CI=true a skipped browser or PostgreSQL test fails the run; elsewhere it stays a skip."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent

SKIPPING = """
import pytest

pytestmark = [pytest.mark.ci_required, pytest.mark.skipif(True, reason="no Chromium on this machine")]


def test_in_a_browser():
    pass
"""
NO_SERVER = """
import pytest
from ci import unavailable


@pytest.fixture(scope="session")
def postgres_server():  # as tests/postgres_server.py does when no server can start
    unavailable("no PostgreSQL server binaries")


def test_against_postgres(postgres_server):
    pass


def test_other_skips_stay_skips():
    pytest.skip("kiwipiepy is not installed")
"""


def _run(folder: Path, ci: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci is not None:
        env["CI"] = ci
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-rA", str(folder)],
        capture_output=True,
        text=True,
        env=env,
        cwd=folder,
        timeout=120,
    )


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    for helper in ("conftest.py", "ci.py"):
        shutil.copy(HERE / helper, tmp_path / helper)
    (tmp_path / "test_browser_page.py").write_text(SKIPPING, encoding="utf-8")
    (tmp_path / "test_store_pg.py").write_text(NO_SERVER, encoding="utf-8")
    return tmp_path


def test_under_ci_a_skipped_browser_or_postgres_test_fails(suite: Path) -> None:
    run = _run(suite, "true")
    assert run.returncode == 1, run.stdout
    assert "skipped under CI=true: no Chromium on this machine" in run.stdout
    assert "skipped under CI=true: no PostgreSQL server binaries" in run.stdout
    assert "SKIPPED" in run.stdout and "kiwipiepy is not installed" in run.stdout  # not a CI-required test


@pytest.mark.parametrize("ci", [None, "", "false"])
def test_elsewhere_they_are_skipped(suite: Path, ci: str | None) -> None:
    run = _run(suite, ci)
    assert run.returncode == 0, run.stdout
    assert "3 skipped" in run.stdout
