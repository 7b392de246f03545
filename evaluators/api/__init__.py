"""The REST API and dashboard over the run store (``evaluate serve``)."""

from evaluators.api.app import create_app
from evaluators.api.jobs import JobRunner

__all__ = ["JobRunner", "create_app"]
