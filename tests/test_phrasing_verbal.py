"""Common attributes are asked with their verb, labels are not copied verbatim where a natural form exists,
and a label that is really a pasted value gets no question."""

from __future__ import annotations

import pytest
from factories import kv_fact as fact

from schemas import FactNode
from testgen.synth.phrasing.en import English
from testgen.synth.phrasing.ko import Korean, polite


def date(attribute: str, value: str = "March 3, 2021", key: str = "2021-03-03") -> FactNode:
    return fact(attribute, value, "date", date_key=key)


EN = [
    (date("Established"), "Orbit Labs", "When was Orbit Labs founded?", "Orbit Labs was founded on March 3, 2021."),
    (fact("Ages", "13–15"), "Teen Trek", "What ages is Teen Trek for?", "The ages for Teen Trek are 13–15."),
    (
        fact("Dates", "6/24 – 7/17"),
        "Little Sprouts",
        "What are the dates of Little Sprouts?",
        "The dates of Little Sprouts are 6/24 – 7/17.",
    ),
    (date("Date of Birth"), "Lena Fischer", "When was Lena Fischer born?", "Lena Fischer was born on March 3, 2021."),
    (date("Launch Date"), "Orbit Arm", "When was Orbit Arm launched?", "Orbit Arm was launched on March 3, 2021."),
    (
        date("First published", "2005", "2005"),
        "ADS-1",
        "When was ADS-1 first published?",
        "ADS-1 was first published in 2005.",
    ),
    (
        date("Latest revision", "2019", "2019"),
        "ADS-1",
        "When was ADS-1 last revised?",
        "ADS-1 was last revised in 2019.",
    ),
    (date("Start Date"), "Lena Fischer", "When did Lena Fischer join?", "Lena Fischer joined on March 3, 2021."),
    (
        date("Maintainer since", "2022", "2022"),
        "Obi Nwankwo-Leary",
        "Since when has Obi Nwankwo-Leary been a maintainer?",
        "Obi Nwankwo-Leary has been a maintainer since 2022.",
    ),
    (
        date("Term Began", "August 2024", "2024-08"),
        "Samuel Idowu",
        "When did Samuel Idowu's term begin?",
        "Samuel Idowu's term began in August 2024.",
    ),
    (
        date("Term ends", "Dec 31, 2026", "2026-12-31"),
        "Wen-Li Harcourt",
        "When does Wen-Li Harcourt's term end?",
        "Wen-Li Harcourt's term ends on Dec 31, 2026.",
    ),
    (
        date("Start Date"),
        "the contract with Delta Farms",
        "When does the contract with Delta Farms start?",
        "The contract with Delta Farms starts on March 3, 2021.",
    ),
    (
        date("Expiry Date"),
        "the contract with Delta Farms",
        "When does the contract with Delta Farms expire?",
        "The contract with Delta Farms expires on March 3, 2021.",
    ),
    (
        date("Signed On"),
        "the contract with Delta Farms",
        "When was the contract with Delta Farms signed?",
        "The contract with Delta Farms was signed on March 3, 2021.",
    ),
    (
        fact("Founded By", "Lena Fischer and Omar Haddad"),
        "Orbit Labs",
        "Who founded Orbit Labs?",
        "Orbit Labs was founded by Lena Fischer and Omar Haddad.",
    ),
    (
        fact("Reports To", "Omar Haddad"),
        "Lena Fischer",
        "Who does Lena Fischer report to?",
        "Lena Fischer reports to Omar Haddad.",
    ),
    (
        fact("Manager", "Omar Haddad"),
        "the Orbit project",
        "Who manages the Orbit project?",
        "The Orbit project is managed by Omar Haddad.",
    ),
    (
        fact("Headquarters", "Oslo, Norway"),
        "Orbit Labs",
        "Where is Orbit Labs headquartered?",
        "Orbit Labs is headquartered in Oslo, Norway.",
    ),
    (
        fact("Location", "Bergen"),
        "the Bergen plant",
        "Where is the Bergen plant located?",
        "The Bergen plant is located in Bergen.",
    ),
    (
        fact("Employees", "148 employees", "number", number=148.0, unit="employees"),
        "Orbit Labs",
        "How many employees does Orbit Labs have?",
        "Orbit Labs has 148 employees.",
    ),
    (
        fact("Price (USD)", "12,500", "money", number=12500.0, unit="USD"),
        "Orbit Arm",
        "How much does Orbit Arm cost in USD?",
        "Orbit Arm costs 12,500 USD.",
    ),
    (
        fact("Starter Tier Price", "$99/month", "money", number=99.0, unit="$"),
        "Orbit Cloud",
        "How much does Orbit Cloud's starter tier cost?",
        "Orbit Cloud's starter tier costs $99/month.",
    ),
    (
        # the price charged to community groups: no "community" that costs
        fact("Community price", "£79", "money", number=79.0, unit="£"),
        "CX-48",
        "What is CX-48's community price?",
        "CX-48's community price is £79.",
    ),
    (
        fact("Term", "24 months", "number", number=24.0, unit="months"),
        "the contract with Delta Farms",
        "How long does the contract with Delta Farms last?",
        "The contract with Delta Farms lasts 24 months.",
    ),
    (
        date("Accredited Since", "1968", "1968"),
        "Orbit College",
        "Since when has Orbit College been accredited?",
        "Orbit College has been accredited since 1968.",
    ),
]


@pytest.mark.parametrize(("f", "subject", "question", "answer"), EN, ids=[f"{r[0].attribute}-{r[1]}" for r in EN])
def test_english_verbal_forms(f: FactNode, subject: str, question: str, answer: str) -> None:
    phrased = English().fact(f, subject)
    assert phrased is not None
    assert (phrased[0], phrased[1]) == (question, answer)
    assert f.value in phrased[1]


def test_english_plural_labels_agree_and_single_amounts_are_singular() -> None:
    q, a, _ = English().fact(fact("Career Goals", "Lead a platform team"), "Lena Fischer")  # type: ignore[misc]
    assert q == "What are Lena Fischer's career goals?"
    assert a == "Lena Fischer's career goals are Lead a platform team."
    q, _, _ = English().fact(fact("Volume Discounts", "10%", "percent", number=10.0, unit="%"), "Orbit Labs")  # type: ignore[misc]
    assert q == "What is Orbit Labs' volume discount?"  # a discount is asked as a rate: "What is"


