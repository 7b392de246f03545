"""PNG plots: metric bars with the 0.75 line, MRR per category, precision and recall over K = 1..k."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evaluators.evaluate import EvaluationOutcome, metric_order
from evaluators.report.bands import GOOD


def _pyplot() -> Any:
    import matplotlib

    matplotlib.use("Agg")  # files only; never a window
    import matplotlib.pyplot as plt

    return plt


def _cjk_font() -> None:
    """Use a font with Hangul/Han glyphs when one is installed, so category labels render."""
    from matplotlib import font_manager, rcParams

    wanted = ("Noto Sans CJK KR", "Noto Sans CJK JP", "Noto Sans CJK SC", "NanumGothic", "Droid Sans Fallback")
    available = {f.name for f in font_manager.fontManager.ttflist}
    for name in wanted:
        if name in available:
            rcParams["font.family"] = [name, "DejaVu Sans"]
            return


def metric_bars(outcome: EvaluationOutcome, path: Path) -> Path:
    """Overall means as bars, with the 0.75 'good' line."""
    plt = _pyplot()
    _cjk_font()
    names = metric_order(outcome.summary)
    values = [outcome.summary.overall[n].mean for n in names]
    fig, ax = plt.subplots(figsize=(8, 4), dpi=110)
    bars = ax.bar(
        names, values, color=["#2e7d32" if v >= 0.9 else "#f9a825" if v >= GOOD else "#c62828" for v in values]
    )
    ax.axhline(GOOD, color="#444", linestyle="--", linewidth=1, label=f"good ({GOOD})")
    ax.set_ylim(0, 1.18)  # headroom for the bar labels and the legend
    ax.set_ylabel("mean")
    ax.set_title("Retrieval metrics (document level)")
    ax.bar_label(bars, fmt="%.2f", fontsize=8)
    ax.legend(loc="upper right", fontsize=8, ncol=1, framealpha=0.9)
    plt.setp(ax.get_xticklabels(), rotation=20, ha="right", fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def category_mrr(outcome: EvaluationOutcome, path: Path) -> Path:
    """MRR per question category, with the 0.75 line."""
    plt = _pyplot()
    _cjk_font()
    name = f"MRR@{outcome.summary.k}"
    cats = [(c, m[name].mean, m[name].n) for c, m in outcome.summary.by_category.items() if name in m]
    fig, ax = plt.subplots(figsize=(8, 4), dpi=110)
    if cats:
        labels = [f"{c}\n(n={n})" for c, _, n in cats]
        bars = ax.bar(labels, [v for _, v, _ in cats], color="#1565c0")
        ax.bar_label(bars, fmt="%.2f", fontsize=8)
    ax.axhline(GOOD, color="#444", linestyle="--", linewidth=1)
    ax.set_ylim(0, 1.05)
    ax.set_title(f"{name} by category")
    plt.setp(ax.get_xticklabels(), fontsize=8)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def precision_recall(outcome: EvaluationOutcome, path: Path) -> Path:
    """Mean P@K and R@K for K = 1..k."""
    plt = _pyplot()
    curve = outcome.summary.curve
    ks = list(range(1, len(curve.get("P", [])) + 1))
    fig, ax = plt.subplots(figsize=(6, 4), dpi=110)
    if ks:
        ax.plot(ks, curve["P"], marker="o", label="Precision@K")
        ax.plot(ks, curve["R"], marker="s", label="Recall@K")
    ax.set_xlabel("K")
    ax.set_ylim(0, 1.05)
    ax.set_xticks(ks)
    ax.set_title("Precision and recall over K")
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def write_plots(outcome: EvaluationOutcome, out_dir: Path) -> dict[str, Path]:
    """All plots of a report, by name."""
    return {
        "metrics": metric_bars(outcome, out_dir / "metrics.png"),
        "categories": category_mrr(outcome, out_dir / "category_mrr.png"),
        "precision_recall": precision_recall(outcome, out_dir / "precision_recall.png"),
    }
