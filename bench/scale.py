"""Scale benchmark: KB folder → knowledge graph → test set, at 1,000 and 10,000 documents.

What it measures
    A corpus is made by replicating the project's example KBs (``examples/aurora_bikes`` and
    ``examples/haneul_travel``) into a temporary folder: copy ``k`` goes under ``r{k:05d}/`` (so document ids
    differ) and its organisation and people names get a numbered variant ("Aurora Bikes" → "Aurora Bikes 17",
    "박하늘" → "박하늘 17"), so replicas are not byte-identical. Files are copied in a fixed order until the
    requested number of documents is reached. For each size, ``testgen.pipeline.build_testset(kb, num=200,
    seed=1)`` runs in a fresh subprocess of this script (``--child``), so the peak resident memory
    (``ru_maxrss``) is that size's own. Printed per size: documents, chunks, facts, items generated, seconds per
    stage (``outcome.timings``, and the graph/generate stages split at the library's progress reports),
    documents/second and peak RSS.

Targets
    10,000 documents → test set in ≤ 60 s (``timings["total"]``: load + graph + generate) on a 2-core machine,
    and a peak RSS of at most 1 GB (1,024 MiB) for that build. Printed as PASS/MISS; the script exits 0 either
    way.

Run
    python bench/scale.py                 # sizes 1000 and 10000
    python bench/scale.py --docs 500 2000 --num 100
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = [REPO / "examples" / "aurora_bikes", REPO / "examples" / "haneul_travel"]
TARGET_DOCS = 10_000
TARGET_SECONDS = 60.0
TARGET_RSS_MIB = 1024.0
_H1 = re.compile(r"^#\s+(.+?)\s*$", re.MULTILINE)


def _h1(path: Path) -> str | None:
    match = _H1.search(path.read_text(encoding="utf-8"))
    return match.group(1) if match else None


def _names(kb: Path) -> list[str]:
    """Organisation name (H1 of company/overview.md) and people names (H1 of people/*.md), longest first."""
    found = [_h1(kb / "company" / "overview.md")] + [_h1(p) for p in sorted((kb / "people").glob("*.md"))]
    return sorted({n for n in found if n}, key=lambda n: (-len(n), n))


def make_corpus(target: Path, num_docs: int) -> int:
    """Write `num_docs` perturbed replica documents under `target`; returns the number written."""
    sources: list[tuple[Path, Path, re.Pattern[str]]] = []
    for kb in EXAMPLES:
        names = _names(kb)
        pattern = re.compile("|".join(re.escape(n) for n in names))
        sources.extend((kb, f, pattern) for f in sorted(kb.rglob("*.md")))
    if not sources:
        raise SystemExit(f"no example documents found under {', '.join(map(str, EXAMPLES))}")
    written = 0
    k = 0
    while written < num_docs:
        k += 1
        for kb, path, pattern in sources:
            if written >= num_docs:
                break
            text = path.read_text(encoding="utf-8")
            new = pattern.sub(lambda m, k=k: f"{m.group(0)} {k}", text)
            if new == text:
                new = text.rstrip("\n") + f"\n\nReplica {k}.\n"
            out = target / f"r{k:05d}" / kb.name / path.relative_to(kb)
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(new, encoding="utf-8")
            written += 1
    return written


def _maxrss_mib() -> float:
    # Linux reports kilobytes (macOS bytes; this benchmark targets Linux).
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(kb: str, num: int, seed: int) -> None:
    """Run one build in this process and print one JSON line of results."""
    from schemas import FactNode
    from testgen.pipeline import build_testset

    rss_before = _maxrss_mib()
    events: list[tuple[str, float]] = []

    def progress(stage: str, done: int, total: int) -> None:
        events.append((stage, time.perf_counter()))

    started = time.perf_counter()
    outcome = build_testset(kb, num=num, seed=seed, progress=progress)
    # Split at progress reports: each stage's time runs from the previous stage's last report to its own
    # last report; "lead-in" is the part before its first report (work the library does not report).
    mark = started + outcome.timings["load"]
    stages: list[dict[str, float | str]] = []
    for stage in dict.fromkeys(s for s, _ in events):
        times = [t for s, t in events if s == stage]
        stages.append({"stage": stage, "seconds": times[-1] - mark, "lead_in": times[0] - mark})
        mark = times[-1]
    result = {
        "documents": len(outcome.corpus.documents),
        "chunks": len(outcome.corpus.chunks),
        "facts": sum(1 for _ in outcome.kg.nodes(FactNode)),
        "items": len(outcome.result.items),
        "shortfall": outcome.result.shortfall,
        "timings": outcome.timings,
        "stages": stages,
        "rss_import_mib": rss_before,
        "rss_peak_mib": _maxrss_mib(),
    }
    print(json.dumps(result))


def run_size(num_docs: int, num: int, seed: int) -> dict | None:
    with tempfile.TemporaryDirectory(prefix="testgen-scale-") as tmp:
        kb = Path(tmp) / "kb"
        t0 = time.perf_counter()
        written = make_corpus(kb, num_docs)
        print(f"\n== {written:,} documents (corpus written in {time.perf_counter() - t0:.1f} s) ==", flush=True)
        cmd = [
            sys.executable,
            str(Path(__file__).resolve()),
            "--child",
            str(kb),
            "--num",
            str(num),
            "--seed",
            str(seed),
        ]
        env = dict(os.environ, PYTHONHASHSEED="0")
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
        wall = time.perf_counter() - t0
    if proc.returncode != 0:
        print(f"child failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
        return None
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    data["wall"] = wall
    return data


def report(data: dict) -> None:
    t = data["timings"]
    print(
        f"documents {data['documents']:,}   chunks {data['chunks']:,}   facts {data['facts']:,}   items {data['items']}"
    )
    print(
        "seconds: "
        + "   ".join(f"{k} {v:.2f}" for k, v in t.items())
        + f"   (subprocess wall incl. imports {data['wall']:.2f})"
    )
    for s in data["stages"]:
        print(f"  {s['stage']:<22} {s['seconds']:8.2f} s   (lead-in before first report {s['lead_in']:.2f} s)")
    print(
        f"documents/second (total) {data['documents'] / t['total']:,.0f}   "
        f"(graph only {data['documents'] / t['graph']:,.0f})"
    )
    print(f"peak RSS {data['rss_peak_mib']:,.0f} MiB   (after imports {data['rss_import_mib']:,.0f} MiB)")
    if data["shortfall"]:
        print("shortfall: " + "; ".join(f"{c} {why}" for c, why in data["shortfall"].items()))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, nargs="+", default=[1000, 10000], help="corpus sizes in documents")
    parser.add_argument("--num", type=int, default=200, help="questions to generate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", metavar="KB", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.num, args.seed)
        return 0
    missing = [str(p) for p in EXAMPLES if not p.is_dir()]
    if missing:
        print(f"missing example KB(s): {', '.join(missing)}")
        return 1
    print(f"build_testset(kb, num={args.num}, seed={args.seed}); one subprocess per size; {os.cpu_count()} CPU(s)")
    results: dict[int, dict] = {}
    for size in args.docs:
        data = run_size(size, args.num, args.seed)
        if data is not None:
            report(data)
            results[size] = data
    print()
    if TARGET_DOCS in results:
        total = results[TARGET_DOCS]["timings"]["total"]
        verdict = "PASS" if total <= TARGET_SECONDS else "MISS"
        print(
            f"target: {TARGET_DOCS:,} documents → test set in ≤ {TARGET_SECONDS:.0f} s; "
            f"measured {total:.1f} s → {verdict}"
        )
        rss = results[TARGET_DOCS]["rss_peak_mib"]
        verdict = "PASS" if rss <= TARGET_RSS_MIB else "MISS"
        print(
            f"target: {TARGET_DOCS:,} documents → peak RSS ≤ {TARGET_RSS_MIB:,.0f} MiB; "
            f"measured {rss:,.0f} MiB → {verdict}"
        )
    else:
        print(
            f"targets: {TARGET_DOCS:,} documents → test set in ≤ {TARGET_SECONDS:.0f} s, peak RSS ≤ "
            f"{TARGET_RSS_MIB:,.0f} MiB; not measured (add {TARGET_DOCS} to --docs)"
        )
    return 0 if len(results) == len(args.docs) else 1


if __name__ == "__main__":
    sys.exit(main())
