"""relationship: a relation between two entities (who owns, manages, serves which), asked in either
direction; both entities and the relation word must be grounded in the sources."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

from schemas import FactNode
from testgen.categories._common import entity_type_of, is_relation, phraser, subject_name, without_answer
from testgen.categories._registry import register
from testgen.kg.mining import fact_id, strip_markup
from testgen.names import core_name, form_folder, introduced_name
from testgen.synth.context import GenContext
from testgen.synth.draft import Draft
from testgen.text import contains_keyword, normalize

#: Relations whose holder usually has several on the other side: a manager manages several people.
_OVER_MANY = re.compile(r"manager|supervisor|reports? to|\blead\b|\bhead\b|boss|상사|팀장|부서장|관리자", re.I)


@register
class Relationship:
    name = "relationship"
    description = "How two entities are related, stated in one document and often echoed in the other."

    def candidates(self, ctx: GenContext, rng: random.Random) -> Iterator[Draft]:
        pool = [
            f
            for f in ctx.candidate_facts
            if f.value_entity
            and f.subject_entity
            and f.value_entity != f.subject_entity
            and f.source in ("key_value", "table")
            and not f.qualifier
            and is_relation(ctx, f)
        ]
        rng.shuffle(pool)
        role_holders: dict[tuple[str, str], set[str | None]] = {}
        for g in ctx.facts:
            if g.value_entity:
                role_holders.setdefault((normalize(g.attribute), g.value_entity), set()).add(g.subject_entity)
        prose = mention_relations(ctx)
        rng.shuffle(prose)
        for fact in pool + prose:
            if fact.source == "sentence":
                draft = self._mention_draft(ctx, fact)
                if draft is not None:
                    yield draft
                continue
            language = ctx.language_of(fact)
            ph, flags = phraser(ctx, language)
            subject = ph.subject(subject_name(ctx, fact))
            # Asked backwards ("who has X as manager?") only when X holds that role for one subject alone.
            holders = role_holders.get((normalize(fact.attribute), fact.value_entity or ""), set())
            # Not for a manager: "Who has Rosa as their manager?" has one answer only if she manages one person,
            # which a page seldom says ("leads a team of 9 … including Elliot")
            inverse = len(holders) == 1 and rng.random() < 0.5 and not _OVER_MANY.search(fact.attribute)
            kind = entity_type_of(ctx, fact) or ""
            type_word = ph.type_word("" if form_folder(kind) else kind)
            phrased = ph.relation(fact, subject, inverse, type_word)
            if phrased is None and inverse:
                phrased = ph.relation(fact, subject, False, type_word)
                inverse = False
            if phrased is None:
                continue
            question, answer, template = phrased
            value_entity = ctx.entities[fact.value_entity]  # type: ignore[index]
            names = [subject_name(ctx, fact), value_entity.name]
            answer_name = names[0] if inverse else names[1]
            facts = [fact]
            # The other side often states the relation too (a person's page lists the product they own).
            for other in ctx.facts_by_entity.get(fact.value_entity or "", []):
                if other.value_entity == fact.subject_entity:
                    facts.append(other)
                    break
            yield Draft(
                category=self.name,
                question=question,
                reference_answer=answer,
                keywords=[core_name(answer_name)],  # the other name is in the question
                facts=facts,
                answer_spans=[answer_name],
                language=language,
                template=template + (".inverse" if inverse and not template.endswith("inverse") else ""),
                named_entities=names,
                flags=flags,
            )

    def _mention_draft(self, ctx: GenContext, fact: FactNode) -> Draft | None:
        language = ctx.language_of(fact)
        ph, flags = phraser(ctx, language)
        target = ctx.entities[fact.value_entity or ""]
        if form_folder(target.entity_type):
            return None  # "Which reference is X associated with?": the folder names a form of page, not a kind
        type_word = ph.type_word(target.entity_type)
        subject = without_answer(ctx, ph.subject(introduced_name(fact.subject)), fact.value)
        # the evidence stays verbatim (it is a reference context); the answer quotes it without markup
        quoted = re.sub(r"^(?:\d+[.)]\s*)?(?:[^:：]{1,40}[:：]\s*)?", "", strip_markup(fact.evidence)) or fact.evidence
        phrased = ph.mention(subject, type_word, fact.value, quoted)
        if phrased is None:
            return None
        question, answer, template = phrased
        return Draft(
            category=self.name,
            question=question,
            reference_answer=answer,
            keywords=[fact.value],
            facts=[fact],
            answer_spans=[fact.value],
            language=language,
            template=template,
            named_entities=[fact.subject, fact.value],
            flags=flags,
        )

    def check(self, draft: Draft, ctx: GenContext, source_docs: list[str]) -> str | None:
        texts = [ctx.doc_text[d] for d in source_docs]
        for name in draft.named_entities:
            if not any(contains_keyword(t, name) for t in texts):
                return f"entity not grounded: {name}"
        relation = normalize(draft.facts[0].attribute)
        if not any(relation in t for t in texts):  # for prose relations the "attribute" is the sentence
            return "relation not grounded"
        return None


def mention_relations(ctx: GenContext) -> list[FactNode]:
    """Relations stated only in prose: the page of an entity P names exactly one entity E of another type
    (with its own page). The first sentence naming E is the evidence. Computed once per run."""
    cached = ctx.memo.get("mention_relations")
    if isinstance(cached, list):
        return list(cached)
    found = _mention_relations(ctx)
    ctx.memo["mention_relations"] = found
    return list(found)


def _mention_relations(ctx: GenContext) -> list[FactNode]:
    by_doc: dict[str, list[str]] = {}
    for chunk_id, entities in sorted(ctx.chunk_mentions.items()):
        by_doc.setdefault(ctx.chunks[chunk_id].doc_id, []).extend(sorted(entities))
    homes = {e.home_doc: key for key, e in ctx.entities.items() if e.home_doc}
    # pairs a key-value line or a table already links ("Policy Owner: Priya"): not prose-only relations
    linked = {
        frozenset((f.subject_entity, f.value_entity))
        for f in ctx.facts
        if f.subject_entity and f.value_entity and f.source in ("key_value", "table")
    }
    one_word = _one_word_names(ctx)
    page_words: dict[str, set[str]] = {}  # a page's words, read once however many candidates it has
    out: list[FactNode] = []
    for doc_id, mentioned in sorted(by_doc.items()):
        owner = homes.get(doc_id)
        if owner is None:
            continue
        owner_type = ctx.entities[owner].entity_type
        by_type: dict[str, list[str]] = {}
        for key in mentioned:
            entity = ctx.entities[key]
            if key != owner and entity.home_doc and entity.home_doc != doc_id and entity.entity_type != owner_type:
                by_type.setdefault(entity.entity_type, []).append(key)
        for entity_type, keys in sorted(by_type.items()):
            if len(set(keys)) != 1:
                continue  # several candidates: the page does not single one out
            target = ctx.entities[keys[0]]
            if frozenset((owner, target.entity_id)) in linked:
                continue
            names = one_word.get(entity_type, {})
            if names and doc_id not in page_words:
                page_words[doc_id] = _page_words(ctx, doc_id)
            if names and _misspelt_other(page_words[doc_id], names, target.name):
                continue  # the page also names another one, misspelt ("Marketllm" for "Markellm")
            evidence = _first_sentence_naming(ctx, doc_id, target.name)
            if evidence is None:
                continue
            chunk_id, sentence, start = evidence
            out.append(
                FactNode(
                    fact_id=fact_id(doc_id, start, "mention", target.name),
                    subject=ctx.entities[owner].name,
                    subject_entity=owner,
                    attribute=sentence,
                    value=target.name,
                    value_type="text",
                    value_entity=target.entity_id,
                    source="sentence",
                    doc_id=doc_id,
                    chunk_id=chunk_id,
                    evidence=sentence,
                    start=start,
                    end=start + len(sentence),
                )
            )
    return out


def _one_word_names(ctx: GenContext) -> dict[str, dict[tuple[str, int], set[str]]]:
    """One-word names of six letters or more, per entity type, by (first letter, length): the names a misspelt
    word may stand for (once per run)."""
    names: dict[str, dict[tuple[str, int], set[str]]] = {}
    for entity in ctx.entities.values():
        if re.fullmatch(r"[^\W\d_]{6,}", entity.name):
            name = entity.name.casefold()
            names.setdefault(entity.entity_type, {}).setdefault((name[0], len(name)), set()).add(name)
    return names


def _page_words(ctx: GenContext, doc_id: str) -> set[str]:
    """The words of five letters or more of a page, case-folded."""
    chunks = ctx.chunks_by_doc.get(doc_id, [])
    return {w.casefold() for chunk in chunks for w in re.findall(r"[^\W\d_]{5,}", chunk.text)}


def _misspelt_other(words: set[str], names: dict[tuple[str, int], set[str]], target: str) -> bool:
    """Whether a page's `words` hold one a single edit away from the one-word name of another entity of the type
    (`names`, by first letter and length), not the target's."""
    target = target.casefold()
    for word in words:
        if word == target or word in names.get((word[0], len(word)), set()):
            continue  # a name written right
        for size in (len(word) - 1, len(word), len(word) + 1):
            if any(n != target and one_edit_apart(word, n) for n in names.get((word[0], size), ())):
                return True
    return False


def one_edit_apart(a: str, b: str) -> bool:
    """One insertion, deletion or substitution turns `a` into `b` (same first letter: a typo, not a new word)."""
    if a == b or abs(len(a) - len(b)) > 1 or a[:1] != b[:1]:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long = (a, b) if len(a) < len(b) else (b, a)
    i = next((k for k, (x, y) in enumerate(zip(short, long, strict=False)) if x != y), len(short))
    return short[i:] == long[i + 1 :]


def _first_sentence_naming(ctx: GenContext, doc_id: str, name: str) -> tuple[str, str, int] | None:
    for chunk in ctx.chunks_by_doc.get(doc_id, []):
        pos = 0
        for piece in re.split(r"(?<=[.!?。！？])\s+|\n", chunk.text):
            idx = chunk.text.find(piece, pos)
            pos = max(pos, idx + len(piece))
            if (
                contains_keyword(normalize(piece), name)
                and len(piece.split()) >= 4
                and not piece.lstrip().startswith(("#", "|"))
            ):
                sentence = piece.strip().lstrip("-*+ ").strip()
                return chunk.chunk_id, sentence, chunk.start + chunk.text.find(sentence)
    return None
