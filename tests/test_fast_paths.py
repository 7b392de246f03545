"""The fast paths a large KB takes give what the general ones give.

A 50 MB document holds 1.7 million facts, so the build and the generator take shortcuts on their hot paths
(unvalidated node construction, bulk fact insertion, a token cache, lazy indexes, a sample of candidate facts).
Each test here builds the same thing both ways and compares.
"""

from __future__ import annotations

import gc
import random
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import testgen.kg.mining as mining
import testgen.synth.context as context_module
from schemas import EntityNode, FactNode
from testgen.categories._common import _rotated
from testgen.kg.build import build_graph, load_corpus
from testgen.kg.graph import KnowledgeGraph
from testgen.kg.mining import mine_document
from testgen.lang.scripts import CJK
from testgen.overlap import question_overlap
from testgen.pipeline import fewer_collections, no_collections
from testgen.synth.context import GenContext
from testgen.text import normalize, tokens

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "aurora_bikes"

_FIELDS: dict[str, object] = {
    "fact_id": "fact:1",
    "subject": "Aurora Bikes",
    "attribute": "Founded",
    "value": "2011",
    "value_type": "date",
    "date_key": "2011",
    "source": "key_value",
    "doc_id": "company/overview.md",
    "chunk_id": "c1",
    "evidence": "- **Founded**: 2011",
    "start": 0,
    "end": 19,
}


@pytest.fixture(scope="module")
def kg() -> KnowledgeGraph:
    return build_graph(load_corpus(EXAMPLE))


# ------------------------------------------------------------------------------------------- node models


def test_a_trusted_node_equals_a_validated_one_with_the_same_set_fields() -> None:
    validated = FactNode(**_FIELDS)  # type: ignore[arg-type]
    trusted = FactNode.trusted(**_FIELDS)
    assert trusted == validated
    assert trusted.model_dump() == validated.model_dump()
    assert trusted.model_fields_set == validated.model_fields_set
    assert trusted.__pydantic_fields_set__ is validated.__pydantic_fields_set__  # one shared set


def test_a_trusted_node_refuses_unknown_or_missing_fields_and_models_with_made_defaults() -> None:
    with pytest.raises(TypeError, match="unknown fields \\['colour'\\]"):
        FactNode.trusted(**_FIELDS, colour="red")
    missing = {k: v for k, v in _FIELDS.items() if k != "evidence"}
    with pytest.raises(TypeError, match="missing fields \\['evidence'\\]"):
        FactNode.trusted(**missing)
    with pytest.raises(TypeError, match="shared between nodes"):  # aliases: a list made per node
        EntityNode.trusted(entity_id="entity:a", name="A", entity_type="company")


def test_a_replaced_node_equals_model_copy() -> None:
    fact = FactNode(**_FIELDS)  # type: ignore[arg-type]
    update = {"subject_entity": "entity:aurora bikes", "value_entity": None}
    fast, slow = fact.replaced(update), fact.model_copy(update=update)
    assert fast == slow and fast.model_fields_set == slow.model_fields_set
    assert fast is not fact and fact.subject_entity is None


# ------------------------------------------------------------------------------------------- bulk facts


def _one_by_one(kg: KnowledgeGraph, facts: list[FactNode]) -> KnowledgeGraph:
    """The graph made node by node and edge by edge through the general methods."""
    out = KnowledgeGraph(meta=dict(kg.meta))
    for node in [*kg.documents(), *kg.chunks(), *kg.entities()]:
        out.add_node(node)
    for fact in facts:
        out.add_node(fact)
        if fact.chunk_id:
            out.add_edge("states", f"chunk:{fact.chunk_id}", fact.fact_id)
        if fact.subject_entity:
            out.add_edge("about", fact.fact_id, fact.subject_entity)
        if fact.value_entity:
            out.add_edge("has_value", fact.fact_id, fact.value_entity)
    return out


def _bulk(kg: KnowledgeGraph, facts: list[FactNode]) -> KnowledgeGraph:
    out = KnowledgeGraph(meta=dict(kg.meta))
    for node in [*kg.documents(), *kg.chunks(), *kg.entities()]:
        out.add_node(node)
    out.add_facts(facts)
    return out


