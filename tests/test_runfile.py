"""Run files: round trip, file:line errors, matching records to questions, replaying a run as a target."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaluators.runfile import align, dumps_record, read_run, write_run
from evaluators.targets import RunFileTarget, make_target
from evaluators.targets.runfile_target import MISSING_ERROR
from schemas import RetrievedContext, RunRecord, TestQuestion
from testgen.errors import DatasetFormatError, UserInputError


def question(text: str, id: str | None = None) -> TestQuestion:
    return TestQuestion(question=text, keywords=[], reference_answer="", category="direct_fact", id=id)


def record(text: str, id: str | None = None, docs: tuple[str, ...] = ("a.md",), **extra: object) -> RunRecord:
    contexts = [RetrievedContext(doc_id=doc, text=f"text of {doc}", score=1.0 / (n + 1)) for n, doc in enumerate(docs)]
    return RunRecord(id=id, question=text, contexts=contexts, **extra)


RECORDS = [
    record("Who founded Aurora?", id="q1", docs=("people/ingrid.md", "company/history.md"), answer="Ingrid."),
    record("하늘여행의 설립일은 언제인가요?", docs=("company/overview.md",), latency_ms=12.5),
    RunRecord(question="A failed one", error="TimeoutError: no reply within 30 s"),
    RunRecord(
        question="With extras",
        contexts=[RetrievedContext(doc_id="x.md", chunk_id="abc", text="t", score=None, rerank=0.3)],
        system="mine",
    ),
]


def test_round_trip_keeps_every_field_and_bytes_are_stable(tmp_path: Path) -> None:
    path = write_run(RECORDS, tmp_path / "out" / "run.jsonl")
    back = read_run(path)
    assert back == RECORDS
    assert back[3].model_extra == {"system": "mine"}
    assert back[3].contexts[0].model_extra == {"rerank": 0.3}
    first = path.read_bytes()
    write_run(back, path)
    assert path.read_bytes() == first
    assert "하늘여행" in first.decode("utf-8")  # UTF-8 kept, not \u-escaped
    expected = '{"question": "A failed one", "contexts": [], "error": "TimeoutError: no reply within 30 s"}'
    assert dumps_record(RECORDS[2]) == expected


def test_blank_lines_and_bom_are_accepted(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text('\ufeff{"question": "q", "contexts": [{"doc_id": "a.md"}]}\n\n  \n{"question": "r"}\n', "utf-8")
    records = read_run(path)
    assert [r.question for r in records] == ["q", "r"]
    assert records[0].contexts[0] == RetrievedContext(doc_id="a.md", text="", score=None)


@pytest.mark.parametrize(
    ("lines", "line", "problem"),
    [
        (['{"question": "ok"}', "", '{"question": "x", '], 3, "invalid JSON"),
        (['["question"]'], 1, "expected a JSON object, got list"),
        (['{"question": "ok"}', '{"contexts": []}'], 2, "field 'question': field required"),
        (['{"question": "q", "contexts": [{"text": "no doc"}]}'], 1, "field 'contexts.0.doc_id': field required"),
        (['{"question": "q", "contexts": "a.md"}'], 1, "field 'contexts'"),
        (['{"question": "q", "contexts": [{"doc_id": "a", "score": "high"}]}'], 1, "field 'contexts.0.score'"),
        (["", "   "], 1, "the file holds no run records"),
    ],
)
def test_malformed_lines_name_file_and_line(tmp_path: Path, lines: list[str], line: int, problem: str) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(DatasetFormatError) as caught:
        read_run(path)
    assert caught.value.line == line
    assert str(caught.value).startswith(f"{path}:{line}: ")
    assert problem in caught.value.problem
    assert "each line must be one JSON object" in str(caught.value)  # the fix


def test_unreadable_files_are_user_errors(tmp_path: Path) -> None:
    with pytest.raises(UserInputError, match="no such file"):
        read_run(tmp_path / "missing.jsonl")
    with pytest.raises(UserInputError, match="is a folder"):
        read_run(tmp_path)
    latin1 = tmp_path / "latin1.jsonl"
    latin1.write_bytes('{"question": "café"}\n'.encode("latin-1"))
    with pytest.raises(DatasetFormatError, match=r"latin1\.jsonl:1: not UTF-8 text"):
        read_run(latin1)


def test_align_by_id_then_by_normalised_text() -> None:
    questions = [
        question("Who founded Aurora?", id="q1"),
        question("When was it founded?", id="q2"),
        question("What  does it SELL?"),
        question("Where is it?", id="q4"),
    ]
    records = [
        record("what does it sell?", id="other-id"),  # no id on the question: text decides
        record("a reworded question", id="q1"),  # ids decide over text
        record("Where is it?"),  # the question has an id, the record none: text decides
        record("When was it founded?", id="q9"),  # both have ids and they differ: no match
    ]
    matched, extras = align(questions, records)
    assert matched == [records[1], None, records[0], records[2]]
    assert extras == [records[3]]


def test_align_uses_each_record_once_and_keeps_duplicates_in_order() -> None:
    questions = [question("Same?"), question("same?"), question("Same?")]
    records = [record("Same?", docs=("1.md",)), record("SAME?", docs=("2.md",))]
    matched, extras = align(questions, records)
    assert [m.contexts[0].doc_id if m else None for m in matched] == ["1.md", "2.md", None]
    assert extras == []
    by_id = [record("x", id="q1", docs=("first.md",)), record("x", id="q1", docs=("second.md",))]
    matched, extras = align([question("x", id="q1")], by_id)
    assert matched == [by_id[0]]
    assert extras == [by_id[1]]


def test_align_with_nothing() -> None:
    assert align([], []) == ([], [])
    assert align([question("q")], []) == ([None], [])
    assert align([], [record("q")]) == ([], [record("q")])


def test_runfile_target_replays_in_question_order(tmp_path: Path) -> None:
    path = write_run(
        [
            record("Second question", docs=("b1.md", "b2.md", "b3.md"), answer="B"),
            record("First question", id="q1", docs=("a1.md",)),
            record("Not asked", docs=("z.md",)),
        ],
        tmp_path / "run.jsonl",
    )
    target = make_target(f"runfile:{path}")
    assert isinstance(target, RunFileTarget)
    questions = [question("first question", id="q1"), question("Second question"), question("Third question")]
    seen: list[tuple[int, int]] = []
    out = target.run(questions, k=2, progress=lambda done, total: seen.append((done, total)))
    assert [r.question for r in out] == ["first question", "Second question", "Third question"]
    assert [r.id for r in out] == ["q1", None, None]
    assert [[c.doc_id for c in r.contexts] for r in out] == [["a1.md"], ["b1.md", "b2.md"], []]
    assert out[1].answer == "B"
    assert out[2].error == MISSING_ERROR
    assert [r.question for r in target.unmatched] == ["Not asked"]
    assert target.describe() == {"target": "runfile", "path": str(path), "records": 3, "unmatched_records": 1}
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_runfile_target_fails_early_on_a_bad_file(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    path.write_text('{"question": "ok"}\nnot json\n', encoding="utf-8")
    with pytest.raises(DatasetFormatError, match=r"run\.jsonl:2: invalid JSON"):
        make_target(f"runfile:{path}")
