"""Korean surface rules: particles by final consonant, event clauses, and questions phrased from facts."""

from __future__ import annotations

from typing import Any

import pytest
from factories import kv_fact

from schemas import FactNode
from testgen.lang import is_contact_value
from testgen.lang.ko import (
    copula,
    event_clause,
    has_final_consonant,
    obj,
    particle,
    possessive_chain,
    subj,
    topic,
)
from testgen.synth.phrasing.ko import Korean

# ---------------------------------------------------------------------------------------------- particles


@pytest.mark.parametrize(
    ("word", "has_final"),
    [
        ("설립일", True),  # 일: ㄹ
        ("회사", False),
        ("하늘여행", True),  # 행: ㅇ
        ("대표이사", False),
        ("서울", True),
        ("부산", True),
        ("2008", True),  # 팔
        ("2", False),  # 이
        ("1", True),  # 일
        ("3", True),  # 삼
        ("4", False),  # 사
        ("5", False),  # 오
        ("6", True),  # 육
        ("9", False),  # 구
        ("10", True),  # 십 / 영: both end in a consonant
        ("email", True),  # 이메일
        ("Apple", False),
        ("3박 4일", True),
        ("1,290,000원", True),
        ("(주)하늘", True),
        ("", False),
    ],
)
def test_final_consonant(word: str, has_final: bool) -> None:
    assert has_final_consonant(word) is has_final


@pytest.mark.parametrize(
    ("word", "kind", "expected"),
    [
        ("설립일", "은", "설립일은"),
        ("설립일", "는", "설립일은"),  # either form of the pair names it
        ("회사", "은", "회사는"),
        ("하늘여행", "이", "하늘여행이"),
        ("하늘여행", "가", "하늘여행이"),
        ("회사", "이", "회사가"),
        ("2008", "을", "2008을"),
        ("2", "을", "2를"),
        ("계약", "를", "계약을"),
        ("박하늘", "과", "박하늘과"),
        ("정다은", "와", "정다은과"),
        ("최서연", "와", "최서연과"),
        ("오승민", "과", "오승민과"),
        ("김민지", "과", "김민지와"),
        ("민지", "아", "민지야"),
        ("준호", "이다", "준호다"),
        ("서연", "이다", "서연이다"),
    ],
)
def test_particle_pairs(word: str, kind: str, expected: str) -> None:
    assert particle(word, kind) == expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("서울", "서울로"),  # ㄹ takes 로
        ("부산", "부산으로"),
        ("제주", "제주로"),  # no final consonant
        ("1", "1로"),  # 일: ㄹ
        ("7", "7로"),  # 칠
        ("8", "8로"),  # 팔
        ("3", "3으로"),  # 삼
        ("6", "6으로"),  # 육
        ("2", "2로"),
        ("120명", "120명으로"),
        ("1,290,000원", "1,290,000원으로"),
        ("Seoul", "Seoul로"),  # 서울: final l
    ],
)
def test_euro_ro_follows_the_rieul_rule(word: str, expected: str) -> None:
    assert particle(word, "으로") == expected
    assert particle(word, "로") == expected


def test_shortcuts() -> None:
    assert topic("설립일") == "설립일은"
    assert topic("회사") == "회사는"
    assert subj("하늘여행") == "하늘여행이"
    assert subj("회사") == "회사가"
    assert obj("2008") == "2008을"
    assert obj("상품") == "상품을"
    assert obj("투어") == "투어를"
    assert copula("2008년") == "2008년입니다"
    assert possessive_chain("하늘여행", "대표이사") == "하늘여행의 대표이사"
    assert possessive_chain("하늘여행", "", "대표이사") == "하늘여행의 대표이사"


def test_unknown_particle_kind_raises() -> None:
    with pytest.raises(KeyError):
        particle("회사", "에게")


# ------------------------------------------------------------------------------------------ event clauses


