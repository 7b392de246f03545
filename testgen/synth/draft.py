"""A question before validation: what it says, and the evidence and checks it carries."""

from __future__ import annotations

import hashlib
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


def item_id(question: str, source_docs: list[str]) -> str:
    """Stable id of an item: hash of the question and its sources."""
    raw = question + "\x00" + "\x00".join(source_docs)
    return hashlib.sha256(raw.encode()).hexdigest()[:16]
