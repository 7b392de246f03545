"""Names people use: document titles and question subjects are names a person would type, never file names,
slugs, numbering or sentences; where none can be derived, `is_usable_name` says so."""

from __future__ import annotations

from pathlib import Path

import pytest

from testgen.corpus import clean_stem, derive_title, load_kb
from testgen.gate.names import document_subject
from testgen.kg.build import build_graph, load_corpus
from testgen.kg.entities import plain_names
from testgen.names import (
    core_name,
    form_folder,
    introduced_name,
    is_usable_name,
    name_problems,
    page_kind_title,
    short_title,
    without_parentheticals,
)


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def titles(root: Path) -> dict[str, str]:
    return {doc.doc_id: doc.title for doc in load_kb(root).documents}


# ------------------------------------------------------------------------------------------- file stems


@pytest.mark.parametrize(
    ("stem", "title"),
    [
        ("2628_Haunted_with_and_hunting_for_ghosts", "Haunted with and hunting for ghosts"),
        ("01-intro", "intro"),
        ("1559 Tea and sleep", "Tea and sleep"),
        ("3_notes", "notes"),
        ("2684_1918_Influenza", "1918 Influenza"),  # the file's number goes, the name's year stays
        ("2007-08年全球粮食价格危机", "2007-08年全球粮食价格危机"),  # a range is no numbering
        ("my_project-notes", "my project notes"),
        ("Faq part-1", "Faq part-1"),
        ("guide_html", "guide"),
    ],
)
def test_clean_stem(stem: str, title: str) -> None:
    assert clean_stem(stem) == title


def test_stem_title_loses_numbering_and_underscores(tmp_path: Path) -> None:
    write(tmp_path, "0042_Quarterly_Plan.txt", "We plan to grow by 20% in 2025 and hire 4 people.")
    assert titles(tmp_path) == {"0042_Quarterly_Plan.txt": "Quarterly Plan"}
    assert derive_title("We plan to grow.", {}, "0042_Quarterly_Plan") == ("Quarterly Plan", "stem")


# --------------------------------------------------------------------------------------- opening lines


def test_plain_first_line_is_the_title_not_the_truncated_stem(tmp_path: Path) -> None:
    # File names are often the title cut at a length; the first line holds it whole.
    write(
        tmp_path,
        "1546_First_Complete_Genome_Sequence_of_a_River_Tro.md",
        "First Complete Genome Sequence of a River Trout Virus Strain\n\nhttps://example.org/x\n\nText: we report…",
    )
    assert list(titles(tmp_path).values()) == ["First Complete Genome Sequence of a River Trout Virus Strain"]


def test_scraped_page_takes_its_first_line_over_the_web_stem(tmp_path: Path) -> None:
    write(
        tmp_path,
        "16_gardenwiki_com_Release_Notes.md",
        "<!-- source: https://gardenwiki.com/Release_Notes -->\n\nRelease Notes\n(Redirected from Release notes)\n"
        "Garden Quest was released on 3 March 2019.\n",
    )
    doc = load_kb(tmp_path).documents[0]
    assert doc.title == "Release Notes"
    assert not is_usable_name("16 gardenwiki com Release Notes")  # what the stem alone gave


def test_sentence_first_line_gives_way_to_the_source_url(tmp_path: Path) -> None:
    write(
        tmp_path,
        "07_questwiki_org_wiki_The_Lantern_Keeper.md",
        "<!-- source: https://questwiki.org/wiki/The_Lantern_Keeper -->\n\n"
        "The Lantern Keeper is a ghost who guards the northern bridge in the game. It speaks only at night.\n",
    )
    assert derive_title(load_kb(tmp_path).documents[0].text, {}, "07_questwiki_org_wiki_The_Lantern_Keeper") == (
        "The Lantern Keeper",
        "url",
    )


def test_url_that_is_an_id_is_not_a_title(tmp_path: Path) -> None:
    write(
        tmp_path,
        "19_preprints_org_pdf_2404_10981.md",
        "<!-- source: https://preprints.org/pdf/2404.10981 -->\n\nWhy would anyone read this paper today?\n",
    )
    title = load_kb(tmp_path).documents[0].title
    assert title == "preprints org pdf 2404 10981"
    assert "url or domain" in name_problems(title)  # no good name: the gate is told


