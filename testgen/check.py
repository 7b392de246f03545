"""Checks a test set must pass before it gates anything (what ``testgen check`` runs).

Every item is checked on its own and against the items before it:

* ``missing source_docs``: no document is named, so rank metrics cannot score the item;
* ``duplicate id`` / ``duplicate question``: the same id, or the same question (normalised), as an earlier item;

and, with the knowledge base the set was made from:

* ``unknown source_docs``: a document id that is not in the KB;
* ``keyword not grounded``: a keyword found (normalised, word-bounded) in none of the item's known sources.

A problem is reported with the line of ``tests.jsonl`` the item is on (blank lines counted as the file has
them), or its row number, from 1, in a Hugging Face folder, Parquet file or Hub dataset.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from schemas import TestQuestion
from testgen.text import contains_keyword, normalize

__all__ = ["Problem", "check_items", "item_lines", "load_checked_set"]


@dataclass(frozen=True)
class Problem:
    """One failed check: where (``line``) and why (``reason``, one line)."""

    line: int
    reason: str


def item_lines(ref: str | os.PathLike[str], count: int) -> list[int]:
    """The line of each item in a JSONL file (its non-blank lines), else row numbers 1..`count`."""
    path = Path(ref)
    if path.is_file() and path.suffix != ".parquet":
        text = path.read_text(encoding="utf-8-sig")
        lines = [n for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
        if len(lines) == count:
            return lines
    return list(range(1, count + 1))


def load_checked_set(ref: str | os.PathLike[str]) -> tuple[list[TestQuestion], list[int]]:
    """The items of any dataset reference `evaluate --dataset` accepts, with their lines (see `item_lines`)."""
    from testgen.hub import load_dataset_ref

    items = load_dataset_ref(ref)
    return items, item_lines(ref, len(items))


def check_items(items: list[TestQuestion], lines: list[int], doc_texts: dict[str, str] | None = None) -> list[Problem]:
    """Every problem of `items` (see the module docstring), in line order; `doc_texts` maps the KB's document
    ids to their text, normalised (`testgen.text.normalize`), to check sources and keywords."""
    if len(items) != len(lines):
        raise ValueError(f"{len(items)} items but {len(lines)} line numbers")
    problems: list[Problem] = []
    ids: dict[str, int] = {}
    questions: dict[str, int] = {}
    for item, line in zip(items, lines, strict=True):
        if not item.source_docs:
            problems.append(Problem(line, "missing source_docs: name every document that holds the answer"))
        if item.id:
            if item.id in ids:
                problems.append(Problem(line, f"duplicate id {item.id!r} (first at line {ids[item.id]})"))
            ids.setdefault(item.id, line)
        question = normalize(item.question)
        if question in questions:
            problems.append(Problem(line, f"duplicate question (first at line {questions[question]})"))
        questions.setdefault(question, line)
        if doc_texts is None:
            continue
        unknown = [d for d in item.source_docs if d not in doc_texts]
        if unknown:
            problems.append(Problem(line, "unknown source_docs: " + ", ".join(repr(d) for d in unknown)))
        sources = [doc_texts[d] for d in item.source_docs if d in doc_texts]
        if not sources:
            continue
        for keyword in item.keywords:
            if not any(contains_keyword(text, keyword) for text in sources):
                problems.append(Problem(line, f"keyword not grounded: {keyword!r} is in none of its source_docs"))
    return problems
