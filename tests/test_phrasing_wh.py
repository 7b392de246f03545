"""The question word follows the kind of value, one table per language (see `WH` in each phraser)."""

from __future__ import annotations

import pytest
from factories import kv_fact as fact

from schemas import FactNode
from testgen.synth.phrasing.en import English
from testgen.synth.phrasing.ko import Korean

# (kind, fact, subject, expected question)
EN_ROWS = [
    ("person", fact("Account Manager", "Lena Fischer"), "Orbit Labs", "Who is Orbit Labs' account manager?"),
    (
        "date",
        fact("Renewal Date", "March 3, 2026", "date", date_key="2026-03-03"),
        "Orbit Labs",
        "When is Orbit Labs' renewal?",
    ),
    (
        "amount",
        fact("Annual Fee", "$4,000", "money", number=4000.0, unit="$"),
        "Orbit Labs",
        "How much is Orbit Labs' annual fee?",
    ),
    (
        "count",
        fact("Number of Stores", "12", "number", number=12.0),
        "Orbit Labs",
        "How many stores does Orbit Labs have?",
    ),
    ("place", fact("Venue", "Oslo"), "Orbit Labs", "Where is Orbit Labs' venue?"),
    (
        "duration",
        fact("Warranty", "2 years", "number", number=2.0, unit="years"),
        "Orbit Arm",
        "How long is Orbit Arm's warranty?",
    ),
    (
        "percent",
        fact("Stake", "15%", "percent", number=15.0, unit="%"),
        "Orbit Labs",
        "What percentage is Orbit Labs' stake?",
    ),
    ("other", fact("Industry", "Robotics"), "Orbit Labs", "What is Orbit Labs' industry?"),
    ("person-role", fact("Clinician", "Dr. Leontyne Abara"), "Fracture Clinic", "Who is Fracture Clinic's clinician?"),
    ("time", fact("Time", "09:00–12:00"), "Respiratory Clinic", "What time is Respiratory Clinic?"),
    ("days", fact("Days", "Tuesday and Thursday"), "Prenatal Clinic", "On which days is Prenatal Clinic held?"),
    ("day", fact("Day", "Saturday"), "Course A", "What day is Course A on?"),
    ("done-by", fact("Managed by", "Oller Wildlife Trust"), "Greyhame Moss", "Who is Greyhame Moss managed by?"),
    (
        "re-done",
        fact("Re-established", "1994", "date", date_key="1994"),
        "Tansley's Brewery",
        "When was Tansley's Brewery re-established?",
    ),
    ("post", fact("Post", "Treasurer"), "Dev Malhotra", "What post does Dev Malhotra hold?"),
    (
        "session",
        fact("Length (minutes)", "120 minutes", "number", number=120.0, unit="minutes"),
        "the Watercolour Course",
        "How long is each session of the Watercolour Course?",
    ),
    (
        "event-date",
        fact("Passenger closure", "2 March 1964", "date", date_key="1964-03-02"),
        "Oller Railway",
        "What is the date of Oller Railway's passenger closure?",
    ),
    (
        "room-named",
        fact("Room", "Seville"),
        "the Spanish Course",
        "Which room is the Spanish Course in?",
    ),
    (
        "room-numbered",
        fact("Room", "B204"),
        "the Pottery Class",
        "Which room is the Pottery Class in?",
    ),
    (
        "duration-short-unit",
        fact("Duration", "90 mins"),
        "Canopy Traverse",
        "How long does Canopy Traverse last?",
    ),
    (
        "room-of-a-person",
        fact("Room", "Acorns"),
        "Chloe Barraclough",
        "Which room does Chloe Barraclough work in?",
    ),
    (
        "part-done",
        fact("Dam completed", "1957", "date", date_key="1957"),
        "Coldwell Reservoir",
        "When was Coldwell Reservoir's dam completed?",
    ),
]


@pytest.mark.parametrize(("kind", "f", "subject", "question"), EN_ROWS, ids=[r[0] for r in EN_ROWS])
def test_english_question_word_per_kind(kind: str, f: FactNode, subject: str, question: str) -> None:
    phrased = English().fact(f, subject)
    assert phrased is not None
    assert phrased[0] == question
    assert f.value in phrased[1]  # the answer states the value verbatim


@pytest.mark.parametrize(
    ("f", "not_wh"),
    [
        (fact("Contact Number", "+1 555 0100 22"), "Who"),
        (fact("Contact", "support@orbit.example"), "Who"),
        (fact("Contact", "+44 20 7946 0958"), "Who"),
        (fact("Owner", "Operations"), "Who"),  # a department, not a person's name
        (fact("Visa", "Not required"), "Who"),
    ],
)
def test_english_values_that_are_not_people_are_not_who(f: FactNode, not_wh: str) -> None:
    phrased = English().fact(f, "Orbit Labs")
    assert phrased is not None
    assert not phrased[0].startswith(not_wh), phrased[0]
    assert phrased[0].startswith("What"), phrased[0]


