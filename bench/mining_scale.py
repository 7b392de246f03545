"""Mining scale benchmark: one large markdown document → knowledge graph → test set, at 1 to 50 MB.

What it measures
    For each size, one markdown document of that many megabytes (10^6 characters, ASCII) is generated
    deterministically (``random.Random(seed)``): sections with an entity heading, key–value lines (money,
    dates, numbers, short labels), a table of dated rows, and prose paragraphs whose sentences hold a date, an
    amount or a percentage. The document is the only file of a temporary KB folder, and
    ``testgen.pipeline.build_testset(kb, num=50, seed=1)`` runs on it in a fresh subprocess of this script
    (``--child``), so the peak resident memory (``ru_maxrss``) is that size's own. Printed per size: MB,
    seconds (``timings["total"]``: load + graph + generate), seconds per MB, the ratio of seconds per MB to
    the smallest size's (the anchor, measured in the same run), the same for the child's CPU seconds
    (``time.process_time()``: steadier than wall time on a machine shared with other work; it leaves out the
    forked process that mines the second half of a document of 4 MB or more), facts mined and peak RSS.

Target
    Seconds per MB flat within ×1.5 from 1 MB to 50 MB, and 50 MB ≤ 60 s on a 2-core machine. Printed as
    PASS/MISS; the script exits 0 either way.

Run
    python bench/mining_scale.py                      # sizes 1 2 4 8 16 50
    python bench/mining_scale.py --sizes 1 2 4        # quicker
    python bench/mining_scale.py --write doc.md --sizes 2   # only write the document (for profiling)
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MB = 1_000_000
TARGET_RATIO = 1.5
TARGET_50MB_SECONDS = 60.0

_FIRST = "Aurora Summit Harbor Cedar Nordic Pacific Granite Willow Orbit Beacon Falcon Meridian".split()
_SECOND = "Works Labs Logistics Trading Studios Systems Partners Foods Motors Analytics Cycles Energy".split()
_MONTHS = "January February March April May June July August September October November December".split()
_ATTRS = ["Price", "Founded", "Headquarters", "Employees", "Annual Revenue", "Warranty", "Rating", "Status"]
_STATUS = ["Active", "In production", "Discontinued", "Under review", "Planned"]
_CITIES = ["Seattle", "Munich", "Busan", "Lyon", "Osaka", "Austin", "Porto", "Tallinn"]
_VERBS = ["signed a supply agreement", "opened a new office", "raised its prices", "hired a new director"]


def _date(rng: random.Random) -> str:
    return f"{rng.choice(_MONTHS)} {rng.randint(1, 28)}, {rng.randint(1995, 2024)}"


def _section(rng: random.Random, n: int) -> str:
    """One entity's section: heading, key–value lines, a dated table and two prose paragraphs."""
    name = f"{rng.choice(_FIRST)} {rng.choice(_SECOND)} {n}"
    lines = [f"## {name}", ""]
    values = {
        "Price": f"${rng.randint(100, 99_999):,}",
        "Founded": _date(rng),
        "Headquarters": rng.choice(_CITIES),
        "Employees": f"{rng.randint(5, 20_000):,}",
        "Annual Revenue": f"${rng.randint(1, 900)} million",
        "Warranty": f"{rng.randint(1, 5)} years",
        "Rating": f"{rng.randint(10, 50) / 10}",
        "Status": rng.choice(_STATUS),
    }
    for attr in rng.sample(_ATTRS, 5):
        lines.append(f"- **{attr}**: {values[attr]}")
    lines += ["", "| Year | Revenue | Staff |", "|---|---|---|"]
    for year in range(rng.randint(2010, 2016), 2020):
        lines.append(f"| {year} | ${rng.randint(1, 500)}M | {rng.randint(10, 900)} |")
    lines.append("")
    for _ in range(2):
        sentences = []
        for _ in range(rng.randint(2, 4)):
            kind = rng.randrange(3)
            if kind == 0:
                sentences.append(f"On {_date(rng)}, {name} {rng.choice(_VERBS)} in {rng.choice(_CITIES)}.")
            elif kind == 1:
                sentences.append(f"The division reported sales of ${rng.randint(1, 900):,},000 in the last quarter.")
            else:
                sentences.append(f"Customer satisfaction reached {rng.randint(50, 99)}% after the latest survey.")
        lines += [" ".join(sentences), ""]
    return "\n".join(lines) + "\n"


def make_document(size_mb: float, seed: int = 1) -> str:
    """A markdown document of about ``size_mb`` × 10^6 characters, the same for the same size and seed."""
    rng = random.Random(seed)
    parts = ["# Generated Holdings Register\n\nThis register lists the companies of the group and their figures.\n\n"]
    length = len(parts[0])
    n = 0
    while length < size_mb * MB:
        n += 1
        section = _section(rng, n)
        parts.append(section)
        length += len(section)
    return "".join(parts)


