"""The run store: test sets and evaluation runs with their per-question results, in SQLite or PostgreSQL.

    store = RunStore()                                   # sqlite:///<$TESTGEN_DATA_DIR or ./.testgen>/runs.db
    store = RunStore("postgresql+psycopg://user:pw@db:5432/evals")
    info = store.record(outcome, questions=questions, dataset_name="tests.jsonl", dataset_source="tests.jsonl")
    detail = store.get_run(info.id)                     # RunDetail: summary and results, as they were stored

Every call opens its own session, so one store may be shared by threads (the REST API runs evaluations in
background threads). SQLite runs in WAL mode, so reads go on while a run writes; writes take the write lock
up front (``BEGIN IMMEDIATE``) and wait for each other instead of failing.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from sqlalchemy import Engine, create_engine, delete, event, insert, select
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, NoSuchModuleError, ProgrammingError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker
from sqlalchemy.pool import StaticPool

from evaluators.errors import StoreError, StoreLayoutError, StoreNotFound
from evaluators.evaluate import EvaluationOutcome
from evaluators.store.models import LAYOUT_VERSION, Base, DatasetRow, MetaRow, ResultRow, RunRow, utcnow
from schemas import DatasetInfo, EvaluationSummary, QuestionResult, RunDetail, RunInfo, TestQuestion
from testgen.redact import redact

__all__ = [
    "DEFAULT_DATA_DIR_ENV",
    "STORE_URL_ENV",
    "RunStore",
    "default_store_url",
    "fingerprint_questions",
    "mask_url",
]

DEFAULT_DATA_DIR_ENV = "TESTGEN_DATA_DIR"
STORE_URL_ENV = "TESTGEN_STORE_URL"

_URL_HELP = "give sqlite:///path/to/runs.db or postgresql+psycopg://user:password@host:5432/dbname"
_T = TypeVar("_T")


def default_store_url() -> str:
    """$TESTGEN_STORE_URL, else an SQLite file ``runs.db`` in $TESTGEN_DATA_DIR (default ``./.testgen``)."""
    url = os.environ.get(STORE_URL_ENV, "").strip()
    if url:
        return url
    folder = os.environ.get(DEFAULT_DATA_DIR_ENV, "").strip() or ".testgen"
    return f"sqlite:///{(Path(folder).expanduser() / 'runs.db').resolve()}"


def mask_url(url: str | URL) -> str:
    """`url` with its password (in the user part or a ``password=`` query parameter) replaced by ``***``."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        text = re.sub(r"(^|://|\s)([^:/@\s]*):[^@\s]*@", r"\1\2:***@", str(url))
        return re.sub(r"(?i)(password=)[^&;\s]*", r"\1***", text)
    if "password" in parsed.query:
        parsed = parsed.update_query_dict({"password": "***"})
    return parsed.render_as_string(hide_password=True).replace("password=%2A%2A%2A", "password=***")


def fingerprint_questions(questions: Sequence[TestQuestion]) -> str:
    """SHA-256 of the questions' canonical JSON (order matters): the same test set has the same fingerprint."""
    rows = [q.model_dump(mode="json", exclude_none=True) for q in questions]
    text = json.dumps(rows, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _one_line(exc: BaseException, secrets: Sequence[str] = ()) -> str:
    """The driver's message of `exc` on one line, with any secret removed."""
    orig = getattr(exc, "orig", None) or exc
    text = " ".join(str(orig).split()) or type(orig).__name__
    for secret in secrets:
        text = text.replace(secret, "***")
    return text if len(text) <= 300 else text[:297] + "..."


def _first(values: dict[str, float], *names: str) -> float | None:
    return next((values[n] for n in names if n in values), None)


class RunStore:
    """Datasets, runs and per-question results in a SQL database (SQLite file or PostgreSQL server)."""

    def __init__(self, url: str | None = None) -> None:
        """Open (and create if needed) the store at `url` (default :func:`default_store_url`).

        Raises StoreError, naming the URL with its password masked and the fix, when the URL is malformed, its
        driver is not installed, or the database cannot be reached or written.
        """
        raw = url if url is not None and url.strip() else default_store_url()
        self.url: str = mask_url(raw.strip())
        parsed = self._parse(raw.strip())
        self._secrets = [v for v in (parsed.password, parsed.query.get("password")) if isinstance(v, str) and v]
        self._sqlite = parsed.get_backend_name() == "sqlite"
        self._engine = self._create_engine(parsed)
        try:
            self._create_tables()
        except StoreLayoutError:
            self._engine.dispose()
            raise
        except SQLAlchemyError as exc:
            self._engine.dispose()
            fix = (
                "check that the folder exists and is writable"
                if self._sqlite
                else "check that the server is running and the URL, user and password are right"
            )
            raise StoreError(
                f"cannot open the run store {self.url}: {_one_line(exc, self._secrets)}; {fix} "
                f"(--store or ${STORE_URL_ENV})"
            ) from None
        self._sessions = sessionmaker(self._engine, expire_on_commit=False)

    def _create_tables(self) -> None:
        """Create the tables that are missing (once more if another process created them at the same moment),
        then check the layout version: a store written by a version of testgen with other tables is refused."""
        try:
            Base.metadata.create_all(self._engine)
        except (IntegrityError, ProgrammingError):
            Base.metadata.create_all(self._engine)
        with self._engine.begin() as connection:
            found = connection.execute(select(MetaRow.value).where(MetaRow.key == "layout_version")).scalar()
            if found is None:
                try:
                    connection.execute(insert(MetaRow).values(key="layout_version", value=LAYOUT_VERSION))
                except IntegrityError:  # another process wrote it first
                    found = LAYOUT_VERSION
        if found is not None and found != LAYOUT_VERSION:
            raise StoreLayoutError(
                f"the run store {self.url} has table layout {found}, this version of testgen reads layout "
                f"{LAYOUT_VERSION}: use the testgen version that wrote it, or a new store (--store URL or "
                f"${DEFAULT_DATA_DIR_ENV})"
            )

    def __repr__(self) -> str:
        return f"RunStore({self.url!r})"

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the database connections."""
        self._engine.dispose()

    # -- datasets ---------------------------------------------------------------------------------------------

    def add_dataset(self, questions: Sequence[TestQuestion], *, name: str, source: str) -> DatasetInfo:
        """Store a test set; the same name with the same questions returns the row already stored."""
        return self._write_retrying(lambda s: _dataset_info(self._find_or_add_dataset(s, questions, name, source)))

    def list_datasets(self) -> list[DatasetInfo]:
        """Every stored test set, oldest first."""
        with self._reading() as s:
            return [_dataset_info(row) for row in s.scalars(select(DatasetRow).order_by(DatasetRow.id))]

    def get_dataset(self, dataset_id: int) -> DatasetInfo:
        """One test set (StoreNotFound when there is none with that id)."""
        with self._reading() as s:
            return _dataset_info(_dataset_row(s, dataset_id))

    def dataset_questions(self, dataset_id: int) -> list[TestQuestion]:
        """The questions of a stored test set, in their stored order."""
        with self._reading() as s:
            row = _dataset_row(s, dataset_id)
            return [TestQuestion.model_validate(q) for q in row.questions]

    # -- runs -------------------------------------------------------------------------------------------------

    def create_run(
        self, dataset_id: int, *, config: dict[str, Any], target: dict[str, Any], k: int, evaluation_type: str
    ) -> RunInfo:
        """A new run on a stored test set, status ``pending``."""
        with self._writing() as s:
            dataset = _dataset_row(s, dataset_id)
            run = _new_run(s, dataset, config=config, target=target, k=k, evaluation_type=evaluation_type)
            return _run_info(run, dataset.name)

    def mark_running(self, run_id: int) -> None:
        """The run has started."""
        with self._writing() as s:
            run = _run_row(s, run_id)
            run.status = "running"
            run.updated_at = utcnow()

    def add_results(self, run_id: int, results: Sequence[QuestionResult]) -> None:
        """Store the results so far, replacing the run's stored results (a checkpoint while it runs)."""
        with self._writing() as s:
            run = _run_row(s, run_id)
            _replace_results(s, run, results)
            run.updated_at = utcnow()

    def complete_run(self, run_id: int, summary: EvaluationSummary, results: Sequence[QuestionResult]) -> RunInfo:
        """The run finished: keep its summary, overall means, cost and results; status ``completed``."""
        with self._writing() as s:
            run = _run_row(s, run_id)
            _complete(s, run, summary, results)
            return _run_info(run, run.dataset.name)

    def fail_run(self, run_id: int, error_message: str, results: Sequence[QuestionResult] | None = None) -> RunInfo:
        """The run failed: keep the message, and the partial results (those given, else those already stored)."""
        with self._writing() as s:
            run = _run_row(s, run_id)
            if results is not None:
                _replace_results(s, run, results)
            run.status = "failed"
            run.error_message = redact(error_message)
            run.updated_at = utcnow()
            return _run_info(run, run.dataset.name)

    def fail_unfinished(self, error_message: str) -> list[int]:
        """Mark every ``pending`` or ``running`` run failed with `error_message`, keeping its partial results;
        their ids. For a server starting on a store that only it runs jobs on: such runs were left by a server
        that stopped (or was killed) before they finished."""
        with self._writing() as s:
            runs = s.scalars(select(RunRow).where(RunRow.status.in_(("pending", "running")))).all()
            for run in runs:
                run.status = "failed"
                run.error_message = error_message
                run.updated_at = utcnow()
            return sorted(run.id for run in runs)

    @property
    def is_sqlite(self) -> bool:
        """True for a SQLite file (one machine), False for a database server that several may share."""
        return self._sqlite

    def get_run(self, run_id: int, *, with_results: bool = True) -> RunDetail:
        """A run with its summary and (unless `with_results` is False) its per-question results."""
        with self._reading() as s:
            run = _run_row(s, run_id)
            info = _run_info(run, run.dataset.name)
            results: list[QuestionResult] = []
            if with_results:
                payloads = s.scalars(
                    select(ResultRow.payload).where(ResultRow.run_id == run_id).order_by(ResultRow.position)
                )
                results = [QuestionResult.model_validate(p) for p in payloads]
            summary = EvaluationSummary.model_validate(run.summary) if run.summary is not None else None
        return RunDetail(**info.model_dump(), summary=summary, results=results)

    def list_runs(self, *, dataset_id: int | None = None, limit: int = 100) -> list[RunInfo]:
        """Runs, newest first (only those on `dataset_id` when given), at most `limit`."""
        query = select(RunRow, DatasetRow.name).join(DatasetRow, RunRow.dataset_id == DatasetRow.id)
        if dataset_id is not None:
            query = query.where(RunRow.dataset_id == dataset_id)
        query = query.order_by(RunRow.created_at.desc(), RunRow.id.desc()).limit(max(limit, 0))
        with self._reading() as s:
            return [_run_info(run, name) for run, name in s.execute(query).all()]

    def record(
        self,
        outcome: EvaluationOutcome,
        *,
        questions: Sequence[TestQuestion],
        dataset_name: str,
        dataset_source: str,
        config: dict[str, Any] | None = None,
    ) -> RunInfo:
        """Keep a finished evaluation: its test set (stored once), a run, its summary and results, in one go."""
        summary = outcome.summary

        def write(s: Session) -> RunInfo:
            dataset = self._find_or_add_dataset(s, questions, dataset_name, dataset_source)
            run = _new_run(
                s,
                dataset,
                config=config or {},
                target=summary.target,
                k=summary.k,
                evaluation_type=summary.evaluation_type,
            )
            _complete(s, run, summary, outcome.results)
            return _run_info(run, dataset.name)

        return self._write_retrying(write)

    # -- internals --------------------------------------------------------------------------------------------

    def _parse(self, raw: str) -> URL:
        try:
            parsed = make_url(raw)
        except ArgumentError:
            raise StoreError(f"{self.url}: not a database URL; {_URL_HELP}") from None
        if parsed.drivername in ("postgresql", "postgres"):
            parsed = parsed.set(drivername="postgresql+psycopg")  # psycopg 3 is the driver the extra installs
        return parsed

    def _create_engine(self, parsed: URL) -> Engine:
        options: dict[str, Any] = {"pool_pre_ping": True}
        if self._sqlite:
            database = parsed.database or ""
            if database in ("", ":memory:") or database.startswith("file:"):
                options["poolclass"] = StaticPool  # one in-memory database shared by every thread
            else:
                try:
                    Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
                except OSError as exc:
                    raise StoreError(
                        f"cannot create the folder of the run store {self.url}: {exc.strerror or exc}; "
                        f"give a writable path (--store or ${DEFAULT_DATA_DIR_ENV})"
                    ) from None
            options["connect_args"] = {"check_same_thread": False, "timeout": 30}
        elif parsed.get_backend_name() == "postgresql" and "connect_timeout" not in parsed.query:
            options["connect_args"] = {"connect_timeout": 10}  # an unreachable server fails in seconds, not minutes
        try:
            engine = create_engine(parsed, **options)
        except NoSuchModuleError:
            raise StoreError(f"{self.url}: unknown database or driver {parsed.drivername!r}; {_URL_HELP}") from None
        except ImportError as exc:
            raise StoreError(
                f"{self.url}: the database driver is not installed ({exc.name or exc}); "
                "for PostgreSQL: pip install 'testgen-rag[postgres]'"
            ) from None
        except (ArgumentError, TypeError, ValueError) as exc:
            raise StoreError(f"{self.url}: {_one_line(exc, self._secrets)}; {_URL_HELP}") from None
        if self._sqlite:
            event.listen(engine, "connect", _sqlite_connect)
            event.listen(engine, "begin", _sqlite_begin)
        return engine

    @contextmanager
    def _db_errors(self) -> Iterator[None]:
        try:
            yield
        except StoreError:
            raise
        except SQLAlchemyError as exc:
            raise StoreError(f"run store {self.url}: {_one_line(exc, self._secrets)}") from exc

    @contextmanager
    def _reading(self) -> Iterator[Session]:
        with self._db_errors(), self._sessions() as session:
            yield session

    @contextmanager
    def _writing(self) -> Iterator[Session]:
        with self._db_errors(), self._sessions() as session, session.begin():
            if self._sqlite:
                session.connection(execution_options={"sqlite_immediate": True})
            yield session

    def _write_retrying(self, write: Callable[[Session], _T]) -> _T:
        """Run `write` in a write transaction; once more if a concurrent writer added the same dataset first."""
        try:
            with self._writing() as s:
                return write(s)
        except StoreError as exc:
            if not isinstance(exc.__cause__, IntegrityError):
                raise
        with self._writing() as s:
            return write(s)

    def _find_or_add_dataset(self, s: Session, questions: Sequence[TestQuestion], name: str, source: str) -> DatasetRow:
        fingerprint = fingerprint_questions(questions)
        query = select(DatasetRow).where(DatasetRow.name == name, DatasetRow.fingerprint == fingerprint)
        row = s.scalars(query).first()
        if row is not None:
            return row
        categories: dict[str, int] = {}
        for question in questions:
            categories[question.category] = categories.get(question.category, 0) + 1
        row = DatasetRow(
            name=name,
            source=source,
            fingerprint=fingerprint,
            n_questions=len(questions),
            categories=categories,
            questions=[q.model_dump(mode="json") for q in questions],
            created_at=utcnow(),
        )
        s.add(row)
        s.flush()
        return row


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    """SQLite: WAL (reads while a run writes), foreign keys, and transactions begun by us (see _sqlite_begin)."""
    dbapi_connection.isolation_level = None
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA busy_timeout = 30000")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA foreign_keys = ON")
    finally:
        cursor.close()


def _sqlite_begin(connection: Connection) -> None:
    """Writers take the write lock at BEGIN, so two writers wait for each other rather than fail mid-way."""
    immediate = connection.get_execution_options().get("sqlite_immediate", False)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if immediate else "BEGIN")


