"""The validator: grounding, leaks, duplicates, single-document spanning items, and fact closures."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from factories import kb_context, kv_fact

from schemas import FactNode
from testgen.categories import get_category
from testgen.categories._common import single_fact_draft
from testgen.categories.relationship import mention_relations
from testgen.closure import Closure, _list_parts, fact_closure, states_value
from testgen.kg.build import build_graph, load_corpus
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft
from testgen.text import char_ngrams, jaccard, normalize
from testgen.validate import DUPLICATE_THRESHOLD, Validator, _leaks, _name_leaks

KB = {
    "products/orbit_arm.md": """# Orbit Arm

## Specifications

- **Price**: $12,500
- **Payload**: 5 kg
- **Product Owner**: Jonas Berg
""",
    "people/jonas_berg.md": """# Jonas Berg

## Summary

- **Title**: Product Manager
- **Joined**: March 1, 2019
- **Location**: Tartu
""",
    "contracts/delta_farms.md": """# Contract with Delta Farms

## Terms

- **Client**: Delta Farms
- **Product**: Orbit Arm
- **Account Manager**: Jonas Berg

Delta Farms pays the Orbit Arm list price of $12,500 for each unit.
""",
    # Names the product and the amount, but never in the same sentence: it does not state the price.
    "policies/training.md": """# Operator Training Policy

## Scope

Orbit Arm operators must finish the course before first use.

