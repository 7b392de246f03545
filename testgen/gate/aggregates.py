"""**incomplete_aggregate**: a count or an extreme over a kind of document is only right when it reads every
document of that kind. "How many employees are account executives? 2" is wrong when five employee pages say so
and only two of them in the form the miner read. An aggregate is kept when its facts cover most documents of the
kind, and (for counts) no other document of the kind states the counted value.
"""

from __future__ import annotations

import re

from testgen.kg.values import find_values
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft
from testgen.text import contains_keyword, normalize

#: Share of the documents of the kind that the aggregate's facts must come from.
MIN_COVERAGE = 0.75


def aggregate_problem(draft: Draft, ctx: GenContext) -> str | None:
    """Why the aggregate may be wrong over the whole kind of document, or None."""
    read = {f.doc_id for f in draft.facts}
    scope = set(draft.scope_docs) or read
    kinds = {ctx.doc_type(d) for d in scope}
    of_kind = [d for d in ctx.docs if ctx.doc_type(d) in kinds]
    covered = read & set(of_kind)
    if len(covered) < MIN_COVERAGE * len(of_kind):
        return f"facts from {len(covered)} of {len(of_kind)} documents of the kind"
    if draft.derived.get("op") == "count":
        value = str(draft.derived.get("value", ""))
        counted = {f.doc_id for f in draft.facts if normalize(f.value) == normalize(value)}
        # "San Francisco, CA" states "San Francisco, California" too: the head of a place name counts
        forms = {value} | ({value.split(",")[0]} if "," in value and len(value.split(",")[0]) >= 4 else set())
        # "Sales Development Representative (SDR)" is stated by a page that leaves out the abbreviation
        bare = re.sub(r"\s*[(（][^)）]*[)）]", "", value).strip()
        if len(bare) >= 4:
            forms.add(bare)
        stating = {d for d in of_kind if any(contains_keyword(ctx.doc_text[d], form) for form in forms)}
        if stating - counted:
            return f"'{value[:30]}' is also in {len(stating - counted)} document(s) not counted"
        for doc_id in sorted(counted):
            longer = next(filter(None, (_longer_name(ctx, doc_id, form) for form in sorted(forms))), None)
            if longer:
                # "Data Engineer" counted on a page that also calls the person "Senior Data Engineer" (a promotion
                # in the career history): whether they count depends on which line the reader takes
                return f"'{doc_id}' also says '{longer[:40]}'"
        return None
    label = normalize(draft.facts[0].attribute) if draft.facts else ""
    for doc_id in sorted(set(of_kind) - read):
        # an extreme over the kind: a page of the kind that gives the attribute in a form not parsed (a range,
        # "from $45,000") may hold the true maximum
        for chunk in ctx.chunks_by_doc.get(doc_id, []):
            for line in chunk.text.split("\n"):
                if label and label in normalize(line) and find_values(line):
                    return f"'{doc_id}' gives the {label[:30]} in a form not compared"
    return None


#: Capitalised words that open a sentence or a phrase without being part of a name.
_NOT_MODIFIERS = frozenset("The A An As Our Their His Her Its Each Every Any All This That Our Your".split())


def _longer_name(ctx: GenContext, doc_id: str, value: str) -> str | None:
    """A longer name the document gives around a counted Latin-script value: a capitalised word written right
    before it ("Senior Data Engineer") or a rank right after it ("Data Engineer II")."""
    if not re.search(r"[A-Z]", value[:1]):
        return None
    pattern = re.compile(rf"(?:\b([A-Z][\w-]*)[ \t]+)?{re.escape(value)}(?:[ \t]+([A-Z][\w-]*|[IVX]+)\b)?")
    for chunk in ctx.chunks_by_doc.get(doc_id, []):
        for match in pattern.finditer(chunk.text):
            before, after = match.group(1), match.group(2)
            if (before and before not in _NOT_MODIFIERS) or (after and re.fullmatch(r"[IVX]+|[A-Z]\w*", after)):
                return match.group(0)
    return None