KO_ROWS = [
    ("person", fact("부서장", "이준호"), "영업팀", "영업팀의 부서장은 누구인가요?"),
    (
        "date",
        fact("갱신일", "2026년 3월 3일", "date", date_key="2026-03-03"),
        "세진 계약",
        "세진 계약의 갱신일은 언제인가요?",
    ),
    (
        "amount",
        fact("자본금", "30억 원", "money", number=3e9, unit="원"),
        "하늘여행",
        "하늘여행의 자본금은 얼마인가요?",
    ),
    ("count", fact("지점 수", "4곳", "number", number=4.0, unit="곳"), "하늘여행", "하늘여행의 지점 수는 몇 곳인가요?"),
    ("count-days", fact("연차", "15일", "number", number=15.0, unit="일"), "김민지", "김민지의 연차는 며칠인가요?"),
    ("place", fact("근무지", "부산"), "김민지", "김민지의 근무지는 어디인가요?"),
    ("place-ground", fact("홈 구장", "서령종합운동장 (6,800석)"), "서령 FC", "서령 FC의 홈 구장은 어디인가요?"),
    (
        "duration",
        fact("보증 기간", "2년", "number", number=2.0, unit="년"),
        "제주 투어",
        "제주 투어의 보증 기간은 얼마나 되나요?",
    ),
    (
        "percent",
        fact("할인율", "22%", "percent", number=22.0, unit="%"),
        "누리 계약",
        "누리 계약의 할인율은 몇 퍼센트인가요?",
    ),
    ("other", fact("업종", "종합여행업"), "하늘여행", "하늘여행의 업종은 무엇인가요?"),
    ("free", fact("수강료", "무료"), "인문학 아카데미", "인문학 아카데미의 수강료는 얼마인가요?"),
    ("closed-days", fact("휴무일", "설날·추석 당일"), "솔빛마트", "솔빛마트의 휴무일은 언제인가요?"),
    (
        "person-noted",
        fact("세미나 담당", "정유나 (010-2254-8830)"),
        "연구실 세미나",
        "연구실 세미나의 세미나 담당은 누구인가요?",
    ),
    (
        "contact-for",
        fact("불편 접수", "고객센터 031-555-0199"),
        "솔빛마트",
        "솔빛마트의 불편 접수는 어디로 하나요?",
    ),
    (
        "person-late",
        fact("설립자", "고(故) 정만수 (정가식품 창업주)"),
        "늘품재단",
        "늘품재단을 세운 사람은 누구인가요?",
    ),
]


@pytest.mark.parametrize(("kind", "f", "subject", "question"), KO_ROWS, ids=[r[0] for r in KO_ROWS])
def test_korean_question_word_per_kind(kind: str, f: FactNode, subject: str, question: str) -> None:
    phrased = Korean().fact(f, subject)
    assert phrased is not None
    assert phrased[0] == question
    assert f.value in phrased[1]
    assert "몇 일" not in phrased[0]


@pytest.mark.parametrize(
    "f",
    [
        fact("비자", "무비자 30일"),
        fact("비자", "관광 비자"),
        fact("담당자 연락처", "010-1234-5678"),
        fact("담당자", "미정"),
        fact("책임자", "영업팀"),
    ],
)
def test_korean_values_that_are_not_people_are_not_who(f: FactNode) -> None:
    phrased = Korean().fact(f, "하늘여행")
    assert phrased is not None
    assert "누구" not in phrased[0], phrased[0]


def test_korean_days_in_a_sentence_are_myeochil() -> None:
    f = fact("환불", "7일", "number", number=7.0, unit="일").model_copy(
        update={"source": "sentence", "evidence": "하늘여행은 취소 후 7일 안에 환불한다."}
    )
    phrased = Korean().fact(f, "하늘여행")
    assert phrased is not None
    assert phrased[0] == "하늘여행은 취소 후 며칠 안에 환불하나요?"
    noted = fact("환불", "5일", "number", number=5.0, unit="일").model_copy(
        update={"source": "sentence", "evidence": "하늘여행은 취소 후 5일(영업일) 안에 환불한다."}
    )
    phrased = Korean().fact(noted, "하늘여행")
    # the note stays in the answer
    assert phrased is not None and phrased[0] == "하늘여행은 취소 후 며칠 안에 환불하나요?"


@pytest.mark.parametrize(("number", "unit", "wh"), [(3, "个", "几个"), (14, "个", "多少个"), (2.4, "km", "多少km")])
def test_chinese_asks_ji_only_for_a_small_whole_number(number: float, unit: str, wh: str) -> None:
    from testgen.synth.phrasing.cjk import Chinese

    value = f"{number:g}{unit}"
    assert Chinese().wh(fact("长度", value, "number", number=number, unit=unit)) == wh


