"""Facts mined from a document's structure: key–value lines, tables, timelines and sentences."""

from __future__ import annotations

import random
from pathlib import Path
from typing import ClassVar

import pytest

from schemas import Chunk, Document, FactNode
from testgen.chunking import chunk_document
from testgen.kg.mining import MinedDocument, _Miner, fact_id, mine_document, strip_markup
from testgen.text import _keyword_pattern, contains_keyword, normalize, plain_sentence


def mine(text: str, doc_id: str = "products/orbit_arm.md", title: str = "Orbit Arm", **kw: str) -> MinedDocument:
    doc = Document(doc_id=doc_id, doc_type=doc_id.split("/")[0], title=title, text=text, **kw)
    mined = mine_document(doc, chunk_document(doc, size=200, overlap=20))
    chunks = {c.chunk_id: c for c in chunk_document(doc, size=200, overlap=20)}
    for f in mined.facts:  # every fact's evidence is a verbatim span of the document, inside its chunk
        assert doc.text[f.start : f.end] == f.evidence, f
        assert f.doc_id == doc_id
        assert f.chunk_id in chunks
        chunk = chunks[f.chunk_id]
        assert chunk.start <= f.start < chunk.end
        assert f.value in strip_markup(f.evidence) or f.value in f.evidence
    return mined


def triples(mined: MinedDocument) -> list[tuple]:
    return [(f.subject, f.attribute, f.value, f.value_type, f.source) for f in mined.facts]


def by_attr(mined: MinedDocument, attribute: str) -> FactNode:
    [found] = [f for f in mined.facts if f.attribute == attribute]
    return found


# --------------------------------------------------------------------------------------------- key–value


def test_key_value_bullets_bold_plain_and_inner_colon() -> None:
    text = (
        "# Orbit Arm\n\n## Specifications\n\n"
        "- **Price**: $12,500\n"
        "**Payload:** 5 kg\n"
        "- Launched: September 2020\n"
        "* **Owner**: Jonas Berg\n"
        "1. **Warranty**: 2 years\n"
        "- **Rating**：4.8\n"
    )
    mined = mine(text)
    assert triples(mined) == [
        ("Orbit Arm", "Price", "$12,500", "money", "key_value"),
        ("Orbit Arm", "Payload", "5 kg", "number", "key_value"),
        ("Orbit Arm", "Launched", "September 2020", "date", "key_value"),
        ("Orbit Arm", "Owner", "Jonas Berg", "text", "key_value"),
        ("Orbit Arm", "Warranty", "2 years", "number", "key_value"),
        ("Orbit Arm", "Rating", "4.8", "number", "key_value"),
    ]
    price = by_attr(mined, "Price")
    assert (price.number, price.unit, price.context) == (12500.0, "$", "Specifications")
    assert price.evidence == "- **Price**: $12,500"
    assert by_attr(mined, "Payload").evidence == "**Payload:** 5 kg"
    assert by_attr(mined, "Launched").date_key == "2020-09"
    assert (by_attr(mined, "Warranty").number, by_attr(mined, "Warranty").unit) == (2.0, "years")


def test_values_ending_with_colon_and_nested_labels_are_skipped() -> None:
    text = "# Orbit Arm\n\n- **Pricing**: as follows:\n  - **Base**: $12,500\n- **Key Features**:\n  - Quiet motor\n"
    mined = mine(text)
    assert triples(mined) == [("Orbit Arm", "Base", "$12,500", "money", "key_value")]


def test_long_sentence_value_keeps_its_one_typed_value() -> None:
    text = "# Orbit Arm\n\n- **Support**: Client shall pay $10,000 per month for on-site support.\n"
    fact = by_attr(mine(text), "Support")
    assert (fact.value, fact.value_type, fact.number, fact.unit) == ("$10,000 per month", "money", 10000.0, "$/month")


def test_long_prose_value_without_a_value_is_not_a_fact() -> None:
    text = "# Orbit Arm\n\n- **Note**: See the manual. It explains the setup in detail for every farm.\n"
    assert mine(text).facts == []


def test_link_markup_is_stripped_from_text_values() -> None:
    fact = by_attr(mine("# Orbit Arm\n\n- **Owner**: [Jonas Berg](../people/jonas_berg.md)\n"), "Owner")
    assert fact.value == "Jonas Berg"
    assert fact.value_type == "text"


def test_wiki_links_are_stripped_from_values_and_quoted_sentences() -> None:
    mined = mine(
        "# 서령 FC\n\n- **연고지**: [[서령시 (도시)|서령시]]\n- **홈구장**: [[서령종합운동장]]\n",
        doc_id="wiki/fc.md",
        title="서령 FC",
    )
    assert by_attr(mined, "연고지").value == "서령시"
    assert by_attr(mined, "홈구장").value == "서령종합운동장"
    assert (
        plain_sentence("2012년 [[서령대학교]] 밴드 동아리에서 결성되었다.[1]")
        == "2012년 서령대학교 밴드 동아리에서 결성되었다."
    )


def test_qualified_key_becomes_attribute_and_qualifier() -> None:
    text = (
        "# Aurora Bikes\n\n"
        "- **Revenue (2023)**: $18.2 million\n- **매출액 (2023년)**: 185억 원\n- **Size (large)**: 58 cm\n"
    )
    mined = mine(text, doc_id="company/overview.md", title="Aurora Bikes")
    revenue = by_attr(mined, "Revenue")
    assert (revenue.value, revenue.qualifier, revenue.number) == ("$18.2 million", "2023", 18_200_000.0)
    korean = by_attr(mined, "매출액")
    assert (korean.value, korean.qualifier, korean.number) == ("185억 원", "2023년", 18_500_000_000.0)
    size = by_attr(mined, "Size (large)")  # not a date: the key stays whole
    assert size.qualifier is None


# -------------------------------------------------------------------------------------------------- tables


def test_table_rows_give_row_header_times_column() -> None:
    text = (
        "# Orbit Arm\n\n## Models\n\n"
        "| Model | Price | Reach |\n"
        "|-------|-------|-------|\n"
        "| Orbit Mini | $8,000 | 600 mm |\n"
        "| Orbit Max | $15,000 | - |\n"
    )
    mined = mine(text)
    assert triples(mined) == [
        ("Orbit Mini", "Price", "$8,000", "money", "table"),
        ("Orbit Mini", "Reach", "600 mm", "number", "table"),
        ("Orbit Max", "Price", "$15,000", "money", "table"),
    ]
    assert mined.row_entities == [("Orbit Mini", "products/Model"), ("Orbit Max", "products/Model")]
    mini = mined.facts[0]
    assert mini.evidence == "| Orbit Mini | $8,000 | 600 mm |"
    assert mini.qualifier is None


def test_a_row_with_a_blank_first_cell_continues_the_row_above() -> None:
    # a merged cell: the trims X and ZX are Glory Petrol's too, so its price has three values, not one
    text = (
        "# Glory SUV\n\n| Variant | Trim | Price (Lakh) |\n|---|---|---|\n"
        "| Glory Petrol | Base | 13.5 |\n|  | X | 14.0 |\n|  | ZX | 14.5 |\n| Glory Diesel | Base | 19.0 |\n"
    )
    mined = mine(text, doc_id="cars/glory.md", title="Glory SUV")
    prices = [(f.subject, f.value) for f in mined.facts if f.attribute == "Price (Lakh)"]
    assert prices == [
        ("Glory Petrol", "13.5"),
        ("Glory Petrol", "14.0"),
        ("Glory Petrol", "14.5"),
        ("Glory Diesel", "19.0"),
    ]
    assert [name for name, _ in mined.row_entities] == ["Glory Petrol", "Glory Diesel"]  # the continuation names none


def test_year_first_column_makes_a_series_of_the_page_subject() -> None:
    text = (
        "# Aurora Bikes\n\n## Results\n\n"
        "| Year | Revenue | Employees |\n"
        "|------|---------|-----------|\n"
        "| 2022 | $12.1 million | 90 employees |\n"
        "| 2023 | $18.2 million | 148 employees |\n"
    )
    mined = mine(text, doc_id="company/overview.md", title="Aurora Bikes")
    assert [(f.subject, f.attribute, f.value, f.qualifier) for f in mined.facts] == [
        ("Aurora Bikes", "Revenue", "$12.1 million", "2022"),
        ("Aurora Bikes", "Employees", "90 employees", "2022"),
        ("Aurora Bikes", "Revenue", "$18.2 million", "2023"),
        ("Aurora Bikes", "Employees", "148 employees", "2023"),
    ]
    assert mined.row_entities == []
    assert [f.number for f in mined.facts] == [12_100_000.0, 90.0, 18_200_000.0, 148.0]


def test_korean_year_rows_are_qualifiers() -> None:
    text = "# 하늘여행\n\n| 연도 | 매출액 |\n|------|--------|\n| 2023년 | 185억 원 |\n| 2024년 | 212억 원 |\n"
    mined = mine(text, doc_id="company/overview.md", title="하늘여행", language="ko")
    assert [(f.subject, f.attribute, f.value, f.qualifier, f.number) for f in mined.facts] == [
        ("하늘여행", "매출액", "185억 원", "2023년", 18_500_000_000.0),
        ("하늘여행", "매출액", "212억 원", "2024년", 21_200_000_000.0),
    ]