@pytest.mark.parametrize(
    ("event", "clause"),
    [
        ("부산 지점 개설", "부산 지점 개설"),
        ("부산 지점 개설.", "부산 지점 개설"),
        ("부산 지점을 개설했다", "부산 지점을 개설한 것"),
        ("부산 지점을 개설하였습니다.", "부산 지점을 개설한 것"),
        ("서비스가 출시되었다", "서비스가 출시된 것"),
        ("신규 노선이 개통됐다", "신규 노선이 개통된 것"),
        ("제주지점장으로 입사", "제주지점장으로 입사한 것"),
        ("하늘여행에 입사", "하늘여행에 입사한 것"),
        ("부산 지점 개설, 도쿄 사무소 개설", None),  # two events on one line
        ("매출이 늘었다", None),  # another ending: no safe rewrite
        ("신규 상품을 출시합니다", None),
        ("가 나 다 라 마 바 사", None),  # too long to be one event
    ],
)
def test_event_clause(event: str, clause: str | None) -> None:
    assert event_clause(event) == clause


# ----------------------------------------------------------------------------------------- phrasing facts


def fact(**fields: Any) -> FactNode:
    base: dict[str, Any] = {
        "fact_id": "fact:test",
        "subject": "하늘여행",
        "source": "key_value",
        "doc_id": "company/overview.md",
        "chunk_id": "c0",
        "start": 0,
        "end": 10,
    }
    base.update(fields)
    base.setdefault("evidence", f"- **{base['attribute']}**: {base['value']}")
    return FactNode(**base)


KO = Korean()


def test_date_attribute_asks_when() -> None:
    f = fact(attribute="설립일", value="2008년 3월 15일", value_type="date", date_key="2008-03-15")
    question, answer, template = KO.fact(f, "하늘여행")
    assert question == "하늘여행은 언제 설립되었나요?"  # the verb, not the label 설립일
    assert answer == "하늘여행은 2008년 3월 15일에 설립되었습니다."
    assert template == "ko.verbal"


def test_date_attribute_without_a_verb_asks_when() -> None:
    f = fact(attribute="갱신일", value="2025년 1월 1일", value_type="date", date_key="2025-01-01")
    question, answer, template = KO.fact(f, "하늘여행")
    assert question == "하늘여행의 갱신일은 언제인가요?"
    assert answer == "하늘여행의 갱신일은 2025년 1월 1일입니다."
    assert template == "ko.date"


def test_money_attribute_asks_how_much() -> None:
    f = fact(attribute="자본금", value="30억 원", value_type="money", number=3e9, unit="원")
    question, answer, _ = KO.fact(f, "하늘여행")
    assert question == "하늘여행의 자본금은 얼마인가요?"
    assert answer == "하늘여행의 자본금은 30억 원입니다."


def test_counted_people_ask_how_many() -> None:
    f = fact(attribute="직원 수", value="120명", value_type="number", number=120.0, unit="명")
    question, answer, _ = KO.fact(f, "하늘여행")
    assert question == "하늘여행의 직원은 몇 명인가요?"
    assert answer == "하늘여행의 직원은 120명입니다."


@pytest.mark.parametrize(
    ("unit", "value", "ending"),
    [
        ("곳", "4곳", "몇 곳인가요?"),
        ("개월", "36개월", "얼마나 되나요?"),
        ("일", "15일", "며칠인가요?"),
        ("박일", "3박 4일", "며칠인가요?"),
    ],
)
def test_other_counters(unit: str, value: str, ending: str) -> None:
    f = fact(attribute="기간", value=value, value_type="number", number=4.0, unit=unit)
    question, _, _ = KO.fact(f, "하늘여행")
    assert question == f"하늘여행의 기간은 {ending}"


def test_percent_asks_what_percent() -> None:
    f = fact(attribute="할인율", value="22%", value_type="percent", number=22.0, unit="%")
    question, answer, _ = KO.fact(f, "누리항공 좌석 블록 계약")
    assert question == "누리항공 좌석 블록 계약의 할인율은 몇 퍼센트인가요?"
    assert answer == "누리항공 좌석 블록 계약의 할인율은 22%입니다."


