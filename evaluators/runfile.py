"""Run files: one :class:`~schemas.RunRecord` per line, what a RAG system returned for each test question.

A run file is how a user's own system is evaluated without wiring it in, and how any target's run is saved
and scored again later. Reading fails on the first bad line with ``file:line: problem (fix)``; matching
records to test questions is :func:`align`.
"""

from __future__ import annotations

import json
from collections import defaultdict, deque
from collections.abc import Iterable
from pathlib import Path

from schemas import RunRecord, TestQuestion
from testgen.export.jsonl import read_models, write_lines
from testgen.text import normalize

__all__ = ["align", "dumps_record", "read_run", "write_run"]

_FIX = (
    'each line must be one JSON object like {"question": "...", "contexts": [{"doc_id": "a.md", "text": "...", '
    '"score": 1.0}], "answer": "..."}'
)


def dumps_record(record: RunRecord) -> str:
    """One line of a run file (no trailing newline): fields in model order, ``None`` omitted, UTF-8 kept."""
    return json.dumps(record.model_dump(mode="json", exclude_none=True), ensure_ascii=False, separators=(", ", ": "))


def write_run(records: Iterable[RunRecord], path: str | Path) -> Path:
    """Write records one per line (parent folders created); the same records always give the same bytes."""
    return write_lines(map(dumps_record, records), path)


def read_run(path: str | Path) -> list[RunRecord]:
    """Read a run file (UTF-8, BOM allowed, blank lines skipped).

    Raises UserInputError when the file cannot be read and DatasetFormatError naming ``file:line`` for the
    first line that is not JSON, not an object, or not a valid record; also when the file holds no record.
    """
    return read_models(path, RunRecord, what="a run file, one JSON object per line", noun="run records", fix=_FIX)


def align(questions: list[TestQuestion], records: list[RunRecord]) -> tuple[list[RunRecord | None], list[RunRecord]]:
    """Match run records to test questions; return ``(one record or None per question, unmatched records)``.

    A question with an id takes the first unused record with the same id. Every question still unmatched
    then takes the first unused record with the same question text (compared after
    :func:`~testgen.text.normalize`) that has no id, or any id when the question itself has none: when both
    sides carry ids, ids decide. Records are used at most once, so duplicated questions take successive
    records and surplus records end up in the unmatched list, in file order. Inputs are not modified.
    """
    by_id: dict[str, deque[int]] = defaultdict(deque)
    by_text: dict[str, deque[int]] = defaultdict(deque)
    for index, record in enumerate(records):
        if record.id is not None:
            by_id[record.id].append(index)
        by_text[normalize(record.question)].append(index)
    used = [False] * len(records)
    matched: list[RunRecord | None] = [None] * len(questions)

    def take(queue: deque[int], accept_id: bool) -> int | None:
        for index in queue:
            if not used[index] and (accept_id or records[index].id is None):
                used[index] = True
                return index
        return None

    for position, question in enumerate(questions):
        if question.id is not None and question.id in by_id:
            found = take(by_id[question.id], accept_id=True)
            if found is not None:
                matched[position] = records[found]
    for position, question in enumerate(questions):
        if matched[position] is None:
            found = take(by_text.get(normalize(question.question), deque()), accept_id=question.id is None)
            if found is not None:
                matched[position] = records[found]
    extras = [record for index, record in enumerate(records) if not used[index]]
    return matched, extras
