"""The knowledge graph: a networkx MultiDiGraph whose nodes and edges are typed and validated on insert.

Nodes carry one of the models of `schemas._graph` under the attribute ``data``; edges carry their kind as
the multigraph key, so a chunk can both *mention* an entity and be *similar* to another chunk without one
edge hiding another. Saved as versioned node-link JSON; exported to GraphML for graph tools.

A large KB's graph holds a node and two or three edges per fact, hundreds of thousands of them, so what
networkx keeps per node and edge is made compact when `KnowledgeGraph` inserts it (networkx's own
``add_node``/``add_edge`` would make a dict for every node's attributes, every edge's attributes and every
pair's edge keys): a node's attributes are a two-slot read-only mapping, and the attribute and key mappings of
edges that say the same thing (every ``states`` edge, every ``mentions`` edge counted twice, ...) are one
shared read-only dict. Readers see the same networkx graph; edge attributes are changed by adding the edge
again through `KnowledgeGraph.add_edge`, not in place.
"""

from __future__ import annotations

import gzip
import json
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import networkx as nx
from pydantic import BaseModel, ValidationError

from schemas import ChunkNode, DocumentNode, EdgeKind, EntityNode, FactNode
from testgen.errors import GraphFormatError

FORMAT_VERSION = 1
_NODE_MODELS: dict[str, type[BaseModel]] = {
    "document": DocumentNode,
    "chunk": ChunkNode,
    "entity": EntityNode,
    "fact": FactNode,
}
_EDGE_ENDS: dict[str, tuple[str, str]] = {
    "contains": ("document", "chunk"),
    "states": ("chunk", "fact"),
    "about": ("fact", "entity"),
    "has_value": ("fact", "entity"),
    "mentions": ("chunk", "entity"),
    "similar": ("chunk", "chunk"),
    "links": ("document", "document"),
}
N = TypeVar("N", bound=BaseModel)
GraphNode = DocumentNode | ChunkNode | EntityNode | FactNode


class _NodeAttrs(Mapping[str, Any]):
    """A node's networkx attributes, ``{"kind": ..., "data": model}``, in two slots instead of a dict.

    It also holds the node's id as the graph stores it, so edges added later with an equal string built
    elsewhere (``f"chunk:{id}"``) refer to that one object instead of keeping copies of their own."""

    __slots__ = ("data", "node_id")

    def __init__(self, node_id: str, data: GraphNode) -> None:
        self.node_id = node_id
        self.data = data

    def __getitem__(self, key: str) -> Any:
        if key == "data":
            return self.data
        if key == "kind":
            return self.data.kind
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(("kind", "data"))

    def __len__(self) -> int:
        return 2

    def copy(self) -> dict[str, Any]:
        """A plain dict of the attributes (what networkx's ``Graph.copy`` asks each node for)."""
        return dict(self)

    def __repr__(self) -> str:
        return repr(dict(self))


class _ReadOnlyDict(dict[str, Any]):
    """A dict that may be shared by many edges, so it refuses changes in place (and pickles as a dict)."""

    __slots__ = ()

    def _read_only(self, *args: object, **kwargs: object) -> NoReturn:
        raise TypeError(
            "edge attributes of a KnowledgeGraph are shared between edges and read-only; "
            "use KnowledgeGraph.add_edge to change an edge"
        )

    __setitem__ = __delitem__ = __ior__ = _read_only
    update = pop = popitem = clear = setdefault = _read_only

    def copy(self) -> dict[str, Any]:
        return dict(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_ReadOnlyDict, (dict(self),))


