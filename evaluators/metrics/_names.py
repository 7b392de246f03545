"""Metric names as parsed values: ``parse_metric("ndcg_cut_10") == Metric("nDCG", 10)``, printed ``nDCG@10``."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, get_args

MetricName = Literal["MRR", "nDCG", "P", "R", "Hit", "MAP", "Coverage", "CtxPrecision"]
"""The canonical metric names, as :class:`Metric` prints them."""

MAX_K = 1000
"""Largest accepted cutoff."""

_ALIASES: dict[str, MetricName] = {
    "mrr": "MRR",
    "rr": "MRR",
    "recip_rank": "MRR",
    "reciprocal_rank": "MRR",
    "ndcg": "nDCG",
    "p": "P",
    "prec": "P",
    "precision": "P",
    "r": "R",
    "recall": "R",
    "hit": "Hit",
    "hits": "Hit",
    "hit_rate": "Hit",
    "hitrate": "Hit",
    "success": "Hit",
    "map": "MAP",
    "ap": "MAP",
    "average_precision": "MAP",
    "coverage": "Coverage",
    "keyword_coverage": "Coverage",
    "ctxprecision": "CtxPrecision",
    "ctx_precision": "CtxPrecision",
    "context_precision": "CtxPrecision",
}
# Name, then an optional cutoff written ir_measures-style (``@10``) or trec_eval-style (``_10``, ``_cut_10``).
_SPELLING = re.compile(r"(?P<name>[a-z_]+?)(?:(?:@|_cut_|_)(?P<k>[0-9]+))?")
_ACCEPTED = (
    "accepted: MRR@K (mrr, rr, recip_rank), nDCG@K (ndcg, ndcg_cut_K), P@K (precision, P_K), "
    "R@K (recall, recall_K), Hit@K (hit, success, success_K), MAP@K (map, ap, map_cut_K), "
    "Coverage@K (keyword_coverage), CtxPrecision@K (context_precision); any case; "
    f"K an integer 1..{MAX_K}, optional except for P"
)


@dataclass(frozen=True)
class Metric:
    """One metric with its cutoff; ``str(metric)`` is the one canonical spelling (``"nDCG@10"``).

    ``k`` is the rank cutoff K (1..1000); ``None`` means the whole ranking (trec_eval's uncut ``recip_rank``,
    ``ndcg`` and ``map``). Precision has no uncut form (P@K divides by K), so ``Metric("P", None)`` is rejected.
    Raises ``ValueError`` on an unknown name or a cutoff out of range.
    """

    name: MetricName
    k: int | None = None

    def __post_init__(self) -> None:
        if self.name not in get_args(MetricName):
            raise ValueError(f"unknown metric name {self.name!r}; {_ACCEPTED}")
        if self.k is not None and (isinstance(self.k, bool) or not isinstance(self.k, int)):
            raise ValueError(f"metric cutoff must be an int, got {self.k!r}")
        if self.k is not None and not 1 <= self.k <= MAX_K:
            raise ValueError(f"metric cutoff must be in 1..{MAX_K}, got {self.k} for {self.name}")
        if self.name == "P" and self.k is None:
            raise ValueError("precision needs a cutoff: P@K (P@K divides by K)")

    def __str__(self) -> str:
        return self.name if self.k is None else f"{self.name}@{self.k}"


def parse_metric(spec: str | Metric, *, default_k: int | None = None) -> Metric:
    """Parse a metric spelling, case-insensitively, into a :class:`Metric`; a ``Metric`` is returned as is.

    Accepted: ``mrr@10``/``rr@10``/``recip_rank``, ``ndcg@10``/``ndcg_cut_10``, ``P@5``/``precision@5``/``P_5``,
    ``recall@5``/``R@5``, ``hit@10``/``success@10``/``success_10``, ``map@100``/``AP@100``/``map_cut_100``,
    ``coverage@5``/``keyword_coverage@5``, ``context_precision@5``/``CtxPrecision@5``. The cutoff may be left
    out: it is then ``default_k`` (``parse_metric("mrr", default_k=10) == Metric("MRR", 10)``, for a CLI
    where the run's K is implied), or the whole ranking when ``default_k`` is ``None`` — not allowed for
    precision. ``parse_metric(str(m)) == m`` for every metric ``m``.

    Raises ``ValueError`` listing the accepted forms on anything else (unknown name, K outside 1..1000).
    """
    if isinstance(spec, Metric):
        return spec
    if not isinstance(spec, str):
        raise ValueError(f"metric must be a string such as 'nDCG@10', got {type(spec).__name__}")
    match = _SPELLING.fullmatch(spec.strip().lower())
    name = _ALIASES.get(match.group("name")) if match else None
    if match is None or name is None:
        raise ValueError(f"unknown metric {spec!r}; {_ACCEPTED}")
    k_text = match.group("k")
    k = int(k_text) if k_text is not None else default_k
    if k is not None and not 1 <= k <= MAX_K:
        raise ValueError(f"metric cutoff in {spec!r} must be in 1..{MAX_K}")
    return Metric(name, k)
