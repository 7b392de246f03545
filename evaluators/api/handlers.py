"""How errors become responses: every error body is ``{"detail": "<one line>"}``, a 422 also lists ``errors``.

A user-fixable problem is a 400, an unknown id a 404, an unreachable run store a 503, a bug a 500 that names only
the exception's type (the traceback stays in the server log).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.encoders import jsonable_encoder
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse

from evaluators.errors import StoreError, StoreNotFound
from testgen.errors import UserInputError


def where(loc: Sequence[Any]) -> str:
    """``("body", "questions", 1, "keywords")`` → ``questions[1].keywords``; query and path parameters named so."""
    head, *rest = [*loc] or ["body"]
    path = "".join(f"[{part}]" if isinstance(part, int) else f".{part}" for part in rest).lstrip(".")
    if head == "body":
        return path or "body"
    return f"{head} parameter {path}" if path else str(head)


async def invalid_request(_request: Request, exc: RequestValidationError) -> JSONResponse:
    """422: the first five problems in ``detail``, all of them in ``errors``."""
    errors = [{"loc": list(e.get("loc", ())), "msg": e.get("msg", ""), "type": e.get("type", "")} for e in exc.errors()]
    detail = "; ".join(f"{where(e['loc'])}: {e['msg']}" for e in errors[:5])
    if len(errors) > 5:
        detail += f"; and {len(errors) - 5} more"
    return JSONResponse(status_code=422, content=jsonable_encoder({"detail": detail, "errors": errors}))


async def not_found(_request: Request, exc: StoreNotFound) -> JSONResponse:
    """404 with the store's message."""
    return JSONResponse(status_code=404, content={"detail": str(exc)})


async def user_error(_request: Request, exc: UserInputError) -> JSONResponse:
    """400 with the message, which names the fix."""
    return JSONResponse(status_code=400, content={"detail": str(exc)})


async def bug(_request: Request, exc: Exception) -> JSONResponse:
    """500 naming the exception's type only."""
    return JSONResponse(
        status_code=500, content={"detail": f"internal error ({type(exc).__name__}); see the server log"}
    )


async def store_unavailable(_request: Request, exc: StoreError) -> JSONResponse:
    """503: the run store cannot be reached or used."""
    return JSONResponse(status_code=503, content={"detail": f"run store unavailable: {exc}"})


def add_error_handlers(app: FastAPI) -> None:
    """Answer every error `app` raises with the error body above."""
    app.exception_handler(RequestValidationError)(invalid_request)
    app.exception_handler(StoreNotFound)(not_found)
    app.exception_handler(UserInputError)(user_error)
    app.exception_handler(Exception)(bug)
    app.exception_handler(StoreError)(store_unavailable)
