"""A self-contained HTML report (plots embedded as data URIs; every piece of untrusted text escaped)."""

from __future__ import annotations

import base64
from html import escape
from pathlib import Path

from evaluators.evaluate import EvaluationOutcome, metric_order
from evaluators.report.bands import band

_CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI","Noto Sans CJK KR","Noto Sans",sans-serif;margin:2rem auto;
max-width:1100px;color:#1d1d1f;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ddd;padding-bottom:.3rem}
table{border-collapse:collapse;width:100%;font-size:.88rem;margin:.5rem 0}
th,td{border:1px solid #e2e2e2;padding:.35rem .5rem;text-align:left;vertical-align:top}
th{background:#f5f5f7}td.num{text-align:right;font-variant-numeric:tabular-nums}
.excellent{background:#e8f5e9}.good{background:#fff8e1}.needs-work{background:#ffebee}
.meta{color:#555;font-size:.9rem}.plots img{max-width:100%;margin:.5rem 0;border:1px solid #eee}
.status{font-size:.8rem;padding:.1rem .35rem;border-radius:.3rem;background:#eee}
details{margin:.3rem 0}
"""


def _img(path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<img alt="{escape(path.stem)}" src="data:image/png;base64,{data}">'


def _cell(value: float | None) -> str:
    if value is None:
        return '<td class="num">–</td>'
    cls = band(value).replace(" ", "-")
    return f'<td class="num {cls}">{value:.3f}</td>'


def render_html(outcome: EvaluationOutcome, plots: dict[str, Path]) -> str:
    """The whole report as one HTML string."""
    s = outcome.summary
    names = metric_order(s)
    target = ", ".join(f"{escape(str(k))}={escape(str(v))}" for k, v in s.target.items())
    counts = ", ".join(f"{n} {escape(st)}" for st, n in s.counts.items() if n)
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>Retrieval evaluation — {escape(s.dataset)}</title><style>{_CSS}</style></head><body>",
        f"<h1>Retrieval evaluation — {escape(s.dataset)}</h1>",
        f"<p class='meta'>Target: {target}<br>k = {s.k}; {s.questions} questions ({counts}); {s.seconds:.1f} s</p>",
        "<h2>Overall</h2><table><tr><th>metric</th><th>mean</th><th>n</th><th>band</th></tr>",
    ]
    for name in names:
        mean = s.overall[name]
        parts.append(
            f"<tr><td>{escape(name)}</td>{_cell(mean.mean)}<td class='num'>{mean.n}</td>"
            f"<td>{escape(band(mean.mean))}</td></tr>"
        )
    parts.append(
        "</table><h2>By category</h2><table><tr><th>category</th><th>n</th>"
        + "".join(f"<th>{escape(n)}</th>" for n in names)
        + "</tr>"
    )
    for category, means in s.by_category.items():
        n = max((m.n for m in means.values()), default=0)
        parts.append(
            f"<tr><td>{escape(category)}</td><td class='num'>{n}</td>"
            + "".join(_cell(means[name].mean if name in means else None) for name in names)
            + "</tr>"
        )
    parts.append("</table><h2>Plots</h2><div class='plots'>")
    parts += [_img(p) for p in plots.values()]
    parts.append(
        "</div><h2>Questions</h2><table><tr><th>question</th><th>category</th><th>status</th>"
        f"<th>MRR@{s.k}</th><th>expected</th><th>retrieved</th></tr>"
    )
    mrr = f"MRR@{s.k}"
    for r in sorted(outcome.results, key=lambda r: (r.metrics.get(mrr, -1.0), r.question)):
        parts.append(
            f"<tr><td>{escape(r.question)}</td><td>{escape(r.category)}</td>"
            f"<td><span class='status'>{escape(r.status)}</span>"
            + (f"<br><small>{escape(r.error)}</small>" if r.error else "")
            + f"</td>{_cell(r.metrics.get(mrr))}<td>{escape(', '.join(r.source_docs))}</td>"
            f"<td>{escape(', '.join(r.retrieved_docs[:5]))}</td></tr>"
        )
    parts.append("</table></body></html>")
    return "\n".join(parts)


def write_html(outcome: EvaluationOutcome, plots: dict[str, Path], path: Path) -> Path:
    """Write the HTML report."""
    path.write_text(render_html(outcome, plots), encoding="utf-8")
    return path
