"""The retrieval-run contract: what a RAG system returned for each question (what `evaluate` scores)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class RetrievedContext(BaseModel):
    """One retrieved context, in rank order within its record."""

    model_config = ConfigDict(extra="allow")

    doc_id: str = Field(description="Document id (path relative to the KB root) the context comes from.")
    text: str = Field(default="", description="The context text as given to the generator.")
    score: float | None = Field(default=None, description="Retriever score, if any (informational only).")
    chunk_id: str | None = Field(default=None, description="Chunk id, when the system has one.")


class RunRecord(BaseModel):
    """One line of a run file: the ranked contexts (and optional answer) for one question."""

    model_config = ConfigDict(extra="allow")

    id: str | None = Field(default=None, description="Test-question id; matched first when present.")
    question: str = Field(description="The question text; matched when no id is given.")
    contexts: list[RetrievedContext] = Field(default_factory=list, description="Ranked contexts, best first.")
    answer: str | None = Field(default=None, description="The system's answer, if it produced one.")
    error: str | None = Field(default=None, description="Why this question failed (the target is then scored 0).")
    latency_ms: float | None = Field(default=None, description="Wall time of the call, in milliseconds.")
