"""Comma- and tab-separated exports read as tables: shared drives keep spreadsheets as .csv files or pasted text."""

from __future__ import annotations

from pathlib import Path

from factories import kb_context

from testgen.corpus import load_kb
from testgen.delimited import with_delimited_tables


def test_a_comma_block_becomes_a_markdown_table_with_its_cells_intact() -> None:
    text = 'Price list\nitem,unit,price_gbp\nResoling,pair,"45.00"\nHeel bar,"heel, each","12,50"\n\nThanks.'
    lines = with_delimited_tables(text).split("\n")
    assert lines[0] == "Price list" and lines[-1] == "Thanks."
    assert lines[1] == "| item | unit | price gbp |" and lines[2] == "|---|---|---|"
    # a quoted cell keeps its commas; the quotes go, so its text is still what the file writes
    assert lines[4] == "| Heel bar | heel, each | 12,50 |"


def test_prose_with_commas_and_a_too_short_block_are_left_alone() -> None:
    prose = "Hello, world, again\nWe open Mon, Wed, Fri\nBring tea, cake, chairs\n"
    assert with_delimited_tables(prose) == prose
    one_row = "name,role,ext\nAisha Rahman,Chair,201\n"
    assert with_delimited_tables(one_row) == one_row
    # amounts written with thousands separators, one change a line, are a notice's list, not a table
    notice = (
        "  포기김치 1kg    11,000원 → 12,000원\n  포기김치 3kg    29,000원 → 32,000원\n"
        "  갓김치 1kg  14,000원 → 15,000원\n"
    )
    assert with_delimited_tables(notice) == notice


def test_a_tab_block_under_a_title_line_becomes_a_table_and_a_short_row_is_padded() -> None:
    text = "Rota - March\t(updated 3/3)\nday\tlead\tnotes\nMon\tGwen\tkeys\nTue\tOwen\n"
    lines = with_delimited_tables(text).split("\n")
    assert lines[0] == "Rota - March\t(updated 3/3)"  # a title with a note is no header
    assert lines[1:5] == ["| day | lead | notes |", "|---|---|---|", "| Mon | Gwen | keys |", "| Tue | Owen |  |"]


def test_a_csv_file_is_a_document_whose_rows_are_read_by_name_after_a_code(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "studio/timetable.csv": "Code,Class,Tutor,Day\nBW-TUE,Beginners Wheel,Priya Nandakumar,Tue\n"
            "GC-TUE,Glaze Chemistry,Tom Wrobel,Tue\nTT,Teen Throwers,Hannah Lusk,Sat\n"
            "HB-WED,Handbuilding,Declan Moss,Wed\nHB-SAT,Handbuilding (weekend),Declan Moss,Sat\n,,,\n",
            "shop/models.csv": "Model,Name,Weight\nBL-900,Onda Blender,3.4kg\nTS-2,Onda Toaster,1.6kg\n",
            "drone/fees.csv": "과정코드,과정명,정원\nD1-W,1종 평일반,6\nSIM,시뮬레이터 자율연습,8\n",
            "club/loans.csv": "Loan ID,Asset tag,Device,Status\nLN-007,ATB-AND-03,Galaxy Tab A,Closed\n"
            "LN-009,ATB-IPD-01,iPad 9th gen,On loan\n",
        },
    )
    tutor = {f.subject: f.value for f in ctx.facts if f.attribute == "Tutor"}
    # the class is what people ask about, its code one of its values
    assert tutor.get("Beginners Wheel") == "Priya Nandakumar" and "BW-TUE" not in tutor
    assert {f.value for f in ctx.facts if f.subject == "Glaze Chemistry" and f.attribute == "Code"} == {"GC-TUE"}
    # a name may open with a figure ("1종 평일반"): the course, not its code "SIM", is asked about
    seats = {f.subject for f in ctx.facts if f.attribute == "정원"}
    assert "1종 평일반" in seats and not seats & {"D1-W", "SIM"}, seats
    # two classes only a note tells apart are one name to a question: neither is asked about
    assert not any(f.subject.startswith("Handbuilding") or f.subject.startswith("HB-") for f in ctx.facts)
    # a model's code is a name people use: it keeps its rows
    assert {f.value for f in ctx.facts if f.subject == "BL-900" and f.attribute == "Weight"} == {"3.4kg"}
    # a loan's number beside an asset's tag: neither code is a thing people ask about by name
    assert not any(f.subject in ("ATB-AND-03", "ATB-IPD-01") for f in ctx.facts)


def test_tsv_and_csv_files_load(tmp_path: Path) -> None:
    (tmp_path / "rota.tsv").write_text("day\tlead\nMon\tGwen\nTue\tOwen\n", encoding="utf-8")
    docs = load_kb(tmp_path).documents
    assert [d.doc_id for d in docs] == ["rota.tsv"] and docs[0].text.startswith("| day | lead |")
    assert docs[0].title == "rota"


def test_a_title_or_note_line_of_an_export_reads_without_its_empty_cells() -> None:
    text = (
        "Copperline Signwriting Ltd,PRICE LIST from 1 APRIL 2025,,,,\n(prices ex VAT - add 20%),,,,,\n"
        "Code,Service,Unit,Price,Notes,Who\nHL-100,Hand lettering,per letter,£4.90,,Ann\n"
        "HL-200,Large lettering,per letter,£8.10,,Ann\n"
    )
    lines = with_delimited_tables(text).split("\n")
    # the first line is the page's title, as a person reads it, not "Copperline Signwriting Ltd,PRICE LIST …,,,,"
    assert lines[:2] == ["Copperline Signwriting Ltd – PRICE LIST from 1 APRIL 2025", "(prices ex VAT - add 20%)"]
    assert lines[2] == "| Code | Service | Unit | Price | Notes | Who |"
    # a figure with a thousands comma is no padded line
    assert with_delimited_tables("Total,1,250,,\n") == "Total,1,250,,\n"