def test_late_hash_line_in_unfenced_code_is_no_title(tmp_path: Path) -> None:
    prose = "This page collects small snippets for common tasks in notebooks. " * 6
    write(tmp_path, "04_snippets.md", f"Snippets\n{prose}\n\n# condition is a boolean, True or False\nx = 1\n")
    assert list(titles(tmp_path).values()) == ["Snippets"]


def test_opening_heading_beats_lowercase_stem(tmp_path: Path) -> None:
    write(
        tmp_path,
        "store_locations.md",
        "### Nimbus Store Locations\n\n| City | Address |\n|---|---|\n| Oslo | 1 Main St |\n",
    )
    assert list(titles(tmp_path).values()) == ["Nimbus Store Locations"]


def test_wiki_slug_heading_gets_spaces(tmp_path: Path) -> None:
    write(tmp_path, "Yahoo_検索.md", "# Yahoo_検索\n\nYahoo 検索は検索エンジンである。\n")
    assert list(titles(tmp_path).values()) == ["Yahoo 検索"]


def test_good_titles_are_kept(tmp_path: Path) -> None:
    write(tmp_path, "people/mina_cho.md", "# Mina Cho\n\n- **Role**: Engineer\n")
    write(tmp_path, "company/overview.md", "# 하늘여행\n\n- **설립일**: 2008년 3월\n")
    write(tmp_path, "notes.md", "---\ntitle: 2024 Plan (draft)\n---\nBody.\n")
    write(tmp_path, "三氯化氮.md", "# 三氯化氮\n\n三氯化氮是化合物。\n")
    assert titles(tmp_path) == {
        "company/overview.md": "하늘여행",
        "notes.md": "2024 Plan (draft)",  # front matter is the author's word
        "people/mina_cho.md": "Mina Cho",
        "三氯化氮.md": "三氯化氮",
    }


# -------------------------------------------------------------------------------- subtitles and brackets


def test_short_title_drops_em_dash_suffix_but_keeps_cjk_joins() -> None:
    assert short_title("Nimbus Watch Series — Product Specification Document") == "Nimbus Watch Series"
    assert short_title("New Conjugates of Quinolines—Synthesis and Activity") == "New Conjugates of Quinolines"
    assert short_title("罗素—爱因斯坦宣言") == "罗素—爱因斯坦宣言"
    assert short_title("标题——副标题") == "标题"
    # a pictograph between words parts a title from its subtitle; one at the end or the start is kept
    assert short_title("몽글몽글 펫살롱 🐾 살롱 소개") == "몽글몽글 펫살롱"
    assert short_title("The Fleece Shop 🧶") == "The Fleece Shop 🧶"


def test_without_parentheticals() -> None:
    assert without_parentheticals("Haneul Travel (하늘여행)") == "Haneul Travel"
    assert without_parentheticals("陆军总司令部（德国国防军）") == "陆军总司令部"
    assert without_parentheticals("(draft)") == "(draft)"  # nothing would be left


def test_plain_names_keep_brackets_only_when_needed() -> None:
    names = ["Seoul Office (Gangnam)", "Mercury (planet)", "Mercury (element)", "Venus", "Venus (planet)"]
    assert plain_names(names) == {
        "Seoul Office (Gangnam)": "Seoul Office",
        "Mercury (planet)": "Mercury (planet)",
        "Mercury (element)": "Mercury (element)",
        "Venus": "Venus",
        "Venus (planet)": "Venus (planet)",
    }


