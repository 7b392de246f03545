"""Generation: mix parsing, quotas, byte-identical output for a seed, and explained shortfalls."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from schemas import CATEGORIES
from testgen.errors import OptionError, UserInputError
from testgen.export import write_jsonl
from testgen.generate import DEFAULT_MIX, MAX_DRAWS_PER_ITEM, generate, item_id, parse_mix, quotas
from testgen.kg.build import build_graph, load_corpus
from testgen.pipeline import build_testset

EXAMPLES = Path(__file__).parents[1] / "examples"

# ------------------------------------------------------------------------------------------------- --mix


def test_default_mix() -> None:
    assert parse_mix(None) == DEFAULT_MIX
    assert parse_mix("") == DEFAULT_MIX
    assert sum(DEFAULT_MIX.values()) == pytest.approx(1.0)
    assert list(DEFAULT_MIX) == list(CATEGORIES)
    assert parse_mix(None) is not DEFAULT_MIX  # a copy: callers cannot change the default


def test_mix_is_normalised_over_all_categories() -> None:
    mix = parse_mix(" direct_fact=2, temporal = 1 ,,numerical=1")
    assert list(mix) == list(CATEGORIES)
    assert mix == {
        "direct_fact": 0.5,
        "temporal": 0.25,
        "numerical": 0.25,
        "comparative": 0.0,
        "spanning": 0.0,
        "holistic": 0.0,
        "relationship": 0.0,
    }
    assert parse_mix("holistic=0.3") == {c: (1.0 if c == "holistic" else 0.0) for c in CATEGORIES}
    assert parse_mix("temporal=0,spanning=5")["spanning"] == 1.0


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("bogus=1", "cannot read 'bogus=1'"),
        ("direct_fact", "cannot read 'direct_fact'"),
        ("Direct_Fact=1", "cannot read"),
        ("direct_fact=-0.5", "must not be negative"),
        ("direct_fact=lots", "not a number"),
        ("direct_fact=0,temporal=0", "at least one share must be positive"),
    ],
)
def test_bad_mix_raises_option_error(text: str, message: str) -> None:
    with pytest.raises(OptionError, match=message) as info:
        parse_mix(text)
    assert isinstance(info.value, UserInputError)
    assert str(info.value).startswith("--mix")


# ------------------------------------------------------------------------------------------------ quotas


def test_quotas_largest_remainder() -> None:
    assert quotas(50, DEFAULT_MIX) == {
        "direct_fact": 17,
        "temporal": 7,
        "numerical": 6,
        "comparative": 5,
        "spanning": 6,
        "holistic": 4,
        "relationship": 5,
    }
    # 10 × 1/3 each: 3.33 → 3, 3, 3 and the one left goes to the first category in report order
    thirds = parse_mix("direct_fact=1,temporal=1,numerical=1")
    assert quotas(10, thirds) == {**dict.fromkeys(CATEGORIES, 0), "direct_fact": 4, "temporal": 3, "numerical": 3}
    # the largest remainder wins over order: 0.2×7=1.4, 0.8×7=5.6 → 1, 6
    assert quotas(7, parse_mix("direct_fact=0.2,holistic=0.8"))["holistic"] == 6
    assert quotas(1, DEFAULT_MIX) == {**dict.fromkeys(CATEGORIES, 0), "direct_fact": 1}


@pytest.mark.parametrize("num", [0, -3])
def test_quotas_need_a_positive_number(num: int) -> None:
    with pytest.raises(OptionError, match="--num must be at least 1"):
        quotas(num, DEFAULT_MIX)


@settings(derandomize=True, max_examples=200, deadline=None)
@given(
    st.integers(min_value=1, max_value=5000),
    st.lists(st.integers(min_value=0, max_value=20), min_size=len(CATEGORIES), max_size=len(CATEGORIES)).filter(
        lambda w: sum(w) > 0
    ),
)
def test_quotas_sum_to_num_and_stay_within_one_of_the_share(num: int, weights: list[int]) -> None:
    mix = parse_mix(",".join(f"{c}={w}" for c, w in zip(CATEGORIES, weights, strict=True)))
    counts = quotas(num, mix)
    assert sum(counts.values()) == num
    assert list(counts) == list(CATEGORIES)
    for category, count in counts.items():
        exact = num * mix[category]
        assert math.floor(exact) <= count <= math.ceil(exact)
        if mix[category] == 0:
            assert count == 0


# ------------------------------------------------------------------------------------------ determinism


@pytest.fixture(scope="module")
def aurora_graph():
    return build_graph(load_corpus(EXAMPLES / "aurora_bikes"))


def test_same_kb_and_seed_give_byte_identical_files(tmp_path: Path) -> None:
    first = build_testset(EXAMPLES / "aurora_bikes", num=40, seed=7)
    second = build_testset(EXAMPLES / "aurora_bikes", num=40, seed=7)
    a = write_jsonl(first.result.items, tmp_path / "a" / "tests.jsonl")
    b = write_jsonl(second.result.items, tmp_path / "b" / "tests.jsonl")
    assert a.read_bytes() == b.read_bytes()
    assert len(a.read_text(encoding="utf-8").splitlines()) == 40
    other = build_testset(EXAMPLES / "aurora_bikes", num=40, seed=8)
    c = write_jsonl(other.result.items, tmp_path / "c" / "tests.jsonl")
    assert c.read_bytes() != a.read_bytes()
    assert {i.question for i in other.result.items} != {i.question for i in first.result.items}


def test_korean_kb_is_deterministic_too(tmp_path: Path) -> None:
    runs = [build_testset(EXAMPLES / "haneul_travel", num=30, seed=3) for _ in range(2)]
    files = [write_jsonl(r.result.items, tmp_path / f"{i}.jsonl") for i, r in enumerate(runs)]
    assert files[0].read_bytes() == files[1].read_bytes()


def test_item_ids_hash_question_and_sources(aurora_graph) -> None:
    result = generate(aurora_graph, num=20, seed=1)
    for item in result.items:
        assert item.id == item_id(item.question, item.source_docs)
        assert len(item.id or "") == 16
    assert item_id("Q?", ["a.md"]) != item_id("Q?", ["b.md"])


def test_changing_one_quota_does_not_reshuffle_another(aurora_graph) -> None:
    small = generate(aurora_graph, num=15, mix=parse_mix("direct_fact=10,temporal=5"), seed=42)
    large = generate(aurora_graph, num=20, mix=parse_mix("direct_fact=10,temporal=10"), seed=42)
    direct = [i.question for i in small.items if i.category == "direct_fact"]
    assert direct == [i.question for i in large.items if i.category == "direct_fact"]
    temporal_small = [i.question for i in small.items if i.category == "temporal"]
    temporal_large = [i.question for i in large.items if i.category == "temporal"]
    assert len(temporal_small) == 5
    assert temporal_large[:5] == temporal_small


def test_mix_limits_categories_and_items_come_in_report_order(aurora_graph) -> None:
    result = generate(aurora_graph, num=12, mix=parse_mix("numerical=1,comparative=1"), seed=42)
    assert result.requested == {**dict.fromkeys(CATEGORIES, 0), "numerical": 6, "comparative": 6}
    assert result.counts() == result.requested
    assert [i.category for i in result.items] == ["numerical"] * 6 + ["comparative"] * 6
    assert set(result.drafts_seen) == {"numerical", "comparative"}
    assert all(result.drafts_seen[c] >= 6 for c in result.drafts_seen)


def test_progress_reports_each_item(aurora_graph) -> None:
    calls: list[tuple[str, int, int]] = []
    generate(aurora_graph, num=5, seed=1, progress=lambda s, d, t: calls.append((s, d, t)))
    assert calls == [("generating questions", i, 5) for i in range(1, 6)]


# -------------------------------------------------------------------------------------------- shortfall

NO_DATES = {
    "products/orbit_arm.md": "# Orbit Arm\n\n## Specifications\n\n- **Price**: $12,500\n- **Payload**: 5 kg\n"
    "- **Product Owner**: Jonas Berg\n",
    "products/orbit_mini.md": "# Orbit Mini\n\n## Specifications\n\n- **Price**: $8,000\n- **Payload**: 2 kg\n"
    "- **Product Owner**: Jonas Berg\n",
    "people/jonas_berg.md": "# Jonas Berg\n\n## Summary\n\n- **Title**: Product Manager\n- **Location**: Tartu\n",
}


@pytest.fixture(scope="module")
def tiny_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("nodates")
    for rel, text in NO_DATES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


def test_shortfall_is_reported_with_a_reason(tiny_kb: Path) -> None:
    outcome = build_testset(tiny_kb, num=10, seed=42, fill=False)
    result = outcome.result
    assert result.requested["temporal"] >= 1
    assert result.counts()["temporal"] == 0
    assert result.shortfall["temporal"] == (
        f"0/{result.requested['temporal']}: the knowledge graph has no material of this kind"
    )
    assert result.drafts_seen["temporal"] == 0
    assert len(result.items) < 10
    for category, note in result.shortfall.items():
        got, wanted = note.split(":", 1)[0].split("/")
        assert int(got) == result.counts()[category] < int(wanted) == result.requested[category]
    summary = outcome.summary()
    assert summary["shortfall"] == result.shortfall
    assert summary["total"] == len(result.items)
    assert summary["generated"]["temporal"] == 0


def test_fill_makes_up_a_shortfall_from_categories_with_material(tiny_kb: Path) -> None:
    strict = build_testset(tiny_kb, num=10, seed=42, fill=False).result
    filled = build_testset(tiny_kb, num=10, seed=42).result
    assert strict.filled == {}
    assert filled.shortfall == strict.shortfall  # the shortfall is still reported
    assert filled.filled, "some category had material left"
    assert not set(filled.filled) & set(filled.shortfall)
    assert len(filled.items) == len(strict.items) + sum(filled.filled.values())
    assert len(filled.items) <= 10
    # the first pass is identical: filling only appends
    assert [i.question for i in filled.items[: len(strict.items)]] == [i.question for i in strict.items]


def test_shortfall_names_the_rejections(tiny_kb: Path) -> None:
    # Asking for many direct facts from a KB with few: the material runs out and the note says how far it got.
    result = build_testset(tiny_kb, num=30, mix=parse_mix("direct_fact=1"), seed=42).result
    note = result.shortfall["direct_fact"]
    got = result.counts()["direct_fact"]
    assert got >= 1  # the title is dropped: "Product Owner: Jonas Berg" may tell another post of his
    assert note.startswith(f"{got}/30: material ran out after {result.drafts_seen['direct_fact']} drafts")
    assert result.drafts_seen["direct_fact"] < 30 * MAX_DRAWS_PER_ITEM


def test_a_build_runs_the_garbage_collector_less_often_and_restores_it() -> None:
    import gc

    before = gc.get_threshold()
    seen: list[int] = []
    outcome = build_testset(
        EXAMPLES / "aurora_bikes", num=3, seed=1, progress=lambda *_: seen.append(gc.get_threshold()[0])
    )
    assert outcome.result.items and seen
    assert min(seen) >= 100_000 > before[0]  # raised for the whole build
    assert gc.get_threshold() == before  # and put back
