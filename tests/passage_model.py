"""A scripted model that answers passage prompts (`testgen.synth.passage_prompts`) the way a good model would:
it quotes whole sentences from the passages it cites (a date sentence for temporal, a number for numerical, one
from every passage when all are needed), takes keywords from its quotes, writes the answer from them and asks
the question in a few words of its own around two words of the passage. It answers rephrase prompts with a
question in other words.

    FakeLLM(lambda messages: passage_reply(messages[-1]["content"]))
    FakeOpenAIServer(lambda request: passage_reply(request.last_user_text))

`passage_reply(prompt, **override)` replaces fields of the reply (``question="…"``, ``evidence=[…]``), or, given
a callable, calls it with the parsed prompt.
"""

from __future__ import annotations

import json
import re
import zlib
from dataclasses import dataclass
from typing import Any

_PASSAGE = re.compile(
    r'<passage id="(P\d+)" document="([^"]*)" title="([^"]*)" section="([^"]*)">\n(.*?)\n</passage>', re.S
)
_DATE = re.compile(
    r"\b(?:(?:January|February|March|April|May|June|July|August|September|October|November|December)"
    r"(?: \d{1,2},)? \d{4}|\d{4}-\d{2}-\d{2}|(?:1[89]|20)\d{2})\b"
)
_UNITS = "percent|hours|days|weeks|months|years|minutes|people|patients|cases|times|GB|MB"
_NUMBER = re.compile(r"(?<![\w.])\$?\d[\d,]*(?:\.\d+)?(?: ?%| (?:" + _UNITS + "))?")
_WORD = re.compile(r"[A-Za-z][A-Za-z-]{4,}")
_COMMON = frozenset(
    """about after again their there these those which while where would could should other being because
    between through during before under since until within without however another either around""".split()
)
TEMPLATES = {
    "what": "What do I need to know about {a} and {b}?",
    "why": "Why is that the case for {a} with {b}?",
    "how": "How would I go about {a} with {b}?",
    "conditional": "What happens with {a} if {b} comes up?",
    "yes_no": "Is it true that {a} goes with {b}?",
    "list": "Which things come up for {a} and {b}?",
    "contrast": "How do {a} and {b} stack up against each other?",
    "summary": "Give me the gist on {a} and {b} across these.",
}


@dataclass
class Prompt:
    """What the scripted model reads from a passage prompt."""

    qtype: str
    category: str
    passages: list[tuple[str, str]]  # (id, text)
    text: str


def parse_prompt(text: str) -> Prompt:
    qtype = re.search(r"^Question type: (\w+)", text, re.M)
    category = re.search(r"^Category: (\w+)", text, re.M)
    assert qtype and category, "not a passage prompt"
    passages = [(m.group(1), m.group(5)) for m in _PASSAGE.finditer(text)]
    return Prompt(qtype.group(1), category.group(1), passages, text)