def test_graph_entities_drop_parentheticals_and_keep_full_title(tmp_path: Path) -> None:
    write(tmp_path, "company/haneul.md", "# Haneul Travel (하늘여행)\n\n- **Founded**: 2008\n- **CEO**: Park Haneul\n")
    write(tmp_path, "offices/seoul.md", "# Seoul Office (Gangnam)\n\n- **Opened**: 2012\n- **Staff**: 40\n")
    write(tmp_path, "places/a.md", "# Daegok Station (Akita)\n\n- **Opened**: 1905\n")
    write(tmp_path, "places/b.md", "# Daegok Station (Aomori)\n\n- **Opened**: 1911\n")
    kg = build_graph(load_corpus(tmp_path))
    docs = {node.doc_id: node.title for node in kg.documents()}
    assert docs["company/haneul.md"] == "Haneul Travel (하늘여행)"  # the document keeps its full title
    by_home = {node.home_doc: node for node in kg.entities() if node.home_doc}
    assert by_home["company/haneul.md"].name == "Haneul Travel"
    assert "Haneul Travel (하늘여행)" in by_home["company/haneul.md"].aliases
    assert by_home["offices/seoul.md"].name == "Seoul Office"
    # two stations share the bare name: both keep their brackets
    assert {by_home["places/a.md"].name, by_home["places/b.md"].name} == {
        "Daegok Station (Akita)",
        "Daegok Station (Aomori)",
    }
    founded = [f for f in kg.facts() if f.doc_id == "company/haneul.md" and f.attribute == "Founded"]
    assert founded and all(f.subject_entity == by_home["company/haneul.md"].entity_id for f in founded)


# ---------------------------------------------------------------------------------------- is_usable_name


@pytest.mark.parametrize(
    "name",
    [
        "Aurora Cargo Max",
        "하늘여행",
        "제주 힐링 3박 4일",
        "三氯化氮",
        "生命の起源",
        "ZX Bank Ltd.",
        "Jordan K. Bishop",
        "1918 Influenza",
        "2019-nCoV",
        "COVID-19 and smoking",
        "llmware",
        "Yahoo!",
        "停止！！云雀",
        "iNR-Drug",
        "3 Idiots",
    ],
)
def test_usable_names(name: str) -> None:
    assert is_usable_name(name), name_problems(name)


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("", "empty"),
        ("notes.md", "file extension"),
        ("chakoteya net DoctorWho 40 1 html", "file extension"),
        ("Version_History", "underscore"),
        ("Google_検索", "underscore"),
        ("16 stardewvalleywiki com Version History", "url or domain"),
        ("https://example.org/page", "url or domain"),
        ("so-into-northern-spain", "slug"),
        ("c2 ljtdg6eaucrbf1aksw5rm", "slug"),
        ("2628 Haunted with and hunting for viruses", "leading id"),
        ("01-intro", "leading id"),
        ("untitled 2", "placeholder"),
        (
            "Estimating the number of infections and the impact of interventions in eleven European countries",
            "too long",
        ),
        ("一个非常非常非常非常非常非常非常非常非常非常长的名字真的太长了", "too long"),
        ("Abstract: We measured the effect", "sentence"),
        ("condition is a boolean, True or False", "sentence"),
        ("Why do we need to regulate AI?", "sentence"),
        ("这是一个句子。然后还有", "sentence"),
        ("It was sold in 2020.", "sentence"),
        ("audio catalog", "lowercase"),
    ],
)
def test_unusable_names(name: str, problem: str) -> None:
    assert problem in name_problems(name)
    assert not is_usable_name(name)


def test_subjects_of_a_scraped_kb_are_usable(tmp_path: Path) -> None:
    write(
        tmp_path,
        "03_gardenwiki_com_Garden_Quest.md",
        "<!-- source: https://gardenwiki.com/Garden_Quest -->\n\nGarden Quest\n"
        "- **Developer**: Leafworks\n- **Released**: 3 March 2019\n",
    )
    write(tmp_path, "12_Leafworks.md", "# Leafworks\n\n- **Founded**: 2011\n- **Headquarters**: Bergen\n")
    kg = build_graph(load_corpus(tmp_path))
    names = {node.name for node in kg.entities() if node.home_doc}
    assert names == {"Garden Quest", "Leafworks"}
    assert all(is_usable_name(name) for name in names)


@pytest.mark.parametrize(
    ("name", "problem"),
    [
        ("A", "too short"),
        ("Ground Floor, Lotus Plaza, Ashram Road", "list or address"),
        ("Red, Blue", "list or address"),
    ],
)
def test_a_letter_or_an_address_is_no_name(name: str, problem: str) -> None:
    assert problem in name_problems(name)


