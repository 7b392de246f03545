"""``evaluate runs | datasets | results``: the run store from the command line; stored runs for ``compare``.

evaluate runs [--dataset-id N] [--limit 20] [--json]     # stored runs, newest first
evaluate datasets [--json]                               # stored test sets
evaluate results RUN_ID [--json] [--out-dir DIR]         # a stored run's panels (and report files)

Every command takes ``--store URL`` (default: $TESTGEN_STORE_URL, else sqlite in $TESTGEN_DATA_DIR or .testgen/).
A bad id or a store that cannot be opened is one line on stderr and exit code 2.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from evaluators.errors import StoreError, StoreNotFound
from testgen.cli.common import one_line_errors
from testgen.errors import UserInputError

if TYPE_CHECKING:
    from evaluators.evaluate import EvaluationOutcome
    from evaluators.store import RunStore
    from schemas import QuestionResult, RunDetail, RunInfo

__all__ = [
    "datasets_command",
    "load_results_ref",
    "register",
    "results_command",
    "runs_command",
    "stored_outcome",
]

_RUN_REF = re.compile(r"(?:run:)?(\d+)")
_STATUS_STYLE = {"completed": "green", "failed": "red", "running": "yellow", "pending": "dim"}

store_option = click.option(
    "--store",
    "store_url",
    default=None,
    metavar="URL",
    help="Run store database URL (default: $TESTGEN_STORE_URL, else sqlite in $TESTGEN_DATA_DIR or .testgen/).",
)


_one_line_errors = one_line_errors(StoreError)
"""User errors and store errors (bad id, unreachable store) become ``error: <message>`` and exit code 2."""


@contextmanager
def _open_store(store_url: str | None) -> Iterator[RunStore]:
    """The store at `store_url`, else the one given to the ``evaluate`` group (``evaluate --store URL runs``)."""
    from evaluators.store import RunStore

    if store_url is None:
        ctx = click.get_current_context(silent=True)
        parent = ctx.parent if ctx is not None else None
        inherited = parent.params.get("store_url") if parent is not None else None
        store_url = inherited if isinstance(inherited, str) else None
    store = RunStore(store_url)
    try:
        yield store
    finally:
        store.close()


def stored_outcome(detail: RunDetail) -> EvaluationOutcome | None:
    """The stored run as an outcome the reports take; a run without a summary is summarized from its partial
    results; None when it has neither."""
    from evaluators.evaluate import EvaluationOutcome, summarize

    results = list(detail.results)
    summary = detail.summary
    if summary is None:
        if not results:
            return None
        summary = summarize(
            results,
            dataset=detail.dataset_name,
            target=detail.target,
            k=detail.k,
            evaluation_type=detail.evaluation_type,
            notes=[f"partial results of a {detail.status} run"],
        )
    return EvaluationOutcome(results, summary, [None] * len(results))


def load_results_ref(ref: str, store_url: str | None = None) -> list[QuestionResult]:
    """Per-question results from a stored run id (``12`` or ``run:12``, unless such a path exists), a report folder
    or a results.jsonl file. Store problems are UserInputErrors (one line, exit 2)."""
    from evaluators.compare import load_results

    match = _RUN_REF.fullmatch(ref.strip())
    if match is None or Path(ref).exists():
        return load_results(Path(ref))
    run_id = int(match.group(1))
    try:
        with _open_store(store_url) as store:
            detail = store.get_run(run_id)
    except StoreNotFound:
        raise
    except StoreError as exc:
        raise UserInputError(str(exc)) from None
    if not detail.results:
        raise UserInputError(f"run {run_id} has no results to compare (status {detail.status})")
    if detail.status != "completed":
        click.echo(f"note: run {run_id} is {detail.status}; comparing its {len(detail.results)} results", err=True)
    return detail.results


def _when(info: RunInfo) -> str:
    """Local time, without the year when it is this year's (keeps the runs table narrow)."""
    local = info.created_at.astimezone()
    return local.strftime("%m-%d %H:%M" if local.year == datetime.now().year else "%Y-%m-%d %H:%M")


def _number(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value:.{digits}f}"


def _status(status: str) -> str:
    style = _STATUS_STYLE.get(status)
    return f"[{style}]{status}[/]" if style else status


def _dump(data: Any) -> None:
    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


