"""The ``evaluate`` command (reserved: the evaluator is built in a later release)."""

from __future__ import annotations

import sys

import click


@click.command(context_settings={"ignore_unknown_options": True, "allow_extra_args": True})
def main() -> None:
    """Evaluate a RAG system on a test set (not available in this release)."""
    click.echo(
        "error: `evaluate` is not available in this release yet; `testgen build` and `testgen check` are", err=True
    )
    sys.exit(2)
