"""``GET /healthz``: the server is up, and which run store it uses."""

from __future__ import annotations

from fastapi import APIRouter
from pydantic import BaseModel, Field

from evaluators.api.deps import Store

router = APIRouter()


class Health(BaseModel):
    """The server is up."""

    status: str = "ok"
    store: str = Field(description="The run store's URL, password masked.")


@router.get("/healthz", response_model=Health, summary="Health check")
def healthz(store: Store) -> Health:
    """The server is up; which store it uses."""
    return Health(store=store.url)
