"""**ubiquitous_bridge**: an entity printed in a large share of the documents — the company's own name, a
phone number or a help-desk address in every footer, an "FAQ" heading — joins everything to everything, so a
two-hop question through it, or a relation that ends in it, tests nothing. Such an entity is never a bridge of a
spanning item nor an end of a relationship item; neither is a name that is only a number or a contact detail.
A spanning bridge must also have a page of its own: a name that is only a row of some table ("France" in a visa
table) joins documents that have nothing else to do with each other.
"""

from __future__ import annotations

import re

from testgen.names import is_generic_title
from testgen.synth.context import GenContext

#: An entity mentioned in more than this share of the documents is ubiquitous ...
MAX_DOC_SHARE = 0.6
#: ... once it is in at least this many documents (small KBs have few documents to share).
MIN_DOCS = 5
_CONTACT = re.compile(r"@|https?://|www\.|^[+\d][\d\s().\-]{5,}$")


class BridgeIndex:
    """Documents per entity, for the ubiquity rule."""

    def __init__(self, ctx: GenContext) -> None:
        self.ctx = ctx
        self.total = max(len(ctx.docs), 1)
        self._docs: dict[str, int] = {}

    def doc_count(self, entity_id: str) -> int:
        if entity_id not in self._docs:
            chunks = self.ctx.entity_chunks.get(entity_id, set())
            docs = {self.ctx.chunks[c].doc_id for c in chunks if c in self.ctx.chunks}
            entity = self.ctx.entities.get(entity_id)
            if entity is not None and entity.home_doc:
                docs.add(entity.home_doc)
            self._docs[entity_id] = len(docs)
        return self._docs[entity_id]

    def problem(self, entity_id: str) -> str | None:
        """Why this entity cannot join two facts, or None when it can."""
        entity = self.ctx.entities.get(entity_id)
        if entity is None:
            return None
        name = entity.name.strip()
        if _CONTACT.search(name) or not re.search(r"[^\W\d_]", name):
            return f"'{name[:30]}' is a number or a contact detail"
        if is_generic_title(name):
            return f"'{name[:30]}' is a generic heading"
        count = self.doc_count(entity_id)
        if count >= MIN_DOCS and count / self.total > MAX_DOC_SHARE:
            return f"'{name[:30]}' is in {count} of {self.total} documents"
        return None
