"""The quality gate: every named check drops its bad case and keeps the good one, on fixtures written here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest
from factories import kb_context

from schemas import FactNode, TestQuestion
from testgen import build_testset
from testgen.gate import _PERIOD_END, REASONS, Gate, GateFailure, _changed_around, _row_label, item_flags
from testgen.gate.aggregates import aggregate_problem
from testgen.gate.keys import KeyIndex, priced_otherwise
from testgen.gate.labels import (
    bare_label,
    label_for_value,
    opaque_label,
    pasted_label,
    pasted_punctuation,
    unnamed_property,
)
from testgen.gate.names import document_subject, file_name_problem, organisation_measure
from testgen.gate.sentences import answer_problem, changed_later, question_problem, standalone_problem, words_problem
from testgen.gate.values import descriptive_value, incomplete_value, is_placeholder
from testgen.gate.wh import wh_mismatch
from testgen.generate import GenerationResult
from testgen.kg.mining import row_in_label
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft
from testgen.text import plain_sentence


def fact(
    value: str,
    evidence: str,
    *,
    attribute: str = "Price",
    subject: str = "Orbit Arm",
    value_type: str = "money",
    source: str = "key_value",
    context: str | None = None,
    qualifier: str | None = None,
    doc_id: str = "products/orbit_arm.md",
) -> FactNode:
    return FactNode(
        fact_id=f"fact:{abs(hash((value, evidence, attribute, subject, context, qualifier))):x}",
        subject=subject,
        attribute=attribute,
        value=value,
        value_type=value_type,  # type: ignore[arg-type]
        qualifier=qualifier,
        context=context,
        source=source,  # type: ignore[arg-type]
        doc_id=doc_id,
        chunk_id="c1",
        evidence=evidence,
        start=0,
        end=len(evidence),
    )


def asked(f: FactNode, category: str = "direct_fact") -> Draft:
    """A one-fact draft asking `f` plainly ("What is <subject>'s <attribute>?")."""
    return Draft(
        category=category,
        question=f"What is {f.subject}'s {f.attribute.lower()}?",
        reference_answer=f.value,
        keywords=[f.value],
        facts=[f],
        answer_spans=[f.value],
        language="en",
        template="en.text",
    )


# -- placeholder_value ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value",
    [
        "[Number] months",
        "+82-10-XXXX-XXXX",
        "TBD",
        "✓",
        "✔️",
        "_",
        "○○○ 지점",
        "최영수)",
        "미정",
        "<name>",
        "N/A",
        "…",
        "Custom pricing",
        "Contact sales",
        "On request",
        "별도 문의",
        "面议",
        "○ (예약제)",  # a mark with its note
        "지원배역_이름.pdf (예: 순례_홍길동.pdf)",  # a pattern with an example, not a value
        "02-2656-7xx1",  # a number with digits masked
        "010-12**-5678",
        "조현아 대리 / 인솔: 남궁철 (전 회차)",  # the next label's value after the cut
        "both",  # "Based: both": which two, the table's other cells say
        "Either",
        "336,000원 + 19,000원 = 355,000원",  # a sum worked out on the page: its parts are the facts
        "£25             (no change)",  # two columns of a plain-text table
        "100000~",  # from a figure, up to none
    ],
)
def test_placeholders_and_debris_are_rejected(value: str) -> None:
    assert is_placeholder(value)


@pytest.mark.parametrize(
    "value",
    [
        "$12,500",
        "Jonas Berg",
        "2008년 3월 15일",
        "+82-2-555-0134",
        "Head of Product (EMEA)",
        "48%",
        "3박 4일",
        "Yes (by appointment)",
        "10x10 m",
        "ST-2XL",
        "09:00 / 18:00",
        "A4 / Letter",
    ],
)
def test_real_values_are_kept(value: str) -> None:
    assert not is_placeholder(value)


# -- incomplete_value ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "evidence", "answer", "lost"),
    [
        ("300,000원", "- **숙소 지원**: 월 300,000원", "숙소 지원은 300,000원입니다.", "qualifier"),
        ("50,000원", "| 오션뷰 | +50,000원/박 |", "오션뷰 추가 요금은 50,000원입니다.", "sign"),
        ("$500", "- **Refund**: up to $500 per claim", "The refund is $500.", "qualifier"),
        ("$1,000", "- **Fee**: $1,000/month", "The fee is $1,000.", "after the value"),
        ("2019", "Cases of 2019-nCoV were reported.", "In 2019.", "longer name"),
        (
            "2026년 4월 2일",
            "| AP-25 | 289,000원 | 2026년 4월 2일 (예정) |",
            "2026년 4월 2일에 출시되었습니다.",
            "planned",
        ),
        ("Q3 2027", "- **Opening**: Q3 2027 (expected)", "It opened in Q3 2027.", "planned"),
        ("18일", "가온누리병원이 오는 18일부터 야간진료를 시작한다.", "18일부터 시작합니다.", "page was written"),
    ],
)
def test_values_that_lost_what_the_document_says_are_rejected(
    value: str, evidence: str, answer: str, lost: str
) -> None:
    problem = incomplete_value(fact(value, evidence), answer)
    assert problem is not None and lost in problem


def test_a_date_without_the_year_the_line_gives_is_rejected() -> None:
    founded = fact("March 15", "Founded on March 15, 2008 in Oslo.", value_type="date")
    assert "year" in (incomplete_value(founded, "It was founded on March 15.") or "")
    assert incomplete_value(founded, "It was founded on March 15, 2008.") is None


@pytest.mark.parametrize(
    ("value", "evidence", "answer"),
    [
        ("월 300,000원", "- **숙소 지원**: 월 300,000원", "숙소 지원은 월 300,000원입니다."),
        ("$1,000/month", "- **Fee**: $1,000/month", "The fee is $1,000/month."),
        ("$500", "- **Refund**: up to $500 per claim", "The refund is up to $500 per claim."),
        ("March 15, 2008", "Founded on March 15, 2008 in Oslo.", "It was founded on March 15, 2008."),
    ],
)
def test_complete_values_are_kept(value: str, evidence: str, answer: str) -> None:
    assert incomplete_value(fact(value, evidence), answer) is None


# -- pasted_label / opaque_label -----------------------------------------------------------------------


@pytest.mark.parametrize(
    "label",
    [
        "10:30",
        "11월",
        "November",
        "Saturday and Sunday",  # a row of opening hours
        "일요일 및 공휴일",
        "Mon–Fri",
        "medium projects ($1M-5M)",
        "VL-008 email",
        "standard 42mm battery life",
        "9 address",
        "x",
        "accreditation valid through",
        "On the board since",  # a clause cut before its date
        "sales@example.com",
        "the whole text of a long table row",
        "우리 수영장 관리 목표",  # a column speaking for the writer
        "Our price",
    ],
)
def test_pasted_labels_are_rejected(label: str) -> None:
    assert pasted_label(label) is not None


@pytest.mark.parametrize(
    "label",
    ["Founded", "Job Title", "Reports to", "설립일", "담당자", "Price (USD)", "所在地", "본사 주소", "Tour length"],
)
def test_property_labels_are_kept(label: str) -> None:
    assert pasted_label(label) is None


def test_a_name_label_asked_of_that_name_says_its_answer(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {"shop/about.md": "# 한결 테일러\n\n- **상호**: 한결 테일러 (Hangyeol Tailor)\n- **대표**: 박정호\n"},
    )
    verdicts = {fact.attribute: _reason(ctx, fact, "direct_fact") for fact in ctx.facts}
    # "한결 테일러의 상호는 …": the question already says the answer; who runs it is a question
    assert verdicts.get("상호") == "answer leaked in question" and verdicts.get("대표") is None, verdicts


def test_a_value_that_only_says_what_an_amount_is_per_is_no_fact() -> None:
    from testgen.gate import _PER_UNIT

    for value in ("per day", "per dive", "each", "1인당", "회당", "per person"):
        assert _PER_UNIT.fullmatch(value), value
    for value in ("식당", "정당", "Daily", "£45 per day", "A4"):
        assert not _PER_UNIT.fullmatch(value), value


def test_a_label_led_by_a_short_weekday_is_a_rotas_cell() -> None:
    from testgen.gate.labels import pasted_label

    for label in ("fri time", "mon pick-up area", "Mon-Fri programme", "Sat notes", "thu presenters"):
        assert pasted_label(label) is not None, label
    for label in ("Monday opening hours", "Monthly fee", "Sunday service time", "Saturation point"):
        assert pasted_label(label) is None, label


def test_note_columns_are_opaque_and_properties_are_not() -> None:
    assert opaque_label("Notes") and opaque_label("비고") and opaque_label("Additional info") and opaque_label("备注")
    assert opaque_label("구분")  # a table's class column: "X의 구분은 무엇인가요?" asks nothing
    assert opaque_label("제목") and opaque_label("Subject")  # an e-mail's header line: "X의 제목은 …" asks nothing
    assert not opaque_label("Price") and not opaque_label("비자")


# -- wh_mismatch ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("question", "value", "value_type", "language"),
    [
        ("Who is ZX Bank's Indore contact number?", "0731-6028152", "text", "en"),
        ("하늘여행 일본 상품의 비자는 누구인가요?", "무비자 90일", "text", "ko"),
        ("When is Orbit Arm's price?", "$12,500", "money", "en"),
        ("How many staff does Orbit have?", "several", "text", "en"),
        ("여행 기간은 몇 일인가요?", "4일", "number", "ko"),
        ("누리담 당기순이익의 증감률은 무엇인가요?", "흑자전환", "text", "ko"),  # no rate to give
        ("谁是该项目的负责人？", "2019年", "date", "zh"),
        ("What is the mobile phone limit of the Expense policy?", "Not claimable", "text", "en"),  # a rule
        ("What is the pool van's fuel limit?", "Fuel card only", "text", "en"),
        ("What are the hours of the Starter Plan?", "Best effort", "text", "en"),  # no time to give
        ("What is Ada Quinlan's e-mail?", "aquinlan", "text", "en"),  # the directory's domain is in its header
        ("윤정애의 이메일은 무엇인가요?", "내선 101", "text", "ko"),
        ("What is the front desk's phone number?", "Ask at reception", "text", "en"),
        ("솔빛마트 본점의 휴무일은 언제인가요?", "본점 건물 1층", "text", "ko"),
        ("보증 정책에 따른 고무 패킹 무상 보증 기간은 무엇인가요?", "보증 제외", "text", "ko"),  # no period given
        ("환불 규정에 따른 구장 시설 파손 차감액은 무엇인가요?", "실제 수리비", "text", "ko"),  # no sum given
        ("키즈 도시락의 인상액은 무엇인가요?", "동결", "text", "ko"),  # a rise that did not happen: no sum
        ("정규반 주2회 패키지의 시간은 몇 회인가요?", "8회", "number", "ko"),  # a count under a column of times
        ("자율작업 10회권의 시간은 어떻게 되나요?", "유효기간 3개월", "text", "ko"),
        ("꽃다발의 가격은 어떻게 되나요?", "시가", "text", "ko"),
        ("연말 경품 대축제의 시간은 무엇인가요?", "영업시간 내", "text", "ko"),  # no time named
    ],
)
def test_question_words_that_do_not_fit_the_value_are_rejected(
    question: str, value: str, value_type: str, language: str
) -> None:
    assert wh_mismatch(question, value, value_type, language) is not None


@pytest.mark.parametrize(
    ("question", "value", "value_type", "language"),
    [
        ("Who is Orbit Arm's product owner?", "Jonas Berg", "text", "en"),
        ("하늘여행의 대표는 누구인가요?", "김하늘", "text", "ko"),
        ("연구실 세미나의 담당은 누구인가요?", "정유나 (010-2254-8830)", "text", "ko"),  # her number in brackets
        ("When was Aurora Bikes founded?", "March 15, 2008", "date", "en"),
        ("What is ZX Bank's Indore contact number?", "0731-6028152", "text", "en"),
        ("여행 기간은 며칠인가요?", "4일", "number", "ko"),
        ("누리담의 BIS 비율은 얼마인가요?", "12.87%", "percent", "ko"),
        ("What is the client entertainment limit of the Expense policy?", "£45 per head", "text", "en"),
        ("What is the Team Plan's webhook limit?", "Unlimited", "text", "en"),
        ("What are the hours of the Team Plan?", "Monday–Friday, 08:00–18:00", "text", "en"),
        ("What are the Sunday hours of the Main Library?", "Closed", "text", "en"),
        ("What is Ada Quinlan's e-mail?", "aquinlan@ashbycreeklibrary.org", "text", "en"),
        ("도서출판 소금빛의 전화번호는 무엇인가요?", "02-334-5120", "text", "ko"),
        ("솔빛마트 본점의 휴무일은 언제인가요?", "설날·추석 당일", "text", "ko"),  # days answer a "when"
        ("When is the Harbour Café closed?", "Mondays and bank holidays", "text", "en"),
        ("보증 정책에 따른 본체 무상 보증 기간은 어떻게 되나요?", "구입일로부터 1년", "text", "ko"),
        ("회원권의 이용 기간은 어떻게 되나요?", "무제한", "text", "ko"),
        ("어린이의 이용료는 어떻게 되나요?", "무료", "text", "ko"),
        ("김도윤의 납부액은 얼마인가요?", "72,000원", "money", "ko"),
        ("정월대보름 부럼 나눔의 시간은 어떻게 되나요?", "오전 중", "text", "ko"),
    ],
)
def test_question_words_that_fit_are_kept(question: str, value: str, value_type: str, language: str) -> None:
    assert wh_mismatch(question, value, value_type, language) is None


# -- sentence_not_standalone ---------------------------------------------------------------------------


def sentence(evidence: str, value: str, value_type: str = "date") -> FactNode:
    return fact(value, evidence, attribute=evidence.replace(value, "…"), value_type=value_type, source="sentence")


@pytest.mark.parametrize(
    ("evidence", "value", "language"),
    [
        ("It was released on 4 May 2021 after a long beta.", "4 May 2021", "en"),
        ("However, the plant closed in March 2019 for repairs.", "March 2019", "en"),
        ("Did the plant really close in March 2019 for good?", "March 2019", "en"),
        ("[12] The plant closed in March 2019 for repairs.", "March 2019", "en"),  # a reference-list entry
        ("The plant closed in March 2019 for repairs¹.", "March 2019", "en"),  # a footnote mark stays a problem
        ("The plant was described as unsafe (Lee, 2019).", "2019", "en"),  # the date is the citation's
        ("The Tacoma virus described in March 2019 has spread to three states.", "March 2019", "en"),
        ("Abstract: the plant closed in March 2019 for repairs.", "March 2019", "en"),
        ("The plant opened in 2001 and closed in March 2019 for repairs.", "2001", "en"),
        ("The line that the city built opened in March 2019 to the public.", "March 2019", "en"),
        ("The results of the survey were published in", "2019", "en"),
        ("그는 2019년 3월에 회사를 떠났습니다.", "2019년 3월", "ko"),
        ("또한 2019년 3월에 새 지점이 문을 열었습니다.", "2019년 3월", "ko"),
        ("예를 들어 가온병원에서 내시경을 추가하면 6만 원을 더 냅니다.", "6만 원", "ko"),  # an example of a rule above
        ("它于2010年7月开始更新工程。", "2010年7月", "zh"),
        ("しかし1974年に新しい大学が設立された。", "1974年", "ja"),
        # after the date that opens it, the clause must still stand alone and be one clause
        ("1974年、しかし新しい大学が設立された。", "1974年", "ja"),
        ("1863年、ロックフェラーが石油精製業に乗り出し、スタンダード石油を設立した。", "1863年", "ja"),
        ("1981年5月，正式建立河北省文物研究所。", "1981年5月", "zh"),  # who established it?
        ("1987年2月18日，本线开始投入服务。", "1987年2月18日", "zh"),  # which line?
        ("1779年，佛蒙特州仅拥有两个县。", "1779年", "zh"),  # a state, not an event
        ("1994年9月9日，香港仔总站迁往成都道。", "1994年9月9日", "zh"),  # the terminus of which route?
        ("2005年，会馆于原址重新开放。", "2005年", "zh"),  # which hall?
        ("2012년 박물관에 그의 이름을 딴 기념실이 문을 열었다.", "2012년", "ko"),  # whose name?
        ("Liu noted several Prairie Lakes libraries went fine-free in 2022.", "2022", "en"),  # what was reported
        ("The ferry runs to the timetable set out below from 4 March 2024.", "4 March 2024", "en"),
        ("2024년 3월 4일(월)부터 아래 시간표로 운행합니다.", "2024년 3월 4일", "ko"),  # which timetable?
    ],
)
def test_sentences_that_lean_on_their_context_are_rejected(evidence: str, value: str, language: str) -> None:
    assert standalone_problem(sentence(evidence, value), language) is not None


@pytest.mark.parametrize(
    ("evidence", "value", "language"),
    [
        ("The Tacoma plant closed in March 2019 for repairs.", "March 2019", "en"),
        ("하늘여행은 2008년 3월에 부산 지점을 열었습니다.", "2008년 3월", "ko"),
        ("龙烟铁路于2017年12月19日开通运营。", "2017年12月19日", "zh"),
        ("1839年、オランダはベルギーの独立を承認した。", "1839年", "ja"),  # the comma after the date is no clause
        ("1990年，门罗被选入篮球名人堂。", "1990年", "zh"),
        # inline citation marks are left out of the question, not a reason to drop the sentence
        ("The Tacoma plant closed in March 2019 for repairs [12] .", "March 2019", "en"),
        ("The Tacoma plant closed in March 2019 for repairs (Lee et al., 2020; Park, 2021).", "March 2019", "en"),
        ("龙烟铁路于2017年12月19日开通运营[3]。", "2017年12月19日", "zh"),
    ],
)
def test_standalone_declarative_sentences_are_kept(evidence: str, value: str, language: str) -> None:
    assert standalone_problem(sentence(evidence, value), language) is None


@pytest.mark.parametrize(
    ("question", "template"),
    [
        ("When is HAdV-55 a newly identified pathogen?", "en.sentence.passive"),
        ("When was Most recently the virus identified in sewage?", "en.sentence.passive"),
        ("When did Jordan show that?", "en.sentence.active"),
        ("When did the number of confirmed cases increased drastically?", "en.sentence.active"),
        ("When was the vaccine not available in China until the middle?", "en.sentence.passive"),
        ("龙烟铁路于什么时候18时开通运营？", "zh.sentence"),
        ("いつは日本政府に対し声明を出しましたか？", "ja.sentence"),
        ("When did the Directorate of Health first report on the epidemic?", "en.sentence.active"),
        ("When was the prevalence of TB in Shandong lower compared with China?", "en.sentence.passive"),
        ("When was an AAV expressing an HA antigen first shown to induce protective?", "en.sentence.passive"),
        ("소연도는 언제 말 기준으로 주민의 절반 이상이 고령자인가요?", "ko.sentence"),  # "2024년 말": 말 is left
        ("조직도는 언제 하반기 조직 기준인가요?", "ko.sentence"),
        ("When did Sunridge move into our current office in Fort Collins?", "en.sentence.active"),
    ],
)
def test_misread_sentence_questions_are_rejected(question: str, template: str) -> None:
    assert question_problem(question, template) is not None


def test_well_formed_sentence_questions_are_kept() -> None:
    bugfix = "When was Stardew Valley 1.2.33 a small bugfix patch released?"
    assert "predicate noun" in (question_problem(bugfix, "en.sentence.passive") or "")
    assert question_problem("When was a new plant opened?", "en.sentence.passive") is None
    coach = "When did Luis compete as an amateur for eight years and won a regional Golden Gloves title?"
    assert "two predicates" in (question_problem(coach, "en.sentence.active") or "")
    assert question_problem("When was the Tacoma plant closed?", "en.sentence.passive") is None
    assert question_problem("When did Remedy sign a deal with Epic Games?", "en.sentence.active") is None
    assert question_problem("When did the US Senate pass the Clean Air Act?", "en.sentence.active") is None
    assert question_problem("When did Remedy start a new publishing initiative?", "en.sentence.active") is None
    assert question_problem("When was the Tacoma plant expected to become profitable?", "en.sentence.passive") is None
    assert question_problem("새 요금은 언제부터 적용되나요?", "ko.sentence") is None  # 언제부터 asks the start
    # a different template is not read as a sentence question
    assert question_problem("When is the renewal date of the contract?", "en.date.when") is None


def test_inverted_question_may_only_add_its_verb() -> None:
    evidence = "The Millennium Summit at the United Nations in 2000 led to new goals."
    assert words_problem("When did the Millennium Summit at the unit Nations?", evidence) is not None
    evidence = "In March 2020, Remedy signed a deal with Epic Games."
    assert words_problem("When did Remedy sign a deal with Epic Games?", evidence) is None


# -- file_name_subject / document_subject --------------------------------------------------------------


def test_file_names_and_slugs_are_rejected_and_names_kept() -> None:
    assert file_name_problem("2024 tax changes.pdf는 언제 시행되나요?") is not None
    assert file_name_problem("What is the price of velvera_technology?") is not None
    assert file_name_problem("When was the example_com_wiki_Page created?") is not None
    assert file_name_problem("When was Aurora Bikes founded?") is None
    assert file_name_problem("Node.js 20은 언제 출시되었나요?") is None


def test_document_titles_are_not_owners_of_facts() -> None:
    assert document_subject("API reference") and document_subject("Changelog")
    assert document_subject("Velvera Smartphone Usage Guide")
    # a staff page's group ("수담수학학원 강사진"): a date on it is one teacher's, not the group's
    assert document_subject("수담수학학원 강사진") and not document_subject("수담수학학원")
    # a price page's title ("특수견종 가위컷 요금의 시바견 요금"): the row is the thing, not the page
    assert document_subject("특수견종 가위컷 요금")
    assert document_subject("주차 및 배송") and not document_subject("예약 및 환불 규정")
    assert not document_subject("이용수칙 및 안전규정")
    assert document_subject("Product Specification Document")
    assert document_subject("시력교정술 및 백내장 수술 전후 주의사항") and document_subject("레시피 기준서 v3")
    assert document_subject("하늘여행 예약 안내")
    assert document_subject("2025년 1분기 취급 상품 보장·보험료 비교표")  # a table of comparisons is a document
    assert document_subject("셔틀버스 운행표") and document_subject("7월 배차표")  # a timetable of runs
    assert document_subject("Bramley Green Playgroup News – Spring Term 2025") and not document_subject("Daily News")
    assert document_subject("늘보 브루잉 직원 연락망 & 역할") and document_subject("직원 연락망")
    assert document_subject("Notice To Guests") and document_subject("Staff memo")
    assert document_subject("Volunteer with us") and document_subject("Join us")
    assert document_subject("서비스 수준 협약 및 고객지원 운영 시간")  # an agreement is a document
    # a contact list or an org chart is a document about the organisation
    assert document_subject("멍스테이 직원 & 연락처") and document_subject("한빛세탁 본사 조직도")
    assert document_subject("직원 연락처 및 담당업무")
    # a notice titled by what it tells is no thing
    assert document_subject("지하주차장 방수공사 일정 통보") and document_subject(
        "여름철 운영시간 연장 및 정기 휴장일 변경"
    )
    assert document_subject("상반기 예방접종 일정")  # a schedule is a page of its rows
    assert not document_subject("금강들녘쌀 정기배송") and not document_subject("한마루체육관 관리사무소")
    assert document_subject("Staff and Contacts") and document_subject("Committee contacts list")
    # a newsletter's issue, a meeting, a notice, an agenda item, a forwarded mail's header
    assert document_subject("햇살꿈 가정통신문 2025년 5월호") and document_subject("느린오후 편지 · 2025년 5월호")
    assert document_subject("느린오후 운영회의") and document_subject("햇살꿈지역아동센터 공지")
    assert document_subject("안건 5. 현장 현황 (간단히)") and document_subject("원본 메일")
    assert document_subject("Spring Newsletter") and document_subject("Committee meeting, 4 March 2025")
    assert document_subject("Item 3: Ground works") and document_subject("Forwarded message")
    assert not document_subject("Aurora Commute 400")
    assert not document_subject("국제회의장") and not document_subject("공지천 산책로")
    # a register or a rota, with the file's version or date after its title
    assert document_subject("직원연락처 2025") and document_subject("미소덴탈 치과기공소 기공료 단가표 v3")
    assert document_subject("5월 예식 배치표") and document_subject("Price list 2024 v2 FINAL")
    assert not document_subject("Aurora Fold 250") and not document_subject("서울 본사 2층")
    assert document_subject("푸른소식 2025 봄호") and document_subject("우리 가게 사람들")
    assert document_subject("Our team") and not document_subject("우리은행") and not document_subject("호수공원")
    assert not document_subject("하늘여행")
    assert not document_subject("연락처 관리 앱 주소록24")


# -- checks that need the whole knowledge base ---------------------------------------------------------

KB = {
    "company/overview.md": """# Aurora Works