@pytest.mark.parametrize("attribute", ["상품 책임자", "상위 보고자", "부서장", "지점장"])
def test_person_attribute_asks_who(attribute: str) -> None:
    f = fact(attribute=attribute, value="이준호", value_type="text")
    question, answer, _ = KO.fact(f, "세진전자 계약")
    assert question == f"세진전자 계약의 {topic(attribute)} 누구인가요?"
    assert question.endswith("누구인가요?")
    assert answer == f"세진전자 계약의 {topic(attribute)} 이준호입니다."


def test_ceo_attribute_asks_who() -> None:
    f = fact(attribute="대표이사", value="박하늘", value_type="text")
    question, _, _ = KO.fact(f, "하늘여행")
    assert question == "하늘여행의 대표이사는 누구인가요?"


def test_place_attribute_asks_where() -> None:
    f = fact(attribute="소재지", value="도쿄 신주쿠구", value_type="text")
    question, answer, _ = KO.fact(f, "도쿄 사무소")
    assert question == "도쿄 사무소는 어디에 있나요?"
    assert answer == "도쿄 사무소는 도쿄 신주쿠구에 있습니다."


def test_other_text_attribute_asks_what() -> None:
    f = fact(attribute="업종", value="종합여행업", value_type="text")
    question, _, _ = KO.fact(f, "하늘여행")
    assert question == "하늘여행의 업종은 무엇인가요?"


def test_qualified_fact_names_the_year() -> None:
    f = fact(attribute="매출액", value="185억 원", value_type="money", number=1.85e10, unit="원", qualifier="2023")
    question, answer, template = KO.fact(f, "하늘여행")
    assert question == "2023년 하늘여행의 매출액은 얼마인가요?"
    assert answer == "2023년 하늘여행의 매출액은 185억 원입니다."
    assert template == "ko.qualified"


def test_timeline_event_noun_phrase() -> None:
    f = fact(attribute="부산 지점 개설", value="2012년 5월", value_type="date", date_key="2012-05", source="timeline")
    question, answer, template = KO.fact(f, "하늘여행")
    assert question == "하늘여행의 부산 지점 개설은 언제인가요?"
    assert answer == "하늘여행의 부산 지점 개설은 2012년 5월입니다."
    assert template == "ko.event"
    noted = f.model_copy(update={"attribute": "지역상생캠퍼스(구 하곡광업소 부지) 개관"})
    assert KO.fact(noted, "서령대학교")[0] == "서령대학교의 지역상생캠퍼스 개관은 언제인가요?"  # type: ignore[index]


def test_a_timeline_event_of_the_subjects_own_kind_is_asked_with_its_verb() -> None:
    enacted = fact(
        attribute="규정 제정", value="2019년 4월 1일", value_type="date", date_key="2019-04-01", source="timeline"
    )
    question, answer, template = KO.fact(enacted, "출장비 규정")
    assert (question, answer) == ("출장비 규정은 언제 제정되었나요?", "출장비 규정은 2019년 4월 1일에 제정되었습니다.")
    assert template == "ko.event.own"
    # another page's subject keeps the noun phrase: the company's "규정 제정" is not the company being enacted
    assert KO.fact(enacted, "하늘여행")[0] == "하늘여행의 규정 제정은 언제인가요?"  # type: ignore[index]
    launched = fact(attribute="여행 출시", value="2019년", value_type="date", date_key="2019", source="timeline")
    assert KO.fact(launched, "하늘여행")[2] != "ko.event.own"  # type: ignore[index]  # the company is not launched


def test_timeline_event_clause() -> None:
    f = fact(
        attribute="부산 지점을 개설했다", value="2012년 5월", value_type="date", date_key="2012-05", source="timeline"
    )
    question, answer, template = KO.fact(f, "하늘여행")
    assert question == "하늘여행이 부산 지점을 개설한 것은 언제인가요?"
    assert answer == "하늘여행이 부산 지점을 개설한 것은 2012년 5월입니다."
    assert template == "ko.event.clause"


