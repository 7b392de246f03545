"""LLM generation throughput against a local OpenAI-compatible server with a fixed latency per call.

What it measures
    `testgen.generate` with a real `LLMClient` (litellm's HTTP path) on `examples/aurora_bikes`, against the
    project's fake OpenAI-compatible server (tests/fake_openai_server.py) that waits `--latency` seconds and
    then answers with a valid rewrite. For concurrency 1, 8 and 32: delivered questions, LLM calls per
    delivered question (target ≤ 1.5), prompt + completion tokens per question, wall time, and the ideal wall
    time calls × latency / concurrency with the ratio to it. The cache is off, so every run pays its calls.
    The fake answers well every time, so this measures the pipeline's overhead, not a real model's rejection
    rate.

Run
    python bench/llm_throughput.py                 # 40 questions, 0.2 s latency
    python bench/llm_throughput.py --num 80 --latency 0.1
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("OPENAI_API_KEY", "sk-bench-not-a-real-key")
# ruff: noqa: E402

from testgen.generate import generate
from testgen.kg.build import build_graph, load_corpus
from testgen.llm.client import LLMClient, LLMSettings
from testgen.synth.llm_synth import LLMOptions
from tests.fake_openai_server import FakeOpenAIServer, RecordedRequest
from tests.test_llm_synth import good_reply


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num", type=int, default=40)
    parser.add_argument("--latency", type=float, default=0.2)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32])
    args = parser.parse_args(argv)
    kg = build_graph(load_corpus(REPO / "examples" / "aurora_bikes"))

    def responder(request: RecordedRequest) -> str:
        time.sleep(args.latency)
        return good_reply(request.body["messages"])

    print(f"{args.num} questions, {args.latency:.2f} s per call, fake server on 127.0.0.1")
    header = ("conc", "items", "calls", "calls/q", "tokens/q", "wall s", "ideal s", "ratio")
    print(" ".join(f"{h:>8}" for h in header))
    for concurrency in args.concurrency:
        with FakeOpenAIServer(responder) as server:
            client = LLMClient(
                LLMSettings(
                    model="openai/bench-model",
                    api_base=server.url,
                    concurrency=concurrency,
                    cache_dir=None,
                    max_retries=1,
                )
            )
            started = time.perf_counter()
            result = generate(
                kg, num=args.num, seed=1, llm=client, llm_options=LLMOptions(concurrency=concurrency, round_trip="off")
            )
            wall = time.perf_counter() - started
            calls = len(server.chat_requests())
        usage = client.usage()
        tokens = sum(u.prompt_tokens + u.completion_tokens for u in usage.values())
        delivered = max(len(result.items), 1)
        ideal = calls * args.latency / concurrency
        verdict = "PASS" if calls / delivered <= 1.5 else "MISS"
        row = (
            concurrency,
            len(result.items),
            calls,
            f"{calls / delivered:.2f}",
            f"{tokens / delivered:.0f}",
            f"{wall:.2f}",
            f"{ideal:.2f}",
            f"{wall / ideal if ideal else 0:.2f}",
        )
        print(" ".join(f"{v:>8}" for v in row) + f"   calls/q ≤ 1.5: {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
