"""What the API's requests and error responses look like, and how a request body is read and validated.

Every error body is ``{"detail": "<one line>"}``; a request that fails validation (422) also carries ``errors``,
the list of ``{loc, msg, type}`` (see :mod:`evaluators.api.handlers`).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import HTTPException, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, ValidationError

from schemas import TestQuestion
from testgen.export.jsonl import MAX_DEPTH, json_depth

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=200)]


class ErrorBody(BaseModel):
    """Every error response."""

    detail: str = Field(description="What went wrong, in one line.")
    errors: list[dict[str, Any]] | None = Field(
        default=None, description="Validation errors (422 only): loc, msg and type of each."
    )


class DatasetQuestions(BaseModel):
    """Register a test set sent in the request."""

    model_config = ConfigDict(extra="forbid")

    name: Name = Field(description="Short name of the test set.")
    questions: list[TestQuestion] = Field(description="The test questions (the tests.jsonl contract).")


class DatasetSource(BaseModel):
    """Register a test set the server loads itself."""

    model_config = ConfigDict(extra="forbid")

    name: Name | None = Field(default=None, description="Default: the file or Hub name.")
    source: str = Field(
        min_length=1,
        description="A path on the server (tests.jsonl, tests.parquet, a save_to_disk folder) or "
        "hf://org/name[@revision][#split].",
    )


def schema_ref(model: type[BaseModel]) -> dict[str, str]:
    """An OpenAPI reference to `model`'s schema (added to the components by :mod:`evaluators.api.openapi`)."""
    return {"$ref": f"#/components/schemas/{model.__name__}"}


ERRORS: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "Bad input (message names the fix)"},
    422: {"model": ErrorBody, "description": "Invalid request (fields named in detail and errors)"},
}
NOT_FOUND: dict[int | str, dict[str, Any]] = {404: {"model": ErrorBody, "description": "No such dataset or run"}}


def invalid_body(msg: str, *loc: str | int, type_: str = "missing") -> RequestValidationError:
    """A 422 about the request body (or the field at `loc` in it)."""
    return RequestValidationError([{"loc": ("body", *loc), "msg": msg, "type": type_}])


def validate_name(name: str) -> str:
    """`name` stripped, or a 422 about the field ``name``."""
    try:
        return str(TypeAdapter(Name).validate_python(name))
    except ValidationError as exc:
        raise invalid_body(exc.errors()[0]["msg"], "name") from None


def validate(model: type[BaseModel], raw: Any) -> Any:
    """`raw` as a `model`, or a 422 naming each bad field under ``body``."""
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        errors = [{"loc": ("body", *e["loc"]), "msg": e["msg"], "type": e["type"]} for e in exc.errors()]
        raise RequestValidationError(errors) from None


UNSUPPORTED: dict[int | str, dict[str, Any]] = {
    415: {"model": ErrorBody, "description": "A body sent as something else than JSON"}
}


def media_type(request: Request) -> str:
    """The request's content type without its parameters, lower case ("" when it names none)."""
    return request.headers.get("content-type", "").split(";")[0].strip().lower()


def is_json(content_type: str) -> bool:
    """Whether a media type says JSON: ``application/json``, ``application/*+json``, or none given."""
    return content_type in ("", "application/json") or (
        content_type.startswith("application/") and content_type.endswith("+json")
    )


async def json_body(request: Request, *, empty: Any = None, only_json: bool = False) -> Any:
    """The request's JSON body; `empty` when there is none (a 422 when `empty` is None), a 422 when it is not JSON
    or nested deeper than :data:`~testgen.export.jsonl.MAX_DEPTH`. With `only_json`, a body sent as another content
    type (a form, text) is a 415."""
    body = await request.body()
    if not body.strip():
        if empty is None:
            raise invalid_body("a JSON body is required")
        return empty
    if only_json and not is_json(media_type(request)):
        raise HTTPException(415, f"send the body as JSON (Content-Type: application/json), not {media_type(request)}")
    try:
        raw = json.loads(body)
    except RecursionError:
        raise invalid_body(f"JSON nested deeper than {MAX_DEPTH} levels", type_="json_invalid") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        msg = (
            f"invalid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
            if isinstance(exc, json.JSONDecodeError)
            else "the body is not UTF-8"
        )
        raise invalid_body(msg, type_="json_invalid") from None
    if json_depth(raw) > MAX_DEPTH:
        raise invalid_body(f"JSON nested deeper than {MAX_DEPTH} levels", type_="json_invalid")
    return raw
