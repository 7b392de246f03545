"""The seven categories on the example knowledge bases: every item re-checked from its outputs."""

from __future__ import annotations

import functools
import itertools
import random
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from factories import kb_context, kv_fact

from schemas import CATEGORIES, FactNode, TestQuestion
from testgen.categories import get_category, registered
from testgen.categories._common import (
    _beside_the_subject,
    as_written,
    group_comparable,
    is_duration,
    is_quantity,
    is_time_value,
    keywords_for_value,
    shown_value,
    single_fact_draft,
    subject_name,
    with_stated_unit,
)
from testgen.categories.comparative import sort_key
from testgen.categories.numerical import compute
from testgen.categories.relationship import mention_relations, one_edit_apart
from testgen.generate import parse_mix
from testgen.kg.graph import KnowledgeGraph
from testgen.kg.values import find_values, parse_number
from testgen.names import core_name
from testgen.pipeline import build_testset
from testgen.synth.context import GenContext
from testgen.text import contains_keyword, normalize

EXAMPLES = Path(__file__).parents[1] / "examples"


@dataclass
class Built:
    name: str
    items: list[TestQuestion]
    kg: KnowledgeGraph
    doc_text: dict[str, str]
    shortfall: dict[str, str]

    def facts(self, item: TestQuestion) -> list[FactNode]:
        """The item's facts: mined ones from the graph, relations read from prose from the relationship module."""
        assert item.metadata is not None
        prose = {f.fact_id: f for f in mention_relations(GenContext.from_graph(self.kg))}
        return [prose[fid] if fid in prose else self.kg.get(fid) for fid in item.metadata["facts"]]

    def of(self, category: str) -> list[TestQuestion]:
        return [i for i in self.items if i.category == category]


@functools.cache
def build(name: str) -> Built:
    """One build per example KB for the whole module (the items are only read)."""
    outcome = build_testset(EXAMPLES / name, num=60, seed=42)
    texts = {d.doc_id: normalize(d.text) for d in outcome.corpus.documents}
    return Built(name, outcome.result.items, outcome.kg, texts, outcome.result.shortfall)


@pytest.fixture(scope="module", params=["aurora_bikes", "haneul_travel"])
def built(request: pytest.FixtureRequest) -> Built:
    return build(request.param)


def test_the_seven_categories_are_registered() -> None:
    assert set(CATEGORIES) <= set(registered())
    for name in CATEGORIES:
        category = get_category(name)
        assert category.name == name
        assert category.description
    with pytest.raises(KeyError, match="unknown category 'bogus'"):
        get_category("bogus")


def test_every_category_yields_items(built: Built) -> None:
    counts = {c: len(built.of(c)) for c in CATEGORIES}
    assert all(n >= 1 for n in counts.values()), counts
    assert len(built.items) == 60, built.shortfall
    # A category may fall short on these small KBs only for a reason the gate or validator names.
    for category, why in built.shortfall.items():
        assert "most rejections" in why, (category, why)


def test_items_are_complete_and_unique(built: Built) -> None:
    language = "en" if built.name == "aurora_bikes" else "ko"
    ids = [i.id for i in built.items]
    assert len(set(ids)) == len(ids)
    assert len({normalize(i.question) for i in built.items}) == len(built.items)
    for item in built.items:
        assert item.language == language
        assert item.question.strip() and item.reference_answer.strip()
        assert item.keywords and all(k.strip() for k in item.keywords)
        assert len(set(item.keywords)) == len(item.keywords)
        assert item.source_docs == sorted(set(item.source_docs))
        assert set(item.source_docs) <= set(built.doc_text)
        assert item.reference_contexts
        assert item.metadata is not None
        assert item.metadata["generator"] == "testgen-offline"
        assert item.metadata["seed"] == 42
        assert item.metadata["validation"] == {
            "grounded": True,
            "closure": True,
            "gate": True,
            "no_leak": True,
            "unique": True,
            "postcondition": True,
        }


def test_keywords_are_found_in_a_source_document(built: Built) -> None:
    for item in built.items:
        for keyword in item.keywords:
            assert any(contains_keyword(built.doc_text[d], keyword) for d in item.source_docs), (item.question, keyword)


def test_reference_contexts_are_verbatim_evidence(built: Built) -> None:
    for item in built.items:
        facts = built.facts(item)
        evidence = [f.evidence for f in facts]
        for context in item.reference_contexts or []:
            assert context in evidence
        for f in facts:
            assert f.doc_id in item.source_docs


def test_direct_fact_answers_do_not_appear_in_the_question(built: Built) -> None:
    for item in built.of("direct_fact"):
        [fact] = built.facts(item)
        value = normalize(fact.value)
        if not re.fullmatch(r"\d{1,2}", value):
            assert not contains_keyword(normalize(item.question), fact.value), item.question
        assert value in normalize(item.reference_answer)
        assert fact.value_type != "date"


def test_temporal_answers_hold_a_date_hours_or_a_period(built: Built) -> None:
    for item in built.of("temporal"):
        [fact] = built.facts(item)
        assert normalize(fact.value) in normalize(item.reference_answer)
        if is_time_value(fact) or is_duration(fact):
            continue  # hours or days: "평일 09:00~18:00"; a period: "4.5 hours"
        dates = [v for v in find_values(item.reference_answer) if v.value_type == "date"]
        assert dates, item.reference_answer
        assert fact.value_type == "date"


def test_numerical_results_recompute(built: Built) -> None:
    for item in built.of("numerical"):
        assert item.metadata is not None
        assert any(v.number is not None for v in find_values(item.reference_answer)), item.reference_answer
        derived = item.metadata.get("derived")
        facts = built.facts(item)
        if not derived:
            [fact] = facts
            assert is_quantity(fact), fact.value  # an amount, a count, or a short value around one amount
            assert not is_duration(fact), fact.value  # a period is temporal's
            assert normalize(fact.value) in normalize(item.reference_answer)
            continue
        a, b = derived["operands"]
        assert compute(derived["op"], a, b) == pytest.approx(derived["result"])
        assert sorted([a, b]) == sorted(parse_number(f.value) for f in facts)
        assert normalize(derived["result_text"]) in normalize(item.reference_answer)
        assert not contains_keyword(normalize(item.question), derived["result_text"])


def test_comparative_winner_matches_the_values(built: Built) -> None:
    for item in built.of("comparative"):
        assert item.metadata is not None
        derived = item.metadata["derived"]
        facts = built.facts(item)
        assert 2 <= len(facts) <= 3
        keys = [sort_key(f) for f in facts]
        assert len(set(map(str, keys))) == len(keys)  # no ties
        pick = max if derived["higher"] else min
        winner = facts[pick(range(len(facts)), key=lambda i: keys[i])]
        entity = built.kg.get(winner.subject_entity)
        assert normalize(entity.name) in normalize(derived["winner"]), (entity.name, derived)
        assert normalize(derived["winner"]) in normalize(item.reference_answer)
        for f in facts:
            assert normalize(f.value) in normalize(item.reference_answer)
            # every compared entity is named in the question
            entity = built.kg.get(f.subject_entity)
            forms = [entity.name, *entity.aliases]
            assert any(normalize(form) in normalize(item.question) for form in forms), item.question


def test_holistic_reads_three_documents_and_recomputes(built: Built) -> None:
    for item in built.of("holistic"):
        assert len(item.source_docs) >= 3, item.question
        assert item.metadata is not None
        derived = item.metadata["derived"]
        facts = built.facts(item)  # the first ten facts aggregated
        if derived["op"] == "count":
            assert str(derived["count"]) in item.reference_answer
            assert len(derived["names"]) == derived["count"]
            for name in derived["names"]:
                assert name in item.reference_answer
        else:
            assert normalize(derived["winner"]) in normalize(item.reference_answer)
            assert derived["value"] in item.reference_answer
            numbers = [parse_number(f.value) for f in facts]
            best = (max if derived["op"] == "max" else min)(numbers)
            assert parse_number(derived["value"]) == best


