"""The knowledge graph's compact storage: shared field-name sets, shared edge dicts, pooled fact fields.

A large KB's graph holds hundreds of thousands of facts, so what is kept per fact is made small (see
`testgen.kg.graph` and `schemas._graph`); these tests check that the compaction changes nothing a reader sees.
"""

from __future__ import annotations

import copy
import pickle
from pathlib import Path

import networkx as nx
import pytest

from schemas import ChunkNode, DocumentNode, EntityNode, FactNode
from testgen.kg.build import build_graph, load_corpus
from testgen.kg.entities import EntityIndex, attach_entities
from testgen.kg.graph import KnowledgeGraph

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "aurora_bikes"


def _fact(**changes: object) -> FactNode:
    fields: dict[str, object] = {
        "fact_id": "fact:1",
        "subject": "Aurora Bikes",
        "attribute": "Founded",
        "value": "2011",
        "value_type": "date",
        "source": "key_value",
        "doc_id": "company/overview.md",
        "chunk_id": "c1",
        "evidence": "- **Founded**: 2011",
        "start": 0,
        "end": 19,
    }
    fields.update(changes)
    return FactNode(**fields)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def kg() -> KnowledgeGraph:
    return build_graph(load_corpus(EXAMPLE))


# ------------------------------------------------------------------------------------------ field-name sets


def test_nodes_given_the_same_fields_share_one_set_of_their_names() -> None:
    a, b = _fact(), _fact(fact_id="fact:2", value="2012")
    assert a.model_fields_set == b.model_fields_set
    assert a.__pydantic_fields_set__ is b.__pydantic_fields_set__
    c = _fact(unit="years")
    assert c.model_fields_set == a.model_fields_set | {"unit"}
    assert c.__pydantic_fields_set__ is not a.__pydantic_fields_set__


def test_a_copy_records_its_updated_fields_without_changing_the_shared_set() -> None:
    a = _fact()
    before = set(a.model_fields_set)
    copied = a.model_copy(update={"subject_entity": "entity:aurora bikes"})
    assert copied.subject_entity == "entity:aurora bikes"
    assert copied.model_fields_set == before | {"subject_entity"}
    assert a.model_fields_set == before  # the original's (shared) set is untouched
    assert _fact().model_fields_set == before
    assert copied.model_dump(exclude_unset=True) == a.model_dump(exclude_unset=True) | {
        "subject_entity": "entity:aurora bikes"
    }


def test_a_set_given_to_model_construct_is_not_the_one_shared() -> None:
    mine = {"doc_id", "doc_type", "title", "language"}
    node = DocumentNode.model_construct(_fields_set=mine, doc_id="a", doc_type="root", title="A", language="en")
    mine.add("kind")
    assert node.model_fields_set == {"doc_id", "doc_type", "title", "language"}


def test_nodes_stay_frozen_and_pickle() -> None:
    fact = _fact()
    with pytest.raises(ValueError):
        fact.subject = "other"  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(fact)) == fact
    assert copy.deepcopy(fact) == fact


# --------------------------------------------------------------------------------------------- the graph


def _two_chunks() -> tuple[KnowledgeGraph, str, str]:
    g = KnowledgeGraph()
    a = g.add_node(ChunkNode(chunk_id="a", doc_id="x.md", index=0, start=0, end=1, heading_path=[], text="a"))
    b = g.add_node(ChunkNode(chunk_id="b", doc_id="x.md", index=1, start=1, end=2, heading_path=[], text="b"))
    return g, a, b


def test_edges_saying_the_same_thing_share_their_dicts(kg: KnowledgeGraph) -> None:
    graph = kg.graph
    states = [(u, v) for u, v, k in graph.edges(keys=True) if k == "states"]
    assert len(states) > 2
    keydicts = {id(graph._succ[u][v]) for u, v in states}  # (graph.succ[u][v] is a view made per call)
    datadicts = {id(graph.edges[u, v, "states"]) for u, v in states}
    assert len(keydicts) == len(datadicts) == 1
    assert dict(graph.edges[states[0][0], states[0][1], "states"]) == {"kind": "states", "weight": 1.0}


def test_edge_attributes_are_read_only_and_changed_through_add_edge() -> None:
    g, a, b = _two_chunks()
    g.add_edge("similar", a, b, 0.5)
    with pytest.raises(TypeError, match="read-only"):
        g.graph.edges[a, b, "similar"]["weight"] = 0.9
    with pytest.raises(TypeError, match="read-only"):
        g.graph._succ[a][b]["similar"] = {}  # networkx's own add_edge does this
    g.add_edge("similar", a, b, 0.7)
    assert g.graph.edges[a, b, "similar"]["weight"] == 0.7
    assert g.graph.number_of_edges() == 1