def test_timeline_with_several_events_has_no_question() -> None:
    f = fact(
        attribute="부산 지점 개설, 도쿄 사무소 개설",
        value="2019년",
        value_type="date",
        date_key="2019",
        source="timeline",
    )
    assert KO.fact(f, "하늘여행") is None


def test_sentence_fact_puts_the_question_word_in_place() -> None:
    sentence = "하늘여행은 2008년 3월 15일 서울 종로구에서 설립되었다."
    f = fact(
        attribute="하늘여행은 … 서울 종로구에서 설립되었다.",
        value="2008년 3월 15일",
        value_type="date",
        date_key="2008-03-15",
        source="sentence",
        evidence=sentence,
        end=len(sentence),
    )
    question, answer, template = KO.fact(f, "하늘여행")
    assert question == "하늘여행은 언제 서울 종로구에서 설립되었나요?"
    assert answer == "하늘여행은 2008년 3월 15일 서울 종로구에서 설립되었습니다."  # the sentence, in the polite style
    assert template == "ko.sentence"


def test_sentence_without_topic_gets_the_subject() -> None:
    sentence = "2012년 5월 부산 지점을 열었다."
    f = fact(
        attribute="… 부산 지점을 열었다.",
        value="2012년 5월",
        value_type="date",
        date_key="2012-05",
        source="sentence",
        evidence=sentence,
    )
    phrased = KO.fact(f, "하늘여행")
    assert phrased is not None
    assert phrased[0] == "하늘여행은 언제 부산 지점을 열었나요?"


def test_sentence_amount_takes_the_particle_of_the_question_word() -> None:
    sentence = "하늘여행은 2024년에 매출 212억 원을 기록했다."
    f = fact(
        attribute="하늘여행은 2024년에 매출 …을 기록했다.",
        value="212억 원",
        value_type="money",
        number=2.12e10,
        unit="원",
        source="sentence",
        evidence=sentence,
    )
    phrased = KO.fact(f, "하늘여행")
    assert phrased is not None
    assert phrased[0] == "하늘여행은 2024년에 매출 얼마를 기록했나요?"


def test_sentence_with_unknown_ending_has_no_question() -> None:
    sentence = "하늘여행은 2008년 3월 15일 설립"
    f = fact(attribute="…", value="2008년 3월 15일", value_type="date", source="sentence", evidence=sentence)
    assert KO.fact(f, "하늘여행") is None


@pytest.mark.parametrize(
    ("higher", "kind", "question_word", "answer_word"),
    [
        (True, "number", "더 높은", "더 높습니다"),
        (False, "number", "더 낮은", "더 낮습니다"),
        (True, "date", "더 늦은", "더 늦습니다"),
        (False, "date", "더 이른", "더 이릅니다"),
    ],
)
def test_compare(higher: bool, kind: str, question_word: str, answer_word: str) -> None:
    winner = 0 if higher else 1
    question, answer, template = KO.compare(
        ["제주 힐링", "교토 미식"], "판매가", ["1,890,000원", "1,290,000원"], winner, higher, kind
    )
    assert question == f"제주 힐링과 교토 미식 중 판매가가 {question_word} 것은 어느 쪽인가요?"
    winner_name = ["제주 힐링", "교토 미식"][winner]
    assert answer.startswith(f"{winner_name}의 판매가가 {answer_word}")
    assert "1,890,000원" in answer and "1,290,000원" in answer
    assert template == "ko.compare"


def test_a_relation_is_asked_backwards_only_for_a_role_a_person_holds() -> None:
    manager = kv_fact("담당자", "이준호")
    product = kv_fact("관련 상품", "교토 미식 투어")
    asked = Korean().relation(manager, "세진전자 계약", True, "계약")
    assert asked is not None and asked[0] == "이준호가 담당자를 맡고 있는 계약은 무엇인가요?"
    assert Korean().relation(product, "세진전자 계약", True, "계약") is None  # a product holds no role