def _edges(kg: KnowledgeGraph) -> list[tuple[str, str, str, float]]:
    return [(u, v, k, d["weight"]) for u, v, k, d in kg.graph.edges(keys=True, data=True)]


def test_bulk_facts_make_the_graph_one_by_one_insertion_makes(kg: KnowledgeGraph) -> None:
    facts = kg.facts()
    assert any(f.value_entity for f in facts) and any(f.subject_entity for f in facts)
    slow, fast = _one_by_one(kg, facts), _bulk(kg, facts)
    assert list(fast.graph.nodes) == list(slow.graph.nodes)
    assert _edges(fast) == _edges(slow)
    assert fast.to_dict() == slow.to_dict()


def test_bulk_facts_added_again_keep_one_node_and_one_edge_of_each_kind(kg: KnowledgeGraph) -> None:
    facts = kg.facts()
    twice = _bulk(kg, facts + facts[:5])
    assert _edges(twice) == _edges(_bulk(kg, facts))


def test_bulk_facts_check_their_chunks(kg: KnowledgeGraph) -> None:
    lost = FactNode(**{**_FIELDS, "chunk_id": "no-such-chunk"})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="needs a chunk node"):
        _bulk(kg, [lost])
    with pytest.raises(TypeError, match="not a fact node"):
        _bulk(kg, [kg.entities()[0]])  # type: ignore[list-item]


# ------------------------------------------------------------------------------------------- tokens, words


@pytest.mark.parametrize(
    "text",
    [
        "Aurora Bikes, founded in 2011, sells 3,700 e-bikes.",
        "O'Neill's café × 2 — naïve",
        "서울 지점 2023년",
        "東京 3月",
    ],
)
def test_tokens_are_the_ones_the_general_scan_finds(text: str) -> None:
    general = []
    latin = r"[a-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]+(?:['’][a-z]+)?"
    for match in re.finditer(rf"[0-9]+(?:[.,][0-9]+)*|{latin}|[{CJK}]+", normalize(text)):
        tok = match.group()
        if re.match(f"[{CJK}]", tok) and len(tok) > 1:
            general.extend(tok[i : i + 2] for i in range(len(tok) - 1))
        else:
            general.append(tok)
    assert tokens(text) == general