- **Founded**: March 15, 2008
- **Support line**: +1-555-0100

## Timeline

- **November 2019**: Opened the Tacoma plant
""",
    "company/events.md": """# Aurora Works Events

## 2024 fair

- **Venue**: Harbor Hall

## 2025 fair

- **Venue**: Pier Hall
""",
    "people/jonas_berg.md": """# Jonas Berg

- **Title**: Account Executive
- **Manager**: Rosa Delgado
- **Support line**: +1-555-0100

Aurora Works hired Jonas Berg in 2015.
""",
    "people/rosa_delgado.md": """# Rosa Delgado

- **Title**: Head of Sales
- **Support line**: +1-555-0100

Rosa Delgado is an Account Executive mentor at Aurora Works.
""",
    "people/mina_cho.md": """# Mina Cho

- **Title**: Account Executive
- **Support line**: +1-555-0100

Mina Cho joined Aurora Works in 2020.
""",
    "people/tomas_novak.md": """# Tomas Novak

- **Role**: Account Executive
- **Support line**: +1-555-0100

Tomas Novak works for Aurora Works.
""",
}


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory) -> GenContext:
    return kb_context(tmp_path_factory.mktemp("kb"), KB)


def _facts(ctx: GenContext, attribute: str) -> list[FactNode]:
    return [f for f in ctx.facts if f.attribute == attribute]


def test_a_key_with_two_values_is_ambiguous_and_a_unique_key_is_not(ctx: GenContext) -> None:
    keys = KeyIndex(ctx.facts)
    venues = _facts(ctx, "Venue")
    assert len(venues) == 2
    # "What is the venue of Aurora Works Events?" has two right answers ...
    assert keys.ambiguous(venues[0], "What is the venue of Aurora Works Events?")
    # ... unless the question names the section, which only one of them stands under.
    # (a year's fair is no record of its own: its facts stay the page's, see `record_sections`)
    spring = next(f for f in venues if f.context == "2024 fair")
    assert not keys.ambiguous(spring, "What is the venue of the 2024 fair of Aurora Works Events?")
    founded = _facts(ctx, "Founded")[0]
    assert not keys.ambiguous(founded, "When was Aurora Works founded?")


def test_an_entity_in_most_documents_is_no_bridge(ctx: GenContext) -> None:
    gate = Gate(ctx)
    company = next(e for e in ctx.entities.values() if e.name == "Aurora Works")
    assert "documents" in (gate.bridges.problem(company.entity_id) or "")
    rosa = next(e for e in ctx.entities.values() if e.name == "Rosa Delgado")
    assert gate.bridges.problem(rosa.entity_id) is None


def test_a_count_over_part_of_the_kind_is_incomplete(ctx: GenContext) -> None:
    titles = [f for f in ctx.facts if f.attribute == "Title" and f.value == "Account Executive"]
    people = sorted({f.doc_id for f in ctx.facts if f.doc_id.startswith("people/") and f.attribute in ("Title",)})
    count = Draft(
        category="holistic",
        question="How many people have Account Executive as their title?",
        reference_answer="2 people: Jonas Berg and Mina Cho.",
        keywords=["Account Executive"],
        facts=[f for f in ctx.facts if f.attribute == "Title"],
        answer_spans=[],
        language="en",
        template="en.count",
        scope_docs=people,
        derived={
            "op": "count",
            "value": "Account Executive",
            "count": len(titles),
            "names": ["Jonas Berg", "Mina Cho"],
        },
    )
    # Tomas Novak's page states it under "Role", Rosa Delgado's in prose: the count of 2 is not the whole kind.
    assert aggregate_problem(count, ctx) is not None


def test_every_reason_is_documented() -> None:
    import testgen.gate as gate

    for reason in REASONS:
        assert f"``{reason}``" in (gate.__doc__ or "")


def test_item_flags_on_a_finished_item() -> None:
    bad = TestQuestion(
        question="Who is the contact number of report_2024.pdf?",
        keywords=["XXXX-1234"],
        reference_answer="It is XXXX-1234.",
        category="direct_fact",
        source_docs=["a.md"],
        language="en",
    )
    assert item_flags(bad) == ["file_name_subject", "placeholder_value", "wh_mismatch"]
    good = TestQuestion(
        question="When was Aurora Works founded?",
        keywords=["March 15, 2008"],
        reference_answer="Aurora Works was founded on March 15, 2008.",
        category="temporal",
        source_docs=["company/overview.md"],
        language="en",
    )
    assert item_flags(good) == []


def test_a_build_counts_gate_rejections_and_ships_none_of_them(tmp_path: Path) -> None:
    for rel, text in KB.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    result = build_testset(tmp_path, num=20, seed=1).result
    reasons = {reason for (_, reason) in result.rejected}
    assert reasons & set(REASONS), result.rejected
    for item in result.items:
        assert item_flags(item) == []
        assert "Events" not in item.question or "venue" not in item.question.lower()  # the ambiguous key
        assert "+1-555-0100" not in item.keywords or item.category not in ("spanning", "relationship")


# -- later rules: ranges, 'starting at', dates without a year, CJK back-references, dates under other labels ----


def test_the_end_of_a_range_and_a_starting_price_are_incomplete() -> None:
    age = fact("28 years", "- **Age**: 18–28 years", attribute="Age", value_type="number")
    assert "range" in (incomplete_value(age, "The age is 28 years.") or "")
    price = fact("$5,000/month", "- **Basic**: Starting at $5,000/month")
    assert "starting at" in (incomplete_value(price, "The basic tier costs $5,000/month.") or "").lower()
    assert incomplete_value(price, "The basic tier costs starting at $5,000/month.") is None


def test_a_date_with_no_year_anywhere_is_incomplete() -> None:
    day = fact("3月6日", "3月6日に、新しいデータ型が導入された。", value_type="date", source="sentence")
    assert incomplete_value(day, "3月6日に、新しいデータ型が導入された。") is not None
    dated = fact("2013年3月6日", "2013年3月6日に導入された。", value_type="date", source="sentence")
    assert incomplete_value(dated, "2013年3月6日に導入された。") is None


@pytest.mark.parametrize(
    ("evidence", "value", "language"),
    [
        ("隔年该公司在上海开设了分店。", "上海", "zh"),
        ("同年10月に新しい支店が開設された。", "10月", "ja"),
        ("이듬해 3월에 부산 지점이 문을 열었습니다.", "3월", "ko"),
        ("영구 퇴실 시 위 3항 방식으로 계산하되 위약금은 20%를 적용합니다.", "20%", "ko"),
        ("웨딩홀 사정으로 해제하는 경우 위 위약금의 2배를 고객에게 배상합니다.", "2배", "ko"),
        ("Cendara was founded in the spring of 1956 by Dr.", "1956", "en"),
    ],
)
def test_sentences_tied_to_the_one_before_are_rejected(evidence: str, value: str, language: str) -> None:
    assert standalone_problem(sentence(evidence, value), language) is not None


def test_a_korean_word_that_only_looks_like_above_is_no_back_reference() -> None:
    # "1위" is a rank and "위 내시경" the stomach: neither points back
    rank = sentence("한빛병원은 2024년 지역 만족도 조사에서 1위를 차지했습니다.", "2024년")
    stomach = sentence("건강검진에는 위 내시경이 포함되며 비용은 5만원입니다.", "5만원")
    assert standalone_problem(rank, "ko") is None and standalone_problem(stomach, "ko") is None


def test_a_date_under_a_label_about_something_else_is_pasted() -> None:
    from testgen.gate.labels import untimely_label

    assert untimely_label("Parties Involved") and untimely_label("Updates and upgrades")
    assert not untimely_label("Effective Date") and not untimely_label("Founded") and not untimely_label("설립일")
    assert untimely_label("담당자")


def test_zh_how_many_years_for_a_year_is_a_mismatch() -> None:
    assert wh_mismatch("该公司成立于多少年？", "1984年", "number", "zh") is not None
    assert wh_mismatch("该卫星可以工作多少年？", "15年", "number", "zh") is None


def test_sentences_with_several_amounts_or_opening_brackets_are_rejected() -> None:
    several = sentence("机上379名乘客及16名机员中有25人受伤。", "379名", "number")
    assert "several amounts" in (standalone_problem(several, "zh") or "")
    bracket = sentence("（《玉叶》建久7年正月15日条）。", "7年", "number")
    assert standalone_problem(bracket, "zh") is not None
    one = sentence("大沙东站现时共设有3个出入口。", "3个", "number")
    assert standalone_problem(one, "zh") is None


def test_a_chinese_when_question_is_not_its_own_leftover() -> None:
    assert question_problem("龙烟铁路于什么时候开通运营？", "zh.sentence") is None
    assert question_problem("蔡琼辉于什么时候后离开亚视？", "zh.sentence") is not None


def test_variant_codes_and_yes_no_columns_are_not_properties() -> None:
    assert pasted_label("ZX") is not None and pasted_label("Renewable") is not None
    assert pasted_label("Refundable") is not None
    assert pasted_label("Timetable") is None and pasted_label("Executive") is None and pasted_label("Price") is None


def test_a_value_picked_out_of_a_clause_is_rejected_and_a_plain_value_kept() -> None:
    from testgen.gate.values import clause_pick

    picked = fact("2%", "- **Payment Terms**: Net 30 days; a 2% monthly late penalty applies", value_type="percent")
    assert clause_pick(picked)
    assert not clause_pick(fact("$1,000/month", "- **Fee**: $1,000/month (billed yearly)"))


@pytest.mark.parametrize(
    ("value", "line", "picked"),
    [
        # the clause states one value, the label's: asked as the duration, the answer is what the line says
        ("36 months", "2. **Duration:** This agreement is effective for 36 months from the contract date.", False),
        ("36개월", "- **기간**: 이 계약은 계약일로부터 36개월 동안 유효합니다", False),
        # a second value, a second sentence or a negation: the label names more than the value
        ("99.9%", "5. **SLA:** The provider guarantees 99.9% uptime, with an 8% credit for each miss.", True),
        ("2 years", "- **Warranty:** The frame is covered for 2 years. Batteries are covered separately.", True),
        ("2 years", "- **Warranty:** Not included in the base model, unlike the 2 years of the Pro.", True),
    ],
)
def test_a_clause_stating_one_value_is_no_pick(value: str, line: str, picked: bool) -> None:
    from testgen.gate.values import clause_pick

    assert clause_pick(fact(value, line, attribute="Duration", value_type="number")) is picked


def test_a_label_a_bracket_tells_from_another_is_asked_with_its_bracket(tmp_path: Path) -> None:
    table = (
        "| Course | Tutor | Cost (members) | Cost (non-members) |\n|---|---|---|---|\n"
        "| Staying Safe Online | Sue Marsh | £16 | £24 |\n| Video Calls | Priya Nair | £12 | £18 |\n"
    )
    ctx = kb_context(tmp_path, {"club/courses.md": f"# Courses\n\n{table}"})
    gate = Gate(ctx)
    fee = next(f for f in ctx.facts if f.attribute.endswith("(non-members)") and f.value == "£24")
    plain = replace(asked(fee), question=f"How much does {fee.subject} cost?")
    failure = gate._keys(plain)  # members pay £16: two right answers
    assert failure is not None and failure[0] == "ambiguous_key" and "bracket" in failure[1], failure
    named = replace(plain, question=f"How much does {fee.subject} cost for non-members?")
    assert gate._keys(named) is None
    tutor = next(f for f in ctx.facts if f.attribute == "Tutor" and f.value == "Sue Marsh")
    assert gate._keys(asked(tutor)) is None


def test_a_namesake_with_another_value_under_the_same_label_makes_the_key_ambiguous(tmp_path: Path) -> None:
    employee = "# Dana Whitfield\n\n- **Job Title:** Support Engineer\n- **Location:** Leeds\n"
    signed = (
        "# Contract with Norfolk Mutual\n\n**Contract Date:** May 2, 2024\n\n## Signatures\n\n"
        "**Dana Whitfield**\n**Title**: Chief Claims Officer\n**Norfolk Mutual Ltd.**\n"
    )
    other = "# Contract with Fenwick Re\n\n**Contract Date:** May 9, 2024\n\n**Priya Moss**\n**Title**: Director\n"
    # her name as a value on a report's page, followed by the report's own title: not a namesake
    report = "# Owen Hale\n\n- **Reports To**: Dana Whitfield\n- **Job Title**: Support Analyst\n"
    kb = {"people/dana.md": employee, "contracts/norfolk.md": signed, "contracts/fenwick.md": other}
    ctx = kb_context(tmp_path, {**kb, "people/owen.md": report})
    gate = Gate(ctx)

    def title_of(doc: str) -> Draft:
        return asked(next(f for f in ctx.facts if f.doc_id == doc and f.attribute.endswith("Title")))

    failure = gate._keys(title_of("people/dana.md"))
    assert failure is not None and failure[0] == "ambiguous_key" and "contracts/norfolk.md" in failure[1], failure
    location = asked(next(f for f in ctx.facts if f.attribute == "Location"))
    failure = gate._keys(location)  # any question naming her: which Dana Whitfield is meant?
    assert failure is not None and failure[0] == "ambiguous_key", failure
    ctx = kb_context(
        tmp_path / "alone", {"people/dana.md": employee, "contracts/fenwick.md": other, "people/owen.md": report}
    )
    assert Gate(ctx)._keys(title_of("people/dana.md")) is None  # no other page names her
    assert Gate(ctx)._keys(asked(next(f for f in ctx.facts if f.attribute == "Location"))) is None


def test_a_document_fact_is_not_its_headings_subject() -> None:
    from testgen.gate.names import document_owned

    assert document_owned("Effective Date", "Professional Development Policy", "Cendara University")
    assert not document_owned("Effective Date", "Professional Development Policy", "Professional Development Policy")
    assert not document_owned("Founded", "Professional Development Policy", "Cendara University")
    assert document_subject("Frequently Asked Questions") and document_subject("자주 묻는 질문")


def test_a_count_misses_a_place_written_another_way(ctx: GenContext) -> None:
    people = sorted(d for d in ctx.docs if d.startswith("people/"))
    titles = [f for f in ctx.facts if f.attribute == "Title"]
    draft = Draft(
        category="holistic",
        question="How many people have Head of Sales as their title?",
        reference_answer="1 person: Rosa Delgado.",
        keywords=["Rosa Delgado"],
        facts=titles,
        answer_spans=[],
        language="en",
        template="en.count",
        scope_docs=people,
        derived={"op": "count", "value": "Head of Sales", "count": 1, "names": ["Rosa Delgado"]},
    )
    # every person page gives a title, and "Head of Sales" is on Rosa Delgado's page only: the count stands
    # unless coverage fails (Tomas Novak's page says "Role"): 3 of 4 people pages have a Title fact
    assert aggregate_problem(draft, ctx) is None


def test_a_column_named_after_a_thing_is_not_a_property(tmp_path: Path) -> None:
    docs = {
        "models/prime.md": "# Prime Sedan\n\n## Prices\n\n| Fuel | Base | ZX |\n|---|---|---|\n"
        "| Petrol | 10.7 | 14.7 |\n| Diesel | 12.0 | 15.2 |\n",
        "models/variants.md": "# Variants\n\n| Variant | Seats | Airbags |\n|---|---|---|\n"
        "| Base | 5 seats | 2 airbags |\n| ZX | 5 seats | 6 airbags |\n",
    }
    ctx = kb_context(tmp_path, docs)
    gate = Gate(ctx)
    zx = next(f for f in ctx.facts if f.attribute == "ZX")
    draft = Draft(
        category="direct_fact",
        question="What is Petrol's ZX?",
        reference_answer="Petrol's ZX is 14.7.",
        keywords=["14.7"],
        facts=[zx],
        answer_spans=["14.7"],
        language="en",
        template="en.number",
    )
    failure = gate.check(draft)
    assert failure is not None and failure.reason == "pasted_label"


def test_a_question_word_inside_brackets_or_after_a_range_dash_is_rejected() -> None:
    assert question_problem("阿部正丰（生年不详－什么时候）是日本战国时代的武将？", "zh.sentence") is not None
    negative = fact("-2%", "含0.03%-2%的碳", value_type="percent", source="sentence")
    assert "range" in (incomplete_value(negative, "含0.03%-2%的碳") or "")


def test_a_policy_date_is_not_the_universitys_and_a_count_is_not_a_year() -> None:
    from testgen.gate.labels import count_label
    from testgen.gate.names import document_owned

    title = "Cendara University Professional Development Policy"
    assert document_owned("Effective Date", title, "Cendara University")
    assert not document_owned("Effective Date", title, "Professional Development Policy")
    assert count_label("Annual Employees") and count_label("직원 수") and not count_label("Founded")


def test_cjk_sentences_with_a_second_clause_or_debris_are_rejected() -> None:
    two_clauses = sentence("华硕于2009年9月推出笔记本电脑，售价299美元。", "2009年9月")
    assert "compound" in (standalone_problem(two_clauses, "zh") or "")
    debris = sentence("生命热线于2000年将英语名称改为「」。", "2000年")
    assert "debris" in (standalone_problem(debris, "zh") or "")
    assert question_problem("朱椿于洪武十一年什么时候正月初一受封蜀王？", "zh.sentence") is not None
    assert question_problem("建築家について、いつの市長選挙で当選しましたか？", "ja.sentence") is not None


# -- a label asked as a noun must name a property -----------------------------------------------------------------
@pytest.mark.parametrize(
    ("label", "language"),
    [
        ("battery", "en"),  # a part: "What is X's battery?"
        ("diesel", "en"),  # a variant column
        ("business class", "en"),
        ("long press (left earcup)", "en"),  # a row pasted with its parenthesis
        ("Poisons/Toxics Check-In baggage", "en"),
        ("sales & enrollment", "en"),
        ("loss of license", "en"),  # the head is "loss"
        ("Areas", "en"),  # "What are X's areas?": areas of what
        ("성인 성수기", "ko"),  # row × column: the fee is not named
        ("요청 후 견적 회신", "ko"),
        ("제품 설명", "ko"),  # a description, not a name (설명 ends in 명)
    ],
)
def test_labels_that_name_no_property_are_rejected(label: str, language: str) -> None:
    assert unnamed_property(label, language) is not None


@pytest.mark.parametrize(
    ("label", "language"),
    [
        ("battery capacity", "en"),
        ("SWIFT code", "en"),
        ("maintenance windows", "en"),  # plural head
        ("addresses", "en"),
        ("home institution", "en"),
        ("number of seats", "en"),  # the head before "of"
        ("Discount on treatment", "en"),  # the head before "on"
        ("성인 요금", "ko"),
        ("해외 일비", "ko"),
        ("자본금", "ko"),
        ("소비전력", "ko"),  # a property of a device, by its head 력
        ("최대 흡입력", "ko"),
        ("모델명", "ko"),  # a name, by its head 명
        ("소음", "ko"),
        ("환불 처리 기한", "ko"),
        ("所在地", "zh"),  # no list for the language: not judged
    ],
)
def test_labels_that_name_a_property_are_kept(label: str, language: str) -> None:
    assert unnamed_property(label, language) is None


def test_a_part_asked_as_what_is_fails_the_gate_but_a_verbal_form_does_not(tmp_path: Path) -> None:
    ctx = kb_context(tmp_path, {"products/fold.md": "# Fold 250\n\n- **Battery**: 250 Wh\n- **Price**: $1,299\n"})
    gate = Gate(ctx)
    battery = next(f for f in ctx.facts if f.attribute == "Battery")
    price = next(f for f in ctx.facts if f.attribute == "Price")

    def draft(f: FactNode, question: str, template: str) -> Draft:
        return Draft(
            category="numerical",
            question=question,
            reference_answer=f"Fold 250's {f.attribute.lower()} is {f.value}.",
            keywords=[f.value],
            facts=[f],
            answer_spans=[f.value],
            language="en",
            template=template,
        )

    failure = gate.check(draft(battery, "What is Fold 250's battery?", "en.number"))
    assert failure is not None and failure.reason == "pasted_label" and "battery" in failure.detail
    assert gate.check(draft(price, "How much is Fold 250's price?", "en.money")) is None
    assert gate.check(draft(battery, "How much battery does Fold 250 have?", "en.verbal.battery")) is None


# -- CJK questions whose date only describes a noun ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("question", "template"),
    [
        ("关于A，兴建于什么时候的堡垒街长老会教堂就是早期哥特式建筑的例证？", "zh.sentence"),
        ("关于A，中国中央电视台亦曾于什么时候下午14:25分首播？", "zh.sentence"),  # a time of day left beside it
        ("关于A，第三阶段数据集在什么时候春季发布？", "zh.sentence"),
        ("关于A，赛期由什么时候至12日？", "zh.sentence"),  # one end of a range
        ("关于A，他是什么时候欧洲国家杯12位主裁判之一？", "zh.sentence"),  # a copula, not an event
        ("关于A，多少钱(已经加价)最初以单层巴士行驶？", "zh.sentence"),
        ("关于A，什么时候推出的《And Thou Shalt Trust..？", "zh.sentence"),  # cut off in the source
        ("豊岡市について、過去最高気温はいつ観測した39.3℃ですか？", "ja.sentence"),  # a copula sentence
        ("日本共産党について、いつ投開票の第45回衆議院議員総選挙では候補を減らしましたか？", "ja.sentence"),
    ],
)
def test_cjk_dates_that_only_describe_a_noun_are_rejected(question: str, template: str) -> None:
    assert question_problem(question, template) is not None


@pytest.mark.parametrize(
    ("question", "template"),
    [
        ("关于康王路，会馆已于什么时候重新对公众开放？", "zh.sentence"),
        ("龙烟铁路是什么时候开工建设的？", "zh.sentence"),
        ("同君連合について、ホンタイジはいつモンゴル遠征を行いましたか？", "ja.sentence"),
    ],
)
def test_cjk_questions_about_the_sentences_own_event_are_kept(question: str, template: str) -> None:
    assert question_problem(question, template) is None


def test_a_count_of_one_in_a_sentence_is_not_asked() -> None:
    one = FactNode(
        fact_id="f",
        subject="S",
        attribute="",
        value="1个",
        value_type="number",
        number=1.0,
        unit="个",
        source="sentence",
        doc_id="d.md",
        chunk_id="c0",
        evidence="分裂能是1个电子跃迁所需的能量。",
        start=0,
        end=1,
    )
    assert standalone_problem(one, "zh") is not None
    three = one.model_copy(update={"value": "3个", "number": 3.0, "evidence": "大沙东站共设有3个出入口。"})
    assert standalone_problem(three, "zh") is None


def test_a_policy_date_under_a_heading_naming_the_policy_is_not_the_organisations(tmp_path: Path) -> None:
    # The page's title is the university; the heading under it names the policy the date belongs to.
    ctx = kb_context(
        tmp_path,
        {
            "uni/pd_policy.md": "# Cendra University\n\n## Staff Development Policy\n\n"
            "**Effective Date:** September 1, 2023\n\n**Approved by:** University Council\n",
        },
    )
    effective = next(f for f in ctx.facts if f.attribute == "Effective Date")
    draft = Draft(
        category="temporal",
        question=f"When does {effective.subject} take effect?",
        reference_answer=f"{effective.subject} takes effect on September 1, 2023.",
        keywords=["September 1, 2023"],
        facts=[effective],
        answer_spans=["September 1, 2023"],
        language="en",
        template="en.verbal.effective_date",
    )
    assert effective.subject == "Cendra University"
    failure = Gate(ctx).check(draft)
    assert failure is not None and failure.reason == "document_subject"


def test_a_date_label_with_a_bracketed_term_is_pasted() -> None:
    assert pasted_punctuation("transcript request deadline (Fall)") is not None
    assert pasted_punctuation("transcript request deadline") is None
    assert pasted_punctuation("세금계산서 월말 발행, 메일") is not None  # two cells joined by a comma


def test_a_chinese_date_right_after_a_verb_or_an_approximation_left_behind_is_rejected() -> None:
    assert question_problem("关于A，米捷图执法什么时候欧洲国家杯外围赛时曾惹起争议？", "zh.sentence") is not None
    assert question_problem("关于A，每一个亚基都含有多少个左右氨基酸？", "zh.sentence") is not None
    assert question_problem("关于A，什么时候恢复原名？", "zh.sentence") is None
    assert question_problem("关于A，全线设多少个车站？", "zh.sentence") is None


def test_a_bare_year_or_date_is_not_compared() -> None:
    assert bare_label("Year") and bare_label("date") and bare_label("연도")
    assert not bare_label("Year initiated") and not bare_label("Launch Date")


def test_a_careers_page_is_a_document_not_the_company() -> None:
    assert document_subject("Careers at Aventro Motors")
    assert not document_subject("Career Services Center")


def test_a_definite_noun_for_something_named_earlier_is_a_back_reference() -> None:
    assert question_problem("Since when has the virus been re-emerging in Europe?", "en.sentence.perfect")
    assert question_problem("When did Remedy release an update to the game?", "en.sentence.active")
    assert question_problem("When did the company Nokia launch the 3310?", "en.sentence.active") is None
    assert question_problem("When was the Tacoma plant closed?", "en.sentence.passive") is None


def test_a_chinese_sentence_opening_with_an_adverb_has_its_subject_elsewhere() -> None:
    sentence = "已于2008年6月9日在西昌卫星发射中心发射升空。"
    assert standalone_problem(fact("2008年6月9日", sentence, value_type="date", source="sentence"), "zh")


def test_a_value_with_a_footnote_mark_is_incomplete() -> None:
    limit = fact("₹1,00,000*", "| Per Transaction | ₹1,00,000* |", attribute="Limit")
    assert incomplete_value(limit, "The limit is ₹1,00,000*.") is not None
    plain = fact("₹1,00,000", "| Per Transaction | ₹1,00,000 |", attribute="Limit")
    assert incomplete_value(plain, "The limit is ₹1,00,000.") is None


def test_a_telephone_extension_alone_is_incomplete() -> None:
    extension = fact("ext. 102", "| Erin Caldwell | Office Manager | ext. 102 |", attribute="Phone")
    assert incomplete_value(extension, "Erin Caldwell's phone number is ext. 102.") is not None
    line = fact("(970) 555-0182 ext. 102", "| Erin Caldwell | (970) 555-0182 ext. 102 |", attribute="Phone")
    assert incomplete_value(line, "Erin Caldwell's phone number is (970) 555-0182 ext. 102.") is None


def test_a_cjk_question_with_a_pasted_colon_clause_is_rejected() -> None:
    assert question_problem("关于A，比赛规则如下：什么时候开始报名？", "zh.sentence") is not None


def test_a_page_listing_options_is_a_document() -> None:
    assert document_subject("Loan Options for Aventro Motors Vehicles")
    assert document_subject("ZX Bank Credit Card Options")


def test_a_purpose_or_condition_is_no_value_to_ask_what_is() -> None:
    assert descriptive_value("For priority servicing") is not None
    assert descriptive_value("Fortnightly") is None
    # steps of a procedure joined with "+", not ingredients or a list of duties
    assert descriptive_value("비상등 + 삼각대(주간 100m, 야간 200m 후방), 승객 가드레일 밖 대피") is not None
    assert descriptive_value("국산 팥앙금 + 프랑스 버터") is None
    assert descriptive_value("상담 예약, 수수료 청구·수납, 서류 접수") is None
    # a condition ("… 관측 시": when it is observed) asked as "what is the rule's 강수?"
    assert descriptive_value("비·눈·진눈깨비 관측 시") is not None
    assert descriptive_value("일시") is None and descriptive_value("평일 오후 2시") is None
    # an address and another labelled contact pasted into one cell
    assert descriptive_value("info@kkumteul.example / 카카오톡 채널: '꿈틀로봇'") is not None
    assert descriptive_value("월~금 09:00~18:00 / 토 09:00~13:00") is None


def test_a_common_word_as_subject_is_a_table_row_not_a_name(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "campus/map.md": "# Campus Map\n\n| Area | Notable locations |\n|---|---|\n| Parking | Lot A |\n"
            "| Nepal House | Block C |\n\nVisitor parking is free after 6 pm; see www.example.edu/nepal.\n",
        },
    )
    gate = Gate(ctx)
    assert gate._common_word("Parking")  # "parking" is written in lower case in running text
    assert not gate._common_word("Nepal")  # only inside a web address
    assert not gate._common_word("Nepal House")  # two words: a name


def test_a_korean_date_that_only_describes_a_noun_is_not_asked() -> None:
    relative = "제주 힐링 3박 4일은 언제 체결한 한빛호텔 객실 공급 계약으로 성수기 객실 부족 문제가 해결되었나요?"
    assert question_problem(relative, "ko.sentence") is not None
    assert question_problem("대구 지점은 언제 문을 열었나요?", "ko.sentence") is None


def test_a_row_that_tables_on_several_pages_share_is_asked_only_with_its_page(tmp_path: Path) -> None:
    aircraft = {
        f"fleet/{name.lower()}.md": f"# {name}\n\n| Cabin | No. of Seats |\n|---|---|\n| CloudSaver | {seats} |\n"
        f"| CloudLux | {seats // 20} |\n"
        for name, seats in (("Jet A350", 238), ("Jet A380", 420), ("Jet B787", 210), ("Jet B777", 300))
    }
    branches = {
        "company/branches.md": "# Branches\n\n| Branch | Opened |\n|---|---|\n| Daegu Branch | April 2, 2018 |\n",
        "people/bae.md": "# Bae Su-hyeon\n\nBae Su-hyeon has led the Daegu Branch since 2018.\n",
        "news/2018.md": "# News 2018\n\nThe Daegu Branch opened its doors in April.\n",
        "news/2019.md": "# News 2019\n\nThe Daegu Branch hired two more agents.\n",
    }
    ctx = kb_context(tmp_path, {**aircraft, **branches})
    gate = Gate(ctx)
    seats = next(f for f in ctx.facts if f.subject == "CloudSaver" and f.doc_id == "fleet/jet b787.md")
    assert gate._shared_row(seats, "How many seats does CloudSaver have?")
    assert not gate._shared_row(seats, "How many CloudSaver seats does the Jet B787 have?")  # the page is named
    opened = next(f for f in ctx.facts if f.subject == "Daegu Branch")
    assert not gate._shared_row(opened, "When did Daegu Branch open?")  # other pages only mention it in prose


def test_a_quantifier_column_and_a_company_with_a_width_are_rejected() -> None:
    assert pasted_label("All models") is not None and pasted_label("Models") is None
    assert organisation_measure("Width", "Aventro Motors Pvt. Ltd.", "Aventro Motors")
    assert not organisation_measure("Width", "Aventro Edge Sedan", "Aventro Edge Sedan")  # a car has a width
    assert not organisation_measure("Headquarters", "Aventro Motors Pvt. Ltd.", "Aventro Motors")


def test_a_count_whose_member_also_holds_a_longer_title_is_ambiguous(tmp_path: Path) -> None:
    def person(name: str, title: str, history: str = "") -> str:
        return f"# {name}\n\n- **Job Title:** {title}\n- **Location:** Leeds\n\n## History\n\n{history}\n"

    people = {
        "people/ada_moss.md": person("Ada Moss", "Field Analyst", "- **May 2021:** Promoted to Lead Field Analyst."),
        "people/ben_hale.md": person("Ben Hale", "Field Analyst"),
        "people/cy_orr.md": person("Cy Orr", "Buyer"),
        "people/di_park.md": person("Di Park", "Buyer (Retail)"),
        "people/ed_lim.md": person("Ed Lim", "Buyer (Retail)"),
    }
    ctx = kb_context(tmp_path, people)
    titles = [f for f in ctx.facts if f.attribute == "Job Title"]

    def count(value: str, names: list[str]) -> Draft:
        return Draft(
            category="holistic",
            question=f"How many people hold the title {value}?",
            reference_answer=f"{len(names)} people: {' and '.join(names)}.",
            keywords=names,
            facts=titles,
            answer_spans=[],
            language="en",
            template="en.count",
            scope_docs=sorted(people),
            derived={"op": "count", "value": value, "count": len(names), "names": names},
        )

    # Ada Moss's page also calls her "Lead Field Analyst": whether she counts depends on the line read
    assert "Lead Field Analyst" in (aggregate_problem(count("Field Analyst", ["Ada Moss", "Ben Hale"]), ctx) or "")
    # Cy Orr is a "Buyer" without the parenthesis: a page the count of "Buyer (Retail)" leaves out
    assert "not counted" in (aggregate_problem(count("Buyer (Retail)", ["Di Park", "Ed Lim"]), ctx) or "")
    # the good case: every page of the kind read, no longer title anywhere
    ctx_plain = kb_context(tmp_path / "plain", {**people, "people/ada_moss.md": person("Ada Moss", "Field Analyst")})
    titles[:] = [f for f in ctx_plain.facts if f.attribute == "Job Title"]
    assert aggregate_problem(count("Field Analyst", ["Ada Moss", "Ben Hale"]), ctx_plain) is None


def test_a_sign_or_footnote_the_value_lost_is_incomplete() -> None:
    wait = fact(
        "30 minutes", "- Average wait time: **<30 minutes**", attribute="Average wait time", value_type="number"
    )
    assert "'<'" in (incomplete_value(wait, "The average wait time is 30 minutes.") or "")
    height = fact("1810mm", "- **Height**: ~1810mm", attribute="Height", value_type="text")
    assert "'~'" in (incomplete_value(height, "The height is 1810mm.") or "")
    assert incomplete_value(height, "The height is ~1810mm.") is None  # the answer keeps the sign
    rate = fact("Starting from 8.25% p.a.*", "- Rates: Starting from 8.25% p.a.*", attribute="Rates", value_type="text")
    assert incomplete_value(rate, "x") is not None
    response = fact(
        "24 hours", "- Response: 24 hours for standard inquiries, 4 hours for critical ones", value_type="number"
    )
    assert "after the value" in (incomplete_value(response, "It is 24 hours.") or "")
    plain = fact("1810mm", "- **Height**: 1810mm", attribute="Height", value_type="text")
    assert incomplete_value(plain, "The height is 1810mm.") is None


def test_plan_columns_and_selling_words_are_no_properties() -> None:
    for label in (
        "Standard",
        "Standard Warranty",
        "Premium Support",
        "Attractive Interest Rates",
        "Notable Locations",
        "Sydney (SYD) Aircraft Type",
    ):
        assert pasted_label(label) is not None, label
    for label in ("Basic Plan", "Enterprise Tier", "Warranty", "Interest Rate", "Main Campus", "Fee (USD)"):
        assert pasted_label(label) is None, label


def test_a_phrase_of_common_words_is_no_name_unless_it_names_a_document(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "support/service.md": "# Warranty & Service\n\n- **Service window**: 10 AM–6 PM\n\nEvery battery "
            "replacement is free under warranty; the service desk also handles each discount policy request.\n",
            "policies/discount.md": "# Fleet Discount Policy\n\n- **Owner**: Rosa Delgado\n\nA fleet of ten earns the "
            "discount.\n",
        },
    )
    gate = Gate(ctx)
    assert gate._common_word("Warranty & Service")  # a topic page, not a thing
    assert gate._common_word("Battery Replacement")  # a table row
    assert not gate._common_word("Fleet Discount Policy")  # a document's name
    assert not gate._common_word("Rosa Delgado")


def test_a_contact_printed_on_many_pages_is_boilerplate_and_a_pages_own_is_not(tmp_path: Path) -> None:
    footer = "\n\nContact: +91 124 1234567 | hello@veloce.example\n"
    ctx = kb_context(
        tmp_path,
        {
            **{
                f"cars/{n}.md": f"# Veloce {n.title()}\n\n- **Phone**: +91 124 1234567{footer}"
                for n in ("aero", "edge")
            },
            "about.md": f"# About Veloce\n\nWe build cars.{footer}",
            "desks/clinic.md": "# Campus Clinic\n\n- **Phone**: +1 617 555 0100\n",
        },
    )
    gate = Gate(ctx)

    def ask(doc: str) -> Draft:
        return asked(next(f for f in ctx.facts if f.doc_id == doc and f.attribute == "Phone"))

    assert (gate._boilerplate(ask("cars/aero.md")) or ("",))[0] == "boilerplate_value"
    assert gate._boilerplate(ask("desks/clinic.md")) is None


def test_an_eligibility_requirement_is_not_the_products_property(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "loans/bike.md": "# Bike Loan\n\n## Eligibility\n\n- **Age**: 21–65 years\n\n## Features\n\n"
            "- **Tenure**: up to 48 months\n- **Processing Fee**: 2%\n",
        },
    )
    gate = Gate(ctx)

    def draft_of(attribute: str) -> Draft:
        return asked(next(f for f in ctx.facts if f.attribute == attribute), "numerical")

    assert "requirement" in ((gate._labels(draft_of("Age")) or ("", ""))[1] or "")
    assert gate._labels(draft_of("Processing Fee")) is None


def test_chinese_leftovers_of_the_source_sentence() -> None:
    assert question_problem("关于研究院，下设多少个研究所和一个工厂？", "zh.sentence") is not None
    assert question_problem("关于国旗，国旗一直沿用到什么时候苏联解体？", "zh.sentence") is not None
    assert question_problem("关于国旗，国旗一直沿用到什么时候为止？", "zh.sentence") is None
    two_events = sentence("2007年9月胡天衡结束驻广州回港后即主持夜间新闻。", "2007年9月")
    assert "two events" in (standalone_problem(two_events, "zh") or "")
    chapter = sentence("87回提及王连反对诸葛亮南征。", "87回", value_type="number")
    assert "ordinal" in (standalone_problem(chapter, "zh") or "")
    assert standalone_problem(sentence("该馆于2005年1月18日重新对公众开放。", "2005年1月18日"), "zh") != (
        "two events in one sentence ('回港后即主持…': which one is dated?)"
    )


def test_a_bound_is_not_the_time_something_happened() -> None:
    bound = sentence("By February 2020, several countries were reporting imported cases.", "February 2020")
    assert "bound" in (standalone_problem(bound, "en") or "")
    point = sentence("In February 2020, the first imported case was reported in Nepal.", "February 2020")
    assert standalone_problem(point, "en") is None
    # the year a quantity was counted over: "When was the Garden Room booked?" has no one answer
    period = sentence("The Garden Room was booked for 163 hours in 2024.", "2024")
    assert "period of a quantity" in (standalone_problem(period, "en") or "")
    opened = sentence("The Garden Room was opened by the mayor in 2024.", "2024")
    assert standalone_problem(opened, "en") is None


def test_a_korean_sentence_about_the_company_unnamed_needs_its_context() -> None:
    bare = sentence("창업 초기에 회사는 주로 주말 버스 여행을 팔았다.", "창업 초기")
    assert "kind noun" in (standalone_problem(bare, "ko") or "")
    named = sentence("하늘여행은 2008년 3월 15일 인사동에서 설립되었다.", "2008년 3월 15일")
    assert standalone_problem(named, "ko") is None


def test_an_english_sentence_about_the_authority_unnamed_needs_its_context() -> None:
    bare = sentence("The Authority was founded in 1961 to build a treatment plant on Brackett Creek.", "1961")
    assert "kind noun" in (standalone_problem(bare, "en") or "")
    named = sentence("The Board of Directors adopted the new rates on May 14, 2025.", "May 14, 2025")
    assert standalone_problem(named, "en") is None  # "the Board of …" names whose board


def test_a_desk_whose_value_is_its_contact_is_no_property(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "contact.md": "# Contact\n\n- **International Student Office**: (781) 555-1090\n"
            "- **Phone**: (781) 555-1000\n"
        },
    )
    gate = Gate(ctx)

    def ask(attribute: str) -> Draft:
        return asked(next(f for f in ctx.facts if f.attribute == attribute))

    assert (gate._labels(ask("International Student Office")) or ("",))[0] == "pasted_label"
    assert gate._labels(ask("Phone")) is None


def test_topic_titles_names_in_labels_and_yes_no_cells(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "uni/accreditation.md": "# Vantor University Accreditation status\n\n- **Registration Number**: EDU-1\n\n"
            "Each programme's accreditation status is reviewed; the support desk gives assistance with special "
            "requests and services.\n",
            "uni/exchange.md": "# Vantor University Exchanges\n\n| Institution | Vantor Host Department |\n|---|---|\n"
            "| Kestrel Institute | Physics |\n",
            "air/assist.md": "# Special Assistance at Skyline 7\n\n- **Website**: skyline7.example/help\n",
            "homes/aspen.md": "# Aspen Apartments\n\n- **Capacity**: 200\n\nThe apartments are new.\n",
            "util/rates.md": "# Water & Sewer Rates and Fees\n\n- **Late fee**: $10\n\n"
            "Our water and sewer rates are set by the board.\n",
            "solar/warranty.md": "# Warranty Terms | Sunridge\n\nEvery warranty is registered for you.\n",
        },
    )
    gate = Gate(ctx)
    assert gate._topic_title("Vantor University Accreditation status")
    assert gate._topic_title("Special Assistance at Skyline 7")
    # a price list: whose rates, it does not say ("Fees" is a topic noun even where the text never writes "fees")
    assert gate._topic_title("Water & Sewer Rates and Fees")
    assert gate._topic_title("Water & Sewer Rates 2024/25")  # the year a price list is for names no thing
    assert gate._topic_title("Warranty Terms")  # the terms are a page, not a thing with coverage
    assert not gate._topic_title("Aspen Apartments")  # a place, named with one common word
    assert not gate._topic_title("Master of Business Administration")
    host = next(f for f in ctx.facts if "Host" in f.attribute)
    assert "'Vantor' in the label" in ((gate._labels(asked(host)) or ("", ""))[1] or "")
    assert descriptive_value("No (UFS 4.0 internal)") is not None
    assert descriptive_value("Nordic Blue") is None


def test_a_desks_contact_on_a_document_page_is_not_the_organisations(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "jobs.md": "# Careers at Vantor University\n\n- **Email**: jobs@vantor.example\n",
            "about.md": "# Vantor University\n\n- **Email**: hello@vantor.example\n",
        },
    )
    gate = Gate(ctx)

    def ask(doc: str) -> Draft:
        return asked(next(f for f in ctx.facts if f.doc_id == doc))

    assert (gate._boilerplate(ask("jobs.md")) or ("",))[0] == "boilerplate_value"
    assert gate._boilerplate(ask("about.md")) is None


def test_a_chinese_question_opening_with_when_goes_on_with_a_verb() -> None:
    assert question_problem("关于曾炯，什么时候获博士学位？", "zh.sentence") is None
    assert question_problem("关于石山麟，什么时候福布斯富豪榜排名第51？", "zh.sentence") is not None
    assert question_problem("关于世宗大学，什么时候学校升格为师范大学？", "zh.sentence") is not None
    later = sentence("美国空军于2015年5月3日确认飞船失联后将坠入大气层。", "2015年5月3日")
    assert "two events" in (standalone_problem(later, "zh") or "")


def test_a_long_korean_sentence_is_not_asked() -> None:
    long = sentence(
        "대표이사와 공동창업자가 직원 6명과 함께 작은 사무실에서 "
        "국내 버스 여행 상품을 팔기 시작한 것이 회사의 출발점이었다.",
        "6명",
        value_type="number",
    )
    assert standalone_problem(long, "ko") == "too long to ask as one question"


def test_a_value_the_next_sentence_changes_is_not_asked() -> None:
    reward = sentence("云南省公安厅悬红10万元人民币缉凶。", "10万元", value_type="money")
    assert changed_later(reward, "2008年7月23日，悬红赏金增至30万元。", "zh")
    assert not changed_later(reward, "案件于同年告破。", "zh")
    fee = sentence("The annual fee was $40 in 2019.", "$40", value_type="money")
    assert changed_later(fee, " In 2021 it was raised to $55. It has not changed since.", "en")
    assert not changed_later(fee, " It was raised to cover printing.", "en")  # no amount: not the same value


def test_a_value_changed_in_the_next_sentence_is_rejected_by_the_gate(tmp_path: Path) -> None:
    kb = {
        "events/fair.md": "# Harbour Fair\n\nThe Harbour Fair opening was set for March 3, 2008 by the city council. "
        "The opening was moved to May 5, 2008 after the storm.\n",
    }
    ctx = kb_context(tmp_path, kb)
    opening = next(f for f in ctx.facts if f.value == "March 3, 2008")
    draft = Draft(
        category="temporal",
        question="When was the Harbour Fair opening set by the city council?",
        reference_answer="March 3, 2008.",
        keywords=["March 3, 2008"],
        facts=[opening],
        answer_spans=["March 3, 2008"],
        language="en",
        template="en.sentence.passive",
    )
    failure = Gate(ctx)._sentences(draft)
    assert failure is not None and failure[0] == "ambiguous_key", failure


def test_a_chinese_sentence_about_a_bare_kind_noun_or_a_later_step_is_not_standalone() -> None:
    hall = sentence("会馆于2005年1月18日重新对公众开放。", "2005年1月18日")
    assert "bare kind" in (standalone_problem(hall, "zh") or "")
    named = sentence("锦纶会馆于2005年1月18日重新对公众开放。", "2005年1月18日")
    assert standalone_problem(named, "zh") is None
    later = sentence("新时代传媒集团后于1996年向委员会申请建立一座FM站台。", "1996年")
    assert "two events" in (standalone_problem(later, "zh") or "")


def test_a_fact_under_a_subtitle_topic_is_not_the_organisations(tmp_path: Path) -> None:
    body = (
        "Open a savings account in minutes. The savings account pays monthly interest.\n\n"
        "## Savings Account Features\n\n- **Non-maintenance fee**: $5/month\n"
    )
    kb = {
        "bank/savings.md": "# Harbor Bank Ltd. – Savings Account Overview\n\n" + body,
        "bank/about.md": "# Harbor Bank Ltd. – About Us\n\n- **Founded**: 1998\n\nHarbor Bank serves ports.\n",
    }
    ctx = kb_context(tmp_path, kb)
    gate = Gate(ctx)
    fee = next(f for f in ctx.facts if f.attribute == "Non-maintenance fee")
    failure = gate._names(asked(fee, "numerical"))
    assert fee.subject.startswith("Harbor Bank")  # mined as the bank's: the page is about its savings account
    assert failure is not None and failure[0] == "document_subject" and "Savings Account" in failure[1]
    founded = next(f for f in ctx.facts if f.attribute == "Founded")
    assert gate._names(asked(founded, "temporal")) is None  # "About Us" names no topic: the bank's own page


def test_an_estimate_quoted_as_an_input_of_a_difference_is_incomplete() -> None:
    grand = fact("4850mm", "- Length: ~4850mm", attribute="Length", subject="Grand SUV", value_type="number")
    edge = fact("4,650 mm", "- Length: 4,650 mm", attribute="Length", subject="Edge Sedan", value_type="number")
    draft = Draft(
        category="numerical",
        question="How much longer is Grand SUV than Edge Sedan?",
        reference_answer="Grand SUV (4850mm) is 200 mm longer than Edge Sedan (4,650 mm).",
        keywords=["4850mm", "4,650 mm"],
        facts=[grand, edge],
        answer_spans=["200 mm"],
        language="en",
        template="en.arithmetic.difference",
    )
    failure = Gate._values(draft)
    assert failure is not None and failure[0] == "incomplete_value" and "~" in failure[1]
    exact = grand.model_copy(update={"evidence": "- Length: 4850mm"})
    draft.facts = [exact, edge]
    assert Gate._values(draft) is None


def test_a_table_rows_value_given_to_the_page_is_not_asked_as_the_pages() -> None:
    row = "| Career Services | (781) 555-1100 | careers@cendara.edu | Oliver Center |"
    email = fact("careers@cendara.edu", row, attribute="Email", subject="Cendara University", value_type="text")
    assert _row_label(email.model_copy(update={"source": "table"})) == "Career Services"
    own = fact("careers@cendara.edu", row, attribute="Email", subject="Career Services", value_type="text")
    assert _row_label(own.model_copy(update={"source": "table"})) is None
    yearly = fact("$27.4 million", "| 2023 | $27.4 million | 148 |", attribute="Revenue", subject="Aurora Bikes")
    assert _row_label(yearly.model_copy(update={"source": "table"})) is None  # the row is a year
    folded = fact("$0.40", "| Personal car mileage | $0.40 |", attribute="Personal car mileage Limit", subject="P")
    assert _row_label(folded.model_copy(update={"source": "table"})) is None  # the row is in the attribute
    # a first column that only groups rows: the row is the item in the second, folded into the attribute
    grouped = fact("20,000", "| 제증명 | 일반진단서 | 20,000 |", attribute="일반진단서 금액", subject="가온병원")
    assert _row_label(grouped.model_copy(update={"source": "table"})) is None
    other = fact("20,000", "| 제증명 | 일반진단서 | 20,000 |", attribute="금액", subject="가온병원")
    assert _row_label(other.model_copy(update={"source": "table"})) == "제증명"


def test_a_chinese_question_missing_its_object_or_fusing_a_statement_is_rejected() -> None:
    assert question_problem("关于华硕Eee系列，华硕表示计划在什么时候推出？", "zh.sentence")
    assert question_problem("伊维菌素于什么时候被引入？", "zh.sentence") is None  # passive: the subject is the object
    assert question_problem("阿贝歇是乍得最热的城市一年中有多少天气温超过32摄氏度？", "zh.sentence")
    assert question_problem("关于阿贝歇，一年中有多少天气温超过32摄氏度？", "zh.sentence") is None


def test_a_variants_column_and_a_range_label_name_no_property() -> None:
    row = "| USB-C & Display | Connect displays | Pad Pro models |"
    models = fact("Pad Pro models", row, attribute="Models", subject="USB-C & Display", value_type="text")
    assert label_for_value(models.model_copy(update={"source": "table"}))
    fee = fact("$5,400 – $6,800", "| Traditional Double | $5,400 – $6,800 |", attribute="Annual Range")
    assert label_for_value(fee.model_copy(update={"source": "table"}))
    reach = fact("400 – 450 km", "| Aero EV | 400 – 450 km |", attribute="Driving Range", value_type="number")
    assert label_for_value(reach.model_copy(update={"source": "table"})) is None
    model = fact("X1", "- Model: X1", attribute="Model", subject="Velvera One", value_type="text")
    assert label_for_value(model) is None  # a key-value line naming its own model
    # a name that repeats the subject asks nothing: "서하동 주민센터의 명칭은 무엇인가요?"
    named = "서하동 주민센터 자치회관 (운영: 서하동 주민자치위원회)"
    circular = fact(named, f"- 명칭: {named}", attribute="명칭", subject="서하동 주민센터", value_type="text")
    assert label_for_value(circular)
    other = fact("늘봄홀", "- 명칭: 늘봄홀", attribute="명칭", subject="서하동 주민센터 강당", value_type="text")
    assert label_for_value(other) is None


def test_an_event_the_page_dates_twice_is_ambiguous(tmp_path: Path) -> None:
    page = (
        "# Ana Ruiz\n\n## Career\n\n- **March 2018:** Joined as Frontend Engineer\n"
        "- **August 2019:** Promoted to Senior Frontend Engineer due to the portal redesign.\n"
        "- **May 2022:** Promoted to Staff Engineer\n\n## Compensation\n\n"
        "- **June 2019:** Salary Increase - $95,000 (Promotion to Senior Engineer)\n"
    )
    ctx = kb_context(tmp_path, {"people/ana.md": page, "people/ben.md": "# Ben Ode\n\n- **Title**: Designer\n"})
    gate = Gate(ctx)
    senior = next(f for f in ctx.facts if f.value == "August 2019")
    assert "June 2019" in (gate._dated_again(senior) or "")
    staff = next(f for f in ctx.facts if f.value == "May 2022")
    assert gate._dated_again(staff) is None  # another promotion, not the same event


def test_a_product_of_labels_and_an_open_period_row_are_pasted(ctx: GenContext) -> None:
    assert pasted_punctuation("Length x Width x Height")
    assert pasted_punctuation("Wheelbase") is None
    assert pasted_punctuation("한자·영문명")  # two labels asked as one
    assert pasted_punctuation("영문명") is None
    roadmap = fact(
        "Industry Leadership", "| 2028+ | Industry Leadership |", attribute="Priority Area", qualifier="2028+"
    )
    failure = Gate(ctx)._labels(asked(roadmap.model_copy(update={"source": "table"})))
    assert failure is not None and failure[0] == "pasted_label" and "open period" in failure[1]


def test_a_sentence_question_that_names_nothing_is_rejected(tmp_path: Path) -> None:
    ctx = kb_context(tmp_path, {"tours/kyoto.md": "# 교토 미식 투어\n\n교토 미식 투어는 2015년 4월에 출시되었다.\n"})
    gate = Gate(ctx)
    launched = next(f for f in ctx.facts if f.source == "sentence")

    def asking(question: str) -> Draft:
        return Draft(
            category="temporal",
            question=question,
            reference_answer="2015년 4월",
            keywords=["2015년 4월"],
            facts=[launched],
            answer_spans=["2015년 4월"],
            language="ko",
            template="ko.sentence",
        )

    assert gate._sentences(asking("교토 미식 투어는 언제 출시되었나요?")) is None
    failure = gate._sentences(asking("일반 판매분만 보면 언제 이용객이 늘었나요?"))
    assert failure is not None and failure[0] == "sentence_not_standalone", failure
    assert not gate._names_a_thing("When was the old bridge closed to traffic?", launched)  # which bridge?
    assert gate._names_a_thing("When was the Harwick Bridge closed to traffic?", launched)
    trials = launched.model_copy(update={"evidence": "Live vaccine trials were carried out in 2000."})
    assert not gate._names_a_thing("When were Live vaccine trials carried out?", trials)  # "Live" began the sentence


def test_a_price_its_page_gives_by_season_is_ambiguous(tmp_path: Path) -> None:
    page = (
        "# Fjord Cruise\n\n- **Price**: $1,290\n- **Duration**: 4 days\n\n## Fares\n\n"
        "| Fare | Low season | High season |\n|---|---|---|\n| Adult | $1,290 | $1,490 |\n| Child | $1,090 | $1,250 |\n"
    )
    plain = "# Glacier Walk\n\n- **Price**: $90\n\n## Years\n\n| Year | Price | Tips |\n|---|---|---|\n"
    plain += "| 2021 | $90 | $15 |\n"
    ctx = kb_context(tmp_path, {"tours/fjord.md": page, "tours/glacier.md": plain})
    gate = Gate(ctx)

    def price_of(doc: str) -> Draft:
        return asked(
            next(f for f in ctx.facts if f.doc_id == doc and f.attribute == "Price" and f.source == "key_value")
        )

    failure = gate._keys(price_of("tours/fjord.md"))
    assert failure is not None and failure[0] == "ambiguous_key" and "$1,490" in failure[1], failure
    assert gate._keys(price_of("tours/glacier.md")) is None  # a year's row is a qualified value, not a variant


def test_a_partner_tables_column_is_the_partnerships_not_the_partners(tmp_path: Path) -> None:
    page = (
        "# Exchange Programs\n\n## Partners\n\n| Partner Institution | Country | Key Areas |\n|---|---|---|\n"
        "| Lindqvist Institute | Sweden | Marine Biology |\n| Corvo Polytechnic | Portugal | Robotics |\n"
    )
    rates = "# Loans\n\n| Customer Category | Interest Rate |\n|---|---|\n| Salaried | 11.75% |\n| Retired | 9.5% |\n"
    ctx = kb_context(tmp_path, {"exchange.md": page, "loans.md": rates})
    gate = Gate(ctx)

    def of(attribute: str, subject: str) -> Draft:
        return asked(next(f for f in ctx.facts if f.attribute == attribute and f.subject == subject))

    failure = gate._names(of("Key Areas", "Lindqvist Institute"))
    assert failure is not None and failure[0] == "document_subject" and "partnership" in failure[1], failure
    assert gate._names(of("Country", "Lindqvist Institute")) is None  # where a partner is is its own
    assert not gate._of_the_partnership(next(f for f in ctx.facts if f.value == "11.75%"))  # a customer segment


def test_one_office_placed_in_two_buildings_under_two_labels_is_ambiguous(tmp_path: Path) -> None:
    table = "| Office | Phone | {} |\n|---|---|---|\n| Bursar's Office | 555-0101 | {} |\n"
    contacts = "# Contacts\n\n" + table.format("Office Location", "Hale Hall")
    enrolment = "# Enrolment\n\n" + table.format("Location", "Kent Hall")
    ctx = kb_context(tmp_path, {"contacts.md": contacts, "enrolment.md": enrolment})
    keys = KeyIndex(ctx.facts)
    located = next(f for f in ctx.facts if f.attribute == "Office Location")
    assert keys.ambiguous(located, "Where is Bursar's Office located?")
    start = fact("May 1", "- **Start Date**: May 1", attribute="Start Date", value_type="date")
    end = fact("June 9", "- **End Date**: June 9", attribute="End Date", value_type="date")
    assert not KeyIndex([start, end]).ambiguous(start, "When does it start?")  # other heads stay apart


@pytest.mark.parametrize(
    ("evidence", "plain"),
    [
        (
            "Released by WHO on 17 January 2020 [27] , and reporting grew.",
            "Released by WHO on 17 January 2020, and reporting grew.",
        ),
        ("Found in sewage in 2017 (Mitch, 2017) .", "Found in sewage in 2017."),
        ("Shown in mice (Smith et al., 2019; Jones, 2020).", "Shown in mice."),
        ("Opened in 2001 [3, 5–7][citation needed].", "Opened in 2001."),
        ("龙烟铁路于2017年开通运营[1]。", "龙烟铁路于2017年开通运营。"),
        (
            "**Opened** in (March 2019) to the public.",
            "Opened in (March 2019) to the public.",
        ),  # a date, not a citation
        ("The 2019 plan [draft] stays.", "The 2019 plan [draft] stays."),
        ("The plan was wrapped\n   over two lines in 2019.", "The plan was wrapped over two lines in 2019."),
        ("研究所は\n東京にある。", "研究所は東京にある。"),  # Japanese and Chinese lines join with no space
    ],
)
def test_plain_sentence_leaves_out_inline_citations_only(evidence: str, plain: str) -> None:
    assert plain_sentence(evidence) == plain


def test_questions_that_say_what_things_cost_do_not_paste_the_price_column() -> None:
    from testgen.gate import _asks_label_as_noun

    assert _asks_label_as_noun("en.compare")  # "Which has the higher price (Lakh ₹): …" pastes the column
    assert not _asks_label_as_noun("en.compare.cost")  # "Which costs more: …"
    assert not _asks_label_as_noun("en.arith.difference.cost")  # "How much more does … cost than …"


def _built(root: Path, documents: dict[str, str]) -> GenerationResult:
    """The offline set of ten items over `documents` (relative path → text) written under `root`."""
    for rel, text in documents.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return build_testset(root, num=10, seed=1).result


PAGE_KIND_KB = {
    "wiki/team.md": (
        "# 팀 소개\n\n- **대표번호**: 02-6952-4400\n- **설립일**: 2014년 3월 17일\n- **임직원 수**: 186명\n"
    ),
    "wiki/offices.md": (
        "# Office Locations\n\n- **Opening hours**: Monday–Friday 08:00–17:30\n- **Parking**: 22 spaces\n"
    ),
    "reference/about.md": (
        "# About Northwind Solar\n\n- **Founded**: 12 March 2011\n- **Headquarters**: Leeds\n- **Employees**: 212\n"
    ),
}


def test_page_titles_are_no_subjects_and_introducing_words_are_left_out(tmp_path: Path) -> None:
    result = _built(tmp_path, PAGE_KIND_KB)
    questions = [item.question for item in result.items]
    assert not any("팀 소개" in q or "Office Locations" in q or "About Northwind" in q for q in questions), questions
    assert any("Northwind Solar" in q for q in questions), questions  # "About Northwind Solar" asks of the company
    assert result.rejected[("direct_fact", "document_subject")] > 0  # dropped and counted, not silently lost


KOREAN_TABLES_KB = {
    "학사/exchange.md": (
        "# 2026학년도 2학기 교환학생 파견 모집\n\n| 국가 | 대학 | 인원 | 수업 언어 |\n|---|---|---|---|\n"
        "| 미국 | 미드웨이 주립대학교 | 3명 | 영어 |\n| 핀란드 | 라우타란타 공과대학 | 1명 | 영어 |\n"
    ),
    "제품/warranty.md": (
        "# 보증 및 A/S 정책\n\n- **전화**: 고객센터 1644-7302\n- **무상 보증 기간**: 구입일로부터 1년\n"
    ),
}


def test_korean_rows_after_a_long_title_and_contacts_of_a_policy_are_dropped(tmp_path: Path) -> None:
    result = _built(tmp_path, KOREAN_TABLES_KB)
    questions = [item.question for item in result.items]
    # "… 파견 모집 핀란드의 인원은 …" reads as one run of nouns; "미국의 인원은 …" says nothing of the exchange
    # (with or without 의 after the title: "… 파견 모집의 핀란드 인원은 …")
    assert not any("핀란드의" in q or "핀란드 인원" in q or q.startswith("미국의") for q in questions), questions
    assert not any("1644-7302" in item.reference_answer for item in result.items)  # the policy has no phone
    assert result.rejected[("direct_fact", "pasted_label")] + result.rejected[("numerical", "pasted_label")] > 0


def _one_fact(fact: FactNode, question: str, answer: str, language: str, category: str = "direct_fact") -> Draft:
    """A draft asking one fact, its value the keyword and the answer span."""
    return Draft(
        category=category,
        question=question,
        reference_answer=answer,
        keywords=[fact.value],
        facts=[fact],
        answer_spans=[fact.value],
        language=language,
        template=f"{language}.what",
    )


@pytest.mark.parametrize(
    ("section", "failed"),
    [
        ("## 학과 사무실", True),
        ("## Admissions Office", True),
        ("## Head Office", False),
        ("## 찾아오는 곳", False),
        ("■ 관리동 / 매점", True),  # a plain-text section mark heads a building of the subject's
        ("## 위치", False),
        ("## 로봇공학과", False),
    ],
)
def test_a_location_under_a_rooms_heading_is_the_rooms(tmp_path: Path, section: str, failed: bool) -> None:
    ctx = kb_context(
        tmp_path,
        {"dept/robotics.md": f"# 로봇공학과\n\n- 전화: 043-730-2415\n\n{section}\n\n- 위치: 공학관 3층 305호\n"},
    )
    where = next(f for f in ctx.facts if f.attribute == "위치")
    draft = _one_fact(where, "로봇공학과는 어디에 있나요?", "로봇공학과는 공학관 3층 305호에 있습니다.", "ko")
    failure = Gate(ctx).check(draft)
    # the department office's room is not where the whole department is; a head office or a "how to find us"
    # section places the subject itself
    assert (failure is not None and failure.reason == "document_subject") == failed


def test_keywords_a_wrong_answer_holds_too_are_weak(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "staff/hale.md": "# Ana Hale\n\n- **Title**: Lecturer\n- **Capacity**: 3\n- **Room**: Hadley Hall 12\n",
            "staff/ross.md": "# Ben Ross\n\n- **Title**: Senior Lecturer\n- **Room**: Hadley Hall 120\n",
        },
    )
    gate = Gate(ctx)

    def checked(attribute: str, subject: str) -> GateFailure | None:
        found = next(f for f in ctx.facts if f.attribute == attribute and f.subject == subject)
        label = attribute.lower()
        return gate.check(
            _one_fact(found, f"What is {subject}'s {label}?", f"{subject}'s {label} is {found.value}.", "en")
        )

    lecturer = checked("Title", "Ana Hale")  # "Senior Lecturer" holds "Lecturer": a wrong answer covers it
    assert lecturer is not None and lecturer.reason == "weak_keyword"
    assert checked("Title", "Ben Ross") is None  # "Lecturer" does not hold "Senior Lecturer"
    courses = checked("Capacity", "Ana Hale")  # one digit is in nearly any answer
    assert courses is not None and courses.reason == "weak_keyword"
    assert checked("Room", "Ana Hale") is None  # "Hadley Hall 12" is not in "Hadley Hall 120", word by word


def test_a_keyword_inside_another_rows_value_of_the_same_column_is_weak(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {"dept/robotics.md": "# 로봇공학과\n\n| 이름 | 직위 |\n|---|---|\n| 오민재 | 교수 |\n| 정하린 | 부교수 |\n"},
    )
    rank = next(f for f in ctx.facts if f.value == "교수")
    draft = _one_fact(rank, "로봇공학과 오민재의 직위는 무엇인가요?", "로봇공학과 오민재의 직위는 교수입니다.", "ko")
    failure = Gate(ctx).check(draft)  # "부교수" holds "교수": a wrong answer covers the keyword
    assert failure is not None and failure.reason == "weak_keyword"


def test_a_korean_clause_or_one_character_as_a_keyword_is_weak(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "class/refunds.md": "# 보강·환불 규정\n\n| 항목 | 환불 기준 |\n|---|---|\n"
            "| 교재 | 이름을 쓰거나 사용한 뒤에는 환불 불가 |\n",
            "class/about.md": "# 꿈틀교실 안내\n\n- **개강일**: 2025년 3월 4일 화요일 오전\n"
            "- **주소**: 용인시 수지구 풍덕천로 12 301호\n- **자습실**: 월~금 / 토\n",
        },
    )
    gate = Gate(ctx)

    def reason(attribute: str, keywords: list[str] | None = None) -> str | None:
        found = next(f for f in ctx.facts if f.attribute == attribute)
        draft = _one_fact(found, f"{attribute}은 무엇인가요?", f"{found.value}입니다.", "ko")
        draft.keywords = keywords or draft.keywords
        failure = gate.check(draft)
        return None if failure is None else failure.reason

    # a rule's whole cell: a right answer words it its own way ("쓰거나 사용하면 환불되지 않습니다")
    assert reason("교재 환불 기준") == "weak_keyword"
    # a date and an address of four words or more are one string whichever way the answer is put
    assert reason("개강일") is None
    assert reason("주소") is None
    # "토" of "월~금 / 토" is in nearly any Korean answer
    hall = next(f for f in ctx.facts if f.attribute == "자습실")
    draft = _one_fact(hall, "자습실은 무슨 요일에 여나요?", "월~금 / 토입니다.", "ko")
    failure = gate._keywords(replace(draft, keywords=["월~금", "토"]))
    assert failure is not None and failure.reason == "weak_keyword"


def test_a_registers_column_glued_to_its_row_and_the_pages_owner_is_pasted(tmp_path: Path) -> None:
    table = (
        "| Item | Code | Sizes | Price |\n|---|---|---|---|\n| Arm warmers | AW-01 | S/M L/XL | £18.00 |\n"
        "| Cycling cap | VX-CAP | one size | £12.00 |\n"
    )
    ctx = kb_context(tmp_path, {"club/kit prices.md": f"# Kit prices 2025\n\n{table}"})
    gate = Gate(ctx)
    sizes = next(f for f in ctx.facts if f.value == "S/M L/XL")
    assert row_in_label(sizes) is not None  # the row glued to the column, of the page's owner
    failure = gate._labels(asked(sizes))
    assert failure is not None and failure[0] == "pasted_label" and "register" in failure[1], failure
    price = next(f for f in ctx.facts if f.value == "£18.00")
    assert gate._labels(asked(price)) is None  # "… arm warmers price" still asks what it costs


def test_a_rule_another_bodys_rule_is_titled_alike_is_asked_with_its_body(tmp_path: Path) -> None:
    kb = {
        "studio/예약 및 환불 규정(최종).md": "# 예약 및 환불 규정\n\n- 시행일: 2024년 3월 1일\n"
        "- 환불 기한: 수업 3일 전\n",
        "camp/예약·취소·환불 규정 v3.md": "# 예약·취소·환불 규정\n\n- 시행일: 2024년 12월 1일\n",
        "camp/이용수칙.md": "# 솔바람 이용수칙\n\n- 매너타임: 22시\n",
        "studio/공방 소개.md": "# 흙빛도예공방\n\n- 대표: 최민서\n",
    }
    ctx = kb_context(tmp_path, kb)
    gate = Gate(ctx)
    start = next(f for f in ctx.facts if f.doc_id.startswith("studio/예약") and f.value.startswith("2024년 3월"))
    failure = gate._keys(
        _one_fact(start, "예약 및 환불 규정은 언제부터 시행되나요?", "2024년 3월 1일부터입니다.", "ko")
    )
    assert failure is not None and failure[0] == "ambiguous_key" and "alike" in failure[1], failure
    camp = next(f for f in ctx.facts if f.doc_id.startswith("camp/예약"))
    # its title holds a word the other's lacks (취소): no other rule is titled alike
    assert (
        gate._keys(_one_fact(camp, "예약·취소·환불 규정은 언제부터 시행되나요?", "2024년 12월 1일입니다.", "ko"))
        is None
    )


def test_a_keyword_of_one_korean_syllable_is_weak(tmp_path: Path) -> None:
    table = (
        "| 반 | 요일 | 시간 |\n|---|---|---|\n| 키즈 원데이반 | 일 | 14:30~16:00 |\n| 성인반 | 화·목 | 19:00~21:00 |\n"
    )
    ctx = kb_context(tmp_path, {"studio/classes.md": f"# 수업 시간표\n\n{table}"})
    sunday = next(f for f in ctx.facts if f.value == "일")
    draft = _one_fact(sunday, "키즈 원데이반의 요일은 무엇인가요?", "키즈 원데이반의 요일은 일입니다.", "ko")
    failure = Gate(ctx)._keywords(draft)  # "일" is in nearly any Korean answer
    assert failure is not None and failure[0] == "weak_keyword"
    both = next(f for f in ctx.facts if f.value == "화·목")
    kept = _one_fact(both, "성인반의 요일은 무엇인가요?", "성인반의 요일은 화·목입니다.", "ko")
    assert Gate(ctx)._keywords(replace(kept, keywords=["화", "목"])) is None  # two days together tell it


def test_a_bare_label_beside_a_fuller_one_of_the_same_thing_is_asked_by_the_fuller(tmp_path: Path) -> None:
    kb = {
        "company/offices.md": "# Offices\n\n## Leeds\n\n- **Main phone:** 0113 496 0200\n- **Manager:** Ada Roe\n\n"
        "## At a glance\n\n| Office | Phone | Manager |\n|---|---|---|\n| Leeds | 0113 496 0200 | Ada Roe |\n"
        "| Bristol | 0117 496 0350 | Ben Hale |\n",
    }
    ctx = kb_context(tmp_path, kb)
    gate = Gate(ctx)

    def asked(fact: FactNode) -> Draft:
        return _one_fact(fact, f"What is {fact.subject}'s {fact.attribute.lower()} number?", fact.value, "en")

    bare = next(f for f in ctx.facts if f.attribute == "Phone" and f.subject == "Leeds")
    failure = gate._keys(asked(bare))
    # an office has several numbers: "Leeds' phone number" is asked as its main phone
    assert failure is not None and failure[0] == "ambiguous_key" and "Main phone" in failure[1], failure
    fuller = next(f for f in ctx.facts if f.attribute == "Main phone")
    assert gate._keys(asked(fuller)) is None
    alone = next(f for f in ctx.facts if f.attribute == "Phone" and f.subject == "Bristol")
    assert gate._keys(asked(alone)) is None  # no fuller label for Bristol's


def test_a_value_whose_row_notes_a_condition_is_incomplete_without_it(tmp_path: Path) -> None:
    kb = {
        "policies/expenses.md": "# Expense Policy\n\n## Limits\n\n| Category | Limit | Notes |\n|---|---|---|\n"
        "| Home office equipment | £250 per year | Remote staff only |\n"
        "| Client meals | £45 per head | Pre-approval from your manager |\n",
    }
    ctx = kb_context(tmp_path, kb)
    gate = Gate(ctx)

    def asked(fact: FactNode, answer: str) -> Draft:
        return _one_fact(
            fact, f"What is the {fact.attribute.lower()} of the Expense Policy?", answer, "en", "numerical"
        )

    home = next(f for f in ctx.facts if f.value == "£250 per year")
    failure = gate._conditions(asked(home, "£250 per year."))
    # the answer would give remote staff's allowance to everyone
    assert failure is not None and failure[0] == "incomplete_value" and "Remote staff only" in failure[1], failure
    assert gate._conditions(asked(home, "£250 per year (remote staff only).")) is None
    meals = next(f for f in ctx.facts if f.value == "£45 per head")
    assert gate._conditions(asked(meals, "£45 per head.")) is None  # a step to take, not whom it applies to


def test_a_korean_row_note_of_whom_or_per_what_makes_the_value_incomplete(tmp_path: Path) -> None:
    kb = {
        "hospital/fees.md": "# 가온병원\n\n| 항목 | 금액 | 비고 |\n|---|---|---|\n"
        "| 대상포진(재조합) | 250,000원 | 1회당, 총 2회 접종 |\n"
        "| 인플루엔자 | 40,000원 | 만 65세 이상은 국가 무료접종 |\n"
        "| MRI 요추 | 480,000원 | 판독료 포함 |\n",
    }
    ctx = kb_context(tmp_path, kb)
    gate = Gate(ctx)

    def asked(value: str) -> GateFailure | None:
        found = next(f for f in ctx.facts if f.value == value)
        return gate._conditions(_one_fact(found, "가온병원의 금액은 얼마인가요?", f"{value}입니다.", "ko", "numerical"))

    for value, note in (("250,000원", "1회당"), ("40,000원", "65세")):
        failure = asked(value)
        assert failure is not None and failure[0] == "incomplete_value" and note in failure[1], failure
    assert asked("480,000원") is None  # what the price includes limits no one


def test_a_question_ending_on_a_verb_without_its_object_is_rejected() -> None:
    said = "Leah Okonkwo joined in 2019 as a Saturday warehouse volunteer."
    assert "join what" in (words_problem("When did Leah Okonkwo join?", said) or "")
    joined = "Leah Okonkwo joined Tarrow Valley Food Bank in 2019."
    assert words_problem("When did Leah Okonkwo join Tarrow Valley Food Bank?", joined) is None


def test_an_email_address_is_no_description() -> None:
    assert descriptive_value("amira.haddad@tarrowfoodbank.org.uk") is None
    assert descriptive_value("email the office team before noon on weekdays") is not None


def test_an_amount_another_page_says_changed_is_ambiguous(tmp_path: Path) -> None:
    kb = {
        "products/prices.md": "# Price List\n\n| Model | Price |\n|---|---|\n| KC-720 Cargo | £649 |\n"
        "| KC-360 | £389 |\n",
        "news/release.md": "# Kestrel news\n\nThe list price of the KC-720 Cargo will rise from £649 to £689 on "
        "1 July 2024.\n",
    }
    ctx = kb_context(tmp_path, kb)
    gate = Gate(ctx)
    old = next(f for f in ctx.facts if f.value == "£649" and f.subject == "KC-720 Cargo")
    failure = gate._keys(_one_fact(old, "How much does KC-720 Cargo cost?", "£649.", "en", "numerical"))
    # asked as it is, the January figure answers for today
    assert failure is not None and failure[0] == "ambiguous_key" and "changed" in failure[1], failure
    kept = next(f for f in ctx.facts if f.value == "£389")
    assert gate._keys(_one_fact(kept, "How much does KC-360 cost?", "£389.", "en", "numerical")) is None


def test_a_standing_fact_of_a_periods_report_is_not_the_periods(tmp_path: Path) -> None:
    kb = {
        "reports/bank_2q.md": "# 누리담저축은행 2025년 2분기 정기 경영공시\n\n"
        "- 본점 소재지: 서하시 중앙로\n- 임직원: 142명\n",
    }
    ctx = kb_context(tmp_path, kb)
    gate = Gate(ctx)
    office = next(f for f in ctx.facts if f.attribute == "본점 소재지")
    question = "누리담저축은행 2025년 2분기의 본점 소재지는 어디인가요?"
    failure = gate._names(_one_fact(office, question, "서하시 중앙로입니다.", "ko"))
    # the bank's head office, not the quarter's
    assert failure is not None and failure[0] == "document_subject", failure
    staff = next(f for f in ctx.facts if f.attribute == "임직원")
    counted = "누리담저축은행 2025년 2분기의 임직원은 몇 명인가요?"
    assert gate._names(_one_fact(staff, counted, "142명입니다.", "ko", "numerical")) is None  # the quarter's count


@pytest.mark.parametrize(
    ("name", "period"),
    [
        ("누리담저축은행 2025년 2분기", True),
        ("Annual Report 2023", True),
        ("FY2024", True),
        ("Kestrel KSI-6000", False),
    ],
)
def test_a_report_name_ends_with_a_period_but_a_model_number_is_none(name: str, period: bool) -> None:
    assert (_PERIOD_END.search(name) is not None) is period


@pytest.mark.parametrize(
    ("before", "after", "changed"),
    [
        ("will rise from ", " to £689 on 1 July", True),
        ("£689, up from ", ", because costs rose", True),
        ("도수치료는 ", "에서 9만 원으로 오른다", True),
        ("종전 ", "을 적용합니다", True),
        ("**", "** (당초 800명에서 늘어남).", True),
        ("a day pass costs ", " (was £22 until March).", True),
        ("a day pass costs ", " (VAT included).", False),
        ("정원 ", " (선착순 마감)", False),
        ("the list price of ", " for each unit", False),
        ("from 1", " to 2", False),  # part of a longer number
    ],
)
def test_the_words_around_an_amount_say_whether_it_changed(before: str, after: str, changed: bool) -> None:
    assert _changed_around(before, after) is changed


def test_a_korean_rule_sentence_is_not_asked_with_the_rule_as_its_subject(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "apt/parking.md": "# 푸른솔 주차장 운영 규정\n\n"
            "차량을 바꾸고 신고하지 않으면 2대째 요금이 계속 부과될 수 있습니다.\n",
            "apt/faq.md": "# 푸른솔마을\n\n푸른솔마을 관리사무소는 2010년 3월 2일 문을 열었습니다.\n",
        },
    )
    gate = Gate(ctx)
    rule = next(f for f in ctx.facts if f.value.startswith("2대"))
    asked = _one_fact(
        rule,
        "푸른솔 주차장 운영 규정은 차량을 바꾸고 신고하지 않으면 몇 대째 요금이 계속 부과될 수 있나요?",
        "2대째 요금이 계속 부과될 수 있습니다.",
        "ko",
        "numerical",
    )
    failure = gate._names(asked)
    assert failure is not None and failure[0] == "document_subject", failure
    opened = next(f for f in ctx.facts if f.value_type == "date")
    named = _one_fact(
        opened, "푸른솔마을 관리사무소는 언제 문을 열었나요?", "2010년 3월 2일에 문을 열었습니다.", "ko", "temporal"
    )
    assert gate._names(named) is None


def test_korean_sentences_to_the_reader_defining_the_subject_or_in_a_greeting_are_not_standalone() -> None:
    late = sentence("20분 넘게 늦으시면 참여가 어려울 수 있습니다.", "20분", value_type="number")
    assert "reader" in (standalone_problem(late, "ko") or "")
    defining = sentence("서하시 중앙동에서 2014년부터 장부와 세금을 챙겨 온 세무회계사무소입니다.", "2014년")
    assert "defining" in (standalone_problem(defining, "ko") or "")
    plain = sentence("첫 상담 30분은 무료입니다.", "30분", value_type="number")
    assert standalone_problem(plain, "ko") is None  # the value is the sentence's own, not a modifier's
    greeting = fact(
        "2014년",
        "서울에서 5년간 일하다 2014년 고향으로 내려와 사무실을 열었습니다.",
        attribute="…",
        value_type="date",
        source="sentence",
        context="대표 세무사 인사",
    )
    assert "first person" in (standalone_problem(greeting, "ko") or "")
    assert question_problem("문경호 세무회계사무소는 언제 봄 고향으로 내려왔나요?", "ko.sentence") is not None


def test_a_count_column_and_minutes_are_no_property_or_subject() -> None:
    assert pasted_label("Sites above action level") is not None
    assert pasted_label("Action level") is None
    for title in ("고객 문의 모음", "2025년 제1차 운영위원회 회의록", "Board minutes 2025", "Minutes of the PAB"):
        assert document_subject(title), title
    assert not document_subject("서하시립박물관")


def test_korean_label_lines_bracketed_question_words_and_old_and_new_cells_are_refused() -> None:
    label = sentence("잘한 점: staging 24시간 규칙 덕에 잡았다.", "24시간", value_type="number")
    assert "label" in (standalone_problem(label, "ko") or "")
    we = sentence("저희는 2025년 2월부터 은포창업허브에 있습니다.", "2025년 2월")
    assert "pronoun" in (standalone_problem(we, "ko") or "")
    defining = sentence("노을픽셀은 2021년 5월 서울 성수동에서 세 명이 시작한 인디게임 개발사입니다.", "2021년 5월")
    assert "defining" in (standalone_problem(defining, "ko") or "")
    assert question_problem("정정 보도는 초안(몇 곳)을 최종안으로 인용했나요?", "ko.sentence") is not None
    assert descriptive_value("(신) 은포시 시청로 42 / (구) 서울 성동구") is not None
    assert descriptive_value("은포시 시청로 42, 은포창업허브 302호") is None


def test_a_korean_value_in_a_clause_describing_the_subject_or_a_footnote_is_not_standalone() -> None:
    started = sentence("2019년 3월 작은 작업실에서 물레 한 대로 시작한 흙결공방이 다섯 살이 되었습니다.", "2019년 3월")
    assert "describing the subject" in (standalone_problem(started, "ko") or "")
    plain = sentence("흙결공방은 2019년 3월 갈대동에서 문을 열었습니다.", "2019년 3월")
    assert standalone_problem(plain, "ko") is None
    store = sentence("읍내점은 2016년에 문을 연 점포로 정육 코너와 택배 접수 창구가 있습니다.", "2016년")
    assert "describing" in (standalone_problem(store, "ko") or "")
    # the date modifies the predicate noun: "언제 문을 연 두 번째 영업점인가요?" asks nothing
    second = sentence("무실지점은 2003년 9월에 문을 연 두 번째 영업점입니다.", "2003년 9월")
    assert "defining" in (standalone_problem(second, "ko") or "")
    ours = sentence("2025년 3월 4일부터 이준호 원장님이 저희 병원에서 진료를 시작합니다.", "2025년 3월 4일")
    assert "writer" in (standalone_problem(ours, "ko") or "")
    note = sentence("*크기와 무게는 손작업 특성상 ±5% 정도 차이가 있을 수 있습니다.", "5%", value_type="percent")
    assert "footnote" in (standalone_problem(note, "ko") or "")
    # an exception opening with 단, and a rule's article heading run into its text
    but = sentence("단 수리 부위만 3개월 보증합니다.", "3개월", value_type="number")
    assert "connective" in (standalone_problem(but, "ko") or "")
    article = sentence("제16조(임시총회) 회장이 필요하다고 인정하면 소집합니다.", "16", value_type="number")
    assert standalone_problem(article, "ko") is not None
    group = sentence("단체 예약은 3일 전까지 받습니다.", "3일", value_type="number")
    assert standalone_problem(group, "ko") is None


def test_dates_without_their_year_and_a_footnote_mark_inside_a_bracket_are_incomplete() -> None:
    dates = fact("6/24 – 7/17", "| Little Sprouts | 3–5 | 6/24 – 7/17 |", attribute="Dates", value_type="text")
    assert "year" in (incomplete_value(dates, "The dates of Little Sprouts are 6/24 – 7/17.") or "")
    ages = fact("3–5", "| Little Sprouts | 3–5 | 6/24 – 7/17 |", attribute="Ages", value_type="text")
    assert incomplete_value(ages, "The ages for Little Sprouts are 3–5.") is None
    fee = fact("£16.50 (£17.50 from 1 June 2025*)", "| Monthly fee | £16.50 (£17.50 from 1 June 2025*) |")
    assert "footnote" in (incomplete_value(fee, "The monthly fee is £16.50.") or "")


def test_a_role_whose_row_says_when_it_began_or_changed_is_incomplete() -> None:
    row = "| Dr Hana Virtanen | Lecturer | K3.02 | SIL postdoc until 31/08/2025, Lecturer from 1 Sept |"
    lecturer = fact("Lecturer", row, attribute="Role", value_type="text", source="table")
    assert "role" in (incomplete_value(lecturer, "Her role is Lecturer.") or "")
    ko = "| 한지우 | 실장 | 운영 총괄 | 2022.3. 합류 (CS 매니저 → 2024.9.부터 실장) |"
    changed = fact("실장", ko, attribute="직책", value_type="text", source="table")
    assert incomplete_value(changed, "실장") is not None
    plain = "| 박새롬 | 매니저 | 고객 응대·출고 | 2024.9.2. 입사 |"
    kept = fact("매니저", plain, attribute="직책", value_type="text", source="table")
    assert incomplete_value(kept, "매니저") is None


def test_a_rows_price_another_page_of_the_folder_gives_otherwise_is_ambiguous(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "lounge/요금제.md": "# 멤버십 요금제\n\n| 상품 | 내용 | 이용료 |\n|---|---|---|\n"
            "| 데일리 패스 | 1일 자유석 | 30,000원 / 1일 |\n| 자유석 멤버십 | 월 이용 | 350,000원 / 월 |\n"
            "| 고정석 멤버십 | 월 이용 | 450,000원 / 월 |\n",
            "lounge/faq.md": "# 자주 묻는 질문\n\n하루만 쓸 수 있나요? 데일리 패스(1일 25,000원, VAT 별도)를 "
            "구매하시면 됩니다.\n\n자유석 멤버십 회원은 회의실을 월 4시간 무료로 씁니다.\n",
            "other/price.md": "# 다른 라운지 요금\n\n| 상품 | 이용료 |\n|---|---|\n| 고정석 멤버십 | 200,000원 |\n",
        },
    )
    day = next(f for f in ctx.facts if f.value.startswith("30,000원"))
    assert priced_otherwise(ctx, day) == "하루만 쓸 수 있나요? 데일리 패스(1일 25,000원, VAT 별도)를 구매하시면 됩니다."
    # the FAQ names a row without its price; another folder's row of the same name is another lounge's
    for value in ("350,000원", "450,000원"):
        assert priced_otherwise(ctx, next(f for f in ctx.facts if f.value.startswith(value))) is None


def test_a_price_in_a_table_of_old_and_new_prices_has_changed(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "cowork/plans.md": "# Threadwork Plans\n\n| Plan | Price | Notes |\n|---|---|---|\n"
            "| Day Pass | £22 / day | ex VAT |\n| Hot Desk | £169 / month | ex VAT |\n"
            "| Office | £600 / month | ex VAT |\n",
            "cowork/notice.txt": "PRICE NOTICE\n\n  Plan           Now       New members from 1 Nov 2024\n"
            "  Day Pass       GBP 22    GBP 25\n  Hot Desk       GBP 169   GBP 179\n\nOffice prices do not change.\n",
        },
    )
    gate = Gate(ctx)
    day = next(f for f in ctx.facts if f.value.startswith("£22"))
    office = next(f for f in ctx.facts if f.value.startswith("£600"))
    assert gate._changed_elsewhere(day) == "Day Pass       GBP 22    GBP 25"
    assert gate._changed_elsewhere(office) is None


def test_a_row_named_by_its_label_or_words_of_it_in_a_notice_of_the_folder_has_changed(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "solar/prices.md": "# Sunridge Price Sheet\n\n| Package | System size | Price |\n|---|---|---|\n"
            "| **Essential** | 6.15 kW | $17,900 |\n| **Premium** | 10.25 kW | $27,675 |\n\n## Add-ons\n\n"
            "| Item | Price |\n|---|---|\n| Additional stacked Hearthcell battery | $9,600 |\n"
            "| Critter guard | $650 |\n",
            "solar/notice.txt": "NOTICE OF PRICE CHANGE\n\n  PACKAGE      SIZE       CURRENT PRICE    NEW PRICE\n"
            "  Essential    6.15 kW    $17,900          $18,650\n\n  ADD-ON                       CURRENT    NEW\n"
            "  Additional stacked battery   $9,600     $10,100\n",
        },
    )
    gate = Gate(ctx)
    essential = next(f for f in ctx.facts if f.value == "$17,900" and f.doc_id == "solar/prices.md")
    battery = next(f for f in ctx.facts if f.value == "$9,600" and f.doc_id == "solar/prices.md")
    size = next(f for f in ctx.facts if f.value == "6.15 kW" and f.doc_id == "solar/prices.md")
    premium = next(f for f in ctx.facts if f.value == "$27,675")
    # the package's row by its label, the add-on's by words of its label; the size is followed by a price, not a
    # new size; the Premium package is not in the notice
    assert gate._changed_elsewhere(essential) == "Essential    6.15 kW    $17,900          $18,650"
    assert gate._changed_elsewhere(battery) == "Additional stacked battery   $9,600     $10,100"
    assert gate._changed_elsewhere(size) is None
    assert gate._changed_elsewhere(premium) is None


def test_a_price_changed_with_an_arrow_beside_words_of_the_question_is_ambiguous(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "agency/faq.md": "# 자주 묻는 질문\n\nQ. 운전자보험 보험료는?\n"
            "A. 든든운전자보험 기본형은 40세 기준 월 12,800원입니다.\n",
            "agency/minutes.txt": "회의록\n\n안건 1. 보험료 조정\n- 4월 1일부터 40세 기본형 12,800원 → 13,900원.\n",
            "agency/guide.md": "# 상품 안내\n\n고급형은 50세 기준 월 12,800원입니다.\n",
        },
    )
    gate = Gate(ctx)
    price = next(f for f in ctx.facts if f.doc_id == "agency/faq.md" and f.value == "12,800원")
    asked = "든든운전자보험 기본형은 40세 기준 월 얼마인가요?"
    assert gate._changed_as_asked(price, asked) == "- 4월 1일부터 40세 기본형 12,800원 → 13,900원."
    other = next(f for f in ctx.facts if f.doc_id == "agency/guide.md" and f.value == "12,800원")
    assert gate._changed_as_asked(other, "고급형은 50세 기준 월 얼마인가요?") is None  # another plan and age


def _mention(ctx: GenContext, value: str, question: str) -> Draft:
    fact = FactNode(
        fact_id="fact:m",
        subject="솔담리빙",
        attribute="관련 페이지",
        value=value,
        value_type="text",
        source="sentence",
        doc_id=next(iter(ctx.docs)),
        chunk_id=next(iter(ctx.chunks)),
        evidence=value,
        start=0,
        end=len(value),
    )
    return Draft(
        category="relationship",
        question=question,
        reference_answer=f"{value}입니다.",
        keywords=[value],
        facts=[fact],
        answer_spans=[value],
        language="ko",
        template="ko.relation.mention",
    )


def test_a_mention_of_a_page_or_of_a_folder_name_is_no_relation(tmp_path: Path) -> None:
    ctx = kb_context(tmp_path, {"home.md": "# 솔담리빙\n\n솔담리빙의 위키입니다.\n"})
    gate = Gate(ctx)
    page = gate.check(_mention(ctx, "조직도 및 내선번호", "솔담리빙과 관련된 조직은 무엇인가요?"))
    assert page is not None and page.reason == "document_subject"
    folder = gate.check(_mention(ctx, "보안 수칙 해설", "솔담리빙과 관련된 'IT' 항목은 무엇인가요?"))
    assert folder is not None and folder.reason == "pasted_label"


def test_a_headline_is_no_subject_for_a_sentence(tmp_path: Path) -> None:
    headline = '"빛으로 잇는 길" … 제7회 갈대 축제 17일 개막'
    ctx = kb_context(
        tmp_path, {"press/open.txt": f"{headline}\n\n축제 기간 동안 대표 메뉴 가격은 1만 원 이하로 묶었다.\n"}
    )
    fact = next(f for f in ctx.facts if f.source == "sentence")
    draft = Draft(
        category="numerical",
        question=f"{headline}은 대표 메뉴 가격을 얼마 이하로 묶었나요?",
        reference_answer="1만 원 이하로 묶었습니다.",
        keywords=["1만 원"],
        facts=[fact.model_copy(update={"subject": headline})],
        answer_spans=["1만 원"],
        language="ko",
        template="ko.sentence",
    )
    failure = Gate(ctx)._names(draft)
    assert failure is not None and failure.reason == "document_subject"


def test_a_property_word_is_no_name_word_however_the_kb_capitalises_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "air/contact.md": "# Contact\n\n| Channel | Details | Opening hours |\n|---|---|---|\n"
            "| Phone | 01632 960 400 | Daily 07:00–20:00 |\n| Email | help@fellair.example | Within 2 days |\n"
            "| Web Chat | In the app | Daily |\n",
            "air/team.md": "# Team\n\n| Name | Role | Email |\n|---|---|---|\n"
            "| Priya Haldane | Baggage Supervisor | baggage@fellair.example |\n",
        },
    )
    assert "Email" in {e.name for e in ctx.entities.values()}  # a row of the channels table
    assert not Gate(ctx)._name_word("Email")  # "Priya Haldane's email" pastes no name into its label


def test_a_status_is_no_property_to_ask() -> None:
    assert unnamed_property("상태", "ko") is not None  # "AF-450의 상태는 판매중": asked as a label, not a question
    assert unnamed_property("판매 가격", "ko") is None


def test_a_korean_sentence_question_with_too_little_left_is_rejected() -> None:
    assert question_problem("참가비 및 환불 규정에 따르면 1경기면 얼마인가요?", "ko.sentence") is not None
    assert question_problem("리그 규정에 따르면 퇴장으로 빈 자리는 몇 분 뒤 채울 수 있나요?", "ko.sentence") is None


def _korean_labels(ctx: GenContext, question: str) -> Callable[[str], GateFailure | None]:
    """The label checks of a Korean draft asking the fact under `attribute` with `question` ({s} subject, {a} label)."""
    gate = Gate(ctx)

    def labels(attribute: str) -> GateFailure | None:
        fact = next(f for f in ctx.facts if f.attribute == attribute)
        draft = Draft(
            category="direct_fact",
            question=question.format(s=fact.subject, a=attribute),
            reference_answer=f"{fact.value}입니다.",
            keywords=[fact.value],
            facts=[fact],
            answer_spans=[fact.value],
            language="ko",
            template="ko.text",
        )
        return gate._labels(draft)

    return labels


def test_a_condition_row_or_a_qualifying_column_is_no_property(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "league/환불 규정.md": "# 참가비 및 환불 규정\n\n| 구분 | 납부 금액 | 기준 |\n|---|---|---|\n"
            "| 팀 참가비 | 300,000원 | 팀당 1시즌 |\n| 보증금 | 100,000원 | 팀당 |\n\n"
            "| 시점 | 보증금 |\n|---|---|\n| 개막 이후 | 차감 후 반환 |\n| 개막 7일 전 | 전액 반환 |\n",
        },
    )
    labels = _korean_labels(ctx, "{s}에 따른 {a}은 무엇인가요?")
    for attribute in ("팀 참가비 기준", "개막 이후 보증금", "개막 7일 전 보증금"):
        failure = labels(attribute)
        assert failure is not None and failure.reason == "pasted_label", attribute
    assert labels("팀 참가비 납부 금액") is None


def test_the_new_owners_of_a_sentence_are_a_back_reference() -> None:
    assert question_problem("When did the new owners reduce the range?", "en.sentence") is not None
    assert question_problem("When did Tansley's Brewery reduce its range?", "en.sentence") is None


def test_a_korean_sentence_with_two_topics_or_a_relative_time_is_rejected() -> None:
    assert question_problem("사무국 사람들 & 연락처는 강다온 활동가는 언제 새로 합류했나요?", "ko.sentence") is not None
    assert question_problem("물푸레환경모임의 수질조사는 올해도 몇 개 지점에서 진행했나요?", "ko.sentence") is not None
    assert question_problem("햇살고개농장은 체험 인원을 한 회차에 최대 몇 명으로 제한하나요?", "ko.sentence") is None
    assert question_problem("축제는 참여하는 사람이 몇 명인가요?", "ko.sentence") is None  # 하는: no second topic


def test_a_route_with_an_arrow_is_a_pasted_label() -> None:
    assert pasted_punctuation("논산역 ↔ 농장") is not None


def test_a_rows_figure_changed_in_minutes_by_its_row_label_and_unit_is_ambiguous(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "ngo/후원안내.md": "# 후원 안내\n\n| 등급 | 월 후원금(원) |\n|---|---|\n| 씨앗회원 | 5,000 |\n"
            "| 물방울회원 | 10,000 |\n",
            "ngo/회의록.txt": "이사회 회의록\n\n[안건 3] 회비 조정의 건\n- 사무국 제안: 씨앗회원 월 회비를 5,000원에서 "
            "7,000원으로 조정.\n",
        },
    )
    gate = Gate(ctx)
    seed = next(f for f in ctx.facts if f.value == "5,000")
    drop = next(f for f in ctx.facts if f.value == "10,000")
    assert gate._changed_elsewhere(seed) is not None
    assert gate._changed_elsewhere(drop) is None


def test_a_vet_listed_by_name_a_facility_and_a_bare_method_are_no_properties(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "clinic/진료시간.txt": "푸른별동물병원 진료시간\n\n[수의사별 진료 요일]\n - 한도윤 원장 : 월 화 수 목 금\n"
            " - 대표전화 : 031-000-1234\n",
            "camp/시설.txt": "달빛캠핑장 시설 안내\n\n - 물놀이장 : 7월 ~ 8월 운영\n - 샤워장 온수 : 06:00 ~ 23:00\n"
            " - 방법 : 카드 결제 / 계좌이체\n - 그 다음 달부터의 이용료 : 전액 반환\n",
        },
    )
    labels = _korean_labels(ctx, "{s}의 {a}은 어떻게 되나요?")
    for attribute in ("한도윤 원장", "물놀이장", "방법", "그 다음 달부터의 이용료"):
        failure = labels(attribute)
        assert failure is not None and failure.reason == "pasted_label", attribute
    assert labels("샤워장 온수") is None


def test_a_question_word_in_a_bracketed_note_is_rejected() -> None:
    assert question_problem("푸른별동물병원은 장기 입원(며칠 이상)이면 중간 정산을 하나요?", "ko.sentence") is not None
    assert question_problem("푸른별동물병원은 장기 입원이 며칠 이상이면 중간 정산을 하나요?", "ko.sentence") is None


def test_a_review_post_is_a_document_not_a_thing() -> None:
    assert document_subject("푸른별동물병원 말티즈 중성화 솔직 후기")
    assert document_subject("합격후기_2025학년도")
    assert not document_subject("조선 후기")
    assert not document_subject("후기 인상파 화가")


def test_a_sentence_question_that_leaves_out_what_it_asks_about_is_rejected() -> None:
    assert question_problem("이용 규정에 따르면 언제 이용분부터 변경되었나요?", "ko.sentence") is not None
    assert question_problem("이용 규정에 따르면 1인 최대 몇 개 사이트까지 예약할 수 있나요?", "ko.sentence") is None
    retired = "When was Mara a vet in Dunmere for 30 years before she retired?"
    assert question_problem(retired, "en.sentence.passive") is not None
    assert question_problem("When did Mara retire as a vet in Dunmere?", "en.sentence.active") is None


def test_a_day_alone_is_no_property() -> None:
    for label in ("일 요 일", "토요일", "공휴일"):
        assert unnamed_property(label, "ko") is not None, label
    assert unnamed_property("일요일 진료시간", "ko") is None


def test_a_figure_another_page_gives_in_the_same_words_is_ambiguous(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "city/지원자격.md": "# 청년 월세 지원 자격\n\n"
            "한빛시는 적격자가 1,000명을 넘으면 소득이 낮은 분부터 선정합니다.\n",
            "city/공고.txt": "청년 월세 지원사업 모집 공고\n\n"
            "한빛시는 적격자가 800명을 넘으면 소득이 낮은 분부터 선정합니다.\n",
            "city/안내.md": "# 청년 월세 지원 안내\n\n한빛시는 신청자가 2,000명을 넘으면 추첨합니다.\n",
        },
    )
    gate = Gate(ctx)
    changed = next(f for f in ctx.facts if f.value == "1,000명")
    assert gate._told_otherwise(changed) == "800명"
    alone = next(f for f in ctx.facts if f.value == "2,000명")
    assert gate._told_otherwise(alone) is None


def test_a_figure_its_own_page_gives_beside_a_former_one_has_changed(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "city/지원자격.md": "# 청년 월세 지원 자격\n\n## 지원 인원\n\n**1,000명** (당초 800명에서 늘어남). "
            "적격자가 1,000명을 넘으면 소득이 낮은 분부터 선정합니다.\n",
            "city/안내.md": "# 청년 주거 상담 안내\n\n## 상담 방법\n\n신청자가 1,000명을 넘으면 상담은 온라인으로만 "
            "받습니다.\n\n## 변경 사항\n\n상담 정원을 1,000명 → 1,500명으로 늘렸습니다.\n",
        },
    )
    gate = Gate(ctx)
    rule = next(f for f in ctx.facts if f.value == "1,000명" and "선정" in f.evidence)
    assert gate._changed_elsewhere(rule) == (
        "**1,000명** (당초 800명에서 늘어남). 적격자가 1,000명을 넘으면 소득이 낮은 분부터 선정합니다."
    )
    # the same figure changed on another line of its page is another figure's change
    other_line = next(f for f in ctx.facts if f.value == "1,000명" and "온라인" in f.evidence)
    assert gate._changed_elsewhere(other_line) is None


def test_a_value_a_notice_of_the_folder_lists_as_the_old_one_under_its_label_has_changed(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "library/규정.md": "# 대출 규정\n\n| 항목 | 내용 |\n|---|---|\n| 대출 권수 | 1인 5권 (DVD 2점까지) |\n"
            "| 대출 기간 | 14일 |\n| 예약 권수 | 1인 2권 |\n",
            "library/공지.txt": "[공지] 대출 규정 변경\n\n1. 대출 권수\n   - 변경 전: 1인 5권\n"
            "   - 변경 후: 1인 7권\n\n2. 바뀌지 않는 것\n   - 대출 기간 14일\n",
            "tour/다낭.md": "# 다낭 3박5일\n\n| 항목 | 내용 |\n|---|---|\n| 최소 출발 인원 | 8명 |\n"
            "| 최대 인원 | 20명 |\n",
            "tour/공지.txt": "[공지] 요금 변경\n\n- 최소 출발 인원 : 8명 → 10명 (3월 출발분부터)\n- 최대 인원 : 20명\n",
        },
    )
    gate = Gate(ctx)

    def changed(value: str) -> str | None:
        return gate._changed_under_its_label(next(f for f in ctx.facts if f.value == value))

    assert changed("1인 5권 (DVD 2점까지)") == "- 변경 전: 1인 5권"
    assert changed("8명") == "- 최소 출발 인원 : 8명 → 10명 (3월 출발분부터)"
    assert changed("14일") is None  # listed as unchanged
    assert changed("1인 2권") is None  # no notice lists it
    assert changed("20명") is None


def test_a_dated_rows_weekday_and_a_bare_share_are_labels_not_facts(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "tour/겨울.md": "# 홋카이도 겨울 4박5일\n\n## 출발일\n\n| 출발일 | 요일 | 성인 |\n|---|---|---:|\n"
            "| 2025.02.06 | 목 | 1,890,000원 |\n| 2025.02.09 | 일 | 1,890,000원 |\n",
            "library/통계.md": "# 2024 운영 통계\n\n## 대출 자료 구성\n\n| 구분 | 대출 (권) | 비율 |\n|---|---|---|\n"
            "| 아동 도서 | 12,577 | 58.0% |\n| DVD | 433 | 2.0% |\n",
        },
    )
    gate = Gate(ctx)
    weekday = next(f for f in ctx.facts if f.value == "목")
    share = next(f for f in ctx.facts if f.value == "2.0%")
    for fact in (weekday, share):
        failure = gate.check(asked(fact))
        assert failure is not None and failure[0] == "pasted_label", (fact.attribute, failure)


def test_a_rule_followed_by_its_exception_is_incomplete(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "camp/환불.md": "# 달빛캠핑장 환불 규정\n\n달빛캠핑장은 예약 후 24시간 이내 취소를 전액 환불합니다. "
            "(단, 이용일 3일 전 이후에 한 예약은 제외)\n\n달빛캠핑장은 무통장 예약을 3시간 뒤 자동 취소합니다.\n",
        },
    )
    gate = Gate(ctx)

    def conditions(value: str) -> GateFailure | None:
        fact = next(f for f in ctx.facts if f.value == value and f.source == "sentence")
        return gate._conditions(_one_fact(fact, "달빛캠핑장은 몇 시간 이내 취소를 전액 환불하나요?", value, "ko"))

    excepted = conditions("24시간")
    assert excepted is not None and excepted.reason == "incomplete_value"
    assert conditions("3시간") is None


def test_hours_a_notice_of_the_folder_changes_with_an_arrow_are_ambiguous(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "garage/00_소개.md": "# 한빛모터스\n\n- 영업시간: 평일 08:30 ~ 19:00\n- 대표전화: 042-000-1234\n",
            "garage/공지.txt": "[공지] 영업시간 변경\n\n평일   08:30 ~ 19:00  →  09:00 ~ 19:00\n",
        },
    )
    gate = Gate(ctx)
    hours = next(f for f in ctx.facts if f.attribute == "영업시간")
    assert gate._hours_changed(hours) is not None
    phone = next(f for f in ctx.facts if f.attribute == "대표전화")
    assert gate._hours_changed(phone) is None


def test_hours_of_a_range_of_days_are_ambiguous_when_the_closing_day_moves(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "salon/소개.md": "# 몽글 펫살롱\n\n| 요일 | 영업시간 |\n|---|---|\n| 화 ~ 일 | 10:00 ~ 19:00 |\n"
            "| 월 | 휴무 |\n\n- 상담시간: 10:00 ~ 18:00\n",
            "salon/소식지.txt": "봄 소식지\n\n4월 1일부터 바뀌어요.\n  ▶ 정기 휴무: 월요일 → 수요일\n",
        },
    )
    gate = Gate(ctx)
    days = next(f for f in ctx.facts if f.attribute.startswith("화 ~ 일"))
    assert gate._hours_changed(days) is not None  # Tuesday to Sunday was the week before the closing day moved
    hours = next(f for f in ctx.facts if f.attribute == "상담시간")
    assert gate._hours_changed(hours) is None  # hours named by no day are not moved by it


def test_the_date_a_rule_takes_effect_is_ambiguous_when_a_page_of_its_folder_changes_it(tmp_path: Path) -> None:
    rule = "# 보강 및 환불 규정\n\n- 시행일: 2024년 9월 1일\n\n1. 보강은 월 2회까지 가능합니다.\n"
    ctx = kb_context(
        tmp_path,
        {
            "swim/보강 및 환불 규정.md": rule,
            "swim/회의록.txt": "운영회의 2025-02-14\n\n4. 보강 신청 기한 변경 (3월 1일부터 당일 정오까지)\n",
            "swim/시간표.md": "# 시간표\n\n| 반 | 요일 |\n|---|---|\n| 올챙이반 | 월·수 |\n| 개구리반 | 화·목 |\n",
            "swim/소개.md": "# 물방울 수영교실\n\n- 주소: 수원시 영통구 봉영로 12\n",
            "shop/교환 규정.md": "# 교환 및 환불 규정\n\n- 시행일: 2024년 3월 1일\n",
            "shop/소개.md": "# 한빛문구\n\n- 영업시간: 09:00~20:00\n",
        },
    )
    gate = Gate(ctx)
    swim = next(f for f in ctx.facts if f.attribute == "시행일" and f.doc_id.startswith("swim/"))
    assert "보강 신청 기한 변경" in (gate._rule_revised(swim) or "")  # the minutes change the rule from March
    shop = next(f for f in ctx.facts if f.attribute == "시행일" and f.doc_id.startswith("shop/"))
    assert gate._rule_revised(shop) is None  # no page of its folder changes it
    asked = _one_fact(swim, "보강 및 환불 규정은 언제부터 시행되나요?", "2024년 9월 1일부터 시행됩니다.", "ko")
    assert (gate._keys(asked) or GateFailure("", "")).reason == "ambiguous_key"
    named = _one_fact(swim, "보강 및 환불 규정 v2는 언제부터 시행되나요?", "2024년 9월 1일부터 시행됩니다.", "ko")
    assert gate._keys(named) is None  # the question names its version


def test_a_price_for_a_measured_amount_keeps_its_unit_and_a_price_table_with_current_and_changed_columns(
    tmp_path: Path,
) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "clinic/비용.md": "# 비급여 진료비용\n\n| 항목 | 단위 | 금액 |\n|---|---|---|\n"
            "| 치료용 첩약 | 1제 (15일분) | 250,000원 |\n| 봉약침 | 1회 | 15,000원 |\n",
        },
    )
    gate = Gate(ctx)

    def conditions(value: str) -> GateFailure | None:
        fact = next(f for f in ctx.facts if f.value == value)
        return gate._conditions(_one_fact(fact, "치료용 첩약은 얼마인가요?", f"{value}입니다.", "ko"))

    measured = conditions("250,000원")
    assert measured is not None and measured.reason == "incomplete_value"
    assert conditions("15,000원") is None  # one dose is what "얼마인가요" asks about


def test_sentence_answers_cut_mid_clause_and_pasted_edit_marks_are_rejected() -> None:
    assert answer_problem("Lantern Yard opened in June 2016 in what used.", "en.sentence.active") is not None
    assert answer_problem("Lantern Yard opened in June 2016.", "en.sentence.active") is None
    assert question_problem("모아워크 공지는 → (추가) 언제 오픈 일정이 변경되었나요?", "ko.sentence") is not None


def test_a_breakdown_label_a_placeholder_all_and_a_percentage_asked_as_a_price() -> None:
    from testgen.gate import _KO_BREAKDOWN

    assert _KO_BREAKDOWN.search("직종별 인원") and not _KO_BREAKDOWN.search("특별 할인")
    assert is_placeholder("All")
    assert wh_mismatch("What percentage is the price of the Pass?", "11%", "percent", "en") is not None
    assert wh_mismatch("What is the discount rate of the Pass?", "11%", "percent", "en") is None
    # a Korean person asked for and a post with no name given; a person's label asked with 무엇
    assert wh_mismatch("협회 사무국을 맡고 있는 사람은 누구인가요?", "사무국장", "text", "ko") is not None
    assert wh_mismatch("협회 사무국을 맡고 있는 사람은 누구인가요?", "엄지현 대리", "text", "ko") is None
    assert wh_mismatch("참숯나라를 맡고 있는 사람은 누구인가요?", "홍 사장", "text", "ko") is None
    assert wh_mismatch("부여군농업기술센터의 담당자는 무엇인가요?", "식량작물팀", "text", "ko") is not None
    assert wh_mismatch("코딩로봇 프로그램의 담당직원은 무엇인가요?", "김다은", "text", "ko") is not None
    assert wh_mismatch("반짝홈클린의 A팀은 무엇인가요?", "권혁진 팀장 + 박정훈, 김하늘", "text", "ko") is not None
    assert wh_mismatch("해담김치의 제품은 무엇인가요?", "포기김치, 깍두기", "text", "ko") is None
    # people with their units before and duties after: "영업 최유리 실장 (A/S 접수)"
    staff = "영업 최유리 실장 (A/S 접수), 설치팀 배성훈 팀장 (처리)"
    assert wh_mismatch("새솔사인 A/S 규정의 담당은 무엇인가요?", staff, "text", "ko") is not None
    assert document_subject("Berthing Tariff 2025/26")
    assert document_subject("은빛마루요양원 홈페이지 공지사항")
    assert document_subject("RE_ 번역 취소 및 환불 문의 (메일 답변)")  # a mail titled by what it asks
    assert document_subject("제67회 졸업식 꽃다발 단체 주문 견적 요청")
    # a worked sum, in any operator: its parts are the facts
    assert is_placeholder("716,100 − 644,490 = 71,610원") and is_placeholder("총액의 10% = 130,200원")


def test_a_staff_introduction_page_names_no_one_and_a_modified_question_word_is_rejected(tmp_path: Path) -> None:
    assert question_problem("정비사는 봉명동 시절인 언제 대표님과 같이 일했나요?", "ko.sentence") is not None
    ctx = kb_context(
        tmp_path,
        {"garage/정비사 소개.md": "# 정비사 소개\n\n정비사는 2022년에 3D 얼라인먼트 장비 교육을 따로 받았습니다.\n"},
    )
    fact = next(f for f in ctx.facts if f.value == "2022년")
    draft = _one_fact(fact, "정비사는 언제 3D 얼라인먼트 장비 교육을 따로 받았나요?", "2022년에 받았습니다.", "ko")
    failure = Gate(ctx)._names(draft)
    assert failure is not None and failure.reason == "file_name_subject"


def test_the_date_a_meetings_minutes_open_with_is_the_pages_own(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "minutes/jan.md": "# Partners' Meeting — Minutes\n\n**Date:** Monday 15 January 2024, 8:15am\n"
            "**Chair:** Margaret Pembury\n",
            "events/fair.md": "# Spring Fair\n\n- **Date**: 12 April 2025\n- **Venue**: Town Hall\n",
        },
    )
    gate = Gate(ctx)

    def verdict(doc: str, label: str) -> str | None:
        fact = next(f for f in ctx.facts if f.doc_id == doc and f.attribute == label)
        failure = gate._names(asked(fact))
        return failure[0] if failure else None

    assert verdict("minutes/jan.md", "Date") == "document_subject"  # every page of the series opens with one
    assert verdict("events/fair.md", "Date") is None  # an event's own date


def test_an_amount_a_note_of_the_folder_says_goes_to_another_is_stale(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "shop/clubs.md": "# Book clubs\n\nWe run two clubs.\n\n## Chapter & Verse\n\n- **Cost:** £4 on the door\n"
            "- **When:** first Tuesday\n\n## Dead of Night\n\n- **Cost:** free\n- **When:** last Thursday\n",
            "shop/minutes.md": "# Staff meeting\n\nChapter & Verse: £4 ticket no longer covers cake. From April it "
            "goes to **£5**.\nDead of Night stays free.\n",
            "shop/cafe.md": "# Café\n\n- **Scone**: £4\n\nScones stay at £4, though tea goes to £3.\n",
        },
    )
    gate = Gate(ctx)
    cost = next(f for f in ctx.facts if f.attribute == "Cost" and f.value.startswith("£4"))
    assert "goes to" in (gate._raised_in_prose(cost) or "")
    scone = next(f for f in ctx.facts if f.attribute == "Scone")
    assert gate._raised_in_prose(scone) is None  # another thing goes to another price


def test_a_question_with_a_bracket_left_open_is_debris() -> None:
    from testgen.gate import _open_bracket

    assert _open_bracket("What is the roller banners standard of the turnaround times (internal version?")
    assert _open_bracket("What is X) worth?")
    assert not _open_bracket("What is the price of the (new) card?")
    assert not _open_bracket("생활관(가온대)의 관비는 얼마인가요?")


def test_a_notice_item_wrapped_over_lines_that_raises_the_amount_from_the_fact_s_is_a_change(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "zoo/encounters.md": "# Encounters\n\nBook ahead.\n\n## Giraffe Breakfast\n\n- **Price:** £60 per person\n"
            "- **When:** Saturdays\n\n## Penguin Feed\n\n- **Price:** £45 per person\n- **When:** daily\n",
            "zoo/notice.txt": "NOTICE\n\n3. ENCOUNTERS\n\n"
            " - Giraffe Breakfast: we add a Sunday session. The price goes up\n"
            "   to 65.00 GBP per person (from 60) for bookings made from 1 July.\n"
            " - Penguin Feed: paused from 1 July.\n",
        },
    )
    gate = Gate(ctx)
    giraffe = next(f for f in ctx.facts if f.value.startswith("£60"))
    assert "65.00 GBP" in (gate._raised_in_prose(giraffe) or "")
    penguin = next(f for f in ctx.facts if f.value.startswith("£45"))
    assert gate._raised_in_prose(penguin) is None  # its item changes no price ("from 1 July" is a date)


def test_a_label_with_the_tables_punctuation_is_not_asked_by_any_template(tmp_path: Path) -> None:
    from testgen.categories._common import single_fact_draft

    ctx = kb_context(
        tmp_path,
        {
            "coop/leads.md": "# Session leads\n\n| Session | Lead | Deputy |\n|---|---|---|\n"
            "| Open Workshop – Thu | Greg Olsen | Ben Carver |\n| Open Workshop – Sat | Ada Lyle | Tom Fenn |\n",
        },
    )
    gate = Gate(ctx)
    fact = next(f for f in ctx.facts if f.value == "Greg Olsen")
    draft = single_fact_draft(ctx, fact, "direct_fact")
    assert draft is not None and "thu lead" in draft.question.lower(), draft
    failure = gate.check(draft)
    assert failure is not None and failure.reason == "pasted_label", failure


def test_a_persons_contact_under_her_heading_on_a_team_page_is_hers(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "firm/team.md": "# Our team\n\nWe are a team of four above the opticians.\n\n"
            "### Megan Doyle — Trainee Accounts Assistant\n\nMegan joined in 2024.\n\n"
            "**Email:** megan@fenwick.example\n\n"
            "### Gareth Lewis — Partner\n\nGareth founded the firm.\n\n**Email:** gareth@fenwick.example\n",
            "firm/careers.md": "# Careers at Fenwick Accountants\n\n- **Email**: careers@fenwick.example\n",
        },
    )
    reasons = {fact.value: _reason(ctx, fact, "direct_fact") for fact in ctx.facts if fact.attribute == "Email"}
    assert reasons.get("megan@fenwick.example") is None, reasons
    # the careers desk's address is no one's but the desk's: never asked as the firm's
    assert reasons.get("careers@fenwick.example", "document_subject") in ("boilerplate_value", "document_subject")


def test_a_price_list_beside_a_later_version_of_it_is_stale(tmp_path: Path) -> None:
    from testgen.gate.versions import Versions

    ctx = kb_context(
        tmp_path,
        {
            "salon/price_list_2024.csv": "service,price\nCut and finish,£45\nFringe trim,£8\n",
            "salon/Price List by Level 2025 v2 FINAL.csv": "service,price\nCut and finish,£48\nFringe trim,£9\n",
            "salon/minutes 2024-03-02.txt": "Team meeting\n\nWe agreed the rota.\n",
            "salon/minutes 2025-01-14.txt": "Team meeting\n\nWe agreed the new rota.\n",
            "clinic/비급여 수가표 2024.csv": "항목,금액\n도수치료 30분,80000원\n체외충격파,50000원\n",
            "clinic/비급여수가표_2025_최종.csv": "항목,금액\n도수치료 30분,85000원\n체외충격파,55000원\n",
        },
    )
    versions = Versions(ctx)
    assert versions.later("salon/price_list_2024.csv") == "salon/Price List by Level 2025 v2 FINAL.csv"
    assert versions.later("clinic/비급여 수가표 2024.csv") == "clinic/비급여수가표_2025_최종.csv"
    # the newest list, and minutes of two meetings (no list of prices), stand
    assert versions.later("salon/Price List by Level 2025 v2 FINAL.csv") is None
    assert versions.later("salon/minutes 2024-03-02.txt") is None


def test_a_page_called_by_its_files_dated_name_is_no_subject() -> None:
    from testgen.gate.names import file_stem_title

    assert file_stem_title("원데이 7월 일정 최종2", "studio/원데이 7월 일정_최종2.tsv.txt")
    assert file_stem_title("fees 2024-25", "childminder/fees_2024-25.csv")
    # a heading of the page's own, or a file's name with no date or version, is a name
    assert not file_stem_title("Summer timetable 2025", "studio/timetable.md")
    assert not file_stem_title("Aurora Fold 250", "products/aurora_fold_250.md")


def test_a_figure_of_a_page_dated_to_one_week_is_asked_only_with_its_date(tmp_path: Path) -> None:
    from testgen.gate.names import day_dated

    assert day_dated("bakery/rota_wc_03-03-2025.tsv") and day_dated("sauna/2025-01-14 직원회의록.txt")
    assert not day_dated("bakery/price_list_2024.csv") and not day_dated("products/aurora_fold_250.md")
    # a week's number dates it as well
    assert day_dated("couriers/rider_rota_w14_2025.tsv") and day_dated("cafe/근무표 4월 2주차.csv")
    assert not day_dated("shop/Twin Week Saver.md") and not day_dated("bikes/aurora_w250_spec.md")
    rota = "name\trole\tshifts\nSam Kettle\tDriver\t14\nDan Okafor\tBaker\t21\n"
    reasons = {}
    for name in ("rota_wc_03-03-2025.tsv", "rota.tsv"):
        ctx = kb_context(tmp_path / name, {f"bakery/{name}": rota})
        fact = next(f for f in ctx.facts if f.subject == "Sam Kettle" and f.value_type == "number")
        reasons[name] = _reason(ctx, fact, "numerical")
    # the dated rota's 14 shifts are that week's: the question says no week; an undated list holds whatever the week
    assert reasons == {"rota_wc_03-03-2025.tsv": "ambiguous_key", "rota.tsv": None}, reasons


def _reason(ctx: GenContext, fact: FactNode, category: str) -> str | None:
    """The validator's reason for a fact's single-fact item: None when kept, "no draft" when none is made."""
    from testgen.categories import get_category
    from testgen.categories._common import single_fact_draft
    from testgen.validate import Validator

    draft = single_fact_draft(ctx, fact, category)
    return "no draft" if draft is None else Validator(ctx).validate(draft, get_category(category)).reason


def test_a_row_whose_own_note_says_it_ends_answers_only_until_then(tmp_path: Path) -> None:
    runs = (
        "# School runs\n\n| School run | Drop-off | Days | Notes |\n|---|---|---|---|\n"
        "| Hillside Junior | 08:35 | Mon, Tue, Thu | ENDS 25 July 2025 - not offered from Sept |\n"
        "| Kelbrook Primary | 08:45 | Mon-Fri | walk, 8 min |\n"
    )
    ctx = kb_context(tmp_path, {"minder/school runs.md": runs})
    reasons = {f.subject: _reason(ctx, f, "temporal") for f in ctx.facts if f.attribute == "Days"}
    assert reasons == {"Hillside Junior": "ambiguous_key", "Kelbrook Primary": None}, reasons


def test_a_column_of_a_price_grid_by_level_is_no_property(tmp_path: Path) -> None:
    grid = (
        "# Copper Comb prices\n\n| Service | Junior | Stylist | Director | Time (mins) |\n|---|---|---|---|---|\n"
        "| Fringe trim | £5 | £6 | £8 | 10 |\n| Root tint | £50 | £58 | £74 | 90 |\n"
    )
    plain = "# Copper Comb extras\n\n| Service | Price | Time (mins) |\n|---|---|---|\n| Toner | £22 | 20 |\n"
    ctx = kb_context(tmp_path, {"salon/grid.md": grid, "salon/extras.md": plain})
    gate = Gate(ctx)

    def verdict(value: str) -> str | None:
        fact = next(f for f in ctx.facts if f.value == value)
        failure = gate._labels(asked(fact))
        return failure.reason if failure else None

    assert verdict("£74") == "pasted_label"  # "root tint director": a level's column of the grid
    assert verdict("£22") is None  # a price column


def test_a_persons_column_asked_of_a_row_that_is_no_person_is_pasted(tmp_path: Path) -> None:
    contacts = (
        "# Contacts\n\n| Who | Role | Phone |\n|---|---|---|\n| Sarah Whitlock | Owner | 07700 900312 |\n"
        "| House landline | 22 Orchard Close | 01632 960775 |\n| Front desk | Bookings | 201 |\n"
    )
    ctx = kb_context(tmp_path, {"minder/contacts.md": contacts})
    gate = Gate(ctx)
    reasons = {}
    for fact in ctx.facts:
        if fact.value in ("Owner", "22 Orchard Close", "Bookings"):
            failure = gate._labels(asked(fact))
            reasons[fact.value] = failure.reason if failure else None
    assert reasons == {"Owner": None, "22 Orchard Close": "pasted_label", "Bookings": "pasted_label"}, reasons


def test_a_label_with_a_word_cut_short_is_pasted_and_a_value_inside_another_amount_is_no_amount() -> None:
    from testgen.gate.labels import pasted_label
    from testgen.gate.values import descriptive_value

    assert pasted_label("approx. arrival at unit") and pasted_label("min. age")
    assert pasted_label("St. Anne phone") is None and pasted_label("Phone no.") is None
    assert descriptive_value("included in the £3") and descriptive_value("기본요금에 포함")
    assert descriptive_value("£3") is None and descriptive_value("3만원") is None


def test_labels_led_by_a_weekday_or_naming_a_former_value_are_pasted() -> None:
    from testgen.gate.labels import pasted_label

    for label in (
        "Thursday rooms",
        "friday supervisor",
        "수 근무시간",
        "토요일 담당",
        "월~금 근무",
        "이전 규정",
        "Previous price",
    ):
        assert pasted_label(label), label
    # a day's hours of a place, a monthly fee, a daily limit
    for label in ("Saturday hours", "일요일 운영 시간", "월~금 시간", "월 회비", "일 최대 인원", "Monthly fee"):
        assert pasted_label(label) is None, label


def test_a_rota_a_sign_and_a_contacts_page_are_documents_and_a_headings_date_names_the_document(
    tmp_path: Path,
) -> None:
    from testgen.gate.names import document_subject

    assert document_subject("주간 업무 분담표") and document_subject("원산지 표시판")
    assert document_subject("Group contacts & roles")
    assert not document_subject("Harrowby Men's Shed") and not document_subject("솔뫼숯불구이")
    ctx = kb_context(
        tmp_path,
        {
            "studio/staff meeting notes.txt": "STAFF MEETING - Mon 10 Feb 2025 - studio\n\n"
            "- day rates: Dani £650, Lewis £550\n- next meeting: March\n",
        },
    )
    fact = next(f for f in ctx.facts if f.attribute == "day rates")
    draft = _one_fact(fact, "What are Mon 10 Feb 2025's day rates?", "Dani £650, Lewis £550.", "en")
    failure = Gate(ctx)._names(draft)
    assert failure is not None and failure.reason == "document_subject", failure


def test_a_chat_reply_and_an_address_without_its_domain_are_not_asked() -> None:
    from testgen.gate.sentences import _KO_LEAD
    from testgen.gate.values import is_placeholder

    assert _KO_LEAD.match("네 3월분부터 새싹반은 140,000원으로 조정되었습니다.")
    assert not _KO_LEAD.match("네이버 예약은 3월부터 받습니다.")
    assert is_placeholder("hello@ (shared inbox)") and not is_placeholder("hello@magpie.example")
    assert is_placeholder("see above") and is_placeholder("상동") and not is_placeholder("see above the desk")


def test_an_amount_a_notice_writes_as_the_old_one_is_stale(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "shed/handbook.md": "# Members' handbook\n\n| Item | Cost |\n|---|---|\n| Annual membership | £30 |\n"
            "| Concession membership | £15 |\n| Session sub | £2 per visit |\n| Taster visit | free |\n",
            "shed/notice.txt": "NEW FEES FROM 1 APRIL\n\n   Concession membership .... £18   (was £15)\n",
            "shed/minutes.txt": "Trustees meeting\n\nFees agreed:\n - Session sub £2.00 -> £2.50\n",
        },
    )
    gate = Gate(ctx)
    reasons = {}
    for fact in ctx.facts:
        if fact.value.startswith("£") and fact.attribute.endswith("Cost"):
            failure = gate._keys(asked(fact, "numerical"))
            reasons[fact.value] = failure.reason if failure else None
    assert reasons == {"£30": None, "£15": "ambiguous_key", "£2 per visit": "ambiguous_key"}, reasons


def test_a_catalogue_row_opened_by_a_code_is_named_by_its_next_cell_in_a_price_notice(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "kimchi/제품가격표_2024.csv": "제품코드,제품명,용량,가격(원)\nHD-P05,포기김치(배추김치),5kg,45000\n"
            "HD-K01,깍두기,1kg,10000\nHD-G01,갓김치,1kg,14000\n",
            "kimchi/2025 가격인상 안내문.txt": "2025년 제품 가격 조정 안내\n\n■ 변경 내용\n\n"
            "  포기김치 5kg    45,000원 → 49,000원\n  갓김치 1kg      14,000원 → 15,000원\n\n"
            "  * 깍두기 1kg(10,000원)은 가격 변동 없습니다.\n",
        },
    )
    gate = Gate(ctx)
    reasons = {}
    for fact in ctx.facts:
        if fact.attribute.startswith("가격"):
            failure = gate._keys(asked(fact, "numerical"))
            reasons[fact.subject] = failure.reason if failure else None
    assert reasons == {"HD-P05": "ambiguous_key", "HD-K01": None, "HD-G01": "ambiguous_key"}, reasons


def test_criteria_pages_are_documents() -> None:
    from testgen.gate.names import document_subject

    assert document_subject("반 편성 기준 및 레벨테스트") and document_subject("환불 기준")
    assert not document_subject("기준금리 동향") and not document_subject("물빛수영교실")


def test_a_row_that_is_no_event_is_not_asked_what_days_it_is_on(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "cleaners/round D.md": "# Round D\n\n| Client | Address | Days |\n|---|---|---|\n"
            "| The Red Lion | 4 High St | Tue |\n| Harbour Dental | 9 Quay Rd | Fri |\n"
            "| Brook Motors | 2 Mill Ln | Wed |\n",
            "theatre/timetable.md": "# Timetable\n\n| Class | Ages | Room | Days | Time |\n|---|---|---|---|---|\n"
            "| Seniors | 14-18 | Studio 1 | Sat | 10:00-12:00 |\n| Minis | 5-7 | Studio 2 | Wed | 16:00-17:00 |\n"
            "| Juniors | 8-10 | Studio 2 | Thu | 16:30-18:00 |\n",
        },
    )
    gate = Gate(ctx)

    def verdict(row: str) -> str | None:
        fact = next(f for f in ctx.facts if f.subject.startswith(row) and f.attribute == "Days")
        asked = f"What days is {fact.subject} on?"
        failure = gate._on_a_day(_one_fact(fact, asked, f"{fact.subject} is on {fact.value}.", "en"))
        return failure.reason if failure else None

    assert verdict("The Red Lion") == "pasted_label"  # the day the pub's windows are cleaned
    assert verdict("Seniors") is None  # a class is on a day


def test_a_chat_export_a_contacts_page_and_a_documents_record_are_not_asked() -> None:
    from testgen.gate.labels import pasted_label
    from testgen.gate.names import document_subject

    assert document_subject("솔샘 직원방 님과 카카오톡 대화") and document_subject("직원 연락처 / 내선번호 / 거래처")
    assert pasted_label("개정 이력") and pasted_label("작성자") and pasted_label("문서번호") is None
    assert pasted_label("Author") is None and pasted_label("Version") is None  # a book's author, an app's version


def test_a_bare_day_label_a_days_column_a_menu_and_a_file_name_are_not_asked(tmp_path: Path) -> None:
    from testgen.gate.labels import pasted_label
    from testgen.gate.names import document_subject
    from testgen.gate.values import is_placeholder

    assert pasted_label("tuesday time") and pasted_label("Sunday service time") is None
    assert document_subject("바람숲 로스터리 MENU 2025") and not document_subject("Menu Planning Ltd")
    assert is_placeholder("가격표_2024.csv.txt") and not is_placeholder("Version 2.5")
    rooms = "# 파티룸\n\n| 방 | 평일 | 주말 | 면적 |\n|---|---|---|---|\n| 별빛방 | 220,000원 | 260,000원 | 42㎡ |\n"
    ctx = kb_context(tmp_path, {"kids/파티룸 대관 규정.md": rooms + "| 구름방 | 150,000원 | 180,000원 | 25㎡ |\n"})
    gate = Gate(ctx)
    reasons = {}
    for fact in ctx.facts:
        if fact.subject.startswith("별빛방") or fact.attribute.startswith("별빛방"):
            failure = gate._labels(asked(fact))
            reasons[fact.value] = failure.reason if failure else None
    assert reasons.get("220,000원") == "pasted_label", reasons  # "별빛방 평일": a day's column
    assert reasons.get("42㎡") is None, reasons


def test_a_schedule_named_by_its_files_month_and_a_bookings_code_are_no_subjects(tmp_path: Path) -> None:
    from testgen.gate import _BARE_CODE, _named_by_title
    from testgen.gate.names import file_stem_title
    from testgen.text import normalize

    assert file_stem_title("2025년4월 팀별일정", "moving/2025년4월_팀별일정.csv.txt")
    assert _named_by_title("2025년4월 팀별일정", normalize("2025-04-11 2025년4월 팀별의 고객은 무엇인가요?"))
    assert not _named_by_title("2025년4월 팀별일정", normalize("한결이사의 대표는 누구인가요?"))
    assert _BARE_CODE.fullmatch("WW-25-0437") and _BARE_CODE.fullmatch("CH1")
    assert not _BARE_CODE.fullmatch("KC-360") and not _BARE_CODE.fullmatch("BL-900")
    assert _named_by_title("메뉴 v2", normalize("메뉴 v2의 가격은 얼마인가요?"))  # a title shorter than the prefix


def test_a_role_of_a_person_another_page_names_as_a_posts_holder_is_incomplete(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "space/contacts and roles.md": "# Contacts & Roles\n\n| Name | Role | Phone |\n|---|---|---|\n"
            "| Bee Okonjo | Ordinary member | 01632 960302 |\n"
            "| Owen Pryce | Secretary | 01632 960303 |\n| Dev Patel | Ordinary member | 01632 960304 |\n"
            "| Ana Reyes | Treasurer | 01632 960305 |\n",
            "space/tool inductions guide v2.md": "# Tool Inductions – Guide (v2)\n\n| Tool | Lead steward |\n"
            "|---|---|\n| Sewing machines | Bee Okonjo |\n| Bandsaw | Dev Patel |\n",
            "space/AGM minutes.txt": "AGM minutes, 14 November 2024\n\nOfficers elected:\n- Secretary: Owen Pryce\n",
            # an older handbook's staff list: another post for Ana, a longer one for Owen
            "space/handbook v1.md": "# Handbook\n\n## Who's who\n\n- **Ana Reyes** – Bar volunteer (ext 204)\n"
            "- **Owen Pryce** – Secretary and minutes\n",
        },
    )
    gate = Gate(ctx)
    reasons = {}
    for fact in ctx.facts:
        if fact.attribute == "Role":
            failure = gate._keys(asked(fact, "direct_fact"))
            reasons[fact.subject] = failure.detail if failure else None
    assert "holds another post" in (reasons["Bee Okonjo"] or ""), reasons
    assert reasons["Owen Pryce"] is None, reasons  # the post the minutes name is his role
    assert "Bar volunteer" in (reasons["Ana Reyes"] or ""), reasons  # the handbook lists her otherwise


def test_a_difference_or_comparison_of_identifiers_or_classes_is_no_quantity(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "club/fleet list.tsv": "Boat name\tType\tYear\tCrew weight (kg)\nSwift\t1x\t2015\t70-85\n"
            "Kingfisher\t2x\t2011\t65-80\nHeron\t4x\t2009\t70-90\n",
            "shop/농가 명단.csv": "농가명,농가코드,면적(평)\n보개 고추농원,1130,800\n평택 쌀눈농원,1102,1200\n",
        },
    )
    gate = Gate(ctx)
    by_label = {}
    for fact in ctx.facts:
        by_label.setdefault(fact.attribute, []).append(fact)
    for label in ("Type", "농가코드"):
        first, second = by_label[label][:2]
        failure = gate._quantities(replace(asked(first, "comparative"), facts=[first, second]))
        assert failure is not None and failure.reason == "pasted_label", (label, failure)
    first, second = by_label["Year"][:2]
    assert gate._quantities(replace(asked(first, "comparative"), facts=[first, second])) is None


def test_a_rules_article_and_a_staff_introduction_page_are_documents() -> None:
    from testgen.gate.names import document_subject

    assert document_subject("제7조 (기물 파손)") and document_subject("강사 소개 및 담당반")
    assert not document_subject("제주 7조 전통시장") and not document_subject("반짝홈클린 회사소개")


@pytest.mark.parametrize(
    ("path", "text", "attribute", "question", "value", "language"),
    [
        (
            "playgroup/Newsletter Spring Term 2025.md",
            "# Bramley Green Playgroup News – Spring Term 2025\n\n"
            "- Spring term: Monday 6 January – Friday 4 April\n- Half term: Mon 17 – Fri 21 February (closed)\n",
            "Spring term",
            "What is Bramley Green Playgroup News' spring term?",
            "Monday 6 January – Friday 4 April",
            "en",
        ),
        (
            "brewpub/뉴스레터_늘보소식_5월호.md",
            "# 🦥 늘보 소식 — 2025년 5월호\n\n- 평소 시간: 화~목 17~23시 / 금 17~01시\n"
            "- 다가오는 일정: 5월 10일, 6월 14일\n",
            "평소 시간",
            "늘보 소식의 평소 시간은 어떻게 되나요?",
            "화~목 17~23시 / 금 17~01시",
            "ko",
        ),
    ],
)
def test_a_newsletter_issue_is_asked_by_no_name_of_its_own(
    tmp_path: Path, path: str, text: str, attribute: str, question: str, value: str, language: str
) -> None:
    ctx = kb_context(tmp_path, {path: text})
    fact = next(f for f in ctx.facts if f.attribute == attribute)
    draft = Draft(
        category="direct_fact",
        question=question,
        reference_answer=f"{question.rstrip('?')}: {value}",
        keywords=[value],
        facts=[fact],
        answer_spans=[value],
        language=language,
        template=f"{language}.what",
    )
    failure = Gate(ctx).check(draft)
    assert failure is not None and failure.reason == "document_subject", failure


def test_a_spreadsheets_bare_amount_is_no_keyword_an_answer_writes(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "bakery/수강료.csv": "과정,수강료(원),기간\n제과기능사 야간반,580000,8주\n원데이 클래스,65000,1일\n",
            "bakery/과정안내.md": "# 과정 안내\n\n- **제과기능사 주간반 수강료**: 520,000원\n",
        },
    )
    for value, expected in (("580000", "weak_keyword"), ("520,000원", None)):
        fee = next(f for f in ctx.facts if f.value == value)
        assert fee.value_type == "money", fee
        draft = Draft(
            category="numerical",
            question=f"{fee.subject}의 수강료는 얼마인가요?",
            reference_answer=f"{fee.subject}의 수강료는 {fee.value}입니다.",
            keywords=[fee.value],
            facts=[fee],
            answer_spans=[fee.value],
            language="ko",
            template="ko.what",
        )
        failure = Gate(ctx)._keywords(draft)
        assert (failure.reason if failure else None) == expected, failure
