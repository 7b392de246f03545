"""Ray scale benchmark: KB folder → test set with ``--engine local`` and with Ray on 1 and 2 workers.

What it measures
    A corpus of replicated example documents is written as ``bench/scale.py`` writes it (copy ``k`` under
    ``r{k:05d}/``, organisation and people names numbered), by default at 10,000 and 100,000 documents. For each
    size, the build runs in a fresh subprocess of this script (``--child``) once per configuration: the local
    engine (the anchor, measured in the same run), then a new local Ray instance with 1 and with 2 workers
    (``RayEngine(workers=n)``, which also gives the instance n CPUs). Each child runs ``load_corpus`` (loading
    and chunking per document: all spread by the engine), with ``--mode graph`` or ``build`` then
    ``build_graph`` (fact mining and mention finding per document are spread; entities, graph assembly and
    similar chunks stay in the driver; split at the library's progress reports into "mining" and "serial", the
    latter also holding the mention finding that runs between entity resolution and assembly), and with
    ``--mode build`` (default) ``generate(num=200, seed=1)``, which is serial. Printed per run: seconds to start
    the engine (Ray's start-up, not in the totals), seconds per stage, the total and its ratio to the local
    total, the peak RSS of the driver process (``ru_maxrss``; Ray's worker processes are not in it) and the first
    12 hex digits of the sha256 of the ``tests.jsonl`` bytes (``build``), the saved graph (``graph``) or the
    chunk ids and texts (``load``): every configuration of a size must print the same digest.

Target
    None fixed: this measures where Ray helps on one machine (it cannot: the local engine already has the
    machine's cores for the same work, and Ray adds serialisation) and how much of a build is serial, which
    bounds what more machines can give. The digests must agree (printed as SAME/DIFFERENT).

Run
    python bench/scale_ray.py                                # 10,000 and 100,000 documents, build
    python bench/scale_ray.py --docs 10000                   # the table in the README
    python bench/scale_ray.py --docs 100000 --mode load      # (a 100,000-document graph needs ~19 GB in the driver)
    python bench/scale_ray.py --docs 2000 --mode graph       # quicker
    (needs the ray extra: pip install -e ".[ray]")
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
CONFIGS = [("local", 0), ("ray", 1), ("ray", 2)]


def _make_corpus(target: Path, num_docs: int) -> int:
    """bench/scale.py's corpus (one definition of the replicated KB for both benchmarks)."""
    spec = importlib.util.spec_from_file_location("bench_scale", HERE / "scale.py")
    assert spec is not None and spec.loader is not None
    scale = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(scale)
    written: int = scale.make_corpus(target, num_docs)
    return written


def _maxrss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kilobytes


def child(kb: str, engine_name: str, workers: int, mode: str, num: int, seed: int) -> None:
    """One build in this process; prints one JSON line of results."""
    from testgen.engine import LocalEngine, RayEngine
    from testgen.export import write_jsonl
    from testgen.generate import generate
    from testgen.kg.build import build_graph, load_corpus

    started = time.perf_counter()
    engine = LocalEngine() if engine_name == "local" else RayEngine(workers=workers)
    startup = time.perf_counter() - started
    seconds: dict[str, float] = {}
    reports: dict[str, float] = {}

    def progress(stage: str, done: int, total: int) -> None:
        reports[stage] = time.perf_counter()  # the stage's last report so far

    items = 0
    with engine, tempfile.TemporaryDirectory(prefix="scale-ray-out-") as out:
        mark = time.perf_counter()
        corpus = load_corpus(kb, engine=engine)
        seconds["load"] = time.perf_counter() - mark
        if mode == "load":
            digest_of = hashlib.sha256()
            for chunk in corpus.chunks:
                digest_of.update(f"{chunk.chunk_id}\x00{chunk.text}\x01".encode())
            digest = digest_of.hexdigest()[:12]
        else:
            mark = time.perf_counter()
            kg = build_graph(corpus, engine=engine, progress=progress)
            seconds["mining"] = reports["mining facts"] - mark
            seconds["serial"] = time.perf_counter() - reports["mining facts"]
            if mode == "build":
                mark = time.perf_counter()
                result = generate(kg, num=num, seed=seed)
                seconds["generate"] = time.perf_counter() - mark
                written = write_jsonl(result.items, Path(out) / "tests.jsonl")
                items = len(result.items)
            else:
                written = kg.save(Path(out) / "kg.json")
            digest = hashlib.sha256(Path(written).read_bytes()).hexdigest()[:12]
    seconds["total"] = sum(seconds.values())
    print(
        json.dumps(
            {
                "documents": len(corpus.documents),
                "chunks": len(corpus.chunks),
                "items": items,
                "startup": startup,
                "seconds": seconds,
                "rss_peak_mib": _maxrss_mib(),
                "digest": digest,
            }
        )
    )


