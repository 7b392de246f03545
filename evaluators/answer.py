"""Answers for the built-in baseline RAG: a grounded answer written by a model from the retrieved contexts, or,
offline, the retrieved sentence that best matches the question.

The model prompt (:func:`answer_messages`) numbers the contexts and asks for a short answer in the question's
language from them only, or a plain "cannot find it". Contexts are capped the same way in the answer and the
judge prompts (:func:`numbered_contexts`): each at most :data:`MAX_CONTEXT_CHARS` characters, and all of them
together about :data:`MAX_CONTEXTS_CHARS` (with many contexts each gets an equal share, never below
:data:`MIN_CONTEXT_CHARS`), so every retrieved context is shown and a prompt's size stays bounded.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import TypeVar

from evaluators.concurrency import run_bounded, run_sync
from evaluators.targets.tokenize import tokenize
from testgen.lang.detect import detect_language
from testgen.llm import LLM, LLMCallError
from testgen.llm.loop import EventLoop
from testgen.redact import redact
from testgen.synth.prompts import language_name

__all__ = [
    "ANSWER_MAX_TOKENS",
    "ANSWER_PROMPT_VERSION",
    "ANSWER_STAGE",
    "MAX_CONTEXTS_CHARS",
    "MAX_CONTEXT_CHARS",
    "agenerate_answer",
    "answer_messages",
    "call_error",
    "extractive_answer",
    "generate_answers",
    "numbered_contexts",
    "question_language",
    "split_sentences",
    "truncate",
]

T = TypeVar("T")

ANSWER_STAGE = "answer"
ANSWER_PROMPT_VERSION = "answer-v1"
"""Bump whenever the answer prompt changes (the prompt text is part of the LLM cache key)."""
ANSWER_MAX_TOKENS = 400
"""Completion limit of one answer call: one to three sentences need far less; room for a verbose model."""

MAX_CONTEXT_CHARS = 2_000
"""Characters of one retrieved context shown in a prompt; longer ones are cut and marked ``[…]``."""
MAX_CONTEXTS_CHARS = 12_000
"""Characters of all contexts of one prompt together (≈3k tokens of English, up to ≈12k of CJK text)."""
MIN_CONTEXT_CHARS = 300
"""A context is never cut below this, however many there are."""
TRUNCATION_MARK = " […]"
NO_CONTEXTS = "(no context passages were retrieved)"

#: How many of the top contexts the extractive answer reads.
EXTRACTIVE_CONTEXTS = 5

_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
# Sentence ends: . ! ? followed by a space (not inside 3.5 or a URL), CJK full stops anywhere, line breaks, and
# Korean declarative/polite endings followed by a space (Korean text often drops the final period).
# (-니다 covers -습니다/-입니다; each ending is a fixed-width look-behind).
_KOREAN_END = r"(?:(?<=[니었였았했겠이한된있없]다)|(?<=[예에어아해세까]요)|(?<=죠))"
_SENTENCE_END = re.compile(rf"(?<=[.!?])\s+|(?<=[。！？])\s*|\s*\n\s*|{_KOREAN_END}\s+")
_LINE_MARKER = re.compile(r"^(?:#{1,6}\s+|[-*+>]\s+|\d+[.)]\s+|\|\s*)")
_EMPHASIS = re.compile(r"(\*\*|__|`)(.+?)\1")
_CELL_BORDER = re.compile(r"\s*\|\s*")


def truncate(text: str, limit: int) -> str:
    """`text` stripped, cut to `limit` characters with a visible ``[…]`` mark when longer."""
    text = text.strip()
    if len(text) <= limit:
        return text
    return text[: max(limit - len(TRUNCATION_MARK), 0)].rstrip() + TRUNCATION_MARK


def numbered_contexts(
    contexts: Sequence[str], *, per_context: int = MAX_CONTEXT_CHARS, total: int = MAX_CONTEXTS_CHARS
) -> str:
    """The contexts as ``[1] …``, ``[2] …`` blocks in rank order, each cut to ``min(per_context, total / n)``
    characters (at least :data:`MIN_CONTEXT_CHARS`); :data:`NO_CONTEXTS` when there are none."""
    texts = [c for c in contexts if c and c.strip()]
    if not texts:
        return NO_CONTEXTS
    limit = max(min(per_context, total // len(texts)), MIN_CONTEXT_CHARS)
    return "\n\n".join(f"[{i}] {truncate(text, limit)}" for i, text in enumerate(texts, 1))


def question_language(question: str, language: str | None) -> str:
    """The language code to write in: the given BCP-47 tag's primary subtag, else detected from the question."""
    if language and language.strip():
        return re.split(r"[-_]", language.strip().lower(), maxsplit=1)[0]
    return detect_language(question)


def call_error(exc: BaseException) -> str:
    """How a failed call is recorded: ``LLMTimeout: the provider did not answer ...``."""
    message = " ".join(redact(str(exc)).split())
    return f"{type(exc).__name__}: {message}" if message else type(exc).__name__


ANSWER_SYSTEM = (
    "You are the answering step of a retrieval-augmented question answering system. You answer a user's "
    "question using only the numbered context passages retrieved for it, never your own knowledge."
)