def test_a_service_on_a_price_list_is_asked_what_it_costs_at_the_place() -> None:
    exam = fact("Wellness or sick-pet exam Price", "$68", "money", number=68.0, unit="$")
    q, a, _ = English().fact(exam, "Tallow Creek Veterinary Hospital")  # type: ignore[misc]
    assert q == "How much does the wellness or sick-pet exam cost at Tallow Creek Veterinary Hospital?"
    assert a == "The wellness or sick-pet exam costs $68 at Tallow Creek Veterinary Hospital."
    # a product's own price label, or a one-word item, keeps the possessive
    q, _, _ = English().fact(fact("Community price", "£63", "money", number=63.0, unit="£"), "QC-4")  # type: ignore[misc]
    assert q == "What is QC-4's community price?"


def _row(attribute: str, value: str, row: str, value_type: str = "text", **fields: object) -> FactNode:
    """A table fact of row `row` on the page "Price list 2025", glued "<row> <column>" as the miner writes it."""
    return fact(attribute, value, value_type, **fields).model_copy(
        update={"source": "table", "subject": "Price list 2025", "evidence": f"| {row} | {value} |"}
    )


def test_a_row_of_an_organisations_page_is_asked_as_a_thing_at_the_organisation() -> None:
    code = _row("Linen tablecloth Code", "EQ02", "Linen tablecloth")
    q, a, _ = English().fact(code, "Saffron & Thyme Events")  # type: ignore[misc]
    assert q == "What is the code of the linen tablecloth at Saffron & Thyme Events?"
    assert a == "The code of the linen tablecloth at Saffron & Thyme Events is EQ02."
    socks = _row("Bed socks Price", "£19.50", "Bed socks", "money", number=19.5, unit="£")
    q, _, _ = English().fact(socks, "Hollins Ridge Alpacas")  # type: ignore[misc]
    assert q == "What is the price of the bed socks at Hollins Ridge Alpacas?"  # plural: no "How much does … cost"
    fee = _row("Directors-only payroll Fee", "£120", "Directors-only payroll", "money", number=120.0, unit="£")
    q, _, _ = English().fact(fee, "Fenwick Accountants")  # type: ignore[misc]
    assert q == "How much is the fee for the directors-only payroll at Fenwick Accountants?"
    # a row carrying the organisation's name names it whole
    yarn = _row("Hollins Ridge DK yarn Price", "£8.50", "Hollins Ridge DK yarn", "money", number=8.5, unit="£")
    q, _, _ = English().fact(yarn, "Hollins Ridge Alpacas")  # type: ignore[misc]
    assert q == "How much does Hollins Ridge DK yarn cost?"
    # a time slot or a variant is no thing at the organisation, and the page's own thing keeps its possessive
    slot = _row("Morning Time window", "09:00–12:00", "Morning")
    assert "the morning at" not in (English().fact(slot, "Pellow Gallery") or ("",))[0]
    own = _row("Basic tier Price", "$1,000", "Basic tier", "money", number=1000.0, unit="$")
    q, _, _ = English().fact(own.model_copy(update={"subject": "Carllm"}), "Carllm")  # type: ignore[misc]
    assert q == "How much does Carllm's basic tier cost?"


def test_a_price_under_a_currency_sign_column_shows_the_sign_before_each_figure() -> None:
    q, a, _ = English().compare(["Jeans", "Skirt"], "Price (£)", ["15.00", "14.00"], 1, False, "number")  # type: ignore[misc]
    assert (q, a) == ("Which costs less: Jeans or Skirt?", "Skirt costs less (Jeans: £15.00; Skirt: £14.00).")


def test_a_row_after_its_code_on_a_business_own_price_list_is_asked_at_the_business() -> None:
    code = _row("Linen tablecloth Code", "EQ02", "Linen tablecloth").model_copy(
        update={"subject": "SAFFRON & THYME EVENTS LTD", "evidence": "| EQ02 | Linen tablecloth | each | 8.50 |"}
    )
    q, _, _ = English().fact(code, "Saffron & Thyme Events Ltd")  # type: ignore[misc]
    # the page is the business's own, titled with its name: its rows are what it offers
    assert q == "What is the code of the linen tablecloth at Saffron & Thyme Events Ltd?"


def test_words_in_capitals_for_stress_are_written_as_a_name() -> None:
    from testgen.synth.phrasing.en import _uncapped

    shouted = ("When did Brian agree to be ACTING TREASURER?", "Brian agreed to be ACTING TREASURER in 2025.", "t")
    assert _uncapped(shouted) == (
        "When did Brian agree to be Acting Treasurer?",
        "Brian agreed to be Acting Treasurer in 2025.",
        "t",
    )
    assert _uncapped(("When was the NHS app launched?", "In 2018.", "t"))[0] == "When was the NHS app launched?"  # type: ignore[index]


def test_what_a_person_does_is_asked_as_what_they_are_in_charge_of_in_korean() -> None:
    q, a, _ = Korean().fact(fact("하는 일", "세탁 총괄, 얼룩 제거"), "최영순")  # type: ignore[misc]
    assert q == "최영순은 무엇을 담당하나요?"  # not "최영순의 하는 일은 무엇인가요?"
    assert a == "최영순의 담당 업무는 세탁 총괄, 얼룩 제거입니다."


def test_a_percentage_under_a_group_of_people_gets_no_question() -> None:
    # "Trek customer: 10%" is the group's discount: "What percentage is X's trek customer?" asks nothing
    assert English().fact(fact("Trek customer", "10%", "percent", number=10.0, unit="%"), "Hollins Ridge") is None


@pytest.mark.parametrize(
    "label",
    [
        "10:30",
        "2021-06",
        "March",
        "VL-008 email",
        "CW24209 travel time",
        "jane@orbit.example",
        "Funding ($1M-5M)",
        "The thing we did after the long winter break",
        "9 unit price (INR)",
    ],
)
def test_english_pasted_labels_get_no_question(label: str) -> None:
    assert English().fact(fact(label, "Lena Fischer"), "Orbit Labs") is None


