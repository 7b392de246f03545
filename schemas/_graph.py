"""Typed node and edge kinds of the knowledge graph.

Every node stored in the graph is one of the models below, validated when it is added; categories query
these fields and never hope that an earlier step filled a free-form property.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

NodeKind = Literal["document", "chunk", "entity", "fact"]
EdgeKind = Literal["contains", "states", "about", "has_value", "mentions", "similar", "links"]
ValueType = Literal["date", "number", "money", "percent", "text"]
FactSource = Literal["key_value", "table", "sentence", "timeline", "llm"]


class DocumentNode(BaseModel):
    """A document of the KB (see `schemas.Document`), without its text."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["document"] = "document"
    doc_id: str
    doc_type: str
    title: str
    language: str


class ChunkNode(BaseModel):
    """A chunk of a document, with its text (so the graph alone can rebuild evidence)."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["chunk"] = "chunk"
    chunk_id: str
    doc_id: str
    index: int
    start: int
    end: int
    heading_path: list[str]
    text: str


class EntityNode(BaseModel):
    """A named thing (person, product, client, ...) resolved across documents by its normalised name."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["entity"] = "entity"
    entity_id: str = Field(description="`entity:` + normalised name.")
    name: str = Field(description="Surface form as first seen.")
    entity_type: str = Field(description="Type label: the doc_type of its own document, or `<doc_type>/<column>`.")
    home_doc: str | None = Field(default=None, description="The document about this entity, if there is one.")
    aliases: list[str] = Field(default_factory=list, description="Other surface forms that resolve to it.")


class FactNode(BaseModel):
    """An atomic statement (subject, attribute, value) with its evidence span in one chunk."""

    model_config = ConfigDict(frozen=True)
    kind: Literal["fact"] = "fact"
    fact_id: str
    subject: str = Field(description="Surface name of what the fact is about.")
    subject_entity: str | None = Field(default=None, description="entity_id of the subject, if resolved.")
    attribute: str = Field(description="Attribute label as written (`Founded`, `설립일`, a column header).")
    value: str = Field(description="Value span, verbatim from the document.")
    value_type: ValueType
    value_entity: str | None = Field(default=None, description="entity_id when the value names an entity.")
    number: float | None = Field(default=None, description="Parsed magnitude for number/money/percent values.")
    unit: str | None = Field(default=None, description="Currency, `%`, or counter word (`명`, `employees`).")
    date_key: str | None = Field(default=None, description="Sortable ISO-like key for dates (`2008-03-15`).")
    qualifier: str | None = Field(
        default=None, description="What narrows the fact, e.g. the year of a row in a yearly table."
    )
    context: str | None = Field(default=None, description="Nearest section heading above the evidence.")
    source: FactSource
    doc_id: str
    chunk_id: str
    evidence: str = Field(description="The line or sentence that states the fact, verbatim.")
    start: int = Field(description="Start offset of the evidence in the document text.")
    end: int = Field(description="End offset of the evidence in the document text.")


class Edge(BaseModel):
    """A typed edge between two node ids."""

    model_config = ConfigDict(frozen=True)
    kind: EdgeKind
    source: str
    target: str
    weight: float = 1.0
