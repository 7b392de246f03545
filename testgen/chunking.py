"""Markdown-aware chunking of documents into verbatim spans.

A document is first cut into blocks (headings, paragraphs, fenced code, whole tables, whole lists), then
consecutive blocks are packed into chunks of at most ``size`` characters. Every chunk is an exact slice of
``Document.text``: questions quote chunks and evaluation matches offsets, so nothing is ever rewritten.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from itertools import pairwise
from typing import NamedTuple

from schemas import Chunk, Document

__all__ = [
    "MIN_CHUNK_SIZE",
    "OVERSIZE_FACTOR",
    "Block",
    "chunk_document",
    "chunk_documents",
    "make_chunk_id",
    "split_blocks",
]

#: Smallest accepted ``size``: below this chunks stop carrying a whole sentence.
MIN_CHUNK_SIZE = 50
#: A single block is split only when longer than this many times ``size``; tables and lists up to that length
#: stay whole because half a table answers no question.
OVERSIZE_FACTOR = 3


class Block(NamedTuple):
    """One markdown block of a text: ``text[start:end]``, without surrounding blank lines.

    ``kind`` is ``heading``, ``paragraph``, ``code``, ``table`` or ``list``. ``level`` and ``heading`` are
    the ATX level (1-6) and text of a heading, else 0 and "". ``path`` holds the headings in effect at the
    block, outermost first; a heading's own path ends with itself.
    """

    kind: str
    start: int
    end: int
    level: int = 0
    heading: str = ""
    path: tuple[str, ...] = ()


# ---------------------------------------------------------------------------------------------- block parsing

# Blocks are matched whole by one regex per block, starting at a line start: the per-line work happens inside
# the regex engine, which keeps 10,000 documents to a second or two (a Python loop per line was 3x slower).
_HEADING_START = r" {0,3}#{1,6}(?:[ \t]|$)"
_FENCE_START = r" {0,3}(?:```|~~~)"
_TABLE_START = r"[^\S\n]*\|"
_ITEM_START = r"[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)"
_NONBLANK = r"(?=[^\n]*\S)"
# After a non-blank list line: any non-blank line except a heading, fence or table at the left margin
# (indented lines, further items and lazy continuation text all belong to the item).
_LIST_NEXT = rf"\n{_NONBLANK}(?:[ \t]|(?!{_HEADING_START}|{_FENCE_START}|{_TABLE_START}))[^\n]*"
# After blank lines: only an indented line or an item with the same marker keeps the list going; anything
# else (including another marker) ends it. Possessive so a long run of blank lines is not re-tried.
_LIST_GAP = r"(?:\n[^\S\n]*(?=\n))++\n(?=[ \t]" + _NONBLANK + r"|{marker}(?:[ \t]|$))[^\n]*"
_LIST_BODY = f"(?:{_LIST_NEXT}|{_LIST_GAP})*"
# Each match skips the blank lines before a block, then matches the block from its first line.
_BLOCK_RE = re.compile(
    r"(?:[^\S\n]*\n)*(?:"
    + "|".join(
        [
            rf"(?P<heading>{_HEADING_START}[^\n]*)",
            # A fence runs to a closing line of the same character, at least as long, or to the end.
            r"(?P<code> {0,3}(?P<fence>(?P<fc>[`~])(?P=fc){2,})[^\n]*"
            r"(?:\n(?! {0,3}(?P=fence)(?P=fc)*[^\S\n]*$)[^\n]*)*"
            r"(?:\n {0,3}(?P=fence)(?P=fc)*[^\S\n]*$)?)",
            rf"(?P<table>{_TABLE_START}[^\n]*(?:\n{_TABLE_START}[^\n]*)*)",
            r"(?P<bullets>[ \t]*(?P<bullet>[-*+])(?:[ \t][^\n]*)?$"
            + _LIST_BODY.replace("{marker}", "(?P=bullet)")
            + ")",
            r"(?P<ordered>[ \t]*\d{1,9}[.)](?:[ \t][^\n]*)?$" + _LIST_BODY.replace("{marker}", r"\d{1,9}[.)]") + ")",
            rf"(?P<paragraph>{_NONBLANK}[^\n]*(?:\n(?!{_HEADING_START}|{_FENCE_START}|{_TABLE_START}|{_ITEM_START})"
            rf"{_NONBLANK}[^\n]*)*)",
        ]
    )
    + ")",
    re.MULTILINE,
)
_KINDS = {"bullets": "list", "ordered": "list"}
_WORD = re.compile(r"\w")
_HEADING_RE = re.compile(r" {0,3}(#{1,6})(?:[ \t](.*))?$")
_ITEM_LINE = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)", re.MULTILINE)


def _heading_text(line: str) -> tuple[int, str]:
    match = _HEADING_RE.match(line)
    assert match is not None  # only called on lines matched as headings
    heading = (match.group(2) or "").strip()
    unclosed = heading.rstrip("#")
    # A closing "###" sequence is dropped only when it stands alone ("C#" keeps its hash).
    if unclosed != heading and (not unclosed or unclosed[-1] in " \t"):
        heading = unclosed.rstrip()
    return len(match.group(1)), heading


def split_blocks(text: str) -> list[Block]:
    """Cut markdown ``text`` into blocks, in order, with their heading paths.

    ATX headings are one block each; fenced code runs to its closing fence (or the end); consecutive ``|``
    lines form one table; consecutive list items, with indented (or lazy) continuation lines and blank lines
    between items of the same list, form one list; any other run of non-blank lines is a paragraph. Setext
    headings and HTML are read as paragraphs. Blocks never start or end with whitespace-only lines, nor end
    with trailing spaces.
    """
    blocks: list[Block] = []
    stack: list[tuple[int, str]] = []
    path: tuple[str, ...] = ()
    # Matching stops where only whitespace is left; every block then ends on a non-blank line.
    for match in _BLOCK_RE.finditer(text, 0, len(text.rstrip())):
        kind = match.lastgroup
        assert kind is not None  # one branch always matched
        start, end = match.start(kind), match.end()
        if text[end - 1].isspace():  # trailing spaces, or blank lines inside an unclosed fence
            end = start + len(text[start:end].rstrip())
        if kind == "heading":
            level, heading = _heading_text(text[start:end])
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, heading))
            path = tuple(title for _, title in stack if title)
            blocks.append(Block("heading", start, end, level, heading, path))
        else:
            blocks.append(Block(_KINDS.get(kind, kind), start, end, 0, "", path))
    return blocks


# -------------------------------------------------------------------------------------- splitting big blocks

# Sentence ends: Latin (and Korean "다. ") punctuation followed by whitespace; CJK full stops, which need no
# space after them; Korean "다." even when the next sentence follows without a space.
_SENTENCE_END = re.compile(
    r"[.!?][\"'”’)\]]*\s+"
    r"|[。！？｡][」』”’）)\]]*\s*"
    r"|다\.\s*"
)
_NEWLINES = re.compile(r"\n+")
_SPACES = re.compile(r"\s+")

_Cutter = Callable[[str, int, int], list[int]]


def _regex_cutter(pattern: re.Pattern[str], at_start: bool = False) -> _Cutter:
    def cuts(text: str, start: int, end: int) -> list[int]:
        if at_start:
            return [m.start() for m in pattern.finditer(text, start, end)]
        return [m.end() for m in pattern.finditer(text, start, end)]

    return cuts


_sentences = _regex_cutter(_SENTENCE_END)
_lines = _regex_cutter(_NEWLINES)
_spaces = _regex_cutter(_SPACES)
_items = _regex_cutter(_ITEM_LINE, at_start=True)

# Preferred cut points per block kind, coarsest first; a hard cut every ``size`` characters comes last.
_LEVELS: dict[str, tuple[_Cutter, ...]] = {
    "paragraph": (_sentences, _lines, _spaces),
    "list": (_items, _sentences, _lines, _spaces),
    "table": (_lines, _spaces),
    "code": (_lines, _spaces),
    "heading": (_spaces,),
}


def _rstrip_end(text: str, start: int, end: int) -> int:
    segment = text[start:end]
    return end - (len(segment) - len(segment.rstrip()))


def _split_span(text: str, start: int, end: int, size: int, levels: tuple[_Cutter, ...]) -> list[tuple[int, int]]:
    """Cut ``text[start:end]`` into pieces of at most ``size`` at the coarsest cut points that allow it."""
    if end - start <= size:
        return [(start, end)]
    if not levels:
        return [(pos, min(pos + size, end)) for pos in range(start, end, size)]
    bounds = [start, *(cut for cut in levels[0](text, start, end) if start < cut < end), end]
    pieces: list[tuple[int, int]] = []
    piece: tuple[int, int] | None = None
    for seg_start, seg_end in pairwise(bounds):
        seg_end = _rstrip_end(text, seg_start, seg_end)  # cuts sit after whitespace; keep it out of pieces
        if seg_end <= seg_start:
            continue
        if piece is not None and seg_end - piece[0] <= size:
            piece = (piece[0], seg_end)
            continue
        if piece is not None:
            pieces.append(piece)
        if seg_end - seg_start > size:
            sub = _split_span(text, seg_start, seg_end, size, levels[1:])
            pieces.extend(sub[:-1])
            piece = sub[-1]  # the tail of a long segment may still take in the segments after it
        else:
            piece = (seg_start, seg_end)
    if piece is not None:
        pieces.append(piece)
    return pieces


def _split_block(text: str, block: Block, size: int) -> list[Block]:
    spans = _split_span(text, block.start, block.end, size, _LEVELS[block.kind])
    # Pieces of a (absurdly long) heading are prose: they must not all cling to the next block.
    kind = "paragraph" if block.kind == "heading" else block.kind
    return [Block(kind, s, e, path=block.path) for s, e in spans]


# -------------------------------------------------------------------------------------------------- packing


def _groups(units: list[Block]) -> list[list[Block]]:
    """Attach headings to the block that follows them, so a heading never ends a chunk."""
    groups: list[list[Block]] = []
    pending: list[Block] = []
    for unit in units:
        pending.append(unit)
        if unit.kind != "heading":
            groups.append(pending)
            pending = []
    # Headings at the very end of a document have nothing to go with: each packs on its own.
    groups.extend([heading] for heading in pending)
    return groups


def _overlap_tail(text: str, chunk: list[Block], overlap: int) -> list[Block]:
    """Trailing whole blocks of ``chunk`` (else last-paragraph sentences) totalling at most ``overlap``."""
    end = chunk[-1].end
    keep = len(chunk)
    while keep > 0 and end - chunk[keep - 1].start <= overlap:
        keep -= 1
    if keep < len(chunk):
        return chunk[keep:]
    last = chunk[-1]
    if last.kind != "paragraph":
        return []
    for cut in _sentences(text, last.start, end):
        if last.start < cut < end and end - cut <= overlap:
            return [Block("paragraph", cut, end, path=last.path)]
    return []


def _pack(text: str, units: list[Block], size: int, overlap: int) -> list[list[Block]]:
    chunks: list[list[Block]] = []
    current: list[Block] = []
    for group in _groups(units):
        if not current:
            current = list(group)
        elif group[-1].end - current[0].start <= size:
            current.extend(group)
        else:
            chunks.append(current)
            tail = _overlap_tail(text, current, overlap) if overlap else []
            # Overlap is dropped rather than pushing the next chunk over ``size``.
            current = tail + group if tail and group[-1].end - tail[0].start <= size else list(group)
    if current:
        chunks.append(current)
    return chunks


# ------------------------------------------------------------------------------------------------ public API


def make_chunk_id(doc_id: str, text: str) -> str:
    """Return the stable id of a chunk: the first 16 hex digits of sha256(``doc_id`` NUL ``text``)."""
    data = f"{doc_id}\x00{text}".encode("utf-8", "surrogatepass")
    return hashlib.sha256(data).hexdigest()[:16]


def _check_sizes(size: int, overlap: int) -> None:
    if size < MIN_CHUNK_SIZE:
        raise ValueError(f"chunk size must be at least {MIN_CHUNK_SIZE} characters, got {size}")
    if overlap < 0:
        raise ValueError(f"chunk overlap must be 0 or more, got {overlap}")
    if overlap >= size:
        raise ValueError(f"chunk overlap ({overlap}) must be smaller than the chunk size ({size})")


def chunk_document(doc: Document, *, size: int = 800, overlap: int = 100) -> list[Chunk]:
    """Cut ``doc`` into chunks of at most ``size`` characters at markdown structure.

    Blocks (see :func:`split_blocks`) are packed in order; a heading always goes with the block after it;
    tables, lists and other blocks are kept whole unless longer than ``OVERSIZE_FACTOR * size``, in which case
    they are cut between list items, table rows, sentences, lines or words into pieces of at most
    ``max(size - overlap, size // 2)``. A chunk is longer than ``size`` only when it holds one whole block,
    or one piece, plus the headings above it. Each chunk after the first starts with the trailing whole
    blocks, else trailing sentences, of the previous one totalling at most ``overlap`` characters, when that
    still fits within ``size``. ``chunk.text == doc.text[chunk.start:chunk.end]`` always holds. A chunk
    without a letter or digit (a ``---`` rule or a table's separator row packed alone) is left out: it answers
    nothing, and a dense retriever would rank its empty embedding near every short question.

    Raises ValueError when ``size`` < ``MIN_CHUNK_SIZE``, ``overlap`` < 0 or ``overlap`` >= ``size``.
    """
    _check_sizes(size, overlap)
    text = doc.text
    limit = OVERSIZE_FACTOR * size
    # Pieces of a split block leave room for the overlap, else every piece fills a chunk and none could
    # carry context from the previous one. Half a chunk at least, so a large overlap cannot shred text.
    piece_size = max(size - overlap, size // 2)
    units: list[Block] = []
    for block in split_blocks(text):
        if block.end - block.start > limit:
            units.extend(_split_block(text, block, piece_size))
        else:
            units.append(block)
    chunks: list[Chunk] = []
    for parts in _pack(text, units, size, overlap):
        start, end = parts[0].start, parts[-1].end
        body = next((part for part in parts if part.kind != "heading"), parts[-1])
        chunk_text = text[start:end]
        if not _WORD.search(chunk_text):
            continue  # a rule ("---") or a table's separator row left alone: nothing to find, nothing to quote
        chunks.append(
            Chunk(
                chunk_id=make_chunk_id(doc.doc_id, chunk_text),
                doc_id=doc.doc_id,
                index=len(chunks),
                text=chunk_text,
                start=start,
                end=end,
                heading_path=list(body.path),
            )
        )
    return chunks


def chunk_documents(docs: Iterable[Document], *, size: int = 800, overlap: int = 100) -> list[Chunk]:
    """Chunk every document with :func:`chunk_document` and return all chunks, documents in input order."""
    _check_sizes(size, overlap)  # fail before any work, even for an empty input
    chunks: list[Chunk] = []
    for doc in docs:
        chunks.extend(chunk_document(doc, size=size, overlap=overlap))
    return chunks
