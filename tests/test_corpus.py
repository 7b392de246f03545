"""Loading knowledge-base folders: walking, decoding, front matter, titles, errors."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from schemas import Document
from testgen.corpus import (
    SUPPORTED_SUFFIXES,
    LoadResult,
    decode_bytes,
    load_kb,
    parse_front_matter,
    with_table_bars,
)
from testgen.errors import CorpusError, UserInputError


def write(root: Path, rel: str, content: str | bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, str):
        path.write_bytes(content.encode("utf-8"))
    else:
        path.write_bytes(content)
    return path


def by_id(result: LoadResult) -> dict[str, Document]:
    return {doc.doc_id: doc for doc in result.documents}


def skipped(result: LoadResult) -> dict[str, str]:
    return {item.path: item.reason for item in result.skipped}


# ------------------------------------------------------------------------------------------- walking


def test_nested_folders_doc_id_and_doc_type(tmp_path: Path) -> None:
    write(tmp_path, "overview.md", "# Overview\n\nTop level.")
    write(tmp_path, "company/about.md", "# About\n\nWe make things.")
    write(tmp_path, "company/people/avery.markdown", "# Avery\n\nAvery works here.")
    write(tmp_path, "notes/todo.txt", "Buy milk.")
    result = load_kb(tmp_path)
    assert [(d.doc_id, d.doc_type) for d in result.documents] == [
        ("company/about.md", "company"),
        ("company/people/avery.markdown", "company"),
        ("notes/todo.txt", "notes"),
        ("overview.md", "root"),
    ]
    assert result.skipped == []
    assert result.documents[0].text == "# About\n\nWe make things."
    assert result.documents[0].encoding == "utf-8"
    assert result.documents[0].language == "en"


def test_order_is_deterministic_and_accepts_str_root(tmp_path: Path) -> None:
    for name in ["b.md", "a.md", "c/z.md", "c/a.md", "B.md"]:
        write(tmp_path, name, f"Text of {name}.")
    first = [d.doc_id for d in load_kb(str(tmp_path)).documents]
    assert first == ["B.md", "a.md", "b.md", "c/a.md", "c/z.md"]
    assert [d.doc_id for d in load_kb(tmp_path).documents] == first


def test_hidden_files_and_folders_are_ignored(tmp_path: Path) -> None:
    write(tmp_path, "visible.md", "Visible.")
    write(tmp_path, ".hidden.md", "Hidden.")
    write(tmp_path, ".git/config.md", "Hidden folder.")
    write(tmp_path, "docs/.obsidian/workspace.md", "Hidden nested folder.")
    result = load_kb(tmp_path)
    assert [d.doc_id for d in result.documents] == ["visible.md"]
    assert result.skipped == []


def test_unsupported_suffixes_are_listed(tmp_path: Path) -> None:
    write(tmp_path, "a.md", "Fine.")
    write(tmp_path, "report.pdf", b"%PDF-1.4 whatever")
    write(tmp_path, "data/table.CSV", "a,b\n1,2\n")
    write(tmp_path, "notes.docx", b"PK\x03\x04")
    write(tmp_path, "Makefile", "all:\n")
    write(tmp_path, "UPPER.MD", "Upper-case suffix is fine.")
    result = load_kb(tmp_path)
    assert [d.doc_id for d in result.documents] == ["UPPER.MD", "a.md", "data/table.CSV"]
    assert skipped(result) == {
        "Makefile": "unsupported file type (no suffix)",
        "notes.docx": "unsupported file type '.docx'",
        "report.pdf": "unsupported file type '.pdf'",
    }
    assert SUPPORTED_SUFFIXES == (".md", ".markdown", ".txt", ".csv", ".tsv")


def test_progress_is_reported_for_every_file(tmp_path: Path) -> None:
    write(tmp_path, "a.md", "A.")
    write(tmp_path, "b.pdf", b"%PDF")
    write(tmp_path, "c/d.txt", "D.")
    calls: list[tuple[int, int]] = []
    load_kb(tmp_path, on_progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_unicode_file_names(tmp_path: Path) -> None:
    write(tmp_path, "회사/소개_문서.md", "회사 소개입니다. 우리는 제품을 만듭니다.")
    write(tmp_path, "中文/公司简介.md", "这是公司简介。我们生产产品。")
    result = load_kb(tmp_path)
    docs = by_id(result)
    korean = docs["회사/소개_문서.md"]
    chinese = docs["中文/公司简介.md"]
    assert (korean.doc_type, korean.title, korean.language) == ("회사", "소개 문서", "ko")
    assert (chinese.doc_type, chinese.title, chinese.language) == ("中文", "公司简介", "zh")


# ------------------------------------------------------------------------------------------ decoding


def test_utf8_bom_is_stripped_and_recorded(tmp_path: Path) -> None:
    write(tmp_path, "bom.md", b"\xef\xbb\xbf# Title\n\nBody.")
    doc = load_kb(tmp_path).documents[0]
    assert doc.encoding == "utf-8-sig"
    assert doc.text == "# Title\n\nBody."
    assert doc.title == "Title"


def test_cp949_korean_file(tmp_path: Path) -> None:
    # "똠" and "햏" exist in cp949 only, not in EUC-KR (KS X 1001).
    text = "# 똠방각하\n\n햏자는 회사의 대표 제품입니다."
    write(tmp_path, "cp949.md", text.encode("cp949"))
    doc = load_kb(tmp_path).documents[0]
    assert doc.encoding == "cp949"
    assert doc.text == text
    assert doc.language == "ko"


def test_euc_kr_korean_file(tmp_path: Path) -> None:
    text = "# 회사 소개\r\n\r\n우리 회사는 2010년에 설립되었습니다.\r\n"
    write(tmp_path, "euckr.txt", text.encode("euc-kr"))
    doc = load_kb(tmp_path).documents[0]
    assert doc.encoding == "euc-kr"
    assert doc.text == "# 회사 소개\n\n우리 회사는 2010년에 설립되었습니다.\n"
    assert doc.title == "회사 소개"


def test_utf16_with_bom(tmp_path: Path) -> None:
    write(tmp_path, "notepad.txt", "Saved by Notepad.\r\nSecond line.".encode("utf-16"))
    doc = load_kb(tmp_path).documents[0]
    assert (doc.encoding, doc.text) == ("utf-16", "Saved by Notepad.\nSecond line.")


def test_utf16_without_bom_is_decoded_not_skipped_as_binary(tmp_path: Path) -> None:
    texts = {
        "en.md": ("# Notes\r\n\r\nSaved by a tool that writes no BOM.\r\n", "utf-16-le"),
        "ko.md": ("# 회사 소개\n\n우리 회사는 2010년에 설립되었습니다. 가격은 가장 저렴합니다.\n", "utf-16-le"),
        "zh.txt": ("大熊猫是中国特有的一种熊科动物，主要吃竹子。\n体长1.2至1.8米。\n", "utf-16-be"),
        "ja.md": ("# 日本語\n\nこれは日本語のテキストです。\n", "utf-16-be"),
    }
    for name, (text, encoding) in texts.items():
        write(tmp_path, name, text.encode(encoding))
    result = load_kb(tmp_path)
    assert skipped(result) == {}
    docs = by_id(result)
    for name, (text, encoding) in texts.items():
        assert (docs[name].encoding, docs[name].text) == (encoding, text.replace("\r\n", "\n"))
    assert (docs["ko.md"].language, docs["zh.txt"].language, docs["ja.md"].language) == ("ko", "zh", "ja")


def test_binaries_full_of_nul_bytes_are_not_taken_for_utf16() -> None:
    import random

    rng = random.Random(14)
    text = "Some text in UTF-16".encode("utf-16-le")
    binaries = {
        "random": bytes(rng.randrange(256) for _ in range(4096)),
        "text then zeros": text + bytes(64),  # a string table: U+0000 characters
        "numbers": b"".join(n.to_bytes(4, "little") for n in range(1000)),  # little integers: NULs on both sides
        "image": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x06\x00\x00\x00",
        "odd length": text + b"\x00",
        "controls": "".join(chr(rng.randrange(1, 32)) + "a" for _ in range(500)).encode("utf-16-le"),
    }
    for name, data in binaries.items():
        with pytest.raises(ValueError, match="binary file"):
            decode_bytes(data)
            pytest.fail(f"{name} was decoded")


def test_western_legacy_encoding_falls_back_to_detection(tmp_path: Path) -> None:
    write(tmp_path, "fr.txt", "Le café et la crème brûlée du garçon.\n".encode("latin-1"))
    doc = load_kb(tmp_path).documents[0]
    assert doc.encoding == "cp1252"
    assert doc.text == "Le café et la crème brûlée du garçon.\n"


def test_chinese_gbk_is_not_taken_for_korean() -> None:
    text, encoding = decode_bytes("这是一个中文文本，用于测试编码检测。".encode("gb18030"))
    assert text == "这是一个中文文本，用于测试编码检测。"
    assert encoding != "cp949"


def test_binary_empty_and_whitespace_files_are_skipped(tmp_path: Path) -> None:
    write(tmp_path, "good.md", "Good.")
    write(tmp_path, "image.md", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    write(tmp_path, "controls.txt", bytes(range(1, 9)) * 100)
    write(tmp_path, "empty.md", b"")
    write(tmp_path, "blank.md", "  \n\n\t \r\n")
    write(tmp_path, "ideographic.md", "\u3000\u3000\n")
    write(tmp_path, "frontonly.md", "---\ntitle: Nothing\n---\n\n")
    result = load_kb(tmp_path)
    assert [d.doc_id for d in result.documents] == ["good.md"]
    assert skipped(result) == {
        "blank.md": "empty file",
        "controls.txt": "binary file",
        "empty.md": "empty file",
        "frontonly.md": "empty file (front matter only)",
        "ideographic.md": "empty file",
        "image.md": "binary file",
    }


def test_undecodable_file_is_skipped() -> None:
    # Lone continuation bytes and bad lead bytes: not UTF-8, not Korean, nothing charset-normalizer trusts.
    data = bytes([0x80, 0xFF, 0x81, 0xFE, 0x9F, 0xC0, 0xC1]) * 200
    with pytest.raises(ValueError) as info:
        decode_bytes(data)
    assert str(info.value) == "cannot decode (tried utf-8, euc-kr, cp949 and charset detection)"


def test_undecodable_file_in_folder_is_listed(tmp_path: Path) -> None:
    write(tmp_path, "a.md", "Fine.")
    write(tmp_path, "b.md", bytes([0x80, 0xFF, 0x81, 0xFE, 0x9F, 0xC0, 0xC1]) * 200)
    result = load_kb(tmp_path)
    assert [d.doc_id for d in result.documents] == ["a.md"]
    assert skipped(result) == {"b.md": "cannot decode (tried utf-8, euc-kr, cp949 and charset detection)"}


def test_unreadable_file_is_skipped(tmp_path: Path) -> None:
    write(tmp_path, "ok.md", "Readable.")
    locked = write(tmp_path, "locked.md", "Secret.")
    locked.chmod(0)
    try:
        if os.access(locked, os.R_OK):
            pytest.skip("running with privileges that ignore file permissions")
        result = load_kb(tmp_path)
    finally:
        locked.chmod(0o644)
    assert [d.doc_id for d in result.documents] == ["ok.md"]
    assert skipped(result) == {"locked.md": "cannot read file: Permission denied"}


def test_read_error_is_skipped_with_os_reason(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Works as root too, where chmod cannot make a file unreadable.
    write(tmp_path, "ok.md", "Readable.")
    write(tmp_path, "io.md", "Will fail.")
    real = Path.read_bytes

    def flaky(self: Path) -> bytes:
        if self.name == "io.md":
            raise OSError(5, "Input/output error")
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", flaky)
    result = load_kb(tmp_path)
    assert [d.doc_id for d in result.documents] == ["ok.md"]
    assert skipped(result) == {"io.md": "cannot read file: Input/output error"}


def test_unreadable_folder_is_listed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, "a/ok.md", "Readable.")
    write(tmp_path, "z.md", "Readable too.")
    (tmp_path / "locked").mkdir()
    real_walk = os.walk

    def walk(top: Path, onerror: Callable[[OSError], object]) -> Iterator[tuple[str, list[str], list[str]]]:
        for folder, dirnames, filenames in real_walk(top, onerror=onerror):
            if "locked" in dirnames:
                dirnames.remove("locked")
                onerror(PermissionError(13, "Permission denied", str(Path(folder, "locked"))))
            yield folder, dirnames, filenames

    monkeypatch.setattr("testgen.corpus.os.walk", walk)
    result = load_kb(tmp_path)
    assert [d.doc_id for d in result.documents] == ["a/ok.md", "z.md"]
    assert skipped(result) == {"locked": "cannot read folder: Permission denied"}


def test_unreadable_root_reports_the_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def walk(top: Path, onerror: Callable[[OSError], object]) -> Iterator[tuple[str, list[str], list[str]]]:
        onerror(PermissionError(13, "Permission denied", str(top)))
        return iter(())

    monkeypatch.setattr("testgen.corpus.os.walk", walk)
    expected = r"0 file\(s\) seen, 1 skipped; e\.g\. \.: cannot read folder: Permission denied"
    with pytest.raises(CorpusError, match=expected):
        load_kb(tmp_path)


def test_broken_symlink_is_skipped(tmp_path: Path) -> None:
    write(tmp_path, "ok.md", "Readable.")
    (tmp_path / "dangling.md").symlink_to(tmp_path / "missing.md")
    result = load_kb(tmp_path)
    assert skipped(result) == {"dangling.md": "broken symbolic link"}


def test_symbolic_links_to_folders_and_link_loops_are_listed(tmp_path: Path) -> None:
    kb = tmp_path / "kb"
    write(kb, "a/doc.md", "# Doc\n\nReadable.")
    write(tmp_path, "elsewhere/shared.md", "# Shared\n\nOutside the knowledge base.")
    (kb / "a" / "loop").symlink_to("..")  # walking it would never end
    (kb / "a" / "self").symlink_to(".")
    (kb / "b").mkdir()
    (kb / "b" / "to_a").symlink_to("../a")
    (kb / "outside").symlink_to(tmp_path / "elsewhere")
    (kb / "ping.md").symlink_to("pong.md")  # two file links pointing at each other
    (kb / "pong.md").symlink_to("ping.md")
    result = load_kb(kb)
    assert [d.doc_id for d in result.documents] == ["a/doc.md"]
    assert skipped(result) == {
        "a/loop": "symbolic link loop (points to the knowledge base's top folder, which holds the link)",
        "a/self": "symbolic link loop (points to the knowledge base's folder a, which holds the link)",
        "b/to_a": "symbolic link to a folder, not followed (points to the knowledge base's folder a, "
        "whose files are read there)",
        "outside": f"symbolic link to a folder, not followed (points to {(tmp_path / 'elsewhere').resolve()}; "
        "copy or move its files in)",
        "ping.md": "symbolic link loop",
        "pong.md": "symbolic link loop",
    }


def test_crlf_and_cr_newlines_are_normalised(tmp_path: Path) -> None:
    write(tmp_path, "win.md", b"---\r\ntitle: Win\r\n---\r\n# H\r\n\r\nLine one\r\nLine two\rOld mac\r\n")
    doc = load_kb(tmp_path).documents[0]
    assert doc.text == "# H\n\nLine one\nLine two\nOld mac\n"
    assert doc.body_offset == len("---\ntitle: Win\n---\n")
    assert doc.title == "Win"


# --------------------------------------------------------------------------------------- front matter


def test_front_matter_is_parsed_and_removed(tmp_path: Path) -> None:
    content = (
        "---\ntitle: Quarterly Report\ndate: 2024-03-01\ntags: [finance, q1]\ndraft: false\n"
        "owner:\nlang: ko\n---\n# Something else\n\n본문입니다."
    )
    write(tmp_path, "report.md", content)
    doc = load_kb(tmp_path).documents[0]
    assert doc.front_matter == {
        "title": "Quarterly Report",
        "date": "2024-03-01",
        "tags": "finance, q1",
        "draft": "false",
        "owner": "",
        "lang": "ko",
    }
    assert doc.title == "Quarterly Report"
    assert doc.language == "ko"
    assert doc.text == "# Something else\n\n본문입니다."
    assert doc.body_offset == content.index("# Something")
    assert content[doc.body_offset :] == doc.text


def test_invalid_yaml_front_matter_is_kept_as_text(tmp_path: Path) -> None:
    content = "---\ntitle: [unclosed\nkey: : :\n---\n# Real Title\n\nBody."
    write(tmp_path, "bad.md", content)
    doc = load_kb(tmp_path).documents[0]
    assert doc.front_matter == {}
    assert doc.body_offset == 0
    assert doc.text == content
    assert doc.title == "Real Title"


def test_impossible_date_in_front_matter_does_not_crash(tmp_path: Path) -> None:
    content = "---\ndate: 2024-13-45\n---\nBody."
    write(tmp_path, "date.md", content)
    doc = load_kb(tmp_path).documents[0]
    assert (doc.front_matter, doc.body_offset, doc.text) == ({}, 0, content)


def test_thematic_break_is_not_front_matter() -> None:
    text = "---\nJust a paragraph between rules.\n---\nMore."
    assert parse_front_matter(text) == ({}, 0)
    assert parse_front_matter("---\n---\nBody") == ({}, 8)
    assert parse_front_matter("No front matter\n---\na: 1\n---\n") == ({}, 0)
    assert parse_front_matter("---\nn: 3\nnested: {a: 1}\n---") == ({"n": "3", "nested": '{"a": 1}'}, 27)


# ---------------------------------------------------------------------------------------------- titles


def test_title_stem_match_beats_first_h1(tmp_path: Path) -> None:
    write(tmp_path, "Bizllm.md", "# Product Summary\n\nShort.\n\n# Bizllm\n\nThe product.")
    doc = load_kb(tmp_path).documents[0]
    assert doc.title == "Bizllm"


def test_title_long_stem_match_with_punctuation(tmp_path: Path) -> None:
    write(
        tmp_path,
        "contracts/Contract with Acme for Widgets - Phase 2.md",
        "# Overview\n\n# Contract with Acme for Widgets: Phase 2\n\nTerms.",
    )
    doc = load_kb(tmp_path).documents[0]
    assert doc.title == "Contract with Acme for Widgets: Phase 2"


def test_title_first_h1_without_stem_match(tmp_path: Path) -> None:
    write(tmp_path, "notes.md", "Intro line.\n\n## Not H1\n\n# First\n\n# Second\n")
    assert load_kb(tmp_path).documents[0].title == "First"


def test_title_ignores_hash_lines_in_code(tmp_path: Path) -> None:
    write(tmp_path, "setup_guide.md", "```bash\n# install it\npip install x\n```\n\nDone.")
    assert load_kb(tmp_path).documents[0].title == "setup guide"


def test_title_from_stem(tmp_path: Path) -> None:
    write(tmp_path, "my_project-notes.txt", "No headings here.")
    assert load_kb(tmp_path).documents[0].title == "my project notes"


def test_title_stem_match_is_width_and_case_insensitive(tmp_path: Path) -> None:
    write(tmp_path, "ＡＢＣ社 概要.md", "# 目次\n\n# abc社　概要\n\n本文。")
    assert load_kb(tmp_path).documents[0].title == "abc社　概要"


# -------------------------------------------------------------------------------------------- language


def test_language_argument_forces_every_document(tmp_path: Path) -> None:
    write(tmp_path, "a.md", "---\nlang: ja\n---\nEnglish text.")
    write(tmp_path, "b.md", "한국어 문서입니다.")
    result = load_kb(tmp_path, language="en")
    assert [d.language for d in result.documents] == ["en", "en"]


def test_language_from_front_matter_then_detection(tmp_path: Path) -> None:
    write(tmp_path, "a.md", "---\nlanguage: ZH\n---\nEnglish text but declared Chinese.")
    write(tmp_path, "b.md", "これは日本語の文書です。")
    write(tmp_path, "c.md", "这是中文文档。")
    write(tmp_path, "d.md", "---\nlang: ko-KR\n---\nEnglish text.")
    write(tmp_path, "e.md", "---\nlanguage: Korean\n---\nEnglish text.")
    write(tmp_path, "f.md", "---\nlang: zh_Hant\n---\nEnglish text.")
    assert [d.language for d in load_kb(tmp_path).documents] == ["zh", "ja", "zh", "ko", "ko", "zh"]


# ---------------------------------------------------------------------------------------------- errors


def test_missing_root_raises_corpus_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope"
    with pytest.raises(CorpusError, match=r"knowledge-base folder not found: .*nope \(check the path"):
        load_kb(missing)


def test_root_that_is_a_file_raises_corpus_error(tmp_path: Path) -> None:
    path = write(tmp_path, "file.md", "Text.")
    with pytest.raises(CorpusError, match="is not a folder"):
        load_kb(path)


def test_empty_folder_raises_corpus_error(tmp_path: Path) -> None:
    with pytest.raises(CorpusError, match=r"has no files \(add \.md, \.markdown, \.txt, \.csv, \.tsv files"):
        load_kb(tmp_path)


def test_all_bad_folder_raises_corpus_error(tmp_path: Path) -> None:
    write(tmp_path, "a.pdf", b"%PDF")
    write(tmp_path, "b.md", b"")
    write(tmp_path, "c.md", b"\x00\x01\x02")
    with pytest.raises(CorpusError) as info:
        load_kb(tmp_path)
    message = str(info.value)
    assert "3 file(s) seen, 3 skipped" in message
    assert "a.pdf: unsupported file type '.pdf'" in message
    assert "\n" not in message
    assert isinstance(info.value, UserInputError)


def test_a_table_written_in_plain_text_gets_the_bars_of_a_markdown_table(tmp_path: Path) -> None:
    plain = (
        "비용 안내\n\n분류 | 항목 | 금액\n----------\n제증명 | 일반진단서 | 20,000\n검사 | MRI 요추 | 480,000\n\n끝."
    )
    assert with_table_bars(plain) == (
        "비용 안내\n\n| 분류 | 항목 | 금액 |\n|---|---|---|\n| 제증명 | 일반진단서 | 20,000 |\n"
        "| 검사 | MRI 요추 | 480,000 |\n\n끝."
    )
    # a row whose first cell is merged with the row above keeps its columns
    merged = "구분 | 항목 | 금액\n-----\n대학생 | 등록금 | 2,000,000원\n | 생활비 | 500,000원\n합계 | | 2,500,000원"
    assert with_table_bars(merged).split("\n")[3:] == [
        "|  | 생활비 | 500,000원 |",
        "| 합계 |  | 2,500,000원 |",
    ]
    code = "```\nps | grep x\n-----\nls | wc\ncat a | sort\n```\n"
    assert with_table_bars(code) == code  # shell pipes in a code block
    # a title with a bar over a rule and a markdown table are no plain tables
    for text in ("Acme | About\n-----\nWe make things.\nMore | text", "| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |"):
        assert with_table_bars(text) == text
    (tmp_path / "fees.txt").write_text(plain, encoding="utf-8")
    [doc] = load_kb(tmp_path).documents
    assert "| 검사 | MRI 요추 | 480,000 |" in doc.text  # every reader of the document sees the table


def test_a_page_titled_by_its_kind_is_named_by_the_name_it_gives(tmp_path: Path) -> None:
    (tmp_path / "about.md").write_text(
        "# 재단 소개\n\n| 항목 | 내용 |\n|---|---|\n| 법인명 | 재단법인 늘품나눔재단 (Neulpum) |\n"
        "| 설립일 | 2009년 5월 12일 |\n",
        encoding="utf-8",
    )
    (tmp_path / "team.md").write_text("# 팀 소개\n\n- 팀장: 오지훈\n", encoding="utf-8")
    titles = {doc.doc_id: doc.title for doc in load_kb(tmp_path).documents}
    assert titles == {"about.md": "재단법인 늘품나눔재단", "team.md": "팀 소개"}  # no name given: the title stays


def test_a_front_matter_title_of_a_kind_of_page_is_named_too_and_a_spaced_out_word_is_one(tmp_path: Path) -> None:
    (tmp_path / "overview.md").write_text(
        "---\ntitle: 회사 개요\n---\n\n# 회사 개요\n\n| 항목 | 내용 |\n|---|---|\n| 회사명 | 주식회사 솔담리빙 |\n",
        encoding="utf-8",
    )
    (tmp_path / "release.txt").write_text("보 도 자 료\n\n배포일: 2025년 10월 13일\n", encoding="utf-8")
    titles = {doc.doc_id: doc.title for doc in load_kb(tmp_path).documents}
    assert titles["overview.md"] == "주식회사 솔담리빙"
    assert titles["release.txt"] == "release"  # "보도자료" names a kind of page: the file's name is better
    from testgen.corpus import _clean_title

    assert _clean_title("보 도 자 료") == "보도자료"
    assert _clean_title("온솔 갈대빛 축제") == "온솔 갈대빛 축제"  # words of several letters stay apart
    assert _clean_title("[햇살농장 오시는 길]") == "햇살농장 오시는 길"  # a title in brackets


@pytest.mark.parametrize(
    ("text", "stem", "title"),
    [
        # a saved e-mail is titled by its subject
        (
            "From: Priya Nandakumar <priya@example.co.uk>\nTo: members@example.co.uk\nDate: Mon, 7 Oct 2024\n"
            "Subject: Re: Changes from November\n\nHi everyone,\n",
            "NOTICE - changes",
            "Changes from November",
        ),
        # a newsletter that opens with its subject line alone
        (
            "제목: [새싹 소식 5월호] 새 선생님 소개 · 여름 특강 안내\n\n안녕하세요, 새싹입니다.\n",
            "newsletter_may",
            "[새싹 소식 5월호] 새 선생님 소개 · 여름 특강 안내",
        ),
        # with a copy line and in Korean too
        (
            "보낸사람: 민서진 <sj@example.kr>\n받는사람: 고객님 <guest@example.kr>\n참조: 한도윤 <dy@example.kr>\n"
            "날짜: 2025년 3월 4일 (화)\n제목: RE: 4월 행사 최종 인원 안내\n\n안녕하세요.\n",
            "안내메일",
            "4월 행사 최종 인원 안내",
        ),
        # a letterhead's address and numbers are no title
        (
            "TARBRAE FERRIES LTD\nHarbour Office, Quay Road, Dunmallow DU7 3HQ\nTel 01632 960 480\n\n"
            "NOTICE TO PASSENGERS\n\nFares change on 1 March.\n",
            "notice",
            "NOTICE TO PASSENGERS",
        ),
        # a breadcrumb names the page by its last part
        ("# Ops wiki › Front desk › Opening & closing\n\nText.\n", "checklist", "Opening & closing"),
        # a title with a year in it is no newspaper masthead
        (
            "=====\n 청람고속(주) 비상연락망 - 2024년 상반기 (최종 수정본)\n 작성: 경영지원팀\n=====\n\n[대표 번호]\n",
            "비상연락망",
            "청람고속(주) 비상연락망 - 2024년 상반기 (최종 수정본)",
        ),
        # a line ending with a colon opens a block; a note on a draft's way is no title either
        (
            "FOR IMMEDIATE RELEASE\nJanuary 28, 2025\n\nMedia contact:\nAda Quinlan\n",
            "PRESS RELEASE_Sunday hours",
            None,
        ),
        ("[초안] 작성 배수진 / 검토 대표님 → 11/13 업로드 예정\n본문입니다.\n", "insta 초안", None),
    ],
)
def test_plain_text_titles_skip_mail_headers_letterheads_and_notes(text: str, stem: str, title: str | None) -> None:
    from testgen.corpus import clean_stem, derive_title

    assert derive_title(text, {}, stem)[0] == (title if title is not None else clean_stem(stem))
