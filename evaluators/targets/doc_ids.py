"""From a framework's retrieved document to the test set's ``doc_id``, and the guard against a wrong mapping.

A LangChain ``Document`` or a LlamaIndex node names its file in its metadata, under a key that depends on the
loader (``source`` for LangChain's loaders, ``file_path`` for LlamaIndex's ``SimpleDirectoryReader``), and often as
an absolute path or a path relative to where the index was built, while a test set's ``source_docs`` are paths
relative to the knowledge-base folder. :class:`DocIdMapping` reads the first key present and makes paths under
``root`` relative to it.

A wrong mapping does not fail: every question scores 0 and a good retriever looks useless.
:func:`check_doc_ids` stops such a run with a message showing ids from both sides.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from evaluators.errors import OptionError, TargetError
from schemas import RunRecord, TestQuestion

__all__ = [
    "DEFAULT_DOC_ID_KEYS",
    "UNMATCHED_LIMIT",
    "DocIdError",
    "DocIdMapping",
    "check_doc_ids",
    "kb_doc_ids",
]

#: Metadata keys tried in order when no ``doc_id_key`` is given.
DEFAULT_DOC_ID_KEYS = ("source", "file_path", "doc_id", "id")

#: A run stops when more than this share of the distinct retrieved ids matches no known document id.
UNMATCHED_LIMIT = 0.5

_EXAMPLES = 3


class DocIdError(ValueError):
    """A retrieved document has none of the metadata keys that name its document (recorded per question)."""


@dataclass(frozen=True)
class DocIdMapping:
    """Which metadata key holds a retrieved document's id, and the folder its paths are relative to.

    ``keys`` are tried in order; the first present and non-empty wins. The key ``id`` also accepts the document's
    own id (LangChain ``Document.id``, LlamaIndex ``ref_doc_id``) when the metadata has no ``id``. With ``root``,
    a path under that folder (absolute, or relative to the current folder) becomes the POSIX path relative to it;
    other values are kept as they are.
    """

    keys: tuple[str, ...] = DEFAULT_DOC_ID_KEYS
    root: str | None = None

    @classmethod
    def from_options(
        cls, doc_id_key: str | Sequence[str] | None = None, doc_id_root: str | os.PathLike[str] | None = None
    ) -> DocIdMapping:
        """The mapping of ``--doc-id-key`` (one key or a comma-separated list) and ``--doc-id-root``."""
        keys: tuple[str, ...]
        if doc_id_key is None:
            keys = DEFAULT_DOC_ID_KEYS
        else:
            parts = doc_id_key.split(",") if isinstance(doc_id_key, str) else list(doc_id_key)
            keys = tuple(part.strip() for part in parts)
            if not keys or not all(keys):
                raise OptionError(
                    f"--doc-id-key needs metadata key names, e.g. source or file_path,source; got {doc_id_key!r}"
                )
        root = os.fspath(doc_id_root) if doc_id_root is not None else None
        if root is not None and not root.strip():
            raise OptionError("--doc-id-root needs a folder path (the folder the document paths start from)")
        return cls(keys, root)

    def doc_id(self, metadata: Mapping[str, Any] | None, own_id: str | None = None) -> str:
        """The id of one retrieved document; raises DocIdError naming the keys it has when none of ours is there."""
        metadata = metadata or {}
        for key in self.keys:
            value = metadata.get(key)
            if value is None and key == "id":
                value = own_id
            if value is not None and str(value).strip():
                return self.relative(str(value).strip())
        present = ", ".join(sorted(map(str, metadata))[:8]) or "none"
        raise DocIdError(
            f"a retrieved document has none of the metadata keys {', '.join(self.keys)} (its keys: {present}); "
            "name the key that holds the document path with --doc-id-key"
        )

    def relative(self, value: str) -> str:
        """``value`` relative to ``root`` when it is a path under it, else ``value`` unchanged."""
        if self.root is None:
            return value
        path = value.removeprefix("file://")
        root = Path(self.root).expanduser()
        for resolve in (False, True):  # as written first; then with symlinks resolved (/tmp -> /private/tmp)
            base = _absolute(root, resolve)
            try:
                relative = _absolute(Path(path), resolve).relative_to(base)
            except ValueError:
                continue
            if relative.parts:
                return relative.as_posix()
        return value


def _absolute(path: Path, resolve: bool) -> Path:
    return path.resolve() if resolve else Path(os.path.normpath(os.path.abspath(path)))


def kb_doc_ids(kb: str | os.PathLike[str]) -> set[str]:
    """The ids of every file under ``kb`` (POSIX paths relative to it, hidden files and folders left out), as
    the corpus loader names them; an empty set when ``kb`` is not a folder."""
    base = Path(kb)
    found: set[str] = set()
    for folder, dirnames, filenames in os.walk(base):
        dirnames[:] = [name for name in dirnames if not name.startswith(".")]
        for name in filenames:
            if not name.startswith("."):
                found.add(Path(folder, name).relative_to(base).as_posix())
    return found


def check_doc_ids(
    questions: Sequence[TestQuestion],
    records: Sequence[RunRecord],
    *,
    known: Iterable[str] = (),
    limit: float = UNMATCHED_LIMIT,
) -> None:
    """Raise TargetError when the run's doc ids cannot be the test set's: the silent-zero mistake.

    The known ids are every ``source_docs`` entry of ``questions`` plus ``known`` (the KB's files, when the run has
    one). The run is refused when more than ``limit`` of its distinct retrieved ids are unknown, or when most
    questions failed because their documents carry no id key. Without known ids or retrieved ids there is
    nothing to compare and the check passes.
    """
    known_ids = {doc for question in questions for doc in question.source_docs} | set(known)
    failed = [r.error for r in records if r.error and r.error.startswith(f"{DocIdError.__name__}:")]
    if records and len(failed) * 2 > len(records):
        detail = failed[0].removeprefix(f"{DocIdError.__name__}: ")
        raise TargetError(f"{len(failed)} of {len(records)} questions failed: {detail}")
    retrieved = list(dict.fromkeys(c.doc_id for r in records for c in r.contexts))
    if not known_ids or not retrieved:
        return
    unmatched = [doc for doc in retrieved if doc not in known_ids]
    if len(unmatched) <= limit * len(retrieved):
        return
    theirs = ", ".join(repr(doc) for doc in unmatched[:_EXAMPLES])
    ours = ", ".join(repr(doc) for doc in sorted(known_ids)[:_EXAMPLES])
    raise TargetError(
        f"{len(unmatched)} of {len(retrieved)} retrieved doc ids match no document of the test set "
        f"(retrieved: {theirs}; the test set's source_docs: {ours}), so every question would score 0; "
        f"{_fix(unmatched, known_ids)}, or pass --allow-unmatched to score the run anyway"
    )


def _fix(unmatched: Sequence[str], known: set[str]) -> str:
    """The likeliest fix: a --doc-id-root that turns an unmatched id into a known one, else the two options."""
    for doc in unmatched:
        posix = doc.removeprefix("file://").replace("\\", "/")
        for known_id in known:
            if posix.endswith("/" + known_id):
                root = posix[: -len(known_id) - 1] or "/"
                return f"the retrieved ids look like paths under {root}: give --doc-id-root {root}"
    name = PurePosixPath(unmatched[0]).name
    if any(PurePosixPath(known_id).name == name for known_id in known):
        return (
            "the retrieved ids end in the test set's file names but not its folders: give --doc-id-root with "
            "the folder the paths start from, or store the path relative to the knowledge base in the metadata"
        )
    return "check which metadata key holds the document path (--doc-id-key) and its folder (--doc-id-root)"