def test_a_period_qualifier_is_asked_from_to_before_the_subject() -> None:
    role = kv_fact("직책", "부산지점장", qualifier="2012년 5월~현재")
    question, answer, _ = Korean().fact(role, "오승민")
    assert question == "2012년 5월부터 현재까지 오승민의 직책은 무엇인가요?"
    assert answer == "2012년 5월부터 현재까지 오승민의 직책은 부산지점장입니다."
    # a period that is over is asked in the past
    past = kv_fact("역할", "일본 상품기획 과장", qualifier="2001년~2007년")
    question, answer, _ = Korean().fact(past, "박하늘")
    assert question == "2001년부터 2007년까지 박하늘의 역할은 무엇이었나요?"
    assert answer == "2001년부터 2007년까지 박하늘의 역할은 일본 상품기획 과장이었습니다."
    lead = kv_fact("팀장", "오승민", qualifier="2015년~2019년")
    assert Korean().fact(lead, "영업팀")[0] == "2015년부터 2019년까지 영업팀의 팀장은 누구였나요?"
    revenue = kv_fact("매출액", "63억 원", "money", qualifier="2021년")
    assert Korean().fact(revenue, "하늘여행")[0] == "2021년 하늘여행의 매출액은 얼마인가요?"


def test_two_hops_are_asked_with_one_possessive() -> None:
    first = kv_fact("담당자", "오승민")
    second = kv_fact("근무지", "부산 지점")
    question, _, _ = Korean().two_hop(first, second, "단체 여행 안전 관리 규정")
    assert question == "단체 여행 안전 관리 규정 담당자의 근무지는 어디인가요?"


def _sentence_fact(sentence: str, value: str, value_type: str, **fields: Any) -> FactNode:
    return fact(
        attribute="…",
        value=value,
        value_type=value_type,
        source="sentence",
        evidence=sentence,
        end=len(sentence),
        **fields,
    )


def test_how_far_before_a_verb_is_asked_with_eolmana() -> None:
    f = _sentence_fact("소연도는 청람항에서 서쪽으로 약 17km 떨어져 있다.", "17km", "number", number=17.0, unit="km")
    phrased = KO.fact(f, "소연도")
    assert phrased is not None
    assert phrased[0] == "소연도는 청람항에서 서쪽으로 얼마나 떨어져 있나요?"  # not "약 얼마 떨어져"


def test_eolma_before_a_noun_stays() -> None:
    f = _sentence_fact("경영지원팀은 1억 원 이상 계약을 검토한다.", "1억 원", "money", number=100000000.0, unit="원")
    phrased = KO.fact(f, "경영지원팀")
    assert phrased is not None
    assert "얼마 이상 계약" in phrased[0]


def test_a_year_that_tells_which_noun_is_not_asked_when() -> None:
    # "2025년 사업 참여자도": the participants of the 2025 programme; nothing happened in 2025
    f = _sentence_fact("2025년 사업 참여자도 요건을 갖추면 다시 신청할 수 있다.", "2025년", "date", date_key="2025")
    assert KO.fact(f, "청년 월세 지원사업") is None


def test_staff_and_executives_are_not_asked_as_staff() -> None:
    question, _, _ = KO.fact(
        fact(attribute="임직원", value="142명", value_type="number", number=142.0, unit="명"), "누리담"
    )
    assert question == "누리담의 임직원은 몇 명인가요?"  # 임직원 counts the executives too
    question, _, _ = KO.fact(
        fact(attribute="직원 수", value="58명", value_type="number", number=58.0, unit="명"), "누리담"
    )
    assert question == "누리담의 직원은 몇 명인가요?"


def test_a_topic_after_a_bracket_is_a_topic() -> None:
    # "필터(모델명 AF-40H)는 …": the sentence names its own topic; the page's subject is not put before it
    f = _sentence_fact(
        "교체용 필터(모델명 AF-40H)는 공식 온라인몰에서 59,000원에 살 수 있다.",
        "59,000원",
        "money",
        number=59000.0,
        unit="원",
    )
    phrased = KO.fact(f, "에어소담 AP-40")
    assert phrased is not None
    assert not phrased[0].startswith("에어소담")