def test_negative_amount_in_a_table_keeps_its_sign() -> None:
    text = "# 하늘여행\n\n| 연도 | 영업이익 |\n|------|----------|\n| 2020년 | -12억 원 |\n"
    [fact] = mine(text, doc_id="company/overview.md", title="하늘여행", language="ko").facts
    assert (fact.value, fact.number) == ("-12억 원", -1_200_000_000.0)


def test_what_a_speaker_said_in_minutes_is_no_property() -> None:
    text = (
        "# 제3차 이사회 회의록\n\n- 재적 이사: 9명\n- 탁현오 이사: 상근 7명으로는 업무가 많다는 점에 공감한다고 함.\n"
        "- 사무국장 설명: 선발 인원을 120명으로 늘리기로 함.\n- 대표이사: 이서연\n"
        "- Trustee Alvarez: moved to approve the $412,600 contract.\n"
    )
    got = {(f.attribute, f.value) for f in mine(text, doc_id="board/minutes.md", title="제3차 이사회 회의록").facts}
    assert got == {("재적 이사", "9명"), ("대표이사", "이서연")}


def test_two_column_item_content_table_is_key_value() -> None:
    text = (
        "# 하늘여행\n\n## 주요 정보\n\n"
        "| 항목 | 내용 |\n"
        "|------|------|\n"
        "| 설립일 | 2008년 3월 15일 |\n"
        "| 대표이사 | 박하늘 |\n"
        "| 직원 수 | 120명 |\n"
    )
    mined = mine(text, doc_id="company/overview.md", title="하늘여행", language="ko")
    assert triples(mined) == [
        ("하늘여행", "설립일", "2008년 3월 15일", "date", "key_value"),
        ("하늘여행", "대표이사", "박하늘", "text", "key_value"),
        ("하늘여행", "직원 수", "120명", "number", "key_value"),
    ]
    assert mined.row_entities == []
    assert by_attr(mined, "설립일").date_key == "2008-03-15"
    assert by_attr(mined, "설립일").evidence == "| 설립일 | 2008년 3월 15일 |"
    assert (by_attr(mined, "직원 수").number, by_attr(mined, "직원 수").unit) == (120.0, "명")


def test_table_without_separator_row_is_not_read() -> None:
    assert mine("# Orbit Arm\n\n| Model | Price |\n| Orbit Mini | $8,000 |\n| Orbit Max | $15,000 |\n").facts == []


# ------------------------------------------------------------------------------------------------ timeline


def test_timeline_bullets_make_dated_events() -> None:
    text = (
        "# Orbit Arm\n\n## History\n\n"
        "- **2019**: Founded the robotics lab in Tartu\n"
        "- **March 2021**: Shipped the first Orbit Arm to Delta Farms\n"
        "- **2012년 5월**: 부산 지점 개설\n"
    )
    mined = mine(text)
    assert [(f.attribute, f.value, f.value_type, f.date_key, f.source) for f in mined.facts] == [
        ("Founded the robotics lab in Tartu", "2019", "date", "2019", "timeline"),
        ("Shipped the first Orbit Arm to Delta Farms", "March 2021", "date", "2021-03", "timeline"),
        ("부산 지점 개설", "2012년 5월", "date", "2012-05", "timeline"),
    ]


def test_dated_amount_and_dated_label() -> None:
    text = (
        "# Mina Cho\n\n## Compensation\n\n- **2016**: $150,000 base salary + bonus\n\n"
        "## Performance Rating\n\n- **2023**: Exceeds Expectations\n"
    )
    mined = mine(text, doc_id="people/mina_cho.md", title="Mina Cho")
    salary, rating = mined.facts
    assert (salary.attribute, salary.value, salary.qualifier, salary.number, salary.source) == (
        "base salary",
        "$150,000",
        "2016",
        150_000.0,
        "timeline",
    )
    assert (rating.attribute, rating.value, rating.qualifier, rating.value_type) == (
        "Performance Rating",
        "Exceeds Expectations",
        "2023",
        "text",
    )


# ----------------------------------------------------------------------------------------------- sentences


def test_sentences_with_dates_and_amounts() -> None:
    text = "# Orbit Arm\n\nThe Orbit Arm was launched on September 1, 2020. It costs $12,500 per unit. It is quiet.\n"
    mined = mine(text)
    assert [(f.attribute, f.value, f.value_type, f.source) for f in mined.facts] == [
        ("The Orbit Arm was launched on ….", "September 1, 2020", "date", "sentence"),
        ("It costs ….", "$12,500 per unit", "money", "sentence"),
    ]
    launched, cost = mined.facts
    assert launched.evidence == "The Orbit Arm was launched on September 1, 2020."
    assert launched.date_key == "2020-09-01"
    assert cost.evidence == "It costs $12,500 per unit."
    assert (cost.number, cost.unit) == (12_500.0, "$/unit")


def test_a_sentence_wrapped_over_lines_is_read_whole_and_a_label_line_is_not_joined() -> None:
    text = (
        "NOTES TO EDITORS\n\n1. Orbit Robotics Ltd was founded in 2016 and has built arms at Unit 4,\n"
        "   Tanyard Works, Hollinbury HB7 2QE since the spring of 2019.\n"
        "Trade sales and wholesale enquiries go to Rav Sandhu every weekday\n"
        "Phone: 0161 496 0745 for orders placed before 3 March 2025\n"
    )
    mined = mine(text)
    founded = [f for f in mined.facts if f.value == "2016"]
    assert [f.evidence for f in founded] == [
        "Orbit Robotics Ltd was founded in 2016 and has built arms at Unit 4,\n"
        "   Tanyard Works, Hollinbury HB7 2QE since the spring of 2019."
    ]
    assert "\n" not in founded[0].attribute
    assert plain_sentence(founded[0].evidence).startswith(
        "Orbit Robotics Ltd was founded in 2016 and has built arms at Unit 4, Tanyard Works"
    )
    # a line that opens with a label stands alone: "… every weekday Phone: 0161 …" is no sentence
    assert all("weekday" not in f.evidence for f in mined.facts)


def test_korean_sentence_facts() -> None:
    text = "# 하늘여행\n\n하늘여행은 2008년 3월 15일 서울 종로구에서 설립되었다. 직원은 120명이다.\n"
    mined = mine(text, doc_id="company/overview.md", title="하늘여행", language="ko")
    assert [(f.value, f.value_type, f.evidence) for f in mined.facts] == [
        ("2008년 3월 15일", "date", "하늘여행은 2008년 3월 15일 서울 종로구에서 설립되었다."),
        ("120명", "number", "직원은 120명이다."),
    ]


def test_bare_numbers_and_code_blocks_make_no_facts() -> None:
    text = "# Orbit Arm\n\nThe arm has 6 joints and 3 modes.\n\n```\n- **Code**: $2,015\nFounded in 2015.\n```\n"
    assert mine(text).facts == []


def test_subject_is_the_nearest_heading_that_names_a_thing() -> None:
    text = (
        "# Offices\n\n## Ferndale Assembly Plant\n\n- **Capacity**: 20,000 bikes\n\n"
        "## Overview\n\n- **Offices**: 4 offices\n"
    )
    mined = mine(text, doc_id="company/offices.md", title="Aurora Offices")
    assert [(f.subject, f.attribute, f.context) for f in mined.facts] == [
        ("Ferndale Assembly Plant", "Capacity", "Ferndale Assembly Plant"),
        ("Aurora Offices", "Offices", "Overview"),
    ]


def test_fact_ids_are_stable_and_distinct() -> None:
    text = "# Orbit Arm\n\n- **Price**: $12,500\n- **Payload**: 5 kg\n"
    first = mine(text)
    second = mine(text)
    assert [f.fact_id for f in first.facts] == [f.fact_id for f in second.facts]
    assert len({f.fact_id for f in first.facts}) == 2
    assert all(f.fact_id.startswith("fact:") and len(f.fact_id) == 21 for f in first.facts)
    assert fact_id("a.md", 3, "Price", "$1") != fact_id("a.md", 4, "Price", "$1")


@pytest.mark.parametrize(
    "text",
    [
        "# Orbit Arm\n\r\n- **Price**: $12,500   \n",
        "# Orbit Arm\n\n   - **Price**:   $12,500\n",
        "# Orbit Arm\n\n- **Price**: **$12,500**\n",
        "# Orbit Arm\n\n| Model | Price |\n|---|---|\n|Orbit Mini|$8,000|\n",
    ],
)
def test_evidence_offsets_survive_odd_spacing(text: str) -> None:
    mined = mine(text)  # the offset checks run inside mine()
    assert len(mined.facts) == 1
    assert mined.facts[0].number in (12_500.0, 8_000.0)


def test_evidence_offsets_on_an_example_document() -> None:
    from pathlib import Path

    path = Path(__file__).parents[1] / "examples" / "haneul_travel" / "company" / "overview.md"
    text = path.read_text(encoding="utf-8")
    mined = mine(text, doc_id="company/overview.md", title="하늘여행", language="ko")
    assert len(mined.facts) > 30
    assert {f.source for f in mined.facts} >= {"key_value", "table", "sentence"}


