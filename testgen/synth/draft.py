"""A question before validation: what it says, and the evidence and checks it carries."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from schemas import FactNode


@dataclass
class Draft:
    """A candidate test question produced by a category and checked by the validators.

    `facts` are the evidence: `source_docs` is computed from them (closure), not trusted from the category.
    `answer_spans` must not appear in the question (leak check). `named_entities` are the names a
    comparative or relationship question must mention; `derived` holds a recomputable arithmetic result.
    """

    category: str
    question: str
    reference_answer: str
    keywords: list[str]
    facts: list[FactNode]
    answer_spans: list[str]
    language: str
    template: str
    named_entities: list[str] = field(default_factory=list)
    derived: dict[str, Any] = field(default_factory=dict)
    scope_docs: list[str] = field(default_factory=list)  # holistic: every document the aggregate reads
    flags: list[str] = field(default_factory=list)