@pytest.mark.parametrize("name", ["Acme Co., Ltd.", "Martin Luther King, Jr.", "X1", "北京", "하늘여행"])
def test_company_suffixes_after_a_comma_and_short_names_are_kept(name: str) -> None:
    assert is_usable_name(name), name_problems(name)


@pytest.mark.parametrize(
    ("name", "core"),
    [
        ("Contract with Bergfeld Logistik", "Bergfeld Logistik"),
        ("Warranty and Returns Policy", "Warranty and Returns"),
        ("세진전자 임직원 포상여행 계약", "세진전자 임직원 포상여행"),
        ("Aurora Ridge 700", "Aurora Ridge 700"),
        ("Policy", "Policy"),  # nothing would be left: the name itself
        ("제주 지점", "제주 지점"),  # "제주" alone names the island, the city, a product: too little is left
        ("Team Plan", "Team"),  # the plan is called "Team" on its page: only the kind goes
    ],
)
def test_core_name_drops_kind_words_at_the_edges(name: str, core: str) -> None:
    assert core_name(name) == core


@pytest.mark.parametrize(
    "title",
    [
        "Office Locations",
        "Post-mortem",
        "회사 소개와 연혁",
        "팀 소개",
        "휴가·복지 제도",
        "Meeting Minutes",
        "2024년도 사업 결과 보고",  # a year's report ("결과" is no word with the particle 과)
        "재단 소개",
    ],
)
def test_titles_made_of_page_kind_words_name_no_thing(title: str) -> None:
    assert page_kind_title(title)


@pytest.mark.parametrize(
    "title",
    ["Tarnwell Renewables", "Leeds Office", "윤슬로지", "서하선", "부산 현장지원팀", "가온누리병원", "청년 지원 사업"],
)
def test_names_are_not_page_kind_titles(title: str) -> None:
    assert not page_kind_title(title)


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("About Tarnwell Renewables", "Tarnwell Renewables"),
        ("Introducing Evenflow", "Evenflow"),
        ("Meet the Kestrel KSI-6000", "Kestrel KSI-6000"),
        ("About the Brackett Valley Water Authority", "Brackett Valley Water Authority"),
        ("윤슬로지 소개", "윤슬로지"),
        ("다온보험대리점 회사 소개 및 직원 연락처", "다온보험대리점"),  # two introducing parts, joined by 및
        ("서울내과 소개", "서울내과"),  # a name's own last syllable (과) is no joining word
        ("지능신호처리연구실 위키", "지능신호처리연구실"),  # the lab's wiki: its facts are the lab's
        ("햇살고개농장 이야기", "햇살고개농장"),
        ("[장애 공지 및 결과 보고] 로그인 장애", "로그인 장애"),  # a notice's tag in brackets
        ("햇살고개농장 오시는 길", "햇살고개농장"),
        ("사무국 사람들 & 연락처", "사무국"),
        ("2025년 서하시 청년 월세 지원사업 추진 결과 보고", "2025년 서하시 청년 월세 지원사업"),
        ("2025년 시민 건강검진 지원사업 시행 공고", "2025년 시민 건강검진 지원사업"),  # a notice that it starts
        ("가온누리병원 진료 안내", "가온누리병원"),  # the hospital's guide to its clinics: the hospital's facts
        ("비급여 진료비 변경 안내", "비급여 진료비 변경 안내"),  # a notice about a change names no thing
        ("가온누리병원 비급여 진료비용 안내", "가온누리병원"),  # a price list: the hospital's prices
        ("하늘여행 요금 안내", "하늘여행"),
        ("2025 가람 인문학 아카데미 수강생 모집", "2025 가람 인문학 아카데미"),  # a call for students: the course's
        ("2025년도 늘품장학생 선발 공고", "2025년도 늘품장학생"),
        ("신입사원 모집", "신입사원 모집"),
        ("요금 안내", "요금 안내"),  # no name before it
        ("2026년 서하시 청년 월세 지원사업 참여자 모집 공고", "2026년 서하시 청년 월세 지원사업"),
        ("누리담저축은행 2025년 2분기 정기 경영공시", "누리담저축은행 2025년 2분기"),
        ("온새미 클린보 R7 사용 설명서", "온새미 클린보 R7"),
        ("[공지] 2026학년도 1학기 수강 신청 일정", "2026학년도 1학기 수강 신청"),  # a post's tag, a schedule's title
        ("[Notice] Lumenday Status", "Lumenday Status"),
        ("Samir Haddad, M.Ed.", "Samir Haddad"),  # a credential after the name
        ("Ana Ruiz, PhD", "Ana Ruiz"),
        ("2024학년도 솔빛마루어린이집 이용안내", "솔빛마루어린이집"),  # the guide's year, not the daycare's name
        ("솔빛마루어린이집 가정통신문 제2024-3호", "솔빛마루어린이집"),
        ("법무법인 다온길 구성원 현황", "법무법인 다온길"),
        ("문경호 세무회계사무소 직원 연락처", "문경호 세무회계사무소"),
        ("청람고속 비상연락망", "청람고속"),
        ("새들농협 조직도 및 부서 연락처", "새들농협"),
        ("새들농협 조직도", "새들농협"),
        ("새봄공인중개사사무소 업무 위키", "새봄공인중개사사무소"),  # the office's wiki for its work
        ("달보드레 커피 가맹점 운영 매뉴얼", "달보드레 커피"),
        ("서담수영장 강사 및 안전요원 명단 (2024년 9월 기준)", "서담수영장"),  # a list of its staff, as of a date
        ("회원 명단", "회원 명단"),  # a list with no body before it
        # nothing usable follows the introducing words: the title stays (and the gate judges it)
        ("About us", "About us"),
        ("About the team", "About the team"),
        ("회사 소개", "회사 소개"),
        ("Aurora Commute 400", "Aurora Commute 400"),
    ],
)
def test_introducing_words_are_left_out_of_a_name(title: str, name: str) -> None:
    assert introduced_name(title) == name


