"""Comma- and tab-separated tables in a document's text, written as markdown tables.

Shared drives keep exports of spreadsheets: a price list saved as ``prices.csv`` or pasted into a ``.txt``, a rota
with tabs between its cells. Every reader of tables in the toolkit reads markdown rows, so such a block becomes one:
a header of short labels over two or more rows with the same number of cells. The cells keep their text (a quoted
``"90,000"`` is the cell 90,000), so a keyword taken from a cell is still written in the file. A comma block needs
three or more cells and a header without a space after its commas: prose ("Hello, world, again") is left alone.
"""

from __future__ import annotations

import csv
import re

#: Rows a block needs under its header.
_MIN_ROWS = 2
#: The longest header cell: a label, not a sentence.
_LABEL_CHARS = 40
#: A comma between a figure's thousands: "11,000원", "£1,250".
_THOUSANDS = re.compile(r"\d,\d{3}(?!\d)")
#: A header cell that ends a sentence or is a figure is no label.
_NOT_A_LABEL = re.compile(r"[.!?。]$|^\d[\d,.:/ -]*$")


def with_delimited_tables(text: str) -> str:
    """`text` with each comma- or tab-separated block (a header and two or more rows of the same width) written as
    a markdown table; lines already holding a bar are left alone."""
    if "," not in text and "\t" not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        block = _block_at(lines, i)
        if block is None:
            out.append(_padded_line(lines[i]))
            i += 1
            continue
        rows, end = block
        out.extend(_markdown(rows))
        i = end
    return "\n".join(out)


#: A line of an export with a cell or two and the rest of the row left empty: "Acme Ltd,PRICE LIST 2025,,,,".
_PADDED = re.compile(r"^([^,\t|]+)(?:([,\t])([^,\t|]+))?(?:[,\t]){2,}\s*$")


def _padded_line(line: str) -> str:
    """A title or note line of a spreadsheet export ("Copperline Signwriting Ltd,PRICE LIST from 1 APRIL 2025,,,,")
    as it reads: its cells joined by a dash, the empty cells dropped; other lines as they are."""
    found = _PADDED.match(line)
    if found is None or _THOUSANDS.search(line):
        return line
    first, second = found.group(1).strip(), (found.group(3) or "").strip()
    return f"{first} – {second}" if second else first


def _block_at(lines: list[str], start: int) -> tuple[list[list[str]], int] | None:
    """The rows of the delimited table whose header is `lines[start]` and the index after its last row, or None."""
    for delimiter in ("\t", ","):
        header = _cells(lines[start], delimiter)
        if header is None or not _header(lines[start], header, delimiter):
            continue
        rows = [header]
        end = start + 1
        while end < len(lines):
            row = _cells(lines[end], delimiter)
            if row is None or not _fits(row, len(header), delimiter):
                break
            rows.append(row + [""] * (len(header) - len(row)))
            end += 1
        if len(rows) - 1 >= _MIN_ROWS:
            # an export's column names are written for a program ("course_code", "who_for"): the label says it in
            # words
            rows[0] = [cell.replace("_", " ") if " " not in cell else cell for cell in header]
            return rows, end
    return None


def _cells(line: str, delimiter: str) -> list[str] | None:
    """A line's cells split by `delimiter` (quotes honoured), or None for a line that is no row."""
    if delimiter not in line or "|" in line or not line.strip():
        return None
    try:
        cells = next(csv.reader([line], delimiter=delimiter, skipinitialspace=delimiter == ","))
    except csv.Error:
        return None
    return [cell.strip() for cell in cells]


def _header(line: str, cells: list[str], delimiter: str) -> bool:
    """Whether a row reads as a table's header: labels, two or more (three or more between commas, with no space
    after a comma), at most one of them blank."""
    least = 2 if delimiter == "\t" else 3
    if len(cells) < least or sum(1 for cell in cells if not cell) > 1:
        return False
    if delimiter == "," and (re.search(r",\s", line) or _THOUSANDS.search(line)):
        return False  # prose, or amounts with thousands separators ("포기김치 1kg  11,000원 → 12,000원")
    return all(len(cell) <= _LABEL_CHARS and not _NOT_A_LABEL.search(cell) for cell in cells if cell)


def _fits(row: list[str], width: int, delimiter: str) -> bool:
    """Whether a row belongs under a header of `width` cells: as many cells (a tab row may leave its last ones
    off) with something in two of them."""
    fits = 2 <= len(row) <= width if delimiter == "\t" else len(row) == width
    return fits and sum(1 for cell in row if cell) >= 2


def _markdown(rows: list[list[str]]) -> list[str]:
    """Rows as markdown: the header, its rule, then the rows; a bar inside a cell becomes a slash."""
    width = len(rows[0])
    lines = ["| " + " | ".join(cell.replace("|", "/") for cell in row) + " |" for row in rows]
    return [lines[0], "|" + "---|" * width, *lines[1:]]
