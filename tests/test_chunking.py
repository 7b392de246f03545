"""Markdown-aware chunking: verbatim offsets, structure kept whole, heading paths, overlap."""

from __future__ import annotations

import hashlib
import re
import time
from dataclasses import dataclass
from itertools import pairwise

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from schemas import Chunk, Document
from testgen.chunking import (
    MIN_CHUNK_SIZE,
    OVERSIZE_FACTOR,
    chunk_document,
    chunk_documents,
    make_chunk_id,
    split_blocks,
)


def doc(text: str, doc_id: str = "a.md") -> Document:
    return Document(doc_id=doc_id, doc_type="root", title="T", text=text)


def kinds(text: str) -> list[tuple[str, str]]:
    return [(b.kind, text[b.start : b.end]) for b in split_blocks(text)]


# ----------------------------------------------------------------------------------------- block parsing


def test_split_blocks_kinds_and_spans() -> None:
    text = (
        "# Title\n"
        "Intro line one\nline two\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n\n"
        "- one\n- two\n  continued\n\n- three\n\n"
        "1. first\n2. second\n\n"
        "```python\n# not a heading\n| not a table\n\n- not a list\n```\n"
        "After code.\n"
        "## Sub ##\n"
    )
    assert kinds(text) == [
        ("heading", "# Title"),
        ("paragraph", "Intro line one\nline two"),
        ("table", "| a | b |\n|---|---|\n| 1 | 2 |"),
        ("list", "- one\n- two\n  continued\n\n- three"),
        ("list", "1. first\n2. second"),
        ("code", "```python\n# not a heading\n| not a table\n\n- not a list\n```"),
        ("paragraph", "After code."),
        ("heading", "## Sub ##"),
    ]
    headings = [(b.level, b.heading) for b in split_blocks(text) if b.kind == "heading"]
    assert headings == [(1, "Title"), (2, "Sub")]


def test_split_blocks_list_rules() -> None:
    # A lazy continuation line belongs to its item; a different marker after a blank line starts a new list;
    # a paragraph after a blank line ends the list; nested items and their blank lines stay in.
    text = "- a\nlazy\n- b\n\n  - nested\n\n    more\n\n* star\n\nPara.\n"
    assert kinds(text) == [
        ("list", "- a\nlazy\n- b\n\n  - nested\n\n    more"),
        ("list", "* star"),
        ("paragraph", "Para."),
    ]


def test_split_blocks_interruptions_and_edge_cases() -> None:
    text = "Para\n- item\n# Head\n|x|\n```\nunclosed\n\n"
    assert kinds(text) == [
        ("paragraph", "Para"),
        ("list", "- item"),
        ("heading", "# Head"),
        ("table", "|x|"),
        ("code", "```\nunclosed"),
    ]
    assert kinds("#hashtag is text\n####### seven\n    # indented code") == [
        ("paragraph", "#hashtag is text\n####### seven\n    # indented code")
    ]
    assert split_blocks("") == []
    assert split_blocks("\n \n\t\n") == []


def test_split_blocks_heading_paths() -> None:
    text = "# A\n\ntext a\n\n## B\n\ntext b\n\n#### D\n\ntext d\n\n## C\n\ntext c\n\n# E\n\ntext e"
    paths = {text[b.start : b.end]: b.path for b in split_blocks(text)}
    assert paths["text a"] == ("A",)
    assert paths["text b"] == ("A", "B")
    assert paths["text d"] == ("A", "B", "D")  # skipped levels are fine
    assert paths["text c"] == ("A", "C")
    assert paths["text e"] == ("E",)
    assert paths["## C"] == ("A", "C")


# ------------------------------------------------------------------------------------------- arguments


