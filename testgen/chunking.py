"""Markdown-aware chunking of documents into verbatim spans.

A document is first cut into blocks (headings, paragraphs, fenced code, whole tables, whole lists), then
consecutive blocks are packed into chunks of at most ``size`` characters. Every chunk is an exact slice of
``Document.text``: questions quote chunks and evaluation matches offsets, so nothing is ever rewritten.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from itertools import accumulate, pairwise

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


@dataclass(frozen=True, slots=True)
class Block:
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

_BLANK, _HEADING, _FENCE, _TABLE, _ITEM, _INDENTED, _TEXT = range(7)

# Greedy ``(.*)`` and trimming in code: a lazy group followed by ``[ \t]*$`` is quadratic on long space runs.
_HEADING_RE = re.compile(r" {0,3}(#{1,6})(?:[ \t](.*))?$")
_FENCE_RE = re.compile(r" {0,3}(`{3,}|~{3,})")
_ITEM_RE = re.compile(r"[ \t]*(?:([-*+])|\d{1,9}[.)])(?:[ \t]|$)")
_ITEM_LINE = re.compile(r"^[ \t]*(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)", re.MULTILINE)


def _classify(line: str) -> int:
    # Dispatch on the first visible character so most lines cost one lstrip and no regex.
    stripped = line.lstrip()
    if not stripped:
        return _BLANK
    first = stripped[0]
    if first == "#" and _HEADING_RE.match(line):
        return _HEADING
    if first in "`~" and _FENCE_RE.match(line):
        return _FENCE
    if first == "|":
        return _TABLE
    if (first in "-*+" or first.isdigit()) and _ITEM_RE.match(line):
        return _ITEM
    return _INDENTED if line[0] in " \t" else _TEXT


def _marker(line: str) -> str:
    match = _ITEM_RE.match(line)
    return (match.group(1) or "1") if match else ""


def _closes(line: str, fence: str) -> bool:
    stripped = line.strip()
    indent = len(line) - len(line.lstrip(" "))
    return indent <= 3 and len(stripped) >= len(fence) and stripped == fence[0] * len(stripped)


def _heading_text(line: str) -> tuple[int, str]:
    match = _HEADING_RE.match(line)
    assert match is not None  # only called on lines classified as headings
    heading = (match.group(2) or "").strip()
    unclosed = heading.rstrip("#")
    # A closing "###" sequence is dropped only when it stands alone ("C#" keeps its hash).
    if unclosed != heading and (not unclosed or unclosed[-1] in " \t"):
        heading = unclosed.rstrip()
    return len(match.group(1)), heading


def _list_end(lines: list[str], kinds: list[int], first: int) -> int:
    """Index of the last line of the list starting at line ``first``."""
    marker = _marker(lines[first])
    last, pos, count = first, first + 1, len(lines)
    while pos < count:
        kind = kinds[pos]
        if kind == _BLANK:
            ahead = pos
            while ahead < count and kinds[ahead] == _BLANK:
                ahead += 1
            # Blank lines belong to the list only when it goes on after them: an indented continuation or
            # another item of the same kind (a different marker after a gap starts a new list).
            if ahead < count and (
                lines[ahead][0] in " \t" or (kinds[ahead] == _ITEM and _marker(lines[ahead]) == marker)
            ):
                pos = ahead
                continue
            break
        # Items, indented lines, and (lazily) plain text directly below an item line continue the list.
        if kind == _ITEM or lines[pos][0] in " \t" or (kind == _TEXT and pos == last + 1):
            last = pos
            pos += 1
            continue
        break
    return last


def split_blocks(text: str) -> list[Block]:
    """Cut markdown ``text`` into blocks, in order, with their heading paths.

    ATX headings are one block each; fenced code runs to its closing fence (or the end); consecutive ``|``
    lines form one table; consecutive list items, with indented continuation lines and blank lines between
    items of the same list, form one list; any other run of non-blank lines is a paragraph. Setext headings
    and HTML are read as paragraphs.
    """
    lines = text.split("\n")
    starts = list(accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
    kinds = [_classify(line) for line in lines]
    blocks: list[Block] = []
    stack: list[tuple[int, str]] = []
    path: tuple[str, ...] = ()
    count = len(lines)
    i = 0
    while i < count:
        kind = kinds[i]
        if kind == _BLANK:
            i += 1
            continue
        last = i
        if kind == _HEADING:
            level, heading = _heading_text(lines[i])
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, heading))
            path = tuple(title for _, title in stack if title)
            blocks.append(Block("heading", starts[i], starts[i] + len(lines[i]), level, heading, path))
            i += 1
            continue
        if kind == _FENCE:
            match = _FENCE_RE.match(lines[i])
            assert match is not None
            fence = match.group(1)
            last = i + 1
            while last < count and not _closes(lines[last], fence):
                last += 1
            last = min(last, count - 1)
            while kinds[last] == _BLANK:  # an unclosed fence must not end on trailing blank lines
                last -= 1
            block_kind = "code"
        elif kind == _TABLE:
            while last + 1 < count and kinds[last + 1] == _TABLE:
                last += 1
            block_kind = "table"
        elif kind == _ITEM:
            last = _list_end(lines, kinds, i)
            block_kind = "list"
        else:
            while last + 1 < count and kinds[last + 1] in (_TEXT, _INDENTED):
                last += 1
            block_kind = "paragraph"
        blocks.append(Block(block_kind, starts[i], starts[last] + len(lines[last]), path=path))
        i = last + 1
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
    still fits within ``size``. ``chunk.text == doc.text[chunk.start:chunk.end]`` always holds.

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
    for index, parts in enumerate(_pack(text, units, size, overlap)):
        start, end = parts[0].start, parts[-1].end
        body = next((part for part in parts if part.kind != "heading"), parts[-1])
        chunk_text = text[start:end]
        chunks.append(
            Chunk(
                chunk_id=make_chunk_id(doc.doc_id, chunk_text),
                doc_id=doc.doc_id,
                index=index,
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
