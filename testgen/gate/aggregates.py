"""**incomplete_aggregate**: a count or an extreme over a kind of document is only right when it reads every
document of that kind. "How many employees are account executives? 2" is wrong when five employee pages say so
and only two of them in the form the miner read. An aggregate is kept when its facts cover most documents of the
kind, and (for counts) no other document of the kind states the counted value.
"""

from __future__ import annotations

from testgen.synth.context import GenContext
from testgen.synth.draft import Draft
from testgen.text import contains_keyword, normalize

#: Share of the documents of the kind that the aggregate's facts must come from.
MIN_COVERAGE = 0.75


def aggregate_problem(draft: Draft, ctx: GenContext) -> str | None:
    """Why the aggregate may be wrong over the whole kind of document, or None."""
    scope = set(draft.scope_docs) or {f.doc_id for f in draft.facts}
    kinds = {ctx.doc_type(d) for d in scope}
    of_kind = [d for d in ctx.docs if ctx.doc_type(d) in kinds]
    if len(scope) < MIN_COVERAGE * len(of_kind):
        return f"facts from {len(scope)} of {len(of_kind)} documents of the kind"
    if draft.derived.get("op") == "count":
        value = str(draft.derived.get("value", ""))
        counted = {f.doc_id for f in draft.facts if normalize(f.value) == normalize(value)}
        stating = {d for d in of_kind if contains_keyword(ctx.doc_text[d], value)}
        if stating - counted:
            return f"'{value[:30]}' is also in {len(stating - counted)} document(s) not counted"
    return None
