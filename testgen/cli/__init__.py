"""The ``testgen`` command: a thin layer over the library (each command calls public functions)."""

from __future__ import annotations

import click

from testgen.cli.build import build
from testgen.cli.check import check
from testgen.cli.kg import kg
from testgen.cli.push import push


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="testgen-rag")
def main() -> None:
    """Synthetic test sets for RAG systems, generated from your own documents."""


main.add_command(build)
main.add_command(kg)
main.add_command(check)
main.add_command(push)
