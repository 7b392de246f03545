"""One call from a KB folder to a validated test set and its knowledge graph (what ``testgen build`` runs)."""

from __future__ import annotations

import gc
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from testgen.engine import Engine
from testgen.generate import GENERATOR_VERSION, GenerationResult, generate
from testgen.kg.build import Corpus, build_graph, load_corpus
from testgen.kg.graph import KnowledgeGraph
from testgen.llm._types import LLM
from testgen.overlap import median_overlap
from testgen.synth.llm_synth import LLMOptions

if TYPE_CHECKING:
    from testgen.kg.enrich import EnrichmentReport

Progress = Callable[[str, int, int], None]

#: What a short offline build should try next: the offline generator only mines structure.
OFFLINE_HINT = (
    "the offline generator mines structured facts (key-value lines, tables, dated lists, sentences with dates "
    "and amounts) and finds little in prose. To generate from prose, run with --llm MODEL "
    "(e.g. --llm openai/gpt-4.1-mini, or a local model with --api-base URL)"
)
#: The same advice for a build that already used a model.
LLM_HINT = (
    "--enrich-graph N lets the model read up to N prose chunks and add the facts it finds to the graph; "
    "--mix moves the request to the categories the KB supports"
)


@dataclass(frozen=True)
class CategoryShortfall:
    """A category that delivered fewer items than its quota, even after filling from other categories."""

    category: str
    delivered: int
    requested: int
    reason: str  # the generator's account: why material ran out, and its most frequent rejections


@dataclass
class BuildOutcome:
    """Everything a build produced, and how long each stage took."""

    corpus: Corpus
    kg: KnowledgeGraph
    result: GenerationResult
    timings: dict[str, float] = field(default_factory=dict)
    options: dict[str, Any] = field(default_factory=dict)
    enrichment: dict[str, Any] | None = None  # LLM graph enrichment, when it ran

    @property
    def delivered(self) -> int:
        """Items in the final set."""
        return len(self.result.items)

    @property
    def requested_total(self) -> int:
        """Items asked for (the sum of the category quotas, i.e. ``num``)."""
        return sum(self.result.requested.values())

    @property
    def shortfall_total(self) -> int:
        """Items missing from the request after filling (0 when the total was reached)."""
        return max(0, self.requested_total - self.delivered)

    def short_categories(self) -> list[CategoryShortfall]:
        """Categories below their quota in the final set, in category order, each with the generator's reason."""
        counts = self.result.counts()
        short = []
        for category, wanted in self.result.requested.items():
            if counts[category] < wanted:
                reason = _strip_count(self.result.shortfall.get(category, ""))
                top = self.top_rejections(category)
                if top and "rejection" not in reason:
                    reason = (reason + "; " if reason else "") + "most rejections: " + top
                short.append(CategoryShortfall(category, counts[category], wanted, reason or "no reason recorded"))
        return short

    def top_rejections(self, category: str | None = None, limit: int = 3) -> str:
        """The most frequent rejection reasons ("reason (n), ..."), of one category or of all."""
        ranked = list(self.rejected_by_reason(category).items())[:limit]
        return ", ".join(f"{r} ({n})" for r, n in ranked)

    def rejected_by_reason(self, category: str | None = None) -> dict[str, int]:
        """Rejections per reason (of one category, or summed over all), most frequent first."""
        counts: dict[str, int] = {}
        for (cat, reason), n in self.result.rejected.items():
            if category is None or cat == category:
                counts[reason] = counts.get(reason, 0) + n
        return dict(sorted(counts.items(), key=lambda x: (-x[1], x[0])))

    @property
    def complete(self) -> bool:
        """Whether the set is what was asked for: the total reached and no category below its quota."""
        return self.shortfall_total == 0 and not self.short_categories()

    def question_overlap_median(self) -> float | None:
        """Median question–source overlap of the delivered items (see `testgen.overlap`); None if unmeasured."""
        return median_overlap((item.metadata or {}).get("question_overlap") for item in self.result.items)

    def warnings(self) -> list[str]:
        """Why the set is not what was asked for, one line each; empty when it is."""
        if self.complete and not self.result.stopped:
            return []
        shorts = self.short_categories()
        lines = [f"delivered {self.delivered} of {self.requested_total} requested questions"]
        if self.delivered == 0:
            lines[0] += ": the set is empty"
        elif self.shortfall_total == 0 and shorts:
            lines[0] += f", but {len(shorts)} {'category is' if len(shorts) == 1 else 'categories are'} below quota"
        for short in shorts:
            lines.append(f"{short.category} short: {short.delivered}/{short.requested} ({short.reason})")
        if self.result.filled:
            filled = ", ".join(f"{c} +{n}" for c, n in self.result.filled.items())
            lines.append(f"made up from other categories: {filled}")
        if self.result.stopped:
            lines.append(f"generation stopped early: {self.result.stopped}")
        if self.result.rejected:
            lines.append(f"rejected by reason: {self.top_rejections(limit=5)}")
        if not self.complete:
            lines.append(LLM_HINT if self.result.llm else OFFLINE_HINT)
        return lines

    def summary(self) -> dict[str, Any]:
        """The run summary written next to ``tests.jsonl`` (no timestamps in the items themselves)."""
        rejected: dict[str, dict[str, int]] = {}
        for (category, reason), count in sorted(self.result.rejected.items()):
            rejected.setdefault(category, {})[reason] = count
        summary = {
            "generator_version": GENERATOR_VERSION,
            "kb": str(self.corpus.root),
            "kb_fingerprint": self.corpus.fingerprint(),
            "documents": len(self.corpus.documents),
            "chunks": len(self.corpus.chunks),
            "skipped_files": [s.model_dump() for s in self.corpus.skipped],
            "options": self.options,
            "requested": self.result.requested,
            "generated": self.result.counts(),
            "total": len(self.result.items),
            "delivered": self.delivered,
            "shortfall_total": self.shortfall_total,
            "rejected": rejected,
            "rejected_by_reason": self.rejected_by_reason(),
            "shortfall": self.result.shortfall,
            "warnings": self.warnings(),
            "question_overlap_median": self.question_overlap_median(),
            **({"enrichment": self.enrichment} if self.enrichment is not None else {}),
            "filled": self.result.filled,
            "graph": self.kg.stats() | {"facts_per_document": None},
            "seconds": {k: round(v, 3) for k, v in self.timings.items()},
        }
        if self.result.llm:  # only with a model: the offline summary keeps its exact shape
            summary["llm"] = self.result.llm
            summary["stopped"] = self.result.stopped
        return summary