def test_spanning_needs_two_documents(built: Built) -> None:
    for item in built.of("spanning"):
        assert len(item.source_docs) >= 2, item.question
        first, second = built.facts(item)
        assert first.value_entity is not None
        assert second.subject_entity == first.value_entity
        assert second.doc_id != first.doc_id
        assert normalize(second.value) in normalize(item.reference_answer)
        assert not contains_keyword(normalize(item.question), first.value)


def test_relationship_names_both_entities(built: Built) -> None:
    for item in built.of("relationship"):
        fact = built.facts(item)[0]
        assert fact.value_entity is not None
        text = normalize(item.question + " " + item.reference_answer)
        for key in (fact.subject_entity, fact.value_entity):
            entity = built.kg.get(key)
            forms = [entity.name, *entity.aliases]
            assert any(normalize(form) in text for form in forms), (entity.name, item.question)
        # the keyword is the answer: the value's entity, or the subject when the question is asked backwards
        answer = fact.subject_entity if item.metadata["template"].endswith("inverse") else fact.value_entity
        answer_forms = [built.kg.get(answer).name, *built.kg.get(answer).aliases]
        # as people shorten it: "Summit Trail Tours" for "Contract with Summit Trail Tours"
        answer_forms += [core_name(f) for f in answer_forms]
        assert any(normalize(f) in normalize(" ".join(item.keywords)) for f in answer_forms), item.keywords


_KO_ENDING = re.compile(r"(요|까)\?$")
_ENGLISH_TEMPLATE = re.compile(
    r"\b(what|which|when|who|where|how|many|much|does|did|is|are|was|were|has|have|the|of|or)\b", re.I
)


def test_korean_items_read_as_korean() -> None:
    built = build("haneul_travel")
    for item in built.items:
        assert _KO_ENDING.search(item.question), item.question
        assert not _ENGLISH_TEMPLATE.search(item.question), item.question
        assert not _ENGLISH_TEMPLATE.search(item.reference_answer), item.reference_answer
        assert re.search(r"[가-힣]", item.reference_answer)
        assert not item.question.startswith(("은 ", "는 ", "이 ", "가 "))
        assert "  " not in item.question


def test_english_items_read_as_questions() -> None:
    built = build("aurora_bikes")
    for item in built.items:
        assert item.question.endswith("?"), item.question
        assert item.question[0].isupper(), item.question
        assert "  " not in item.question
        assert not re.search(r"[가-힣]", item.question)
        first, last = item.reference_answer[0], item.reference_answer.rstrip()[-1]
        assert (first.isupper() or first.isdigit()) and last in ".)", item.reference_answer


# ------------------------------------------------------------------------ English phrasing seen in items


def test_english_person_attribute_asks_who() -> None:
    from testgen.synth.phrasing.en import English

    question, answer, template = English().fact(kv_fact("CEO", "Ingrid Solberg"), "Aurora Bikes")
    assert (question, answer, template) == (
        "Who is Aurora Bikes' CEO?",
        "Aurora Bikes' CEO is Ingrid Solberg.",
        "en.who",
    )


def test_english_role_rows_ask_who_holds_the_role() -> None:
    from testgen.synth.phrasing.en import English

    # "| Role | Name |": the row is the role, the cell the person who holds it
    question, answer, template = English().fact(kv_fact("Name", "Tomasz Wilk"), "Head of IT")
    assert (question, answer, template) == ("Who is the Head of IT?", "The Head of IT is Tomasz Wilk.", "en.who.role")
    question, _, _ = English().fact(kv_fact("Name", "Sunita Rao"), "Chief Financial Officer")
    assert question == "Who is the Chief Financial Officer?"
    question, _, _ = English().fact(kv_fact("Chief Financial Officer", "Sunita Rao"), "Aventro Motors")
    assert question == "Who is Aventro Motors' chief financial officer?"  # a role label asks who
    question, _, _ = English().fact(kv_fact("Chief Executive Name", "Gwen Ashcombe"), "Tarnwell Renewables")
    assert question == "Who is Tarnwell Renewables' chief executive?"  # the person, not their name


def test_english_plural_qualified_value_agrees() -> None:
    from testgen.synth.phrasing.en import English

    question, answer, _ = English().fact(kv_fact("Dates", "8–11 October", qualifier="2014"), "Carrow Week")
    assert question == "What were Carrow Week's dates in 2014?"
    assert answer == "Carrow Week's dates in 2014 were 8–11 October."


def test_english_plural_person_attribute_agrees() -> None:
    from testgen.synth.phrasing.en import English

    question, answer, _ = English().fact(
        kv_fact("Account Managers", "Ingrid Solberg and Marcus Okafor"), "Aurora Bikes"
    )
    assert question == "Who are Aurora Bikes' account managers?"
    assert answer == "Aurora Bikes' account managers are Ingrid Solberg and Marcus Okafor."
    question, answer, _ = English().fact(kv_fact("Founders", "Ingrid Solberg and Marcus Okafor"), "Aurora Bikes")
    assert question == "Who founded Aurora Bikes?"  # a verb instead of the label
    assert answer == "Aurora Bikes was founded by Ingrid Solberg and Marcus Okafor."


def test_english_attribute_keeps_proper_names() -> None:
    from testgen.synth.phrasing.en import attr_phrase

    assert attr_phrase("Hotel (Seattle, San Francisco, New York)") == "hotel (Seattle, San Francisco, New York)"


def test_english_labels_read_as_words() -> None:
    from testgen.synth.phrasing.en import attr_phrase

    assert attr_phrase("Chief Executive & co-founder") == "chief executive and co-founder"  # a sign said as a word
    assert attr_phrase("Main phone") == "main phone number"
    assert attr_phrase("Phone") == "phone number"


def test_english_counts_keep_acronyms_and_efficiencies_are_asked_with_what() -> None:
    from testgen.synth.phrasing.en import English

    question, _, _ = English().fact(kv_fact("Number of MPP trackers", "2", "number", number=2.0), "Kestrel K6")
    assert question == "How many MPP trackers does Kestrel K6 have?"
    question, _, _ = English().fact(kv_fact("Maximum efficiency", "97.6%", "percent", number=97.6), "Kestrel K6")
    assert question == "What is Kestrel K6's maximum efficiency?"  # not "What percentage is …"


@pytest.mark.parametrize(
    ("name", "phrase"),
    [
        ("Association for Distributed Generation Standards", "the Association for Distributed Generation Standards"),
        ("University of Florida", "the University of Florida"),
        ("Royal Institute of Social Sciences", "the Royal Institute of Social Sciences"),
        ("Bank of America", "Bank of America"),  # "Bank" before "of" is the name's own word
        ("Cendara University", "Cendara University"),
    ],
)
def test_english_bodies_named_kind_of_something_take_the(name: str, phrase: str) -> None:
    from testgen.synth.phrasing.en import English

    assert English().subject(name) == phrase


def test_long_text_values_give_phrase_keywords_in_order() -> None:
    assert keywords_for_value("Independent consultant for electric scooter startups") == [
        "Independent consultant",
        "electric scooter startups",
    ]
    assert keywords_for_value("1140 Harbor Loop Way, Bellingham, Washington 98225, United States") == [
        "1140 Harbor Loop Way",
        "Bellingham",
        "Washington 98225",
        "United States",
    ]
    assert keywords_for_value("Tomas Novak") == ["Tomas Novak"]  # short: the value itself
    # each end of a span with its counter, and the amount of each labelled item, whatever an answer joins them with
    assert keywords_for_value("31일째 ~ 60일째") == ["31일째", "60일째"]
    assert keywords_for_value("30시간권 1,500원 / 50시간권 1,400원") == ["1,500원", "1,400원"]
    assert keywords_for_value("5~8세") == ["5~8세"]  # a bare "5" names nothing
    assert keywords_for_value("10:00~ 소진시") == ["10:00"]  # until sold out: the start is what an answer gives
    # a joining word between capitalised words stays in its name; "from" splits the degree from the school
    assert keywords_for_value("MSc in Marine Biology from University of Bergen at Os") == [
        "MSc in Marine Biology",
        "University of Bergen at Os",
    ]
    assert keywords_for_value("Signed on March 3, 2021 by both parties after a long review") == ["March 3, 2021"]
    value = "그린모빌리티 임직원의 국내외 출장 항공권 및 숙박 예약 대행 서비스 전반"  # one phrase longer than a keyword
    assert all(k in value for k in keywords_for_value(value))
    # "&" joins two materials; a hyphenated word stays whole ("Shock-resistant", not "Shock" and "resistant")
    assert keywords_for_value("Dual-layer Shock-resistant TPU & Polycarbonate") == [
        "Dual-layer Shock-resistant TPU",
        "Polycarbonate",
    ]


