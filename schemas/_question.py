"""The test-question contract: one JSON object per line of ``tests.jsonl``."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Category = Literal["direct_fact", "temporal", "spanning", "numerical", "comparative", "holistic", "relationship"]

#: The seven categories the generator produces, in report order.
CATEGORIES: tuple[str, ...] = (
    "direct_fact",
    "temporal",
    "numerical",
    "comparative",
    "spanning",
    "holistic",
    "relationship",
)


class TestQuestion(BaseModel):
    """One test question.

    The first five fields are the contract users already have; a file holding only those reads unchanged.
    ``category`` is kept as written, so a user's own categories survive a round trip. Unknown extra fields
    are preserved (``extra="allow"``) and written back in their original order after the known ones.
    """

    __test__ = False  # not a pytest test class

    model_config = ConfigDict(extra="allow")

    question: str = Field(min_length=1, description="The question, in the corpus language.")
    keywords: list[str] = Field(
        description="Short spans that appear verbatim (after NFKC, case-fold, whitespace collapse) in at "
        "least one source document."
    )
    reference_answer: str = Field(description="A full-sentence answer, in the corpus language.")
    category: str = Field(description="One of the seven categories; other values from user files are kept.")
    source_docs: list[str] = Field(
        default_factory=list,
        description="Every document (path relative to the KB root, POSIX separators) that holds the answer "
        "evidence. Empty only in user files that predate the field; rank metrics then cannot be computed.",
    )
    id: str | None = Field(default=None, description="Stable content hash of question and sources.")
    language: str | None = Field(default=None, description="BCP-47 code of the question's language.")
    reference_contexts: list[str] | None = Field(
        default=None, description="Evidence spans, verbatim from the source documents."
    )
    metadata: dict[str, Any] | None = Field(
        default=None, description="Generator, seed, template, validation results; free-form but JSON."
    )

    def to_json_dict(self) -> dict[str, Any]:
        """The JSON object written to a line of ``tests.jsonl``: five contract fields first, ``None`` omitted."""
        data = self.model_dump(exclude_none=True)
        head = ("question", "keywords", "reference_answer", "category", "source_docs")
        ordered = {key: data.pop(key) for key in head}
        for key in ("id", "language", "reference_contexts", "metadata"):
            if key in data:
                ordered[key] = data.pop(key)
        ordered.update(data)  # user fields, in their original order
        return ordered
