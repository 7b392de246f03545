"""A LlamaIndex retriever or query engine as the system under test: ``llamaindex:pkg.module:object``.

The object may be

- a retriever (``index.as_retriever()``, BM25, fusion...): its ``NodeWithScore`` list, in order;
- a query engine (``index.as_query_engine()``, ``RetrieverQueryEngine``, a ``CustomQueryEngine``): the
  ``source_nodes`` of its ``Response``, and ``Response.response`` as the answer for full_rag;
- an index (``VectorStoreIndex``...): searched through ``as_retriever(similarity_top_k=k)``;
- a function taking no argument that returns one of these (called once, when the target is made).

Needs the optional extra: ``pip install "testgen-rag[llamaindex]"`` (``llama-index-core``), imported only when this
target is used. An object whose class implements the async path (``_aretrieve``, ``_aquery``, ``acustom_query``)
is awaited with ``aretrieve``/``aquery``; one whose async methods only fall back to the blocking ones is called
with ``retrieve``/``query`` in worker threads. A node's ``doc_id`` comes from its metadata
(:class:`~evaluators.targets.doc_ids.DocIdMapping`; ``id`` falls back to the node's ``ref_doc_id``), its text is
``node.get_content()``, its score ``NodeWithScore.score``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from evaluators.errors import TargetError
from evaluators.targets.framework import Call, FrameworkTarget, Reply
from schemas import RetrievedContext

__all__ = ["LlamaIndexTarget", "require_llama_index"]

INSTALL_HINT = 'pip install "testgen-rag[llamaindex]" (or: pip install llama-index-core)'


def require_llama_index() -> None:
    """Raise TargetError with the install command when ``llama-index-core`` is not installed."""
    try:
        import llama_index.core  # noqa: F401
    except ImportError as exc:
        raise TargetError(f"the llamaindex target needs llama-index-core; install it with: {INSTALL_HINT}") from exc


class LlamaIndexTarget(FrameworkTarget):
    """Runs a LlamaIndex retriever, query engine or index on every question (see the module docstring).

    Options as :class:`~evaluators.targets.framework.FrameworkTarget`.
    """

    scheme = "llamaindex"
    expects = "a LlamaIndex retriever, query engine or index"

    def __init__(self, obj: Any, **options: Any) -> None:
        require_llama_index()
        super().__init__(obj, **options)

    def _kind(self, obj: Any) -> str:
        from llama_index.core.base.base_query_engine import BaseQueryEngine
        from llama_index.core.base.base_retriever import BaseRetriever
        from llama_index.core.indices.base import BaseIndex

        if isinstance(obj, BaseQueryEngine):
            return "query engine"
        if isinstance(obj, BaseRetriever):
            return "retriever"
        if isinstance(obj, BaseIndex):
            return "index"
        raise TargetError(f"{type(obj).__name__} is not {self.expects}")

    def describe(self) -> dict[str, Any]:
        """Settings for reports."""
        return {**super().describe(), "class": f"{type(self.obj).__module__}.{type(self.obj).__qualname__}"}

    def _prepare(self, k: int) -> Call:
        from llama_index.core.base.base_retriever import BaseRetriever
        from llama_index.core.query_engine import CustomQueryEngine

        if self.kind == "query engine":
            engine = self.obj
            if isinstance(engine, CustomQueryEngine):
                native = _overrides(engine, "acustom_query", CustomQueryEngine)
            else:
                native = True  # every built-in engine implements _aquery itself
            return Call(engine.aquery, True) if native else Call(engine.query, False)
        retriever = self.obj.as_retriever(similarity_top_k=k) if self.kind == "index" else self.obj
        if _overrides(retriever, "_aretrieve", BaseRetriever):
            return Call(retriever.aretrieve, True)
        return Call(retriever.retrieve, False)

    def _reply(self, output: Any) -> Reply:
        from llama_index.core.base.response.schema import Response

        if isinstance(output, Response):
            return Reply(self._contexts(output.source_nodes), output.response)
        if hasattr(output, "response_gen") or hasattr(output, "async_response_gen"):
            raise TypeError(
                "the query engine streams its answer; build it with streaming=False to evaluate it "
                "(a streamed answer cannot be scored)"
            )
        if hasattr(output, "source_nodes"):  # PydanticResponse and other Response kinds
            answer = getattr(output, "response", None)
            if answer is not None and not isinstance(answer, str):
                answer = answer.model_dump_json() if hasattr(answer, "model_dump_json") else str(answer)
            return Reply(self._contexts(output.source_nodes), answer)
        if isinstance(output, Sequence) and not isinstance(output, str):
            return Reply(self._contexts(output))
        raise TypeError(f"expected a list of NodeWithScore or a Response, got {type(output).__name__}")

    def _contexts(self, nodes: Sequence[Any]) -> list[RetrievedContext]:
        contexts = []
        for index, item in enumerate(nodes):
            node = getattr(item, "node", None)
            if node is None or not hasattr(node, "get_content"):
                raise TypeError(f"item {index} is a {type(item).__name__}, not a LlamaIndex NodeWithScore")
            score = getattr(item, "score", None)
            contexts.append(
                RetrievedContext(
                    doc_id=self.mapping.doc_id(node.metadata, node.ref_doc_id),
                    text=node.get_content(),
                    score=float(score) if score is not None else None,
                    chunk_id=node.node_id,
                )
            )
        return contexts


def _overrides(obj: Any, method: str, base: type) -> bool:
    """Whether ``obj``'s class defines ``method`` somewhere below ``base`` (its own async code, not the fallback)."""
    return getattr(type(obj), method, None) is not getattr(base, method, None)
