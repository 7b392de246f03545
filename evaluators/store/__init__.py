"""The run store: test sets, evaluation runs and their per-question results in SQLite or PostgreSQL."""

from evaluators.store.store import (
    DEFAULT_DATA_DIR_ENV,
    STORE_URL_ENV,
    RunStore,
    default_store_url,
    fingerprint_questions,
    mask_url,
)

__all__ = [
    "DEFAULT_DATA_DIR_ENV",
    "STORE_URL_ENV",
    "RunStore",
    "default_store_url",
    "fingerprint_questions",
    "mask_url",
]
