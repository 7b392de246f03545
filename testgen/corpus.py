"""Loading a knowledge-base folder into :class:`~schemas.Document` objects.

Real folders hold a mix of encodings (UTF-8 with and without BOM, Windows Korean cp949), stray binaries and
files of other types. Every file either becomes a document or is listed with the reason it was skipped; one
bad file never stops the run.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import charset_normalizer
import yaml

from schemas import Document, SkippedFile
from testgen.chunking import split_blocks
from testgen.errors import CorpusError
from testgen.lang.detect import detect_language, script_counts

__all__ = ["SUPPORTED_SUFFIXES", "LoadResult", "decode_bytes", "load_kb", "parse_front_matter"]

#: File suffixes read as documents (compared case-insensitively).
SUPPORTED_SUFFIXES = (".md", ".markdown", ".txt")

_SNIFF_BYTES = 8192
# Bytes that never appear in text files; tab, newlines, form feed and escape are allowed.
_CONTROL_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13, 27)) + b"\x7f"
_CONTROL_SHARE = 0.3
# Chaos scores (0..1) this close to the best count as a tie between candidate encodings.
_CHAOS_TIE = 0.1
# Language names people write in front matter instead of codes.
_LANGUAGE_NAMES = {
    "english": "en",
    "korean": "ko",
    "한국어": "ko",
    "japanese": "ja",
    "日本語": "ja",
    "chinese": "zh",
    "中文": "zh",
    "汉语": "zh",
    "漢語": "zh",
}
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(?:(.*?)\n)?---[ \t]*(?:\n|\Z)", re.DOTALL)


@dataclass(frozen=True)
class LoadResult:
    """What :func:`load_kb` found: the loaded documents and the files it skipped, both in path order."""

    documents: list[Document]
    skipped: list[SkippedFile]


class _Skip(Exception):
    """A file cannot be loaded; the message is the reason shown to the user."""


def _looks_binary(data: bytes) -> bool:
    head = data[:_SNIFF_BYTES]
    if b"\x00" in head:
        return True
    controls = len(head) - len(head.translate(None, _CONTROL_BYTES))
    return controls > _CONTROL_SHARE * len(head)


def _plausibly_korean(text: str) -> bool:
    # Chinese GBK/GB18030 bytes fall in the same ranges as EUC-KR and decode "successfully" into a jumble of
    # hanja with some Hangul; real Korean text has far more Hangul than hanja.
    counts = script_counts(text)
    return counts["hangul"] >= counts["han"] + counts["kana"]


def decode_bytes(data: bytes) -> tuple[str, str]:
    """Decode file contents, returning ``(text, encoding)``; newlines are not touched.

    Tries UTF-16 with a BOM, UTF-8 (``utf-8-sig`` when a BOM is present, which is dropped), then EUC-KR and
    its superset cp949 (the usual encodings of Korean files saved on Windows) when the result has more Hangul
    than hanja, then charset-normalizer's best guess (cp1252 when it ties). Raises ValueError naming the
    reason (``binary file``, ``cannot decode (...)``) otherwise.
    """
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        # UTF-16 is full of NUL bytes, so it must be recognised by its BOM before the binary check.
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError:
            pass
    if _looks_binary(data):
        raise ValueError("binary file")
    if data.startswith(b"\xef\xbb\xbf"):
        try:
            return data.decode("utf-8-sig"), "utf-8-sig"
        except UnicodeDecodeError:
            pass
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    # EUC-KR first so files that use only its characters are reported as such; cp949 adds 8,822 syllables.
    for encoding in ("euc-kr", "cp949"):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        if _plausibly_korean(text):
            return text, encoding
    matches = charset_normalizer.from_bytes(data)
    best = matches.best()
    # best() is None unless some encoding decodes with little "chaos"; that is the confidence bar.
    if best is not None and best.encoding:
        # For short Western text, several single-byte code pages tie and the winner is arbitrary (cp1250
        # turns "crème" into "crčme"). Non-UTF-8 Western files are nearly always Windows-1252: prefer it.
        tied = [m for m in matches if m.chaos <= best.chaos + _CHAOS_TIE]
        if best.encoding != "cp1252" and any("cp1252" in m.could_be_from_charset for m in tied):
            try:
                return data.decode("cp1252"), "cp1252"
            except UnicodeDecodeError:
                pass
        return str(best), best.encoding
    raise ValueError("cannot decode (tried utf-8, euc-kr, cp949 and charset detection)")


def _stringify(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):  # YAML's spelling, not Python's True/False
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return ", ".join(_stringify(item) for item in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)


def parse_front_matter(text: str) -> tuple[dict[str, str], int]:
    """Find a leading ``---`` YAML block in ``text``; return ``(fields, characters to remove)``.

    Values are stringified (lists joined with ", "). A block that is not valid YAML, or is YAML but not a
    mapping (a document opening with a ``---`` rule), is not front matter: ``({}, 0)`` is returned and the
    block stays part of the text.
    """
    match = _FRONT_MATTER.match(text)
    if match is None:
        return {}, 0
    try:
        data = yaml.safe_load(match.group(1) or "")
    except Exception:
        # Not only YAMLError: PyYAML raises ValueError for impossible dates and RecursionError for deep
        # nesting. Any failure means "not front matter", never a crash.
        return {}, 0
    if data is None:
        return {}, match.end()
    if not isinstance(data, dict):
        return {}, 0
    return {str(key): _stringify(value) for key, value in data.items()}, match.end()


def _fold(text: str) -> str:
    # Titles and file names differ in punctuation, case and width ("Contract: X" vs "Contract - X.md").
    return "".join(ch for ch in unicodedata.normalize("NFKC", text).casefold() if ch.isalnum())


def _title(text: str, front_matter: dict[str, str], stem: str) -> str:
    title = front_matter.get("title", "").strip()
    if title:
        return title
    h1s = [block.heading for block in split_blocks(text) if block.kind == "heading" and block.level == 1]
    h1s = [h1 for h1 in h1s if h1]
    wanted = _fold(stem)
    # A file often opens with a generic H1 ("Product Summary") before the one naming it; the match wins.
    for h1 in h1s:
        if wanted and _fold(h1) == wanted:
            return h1
    if h1s:
        return h1s[0]
    # NFC so names written by macOS (decomposed Hangul) read normally.
    return " ".join(unicodedata.normalize("NFC", stem).replace("_", " ").replace("-", " ").split()) or stem


def _language(text: str, front_matter: dict[str, str], forced: str | None) -> str:
    if forced:
        return forced
    for key in ("lang", "language"):
        value = front_matter.get(key, "").strip().lower()
        if value:
            # "ko-KR", "zh_Hant" -> the primary subtag: downstream rules are per language, not per region.
            return _LANGUAGE_NAMES.get(value, re.split(r"[-_]", value, maxsplit=1)[0])
    return detect_language(text)


def _load_file(path: Path, doc_id: str, language: str | None) -> Document:
    if not path.is_file():
        raise _Skip("broken symbolic link" if path.is_symlink() else "not a regular file")
    if path.suffix.lower() not in SUPPORTED_SUFFIXES:
        raise _Skip(
            f"unsupported file type '{path.suffix.lower()}'" if path.suffix else "unsupported file type (no suffix)"
        )
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise _Skip(f"cannot read file: {exc.strerror or exc}") from exc
    if not data.strip():
        raise _Skip("empty file")
    try:
        raw, encoding = decode_bytes(data)
    except ValueError as exc:
        raise _Skip(str(exc)) from exc
    # Offsets everywhere refer to this normalised text, so it is done before anything else looks at it.
    text = raw.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    if not text.strip():
        raise _Skip("empty file")
    front_matter, body_offset = parse_front_matter(text)
    body = text[body_offset:]
    if not body.strip():
        raise _Skip("empty file (front matter only)")
    parts = doc_id.split("/")
    return Document(
        doc_id=doc_id,
        doc_type=parts[0] if len(parts) > 1 else "root",
        title=_title(body, front_matter, path.stem),
        text=body,
        body_offset=body_offset,
        front_matter=front_matter,
        encoding=encoding,
        language=_language(body, front_matter, language),
    )


def _walk(root: Path, skipped: list[SkippedFile]) -> list[Path]:
    found: list[Path] = []

    def unreadable(exc: OSError) -> None:
        # os.walk silently drops folders it cannot list; the user should hear about them.
        where = Path(exc.filename).relative_to(root).as_posix() if exc.filename else "."
        skipped.append(SkippedFile(path=where, reason=f"cannot read folder: {exc.strerror or exc}"))

    for folder, dirnames, filenames in os.walk(root, onerror=unreadable):
        # Pruning in place stops os.walk from entering hidden folders (.git, .obsidian, ...).
        dirnames[:] = [name for name in dirnames if not name.startswith(".")]
        found.extend(Path(folder, name) for name in filenames if not name.startswith("."))
    # Sorting by path parts gives the same order on every machine, whatever the file system returns.
    return sorted(found, key=lambda path: path.relative_to(root).parts)


def load_kb(
    root: str | os.PathLike[str],
    *,
    language: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> LoadResult:
    """Load every supported file under ``root`` (recursively, hidden files and folders ignored).

    ``doc_id`` is the POSIX path relative to ``root``, ``doc_type`` its first folder (``root`` for top-level
    files). ``language`` forces the language of every document; otherwise front matter ``lang``/``language``
    (reduced to its primary subtag, ``ko-KR`` -> ``ko``) or detection decides. ``on_progress(done, total)``
    is called after each file, ``total`` counting every non-hidden file. Files that cannot be used, and
    folders that cannot be listed, are in ``skipped`` with a reason.

    Raises CorpusError when ``root`` is missing or not a folder, or when no document could be loaded.
    """
    base = Path(root)
    if not base.exists():
        raise CorpusError(f"knowledge-base folder not found: {base} (check the path, or create the folder)")
    if not base.is_dir():
        raise CorpusError(f"knowledge-base path is not a folder: {base} (pass the folder holding the files)")
    documents: list[Document] = []
    skipped: list[SkippedFile] = []
    paths = _walk(base, skipped)
    for done, path in enumerate(paths, start=1):
        doc_id = path.relative_to(base).as_posix()
        try:
            doc_id.encode("utf-8")
            documents.append(_load_file(path, doc_id, language))
        except UnicodeEncodeError:
            # Undecodable name bytes come back as surrogates, which no JSON output can carry.
            skipped.append(
                SkippedFile(
                    path=doc_id.encode("utf-8", "replace").decode("utf-8"),
                    reason="file name is not valid UTF-8 (rename the file)",
                )
            )
        except _Skip as exc:
            skipped.append(SkippedFile(path=doc_id, reason=str(exc)))
        if on_progress is not None:
            on_progress(done, len(paths))
    skipped.sort(key=lambda item: item.path.split("/"))  # unreadable folders among the files, in path order
    if not documents:
        supported = ", ".join(SUPPORTED_SUFFIXES)
        if not paths and not skipped:
            raise CorpusError(f"knowledge-base folder {base} has no files (add {supported} files to it)")
        example = f"; e.g. {skipped[0].path}: {skipped[0].reason}" if skipped else ""
        raise CorpusError(
            f"no document could be loaded from {base}: {len(paths)} file(s) seen, {len(skipped)} skipped"
            f"{example} (add readable {supported} files)"
        )
    return LoadResult(documents=documents, skipped=skipped)
