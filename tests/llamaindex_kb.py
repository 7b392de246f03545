"""Real LlamaIndex objects over the example KB for the llamaindex-target tests: ``SimpleDirectoryReader`` documents
(``file_path`` metadata: absolute paths), a ``VectorStoreIndex`` with a deterministic bag-of-words embedding (no
model, no network) and its retriever. Needs the ``llamaindex`` extra (llama-index-core).

Imported by the tests and named in target specs (``llamaindex:llamaindex_kb:retriever``).
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from pathlib import Path
from typing import Any

from llama_index.core import SimpleDirectoryReader, VectorStoreIndex
from llama_index.core.base.embeddings.base import BaseEmbedding

KB = Path(__file__).resolve().parents[1] / "examples" / "aurora_bikes"
DIMENSIONS = 512


def _embed(text: str) -> list[float]:
    vector = [0.0] * DIMENSIONS
    for word in re.findall(r"\w+", text.lower()):
        vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % DIMENSIONS] += 1.0
    norm = math.sqrt(sum(x * x for x in vector)) or 1.0
    return [x / norm for x in vector]


class WordHashEmbedding(BaseEmbedding):
    """Each lower-cased word hashed (md5) into one of 512 buckets, counts L2-normalised: cosine = word overlap."""

    def _get_text_embedding(self, text: str) -> list[float]:
        return _embed(text)

    def _get_query_embedding(self, query: str) -> list[float]:
        return _embed(query)

    async def _aget_query_embedding(self, query: str) -> list[float]:
        return _embed(query)


documents = SimpleDirectoryReader(str(KB), recursive=True).load_data()
index = VectorStoreIndex.from_documents(documents, embed_model=WordHashEmbedding())
retriever = index.as_retriever(similarity_top_k=10)


def glue(question: str) -> list[dict[str, Any]]:
    """The callable: glue a user writes today for ``retriever``: ids made relative to the KB by hand."""
    return [
        {"doc_id": Path(os.path.relpath(n.node.metadata["file_path"], KB)).as_posix(), "text": n.node.get_content()}
        for n in retriever.retrieve(question)
    ]
