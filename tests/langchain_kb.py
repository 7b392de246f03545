"""Real LangChain objects over the example KB for the langchain-target tests: an in-memory vector store with a
deterministic bag-of-words embedding (no model, no network), chunked by paragraph, in three metadata layouts.

Imported by the tests and named in target specs (``langchain:langchain_kb:absolute_retriever``).
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from pathlib import Path
from typing import Any

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.runnables import RunnableLambda, RunnablePassthrough
from langchain_core.vectorstores import InMemoryVectorStore

KB = Path(__file__).resolve().parents[1] / "examples" / "aurora_bikes"
DIMENSIONS = 512


class WordHashEmbeddings(Embeddings):
    """Each lower-cased word hashed (md5) into one of 512 buckets, counts L2-normalised: cosine = word overlap."""

    def _embed(self, text: str) -> list[float]:
        vector = [0.0] * DIMENSIONS
        for word in re.findall(r"\w+", text.lower()):
            vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % DIMENSIONS] += 1.0
        norm = math.sqrt(sum(x * x for x in vector)) or 1.0
        return [x / norm for x in vector]

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [self._embed(text) for text in texts]

    def embed_query(self, text: str) -> list[float]:
        return self._embed(text)


def chunks(source: Any) -> list[Document]:
    """Every paragraph of every KB file as a Document; ``source(path)`` gives its metadata."""
    documents = []
    for path in sorted(KB.rglob("*")):
        if not path.is_file() or path.name.startswith("."):
            continue
        for paragraph in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")):
            if paragraph.strip():
                documents.append(Document(page_content=paragraph.strip(), metadata=source(path)))
    return documents


def store(source: Any) -> InMemoryVectorStore:
    return InMemoryVectorStore.from_documents(chunks(source), WordHashEmbeddings())


#: ``source`` is the absolute path of the file (what LangChain's file loaders store).
absolute_store = store(lambda path: {"source": str(path)})
absolute_retriever = absolute_store.as_retriever(search_kwargs={"k": 10})

#: ``file_path`` relative to the KB, ``source`` something else: needs --doc-id-key file_path.
keyed_retriever = store(
    lambda path: {"source": "aurora-wiki", "file_path": path.relative_to(KB).as_posix()}
).as_retriever(search_kwargs={"k": 10})


def glue(question: str) -> list[dict[str, Any]]:
    """The callable: glue a user writes today for ``absolute_retriever``: ids made relative to the KB by hand."""
    return [
        {"doc_id": Path(os.path.relpath(d.metadata["source"], KB)).as_posix(), "text": d.page_content}
        for d in absolute_retriever.invoke(question)
    ]


#: A create_retrieval_chain-shaped chain: {"input"} in, {"input", "context", "answer"} out.
rag_chain = RunnablePassthrough.assign(
    context=RunnableLambda(lambda inputs: inputs["input"]) | absolute_retriever
) | RunnablePassthrough.assign(answer=RunnableLambda(lambda out: out["context"][0].page_content))
