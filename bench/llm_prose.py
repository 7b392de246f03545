"""LLM generation on prose: what `testgen build --llm` delivers, at what cost in calls, and whether the cache makes
a re-run free.

What it measures
    For each corpus (default: ``shared/corpora`` stici_note and covid_qa, and stici_note published three times
    over — a replicated-prose corpus, copied to a temporary folder): one `generate` run over the real litellm
    HTTP path, against either the local fake OpenAI server answering like a good model (``tests/passage_model``:
    whole sentences quoted from the cited passages, keywords from the quotes, a question in its own words) or a
    real server (``--api-base``). Prints items by category and question type, LLM requests per delivered item
    (retries, repairs and rephrases included), rejections by reason, the median question–source overlap next to
    the human set's (same measure, `testgen.overlap`), the median question–evidence overlap, the seconds, and the
    requests a second identical run sends (0 when the cache answers everything).

Run
    python bench/llm_prose.py [-n 100] [--corpus stici_note --corpus covid_qa --corpus replicated]
    python bench/llm_prose.py --api-base http://127.0.0.1:8080/v1 --model openai/local -n 10 --corpus stici_note
    python bench/llm_prose.py --local-server -n 6 --corpus stici_note   # starts llama.cpp's server (local-llm extra)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "tests"))  # the fake server and the scripted model live with the tests
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
# ruff: noqa: E402

from testgen.corpus import load_kb
from testgen.generate import generate
from testgen.kg.build import build_graph, load_corpus
from testgen.llm.client import LLMClient, LLMSettings
from testgen.overlap import median_overlap, question_overlap
from testgen.synth.llm_synth import LLMOptions

CORPORA = REPO.parent / "shared" / "corpora"


def human_overlap(name: str) -> float | None:
    """Median question–source overlap of a corpus's human set (items with source documents)."""
    folder = CORPORA / name
    if not (folder / "tests.jsonl").exists():
        return None
    texts = {d.doc_id: d.text for d in load_kb(folder / "knowledge_base").documents}
    values = []
    for line in (folder / "tests.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        docs = [texts[d] for d in item.get("source_docs") or [] if d in texts]
        if docs:
            values.append(question_overlap(item["question"], docs))
    return median_overlap(values)


def replicated(copies: int = 3) -> Path:
    """stici_note's documents published `copies` times, in sub-folders of a temporary folder."""
    root = Path(tempfile.mkdtemp(prefix="replicated-prose-"))
    for i in range(copies):
        shutil.copytree(CORPORA / "stici_note" / "knowledge_base", root / f"site_{i}")
    return root


def run(kb: Path, num: int, settings: LLMSettings, options: LLMOptions, seed: int) -> tuple[Any, float, int]:
    kg = build_graph(load_corpus(kb))
    client = LLMClient(settings)
    started = time.perf_counter()
    result = generate(kg, num=num, seed=seed, llm=client, llm_options=options)
    seconds = time.perf_counter() - started
    again = LLMClient(settings)
    generate(kg, num=num, seed=seed, llm=again, llm_options=options)
    resent = sum(u.requests for u in again.usage().values())
    return result, seconds, resent


def report(name: str, result: Any, seconds: float, resent: int, human: float | None) -> None:
    items = result.items
    llm = result.llm
    types = Counter((i.metadata or {}).get("question_type") or "offline" for i in items)
    evidence = [(i.metadata or {}).get("evidence_overlap") for i in items]
    passages = llm.get("passages") or {}
    print(f"\n== {name}: {len(items)} of {sum(result.requested.values())} items in {seconds:.1f} s")
    print("  by category:", ", ".join(f"{c} {n}/{result.requested[c]}" for c, n in result.counts().items()))
    print("  by type:", ", ".join(f"{t} {n}" for t, n in types.most_common()))
    print(
        f"  requests {llm['requests']} for {llm['delivered']} LLM items: {llm['calls_per_item']} per item "
        f"({passages.get('rephrase_calls', 0)} rephrase calls, {passages.get('rephrased', 0)} rephrased); "
        f"fact items {llm.get('fact_items', 0)}, offline fallback {llm['fallback']['items']}"
    )
    by_usage = {stage: u["requests"] for stage, u in llm["usage"].items()}
    print(f"  requests by stage: {by_usage}; structured output: {llm['client'].get('structured_output')}")
    rejected = Counter({r: n for (_, r), n in result.rejected.items() if r.startswith("llm")})
    print("  rejected:", ", ".join(f"{r} {n}" for r, n in rejected.most_common(8)) or "none")
    med = median_overlap((i.metadata or {}).get("question_overlap") for i in items)
    print(f"  question–source overlap median {med} (human set {human}); question–evidence median {_median(evidence)}")
    sources = statistics.mean(len(i.source_docs) for i in items) if items else 0.0
    print(
        f"  documents seeded {passages.get('documents_seeded')}; source_docs per item {sources:.2f}; "
        f"re-run sent {resent} requests"
    )
    if result.stopped:
        print(f"  stopped: {result.stopped}")


def _median(values: list[Any]) -> float | None:
    measured = [v for v in values if v is not None]
    return round(statistics.median(measured), 3) if measured else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--num", type=int, default=100)
    parser.add_argument("--corpus", action="append", choices=["stici_note", "covid_qa", "replicated"])
    parser.add_argument("--seeds", default="mixed", choices=["mixed", "passages", "facts"])
    parser.add_argument("--api-base", default=None, help="a real OpenAI-compatible server instead of the fake one")
    parser.add_argument("--local-server", action="store_true", help="start llama.cpp's server with a tiny model")
    parser.add_argument("--model", default="openai/test-model")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--fallback", default="none", choices=["none", "offline"])
    args = parser.parse_args(argv)
    corpora = args.corpus or ["stici_note", "covid_qa", "replicated"]
    cache = Path(tempfile.mkdtemp(prefix="llm-prose-cache-"))
    options = LLMOptions(seeds=args.seeds, round_trip="off", fallback=args.fallback, concurrency=8)
    server: Any = None
    if args.local_server:
        from local_llm_server import LocalLLMServer

        server = LocalLLMServer.start(Path(tempfile.mkdtemp(prefix="gguf-")))
        api_base, model = server.url, "openai/local"
        options.concurrency = 1
    elif args.api_base:
        api_base, model = args.api_base, args.model
    else:
        from fake_openai_server import FakeOpenAIServer
        from passage_model import any_reply

        server = FakeOpenAIServer(lambda request: any_reply(request.last_user_text)).__enter__()
        api_base, model = server.url, args.model
    try:
        for name in corpora:
            kb = replicated() if name == "replicated" else CORPORA / name / "knowledge_base"
            timeout = 600.0 if args.local_server else 60.0
            settings = LLMSettings(
                model=model, api_base=api_base, cache_dir=cache / name, timeout=timeout, max_retries=1
            )
            result, seconds, resent = run(kb, args.num, settings, options, args.seed)
            report(name, result, seconds, resent, human_overlap("stici_note" if name == "replicated" else name))
            if name == "replicated":
                shutil.rmtree(kb, ignore_errors=True)
    finally:
        if server is not None:
            server.stop() if args.local_server else server.__exit__(None, None, None)
        shutil.rmtree(cache, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