def test_folders_that_name_a_form_of_page_are_no_kind_of_thing() -> None:
    assert form_folder("reference") and form_folder("blog") and form_folder("Articles") and form_folder("보고서")
    assert not form_folder("products") and not form_folder("people") and not form_folder("contracts")


def test_a_plain_text_masthead_is_not_the_title() -> None:
    news = "가온일보 | 사회 | 2025.03.14 16:42 | 최유진 기자\n\n가온누리병원 야간진료 시작\n\n본문입니다.\n"
    assert derive_title(news, {}, "20250314_news")[0] == "가온누리병원 야간진료 시작"
    release = "PRESS RELEASE - FOR IMMEDIATE RELEASE\n\nKestrel Partners With Food Bank\n\nPELLINGTON, 4 June 2024.\n"
    assert derive_title(release, {}, "release")[0] == "Kestrel Partners With Food Bank"
    notice = "늘품재단 공고 제2025-07호\n\n2025년도 늘품장학생 선발 공고\n\n다음과 같이 선발합니다.\n"
    assert derive_title(notice, {}, "notice")[0] == "2025년도 늘품장학생 선발 공고"  # a notice's number is no title
    tagged = "[온빛일보] 2025.11.08 지역사회\n\n\n늘품재단, 장학금 전달\n\n본문입니다.\n"
    assert derive_title(tagged, {}, "press")[0] == "늘품재단, 장학금 전달"  # a paper's tag, date and section
    letter = "BRACKETT VALLEY WATER AUTHORITY\n2024 Drinking Water Quality Report\n\nThis report covers 2024.\n"
    assert derive_title(letter, {}, "ccr")[0] == "2024 Drinking Water Quality Report"  # the letterhead is the sender
    titled = "Orbit Cloud Pricing\n\nPlans start at $99.\n"  # an ordinary first line stays the title
    assert derive_title(titled, {}, "pricing")[0] == "Orbit Cloud Pricing"


@pytest.mark.parametrize(
    ("name", "usable"),
    [
        ('"The bikes go where the van can\'t"', False),  # what someone said, as a blog post's title
        ("LOCAL BATTERY MAKER POWERS FOOD BANK'S NEW CARGO-BIKE DELIVERIES", False),  # a headline in capitals
        ('"The Lord of the Rings"', True),
        ("TARROW VALLEY FOOD BANK", True),
        ("UNITED STATES DEPARTMENT OF HOMELAND SECURITY", True),
    ],
)
def test_quotations_and_headlines_in_capitals_are_no_names(name: str, usable: bool) -> None:
    assert is_usable_name(name) is usable, name_problems(name)


