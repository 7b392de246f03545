"""``tests.jsonl``: write the contract exactly, read users' files unchanged or fail with file:line."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from schemas import TestQuestion
from testgen.errors import DatasetFormatError, UserInputError

M = TypeVar("M", bound=BaseModel)
_FIX = "each line must be one JSON object with question, keywords, reference_answer, category, source_docs"
#: Longest line read (characters); a test question or run record is a few kilobytes.
MAX_LINE_CHARS = 8_000_000
#: Deepest nesting of arrays and objects read; the schemas need five levels at most.
MAX_DEPTH = 64


def parse_line(path: str | Path, number: int, line: str, fix: str) -> object:
    """One JSONL line, parsed; `DatasetFormatError` naming ``file:line`` when it is too long, nested too deeply or
    not JSON (a hundred thousand ``[`` would otherwise end in Python's RecursionError)."""
    if len(line) > MAX_LINE_CHARS:
        raise DatasetFormatError(
            str(path), number, f"line of {len(line):,} characters (at most {MAX_LINE_CHARS:,})", fix
        )
    try:
        raw = json.loads(line)
    except json.JSONDecodeError as exc:
        raise DatasetFormatError(str(path), number, f"invalid JSON ({exc.msg} at column {exc.colno})", fix) from exc
    except RecursionError:
        raise DatasetFormatError(str(path), number, f"JSON nested deeper than {MAX_DEPTH} levels", fix) from None
    if json_depth(raw) > MAX_DEPTH:
        raise DatasetFormatError(str(path), number, f"JSON nested deeper than {MAX_DEPTH} levels", fix)
    return raw


def json_depth(value: object) -> int:
    """Nesting depth of parsed JSON (iteratively: a deep value must not exhaust the stack here either)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                return level
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, level + 1) for child in children)
    return deepest


def dumps_item(item: TestQuestion) -> str:
    """One line of ``tests.jsonl`` (no trailing newline): contract fields first, UTF-8 kept as is."""
    return json.dumps(item.to_json_dict(), ensure_ascii=False, separators=(", ", ": "))


def write_lines(lines: Iterable[str], path: str | Path) -> Path:
    """Write a JSONL file: each of `lines` (one JSON value, no newline) then ``\\n``, UTF-8, parent folders
    created. Every JSONL writer of the toolkit goes through here."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        for line in lines:
            fh.write(line + "\n")
    return path


def write_jsonl(items: Iterable[TestQuestion], path: str | Path) -> Path:
    """Write items one per line; the same items always give the same bytes."""
    return write_lines(map(dumps_item, items), path)


def json_lines(path: str | Path, text: str, fix: str) -> Iterator[tuple[int, object]]:
    """``(line number, parsed JSON)`` for each non-blank line of `text`, the content of `path`; a bad line is a
    `DatasetFormatError` naming ``file:line`` (see :func:`parse_line`). Every JSONL reader goes through here."""
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip():
            yield number, parse_line(path, number, line, fix)


def read_models(path: str | Path, model: type[M], *, what: str, noun: str, fix: str) -> list[M]:
    """Read a JSONL file of `model` objects (UTF-8, BOM allowed, blank lines skipped).

    Raises `UserInputError` when the file cannot be read and `DatasetFormatError` naming ``file:line`` for the
    first line that is not JSON, not an object or not a valid `model`; also when the file holds none.
    `what` names the file in messages ("a tests.jsonl file"), `noun` its lines ("test questions"); `fix` says
    what a line must look like.
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UserInputError(f"{path}: no such file (give the path of {what})") from None
    except IsADirectoryError:
        raise UserInputError(f"{path}: is a folder (give the path of {what})") from None
    except UnicodeDecodeError as exc:
        raise DatasetFormatError(str(path), 1, f"not UTF-8 text ({exc.reason})", "save the file as UTF-8") from exc
    except OSError as exc:
        raise UserInputError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    items: list[M] = []
    for number, raw in json_lines(path, text, fix):
        if not isinstance(raw, dict):
            raise DatasetFormatError(str(path), number, f"expected a JSON object, got {type(raw).__name__}", fix)
        try:
            items.append(model.model_validate(raw))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"]) or "line"
            raise DatasetFormatError(str(path), number, f"field {where!r}: {first['msg'].lower()}", fix) from exc
    if not items:
        raise DatasetFormatError(str(path), 1, f"the file holds no {noun}", fix)
    return items


def read_jsonl(path: str | Path) -> list[TestQuestion]:
    """Read a test-set file; raise `DatasetFormatError` naming the file and line of the first bad line."""
    return read_models(path, TestQuestion, what="a tests.jsonl file", noun="test questions", fix=_FIX)
