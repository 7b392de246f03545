"""Fidelity benchmark: a generated test set next to the human-written one on the same KB (insurellm).

What it measures
    Reads ``<corpus>/knowledge_base`` and ``<corpus>/tests.jsonl`` at run time (nothing is copied into the
    repository; default ``--corpus ../shared/corpora/insurellm`` relative to the repository root; when it is
    missing the script says so and exits 0). The human items have no ``source_docs``, so they are derived
    (``testgen.audit.derive_sources``): the documents whose normalised text (``testgen.text.normalize``)
    contains every keyword of the item (``testgen.text.contains_keyword``); when none contains all, the
    documents containing the most keywords.
    A set of the same size is generated with ``build_testset(kb, num=<human size>, seed=1)``. Printed:

    * keyword grounding of the generated set: keywords found in at least one of the item's source_docs;
    * coverage: the share of human items "covered" by the generated set — some generated item shares at
      least one source doc with the human item AND at least one non-generic human keyword appears in that
      generated item's question, reference_answer or keywords (generic = a stop word, or a keyword found
      in more than a quarter of the documents, such as the company name);
    * source_docs agreement: mean Jaccard of source_docs over the covered (human, generated) pairs, and over
      the best pair of each covered human item;
    * category counts side by side, and three generated items per category to read.

Target
    None fixed: these are figures to read and to track from one version to the next.

Run
    python bench/fidelity.py
    python bench/fidelity.py --corpus /path/to/insurellm --items 3
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

from schemas import CATEGORIES, TestQuestion
from testgen.audit import derive_sources
from testgen.export.jsonl import read_jsonl
from testgen.pipeline import build_testset
from testgen.text import contains_keyword, normalize

REPO = Path(__file__).resolve().parent.parent
GENERIC_DOC_SHARE = 0.25
STOP_WORDS = frozenset(
    "a an and the of in on for to by with from at is are was were be it its this that what which who when "
    "how many much per year years month months company product products contract contracts".split()
)


def generic_keywords(items: list[TestQuestion], docs: dict[str, str]) -> set[str]:
    """Normalised human keywords that do not single out a fact: stop words or in > 25% of documents."""
    out = set()
    for kw in {normalize(k) for item in items for k in item.keywords}:
        df = sum(contains_keyword(text, kw) for text in docs.values())
        if kw in STOP_WORDS or df > GENERIC_DOC_SHARE * len(docs):
            out.add(kw)
    return out


def jaccard(a: list[str], b: list[str]) -> float:
    sa, sb = set(a), set(b)
    return len(sa & sb) / len(sa | sb) if sa | sb else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--corpus",
        default="../shared/corpora/insurellm",
        help="folder with knowledge_base/ and tests.jsonl (relative paths: from the repo root)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--items", type=int, default=3, help="generated items shown per category")
    args = parser.parse_args(argv)
    corpus = Path(args.corpus)
    if not corpus.is_absolute():
        corpus = (REPO / corpus).resolve()
    kb, tests = corpus / "knowledge_base", corpus / "tests.jsonl"
    if not kb.is_dir() or not tests.is_file():
        print(
            f"fidelity: corpus not found (need {kb} and {tests}); nothing measured. "
            "Pass --corpus to point at a copy of the insurellm corpus."
        )
        return 0

    human = read_jsonl(tests)
    started = time.perf_counter()
    outcome = build_testset(kb, num=len(human), seed=args.seed)
    seconds = time.perf_counter() - started
    docs = {d.doc_id: normalize(d.text) for d in outcome.corpus.documents}
    generated = outcome.result.items
    print(f"corpus {corpus}: {len(docs)} documents, {len(human)} human items")
    print(
        f"generated {len(generated)} items with build_testset(kb, num={len(human)}, seed={args.seed}) "
        f"in {seconds:.1f} s"
    )
    if outcome.result.shortfall:
        print("shortfall: " + "; ".join(f"{c} {w}" for c, w in outcome.result.shortfall.items()))

    # (a) human source_docs
    human_src: list[list[str]] = []
    all_kw = 0
    for item in human:
        src, full = derive_sources(item, docs, require_all=False)
        human_src.append(src)
        all_kw += full
    with_src = sum(1 for s in human_src if s)
    print(
        "\n(a) human source_docs = docs containing all the item's keywords (normalised substring match), "
        "else the docs containing the most"
    )
    print(
        f"    items with >=1 doc: {with_src}/{len(human)}  (all keywords in one doc: {all_kw}, "
        f"fallback to most keywords: {with_src - all_kw}, none: {len(human) - with_src})"
    )
    sizes = Counter(min(len(s), 4) for s in human_src if s)
    print("    docs per item: " + ", ".join(f"{'4+' if k == 4 else k}: {v}" for k, v in sorted(sizes.items())))

    # (c) grounding of the generated set
    kw_total = kw_found = items_all = 0
    for g in generated:
        found = [any(contains_keyword(docs.get(d, ""), k) for d in g.source_docs) for k in g.keywords]
        kw_total += len(found)
        kw_found += sum(found)
        items_all += all(found)
    print("\n(c) keyword grounding of the generated set (keyword found in >=1 of the item's source_docs)")
    print(
        f"    keywords {kw_found}/{kw_total} = {kw_found / max(kw_total, 1):.1%}; "
        f"items with every keyword grounded {items_all}/{len(generated)} = {items_all / max(len(generated), 1):.1%}"
    )

    generic = generic_keywords(human, docs)
    gen_text = [normalize(" ".join([g.question, g.reference_answer, *g.keywords])) for g in generated]
    covered: dict[int, list[tuple[int, float]]] = {}
    for h, item in enumerate(human):
        specific = [k for k in item.keywords if normalize(k) not in generic]
        for gi, g in enumerate(generated):
            if not set(human_src[h]) & set(g.source_docs):
                continue
            if any(contains_keyword(gen_text[gi], k) for k in specific):
                covered.setdefault(h, []).append((gi, jaccard(human_src[h], g.source_docs)))
    print("\n    coverage: a human item is covered when some generated item shares >=1 source doc with it AND")
    print("    at least one of its non-generic keywords appears in that generated item's question,")
    print(
        f"    reference_answer or keywords (generic = stop word or in > {GENERIC_DOC_SHARE:.0%} of docs: "
        f"{', '.join(sorted(generic)) or 'none'})"
    )
    print(f"    covered human items: {len(covered)}/{len(human)} = {len(covered) / len(human):.1%}")
    by_cat = Counter(item.category for item in human)
    cov_cat = Counter(human[h].category for h in covered)
    print("    by human category: " + ", ".join(f"{c} {cov_cat[c]}/{n}" for c, n in by_cat.most_common()))
    pairs = [j for hits in covered.values() for _, j in hits]
    best = [max(j for _, j in hits) for hits in covered.values()]
    if pairs:
        print(
            f"    source_docs Jaccard over covered pairs: mean {sum(pairs) / len(pairs):.3f} "
            f"({len(pairs)} pairs); best pair per covered human item: mean {sum(best) / len(best):.3f}; "
            f"exact match {sum(1 for b in best if b == 1.0)}/{len(best)}"
        )

    gen_cat = Counter(g.category for g in generated)
    names = list(CATEGORIES) + sorted(set(by_cat) - set(CATEGORIES))
    print(f"\n    {'category':<14} {'human':>6} {'generated':>10}")
    for c in names:
        print(f"    {c:<14} {by_cat.get(c, 0):>6} {gen_cat.get(c, 0):>10}")
    print(f"    {'total':<14} {len(human):>6} {len(generated):>10}")

    # (d) items to read
    print(f"\n(d) {args.items} generated items per category")
    for c in CATEGORIES:
        shown = [g for g in generated if g.category == c][: args.items]
        if not shown:
            continue
        print(f"\n  [{c}]")
        for g in shown:
            print(f"  Q: {g.question}")
            print(f"  A: {g.reference_answer}")
            print(f"     keywords {g.keywords}  source_docs {g.source_docs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