def test_a_title_opening_with_its_kind_of_page_is_named_by_the_part_after_it() -> None:
    assert short_title("회사 소개 | 주식회사 온담헬스케어") == "주식회사 온담헬스케어"
    assert short_title("Company Overview | Tarnwell Renewables") == "Tarnwell Renewables"
    assert short_title("Version History | Garden Quest Wiki") == "Version History"  # a page's own name first


def test_a_guide_titled_with_its_place_and_a_call_for_participants_name_what_they_are_for() -> None:
    assert introduced_name("서하시립박물관 관람 안내") == "서하시립박물관"
    assert introduced_name("2025 가을 「가족 박물관 탐험대」 참가 가족 모집") == "2025 가을 「가족 박물관 탐험대」"
    # a guide with no body or place before it keeps its title (a page about a topic, asked about as a page)
    assert introduced_name("2025년 귀속 근로소득 연말정산 안내") == "2025년 귀속 근로소득 연말정산 안내"


def test_a_record_line_of_who_changed_a_page_when_is_no_title() -> None:
    text = "최종 수정: 2025.07.01 (v3) / 담당: 행정지원팀 서지민\n\n### 관람 시간\n\n입장은 5시 30분까지입니다.\n"
    title, source = derive_title(text, {}, "자주 묻는 질문(FAQ)_v3")
    assert "최종 수정" not in title and source != "opening"
    assert derive_title("Last updated: 3 March 2025\n\nSome text here.", {}, "rates_2025")[0] != "Last updated"


def test_a_korean_statement_or_headline_is_no_name_but_may_title_a_plain_text_page() -> None:
    for text in ("바로잡습니다", "은포역~남항 잇는 77번 버스 생긴다…다음 달 7일 첫 운행", "은포갯벌축제 연다"):
        assert "statement" in name_problems(text), text
    for text in ("바다", "하늘여행", "소연도"):
        assert name_problems(text) == (), text
    news = "※ 편집국 보관본 (지면 4월 12일자)\n\n77번 버스 생긴다…다음 달 7일 첫 운행\n\n본문입니다. 시가 밝혔다.\n"
    assert derive_title(news, {}, "기사_250412_버스노선")[0] == "77번 버스 생긴다…다음 달 7일 첫 운행"


def test_a_name_two_page_titles_share_keeps_its_ampersand_and_is_the_about_pages_subject(tmp_path: Path) -> None:
    write(
        tmp_path,
        "hotel/about-us.md",
        "# About the Gull & Lantern\n\nWe have 16 rooms, and the Loft is the newest; the Loft has skylights.\n\n"
        "**Address:** The Gull & Lantern, 14 Quayside Terrace, Merrowby\n",
    )
    write(tmp_path, "hotel/handbook.txt", "GULL & LANTERN - STAFF HANDBOOK\n\nShifts start at 7am.\n")
    write(tmp_path, "hotel/rooms.md", "# Rooms\n\n| Type | Sleeps |\n|---|---|\n| The Loft | 2 |\n| Twin | 2 |\n")
    kg = build_graph(load_corpus(tmp_path))
    address = next(f for f in kg.facts() if f.attribute == "Address")
    # the page is about the hotel its title names, not the room it mentions twice
    assert address.subject == "Gull & Lantern"


def test_an_introducing_word_before_the_name_and_a_press_releases_record_are_no_title() -> None:
    assert introduced_name("회사소개 흙결공방") == "흙결공방"
    assert introduced_name("회사 소개") == "회사 소개"  # no name follows
    release = (
        "새벌구청 보도자료\n\n배포일시 : 2024. 9. 5.(목)\n담당부서 : 평생학습과\n"
        "           팀장 문재영 (055-710-3871)\n\n※ 개관식 시각을 바로잡습니다.\n\n---\n"
        "물빛도서관 9월 10일 개관\n\n본문입니다.\n"
    )
    assert derive_title(release, {}, "(보도자료) 물빛도서관_최종")[0] == "물빛도서관 9월 10일 개관"