The price of the operator training course is $12,500 per site.
""",
}


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory) -> GenContext:
    return kb_context(tmp_path_factory.mktemp("kb"), KB)


def fact(ctx: GenContext, doc_id: str, attribute: str) -> FactNode:
    [found] = [f for f in ctx.facts if f.doc_id == doc_id and f.attribute == attribute and f.source == "key_value"]
    return found


def price_draft(ctx: GenContext, **changes: Any) -> Draft:
    price = fact(ctx, "products/orbit_arm.md", "Price")
    fields: dict[str, Any] = {
        "category": "direct_fact",
        "question": "What is the list price of the Orbit Arm robot?",
        "reference_answer": "The Orbit Arm costs $12,500.",
        "keywords": ["$12,500"],
        "facts": [price],
        "answer_spans": ["$12,500"],
        "language": "en",
        "template": "test",
    }
    fields.update(changes)
    return Draft(**fields)


# ------------------------------------------------------------------------------------------------ closure


def test_closure_adds_a_document_stating_the_same_fact(ctx: GenContext) -> None:
    price = fact(ctx, "products/orbit_arm.md", "Price")
    assert fact_closure(ctx, price) == {"products/orbit_arm.md", "contracts/delta_farms.md"}


def test_closure_skips_a_document_that_only_mentions_the_value(ctx: GenContext) -> None:
    price = fact(ctx, "products/orbit_arm.md", "Price")
    training = ctx.doc_text["policies/training.md"]
    assert "$12,500" in training and "orbit arm" in training and "price" in training
    assert "policies/training.md" not in fact_closure(ctx, price)


def test_closure_of_a_fact_stated_once_is_its_own_document(ctx: GenContext) -> None:
    for attribute, doc_id in [("Joined", "people/jonas_berg.md"), ("Payload", "products/orbit_arm.md")]:
        assert fact_closure(ctx, fact(ctx, doc_id, attribute)) == {doc_id}


def test_closure_needs_the_value_word_bounded(ctx: GenContext) -> None:
    # "5 kg" must not match inside "25 kg" or similar: the payload is stated only on its page.
    payload = fact(ctx, "products/orbit_arm.md", "Payload")
    assert fact_closure(ctx, payload.model_copy(update={"value": "5"})) == {"products/orbit_arm.md"}


# ---------------------------------------------------------------------------------------------- validator


def test_valid_draft_passes_with_closure_sources_and_contexts(ctx: GenContext) -> None:
    verdict = Validator(ctx).validate(price_draft(ctx), get_category("direct_fact"))
    assert verdict.ok, verdict.reason
    assert verdict.reason is None
    assert verdict.source_docs == ["contracts/delta_farms.md", "products/orbit_arm.md"]
    assert verdict.reference_contexts == ["- **Price**: $12,500"]
    assert verdict.checks == {
        "grounded": True,
        "closure": True,
        "gate": True,
        "no_leak": True,
        "unique": True,
        "postcondition": True,
    }


@pytest.mark.parametrize(
    "keywords",
    [
        ["$99,999"],  # nowhere in the KB
        ["$12,500", "Tartu"],  # in the KB, but not in this item's source documents
        ["Orbit Armx"],
    ],
)
def test_keyword_not_in_sources_is_rejected(ctx: GenContext, keywords: list[str]) -> None:
    verdict = Validator(ctx).validate(price_draft(ctx, keywords=keywords), get_category("direct_fact"))
    assert (verdict.ok, verdict.reason) == (False, "keyword not grounded")
    assert verdict.source_docs == []


def test_keyword_grounding_ignores_case_and_markup(ctx: GenContext) -> None:
    verdict = Validator(ctx).validate(price_draft(ctx, keywords=["**$12,500**"]), get_category("direct_fact"))
    assert verdict.ok, verdict.reason
    # "ORBIT ARM" is grounded (grounding is checked first); the draft then fails because its only keyword is
    # the question's own subject
    verdict = Validator(ctx).validate(price_draft(ctx, keywords=["ORBIT ARM"]), get_category("direct_fact"))
    assert (verdict.ok, verdict.reason) == (False, "answer leaked in question")


def test_leaked_answer_is_rejected(ctx: GenContext) -> None:
    draft = price_draft(ctx, question="Is the list price of the Orbit Arm $12,500?")
    verdict = Validator(ctx).validate(draft, get_category("direct_fact"))
    assert (verdict.ok, verdict.reason) == (False, "answer leaked in question")


def test_leak_rules() -> None:
    assert _leaks("what is the price of the orbit arm 12,500?", "$12,500") is False  # "$" is part of the span
    assert _leaks("is it $12,500?", "$12,500") is True
    assert _leaks("what does the 3 series cost?", "3") is False  # tiny numbers are not leaks
    assert _leaks("who reports to kaia?", "Kaia") is True
    assert _leaks("who reports to kaiata?", "Kaia") is False  # word-bounded for Latin words
    assert _leaks("하늘여행의 대표이사는 누구인가요?", "박하늘") is False
    assert _leaks("박하늘의 직책은 무엇인가요?", "박하늘") is True
    # the name an answer opens with, asked in the question, gives the answer away
    assert _name_leaks("What is the product of the contract for Carllm?", "Carllm Auto Insurance Solution") is True
    assert _name_leaks("What is Sakura's edition name?", "Sakura Pink Limited Edition") is True
    assert _name_leaks("What is Aurora Fold 250's status?", "In production") is False
    assert _name_leaks("What is Airbus A350's aircraft model?", "A350-900") is True
    assert _name_leaks("What is the Harbor Van's engine?", "V6-240") is False
    assert _name_leaks("What is the SWIFT code of ZX Bank?", "ZXININBB") is False  # one word: _leaks decides


@pytest.mark.parametrize(
    ("changes", "reason"),
    [
        ({"question": "  "}, "empty question or answer"),
        ({"reference_answer": ""}, "empty question or answer"),
        ({"keywords": []}, "no keywords"),
        ({"reference_answer": "It is expensive."}, "answer does not state the value"),
        ({"keywords": ["$12,500", "Orbit Arm"]}, "keyword outside the value span"),
    ],
)
def test_other_rejections(ctx: GenContext, changes: dict[str, Any], reason: str) -> None:
    verdict = Validator(ctx).validate(price_draft(ctx, **changes), get_category("direct_fact"))
    assert (verdict.ok, verdict.reason) == (False, reason)


def test_exact_duplicate_is_rejected(ctx: GenContext) -> None:
    validator = Validator(ctx)
    category = get_category("direct_fact")
    assert validator.validate(price_draft(ctx), category).ok
    again = validator.validate(price_draft(ctx, question="what is THE list price of the orbit arm robot?"), category)
    assert (again.ok, again.reason) == (False, "near-duplicate")


def test_near_duplicate_is_rejected_but_a_different_question_is_not(ctx: GenContext) -> None:
    first = "What is the list price of the Orbit Arm robot?"
    near = "What is the list price of the Orbit Arm robots?"
    other = "How much does one Orbit Arm cost at list price?"
    assert jaccard(char_ngrams(first), char_ngrams(near)) >= DUPLICATE_THRESHOLD
    assert jaccard(char_ngrams(first), char_ngrams(other)) < DUPLICATE_THRESHOLD
    validator = Validator(ctx)
    category = get_category("direct_fact")
    assert validator.validate(price_draft(ctx, question=first), category).ok
    verdict = validator.validate(price_draft(ctx, question=near), category)
    assert (verdict.ok, verdict.reason) == (False, "near-duplicate")
    # worded differently, it still asks the same fact of the same subject: one set asks it once
    again = validator.validate(price_draft(ctx, question=other), category)
    assert (again.ok, again.reason) == (False, "near-duplicate")
    # a rejected draft is not remembered: only the first question is
    assert len(validator.accepted) == 1


def spanning_draft(ctx: GenContext, first: FactNode, second: FactNode, question: str, answer: str) -> Draft:
    return Draft(
        category="spanning",
        question=question,
        reference_answer=answer,
        keywords=[first.value, second.value],
        facts=[first, second],
        answer_spans=[second.value, first.value],
        language="en",
        template="test",
    )


def test_spanning_answerable_from_one_document_is_rejected(ctx: GenContext) -> None:
    # The contract names the product and also states its price: one document answers both hops.
    product = fact(ctx, "contracts/delta_farms.md", "Product")
    price = fact(ctx, "products/orbit_arm.md", "Price")
    draft = spanning_draft(
        ctx,
        product,
        price,
        "What is the price of the product of the contract with Delta Farms?",
        "The product of the contract with Delta Farms is Orbit Arm, whose price is $12,500.",
    )
    verdict = Validator(ctx).validate(draft, get_category("spanning"))
    assert (verdict.ok, verdict.reason) == (False, "answerable from a single document")


def test_spanning_answered_by_a_page_naming_the_subject_by_its_short_name_is_rejected(tmp_path: Path) -> None:
    # The manager's page lists "Accounts Managed: Delta Farms" and whom he reports to: it answers both hops,
    # though it never writes the contract's title "Contract with Delta Farms".
    kb = {
        "contracts/delta_farms.md": "# Contract with Delta Farms\n\n- **Client**: Delta Farms\n"
        "- **Account Manager**: Jonas Berg\n",
        "people/jonas_berg.md": "# Jonas Berg\n\n- **Reports To**: Mira Tamm\n- **Accounts Managed**: Delta Farms\n",
        "people/mira_tamm.md": "# Mira Tamm\n\n- **Title**: Head of Sales\n",
        # the client is named on many pages, so its words alone do not single out the contract
        **{f"news/visit_{i}.md": f"# Visit {i}\n\nDelta Farms toured the plant in week {i}.\n" for i in range(8)},
    }
    kctx = kb_context(tmp_path, kb)
    manager = fact(kctx, "contracts/delta_farms.md", "Account Manager")
    reports = fact(kctx, "people/jonas_berg.md", "Reports To")
    draft = spanning_draft(
        kctx,
        manager,
        reports,
        "Who does the account manager of the contract with Delta Farms report to?",
        "The account manager of the contract with Delta Farms is Jonas Berg, who reports to Mira Tamm.",
    )
    verdict = Validator(kctx).validate(draft, get_category("spanning"))
    assert (verdict.ok, verdict.reason) == (False, "answerable from a single document")


def test_spanning_across_two_documents_passes(ctx: GenContext) -> None:
    manager = fact(ctx, "contracts/delta_farms.md", "Account Manager")
    joined = fact(ctx, "people/jonas_berg.md", "Joined")
    draft = spanning_draft(
        ctx,
        manager,
        joined,
        "When did the account manager of the contract with Delta Farms join?",
        "The account manager of the contract with Delta Farms is Jonas Berg, who joined on March 1, 2019.",
    )
    verdict = Validator(ctx).validate(draft, get_category("spanning"))
    assert verdict.ok, verdict.reason
    assert verdict.source_docs == ["contracts/delta_farms.md", "people/jonas_berg.md"]
    assert verdict.reference_contexts == ["- **Account Manager**: Jonas Berg", "- **Joined**: March 1, 2019"]


def test_spanning_leaking_the_bridge_is_rejected(ctx: GenContext) -> None:
    manager = fact(ctx, "contracts/delta_farms.md", "Account Manager")
    joined = fact(ctx, "people/jonas_berg.md", "Joined")
    draft = spanning_draft(ctx, manager, joined, "When did Jonas Berg join?", "Jonas Berg joined on March 1, 2019.")
    verdict = Validator(ctx).validate(draft, get_category("spanning"))
    assert (verdict.ok, verdict.reason) == (False, "answer leaked in question")


def test_scope_docs_join_the_sources(ctx: GenContext) -> None:
    draft = price_draft(ctx, scope_docs=["people/jonas_berg.md"])
    verdict = Validator(ctx).validate(draft, get_category("direct_fact"))
    assert verdict.ok
    assert verdict.source_docs == ["contracts/delta_farms.md", "people/jonas_berg.md", "products/orbit_arm.md"]


def test_validator_caches_closures(ctx: GenContext) -> None:
    validator = Validator(ctx)
    price = fact(ctx, "products/orbit_arm.md", "Price")
    assert validator.closure(price) is validator.closure(price)
    assert validator.closure(price) == fact_closure(ctx, price)


def test_closure_does_not_depend_on_the_file_location(tmp_path: Path, ctx: GenContext) -> None:
    # the context built for the module gives the same closure as a fresh build elsewhere
    root = tmp_path / "copy"
    for rel, text in KB.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    fresh = GenContext.from_graph(build_graph(load_corpus(root)))
    price = fact(fresh, "products/orbit_arm.md", "Price")
    assert fact_closure(fresh, price) == fact_closure(ctx, fact(ctx, "products/orbit_arm.md", "Price"))


# ------------------------------------------------------------------------------------ closure by meaning

MEANING_KB = {
    "products/ridge.md": "# Ridge 700\n\n## Specs\n\n- **Warranty**: 3 years\n- **Price**: $1,200/month\n",
    "faq/customers.md": "# Customer FAQ\n\n## Warranty\n\nThe Ridge 700 comes with a 3-year warranty.\n\n"
    "**What does the Ridge 700 cost to lease?**\nIt is $1,200 per month, service included.\n",
    "contracts/acme.md": "# Contract with Acme\n\n## Terms\n\n- **Product**: Ridge 700\n\n"
    "Acme pays the Ridge 700 list price of $1,200 per month.\n",
    "people/lee.md": "# Lee Park\n\n## Summary\n\n- **Joined**: February 4, 2019\n"
    "- **Owns**: Ridge 700\n\nLee Park joined on February 4, 2019 to lead the Ridge 700 warranty program.\n",
}


@pytest.fixture(scope="module")
def meaning(tmp_path_factory: pytest.TempPathFactory) -> GenContext:
    return kb_context(tmp_path_factory.mktemp("meaning"), MEANING_KB)


def test_closure_reads_values_not_characters(meaning: GenContext) -> None:
    warranty = next(f for f in meaning.facts if f.attribute == "Warranty")
    # "a 3-year warranty" states "3 years"; the "4" of "February 4" is no warranty
    assert fact_closure(meaning, warranty) == {"products/ridge.md", "faq/customers.md"}
    price = next(f for f in meaning.facts if f.attribute == "Price")
    # "$1,200 per month" states "$1,200/month"; an FAQ answer counts with the question above it
    assert {"contracts/acme.md", "faq/customers.md"} <= fact_closure(meaning, price)


def test_a_price_per_period_is_stated_by_the_period_in_words(meaning: GenContext) -> None:
    from testgen.closure import states_value

    price = next(f for f in meaning.facts if f.attribute == "Price")
    assert states_value(price, "Acme pays a monthly subscription fee of $1,200 for the Ridge 700.")
    assert not states_value(price, "Acme paid a one-off fee of $1,200 for the Ridge 700.")


def test_an_extreme_cites_the_pages_of_its_kind_and_the_pages_restating_any_compared_value(tmp_path: Path) -> None:
    # A person's page restates the top product's score: needed to rule P2 out of the lowest, and to find the top.
    kb = {
        **{
            f"products/p{i}.md": f"# Product P{i}\n\n- **Satisfaction**: {score} points\n"
            for i, score in enumerate(["4.1", "4.5", "4.9"])
        },
        "people/mina.md": "# Mina\n\n- **Title**: Planner\n\nProduct P2 has the best satisfaction score, 4.9 points.\n",
    }
    kctx = kb_context(tmp_path, kb)
    facts = sorted((f for f in kctx.facts if f.attribute == "Satisfaction"), key=lambda f: f.doc_id)
    validator = Validator(kctx)
    assert "people/mina.md" in validator.closure(facts[2])
    for best, question in (
        (facts[0], "Which product has the lowest satisfaction?"),
        (facts[2], "Which product has the highest satisfaction?"),
    ):
        draft = Draft(
            category="holistic",
            question=question,
            reference_answer=f"{best.subject} has it, at {best.value}.",
            keywords=[best.value],
            facts=facts,
            answer_spans=[best.value],
            language="en",
            template="test",
            scope_docs=[f.doc_id for f in facts],
            derived={"op": "min" if best is facts[0] else "max", "winner": best.subject, "value": best.value},
        )
        verdict = Validator(kctx).validate(draft, get_category("holistic"))
        assert verdict.ok, verdict.reason
        assert "people/mina.md" in verdict.source_docs
        assert "products/p0.md" in verdict.source_docs and "products/p1.md" in verdict.source_docs


def test_a_headcount_is_stated_in_other_words_for_the_people_counted(tmp_path: Path) -> None:
    kb = {
        "company/overview.md": "# Orbit Works\n\n- **Headcount**: 148 employees\n- **Founded**: 2012\n",
        "company/offices.md": "# Offices\n\nOrbit Works employs 148 people in three offices.\n",
        "company/fleet.md": "# Fleet\n\nOrbit Works owns 148 vans across its three offices.\n",
    }
    kctx = kb_context(tmp_path, kb)
    headcount = next(f for f in kctx.facts if f.attribute == "Headcount")
    assert fact_closure(kctx, headcount) == {"company/overview.md", "company/offices.md"}  # vans are no people


def test_a_short_value_around_one_amount_is_stated_with_its_words_reordered(tmp_path: Path) -> None:
    kb = {
        "contracts/nuri.md": "# 누리항공 좌석 계약\n\n- **공급 규모**: 연간 왕복 6,000석\n",
        "products/danang.md": "# 다낭 리조트\n\n누리항공 좌석 계약으로 연간 6,000석의 왕복 좌석을 확보했다.\n",
        "products/jeju.md": "# 제주 힐링\n\n누리항공 좌석 계약과 별도로 연간 6,000석의 편도 좌석을 확보했다.\n",
    }
    kctx = kb_context(tmp_path, kb)
    supply = next(f for f in kctx.facts if f.attribute == "공급 규모")
    # every word of the value and the amount with its unit; a line with 편도 (one way) instead of 왕복 does not
    assert fact_closure(kctx, supply) == {"contracts/nuri.md", "products/danang.md"}


def test_a_list_value_is_stated_with_other_joining_words(tmp_path: Path) -> None:
    kb = {
        "company/teams.md": "# 팀 현황\n\n| 팀 | 팀장 | 주요 업무 |\n|---|---|---|\n"
        "| 경영지원팀 | 윤태경 | 재무, 인사, 총무, 계약 검토 |\n",
        "people/yoon.md": "# 윤태경\n\n윤태경은 팀장으로 경영지원팀의 재무, 인사, 총무와 계약 검토를 맡고 있다.\n",
        "people/kang.md": "# 강도윤\n\n강도윤은 경영지원팀과 함께 재무와 인사 일정을 조율한다.\n",
    }
    kctx = kb_context(tmp_path, kb)
    duties = next(f for f in kctx.facts if f.attribute == "주요 업무")
    # every item of the list in one line naming the team; a line with only some of them does not state it
    assert fact_closure(kctx, duties) == {"company/teams.md", "people/yoon.md"}


def test_a_date_is_stated_under_the_short_names_people_write(tmp_path: Path) -> None:
    kb = {
        **{
            f"products/{name.lower().replace(' ', '_')}.md": f"# {name}\n\n- **Launch Date**: {date}\n"
            for name, date in (
                ("Nova Courier 600", "February 21, 2023"),
                ("Nova Fold 250", "May 18, 2020"),
                ("Nova Ridge 700", "March 3, 2019"),
            )
        },
        "contracts/salish.md": "# Contract with Salish Couriers\n\n- **Signed**: February 2, 2024\n\n"
        "Salish Couriers rides the Courier 600, which launched on February 21, 2023.\n",
        "news/fleet.md": "# Fleet news\n\nIn February 2024 Salish Couriers signed its first fleet deal.\n",
        # the names' words are on many pages, so no single word of them singles the subject out
        **{f"notes/n{i}.md": f"# Note {i}\n\nSalish Couriers tested a Courier 600 in week {i}.\n" for i in range(8)},
    }
    kctx = kb_context(tmp_path, kb)
    launch = next(f for f in kctx.facts if f.subject == "Nova Courier 600" and f.attribute == "Launch Date")
    signed = next(f for f in kctx.facts if f.attribute == "Signed")
    # "Courier 600" without the brand word three names share; "Salish Couriers" without the kind word "Contract with"
    assert fact_closure(kctx, launch) == {"products/nova_courier_600.md", "contracts/salish.md"}
    assert fact_closure(kctx, signed) == {"contracts/salish.md", "news/fleet.md"}


def test_a_list_of_things_with_pages_is_stated_by_each_page_naming_the_subject(tmp_path: Path) -> None:
    kb = {
        "people/lee.md": "# 이준호\n\n- **담당 계약**: 세진전자 포상여행 계약, 그린모빌리티 출장 계약\n",
        "contracts/sejin.md": "# 세진전자 포상여행 계약\n\n- **담당자**: 이준호\n",
        "contracts/green.md": "# 그린모빌리티 출장 계약\n\n- **담당자**: 이준호\n",
        "contracts/nuri.md": "# 누리항공 좌석 계약\n\n- **담당자**: 정다은\n",
    }
    kctx = kb_context(tmp_path, kb)
    contracts = next(f for f in kctx.facts if f.attribute == "담당 계약")
    assert fact_closure(kctx, contracts) == {"people/lee.md", "contracts/sejin.md", "contracts/green.md"}


def test_closure_reads_a_distinctive_word_as_a_whole_word(tmp_path: Path) -> None:
    # "Quillon" names the first contract's product; the second contract only names the vendor "Ardquillon", which
    # holds the same letters. Both give the same full date: only the first states the first contract's start.
    ctx = kb_context(
        tmp_path,
        {
            "contracts/contract_with_marrow_bay_for_quillon.md": "# Contract with Marrow Bay for Quillon\n\n"
            "**Effective Date:** March 4, 2025\n\nMarrow Bay will use Quillon for its claims desk.\n",
            "contracts/contract_with_tessel_for_lumo.md": "# Contract with Tessel for Lumo\n\n## Terms\n\n"
            "This contract is made on March 4, 2025 between Ardquillon and Tessel, who will use Lumo.\n",
            "products/lumo.md": "# Lumo\n\n- **Owner**: Ardquillon\n",
        },
    )
    start = next(f for f in ctx.facts if f.attribute == "Effective Date")
    assert fact_closure(ctx, start) == {"contracts/contract_with_marrow_bay_for_quillon.md"}


PROSE_KB = {
    "products/fold_250.md": "# Fold 250\n\n- **Weight**: 16.2 kg\n- **Launch Date**: May 4, 2020\n",
    "products/ridge_700.md": "# Ridge 700\n\n- **Weight**: 24.0 kg\n",
    "people/lukas.md": "# Lukas Brandt\n\n- **Team**: Product\n\nThe Fold 250 was his first project. He cut its "
    "weight to 16.2 kg by moving the battery.\n\nHe also owns the Ridge 700. He cut its weight to 16.2 kg in a "
    "prototype of the Ridge 700 that never shipped.\n",
    "news/launches.md": "# Launches\n\nThe Fold 250 drew crowds at the fair.\n\nThe bike launched on May 4, 2020.\n",
}


def test_closure_follows_the_sentence_before_in_the_same_paragraph(tmp_path: Path) -> None:
    ctx = kb_context(tmp_path, PROSE_KB)
    weight = next(f for f in ctx.facts if f.subject == "Fold 250" and f.attribute == "Weight")
    # "The Fold 250 was his first project. He cut its weight to 16.2 kg": the sentence before names the bike
    assert "people/lukas.md" in fact_closure(ctx, weight)
    launch = next(f for f in ctx.facts if f.attribute == "Launch Date")
    # the sentence before is another paragraph: "The bike launched on May 4, 2020" is not tied to the Fold 250
    assert "news/launches.md" not in fact_closure(ctx, launch)
    ridge = next(f for f in ctx.facts if f.subject == "Ridge 700" and f.attribute == "Weight")
    assert fact_closure(ctx, ridge) == {"products/ridge_700.md"}  # 16.2 kg is not the Ridge's weight


def test_closure_of_roles_records_and_timeline_events(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "people/park.md": "# 박하늘\n\n- **직책**: 대표이사\n- **소속**: 경영진\n",
            "company/overview.md": "# 하늘여행\n\n- **대표이사**: 박하늘\n- **설립일**: 2008년 3월 15일\n",
            "company/org.md": "# 조직\n\n| 조직 | 책임자 | 인원 |\n|---|---|---|\n| 경영진 | 박하늘 | 4명 |\n"
            "| 기획팀 | 김민지 | 12명 |\n",
            "people/kim.md": "# 김민지\n\n- **소속**: 기획팀\n- **팀 인원**: 12명\n\n## 경력\n\n"
            "- **2019년 10월**: 교토 미식 투어 3박 4일 출시\n",
            "company/history.md": "# 하늘여행 연혁\n\n- **2019년 10월**: 교토 미식 투어 3박 4일 출시\n"
            "- **2010년 4월**: 김민지 입사, 신입 인원 12명 채용\n- **2011년 1월**: 기획팀\n",
            "products/kyoto.md": "# 교토 미식 투어 3박 4일\n\n- **출시일**: 2019년 10월 7일\n",
        },
    )
    closure = Closure(ctx)
    role = next(f for f in ctx.facts if f.attribute == "직책")
    assert "company/overview.md" in closure.of(role)  # "대표이사: 박하늘" states his role without the label
    team = next(f for f in ctx.facts if f.attribute == "소속" and f.subject == "박하늘")
    assert "company/org.md" in closure.of(team)  # "| 경영진 | 박하늘 |"
    size = next(f for f in ctx.facts if f.subject == "기획팀" and f.attribute == "인원")
    assert "people/kim.md" in closure.of(size)  # her record: "소속: 기획팀", "팀 인원: 12명"
    assert "company/history.md" not in closure.of(size)  # a timeline line is no record of the team
    launch = next(f for f in ctx.facts if f.subject == "김민지" and f.value_type == "date" and "출시" in f.attribute)
    assert "company/history.md" in closure.of(launch)  # the same event, dated the same, in another timeline
    # the product page gives the day of a month-only date: the answer would leave it out
    assert closure.finer_date(launch, closure.of(launch) | {"products/kyoto.md"}) == "2019년 10월 7일"


def test_closure_reads_a_catalogue_section_and_a_prose_fact_by_its_own_words(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "products/dock.md": "# Nimbus Dock\n\n- **Price**: $109\n",
            "catalogue.md": "# Accessories\n\n#### Nimbus Dock\n\n- Price: $109\n\n#### Nimbus Stand\n\n- Price: $72\n",
            "people/ada.md": "# Ada Park\n\n- **Team**: Sales\n- **Reports To**: Rosa Vale\n",
            "people/rosa.md": "# Rosa Vale\n\n- **Team**: Marketing\n",
            "papers/a.md": "# Virus A: field notes\n\nOn January 30, 2020, the CDC reported the first household "
            "transmission of Virus A in the US.\n",
            "papers/b.md": "# Virus A: a review\n\nOn January 30, 2020, the WHO declared Virus A an emergency.\n",
        },
    )
    closure = Closure(ctx)
    price = next(f for f in ctx.facts if f.subject == "Nimbus Dock" and f.attribute == "Price")
    assert "catalogue.md" in closure.of(price)  # the price under the dock's own heading
    team = next(f for f in ctx.facts if f.subject == "Rosa Vale" and f.attribute == "Team")
    assert closure.of(team) == {"people/rosa.md"}  # Ada's "Team: Sales" is Ada's team, not her manager's
    report = next(f for f in ctx.facts if f.source == "sentence" and "CDC" in f.evidence)
    assert "papers/b.md" not in closure.of(report)  # the same date, another event


def test_closure_reads_a_name_split_between_a_section_heading_and_a_table_row(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "cars/edge.md": "# Vela Edge Sedan\n\n| Variant | Fuel | Price (Lakh) |\n|---|---|---|\n"
            "| Edge Sedan Diesel X | Diesel | 14.3 |\n| Edge Sedan Diesel ZX | Diesel | 14.8 |\n",
            # the price list names the model in its heading and the fuel and trim in the row
            "pricing.md": "# Price list\n\n### 9. Spark (Hatchback)\n\n| Variant | Trim | Price (Lakh) |\n"
            "|---|---|---|\n| Diesel | X | 14.3 |\n\n### 10. Edge (Sedan)\n\n| Variant | Trim | Price (Lakh) |\n"
            "|---|---|---|\n| Diesel | X | 14.3 |\n| Diesel | ZX | 14.8 |\n",
            # the same number under another model's heading states nothing of the Edge
            "other.md": "# Spark notes\n\n### Spark (Hatchback)\n\n| Variant | Trim | Price (Lakh) |\n|---|---|---|\n"
            "| Diesel | X | 14.3 |\n",
        },
    )
    closure = Closure(ctx)
    price = next(f for f in ctx.facts if f.subject == "Edge Sedan Diesel X" and f.attribute.startswith("Price"))
    assert closure.of(price) == {"cars/edge.md", "pricing.md"}


def test_closure_finds_a_teacher_listed_beside_the_row_label_of_a_course(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "school/timetable.md": "# Timetable\n\n| Course | Level | Teacher | Room |\n|---|---|---|---|\n"
            "| Italian | A1 | Marco Ferri | Bologna |\n| German | A2 | Lena Vogt | Lyon |\n",
            # the staff page writes the row as the timetable does, without the kind the course's name was given
            "school/teachers.md": "# Our teachers\n\n**Marco Ferri** - Italian\n\n**Lena Vogt** - German\n",
            "school/news.md": "# News\n\nMarco Ferri ran the Open Day.\n",
        },
    )
    closure = Closure(ctx)
    teacher = next(f for f in ctx.facts if f.value == "Marco Ferri")
    assert closure.of(teacher) == {"school/timetable.md", "school/teachers.md"}


def test_closure_finds_a_head_named_beside_the_post_on_the_organisations_own_pages(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "academy/01_소개.md": "# 학원 소개\n\n| 항목 | 내용 |\n|---|---|\n| 학원명 | 다온수학학원 |\n"
            "| 원장 | 서진규 (수학) |\n| 설립일 | 2013년 3월 4일 |\n",
            # the staff page of the academy's own folder names the head beside the post, not the academy
            "academy/02_강사.md": "# 강사 소개\n\n### 서진규 원장\n\n고3 수능반을 맡고 있습니다.\n",
            "other/news.md": "# 소식\n\n서진규 원장이 다른 학원을 열었다.\n",
        },
    )
    head = next(f for f in ctx.facts if f.attribute == "원장")
    assert head.subject == "다온수학학원"  # the page titled by its kind is about the name its own row gives
    assert not any(f.attribute == "학원명" for f in ctx.facts)  # "다온수학학원의 학원명은 다온수학학원" asks nothing
    assert Closure(ctx).of(head) == {"academy/01_소개.md", "academy/02_강사.md"}


def test_closure_reads_a_page_of_the_folder_named_after_the_subject_and_hours_in_other_words(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "달빛캠핑장/01_소개.md": "# 달빛캠핑장\n\n- 샤워장 온수: 06:00 ~ 23:00 (무료)\n",
            # the FAQ of the campground's own folder names no campground; it writes the hours the way people say them
            "달빛캠핑장/02_FAQ.md": "# 자주 묻는 질문\n\nQ. 샤워장은 유료인가요?\n\n"
            "무료예요. 온수는 새벽 6시부터 밤 11시까지 나옵니다.\n",
            "별빛캠핑장/02_FAQ.md": "# 자주 묻는 질문\n\n온수는 새벽 6시부터 밤 11시까지 나옵니다.\n",
        },
    )
    hot = next(f for f in ctx.facts if f.attribute == "샤워장 온수")
    assert Closure(ctx).of(hot) == {"달빛캠핑장/01_소개.md", "달빛캠핑장/02_FAQ.md"}


def test_closure_finds_a_rules_figure_told_again_in_other_words_in_the_same_folder(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "camp/규정.md": "# 예약 규정\n\n"
            "무통장 입금 예약은 예약 후 3시간 이내 입금이 확인되지 않으면 자동 취소됩니다.\n",
            "camp/후기.txt": "겨울 캠핑 후기\n\n"
            "무통장으로 예약했는데 3시간 안에 입금 안 하면 자동 취소라서 바로 보냈어요.\n",
            "camp/안내.md": "# 오시는 길\n\n주차장에서 3시간 이내로 걸어오실 수 있습니다.\n",
            "other/후기.txt": "다른 곳 후기\n\n무통장 예약은 3시간 안에 입금 안 하면 자동 취소래요.\n",
        },
    )
    rule = next(f for f in ctx.facts if f.value == "3시간" and f.doc_id == "camp/규정.md")
    assert Closure(ctx).of(rule) == {"camp/규정.md", "camp/후기.txt"}


def test_closure_of_a_relation_told_in_prose(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "contracts/bergfeld.md": "# Contract with Bergfeld Freight\n\n- **Client**: Bergfeld Freight\n"
            "- **Product**: Velo Cargo 9\n",
            "products/cargo_9.md": "# Velo Cargo 9\n\n- **Price**: $5,450\n\nThe largest Cargo 9 customer is "
            "Bergfeld Freight in Munich, which leases 180 bikes.\n",
            "people/eli.md": "# Eli Park\n\n- **Team**: Sales\n\nBergfeld Freight uses the Velo Cargo 9 for parcels.\n",
            "news/fair.md": "# Fair\n\nVisitors met Bergfeld Freight and tried the Velo Cargo 9 at the fair.\n",
        },
    )
    product = next(f for f in ctx.facts if f.attribute == "Product")
    docs = fact_closure(ctx, product)
    assert {"products/cargo_9.md", "people/eli.md"} <= docs  # "customer is Bergfeld Freight", "uses the Velo Cargo 9"
    assert "news/fair.md" not in docs  # both named, no relation told


def test_the_other_ends_page_must_tell_the_relation_not_only_name_the_subject(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "company/offices.md": "# Offices\n\n| Office | City | Staff |\n|---|---|---|\n"
            "| Harbor Headquarters | Oslo | 40 |\n| Fjord Plant | Bergen | 90 |\n\n"
            "## Harbor Headquarters\n\n- **Address**: 1 Quay Road, Oslo\n- **Site Lead**: Ida Berg\n",
            "people/ida_berg.md": "# Ida Berg\n\n- **Title**: CEO\n\nIda cycles to the Harbor Headquarters.\n",
            "people/tom_lee.md": "# Tom Lee\n\n- **Title**: Engineer\n",
        },
    )
    lead = next(f for f in ctx.facts if f.attribute == "Site Lead")
    assert "people/ida_berg.md" not in fact_closure(ctx, lead)  # she works there; it does not say she leads it


def test_names_joined_by_and_are_a_list_and_a_unit_may_be_written_once() -> None:
    assert _list_parts("Ida Berg and Tom Lee") == ("Ida Berg", "Tom Lee")
    assert _list_parts("A Smith, B Jones and C Wu") == ("A Smith", "B Jones", "C Wu")
    assert _list_parts("bread and butter") == ()
    staff = FactNode(
        fact_id="f1",
        subject="Harbor Bikes",
        attribute="Headcount",
        value="148 employees",
        value_type="number",
        number=148.0,
        unit="employees",
        source="key_value",
        doc_id="a.md",
        chunk_id="c",
        evidence="",
        start=0,
        end=0,
    )
    assert states_value(staff, "Headcount passed 100 employees in 2020 and reached 148 by the end of 2023.")
    assert not states_value(staff, "The plant shipped 148 by the end of 2023.")


def test_a_page_titled_with_the_subject_states_its_fact_past_its_first_chunk(tmp_path: Path) -> None:
    filler = "".join(f"- {year}: the team rode the coast trail again.\n" for year in range(1990, 2020))
    ctx = kb_context(
        tmp_path,
        {
            "company/overview.md": "# Harbor Bikes\n\n- **Headcount**: 148 employees\n- **City**: Oslo\n",
            "company/history.md": "# History of Harbor Bikes\n\n## Rides\n\n" + filler + "\n## Growth\n\n"
            "Headcount passed 100 employees in 2020 and reached 148 by the end of 2023.\n",
        },
    )
    assert len(ctx.chunks_by_doc["company/history.md"]) > 1
    headcount = next(f for f in ctx.facts if f.attribute == "Headcount")
    assert "company/history.md" in fact_closure(ctx, headcount)


def test_an_faq_restating_a_policy_rule_and_table_rows_naming_the_person_state_the_fact(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "policies/refund.md": "# 환불 규정\n\n- **환불 처리 기한**: 취소 접수 후 영업일 기준 5일 이내\n",
            "faq/faq.md": "# 자주 묻는 질문\n\n**Q. 환불금은 언제 들어오나요?**\n\n"
            "A. 취소 접수 후 영업일 기준 5일 안에 환불됩니다.\n\n"
            "**Q. 예약은?**\n\nA. 영업일 기준 5일 전까지 가능합니다.\n",
            "people/choi.md": "# 최하나\n\n- **직책**: 대구지점장\n- **책임 상품**: 경주 역사 투어, 안동 한옥 투어\n",
            "company/branches.md": "# 지점\n\n| 지점 | 직원 수 | 지점장 |\n|---|---|---|\n"
            "| 대구 지점 | 9명 | 최하나 |\n| 광주 지점 | 7명 | 문수진 |\n",
            "company/products.md": "# 하늘여행 개요\n\n## 주력 상품\n\n| 상품 | 가격 | 상품 책임자 |\n|---|---|---|\n"
            "| 경주 역사 투어 | 99,000원 | 최하나 |\n| 안동 한옥 투어 | 89,000원 | 최하나 |\n"
            "| 여수 밤바다 | 79,000원 | 문수진 |\n",
            "company/other.md": "# 행사\n\n| 행사 | 담당 |\n|---|---|\n| 경주 역사 투어 | 최하나 |\n",
        },
    )
    deadline = next(f for f in ctx.facts if f.attribute == "환불 처리 기한")
    assert "faq/faq.md" in fact_closure(ctx, deadline)  # "5일 안에" under the refund question
    role = next(f for f in ctx.facts if f.attribute == "직책")
    assert "company/branches.md" in fact_closure(ctx, role)  # row 대구 지점 + column 지점장
    products = next(f for f in ctx.facts if f.attribute == "책임 상품")
    docs = fact_closure(ctx, products)
    assert "company/products.md" in docs  # both products' rows name her
    assert "company/other.md" not in docs  # one of the two only


def test_two_things_named_in_a_row_do_not_state_the_relation_between_them(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "contracts/pine.md": "# Pine Hotel Contract\n\n- **Related Product**: Coast Walk Tour\n",
            "products/coast_walk.md": "# Coast Walk Tour\n\n- **Price**: $90\n\n"
            "Rooms for the Coast Walk Tour come from the Pine Hotel Contract.\n",
            "company/branches.md": "# Branches\n\nEach branch sells its own products.\n\nThe Coast branch runs "
            "the Coast Walk Tour and manages the Pine Hotel Contract.\n",
            "people/ana.md": "# Ana Lee\n\n- **Title**: Coast Branch Manager\n\nAna manages the Pine Hotel Contract, "
            "whose related product Coast Walk Tour sells out every summer.\n",
        },
    )
    related = next(f for f in ctx.facts if f.attribute == "Related Product")
    docs = fact_closure(ctx, related)
    assert "company/branches.md" not in docs  # "runs A and manages B": named in a row
    assert "people/ana.md" in docs  # "related product Coast Walk Tour": the attribute beside the name


def test_a_team_named_in_lower_case_counts_only_when_tied_to_the_person(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "people/ida.md": "# Ida Berg\n\n- **Team**: Executive\n",
            "people/tom.md": "# Tom Lee\n\n- **Team**: Engineering\n",
            "policies/travel.md": "# Travel Policy\n\nTrips by the executive team are approved by Ida Berg.\n",
            "company/offices.md": "# Offices\n\nThe workshop is where the engineering team led by Tom Lee works.\n",
        },
    )
    ida = next(f for f in ctx.facts if f.subject == "Ida Berg" and f.attribute == "Team")
    tom = next(f for f in ctx.facts if f.subject == "Tom Lee" and f.attribute == "Team")
    assert "policies/travel.md" not in fact_closure(ctx, ida)
    assert "company/offices.md" in fact_closure(ctx, tom)


def test_a_bare_count_of_units_is_stated_by_the_things_counted(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "contracts/summit.md": "# Contract with Summit Tours\n\n- **Units**: 40\n- **Start**: March 2024\n",
            "products/ridge.md": "# Ridge 700\n\n- **Price**: $3,100\n\nIn 2024 Summit Tours signed a contract "
            "leasing 40 bikes for guided tours.\n",
            "news/ride.md": "# Ride Day\n\nSummit Tours led a ride of 40 minutes under the contract terms.\n",
        },
    )
    units = next(f for f in ctx.facts if f.attribute == "Units")
    docs = fact_closure(ctx, units)
    assert "products/ridge.md" in docs  # "40 bikes"
    assert "news/ride.md" not in docs  # "40 minutes" counts no things


def test_a_dated_sentence_told_again_in_another_paper_is_in_its_closure(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "papers/a.md": "# Paper A\n\nHarbor fever syndrome virus was first recognized in September 2012 in Oslo "
            "Norway.\n",
            "papers/b.md": "# Paper B\n\nHarbor fever syndrome (HFS) was first reported in September 2012 in Oslo "
            "Norway, after a sailor fell ill.\n",
            "papers/c.md": "# Paper C\n\nA new clinic was first opened in September 2012 in Bergen.\n",
        },
    )
    first = next(f for f in ctx.facts if f.doc_id == "papers/a.md" and f.value_type == "date")
    docs = fact_closure(ctx, first)
    assert "papers/b.md" in docs  # the same event in nearly the same words
    assert "papers/c.md" not in docs  # the same date, another event


def test_a_dated_korean_event_told_in_other_words_with_rare_words_of_it_is_in_its_closure(tmp_path: Path) -> None:
    filler = "\n\n".join(f"# 문서 {i}\n\n이 마을은 1978년에 면에서 읍으로 바뀌었다." for i in range(4))
    ctx = kb_context(
        tmp_path,
        {
            "wiki/송포선.md": "# 송포선\n\n송포선은 철도 노선이다. 1978년에는 광산이 있는 다랑까지 연장되었다.\n",
            "wiki/송포역.md": "# 송포역\n\n송포역은 기차역이다. 개업 당시 종착역이었으나 1978년 다랑까지 노선이 "
            "연장되면서 중간역이 되었다.\n",
            "wiki/송포시장.md": "# 송포시장\n\n송포시장은 재래시장이다. 1978년 다랑 출신 상인들이 처음 문을 열었다.\n",
            **{f"wiki/마을{i}.md": filler for i in range(3)},
        },
    )
    extended = next(f for f in ctx.facts if f.doc_id == "wiki/송포선.md" and f.value_type == "date")
    docs = fact_closure(ctx, extended)
    assert "wiki/송포역.md" in docs  # the year, "다랑까지" and "연장되" in one sentence
    assert "wiki/송포시장.md" not in docs  # the year and the place only: another event


def test_a_dated_event_told_with_its_names_and_verb_in_other_words_is_in_its_closure(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "news/interview.md": "# A talk with the CTO\n\nMarta Lindqvist co-founded Quillory in 2017 with Omar "
            "Fadel, and she now runs its engineering team.\n",
            "news/release.md": "# Quillory raises funds\n\nFounded in 2017 by Omar Fadel and Marta Lindqvist, "
            "Quillory builds invoicing tools.\n",
            "news/award.md": "# Awards\n\nIn 2017 Marta Lindqvist and Omar Fadel spoke about Quillory at a fair.\n",
        },
    )
    founded = next(f for f in ctx.facts if f.doc_id == "news/interview.md" and f.value_type == "date")
    docs = fact_closure(ctx, founded)
    assert "news/release.md" in docs  # every name, "found" and the year in one line
    assert "news/award.md" not in docs  # the same names and year, another event


def test_an_english_event_told_again_by_the_first_name_and_its_verb_is_in_its_closure(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "firm/about.md": "# About us\n\nKeith Brindley started the business in 1987 with a second-hand van.\n",
            "firm/team.md": "# Meet the team\n\nKeith started the firm in 1987 after years with a local builder.\n",
            "firm/history.md": "# Our van\n\nKeith bought the blue van in 1987 from a farmer.\n",
            "firm/guarantee.md": "# Guarantees\n\nWe have been around since 1987 and we stand behind our work.\n",
        },
    )
    started = next(f for f in ctx.facts if f.doc_id == "firm/about.md" and f.value_type == "date")
    docs = fact_closure(ctx, started)
    assert "firm/team.md" in docs  # his first name, "start…" and the year in one line
    assert "firm/history.md" not in docs  # his first name and the year: another event
    assert "firm/guarantee.md" not in docs  # the year alone


def test_a_title_written_before_the_name_without_its_honorific_states_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "catalog/staff.md": "# Department of Physics\n\n| Name | Title | Office |\n|---|---|---|\n"
            "| Prof. Helga Brandt | Professor Emeritus | Kerr Hall 2 |\n| Dr. Ivo Marek | Lecturer | Kerr Hall 5 |\n",
            "news/retire.md": "# A farewell\n\nProfessor Emeritus Helga Brandt recalled her first lecture.\n",
        },
    )
    title = next(f for f in ctx.facts if f.value == "Professor Emeritus")
    assert "news/retire.md" in fact_closure(ctx, title)


def test_a_line_with_part_of_a_relations_label_names_another_relation(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "handbook/offices.md": "# Offices\n\n| Office | Office manager |\n|---|---|\n| Bristol | Helen Okafor |\n"
            "| Leeds | Priya Raman |\n",
            "handbook/overview.md": "# Overview\n\n| Role | Name | Based at |\n|---|---|---|\n"
            "| Regional Manager, South West | Helen Okafor | Bristol |\n",
            "handbook/devices.md": "# Devices\n\nCollect your laptop from your office manager (Bristol: Helen Okafor; "
            "Leeds: Priya Raman).\n",
        },
    )
    manager = next(f for f in ctx.facts if f.subject == "Bristol" and f.attribute == "Office manager")
    docs = fact_closure(ctx, manager)
    assert "handbook/devices.md" in docs  # the whole label beside both names
    assert "handbook/overview.md" not in docs  # "Regional Manager" is her other role


def test_a_units_head_written_before_the_name_states_where_the_person_works(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "people/oh.md": "# 오민수\n\n- **근무지**: 대전 지점\n- **직책**: 대전지점장\n",
            "products/tour.md": "# 계룡산 투어\n\n- **가격**: 99,000원\n\n"
            "대전지점장 오민수가 상품 책임자를 맡고 있다.\n",
            "news/visit.md": "# 방문 소식\n\n오민수는 대전 지점 행사에서 인사말을 했다.\n",
        },
    )
    workplace = next(f for f in ctx.facts if f.attribute == "근무지")
    docs = fact_closure(ctx, workplace)
    assert "products/tour.md" in docs  # 대전지점장 오민수: the head of 대전 지점


def test_a_korean_role_written_around_the_name_states_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "people/kang.md": "# 강도윤\n\n- **직책**: 재무관리팀장\n- **입사일**: 2015년 3월 2일\n",
            "contracts/ship.md": "# 선박 임대 계약\n\n- **계약 금액**: 2억 원\n\n"
            "이 계약은 재무관리팀 강도윤 팀장의 검토를 거쳤다.\n",
            "news/party.md": "# 송년회\n\n강도윤 팀장이 송년회 사회를 맡았다.\n",
            "company/teams.md": "# 조직\n\n| 부서 | 부서장 | 인원 |\n|---|---|---|\n| 재무관리팀 | 강도윤 | 6명 |\n"
            "| 영업팀 | 한지수 | 9명 |\n",
        },
    )
    role = next(f for f in ctx.facts if f.attribute == "직책")
    docs = fact_closure(ctx, role)
    assert "contracts/ship.md" in docs  # 재무관리팀 강도윤 팀장: the team, the name, then its head's title
    assert "company/teams.md" in docs  # his row under 부서장: the head of 재무관리팀
    assert "news/party.md" not in docs  # "강도윤 팀장" does not say which team


def test_a_post_in_another_cell_of_a_row_naming_the_person_states_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "market/officers.md": "# 임원 및 연락처\n\n| 이름 | 직책 | 점포 |\n|---|---|---|\n"
            "| 최동수 | 감사 | 동해수산 |\n| 이미란 | 감사 | 미란떡집 |\n",
            "market/shops.csv": "호수,상호,대표자,전화,비고\nB-05,동해수산,최동수,031-226-5205,상인회 감사\n"
            "B-06,미란떡집,이미란,031-226-5206,감사 인사 전달\n",
        },
    )
    auditor = next(f for f in ctx.facts if f.attribute == "직책" and f.subject == "최동수")
    assert "market/shops.csv" in fact_closure(ctx, auditor)  # "상인회 감사" in his shop's row
    other = next(f for f in ctx.facts if f.attribute == "직책" and f.subject == "이미란")
    assert "market/shops.csv" not in fact_closure(ctx, other)  # "감사 인사 전달" is thanks passed on, not her post


def test_a_short_value_in_a_row_under_its_labelled_column_and_a_code_under_the_same_column_state_it(
    tmp_path: Path,
) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "school/fees.md": "# 수강료\n\n| 과정코드 | 과정명 | 수강료 |\n|---|---|---|\n"
            "| C01 | 제과기능사 주간반 | 580,000원 |\n| C02 | 제과기능사 야간반 | 580,000원 |\n",
            "school/timetable.md": "# 5월 시간표\n\n| 요일 | 과정 | 과정코드 | 강사 |\n|---|---|---|---|\n"
            "| 월·수·금 | 제과기능사 주간반 | C01 | 윤하늘 |\n| 화·목 | 제빵기능사 주간반 | C03 | 강태윤 |\n",
            "school/old fees.md": "# 상반기 수강료\n\n| 과정코드 | 과정명 | 비고 |\n|---|---|---|\n"
            "| C01 | 제과기능사 자격증반(주간) | 8주 |\n| C02 | 제과기능사 자격증반(야간) | 8주 |\n",
            "school/notes.md": "# 메모\n\n| 날짜 | 내용 |\n|---|---|\n| 5/2 | C01 교재 입고 |\n| 5/9 | C02 재료 |\n",
        },
    )
    code = next(f for f in ctx.facts if f.attribute == "과정코드" and f.value == "C01" and f.doc_id == "school/fees.md")
    docs = fact_closure(ctx, code)
    assert "school/timetable.md" in docs  # the row names the course; the header labels its C01
    assert "school/old fees.md" in docs  # C01 under a column of the same label, whatever the row calls it
    assert "school/notes.md" not in docs  # C01 in a note names no code of a course


def test_one_price_in_two_currencies_is_stated_by_a_row_giving_both() -> None:
    assert _list_parts("₹8,999 / $109") == ("₹8,999", "$109")
    assert _list_parts("Red / Blue") != ("Red", "Blue")  # no amounts: not a price in two currencies


def test_a_kind_said_in_apposition_to_the_name_states_the_category(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "products/tern.md": "# Tern 300\n\n- **Category**: Folding bike\n- **Price**: $1,200\n",
            "people/ana.md": "# Ana Ruiz\n\nAna owns the Tern 300, the company's folding bike, since 2021.\n",
            "news/fair.md": "# Trade fair\n\nWe saw the Tern 300, the rival of the folding bike from Oslo.\n",
        },
    )
    category = next(f for f in ctx.facts if f.attribute == "Category")
    docs = fact_closure(ctx, category)
    assert "people/ana.md" in docs  # "the Tern 300, the company's folding bike"
    assert "news/fair.md" not in docs  # "the rival of the folding bike": another bike is the folding one


CODES_KB = {
    "products/air_purifier_spec.md": "# 에어소담 AP-40 사양\n\n## 필터\n\n"
    "- 교체용 필터(모델명 AF-40H)는 공식 온라인몰에서 59,000원에 살 수 있습니다.\n"
    "- 무게: 6.5kg\n",
    "products/price_list.md": "# 2026년 가격표\n\n## 소모품\n\n- AP-40 교체용 필터 (AF-40H): 59,000원\n"
    "- AP-25 교체용 필터 (AF-25H): 59,000원\n",
    "support/faq.md": "# 자주 묻는 질문\n\nQ. 필터는 얼마인가요?\n\nA. 교체용 필터 AF-40H의 가격은 59,000원입니다.\n",
    "news/launch.md": "# 에어소담 신제품 출시\n\n예약 고객에게는 교체용 필터(AF-40H, 59,000원 상당)를 준다.\n",
    "products/lineup.md": "# 공기청정기 라인업\n\n| 모델 | 무게 | 소비전력 |\n|---|---|---|\n| AP-40 | 6.5kg | 40W |\n"
    "| AP-25 | 4.2kg | 25W |\n",
    "news/packing.md": "# 배송 안내\n\nAP-40 포장 상자는 6.5kg이다. AP-40의 무게는 6.5kg이다.\n",
    "news/box.md": "# 배송 상자\n\nAP-40 포장 상자는 6.5kg이다.\n",
}


def test_a_model_code_beside_the_same_amount_states_the_price_on_any_page(tmp_path: Path) -> None:
    ctx = kb_context(tmp_path, CODES_KB)
    filters = [f for f in ctx.facts if f.value == "59,000원" and "AF-40H" in f.attribute]
    assert {f.source for f in filters} >= {"sentence", "key_value"}
    every = {"products/air_purifier_spec.md", "products/price_list.md", "support/faq.md", "news/launch.md"}
    for price in filters:  # the spec's sentence, the price list's row, the FAQ's answer: one price, four pages
        assert fact_closure(ctx, price) == every
    # the same amount beside another code is another thing's price: the AF-25H row is stated by no filter page
    other = next(f for f in ctx.facts if "AF-25H" in f.attribute)
    assert Closure(ctx).identifiers(other) == {"AP-25", "AF-25H"}
    assert fact_closure(ctx, other) == {"products/price_list.md"}


def test_a_measure_beside_a_model_code_needs_its_attribute(tmp_path: Path) -> None:
    ctx = kb_context(tmp_path, CODES_KB)
    lineup = [f for f in ctx.facts if f.doc_id == "products/lineup.md"]
    weight = next(f for f in lineup if f.attribute == "무게" and f.number == 6.5)
    assert weight.subject == "AP-40"  # a row of a model code names the model
    # "AP-40 포장 상자는 6.5kg이다" gives the box's weight, not the purifier's: the attribute 무게 is not in it
    closure = fact_closure(ctx, weight)
    assert {"products/lineup.md", "news/packing.md", "products/air_purifier_spec.md"} <= closure
    assert "news/box.md" not in closure


def test_the_same_figure_of_the_same_coded_thing_is_asked_once(tmp_path: Path) -> None:
    ctx = kb_context(tmp_path, CODES_KB)
    validator = Validator(ctx)
    category = get_category("numerical")
    spec, faq = (
        next(f for f in ctx.facts if f.value == "59,000원" and f.doc_id == doc and "AF-40H" in f.attribute)
        for doc in ("products/air_purifier_spec.md", "support/faq.md")
    )

    def draft(price: FactNode, question: str) -> Draft:
        return Draft(
            category="numerical",
            question=question,
            reference_answer=f"{question} 59,000원입니다.",
            keywords=["59,000원"],
            facts=[price],
            answer_spans=["59,000원"],
            language="ko",
            template="test",
        )

    assert validator.validate(draft(spec, "교체용 필터 AF-40H는 온라인몰에서 얼마에 살 수 있나요?"), category).ok
    again = validator.validate(draft(faq, "AF-40H 필터의 값은?"), category)
    assert (again.ok, again.reason) == (False, "near-duplicate")


def test_a_single_fact_whose_every_keyword_is_in_the_question_leaks(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "company/intro.md": "# 회사 소개 | 주식회사 온담헬스케어\n\n"
            "- **회사명**: 주식회사 온담헬스케어 (ONDAM Inc.)\n"
        },
    )
    name = next(f for f in ctx.facts if f.attribute == "회사명")
    draft = single_fact_draft(ctx, name, "direct_fact")
    assert draft is not None and draft.question.startswith("주식회사 온담헬스케어"), draft
    verdict = Validator(ctx).validate(draft, get_category("direct_fact"))
    assert (verdict.ok, verdict.reason) == (False, "answer leaked in question")


def test_a_count_with_a_note_is_stated_by_a_page_titled_with_the_subjects_words(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "city/notice.md": "# 2025년 시민 치과검진 본인부담금 지원사업 시행 공고\n\n"
            "- **지원 인원**: 약 3,000명 (예산 소진 시 조기 마감)\n- **사업 예산**: 2억 원 (시비 100%)\n",
            "city/faq.md": "# 시민 치과검진 본인부담금 지원 자주 묻는 질문\n\n**Q. 왜 일찍 마감됐나요?**\n\n"
            "A. 신청 인원이 예산 범위(약 3,000명)에 이르러 일찍 마감되었습니다.\n",
            "news/fair.md": "# 봄 축제 소식\n\n올해 축제에는 약 3,000명이 다녀갔다.\n",
        },
    )
    people = next(f for f in ctx.facts if f.attribute == "지원 인원")
    docs = fact_closure(ctx, people)
    assert "city/faq.md" in docs  # the FAQ about the programme, its amount and the label's word
    assert "news/fair.md" not in docs  # the same count of another thing


def test_a_measure_in_brackets_after_the_name_or_said_with_its_units_name_states_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "products/spec.md": "# Spec Sheet\n\n| Specification | KC-360 | KC-720 Cargo |\n|---|---|---|\n"
            "| Nominal voltage | 36 V | 48 V |\n| Weight | 2.4 kg | 4.3 kg |\n",
            "support/notes.md": "# Release notes\n\n- Support for the KC-720 Cargo (48 V), launched the same day.\n",
            "support/faq.md": "# FAQ\n\n**Q: Can I charge it with the QC-4?**\n\n"
            "A: No. The KC-720 Cargo is a 48-volt pack and only charges from the CX-48.\n",
            "news/bike.md": "# Bike news\n\nThe KC-720 Cargo rides on a 48 mm rail.\n",
        },
    )
    volts = next(f for f in ctx.facts if f.subject == "KC-720 Cargo" and f.attribute == "Nominal voltage")
    docs = fact_closure(ctx, volts)
    assert {"support/notes.md", "support/faq.md"} <= docs  # "(48 V)" after the name; "a 48-volt pack"
    assert "news/bike.md" not in docs  # 48 mm is no voltage


def test_a_figure_a_page_naming_the_subject_writes_again_is_not_kept(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "products/spec.md": "# Spec Sheet\n\n| Specification | KC-360 | KC-720 Cargo |\n|---|---|---|\n"
            "| Weight | 2.4 kg | 4.3 kg |\n| Nominal voltage | 36 V | 48 V |\n",
            "support/faq.md": "# FAQ\n\nThe KC-720 Cargo ships in a padded box.\n\n"
            "**Q: How heavy is the Cargo pack?**\n\nA: Just under four and a half kilos (4.3 kg).\n",
        },
    )
    weight = next(f for f in ctx.facts if f.subject == "KC-720 Cargo" and f.attribute == "Weight")
    draft = single_fact_draft(ctx, weight, "numerical")
    assert draft is not None
    verdict = Validator(ctx).validate(draft, get_category("numerical"))
    # the FAQ likely states the same weight, in words the closure cannot tie to it: the item is not defended
    assert (verdict.ok, verdict.reason) == (False, "unclaimed_restatement"), verdict
    volts = next(f for f in ctx.facts if f.subject == "KC-720 Cargo" and f.attribute == "Nominal voltage")
    kept = single_fact_draft(ctx, volts, "numerical")
    assert kept is not None and Validator(ctx).validate(kept, get_category("numerical")).ok


def test_a_rare_figure_written_again_with_its_label_or_on_a_page_titled_with_the_subject_is_not_kept(
    tmp_path: Path,
) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "city/notice.md": "# 2025년 시민 건강검진 지원사업\n\n- 지원 인원: 5,000명\n- 지원 한도: 50,000원\n",
            "company/minutes.md": "# 주간 회의록\n\n- 신청 현황: 3,900명. 지원 인원(5,000명) 대비 78%.\n",
            "org/about.md": "# 늘품재단\n\n- 직원: 상근 7명\n- 기본재산: 32억 원\n",
            "org/board.md": "# 늘품재단 제3차 이사회 회의록\n\n- 배석: 사무국장\n\n"
            + "회의 안건을 길게 적는다. " * 40
            + "\n\n- 정규직은 상근 7명 그대로 유지함.\n",
            "employees/avery.md": "# Avery Lancaster\n\n- **Role**: CEO\n- **Current Salary**: $225,000\n",
            "employees/james.md": "# James Wilson\n\n- **Role**: CFO\n\n## Compensation\n\n"
            "- 2019: Base Salary: $225,000 + Bonus: $95,000\n",
            "contracts/heritage.md": "# Contract with Heritage Life\n\n- **Payment Terms**: $7,500 per month. "
            "Total contract value: $225,000.\n",
        },
    )
    validator = Validator(ctx)

    def verdict(value: str) -> tuple[bool, str | None]:
        fact = next(f for f in ctx.facts if value in f.value and f.source != "sentence")
        draft = single_fact_draft(ctx, fact, "numerical")
        assert draft is not None, value
        found = validator.validate(draft, get_category("numerical"))
        return found.ok, found.reason

    # the minutes write the count with its label, never naming the programme
    assert verdict("5,000명") == (False, "unclaimed_restatement")
    # the board's minutes are titled with the foundation: every chunk of them is about it
    assert verdict("상근 7명") == (False, "unclaimed_restatement")
    # the same salary on another person's page (a different thing of the same kind), or under another label of its
    # own ("Total contract value"), is no restatement
    salary = next(f for f in ctx.facts if f.attribute == "Current Salary")
    assert Closure(ctx).unclaimed(salary, {"employees/avery.md"}) is None
    assert verdict("$225,000") == (True, None)


def test_a_price_a_notice_or_an_faq_of_the_same_folder_writes_again_is_not_kept(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "lido/Price List 2025.csv.txt": "Ticket,Who,Price,Per\nAdult single,16+,£7.00,per swim\n"
            "Concession single,65+ and students,£4.50,per swim\nJunior single,5-15,£3.50,per swim\n",
            "lido/NOTICE new hours.txt": "NOTICE\n\nFrom 1 September the pool opens at 7am. Prices stay the same "
            "(Adult £7.00, Concession £4.50).\n",
            "lido/FAQ.md": "# Frequently Asked Questions\n\n## How much is a swim?\n\nA child aged 5 to 15 swims "
            "for £3.50.\n",
            "products/Carllm.md": "# Carllm\n\n- **Basic Tier:** $1,000/month\n- **Enterprise Tier:** $5,000/month\n",
            "products/Homellm.md": "# Homellm\n\n- **Basic Tier:** Starting at $5,000/month\n- **Standard Tier:** "
            "$9,000/month\n",
        },
    )
    closure = Closure(ctx)

    def unclaimed(attribute: str) -> str | None:
        fact = next(f for f in ctx.facts if f.attribute.startswith(attribute) and f.value_type == "money")
        return closure.unclaimed(fact, closure.of(fact))

    # the notice's "Concession £4.50" and the FAQ's child's £3.50 likely state the price list's rows in other words:
    # pages of the folder of their own (a notice, an FAQ), no rival things of the price list's kind
    assert unclaimed("Concession single") == "lido/NOTICE new hours.txt"
    assert unclaimed("Junior single") == "lido/FAQ.md"
    # another product's "Basic Tier" at the same figure is that tier's, not Carllm's "Enterprise Tier"
    assert unclaimed("Enterprise Tier") is None


def test_a_place_in_brackets_after_the_name_states_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "hospital/guide.md": "# 가온누리병원 진료 안내\n\n| 부서 | 위치 | 내선 |\n|---|---|---|\n"
            "| 건강검진센터 | 별관 3층 | 7360 |\n| 내과 | 본관 2층 | 7210 |\n",
            "city/faq.md": "# 검진 FAQ\n\n가온누리병원 건강검진센터(별관 3층, 내선 7360)에서 받으시면 됩니다.\n",
            "city/map.md": "# 주차 안내\n\n별관 3층은 공사 중입니다.\n",
        },
    )
    centre = next(f for f in ctx.facts if f.subject == "건강검진센터" and f.attribute == "위치")
    docs = fact_closure(ctx, centre)
    assert "city/faq.md" in docs and "city/map.md" not in docs


def test_an_organisation_is_named_without_its_legal_form(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "org/about.md": "# 재단 소개\n\n| 항목 | 내용 |\n|---|---|\n| 법인명 | 재단법인 늘품재단 |\n"
            "| 사무국장 | 오세림 |\n",
            "news/award.txt": "[온빛일보] 2025.11.08 지역사회\n\n\n늘품재단, 학생 120명에게 장학금 전달\n\n"
            + "수여식 이야기를 길게 적는다. " * 40
            + "\n\n오세림 사무국장은 내년 계획을 밝혔다.\n",
        },
    )
    head = next(f for f in ctx.facts if f.value == "오세림")
    # the paper writes "늘품재단", its headline names the foundation, and the line gives the role beside the name
    assert fact_closure(ctx, head) == {"org/about.md", "news/award.txt"}


def test_a_name_asked_by_that_name_leaks(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "company/about.md": "# 회사 소개\n\n- 회사명: 주식회사 모래시계랩\n- 대표이사: 한지우\n"
            "- 설립일: 2021년 6월 14일\n"
        },
    )
    validator = Validator(ctx)
    for label, ok in (("회사명", False), ("대표이사", True)):
        fact = next(f for f in ctx.facts if f.attribute == label)
        draft = single_fact_draft(ctx, fact, "direct_fact")
        assert draft is not None
        verdict = validator.validate(draft, get_category("direct_fact"))
        # "모래시계랩의 회사명은 무엇인가요?" → "주식회사 모래시계랩": the question says the answer
        assert verdict.ok is ok and (ok or verdict.reason == "answer leaked in question"), (label, verdict)


def test_a_name_whose_words_but_the_last_the_question_holds_leaks() -> None:
    from testgen.validate import _names_itself

    hall = FactNode(
        fact_id="fact:n", subject="자치회관 안내", attribute="명칭",
        value="서하동 주민센터 자치회관 (운영: 주민자치위원회)", value_type="text", source="key_value",
        doc_id="center/about.md", chunk_id="c0", evidence="- 명칭: …", start=0, end=1,
    )  # fmt: skip
    # the question's subject is the organisation the page belongs to: the name it asks for only adds "자치회관"
    assert _names_itself(hall, normalize("서하동 주민센터의 명칭은 무엇인가요?"))
    assert not _names_itself(hall, normalize("자치회관의 명칭은 무엇인가요?"))


def test_a_post_written_beside_the_name_with_its_body_states_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "district/overview.md": "# District Overview\n\n| Member | Office | Term Ends |\n|---|---|---|\n"
            "| Desmond Okereke | Clerk | December 2025 |\n| Rosa Quintanilla | President | December 2026 |\n",
            "district/minutes.txt": "BOARD MINUTES\n\nPresent: Rosa Quintanilla, President; "
            "Desmond Okereke, Board Clerk.\n",
            "district/history.txt": "HISTORY\n\nIn 2019 the board met at the library; Desmond Okereke, former "
            "Clerk, kept the record.\n",
        },
    )
    clerk = next(f for f in ctx.facts if f.value == "Clerk")
    # "Board Clerk" beside his name states his post; "former Clerk" does not
    assert fact_closure(ctx, clerk) == {"district/overview.md", "district/minutes.txt"}


def test_a_role_without_its_note_beside_the_name_states_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "startup/directory.txt": "팀 디렉토리\n\n| 이름 | 부서 | 역할 |\n|---|---|---|\n"
            "| 한지우 | 경영 | 대표이사 (CEO) |\n| 오세진 | 개발 | CTO |\n",
            "startup/intro.md": "# 모래시계랩 소개\n\n| 항목 | 내용 |\n|---|---|\n| 대표이사 | 한지우 |\n"
            "| 공동창업자 | 오세진 (CTO) |\n",
            "startup/blog.md": "# 워크숍 후기\n\n한지우 님과 함께 가평에 다녀왔습니다. 대표이사 선거는 없었습니다.\n",
        },
    )
    ceo = next(f for f in ctx.facts if f.value == "대표이사 (CEO)")
    assert fact_closure(ctx, ceo) == {"startup/directory.txt", "startup/intro.md"}
    cto = next(f for f in ctx.facts if f.value == "CTO" and f.subject == "오세진")
    assert fact_closure(ctx, cto) == {"startup/directory.txt", "startup/intro.md"}


def test_a_list_retold_in_other_words_a_short_street_and_a_price_under_a_shorter_label(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "office/about.md": "# 문경호 세무회계사무소\n\n| 이름 | 직위 | 주요 업무 |\n|---|---|---|\n"
            "| 김다은 | 총무 | 상담 예약, 수수료 청구·수납, 서류 접수 |\n"
            "| 조현우 | 기장 담당 | 개인사업자 기장, 원천세 |\n",
            "office/contacts.txt": "직원 연락처\n\n김다은   총무   130   예약, 수수료 청구·CMS, 서류 접수\n"
            "조현우   기장 담당   120   기장\n",
            "office/holidays.txt": "여름 휴가\n\n- 김다은 8/4 ~ 8/6, 서류 접수는 조현우가 대신합니다.\n",
            "parks/facilities.md": "# Parks\n\n| Park | Address |\n|---|---|\n| Riverside Park | 45 Canal Road |\n",
            "parks/shelters.txt": "SHELTERS\n\nA - Riverside Park, 45 Canal Rd. Capacity 80.\n"
            "B - Hollis Park, 145 Canal Rd.\n",
            "parks/faq.md": "# FAQ\n\nPermits are sold at the boathouse, 45 Canal Road, on weekdays.\n",
            "studio/games.md": "# 노을픽셀\n\n- 지원 언어: 한국어, 영어, 일본어, 중국어(간체)\n",
            "studio/faq.txt": "자주 묻는 질문\n\nQ. 어떤 언어를 지원하나요?\n"
            "A. 한국어, 영어, 일본어, 중국어(간체)입니다.\n",
            "office/languages.md": "# 사무실\n\n- 회의 언어: 한국어, 영어, 일본어, 중국어(간체)\n",
            "hotel/about.md": "# About the Gull\n\n**Address:** The Gull, 14 Quayside Terrace, Merrowby MR7 2QT\n",
            "hotel/notice.txt": "NOTICE\n\nBreakfast from 7.30.\n\n"
            "The Gull, 14 Quayside Terrace, Merrowby - 01632 961205\n",
            "clinic/prices.md": "# Tallow Creek Clinic: price list\n\n| Service | Price |\n|---|---|\n"
            "| Wellness or sick-pet exam | $68 |\n| Nail trim | $18 |\n",
            "clinic/faq.md": "# New clients\n\nThe new-client exam costs the same as a regular exam: $68.\n",
            "clinic/notice.txt": "NOTICE\n\nOur nail trim is $68 cheaper than a groomer's package.\n",
        },
    )
    duties = next(f for f in ctx.facts if f.subject == "김다은" and "서류 접수" in f.value)
    # most of its words in a line naming her: the same duties; a line naming her with one of them is not
    assert fact_closure(ctx, duties) == {"office/about.md", "office/contacts.txt"}
    address = next(f for f in ctx.facts if f.value == "45 Canal Road")
    # the street written whole on a page of the same folder, even one that names no park
    assert fact_closure(ctx, address) == {"parks/facilities.md", "parks/shelters.txt", "parks/faq.md"}
    # a list of three items or more told again whole in a page beside it; a page in another folder is another list
    languages = next(f for f in ctx.facts if f.attribute == "지원 언어")
    assert fact_closure(ctx, languages) == {"studio/games.md", "studio/faq.txt"}
    # the street part of a longer address, written in a line naming the subject
    hotel = next(f for f in ctx.facts if f.value.startswith("The Gull, 14"))
    assert fact_closure(ctx, hotel) == {"hotel/about.md", "hotel/notice.txt"}
    exam = next(f for f in ctx.facts if f.value == "$68")
    # "exam" and a word for a price with the figure; the notice's $68 is no exam's
    assert fact_closure(ctx, exam) == {"clinic/prices.md", "clinic/faq.md"}


def test_a_manual_titled_with_its_product_and_code_is_the_products(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "product/manual.md": "# 온새미 클린보 R7 (ORV-R7) 사용 설명서\n\n| 항목 | 내용 |\n|---|---|\n"
            "| 흡입력 | 최대 5,000Pa |\n",
            "product/notice.md": "# 서비스 공지\n\nORV-R7의 흡입력은 최대 5,000Pa입니다.\n",
        },
    )
    suction = next(f for f in ctx.facts if f.value.startswith("최대 5,000Pa") and f.doc_id == "product/manual.md")
    assert fact_closure(ctx, suction) == {"product/manual.md", "product/notice.md"}


def test_a_byline_address_and_one_post_of_a_list_beside_the_name_state_the_fact(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "news/staff.md": "# 기자 연락처\n\n| 이름 | 이메일 |\n|---|---|\n| 송재원 | jwsong@today.example |\n"
            "| 임태오 | teo@today.example |\n",
            "news/interview.md": "# 인터뷰\n\n_송재원 기자_\n\n"
            + "본문 문장입니다. " * 300
            + "\n\njwsong@today.example\n",
            "news/other.md": "# 공지\n\n문의는 teo@today.example 로 보내 주세요.\n",
            # names him and writes the address's words, but not the address
            "news/letter.md": "# 송재원 기자에게\n\n오늘(today) 기사 잘 읽었습니다. jwsong 님 example 감사합니다.\n",
            "studio/about.md": "# 노을픽셀\n\n| 이름 | 역할 |\n|---|---|\n| 서지호 | 대표 / 게임 디렉터 |\n",
            "studio/press.md": "# 보도\n\n노을픽셀 서지호 대표는 은포로 본사를 옮겼다고 말했다.\n",
        },
    )
    email = next(f for f in ctx.facts if f.value == "jwsong@today.example")
    assert fact_closure(ctx, email) == {"news/staff.md", "news/interview.md"}
    teo = next(f for f in ctx.facts if f.value == "teo@today.example")
    assert fact_closure(ctx, teo) == {"news/staff.md"}  # the notice never names him
    role = next(f for f in ctx.facts if f.value == "대표 / 게임 디렉터")
    assert fact_closure(ctx, role) == {"studio/about.md", "studio/press.md"}


def test_a_legal_name_written_beside_the_brand_states_it_and_a_letterhead_does_not(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "hq/brand.md": "# 하루결커피\n\n| 항목 | 내용 |\n|---|---|\n| 법인명 | (주)하루결에프앤비 |\n"
            "| 대표이사 | 윤채아 |\n",
            "hq/press.txt": "[보도자료]\n\n하루결커피를 운영하는 (주)하루결에프앤비는 신메뉴를 출시했다고 밝혔다.\n",
            "hq/chart.txt": "(주)하루결에프앤비 조직도\n\n대표이사 윤채아\n\n하루결커피 매장 운영팀은 2층에 있다.\n",
        },
    )
    legal = next(f for f in ctx.facts if f.value == "(주)하루결에프앤비")
    # the organisation chart names both, but never one beside the other
    assert fact_closure(ctx, legal) == {"hq/brand.md", "hq/press.txt"}
    # the chart is titled with the brand's legal name: its "대표이사 윤채아" is the brand's
    ceo = next(f for f in ctx.facts if f.value == "윤채아" and f.doc_id == "hq/brand.md")
    assert fact_closure(ctx, ceo) == {"hq/brand.md", "hq/chart.txt"}


def test_spacing_around_dots_and_tildes_a_note_and_quotation_brackets_do_not_hide_a_restatement(
    tmp_path: Path,
) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "theatre/about.md": "# 극단 돌꽃\n\n| 이름 | 역할 |\n|---|---|\n| 문가람 | 기획 · 제작 PD |\n",
            "theatre/members.md": "# 단원 명단\n\n| 이름 | 직책 |\n|---|---|\n| 문가람 | 기획·제작 PD |\n",
            "theatre/schedule.txt": "《물 위의 이름들》 연습 일정표\n\n- 연습 시간: 14:00 ~ 20:00 (저녁 17:30~18:30)\n",
            "theatre/audition.txt": "물 위의 이름들 오디션\n\n  - 연습: 2025. 2. 17. ~ 5. 8. / 화~토 14:00~20:00\n",
            "theatre/policy.md": "# 티켓 예매 규정\n\n- 전화 예매: 02-765-4821 (평일 11:00~18:00)\n",
            "theatre/contact.md": "# 극단 돌꽃 연락처\n\n- 전화: 02-765-4821\n",
            "bank/branches.md": "# 영업점\n\n문의: 02-765-4821\n",
        },
    )
    role = next(f for f in ctx.facts if f.value == "기획 · 제작 PD")
    assert fact_closure(ctx, role) == {"theatre/about.md", "theatre/members.md"}
    hours = next(f for f in ctx.facts if f.value.startswith("14:00 ~ 20:00"))
    assert fact_closure(ctx, hours) == {"theatre/schedule.txt", "theatre/audition.txt"}
    # a telephone number printed on pages of the same kind is the same number; another folder's page is not
    phone = next(f for f in ctx.facts if f.value == "02-765-4821" and f.doc_id == "theatre/contact.md")
    assert fact_closure(ctx, phone) == {"theatre/contact.md", "theatre/policy.md"}


def test_a_fee_written_in_man_won_beside_the_course_name_states_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "admissions/guide.md": "# 모집요강\n\n| 과정 | 전형료 |\n|---|---|\n| 석사 과정 | 60,000원 |\n"
            "| 박사 과정 | 70,000원 |\n",
            "admissions/faq.md": "# 자주 묻는 질문\n\nQ. 전형료가 올랐나요?\n\n네, 석사 6만 원, 박사 7만 원입니다.\n",
            "admissions/news.md": "# 소식\n\n전형료와 별도로 기념품은 7만 원어치 준비했습니다.\n",
        },
    )
    fee = next(f for f in ctx.facts if f.value == "70,000원")
    assert fact_closure(ctx, fee) == {"admissions/guide.md", "admissions/faq.md"}


def test_a_value_every_plan_shares_is_told_by_a_line_about_the_plan_kind(tmp_path: Path) -> None:
    table = (
        "| | **Essentials** | **Plus** |\n|---|---|---|\n| Hygiene visits | 2 visits | 4 visits |\n"
        "| Discount on treatment | 10% | 10% |\n"
    )
    ctx = kb_context(
        tmp_path,
        {
            "dental/paying.md": "# Paying\n\n## 2. Tanners Row Care Plan\n\n" + table,
            "dental/faq.txt": "New patient FAQ\n\nOur Care Plan gives you 10% off treatment.\n\n"
            "Care Plan members can book 4 visits of hygiene.\n",
        },
    )
    discount = next(f for f in ctx.facts if f.attribute == "Discount on treatment")
    assert fact_closure(ctx, discount) == {"dental/paying.md", "dental/faq.txt"}
    # the plans' visits differ: a line about the Care Plan says nothing of one plan's
    visits = next(f for f in ctx.facts if f.value == "4 visits")
    assert fact_closure(ctx, visits) == {"dental/paying.md"}


def test_a_founding_told_again_in_other_words_on_a_page_beside_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "agency/about.md": "# About us\n\nMillrace Lettings is a letting agency. Helen Ashdown set the business up "
            "in 2011 after twelve years in property.\n",
            "agency/press.txt": "PRESS RELEASE\n\nNew branch\n\nNotes: Millrace Lettings Ltd was founded in 2011 by "
            "Helen Ashdown.\n",
            "agency/history.md": "# History\n\nIn 2011 Helen Ashdown moved to Kelsford.\n",
        },
    )
    told = next(f for f in ctx.facts if f.value == "2011" and f.doc_id == "agency/about.md")
    # a founding verb, the date and her name: the same event; a line without the verb is another one
    assert fact_closure(ctx, told) == {"agency/about.md", "agency/press.txt"}


def test_an_association_told_in_prose_is_told_by_every_page_linking_the_two(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "agency/about.md": "# Millrace Lettings\n\nMillrace Lettings lets homes in Kelsford.\n\n"
            "Each year we support a local cause, at the moment that's Hartle Lane Animal Rescue.\n",
            "agency/press.txt": "PRESS RELEASE\n\nMillrace Lettings will collect for Hartle Lane Animal Rescue.\n",
            "agency/fees.md": "# Fees\n\nMillrace Lettings charges 12% for full management.\n",
            "charity/about.md": "# Hartle Lane Animal Rescue\n\nWe rehome dogs and cats in Kelsford.\n",
            "charity/fun-run.md": "# Muddy Paws Fun Run\n\n**Headline sponsor:** Millrace Lettings, thank you!\n",
        },
    )
    told = next(f for f in mention_relations(ctx) if f.value == "Hartle Lane Animal Rescue")
    # the agency's press release names both; the charity's own fun-run page names the agency; the fee page neither
    assert fact_closure(ctx, told) == {"agency/about.md", "agency/press.txt", "charity/fun-run.md"}


def test_a_role_by_its_initials_in_a_signature_or_beside_bold_or_slashed_names_states_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "team/page.md": "# Core Platform\n\n| Name | Role |\n|---|---|\n| Rachel Nguyen | Engineering Manager |\n"
            "| Dana Whitcomb | Owner |\n| Omar Haddad | Staff Engineer |\n",
            "team/runbook.txt": "RUNBOOK\n\nCustomer comms: Rachel Nguyen (EM). Escalate to Omar Haddad (SE).\n",
            "team/notice.txt": "NOTICE\n\nThe showers reopen on Monday.\n\nDana Whitcomb\nOwner, Northside Gym\n",
            "team/news.md": "# News\n\nThanks for a great year.\n\n**Dana Whitcomb**, Owner\n",
            "team/memo.txt": "MEMO\n\nSigned off: Dana Whitcomb / Owner\n",
            "team/rota.txt": "ROTA\n\nRachel Nguyen (EU) covers Monday.\n\nDana Whitcomb\nOwners meeting at 5pm.\n",
            "team/press.txt": "PRESS\n\nSaid Engineering Manager Dr. Rachel Nguyen: we are hiring.\n",
            "team/adr.md": "# ADR-7\n\n* Consulted: Ayesha Siddiqui (release impact)\n",
            "team/roster.md": "# Roster\n\n| Name | Role |\n|---|---|\n| Ayesha Siddiqui | Release & QA Engineer |\n",
        },
    )
    manager = next(f for f in ctx.facts if f.value == "Engineering Manager")
    # "(EM)" is her role's initials, "Engineering Manager Dr. Rachel Nguyen" her role with her title; "(EU)" is not
    assert fact_closure(ctx, manager) == {"team/page.md", "team/runbook.txt", "team/press.txt"}
    release = next(f for f in ctx.facts if f.value == "Release & QA Engineer")
    assert fact_closure(ctx, release) == {"team/roster.md"}  # "(release impact)" is no post: "&" joins one post's work
    owner = next(f for f in ctx.facts if f.value == "Owner")
    # a signature, a bold name and a slash state it; a line opening with "Owners meeting" does not
    assert fact_closure(ctx, owner) == {"team/page.md", "team/notice.txt", "team/news.md", "team/memo.txt"}


def test_a_role_written_by_the_initials_it_gives_itself_before_the_name_states_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "pharmacy/staff.md": "# Staff list\n\n| Name | Role |\n|---|---|\n"
            "| Kieran Moss | Accuracy Checking Pharmacy Technician (ACPT) |\n| Gary Pugh | Delivery driver |\n",
            "pharmacy/sop.txt": "SOP 4.2 CONTROLLED DRUGS\n\nThe balance check is done by the ACPT (K. Moss) weekly.\n",
            "pharmacy/rota.txt": "ROTA\n\nACPT cover on Monday; Kieran Moss is on leave.\n",
        },
    )
    role = next(f for f in ctx.facts if f.value.startswith("Accuracy Checking"))
    # "ACPT (K. Moss)" names him by his post's own initials; the rota's "ACPT cover … Kieran Moss" puts no post
    # beside his name
    assert fact_closure(ctx, role) == {"pharmacy/staff.md", "pharmacy/sop.txt"}


def test_a_figure_under_a_numbered_item_of_minutes_naming_the_subject_states_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "publisher/catalogue.md": "# 소금빛 도서목록\n\n| 도서명 | 저자 | 정가 |\n|---|---|---|\n"
            "| 숫자로 읽는 동네 | 배진우 | 19,800원 |\n| 할머니의 부엌 지도 | 서하린 | 16,500원 |\n",
            "publisher/minutes.txt": "■ 편집회의록\n\n1. 『할머니의 부엌 지도』 2쇄\n\n  - 재고 약 310부.\n\n"
            "2. 『숫자로 읽는 동네』(배진우) 진행 상황\n\n  - 현재 2교 진행 중. 도판 38점.\n"
            "    도판 늘면 쪽수 넘어갈 수 있음. 정가 19,800원은 일단 유지.\n",
            "publisher/other.txt": "■ 영업회의록\n\n1. 『할머니의 부엌 지도』와 『숫자로 읽는 동네』 판매\n\n"
            "  - 정가 19,800원 도서 할인 행사 검토.\n",
        },
    )
    price = next(f for f in ctx.facts if f.value == "19,800원" and f.doc_id == "publisher/catalogue.md")
    # the second item of the minutes is about the book alone; the sales minutes' item names two books
    assert fact_closure(ctx, price) == {"publisher/catalogue.md", "publisher/minutes.txt"}


def test_a_row_of_another_pages_table_opening_with_the_same_label_restates_its_figure(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "solar/prices.md": "# Price Sheet\n\n| Package | System size | Price |\n|---|---|---|\n"
            "| **Essential** | 6.15 kW | $17,900 |\n| **Standard** | 8.20 kW | $22,960 |\n",
            "solar/notice.txt": "NOTICE OF PRICE CHANGE\n\n  PACKAGE      SIZE       PRICE\n"
            "  Essential    6.15 kW    $18,650\n  Standard     8.20 kW    $23,780\n",
            "solar/blog.txt": "OUR BLOG\n\nThe essential size for a small roof is 6.15 kW, we think.\n",
            "solar/faq.md": "# FAQ\n\nOur packages start at $17,900 for the 6.15 kW Essential system.\n",
        },
    )
    size = next(f for f in ctx.facts if f.value == "6.15 kW" and f.source == "table")
    # the FAQ writes the figure beside the row's label; the blog's line names no row: its "essential" is a word
    # of the sentence
    assert fact_closure(ctx, size) == {"solar/prices.md", "solar/notice.txt", "solar/faq.md"}


def test_a_numbered_credential_beside_the_name_states_it_without_its_label(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "law/staff.md": "# 구성원 현황\n\n| 이름 | 직위 | 자격 |\n|---|---|---|\n"
            "| 박태민 | 파트너 변호사 | 사법연수원 39기 |\n| 김하은 | 변호사 | 변호사시험 5회 |\n",
            "law/brochure.md": "# 법무법인 소개\n\n- **박태민** 변호사(파트너) — 사법연수원 제39기 / 형사\n",
            "law/alumni.md": "# 동기 모임\n\n사법연수원 39기 동기 모임이 12월에 열립니다.\n",
        },
    )
    term = next(f for f in ctx.facts if f.value == "사법연수원 39기")
    # the alumni notice writes the term but not his name
    assert fact_closure(ctx, term) == {"law/staff.md", "law/brochure.md"}


def test_a_short_place_beside_the_subjects_name_states_it_only_with_the_whole_label(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "wiki/city.md": "# 서령시\n\n| 항목 | 내용 |\n|---|---|\n| 시청 소재지 | 중앙동 |\n| 인구 | 84,317명 |\n",
            "wiki/paper.md": "# 서령일보\n\n| 본사 | 서령시 중앙동 시장로 17 |\n|---|---|\n",
            "wiki/market.md": "# 서령중앙시장\n\n- 소재지: 서령시 중앙동 시장로 일원\n",
            "wiki/guide.md": "# 서령 안내\n\n서령시 시청 소재지는 중앙동이다.\n",
            "pool/classes.md": "# 수영 강좌\n\n| 강좌 | 요일 | 시간 |\n|---|---|---|\n| 아쿠아로빅 | 화·목 | 11:00 |\n"
            "| 자유수영 | 월~금 | 06:00 |\n",
            "pool/notice.txt": "수영장 휴관 안내\n\n환불 대상 (강좌 요일 / 횟수)\n아쿠아로빅 (화·목)   3회\n",
        },
    )
    hall = next(f for f in ctx.facts if f.value == "중앙동")
    # the paper's head office and the market are in 중앙동; only the guide says the city hall is
    assert fact_closure(ctx, hall) == {"wiki/city.md", "wiki/guide.md"}
    days = next(f for f in ctx.facts if f.value == "화·목")
    assert fact_closure(ctx, days) == {"pool/classes.md", "pool/notice.txt"}  # a class's days beside its name


def test_a_range_of_won_and_an_ordinal_are_the_same_value_written_otherwise() -> None:
    cost = kv_fact("부분 뼈이식 비용", "300,000~500,000원")
    assert states_value(cost, "뼈이식은 30~50만원이 추가될 수 있습니다")
    assert not states_value(cost, "뼈이식은 30~40만원이 추가될 수 있습니다")
    hours = kv_fact("휴진", "2~3")
    assert not states_value(hours, "20~30분 걸립니다")
    term = kv_fact("자격", "사법연수원 39기")
    assert states_value(term, "박태민 변호사 (사법연수원 제39기)")
    assert not states_value(term, "사법연수원 제139기")


def test_a_post_holder_in_brackets_on_a_page_naming_the_organisation_states_the_post(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "publisher/about.md": "# 도서출판 소금빛\n\n| 항목 | 내용 |\n|---|---|\n| 대표 | 윤정애 |\n"
            "| 설립 | 2011년 |\n",
            "publisher/minutes.txt": "소금빛 주간 편집회의록\n\n참석 : 윤정애(대표), 오태석(편집장)\n",
            "publisher/letter.txt": "독자 편지\n\n윤정애(대표) 님께 감사드립니다.\n",
            "publisher/talk.txt": "소금빛 북토크\n\n사회: 윤정애. 대표 도서는 세 권입니다.\n",
            "bookshop/letter.txt": "독자 편지\n\n윤정애(대표) 님께 감사드립니다.\n",
        },
    )
    head = next(f for f in ctx.facts if f.value == "윤정애")
    # the minutes name the publisher by its name without 도서출판; the letter in the publisher's own folder writes
    # the post right beside her name, the one in another folder names no publisher; the talk's "윤정애. 대표" is no
    # post beside her name
    assert fact_closure(ctx, head) == {"publisher/about.md", "publisher/minutes.txt", "publisher/letter.txt"}


def test_a_catalogue_row_under_a_number_column_records_the_works_page_figure(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "books/release.md": "# 신간 보도자료\n\n## 첫 산문집 『소리를 모으는 사람』 출간\n\n"
            "- 쪽수: 296쪽\n- 정가: 17,000원\n- 분야: 산문\n",
            "books/catalogue.md": "# 도서목록\n\n| No | 도서명 | 저자 | 쪽수 | 분야 |\n|---|---|---|---|---|\n"
            "| 1 | 바다의 문법 | 김하람 | 240 | 시 |\n| 2 | 소리를 모으는 사람 | 신아람 | 296 | 에세이 |\n",
        },
    )
    rows = [f for f in ctx.facts if f.doc_id == "books/catalogue.md"]
    # the row's number names nothing: the book does, and it is the book the heading quotes
    assert {f.subject for f in rows} == {"바다의 문법", "소리를 모으는 사람"}
    pages = next(f for f in ctx.facts if f.value == "296쪽")
    row = next(f for f in rows if f.value == "296")
    assert pages.subject_entity == row.subject_entity
    assert fact_closure(ctx, pages) == {"books/release.md", "books/catalogue.md"}
    validator = Validator(ctx)
    # "296쪽" and "296" are one page count; "산문" and "에세이" are two answers to one question
    assert not validator.gate.keys.ambiguous(pages, "『소리를 모으는 사람』의 쪽수는 어떻게 되나요?")
    field = next(f for f in ctx.facts if f.value == "산문")
    assert validator.gate.keys.ambiguous(field, "『소리를 모으는 사람』의 분야는 무엇인가요?")


def test_a_row_label_opening_a_line_on_another_page_of_the_folder_restates_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "clinic/about.md": "# 숲치과의원 소개\n\n## 진료 안내\n\n| 구분 | 진료시간 |\n|---|---|\n"
            "| 평일 | 09:30 ~ 18:30 |\n| 점심시간 | 13:00 ~ 14:00 |\n",
            "clinic/holiday.md": "# 설 연휴 휴진 안내\n\n연휴 뒤에는 평소와 같이 진료합니다.\n\n"
            "평일       09:30 ~ 18:30\n점심시간   13:00 ~ 14:00\n",
            "clinic/staff.md": "# 직원 교육 일정\n\n교육 13:00 ~ 14:00, 3층 회의실\n",
            "gym/hours.md": "# 체육관 안내\n\n점심시간   13:00 ~ 14:00\n",
        },
    )
    lunch = next(f for f in ctx.facts if f.value == "13:00 ~ 14:00" and f.doc_id == "clinic/about.md")
    # the holiday notice opens a line with 점심시간; the staff page's training and the gym's page (another folder)
    # do not restate the clinic's lunch break
    assert fact_closure(ctx, lunch) == {"clinic/about.md", "clinic/holiday.md"}


def test_a_label_on_another_things_page_of_the_folder_restates_nothing(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "catalog/cis-331.md": "# CIS 331 Distributed Systems\n\n## Grading\n\n| Component | Weight | Notes |\n"
            "|---|---|---|\n| Final exam | 30% | Finals week |\n| Labs | 40% | Four labs |\n",
            "catalog/cis-214.md": "# CIS 214 Database Systems\n\n## Grading\n\n| Component | Weight | Notes |\n"
            "|---|---|---|\n| Final exam | 30% | Closed book |\n| Project | 40% | Teams of three |\n",
        },
    )
    weight = next(f for f in ctx.facts if f.value == "30%" and f.doc_id == "catalog/cis-331.md")
    assert fact_closure(ctx, weight) == {"catalog/cis-331.md"}


def test_a_label_in_another_contracts_prose_restates_nothing(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "contracts/Contract with Atlantic Risk.md": "# Contract with Atlantic Risk\n\n## Terms\n\n"
            "- Maintenance windows: Sunday 1 AM - 5 AM EST\n- Term: 2 years\n- Annual fee: $12,000\n",
            "contracts/Contract with Heritage Life.md": "# Contract with Heritage Life\n\n## Terms\n\n"
            "- Term: 3 years\n- Annual fee: $9,000\n\n"
            "3. **Updates**: Monthly patches. Maintenance windows: Sunday 1 AM - 5 AM EST.\n",
        },
    )
    window = next(f for f in ctx.facts if f.value.startswith("Sunday 1 AM"))
    # the other contract's page describes a thing like the subject (its term, its fee): the line is that contract's
    assert fact_closure(ctx, window) == {"contracts/Contract with Atlantic Risk.md"}


def test_an_organisations_number_written_with_other_separators_is_the_same_number(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "daycare/guide.md": "# 솔빛마루어린이집 이용안내\n\n- 전화: 031-206-4417\n"
            "- 주소: 수원시 영통구 매영로 310번길 12\n",
            "daycare/news.md": "# 솔빛소식 봄호\n\n문의는 031)206-4417 로 해 주세요.\n",
            "daycare/menu.md": "# 4월 식단표\n\n영양사 상담 031-206-4418\n",
        },
    )
    phone = next(f for f in ctx.facts if f.value == "031-206-4417")
    assert fact_closure(ctx, phone) == {"daycare/guide.md", "daycare/news.md"}


def test_times_of_day_in_another_notation_state_the_same_hours(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "firm/intro.md": "# 법무법인 다온길\n\n- 상담 가능 시간: 평일 오전 10시 ~ 오후 5시\n"
            "- 주소: 서초중앙로 118\n",
            "firm/intake.md": "# 신규사건 접수 절차\n\n다온길의 상담 가능 시간은 평일 10:00 ~ 17:00 입니다.\n",
            "firm/weekend.md": "# 주말 안내\n\n다온길의 상담 가능 시간은 토요일 10:00 ~ 17:00 입니다.\n",
            "firm/staff.md": "# 근무 안내\n\n다온길 직원 근무시간은 평일 10:00 ~ 18:00 입니다.\n",
        },
    )
    hours = next(f for f in ctx.facts if f.value.startswith("평일 오전"))
    # the weekend page writes the same times for another day; the staff page other times
    assert fact_closure(ctx, hours) == {"firm/intro.md", "firm/intake.md"}


def test_clock_times_read_korean_english_and_24_hour_notation() -> None:
    from testgen.kg.values import clock_times

    assert clock_times("평일 오전 10시 ~ 오후 5시") == clock_times("평일 10:00 ~ 17:00") == ["10:00", "17:00"]
    assert clock_times("10:30 a.m. to 4.30pm") == ["10:30", "16:30"]
    assert clock_times("9시 반") == ["09:30"]
    assert clock_times("3시간 20분") == []  # a span of time, not a time of day
    # a range leaves "am"/"pm" to its end: the start shares it when earlier, takes the other half when later
    assert clock_times("autumn course 10–11.30 am") == clock_times("10:00-11:30") == ["10:00", "11:30"]
    assert clock_times("Sat 1.00–3.30pm, then 10 to 2 pm") == ["13:00", "15:30", "10:00", "14:00"]
    assert clock_times("Saturdays, 12–6pm") == ["12:00", "18:00"]
    assert clock_times("£10.00–12.50 pm rates") == ["12:50"]  # a price is no time of day


def test_a_shortened_label_or_a_label_inside_a_line_restates_the_hours(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "clinic/about.md": "# 숲치과의원 소개\n\n## 진료 안내\n\n| 구분 | 진료시간 |\n|---|---|\n"
            "| 토요일 | 09:30 ~ 15:00 (점심시간 없음) |\n| 점심시간 | 13:00 ~ 14:00 |\n",
            "clinic/notice.md": "# 진료시간 변경 안내\n\n* 변경 전: 토요일 09:30 ~ 14:00\n"
            "* 변경 후: 토요일 09:30 ~ 15:00 (점심시간 없음)\n",
            "clinic/care.txt": "발치 후 주의사항\n\n진료시간  평일 09:30~18:30 / 토 09:30~15:00\n"
            "          점심 13:00~14:00\n",
            "clinic/staff.md": "# 직원 교육\n\n교육 13:00 ~ 14:00, 토론 09:30 ~ 15:00\n",
        },
    )
    saturday = next(f for f in ctx.facts if f.value.startswith("09:30 ~ 15:00"))
    lunch = next(f for f in ctx.facts if f.value == "13:00 ~ 14:00")
    assert fact_closure(ctx, saturday) == {"clinic/about.md", "clinic/notice.md", "clinic/care.txt"}
    assert fact_closure(ctx, lunch) == {"clinic/about.md", "clinic/care.txt"}


def test_a_fee_beside_its_label_in_a_news_item_may_be_another_courses(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "centre/programs.md": "# 2분기 프로그램\n\n| 강좌명 | 요일 | 분기 수강료 |\n|---|---|---|\n"
            "| 새벽 마스터즈 | 화·목 | 126,000원 |\n| 주부 초급 | 화·목 | 126,000원 |\n"
            "| 아쿠아로빅 | 월·수 | 120,000원 |\n",
            "centre/news.md": "# 센터 소식\n\n새벽 마스터즈반이 대회에서 2위를 했습니다.\n\n"
            "- 정원: 15명 / 분기 수강료 126,000원\n",
        },
    )
    fee = next(f for f in ctx.facts if f.value == "126,000원" and "주부" in f.subject)
    # one course among courses: the news item's fee is the masters class's
    assert fact_closure(ctx, fee) == {"centre/programs.md"}


def test_a_person_by_initial_and_a_company_page_with_a_note_in_its_title(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "pharmacy/staff.md": "# Staff list\n\n| Name | Role |\n|---|---|\n"
            "| Daniel Reyes-Hart | Pharmacist Manager |\n",
            "pharmacy/sop.txt": "SOP 4.2\n\nAuthor: D. Reyes-Hart (Pharmacist Manager)\n",
            "bus/intro.md": "# 청람고속 회사소개 (내부 위키용)\n\n| 항목 | 내용 |\n|---|---|\n| 대표이사 | 한정우 |\n",
            "bus/notice.txt": "운임 조정 안내\n\n2024년 6월 14일\n청람고속 주식회사 대표이사 한정우\n",
        },
    )
    role = next(f for f in ctx.facts if f.value == "Pharmacist Manager")
    assert fact_closure(ctx, role) == {"pharmacy/staff.md", "pharmacy/sop.txt"}
    head = next(f for f in ctx.facts if f.value == "한정우")
    assert fact_closure(ctx, head) == {"bus/intro.md", "bus/notice.txt"}


def test_a_korean_address_under_a_directions_heading_or_squeezed_in_a_signature_is_the_same(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "firm/members.md": "# 법무법인 다온길 구성원 현황\n\n"
            "- 주소: 서울특별시 서초구 서초중앙로 118, 정현빌딩 7층 (우 06595)\n",
            "firm/intro.md": "# 법무법인 다온길 | DAONGIL LAW\n\n## 오시는 길\n\n"
            "- 서울특별시 서초구 서초중앙로 118, 정현빌딩 7층\n",
            "firm/notice.txt": "경비 규정 변경 안내\n\n총무팀 드림\n서울 서초구 서초중앙로118 정현빌딩 7F\n",
            "firm/other.txt": "협력사 안내\n\n서울 서초구 서초중앙로 1180 한빛빌딩\n",
        },
    )
    address = next(f for f in ctx.facts if f.value.startswith("서울특별시"))
    # the brochure's directions and the notice's signature write it; "서초중앙로 1180" is another building
    assert fact_closure(ctx, address) == {"firm/members.md", "firm/intro.md", "firm/notice.txt"}


def test_a_type_is_told_by_its_value_with_the_type_suffix(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "agency/compare.md": "# 상품 비교\n\n| 상품명 | 유형 | 월 보험료 |\n|---|---|---|\n"
            "| 든든 화재보험 | 순수보장 | 9,900원 |\n| 튼튼 암보험 | 비갱신 | 38,400원 |\n",
            "agency/든든 화재보험.md": "# 든든 화재보험\n\n만기에 돌려받는 환급금은 없는 순수보장형입니다.\n",
            "agency/튼튼 암보험.md": "# 튼튼 암보험\n\n튼튼 암보험은 순수보장 설계와 다른 비갱신형입니다.\n",
        },
    )
    kind = next(f for f in ctx.facts if f.attribute == "유형" and f.value == "순수보장")
    docs = fact_closure(ctx, kind)
    assert "agency/든든 화재보험.md" in docs  # its own page: "…순수보장형입니다"
    assert "agency/튼튼 암보험.md" not in docs  # another product's page


def test_a_code_in_brackets_after_the_name_states_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "air/routes.md": "# Routes\n\n| Destination | Airport code | First season |\n|---|---|---|\n"
            "| Halvergate | HVG | 2009 |\n| Drumlin | DRM | 2009 |\n",
            "air/team.md": "# Stations\n\n| Airport | Station manager |\n|---|---|\n"
            "| Halvergate (HVG) | Rhys Tambling |\n| Drumlin | Bartosz Kinnear |\n",
        },
    )
    code = next(f for f in ctx.facts if f.value == "HVG")
    assert "air/team.md" in fact_closure(ctx, code)
    other = next(f for f in ctx.facts if f.value == "DRM")
    assert "air/team.md" not in fact_closure(ctx, other)  # named there without its code


def test_a_unit_and_post_written_around_the_name_state_them(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "fest/about.md": "# 축제 개요\n\n| 이름 | 직책 |\n|---|---|\n| 문가영 | 홍보팀 주무관 |\n"
            "| 임현수 | 운영지원팀 주무관 |\n",
            "fest/press.txt": "보도자료\n\n담당: 조직위원회 홍보팀 문가영 주무관 (061-530-7724)\n",
        },
    )
    press = next(f for f in ctx.facts if f.value == "홍보팀 주무관")
    assert "fest/press.txt" in fact_closure(ctx, press)
    other = next(f for f in ctx.facts if f.value == "운영지원팀 주무관")
    assert "fest/press.txt" not in fact_closure(ctx, other)


def test_a_unit_then_its_heads_title_before_the_name_states_the_post(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "company/staff.md": "# 직원\n\n| 이름 | 직책 |\n|---|---|\n| 오승민 | 부산지점장 |\n"
            "| 최서연 | 제주지점장 |\n",
            "company/history.md": "# 연혁\n\n- 2012년 5월: 부산 지점 개설, 초대 지점장 오승민\n"
            "- 2015년 9월: 제주 지점 개설 준비 (지점장 미정), 오승민 자문\n",
        },
    )
    busan = next(f for f in ctx.facts if f.value == "부산지점장")
    assert "company/history.md" in fact_closure(ctx, busan)
    jeju = next(f for f in ctx.facts if f.value == "제주지점장")
    assert "company/history.md" not in fact_closure(ctx, jeju)  # "제주 지점 … 지점장 미정)" names no one


def test_a_products_name_beside_its_code_states_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "products/lineup.md": "# 라인업\n\n| 모델 | 제품명 | 무게 (kg) |\n|---|---|---|\n"
            "| AF-700 | 바삭 오븐 | 7.9 |\n| AF-450 | 바삭 프로 | 4.3 |\n",
            "minutes/0513.md": "# 주간 회의\n\n- 바삭 오븐 AF-700: 229,000원 → 199,000원\n"
            "- AF-450 물량 점검 (바삭 오븐 라인 공유)\n",
        },
    )
    oven = next(f for f in ctx.facts if f.value == "바삭 오븐")
    assert "minutes/0513.md" in fact_closure(ctx, oven)
    pro = next(f for f in ctx.facts if f.value == "바삭 프로")
    assert "minutes/0513.md" not in fact_closure(ctx, pro)  # AF-450 named, but not beside its name


def test_a_month_written_with_a_dot_is_found_where_it_is_written_in_words(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "products/cookers.md": "# 밥솥 라인업\n\n| 모델 | 출시 | 용량 |\n|---|---|---|\n"
            "| RC-06 | 2011.11 | 6인용 |\n| RC-10 | 2014.03 | 10인용 |\n",
            "company/history.md": "# 연혁\n\n- 2011년 11월 전기밥솥 시장 진출, 6인용 'RC-06' 출시\n"
            "- 2014년 RC-10 개발 착수\n",
        },
    )
    launch = next(f for f in ctx.facts if f.value == "2011.11")
    assert "company/history.md" in fact_closure(ctx, launch)
    other = next(f for f in ctx.facts if f.value == "2014.03")
    assert "company/history.md" not in fact_closure(ctx, other)  # the year alone, and no launch


def test_joining_told_in_other_words_is_tied(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "lab/members.md": "# 구성원\n\n| 이름 | 과정 | 입학년도 |\n|---|---|---|\n| 강태민 | 석사 | 2025년 3월 |\n"
            "| 오하늘 | 박사 | 2023년 3월 |\n",
            "lab/faq.md": "# 신입생 FAQ\n\nQ. 누구에게 물어보나요?\nA. 2025년 3월에 들어온 강태민에게 물어보세요.\n",
        },
    )
    joined = next(f for f in ctx.facts if f.subject == "강태민" and f.value == "2025년 3월")
    assert "lab/faq.md" in fact_closure(ctx, joined)


def test_a_rooms_code_told_with_the_rooms_name_states_its_place(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "lab/README.md": "# 신호처리연구실\n\n- 서버실 위치: 공학2호관 지하 B103호\n"
            "- 실험실 위치: 공학2호관 514호\n",
            "lab/faq.md": "# 신입생 FAQ\n\n서버는 isp-gpu1(서버실 B103)에 있습니다. "
            "안전교육을 안 들으면 실험실(514호) 출입이 안 됩니다.\n",
            "lab/booking.md": "# 장비 예약\n\n| 장비 | 위치 |\n|---|---|\n| 오실로스코프 | 514호 실험대 A |\n",
        },
    )
    server = next(f for f in ctx.facts if f.attribute == "서버실 위치")
    lab = next(f for f in ctx.facts if f.attribute == "실험실 위치")
    assert "lab/faq.md" in fact_closure(ctx, server)
    assert "lab/faq.md" in fact_closure(ctx, lab)
    assert "lab/booking.md" not in fact_closure(ctx, lab)  # the same room's number, for an instrument's place


def test_an_infobox_date_told_by_its_year_in_another_articles_prose_is_tied(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "wiki/oller_railway.md": "# Oller Railway\n\n| Key | Value |\n|---|---|\n| Opened | 1871 |\n"
            "| Passenger closure | 2 March 1964 |\n",
            "wiki/lindholt.md": "# Lindholt\n\nThe Oller Railway opened through Lindholt in 1871. After the passenger "
            "service was withdrawn in 1964 the station was used only by mineral trains.\n",
            "wiki/fc.md": "# Lindholt FC\n\nThe club played beside the Oller Railway yard. "
            "It won the league cup in 1964.\n",
        },
    )
    closure = next(f for f in ctx.facts if f.attribute == "Passenger closure")
    docs = fact_closure(ctx, closure)
    assert "wiki/lindholt.md" in docs  # the year and "passenger", in a paragraph naming the railway
    assert "wiki/fc.md" not in docs  # the same year, another event


def test_a_post_beside_its_holders_name_in_minutes_states_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "players/about.md": "# Wexcombe Players\n\n| Post | Name |\n|---|---|\n| Treasurer | Dev Malhotra |\n"
            "| Secretary | Fiona Calloway |\n",
            "players/minutes.txt": "Wexcombe Players committee minutes\n\nPresent: Fiona Calloway (Secretary), "
            "Dev Malhotra (Treasurer)\n",
        },
    )
    post = next(f for f in ctx.facts if f.value == "Treasurer")
    assert "players/minutes.txt" in fact_closure(ctx, post)


def test_a_cell_of_a_comparison_table_states_the_subjects_figure(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "support/plans.md": "# 요금제 안내\n\n| 구분 | 스타터 | 비즈니스 | 엔터프라이즈 |\n|---|---|---|---|\n"
            "| 월 가용성 목표 (%) | 보장 없음 | 99.5 | 99.9 |\n| 저장 공간 (GB) | 50 | 500 | 2,000 |\n",
            "support/sla.md": "# 서비스 수준\n\n| 요금제 | 월 가용성 목표 |\n|---|---|\n| 비즈니스 요금제 | 99.5% |\n"
            "| 엔터프라이즈 요금제 | 99.9% |\n",
        },
    )
    target = next(f for f in ctx.facts if f.doc_id == "support/sla.md" and f.value == "99.5%")
    assert "support/plans.md" in fact_closure(ctx, target)


def test_a_rare_measure_written_again_in_the_same_folder_is_in_its_closure(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "kettle/specs.md": "# Brisa K2 kettle\n\n| Spec | Value |\n|---|---|\n| Rated voltage | 220–240 V ~ |\n"
            "| Weight | 1.2 kg |\n| Packed weight | 1.2 kg |\n",
            "kettle/safety.txt": "SAFETY\n\nOnly connect the kettle to an earthed socket supplying 220-240 V AC.\n"
            "It weighs 1.2 kg when empty.\n",
            "kettle/quick-start.md": "# Quick start\n\n- Power: 2200 W, 110-120 V\n",
            "toaster/specs.md": "# Brisa T4 toaster\n\nThe T4 runs on 220–240 V as well.\n",
            "library/rooms.md": "# 소개\n\n| 항목 | 내용 |\n|---|---|\n| 면적 | 212㎡ |\n",
            "library/facility.md": "# 시설 안내\n\n도서관은 2층 전체(212㎡)를 쓰고 있습니다.\n",
        },
    )
    voltage = next(f for f in ctx.facts if f.attribute == "Rated voltage")
    assert "kettle/quick-start.md" not in fact_closure(ctx, voltage)  # another range
    # the toaster's folder writes it too: the figure is no one thing's
    assert "kettle/safety.txt" not in fact_closure(ctx, voltage)
    weight = next(f for f in ctx.facts if f.attribute == "Weight")
    assert "kettle/safety.txt" not in fact_closure(ctx, weight)  # the same figure under two labels
    area = next(f for f in ctx.facts if f.attribute == "면적")
    assert "library/facility.md" in fact_closure(ctx, area)  # "212㎡" in brackets, no "면적" in sight


def test_a_measure_only_its_own_folder_writes_is_in_its_closure(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "kettle/specs.md": "# Brisa K2 kettle\n\n| Spec | Value |\n|---|---|\n| Rated voltage | 220–240 V ~ |\n",
            "kettle/safety.txt": "SAFETY\n\nOnly connect the kettle to an earthed socket supplying 220-240 V AC.\n",
            "kettle/quick-start.md": "# Quick start\n\n- Power: 2200 W, 110-120 V\n",
        },
    )
    voltage = next(f for f in ctx.facts if f.attribute == "Rated voltage")
    docs = fact_closure(ctx, voltage)
    assert "kettle/safety.txt" in docs
    assert "kettle/quick-start.md" not in docs


def test_a_code_written_on_another_page_of_its_folder_is_in_its_closure(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "tours/plan.md": "# 홋카이도 겨울 4박5일\n\n- 상품코드: HJ-CTS-05\n- 가격: 1,890,000원\n",
            "tours/terms.md": "# 취소 규정\n\n## 특별약관 — 홋카이도 겨울 상품 (HJ-CTS-05)\n\n출발 30일 전까지 환불.\n",
            "tours/flights.md": "# 항공 블록\n\n| 항공사 | 구간 | 상품 |\n|---|---|---|\n"
            "| 대한항공 | 인천–신치토세 | HJ-CTS-05 |\n",
            "other/list.md": "# 다른 회사\n\n참고 코드 HJ-CTS-05 는 예시입니다.\n",
        },
    )
    code = next(f for f in ctx.facts if f.attribute == "상품코드")
    docs = fact_closure(ctx, code)
    assert {"tours/terms.md", "tours/flights.md"} <= docs
    assert "other/list.md" not in docs  # another folder


def test_an_english_first_name_beside_the_role_states_it_in_the_persons_folder(tmp_path: Path) -> None:
    people = "# Our people\n\n| Role | Name |\n|---|---|\n| Treasurer | Lesley Pickering |\n| Chair | Graham Ash |\n"
    ctx = kb_context(
        tmp_path,
        {
            "club/people.md": people,
            "club/fees.txt": "Fees\n\nIf paying is hard, have a word with Lesley (Treasurer) in confidence.\n",
            "club/minutes.md": "# Minutes\n\nLesley presented the accounts; the Treasurer's report was accepted.\n",
            "other/people.md": "# Another club\n\nPlease speak to Lesley (Treasurer) about refunds.\n",
        },
    )
    role = next(f for f in ctx.facts if f.subject == "Lesley Pickering")
    docs = fact_closure(ctx, role)
    assert "club/fees.txt" in docs
    assert "club/minutes.md" not in docs  # her name and the post's word, not side by side
    assert "other/people.md" not in docs  # another folder's Lesley


def test_a_first_name_two_people_of_the_folder_share_is_not_theirs_alone(tmp_path: Path) -> None:
    people = "# Our people\n\n| Role | Name |\n|---|---|\n| Treasurer | Lesley Pickering |\n| Chair | Lesley Owen |\n"
    ctx = kb_context(
        tmp_path,
        {
            "club/people.md": people,
            "club/fees.txt": "Fees\n\nIf paying is hard, have a word with Lesley (Treasurer) in confidence.\n",
        },
    )
    role = next(f for f in ctx.facts if f.subject == "Lesley Pickering")
    assert "club/fees.txt" not in fact_closure(ctx, role)


def test_a_post_right_beside_its_holder_in_the_organisations_folder_states_it(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "gym/about.md": "# 나무 피트니스 영통점\n\n- 대표: 최현우\n- 주소: 수원시 영통구\n",
            "gym/notice.txt": "[공지] 운영시간 변경 안내\n\n1월 6일부터 평일 06:00에 엽니다.\n\n대표 최현우 드림\n",
            "gym/rules.md": "# 환불 규정\n\n양도는 대표(최현우)의 승인을 받아야 합니다.\n",
            "gym/reviews.txt": "후기\n\n최현우 트레이너님 덕분에 대표 운동인 데드리프트를 배웠어요.\n",
        },
    )
    head = next(f for f in ctx.facts if f.attribute == "대표")
    docs = fact_closure(ctx, head)
    assert {"gym/notice.txt", "gym/rules.md"} <= docs
    assert "gym/reviews.txt" not in docs  # "대표" is not beside his name


def test_one_event_told_by_two_sentences_is_asked_once(tmp_path: Path) -> None:
    ctx = kb_context(tmp_path, {"firm/about.md": "# About\n\nWe let homes in Bramley.\n"})

    def told(question: str, subject: str, value: str = "2011", source: str = "sentence") -> Draft:
        fact = kv_fact(f"{subject} … the business up", value, "date", date_key=value).model_copy(
            update={"subject": subject, "source": source, "doc_id": "firm/about.md"}
        )
        return Draft("temporal", question, f"In {value}.", [value], [fact], [value], "en", "en.sentence")

    validator = Validator(ctx)
    sources = ["firm/about.md", "firm/press.md"]
    assert validator._duplicate(told("When did Helen Ashdown set the business up?", "Helen Ashdown"), sources) is None
    again = told("When was Millrace Lettings Ltd founded?", "Millrace Lettings Ltd")
    assert validator._duplicate(again, sources) == "near-duplicate"  # the same answer from the same pages
    assert validator._duplicate(again, ["firm/about.md"]) is None  # other pages: another event of that year
    listed = told("When was Bramley Homes Ltd registered?", "Bramley Homes Ltd", source="key_value")
    assert validator._duplicate(listed, sources) is None  # a labelled line: two labels may share a figure


def test_a_rules_measure_told_again_with_two_of_its_rare_words_is_in_its_closure(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "pool/safety.md": "# 안전수칙\n\n4. 만 7세 미만 또는 키 120cm 미만 어린이는 보호자와 함께 "
            "들어가야 합니다.\n",
            "pool/guide.md": "# 이용안내\n\n키가 120cm 이상이면 혼자 들어갈 수 있습니다. 그보다 작으면 보호자가 함께 "
            "물에 들어가야 합니다.\n",
            "pool/lanes.md": "# 레인 안내\n\n유아 풀의 깊이는 120cm 이하로 맞춥니다.\n",
        },
    )
    rule = next(f for f in ctx.facts if f.doc_id == "pool/safety.md" and f.value == "120cm")
    docs = fact_closure(ctx, rule)
    assert "pool/guide.md" in docs  # the figure, then "보호자" and "함께" in the sentence after it
    assert "pool/lanes.md" not in docs  # the same figure, another rule


def test_a_role_told_in_a_clause_or_beside_a_first_name_known_by_its_initial_states_it(tmp_path: Path) -> None:
    staff = (
        "# Staff\n\n| Name | Job role |\n|---|---|\n| Tomasz Wierzbicki | Deputy Manager |\n| Fern Hadley | Cook |\n"
    )
    ctx = kb_context(
        tmp_path,
        {
            "nursery/staff.md": staff,
            "nursery/handbook.md": "# Handbook\n\nOur SENCo is Tomasz Wierzbicki, who is also Deputy Manager.\n",
            "nursery/news.md": "# News\n\nWell done to Tom (Tomasz, our deputy manager) on his award.\n",
            "nursery/wiki.md": "# Wiki\n\n_Last edited by Tomasz W. on 02/12/2024_\n",
            "nursery/history.md": "# History\n\nTomasz Wierzbicki, who was Deputy Manager until 2020, retired.\n",
        },
    )
    role = next(f for f in ctx.facts if f.subject == "Tomasz Wierzbicki")
    docs = fact_closure(ctx, role)
    assert {"nursery/handbook.md", "nursery/news.md"} <= docs  # "Tomasz W." is no other Tomasz
    assert "nursery/history.md" not in docs  # a former post


def test_a_korean_given_name_beside_the_post_states_it_when_no_other_surname_takes_it(tmp_path: Path) -> None:
    staff = "# 직원\n\n| 이름 | 자격 |\n|---|---|\n| 이도현 | 중개보조원 |\n| 김민지 | 소속공인중개사 |\n"
    ctx = kb_context(
        tmp_path,
        {
            "office/staff.md": staff,
            "office/minutes.md": "# 주간회의\n\n- 도현씨 중개보조원 고지 잘하고 있음\n",
            "other/minutes.md": "# 다른 회의\n\n- 도현씨 중개보조원 고지 확인\n",
        },
    )
    qualification = next(f for f in ctx.facts if f.value == "중개보조원")
    docs = fact_closure(ctx, qualification)
    assert "office/minutes.md" in docs
    assert "other/minutes.md" not in docs  # another office's 도현
    twins = kb_context(
        tmp_path / "twins",
        {
            "office/staff.md": staff.replace("| 김민지 |", "| 박도현 |"),
            "office/minutes.md": "# 회의\n\n- 도현씨 중개보조원\n",
        },
    )
    qualification = next(f for f in twins.facts if f.value == "중개보조원")
    assert "office/minutes.md" not in fact_closure(twins, qualification)  # two 도현 in the office


def test_a_rows_new_figure_written_after_an_arrow_in_its_folder_is_in_its_closure(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "cinema/notice.md": "# New prices\n\n| Ticket | Old price | New price |\n|---|---|---|\n"
            "| Family ticket | £26.00 | **£28.00** |\n| Adult | £8.00 | £8.50 |\n",
            "cinema/minutes.md": "# Minutes\n\nAgreed prices:\n  - Family £26 → £28\n  - Student £7 → £28\n",
            "cinema/hire.md": "# Hire\n\nThe Snug rises from £20 → £28 an hour; family parties welcome.\n",
            "other/minutes.md": "# Another cinema\n\n  - Family £25 → £28\n",
        },
    )
    family = next(f for f in ctx.facts if f.value == "£28.00")
    docs = fact_closure(ctx, family)
    assert "cinema/minutes.md" in docs
    assert "cinema/hire.md" not in docs  # the row's word after the arrow, not before it
    assert "other/minutes.md" not in docs  # another folder


def test_each_of_a_persons_roles_beside_the_name_states_them(tmp_path: Path) -> None:
    staff = "# Volunteer roles\n\n| Name | Roles |\n|---|---|\n| Dominic Hale | Treasurer; Volunteer Coordinator |\n"
    ctx = kb_context(
        tmp_path,
        {
            "cinema/roles.md": staff,
            "cinema/minutes.md": "# Minutes\n\nPresent: Maggie Thornbury (Chair), Dominic Hale (Treasurer).\n",
        },
    )
    roles = next(f for f in ctx.facts if f.subject == "Dominic Hale")
    assert "cinema/minutes.md" in fact_closure(ctx, roles)


def test_a_post_of_a_long_list_and_a_posts_head_word_beside_the_name_state_it(tmp_path: Path) -> None:
    team = (
        "# Team\n\n| Name | Roles |\n|---|---|\n"
        "| Rhiannon Pryce-Doyle | Centre Manager; Designated Safeguarding Lead |\n"
        "| Maggie Thornbury | Chair of the Trust |\n"
    )
    ctx = kb_context(
        tmp_path,
        {
            "centre/team.md": team,
            "centre/notice.md": "# Notice\n\nPrices change in June.\n\n*— Rhiannon, Centre Manager*\n",
            "centre/minutes.md": "# Minutes\n\n**Present:** Maggie Thornbury (Chair), Tom Reed (Treasurer)\n",
            "centre/history.md": "# History\n\nMaggie Thornbury chaired the Trust of the old mill until 2010.\n",
        },
    )
    manager = next(f for f in ctx.facts if f.subject == "Rhiannon Pryce-Doyle")
    assert "centre/notice.md" in fact_closure(ctx, manager)  # two posts, longer than one post together
    chair = next(f for f in ctx.facts if f.subject == "Maggie Thornbury")
    docs = fact_closure(ctx, chair)
    assert "centre/minutes.md" in docs  # "Chair" of "Chair of the Trust", beside her name
    assert "centre/history.md" not in docs


def test_a_post_then_is_then_its_holder_states_it(tmp_path: Path) -> None:
    team = (
        "# Team\n\n| Name | Roles |\n|---|---|\n| Ailsa McCrindle | Head of Paddlesport |\n| Tom Reed | Instructor |\n"
    )
    ctx = kb_context(
        tmp_path,
        {
            "centre/team.md": team,
            "centre/faq.md": "# FAQ\n\nWho runs the kayaking? Our Head of Paddlesport is Ailsa, who has led it "
            "since 2019.\n",
            "centre/news.md": "# News\n\nThe Head of Paddlesport is away; Ailsa McCrindle's deputy stands in.\n",
        },
    )
    head = next(f for f in ctx.facts if f.subject == "Ailsa McCrindle")
    docs = fact_closure(ctx, head)
    assert "centre/faq.md" in docs
    assert "centre/news.md" not in docs  # the post and her name, not "is" between them


def test_a_grid_of_another_term_whose_row_names_the_thing_records_its_room_and_day(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "theatre/Summer timetable v2.csv": "SUMMER TERM 2025 - TIMETABLE (DRAFT v2)\n"
            "Group,Ages,Day,Time,Room,Lead tutor\nMinis,5-7,Sat,09:00-10:00,Studio 2,Kofi Mensah\n"
            "Juniors,8-10,Sat,10:15-11:45,Studio 1,Jess Hallam\n"
            "Musical Theatre Co.,11-18,Sat,13:00-15:30,Studio 1,Owen Treharne\n",
            "theatre/Timetable_Spring2025.csv": "Group,Ages,Day,Start,End,Room,Tutor(s)\n"
            "Minis,5-7,Saturday,09:30,10:30,Studio 2,Jess Hallam\n"
            "Juniors,8-10,Saturday,10:45,12:15,Studio 1,Jess Hallam\n"
            "Musical Theatre Co. (MTC),11-18 (audition),Saturday,13:00,15:30,Studio 1,Owen Treharne\n",
            "theatre/Rooms.md": "# Rooms\n\n| Room | Floor | Capacity |\n|---|---|---|\n| Studio 1 | Ground | 40 |\n",
        },
    )
    summer = {(f.subject, f.attribute): f for f in ctx.facts if f.doc_id == "theatre/Summer timetable v2.csv"}
    spring = {"theatre/Summer timetable v2.csv", "theatre/Timetable_Spring2025.csv"}
    assert fact_closure(ctx, summer["Musical Theatre Co.", "Room"]) == spring
    assert fact_closure(ctx, summer["Musical Theatre Co.", "Day"]) == spring  # "Sat" is the grid's "Saturday"
    # the spring grid gives the Minis another room-mate's time: the time is not recorded again
    assert fact_closure(ctx, summer["Minis", "Room"]) == spring
    assert fact_closure(ctx, summer["Minis", "Time"]) == {"theatre/Summer timetable v2.csv"}


def test_minutes_writing_a_post_shortened_beside_its_holder_or_a_short_first_name_state_the_post(
    tmp_path: Path,
) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "orchard/contacts.md": "# Contacts & roles\n\n| Name | Role | Phone |\n|---|---|---|\n"
            "| Owen Pryce | Secretary | 01632 960201 |\n| Samuel Okafor | Orchard Lead | 01632 960202 |\n"
            "| Deepa Raman | Treasurer | 01632 960203 |\n",
            "orchard/minutes AGM 2025-03-15.txt": "HOLLOWBROOK ORCHARD CO-OP\nAGM minutes, 15 March 2025\n\n"
            "Officers elected:\n- Secretary: Owen Pryce (re-elected)\n- Treasurer: Deepa Raman\n",
            "orchard/Committee minutes 12 Aug 2025.txt": "Hollowbrook Orchard Co-op committee, 12 Aug 2025\n\n"
            "Present: Owen Pryce (Sec), Sam Okafor (Orchard), Deepa Raman\n\n1. Pressing days agreed.\n",
        },
    )
    closure = Closure(ctx)
    posts = {(f.attribute, f.value): f for f in ctx.facts if f.doc_id.endswith("AGM 2025-03-15.txt")}
    secretary, treasurer = posts["Secretary", "Owen Pryce (re-elected)"], posts["Treasurer", "Deepa Raman"]
    # "Owen Pryce (Sec)" writes the post shortened; "Deepa Raman" alone does not
    assert "orchard/Committee minutes 12 Aug 2025.txt" in closure.of(secretary)
    assert "orchard/Committee minutes 12 Aug 2025.txt" not in closure.of(treasurer)
    # "Sam Okafor (Orchard)" is Samuel Okafor with his role: an item without the minutes is dropped
    role = next(f for f in ctx.facts if f.subject == "Samuel Okafor" and f.attribute == "Role")
    untold = closure.retold.of(role).untold(closure.of(role))
    assert untold is not None and untold[0] == "orchard/Committee minutes 12 Aug 2025.txt", untold


def test_a_spreadsheets_bare_fee_is_stated_by_pages_writing_it_grouped_or_by_man(tmp_path: Path) -> None:
    ctx = kb_context(
        tmp_path,
        {
            "academy/수강료표.csv": "과정,월 수강료(원),담당\n이론·청음 그룹,50000,문소연\n입시반,360000,서미경\n",
            "academy/학부모FAQ.md": "# 학부모 FAQ\n\n- 이론·청음 그룹: 재원생 추가 5만 원\n",
            "academy/인상 안내문.txt": "수강료 인상 안내\n\n이론·청음 그룹 50,000원은 그대로 유지합니다.\n",
            "academy/회의록.txt": "회의록\n\n- 연회비 50,000원으로 동결 (회장 문소연)\n",
        },
    )
    fee = next(f for f in ctx.facts if f.value == "50000")
    assert fee.subject.startswith("이론·청음 그룹")
    closure = fact_closure(ctx, fee)
    assert {"academy/학부모FAQ.md", "academy/인상 안내문.txt"} <= closure
    assert "academy/회의록.txt" not in closure  # another fee of the same figure
