"""What CI must run: under ``CI=true`` a test that needs a program .ci/run installs (Chromium, PostgreSQL) fails
instead of being skipped, so a broken install step cannot leave CI green with those tests unrun."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest

NOTE = ".ci/run must install what this test needs"


def ci_requires_every_test() -> bool:
    """True in CI (``CI=true``)."""
    return os.environ.get("CI", "").strip().lower() == "true"


def failure_text(reason: str) -> str:
    return f"skipped under CI=true: {reason} ({NOTE})"


def unavailable(reason: str) -> NoReturn:
    """Skip the running test for `reason`; under CI=true, fail it."""
    if ci_requires_every_test():
        pytest.fail(failure_text(reason), pytrace=False)
    pytest.skip(reason)