def test_a_deadline_or_a_rule_around_one_amount_is_no_quantity() -> None:
    def text(value: str) -> FactNode:
        return FactNode(
            fact_id="fact:q", subject="S", attribute="A", value=value, value_type="text", source="key_value",
            doc_id="d.md", chunk_id="c0", evidence=value, start=0, end=1,
        )  # fmt: skip

    # "14일 이내 무상 교환" is what a policy does within a period, not an amount to ask "how much" of
    assert not is_quantity(text("14일 이내 무상 교환"))
    assert not is_quantity(text("특강 시작 3일 전까지 취소 시 전액, 이후 불가"))
    assert is_quantity(text("1인 200,000원"))


def test_a_total_of_hours_is_an_amount_not_a_period() -> None:
    def hours(label: str) -> FactNode:
        return FactNode(
            fact_id="fact:h", subject="S", attribute=label, value="240시간", value_type="number", number=240.0,
            unit="시간", source="table", doc_id="d.md", chunk_id="c0", evidence="| 240시간 |", start=0, end=1,
        )  # fmt: skip

    # "총 수업시간 240시간" is added up, asked "how much" (numerical); "수업시간 3시간" is a lesson's length
    assert not is_duration(hours("총 수업시간")) and is_duration(hours("수업시간"))


def test_direct_facts_leave_amounts_and_counts_to_numerical(built: Built) -> None:
    # a single amount, count or percentage asked is a numerical question to a reader
    for item in built.of("direct_fact"):
        fact = built.facts(item)[0]
        assert not is_quantity(fact), item.question
    assert built.of("numerical")


def test_a_prose_relation_is_not_made_for_a_pair_a_key_value_line_already_links(tmp_path: Path) -> None:
    kb = {
        "policies/safety.md": "# Safety Policy\n\n- **Policy Owner**: Ana Ruiz\n\nAna Ruiz reviews it yearly.\n",
        "people/ana_ruiz.md": "# Ana Ruiz\n\n- **Title**: Safety Lead\n\nAna Ruiz works with the Fleet Program team.\n",
        "programs/fleet_program.md": "# Fleet Program\n\n- **Start**: 2021\n",
    }
    ctx = kb_context(tmp_path, kb)
    pairs = {(f.subject, f.value) for f in mention_relations(ctx)}
    assert ("Safety Policy", "Ana Ruiz") not in pairs  # "Policy Owner: Ana Ruiz" states it
    assert ("Ana Ruiz", "Fleet Program") in pairs  # only the prose says it


def test_a_relation_needs_a_page_for_each_end_else_direct_fact_asks_it(tmp_path: Path) -> None:
    kb = {
        "gym/about.md": "# 나무 피트니스\n\n- **대표**: 최현우\n- **매니저**: 한지우\n",
        "gym/staff/한지우.md": "# 한지우\n\n- **직책**: 매니저\n- **경력**: 7년\n",
        "gym/notice.md": "# 운영시간 변경\n\n- **담당**: 최현우\n- **시행일**: 2025년 1월 6일\n",
    }
    ctx = kb_context(tmp_path, kb)
    head = next(f for f in ctx.facts if f.attribute == "대표")
    assert head.value_entity is not None  # a name the pages share, with no page of its own
    relations = {d.facts[0].value for d in get_category("relationship").candidates(ctx, random.Random(0))}
    facts = {d.facts[0].value for d in get_category("direct_fact").candidates(ctx, random.Random(0))}
    assert "한지우" in relations and "한지우" not in facts  # she has a page of her own: two things related
    assert "최현우" in facts and "최현우" not in relations  # no page of his: one fact of the gym's


def test_a_prose_relation_is_not_made_when_the_page_also_names_another_one_misspelt(tmp_path: Path) -> None:
    kb = {
        "products/harbourline.md": "# Harbourline\n\n- **Price**: $10\n",
        "products/cargolink.md": "# Cargolink\n\n- **Price**: $20\n",
        "people/ana_ruiz.md": "# Ana Ruiz\n\n- **Title**: Designer\n\n"
        "Ana Ruiz leads the design of Harbourline today.\n\nShe earlier supported the Cargolnk launch.\n",
        "people/ben_ode.md": "# Ben Ode\n\n- **Title**: Engineer\n\nBen Ode builds the Harbourline apps.\n",
    }
    pairs = {(f.subject, f.value) for f in mention_relations(kb_context(tmp_path, kb))}
    assert ("Ana Ruiz", "Harbourline") not in pairs  # "Cargolnk" is Cargolink misspelt: two products
    assert ("Ben Ode", "Harbourline") in pairs


def test_one_edit_apart_is_a_typo_not_another_word() -> None:
    assert one_edit_apart("marketllm", "markellm") and one_edit_apart("cargolnk", "cargolink")
    assert one_edit_apart("homelm", "homellm") and not one_edit_apart("homellm", "homellm")
    assert not one_edit_apart("carllm", "markellm") and not one_edit_apart("xarllm", "carllm")


def test_a_list_in_one_cell_gives_one_keyword_per_part() -> None:
    assert keywords_for_value("영어, 베트남어") == ["영어", "베트남어"]
    # each part as an answer must give it: the share of a phrase ("계약 금액의 10%") is its percentage
    assert keywords_for_value("계약 금액의 10%, 27,000,000원") == ["10%", "27,000,000원"]
    assert keywords_for_value("27,000,000원") == ["27,000,000원"]  # thousands separators are no list
    assert (
        keywords_for_value("본사 외 4곳 (부산 지점, 제주 지점)")[0] != "본사 외 4곳 (부산 지점"
    )  # brackets kept whole
    assert keywords_for_value("March 15, 2008") == ["March 15, 2008"]  # a date with a comma is one value
    # a trailing note qualifies the value, and a right answer need not repeat it; a spaced slash lists
    assert keywords_for_value("경전철 (고무차륜 AGT)") == ["경전철"]
    assert keywords_for_value("$2,000–$20,500 (undergrad/grad)") == ["$2,000–$20,500"]
    assert keywords_for_value("영어 / 중국어") == ["영어", "중국어"]
    assert keywords_for_value("₹8,999 / $109") == ["₹8,999", "$109"]
    assert keywords_for_value("UX/UI") == ["UX/UI"]  # an unspaced slash is one word
    # a legal form that opens the value goes, as an answer may name the company without it
    assert keywords_for_value("(주)하늘여행") == ["하늘여행"]


@pytest.mark.parametrize(
    ("value", "value_type", "quantity"),
    [
        ("148", "number", True),
        ("$120 per guest", "text", True),
        ("30 days from delivery", "text", True),
        ("180 liters", "text", True),
        ("540 square meters", "text", True),
        ("1140 Harbor Loop Way, Bellingham", "text", False),
        ("AB-FL-2022-011", "text", False),
        ("계약 금액의 10%, 27,000,000원", "text", True),  # a share and the sum it comes to: an amount asked
        ("5000mAh (non-removable)", "text", True),  # a unit glued on, a note after it
        ("5G", "text", False),  # a generation, not an amount
        ("출발 21일 전", "text", False),  # a deadline, not an amount
        ("30 days before departure", "text", False),
        ("In production", "text", False),
        ("한도윤 (제3대, 2021년 3월 취임)", "text", False),  # a person; the amount is in the note
        ("약 5,000명 (예산 소진 시 조기 마감)", "text", True),
    ],
)
def test_what_counts_as_a_quantity_for_numerical(value: str, value_type: str, quantity: bool) -> None:
    assert is_quantity(kv_fact("Label", value, value_type)) is quantity


