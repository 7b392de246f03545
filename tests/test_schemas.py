"""The data contracts: JSON Schema files in sync with the models, and TestQuestion's reading rules."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

import schemas
from schemas import CATEGORIES, TestQuestion
from schemas.__main__ import MODELS, render

SCHEMA_DIR = Path(schemas.__file__).parent


@pytest.mark.parametrize("name", sorted(MODELS))
def test_schema_file_matches_models(name: str) -> None:
    stored = (SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8")
    assert stored == render(name), f"schemas/{name}.schema.json is stale: run `python -m schemas`"


def test_every_schema_file_belongs_to_a_model() -> None:
    files = {p.name.removesuffix(".schema.json") for p in SCHEMA_DIR.glob("*.schema.json")}
    assert files == set(MODELS)


def test_rendered_schema_is_sorted_json_with_trailing_newline() -> None:
    text = render("test_question")
    assert text.endswith("}\n")
    data = json.loads(text)
    assert data["title"] == "TestQuestion"
    assert set(data["required"]) == {"question", "keywords", "reference_answer", "category"}
    assert list(data) == sorted(data)


FIVE = {
    "question": "When was Lumen Robotics founded?",
    "keywords": ["May 4, 2015"],
    "reference_answer": "Lumen Robotics was founded on May 4, 2015.",
    "category": "temporal",
    "source_docs": ["company/overview.md"],
}


def test_five_field_form_reads_unchanged() -> None:
    item = TestQuestion.model_validate(FIVE)
    assert item.question == FIVE["question"]
    assert item.keywords == ["May 4, 2015"]
    assert item.source_docs == ["company/overview.md"]
    assert (item.id, item.language, item.reference_contexts, item.metadata) == (None, None, None, None)
    assert item.to_json_dict() == FIVE
    assert list(item.to_json_dict()) == list(FIVE)


def test_missing_source_docs_becomes_empty_list() -> None:
    raw = {k: v for k, v in FIVE.items() if k != "source_docs"}
    item = TestQuestion.model_validate(raw)
    assert item.source_docs == []
    assert item.to_json_dict()["source_docs"] == []


def test_unknown_category_is_kept() -> None:
    item = TestQuestion.model_validate({**FIVE, "category": "my_own_category"})
    assert "my_own_category" not in CATEGORIES
    assert item.category == "my_own_category"
    assert item.to_json_dict()["category"] == "my_own_category"


def test_extra_fields_preserved_after_known_ones_in_original_order() -> None:
    raw = {
        "zeta": 1,
        "question": "Q?",
        "difficulty": "hard",
        "keywords": ["k"],
        "reference_answer": "A.",
        "metadata": {"seed": 7},
        "category": "direct_fact",
        "id": "abc",
        "alpha": [1, 2],
        "language": "en",
    }
    item = TestQuestion.model_validate(raw)
    out = item.to_json_dict()
    assert list(out) == [
        "question",
        "keywords",
        "reference_answer",
        "category",
        "source_docs",
        "id",
        "language",
        "metadata",
        "zeta",
        "difficulty",
        "alpha",
    ]
    assert (out["zeta"], out["difficulty"], out["alpha"]) == (1, "hard", [1, 2])
    assert out["metadata"] == {"seed": 7}


def test_none_fields_are_omitted_but_empty_lists_kept() -> None:
    item = TestQuestion(question="Q?", keywords=[], reference_answer="", category="direct_fact", language=None)
    assert item.to_json_dict() == {
        "question": "Q?",
        "keywords": [],
        "reference_answer": "",
        "category": "direct_fact",
        "source_docs": [],
    }


@pytest.mark.parametrize(
    "bad",
    [
        {k: v for k, v in FIVE.items() if k != "question"},
        {**FIVE, "question": ""},
        {**FIVE, "keywords": "May 4, 2015"},
        {k: v for k, v in FIVE.items() if k != "reference_answer"},
    ],
)
def test_invalid_items_are_rejected(bad: dict) -> None:
    with pytest.raises(ValidationError):
        TestQuestion.model_validate(bad)


def test_categories_are_the_seven_in_report_order() -> None:
    assert CATEGORIES == (
        "direct_fact",
        "temporal",
        "numerical",
        "comparative",
        "spanning",
        "holistic",
        "relationship",
    )