def test_english_labels_with_a_year_or_quarter_are_kept() -> None:
    phrased = English().fact(fact("Q1 Target", "$2 million", "money", number=2e6, unit="$"), "Orbit Labs")
    assert phrased is not None and phrased[0] == "How much is Orbit Labs' Q1 target?"


KO = [
    (
        date("설립일", "2008년 3월 15일", "2008-03-15"),
        "하늘여행",
        "하늘여행은 언제 설립되었나요?",
        "하늘여행은 2008년 3월 15일에 설립되었습니다.",
    ),
    (
        date("만료일", "2026년 6월 30일", "2026-06-30"),
        "세진 계약",
        "세진 계약은 언제 만료되나요?",
        "세진 계약은 2026년 6월 30일에 만료됩니다.",
    ),
    (
        date("시작일", "2024년 1월 1일", "2024-01-01"),
        "세진 계약",
        "세진 계약은 언제 시작되나요?",
        "세진 계약은 2024년 1월 1일에 시작됩니다.",
    ),
    (
        date("입사일", "2019년 3월 4일", "2019-03-04"),
        "정다은",
        "정다은은 언제 입사했나요?",
        "정다은은 2019년 3월 4일에 입사했습니다.",
    ),
    (
        fact("본사", "서울 종로구"),
        "하늘여행",
        "하늘여행의 본사는 어디에 있나요?",
        "하늘여행의 본사는 서울 종로구에 있습니다.",
    ),
    (
        fact("직원 수", "120", "number", number=120.0),
        "하늘여행",
        "하늘여행의 직원은 몇 명인가요?",
        "하늘여행의 직원은 120명입니다.",
    ),
    (
        fact("판매가", "590,000원", "money", number=590000.0, unit="원"),
        "후쿠오카 온천",
        "후쿠오카 온천은 얼마인가요?",
        "후쿠오카 온천은 590,000원입니다.",
    ),
    (fact("상사", "박하늘"), "김민지", "김민지는 누구에게 보고하나요?", "김민지는 박하늘에게 보고합니다."),
    (
        fact("담당자", "이준호"),
        "세진전자 계약",
        "세진전자 계약 담당자는 누구인가요?",
        "세진전자 계약 담당자는 이준호입니다.",
    ),
    (
        fact("설립자", "박하늘"),
        "하늘여행",
        "하늘여행을 세운 사람은 누구인가요?",
        "하늘여행을 세운 사람은 박하늘입니다.",
    ),
]


@pytest.mark.parametrize(("f", "subject", "question", "answer"), KO, ids=[f"{r[0].attribute}-{r[1]}" for r in KO])
def test_korean_verbal_forms(f: FactNode, subject: str, question: str, answer: str) -> None:
    phrased = Korean().fact(f, subject)
    assert phrased is not None
    assert (phrased[0], phrased[1]) == (question, answer)
    assert f.value in phrased[1]


def test_korean_verbal_particles_follow_the_final_consonant() -> None:
    f = date("설립일", "2011년", "2011")
    assert Korean().fact(f, "누리항공")[0] == "누리항공은 언제 설립되었나요?"  # type: ignore[index]
    assert Korean().fact(f, "하늘여행사")[0] == "하늘여행사는 언제 설립되었나요?"  # type: ignore[index]


def test_a_persons_duty_and_days_are_asked_with_their_verb_and_a_documents_are_not() -> None:
    duty = Korean().fact(fact("담당", "토요일 오픈·마감"), "송하율")
    assert duty is not None and duty[0] == "송하율은 무엇을 담당하나요?"
    assert duty[1] == "송하율의 담당 업무는 토요일 오픈·마감입니다."
    ruled = Korean().fact(fact("담당", "정비팀 공동 관리"), "보험·보증금 규정")
    assert ruled is not None and "무엇을 담당" not in ruled[0]
    days = English().fact(fact("Usual days", "Tue–Sat"), "Imogen Hartley")
    assert days is not None and days[0] == "Which days does Imogen Hartley usually work?"
    worked = English().fact(fact("Working days", "Mon–Thu"), "Tom Marsh")
    assert worked is not None and worked[0] == "Which days does Tom Marsh work?"
    room = English().fact(fact("Usual days", "Mon, Wed"), "the wheel-throwing class")
    assert room is not None and "work" not in room[0]


def test_korean_verbal_form_needs_a_person_for_who() -> None:
    phrased = Korean().fact(fact("담당자", "영업팀"), "세진전자 계약")
    assert phrased is not None
    assert "누구" not in phrased[0]


@pytest.mark.parametrize(
    ("attribute", "value", "question"),
    [
        ("Team", "Sales", "How many people are in the Sales team?"),
        ("Department", "Finance Department", "How many people are in the Finance Department?"),
        ("Job Title", "Data Engineer", "How many people hold the title Data Engineer?"),
        ("Location", "Austin, Texas", "How many people are based in Austin, Texas?"),
        ("Account Manager", "Elliot Park", "How many people have Elliot Park as their account manager?"),
    ],
)
def test_counts_over_a_group_a_title_or_a_place_read_naturally(attribute: str, value: str, question: str) -> None:
    asked, _, _ = English().count("person", attribute, value, ["A", "B"])
    assert asked == question


def test_a_count_per_period_is_asked_how_many_and_a_plan_includes_it() -> None:
    plan = English().fact(fact("Check-ups per year", "14", "number"), "the Plus Plan")
    assert plan is not None and plan[:2] == (
        "How many check-ups per year does the Plus Plan include?",
        "The Plus Plan includes 14 check-ups per year.",
    )
    room = English().fact(fact("Guests per room", "12", "number"), "Harbour House")
    assert room is not None and room[0] == "How many guests per room does Harbour House have?"
    # a measure per year is no count: "Rainfall per year: 900" asks for a quantity
    rain = English().fact(fact("Rainfall per year", "900", "number"), "Merrowby")
    assert rain is not None and not rain[0].startswith("How many")


def test_an_extreme_of_a_counted_noun_is_the_most_or_fewest() -> None:
    assert English().extreme("contract", "Units", "C", "40", False, 4)[0] == "Which contract has the fewest units?"
    assert English().extreme("contract", "Annual Value", "C", "$9", True, 4)[0] == (
        "Which contract has the highest annual value?"
    )