def _maxrss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kilobytes


def child(kb: str, num: int, seed: int) -> None:
    """Build a test set from `kb` in this process and print one JSON line of results."""
    from schemas import FactNode
    from testgen.pipeline import build_testset

    cpu = time.process_time()
    outcome = build_testset(kb, num=num, seed=seed)
    cpu = time.process_time() - cpu
    print(
        json.dumps(
            {
                "timings": outcome.timings,
                "cpu_seconds": cpu,
                "facts": sum(1 for _ in outcome.kg.nodes(FactNode)),
                "chunks": len(outcome.corpus.chunks),
                "items": len(outcome.result.items),
                "rss_peak_mib": _maxrss_mib(),
            }
        )
    )


def run_size(size_mb: float, num: int, seed: int, timeout: float) -> dict | None:
    with tempfile.TemporaryDirectory(prefix="testgen-mining-") as tmp:
        kb = Path(tmp) / "kb"
        kb.mkdir()
        text = make_document(size_mb, seed)
        (kb / "register.md").write_text(text, encoding="utf-8")
        cmd = [sys.executable, str(Path(__file__).resolve()), "--child", str(kb), "--num", str(num)]
        cmd += ["--seed", str(seed)]
        env = dict(os.environ, PYTHONHASHSEED="0")
        t0 = time.perf_counter()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False, timeout=timeout)
        except subprocess.TimeoutExpired:
            print(f"{size_mb:>6g} MB: stopped after {timeout:.0f} s")
            return None
        wall = time.perf_counter() - t0
    if proc.returncode != 0:
        print(f"{size_mb:>6g} MB: child failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
        return None
    data = json.loads(proc.stdout.strip().splitlines()[-1])
    data["wall"] = wall
    data["mb"] = len(text) / MB
    return data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=float, nargs="+", default=[1, 2, 4, 8, 16, 50], help="sizes in MB")
    parser.add_argument("--num", type=int, default=50, help="questions to generate")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=1800, help="seconds before a size is abandoned")
    parser.add_argument("--write", metavar="FILE", help="only write the document of the first size to FILE")
    parser.add_argument("--child", metavar="KB", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.num, args.seed)
        return 0
    if args.write:
        Path(args.write).write_text(make_document(args.sizes[0], args.seed), encoding="utf-8")
        return 0
    print(f"build_testset(kb, num={args.num}, seed={args.seed}) on one document; one subprocess per size")
    header = (
        f"{'MB':>6} {'seconds':>8} {'s/MB':>7} {'ratio':>6} {'cpu s':>8} {'cpu s/MB':>8} {'ratio':>6} "
        f"{'facts':>9} {'chunks':>8} {'peak RSS MiB':>13}"
    )
    print(header)
    anchor: float | None = None
    cpu_anchor: float | None = None
    rows: dict[float, dict] = {}
    for size in args.sizes:
        data = run_size(size, args.num, args.seed, args.timeout)
        if data is None:
            continue
        seconds = data["timings"]["total"]
        per_mb = seconds / data["mb"]
        cpu_per_mb = data["cpu_seconds"] / data["mb"]
        anchor = anchor if anchor is not None else per_mb
        cpu_anchor = cpu_anchor if cpu_anchor is not None else cpu_per_mb
        data["ratio"] = per_mb / anchor
        data["cpu_ratio"] = cpu_per_mb / cpu_anchor
        rows[size] = data
        print(
            f"{data['mb']:>6.1f} {seconds:>8.2f} {per_mb:>7.2f} {data['ratio']:>6.2f} {data['cpu_seconds']:>8.2f} "
            f"{cpu_per_mb:>8.2f} {data['cpu_ratio']:>6.2f} {data['facts']:>9,} {data['chunks']:>8,} "
            f"{data['rss_peak_mib']:>13,.0f}",
            flush=True,
        )
    if not rows:
        return 1
    complete = len(rows) == len(args.sizes)
    for label, key in (("wall", "ratio"), ("CPU", "cpu_ratio")):
        worst = max(d[key] for d in rows.values())
        verdict = "PASS" if worst <= TARGET_RATIO and complete else "MISS"
        print(f"target: {label} s/MB within x{TARGET_RATIO} of the first size; worst ratio {worst:.2f} → {verdict}")
    if 50 in rows:
        total = rows[50]["timings"]["total"]
        print(
            f"target: 50 MB ≤ {TARGET_50MB_SECONDS:.0f} s; measured {total:.1f} s → "
            f"{'PASS' if total <= TARGET_50MB_SECONDS else 'MISS'}"
        )
    else:
        print("target: 50 MB ≤ 60 s; not measured (add 50 to --sizes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
