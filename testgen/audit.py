"""Should I trust this test set? The parts of ``testgen audit`` that need neither retrievers nor metrics.

For any schema-valid test set (generated or hand-written) and the knowledge base it was made from:

* **category mix**: count and share of items per category;
* **single-document share**: items whose ``source_docs`` hold exactly one document — a set made only of
  those never tests retrieval across documents;
* **question–source overlap** (:func:`testgen.overlap.question_overlap`): the share of each question's
  content words (character trigrams for CJK) found in the full texts of its ``source_docs``; a high median
  means the questions copy their sources, which flatters lexical retrievers;
* **near-duplicate questions**: pairs whose character-trigram Jaccard (:func:`testgen.text.char_ngrams`) is
  at least :data:`NEAR_DUPLICATE_JACCARD`;
* **gate flags**: counts of the item-level quality flags of :func:`testgen.gate.item_flags`.

Human-written sets often lack ``source_docs``: :func:`derive_sources` finds the documents that contain the
item's keywords, and :func:`prepare_human` applies it to a whole set, counting what it derived and what it
had to leave out. The retriever comparison (human vs synthetic ranking of retrievers) lives in
``evaluators.audit``, since testgen never imports evaluators.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from pydantic import BaseModel, Field

from schemas import CATEGORIES, TestQuestion
from testgen.corpus import load_kb
from testgen.gate import item_flags
from testgen.overlap import median_overlap, question_overlap
from testgen.text import char_ngrams, contains_keyword, jaccard, normalize

__all__ = [
    "NEAR_DUPLICATE_JACCARD",
    "CategoryCount",
    "DatasetAudit",
    "HumanSources",
    "NearDuplicate",
    "audit_dataset",
    "category_mix",
    "derive_sources",
    "describe_dataset",
    "gate_flags",
    "load_doc_texts",
    "near_duplicates",
    "prepare_human",
    "question_overlaps",
    "single_doc_count",
]

#: Character-trigram Jaccard at or above which two questions count as near-duplicates.
NEAR_DUPLICATE_JACCARD = 0.85
#: Near-duplicate pairs shown in the text report (the JSON report keeps them all).
SHOWN_DUPLICATES = 5


class CategoryCount(BaseModel):
    """How many items of one category a set holds."""

    category: str = Field(description="Category as written in the file.")
    count: int = Field(description="Items of this category.")
    share: float = Field(description="count / items in the set (0–1).")


class NearDuplicate(BaseModel):
    """Two questions of the same set that read almost alike."""

    first: int = Field(description="1-based position of the first question in the set.")
    second: int = Field(description="1-based position of the second question in the set.")
    similarity: float = Field(description="Character-trigram Jaccard of the two questions.")
    questions: tuple[str, str] = Field(description="The two questions.")


class DatasetAudit(BaseModel):
    """What a test set holds, measured without any retriever."""

    dataset: str = Field(description="Where the set was read from.")
    items: int = Field(description="Items in the set.")
    mix: list[CategoryCount] = Field(description="Items per category, most frequent first.")
    single_doc: int = Field(description="Items with exactly one source document.")
    single_doc_share: float = Field(description="single_doc / items.")
    without_sources: int = Field(description="Items with no source_docs (rank metrics cannot score them).")
    unknown_sources: int = Field(description="source_docs entries that are not documents of the KB.")
    overlap_median: float | None = Field(description="Median question–source overlap (None: nothing measured).")
    overlap_measured: int = Field(description="Items whose overlap could be measured.")
    near_duplicate_threshold: float = Field(description="Trigram Jaccard at or above which a pair is listed.")
    near_duplicates: list[NearDuplicate] = Field(description="Near-duplicate question pairs, most similar first.")
    flags: dict[str, int] = Field(description="Gate flag -> items carrying it (testgen.gate.item_flags).")
    flagged_items: int = Field(description="Items with at least one gate flag.")
    notes: list[str] = Field(default_factory=list, description="What was left out or approximated, and why.")


@dataclass
class HumanSources:
    """A hand-written set made ready for rank metrics: the items kept and what happened to the others."""

    items: list[TestQuestion] = field(default_factory=list)
    given: int = 0
    derived: int = 0
    no_answer: int = 0
    unresolved: int = 0

    def describe(self) -> str:
        """One line saying how many items were used, derived and left out."""
        parts = [f"{len(self.items)} used: {self.given} with source_docs as written"]
        if self.derived:
            parts[0] += f", {self.derived} with source_docs derived as the documents containing all their keywords"
        if self.no_answer:
            parts.append(f"{self.no_answer} no-answer item(s) (source_docs: []) left out")
        if self.unresolved:
            parts.append(f"{self.unresolved} left out: no source_docs and no document contains all their keywords")
        return "; ".join(parts)


def load_doc_texts(kb: str | os.PathLike[str]) -> dict[str, str]:
    """Full text of every document of the KB by ``doc_id`` (CorpusError when the folder is unusable)."""
    return {doc.doc_id: doc.text for doc in load_kb(kb).documents}


def category_mix(items: Sequence[TestQuestion]) -> list[CategoryCount]:
    """Count and share per category, most frequent first (ties: the generator's category order, then name)."""
    counts = Counter(item.category for item in items)
    order = {name: index for index, name in enumerate(CATEGORIES)}
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], order.get(kv[0], len(order)), kv[0]))
    total = len(items)
    return [CategoryCount(category=c, count=n, share=round(n / total, 4)) for c, n in ranked]


