"""Typed values in text: dates, money, percentages and counted numbers in English, Korean and Chinese."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from testgen.kg.values import MONTHS, classify_value, clock_times, find_values, parse_number

# ------------------------------------------------------------------------------------------------ dates


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("2008-03-15", "2008-03-15"),
        ("2008/3/5", "2008-03-05"),
        ("March 15, 2011", "2011-03-15"),
        ("Sept. 3rd, 2019", "2019-09-03"),
        ("15 March 2024", "2024-03-15"),
        ("March 2024", "2024-03"),
        ("Mar. 2024", "2024-03"),
        ("Q2 2024", "2024-Q2"),
        ("2024년 2분기", "2024-Q2"),
        ("2008년 3월 15일", "2008-03-15"),
        ("2012년 5월", "2012-05"),
        ("2019년", "2019"),
        ("2024年3月15日", "2024-03-15"),
        ("2024 年 3 月 15 日", "2024-03-15"),
        ("2024年3月", "2024-03"),
        ("2024年", "2024"),
        ("2027.04", "2027-04"),  # a year and a two-digit month: no number 2027.04
        ("2023/12", "2023-12"),
        ("2014", "2014"),
        ("2019 - Present", "2019"),
        ("2013–2015", "2013"),
    ],
)
def test_dates_get_sortable_keys(text: str, key: str) -> None:
    value = classify_value(text)
    assert value is not None
    assert value.value_type == "date"
    assert value.date_key == key
    assert value.text == text
    assert (value.number, value.unit) == (None, None)


def test_impossible_calendar_dates_are_not_dates() -> None:
    assert classify_value("2023-13-01") is None
    assert classify_value("2023-02-40") is None
    assert all(v.date_key not in ("2023-14", "2023-14-01") for v in find_values("2023년 14월 1일"))


def test_month_names_cover_abbreviations() -> None:
    assert MONTHS["sept"] == MONTHS["sep"] == MONTHS["september"] == 9
    assert MONTHS["may"] == 5
    assert len(set(MONTHS.values())) == 12


def test_date_in_a_sentence_keeps_offsets() -> None:
    text = "The company was founded on April 9, 2012 in Bellingham."
    [value] = find_values(text)
    assert value.value_type == "date"
    assert text[value.start : value.end] == value.text == "April 9, 2012"
    assert value.date_key == "2012-04-09"


def test_quarter_in_iso_form_keeps_the_quarter() -> None:
    value = classify_value("2024-Q2")
    assert value is not None
    assert value.date_key == "2024-Q2"


# ------------------------------------------------------------------------------------------------ money


@pytest.mark.parametrize(
    ("text", "number", "unit"),
    [
        ("$1,000/month", 1000.0, "$/month"),
        ("$220 per night", 220.0, "$/night"),
        ("€50 a month", 50.0, "€/month"),
        ("$18.2 million", 18_200_000.0, "$"),
        ("$5M", 5_000_000.0, "$"),
        ("USD 1.2 billion", 1_200_000_000.0, "USD"),
        ("₩500,000", 500_000.0, "₩"),
        ("4억 2천만 원", 420_000_000.0, "원"),
        ("9억 6천만 원", 960_000_000.0, "원"),
        ("30억 원", 3_000_000_000.0, "원"),
        ("5천만 원", 50_000_000.0, "원"),
        ("1,290,000원", 1_290_000.0, "원"),
        ("200달러", 200.0, "달러"),
        ("5,000円", 5_000.0, "円"),
        ("3,000万元", 30_000_000.0, "元"),
        # rupees, grouped by lakh and crore, or scaled by the words
        ("₹8,999", 8_999.0, "₹"),
        ("₹1,37,998", 137_998.0, "₹"),
        ("₹30,00,000", 3_000_000.0, "₹"),
        ("₹50 lakhs", 5_000_000.0, "₹"),
        ("₹2 crore", 20_000_000.0, "₹"),
    ],
)
def test_money(text: str, number: float, unit: str) -> None:
    value = classify_value(text)
    assert value is not None
    assert value.value_type == "money"
    assert value.number == number
    assert value.unit == unit
    assert value.text == text


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("1,290,000", 1_290_000.0),
        ("18.2", 18.2),
        ("4억 2천만", 420_000_000.0),
        ("$5M", 5_000_000.0),
        ("18.2 million", 18_200_000.0),
        ("12k", 12_000.0),
        ("3 bn", 3_000_000_000.0),
        ("1,234.5", 1234.5),
    ],
)
def test_parse_number(text: str, number: float) -> None:
    assert parse_number(text) == number


def test_parse_number_without_digits_is_none() -> None:
    assert parse_number("Head of Product") is None
    assert parse_number("") is None


def test_parse_number_agrees_with_find_values_on_chinese_money() -> None:
    [value] = find_values("3,000万元")
    assert parse_number("3,000万元") == value.number == 30_000_000.0


@pytest.mark.parametrize(
    ("text", "number"),
    [("2천억 원", 200_000_000_000.0), ("2천5백만 원", 25_000_000.0), ("1조 2천억 원", 1_200_000_000_000.0)],
)
def test_korean_compound_units(text: str, number: float) -> None:
    value = classify_value(text)
    assert value is not None
    assert value.number == number
    assert parse_number(text) == number


@pytest.mark.parametrize(("text", "number"), [("-12억 원", -1_200_000_000.0), ("-3%", -3.0), ("-2.5", -2.5)])
def test_negative_values_keep_their_sign(text: str, number: float) -> None:
    value = classify_value(text)
    assert value is not None
    assert value.number == number


# ------------------------------------------------------------------------------------- percent and counts


@pytest.mark.parametrize(
    ("text", "number"),
    [("12%", 12.0), ("12.5%", 12.5), ("15 percent", 15.0), ("30퍼센트", 30.0), ("48％", 48.0)],
)
def test_percent(text: str, number: float) -> None:
    value = classify_value(text)
    assert value is not None
    assert (value.value_type, value.number, value.unit) == ("percent", number, "%")


@pytest.mark.parametrize(
    ("text", "number", "unit"),
    [
        ("120명", 120.0, "명"),
        ("14명", 14.0, "명"),
        ("36개월", 36.0, "개월"),
        ("4곳", 4.0, "곳"),
        ("148 employees", 148.0, "employees"),
        ("2,000 bikes", 2000.0, "bikes"),
        ("25 km/h", 25.0, "km/h"),
        ("105 km", 105.0, "km"),
        ("29.6 kg", 29.6, "kg"),
        ("700 Wh", 700.0, "wh"),
        ("36 months", 36.0, "months"),
        ("20 countries", 20.0, "countries"),
    ],
)
def test_counted_numbers(text: str, number: float, unit: str) -> None:
    value = classify_value(text)
    assert value is not None
    assert (value.value_type, value.number, value.unit) == ("number", number, unit)


@pytest.mark.parametrize(("text", "days"), [("3박 4일", 4.0), ("1박 2일", 2.0), ("4박 5일", 5.0)])
def test_korean_nights_and_days_compare_by_days(text: str, days: float) -> None:
    value = classify_value(text)
    assert value is not None
    assert (value.value_type, value.number, value.unit, value.text) == ("number", days, "박일", text)


def test_bare_number() -> None:
    value = classify_value("1,234.5")
    assert value is not None
    assert (value.value_type, value.number, value.unit) == ("number", 1234.5, None)


# ------------------------------------------------------------------------------------ qualifiers and names


@pytest.mark.parametrize(
    ("text", "span", "number"),
    [
        ("approx. 148 employees", "148 employees", 148.0),
        ("about $5M", "$5M", 5_000_000.0),
        ("약 120명", "120명", 120.0),
        ("$1,000 (est.)", "$1,000", 1000.0),
    ],
)
def test_short_qualifiers_keep_the_value(text: str, span: str, number: float) -> None:
    value = classify_value(text)
    assert value is not None
    assert (value.text, value.number) == (span, number)
    assert text[value.start : value.end] == span


@pytest.mark.parametrize(
    "text",
    [
        "Aurora Ridge 700",
        "Aurora Volt 500",
        "Revenue (2023)",
        "Head of Product",
        "교토 미식 투어 3박 4일",
        "the plan costs $1,000/month for each team",
        "12 people and 3 offices",
        "",
    ],
)
def test_not_one_value(text: str) -> None:
    assert classify_value(text) is None


@pytest.mark.parametrize("text", ["AB-FL-2022-011", "AB-2022-014", "PO 2023-77"])
def test_identifier_with_a_year_is_not_a_date(text: str) -> None:
    assert classify_value(text) is None


def test_find_values_in_text_order_without_overlaps() -> None:
    text = "In 2023 revenue reached $18.2 million (up 27%) with 148 employees across 4곳 and 3박 4일 trips."
    values = find_values(text)
    assert [(v.text, v.value_type) for v in values] == [
        ("2023", "date"),
        ("$18.2 million", "money"),
        ("27%", "percent"),
        ("148 employees", "number"),
        ("4곳", "number"),
        ("3박 4일", "number"),
    ]
    for value in values:
        assert text[value.start : value.end] == value.text
    ends = [(v.start, v.end) for v in values]
    assert all(a_end <= b_start for (_, a_end), (b_start, _) in itertools.pairwise(ends))


def test_years_next_to_counters_are_not_dates() -> None:
    assert [(v.text, v.value_type) for v in find_values("2000명")] == [("2000명", "number")]
    assert [(v.text, v.value_type) for v in find_values("2019원")] == [("2019원", "money")]
    assert [(v.text, v.value_type) for v in find_values("$2019")] == [("$2019", "money")]


# ---------------------------------------------------------------------------------------- properties


@settings(derandomize=True, max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=10**15))
def test_won_amounts_parse_back(n: int) -> None:
    text = f"{n:,}원"
    value = classify_value(text)
    assert value is not None
    assert (value.value_type, value.number, value.unit, value.text) == ("money", float(n), "원", text)
    assert parse_number(f"{n:,}") == n


@settings(derandomize=True, max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=10**15))
def test_dollar_amounts_parse_back(n: int) -> None:
    text = f"${n:,}"
    value = classify_value(text)
    assert value is not None
    assert (value.value_type, value.number, value.unit, value.text) == ("money", float(n), "$", text)


@settings(derandomize=True, max_examples=200, deadline=None)
@given(st.integers(min_value=1, max_value=10**9))
def test_counted_people_parse_back(n: int) -> None:
    value = classify_value(f"{n:,}명")
    assert value is not None
    assert (value.value_type, value.number, value.unit) == ("number", float(n), "명")


@settings(derandomize=True, max_examples=200, deadline=None)
@given(st.dates(min_value=dt.date(1900, 1, 1), max_value=dt.date(2099, 12, 31)))
def test_dates_in_every_form_give_the_same_key(day: dt.date) -> None:
    key = day.isoformat()
    forms = [
        key,
        f"{day.strftime('%B')} {day.day}, {day.year}",
        f"{day.day} {day.strftime('%B')} {day.year}",
        f"{day.year}년 {day.month}월 {day.day}일",
        f"{day.year}年{day.month}月{day.day}日",
    ]
    for form in forms:
        value = classify_value(form)
        assert value is not None, form
        assert (value.value_type, value.date_key) == ("date", key), form


def test_cjk_month_counts_keep_their_unit() -> None:
    [months] = find_values("最长可以停留12个月")
    assert (months.text, months.unit) == ("12个月", "个月")


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("Insurellm was founded by Avery Lancaster in 2015.", ["2015"]),  # a year ending the sentence
        ("In 2015, the company opened its first office.", ["2015"]),  # and a clause
        ("The firmware 2019.5 fixed the brakes.", []),  # a version number, not a year
        ("It raised 2,015,000 dollars.", []),  # a thousands group
    ],
)
def test_a_year_may_end_a_sentence_or_a_clause(text: str, found: list[str]) -> None:
    assert [v.text for v in find_values(text) if v.value_type == "date"] == found


def test_lakh_grouping_is_read_after_the_rupee_sign_and_western_grouping_everywhere() -> None:
    assert parse_number("1,234,567") == 1_234_567.0
    assert parse_number("12,345") == 12_345.0
    assert [(v.text, v.number) for v in find_values("₹8,999 / $109")] == [("₹8,999", 8_999.0), ("$109", 109.0)]


@pytest.mark.parametrize(
    ("text", "number", "unit"),
    [
        ("6.15 kW", 6.15, "kw"),
        ("612.4 km²", 612.4, "km²"),
        ("312 ㎢", 312.0, "㎢"),
        ("84㎡", 84.0, "㎡"),
        ("30평", 30.0, "평"),
        ("2,500 sq ft", 2500.0, "sq ft"),
    ],
)
def test_an_area_or_a_power_is_a_number_with_its_unit(text: str, number: float, unit: str) -> None:
    found = classify_value(text)
    assert found is not None and (found.value_type, found.number, found.unit) == ("number", number, unit)


def test_a_word_after_pyeong_is_no_area() -> None:
    assert classify_value("30평대") is None  # "in the thirties of pyeong": a class of flats, not an area


def test_an_ordinal_with_je_is_no_count() -> None:
    found = [v.text for v in find_values("2,400,000천원 (본예산 1,920,000천원 + 제1회 추경 480,000천원)")]
    assert found == ["2,400,000천원", "1,920,000천원", "480,000천원"]  # "제1회" numbers the budget, it counts nothing
    assert [v.text for v in find_values("총 3회 방문")] == ["3회"]


def test_korean_times_of_day_read_by_the_part_of_the_day() -> None:
    assert clock_times("새벽 6시부터 밤 11시까지") == ["06:00", "23:00"]  # as "06:00 ~ 23:00" writes them
    assert clock_times("저녁 7시, 밤 1시, 낮 2시") == ["19:00", "01:00", "14:00"]
