"""Exporters: tests.jsonl (exact contract, file:line errors), Hugging Face datasets, RAGAS."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from schemas import TestQuestion
from testgen.errors import DatasetFormatError, UserInputError
from testgen.export import (
    dumps_item,
    from_hf_dataset,
    ragas_rows,
    read_jsonl,
    save_hf_dataset,
    to_hf_dataset,
    to_ragas_dataset,
    write_jsonl,
    write_ragas_jsonl,
)
from testgen.pipeline import build_testset

EXAMPLES = Path(__file__).parents[1] / "examples"


@pytest.fixture(scope="module")
def generated() -> list[TestQuestion]:
    items = build_testset(EXAMPLES / "aurora_bikes", num=12, seed=5).result.items
    items += build_testset(EXAMPLES / "haneul_travel", num=12, seed=5).result.items
    return items


USER_ITEMS = [
    TestQuestion(
        question="하늘여행의 설립일은 언제인가요?",
        keywords=["2008년 3월 15일"],
        reference_answer="하늘여행의 설립일은 2008년 3월 15일입니다.",
        category="temporal",
        source_docs=["company/overview.md"],
    ),
    TestQuestion.model_validate(
        {
            "question": 'Who said "hello"?',
            "keywords": ["hello", "\\n"],
            "reference_answer": "Nobody.",
            "category": "my_category",
            "difficulty": 3,
            "tags": ["a", "b"],
        }
    ),
]


# ------------------------------------------------------------------------------------------------- JSONL


def test_jsonl_round_trip(generated: list[TestQuestion], tmp_path: Path) -> None:
    items = generated + USER_ITEMS
    path = write_jsonl(items, tmp_path / "out" / "tests.jsonl")
    back = read_jsonl(path)
    assert back == items
    assert [i.to_json_dict() for i in back] == [i.to_json_dict() for i in items]
    # writing what was read gives the same bytes
    assert write_jsonl(back, tmp_path / "again.jsonl").read_bytes() == path.read_bytes()


def test_jsonl_line_format() -> None:
    line = dumps_item(USER_ITEMS[0])
    assert "\n" not in line
    assert line == (
        '{"question": "하늘여행의 설립일은 언제인가요?", "keywords": ["2008년 3월 15일"], '
        '"reference_answer": "하늘여행의 설립일은 2008년 3월 15일입니다.", "category": "temporal", '
        '"source_docs": ["company/overview.md"]}'
    )
    user = json.loads(dumps_item(USER_ITEMS[1]))
    assert list(user) == [
        "question",
        "keywords",
        "reference_answer",
        "category",
        "source_docs",
        "difficulty",
        "tags",
    ]


def test_write_jsonl_uses_lf_and_utf8(tmp_path: Path) -> None:
    raw = write_jsonl(USER_ITEMS, tmp_path / "t.jsonl").read_bytes()
    assert b"\r" not in raw
    assert raw.count(b"\n") == 2
    assert "설립일".encode() in raw


def test_read_jsonl_skips_blank_lines_and_bom(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    path.write_text("\ufeff" + dumps_item(USER_ITEMS[0]) + "\n\n   \n" + dumps_item(USER_ITEMS[1]) + "\n", "utf-8")
    assert read_jsonl(path) == USER_ITEMS


GOOD = json.dumps({"question": "Q?", "keywords": ["k"], "reference_answer": "A.", "category": "direct_fact"})


@pytest.mark.parametrize(
    ("third", "problem"),
    [
        ('{"question": "Q?", "keywords": ', "invalid JSON"),
        ('["Q?", ["k"], "A.", "direct_fact"]', "expected a JSON object, got list"),
        ('"just a string"', "expected a JSON object, got str"),
        ('{"keywords": ["k"], "reference_answer": "A.", "category": "direct_fact"}', "field 'question'"),
        (
            '{"question": "Q?", "keywords": "k", "reference_answer": "A.", "category": "direct_fact"}',
            "field 'keywords'",
        ),
        ('{"question": "", "keywords": [], "reference_answer": "A.", "category": "direct_fact"}', "field 'question'"),
        ('{"question": "Q?", "keywords": [1], "reference_answer": "A.", "category": "direct_fact"}', "keywords.0"),
    ],
)
def test_malformed_third_line_names_file_and_line(tmp_path: Path, third: str, problem: str) -> None:
    path = tmp_path / "file.jsonl"
    path.write_text(f"{GOOD}\n{GOOD}\n{third}\n{GOOD}\n", encoding="utf-8")
    with pytest.raises(DatasetFormatError) as info:
        read_jsonl(path)
    message = str(info.value)
    assert message.startswith(f"{path}:3: ")
    assert "file.jsonl:3" in message
    assert problem in message
    assert (info.value.path, info.value.line) == (str(path), 3)
    assert "each line must be one JSON object" in message  # the fix is part of the message
    assert isinstance(info.value, UserInputError)


def test_line_numbers_count_blank_lines(tmp_path: Path) -> None:
    path = tmp_path / "file.jsonl"
    path.write_text(f"{GOOD}\n\n[1]\n", encoding="utf-8")
    with pytest.raises(DatasetFormatError, match=r"file\.jsonl:3: expected a JSON object"):
        read_jsonl(path)


def test_empty_missing_and_undecodable_files(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n  \n", encoding="utf-8")
    with pytest.raises(DatasetFormatError, match=r"empty\.jsonl:1: the file holds no test questions"):
        read_jsonl(empty)
    with pytest.raises(UserInputError, match="no such file"):
        read_jsonl(tmp_path / "missing.jsonl")
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(GOOD.replace("Q?", "Qué?").encode("latin-1"))
    with pytest.raises(DatasetFormatError, match=r"latin\.jsonl:1: not UTF-8 text"):
        read_jsonl(latin)


# ---------------------------------------------------------------------------------------- Hugging Face


def test_hf_dataset_round_trip(generated: list[TestQuestion]) -> None:
    dataset = to_hf_dataset(generated)
    assert dataset.num_rows == len(generated)
    assert dataset.column_names == [
        "question",
        "keywords",
        "reference_answer",
        "category",
        "source_docs",
        "id",
        "language",
        "reference_contexts",
        "metadata",
    ]
    first = dataset[0]
    assert first["question"] == generated[0].question
    assert first["source_docs"] == generated[0].source_docs
    assert json.loads(first["metadata"]) == generated[0].metadata
    back = from_hf_dataset(dataset)
    assert back == generated
    assert [b.metadata for b in back] == [g.metadata for g in generated]
    assert [b.source_docs for b in back] == [g.source_docs for g in generated]


def test_hf_dataset_saved_to_disk(generated: list[TestQuestion], tmp_path: Path) -> None:
    from datasets import load_from_disk
    from datasets.utils.logging import is_progress_bar_enabled

    before = is_progress_bar_enabled()
    path = save_hf_dataset(generated, tmp_path / "tests.hf")
    assert is_progress_bar_enabled() == before
    assert (path / "dataset_info.json").is_file()
    loaded = load_from_disk(str(path))
    assert from_hf_dataset(loaded) == generated


def test_hf_round_trip_of_a_five_field_item() -> None:
    back = from_hf_dataset(to_hf_dataset(USER_ITEMS[:1]))
    assert back[0].to_json_dict() == USER_ITEMS[0].to_json_dict()


def test_hf_round_trip_of_optional_fields() -> None:
    [back] = from_hf_dataset(to_hf_dataset(USER_ITEMS[:1]))
    assert (back.id, back.language, back.reference_contexts) == (None, None, None)
    assert back.question == USER_ITEMS[0].question
    assert back.source_docs == ["company/overview.md"]


# ------------------------------------------------------------------------------------------------- RAGAS


def test_ragas_rows(generated: list[TestQuestion]) -> None:
    rows = ragas_rows(generated)
    for row, item in zip(rows, generated, strict=True):
        assert row == {
            "user_input": item.question,
            "reference_contexts": item.reference_contexts,
            "reference_context_ids": item.source_docs,
            "reference": item.reference_answer,
        }
    assert ragas_rows(USER_ITEMS[1:])[0]["reference_contexts"] == []


@pytest.mark.slow
def test_ragas_dataset_and_jsonl(generated: list[TestQuestion], tmp_path: Path) -> None:
    from ragas import EvaluationDataset

    dataset = to_ragas_dataset(generated)
    assert len(dataset.samples) == len(generated)
    for sample, item in zip(dataset.samples, generated, strict=True):
        assert sample.user_input == item.question
        assert sample.reference == item.reference_answer
        assert sample.reference_contexts == item.reference_contexts
        assert sample.reference_context_ids == item.source_docs
    path = write_ragas_jsonl(generated, tmp_path / "ragas" / "tests.ragas.jsonl")
    loaded = EvaluationDataset.from_jsonl(str(path))
    assert len(loaded.samples) == len(generated)
    assert [s.model_dump() for s in loaded.samples] == [s.model_dump() for s in dataset.samples]
    korean = next(item.question for item in generated if item.language == "ko")
    assert korean in path.read_text(encoding="utf-8")  # written as UTF-8, not escaped