@pytest.mark.parametrize(
    ("value", "time"),
    [
        ("09:00 ~ 18:00", True),
        ("Mon–Fri, 9–2", True),
        ("Tue–Sat", True),
        ("9.30–2.30", True),
        ("Sunday 1 AM - 5 AM EST", True),
        ("평일 오전 10시 ~ 오후 5시", True),
        ("매월 1일~5일", True),
        ("화·목", True),
        ("매주 목요일 14:00 ~ 17:00", True),
        ("1.30", False),  # a room as likely as a time
        ("K2.09", False),
        ("토요일 처방 조제 여성·임산부 복약상담", False),  # a duty that happens on a day
        ("성인 초·중급 주말 어린이", False),
        ("3 months – 2 years", False),  # an age band
        ("Senior Technician", False),
        ("매월", False),  # how often, not when
        ("12:30 (드레스·헤어 완료 후)", True),  # a note after the time
        ("2025년 4월 30일(수) 오후 6시까지", True),  # a date and an hour: a deadline
        ("14 days before the event", False),
        ("매월 둘째·넷째 토요일 13:00~17:00", True),  # which Saturdays of the month
        ("2024년 12월 1일 예약분부터", True),  # a date from which bookings fall under it
    ],
)
def test_what_counts_as_hours_or_days_for_temporal(value: str, time: bool) -> None:
    assert is_time_value(kv_fact("Label", value)) is time


def test_hours_given_as_a_value_are_asked_as_temporal_not_direct_fact(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "shop/about.md": "# Lindenbrook Cobblers\n\n- **Opening hours**: 09:00 ~ 17:30\n"
            "- **Owner**: Teodor Blix\n- **Workshop**: Unit 4, Mill Yard\n",
        },
    )
    rng = random.Random(1)
    direct = [d.facts[0].attribute for d in get_category("direct_fact").candidates(ctx, rng)]
    temporal = [d.facts[0].attribute for d in get_category("temporal").candidates(ctx, rng)]
    assert "Opening hours" in temporal and "Opening hours" not in direct
    assert "Owner" in direct


def test_percentages_are_only_ever_subtracted(tmp_path: Path) -> None:
    kb = {
        f"products/p{i}.md": f"# Plan {name}\n\n- **Discount**: {rate}%\n- **Price**: ${price}\n"
        for i, (name, rate, price) in enumerate([("Alpha", 10, 100), ("Beta", 15, 250), ("Gamma", 25, 400)])
    }
    ctx = kb_context(tmp_path, kb)
    drafts = list(itertools.islice(get_category("numerical")._arithmetic(ctx, random.Random(3)), 20))
    ops = {(d.facts[0].value_type, d.derived["op"]) for d in drafts}
    assert {op for kind, op in ops if kind == "percent"} == {"difference"}
    assert {op for kind, op in ops if kind == "money"} - {"difference"}  # amounts are still added


def test_superseded_figures_are_never_compared_or_added(tmp_path: Path) -> None:
    table = (
        "| Part | Price | Previous price |\n|---|---|---|\n| Milk Jug | £14.95 | £13.95 |\n"
        "| Tamper | £24.00 | £22.00 |\n"
    )
    ctx = kb_context(tmp_path, {"shop/parts.md": f"# Accessories\n\n{table}"})
    groups = group_comparable(ctx)
    labels = {fact.attribute for members in groups.values() for fact in members.values()}
    assert any(label == "Price" or label.endswith(" Price") for label in labels), labels
    assert not any("Previous" in label for label in labels)  # the old prices are looked up, not weighed


def test_a_row_of_a_timetable_page_is_not_named_with_the_page(tmp_path: Path) -> None:
    csv = "프로그램명,요일,정원(명)\n코딩로봇,월·수,12\n청소년 밴드,금,12\n"
    ctx = kb_context(tmp_path, {"center/2025_봄학기_프로그램시간표.csv": csv})
    seats = next(f for f in ctx.facts if f.value.startswith("12") and "코딩로봇" in f.subject)
    # not "봄학기 프로그램시간표 코딩로봇 프로그램": the page is a listing, not the course's own
    assert "시간표" not in subject_name(ctx, seats)


def test_an_amount_with_a_word_or_two_around_it_is_keyed_by_the_amount() -> None:
    assert keywords_for_value("제조사 보증 24개월") == ["24개월"]  # "24개월 보증" is as right
    assert keywords_for_value("유통기한 7일 전까지") == ["7일"]
    assert keywords_for_value("20 seated") == ["20"]
    assert keywords_for_value("3 bedrooms") == ["3 bedrooms"]  # "3" alone is in nearly any answer
    assert keywords_for_value("Room 12") == ["Room 12"]  # a number that names
    assert keywords_for_value("1인 2매") == ["1인 2매"]  # two amounts: their pairing is the fact
    assert keywords_for_value("고객 부담 왕복 9,000원 (편도 4,500원 × 2)") == ["9,000원"]


def test_a_korean_road_address_is_keyed_from_its_district_to_its_building_number() -> None:
    assert keywords_for_value("서울특별시 서하구 느티나무로 45 (서하동) 서하구립청소년수련관") == [
        "서하구 느티나무로 45"
    ]  # the dong and the centre's own name after it are no part a right answer must repeat
    # nor is the city, which pages write "서울", "서울시" or "서울특별시"
    assert keywords_for_value("서울특별시 중구 충무로9길 14, 1층 다온인쇄") == ["중구 충무로9길 14"]
    assert keywords_for_value("경기도 용인시 혁신로 87-3") == ["용인시 혁신로 87-3"]


def test_a_fraction_is_no_count_of_minutes() -> None:
    assert [(v.text, v.unit) for v in find_values("정회원 5분의 1 이상의 요구가 있을 때")] == [("1", None)]
    assert [(v.text, v.unit) for v in find_values("경기 10분 전")] == [("10분", "분")]


def test_a_zero_in_a_register_is_never_added_or_compared(tmp_path: Path) -> None:
    rows = [("김도윤", 72000), ("윤길남", 0), ("최영수", 36000), ("유혜란", 0), ("홍지아", 55000)]
    table = "| 성명 | 납부액(원) |\n|---|---|\n" + "".join(f"| {name} | {paid} |\n" for name, paid in rows)
    ctx = kb_context(tmp_path, {"club/fees.md": f"# 회비 납부 현황\n\n{table}"})
    numerical = get_category("numerical")
    drafts = [d for seed in range(6) for d in itertools.islice(numerical._arithmetic(ctx, random.Random(seed)), 30)]
    operands = {n for d in drafts for n in d.derived["operands"]}
    # exempt or unpaid is no amount: "0" as a keyword is in nearly any answer
    assert operands == {72000, 36000, 55000}


def test_spans_of_time_and_bare_counts_are_only_ever_subtracted(tmp_path: Path) -> None:
    kb = {
        f"staff/s{i}.md": f"# {name}\n\n- **경력**: {years}년\n- **정원**: {seats}\n- **수강료**: {fee:,}원\n"
        for i, (name, years, seats, fee) in enumerate(
            [("김도현", 14, 20, 55000), ("이하나", 6, 16, 48000), ("서미나", 4, 30, 35000)]
        )
    }
    ctx = kb_context(tmp_path, kb)
    numerical = get_category("numerical")
    drafts = [d for seed in range(6) for d in itertools.islice(numerical._arithmetic(ctx, random.Random(seed)), 30)]
    ops = {(d.facts[0].attribute, d.derived["op"]) for d in drafts}
    # two people's years of experience or two classes' places are never added or divided; fees are added, but a
    # price is never divided by another ("수강료는 … 몇 배인가요?": prices are told apart by how much)
    assert {op for label, op in ops if label in ("경력", "정원")} == {"difference"}
    assert {op for label, op in ops if label == "수강료"} == {"difference", "sum"}


def test_arithmetic_against_hand_worked_values() -> None:
    assert compute("sum", 1200, 350) == 1550
    assert compute("difference", 98, 93) == 5
    assert compute("ratio", 350, 200) == 1.75
    assert compute("ratio", 1, 3) == 0.33  # rounded to two places, as the answer states it
    assert compute("ratio", 5, 0) is None
    assert compute("ratio", 58.80, 48.00) == 1.23  # 1.225 rounded half up, not 1.22 as binary floats round it