def _dataset_row(s: Session, dataset_id: int) -> DatasetRow:
    row = s.get(DatasetRow, dataset_id)
    if row is None:
        raise StoreNotFound(f"no dataset with id {dataset_id} (evaluate datasets lists them)")
    return row


def _run_row(s: Session, run_id: int) -> RunRow:
    row = s.get(RunRow, run_id)
    if row is None:
        raise StoreNotFound(f"no run with id {run_id} (evaluate runs lists them)")
    return row


def _dataset_info(row: DatasetRow) -> DatasetInfo:
    return DatasetInfo(
        id=row.id,
        name=row.name,
        source=row.source,
        fingerprint=row.fingerprint,
        questions=row.n_questions,
        categories=dict(row.categories or {}),
        created_at=row.created_at,
    )


def _run_info(row: RunRow, dataset_name: str) -> RunInfo:
    return RunInfo.model_validate(
        {
            "id": row.id,
            "dataset_id": row.dataset_id,
            "dataset_name": dataset_name,
            "target": dict(row.target or {}),
            "k": row.k,
            "evaluation_type": row.evaluation_type,
            "status": row.status,
            "metrics": dict(row.metrics or {}),
            "mean_faithfulness": row.mean_faithfulness,
            "mean_answer_relevancy": row.mean_answer_relevancy,
            "error_message": row.error_message,
            "cost": row.cost or 0.0,
            "created_at": row.created_at,
            "updated_at": row.updated_at,
        }
    )