def test_a_dotted_date_is_no_phone_number() -> None:
    assert not is_contact_value("25.08.04.(월) ~ 25.08.17.(일), 14일간")
    assert not is_contact_value("2025.07.01")
    assert is_contact_value("054-632-7750") and is_contact_value("02.123.4567")


def test_a_post_on_a_form_is_not_asked_backwards() -> None:
    officer = kv_fact("개인정보 관리책임자", "한지우")
    assert Korean().relation(officer, "흙결공방", inverse=True, type_word="쇼핑몰") is None
    head = kv_fact("대표", "이소담")
    question, _, _ = Korean().relation(head, "흙결공방", inverse=True, type_word="공방")  # type: ignore[misc]
    assert question == "이소담이 대표를 맡고 있는 공방은 무엇인가요?"


def test_a_list_of_duties_is_no_list_of_names() -> None:
    from testgen.lang.ko import is_person_name

    assert not is_person_name("접수·수납·예약")  # no part opens with a surname
    assert is_person_name("이준호, 정다은")
    assert is_person_name("남궁민수")


def test_a_name_with_a_profession_after_it_is_a_person_and_a_profession_before_a_word_is_not() -> None:
    from testgen.lang.ko import is_person_name

    assert is_person_name("이도현 약사")
    assert is_person_name("김정숙 대표약사")
    assert is_person_name("박지훈 트레이너")
    assert not is_person_name("강사 채용")  # hiring teachers: 채 opens it, but the profession comes first


def test_a_hub_or_terminal_head_is_a_person_and_a_factory_is_not() -> None:
    from testgen.lang.ko import is_person_name

    assert is_person_name("배지훈 터미널장")
    assert is_person_name("윤상철 허브장")
    assert not is_person_name("김해 공장")  # 김 opens it, but a factory is a place
    assert not is_person_name("서울 주차장")


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        # the wh-word would land after a clause that runs on
        ("서령시는 1950년대 무연탄이 채굴되고 1955년 서령선이 개통하면서 인구가 급증했다.", "1955년"),
        ("요사채 일부가 소실되었다가 1962년 복구되었다.", "1962년"),
        # the year dates a noun, not what the sentence tells
        ("1989년 폐광 이후 손님이 급감해 한때 빈 점포가 40%를 넘었다.", "1989년"),
        # the date sits inside the predicate noun
        ("구단 역사상 최고의 순간은 2022년 FA컵 16강 진출이다.", "2022년"),
        # a time set off as the topic: the sentence's own subject is never told
        ("한국전쟁 때에는 요사채 일부가 1950년 소실되었다.", "1950년"),
    ],
)
def test_a_date_inside_another_clause_or_noun_is_not_asked_when(sentence: str, value: str) -> None:
    f = _sentence_fact(sentence, value, "date", date_key=value[:4])
    assert KO.fact(f, "서령시") is None


def test_eolma_before_a_predicate_noun_is_not_asked() -> None:
    f = _sentence_fact("주차장에서 절까지는 약 800m 오르막이다.", "800m", "number", number=800.0, unit="m")
    assert KO.fact(f, "운곡사") is None  # "얼마 오르막인가요" is no Korean
    kept = _sentence_fact("설립 연도는 2004년이다.", "2004년", "date", date_key="2004")
    assert KO.fact(kept, "서령 묵밥축제") is not None  # the value is the whole predicate


def test_a_timeline_event_that_chose_the_subject_is_asked_in_the_passive() -> None:
    assert event_clause("충청북도 대표 축제로 선정") == "충청북도 대표 축제로 선정된 것"
    assert event_clause("대학기본역량진단에서 역량강화대학 지정") == "대학기본역량진단에서 역량강화대학으로 지정된 것"
    assert event_clause("제주지점장으로 입사") == "제주지점장으로 입사한 것"
    # an event with its own subject cannot follow the page's subject; a noun ending in 이 is no subject
    assert event_clause("학교법인 서령학원이 서령실업초급대학 개교") is None
    assert event_clause("어린이 도서관 개관") == "어린이 도서관 개관"


