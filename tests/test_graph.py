"""The knowledge graph: typed nodes and edges, entities across documents, similarity, persistence."""

from __future__ import annotations

import gzip
import json
import random
from collections import defaultdict
from pathlib import Path

import networkx as nx
import pytest

from schemas import ChunkNode, DocumentNode, EntityNode, FactNode
from testgen.errors import GraphFormatError, UserInputError
from testgen.kg.build import build_graph, load_corpus
from testgen.kg.graph import FORMAT_VERSION, KnowledgeGraph
from testgen.kg.similarity import similar_pairs

KB = {
    "company/overview.md": """# Lumen Robotics

## Summary

Lumen Robotics builds light industrial robot arms for farms and small factories.

- **Founded**: May 4, 2015
- **Headquarters**: Tallinn
- **Employees**: 85 employees
- **CEO**: Kaia Tamm
""",
    "people/kaia_tamm.md": """# Kaia Tamm

## Summary

- **Title**: Chief Executive Officer
- **Joined**: May 4, 2015
- **Location**: Tallinn
- **Reports To**: Board of Directors

Kaia Tamm co-founded Lumen Robotics and sets the product roadmap.
""",
    "people/jonas_berg.md": """# Jonas Berg

## Summary

- **Title**: Product Manager
- **Manager**: Kaia Tamm
- **Joined**: March 1, 2019
- **Location**: Tartu

Jonas Berg owns the Orbit Arm and works with farm customers.
""",
    "products/orbit_arm.md": """# Orbit Arm

## Specifications

- **Price**: $12,500
- **Payload**: 5 kg
- **Product Owner**: Jonas Berg
- **Launched**: September 2020
""",
    "contracts/delta_farms.md": """# Contract with Delta Farms

## Terms

- **Client**: Delta Farms
- **Product**: Orbit Arm
- **Account Manager**: Jonas Berg
- **Annual Value**: $240,000
""",
}


