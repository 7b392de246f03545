"""Output sets that are replaced whole: a kill leaves the previous complete set or the new complete set.

A run writes each output (file or folder) to a hidden temporary sibling (``.tests.jsonl.tmp-<tag>``), so a
kill while writing leaves the previous outputs untouched. When every output is complete, a journal
(``.tests.jsonl.commit.json``, written by an atomic rename) lists the moves, the moves are made, and the
journal is removed. A move is one ``os.replace`` for a file; a folder replacing a folder takes two renames
(the old one aside, the new one in), then the old one is deleted. Each step can be repeated, so a run killed
between the moves is finished by :func:`recover`, which every writer of the set calls first (and any reader
may): the journal is only written once all the new outputs exist, so finishing it always gives the new set.

Leftovers of killed runs (temporary siblings no journal refers to) are removed by :func:`recover` and after
each commit. Two runs writing the same outputs at the same time are not supported.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

__all__ = ["OutputSet", "journal_for", "output_set", "recover"]


def journal_for(anchor: Path) -> Path:
    """The journal of the output set named after `anchor` (its main file or folder)."""
    return anchor.with_name(f".{anchor.name}.commit.json")


def _old(final: Path, tag: str) -> Path:
    return final.with_name(f".{final.name}.old-{tag}")


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def _move(tmp: Path, final: Path, tag: str) -> None:
    """Put `tmp` at `final`; safe to repeat after a kill at any point."""
    old = _old(final, tag)
    if os.path.lexists(tmp):
        if tmp.is_dir() and final.is_dir() and not final.is_symlink():
            os.rename(final, old)  # a folder cannot be renamed over a non-empty folder
        elif final.is_dir() and not final.is_symlink():
            os.rename(final, old)  # a file replacing a folder (or the reverse, below): the old one aside
        elif tmp.is_dir() and os.path.lexists(final):
            os.rename(final, old)
        os.replace(tmp, final)
    _remove(old)


class OutputSet:
    """The outputs of one run: :meth:`stage` gives where to write each, :meth:`commit` moves them all in."""

    def __init__(self, anchor: Path) -> None:
        self.journal = journal_for(anchor)
        self.tag = f"{os.getpid()}-{time.time_ns()}"
        self.moves: list[tuple[Path, Path]] = []
        self.drops: list[Path] = []

    def stage(self, final: str | os.PathLike[str]) -> Path:
        """Where to write the output that belongs at `final` (a hidden sibling, removed by a later commit)."""
        final = Path(final).absolute()
        final.parent.mkdir(parents=True, exist_ok=True)
        tmp = final.with_name(f".{final.name}.tmp-{self.tag}{final.suffix}")  # same suffix: .gz stays gzip
        _remove(tmp)
        self.moves.append((tmp, final))
        return tmp

    def drop(self, final: str | os.PathLike[str]) -> None:
        """Remove `final` with the commit: an output of the previous set that this one does not have."""
        self.drops.append(Path(final).absolute())

    def commit(self) -> None:
        """Journal the moves, make them, drop the journal. Every staged output must exist."""
        missing = [str(tmp) for tmp, _ in self.moves if not os.path.lexists(tmp)]
        if missing:
            raise RuntimeError(f"output set incomplete, not committed: {', '.join(missing)}")
        record = {
            "tag": self.tag,
            "moves": [[str(tmp), str(final)] for tmp, final in self.moves],
            "drops": [str(final) for final in self.drops],
        }
        pending = self.journal.with_name(self.journal.name + f".tmp-{self.tag}")
        pending.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        os.replace(pending, self.journal)  # from here on the new set wins, even after a kill
        _apply(record)
        self.journal.unlink()
        for _, final in self.moves:
            _remove_leftovers(final)

    def discard(self) -> None:
        """Remove whatever was staged (the previous outputs stay as they were)."""
        for tmp, _ in self.moves:
            _remove(tmp)


def _apply(record: Mapping[str, object]) -> None:
    tag = str(record["tag"])
    moves = record["moves"]
    assert isinstance(moves, list)
    for tmp, final in moves:
        _move(Path(tmp), Path(final), tag)
    drops = record.get("drops") or []
    assert isinstance(drops, list)
    for name in drops:
        final = Path(name)
        if os.path.lexists(final):
            os.rename(final, _old(final, tag))
        _remove(_old(final, tag))


def recover(anchor: str | os.PathLike[str]) -> bool:
    """Finish an interrupted commit of the set named after `anchor` and remove leftovers of killed runs;
    True when a commit was finished."""
    anchor = Path(anchor).absolute()
    journal = journal_for(anchor)
    finished = False
    if journal.is_file():
        try:
            record = json.loads(journal.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            record = None  # written by an atomic rename, so never half a journal; unreadable means not ours
        if isinstance(record, dict) and isinstance(record.get("moves"), list) and "tag" in record:
            _apply(record)
            finished = True
        journal.unlink()
    _remove_leftovers(anchor)
    return finished


def _remove_leftovers(final: Path) -> None:
    """Temporary and set-aside siblings of `final` left by killed runs."""
    if final.parent.is_dir():
        for stale in final.parent.glob(f".{final.name}.*"):
            if ".tmp-" in stale.name or ".old-" in stale.name:
                _remove(stale)


@contextmanager
def output_set(anchor: str | os.PathLike[str]) -> Iterator[OutputSet]:
    """An :class:`OutputSet` named after `anchor`: an earlier interrupted commit is finished first, staged
    outputs are removed when the block raises, and committed when it ends normally."""
    recover(anchor)
    outputs = OutputSet(Path(anchor).absolute())
    try:
        yield outputs
    except BaseException:
        outputs.discard()
        raise
    outputs.commit()
