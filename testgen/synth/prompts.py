"""Versioned prompt templates for the LLM rewriter: one structured call turns an offline draft (the seed)
into the question a careful human would write, with its answer, keywords and a self-check.

Everything the model needs is known before the call: the category, the evidence lines verbatim with their
documents, the facts, and the fixed result (value, computed number, winner, bridge entity). The model phrases;
it never decides the answer. Bump :data:`PROMPT_VERSION` whenever a template changes (it is written into every
item's metadata and is part of the cache key through the prompt text).
"""

from __future__ import annotations

from testgen.synth.draft import Draft

PROMPT_VERSION = "rewrite-v1"

#: Facts (and evidence lines) shown per prompt; holistic seeds can read many documents.
MAX_FACTS = 12

LANGUAGE_NAMES = {
    "en": "English",
    "ko": "Korean (한국어)",
    "ja": "Japanese (日本語)",
    "zh": "Chinese (中文)",
}

#: category → (definition, post-condition the final item is checked against)
CATEGORY_GUIDE: dict[str, tuple[str, str]] = {
    "direct_fact": (
        "a single fact looked up in one place: the answer is the fact's value",
        "the reference answer states the value exactly as written; every keyword is part of the value",
    ),
    "temporal": (
        "when something happened or holds: a date, time or period",
        "the reference answer states the date exactly as written",
    ),
    "numerical": (
        "a number, amount or percentage, or a sum, difference or ratio of two values",
        "the reference answer states the number (or the computed result) exactly as given",
    ),
    "comparative": (
        "which of two or three entities of the same kind has the higher/lower (earlier/later) value",
        "the question names every entity; the reference answer starts with the winner and names it",
    ),
    "spanning": (
        "a two-step question: the first document leads to an entity (the bridge) whose own document holds "
        "the answer; the question must not name the bridge",
        "answering needs both documents; no single document answers it",
    ),
    "holistic": (
        "an aggregate over a whole kind of document: a count, or which one has the highest/lowest value",
        "the reference answer states the count in digits or names the one with the extreme value",
    ),
    "relationship": (
        "how two entities are related (owner, manager, client, product, ...)",
        "the reference answer names both entities and the relation",
    ),
}

STYLES: dict[str, str] = {
    "plain": "a complete, natural question, as a colleague would ask it",
    "web": "a short web-search-like query: a few key words, no full sentence needed",
    "misspelled": ("a natural question with one or two small typos in common words (never in names, numbers or dates)"),
}

SYSTEM = (
    "You write test questions for evaluating a retrieval-augmented generation (RAG) system over an "
    "organisation's documents. You are given facts with their evidence lines quoted verbatim from the "
    "documents. Write one question a careful human tester would write, its reference answer and keywords, "
    "then check your own work honestly. Reply with one JSON object only, with exactly these fields: "
    "question, reference_answer, keywords, stated_result, answerable_from_sources, answer_supported, "
    "needs_all_documents, issues."
)


def language_name(code: str) -> str:
    """``ko`` → ``Korean (한국어)``; unknown codes are given as they are."""
    return LANGUAGE_NAMES.get(code, code)


def expected_result(seed: Draft) -> tuple[str, str] | None:
    """What the answer must state, fixed before the call: ``(kind, text)`` with kind winner/count/result/value."""
    derived = seed.derived
    if seed.category == "comparative" and derived.get("winner"):
        return "winner", str(derived["winner"])
    if seed.category == "holistic" and derived:
        if derived.get("op") == "count":
            return "count", str(derived["count"])
        return "winner", str(derived["winner"])
    if seed.category == "numerical" and derived.get("result_text"):
        return "result", str(derived["result_text"])
    if seed.category in ("direct_fact", "temporal", "numerical") and seed.facts:
        return "value", seed.facts[0].value
    if seed.answer_spans:
        return "value", seed.answer_spans[0]
    return None