def test_comparative_winners_against_hand_picked_answers(tmp_path: Path) -> None:
    # Prices and launch dates chosen so that each winner is known without running the comparison code.
    kb = {
        "products/alpha.md": "# Orbit Alpha\n\n- **Price**: $1,299\n- **Launch Date**: March 3, 2019\n",
        "products/beta.md": "# Orbit Beta\n\n- **Price**: $2,049\n- **Launch Date**: May 18, 2020\n",
        "products/gamma.md": "# Orbit Gamma\n\n- **Price**: $3,450\n- **Launch Date**: February 21, 2023\n",
    }
    for rel, text in kb.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    items = build_testset(tmp_path, num=6, mix=parse_mix("comparative=1"), seed=3).result.items
    checked = 0
    for item in items:
        derived = (item.metadata or {})["derived"]
        named = [n for n in ("Orbit Alpha", "Orbit Beta", "Orbit Gamma") if n in item.question]
        higher = bool(derived["higher"])
        # the hand rule: the dearer / later of those named when higher, the cheaper / earlier when lower
        order = ["Orbit Alpha", "Orbit Beta", "Orbit Gamma"]  # ascending in both price and launch date
        winner = max(named, key=order.index) if higher else min(named, key=order.index)
        assert item.reference_answer.startswith(winner), (item.question, item.reference_answer)
        checked += 1
    assert checked >= 2


def test_a_manager_is_not_asked_backwards(tmp_path: Path) -> None:
    docs = {
        f"people/{n.split()[0].lower()}.md": f"# {n}\n\n- **Team**: Sales\n- **Manager**: Rosa Vale\n- **Buddy**: {b}\n"
        for n, b in (("Ezra Park", "Lena Holt"), ("Mira Chen", "Omar Diaz"))
    }
    docs["people/rosa.md"] = "# Rosa Vale\n\n- **Team**: Sales\n\nRosa leads a team of nine sellers.\n"
    docs["people/lena.md"] = "# Lena Holt\n\n- **Team**: Support\n"
    docs["people/omar.md"] = "# Omar Diaz\n\n- **Team**: Support\n"
    docs["people/ezra.md"] = docs["people/ezra.md"].replace("Rosa Vale", "Lena Holt").replace("Buddy", "Mentor")
    ctx = kb_context(tmp_path, docs)
    category = get_category("relationship")
    drafts = [d for seed in range(6) for d in category.candidates(ctx, random.Random(seed))]
    manager = [d for d in drafts if d.facts[0].attribute == "Manager"]
    assert manager and all(not d.template.endswith("inverse") for d in manager)
    assert any(d.template.endswith("inverse") for d in drafts if d.facts[0].attribute != "Manager")


def test_a_long_title_at_a_company_keeps_its_parts_whole() -> None:
    assert keywords_for_value("Senior UX/UI Designer at DesignStudio NYC") == [
        "Senior UX/UI Designer",
        "DesignStudio NYC",
    ]


def test_stratified_order_interleaves_folders_by_their_documents() -> None:
    from testgen.categories._common import attribute_key, stratified

    # A folder of rich pages (six kinds of attribute each) beside folders of plain ones: by attribute alone the
    # rich folder's kinds would fill the first places; by folder, each folder's share follows its documents.
    def on(doc: str, attribute: str, value: str) -> FactNode:
        return kv_fact(attribute, value).model_copy(update={"doc_id": doc, "fact_id": f"fact:{doc}:{attribute}"})

    facts = [on(f"people/p{d}.md", f"Attribute {a}", f"value {d}{a}") for d in range(4) for a in range(6)]
    facts += [on(f"contracts/c{d}.md", "Contract Number", f"C-{d}") for d in range(4)]
    facts += [on(f"products/x{d}.md", "Tier", f"T{d}") for d in range(2)]
    order = stratified(facts, random.Random(3), attribute_key)
    assert sorted(f.fact_id for f in order) == sorted(f.fact_id for f in facts)  # a permutation
    first = [f.doc_id.split("/")[0] for f in order[:10]]
    assert first.count("people") == 4 and first.count("contracts") == 4 and first.count("products") == 2, first
    assert stratified(facts, random.Random(3), attribute_key) == order  # seeded
    # One folder (or none): the rotation over attributes alone, as before.
    flat = [f.model_copy(update={"doc_id": f.doc_id.split("/")[1]}) for f in facts]
    kinds = [attribute_key(f) for f in stratified(flat, random.Random(3), attribute_key)[:8]]
    assert len(set(kinds)) == 8


def test_a_computed_amount_keeps_the_units_spelling_from_its_sources() -> None:
    from testgen.categories._common import format_number

    assert format_number(350, "wh", "number", like=("600 Wh", "250 Wh")) == "350 Wh"
    assert format_number(5, "km", "number", like=("45 km", "40 km")) == "5 km"
    assert format_number(4.8, "£", "money", like=("£52.80", "£48.00")) == "£4.80"  # pence as the sources write them
    assert format_number(3, "kg", "number") == "3 kg"  # no source to follow: as parsed


def _two_organisations(root: Path, extra: dict[str, str] | None = None) -> dict[str, str]:
    docs = {
        f"Vantor_University/{name}.md": f"# Vantor University {title}\n\n{body}"
        for name, title, body in [
            ("contacts", "Contacts", "| Office | Phone |\n|---|---|\n| IT Help Desk | (473) 555-0101 |\n"),
            ("partners", "Partners", "| Partner | Country |\n|---|---|\n| Royal Institute of Arts | Spain |\n"),
            ("calendar", "Calendar", "Term starts in September.\n"),
            # the corpus writes "it" in lower case: "IT Help Desk" is no person's name
            ("about", "About", "Write to info@vantor.edu when it is urgent.\n"),
        ]
    }
    docs |= {
        f"Skyline_Air/{name}.md": f"# Skyline Air {title}\n\nThe fleet flies daily.\n"
        for name, title in [("fleet", "Fleet"), ("baggage", "Baggage"), ("careers", "Careers")]
    }
    return docs | (extra or {})


def test_a_question_in_a_kb_of_several_organisations_says_whose_unit_it_asks_about(tmp_path: Path) -> None:
    from testgen.categories._common import organisation_of, owning_organisation, single_fact_draft

    ctx = kb_context(tmp_path, _two_organisations(tmp_path))
    desk = next(f for f in ctx.facts if f.subject == "IT Help Desk")
    assert organisation_of(ctx, desk) == "Vantor University"
    draft = single_fact_draft(ctx, desk, "direct_fact")
    assert draft is not None and draft.question == "What is the phone number of the IT Help Desk at Vantor University?"
    # a club is a unit however name-like its words; a person is not "at" anything in the question
    assert owning_organisation(ctx, desk, "Rowing Club") == "Vantor University"
    assert owning_organisation(ctx, desk, "Gina Han") is None
    # a partner is an organisation of its own, not a unit "at" the university whose page lists it
    partner = next(f for f in ctx.facts if f.subject == "Royal Institute of Arts")
    asked = single_fact_draft(ctx, partner, "direct_fact")
    assert asked is not None and "Vantor" not in asked.question


def test_a_kb_of_one_organisation_names_no_organisation_in_its_questions(tmp_path: Path) -> None:
    from testgen.categories._common import organisation_of, single_fact_draft

    docs = {k: v for k, v in _two_organisations(tmp_path).items() if k.startswith("Vantor")}
    ctx = kb_context(tmp_path, docs)
    desk = next(f for f in ctx.facts if f.subject == "IT Help Desk")
    assert organisation_of(ctx, desk) is None
    draft = single_fact_draft(ctx, desk, "direct_fact")
    assert draft is not None and "Vantor" not in draft.question


def test_a_comparison_in_a_kb_of_several_organisations_says_whose_things_it_compares(tmp_path: Path) -> None:
    halls = {
        "Vantor_University/halls.md": "# Vantor University Halls\n\n| Hall | Capacity |\n|---|---|\n"
        "| Willow Hall | 350 |\n| Aspen Hall | 200 |\n"
    }
    ctx = kb_context(tmp_path, _two_organisations(tmp_path, halls))
    drafts = list(get_category("comparative").candidates(ctx, random.Random(1)))
    assert drafts and all(": " in d.question for d in drafts)
    assert {d.question.split(": ")[0] for d in drafts} <= {
        "Which has the greater capacity at Vantor University",
        "Which has the smaller capacity at Vantor University",
    }