# ------------------------------------------------------------------------------------- scale (no timing)


class _CountingChunk(Chunk):
    """A chunk that counts how often its offsets are read, to measure work without a clock."""

    reads: ClassVar[list[int]] = [0]

    def __getattribute__(self, name: str) -> object:
        if name in ("start", "end"):
            _CountingChunk.reads[0] += 1
        return super().__getattribute__(name)


def test_fact_to_chunk_lookup_does_not_scan_every_chunk_per_fact() -> None:
    # 600 sections of key-value lines: ~3,000 facts over several hundred chunks. A scan per fact reads
    # chunk offsets ~facts x chunks / 2 times (about a million); a bisection reads each chunk once or twice.
    text = "# Register\n\n" + "".join(
        f"## Unit {i}\n\n- **Price**: ${i},000\n- **Founded**: March {i % 28 + 1}, 2011\n- **Rating**: 4.{i % 10}\n"
        f"- **Staff**: {i + 5} people\n- **City**: Town {i}\n\n"
        for i in range(600)
    )
    doc = Document(doc_id="units.md", doc_type="", title="Register", text=text)
    chunks = [_CountingChunk(**c.model_dump()) for c in chunk_document(doc, size=200, overlap=20)]
    _CountingChunk.reads[0] = 0
    mined = mine_document(doc, chunks)  # type: ignore[arg-type]
    assert len(mined.facts) >= 3000 and len(chunks) >= 300
    assert _CountingChunk.reads[0] <= 6 * len(chunks) + 2 * len(mined.facts)
    by_id = {c.chunk_id: c for c in chunks}
    for fact in mined.facts:
        assert by_id[fact.chunk_id].start <= fact.start and fact.end <= by_id[fact.chunk_id].end


def _scan(chunks: list[Chunk], start: int, end: int) -> str:
    """The definition of a fact's chunk, written as the plain scan."""
    ordered = sorted(chunks, key=lambda c: c.start)
    whole = [c for c in ordered if c.start <= start and end <= c.end]
    inside = [c for c in ordered if c.start <= start < c.end]
    return (whole or inside or ordered)[0].chunk_id


@pytest.mark.parametrize("seed", range(20))
def test_fact_to_chunk_lookup_matches_the_plain_scan(seed: int) -> None:
    rng = random.Random(seed)
    text = "x" * 400
    doc = Document(doc_id="a.md", doc_type="", title="A", text=text)
    # Chunker-shaped lists (starts and ends both rising, overlapping, with gaps) and arbitrary ones.
    pos, spans = 0, []
    while pos < 380:
        start = pos + rng.randint(0, 10)
        end = min(400, start + rng.randint(5, 60))
        spans.append((start, end))
        pos = max(start + 1, end - rng.randint(0, 20))
    if seed % 2:
        spans = [(a, rng.randint(a + 1, 400)) for a, _ in spans]
        rng.shuffle(spans)
    chunks = [
        Chunk(chunk_id=f"c{i}", doc_id="a.md", index=i, text=text[a:b], start=a, end=b)
        for i, (a, b) in enumerate(spans)
    ]
    miner = _Miner(doc, chunks, frozenset())
    for _ in range(300):
        start = rng.randint(0, 399)
        end = rng.randint(start, min(400, start + 80))
        assert miner.chunk_for(start, end) == _scan(chunks, start, end), (start, end)
    assert _Miner(doc, [], frozenset()).chunk_for(3, 5) == ""


@pytest.mark.parametrize("seed", range(5))
def test_keyword_lookup_agrees_with_the_boundary_pattern_everywhere(seed: int) -> None:
    # contains_keyword jumps between occurrences with str.find; it must agree with a plain regex search.
    rng = random.Random(seed)
    alphabet = ["a", "b", "1", " ", ",", "$", "é", "한", "-"]
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
        keyword = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 4)))
        norm_text, norm_keyword = normalize(text), normalize(keyword)
        expected = bool(norm_keyword) and _keyword_pattern(norm_keyword).search(norm_text) is not None
        assert contains_keyword(norm_text, keyword) == expected, (text, keyword)


