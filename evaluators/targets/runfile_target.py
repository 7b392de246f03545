"""A saved run as the system under test: ``runfile:PATH`` (a JSONL file the user's own system produced)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from evaluators.runfile import align, read_run
from evaluators.targets.base import Progress, check_k, error_record
from schemas import RunRecord, TestQuestion

__all__ = ["MISSING_ERROR", "RunFileTarget"]

#: The error of a question the run file has no record for.
MISSING_ERROR = "MissingRecord: no line of the run file matches this question (by id, else by question text)"


class RunFileTarget:
    """Replays a run file: each question gets its matching record (see :func:`~evaluators.runfile.align`).

    The file is read on construction, so a malformed line fails at once (DatasetFormatError with
    ``file:line``). Records come back with the test question's id and text and at most ``k`` contexts; a
    question without a record gets an error record. Records matching no question are kept in ``unmatched``
    after :meth:`run`.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.records = read_run(self.path)
        self.name = f"runfile:{self.path}"
        self.unmatched: list[RunRecord] = []

    def describe(self) -> dict[str, Any]:
        """Settings for reports: the file, its record count and (after a run) how many matched no question."""
        return {
            "target": "runfile",
            "path": str(self.path),
            "records": len(self.records),
            "unmatched_records": len(self.unmatched),
        }

    def run(self, questions: list[TestQuestion], k: int, progress: Progress | None = None) -> list[RunRecord]:
        """One record per question, in question order; contexts cut to ``k``."""
        check_k(k)
        matched, self.unmatched = align(questions, self.records)
        out: list[RunRecord] = []
        for question, record in zip(questions, matched, strict=True):
            if record is None:
                out.append(error_record(question, MISSING_ERROR))
            else:
                update = {
                    "id": question.id if question.id is not None else record.id,
                    "question": question.question,
                    "contexts": record.contexts[:k],
                }
                out.append(record.model_copy(update=update))
            if progress is not None:
                progress(len(out), len(questions))
        return out
