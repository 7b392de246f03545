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
#: (id of a shared set, names given anew) → the shared set of both (see `_GraphModel.replaced`).
_FIELDS_AFTER: dict[tuple[int, tuple[str, ...]], set[str]] = {}
#: (model class, names given) → their shared set, and each model's fields with their defaults (`trusted`).
_FIELDS_GIVEN: dict[tuple[type, tuple[str, ...]], set[str]] = {}
_TEMPLATES: dict[type, dict[str, Any]] = {}


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

    @classmethod
    def _unvalidated(cls, data: dict[str, Any], fields_set: set[str]) -> Self:
        """A node holding `data` (every field, in field order) as it is: what pydantic's own copy does."""
        node = object.__new__(cls)
        object.__setattr__(node, "__dict__", data)
        object.__setattr__(node, "__pydantic_fields_set__", fields_set)
        object.__setattr__(node, "__pydantic_extra__", None)
        object.__setattr__(node, "__pydantic_private__", None)
        return node

    @classmethod
    def trusted(cls, **values: Any) -> Self:
        """A node from values of exactly the declared types, not validated: for a maker whose every value is
        already of its field's type (the miner's hundreds of thousands of facts), at a third of the cost of
        validation. The names given count as explicitly set, as with the constructor."""
        template = _TEMPLATES.get(cls)
        if template is None:
            if any(info.default_factory is not None for info in cls.model_fields.values()):
                raise TypeError(f"{cls.__name__}.trusted: a field made by a factory would be shared between nodes")
            template = _TEMPLATES[cls] = {name: info.default for name, info in cls.model_fields.items()}
        data = template.copy()
        data.update(values)
        names = tuple(values)
        shared = _FIELDS_GIVEN.get((cls, names))
        if shared is None:
            missing = [name for name, info in cls.model_fields.items() if info.is_required() and name not in values]
            unknown = sorted(set(values) - set(template))
            if unknown or missing:
                raise TypeError(f"{cls.__name__}.trusted: unknown fields {unknown}, missing fields {missing}")
            shared = _FIELDS_GIVEN[(cls, names)] = _FIELDS_SETS.setdefault(frozenset(names), set(names))
        return cls._unvalidated(data, shared)

    @classmethod
    def from_rows(cls, rows: list[tuple[Any, ...]], given: list[str]) -> list[Self]:
        """Nodes from rows of their field values in field order (``tuple(node.__dict__.values())``), the names in
        `given` counted as explicitly set; not validated: how one process hands nodes it made to another, for a
        fraction of what pickling the models costs."""
        names = tuple(cls.model_fields)
        shared = _FIELDS_SETS.setdefault(frozenset(given), set(given))
        return [cls._unvalidated(dict(zip(names, row, strict=True)), shared) for row in rows]

    def fill_in(self, update: Mapping[str, Any]) -> Self:
        """This node with the fields of `update` set in place, not validated, the names in `update` counted as
        explicitly set; returns the node. Only for a node nothing else holds yet (a build's freshly mined facts,
        before they are hashed or stored anywhere): a frozen node seen elsewhere must stay as it was seen. Saves
        what a copy costs a build of millions of facts (an object and a dict each, made and freed)."""
        shared = _fields_after(self.__pydantic_fields_set__, tuple(update))
        self.__dict__.update(update)
        object.__setattr__(self, "__pydantic_fields_set__", shared)
        return self

    def replaced(self, update: Mapping[str, Any]) -> Self:
        """``model_copy(update=update)`` (not validated, the names in `update` counted as explicitly set) at a
        third of its cost: a build copies hundreds of thousands of facts."""
        shared = _fields_after(self.__pydantic_fields_set__, tuple(update))
        return self._unvalidated({**self.__dict__, **update}, shared)


def _fields_after(fields: set[str], names: tuple[str, ...]) -> set[str]:
    """The shared set of a node's explicitly set fields once `names` are set too."""
    key = (id(fields), names)  # `fields` is a shared set, kept for good in _FIELDS_SETS: its id stays its own
    shared = _FIELDS_AFTER.get(key)
    if shared is None:
        both = fields | set(names)
        shared = _FIELDS_AFTER[key] = _FIELDS_SETS.setdefault(frozenset(both), both)
    return shared


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
