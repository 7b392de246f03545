"""``tests.jsonl``: write the contract exactly, read users' files unchanged or fail with file:line."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from pydantic import ValidationError

from schemas import TestQuestion
from testgen.errors import DatasetFormatError, UserInputError

_FIX = "each line must be one JSON object with question, keywords, reference_answer, category, source_docs"


def dumps_item(item: TestQuestion) -> str:
    """One line of ``tests.jsonl`` (no trailing newline): contract fields first, UTF-8 kept as is."""
    return json.dumps(item.to_json_dict(), ensure_ascii=False, separators=(", ", ": "))


def write_jsonl(items: Iterable[TestQuestion], path: str | Path) -> Path:
    """Write items one per line; the same items always give the same bytes."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for item in items:
            fh.write(dumps_item(item) + "\n")
    return path


def read_jsonl(path: str | Path) -> list[TestQuestion]:
    """Read a test-set file; raise `DatasetFormatError` naming the file and line of the first bad line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UserInputError(f"{path}: no such file (give the path of a tests.jsonl file)") from None
    except UnicodeDecodeError as exc:
        raise DatasetFormatError(str(path), 1, f"not UTF-8 text ({exc.reason})", "save the file as UTF-8") from exc
    except OSError as exc:
        raise UserInputError(f"{path}: cannot read: {exc.strerror}") from exc
    items: list[TestQuestion] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            raw = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetFormatError(
                str(path), number, f"invalid JSON ({exc.msg} at column {exc.colno})", _FIX
            ) from exc
        if not isinstance(raw, dict):
            raise DatasetFormatError(str(path), number, f"expected a JSON object, got {type(raw).__name__}", _FIX)
        try:
            items.append(TestQuestion.model_validate(raw))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "line"
            raise DatasetFormatError(str(path), number, f"field {where!r}: {first['msg'].lower()}", _FIX) from exc
    if not items:
        raise DatasetFormatError(str(path), 1, "the file holds no test questions", _FIX)
    return items