def run_child(kb: Path, engine: str, workers: int, args: argparse.Namespace) -> dict | None:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", str(kb), "--engine", engine]
    cmd += ["--workers", str(workers), "--mode", args.mode, "--num", str(args.num), "--seed", str(args.seed)]
    env = dict(os.environ, PYTHONHASHSEED="0")
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    if proc.returncode != 0:
        print(f"  {engine} x{workers}: child failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}")
        return None
    data: dict = json.loads(proc.stdout.strip().splitlines()[-1])
    return data


def _label(engine: str, workers: int) -> str:
    return "local" if engine == "local" else f"ray ×{workers}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, nargs="+", default=[10_000, 100_000], help="corpus sizes in documents")
    parser.add_argument(
        "--mode", choices=["build", "graph", "load"], default="build", help="whole build, up to the graph, or loading"
    )
    parser.add_argument("--num", type=int, default=200, help="questions to generate (--mode build)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--child", metavar="KB", help=argparse.SUPPRESS)
    parser.add_argument("--engine", default="local", help=argparse.SUPPRESS)
    parser.add_argument("--workers", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        child(args.child, args.engine, args.workers, args.mode, args.num, args.seed)
        return 0
    if importlib.util.find_spec("ray") is None:
        print('ray is not installed: pip install -e ".[ray]" (nothing measured)')
        return 0
    print(f"mode {args.mode}; one subprocess per run; {os.cpu_count()} CPU(s)")
    rows: list[tuple[int, str, dict]] = []
    for size in args.docs:
        with tempfile.TemporaryDirectory(prefix="scale-ray-") as tmp:
            kb = Path(tmp) / "kb"
            t0 = time.perf_counter()
            written = _make_corpus(kb, size)
            print(f"\n== {written:,} documents (corpus written in {time.perf_counter() - t0:.1f} s) ==", flush=True)
            anchor: float | None = None
            digests: set[str] = set()
            for engine, workers in CONFIGS:
                data = run_child(kb, engine, workers, args)
                if data is None:
                    continue
                s = data["seconds"]
                anchor = s["total"] if engine == "local" else anchor
                ratio = f"{s['total'] / anchor:.2f}" if anchor else "n/a"
                stages = "  ".join(f"{k} {v:.1f}" for k, v in s.items() if k != "total")
                print(
                    f"  {_label(engine, workers):<8} start {data['startup']:5.1f} s | {stages} | total "
                    f"{s['total']:.1f} s (×{ratio} local) | driver peak RSS {data['rss_peak_mib']:,.0f} MiB | "
                    f"{data['chunks']:,} chunks, {data['items']} items | sha256 {data['digest']}",
                    flush=True,
                )
                digests.add(data["digest"])
                rows.append((written, _label(engine, workers), data | {"ratio": ratio}))
            print(f"  outputs: {'SAME' if len(digests) == 1 else 'DIFFERENT'} ({', '.join(sorted(digests))})")
    stage_names = {"load": ["load"], "graph": ["load", "mining", "serial"]}.get(
        args.mode, ["load", "mining", "serial", "generate"]
    )
    print(
        "\n| documents | engine | " + " | ".join(f"{n} s" for n in stage_names) + " | total s | × local | "
        "driver peak RSS MiB | Ray start s | sha256 |"
    )
    print("|---:|---|" + "---:|" * (len(stage_names) + 4) + "---|")
    for docs, label, data in rows:
        s = data["seconds"]
        cells = " | ".join(f"{s[n]:.1f}" for n in stage_names)
        start = f"{data['startup']:.1f}" if label != "local" else "–"
        print(
            f"| {docs:,} | {label} | {cells} | {s['total']:.1f} | {data['ratio']} | {data['rss_peak_mib']:,.0f} | "
            f"{start} | {data['digest']} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
