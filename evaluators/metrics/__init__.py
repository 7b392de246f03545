"""Retrieval metrics: one small module per metric, a vectorised engine for many queries, parsed names.

Doc-level rank metrics (the defaults) collapse a ranked list of chunks to documents, keeping each document's
first occurrence, cut at K, and follow trec_eval with binary relevance ``doc ∈ source_docs``:

- :func:`reciprocal_rank` (RR@K, mean = MRR@K), :func:`ndcg` (nDCG@K), :func:`precision` (P@K),
  :func:`recall` (R@K), :func:`hit` (Hit@K), :func:`average_precision` (AP@K, mean = MAP@K),
  :func:`context_precision_at_k` (RAGAS-style rank-aware context precision over documents).
- :func:`score_runs` computes them for many queries at once (:class:`EngineResult`), equal to the functions
  above and to pytrec_eval.
- :func:`keyword_coverage`: share of a question's keywords found in the retrieved texts.
- The tutorial's chunk-level forms, for comparison only: :func:`chunk_precision`, :func:`chunk_ndcg`,
  :func:`context_precision` (over relevance flags).
- :class:`Metric` / :func:`parse_metric`: ``"ndcg_cut_10"`` → ``Metric("nDCG", 10)``, printed ``nDCG@10``.
"""

from evaluators.metrics._names import MAX_K, Metric, MetricName, parse_metric
from evaluators.metrics.average_precision import average_precision
from evaluators.metrics.chunk_level import chunk_ndcg, chunk_precision
from evaluators.metrics.collapse import collapse_to_docs
from evaluators.metrics.context_precision import context_precision, context_precision_at_k
from evaluators.metrics.engine import EngineResult, score_runs
from evaluators.metrics.hit import hit
from evaluators.metrics.keyword_coverage import keyword_coverage
from evaluators.metrics.ndcg import ndcg
from evaluators.metrics.precision import precision
from evaluators.metrics.recall import recall
from evaluators.metrics.reciprocal_rank import reciprocal_rank

__all__ = [
    "MAX_K",
    "EngineResult",
    "Metric",
    "MetricName",
    "average_precision",
    "chunk_ndcg",
    "chunk_precision",
    "collapse_to_docs",
    "context_precision",
    "context_precision_at_k",
    "hit",
    "keyword_coverage",
    "ndcg",
    "parse_metric",
    "precision",
    "recall",
    "reciprocal_rank",
    "score_runs",
]