def answer_messages(question: str, contexts: list[str], language: str | None) -> list[dict[str, str]]:
    """The chat messages asking for a short answer to `question` grounded in the numbered `contexts`."""
    lang = language_name(question_language(question, language))
    user = "\n".join(
        [
            "Context passages:",
            numbered_contexts(contexts),
            "",
            f"Question: {question.strip()}",
            "",
            "Instructions:",
            "- Answer only from the context passages above. Do not add facts they do not state.",
            f"- Write the answer in {lang}, the language of the question.",
            "- Be concise: one to three sentences that answer the question directly. Keep names, numbers, "
            "dates and units exactly as the passages write them.",
            "- If the passages do not contain the answer, say in one sentence that you cannot find it in the "
            "provided documents, and do not guess.",
            "- Reply with the answer only: no preamble, no passage numbers, no quotation of the question.",
        ]
    )
    return [{"role": "system", "content": ANSWER_SYSTEM}, {"role": "user", "content": user}]


def _clean_answer(text: str) -> str:
    """The reply without reasoning blocks (``<think>…</think>``), an ``Answer:`` label or surrounding quotes."""
    text = _THINK.sub("", text).strip()
    text = re.sub(r"^(?:answer|답변|답|回答|答案)\s*[:：]\s*", "", text, flags=re.IGNORECASE)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1].strip()
    return text


async def agenerate_answer(
    question: str, contexts: list[str], llm: LLM, *, language: str | None = None
) -> tuple[str | None, str | None]:
    """``(answer, None)``, or ``(None, reason)`` when the call failed or the reply was empty.

    A failed call (`LLMCallError`) is returned as its reason, e.g. ``"LLMTimeout: …"``; `LLMBudgetExceeded`
    propagates. With no contexts the model is still asked (the prompt says none were retrieved), so a system
    that retrieves nothing gets the "cannot find it" answer it would give, and is judged on it.
    """
    messages = answer_messages(question, contexts, language)
    try:
        done = await llm.acomplete(messages, stage=ANSWER_STAGE, temperature=0.0, max_tokens=ANSWER_MAX_TOKENS)
    except LLMCallError as exc:
        return None, call_error(exc)
    answer = _clean_answer(done.text or "")
    if not answer:
        return None, "the model gave an empty answer"
    return answer, None


def generate_answers(
    items: Sequence[tuple[str, list[str], str | None]],
    llm: LLM,
    *,
    concurrency: int = 8,
    progress: Callable[[int, int], None] | None = None,
    loop: EventLoop | None = None,
) -> list[tuple[str | None, str | None]]:
    """Blocking :func:`agenerate_answer` over ``(question, contexts, language)`` items, in input order.

    Per-item failures are returned as ``(None, reason)``; `LLMBudgetExceeded` propagates. Pass the run's
    `loop` so an async client stays on one event loop.
    """
    jobs = [(lambda q=q, c=c, lang=lang: agenerate_answer(q, c, llm, language=lang)) for q, c, lang in items]
    return run_sync(run_bounded(jobs, concurrency, progress), loop)


def split_sentences(text: str) -> list[str]:
    """Sentences of `text`: split after . ! ? (before a space), 。！？, line breaks and Korean sentence endings;
    list bullets, heading marks, bold/code marks and table borders are dropped (a table row reads "a — b")."""
    out: list[str] = []
    for piece in _SENTENCE_END.split(text):
        sentence = _LINE_MARKER.sub("", piece.strip()).strip()
        sentence = _EMPHASIS.sub(r"\2", sentence)
        if "|" in sentence:
            cells = [c for c in _CELL_BORDER.split(sentence) if c and not set(c) <= set("-: ")]
            sentence = " — ".join(cells)
        if sentence:
            out.append(sentence)
    return out


def extractive_answer(question: str, contexts: list[str], language: str | None = None) -> str | None:
    """The sentence of the top contexts that best matches the question's terms (no model); None without contexts.

    Sentences are scored by the IDF-weighted question terms they contain (tokenised as for BM25, so Korean,
    Chinese and Japanese work); a sentence that only repeats question terms counts half, ties go to the
    higher-ranked context and the earlier sentence. With no term in common, the first sentence of the top
    context is the answer.
    """
    candidates: list[tuple[int, int, str]] = []
    for rank, context in enumerate(c for c in contexts if c and c.strip()):
        if rank >= EXTRACTIVE_CONTEXTS:
            break
        candidates.extend((rank, pos, s) for pos, s in enumerate(split_sentences(context)))
    if not candidates:
        return None
    terms = set(tokenize(question, language))
    token_sets = [set(tokenize(s, language)) for _, _, s in candidates]
    df: dict[str, int] = {}
    for tokens in token_sets:
        for term in tokens & terms:
            df[term] = df.get(term, 0) + 1
    n = len(candidates)
    best: tuple[float, int, int] | None = None
    best_sentence = candidates[0][2]
    for (rank, pos, sentence), tokens in zip(candidates, token_sets, strict=True):
        shared = tokens & terms
        score = sum(math.log(1.0 + n / df[t]) for t in shared)
        if not tokens - terms:
            score /= 2
        key = (score, -rank, -pos)
        if score > 0 and (best is None or key > best):
            best, best_sentence = key, sentence
    return best_sentence
