"""LLM enrichment of the graph: only facts whose evidence the passage states verbatim get in; off by default."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from testgen.kg.build import build_graph, load_corpus
from testgen.kg.enrich import enrich_graph, select_chunks
from testgen.llm import FakeLLM
from testgen.pipeline import build_testset

PROSE = (
    "# Lumen Labs\n\n"
    "Lumen Labs is a small optics company that grew out of a university spin-off programme in the north. "
    "The company was founded in Tartu in 2014 by Kadri Tamm, who still leads its research group today. "
    "Its first product was a handheld spectrometer aimed at farmers who wanted to test soil on site. "
    "Over the following years the firm expanded into water-quality sensors and sold devices in twelve "
    "countries across Europe, mostly through regional distributors and agricultural cooperatives.\n"
)


FOUNDED = "The company was founded in Tartu in 2014 by Kadri Tamm, who still leads its research group today."
FIRST_PRODUCT = "Its first product was a handheld spectrometer aimed at farmers who wanted to test soil on site."


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    root = tmp_path / "kb" / "company"
    root.mkdir(parents=True)
    (root / "lumen.md").write_text(PROSE, encoding="utf-8")
    return tmp_path / "kb"


def reply(messages: list[dict[str, str]]) -> str:
    return json.dumps(
        {
            "facts": [
                {
                    "subject": "Lumen Labs",
                    "attribute": "founding year",
                    "value": "2014",
                    "evidence": FOUNDED,
                },
                {
                    "subject": "Lumen Labs",
                    "attribute": "founder",
                    "value": "Kadri Tamm",
                    "evidence": "Kadri Tamm founded Lumen Labs.",
                },  # not verbatim: refused
                {
                    "subject": "Lumen Labs",
                    "attribute": "first product",
                    "value": "a laser cutter",
                    "evidence": FIRST_PRODUCT,
                },
            ]
        }
    )


def test_only_verbatim_evidence_with_its_value_gets_in(kb: Path) -> None:
    kg = build_graph(load_corpus(kb))
    before = {f.fact_id for f in kg.facts()}
    fake = FakeLLM(reply)
    report = enrich_graph(kg, fake, max_chunks=5)
    added = [f for f in kg.facts() if f.fact_id not in before]
    assert report.chunks_sent == len(fake.history) == len(select_chunks(build_graph(load_corpus(kb)), 5)) == 1
    assert [(f.attribute, f.value, f.value_type, f.source) for f in added] == [("founding year", "2014", "date", "llm")]
    assert report.refused == {"evidence not verbatim in the passage": 1, "value not in its evidence": 1}
    fact = added[0]
    text = load_corpus(kb).documents[0].text
    assert text[fact.start : fact.end] == fact.evidence
    assert fake.usage()["graph"].calls == 1
    assert kg.meta["enrichment"]["facts"] == 1


def test_enrichment_is_off_by_default_and_reported_when_on(kb: Path) -> None:
    fake = FakeLLM(reply)
    build_testset(kb, num=3, seed=1)
    assert fake.history == []
    outcome = build_testset(kb, num=3, seed=1, llm=None, enrich_chunks=5)  # no model: nothing to enrich with
    assert outcome.enrichment is None
    max_chunks = select_chunks(build_graph(load_corpus(kb)), 0)
    assert max_chunks == []