def test_a_prose_relation_answers_with_the_name_not_the_sentence_behind_it() -> None:
    whole = English().mention("Tyler Brooks", "product", "Carllm", "Develops backend services for Carllm.")
    assert whole[1] == "Tyler Brooks is associated with Carllm."
    korean = Korean().mention("박하늘", "상품", "제주 힐링", "박하늘은 제주 힐링 상품을 기획했다.")
    assert korean[1] == "박하늘과 관련된 상품은 제주 힐링입니다."


def test_a_country_is_asked_with_which_not_where() -> None:
    question, _, template = English().fact(fact("Country", "Chile"), "Andes Institute")
    assert (question, template) == ("Which country is Andes Institute in?", "en.where.which")


def test_a_role_held_since_a_date_is_asked_in_the_present_perfect() -> None:
    since = fact("Career History", "Mobile Developer", qualifier="May 2020 - Present")
    ended = fact("Career History", "Data Analyst", qualifier="2017 - 2019")
    asked_since = English().fact(since, "Kevin Zhang")
    asked_ended = English().fact(ended, "Nina Patel")
    assert asked_since is not None and asked_ended is not None
    assert asked_since[0].startswith("What role has Kevin Zhang held since")
    assert asked_ended[0].startswith("What role did Nina Patel hold")


def test_a_korean_schedules_row_of_one_day_is_not_glued_to_its_page() -> None:
    day = fact("현장명", "청년밥상", qualifier="2025-06-13")
    assert Korean().fact(day, "6월 설치") is None  # "2025-06-13 6월 설치의 현장명" names nothing
    year = Korean().fact(fact("계약 기간", "2025.03~2026.02", qualifier="2025"), "김태린")
    assert year is not None and year[0].startswith("2025년 김태린의")


def test_a_move_to_a_new_role_is_asked_actively_and_a_promotion_passively() -> None:
    def event(text: str) -> FactNode:
        return fact(text, "June 2021", "date", date_key="2021-06").model_copy(update={"source": "timeline"})

    moved = English().fact(event("Transitioned to Backend Engineer with a broader role in system design"), "Ana")
    assert moved is not None and moved[0] == "When did Ana transition to Backend Engineer?"
    promoted = English().fact(event("Promoted to Senior Engineer"), "Ana")
    assert promoted is not None and promoted[0] == "When was Ana promoted to Senior Engineer?"
    awarded = English().fact(event("Awarded the title of Senior Engineer due to exemplary work"), "Ana")
    assert awarded is not None and awarded[0] == "When was Ana awarded the title of Senior Engineer?"
    assert awarded[1] == "Ana was awarded the title of Senior Engineer in June 2021."
    led = English().fact(event("Led the migration of the billing platform"), "Ana")
    assert led is not None and led[0] == "When did Ana lead the migration of the billing platform?"


def test_a_label_headed_by_the_subjects_own_kind_is_asked_with_its_verb() -> None:
    effective = fact("Agreement Effective Date", "February 1, 2025", "date", date_key="2025-02-01")
    asked = English().fact(effective, "the contract with Fortress Underwriters")
    assert asked is not None and asked[0] == "When does the contract with Fortress Underwriters take effect?"
    person = English().fact(fact("Contract End Date", "May 1, 2026", "date", date_key="2026-05-01"), "Dana Whitfield")
    assert person is not None and person[0] == "When is Dana Whitfield's contract end date?"  # a person does not "end"


def test_counts_read_as_english() -> None:
    assert English().count("contract", "Status", "Active", ["A", "B"])[0] == "How many contracts are active?"  # type: ignore[index]
    seats = English().compare(["Lux", "Saver", "Comfort"], "No. of Seats", ["30", "20", "200"], 1, False, "number")
    assert seats is not None and seats[0] == "Which has the fewest seats: Lux, Saver, or Comfort?"
    most = English().extreme("aircraft", "No. of Seats", "Jet A380", "500", True, 4)
    assert most is not None and most[1] == "Jet A380 has the most seats among the 4 aircraft, at 500."


def test_a_contracts_product_and_an_owners_team_are_asked_in_words() -> None:
    product = English().relation(fact("Product", "Courier 600"), "the contract with Salish", False, "contract")
    assert product is not None and product[0] == "Which product is the contract with Salish for?"
    person = English().relation(fact("Product", "Courier 600"), "Tomas Novak", False, "person")
    assert person is not None and "for?" not in person[0]
    team = English().two_hop(fact("Policy Owner", "Rosa Delgado"), fact("Team", "Sales"), "the Fleet Discount policy")
    assert team is not None and team[0] == "Which team is the policy owner of the Fleet Discount policy in?"


def test_agreement_and_a_date_named_after_its_subject() -> None:
    assert English().fact(fact("Head of Operations", "Rakesh Singh"), "Aventro")[0].startswith("Who is ")  # type: ignore[index]
    assert English().fact(fact("Working Hours", "9 AM – 7 PM"), "Aventro")[0].startswith("What are ")  # type: ignore[index]
    dated = English().fact(fact("Contract Date", "March 1, 2024", "date", date_key="2024-03-01"), "the contract with X")
    assert dated is not None and dated[0] == "When is the contract with X dated?"


def test_a_participle_before_a_noun_is_no_event_and_offices_take_the() -> None:
    def event(text: str) -> FactNode:
        return fact(text, "June 2021", "date", date_key="2021-06").model_copy(update={"source": "timeline"})

    assert English().fact(event("Revised salary of $125,000 in recognition of mentoring"), "Ana") is None
    led = English().fact(event("Led the move to a new platform"), "Ana")
    assert led is not None and led[0] == "When did Ana lead the move to a new platform?"
    assert English().subject("Portland Sales Office") == "the Portland Sales Office"
    assert English().subject("Aurora Bikes") == "Aurora Bikes"