def single_doc_count(items: Sequence[TestQuestion]) -> int:
    """Items whose ``source_docs`` hold exactly one (distinct) document."""
    return sum(1 for item in items if len(set(item.source_docs)) == 1)


def question_overlaps(items: Sequence[TestQuestion], doc_texts: Mapping[str, str]) -> list[float | None]:
    """Per item, :func:`~testgen.overlap.question_overlap` against the full texts of its ``source_docs``
    (documents missing from ``doc_texts`` are skipped; None when nothing could be measured)."""
    return [
        question_overlap(item.question, [doc_texts[d] for d in item.source_docs if d in doc_texts]) for item in items
    ]


def near_duplicates(
    questions: Sequence[str], threshold: float = NEAR_DUPLICATE_JACCARD
) -> list[tuple[int, int, float]]:
    """Pairs ``(i, j, jaccard)`` with ``i < j`` (0-based) whose character-trigram Jaccard is ``>= threshold``,
    most similar first.

    Jaccard can only reach ``t`` when the smaller set has at least ``t`` times the larger one's size, so
    questions are compared in order of size and a question stops being compared once the sizes drift apart.
    """
    if not 0 < threshold <= 1:
        raise ValueError(f"threshold must be in (0, 1], got {threshold}")
    grams = [char_ngrams(q) for q in questions]
    order = sorted(range(len(grams)), key=lambda i: len(grams[i]))
    found: list[tuple[int, int, float]] = []
    for pos, i in enumerate(order):
        if not grams[i]:
            continue
        for j in order[pos + 1 :]:
            if len(grams[i]) < threshold * len(grams[j]):
                break
            similarity = jaccard(grams[i], grams[j])
            if similarity >= threshold:
                found.append((min(i, j), max(i, j), round(similarity, 4)))
    return sorted(found, key=lambda t: (-t[2], t[0], t[1]))


def gate_flags(items: Sequence[TestQuestion]) -> tuple[dict[str, int], int]:
    """``({flag: items carrying it}, items with any flag)`` from :func:`testgen.gate.item_flags`."""
    counts: Counter[str] = Counter()
    flagged = 0
    for item in items:
        names = set(item_flags(item))
        counts.update(names)
        flagged += bool(names)
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))), flagged


def audit_dataset(
    items: Sequence[TestQuestion],
    doc_texts: Mapping[str, str],
    *,
    name: str = "",
    threshold: float = NEAR_DUPLICATE_JACCARD,
) -> DatasetAudit:
    """Mix, single-document share, question–source overlap, near-duplicates and gate flags of a set."""
    if not items:
        raise ValueError("cannot audit an empty test set")
    overlaps = question_overlaps(items, doc_texts)
    duplicates = near_duplicates([item.question for item in items], threshold)
    single = single_doc_count(items)
    flags, flagged = gate_flags(items)
    unknown = sum(1 for item in items for d in item.source_docs if d not in doc_texts)
    return DatasetAudit(
        dataset=name,
        items=len(items),
        mix=category_mix(items),
        single_doc=single,
        single_doc_share=round(single / len(items), 4),
        without_sources=sum(1 for item in items if not item.source_docs),
        unknown_sources=unknown,
        overlap_median=median_overlap(overlaps),
        overlap_measured=sum(1 for v in overlaps if v is not None),
        near_duplicate_threshold=threshold,
        near_duplicates=[
            NearDuplicate(first=i + 1, second=j + 1, similarity=s, questions=(items[i].question, items[j].question))
            for i, j, s in duplicates
        ],
        flags=flags,
        flagged_items=flagged,
    )