def test_two_kinds_between_the_same_nodes_keep_their_order_and_do_not_leak() -> None:
    g = KnowledgeGraph()
    g.add_node(EntityNode(entity_id="entity:x", name="X", entity_type="company"))
    g.add_node(EntityNode(entity_id="entity:y", name="Y", entity_type="company"))
    for n in (1, 2):
        g.add_node(_fact(fact_id=f"fact:{n}"))
    g.add_edge("about", "fact:1", "entity:x")
    g.add_edge("has_value", "fact:1", "entity:x")
    g.add_edge("about", "fact:2", "entity:x")  # shares the one-kind key dict fact:1 had before
    assert [k for _, _, k in g.graph.edges(keys=True)] == ["about", "has_value", "about"]
    assert list(g.graph.succ["fact:2"]["entity:x"]) == ["about"]
    assert g.neighbours("entity:x", "has_value", reverse=True) == ["fact:1"]


def test_edges_refer_to_the_id_objects_the_graph_holds() -> None:
    g, a, b = _two_chunks()
    g.add_edge("similar", "".join(["chunk:", "a"]), "".join(["chunk:", "b"]), 0.5)
    [(u, v)] = [(u, v) for u, v in g.graph.edges()]
    assert u is a and v is b
    assert next(iter(g.graph.pred[b])) is a


def test_node_attributes_read_like_a_dict(kg: KnowledgeGraph) -> None:
    node_id, attrs = next(iter(kg.graph.nodes(data=True)))
    assert set(attrs) == {"kind", "data"} and len(attrs) == 2
    assert dict(attrs) == {"kind": attrs["data"].kind, "data": attrs["data"]}
    assert attrs.get("missing") is None
    assert kg.graph.nodes[node_id]["kind"] == kg.graph.nodes(data="kind")[node_id]
    with pytest.raises(KeyError):
        attrs["missing"]


def test_the_graph_copies_pickles_and_works_with_networkx(kg: KnowledgeGraph) -> None:
    plain = kg.graph.copy()
    assert sorted(plain.edges(keys=True)) == sorted(kg.graph.edges(keys=True))
    u, v, k = next(iter(plain.edges(keys=True)))
    plain.edges[u, v, k]["weight"] = 2.0  # a copy is a plain networkx graph of its own
    assert kg.graph.edges[u, v, k]["weight"] == 1.0
    for other in (pickle.loads(pickle.dumps(kg)), copy.deepcopy(kg)):
        assert other.to_dict() == kg.to_dict()
        doc = next(d for d in other.documents())
        other.add_edge("links", f"doc:{doc.doc_id}", f"doc:{doc.doc_id}", 3)  # still writable after the trip
        assert other.graph.number_of_edges() == kg.graph.number_of_edges() + 1
    assert nx.number_weakly_connected_components(kg.graph) >= 1


def test_a_graph_given_by_the_caller_accepts_new_edges() -> None:
    graph = nx.MultiDiGraph()
    doc = DocumentNode(doc_id="a.md", doc_type="root", title="A", language="en")
    graph.add_node("doc:a.md", kind="document", data=doc)
    g = KnowledgeGraph(graph)
    chunk = g.add_node(ChunkNode(chunk_id="a", doc_id="a.md", index=0, start=0, end=1, heading_path=[], text="a"))
    g.add_edge("contains", "doc:a.md", chunk)
    assert g.neighbours("doc:a.md", "contains") == [chunk]
    with pytest.raises(ValueError, match="needs a document node"):
        g.add_edge("contains", chunk, chunk)


# ------------------------------------------------------------------------------------------- pooled facts


def test_pooled_facts_equal_unpooled_ones_and_share_their_repeated_fields() -> None:
    index = EntityIndex()
    key = index.add("Aurora Bikes", "company", "company/overview.md")

    def text(*parts: str) -> str:  # equal texts, distinct objects (as separate lines make them)
        return "".join(parts)

    facts = [
        _fact(fact_id=f"fact:{n}", attribute=text("Re", "venue"), value=text("Act", "ive"), value_type="text")
        for n in "ab"
    ]
    assert facts[0].attribute is not facts[1].attribute and facts[0].value is not facts[1].value
    plain = attach_entities(facts, index, key)
    pooled = attach_entities(facts, index, key, {key: key})
    assert pooled == plain
    assert [f.model_fields_set for f in pooled] == [f.model_fields_set for f in plain]
    a, b = pooled
    assert a.attribute is b.attribute and a.value is b.value
    assert a.subject_entity is key  # the entity id object the graph holds


def test_filled_in_facts_are_the_mined_objects_and_equal_copied_ones() -> None:
    index = EntityIndex()
    key = index.add("Aurora Bikes", "company", "company/overview.md")
    copied = attach_entities([_fact()], index, key, {})
    mined = [_fact()]
    filled = attach_entities(mined, index, key, {}, in_place=True)
    assert filled[0] is mined[0] and filled == copied
    assert filled[0].subject_entity == key and filled[0].model_fields_set == copied[0].model_fields_set


def test_the_cells_of_a_table_row_share_their_line(tmp_path: Path) -> None:
    (tmp_path / "fleet.md").write_text(
        "# Fleet\n\n| Model | Range | Weight |\n|---|---|---|\n| Orbit 500 | 80 km | 24 kg |\n", encoding="utf-8"
    )
    facts = [f for f in build_graph(load_corpus(tmp_path)).facts() if f.evidence.startswith("| Orbit")]
    assert len(facts) == 2
    assert facts[0].evidence is facts[1].evidence and facts[0].start is facts[1].start