@pytest.mark.parametrize(
    ("size", "overlap", "message"),
    [
        (MIN_CHUNK_SIZE - 1, 0, "at least 50"),
        (0, 0, "at least 50"),
        (100, -1, "0 or more"),
        (100, 100, "smaller than the chunk size"),
        (100, 150, "smaller than the chunk size"),
    ],
)
def test_bad_sizes_raise(size: int, overlap: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        chunk_document(doc("text"), size=size, overlap=overlap)
    with pytest.raises(ValueError, match=message):
        chunk_documents([], size=size, overlap=overlap)


def test_smallest_valid_sizes() -> None:
    chunks = chunk_document(doc("Short text."), size=MIN_CHUNK_SIZE, overlap=MIN_CHUNK_SIZE - 1)
    assert [c.text for c in chunks] == ["Short text."]


# ---------------------------------------------------------------------------------------- basic chunks


def test_empty_documents_give_no_chunks() -> None:
    assert chunk_document(doc("")) == []
    assert chunk_document(doc("  \n\n \t\n")) == []


def test_a_rule_or_separator_row_left_alone_is_no_chunk() -> None:
    # The rules cannot join the long table between them within 120 characters: alone, each would be a chunk with
    # nothing to find in it (a dense retriever ranks such an empty embedding near every short question).
    table = "| Model | Battery |\n|-------|---------|\n" + "".join(
        f"| Phone {i} | {4000 + i} mAh |\n" for i in range(5)
    )
    text = "---\n\n" + table + "\n---\n\nA closing line about the phones."
    chunks = chunk_document(doc(text), size=120, overlap=0)
    assert [c.text for c in chunks] == [table.rstrip("\n"), "---\n\nA closing line about the phones."]
    assert [c.index for c in chunks] == [0, 1]
    assert chunk_document(doc("---\n\n***\n")) == []


def test_small_document_is_one_chunk_without_surrounding_blank_lines() -> None:
    text = "\n\n# Avery Lancaster\n\n## Summary\n\nAvery leads sales.\n\n"
    [chunk] = chunk_document(doc(text, "people/avery.md"))
    assert chunk.text == "# Avery Lancaster\n\n## Summary\n\nAvery leads sales."
    assert (chunk.start, chunk.end, chunk.index) == (2, len(text) - 2, 0)
    assert chunk.heading_path == ["Avery Lancaster", "Summary"]
    assert chunk.doc_id == "people/avery.md"


def test_chunk_id_is_sha256_of_doc_id_and_text() -> None:
    [chunk] = chunk_document(doc("Hello world.", "x/y.md"))
    expected = hashlib.sha256(b"x/y.md\x00Hello world.").hexdigest()[:16]
    assert chunk.chunk_id == expected == make_chunk_id("x/y.md", "Hello world.")
    assert make_chunk_id("x/z.md", "Hello world.") != expected
    assert len(expected) == 16


def test_chunk_documents_keeps_order_and_restarts_index() -> None:
    first = doc("# One\n\n" + "\n\n".join(f"Paragraph {i} of the first doc." for i in range(10)), "one.md")
    second = doc("Only paragraph.", "two.md")
    chunks = chunk_documents([first, second], size=100, overlap=0)
    per_doc = [(c.doc_id, c.index) for c in chunks]
    n = len(chunk_document(first, size=100, overlap=0))
    assert n > 1
    assert per_doc == [("one.md", i) for i in range(n)] + [("two.md", 0)]


def test_heading_paths_across_sections() -> None:
    body = "x" * 60
    text = f"# Avery Lancaster\n\n## Summary\n\n{body}\n\n## Career\n\n{body}\n\n# Other Person\n\n{body}"
    chunks = chunk_document(doc(text), size=80, overlap=0)
    assert [c.heading_path for c in chunks] == [
        ["Avery Lancaster", "Summary"],
        ["Avery Lancaster", "Career"],
        ["Other Person"],
    ]
    assert [c.text for c in chunks] == [
        f"# Avery Lancaster\n\n## Summary\n\n{body}",
        f"## Career\n\n{body}",
        f"# Other Person\n\n{body}",
    ]


def test_heading_is_never_last_in_a_chunk() -> None:
    para = "word " * 15  # 75 characters
    text = f"{para.strip()}\n\n# Next section\n\n{para.strip()}"
    chunks = chunk_document(doc(text), size=100, overlap=0)
    assert [c.text for c in chunks] == [para.strip(), f"# Next section\n\n{para.strip()}"]


def test_trailing_heading_at_end_of_document_is_kept() -> None:
    chunks = chunk_document(doc("Some text.\n\n# Appendix"), size=100, overlap=0)
    assert [c.text for c in chunks] == ["Some text.\n\n# Appendix"]
    only = chunk_document(doc("# Just a title"), size=100, overlap=0)
    assert [(c.text, c.heading_path) for c in only] == [("# Just a title", ["Just a title"])]


def test_hash_lines_in_code_do_not_change_heading_path() -> None:
    text = "# Setup\n\n```bash\n# install\npip install x\n```\n\nThen run it."
    chunks = chunk_document(doc(text), size=200, overlap=0)
    assert [c.heading_path for c in chunks] == [["Setup"]]


# --------------------------------------------------------------------------------------------- overlap


def test_overlap_repeats_trailing_whole_blocks() -> None:
    paras = [f"Paragraph number {i} is here." for i in range(6)]  # 27 characters each
    text = "\n\n".join(paras)
    chunks = chunk_document(doc(text), size=90, overlap=30)
    assert [c.text for c in chunks] == [
        "\n\n".join(paras[0:3]),
        "\n\n".join(paras[2:5]),
        "\n\n".join(paras[4:6]),
    ]
    for prev, nxt in pairwise(chunks):
        assert prev.end - nxt.start == len(paras[0])


def test_overlap_zero_shares_nothing() -> None:
    text = "\n\n".join(f"Paragraph number {i} is here." for i in range(6))
    chunks = chunk_document(doc(text), size=90, overlap=0)
    assert len(chunks) == 2
    assert chunks[1].start > chunks[0].end
    assert "".join(c.text for c in chunks).replace("\n", "") == text.replace("\n", "")


def test_overlap_falls_back_to_trailing_sentences() -> None:
    para = "First sentence is rather long here. Second one. Third one ends it."
    other = "Another paragraph follows and needs a chunk of its own."
    chunks = chunk_document(doc(f"{para}\n\n{other}"), size=100, overlap=40)
    assert [c.text for c in chunks] == [para, f"Second one. Third one ends it.\n\n{other}"]


def test_overlap_dropped_when_it_would_overflow() -> None:
    a = "a" * 60
    b = "b" * 90
    chunks = chunk_document(doc(f"{a}\n\n{b}"), size=100, overlap=70)
    assert [c.text for c in chunks] == [a, b]


# ------------------------------------------------------------------------------------ large structures


def table(rows: int, width: int = 20) -> str:
    lines = ["| key | value |", "|---|---|"]
    lines += [f"| row{i} | {'v' * width} |" for i in range(rows)]
    return "\n".join(lines)


def test_table_up_to_three_sizes_stays_whole() -> None:
    tbl = table(8)  # ~250 characters, between size and 3 x size
    text = f"# Prices\n\nIntro.\n\n{tbl}\n\nOutro."
    chunks = chunk_document(doc(text), size=100, overlap=0)
    holding = [c for c in chunks if tbl in c.text]
    assert len(holding) == 1
    assert holding[0].text == tbl
    assert holding[0].heading_path == ["Prices"]


def test_oversize_table_is_split_between_rows() -> None:
    tbl = table(40)
    assert len(tbl) > OVERSIZE_FACTOR * 200
    chunks = chunk_document(doc(tbl), size=200, overlap=0)
    assert len(chunks) > 3
    for c in chunks:
        assert len(c.text) <= 200
        assert c.text.startswith("|") and c.text.endswith("|")
    rows = [line for c in chunks for line in c.text.split("\n")]
    assert rows == tbl.split("\n")


def test_oversize_list_is_split_between_items() -> None:
    items = [f"- item {i} says something moderately long." for i in range(30)]
    text = "\n".join(items)
    chunks = chunk_document(doc(text), size=150, overlap=0)
    assert all(c.text.startswith("- item ") and len(c.text) <= 150 for c in chunks)
    assert [line for c in chunks for line in c.text.split("\n")] == items


def test_list_up_to_three_sizes_stays_whole_even_over_size() -> None:
    items = "\n".join(f"- item {i} with text" for i in range(12))  # ~230 characters
    chunks = chunk_document(doc(f"# L\n\n{items}"), size=100, overlap=0)
    assert [c.text for c in chunks] == [f"# L\n\n{items}"]


def test_chinese_paragraph_split_at_full_stops() -> None:
    sentences = [f"这是第{i}句话，内容比较长一些！" if i % 3 == 0 else f"这是第{i}句话。" for i in range(80)]
    para = "".join(sentences)
    chunks = chunk_document(doc(para), size=60, overlap=0)
    assert len(para) > OVERSIZE_FACTOR * 60
    assert "".join(c.text for c in chunks) == para
    for c in chunks:
        assert len(c.text) <= 60
        assert c.text[-1] in "。！"


def test_korean_paragraph_split_after_da() -> None:
    # Sentences end in "다." with and without a following space.
    sentences = [f"{i}번 문장은 한국어로 쓰였다." for i in range(40)]
    para = " ".join(sentences[:20]) + "".join(sentences[20:])
    chunks = chunk_document(doc(para), size=80, overlap=0)
    for c in chunks:
        assert len(c.text) <= 80
        assert c.text.endswith("다.")
    assert "".join(c.text for c in chunks).replace(" ", "") == para.replace(" ", "")


def test_oversize_word_is_hard_split() -> None:
    word = "x" * 1000
    chunks = chunk_document(doc(word), size=100, overlap=0)
    assert [len(c.text) for c in chunks] == [100] * 10
    assert [c.start for c in chunks] == list(range(0, 1000, 100))


def test_oversize_paragraph_pieces_keep_heading_path_and_sentence_overlap() -> None:
    para = " ".join(f"Sentence {i:02d} is here." for i in range(60))  # 22 characters each
    chunks = chunk_document(doc(f"# Big\n\n{para}"), size=100, overlap=25)
    assert all(c.heading_path == ["Big"] for c in chunks)
    assert chunks[0].text.startswith("# Big\n\nSentence 00")
    for prev, nxt in pairwise(chunks):
        assert 0 < prev.end - nxt.start <= 25
        assert nxt.text.startswith("Sentence ")


def test_chunking_is_fast() -> None:
    section = (
        "## Section\n\nA paragraph of ordinary prose that goes on for a while. It has sentences.\n\n"
        "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\n- item one\n- item two\n  more\n\n"
    )
    docs = [doc("# Title\n\n" + section * 20, f"d{i}.md") for i in range(2000)]
    assert 2500 < len(docs[0].text) < 4000
    started = time.perf_counter()
    chunks = chunk_documents(docs)
    elapsed = time.perf_counter() - started
    assert len(chunks) >= 2000 * 4
    assert elapsed < 5.0  # 10,000 such documents take about 2 s on a laptop; generous for CI


# -------------------------------------------------------------------------------- random documents

_WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz가나다라마사한국中文字", min_size=1, max_size=9)


@st.composite
def sentences(draw: st.DrawFn) -> str:
    words = draw(st.lists(_WORD, min_size=1, max_size=14))
    end = draw(st.sampled_from([".", "!", "?", "。", "다."]))
    return " ".join(words) + end


@st.composite
def paragraphs(draw: st.DrawFn) -> str:
    parts = draw(st.lists(sentences(), min_size=1, max_size=40))
    if draw(st.integers(0, 9)) == 0:
        parts.append("z" * draw(st.integers(100, 900)))  # a word too long for any chunk
    seps = draw(st.lists(st.sampled_from([" ", "\n", ""]), min_size=len(parts), max_size=len(parts)))
    return "".join(p + s for p, s in zip(parts, seps, strict=True)).rstrip()


@st.composite
def tables(draw: st.DrawFn) -> str:
    cols = draw(st.integers(1, 4))
    rows = draw(st.lists(st.lists(_WORD, min_size=cols, max_size=cols), min_size=1, max_size=40))
    header = "| " + " | ".join(f"h{i}" for i in range(cols)) + " |"
    return "\n".join([header, "|" + "---|" * cols] + ["| " + " | ".join(r) + " |" for r in rows])


@st.composite
def lists(draw: st.DrawFn) -> str:
    marker = draw(st.sampled_from(["-", "*", "+", "1."]))
    items = []
    for body in draw(st.lists(st.lists(sentences(), min_size=1, max_size=4), min_size=1, max_size=25)):
        item = f"{marker} {body[0]}"
        if len(body) > 1 and draw(st.booleans()):
            item += "\n  " + " ".join(body[1:])  # indented continuation line
        if draw(st.integers(0, 4)) == 0:
            item += f"\n  - nested {body[-1]}"
        items.append(item)
    seps = draw(st.lists(st.sampled_from(["\n", "\n\n"]), min_size=len(items), max_size=len(items)))
    return "".join(i + s for i, s in zip(items, seps, strict=True)).rstrip("\n")


@st.composite
def code(draw: st.DrawFn) -> str:
    lines = draw(st.lists(st.sampled_from(["# comment", "| pipe", "- dash", "x = 1", ""]), max_size=15))
    return "```\n" + "\n".join(lines) + "\n```"


@dataclass
class Gen:
    kind: str
    start: int
    end: int
    path: tuple[str, ...]


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, list[Gen]]:
    pieces: list[tuple[str, str, int]] = []  # kind, text, heading level
    kinds = st.sampled_from(["heading", "paragraph", "table", "list", "code"])
    for kind in draw(st.lists(kinds, max_size=25)):
        if kind == "list" and pieces and pieces[-1][0] == "list":
            pieces.append(("paragraph", "Between lists.", 0))  # two adjacent lists would read as one
        if kind == "heading":
            level = draw(st.integers(1, 4))
            words = draw(st.lists(_WORD, min_size=1, max_size=5))
            pieces.append((kind, f"{'#' * level} " + " ".join(words), level))
        else:
            strategy = {"paragraph": paragraphs(), "table": tables(), "list": lists(), "code": code()}[kind]
            pieces.append((kind, draw(strategy), 0))
    text = "\n" * draw(st.integers(0, 2))
    blocks: list[Gen] = []
    stack: list[tuple[int, str]] = []
    for kind, body, level in pieces:
        if kind == "heading":
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, body.lstrip("#").strip()))
        path = tuple(title for _, title in stack)
        blocks.append(Gen(kind, len(text), len(text) + len(body), path))
        text += body + ("\n" if kind == "heading" and draw(st.booleans()) else "\n\n")
    return text, blocks