def test_a_computed_rupee_amount_is_grouped_as_its_sources_are() -> None:
    from testgen.categories._common import format_number

    assert format_number(264_998, "₹", "money", ("₹1,24,999", "₹1,39,999")) == "₹2,64,998"
    assert format_number(3_700, "₹", "money", ("₹5,999", "₹2,299")) == "₹3,700"
    assert format_number(12_345_678, "₹", "money", ("₹1,00,00,000",)) == "₹1,23,45,678"


def test_a_comparisons_lone_digit_is_no_keyword(tmp_path: Path) -> None:
    kb = {
        "plans/plans.md": "# Plans\n\n| Plan | Calendars |\n|---|---|\n| Orbit Starter | 3 |\n| Orbit Team | 50 |\n"
        "| Orbit Business | 500 |\n"
    }
    ctx = kb_context(tmp_path, kb)
    drafts = list(get_category("comparative").candidates(ctx, random.Random(1)))
    assert drafts
    for draft in drafts:
        # "3" is in nearly any answer; the winner's name and the other values tell a right answer
        assert "3" not in draft.keywords and any(k.startswith("Orbit") for k in draft.keywords)
        if "3" in draft.answer_spans and draft.derived["winner"] == "Orbit Starter":
            # the winner's own value is the lone digit: the losers' values would score a wrong answer higher
            assert draft.keywords == ["Orbit Starter"], draft.keywords


def test_a_name_in_capitals_is_asked_as_the_kb_writes_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "staff/handbook.txt": "COPPER LANTERN RESTAURANT GROUP - TEAM MEMBER HANDBOOK\n\n- Meal discount: 50%\n",
            "about.md": "# About\n\nCopper Lantern Restaurant Group runs three restaurants.\n",
        },
    )
    assert as_written(ctx, "COPPER LANTERN RESTAURANT GROUP") == "Copper Lantern Restaurant Group"
    assert as_written(ctx, "KESSLER FALLS SCHOOL DISTRICT") == "Kessler Falls School District"  # nowhere else
    assert as_written(ctx, "ORV-R7L") == "ORV-R7L"  # a model code stays a code
    assert as_written(ctx, "보증 및 A/S 정책") == "보증 및 A/S 정책"


def test_a_quoted_value_gives_its_words_and_the_subjects_own_name_is_no_keyword() -> None:
    assert keywords_for_value("'Noeul Pixel 라운지' (회원 약 6,400명)") == ["Noeul Pixel 라운지"]
    assert keywords_for_value("「도시를 걷는 문장들」") == ["도시를 걷는 문장들"]
    parts = keywords_for_value("The Gull & Lantern, 14 Quayside Terrace, Merrowby MR7 2QT")
    assert _beside_the_subject(parts, "Gull & Lantern") == ["14 Quayside Terrace", "Merrowby MR7 2QT"]
    assert _beside_the_subject(["Gull & Lantern"], "Gull & Lantern") == ["Gull & Lantern"]  # never none left


def test_a_price_under_a_heading_that_says_what_it_is_per_is_answered_with_it() -> None:
    base = {
        "fact_id": "f",
        "subject": "Lyme Vaccine",
        "attribute": "Price",
        "value": "$34",
        "value_type": "money",
        "number": 34.0,
        "unit": "$",
        "doc_id": "clinic/prices.md",
        "chunk_id": "c",
        "evidence": "| Lyme | dog | $34 |",
        "start": 0,
        "end": 1,
        "source": "table",
    }
    under = FactNode(**base, context="Vaccines (per dose, exam not included)")
    assert with_stated_unit(under).value == "$34 per dose"
    assert with_stated_unit(FactNode(**base, context="Vaccines")).value == "$34"
    written = FactNode(**{**base, "value": "$34/dose"}, context="Vaccines (per dose)")
    assert with_stated_unit(written).value == "$34/dose"


def test_prices_a_page_says_leave_out_vat_are_answered_ex_vat(tmp_path: Path) -> None:
    from testgen.categories._common import single_fact_draft, tax_note

    ctx = kb_context(
        tmp_path,
        {
            "trade/prices.md": "# Trade Price List\n\nPrices are per unit, **ex VAT**.\n\n"
            "| Beer | Case price |\n|---|---|\n| Low Tide | £48.00 |\n| Night Heron | £58.80 |\n",
            "shop/prices.md": "# Shop\n\nAll prices include VAT; trade prices are ex VAT.\n\n"
            "| Item | Price |\n|---|---|\n| Glass | £6.00 |\n",
            "rooms/guide.md": "# Rooms\n\n## The rooms\n\n| Room | Non-member rate |\n|---|---|\n"
            "| Loom | £18 / hr |\n\n"
            "*Non-member prices exclude VAT.*\n\n## Events\n\n| Event | Ticket |\n|---|---|\n| Quiz | £12 |\n",
        },
    )
    # a note under the table, in its section, says it too; the next section's prices are not its
    loom = next(f for f in ctx.facts if f.value.startswith("£18"))
    assert tax_note(ctx, loom) == "ex VAT"
    quiz = next(f for f in ctx.facts if f.value == "£12")
    assert tax_note(ctx, quiz) == ""
    trade = next(f for f in ctx.facts if f.value == "£58.80")
    assert tax_note(ctx, trade) == "ex VAT"
    draft = single_fact_draft(ctx, trade, "numerical")
    assert draft is not None and draft.reference_answer.endswith("£58.80 (ex VAT).")
    # a page that also says some prices include the tax leaves its prices as they are
    glass = next(f for f in ctx.facts if f.value == "£6.00")
    assert tax_note(ctx, glass) == ""


def test_an_amount_per_unit_is_one_keyword_and_a_slashed_pair_two() -> None:
    assert keywords_for_value("£22 / day") == ["£22 / day"]  # one amount per day: "day" alone is no keyword
    assert keywords_for_value("£35 / hr") == ["£35"]  # the amount, with a unit an answer may write "per hour"
    assert keywords_for_value("영어 / 중국어") == ["영어", "중국어"]
    assert keywords_for_value("₹8,999 / $109") == ["₹8,999", "$109"]


def test_keywords_of_lists_with_notes_addresses_and_closing_notes() -> None:
    assert keywords_for_value("대표 · 예술감독 · 연출") == ["대표", "예술감독", "연출"]
    assert keywords_for_value("기획 · 제작 PD") == ["기획 · 제작 PD"]  # one post, two words for its work
    assert keywords_for_value("CT(콘빔 CT), 파노라마, 구강 스캐너") == ["CT", "파노라마", "구강 스캐너"]
    assert keywords_for_value("경기도 용인시 수지구 풍덕천로 123, 2층") == ["수지구 풍덕천로 123"]  # no "2층"
    assert keywords_for_value("(16914) 경기도 용인시 혁신로 87-3") == ["용인시 혁신로 87-3"]
    assert keywords_for_value("화~토 (일·월 휴무, 첫날 25/02/17(월) 상견례만 예외)") == ["화~토"]
    # a main number, then one labelled for another use: the number asked for is the keyword
    assert keywords_for_value("02-336-5821 / 문자 상담 010-4417-5821") == ["02-336-5821"]
    # a company without its legal form, a person without the post beside the name: as an answer may write them
    assert keywords_for_value("청운도시가스㈜") == ["청운도시가스"]
    assert keywords_for_value("박서윤 팀장") == ["박서윤"]
    assert keywords_for_value("이하늘 주임 (요금파트)") == ["이하늘"]
    assert keywords_for_value("성인 초급") == ["성인 초급"]  # no name
    assert keywords_for_value("Treasurer; Volunteer Coordinator") == ["Treasurer", "Volunteer Coordinator"]
    assert keywords_for_value("관비 전액 + 예치금") == ["관비 전액", "예치금"]


def test_a_quoted_work_is_a_keyword_without_its_brackets() -> None:
    from testgen.names import core_name

    assert core_name("『소리를 모으는 사람』") == "소리를 모으는 사람"
    assert core_name("《물 위의 이름들》") == "물 위의 이름들"