def test_a_dated_column_is_compared_with_its_verb() -> None:
    asked = English().compare(
        ["North Consortium", "Vale University"], "Year Initiated", ["2016", "2015"], 1, False, "date"
    )
    assert asked is None  # the partnership was initiated, not the university: nothing natural to ask
    founded = English().compare(
        ["North Consortium", "Vale University"], "Year Founded", ["1916", "1915"], 1, False, "date"
    )
    assert founded is not None and founded[0] == "Which was founded earlier: North Consortium or Vale University?"
    published = English().compare(["ADS-1", "ADS-4"], "First published", ["2005", "2013"], 1, True, "date")
    assert published is not None and published[:2] == (
        "Which was first published later: ADS-1 or ADS-4?",
        "ADS-4 was first published later (ADS-1: 2005; ADS-4: 2013).",
    )


def test_a_date_sentence_answer_ends_with_its_clause_and_an_event_without_its_but() -> None:
    line = "Aventro Motors was founded in 2011 in Gurugram, Haryana, with a vision to redefine the landscape."
    sentence = fact("founded", "2011", "date", date_key="2011").model_copy(
        update={"source": "sentence", "evidence": line}
    )
    asked = English().fact(sentence, "Aventro Motors")
    assert asked is not None and asked[1] == "Aventro Motors was founded in 2011 in Gurugram."
    event = fact(
        "Returned to core tasks but faced challenges with new tools", "August 2023", "date", date_key="2023-08"
    )
    returned = English().fact(event.model_copy(update={"source": "timeline"}), "Ana")
    assert returned is not None and returned[0] == "When did Ana return to core tasks?"


@pytest.mark.parametrize(
    ("line", "value", "index", "expected"),
    [
        # "held over two days" would ask which fair first lasted two days
        (
            "The first Harvest Fair was held over two days in October 2007 in the town hall.",
            "October 2007",
            0,
            "When was the first Harvest Fair held?",
        ),
        # the answer leaves out a pointer to another page
        (
            "The KC-720 Cargo price changed on 1 July 2024 - see the press release and the support FAQ.",
            "1 July 2024",
            1,
            "The KC-720 Cargo price changed on 1 July 2024.",
        ),
    ],
)
def test_a_dated_sentence_is_asked_without_its_duration_and_answered_without_a_pointer(
    line: str, value: str, index: int, expected: str
) -> None:
    dated = fact("said", value, "date", date_key="2000").model_copy(update={"source": "sentence", "evidence": line})
    asked = English().fact(dated, "")
    assert asked is not None and asked[index] == expected, asked


def test_a_date_after_an_action_within_the_clause_dates_that_action() -> None:
    line = "Committee thanked Keith for setting the loan scheme up in 2021."
    dated = fact("said", "2021", "date", date_key="2021").model_copy(update={"source": "sentence", "evidence": line})
    assert English().fact(dated, "") is None  # the year is the setting up's, not the thanks'
    opened = "The new learner pool opened in May 2019."
    kept = dated.model_copy(update={"evidence": opened, "value": "May 2019"})
    assert English().fact(kept, "") is not None


def test_a_contact_column_is_asked_for_what_it_holds() -> None:
    mail = English().fact(fact("Contact", "chair@example.org", "text"), "Dr. Helen Marsh")
    assert mail is not None and mail[0] == "What is Dr. Helen Marsh's contact e-mail address?"
    phone = English().fact(fact("Contact", "+44 1632 960 123", "text"), "Dr. Helen Marsh")
    assert phone is not None and phone[0] == "What is Dr. Helen Marsh's contact number?"


def test_a_persons_hours_column_is_asked_as_the_hours_she_works() -> None:
    asked = English().fact(fact("Hrs", "36", "number", number=36.0), "Lena Hartmann")
    assert asked is not None and asked[0] == "How many hours does Lena Hartmann work?", asked


def test_a_columns_abbreviation_is_spelled_out() -> None:
    fewer = English().compare(["Rhys Morgan", "Lena Hartmann"], "Hrs", ["29", "36"], 0, False, "number")
    assert fewer is not None and fewer[0] == "Who works fewer hours: Rhys Morgan or Lena Hartmann?"
    rooms = English().compare(["Studio A", "Studio B"], "Places", ["8", "10"], 1, True, "number")
    assert rooms is not None and rooms[0] == "Which has more places: Studio A or Studio B?"


def test_a_weight_or_a_length_is_compared_with_its_own_adjective() -> None:
    lighter = English().compare(["KC-500 Mk2", "KC-360"], "Weight", ["2.9 kg", "2.4 kg"], 1, False, "number")
    assert lighter is not None and lighter[0] == "Which is lighter: KC-500 Mk2 or KC-360?"
    longest = English().compare(["A", "B", "C"], "Length", ["4 m", "5 m", "6 m"], 2, True, "number")
    assert longest is not None and longest[:2] == (
        "Which is the longest: A, B, or C?",
        "C is the longest (A: 4 m; B: 5 m; C: 6 m).",
    )


def test_a_price_in_one_of_two_currencies_says_which_and_measures_compare_with_their_adjective() -> None:
    price = English().fact(fact("Price (USD)", "$109", "money", number=109.0, unit="$"), "the Nimbus Dock")
    assert price is not None and price[0] == "How much does the Nimbus Dock cost in USD?"
    wider = English().arithmetic(
        "difference", ["Grand", "Edge"], "Width", ["1,950 mm", "1,780 mm"], "170 mm", [None, None]
    )
    assert wider is not None and wider[0] == "How much wider is Grand than Edge?"


def test_a_price_column_is_compared_and_added_as_what_things_cost() -> None:
    # "Which has the higher price (Lakh ₹)" pastes the column; the bracket's unit goes beside each value instead
    dearer = English().compare(
        ["Glory Diesel", "Glory Electric"], "Price (Lakh ₹)", ["19.0", "20.5"], 1, True, "number"
    )
    assert dearer == (
        "Which costs more: Glory Diesel or Glory Electric?",
        "Glory Electric costs more (Glory Diesel: 19.0 Lakh ₹; Glory Electric: 20.5 Lakh ₹).",
        "en.compare.cost",
    )
    cheapest = English().compare(["A", "B", "C"], "Price (USD)", ["$10", "$12", "$9"], 2, False, "number")
    assert cheapest is not None and cheapest[0] == "Which costs the least: A, B, or C?"
    # a label that says which price keeps it: "starter tier price" is not any price of the two
    tier = English().compare(["Lifellm", "Carllm"], "Starter Tier Price", ["$3,500", "$1,000"], 0, True, "number")
    assert tier is not None and tier[0] == "Which has the higher starter tier price: Lifellm or Carllm?"
    more = English().arithmetic("difference", ["Dock", "Case"], "Price (USD)", ["$109", "$28"], "$81", [None, None])
    assert more == (
        "How much more does Dock cost than Case?",
        "Dock ($109) costs $81 more than Case ($28).",
        "en.arith.difference.cost",
    )
    both = English().arithmetic(
        "sum", ["Glory Petrol", "Glory Hybrid"], "Price (Lakh)", ["13.5", "17.0"], "30.5", [None, None]
    )
    assert both is not None and both[0] == "How much do Glory Petrol and Glory Hybrid cost together?"
    assert "cost 30.5 Lakh together" in both[1]


