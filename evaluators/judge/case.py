"""What the judge is given for one answer: the question, the answer, and what it is compared to.

Its own module so that the prompts (:mod:`evaluators.judge.prompts`) and the calls (:mod:`evaluators.judge.judge`)
both read it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["JudgeCase"]


@dataclass
class JudgeCase:
    """One answer to judge, with what the judge compares it to."""

    question: str
    answer: str | None
    reference_answer: str
    keywords: list[str] = field(default_factory=list)
    contexts: list[str] = field(default_factory=list)
    """Retrieved context texts given to the generator (top-k), in rank order."""
    language: str | None = None
    """BCP-47 tag of the question, if known (else detected from the question)."""