def _fixed_lines(seed: Draft) -> list[str]:
    """The result the model must state, and the names it must (or must not) use."""
    lines: list[str] = []
    derived = seed.derived
    if seed.category == "comparative":
        direction = "higher/later" if derived.get("higher") else "lower/earlier"
        names = ", ".join(f'"{n}"' for n in seed.named_entities)
        lines.append(f'The winner is "{derived["winner"]}" (it has the {direction} value). Do not recompute it.')
        lines.append(f"Name every entity in the question exactly as written: {names}.")
        lines.append(f'Begin the reference answer with "{derived["winner"]}".')
    elif seed.category == "numerical" and derived.get("op"):
        lines.append(
            f'The {derived["op"]} of the two values is "{derived["result_text"]}". Do not recompute it; '
            "state it exactly like this in the answer."
        )
    elif seed.category == "holistic" and derived.get("op") == "count":
        names = ", ".join(derived.get("names", []))
        lines.append(f"The count is {derived['count']} ({names}). State the number in digits: {derived['count']}.")
    elif seed.category == "holistic" and derived:
        lines.append(f'The one with the {derived["op"]}imum value is "{derived["winner"]}" ({derived["value"]}).')
    elif seed.category == "spanning" and len(seed.facts) >= 2:
        lines.append(
            f'The bridge entity is "{seed.facts[0].value}": the question must lead to it without naming it; '
            f'the answer is "{seed.facts[1].value}" and may name the bridge.'
        )
    if seed.category == "relationship" and seed.named_entities:
        lines.append("The two entities: " + ", ".join(f'"{n}"' for n in seed.named_entities) + ".")
    result = expected_result(seed)
    if result is not None:
        lines.append(f'stated_result must be "{result[1]}", and the reference answer must contain it verbatim.')
    spans = [s for s in seed.answer_spans if s]
    if spans:
        lines.append("Never put these in the question (they are the answer): " + ", ".join(f'"{s}"' for s in spans))
    return lines


def build_messages(
    seed: Draft,
    *,
    description: str = "",
    persona: str | None = None,
    style: str = "plain",
) -> list[dict[str, str]]:
    """The chat messages for one rewrite of `seed` (system + user), deterministic for the same inputs."""
    definition, postcondition = CATEGORY_GUIDE.get(seed.category, (description, "the answer is grounded"))
    language = language_name(seed.language)
    facts = seed.facts[:MAX_FACTS]
    evidence: list[str] = []
    for fact in facts:
        line = f"- {fact.doc_id}: {fact.evidence.strip()}"
        if line not in evidence:
            evidence.append(line)
    fact_lines = [f"- {f.subject} | {f.attribute} | {f.value}  ({f.doc_id})" for f in facts]
    parts = [
        f"Category: {seed.category} — {definition}.",
        f"Checked on the result: {postcondition}.",
        f"Language: write the question and the reference answer in {language}.",
        "",
        "Evidence lines (verbatim, each with its document):",
        *evidence,
        "",
        "Facts (subject | attribute | value):",
        *fact_lines,
        "",
        *_fixed_lines(seed),
        "",
        f"Query style: {STYLES.get(style, STYLES['plain'])}.",
    ]
    if persona:
        parts.append(f"Ask as this person would: {persona}")
    parts += [
        "",
        f'A plain fallback question you should improve on (or keep if it is already good): "{seed.question}"',
        f'Its plain answer: "{seed.reference_answer}"',
        "",
        "Rules:",
        "- Ask only what the evidence answers. Never mention 'the document', 'the evidence', 'the text' or 'the "
        "context'.",
        f"- reference_answer: one full sentence in {language} that states the result exactly as given above.",
        "- keywords: 1 to 4 short spans copied character for character from the evidence lines that a correct "
        "answer must contain"
        + (" (only parts of the value)" if seed.category == "direct_fact" else "")
        + "; never translate or reformat them.",
        "- answerable_from_sources: true only if the evidence alone answers the question.",
        "- answer_supported: true only if every claim in the reference answer is stated in the evidence.",
        "- needs_all_documents: true only if answering needs evidence from more than one of the documents.",
        '- issues: a short note of any problem, or "".',
    ]
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n".join(parts)}]