def sentences(text: str) -> list[str]:
    """Whole prose sentences of a passage (no headings, table rows or list marks), as written."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", "|", "```", ">", "<")) or "](" in line or "http" in line:
            continue
        line = re.sub(r"^([-*+•]|\d+[.)])\s+", "", line)
        for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z])", line):
            words = sentence.split()
            if 6 <= len(words) <= 60 and "*" not in sentence and "`" not in sentence and "_" not in sentence:
                out.append(sentence)
    return out


def _pick(candidates: list[str], salt: str) -> str | None:
    if not candidates:
        return None
    return sorted(candidates, key=lambda s: zlib.crc32((salt + s).encode()))[0]


def _words(sentence: str) -> list[str]:
    seen: list[str] = []
    for word in _WORD.findall(sentence):
        low = word.lower()
        if low not in _COMMON and low not in (w.lower() for w in seen):
            seen.append(word)
    return seen


def good_reply(prompt: Prompt) -> dict[str, Any]:
    """The reply dict a careful model gives (before overrides); quotes chosen deterministically."""
    needs = {"temporal": _DATE, "numerical": _NUMBER}.get(prompt.category)
    quotes: list[tuple[str, str]] = []
    every = prompt.category in ("spanning", "holistic") or (
        prompt.category == "comparative" and len(prompt.passages) > 1
    )
    for pid, text in prompt.passages if every else prompt.passages[:1]:
        pool = [s for s in sentences(text) if needs is None or needs.search(s)]
        pool = [s for s in pool if len(_words(s)) >= 3] or pool
        chosen = _pick(pool, prompt.qtype + prompt.category)
        if chosen is not None:
            quotes.append((pid, chosen))
    evidence = " ".join(q for _, q in quotes)
    words = _words(evidence)
    if needs is not None and (found := needs.search(evidence)):
        keywords = [found.group().strip()]
    else:
        keywords = [w for w in sorted(words[2:], key=lambda w: (-len(w), w))[:2]] or words[:1]
    subject = [w for w in words if w not in keywords][:2] or ["this", "that"]
    a, b = [*subject, *subject][:2]
    entities: list[str] = []
    if prompt.category in ("comparative", "relationship"):
        entities = [a, b]
    question = TEMPLATES.get(prompt.qtype, TEMPLATES["what"]).format(a=a, b=b)
    answer = evidence if prompt.qtype != "yes_no" else "Yes. " + evidence
    return {
        "question": question,
        "reference_answer": answer,
        "keywords": keywords,
        "evidence": [{"passage": pid, "quote": q} for pid, q in quotes],
        "entities": entities,
        "answerable_from_passages": True,
        "answer_supported": True,
        "needs_all_passages": True,
        "issues": "",
    }


def rephrase_reply(text: str) -> str:
    """A question in other words for a rephrase prompt: two long words of the old question in a new frame."""
    old = re.search(r'^"(.*)"$', text, re.M)
    words = _words(old.group(1) if old else "")
    a, b = [*words, "that", "this"][:2]
    return json.dumps({"question": f"Can you fill me in on {a} regarding {b}?"})


def fact_reply(text: str) -> str:
    """The scripted reply to a rewrite prompt (`testgen.synth.prompts`, a fact seed): the fallback question with a
    few words of its own, the plain answer, the fixed result, and a value from the facts as keyword."""

    def field(pattern: str) -> str:
        found = re.search(pattern, text, re.M)
        return found.group(1) if found else ""

    question = field(r'^A plain fallback question you should improve on .*?: "(.*)"$')
    result = field(r'^stated_result must be "(.*)", and')
    value = field(r"^- .*? \| .*? \| (.*?)  \(")
    korean = "Korean" in field(r"^Language: (.*)$")
    reply = {
        "question": ("혹시 " if korean else "Quick check: ") + question,
        "reference_answer": field(r'^Its plain answer: "(.*)"$'),
        "keywords": [value],
        "stated_result": result,
        "answerable_from_sources": True,
        "answer_supported": True,
        "needs_all_documents": True,
        "issues": "",
    }
    return json.dumps(reply, ensure_ascii=False)


def any_reply(text: str) -> str:
    """A good model's reply to whatever the run sends: passage, rephrase or rewrite prompts (the JSON instruction
    a client appends in json_object or prompt mode is ignored)."""
    text = text.split("\n\nReply with a single JSON object and nothing else")[0]
    return passage_reply(text) if is_passage_prompt(text) else fact_reply(text)


def passage_reply(text: str, **override: Any) -> str:
    """The scripted reply to a passage or rephrase prompt (JSON text)."""
    if text.startswith("This test question copies too many words"):
        return rephrase_reply(text)
    prompt = parse_prompt(text)
    reply = good_reply(prompt)
    reply.update({k: v(prompt) if callable(v) else v for k, v in override.items()})
    return json.dumps(reply, ensure_ascii=False)


def is_passage_prompt(text: str) -> bool:
    return text.startswith("Question type: ") or text.startswith("This test question copies too many words")