def test_a_korean_row_folded_into_the_label_owns_the_column() -> None:
    row = fact("경영진 주요 업무", "경영 전략, 대외 협력").model_copy(
        update={"source": "table", "evidence": "| 경영진 | 4명 | 경영 전략, 대외 협력 |"}
    )
    asked = Korean().fact(row, "하늘여행")
    assert asked is not None and asked[0] == "하늘여행 경영진의 주요 업무는 무엇인가요?"
    # a one-word column makes a compound with the row
    gear = fact("영상 진단 장비", "CT, 파노라마").model_copy(
        update={"source": "table", "evidence": "| 영상 진단 | CT, 파노라마 |"}
    )
    assert Korean().fact(gear, "가온치과")[0].startswith("가온치과의 영상 진단 장비는")  # type: ignore[index]
    station = fact("하곡 원평역 기점 거리", "38.6 km").model_copy(
        update={"source": "table", "evidence": "| 하곡 | 38.6 km |"}
    )
    assert Korean().fact(station, "서령선") is None  # a header of three words pasted after the row
    plain = fact("주요 업무", "경영 전략").model_copy(update={"source": "table", "evidence": "| 본사 | 경영 전략 |"})
    assert Korean().fact(plain, "하늘여행")[0].startswith("하늘여행의 주요 업무")  # type: ignore[index]


@pytest.mark.parametrize(
    ("plain", "formal"),
    [
        ("계약 금액은 420,000,000원이다.", "계약 금액은 420,000,000원입니다."),
        ("2019년에 도쿄 사무소를 열었다.", "2019년에 도쿄 사무소를 열었습니다."),
        ("매년 3월에 갱신된다.", "매년 3월에 갱신됩니다."),
        ("고객 20명당 인솔자 1명을 배치한다.", "고객 20명당 인솔자 1명을 배치합니다."),
        ("본사는 서울에 있습니다.", "본사는 서울에 있습니다."),
    ],
)
def test_a_korean_sentence_answer_is_given_in_the_polite_style(plain: str, formal: str) -> None:
    assert polite(plain) == formal


def test_a_bare_year_column_is_not_asked_as_the_subjects_year() -> None:
    assert English().fact(fact("Year", "2024", "date", date_key="2024"), "Dr. Felix Olsen") is None


@pytest.mark.parametrize(
    ("title", "phrase"),
    [
        ("Aurora Volt 500", "Aurora Volt 500"),
        ("Remote Work Policy", "the Remote Work policy"),
        # a title-cased page about a kind of thing: its generic head is lowered
        ("Cendara University Accreditation Status", "the Cendara University Accreditation status"),
        # a name with a generic word inside stays as written ("Experience" is a page heading elsewhere)
        ("Velvera Anniversary Experience Box", "Velvera Anniversary Experience Box"),
    ],
)
def test_a_title_reads_as_a_name_unless_it_ends_in_a_kind_of_page(title: str, phrase: str) -> None:
    assert English().subject(title) == phrase


def test_a_values_capitalised_qualifier_is_lowered_inside_the_answer() -> None:
    rate = fact("API rate limit", "From 500 req/s", "text")
    asked = English().fact(rate, "Enterprise Plan")
    assert asked is not None and "is from 500 req/s" in asked[1] and "From" not in asked[1]


def test_an_office_or_room_is_asked_with_where() -> None:
    office = English().fact(fact("Office", "Hadley Hall 118", "text"), "Daniel Ochoa")
    assert office is not None and office[:2] == (
        "Where is Daniel Ochoa's office?",
        "Daniel Ochoa's office is in Hadley Hall 118.",
    )
    number = English().fact(fact("Office", "118", "text"), "Daniel Ochoa")
    assert number is not None and number[0] == "What is Daniel Ochoa's office?"  # a bare number is no place


def test_an_adjective_of_a_place_keeps_its_capital_inside_a_label() -> None:
    weighted = English().fact(fact("European weighted efficiency", "97.1%", "percent"), "KS-60 Mk II")
    assert weighted is not None and weighted[0] == "What is KS-60 Mk II's European weighted efficiency?"


def test_a_rule_of_a_korean_policy_is_asked_according_to_it() -> None:
    fee = fact("출장 수리비", "20,000원", "money")
    asked = Korean().fact(fee, "보증 및 A/S 정책")
    assert asked is not None and asked[0].startswith("보증 및 A/S 정책에 따른 출장 수리비는")
    owned = Korean().fact(fee, "온새미 서비스센터")
    assert owned is not None and owned[0].startswith("온새미 서비스센터의 출장 수리비는")


def test_a_row_listing_things_glued_to_a_charge_column_is_asked_for_those_things() -> None:
    charge = fact("DVDs and Blu-rays overdue charge", "$0.50 per day", "money")
    asked = English().fact(charge, "Hollis Library")
    assert asked is not None and asked[:2] == (
        "What is the overdue charge for DVDs and Blu-rays at Hollis Library?",
        "The overdue charge for DVDs and Blu-rays at Hollis Library is $0.50 per day.",
    )
    lower = English().fact(fact("Chargers and calculators overdue charge", "$1.00 per hour", "money"), "Hollis Library")
    assert lower is not None and "for chargers and calculators at" in lower[0]
    # a product's label is no charge paid at a place: left to the usual phrasing
    kept = English().fact(fact("Pads and rotors replacement price", "$90", "money"), "Aurora Fold 250")
    assert kept is not None and " for pads" not in kept[0]