def _new_run(
    s: Session, dataset: DatasetRow, *, config: dict[str, Any], target: dict[str, Any], k: int, evaluation_type: str
) -> RunRow:
    now = utcnow()
    run = RunRow(
        dataset_id=dataset.id,
        target=dict(target),
        config=dict(config),
        k=k,
        evaluation_type=evaluation_type,
        status="pending",
        metrics={},
        cost=0.0,
        summary=None,
        created_at=now,
        updated_at=now,
    )
    s.add(run)
    s.flush()
    return run


def _complete(s: Session, run: RunRow, summary: EvaluationSummary, results: Sequence[QuestionResult]) -> None:
    means = {name: m.mean for name, m in summary.overall.items()}
    _replace_results(s, run, results)
    run.status = "completed"
    run.metrics = means
    run.mean_faithfulness = _first(means, "judge_faithfulness", "ragas_faithfulness")
    run.mean_answer_relevancy = _first(means, "judge_answer_relevancy", "ragas_answer_relevancy")
    run.cost = float(sum(stage.cost for stage in summary.usage.values()))
    run.summary = summary.model_dump(mode="json")
    run.error_message = None
    run.updated_at = utcnow()


def _replace_results(s: Session, run: RunRow, results: Sequence[QuestionResult]) -> None:
    s.execute(delete(ResultRow).where(ResultRow.run_id == run.id))
    rows = [_result_row(run.id, run.k, position, result) for position, result in enumerate(results)]
    if rows:
        s.execute(insert(ResultRow), rows)


def _result_row(run_id: int, k: int, position: int, result: QuestionResult) -> dict[str, Any]:
    metrics = result.metrics
    judge = result.judge
    return {
        "run_id": run_id,
        "position": position,
        "question_id": result.id,
        "question": result.question,
        "category": result.category,
        "status": result.status,
        "retrieved_ids": list(result.retrieved_docs),
        "precision": metrics.get(f"P@{k}"),
        "recall": metrics.get(f"R@{k}"),
        "hit": metrics.get(f"Hit@{k}"),
        "reciprocal_rank": metrics.get(f"MRR@{k}"),
        "answer": result.answer,
        "faithfulness": _first(metrics, "judge_faithfulness", "ragas_faithfulness"),
        "answer_relevancy": _first(metrics, "judge_answer_relevancy", "ragas_answer_relevancy"),
        "judge_scores": dict(judge.scores) if judge is not None else None,
        "judge_reasons": dict(judge.reasons) if judge is not None else None,
        "payload": result.model_dump(mode="json"),
    }
