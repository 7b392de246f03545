"""The judge's prompts: the rubric of every score, and the messages of a bundled or a single-score call.

Design choices (what a user auditing the judge should know):

- Reasons are written in English whatever the question's language, so reports read alike across test sets;
  the judge may quote words of the answer in their own language.
- The judge is told the texts may be Korean, Chinese, Japanese or English (the answer possibly in another
  language than the reference) and to judge meaning, not language, wording or formatting.
- Each reason comes before its score in the requested JSON, so the model justifies, then scores.
- Sizes are capped: contexts as in the answer prompt (each ≤ 2,000 characters, all together ≈ 12,000, see
  :func:`evaluators.answer.numbered_contexts`), the answer at :data:`MAX_ANSWER_CHARS` and the reference at
  :data:`MAX_REFERENCE_CHARS`; a cut is marked ``[…]``.
- A single-score call (separate mode) shows only what that score needs: faithfulness never sees the reference
  answer, relevance and answer relevancy see only the question and the answer.

Bump :data:`JUDGE_PROMPT_VERSION` whenever a template changes.
"""

from __future__ import annotations

from evaluators.answer import numbered_contexts, question_language, truncate
from evaluators.judge.case import JudgeCase
from evaluators.scales import JUDGE_ORDER
from testgen.synth.prompts import language_name

JUDGE_PROMPT_VERSION = "judge-v1"

JUDGE_SCORES: tuple[str, ...] = JUDGE_ORDER
"""accuracy, completeness, relevance (1–5) and faithfulness, answer_relevancy (0–1), in report order."""
FIVE_POINT = frozenset({"accuracy", "completeness", "relevance"})
"""The scores on the 1–5 scale; the others are on 0–1."""

MAX_ANSWER_CHARS = 4_000
"""Characters of the answer shown to the judge (a longer answer is cut and marked)."""
MAX_REFERENCE_CHARS = 2_000
"""Characters of the reference answer shown to the judge."""


def score_range(name: str) -> tuple[float, float]:
    """``(1, 5)`` for accuracy, completeness and relevance; ``(0, 1)`` for faithfulness and answer relevancy."""
    return (1.0, 5.0) if name in FIVE_POINT else (0.0, 1.0)


RUBRIC: dict[str, str] = {
    "accuracy": (
        "accuracy (integer 1-5): is what the answer says correct, judged against the REFERENCE ANSWER only?\n"
        "  5 = every fact of the reference answer is stated correctly and nothing contradicts it\n"
        "  4 = the main point is correct; a minor detail is missing or slightly imprecise\n"
        "  3 = partly correct: some facts of the reference are right, but a significant one is wrong or missing\n"
        "  2 = mostly wrong: at most a minor detail agrees with the reference\n"
        "  1 = wrong or contradicts the reference (a wrong answer gets 1), or gives no answer at all (e.g. "
        '"I don\'t know", "I cannot find it in the documents" also gets 1)\n'
        "  Names, numbers, dates and units must agree in value; a different format of the same value is fine "
        "(1,000 = 1000; 2024-03-01 = March 1, 2024; 1억 원 = 100,000,000원). Extra information not in the "
        "reference does not lower accuracy unless it contradicts the reference."
    ),
    "completeness": (
        "completeness (integer 1-5): how much of the REFERENCE ANSWER's content, and of the KEYWORDS, does the "
        "answer cover, in meaning (particles, inflections, word order and format do not matter)?\n"
        "  5 = all of it   4 = nearly all   3 = about half   2 = a small part   1 = none of it, or no answer\n"
        "  Covering content wrongly (a wrong value) does not count as covering it."
    ),
    "relevance": (
        "relevance (integer 1-5): does the answer address the QUESTION that was asked (whether or not it is "
        "correct)?\n"
        "  5 = addresses exactly what was asked   4 = addresses it, with some unneeded material\n"
        "  3 = only partly addresses it, or answers a related but different question\n"
        '  2 = barely touches the question   1 = does not address it (off topic, a refusal, or "I don\'t know")'
    ),
    "faithfulness": (
        "faithfulness (number 0-1): the share of the answer's factual claims that the RETRIEVED CONTEXTS "
        "support. Use only the retrieved contexts, not the reference answer and not your own knowledge. List "
        "the claims the answer makes, count those the contexts state or directly imply, and divide by the "
        "number of claims (e.g. 3 of 4 claims supported = 0.75). With no retrieved contexts every claim is "
        "unsupported (0). An answer that makes no factual claim (it only says it cannot find the information) "
        "gets 1."
    ),
    "answer_relevancy": (
        "answer_relevancy (number 0-1): how directly the answer responds to the QUESTION, whether or not it is "
        "correct. 1.0 = a direct, focused response to exactly what was asked; about 0.5 = partly responsive, "
        "vague, or padded with much unrelated material; 0.0 = does not respond (off topic, evasive, a refusal "
        'or "I don\'t know").'
    ),
}