def test_date_labels_that_end_in_since_or_a_verb_are_not_asked_as_nouns() -> None:
    en = English()
    # a product is no maintainer: "Since when has Brindle been a available?" would be nonsense
    assert en.fact(date("Available since", "2022", "2022"), "Brindle") is None
    compared = en.compare(["Tobias Wren", "Mina Cho"], "Term ends", ["Dec 31, 2025", "Dec 31, 2026"], 1, True, "date")
    assert compared is None  # "Which has the later term ends" is a pasted label


def test_a_year_column_of_something_done_to_a_row_gets_no_question() -> None:
    assert English().fact(date("Year sampled", "2024", "2024"), "Nitrate") is None


def test_an_office_column_of_posts_asks_for_the_post_held() -> None:
    asked = English().fact(fact("Office", "Clerk"), "Desmond Okereke")
    assert asked is not None and asked[:2] == (
        "What office does Desmond Okereke hold?",
        "Desmond Okereke holds the office of Clerk.",
    )
    room = English().fact(fact("Office", "Hadley Hall 118"), "Daniel Ochoa")
    assert room is not None and room[0] == "Where is Daniel Ochoa's office?"


def test_a_korean_difference_says_longer_for_a_period_and_dearer_for_a_price() -> None:
    period = Korean().arithmetic(
        "difference", ["가 계약", "나 계약"], "계약 기간", ["36개월", "24개월"], "12개월", [None, None]
    )
    assert period is not None and period[0].endswith("얼마나 더 긴가요?") and period[1].endswith("12개월 더 깁니다.")
    fee = Korean().arithmetic(
        "difference", ["박사 과정", "석사 과정"], "전형료", ["70,000원", "60,000원"], "10,000원", [None, None]
    )
    assert fee is not None and fee[0].endswith("얼마나 더 비싼가요?")
    staff = Korean().arithmetic("difference", ["A사", "B사"], "직원 수", ["40명", "30명"], "10명", [None, None])
    assert staff is not None and staff[0].endswith("얼마나 더 많은가요?")
    area = Korean().arithmetic(
        "difference", ["서령시", "취령산 도립공원"], "면적", ["612.4 km²", "46.8 km²"], "565.6 km²", [None, None]
    )
    assert area is not None and area[0].endswith("얼마나 더 넓은가요?") and area[1].endswith("565.6 km² 더 넓습니다.")
    longer = Korean().compare(["서령선", "서령천"], "길이", ["38.6 km", "41.2 km"], 1, True, "number")
    assert longer is not None and "길이가 더 긴 것은" in longer[0]


def test_a_korean_rules_own_particulars_are_its_own_and_what_it_sets_is_by_it() -> None:
    dept = Korean().fact(fact("주관 부서", "고객지원팀"), "파손·분실 보상 규정")
    assert dept is not None and dept[0].startswith("파손·분실 보상 규정의 주관 부서는")
    limit = Korean().fact(fact("보상 한도", "50만원", "money", number=500000.0, unit="원"), "파손·분실 보상 규정")
    assert limit is not None and limit[0].startswith("파손·분실 보상 규정에 따른 보상 한도는")


@pytest.mark.parametrize(
    ("line", "value", "question"),
    [
        (
            "혁신지점의 ATM 2대는 2025년 5월 중 새 기기로 교체할 예정입니다.",
            "2025년 5월",
            "혁신지점의 ATM 2대는 언제 새 기기로",
        ),
        ("배당금은 2025년 3월 4일(화)에 계좌로 입금됩니다.", "2025년 3월 4일", "새솔신협의 배당금은 언제 계좌로"),
    ],
)
def test_a_korean_date_is_asked_without_its_weekday_or_during(line: str, value: str, question: str) -> None:
    dated = fact("said", value, "date", date_key="2025").model_copy(update={"source": "sentence", "evidence": line})
    asked = Korean().fact(dated, "새솔신협")
    assert asked is not None and asked[0].startswith(question), asked


def test_a_korean_head_count_with_its_note_is_asked_how_many_people() -> None:
    staff = Korean().fact(fact("임직원", "약 640명 (위탁 배송기사 약 2,300명 별도)"), "새길로지스")
    assert staff is not None and staff[0] == "새길로지스의 임직원은 몇 명인가요?"
    places = Korean().fact(fact("정원", "40명 (가람시민 30명, 타 지역 10명)"), "인문학 아카데미")
    assert places is not None and places[0] == "인문학 아카데미의 정원은 몇 명인가요?"


def test_a_days_row_folded_into_a_korean_label_stays_with_the_label() -> None:
    saturday = fact("토요일 운영 시간", "06:00 ~ 20:00").model_copy(
        update={"source": "table", "evidence": "| 토요일 | 06:00 ~ 20:00 |"}
    )
    asked = Korean().fact(saturday, "서림구민체육센터")
    assert asked is not None and asked[0].startswith("서림구민체육센터의 토요일 운영 시간은"), asked


def test_a_discount_on_something_is_asked_what_not_what_percentage() -> None:
    asked = English().fact(fact("Discount on treatment", "10%", "percent", number=10.0, unit="%"), "the Plus Plan")
    assert asked is not None and asked[:2] == (
        "What discount on treatment does the Plus Plan give?",
        "The Plus Plan gives a 10% discount on treatment.",
    )
    shop = English().fact(fact("Discount on treatment", "10%", "percent", number=10.0, unit="%"), "Orbit Clinic")
    assert shop is not None and shop[0] == "What is Orbit Clinic's discount on treatment?"


def test_a_korean_row_of_hours_under_an_hours_column_is_asked_from_when_to_when() -> None:
    lunch = fact("점심시간 진료시간", "13:00 ~ 14:00").model_copy(
        update={"source": "table", "evidence": "| 점심시간 | 13:00 ~ 14:00 |"}
    )
    asked = Korean().fact(lunch, "수지바른숲치과의원")
    assert asked is not None and asked[0] == "수지바른숲치과의원의 점심시간은 몇 시부터 몇 시까지인가요?"