def test_a_price_cell_with_words_is_asked_what_it_costs_and_keyed_by_its_amount() -> None:
    from factories import kv_fact

    from testgen.synth.phrasing.en import English

    asked = English().fact(kv_fact("Price", "£55 per dose"), "Hepatitis A")
    assert asked is not None and asked[0] == "How much does Hepatitis A cost?"  # not "What is Hepatitis A's price?"
    assert keywords_for_value("from £2.10/tablet + consultation") == ["£2.10"]
    assert keywords_for_value("£55 per dose") == ["£55"]  # an answer may write "£55 a dose"


def test_a_telephone_number_with_its_desk_is_its_keyword() -> None:
    assert keywords_for_value("본점 고객만족센터 043-872-3351") == ["043-872-3351"]
    assert keywords_for_value("Main office (970) 555-0182") == ["(970) 555-0182"]
    assert keywords_for_value("043-872-3351") == ["043-872-3351"]
    assert keywords_for_value("(970) 555-0182 ext. 101") == ["(970) 555-0182 ext. 101"]  # his extension is his


def test_measures_are_compared_or_divided_and_only_amounts_and_counts_are_added(tmp_path: Path) -> None:
    pages = {
        f"kits/{name.lower()}.md": f"# {name} Solar Kit\n\n- **System size**: {size} kW\n- **Price**: ${price:,}\n"
        f"- **Panels**: {panels} panels\n- **Minimum order**: {panels // 5} units\n"
        for name, size, price, panels in (
            ("Essential", "6.15", 17900, 15),
            ("Standard", "8.20", 22960, 20),
            ("Premium", "10.25", 27675, 25),
            ("Custom", "12.30", 31900, 30),
        )
    }
    ctx = kb_context(tmp_path, pages)
    ops: dict[str, set[str]] = {}
    for seed in range(5):
        for draft in itertools.islice(get_category("numerical").candidates(ctx, random.Random(seed)), 200):
            if draft.derived:
                ops.setdefault(draft.facts[0].attribute, set()).add(draft.derived["op"])
    assert "sum" not in ops.get("System size", set())  # two systems' sizes make no total anyone needs
    assert ops.get("System size")  # they are still compared
    assert "sum" in ops.get("Price", set())  # buying both costs the total
    assert ops.get("Minimum order") and "sum" not in ops["Minimum order"]  # two limits add up to nothing


def test_two_plans_one_chooses_between_are_never_added(tmp_path: Path) -> None:
    pages = {
        f"plans/{name.lower()}.md": f"# {name} Plan\n\n- **Price**: ${price:,}\n- **Seats**: {seats} seats\n"
        for name, price, seats in (("Starter", 900, 5), ("Team", 2400, 20), ("Business", 5200, 50))
    }
    ctx = kb_context(tmp_path, pages)
    ops = {
        draft.derived["op"]
        for seed in range(5)
        for draft in itertools.islice(get_category("numerical").candidates(ctx, random.Random(seed)), 200)
        if draft.derived and draft.facts[0].attribute == "Price"
    }
    assert ops and "sum" not in ops  # a team picks one plan: their total is no question


def test_things_of_different_kinds_in_a_flat_folder_are_not_compared(tmp_path: Path) -> None:
    lines = {
        "line_a.md": "# 서령선\n\n- **길이**: 38.6 km\n- **역 수**: 5개\n- **개통**: 1955년\n- **궤간**: 1,435 mm\n",
        "line_b.md": "# 하곡선\n\n- **길이**: 24.1 km\n- **역 수**: 4개\n- **개통**: 1961년\n- **궤간**: 1,435 mm\n",
        "river.md": "# 서령천\n\n- **길이**: 41.2 km\n- **유역 면적**: 312 km²\n- **발원지**: 취령산\n"
        "- **하구**: 남한강\n",
    }
    ctx = kb_context(tmp_path, lines)
    compared = [
        {f.subject for f in draft.facts}
        for category in ("comparative", "numerical")
        for seed in range(4)
        for draft in itertools.islice(get_category(category).candidates(ctx, random.Random(seed)), 100)
        if len({f.subject for f in draft.facts}) > 1
    ]
    assert {"서령선", "하곡선"} in compared  # two railway lines, described alike
    assert not any("서령천" in subjects for subjects in compared)  # a river against a railway line


def test_a_course_named_by_a_row_carries_the_named_place_whose_page_it_is_on(tmp_path: Path) -> None:
    table = (
        "| 코스 | 구간 | 거리 |\n|---|---|---|\n| 둘레길 | 매표소 – 약수터 | 7.5 km |\n"
        "| 능선길 | 매표소 – 정상 | 4.2 km |\n"
    )
    ctx = kb_context(
        tmp_path,
        {
            "wiki/가온산 자연휴양림.md": "# 가온산 자연휴양림\n\n가온산 자연휴양림은 숲이다.\n\n## 탐방로\n\n" + table,
            "wiki/2025년 탐방 프로그램 안내.md": "# 2025년 탐방 프로그램 안내\n\n## 탐방로\n\n" + table,
        },
    )
    names = {f.doc_id: subject_name(ctx, f) for f in ctx.facts if f.value == "7.5 km" and f.subject_entity is not None}
    assert names["wiki/가온산 자연휴양림.md"] == "가온산 자연휴양림 둘레길 코스"  # the park's own trail
    assert names["wiki/2025년 탐방 프로그램 안내.md"] == "둘레길 코스"  # a listing page names no owner


@pytest.mark.parametrize(
    ("value", "unit", "value_type", "evidence", "shown"),
    [
        ("3.4", "kg", "number", "| BL-900 | 3.4 |", "3.4 kg"),
        ("3.4", "kg", "number", "| 믹서기 | 3.4 |", "3.4kg"),  # Korean writes the unit close
        ("20,000", "원", "money", "| 진단서 | 20,000 |", "20,000원"),
        ("120", "$", "money", "| Dock | 120 |", "$120"),
        ("1.0", "kg", "number", "| Kettle | 1.0 |", "1.0 kg"),  # the digits as written
        ("2.9 kg", "kg", "number", "| Pack | 2.9 kg |", "2.9 kg"),  # a unit already written
        ("50,000 이상", "원", "money", "| 큰물회원 | 50,000 이상 |", "50,000원 이상"),  # the bound after the unit
    ],
)
def test_a_bare_figure_is_shown_with_its_columns_unit(
    value: str, unit: str, value_type: str, evidence: str, shown: str
) -> None:
    f = kv_fact("Weight", value, value_type, unit=unit, number=float(value.split()[0].replace(",", "")))
    f = f.model_copy(update={"evidence": evidence})
    assert shown_value(f) == shown


def test_a_list_of_five_in_one_cell_is_five_keywords() -> None:
    value = "에어프라이어(바삭 시리즈), 전기밥솥, 전기포트, 믹서기, 토스터"
    assert keywords_for_value(value) == ["에어프라이어", "전기밥솥", "전기포트", "믹서기", "토스터"]


def test_an_approximations_word_is_no_part_of_a_keyword() -> None:
    assert keywords_for_value("c. 26,000 objects") == ["26,000"]
    assert keywords_for_value("약 640명") == ["640명"]
    assert is_quantity(kv_fact("Collection size", "c. 26,000 objects"))


def test_a_price_asks_its_currency_only_when_the_thing_has_another(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "bikes/plans.md": "# Plans\n\n| Plan | Price (GBP) |\n|---|---|\n| Day Pass | £6.00 |\n"
            "| Annual Membership | £90.00 |\n",
            "shop/dock.md": "# Wireless Dock\n\n- Price (INR): ₹8,999\n- Price (USD): $109\n",
        },
    )
    drafts = {f.value: single_fact_draft(ctx, f, "numerical") for f in ctx.facts if f.value in ("£90.00", "$109")}
    one, two = drafts["£90.00"], drafts["$109"]
    assert one is not None and two is not None
    assert "GBP" not in one.question and "GBP" not in one.reference_answer  # "£90.00" says it already
    assert two.question.endswith("in USD?") and "USD" not in two.reference_answer