_NUMBERS = {"id", "k", "questions", "MRR@k", "nDCG@k", "faith", "cost"}
"""Columns of numbers: right-aligned and never wrapped or cut, however narrow the terminal."""
_KEPT_WHOLE = _NUMBERS | {"type", "status", "fingerprint"}
"""Columns whose values are never wrapped or cut either: short words and ids."""


def _print_table(title: str, columns: list[str], rows: list[list[str]], *, spare: tuple[str, ...] = ()) -> None:
    """The rows as a table: boxed when it fits the terminal; else without the box and its padding, numbers and
    short words (status, type, ids) kept whole and the text columns (names, targets, dates, categories) given the
    rest of the width and wrapped onto more lines, so an 80-column terminal shows every metric value in full. On a
    terminal narrower still, the `spare` columns are left out, in their order, until the rest fits, and a line
    says which."""
    console = Console()
    table = _table(title, columns, rows)
    wide = console.options.update_width(1_000_000)
    left_out: list[str] = []
    if Measurement.get(console, wide, table).maximum > console.width:  # wider than the terminal, unwrapped
        for column in spare:
            if sum(_least_widths(columns, rows)) + len(columns) - 1 <= console.width:
                break
            keep = [i for i, name in enumerate(columns) if name != column]
            columns, rows = [columns[i] for i in keep], [[row[i] for i in keep] for row in rows]
            left_out.append(column)
        table = _table(title, columns, rows, widths=_fitted_widths(columns, rows, console.width))
    console.print(table)
    if left_out:
        console.print(f"(left out on a terminal this narrow: {', '.join(left_out)}; --json shows every field)")


def _cell_widths(columns: list[str], rows: list[list[str]]) -> list[int]:
    """The width of each column's widest value or heading, on one line."""
    return [
        max([Text.from_markup(row[i]).cell_len for row in rows] + [len(column)]) for i, column in enumerate(columns)
    ]


def _least_widths(columns: list[str], rows: list[list[str]]) -> list[int]:
    """How narrow each column may get: a kept-whole column its widest value, another 5 or its heading's length."""
    natural = _cell_widths(columns, rows)
    return [natural[i] if column in _KEPT_WHOLE else max(5, len(column)) for i, column in enumerate(columns)]


def _fitted_widths(columns: list[str], rows: list[list[str]], total: int) -> list[int]:
    """Column widths for a compact table `total` wide (one space between columns), each at least its least width.
    The room left goes a character at a time to the text column lacking the most: first of its longest word (so
    words are not cut), then of its one-line width."""
    natural = _cell_widths(columns, rows)
    words = [
        max([len(word) for row in rows for word in Text.from_markup(row[i]).plain.split()] + [len(column)])
        for i, column in enumerate(columns)
    ]
    widths = _least_widths(columns, rows)
    room = total - (len(columns) - 1) - sum(widths)
    for goal in ([min(w, n) for w, n in zip(words, natural, strict=True)], natural):
        while room > 0:
            lacking = max(range(len(columns)), key=lambda i: goal[i] - widths[i])
            if goal[lacking] <= widths[lacking]:
                break
            widths[lacking] += 1
            room -= 1
    return widths


def _table(title: str, columns: list[str], rows: list[list[str]], widths: list[int] | None = None) -> Table:
    """The boxed table, or with `widths` the compact one: no box, one space between columns, widths fixed."""
    style: dict[str, Any] = {} if widths is None else {"box": box.SIMPLE_HEAD, "show_edge": False, "padding": (0, 0)}
    table = Table(title=title, **style)
    for i, column in enumerate(columns):
        table.add_column(
            column,
            justify="right" if column in _NUMBERS else "left",
            no_wrap=column in _KEPT_WHOLE,
            overflow="fold",
            width=None if widths is None else widths[i],
        )
    for row in rows:
        table.add_row(*row)
    return table