def test_a_menus_serving_columns_and_a_per_unit_price_are_asked_as_costs() -> None:
    pint = English().fact(fact("Pint", "£5.20", "money", number=5.2, unit="£"), "Night Heron")
    assert pint is not None and pint[:2] == ("How much is a pint of Night Heron?", "A pint of Night Heron costs £5.20.")
    third = English().fact(fact("⅔ pint", "£4.40", "money", number=4.4, unit="£"), "Blossom Saison")
    assert third is not None and third[0] == "How much is a two-thirds pint of Blossom Saison?"
    can = English().fact(fact("per can", "£2.45", "money", number=2.45, unit="£"), "Night Heron")
    assert can is not None and can[0] == "How much does Night Heron cost per can?"
    abv = English().fact(fact("ABV", "5.2%", "percent", number=5.2, unit="%"), "Night Heron")
    assert abv is not None and abv[0] == "What is Night Heron's ABV?"


def test_a_korean_telephone_label_asks_for_the_number_and_a_rules_sentence_is_according_to_it() -> None:
    phone = Korean().fact(fact("전화", "033-764-3390"), "혁신지점")
    assert phone is not None and phone[0] == "혁신지점의 전화번호는 무엇인가요?"
    mobile = Korean().fact(fact("휴대전화", "010-3921-4870"), "윤서진")
    assert mobile is not None and mobile[0] == "윤서진의 휴대전화 번호는 무엇인가요?"
    supplier = Korean().fact(fact("외부 연락처", "02-555-7301"), "악보나라")
    assert supplier is not None and supplier[0] == "악보나라의 연락처는 무엇인가요?"
    rule = fact("said", "2명", "number", number=2.0, unit="명").model_copy(
        update={"source": "sentence", "evidence": "운영 시간 중 안전요원 2명 이상이 항상 배치되어 있습니다."}
    )
    asked = Korean().fact(rule, "수영장 이용 수칙")
    assert asked is not None and asked[0].startswith("수영장 이용 수칙에 따르면 운영 시간 중 안전요원 몇 명"), asked


def test_a_korean_price_comparison_says_dearer_or_cheaper() -> None:
    dearer = Korean().compare(["줌바 강좌", "탁구 강좌"], "분기 수강료", ["105,000원", "120,000원"], 1, True, "number")
    assert (
        dearer is not None
        and "더 비싼 것은" in dearer[0]
        and dearer[1].startswith("탁구 강좌의 분기 수강료가 더 비쌉니다")
    )
    cheaper = Korean().compare(
        ["줌바 강좌", "탁구 강좌"], "분기 수강료", ["105,000원", "120,000원"], 0, False, "number"
    )
    assert cheaper is not None and "더 저렴한 것은" in cheaper[0]


def test_a_rules_sentence_with_a_topic_of_its_own_is_according_to_the_rule() -> None:
    rule = fact("said", "50분", "number", number=50.0, unit="분").model_copy(
        update={"source": "sentence", "evidence": "① 승무원은 당일 첫 운행 출발 50분 전까지 배차실에 출근한다."}
    )
    asked = Korean().fact(rule, "승무원 복무규정")
    assert asked is not None and asked[0].startswith("승무원 복무규정에 따르면 승무원은 당일 첫 운행 출발 몇 분 전"), (
        asked
    )


def test_a_bare_date_column_under_a_period_gets_no_question() -> None:
    dated = date("Date", "March 2024", "2024-03").model_copy(update={"qualifier": "2023–2024"})
    assert English().fact(dated, "Dr. Sarah Okafor") is None  # the date of what?


def test_a_korean_email_under_a_number_column_is_an_address_and_a_label_repeating_the_subject_is_said_once() -> None:
    mail = Korean().fact(fact("이메일 번호", "help@example.kr"), "한빛세탁 본사")
    assert mail is not None and mail[0] == "한빛세탁 본사의 이메일 주소는 무엇인가요?"
    office = Korean().fact(fact("본사", "서울특별시 금천구 가산로 12"), "한빛세탁 본사")
    assert office is not None and office[0].startswith("한빛세탁의 본사는"), office
    assert "본사의 본사" not in office[1]


def test_korean_hours_headed_by_their_days_alone_are_that_days_opening_hours() -> None:
    weekdays = Korean().fact(fact("월~금 시간", "10:00 ~ 19:00"), "한결 테일러")
    assert weekdays is not None and weekdays[0].startswith("한결 테일러의 월~금 운영 시간은"), weekdays
    monday = Korean().fact(fact("월 시간", "휴무"), "책방 느린오후")
    assert monday is not None and monday[0].startswith("책방 느린오후의 월요일 운영 시간은"), monday
    sunday = Korean().fact(fact("일요일 시간", "휴무"), "정든떡집")
    assert sunday is not None and sunday[0].startswith("정든떡집의 일요일 운영 시간은"), sunday
    # a label that only ends in days and hours is left as it is
    lesson = Korean().fact(fact("수업 시간", "50분"), "한결 태권도")
    assert lesson is not None and "운영 시간" not in lesson[0]


def test_a_season_written_short_is_one_period_and_a_span_of_years_runs_from_to() -> None:
    from testgen.synth.phrasing.en import period

    assert period("2024–25") == "in 2024–25" and period("2024/25") == "in 2024/25"
    assert period("2013 - 2015") == "from 2013 to 2015" and period("2015 - Present") == "since 2015"


def test_a_role_held_in_a_period_is_asked_of_a_person_only() -> None:
    role = fact("Role", "Treasurer").model_copy(update={"qualifier": "2024–25"})
    asked = English().fact(role, "Ian Whitcombe")
    assert asked is not None and asked[0] == "What role did Ian Whitcombe hold in 2024–25?"
    assert English().fact(role, "Hollin Lane Allotment Association") is None


def test_two_people_compared_by_a_rotas_hours_are_asked_who_works_more() -> None:
    people = English().compare(["Jess Harlow", "Ravi Mistry"], "Hrs", ["17.5", "22"], 1, True, "number")
    assert people is not None and people[0] == "Who works more hours: Jess Harlow or Ravi Mistry?", people
    rooms = English().compare(["Main Hall", "Studio"], "Hrs", ["12", "30"], 1, True, "number")
    assert rooms is not None and rooms[0] == "Which has more hours: Main Hall or Studio?", rooms