def test_the_vocabulary_holds_every_run_of_latin_letters_of_the_chunks(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text(
        "# Rock'n'roll Café\n\nO'Neill's shop opened in 2011 — naïve × clever, rock'n'roll.\n", encoding="utf-8"
    )
    ctx = GenContext.from_graph(build_graph(load_corpus(tmp_path)))
    expected = {run for norm in ctx.chunk_norm.values() for run in re.findall(r"[a-z]+", norm)}
    assert ctx.vocabulary == expected and {"neill", "roll", "caf", "na", "ve"} <= expected


def test_overlap_against_normalised_sources_is_the_overlap_against_raw_ones() -> None:
    raw = ["**Aurora Bikes** was founded in Tacoma in 2011.", "서울 지점은 2023년에 문을 열었다."]
    for question in ("When was Aurora Bikes founded?", "서울 지점은 언제 문을 열었나요?"):
        assert question_overlap(question, [normalize(t) for t in raw], normalized=True) == question_overlap(
            question, raw
        )


# ------------------------------------------------------------------------------------------- candidates


def _rotated_by_depth(facts: list[str], rng: random.Random) -> list[str]:
    """The rotation as first written: depth by depth, every group asked at every depth."""
    groups: dict[str, list[str]] = {}
    for fact in facts:
        groups.setdefault(fact[0], []).append(fact)
    order = sorted(groups)
    rng.shuffle(order)
    for name in order:
        rng.shuffle(groups[name])
    out: list[str] = []
    depth = 0
    while len(out) < len(facts):
        for name in order:
            if depth < len(groups[name]):
                out.append(groups[name][depth])
        depth += 1
    return out


@given(st.lists(st.text(alphabet="abcde", min_size=1, max_size=3), max_size=60), st.integers(0, 1000))
def test_the_rotation_over_groups_is_the_depth_by_depth_one(facts: list[str], seed: int) -> None:
    expected = _rotated_by_depth(facts, random.Random(seed))
    assert _rotated(facts, random.Random(seed), lambda f: f[0]) == expected  # type: ignore[arg-type]


def test_categories_draw_from_an_even_sample_of_a_very_large_kb(
    kg: KnowledgeGraph, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = GenContext.from_graph(kg)
    assert whole.candidate_facts == whole.facts  # a KB under the limit: every fact
    monkeypatch.setattr(context_module, "MAX_CANDIDATE_FACTS", 40)
    sampled = GenContext.from_graph(kg)
    assert sampled.facts == whole.facts  # the checks still read every fact
    assert 0 < len(sampled.candidate_facts) <= 40
    step = -(-len(whole.facts) // 40)
    assert sampled.candidate_facts == whole.facts[::step]


# ------------------------------------------------------------------------------------------- collector


def test_no_collections_while_the_graph_is_built_and_its_objects_left_out_after() -> None:
    assert gc.isenabled()
    before = gc.get_threshold()
    with fewer_collections():
        with no_collections():
            assert not gc.isenabled()
            made = [[i] for i in range(1000)]
        assert gc.isenabled() and gc.get_freeze_count() >= len(made)
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


def test_bulk_facts_keep_both_edges_to_an_entity_that_is_subject_and_value(kg: KnowledgeGraph) -> None:
    entity = kg.entities()[0].entity_id
    chunk = kg.chunks()[0].chunk_id
    own = FactNode(**{**_FIELDS, "chunk_id": chunk, "subject_entity": entity, "value_entity": entity})  # type: ignore[arg-type]
    fast, slow = _bulk(kg, [own]), _one_by_one(kg, [own])
    assert _edges(fast) == _edges(slow)
    assert {k for _, v, k in fast.graph.out_edges(own.fact_id, keys=True) if v == entity} == {"about", "has_value"}


# ------------------------------------------------------------------------------------------- split mining


def _long_document() -> str:
    parts = ["# Fleet Register\n\nThe register lists the fleet.\n"]
    for n in range(60):
        parts.append(
            f"## Orbit Model {n}\n\n- **Price**: ${1000 + n * 7:,}\n- **Launched**: March {n % 28 + 1}, 2019\n"
        )
        if n % 9 == 4:
            parts.append("```\n# not a heading\n- **Price**: $1\n```\n")
        parts.append(f"### Service\n\n| Year | Trips | Riders |\n|---|---|---|\n| 2021 | {n * 3} | {n * 11} |\n")
        parts.append(f"\nIn 2020 the model {n} carried {n * 13} riders, and on May 3, 2021 it opened a depot.\n")
    return "\n".join(parts)


def test_a_document_mined_in_two_processes_gives_the_facts_one_process_gives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "fleet.md").write_text(_long_document(), encoding="utf-8")
    corpus = load_corpus(tmp_path)
    doc = corpus.documents[0]
    one = mine_document(doc, corpus.chunks, frozenset())
    monkeypatch.setattr(mining, "SPLIT_DOCUMENT", 1_000)
    seen: list[int] = []
    two = mine_document(doc, corpus.chunks, frozenset(), progress=lambda done, total: seen.append(done), split=True)
    assert len(one.facts) > 300 and two.facts == one.facts and two.row_entities == one.row_entities
    assert [f.model_fields_set for f in two.facts] == [f.model_fields_set for f in one.facts]
    assert seen[-1] == len(doc.text)


def test_a_failed_child_leaves_the_rest_to_the_parent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "fleet.md").write_text(_long_document(), encoding="utf-8")
    corpus = load_corpus(tmp_path)
    doc = corpus.documents[0]
    one = mine_document(doc, corpus.chunks, frozenset())
    monkeypatch.setattr(mining, "SPLIT_DOCUMENT", 1_000)
    monkeypatch.setattr(mining.pickle, "dump", lambda *args, **kwargs: (_ for _ in ()).throw(OSError("disk")))
    assert mine_document(doc, corpus.chunks, frozenset(), split=True).facts == one.facts