#: What a single-score call (separate mode) shows the judge, besides the question and the answer.
NEEDS: dict[str, tuple[str, ...]] = {
    "accuracy": ("reference",),
    "completeness": ("reference", "keywords"),
    "relevance": (),
    "faithfulness": ("contexts",),
    "answer_relevancy": (),
}

SYSTEM = (
    "You are a strict, fair evaluator of the answers of a retrieval-augmented generation (RAG) system. You "
    "score one answer with the rubric you are given and justify each score in one short sentence. The "
    "question, the answer, the reference answer and the retrieved contexts may be written in Korean, "
    "Chinese, Japanese or English, and the answer may be in a different language from the reference: judge "
    "the meaning, not the language, the wording or the formatting. Write every reason in English (quote words "
    "of the answer in their original language when that helps). Reply with one JSON object only."
)


def _language_line(case: JudgeCase) -> str:
    lang = language_name(question_language(case.question, case.language))
    return f"The question is written in {lang}. Judge meaning, not language or wording."


def _material(case: JudgeCase, parts: tuple[str, ...]) -> list[str]:
    lines = [f"QUESTION:\n{case.question.strip()}", ""]
    if "reference" in parts:
        lines += [f"REFERENCE ANSWER (treat as correct):\n{truncate(case.reference_answer, MAX_REFERENCE_CHARS)}", ""]
    if "keywords" in parts:
        keywords = ", ".join(f'"{k}"' for k in case.keywords if k.strip()) or "(none given)"
        lines += [f"KEYWORDS (facts a complete answer contains): {keywords}", ""]
    if "contexts" in parts:
        lines += [
            f"RETRIEVED CONTEXTS (what the system read before answering):\n{numbered_contexts(case.contexts)}",
            "",
        ]
    lines += [f"ANSWER TO JUDGE:\n{truncate(case.answer or '', MAX_ANSWER_CHARS)}", ""]
    return lines


def bundled_messages(case: JudgeCase) -> list[dict[str, str]]:
    """The messages of the one call that returns every score with its reason (bundled mode)."""
    fields = ", ".join(f"{name}_reason, {name}" for name in JUDGE_SCORES)
    lines = [
        _language_line(case),
        "",
        *_material(case, ("reference", "keywords", "contexts")),
        "RUBRIC (score each criterion on its own; do not let one score pull another):",
        *(f"- {RUBRIC[name]}" for name in JUDGE_SCORES),
        "",
        f"Reply with a JSON object with exactly these fields, in this order: {fields}. Each *_reason is one "
        "short sentence in English (at most 30 words) written before its score; accuracy, completeness and "
        "relevance are integers from 1 to 5; faithfulness and answer_relevancy are numbers from 0 to 1.",
    ]
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n".join(lines)}]


def single_messages(case: JudgeCase, name: str) -> list[dict[str, str]]:
    """The messages of the call that returns the one score `name` with its reason (separate mode)."""
    if name not in RUBRIC:
        raise ValueError(f"unknown judge score {name!r}; expected one of {', '.join(JUDGE_SCORES)}")
    low, high = score_range(name)
    kind = f"an integer from {low:g} to {high:g}" if name in FIVE_POINT else f"a number from {low:g} to {high:g}"
    lines = [
        _language_line(case),
        "",
        *_material(case, NEEDS[name]),
        "CRITERION:",
        RUBRIC[name],
        "",
        'Reply with a JSON object with exactly two fields, in this order: "reason" (one short sentence in '
        f'English, at most 30 words) and "score" ({kind}).',
    ]
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "\n".join(lines)}]