def test_a_verb_in_the_past_with_yeotda_is_no_copula() -> None:
    f = _sentence_fact("1970년 귀국하여 서하대학교 해양학과 교수로 부임하였다.", "1970년", "date", date_key="1970")
    phrased = KO.fact(f, "남궁현")
    assert phrased is not None and phrased[0] == "남궁현은 언제 귀국하여 서하대학교 해양학과 교수로 부임하였나요?"


def test_a_sentence_whose_topic_is_a_person_keeps_it_alone() -> None:
    f = _sentence_fact(
        "김도윤 팀장은 학교별 기출 문제를 10년 가까이 모아 온 자료로 내신 대비반을 운영한다.",
        "10년",
        "number",
        number=10.0,
        unit="년",
    )
    phrased = KO.fact(f, "다온학원 강사")
    assert phrased is not None and phrased[0].startswith("김도윤 팀장은 ")  # not "다온학원 강사의 김도윤 팀장은"
    deal = _sentence_fact("갱신 협상은 2025년 3월에 시작된다.", "2025년 3월", "date", date_key="2025-03")
    asked = KO.fact(deal, "델타 농장 계약")
    assert asked is not None and asked[0].startswith("델타 농장 계약의 갱신 협상은")


def test_a_place_ending_in_jang_is_no_person_and_no_post() -> None:
    from testgen.lang.ko import is_person_name, person_label

    assert not is_person_name("서령종합운동장")  # a stadium, not 서령종합 the 운동장
    assert is_person_name("김하늘 운영위원장") and is_person_name("김철수팀장")
    assert not person_label("홈 구장") and person_label("위원장")


def test_a_day_of_the_month_or_the_minutes_of_a_clock_time_are_not_asked_as_counts() -> None:
    from factories import kv_fact

    from testgen.synth.phrasing.ko import Korean

    def said(evidence: str, value: str, unit: str) -> FactNode:
        fact = kv_fact(evidence.replace(value, "…"), value, "number", number=float(value[:-1]), unit=unit)
        return fact.model_copy(update={"source": "sentence", "evidence": evidence})

    day = said("5월 원비는 10일(금)에 자동이체됩니다.", "10일", "일")
    minutes = said("투약 시간은 점심 식사 후 12시 50분 전후를 원칙으로 합니다.", "50분", "분")
    assert Korean().fact(day, "햇살숲유치원") is None
    assert Korean().fact(minutes, "햇살숲유치원") is None


def test_a_target_or_level_is_higher_not_more() -> None:
    from testgen.synth.phrasing.ko import _more_of

    assert _more_of("월 가용성 목표 (%)") == ("더 높은가요", "더 높습니다")
    assert _more_of("인원") == ("더 많은가요", "더 많습니다")


def test_a_name_before_its_post_is_the_name() -> None:
    from testgen.lang.ko import name_before_post

    assert name_before_post("박서윤 팀장") == "박서윤"
    assert name_before_post("나상현 허브장") == "나상현"  # a post of the writer's own making, with 장
    assert name_before_post("이도현 약사") == "이도현"
    assert name_before_post("사무장 김영수") is None  # the post first
    assert name_before_post("연장보육 전담교사") is None  # four syllables: a post of two words
    assert name_before_post("성인 초급") is None


def test_a_posts_honorific_is_no_keyword() -> None:
    from testgen.categories._common import keywords_for_value

    assert keywords_for_value("최 소장님") == ["최 소장"]  # an answer may write "최 소장"
    assert keywords_for_value("김영호 소장님") == ["김영호"]
    assert keywords_for_value("담당 선생님") == ["담당 선생님"]  # no surname: a post, kept whole


def test_a_surname_and_a_post_is_a_person() -> None:
    from testgen.lang.ko import is_person_name

    assert is_person_name("홍 사장") and is_person_name("박 과장님") and is_person_name("김 기사님")
    # a public servant's rank, an office's head
    assert is_person_name("박서연 주무관") and is_person_name("윤정희 관장")
    assert not is_person_name("관리 사무소") and not is_person_name("안 내")
