"""Typed node and edge kinds of the knowledge graph.

Every node stored in the graph is one of the models below, validated when it is added; categories query
these fields and never hope that an earlier step filled a free-form property.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field

NodeKind = Literal["document", "chunk", "entity", "fact"]
EdgeKind = Literal["contains", "states", "about", "has_value", "mentions", "similar", "links"]
ValueType = Literal["date", "number", "money", "percent", "text"]
FactSource = Literal["key_value", "table", "sentence", "timeline", "llm"]

#: One set object per distinct set of explicitly given field names, shared by every node that has it.
_FIELDS_SETS: dict[frozenset[str], set[str]] = {}


class _GraphModel(BaseModel):
    """A frozen node model whose record of explicitly set fields is shared, not one set per instance.

    Pydantic keeps a ``set`` of the field names given at validation on every instance (about 1.2 KB for a
    fact's 18 names, more than the field values themselves); a large graph holds hundreds of thousands of
    facts with a handful of distinct such sets. The nodes are frozen and pydantic only ever changes a copy of
    that set (`model_copy` copies it before adding the updated names), so instances can share one."""

    model_config = ConfigDict(frozen=True)

    def model_post_init(self, context: Any, /) -> None:
        _share_fields_set(self)

    def model_copy(self, *, update: Mapping[str, Any] | None = None, deep: bool = False) -> Self:
        copied = super().model_copy(update=update, deep=deep)
        _share_fields_set(copied)
        return copied


def _share_fields_set(model: BaseModel) -> None:
    fields = model.__pydantic_fields_set__
    key = frozenset(fields)
    shared = _FIELDS_SETS.get(key)
    if shared is None:  # a set of its own: the caller's may be one it goes on changing (model_construct)
        shared = _FIELDS_SETS[key] = set(key)
    object.__setattr__(model, "__pydantic_fields_set__", shared)


class DocumentNode(_GraphModel):
    """A document of the KB (see `schemas.Document`), without its text."""

    kind: Literal["document"] = "document"
    doc_id: str
    doc_type: str
    title: str
    language: str


class ChunkNode(_GraphModel):
    """A chunk of a document, with its text (so the graph alone can rebuild evidence)."""

    kind: Literal["chunk"] = "chunk"
    chunk_id: str
    doc_id: str
    index: int
    start: int
    end: int
    heading_path: list[str]
    text: str


class EntityNode(_GraphModel):
    """A named thing (person, product, client, ...) resolved across documents by its normalised name."""

    kind: Literal["entity"] = "entity"
    entity_id: str = Field(description="`entity:` + normalised name.")
    name: str = Field(description="Surface form as first seen.")
    entity_type: str = Field(description="Type label: the doc_type of its own document, or `<doc_type>/<column>`.")
    home_doc: str | None = Field(default=None, description="The document about this entity, if there is one.")
    aliases: list[str] = Field(default_factory=list, description="Other surface forms that resolve to it.")


class FactNode(_GraphModel):
    """An atomic statement (subject, attribute, value) with its evidence span in one chunk."""

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