def derive_sources(
    item: TestQuestion, norm_texts: Mapping[str, str], *, require_all: bool = True
) -> tuple[list[str], bool]:
    """The documents holding an item's keywords, for hand-written items that lack ``source_docs``.

    ``norm_texts`` maps doc_id to text already passed through :func:`~testgen.text.normalize`. Returns the
    sorted documents containing every keyword (normalised match, :func:`~testgen.text.contains_keyword`) and
    True. When none contains them all: with ``require_all`` ``([], False)``; without it, the documents
    containing the most keywords and False. ``([], False)`` when the item has no keyword or no document
    contains any of them.
    """
    if not item.keywords:
        return [], False
    hits = {d: sum(contains_keyword(text, k) for k in item.keywords) for d, text in norm_texts.items()}
    best = max(hits.values(), default=0)
    complete = best == len(item.keywords)
    if best == 0 or (require_all and not complete):
        return [], False
    return sorted(d for d, n in hits.items() if n == best), complete


def prepare_human(items: Sequence[TestQuestion], doc_texts: Mapping[str, str]) -> HumanSources:
    """Keep the hand-written items rank metrics can score, deriving missing ``source_docs``.

    * ``source_docs`` given and non-empty: kept as written;
    * ``source_docs`` written as ``[]``: a no-answer question — left out and counted;
    * no ``source_docs`` field: derived with :func:`derive_sources` (all keywords required); kept when some
      document contains them all, else left out and counted as unresolved.
    """
    norm = {d: normalize(t) for d, t in doc_texts.items()}
    out = HumanSources()
    for item in items:
        if item.source_docs:
            out.items.append(item)
            out.given += 1
        elif "source_docs" in item.model_fields_set:
            out.no_answer += 1
        else:
            sources, _ = derive_sources(item, norm)
            if sources:
                out.items.append(item.model_copy(update={"source_docs": sources}))
                out.derived += 1
            else:
                out.unresolved += 1
    return out


def _short(text: str, width: int = 70) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def describe_dataset(audit: DatasetAudit, label: str) -> list[str]:
    """The text report of one set, as lines."""
    lines = [f"{label}: {audit.dataset} — {audit.items} items"]
    lines.append("  category mix: " + ", ".join(f"{c.category} {c.count} ({c.share:.0%})" for c in audit.mix))
    lines.append(f"  single-document items: {audit.single_doc}/{audit.items} ({audit.single_doc_share:.0%})")
    if audit.without_sources or audit.unknown_sources:
        lines.append(
            f"  items without source_docs: {audit.without_sources}; source_docs not in the KB: {audit.unknown_sources}"
        )
    median = "n/a" if audit.overlap_median is None else f"{audit.overlap_median:.2f}"
    lines.append(f"  question–source overlap: median {median} over {audit.overlap_measured} items")
    lines.append(
        f"  near-duplicate question pairs (trigram Jaccard >= {audit.near_duplicate_threshold}): "
        f"{len(audit.near_duplicates)}"
    )
    for dup in audit.near_duplicates[:SHOWN_DUPLICATES]:
        lines.append(
            f"    #{dup.first} ~ #{dup.second} ({dup.similarity:.2f}): {_short(dup.questions[0])!r} / "
            f"{_short(dup.questions[1])!r}"
        )
    if len(audit.near_duplicates) > SHOWN_DUPLICATES:
        lines.append(f"    … {len(audit.near_duplicates) - SHOWN_DUPLICATES} more in the JSON report")
    listed = ", ".join(f"{name} {n}" for name, n in audit.flags.items()) or "none"
    lines.append(f"  gate flags: {audit.flagged_items}/{audit.items} items flagged; {listed}")
    lines.extend(f"  note: {note}" for note in audit.notes)
    return lines