@pytest.mark.parametrize(
    ("label", "phrase"),
    [("Phone", "phone number"), ("Tel.", "phone number"), ("Fax", "fax number"), ("Units", "number of units")],
)
def test_a_bare_column_label_reads_as_what_it_counts_or_reaches(label: str, phrase: str) -> None:
    from testgen.synth.phrasing.en import attr_phrase

    assert attr_phrase(label) == phrase
    assert attr_phrase(f"{label} Policy") == f"{label.lower()} policy"  # a longer label stays as written


@pytest.mark.parametrize(
    ("language", "sentence", "date", "question"),
    [
        # Japanese: the topic keeps its place and the question word follows it; without a topic it opens the clause
        (
            "ja",
            "1839年、オランダはベルギーの独立を承認した。",
            "1839年",
            "オランダはいつベルギーの独立を承認しましたか？",
        ),
        (
            "ja",
            "2013年2月4日、ウィキデータの項目に文が導入された。",
            "2013年2月4日",
            "いつウィキデータの項目に文が導入されましたか？",
        ),
        ("ja", "2004年に新しい酵素が発見された。", "2004年", "いつ新しい酵素が発見されましたか？"),
        ("ja", "2018年には石油輸出国機構に加盟した。", "2018年", "いつ石油輸出国機構に加盟しましたか？"),
        # Chinese: a cleft of the clause; 了 marks the completed event in the statement, not in the question
        ("zh", "1990年，门罗被选入篮球名人堂。", "1990年", "门罗被选入篮球名人堂是在什么时候？"),
        ("zh", "1847年，本杰明最先发表了攀梗狸藻的描述。", "1847年", "本杰明最先发表攀梗狸藻的描述是在什么时候？"),
        # a second clause would stay in the question unasked
        ("ja", "1863年、ロックフェラーが石油精製業に乗り出し、スタンダード石油を設立した。", "1863年", None),
        ("zh", "1990年，门罗退役，随后加入名人堂。", "1990年", None),
    ],
)
def test_sentence_opening_with_its_date_asks_the_clause_after_it(
    language: str, sentence: str, date: str, question: str | None
) -> None:
    from testgen.synth.phrasing.cjk import Chinese, Japanese

    phraser = Japanese() if language == "ja" else Chinese()
    seed = fact("…", date, "date").model_copy(update={"source": "sentence", "evidence": sentence})
    expected = None if question is None else (question, sentence, f"{language}.sentence")
    assert phraser._from_sentence(seed) == expected


def test_a_date_label_of_things_and_their_verb_is_asked_with_the_verb() -> None:
    f = fact("Transport applications open", "3 March 2025", "date", date_key="2025-03-03")
    phrased = English().fact(f, "the Pupil Transport Service")
    assert phrased is not None
    assert phrased[0] == "When do transport applications open for the Pupil Transport Service?"


@pytest.mark.parametrize(
    ("label", "value", "question", "answer"),
    [
        (
            "DBS expires",
            "May 2027",
            "When does Sensei Priya Nair's DBS expire?",
            "Sensei Priya Nair's DBS expires in May 2027.",
        ),
        (
            "Lease ends",
            "31 March 2026",
            "When does Sensei Priya Nair's lease end?",
            "Sensei Priya Nair's lease ends on 31 March 2026.",
        ),
    ],
)
def test_a_date_label_of_one_thing_and_its_verb_is_asked_with_the_verb(
    label: str, value: str, question: str, answer: str
) -> None:
    phrased = English().fact(fact(label, value, "date"), "Sensei Priya Nair")
    assert phrased is not None
    assert phrased[:2] == (question, answer)


@pytest.mark.parametrize(
    ("name", "person"),
    [
        ("Maggie Oduya", True),
        ("Sensei Priya Nair", True),
        ("Larkfield Row Housing", False),  # a body's name ends in what it is
        ("Brightspoke Couriers", False),
        ("Hollowbrook Orchard", False),
        ("Redmarsh Karate Club", False),
        ("Fenwick Vale Archers", False),  # a club named by the people in it
        ("Calder Vale Wheelers", False),
        ("Jo Walker", True),
    ],
)
def test_an_english_name_ending_in_a_body_or_business_is_no_persons(name: str, person: bool) -> None:
    from testgen.lang.en import is_person_name

    assert is_person_name(name) is person


@pytest.mark.parametrize(
    ("label", "value", "subject", "question"),
    [
        ("Number", "0800 111 999", "National Gas Emergency", "What is the phone number for National Gas Emergency?"),
        ("Contact", "info@tidewater.co.uk", "Tidewater Roasters", "What is the e-mail address for Tidewater Roasters?"),
        ("Contact", "Mark Whitfield", "Environmental Health", "Who is the contact for Environmental Health?"),
        ("Phone", "07700 900123", "Maggie Oduya", "What is Maggie Oduya's phone number?"),  # a person's own number
    ],
)
def test_a_directorys_contact_column_is_asked_as_how_to_reach_the_row(
    label: str, value: str, subject: str, question: str
) -> None:
    phrased = English().fact(fact(label, value, "text"), subject)
    assert phrased is not None and phrased[0] == question