def write_kb(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def kg(tmp_path_factory: pytest.TempPathFactory) -> KnowledgeGraph:
    root = write_kb(tmp_path_factory.mktemp("lumen"), KB)
    return build_graph(load_corpus(root))


def edges(kg: KnowledgeGraph, kind: str) -> set[tuple[str, str]]:
    return {(u, v) for u, v, k in kg.graph.edges(keys=True) if k == kind}


def fact_of(kg: KnowledgeGraph, doc_id: str, attribute: str) -> FactNode:
    [fact] = [f for f in kg.facts() if f.doc_id == doc_id and f.attribute == attribute]
    return fact


# ---------------------------------------------------------------------------------------------- typing


def test_every_node_is_a_typed_model(kg: KnowledgeGraph) -> None:
    models = {"document": DocumentNode, "chunk": ChunkNode, "entity": EntityNode, "fact": FactNode}
    for node_id, attrs in kg.graph.nodes(data=True):
        assert isinstance(attrs["data"], models[attrs["kind"]])
        assert KnowledgeGraph.node_id(attrs["data"]) == node_id
    assert {d.doc_id for d in kg.documents()} == set(KB)
    assert all(n.startswith("doc:") for n, a in kg.graph.nodes(data=True) if a["kind"] == "document")
    assert all(n.startswith("chunk:") for n, a in kg.graph.nodes(data=True) if a["kind"] == "chunk")


def test_edges_join_the_kinds_they_name(kg: KnowledgeGraph) -> None:
    ends = {
        "contains": ("document", "chunk"),
        "states": ("chunk", "fact"),
        "about": ("fact", "entity"),
        "has_value": ("fact", "entity"),
        "mentions": ("chunk", "entity"),
        "similar": ("chunk", "chunk"),
        "links": ("document", "document"),
    }
    seen = set()
    for u, v, k in kg.graph.edges(keys=True):
        assert (kg.graph.nodes[u]["kind"], kg.graph.nodes[v]["kind"]) == ends[k]
        seen.add(k)
    assert seen == set(ends)


def test_adding_an_edge_between_wrong_kinds_raises() -> None:
    g = KnowledgeGraph()
    doc = g.add_node(DocumentNode(doc_id="a.md", doc_type="root", title="A", language="en"))
    chunk = g.add_node(ChunkNode(chunk_id="c1", doc_id="a.md", index=0, start=0, end=1, heading_path=[], text="x"))
    entity = g.add_node(EntityNode(entity_id="entity:a", name="A", entity_type="root"))
    g.add_edge("contains", doc, chunk)
    with pytest.raises(ValueError, match="contains edge needs a document node"):
        g.add_edge("contains", chunk, doc)
    with pytest.raises(ValueError, match="mentions edge needs a chunk node, got 'document'"):
        g.add_edge("mentions", doc, entity)
    with pytest.raises(ValueError, match="got None"):
        g.add_edge("links", doc, "doc:missing.md")
    with pytest.raises(ValueError, match="unknown edge kind"):
        g.add_edge("likes", doc, doc)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        g.add_node(object())  # type: ignore[arg-type]
    assert [k for _, _, k in g.graph.edges(keys=True)] == ["contains"]


def test_one_edge_per_kind_between_two_nodes() -> None:
    g = KnowledgeGraph()
    a = g.add_node(ChunkNode(chunk_id="a", doc_id="x.md", index=0, start=0, end=1, heading_path=[], text="a"))
    b = g.add_node(ChunkNode(chunk_id="b", doc_id="x.md", index=1, start=1, end=2, heading_path=[], text="b"))
    g.add_edge("similar", a, b, 0.5)
    g.add_edge("similar", a, b, 0.7)  # replaces, keyed by kind
    assert g.graph.number_of_edges() == 1
    assert g.graph.edges[a, b, "similar"]["weight"] == 0.7
    assert g.neighbours(a, "similar") == [b]
    assert g.neighbours(b, "similar", reverse=True) == [a]


# ---------------------------------------------------------------------------------------------- entities


def test_entities_come_from_titles_and_recurring_values(kg: KnowledgeGraph) -> None:
    entities = {e.entity_id: e for e in kg.entities()}
    assert entities["entity:kaia tamm"].home_doc == "people/kaia_tamm.md"
    assert entities["entity:kaia tamm"].entity_type == "people"
    assert entities["entity:orbit arm"].home_doc == "products/orbit_arm.md"
    assert entities["entity:lumen robotics"].entity_type == "company"
    assert entities["entity:contract with delta farms"].name == "Contract with Delta Farms"
    # "Tallinn" is the value of two key-value lines in two documents: an entity without a page.
    assert entities["entity:tallinn"].home_doc is None
    # "Tartu" and "Delta Farms" appear once: not entities.
    assert "entity:tartu" not in entities
    assert "entity:delta farms" not in entities


def test_person_named_in_another_document_resolves(kg: KnowledgeGraph) -> None:
    ceo = fact_of(kg, "company/overview.md", "CEO")
    assert (ceo.value, ceo.value_entity) == ("Kaia Tamm", "entity:kaia tamm")
    assert ceo.subject_entity == "entity:lumen robotics"
    manager = fact_of(kg, "people/jonas_berg.md", "Manager")
    assert manager.value_entity == "entity:kaia tamm"
    product = fact_of(kg, "contracts/delta_farms.md", "Product")
    assert product.value_entity == "entity:orbit arm"
    assert fact_of(kg, "people/jonas_berg.md", "Title").value_entity is None
    assert (ceo.fact_id, "entity:kaia tamm") in edges(kg, "has_value")
    assert (manager.fact_id, "entity:kaia tamm") in edges(kg, "has_value")
    assert (ceo.fact_id, "entity:lumen robotics") in edges(kg, "about")


def test_every_fact_is_stated_by_its_chunk_and_about_its_subject(kg: KnowledgeGraph) -> None:
    states = edges(kg, "states")
    about = edges(kg, "about")
    for fact in kg.facts():
        assert (f"chunk:{fact.chunk_id}", fact.fact_id) in states
        assert fact.subject_entity is not None
        assert (fact.fact_id, fact.subject_entity) in about
        chunk = kg.get(f"chunk:{fact.chunk_id}")
        assert chunk.doc_id == fact.doc_id


def test_mentions_and_links(kg: KnowledgeGraph) -> None:
    chunk_doc = {f"chunk:{c.chunk_id}": c.doc_id for c in kg.chunks()}
    mentioned: dict[str, set[str]] = defaultdict(set)
    for chunk, entity in edges(kg, "mentions"):
        mentioned[chunk_doc[chunk]].add(entity)
    assert "entity:lumen robotics" in mentioned["people/kaia_tamm.md"]
    assert {"entity:orbit arm", "entity:kaia tamm"} <= mentioned["people/jonas_berg.md"]
    assert {"entity:orbit arm", "entity:jonas berg"} <= mentioned["contracts/delta_farms.md"]
    links = edges(kg, "links")
    assert ("doc:people/kaia_tamm.md", "doc:company/overview.md") in links
    assert ("doc:company/overview.md", "doc:people/kaia_tamm.md") in links
    assert ("doc:contracts/delta_farms.md", "doc:products/orbit_arm.md") in links
    assert ("doc:contracts/delta_farms.md", "doc:people/jonas_berg.md") in links
    assert ("doc:products/orbit_arm.md", "doc:people/jonas_berg.md") in links
    assert all(u != v for u, v in links)
    # Nobody mentions the contract: no document links to it.
    assert not any(v == "doc:contracts/delta_farms.md" for _, v in links)
    # mention counts are the weights of the edges
    for _, _, k, d in kg.graph.edges(keys=True, data=True):
        if k in ("mentions", "links"):
            assert d["weight"] >= 1.0


def test_each_chunk_belongs_to_one_document(kg: KnowledgeGraph) -> None:
    contains = edges(kg, "contains")
    for chunk in kg.chunks():
        assert [u for u, v in contains if v == f"chunk:{chunk.chunk_id}"] == [f"doc:{chunk.doc_id}"]


# -------------------------------------------------------------------------------------------- similarity


def random_texts(seed: int, n: int, vocab_size: int = 120, words: int = 25) -> list[str]:
    rng = random.Random(seed)
    vocab = [f"w{i}x" for i in range(vocab_size)]
    return [" ".join(rng.choice(vocab) for _ in range(words)) for _ in range(n)]


def assert_top_k(pairs: list[tuple[int, int, float]], k: int) -> None:
    """Every returned pair is among the k best of at least one of its two ends."""
    scores: dict[int, list[float]] = defaultdict(list)
    for i, j, s in pairs:
        assert i < j
        scores[i].append(s)
        scores[j].append(s)
    for i, j, s in pairs:
        better_i = sum(1 for t in scores[i] if t > s + 1e-6)
        better_j = sum(1 for t in scores[j] if t > s + 1e-6)
        assert better_i < k or better_j < k, (i, j, s)


@pytest.mark.parametrize(("seed", "k"), [(1, 1), (2, 3), (3, 5)])
def test_similar_pairs_are_top_k(seed: int, k: int) -> None:
    texts = random_texts(seed, 60)
    pairs = similar_pairs(texts, k=k)
    assert pairs
    assert len(pairs) <= len(texts) * k
    assert len({(i, j) for i, j, _ in pairs}) == len(pairs)
    assert all(0 < s <= 1.0 + 1e-9 for _, _, s in pairs)
    assert pairs == sorted(pairs)
    assert_top_k(pairs, k)
    # most texts found a neighbour
    assert len({i for i, _, _ in pairs} | {j for _, j, _ in pairs}) > len(texts) // 2


def test_similar_pairs_never_all_pairs_on_a_larger_corpus() -> None:
    texts = random_texts(7, 400, vocab_size=300, words=30)
    k = 5
    pairs = similar_pairs(texts, k=k)
    all_pairs = len(texts) * (len(texts) - 1) // 2
    assert len(pairs) <= len(texts) * k
    assert len(pairs) < all_pairs / 10
    assert_top_k(pairs, k)


def test_similar_pairs_is_deterministic_and_finds_the_obvious_neighbour() -> None:
    texts = [
        "orbit arm payload price warranty",
        "orbit arm payload price launch",
        "delta farms contract annual value",
        "delta farms contract account manager",
        "unrelated words entirely here",
    ]
    pairs = similar_pairs(texts, k=1)
    assert pairs == similar_pairs(texts, k=1)
    linked = {(i, j) for i, j, _ in pairs}
    assert (0, 1) in linked
    assert (2, 3) in linked
    assert not any(4 in p for p in linked)


def test_similar_pairs_edge_cases() -> None:
    assert similar_pairs([]) == []
    assert similar_pairs(["only one"]) == []
    assert similar_pairs(["a b", "a b"], k=0) == []
    assert similar_pairs(["alpha", "beta", "gamma"]) == []  # nothing shared


def test_graph_similar_edges_are_top_k(kg: KnowledgeGraph) -> None:
    chunks = kg.chunks()
    index = {f"chunk:{c.chunk_id}": i for i, c in enumerate(chunks)}
    pairs = sorted(
        (min(index[u], index[v]), max(index[u], index[v]), d["weight"])
        for u, v, k, d in kg.graph.edges(keys=True, data=True)
        if k == "similar"
    )
    assert pairs
    assert_top_k(pairs, 5)


# ------------------------------------------------------------------------------------------- persistence


def test_save_load_round_trip(kg: KnowledgeGraph, tmp_path: Path) -> None:
    for name in ("g.kg.json", "g.kg.json.gz"):
        path = kg.save(tmp_path / name)
        loaded = KnowledgeGraph.load(path)
        assert loaded.to_dict() == kg.to_dict()
        assert loaded.stats() == kg.stats()
        assert loaded.facts() == kg.facts()
    raw = json.loads((tmp_path / "g.kg.json").read_text(encoding="utf-8"))
    assert (raw["format"], raw["version"]) == ("testgen-kg", FORMAT_VERSION)
    assert raw["meta"]["documents"] == 5
    assert len(raw["meta"]["kb_fingerprint"]) == 16
    with gzip.open(tmp_path / "g.kg.json.gz", "rt", encoding="utf-8") as fh:
        assert json.load(fh) == raw


def test_save_is_byte_stable(kg: KnowledgeGraph, tmp_path: Path) -> None:
    a = kg.save(tmp_path / "a.json").read_bytes()
    b = KnowledgeGraph.load(tmp_path / "a.json").save(tmp_path / "b.json").read_bytes()
    assert a == b


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("{not json", "cannot read knowledge graph"),
        ("[1, 2]", "not a knowledge-graph file"),
        ('{"format": "other"}', "not a knowledge-graph file"),
        ('{"format": "testgen-kg", "version": 99, "nodes": [], "edges": []}', "version 99 is not supported"),
        ('{"format": "testgen-kg", "version": 1, "nodes": [{"kind": "planet"}], "edges": []}', "invalid"),
        ('{"format": "testgen-kg", "version": 1, "nodes": [{"kind": "entity"}], "edges": []}', "invalid"),
        ('{"format": "testgen-kg", "version": 1, "nodes": []}', "invalid"),
        (
            '{"format": "testgen-kg", "version": 1, "nodes": [], '
            '"edges": [{"kind": "links", "source": "doc:a", "target": "doc:b"}]}',
            "invalid",
        ),
    ],
)
def test_corrupt_graph_file_raises(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "bad.kg.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(GraphFormatError, match=message) as info:
        KnowledgeGraph.load(path)
    assert str(path) in str(info.value)
    assert isinstance(info.value, UserInputError)


def test_missing_or_non_gzip_graph_file_raises(tmp_path: Path) -> None:
    with pytest.raises(GraphFormatError, match="cannot read"):
        KnowledgeGraph.load(tmp_path / "missing.kg.json")
    (tmp_path / "plain.json.gz").write_text('{"format": "testgen-kg"}', encoding="utf-8")
    with pytest.raises(GraphFormatError, match="cannot read"):
        KnowledgeGraph.load(tmp_path / "plain.json.gz")


def test_truncated_gzip_graph_file_raises(kg: KnowledgeGraph, tmp_path: Path) -> None:
    good = kg.save(tmp_path / "g.json.gz").read_bytes()
    (tmp_path / "cut.json.gz").write_bytes(good[: len(good) // 2])
    with pytest.raises(GraphFormatError):
        KnowledgeGraph.load(tmp_path / "cut.json.gz")


def test_graphml_export_reads_back(kg: KnowledgeGraph, tmp_path: Path) -> None:
    path = kg.export_graphml(tmp_path / "g.graphml")
    read = nx.read_graphml(path)
    assert set(read.nodes) == set(kg.graph.nodes)
    assert read.number_of_edges() == kg.graph.number_of_edges()
    assert read.nodes["doc:company/overview.md"]["title"] == "Lumen Robotics"
    assert read.nodes["entity:kaia tamm"]["kind"] == "entity"
    fact = fact_of(kg, "company/overview.md", "CEO")
    assert read.nodes[fact.fact_id]["value"] == "Kaia Tamm"
    chunk = kg.chunks()[0]
    assert read.nodes[f"chunk:{chunk.chunk_id}"]["heading_path"] == " / ".join(chunk.heading_path)
    kinds = {d["kind"] for _, _, d in read.edges(data=True)}
    assert kinds == {"contains", "states", "about", "has_value", "mentions", "similar", "links"}


def test_stats_counts(kg: KnowledgeGraph) -> None:
    stats = kg.stats()
    assert stats["nodes"] == {
        "chunk": len(kg.chunks()),
        "document": 5,
        "entity": len(kg.entities()),
        "fact": 20,
    }
    assert stats["nodes"]["chunk"] == 5  # each tiny document is one chunk
    assert stats["facts_by_source"] == {"key_value": 20}
    assert stats["facts_by_value_type"] == {"date": 4, "money": 2, "number": 2, "text": 12}
    assert stats["facts_per_document"] == dict.fromkeys(sorted(KB), 4)
    assert stats["edges"]["states"] == stats["edges"]["about"] == 20
    assert stats["edges"]["contains"] == 5
    assert stats["edges"]["has_value"] == sum(1 for f in kg.facts() if f.value_entity)
    for kind, count in stats["edges"].items():
        assert count == len(edges(kg, kind))
    assert list(stats["nodes"]) == sorted(stats["nodes"])


def test_build_is_deterministic(tmp_path: Path) -> None:
    root = write_kb(tmp_path / "kb", KB)
    first = build_graph(load_corpus(root))
    second = build_graph(load_corpus(root))
    assert first.to_dict() == second.to_dict()


def test_progress_is_reported(tmp_path: Path) -> None:
    root = write_kb(tmp_path / "kb", KB)
    calls: list[tuple[str, int, int]] = []
    build_graph(load_corpus(root), progress=lambda stage, done, total: calls.append((stage, done, total)))
    assert ("mining facts", 5, 5) in calls
    assert ("relating chunks", 1, 1) in calls


def test_a_yes_or_no_that_recurs_is_no_entity(tmp_path: Path) -> None:
    kb = {
        "plans/basic.md": "# Basic Cover\n\n- **Refundable**: Yes\n- **Partner**: Harbor Mutual\n",
        "plans/plus.md": "# Plus Cover\n\n- **Refundable**: No\n- **Partner**: Harbor Mutual\n",
        "plans/max.md": "# Max Cover\n\n- **Refundable**: Yes\n- **Transferable**: No\n",
    }
    for path, text in kb.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    names = {e.name for e in build_graph(load_corpus(tmp_path)).entities()}
    assert "Harbor Mutual" in names  # a name that recurs is an entity …
    assert not names & {"Yes", "No"}  # … a verdict that recurs is not


def test_a_page_titled_by_its_kind_is_not_given_to_the_thing_it_names_most(tmp_path: Path) -> None:
    root = write_kb(
        tmp_path,
        {
            "products/AF-300.md": "# AF-300\n\n- 용량: 3.0 L\n- 무게: 3.1 kg\n",
            "company/연혁.md": "# 연혁\n\n- 2017.04 바삭 미니(AF-300) 출시\n- 2023.12 바삭 미니(AF-300) 단종\n\n"
            "| 연도 | 연말 임직원 수 (명) |\n|---|---:|\n| 2012 | 31 |\n| 2015 | 104 |\n",
        },
    )
    kg = build_graph(load_corpus(root))
    staff = [f for f in kg.facts() if f.doc_id == "company/연혁.md" and "임직원" in f.attribute]
    assert staff
    assert all(f.subject_entity != "entity:af-300" for f in staff)  # the company's headcount, not the fryer's
