"""A self-contained HTML report (plots embedded as data URIs; every piece of untrusted text escaped)."""

from __future__ import annotations

import base64
import json
from html import escape
from pathlib import Path

from evaluators.evaluate import EvaluationOutcome, generation_metric_order, metric_order
from evaluators.report.bands import band_for, best_note, best_possible, capped_band, judge_band
from evaluators.report.diagnosis import faithfulness_relevancy, retrieval_generation
from evaluators.report.panels import answers_title, generation_rows, run_time, usage_line
from schemas import QuestionResult

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
details{margin:.3rem 0}.fair{background:#fff3e0}.not-scored{background:#f0f0f0}
.panels{display:grid;grid-template-columns:repeat(auto-fit,minmax(420px,1fr));gap:1.5rem}
.finding td:first-child{white-space:nowrap}pre{white-space:pre-wrap;font-size:.78rem;background:#fafafa;padding:.4rem}
"""


def _img(path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<img alt="{escape(path.stem)}" src="data:image/png;base64,{data}">'


def _cell(value: float | None, name: str = "", best: float | None = None) -> str:
    if value is None:
        return '<td class="num">–</td>'
    cls = (capped_band(value, best) if best else band_for(name, value)).replace(" ", "-")
    return f'<td class="num {cls}">{value:.3f}</td>'


def render_html(outcome: EvaluationOutcome, plots: dict[str, Path]) -> str:
    """The whole report as one HTML string."""
    s = outcome.summary
    names = metric_order(s)
    target = ", ".join(f"{escape(str(k))}={escape(str(v))}" for k, v in s.target.items())
    counts = ", ".join(f"{n} {escape(st)}" for st, n in s.counts.items() if n)
    full = s.evaluation_type == "full_rag"
    timing = f"; run time {run_time(s.seconds)}" if s.seconds > 0 else ""  # none for a failed run's partial results
    title = f"{'RAG' if full else 'Retrieval'} evaluation — {escape(s.dataset)}"
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>{title}</title><style>{_CSS}</style></head><body>",
        f"<h1>{title}</h1>",
        f"<p class='meta'>Target: {target}<br>k = {s.k}; {s.questions} questions ({counts}){timing}</p>",
        "<div class='panels'><section>",
        "<h2>Retrieval</h2><table><tr><th>metric</th><th>mean</th><th>n</th><th>band</th></tr>",
    ]
    for name in names:
        mean = s.overall[name]
        best = best_possible(name, outcome.results)
        parts.append(
            f"<tr><td>{escape(name)}</td>{_cell(mean.mean, best=best)}<td class='num'>{mean.n}</td>"
            f"<td>{escape(capped_band(mean.mean, best) + best_note(best))}</td></tr>"
        )
    parts.append("</table></section>")
    if full:
        parts += _generation_panel(outcome)
    parts.append("</div>")
    parts.append(
        "<h2>By category</h2><table><tr><th>category</th><th>n</th>"
        + "".join(f"<th>{escape(n)}</th>" for n in names)
        + "</tr>"
    )
    for category, means in s.by_category.items():
        n = max((m.n for m in means.values()), default=0)
        among = [r for r in outcome.results if r.category == category]
        parts.append(
            f"<tr><td>{escape(category)}</td><td class='num'>{n}</td>"
            + "".join(
                _cell(means[name].mean, best=best_possible(name, among)) if name in means else _cell(None)
                for name in names
            )
            + "</tr>"
        )
    parts.append("</table>")
    if full:
        parts += _generation_details(outcome)
    parts.append("<h2>Plots</h2><div class='plots'>")
    parts += [_img(p) for p in plots.values()]
    parts.append(
        "</div><h2>Questions</h2><table><tr><th>question</th><th>category</th><th>status</th>"
        f"<th>MRR@{s.k}</th><th>expected</th><th>retrieved</th>"
        + ("<th>answer</th><th>judge accuracy</th>" if full else "")
        + "</tr>"
    )
    mrr = f"MRR@{s.k}"
    for r in sorted(outcome.results, key=lambda r: (r.metrics.get(mrr, -1.0), r.question)):
        parts.append(
            f"<tr><td>{escape(r.question)}</td><td>{escape(r.category)}</td>"
            f"<td><span class='status'>{escape(r.status)}</span>"
            + (f"<br><small>{escape(r.error)}</small>" if r.error else "")
            + f"</td>{_cell(r.metrics.get(mrr))}<td>{escape(', '.join(r.source_docs))}</td>"
            f"<td>{escape(', '.join(r.retrieved_docs[:5]))}</td>" + (_answer_cells(r) if full else "") + "</tr>"
        )
    parts.append("</table></body></html>")
    return "\n".join(parts)


def _generation_panel(outcome: EvaluationOutcome) -> list[str]:
    s = outcome.summary
    parts = [
        f"<section><h2>{escape(answers_title(s))}</h2>",
        "<table><tr><th>metric</th><th>mean</th><th>scored/tried</th><th>band</th></tr>",
    ]
    for row in generation_rows(s):
        cls = row.band.replace(" ", "-")
        parts.append(
            f"<tr><td>{escape(row.name)}</td><td class='num {cls}'>{escape(row.value())}</td>"
            f"<td class='num'>{row.coverage}</td><td>{escape(row.band)}</td></tr>"
        )
    parts.append("</table>")
    usage = usage_line(s)
    if usage:
        parts.append(f"<p class='meta'>{escape(usage)}</p>")
    parts += [f"<p class='meta'>note: {escape(note)}</p>" for note in s.notes]
    parts.append("</section>")
    return parts


def _generation_details(outcome: EvaluationOutcome) -> list[str]:
    s = outcome.summary
    names = generation_metric_order(s)
    parts = []
    if names:
        parts.append(
            "<h2>Answers by category</h2><table><tr><th>category</th>"
            + "".join(f"<th>{escape(n)}</th>" for n in names)
            + "</tr>"
        )
        for category, means in s.by_category.items():
            parts.append(
                f"<tr><td>{escape(category)}</td>"
                + "".join(_cell(means[n].mean if n in means else None, n) for n in names)
                + "</tr>"
            )
        parts.append("</table>")
    for title, findings in (
        ("Faithfulness × relevancy", faithfulness_relevancy(s)),
        ("Retrieval × generation", retrieval_generation(s)),
    ):
        if findings:
            parts.append(
                f"<h2>{title}</h2><table class='finding'><tr><th>scope</th><th>pattern</th><th>next step</th></tr>"
            )
            parts += [
                f"<tr><td>{escape(f.scope)}</td><td>{escape(f.pattern)}<br><small>{escape(f.x_name)} {f.x:.2f}, "
                f"{escape(f.y_name)} {f.y:.2f}</small></td><td>{escape(f.next_step)}</td></tr>"
                for f in findings
            ]
            parts.append("</table>")
    return parts


def _answer_cells(r: QuestionResult) -> str:
    accuracy = r.metrics.get("judge_accuracy")
    if accuracy is not None:
        judged = f"<td class='num {judge_band(accuracy).replace(' ', '-')}'>{accuracy:.0f}"
    else:
        judged = "<td class='num'>–"
    if r.judge is not None:
        reasons = "".join(f"<br><b>{escape(k)}</b>: {escape(v)}" for k, v in r.judge.reasons.items())
        audit = escape(json.dumps(r.judge.prompt, ensure_ascii=False, indent=1))
        raw = "".join(f"<pre>{escape(text)}</pre>" for text in r.judge.raw)
        error = f"<br>{escape(r.judge.error)}" if r.judge.error else ""
        judged += (
            f"<details><summary>why</summary>{reasons}{error}<p>prompt</p><pre>{audit}</pre><p>reply</p>{raw}</details>"
        )
    missing = "; ".join(f"{escape(k)}: {escape(v)}" for k, v in r.unscored.items())
    if missing:
        judged += f"<br><small>unscored — {missing}</small>"
    return f"<td>{escape(r.answer or '–')}</td>{judged}</td>"


def write_html(outcome: EvaluationOutcome, plots: dict[str, Path], path: Path) -> Path:
    """Write the HTML report."""
    path.write_text(render_html(outcome, plots), encoding="utf-8")
    return path