def test_a_floor_is_neither_compared_nor_added_and_its_figure_is_the_keyword(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "ngo/후원.md": "# 후원 안내\n\n| 등급 | 월 후원금(원) |\n|---|---|\n| 씨앗회원 | 5,000 |\n"
            "| 물줄기회원 | 30,000 |\n| 큰물회원 | 50,000 이상 |\n",
        },
    )
    floor = next(f for f in ctx.facts if f.value == "50,000 이상")
    assert (floor.value_type, floor.unit) == ("money", "원")
    assert shown_value(floor) == "50,000원 이상"
    assert keywords_for_value(floor.value) == ["50,000"]
    compared = {f.fact_id for group in group_comparable(ctx).values() for f in group.values()}
    assert floor.fact_id not in compared and len(compared) == 2


def test_a_topic_pages_facts_are_asked_of_the_organisation_its_folder_is_named_after(tmp_path: Path) -> None:
    from testgen.categories._common import folder_organisation, subject_name

    kb = {
        "kestrel_hire/extras.md": "# Extras and add-ons\n\nYou can add extras when you book.\n\n"
        "- **Sat nav**: £7 per day\n- **Roof box**: £12 per day\n",
        "kestrel_hire/about.md": "# About\n\nKestrel Hire rents cars from four branches. Call Kestrel Hire today.\n",
        "kestrel_hire/faq.md": "# FAQ\n\nDo extras cost more at Kestrel Hire? Yes, see the list.\n",
        "kestrel_hire/encounters.md": "# Animal encounters\n\nEncounters run daily.\n\n## Lemur Walk\n\n"
        "- **Group size**: up to 6\n\n## Penguin Feed\n\n- **Group size**: up to 10\n",
        "kestrel_hire/memo.md": "# Memo on fees\n\nFees change in July.\n\n- **Partner rate**: £340 per hour\n",
        "pharmacy/hours.md": "# Opening hours\n\nThe pharmacy opens daily.\n\n- **Weekdays**: 9am to 6pm\n",
        "pharmacy/about.md": "# About\n\nOur pharmacy is on the high street.\n",
    }
    ctx = kb_context(tmp_path, kb)
    sat_nav = next(f for f in ctx.facts if f.attribute == "Sat nav")
    assert folder_organisation(ctx, sat_nav.doc_id) == "Kestrel Hire"
    assert subject_name(ctx, sat_nav) == "Kestrel Hire"  # "Extras and add-ons" is a topic, not a thing
    group = next(f for f in ctx.facts if f.attribute == "Group size")
    assert subject_name(ctx, group) != "Kestrel Hire"  # a page of records, one per section: the section's
    rate = next(f for f in ctx.facts if f.attribute == "Partner rate")
    assert subject_name(ctx, rate) != "Kestrel Hire"  # a memo's fee is the memo's change
    hours = next(f for f in ctx.facts if f.attribute == "Weekdays")
    assert folder_organisation(ctx, hours.doc_id) is None  # a folder named for a kind of business
    assert subject_name(ctx, hours) != "Pharmacy"


def test_a_superseded_figure_is_not_asked_as_the_things_own(tmp_path: Path) -> None:
    from testgen.categories._common import single_fact_draft

    kb = {
        "cinema/notice.md": "# New prices\n\n| Ticket | Old price | New price |\n|---|---|---|\n"
        "| Family | £26.00 | £28.00 |\n| Adult | £8.00 | £8.50 |\n"
    }
    ctx = kb_context(tmp_path, kb)
    old = next(f for f in ctx.facts if f.value == "£26.00")
    new = next(f for f in ctx.facts if f.value == "£28.00")
    assert single_fact_draft(ctx, old, "numerical") is None
    assert single_fact_draft(ctx, new, "numerical") is not None


@pytest.mark.parametrize(
    ("value", "keywords"),
    [
        ("09:00 ~ 18:00", ["09:00", "18:00"]),  # "from 9:00 to 18:00" says the same
        ("평일 09:30~19:00", ["09:30", "19:00"]),
        ("8:30 AM – 6:00 PM", ["8:30 AM", "6:00 PM"]),
        ("1.2m × 1.0m", ["1.2m", "1.0m"]),
        ("20 x 25", ["20 x 25"]),  # two bare numbers would match anywhere: the size whole
        ("접수·수납·예약", ["접수", "수납", "예약"]),
        ("총 금액의 50% 선결제", ["50%"]),
        ("£35 per person", ["£35 per person"]),  # an amount with its unit stays whole
        ("Tue–Sat", ["Tue–Sat"]),
        # a deadline or a period: its dates, without the weekday or "until" an answer need not write
        ("2025.05.01(목) ~ 06.02(월)", ["2025.05.01", "06.02"]),
        ("2025년 4월 25일(금)까지", ["2025년 4월 25일"]),
        ("~ 06.30(월)", ["06.30"]),
        ("2025년 4월 25일", ["2025년 4월 25일"]),
        # a name with a post and its honorific: the name
        ("양기철 기사님", ["양기철"]),
        ("관리실장 김영호", ["김영호"]),
        # a cell's short list joined by a bare slash: its parts ("A/S" and "24/7" are one thing each)
        ("포장/카운터", ["포장", "카운터"]),
        ("A/S", ["A/S"]),
    ],
)
def test_keywords_of_spans_sizes_and_dotted_lists_are_their_parts(value: str, keywords: list[str]) -> None:
    assert keywords_for_value(value) == keywords


def test_keywords_split_a_lists_joined_items_and_keep_a_dates_date() -> None:
    from testgen.categories._common import keywords_for_value

    assert keywords_for_value("수강 등록·결제·환불·셔틀") == ["수강 등록", "결제", "환불", "셔틀"]
    assert keywords_for_value("어린이반 4명, 성인반 6명") == ["4명", "6명"]
    assert keywords_for_value("2025년 1월 1일 예약분부터") == ["2025년 1월 1일"]
    assert keywords_for_value("Tue, Fri, Sat 12:00–18:00") == ["Tue", "Fri", "Sat", "12:00", "18:00"]
    assert keywords_for_value("Mon, Tue, Thu + Sat") == ["Mon", "Tue", "Thu", "Sat"]
    # a team of people joined with a plus: each name, without the post beside it
    assert keywords_for_value("권혁진 팀장 + 박정훈, 김하늘") == ["권혁진", "박정훈", "김하늘"]
    assert keywords_for_value("Tea + cake, coffee") == ["Tea + cake", "coffee"]
    # a long item joined by a middle dot stays whole; a list of names is its names
    assert keywords_for_value("어르신 건강관리·치매예방 프로그램") == ["어르신 건강관리·치매예방 프로그램"]
    assert keywords_for_value("Maeve Collins, Owen Pryce") == ["Maeve Collins", "Owen Pryce"]


def test_a_schedules_rows_of_two_days_are_not_one_things_change(tmp_path: Path) -> None:
    from testgen.categories.numerical import Numerical

    rows = "\n".join(
        f"| 2025-04-{d:02d} | {c} | {n} |" for d, c, n in ((1, "한O진", 2), (2, "오O석", 4), (3, "박O수", 3))
    )
    years = "| 2023 | 120 |\n| 2024 | 150 |\n"
    ctx = kb_context(
        tmp_path,
        {
            "moving/팀별일정.md": f"# 4월 일정\n\n| 날짜 | 고객 | 인원 |\n|---|---|---|\n{rows}\n",
            "club/members.md": f"# Rowan Club members\n\n| Year | Members |\n|---|---|\n{years}",
        },
    )
    drafts = list(Numerical()._arithmetic(ctx, random.Random(1)))
    changes = [d for d in drafts if len({f.subject_entity for f in d.facts}) == 1]
    assert changes and all("2025-04" not in (f.qualifier or "") for d in changes for f in d.facts), [
        d.question for d in changes
    ]


def test_direct_fact_leaves_a_question_of_days_or_dates_to_temporal() -> None:
    from testgen.categories.direct_fact import _ASKS_WHEN

    for question in ("Which days does Dr Rachel Adeyemi work?", "What are the dates of EAM?", "휴무일은 언제인가요?"):
        assert _ASKS_WHEN.search(question), question
    for question in ("What is Hannah Pellow's role?", "Who leads the Wednesday class?", "연락처는 무엇인가요?"):
        assert not _ASKS_WHEN.search(question), question
