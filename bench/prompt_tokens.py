"""The dry run's prompt-size model against a real server's token counts.

What it measures
    The rewrite prompts of a few seeds of `examples/aurora_bikes` (one per category, as `testgen build --llm`
    sends them, JSON instruction included) go to a real OpenAI-compatible server, one call each with a
    one-token reply; the server's `prompt_tokens` is compared with `testgen.llm.cost.estimate_prompt_tokens`
    (the estimate the dry run and the cost cap use) and with the dry run's per-call figure. `--out` writes the
    pairs as JSON (tests/fixtures/prompt_tokens_llama_cpp.json was recorded this way), which a test checks the
    estimate against without a server.

Run
    python -m llama_cpp.server --model model.gguf --port 8000 &
    python bench/prompt_tokens.py --api-base http://127.0.0.1:8000/v1 [--model openai/local] [--out FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# ruff: noqa: E402

import testgen.categories  # noqa: F401  (registers the built-in categories)
from schemas import CATEGORIES
from testgen.categories._registry import get_category
from testgen.generate import plan_llm_calls
from testgen.kg.build import build_graph, load_corpus
from testgen.llm.client import LLMClient, LLMSettings
from testgen.llm.cost import estimate_prompt_tokens
from testgen.llm.parsing import with_json_instruction
from testgen.synth.context import GenContext
from testgen.synth.llm_synth import LLMReply, seed_messages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--api-base", required=True)
    parser.add_argument("--model", default="openai/local")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args(argv)
    kg = build_graph(load_corpus(REPO / "examples" / "aurora_bikes"))
    ctx = GenContext.from_graph(kg)
    client = LLMClient(LLMSettings(model=args.model, api_base=args.api_base, cache_dir=None, timeout=600, max_tokens=1))
    pairs = []
    for name in CATEGORIES:
        draft = next(iter(get_category(name).candidates(ctx, random.Random(f"42:{name}"))), None)
        if draft is None:
            continue
        messages = with_json_instruction(seed_messages(draft, [], {"plain": 1.0}, 42), LLMReply)
        done = client.complete(messages, stage="probe", max_tokens=1)
        pairs.append({"category": name, "estimate": estimate_prompt_tokens(messages), "server": done.prompt_tokens,
                      "bytes": sum(len(m["content"].encode()) for m in messages)})  # fmt: skip
        print(f"{name:>14}: estimate {pairs[-1]['estimate']:>5}, server {done.prompt_tokens:>5}")
    plan = plan_llm_calls(20, kg, model=args.model)
    server_mean = sum(p["server"] for p in pairs) / len(pairs)
    print(f"dry run per call: {plan['prompt_tokens_per_call']}; server mean {server_mean:.0f}")
    if args.out:
        record = {"model": args.model, "served_model": client.model, "pairs": pairs,
                  "dry_run_prompt_tokens_per_call": plan["prompt_tokens_per_call"]}  # fmt: skip
        args.out.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