def check_chunks(text: str, blocks: list[Gen], chunks: list[Chunk], size: int, overlap: int) -> None:
    limit = OVERSIZE_FACTOR * size
    for i, c in enumerate(chunks):
        assert c.text == text[c.start : c.end]
        # No blank lines or trailing spaces around a chunk (a nested list item may keep its indentation).
        assert c.text.strip() and c.text == c.text.rstrip() and not c.text.startswith("\n")
        assert c.index == i
        assert c.chunk_id == make_chunk_id("gen.md", c.text)
        inside = [b for b in blocks if b.start < c.end and b.end > c.start]
        content = [b for b in inside if b.kind != "heading"]
        # Longer than size only when the chunk is one whole block of at most 3 x size, or one piece of a
        # longer block, plus the headings it sits under (a heading always goes with what follows it).
        if len(c.text) > size:
            if not content:
                assert len(inside) == 1
            else:
                assert len(content) == 1
                whole = c.start <= content[0].start and content[0].end <= c.end
                if whole:
                    assert content[0].end - content[0].start <= limit
                else:
                    assert content[0].end - content[0].start > limit
                    assert c.end - max(c.start, content[0].start) <= size
        # The heading path is the one in effect at the first non-heading block.
        expected = content[0].path if content else inside[-1].path
        assert tuple(c.heading_path) == expected
        # A heading ends a chunk only when nothing but headings follows in the document.
        if inside[-1].kind == "heading":
            assert all(b.kind == "heading" for b in blocks if b.start >= inside[-1].end)
    for prev, nxt in pairwise(chunks):
        assert prev.start < nxt.start and prev.end < nxt.end
        assert prev.end - nxt.start <= overlap
    # Every letter and digit is in some chunk, and every chunk has one (a rule or an empty fence alone is dropped).
    covered = 0
    for c in chunks:
        assert not re.search(r"\w", text[covered : c.start])
        assert re.search(r"\w", c.text)
        covered = max(covered, c.end)
    assert not re.search(r"\w", text[covered:])
    # Tables and lists up to 3 x size are never split.
    for b in blocks:
        if b.kind in ("table", "list") and b.end - b.start <= limit and re.search(r"\w", text[b.start : b.end]):
            assert any(c.start <= b.start and b.end <= c.end for c in chunks)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    generated=documents(),
    size=st.sampled_from([50, 80, 150, 400, 800]),
    overlap_share=st.floats(0, 0.9),
)
def test_random_markdown_chunks_are_verbatim_and_structured(
    generated: tuple[str, list[Gen]], size: int, overlap_share: float
) -> None:
    text, blocks = generated
    overlap = int(size * overlap_share)
    # The generator's blocks must be the parser's blocks, or the checks below would test the wrong thing.
    assert [(b.kind, b.start, b.end, b.path) for b in split_blocks(text)] == [
        (b.kind, b.start, b.end, b.path) for b in blocks
    ]
    chunks = chunk_document(doc(text, "gen.md"), size=size, overlap=overlap)
    check_chunks(text, blocks, chunks, size, overlap)
    again = chunk_document(doc(text, "gen.md"), size=size, overlap=overlap)
    assert [c.chunk_id for c in again] == [c.chunk_id for c in chunks]
    if not text.strip():
        assert chunks == []
