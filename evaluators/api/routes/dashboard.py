"""``GET /`` and ``GET /dashboard``: the dashboard, one self-contained HTML page that calls this server only."""

from __future__ import annotations

from functools import cache
from importlib import resources

from fastapi import APIRouter
from fastapi.responses import HTMLResponse

DASHBOARD_CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; "
    "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
"""The dashboard loads nothing from elsewhere: its script may only call this server."""

router = APIRouter()


@cache
def page() -> str:
    """The dashboard's HTML (read once from the package)."""
    return resources.files("evaluators.api").joinpath("dashboard.html").read_text(encoding="utf-8")


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
@router.get("/dashboard", response_class=HTMLResponse, include_in_schema=False)
def show_dashboard() -> HTMLResponse:
    return HTMLResponse(page(), headers={"Content-Security-Policy": DASHBOARD_CSP, "Cache-Control": "no-cache"})
