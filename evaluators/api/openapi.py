"""The API's OpenAPI document: FastAPI's, plus the schemas of the bodies that routes read by hand.

The dataset and run routes read their JSON themselves (to answer with one-line errors and to accept multipart
uploads), so FastAPI does not see their body models; their ``openapi_extra`` points at these components instead.
"""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.openapi.utils import get_openapi

from evaluators.api.bodies import DatasetQuestions, DatasetSource
from evaluators.runner import RunConfig

BODY_MODELS = (DatasetQuestions, DatasetSource, RunConfig)


def build_schema(app: FastAPI) -> dict[str, Any]:
    """`app`'s OpenAPI document with :data:`BODY_MODELS` (and the models they use) among its components."""
    schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for model in BODY_MODELS:
        model_schema = model.model_json_schema(ref_template="#/components/schemas/{model}")
        for name, definition in model_schema.pop("$defs", {}).items():
            components.setdefault(name, definition)
        components.setdefault(model.__name__, model_schema)
    return schema


def use_full_schema(app: FastAPI) -> None:
    """Serve :func:`build_schema`'s document (built once) at ``/openapi.json``."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = build_schema(app)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