def test_mining_reports_progress_through_a_long_document() -> None:
    text = "# Register\n\n" + "".join(f"- **Item {i}**: {i} kg\n" for i in range(12_000))
    doc = Document(doc_id="big.md", doc_type="", title="Register", text=text)
    calls: list[tuple[int, int]] = []
    mined = mine_document(doc, chunk_document(doc), progress=lambda done, total: calls.append((done, total)))
    assert len(mined.facts) == 12_000
    assert calls[0] == (0, len(text)) and calls[-1] == (len(text), len(text))
    assert len(calls) >= 4  # start, at least two steps in between, end
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_build_graph_gives_large_documents_their_own_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    from testgen.kg import build as kg_build

    docs = [
        Document(doc_id="big.md", doc_type="", title="Big", text="# Big\n\n" + "- **Weight**: 5 kg\n" * 300),
        Document(doc_id="small.md", doc_type="", title="Small", text="# Small\n\n- **Weight**: 7 kg\n"),
    ]
    corpus = kg_build.Corpus("kb", docs, [c for d in docs for c in chunk_document(d)], [])
    monkeypatch.setattr(kg_build, "LARGE_DOCUMENT", 1000)
    stages: list[tuple[str, int, int]] = []
    kg_build.build_graph(corpus, progress=lambda stage, done, total: stages.append((stage, done, total)))
    mining = [s for s in stages if s[0].startswith("mining ") and s[0] != "mining facts"]
    assert {s[0] for s in mining} == {"mining big.md (k chars)"}
    assert mining[0][1] == 0 and mining[-1][1:] == (len(docs[0].text) // 1000,) * 2


@pytest.mark.parametrize("batch", [1, 2, 3, 1000])
def test_graph_is_saved_in_pieces_byte_for_byte_as_one_dump(batch: int, tmp_path: Path) -> None:
    import json

    from testgen.kg.build import build_graph, load_corpus

    kg = build_graph(load_corpus(Path(__file__).parents[1] / "examples" / "aurora_bikes"))
    expected = json.dumps(kg.to_dict(), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    assert "".join(kg._json_pieces(batch)) == expected
    assert kg.save(tmp_path / "kg.json").read_text(encoding="utf-8") == expected


def test_table_numbers_whose_unit_is_only_in_a_note_take_the_unit_or_are_not_mined() -> None:
    text = (
        "# Nuri Savings Bank\n\n## Ratios\n\n(단위: %)\n\n| 지표 | 2025.6월말 | 감독 기준 |\n|---|---|---|\n"
        "| BIS ratio | 12.87 | 8.0 이상 |\n\n## Income\n\n(단위: 억원)\n\n| 구분 | 2024년 |\n|---|---|\n"
        "| 순이익 | 212 |\n\n## Staff\n\n| Office | Staff |\n|---|---|\n| Seoul | 142명 |\n"
    )
    mined = mine(text, doc_id="reports/nuri.md", title="Nuri Savings Bank")
    ratio = next(f for f in mined.facts if f.value == "12.87")
    # the note's unit is the number's: a percentage, its text still the cell's
    assert (ratio.value_type, ratio.number, ratio.unit) == ("percent", 12.87, "%")
    values = {f.value for f in mined.facts}
    assert "8.0 이상" not in values  # a number with words the note's unit cannot simply follow
    assert "212" not in values  # "억원" scales the number: "212억원" is not "212" written with a suffix
    assert "142명" in values  # a later table without a note is mined as before
    # "Unit: Engineering" without brackets names an organisation's unit, not the table's
    mined = mine(
        "# Ana Ruiz\n\nUnit: Engineering\n\n| Year | Papers |\n|---|---|\n| 2023 | 12 |\n",
        doc_id="people/ana.md",
        title="Ana Ruiz",
    )
    assert "12" in {f.value for f in mined.facts}


def test_a_unit_note_among_other_notes_gives_its_unit() -> None:
    text = (
        "가온병원 비급여 진료비용\n(2025. 1. 1. 기준 / 단위: 원, 부가가치세 포함)\n\n"
        "| 항목 | 금액 |\n|---|---|\n| 일반진단서 | 20,000 |\n| 진료확인서 | 3,000 |\n"
    )
    mined = mine(text, doc_id="hospital/fees.txt", title="가온병원")
    fee = next(f for f in mined.facts if f.value == "20,000")
    assert (fee.value_type, fee.number, fee.unit) == ("money", 20000.0, "원")


def test_a_unit_note_closing_a_section_title_gives_its_unit() -> None:
    text = (
        "가온치과 비급여 진료비용\n\n[1] 임플란트 및 관련 수술        (단위: 원, 1치아 기준)\n\n"
        "| 항목 | 금액 | 비고 |\n|---|---|---|\n| 임시치아 | 50,000 | |\n\n[2] 보철\n\n"
        "| 항목 | 금액 |\n|---|---|\n| 골드 인레이 | 350 |\n"
    )
    mined = mine(text, doc_id="dental/fees.txt", title="가온치과")
    fee = next(f for f in mined.facts if f.value == "50,000")
    assert (fee.value_type, fee.number, fee.unit) == ("money", 50000.0, "원")
    # the note ends with its table: a later table without one is read as written
    inlay = next(f for f in mined.facts if f.value == "350")
    assert inlay.unit is None


def test_a_first_column_that_groups_rows_does_not_name_them() -> None:
    text = (
        "# 가온병원\n\n| 분류 | 항목 | 금액 | 비고 |\n|---|---|---|---|\n| 제증명 | 일반진단서 | 20,000원 | |\n"
        "| 제증명 | 진료확인서 | 3,000원 | |\n| 검사 | MRI 요추 | 480,000원 | 판독료 포함 |\n"
    )
    mined = mine(text, doc_id="hospital/fees.md", title="가온병원")
    fee = next(f for f in mined.facts if f.value == "20,000원")
    assert (fee.subject, fee.attribute) == ("가온병원", "일반진단서 금액")
    assert "제증명" not in {f.subject for f in mined.facts}
    # items that repeat across groups are named with their group; a blank group cell carries the one above; a
    # totals row is no row of its own
    text = (
        "# 장학 공고\n\n| 구분 | 항목 | 금액 |\n|---|---|---|\n| 초등학생 | 학업장려금 | 300,000원 |\n"
        "| 중학생 | 학업장려금 | 500,000원 |\n| 대학생 | 등록금 | 2,000,000원 |\n|  | 생활비 | 500,000원 |\n"
        "| 합계 |  | 3,300,000원 |\n"
    )
    got = {(f.attribute, f.value) for f in mine(text, doc_id="notices/scholarship.md", title="장학 공고").facts}
    # a row that is itself a sum of money takes no generic "금액" after it
    assert {("초등학생 학업장려금", "300,000원"), ("대학생 생활비", "500,000원")} <= got
    assert "3,300,000원" not in {value for _, value in got}
    # a first column of distinct names is the row's name, whatever its header says
    text = "# Fleet\n\n| Type | Range | Price |\n|---|---|---|\n| Cargo | 80 km | $4,100 |\n| City | 60 km | $3,200 |\n"
    mined = mine(text, doc_id="products/fleet.md", title="Fleet")
    assert {(f.subject, f.attribute) for f in mined.facts if f.value == "$4,100"} == {("Cargo", "Price")}


def test_a_heading_that_is_a_column_of_its_table_is_not_the_subject() -> None:
    text = (
        "# Carrow Week\n\n## Attendance\n\n| Year | Dates | Attendance |\n|---|---|---|\n"
        "| 2014 | 8–11 October | c. 2,100 |\n| 2019 | 9–12 October | c. 2,900 |\n"
    )
    mined = mine(text, doc_id="events/carrow_week.md", title="Carrow Week")
    dates = [f for f in mined.facts if f.attribute == "Dates"]
    assert dates and {f.subject for f in dates} == {"Carrow Week"}  # the page's event, not "Attendance"
    assert {f.qualifier for f in dates} == {"2014", "2019"}


def test_rows_of_days_and_of_lower_case_compounds_name_no_thing() -> None:
    text = (
        "# Hollis Library\n\n## Hours\n\n| Days | Hours |\n|---|---|\n| Monday to Friday | 08:00–22:00 |\n"
        "| Saturday and Sunday | Closed |\n\n## Fines\n\n| Item | Overdue charge |\n|---|---|\n"
        "| DVDs and Blu-rays | $0.50 per day |\n| Rolls-Royce Manuals | $2.00 per day |\n"
    )
    mined = mine(text, doc_id="services/library.md", title="Hollis Library")
    subjects = {f.subject for f in mined.facts}
    assert "Saturday and Sunday" not in subjects and "DVDs and Blu-rays" not in subjects  # cases of the page's own
    assert "Rolls-Royce Manuals" in subjects  # a hyphenated name of capitalised parts is still a name


def test_a_row_of_a_model_code_names_a_thing_but_a_record_number_does_not() -> None:
    text = (
        "# 2026년 가격표\n\n## 로봇청소기\n\n| 모델 | 출고가 | 출시일 |\n|---|---|---|\n"
        "| ORV-R7 | 1,190,000원 | 2025년 9월 18일 |\n| AP-25 | 289,000원 | 2026년 4월 2일 |\n| FY2025 | 3건 | - |\n\n"
        "## Stores\n\n| Store ID | City | Manager |\n|---|---|---|\n| VL-001 | Bengaluru | Shreya Rao |\n"
        "| VL-002 | Mumbai | Pranav Shah |\n\n## Parts\n\n| Model No. | Price |\n|---|---|\n| AF-40H | 59,000원 |\n"
    )
    mined = mine(text, doc_id="products/prices.md", title="2026년 가격표")
    subjects = {f.subject for f in mined.facts}
    assert {"ORV-R7", "AP-25"} <= subjects  # "ORV-R7의 출고가는 얼마인가요?"
    assert "FY2025" not in subjects  # a fiscal year labels a case of the page's subject
    # people ask for the store in Mumbai, not for "VL-002": a record number stays a label of the page's table
    assert not subjects & {"VL-001", "VL-002"}
    assert "AF-40H" in subjects  # a model number is the name the part is sold by


def test_a_table_comparing_things_column_by_column_is_read_by_column() -> None:
    text = (
        "# Plans & Pricing\n\n| | **Starter** | **Team** | **Business** |\n|---|---|---|---|\n"
        "| Monthly billing | Free | $149 / month | $499 / month |\n| Calendars | 3 | 50 | 50 |\n\n"
        "## Series\n\n| Feature | One Series | Edge Series |\n|---|---|---|\n| OS version | 6.0 | 6.0 Lite |\n"
    )
    mined = mine(text, doc_id="docs/pricing.md", title="Plans & Pricing")
    got = {(f.subject, f.attribute, f.value) for f in mined.facts}
    # each column is a thing, named with the kind the page gives ("Team" on a page of plans is the Team Plan)
    assert ("Team Plan", "Monthly billing", "$149 / month") in got
    assert ("Business Plan", "Calendars", "50") in got  # the Business column's 50, not the Team column's
    business = next(f for f in mined.facts if f.subject == "Business Plan" and f.attribute == "Calendars")
    assert text[business.start : business.end].startswith("| Calendars | 3 | 50 | 50 |")
    assert ("Edge Series", "OS version", "6.0 Lite") in got
    assert not any(f.subject in ("Monthly billing", "Calendars", "OS version") for f in mined.facts)
    assert {"Team Plan", "One Series"} <= {name for name, _ in mined.row_entities}


def test_a_row_under_a_column_of_plans_names_the_plan_with_its_kind() -> None:
    text = (
        "# Support Policy\n\n## Uptime\n\n| Plan | Monthly uptime target |\n|---|---|\n| Starter | Best effort |\n"
        "| Team | 99.5% |\n| Enterprise Plan | 99.95% |\n\n## 지원\n\n| 요금제 | 응답 시간 |\n|---|---|\n"
        "| 베이직 | 24시간 |\n| 합계 | - |\n"
    )
    mined = mine(text, doc_id="docs/sla.md", title="Support Policy")
    got = {(f.subject, f.attribute, f.value) for f in mined.facts}
    # "Team" under "Plan" is the Team Plan, the same thing the pricing page calls so; a name with its kind stays
    assert ("Team Plan", "Monthly uptime target", "99.5%") in got
    assert ("Enterprise Plan", "Monthly uptime target", "99.95%") in got
    assert ("베이직 요금제", "응답 시간", "24시간") in got
    assert {"Starter Plan", "Team Plan", "베이직 요금제"} <= {name for name, _ in mined.row_entities}
    assert not {f.subject for f in mined.facts} & {"Team", "Starter", "합계 요금제"}


def test_columns_of_cases_or_contents_are_not_things() -> None:
    text = (
        "# Enrollment\n\n| | Undergraduate | Graduate | Total |\n|---|---|---|---|\n"
        "| Students | 3,211 | 842 | 4,053 |\n"
        "\n## Tools\n\n| Feature | How to use | Models |\n|---|---|---|\n| Wi-Fi | Quick Settings | All |\n"
        "\n## 요금\n\n| | 성인 | 아동 |\n|---|---|---|\n| 요금 | 30,000원 | 15,000원 |\n"
    )
    mined = mine(text, doc_id="docs/enrollment.md", title="Enrollment")
    subjects = {f.subject for f in mined.facts}
    # no kind says what "Graduate" is; "How to use" is a content; 성인 and 아동 are cases of the page's fare
    assert not subjects & {"Undergraduate", "Graduate", "How to use", "Models", "성인", "아동"}


def test_a_table_whose_figures_are_for_a_variant_gives_the_variant_its_values() -> None:
    text = (
        "# Kestrel KS-60\n\n- Introduced: March 2019\n\n## Specifications\n\n"
        "The figures below are for the KS-60 Mk II, as published by the maker.\n\n"
        "| Parameter | Value |\n|---|---|\n| Maximum efficiency | 97.6% |\n\n"
        "## History\n\n| Year | Units sold |\n|---|---|\n| 2020 | 4,000 |\n"
    )
    mined = mine(text, doc_id="reference/ks60.md", title="Kestrel KS-60")
    efficiency = next(f for f in mined.facts if f.attribute == "Maximum efficiency")
    assert efficiency.subject == "KS-60 Mk II"  # the original model's figure was another
    assert ("KS-60 Mk II", "reference") in mined.row_entities
    assert next(f for f in mined.facts if f.attribute == "Introduced").subject == "Kestrel KS-60"
    assert {f.subject for f in mined.facts if f.attribute == "Units sold"} == {"Kestrel KS-60"}  # the next table


def test_a_heading_with_a_note_in_brackets_names_the_thing_before_it() -> None:
    text = (
        "# Office Locations\n\n## Leeds (Head Office)\n\n- **Main phone:** 0113 496 0200\n\n"
        "## Contact (general)\n\n- **Email:** hello@example.com\n"
    )
    mined = mine(text, doc_id="handbook/offices.md", title="Office Locations")
    owners = {f.attribute: f.subject for f in mined.facts}
    assert owners["Main phone"] == "Leeds"  # the office's number, not the page's
    assert owners["Email"] == "Office Locations"  # "Contact" is no thing: the page's own


def test_a_one_word_column_takes_the_word_its_heading_qualifies_it_by() -> None:
    text = (
        "# Support Policy\n\n## 5. Support hours and channels\n\n| Plan | Channels | Hours |\n|---|---|---|\n"
        "| Team | Email | 08:00–18:00 |\n\n## Offices\n\n| Office | Hours |\n|---|---|\n| Leeds | 08:00–17:30 |\n"
    )
    mined = mine(text, doc_id="docs/sla.md", title="Support Policy")
    got = {(f.subject, f.attribute) for f in mined.facts}
    # a plan has no hours of its own: its support does ("and channels" qualifies nothing)
    assert ("Team Plan", "Support hours") in got and ("Team Plan", "Channels") in got
    assert ("Leeds", "Hours") in got  # a heading that does not say whose hours leaves the column as it is
    text = (
        "# 가온병원\n\n## 진료 시간\n\n| 구분 | 시간 |\n|---|---|\n| 토요일 | 08:30 ~ 12:30 |\n\n"
        "## 진료과 위치 및 전화번호\n\n| 진료과 | 위치 | 내선 |\n|---|---|---|\n| 내과 | 본관 2층 | 7210 |\n"
    )
    got = {(f.attribute, f.value) for f in mine(text, doc_id="hospital/guide.md", title="가온병원").facts}
    assert ("토요일 진료 시간", "08:30 ~ 12:30") in got  # the heading ends with the column's qualified name
    assert ("내과 위치", "본관 2층") in got  # "진료과 위치 및 전화번호" ends with neither column


def test_a_totals_row_names_no_thing() -> None:
    text = (
        "# Annual Report\n\n## Food sources\n\n| Source | Tonnes | Share |\n|---|---|---|\n"
        "| Supermarkets | 700 | 55% |\n| **Total** | **1,284** | **100%** |\n"
    )
    mined = mine(text, doc_id="org/report.md", title="Annual Report")
    assert "Total" not in {f.subject for f in mined.facts}  # "How many tonnes does Total have?"
    assert "Total" not in {name for name, _ in mined.row_entities}


def test_a_spec_table_whose_columns_are_codes_with_variant_words_is_read_by_column() -> None:
    text = (
        "# Spec Sheet\n\n| Specification | KC-360 | KC-500 Mk2 | KC-720 Cargo |\n|---|---|---|---|\n"
        "| Weight | 2.4 kg | 2.9 kg | 4.3 kg |\n"
    )
    mined = mine(text, doc_id="products/spec.md", title="Spec Sheet")
    got = {(f.subject, f.attribute, f.value) for f in mined.facts}
    # "KC-500 Mk2" and "KC-720 Cargo" name models as "KC-360" does: the table is read column by column
    assert {("KC-500 Mk2", "Weight", "2.9 kg"), ("KC-720 Cargo", "Weight", "4.3 kg")} <= got


def test_a_korean_name_ending_like_a_particle_is_a_value_not_a_clause() -> None:
    text = "# 김민준\n\n**진료과:** 정형외과 (본관 3층)\n\n- **보고**: 대표이사에게 보고\n"
    got = {(f.attribute, f.value) for f in mine(text, doc_id="병원/kim.md", title="김민준").facts}
    assert ("진료과", "정형외과 (본관 3층)") in got  # 과 ends the department's name
    assert not any(attribute == "보고" for attribute, _ in got)  # "대표이사에게 보고" is a clause


def test_a_heading_of_a_known_name_then_its_role_is_about_the_name() -> None:
    text = (
        "# 트레이너 소개\n\n| 이름 | 직책 | 경력 |\n|---|---|---|\n| 박지훈 | 팀장 | 8년 |\n\n"
        "### 박지훈 — PT 팀장\n- 수업 시간: 평일 13:00~22:00\n\n### 오전반 — 월·수·금\n- 수업 시간: 07:00~08:00\n\n"
        "### Jane Doe — Head Coach\n- Hours: 18:00–21:00\n"
    )
    doc = Document(doc_id="gym/trainers.md", doc_type="gym", title="트레이너 소개", text=text)
    chunks = chunk_document(doc, size=400, overlap=20)
    owners = {f.value: f.subject for f in mine_document(doc, chunks, frozenset({"박지훈"})).facts}
    assert owners["평일 13:00~22:00"] == "박지훈"  # his hours, not the page's
    assert owners["07:00~08:00"] == "트레이너 소개"  # "오전반" is no name the knowledge base knows
    assert owners["18:00–21:00"] == "Jane Doe"  # an English person's full name
    # unknown, a Korean name is still told by the post after it; a class and its days are no name and a post
    owners = {f.value: f.subject for f in mine_document(doc, chunks).facts}
    assert owners["평일 13:00~22:00"] == "박지훈"
    assert owners["07:00~08:00"] == "트레이너 소개"


def test_a_korean_heading_that_names_a_branch_is_the_subject_below_it() -> None:
    text = (
        "# 가람시립도서관 이용안내\n\n## 오시는 길\n\n### 중앙도서관\n- 주소: 가람시 누리로 45\n\n"
        "### 솔내도서관\n- 주소: 가람시 솔내길 12-3\n\n## 휴관일\n- 중앙도서관: 매주 월요일\n"
    )
    mined = mine(text, doc_id="library/guide.md", title="가람시립도서관 이용안내")
    owners = {f.value: f.subject for f in mined.facts}
    # a branch's address is the branch's, not the library system's
    assert owners["가람시 누리로 45"] == "중앙도서관" and owners["가람시 솔내길 12-3"] == "솔내도서관"
    assert owners["매주 월요일"] == "가람시립도서관 이용안내"  # "휴관일" names no thing


def test_a_table_under_a_dated_heading_gives_its_values_the_year() -> None:
    text = (
        "# 늘품재단\n\n## 2025년 예산 구성\n\n| 사업 | 금액 |\n|---|---|\n| 장학사업 | 1억 2천만 원 |\n\n"
        "## 사업별 실적\n\n| 구분 | 2023 | 2024 |\n|---|---|---|\n| 장학사업 | 81,500원 | 85,000원 |\n"
    )
    facts = {f.value: f for f in mine(text, doc_id="org/about.md", title="늘품재단").facts}
    assert facts["1억 2천만 원"].qualifier == "2025년"  # the year's budget, not the foundation's for good
    # "금액" says only that it is an amount: the heading says which
    assert facts["1억 2천만 원"].attribute == "장학사업 예산"
    assert facts["85,000원"].qualifier is None and facts["85,000원"].attribute == "장학사업 2024"  # the column's year


def test_a_group_that_names_the_kind_comes_last_and_a_generic_amount_takes_the_measure_it_is() -> None:
    text = (
        "# 장학 공고\n\n| 구분 | 항목 | 금액 |\n|---|---|---|\n| 고등학생 | 학업장려금 | 800,000원 |\n"
        "| 중학생 | 학업장려금 | 500,000원 |\n| 특별장학 | 예체능 | 1,000,000원 |\n"
    )
    got = {(f.attribute, f.value) for f in mine(text, doc_id="notices/scholarship.md", title="장학 공고").facts}
    assert ("예체능 특별장학", "1,000,000원") in got  # not "특별장학 예체능 금액"
    # a generic amount column under a heading or a title that says what the amounts are
    text = "# 모래시계랩\n\n## 투자 유치\n\n| 라운드 | 금액 |\n|---|---|\n| 시드 | 3억 원 |\n"
    got = {(f.attribute, f.value) for f in mine(text, doc_id="company/intro.md", title="모래시계랩").facts}
    assert ("시드 투자 금액", "3억 원") in got
    text = "가온병원 비급여 진료비용 안내\n\n| 항목 | 금액 |\n|---|---|\n| MRI 요추 | 480,000원 |\n"
    got = {(f.attribute, f.value) for f in mine(text, doc_id="h/fees.txt", title="가온병원 비급여 진료비용 안내").facts}
    assert ("MRI 요추 비용", "480,000원") in got
    # without such a word the column stays as written
    text = "# 가온병원\n\n| 항목 | 금액 |\n|---|---|\n| MRI 요추 | 480,000원 |\n"
    got = {(f.attribute, f.value) for f in mine(text, doc_id="h/list.md", title="가온병원").facts}
    assert ("MRI 요추 금액", "480,000원") in got


def test_a_column_header_unit_is_the_unit_of_its_bare_numbers() -> None:
    text = "# Kits\n\n| Model | Weight (kg) | Price (USD) |\n|---|---|---|\n| KC-500 | 3.1 | 420 |\n"
    facts = {f.attribute: f for f in mine(text, doc_id="products/kits.md", title="Kits").facts}
    weight = facts["Weight"]
    assert (weight.value, weight.number, weight.unit) == ("3.1", 3.1, "kg")
    assert "Price (USD)" in facts  # a currency code is no suffix a number takes: the header stays whole
    text = "# 소연도\n\n| 연도 | 인구(명) |\n|---|---|\n| 1975 | 1,912 |\n"
    population = next(f for f in mine(text, doc_id="wiki/island.md", title="소연도").facts if f.value == "1,912")
    assert (population.attribute, population.unit) == ("인구", "명")


def test_rows_under_a_kind_column_are_named_with_the_kind_or_not_asked() -> None:
    text = "# Price list\n\n| Vaccine | Price |\n|---|---|\n| Lyme | $34 |\n| FVRCP | $31 |\n| Rabies, 1-year | $28 |\n"
    subjects = {f.subject for f in mine(text, doc_id="clinic/prices.md", title="Price list").facts}
    assert {"Lyme Vaccine", "FVRCP Vaccine"} <= subjects
    assert not any("Rabies" in s for s in subjects)  # no name to ask it by, and no glue onto the page
    text = "# Summer\n\n| Program | Ages |\n|---|---|\n| Teen Trek | 13–15 |\n| Camp extended care | 6–12 |\n"
    mined = mine(text, doc_id="parks/summer.md", title="Summer")
    assert {(f.subject, f.attribute) for f in mined.facts} == {("Teen Trek Program", "Ages")}  # what it is


def test_a_dotted_leader_line_of_a_price_list_is_a_key_and_value() -> None:
    text = "# Clinic prices\n\n- Fecal parasite test ........ $42\n- Introduction ........ 3\n"
    got = {(f.attribute, f.value) for f in mine(text, doc_id="clinic/prices.md", title="Clinic prices").facts}
    assert ("Fecal parasite test", "$42") in got
    assert not any(a == "Introduction" for a, _ in got)  # a contents page's page number is no value


def test_korean_people_rows_under_a_name_column_are_people() -> None:
    text = (
        "# 문경호 세무회계사무소\n\n## 구성원 (2025년 7월 기준)\n\n| 이름 | 직위 |\n|---|---|\n"
        "| 문경호 | 대표세무사 |\n| 조현우 | 기장 담당 |\n"
    )
    facts = mine(text, doc_id="office/about.md", title="문경호 세무회계사무소").facts
    role = next(f for f in facts if f.value == "대표세무사")
    # the person's own, and not dated to 2025: "기준" says as of when, not which year it is about
    assert (role.subject, role.attribute, role.qualifier) == ("문경호", "직위", None)


def test_a_staff_list_sorted_by_unit_or_post_is_keyed_by_the_person() -> None:
    text = (
        "# 새들농협 조직도\n\n| 부서 | 직위 | 이름 | 전화 |\n|---|---|---|---|\n"
        "| 지도경제팀 | 팀장 | 오상훈 | 043-872-3320 |\n| 지도경제팀 | 계장 | 김나래 | 043-872-3321 |\n"
        "| 하나로마트 본점 | 점장 | 최동민 | 043-872-3350 |\n"
    )
    facts = mine(text, doc_id="coop/org.md", title="새들농협 조직도").facts
    got = {(f.subject, f.attribute, f.value) for f in facts}
    assert ("최동민", "직위", "점장") in got and ("김나래", "부서", "지도경제팀") in got
    assert not any(f.subject in ("하나로마트 본점", "지도경제팀") for f in facts)  # a unit holds no post
    # a post held by several people is no one person's row
    text = (
        "# 임원\n\n| 직위 | 이름 |\n|---|---|\n| 조합장 | 박종철 |\n| 감사 | 윤재복, 남궁현 |\n"
        "| 이사 | 최병두 외 8명 |\n"
    )
    facts = mine(text, doc_id="coop/board.md", title="임원").facts
    assert [(f.subject, f.value) for f in facts if f.attribute == "직위"] == [("박종철", "조합장")]
    # a list of branches with their manager is keyed by the branch as before: it has no post column
    text = "# 매장\n\n| 지점 | 점장 | 전화 |\n|---|---|---|\n| 하나로마트 본점 | 최동민 | 043-872-3350 |\n"
    facts = mine(text, doc_id="coop/stores.md", title="매장").facts
    assert any(f.subject == "하나로마트 본점" and f.value == "최동민" for f in facts)


def test_a_bold_line_over_prose_heads_a_section_about_what_it_names() -> None:
    text = (
        "# 노을픽셀\n\n노을픽셀은 2021년 5월에 설립되었습니다.\n\n## 만든 게임\n\n"
        "**고양이 우체국** (2022.8, 안드로이드·iOS)\n"
        "고양이 집배원이 되어 편지를 배달하는 게임. 2024년 6월 30일 서비스를 종료했습니다.\n\n"
        "## 서명\n\n**한빛 주식회사**\n**Date**: April 20, 2025\n"
    )
    mined = mine(text, doc_id="studio/about.md", title="노을픽셀")
    closed = next(f for f in mined.facts if f.value == "2024년 6월 30일")
    assert closed.subject == "고양이 우체국"
    assert ("고양이 우체국", "studio") in mined.row_entities
    signed = next(f for f in mined.facts if f.value == "April 20, 2025")
    assert signed.subject != "한빛 주식회사"  # a signature's bold name over "Date: …" heads nothing


def test_a_table_of_the_steps_of_a_process_names_no_thing() -> None:
    text = (
        "# Householder applications\n\n| Stage | What happens | Typical time |\n|---|---|---|\n"
        "| Validation | We check the forms | up to 5 working days |\n| Assessment | An officer visits | weeks 3–7 |\n\n"
        "| Plan | Price |\n|---|---|\n| Basic | £20 |\n"
    )
    mined = mine(text, doc_id="council/guide.md", title="Householder applications")
    # "What is Assessment's typical time?" asks for a step as if it were a thing; the price list is still read
    assert [f.value for f in mined.facts if f.source == "table"] == ["£20"]


def test_a_number_inside_an_address_is_not_the_address() -> None:
    text = "# 극단 돌꽃\n\n- 주소: 서울특별시 종로구 동숭길 48, 지하 1층 (혜화역 2번 출구에서 걸어서 6분)\n"
    mined = mine(text, doc_id="theatre/about.md", title="극단 돌꽃")
    assert "6분" not in [f.value for f in mined.facts]


def test_korean_rows_under_a_class_column_are_named_as_classes() -> None:
    text = (
        "# 2분기 프로그램 안내\n\n| 강좌명 | 요일 | 월 수강료 |\n|---|---|---|\n| 탁구 | 화·목 | 40,000원 |\n"
        "| 성인 초급 A | 월·수·금 | 55,000원 |\n"
    )
    mined = mine(text, doc_id="center/programs.md", title="2분기 프로그램 안내")
    fees = {f.subject: f.value for f in mined.facts if f.attribute == "월 수강료"}
    assert fees == {"탁구 강좌": "40,000원", "성인 초급 A 강좌": "55,000원"}


def test_a_fax_after_a_phone_number_and_a_footnote_mark_on_a_row_are_left_out() -> None:
    text = (
        "# 서림구민체육센터\n\n- 대표전화: 02-2647-3300 / 팩스 02-2647-3309\n\n"
        "| Beer | ABV |\n|---|---|\n| Blossom Saison* | 6.1% |\n"
    )
    mined = mine(text, doc_id="center/about.md", title="서림구민체육센터")
    assert [f.value for f in mined.facts if f.attribute == "대표전화"] == ["02-2647-3300"]
    assert [f.subject for f in mined.facts if f.attribute == "ABV"] == ["Blossom Saison"]


def test_a_section_headed_by_a_quoted_work_is_about_the_work() -> None:
    text = (
        "# 2025 시즌 프로그램\n\n## 1. 《겨울, 수선집》 — 재공연\n\n- 관람료 : 전석 30,000원\n\n"
        "## 2. 돌꽃 낭독회 〈새로 쓰는 이야기〉\n\n- 관람료 : 10,000원\n\n## 공통 안내\n\n- 문의 : 02-765-4821\n"
    )
    mined = mine(text, doc_id="theatre/season.md", title="2025 시즌 프로그램")
    assert [(f.subject, f.value) for f in mined.facts] == [
        ("《겨울, 수선집》", "전석 30,000원"),
        ("〈새로 쓰는 이야기〉", "10,000원"),
        ("2025 시즌 프로그램", "02-765-4821"),
    ]
    assert ("《겨울, 수선집》", "theatre") in mined.row_entities


def test_a_row_for_the_rest_of_a_table_names_nothing() -> None:
    text = "# 병원 소개\n\n| 구분 | 장비 |\n|---|---|\n| 영상 진단 | 콘빔 CT |\n| 기타 | 러버댐 |\n"
    mined = mine(text, doc_id="clinic/about.md", title="병원 소개")
    assert [f.value for f in mined.facts] == ["콘빔 CT"]


def test_a_korean_rows_list_letter_is_no_part_of_its_name() -> None:
    text = "# 대관 규정\n\n| 패키지 | 가격 |\n|---|---|\n| A. 라이트 | 45,000원 |\n| B. 스탠다드 | 60,000원 |\n"
    mined = mine(text, doc_id="pub/rules.md", title="대관 규정")
    assert [f.attribute for f in mined.facts] == ["라이트 가격", "스탠다드 가격"]


def test_a_row_whose_name_is_a_dash_names_nothing() -> None:
    text = (
        "# Safeguarding Policy\n\n| Name | Role | How to contact |\n|---|---|---|\n"
        "| Helen Prosser | Manager | 07700 900 614 |\n| – | Access & Response Team | 01454 496 001 |\n"
    )
    mined = mine(text, doc_id="playgroup/safeguarding.md", title="Safeguarding Policy")
    assert not any(f.attribute.startswith("–") or f.value == "01454 496 001" for f in mined.facts), mined.facts
    assert any(f.subject == "Helen Prosser" and f.value == "07700 900 614" for f in mined.facts)


def test_a_numbering_column_names_no_row_and_a_place_kind_or_title_column_does() -> None:
    text = (
        "# 허브·터미널 현황\n\n"
        "| 번호 | 명칭 | 주소 | 책임자 |\n|---|---|---|---|\n"
        "| 1 | 군포 중앙허브 | 경기도 군포시 공단로 255 | 윤상철 허브장 |\n"
        "| 2 | 인천 서부터미널 | 인천광역시 서구 가좌로 88 | 정기훈 터미널장 |\n\n"
        "| # | Action | Owner |\n|---|---|---|\n| 1 | Add a load test | Ayesha Siddiqui |\n"
    )
    mined = mine(text, doc_id="courier/hubs.md", title="허브·터미널 현황")
    heads = {(f.subject, f.attribute) for f in mined.facts if f.value in ("윤상철 허브장", "인천광역시 서구 가좌로 88")}
    # the row's number is no name; the hub's name is
    assert heads == {("군포 중앙허브", "책임자"), ("인천 서부터미널", "주소")}
    assert not [f for f in mined.facts if f.attribute.startswith(("1 ", "2 "))]


def test_a_korean_column_of_names_names_each_row_unless_a_row_is_a_case() -> None:
    text = (
        "# 2025 대회일정\n\n| 대회명 | 기간 | 담당 |\n|---|---|---|\n"
        "| 서부리틀연맹 추계리그 | 2025-09-06 ~ 10-25 | 김태수 |\n| 새싹 티볼 페스티벌 | 2025-10-11(토) | 오세진 |\n\n"
        "## 뷔페\n\n| 메뉴명 | 가격 |\n|---|---|\n| 일반 뷔페 (성인) | 58,000원 |\n| 일반 뷔페 (소인) | 30,000원 |\n"
    )
    mined = mine(text, doc_id="club/대회일정.md", title="2025 대회일정")
    heads = {(f.subject, f.attribute) for f in mined.facts if f.value in ("김태수", "오세진")}
    # each event is named by its row ("대회의 새싹 티볼 페스티벌 담당" glued it to the page)
    assert heads == {("서부리틀연맹 추계리그", "담당"), ("새싹 티볼 페스티벌", "담당")}
    # a row with a note in brackets is a case of a menu, not a name of its own
    assert not {f.subject for f in mined.facts} & {"일반 뷔페 (성인)", "일반 뷔페 (소인)"}


def test_a_unit_column_is_no_value_of_its_own() -> None:
    text = (
        "# Fees\n\n| Item | Unit | Price |\n|---|---|---|\n| Joining fee | one-off | £15.00 |\n"
        "| Court hire | per hour | £9.50 |\n"
    )
    mined = mine(text, doc_id="hall/fees.md", title="Fees")
    assert not [f for f in mined.facts if f.attribute.endswith("Unit")]  # "the joining fee's unit" asks nothing
    assert {f.value for f in mined.facts if f.attribute.endswith("Price")} == {"£15.00", "£9.50"}


def test_a_capitalised_word_among_rows_of_cases_is_a_case_not_a_name() -> None:
    text = (
        "# Fares\n\n| Vehicle | Single | Return |\n|---|---|---|\n| Car / van up to 5.0 m | £24.50 | £43.00 |\n"
        "| Each additional metre over 5.0 m | £5.00 | £8.75 |\n| Motorcycle | £12.00 | £21.00 |\n"
        "| Motorcycle with sidecar | £16.00 | £28.00 |\n\n"
        "## Rooms\n\n| Room | Seats |\n|---|---|\n| Stall | 6 |\n| Spindle | 8 |\n| Loom | 4 |\n"
    )
    mined = mine(text, doc_id="ferry/fares.md", title="Fares")
    subjects = {f.subject for f in mined.facts}
    assert "Motorcycle" not in subjects  # a row of a table of cases
    assert {"Stall Room", "Spindle Room", "Loom Room"} <= subjects  # every row a name, under "Room": rooms


def test_room_and_extension_numbers_are_names_not_amounts() -> None:
    mined = mine(
        "# Clinics\n\n| Clinic | Room | Time |\n|---|---|---|\n| Dermatology | 1.22 | 09:00–15:00 |\n"
        "| Urology | 1.32 | 13:00–17:00 |\n",
        title="Clinics",
    )
    rooms = [f for f in mined.facts if f.attribute.lower() == "room"]
    assert {f.value for f in rooms} == {"1.22", "1.32"}
    assert all(f.value_type == "text" and f.number is None for f in rooms)  # no "higher room" to compute


def test_a_plural_written_with_s_in_brackets_is_a_plain_plural() -> None:
    mined = mine("# Clinics\n\n| Clinic | Day(s) |\n|---|---|\n| Prenatal | Tuesday and Thursday |\n", title="Clinics")
    assert [f.attribute for f in mined.facts] == ["Days"]


def test_a_row_of_people_counted_is_no_programme() -> None:
    mined = mine(
        "# 결과 보고\n\n| 프로그램 | 참여 인원(명) |\n|---|---|\n| 갈대 공예 체험 | 2,940 |\n"
        "| 셔틀버스 이용객 | 28,100 |\n",
        doc_id="축제/결과.md",
        title="결과 보고",
    )
    subjects = {f.subject for f in mined.facts}
    assert "갈대 공예 체험 프로그램" in subjects
    assert not any("이용객 프로그램" in s for s in subjects)


def test_rows_under_an_insurers_column_name_companies() -> None:
    mined = mine(
        "# 제휴 보험사\n\n| 보험사 | 구분 | 고객센터 |\n|---|---|---|\n| 한결생명 | 생명보험 | 1588-7741 |\n"
        "| 푸른해상화재 | 손해보험 | 1566-3180 |\n",
        doc_id="대리점/제휴.md",
        title="제휴 보험사",
    )
    kinds = {(f.subject, f.attribute, f.value) for f in mined.facts}
    assert ("푸른해상화재", "구분", "손해보험") in kinds  # the company's own kind, not "…의 푸른해상화재 구분"


def test_a_units_rank_column_is_its_leaders_not_the_units() -> None:
    mined = mine(
        "# 조직\n\n| 조직 | 리더 | 직급 | 주요 업무 |\n|---|---|---|---|\n| 인사팀 | 김하늘 | 차장 | 채용, 급여 |\n"
        "| 구매팀 | 권은비 | 차장 | 부품 구매 |\n",
        doc_id="조직/조직도.md",
        title="조직",
    )
    assert ("인사팀", "리더", "김하늘") in {(f.subject, f.attribute, f.value) for f in mined.facts}
    assert not [f for f in mined.facts if f.attribute == "직급"]  # "인사팀의 직급은 차장" is the leader's rank


def test_a_common_word_ending_like_a_place_name_is_no_name() -> None:
    mined = mine(
        "# 경비 정산\n\n| 항목 | 기준 | 한도 |\n|---|---|---|\n| 택시 | 건당 | 실비 |\n| 수원시 | 1일 | 20,000원 |\n",
        doc_id="인사/경비.md",
        title="경비 정산",
    )
    subjects = {f.subject for f in mined.facts}
    assert "택시" not in subjects  # a taxi is no city, whatever its last syllable
    assert "수원시" in subjects


def test_a_clinic_named_by_a_row_takes_its_kind() -> None:
    mined = mine(
        "# Outpatient clinics\n\n| Clinic | Time |\n|---|---|\n| Dermatology | 09:00–15:00 |\n"
        "| Respiratory and COPD | 09:00–12:00 |\n| Diabetes Education Centre | 09:00–16:00 |\n",
        doc_id="hospital/clinics.md",
        title="Outpatient clinics",
    )
    assert {f.subject for f in mined.facts} == {
        "Dermatology Clinic",
        "Respiratory and COPD Clinic",
        "Diabetes Education Centre",  # already says what it is
    }


def test_rows_under_a_room_type_column_are_rooms() -> None:
    mined = mine(
        "# The Harbour Rooms\n\n| Room type | Size (m²) |\n|---|---|\n| Snug Double | 13 |\n| Garden Suite | 30 |\n",
        doc_id="hotels/harbour.md",
        title="The Harbour Rooms",
    )
    assert {f.subject for f in mined.facts} == {"Snug Double Room", "Garden Suite"}  # a suite says what it is


def test_units_and_centres_are_said_with_the() -> None:
    from testgen.lang.en import noun_phrase

    assert noun_phrase("Intensive Care Unit") == "the Intensive Care Unit"
    assert noun_phrase("Diabetes Education Centre") == "the Diabetes Education Centre"
    assert noun_phrase("Aurora Volt 500") == "Aurora Volt 500"


def test_a_title_cased_service_keeps_its_capitals_and_a_kind_of_page_does_not() -> None:
    from testgen.lang import GENERIC_HEADINGS
    from testgen.lang.en import noun_phrase

    assert noun_phrase("Home to School Transport", generic_words=GENERIC_HEADINGS) == "the Home to School Transport"
    assert noun_phrase("Contract with Greenline Couriers") == "the contract with Greenline Couriers"


def test_a_list_of_posts_and_names_is_keyed_by_the_person() -> None:
    mined = mine(
        "# About us\n\n| Post | Name |\n|---|---|\n| Treasurer | Dev Malhotra |\n| Secretary | Fiona Calloway |\n",
        doc_id="players/about.md",
        title="About us",
    )
    assert ("Dev Malhotra", "Post", "Treasurer") in {(f.subject, f.attribute, f.value) for f in mined.facts}


def test_a_part_of_the_day_is_no_thing() -> None:
    mined = mine(
        "# Delivery\n\n| Slot | Time window |\n|---|---|\n| Morning | 09:00–12:00 |\n| Afternoon | 13:00–17:00 |\n",
        doc_id="coop/delivery.md",
        title="Delivery",
    )
    assert not {"Morning", "Afternoon"} & {f.subject for f in mined.facts}


def test_a_figure_in_a_note_after_the_values_words_is_not_the_value() -> None:
    mined = mine(
        "# 새봄공인중개사사무소\n\n- 사업자 구분: 일반과세자 (중개보수에 부가세 10% 별도)\n"
        "- 보증금: 계약할 때 50,000원을 냅니다 (현금 가능)\n",
        doc_id="office/README.md",
        title="새봄공인중개사사무소",
    )
    values = {f.attribute: f.value for f in mined.facts}
    assert values.get("사업자 구분") != "10%"  # the tax the note speaks of, not a kind of business
    assert values["보증금"] == "50,000원"  # the figure before the note is the value


def test_sections_of_a_page_of_records_own_their_facts(tmp_path: Path) -> None:
    from factories import kb_context

    encounters = (
        "# Animal Encounters 2024\n\nBook ahead.\n\n## Lemur Walk-Through Experience\n\n- **Price:** £35\n"
        "- **Group size:** up to 6\n\n## Keeper for a Day\n\n- **Price:** £195\n- **Duration:** 9:00–16:00\n\n"
        "## Giraffe Breakfast\n\n- **Price:** £60\n- **Duration:** 1 hour\n\n"
        "## Terms\n\n- **Price:** includes admission\n"
    )
    staff = (
        "# 의료진 소개\n\n## 박준혁 수의사\n\n- **관심 분야**: 외과\n- **진료일**: 화·목\n\n"
        "## 공사 기간\n\n- **관심 분야**: 없음\n- **진료일**: 휴진\n"
    )
    visit = "# Visiting\n\n## Parking\n\n- **Price:** £3\n\n## Café\n\n- **Opens:** 9am\n"
    ctx = kb_context(tmp_path, {"zoo/encounters.md": encounters, "vet/staff.md": staff, "zoo/visit.md": visit})
    owners = {(f.doc_id, f.value): f.subject for f in ctx.facts if f.source == "key_value"}
    assert owners[("zoo/encounters.md", "up to 6")] == "Lemur Walk-Through Experience"
    assert owners[("zoo/encounters.md", "9:00–16:00")] == "Keeper for a Day"
    assert owners[("zoo/encounters.md", "1 hour")] == "Giraffe Breakfast"  # a heading the miner reads as a name
    assert owners[("vet/staff.md", "외과")] == "박준혁 수의사"
    assert owners[("vet/staff.md", "휴진")] != "공사 기간"  # a period is no record's name
    assert owners[("zoo/visit.md", "£3")] != "Parking"  # sections with no label in common are no records


def test_a_row_name_holding_its_kind_is_not_given_it_again() -> None:
    from testgen.kg.mining import _with_kind

    assert _with_kind("Rehearsal Room B", "Room", frozenset()) == "Rehearsal Room B"
    assert _with_kind("Green", "Room", frozenset()) == "Green Room"
    assert _with_kind("돌고래반", "반", frozenset()) == "돌고래반"


def test_a_long_menu_names_a_row_by_its_item_and_only_a_repeated_item_with_its_group() -> None:
    rows = [
        ("Ice cream", "Single scoop", "3.20"),
        ("Ice cream", "Double scoop", "5.40"),
        ("Sundaes", "Brownie Sundae", "7.25"),
        ("Sundaes", "Banana Split", "7.50"),
        ("Shakes", "Milkshake", "4.50"),
        ("Kids", "Milkshake", "3.20"),
        ("Dogs", "Pup Cup", "2.00"),
    ]
    body = "".join(f"| {g} | {i} | {p} |\n" for g, i, p in rows)
    text = f"# Price list 2025\n\n| Category | Item | Price (GBP) |\n|---|---|---|\n{body}"
    mined = mine(text, doc_id="creamery/prices.md", title="Price list 2025")
    names = {f.subject for f in mined.facts if f.value in ("7.25", "2.00", "4.50", "3.20")}
    assert {"Brownie Sundae", "Pup Cup", "Shakes Milkshake", "Kids Milkshake"} <= names, names
    assert "Sundaes Brownie Sundae" not in names and "Dogs Pup Cup" not in names


def test_a_price_list_keyed_by_sku_is_read_by_its_products() -> None:
    text = (
        "# Price list v2\n\n| SKU | Product | Size | Price (£) |\n|---|---|---|---|\n"
        "| CW-10 | Clumping cat litter | 10 L | 7.99 |\n| HAY-TIM-1 | Timothy hay | 1 kg | 4.49 |\n"
        "| BALE-S | Straw bale | each | 9.00 |\n"
    )
    mined = mine(text, doc_id="shop/prices.csv", title="Price list v2")
    # a row is its product (its own name, or the page's row of it), the code one of its values
    priced = {(f.subject, f.attribute) for f in mined.facts if f.value == "4.49"}
    assert priced <= {("Timothy hay", "Price (£)"), ("Price list v2", "Timothy hay Price (£)")} and priced, priced
    assert not {f.subject for f in mined.facts} & {"CW-10", "HAY-TIM-1", "BALE-S"}


def test_a_column_naming_two_contact_media_gives_each_cell_the_one_it_holds() -> None:
    text = (
        "| Name | Role | Email / mobile |\n|---|---|---|\n| Ben Achterberg | Handler | 07700 900861 |\n"
        "| Josie Marsh | Shop | josie@hollins.example |\n"
    )
    facts = mine(text, doc_id="farm/staff.md", title="Staff").facts
    labels = {f.subject: f.attribute for f in facts if f.attribute != "Role"}
    # "Ben Achterberg's email / mobile" pastes the header; his cell is a mobile number, hers an e-mail address
    assert labels == {"Ben Achterberg": "mobile", "Josie Marsh": "Email"}


def test_a_currency_sign_after_a_column_name_is_read_as_its_bracket() -> None:
    text = "| Item | Price £ |\n|---|---|\n| Jeans | 15.00 |\n| Skirt | 14.00 |\n"
    facts = mine(text, doc_id="shop/alterations.md", title="Alterations").facts
    # "the price £ of Jeans" pastes the header; "Price (£)" is asked as what it costs
    assert {f.attribute for f in facts} == {"Price (£)"}


def test_a_row_named_by_a_letter_is_the_kind_then_the_letter() -> None:
    text = "| Course | Day | Time |\n|---|---|---|\n| A | Saturday | 10:00-12:00 |\n| B | Wednesday | 18:30-20:30 |\n"
    subjects = {f.subject for f in mine(text, doc_id="club/courses.md", title="Beginners courses").facts}
    # people say "Course A", not "the A Course"
    assert subjects == {"Course A", "Course B"}
