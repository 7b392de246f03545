"""Honest yield: a build that falls short says so (stderr block, summary fields), --strict and empty builds exit 3."""

from __future__ import annotations

import json
import re
import statistics
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from testgen.cli import main
from testgen.export import read_jsonl

EXAMPLES = Path(__file__).parents[1] / "examples"
BANNER = "WARNING: incomplete test set"


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def prose_kb(tmp_path: Path) -> Path:
    """Two short prose notes: a few dated sentences, no key-value lines, tables or lists."""
    kb = tmp_path / "prose_kb"
    kb.mkdir()
    (kb / "river.md").write_text(
        "# Field notes\n\n"
        "The river keeps changing its course after heavy rain. On 12 March 2021 the Harwick Bridge was closed to "
        "traffic. Most visitors come for the birds, which gather near the reeds in the early morning.\n"
        "The Ostby ferry service started again on 4 June 2022 after the repairs were finished. People in the village "
        "say the water was clearer when they were young.\n",
        encoding="utf-8",
    )
    (kb / "walking.md").write_text(
        "# Walking\n\n"
        "A long walk along the eastern bank takes most of the afternoon. The footpath was reopened on "
        "9 September 2020 once the fallen trees had been cleared. Nobody remembers who planted the willows "
        "by the mill.\n",
        encoding="utf-8",
    )
    return kb


@pytest.fixture
def empty_kb(tmp_path: Path) -> Path:
    """Prose with no date, number or structure: nothing for the offline generator to mine."""
    kb = tmp_path / "empty_kb"
    kb.mkdir()
    (kb / "sea.md").write_text(
        "Some quiet thoughts about the weather and the sea.\nThe wind is soft today and the gulls are loud.\n",
        encoding="utf-8",
    )
    return kb


def warning_block(stderr: str) -> str:
    """The lines between the warning banner and its closing rule."""
    assert BANNER in stderr, stderr
    block = stderr.split(BANNER, 1)[1]
    return block.split("\n" + "=" * 20, 1)[0]


def test_prose_kb_warns_names_short_categories_and_llm(prose_kb: Path, tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    result = run("build", "--kb", str(prose_kb), "-o", str(out), "-n", "10", "--no-hf", "-q")
    assert result.exit_code == 0, result.output
    summary = json.loads((tmp_path / "t.summary.json").read_text(encoding="utf-8"))
    items = read_jsonl(out)
    assert 0 < len(items) < 10  # some dated sentences, not enough for the request
    short = sorted(c for c, wanted in summary["requested"].items() if summary["generated"][c] < wanted)
    assert "direct_fact" in short and "relationship" in short

    block = warning_block(result.stderr)
    assert f"delivered {len(items)} of 10 requested questions" in block
    named = sorted(re.findall(r"^  (\w+) short: \d+/\d+ \(", block, flags=re.M))
    assert named == short
    for category in short:  # each with its count and the generator's reason
        reason = summary["shortfall"][category].split(": ", 1)[1].split(";")[0]
        line = next(x for x in block.splitlines() if x.startswith(f"  {category} short:"))
        assert f"{summary['generated'][category]}/{summary['requested'][category]}" in line
        assert reason in line
    assert "--llm MODEL" in block
    assert "structured facts" in block

    assert summary["delivered"] == summary["total"] == len(items)
    assert summary["shortfall_total"] == 10 - len(items)
    assert summary["warnings"][0] == f"delivered {len(items)} of 10 requested questions"
    assert any(w.startswith(f"{short[0]} short: ") for w in summary["warnings"])
    assert "--llm MODEL" in summary["warnings"][-1]
    assert summary["rejected_by_reason"] == {
        reason: sum(per.get(reason, 0) for per in summary["rejected"].values())
        for reason in {r for per in summary["rejected"].values() for r in per}
    }


def test_strict_exits_3_after_writing_the_outputs(prose_kb: Path, tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    result = run("build", "--kb", str(prose_kb), "-o", str(out), "-n", "10", "--no-hf", "-q", "--strict")
    assert result.exit_code == 3, result.output
    assert BANNER in result.stderr
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("error: --strict: ") and "of 10 questions" in last
    assert read_jsonl(out)  # nothing lost
    assert (tmp_path / "t.summary.json").is_file()


def test_a_build_with_no_question_exits_3_and_writes_nothing(empty_kb: Path, tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    result = run("build", "--kb", str(empty_kb), "-o", str(out), "-n", "10", "-q")
    assert result.exit_code == 3, result.output
    block = warning_block(result.stderr)
    assert "delivered 0 of 10 requested questions" in block
    assert "the knowledge graph has no material of this kind" in block
    assert "error: no question could be generated" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty_kb"]  # no 0-byte tests.jsonl, no side files

    # an earlier set is kept as it was, and --strict changes nothing
    out.write_text("earlier\n", encoding="utf-8")
    result = run("build", "--kb", str(empty_kb), "-o", str(out), "-n", "10", "-q", "--strict")
    assert result.exit_code == 3
    assert out.read_text(encoding="utf-8") == "earlier\n"
    assert "is left as it was" in result.stderr


def test_example_kb_meets_the_request_without_warning(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    result = run("build", "--kb", str(EXAMPLES / "aurora_bikes"), "-o", str(out), "-n", "20", "--no-hf", "--strict")
    assert result.exit_code == 0, result.output
    assert "WARNING" not in result.stderr
    items = read_jsonl(out)
    assert len(items) == 20
    overlaps = [v for i in items if (v := (i.metadata or {})["question_overlap"]) is not None]
    assert overlaps
    expected = round(statistics.median(overlaps), 4)
    assert f"question–source overlap (median): {expected:.2f}" in result.stderr
    summary = json.loads((tmp_path / "t.summary.json").read_text(encoding="utf-8"))
    assert summary["question_overlap_median"] == expected
    assert summary["warnings"] == []
    assert summary["delivered"] == 20 and summary["shortfall_total"] == 0
