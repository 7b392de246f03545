"""The LLM-as-judge of answers (full_rag evaluations): accuracy, completeness and relevance on 1–5, faithfulness
and answer relevancy on 0–1, each with a short reason, in one bundled call or one call per score."""

from evaluators.judge.judge import (
    BundledVerdict,
    JudgeCase,
    JudgeMode,
    ScoreVerdict,
    ajudge,
    clamp,
    judge_calls_per_case,
    judge_cases,
    to_number,
)
from evaluators.judge.prompts import JUDGE_PROMPT_VERSION, JUDGE_SCORES, RUBRIC, bundled_messages, single_messages

__all__ = [
    "JUDGE_PROMPT_VERSION",
    "JUDGE_SCORES",
    "RUBRIC",
    "BundledVerdict",
    "JudgeCase",
    "JudgeMode",
    "ScoreVerdict",
    "ajudge",
    "bundled_messages",
    "clamp",
    "judge_calls_per_case",
    "judge_cases",
    "single_messages",
    "to_number",
]
