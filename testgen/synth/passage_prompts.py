"""Versioned prompts for questions written from passages (`testgen.synth.passages`), and the replies they ask for.

One call per seed: the model reads one to three passages (each with its document and heading path), writes one
question of the requested type in the words a user would type, the reference answer, keywords, and the
evidence — sentences quoted from the passages — then reviews its own item. The project checks every quote
against the passage it cites (`testgen.synth.passage_check`). An item whose question still copies the evidence's
words gets one rephrase call (`rephrase_messages`). Bump :data:`PASSAGE_PROMPT_VERSION` whenever a template
changes: it is written into every item's metadata, and the prompt text is part of the cache key.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from testgen.synth.passages import PassageSeed
from testgen.synth.prompts import language_name
from testgen.synth.types import QUESTION_TYPES

PASSAGE_PROMPT_VERSION = "passage-v1"

#: What a passage item of each category must be (the category contract, said for passages).
PASSAGE_CATEGORY_GUIDE: dict[str, str] = {
    "direct_fact": "one point stated in the passage; the answer is in one place",
    "temporal": "about when something happened or holds: the reference answer states a date, time or period "
    "copied from the evidence",
    "numerical": "about a number, amount or percentage: the reference answer states the number copied from the "
    "evidence",
    "comparative": "about two things the passages contrast: name both in the question (entities), and say in the "
    "answer how they differ or which one is ahead",
    "spanning": "a question that needs BOTH passages (they are from different documents): neither passage alone "
    "answers it; quote evidence from each passage",
    "holistic": "a question over ALL the passages (different documents on one topic), asking for a summary or a "
    "list across them; quote evidence from every passage",
    "relationship": "how two named things in the passage are related (who made, owns, uses, causes or belongs to "
    "what): name both in entities, and the answer states the relation",
}

SYSTEM = (
    "You write test questions for a retrieval-augmented generation (RAG) system. A user who has NOT seen the "
    "passages will type the question into a search box or a chat, so it uses the words a user would use, not "
    "the passage's headings or sentences. You also write the reference answer, keywords, and the evidence: "
    "sentences copied character for character from the passages. Then you review your own item honestly. "
    "Reply with one JSON object only."
)


class Quote(BaseModel):
    """One evidence sentence and the passage it is copied from."""

    passage: str = Field(description='The passage id, e.g. "P1".')
    quote: str = Field(description="A sentence copied character for character from that passage.")


class PassageReply(BaseModel):
    """The structured reply of one passage call: the item, its evidence, then the model's review."""

    question: str = Field(description="The question, as a user would type it.")
    reference_answer: str = Field(description="The correct answer in one to three sentences, from the evidence.")
    keywords: list[str] = Field(description="1-4 short spans copied from the evidence that the answer contains.")
    evidence: list[Quote] = Field(description="The sentences that answer the question, quoted from the passages.")
    entities: list[str] = Field(default_factory=list, description="The two things a contrast or relation names.")
    answerable_from_passages: bool = Field(description="The evidence alone answers the question.")
    answer_supported: bool = Field(description="Every claim of the answer is in the evidence.")
    needs_all_passages: bool = Field(description="Answering needs the evidence of every passage.")
    issues: str = Field(default="", description="Problems the model saw, or empty.")


class RephraseReply(BaseModel):
    """The reply of a rephrase call: the question in a user's own words."""

    question: str = Field(description="The same question in different words.")


def passage_block(seed: PassageSeed, titles: dict[str, str]) -> list[str]:
    """The passages as the prompt shows them, each labelled P1, P2, … with its document and section."""
    lines: list[str] = []
    for i, chunk in enumerate(seed.chunks, 1):
        section = " > ".join(chunk.heading_path) or "(none)"
        title = titles.get(chunk.doc_id, chunk.doc_id)
        lines.append(f'<passage id="P{i}" document="{chunk.doc_id}" title="{title}" section="{section}">')
        lines.append(chunk.text.strip())
        lines.append("</passage>")
    return lines


def passage_messages(
    seed: PassageSeed, titles: dict[str, str], *, persona: str | None = None, style: str | None = None
) -> list[dict[str, str]]:
    """The chat messages for one passage seed (system + user), deterministic for the same inputs."""
    qtype = QUESTION_TYPES[seed.question_type]
    language = language_name(seed.language)
    many = len(seed.chunks) > 1
    parts = [
        f"Question type: {seed.question_type} — {qtype.ask}.",
        f'Example of the type (another topic): "{qtype.example}"',
        f"Category: {seed.category} — {PASSAGE_CATEGORY_GUIDE.get(seed.category, 'grounded in the passages')}.",
        f"Language: write the question and the reference answer in {language}.",
    ]
    if seed.topic:
        parts.append(f'The passages come from {len(seed.chunks)} documents that share the topic "{seed.topic}".')
    if style:
        parts.append(f"Query style: {style}.")
    if persona:
        parts.append(f"Ask as this person would: {persona}")
    parts += ["", *passage_block(seed, titles), "", "Rules:"]
    parts += [
        "- question: what a user would type. Use your own everyday words: do not copy a phrase of four or more "
        "words from the passages, do not use the section headings, and never mention 'the passage', 'the "
        "document', 'the text' or 'the author'. Name the subject so the question stands alone.",
        "- The question must not contain the answer.",
        f"- reference_answer: in {language}, answering the question completely from the evidence"
        + (" (start with Yes or No)" if seed.question_type == "yes_no" else "")
        + ".",
        "- keywords: 1 to 4 short spans (one to four words each) copied exactly from your evidence quotes, that "
        "a correct answer must contain and the question does not; the reference_answer contains each of them.",
        "- evidence: the sentence(s) that answer the question, each copied exactly from one passage, with that "
        'passage\'s id ("P1"'
        + (', "P2", …' if many else "")
        + "). Do not shorten, reword or translate them."
        + (" Quote at least one sentence from EVERY passage." if many and seed.category != "comparative" else ""),
        "- entities: for a contrast or a relation, the two things, written exactly as in the passages; else [].",
        "- answerable_from_passages: true only if the evidence alone answers the question.",
        "- answer_supported: true only if every claim in the reference_answer is stated in the evidence.",
        "- needs_all_passages: true only if answering needs the evidence of every passage given.",
        '- issues: a short note of any problem, or "".',
    ]
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n".join(parts)}]


def rephrase_messages(question: str, evidence: list[str], language: str) -> list[dict[str, str]]:
    """The one rephrase call for a question that copies its evidence's words."""
    quoted = "\n".join(f"- {e}" for e in evidence)
    text = "\n".join(
        [
            "This test question copies too many words from the text that answers it, so a keyword search finds "
            "it too easily and it does not read like a real user's question:",
            f'"{question}"',
            "",
            "The text that answers it:",
            quoted,
            "",
            f"Rewrite the question in {language_name(language)} as a user who has not read that text would type "
            "it: the same meaning and the same answer, in everyday words, with as few of the text's words as "
            "possible (names may stay). Do not add the answer to the question.",
            'Reply with one JSON object only: {"question": "..."}',
        ]
    )
    return [{"role": "user", "content": text}]
