"""Headless Chromium for the tests that look at a page in a real browser (CI installs Debian's chromium)."""

from __future__ import annotations

import shutil

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
needs_chromium = [
    pytest.mark.ci_required,  # under CI=true a skip fails the run (see conftest.py)
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium on this machine (CI installs it)"),
]
"""Marks for a module of browser tests: ``pytestmark = needs_chromium``."""
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # Without these Chromium keeps trying to reach hosts that a closed network refuses.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
