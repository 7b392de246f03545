"""The run store's tables (SQLAlchemy 2 ORM): datasets, runs, per-question results.

Only portable column types are used (generic ``JSON``, ``Float``, timezone-aware timestamps), so the same
tables work on SQLite and PostgreSQL.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Index, Integer, String, Text, UniqueConstraint
from sqlalchemy.engine import Dialect
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship
from sqlalchemy.types import TypeDecorator

__all__ = ["LAYOUT_VERSION", "Base", "DatasetRow", "MetaRow", "ResultRow", "RunRow", "UTCDateTime", "utcnow"]

LAYOUT_VERSION = "1"
"""Version of the table layout; a store written with another layout is refused with a message, never misread."""


def utcnow() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(UTC)


class UTCDateTime(TypeDecorator[datetime]):
    """A timestamp stored in UTC and always read back timezone-aware (SQLite keeps no zone of its own)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        return value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=UTC)
        return value.astimezone(UTC)


#: A JSON column that may be SQL NULL (Python None is stored as NULL, not as the JSON value null).
NullableJSON = JSON(none_as_null=True)


class Base(DeclarativeBase):
    """Declarative base of the run store's tables."""


class MetaRow(Base):
    """Facts about the store itself (``layout_version``)."""

    __tablename__ = "store_meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class DatasetRow(Base):
    """A stored test set: its questions as JSON, stored once per (name, fingerprint)."""

    __tablename__ = "datasets"
    __table_args__ = (UniqueConstraint("name", "fingerprint", name="uq_datasets_name_fingerprint"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(Text)
    fingerprint: Mapped[str] = mapped_column(String(64))
    n_questions: Mapped[int] = mapped_column(Integer)
    categories: Mapped[dict[str, int]] = mapped_column(JSON)
    questions: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    runs: Mapped[list[RunRow]] = relationship(back_populates="dataset", passive_deletes=True)


class RunRow(Base):
    """One evaluation run: configuration, status, overall means and (once completed) the summary."""

    __tablename__ = "runs"
    __table_args__ = (Index("ix_runs_dataset_created", "dataset_id", "created_at"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    dataset_id: Mapped[int] = mapped_column(ForeignKey("datasets.id", ondelete="CASCADE"))
    target: Mapped[dict[str, Any]] = mapped_column(JSON)
    config: Mapped[dict[str, Any]] = mapped_column(JSON)
    k: Mapped[int] = mapped_column(Integer)
    evaluation_type: Mapped[str] = mapped_column(String(32))
    status: Mapped[str] = mapped_column(String(16), index=True)
    metrics: Mapped[dict[str, float]] = mapped_column(JSON)
    mean_faithfulness: Mapped[float | None] = mapped_column(Float, nullable=True)
    mean_answer_relevancy: Mapped[float | None] = mapped_column(Float, nullable=True)
    error_message: Mapped[str | None] = mapped_column(Text, nullable=True)
    cost: Mapped[float] = mapped_column(Float, default=0.0)
    summary: Mapped[dict[str, Any] | None] = mapped_column(NullableJSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow, index=True)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime, default=utcnow)

    dataset: Mapped[DatasetRow] = relationship(back_populates="runs")
    results: Mapped[list[ResultRow]] = relationship(
        back_populates="run", order_by="ResultRow.position", passive_deletes=True
    )


class ResultRow(Base):
    """How the system did on one question of a run; `payload` is the full result, for a lossless round trip."""

    __tablename__ = "results"
    __table_args__ = (UniqueConstraint("run_id", "position", name="uq_results_run_position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    question_id: Mapped[str | None] = mapped_column(Text, nullable=True)
    question: Mapped[str] = mapped_column(Text)
    category: Mapped[str] = mapped_column(Text)
    status: Mapped[str] = mapped_column(String(16))
    retrieved_ids: Mapped[list[str]] = mapped_column(JSON)
    precision: Mapped[float | None] = mapped_column(Float, nullable=True)
    recall: Mapped[float | None] = mapped_column(Float, nullable=True)
    hit: Mapped[float | None] = mapped_column(Float, nullable=True)
    reciprocal_rank: Mapped[float | None] = mapped_column(Float, nullable=True)
    answer: Mapped[str | None] = mapped_column(Text, nullable=True)
    faithfulness: Mapped[float | None] = mapped_column(Float, nullable=True)
    answer_relevancy: Mapped[float | None] = mapped_column(Float, nullable=True)
    judge_scores: Mapped[dict[str, float] | None] = mapped_column(NullableJSON, nullable=True)
    judge_reasons: Mapped[dict[str, str] | None] = mapped_column(NullableJSON, nullable=True)
    payload: Mapped[dict[str, Any]] = mapped_column(JSON)

    run: Mapped[RunRow] = relationship(back_populates="results")