class KnowledgeGraph:
    """Typed facade over a networkx graph. Node ids: ``doc:<doc_id>``, ``chunk:<id>``, ``entity:…``, ``fact:…``."""

    def __init__(self, graph: nx.MultiDiGraph | None = None, meta: dict[str, Any] | None = None) -> None:
        self.graph: nx.MultiDiGraph = graph if graph is not None else nx.MultiDiGraph()
        self.meta: dict[str, Any] = meta or {}
        # Shared edge attribute dicts by (kind, weight) and edge key dicts by their content (see module doc).
        self._edge_data: dict[tuple[str, float], _ReadOnlyDict] = {}
        self._edge_keys: dict[tuple[tuple[str, float], ...], _ReadOnlyDict] = {}
        self._single: dict[str, _ReadOnlyDict] = {}  # edge kind → the key dict of a pair's one edge of weight 1

    # -- insertion ---------------------------------------------------------------------------------
    @staticmethod
    def node_id(node: BaseModel) -> str:
        """The graph id of a node model."""
        if isinstance(node, DocumentNode):
            return f"doc:{node.doc_id}"
        if isinstance(node, ChunkNode):
            return f"chunk:{node.chunk_id}"
        if isinstance(node, EntityNode):
            return node.entity_id
        if isinstance(node, FactNode):
            return node.fact_id
        raise TypeError(f"not a graph node model: {type(node).__name__}")

    def add_node(self, node: GraphNode) -> str:
        """Add (or replace) a typed node and return its id."""
        if type(node) not in _NODE_MODELS.values():
            raise TypeError(f"not a graph node model: {type(node).__name__}")
        node_id = self.node_id(node)
        graph = self.graph
        # What nx.MultiDiGraph.add_node does, with the compact attributes (same node order).
        if node_id not in graph._succ:
            graph._succ[node_id] = graph.adjlist_inner_dict_factory()
            graph._pred[node_id] = graph.adjlist_inner_dict_factory()
        graph._node[node_id] = _NodeAttrs(node_id, node)
        _clear_cache(graph)
        return node_id

    def add_facts(self, facts: Iterable[FactNode]) -> None:
        """Fact nodes, each followed by its ``states`` edge from its chunk and its ``about`` and ``has_value`` edges
        to its entities: what `add_node` and `add_edge` make, fact by fact, with each chunk and entity checked once
        (a build adds millions of facts)."""
        graph = self.graph
        succ, pred, nodes, factory = graph._succ, graph._pred, graph._node, graph.adjlist_inner_dict_factory
        states, about, has_value = (self._single_edge(kind) for kind in ("states", "about", "has_value"))
        chunks: dict[str, str] = {}  # chunk id → the graph's own id of its node, checked
        entities: dict[str, str] = {}  # entity id → the graph's own id, checked
        for fact in facts:
            if type(fact) is not FactNode:
                raise TypeError(f"not a fact node: {type(fact).__name__}")
            fact_id = fact.fact_id
            if fact_id in succ:  # a fact added again: its edges may exist, the general path merges them
                self.add_node(fact)
                self._fact_edges(fact)
                continue
            out: dict[str, Any] = factory()
            into: dict[str, Any] = factory()
            succ[fact_id], pred[fact_id], nodes[fact_id] = out, into, _NodeAttrs(fact_id, fact)
            if fact.chunk_id:  # a new fact has no edge yet: each pair below is a first one
                chunk = chunks.get(fact.chunk_id) or chunks.setdefault(
                    fact.chunk_id, self._end("states", f"chunk:{fact.chunk_id}", "chunk")
                )
                succ[chunk][fact_id] = into[chunk] = states
            if fact.subject_entity:
                subject = entities.get(fact.subject_entity) or entities.setdefault(
                    fact.subject_entity, self._end("about", fact.subject_entity, "entity")
                )
                out[subject] = pred[subject][fact_id] = about
            if fact.value_entity:
                value = entities.get(fact.value_entity) or entities.setdefault(
                    fact.value_entity, self._end("has_value", fact.value_entity, "entity")
                )
                if value in out:  # its own subject as its value: both kinds on one pair
                    self.add_edge("has_value", fact_id, value)
                else:
                    out[value] = pred[value][fact_id] = has_value
        _clear_cache(graph)

    def _fact_edges(self, fact: FactNode) -> None:
        if fact.chunk_id:
            self.add_edge("states", f"chunk:{fact.chunk_id}", fact.fact_id)
        if fact.subject_entity:
            self.add_edge("about", fact.fact_id, fact.subject_entity)
        if fact.value_entity:
            self.add_edge("has_value", fact.fact_id, fact.value_entity)

    def _single_edge(self, kind: str) -> _ReadOnlyDict:
        """The key dict of a pair's one edge of a kind, of weight 1 (shared)."""
        keydict = self._single.get(kind)
        if keydict is None:
            keydict = self._single[kind] = self._keys({kind: self._data(kind, 1.0)})
        return keydict

    def add_edge(self, kind: EdgeKind, source: str, target: str, weight: float = 1.0) -> None:
        """Add a typed edge; both ends must exist and be of the kinds the edge kind connects."""
        ends = _EDGE_ENDS.get(kind)
        if ends is None:
            raise ValueError(f"unknown edge kind {kind!r}")
        graph = self.graph
        u = self._end(kind, source, ends[0])
        v = self._end(kind, target, ends[1])
        # What nx.MultiDiGraph.add_edge(u, v, key=kind, kind=kind, weight=weight) does (same edge order), with
        # shared read-only attribute and key dicts: a pair's key dict is replaced, never changed in place.
        keys = graph._succ[u].get(v)
        if keys is None and weight == 1.0:  # the common case: a first edge between the two, a count of one
            keydict = self._single_edge(kind)
            graph._succ[u][v] = keydict
            graph._pred[v][u] = keydict
            _clear_cache(graph)
            return
        data = self._data(kind, float(weight))
        if keys is None:
            keydict = self._keys({kind: data})
        else:
            updated = dict(keys)
            updated[kind] = data
            keydict = self._keys(updated)
        graph._succ[u][v] = keydict
        graph._pred[v][u] = keydict
        _clear_cache(graph)

    def _end(self, kind: str, node_id: str, expected: str) -> str:
        """The graph's own id string of an edge's end, after checking the node is of the expected kind."""
        attrs = self.graph._node.get(node_id)
        actual: str | None
        if type(attrs) is _NodeAttrs:
            actual = attrs.data.kind
            if actual == expected:
                return attrs.node_id
        else:
            actual = None if attrs is None else attrs.get("kind")
            if actual == expected:
                return node_id
        raise ValueError(f"{kind} edge needs a {expected} node, got {actual!r} for {node_id!r}")

    def _data(self, kind: str, weight: float) -> _ReadOnlyDict:
        """The attribute dict of an edge: shared when the weight is a count (1.0 for most kinds)."""
        if not (weight > 0 and weight.is_integer()):  # similarity scores: one of their own
            return _ReadOnlyDict(kind=kind, weight=weight)
        data = self._edge_data.get((kind, weight))
        if data is None:
            data = self._edge_data[(kind, weight)] = _ReadOnlyDict(kind=kind, weight=weight)
        return data

    def _keys(self, keys: dict[str, _ReadOnlyDict]) -> _ReadOnlyDict:
        """The key dict of a pair of nodes (edge kind → attributes): shared when all its attributes are."""
        content = []
        for kind, data in keys.items():
            weight = data.get("weight")
            if not isinstance(weight, float) or self._edge_data.get((kind, weight)) is not data:
                return _ReadOnlyDict(keys)
            content.append((kind, weight))
        shared = self._edge_keys.get(tuple(content))
        if shared is None:
            shared = self._edge_keys[tuple(content)] = _ReadOnlyDict(keys)
        return shared

    # -- queries -----------------------------------------------------------------------------------
    def nodes(self, kind: type[N]) -> Iterator[N]:
        """All nodes of one model type, in insertion order."""
        name = kind.model_fields["kind"].default
        for attrs in self.graph._node.values():  # networkx's node dict, without a view per call
            if type(attrs) is _NodeAttrs:
                data: Any = attrs.data
                if data.kind == name:
                    yield data
            elif attrs["kind"] == name:
                yield attrs["data"]

    def get(self, node_id: str) -> Any:
        """The model stored under `node_id`."""
        return self.graph.nodes[node_id]["data"]

    def neighbours(self, node_id: str, kind: EdgeKind, *, reverse: bool = False) -> list[str]:
        """Ids joined to `node_id` by edges of one kind (outgoing, or incoming with ``reverse``)."""
        edges = self.graph.in_edges(node_id, keys=True) if reverse else self.graph.out_edges(node_id, keys=True)
        return [(u if reverse else v) for u, v, k in edges if k == kind]

    def documents(self) -> list[DocumentNode]:
        return list(self.nodes(DocumentNode))

    def chunks(self) -> list[ChunkNode]:
        return list(self.nodes(ChunkNode))

    def entities(self) -> list[EntityNode]:
        return list(self.nodes(EntityNode))

    def facts(self) -> list[FactNode]:
        return list(self.nodes(FactNode))

    def stats(self) -> dict[str, Any]:
        """Counts by node kind and edge kind, and facts per document (for ``testgen kg stats``)."""
        node_counts = Counter(attrs["kind"] for _, attrs in self.graph.nodes(data=True))
        edge_counts = Counter(k for _, _, k in self.graph.edges(keys=True))
        per_doc: dict[str, int] = defaultdict(int)
        for fact in self.nodes(FactNode):
            per_doc[fact.doc_id] += 1
        for doc in self.nodes(DocumentNode):
            per_doc.setdefault(doc.doc_id, 0)
        by_source = Counter(f.source for f in self.nodes(FactNode))
        by_type = Counter(f.value_type for f in self.nodes(FactNode))
        return {
            "nodes": dict(sorted(node_counts.items())),
            "edges": dict(sorted(edge_counts.items())),
            "facts_by_source": dict(sorted(by_source.items())),
            "facts_by_value_type": dict(sorted(by_type.items())),
            "facts_per_document": dict(sorted(per_doc.items())),
        }

    # -- persistence -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """Versioned node-link form: nodes as their model dumps, edges as (source, target, kind, weight)."""
        nodes = [attrs["data"].model_dump(mode="json") for _, attrs in self.graph.nodes(data=True)]
        edges = [
            {"source": u, "target": v, "kind": k, "weight": d["weight"]}
            for u, v, k, d in self.graph.edges(keys=True, data=True)
        ]
        return {"format": "testgen-kg", "version": FORMAT_VERSION, "meta": self.meta, "nodes": nodes, "edges": edges}

    def save(self, path: str | Path) -> Path:
        """Write the graph as JSON (gzip-compressed when the name ends in ``.gz``).

        The text is ``json.dumps(self.to_dict(), sort_keys=True)`` byte for byte, written a thousand nodes or
        edges at a time: a graph of a large KB never exists a second time as one string in memory."""
        path = Path(path)
        if path.suffix == ".gz":
            with gzip.open(path, "wt", encoding="utf-8") as fh:
                fh.writelines(self._json_pieces())
        else:
            with path.open("w", encoding="utf-8") as fh:
                fh.writelines(self._json_pieces())
        return path

    def _json_pieces(self, batch: int = 1000) -> Iterator[str]:
        def dump(value: Any) -> str:
            return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)

        def joined(items: Iterator[Any]) -> Iterator[str]:
            pending: list[str] = []
            first = True
            for item in items:
                pending.append(dump(item))
                if len(pending) == batch:
                    yield ("" if first else ",") + ",".join(pending)
                    first, pending = False, []
            if pending:
                yield ("" if first else ",") + ",".join(pending)

        edges = (
            {"source": u, "target": v, "kind": k, "weight": d["weight"]}
            for u, v, k, d in self.graph.edges(keys=True, data=True)
        )
        nodes = (attrs["data"].model_dump(mode="json") for _, attrs in self.graph.nodes(data=True))
        # The keys of to_dict() in sorted order, as json.dumps(sort_keys=True) writes them.
        yield '{"edges":['
        yield from joined(edges)
        yield f'],"format":{dump("testgen-kg")},"meta":{dump(self.meta)},"nodes":['
        yield from joined(nodes)
        yield f'],"version":{dump(FORMAT_VERSION)}}}'

    @classmethod
    def load(cls, path: str | Path) -> KnowledgeGraph:
        """Read a graph written by :meth:`save`; raise `GraphFormatError` naming the file on any problem."""
        path = Path(path)
        try:
            if path.suffix == ".gz":
                with gzip.open(path, "rt", encoding="utf-8") as fh:
                    raw = json.load(fh)
            else:
                raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, EOFError) as exc:  # EOFError: a truncated .gz file
            raise GraphFormatError(f"{path}: cannot read knowledge graph: {exc}") from exc
        if not isinstance(raw, dict) or raw.get("format") != "testgen-kg":
            raise GraphFormatError(f"{path}: not a knowledge-graph file (rebuild it with `testgen build`)")
        if raw.get("version") != FORMAT_VERSION:
            raise GraphFormatError(
                f"{path}: graph format version {raw.get('version')} is not supported (expected "
                f"{FORMAT_VERSION}); rebuild it with `testgen build`"
            )
        kg = cls(meta=raw.get("meta", {}))
        try:
            for item in raw["nodes"]:
                kg.add_node(_NODE_MODELS[item["kind"]].model_validate(item))  # type: ignore[arg-type]
            for edge in raw["edges"]:
                kg.add_edge(edge["kind"], edge["source"], edge["target"], edge.get("weight", 1.0))
        except (KeyError, ValidationError, ValueError) as exc:
            raise GraphFormatError(f"{path}: invalid knowledge graph content: {exc}") from exc
        return kg

    def export_graphml(self, path: str | Path) -> Path:
        """GraphML for graph tools (Gephi, yEd, Cytoscape): scalar attributes only, lists joined by ' / '."""
        flat = nx.MultiDiGraph()
        for node_id, attrs in self.graph.nodes(data=True):
            dump = attrs["data"].model_dump(mode="json")
            flat.add_node(node_id, **{k: _scalar(v) for k, v in dump.items() if v is not None})
        for u, v, k, d in self.graph.edges(keys=True, data=True):
            flat.add_edge(u, v, key=k, kind=k, weight=d["weight"])
        path = Path(path)
        nx.write_graphml(flat, path)
        return path


def _clear_cache(graph: nx.MultiDiGraph) -> None:
    """What networkx does after every change: forget graphs converted for a backend."""
    cache = getattr(graph, "__networkx_cache__", None)
    if cache:
        cache.clear()


def _scalar(value: Any) -> Any:
    if isinstance(value, list):
        return " / ".join(str(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, sort_keys=True)
    return value
