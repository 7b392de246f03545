"""A LangChain retriever or chain as the system under test: ``langchain:pkg.module:object``.

The object may be

- a ``BaseRetriever`` (``vectorstore.as_retriever()``, BM25, ensemble, multi-query...): its documents, in order;
- a ``VectorStore``: searched through ``as_retriever(search_kwargs={"k": k})``;
- any other Runnable returning a list of documents (or of ``(document, score)`` pairs, as
  ``similarity_search_with_score`` gives);
- a chain returning ``{"answer": ..., "context": [Document, ...]}`` (``create_retrieval_chain``) or
  ``{"result": ..., "source_documents": [...]}`` (``RetrievalQA``): its documents, and its answer for full_rag;
- a function taking no argument that returns one of these (called once, when the target is made).

A chain whose input schema names its keys gets the question under ``input``, ``question`` or ``query`` (the first
it has) or under its only key; one whose schema is a dict without named keys (``RunnablePassthrough.assign``
chains such as ``create_retrieval_chain``) gets it under ``input``, LangChain's convention; everything else gets the
question text. ``input_key`` (``--input-key``) overrides the choice. Each question is
one ``ainvoke``: LangChain runs sync code in its executor, here one of ``concurrency`` threads. A document's
``doc_id`` comes from its metadata (:class:`~evaluators.targets.doc_ids.DocIdMapping`); its text is
``page_content``; its score the metadata's ``score`` or ``relevance_score``, or the pair's score.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evaluators.errors import TargetError
from evaluators.targets.framework import Call, FrameworkTarget, Reply
from schemas import RetrievedContext

__all__ = ["LangChainTarget"]

_INPUT_KEYS = ("input", "question", "query")
_ANSWER_KEYS = ("answer", "result", "output")
_DOCUMENT_KEYS = ("context", "source_documents", "documents")
_SCORE_KEYS = ("score", "relevance_score", "similarity_score")


class LangChainTarget(FrameworkTarget):
    """Runs a LangChain retriever, vector store or chain on every question (see the module docstring).

    ``input_key`` names the key of a dict-input chain that takes the question (default: found from its input
    schema, else the question text is passed). Other options as :class:`~evaluators.targets.framework.FrameworkTarget`.
    """

    scheme = "langchain"
    expects = (
        'a LangChain retriever, vector store, Runnable returning documents, or chain returning {"answer", "context"}'
    )

    def __init__(self, obj: Any, *, input_key: str | None = None, **options: Any) -> None:
        self.input_key = input_key
        super().__init__(obj, **options)

    def _kind(self, obj: Any) -> str:
        from langchain_core.retrievers import BaseRetriever
        from langchain_core.vectorstores import VectorStore

        if isinstance(obj, BaseRetriever):
            return "retriever"
        if isinstance(obj, VectorStore):
            return "vector store"
        if callable(getattr(obj, "ainvoke", None)):
            return "runnable"
        raise TargetError(f"{type(obj).__name__} is not {self.expects}")

    def describe(self) -> dict[str, Any]:
        """Settings for reports."""
        return {**super().describe(), "class": f"{type(self.obj).__module__}.{type(self.obj).__qualname__}"}

    def _prepare(self, k: int) -> Call:
        runnable = self.obj.as_retriever(search_kwargs={"k": k}) if self.kind == "vector store" else self.obj
        key = None if self.kind != "runnable" else self.input_key or _input_key(runnable)

        async def ask(question: str) -> Any:
            try:
                return await runnable.ainvoke({key: question} if key else question)
            except (KeyError, TypeError, ValueError) as exc:
                if key is None and self.kind == "runnable":  # the usual sign of a dict-input chain given text
                    raise ValueError(
                        f"{type(exc).__name__}: {exc} (the chain was given the question text; if it takes a dict, "
                        "name the key that holds the question with --input-key, e.g. --input-key input)"
                    ) from exc
                raise

        return Call(ask, is_async=True)

    def _reply(self, output: Any) -> Reply:
        answer: str | None = None
        if isinstance(output, Mapping):
            answer = _answer(output)
            found = next((name for name in _DOCUMENT_KEYS if name in output), None)
            if found is None:
                keys = ", ".join(map(str, list(output)[:6])) or "none"
                raise ValueError(
                    f"the chain returned a dict without documents (keys: {keys}); return the retrieved documents "
                    f'under "context" or "source_documents", as create_retrieval_chain does'
                )
            documents = output[found]
            if isinstance(documents, str):
                raise TypeError(
                    f'"{found}" holds text, not documents: return the list of Document objects the retriever gave'
                )
        elif isinstance(output, str) or hasattr(output, "content"):
            raise TypeError(
                'the chain returned only an answer; return {"answer": ..., "context": [Document, ...]} so the '
                "retrieved documents can be scored (e.g. with RunnablePassthrough.assign)"
            )
        else:
            documents = output
        if not isinstance(documents, Sequence):
            raise TypeError(f"expected a list of documents, got {type(documents).__name__}")
        return Reply([self._context(i, item) for i, item in enumerate(documents)], answer)

    def _context(self, index: int, item: Any) -> RetrievedContext:
        score: Any = None
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[1], int | float):
            item, score = item
        content = getattr(item, "page_content", None)
        if not isinstance(content, str):
            raise TypeError(f"item {index} is a {type(item).__name__}, not a LangChain Document")
        metadata = getattr(item, "metadata", None) or {}
        if score is None:
            score = next((metadata[key] for key in _SCORE_KEYS if isinstance(metadata.get(key), int | float)), None)
        own_id = getattr(item, "id", None)
        return RetrievedContext(
            doc_id=self.mapping.doc_id(metadata, str(own_id) if own_id else None),
            text=content,
            score=float(score) if score is not None else None,
            chunk_id=str(own_id) if own_id else None,
        )


def _input_key(runnable: Any) -> str | None:
    """The key of a dict-input runnable that should hold the question; None when it takes the text itself (or its
    input schema cannot tell)."""
    try:
        schema = runnable.get_input_jsonschema()
    except Exception:  # a runnable whose input schema cannot be built takes whatever it is given
        return None
    if not isinstance(schema, dict) or schema.get("type") != "object":
        return None
    properties = schema.get("properties") or {}
    if not properties or set(properties) == {"root"}:  # a dict of unnamed keys (a root model's): LangChain's usual
        return "input"
    for key in _INPUT_KEYS:
        if key in properties:
            return key
    if len(properties) == 1:
        return str(next(iter(properties)))
    raise TargetError(
        f"the chain takes a dict with keys {', '.join(map(str, properties))} and none of them is "
        f"{', '.join(_INPUT_KEYS)}: say which holds the question with --input-key"
    )


def _answer(output: Mapping[str, Any]) -> str | None:
    for key in _ANSWER_KEYS:
        if key in output and output[key] is not None:
            value = output[key]
            text = getattr(value, "content", value)  # a chat message: its text
            if not isinstance(text, str):
                raise TypeError(f'"{key}" must be text or a chat message, got {type(value).__name__}')
            return text
    return None