def _strip_count(reason: str) -> str:
    """``"2/34: material ran out"`` → ``"material ran out"`` (the counts are shown next to it)."""
    head, sep, rest = reason.partition(": ")
    return rest if sep and head.replace("/", "", 1).isdigit() else reason


def build_testset(
    kb: str | os.PathLike[str],
    *,
    num: int = 50,
    mix: dict[str, float] | None = None,
    seed: int = 42,
    language: str | None = None,
    chunk_size: int = 800,
    chunk_overlap: int = 100,
    fill: bool = True,
    progress: Progress | None = None,
    llm: LLM | None = None,
    llm_options: LLMOptions | None = None,
    enrich_chunks: int = 0,
    engine: Engine | None = None,
) -> BuildOutcome:
    """Load a KB, build its knowledge graph and generate `num` validated questions.

    Offline by default; with `llm`, each question is rewritten by the model (one call per seed, checked
    again). The graph is always built without the model. `engine` runs the per-document work (loading,
    chunking, mining, mentions; `testgen.engine`): the set is the same whichever engine runs it."""
    with fewer_collections():
        timings: dict[str, float] = {}
        started = time.perf_counter()
        # (a remote engine's client runs its own threads and messages in this process while it loads: left alone)
        with no_collections() if engine is None or engine.in_process else nullcontext():
            corpus = load_corpus(
                kb,
                chunk_size=chunk_size,
                chunk_overlap=chunk_overlap,
                language=language,
                engine=engine,
                progress=progress,
            )
            timings["load"] = time.perf_counter() - started
            mark = time.perf_counter()
            kg = build_graph(corpus, progress=progress, engine=engine)
        enrichment = None
        if llm is not None and enrich_chunks > 0:
            from testgen.kg.enrich import enrich_graph

            enrichment = enrich_graph(kg, llm, max_chunks=enrich_chunks)
        timings["graph"] = time.perf_counter() - mark
        mark = time.perf_counter()
        if llm is not None:
            llm_options = llm_options or LLMOptions()
            if llm_options.kb is None:  # the round-trip check retrieves from the same folder
                llm_options = replace(llm_options, kb=Path(kb))
        result = generate(
            kg,
            num=num,
            mix=mix,
            seed=seed,
            language=language,
            fill=fill,
            progress=progress,
            llm=llm,
            llm_options=llm_options,
        )
        timings["generate"] = time.perf_counter() - mark
        timings["total"] = time.perf_counter() - started
        options: dict[str, Any] = {
            "num": num,
            "mix": mix,
            "seed": seed,
            "language": language or "auto",
            "chunk_size": chunk_size,
            "chunk_overlap": chunk_overlap,
            "fill": fill,
        }
        options.update(_run_options(llm, llm_options, engine))
        outcome = BuildOutcome(corpus, kg, result, timings, options)
        if enrichment is not None:
            outcome.enrichment = _enrichment_summary(enrichment)
        return outcome