@click.command("runs")
@click.option("--dataset-id", type=int, default=None, help="Only runs on this stored test set.")
@click.option("--limit", type=click.IntRange(1, 100_000), default=20, show_default=True, help="At most this many.")
@click.option("--json", "as_json", is_flag=True, help="Print the runs as JSON.")
@store_option
@_one_line_errors
def runs_command(dataset_id: int | None, limit: int, as_json: bool, store_url: str | None) -> None:
    """List stored evaluation runs, newest first."""
    with _open_store(store_url) as store:
        if dataset_id is not None:
            store.get_dataset(dataset_id)
        runs = store.list_runs(dataset_id=dataset_id, limit=limit)
        where = store.url
    if as_json:
        _dump([run.model_dump(mode="json") for run in runs])
        return
    if not runs:
        click.echo(f"no runs in {where} yet (every `evaluate --dataset ...` run is recorded)")
        return
    rows = [
        [
            str(run.id),
            _when(run),
            escape(f"{run.dataset_name} #{run.dataset_id}"),
            escape(str(run.target.get("target", "?"))),
            run.evaluation_type.removesuffix("_only"),  # "retrieval" keeps the column narrow
            str(run.k),
            _status(run.status),
            _number(run.metrics.get(f"MRR@{run.k}")),
            _number(run.metrics.get(f"nDCG@{run.k}")),
            _number(run.mean_faithfulness),
            f"${run.cost:.4f}" if run.cost else "–",
        ]
        for run in runs
    ]
    columns = ["id", "created", "dataset", "target", "type", "k", "status", "MRR@k", "nDCG@k", "faith", "cost"]
    # answer columns only when some run has answers to show
    shown = [i for i, column in enumerate(columns) if column not in ("faith", "cost") or any(r[i] != "–" for r in rows)]
    _print_table(
        f"Runs — {escape(where)}",
        [columns[i] for i in shown],
        [[row[i] for i in shown] for row in rows],
        spare=("created", "type", "target"),
    )


@click.command("datasets")
@click.option("--json", "as_json", is_flag=True, help="Print the test sets as JSON.")
@store_option
@_one_line_errors
def datasets_command(as_json: bool, store_url: str | None) -> None:
    """List the test sets kept in the run store."""
    with _open_store(store_url) as store:
        datasets = store.list_datasets()
        where = store.url
    if as_json:
        _dump([dataset.model_dump(mode="json") for dataset in datasets])
        return
    if not datasets:
        click.echo(f"no datasets in {where} yet")
        return
    rows = [
        [
            str(dataset.id),
            escape(dataset.name),
            str(dataset.questions),
            escape(", ".join(f"{name} {n}" for name, n in dataset.categories.items())),
            escape(dataset.source),
            dataset.created_at.astimezone().strftime("%Y-%m-%d %H:%M"),
            dataset.fingerprint[:12],
        ]
        for dataset in datasets
    ]
    columns = ["id", "name", "questions", "categories", "source", "created", "fingerprint"]
    _print_table(f"Datasets — {escape(where)}", columns, rows, spare=("created", "source", "fingerprint"))


@click.command("results")
@click.argument("run_id", type=int)
@click.option("--json", "as_json", is_flag=True, help="Print the run (summary and results) as JSON.")
@click.option(
    "-o", "--out-dir", type=click.Path(path_type=Path), default=None, help="Also write the report files here."
)
@click.option("--no-plots", is_flag=True, help="With --out-dir: skip the PNG plots.")
@store_option
@_one_line_errors
def results_command(run_id: int, as_json: bool, out_dir: Path | None, no_plots: bool, store_url: str | None) -> None:
    """Show a stored run: its panels, or its status and error and any partial results."""
    from evaluators.report import print_report, write_report

    with _open_store(store_url) as store:
        detail = store.get_run(run_id)
    outcome = stored_outcome(detail)
    if as_json:
        click.echo(detail.model_dump_json(indent=2))
    else:
        console = Console()
        console.print(
            f"run {detail.id} — {_status(detail.status)} — dataset {escape(detail.dataset_name)} "
            f"({detail.dataset_id}) — target {escape(str(detail.target.get('target', '?')))} — "
            f"{detail.evaluation_type}, k={detail.k} — {_when(detail)}"
        )
        if detail.error_message:
            console.print(f"[red]error:[/] {escape(detail.error_message)}")
        if outcome is None:
            console.print(f"no results yet (the run is {detail.status})")
        else:
            if detail.summary is None:
                console.print(f"partial results: {len(detail.results)} question(s) stored before the run stopped")
            print_report(outcome, console)
    if out_dir is not None:
        if outcome is None:
            raise UserInputError(f"run {run_id} has no results to write (status {detail.status})")
        written = write_report(outcome, out_dir, plots=not no_plots)
        click.echo(f"wrote {len(written)} files to {out_dir}/ (open {written['html']})", err=True)


def register(group: click.Group) -> None:
    """Add the store commands (runs, datasets, results) to `group`; calling it again changes nothing."""
    for command in (runs_command, datasets_command, results_command):
        if command.name is not None and command.name not in group.commands:
            group.add_command(command)