def test_a_dateline_a_brand_page_and_admission_guidelines_are_no_subject() -> None:
    release = "PRESS RELEASE - FOR IMMEDIATE RELEASE\n27 February 2024\n\nSome headline\n"
    assert derive_title(release, {}, "press_release_branch")[0] != "27 February 2024"
    assert introduced_name("하루결커피 브랜드 소개") == "하루결커피"
    assert document_subject("2025학년도 후기 새별대학교 일반대학원 신입생 모집요강")


def test_a_korean_letters_greeting_line_is_no_name() -> None:
    assert name_problems("정하린 고객님께") == ("salutation",)  # "정하린 고객님께의 코트 내용연수" asks the letter
    assert name_problems("정하린") == ()


def test_an_introduction_page_is_stripped_from_a_korean_title() -> None:
    assert introduced_name("대성철물 소개 페이지") == "대성철물"  # "대성철물 소개 페이지의 대표" asks the page


def test_a_welcome_a_history_and_a_version_note_are_stripped_from_a_korean_title() -> None:
    assert introduced_name("새길로지스 사내 위키에 오신 것을 환영합니다 👋") == "새길로지스"
    assert introduced_name("새솔신협이 걸어온 길") == "새솔신협"
    assert introduced_name("새솔신협의 발자취") == "새솔신협"
    assert introduced_name("《물 위의 이름들》 연습 일정표 [최종 / 25.03.24 수정]") == "《물 위의 이름들》"
    assert introduced_name("Welcome to Quillstone!") == "Quillstone"
    assert introduced_name("수지바른숲치과의원 병원 소개") == "수지바른숲치과의원"  # the kind before 소개 goes too
    # a page introducing a group of people is a kind of page, not a name
    assert page_kind_title("강사진 소개 2025")


def test_a_publisher_or_law_firm_is_written_without_its_kind_of_firm() -> None:
    from testgen.names import without_legal_form

    assert without_legal_form("도서출판 소금빛") == "소금빛"
    assert without_legal_form("법무법인 다온길") == "다온길"
    assert without_legal_form("도서출판") == "도서출판"  # nothing left: the name itself


@pytest.mark.parametrize(
    ("name", "problem"),
    [("What Goes in Which Bin", "question"), ("How to Apply", "question"), ("학원", "kind"), ("강사 소개", "kind")],
)
def test_a_headline_question_or_a_kind_alone_is_no_name(name: str, problem: str) -> None:
    assert problem in name_problems(name)


@pytest.mark.parametrize("name", ["Whitby Hall", "한결수학영어학원", "Wharton House", "강사진 워크숍 2025"])
def test_a_name_that_only_looks_like_those_is_kept(name: str) -> None:
    assert not {"question", "kind"} & set(name_problems(name))


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ("푸른별동물병원 진료시간", "푸른별동물병원"),
        ("달빛캠핑장 이용시간 안내", "달빛캠핑장"),
        ("새별대학교 일반대학원 장학 안내", None),
    ],
)
def test_a_bodys_hours_page_names_the_body(title: str, name: str | None) -> None:
    assert introduced_name(title) == (name or title)  # "대학원" is no academy ("학원") its guide is for


def test_a_staff_word_with_its_introduction_is_a_kind_and_a_name_alone_is_not() -> None:
    assert "kind" in name_problems("정비사 소개")
    assert "kind" in name_problems("비급여")
    assert "kind" not in name_problems("이지원")  # a person's name ends as staff words do


def test_a_documents_version_is_asked_by_the_documents_name() -> None:
    from testgen.gate.names import meta_asked_of_another

    policy = "Booking and Cancellation Policy – Brackenfield Sports Hall"
    assert meta_asked_of_another("Version", policy, "What is Brackenfield Sports Hall's version?")
    assert not meta_asked_of_another("Version", policy, "What is the version of the Booking and Cancellation Policy?")
    assert not meta_asked_of_another("Manager", policy, "Who is Brackenfield Sports Hall's manager?")