@contextmanager
def no_collections() -> Iterator[None]:
    """No cyclic garbage collection while the corpus is loaded and its graph built (no model is called there,
    and the millions of chunks, facts and index entries made form no cycles), and what they made is left out of
    the collections that follow (`gc.freeze`) until the caller's `fewer_collections` ends: a collection that
    walks a 50 MB document's graph finds nothing, and costs seconds each time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


@contextmanager
def fewer_collections(threshold: int = 1_000_000) -> Iterator[None]:
    """Python's cyclic garbage collector run less often while a build allocates its millions of small objects
    (chunks, facts, index sets), which form no cycles to collect: at the default thresholds (700 allocations,
    then every 10th collection of the middle generation) a large KB's build spends about a sixth of its time in
    collections that find nothing. Restored on exit."""
    before = gc.get_threshold()
    gc.set_threshold(max(before[0], threshold), max(before[1], 100), *before[2:])
    try:
        yield
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


def _run_options(llm: LLM | None, llm_options: LLMOptions | None, engine: Engine | None) -> dict[str, Any]:
    """The build options that say how it ran: the model's settings, a remote engine."""
    options: dict[str, Any] = {}
    if llm is not None and llm_options is not None:
        options["llm"] = {
            "model": llm.model,
            "concurrency": llm_options.concurrency,
            "round_trip": llm_options.round_trip,
            "styles": llm_options.styles,
            "personas": [p.name for p in llm_options.personas or []],
        }
    if engine is not None and not engine.in_process:  # a local build's summary keeps its shape
        options["engine"] = engine.describe()
    return options


def _enrichment_summary(enrichment: EnrichmentReport) -> dict[str, Any]:
    """What the LLM enrichment of the graph did, for the build summary."""
    return {
        "chunks_sent": enrichment.chunks_sent,
        "facts_added": enrichment.facts_added,
        "refused": dict(sorted(enrichment.refused.items())),
        "failed_calls": enrichment.failed_calls,
        "stopped_by_budget": enrichment.stopped_by_budget,
    }


def _digest(path: Path) -> str:
    """sha256 of a file, or of a folder's files (relative path and content, in path order)."""
    h = hashlib.sha256()
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    for file in files:
        if path.is_dir():
            h.update(file.relative_to(path).as_posix().encode() + b"\x00")
        with file.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                h.update(block)
        h.update(b"\x01")
    return "sha256:" + h.hexdigest()


def write_outputs(
    outcome: BuildOutcome,
    output: str | os.PathLike[str],
    *,
    kg_path: str | os.PathLike[str] | None = None,
    hf_dir: str | os.PathLike[str] | None = None,
    hf: bool = True,
    ragas_jsonl: str | os.PathLike[str] | None = None,
) -> list[Path]:
    """Write the set and its companions as one output set; the written paths, summary last.

    `output` (``tests.jsonl``), the graph (``<stem>.kg.json`` or `kg_path`), the Hugging Face folder
    (``<stem>.hf`` or `hf_dir`, unless `hf` is False or the set is empty), the RAGAS JSONL when asked and
    ``<stem>.summary.json`` are each written to a hidden sibling and moved into place together once all are
    complete (`testgen.export.atomic`): a kill leaves the previous set or this one, never a mix. The summary's
    ``run`` entry is the run marker: the digest of every other file of the set and an id derived from them,
    so a reader can check that the files beside it belong to the same run."""
    from testgen.export import save_hf_dataset, write_jsonl, write_ragas_jsonl
    from testgen.export.atomic import output_set

    output = Path(output)
    stem = output.with_suffix("") if output.suffix else output
    items = outcome.result.items
    writers: list[tuple[Path, Callable[[Path], object]]] = [
        (output, lambda path: write_jsonl(items, path)),
        (Path(kg_path) if kg_path else Path(f"{stem}.kg.json"), outcome.kg.save),
    ]
    if hf and items:
        writers.append((Path(hf_dir) if hf_dir else Path(f"{stem}.hf"), lambda path: save_hf_dataset(items, path)))
    if ragas_jsonl:
        writers.append((Path(ragas_jsonl), lambda path: write_ragas_jsonl(items, path)))
    summary_file = Path(f"{stem}.summary.json")
    digests: dict[str, str] = {}
    hf_folder = Path(hf_dir) if hf_dir else Path(f"{stem}.hf")
    with output_set(output) as outputs:
        if not (hf and items) and _relative(hf_folder, summary_file.parent) in _previous_outputs(summary_file):
            outputs.drop(hf_folder)  # the previous set's dataset folder would otherwise outlive it
        for final, write in writers:
            staged = outputs.stage(final)
            write(staged)
            digests[_relative(final, summary_file.parent)] = _digest(staged)
        marker = hashlib.sha256(json.dumps(digests, sort_keys=True).encode()).hexdigest()[:16]
        summary = outcome.summary() | {"run": {"id": marker, "outputs": digests}}
        text = json.dumps(summary, ensure_ascii=False, indent=2) + "\n"
        outputs.stage(summary_file).write_text(text, encoding="utf-8")
    return [final for final, _ in writers] + [summary_file]


def _relative(path: Path, folder: Path) -> str:
    try:
        return path.absolute().relative_to(folder.absolute()).as_posix()
    except ValueError:
        return str(path.absolute())


def _previous_outputs(summary_file: Path) -> set[str]:
    """The outputs the summary already at `summary_file` lists as its run's (none when unreadable)."""
    try:
        run = json.loads(summary_file.read_text(encoding="utf-8")).get("run") or {}
        return set(run.get("outputs") or {})
    except (OSError, ValueError, AttributeError):
        return set()
