"""The ``testgen`` command: a thin layer over the library (each command calls public functions).

Other packages add subcommands through the ``testgen.commands`` entry-point group (name = subcommand,
value = a click command). They are loaded only when named or listed, and one that fails to load prints a
one-line warning instead of stopping the CLI.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

import click

from testgen.cli.build import build
from testgen.cli.check import check
from testgen.cli.kg import kg
from testgen.cli.push import push

#: Entry-point group through which other packages add ``testgen`` subcommands.
COMMANDS_GROUP = "testgen.commands"


def _plugins() -> dict[str, EntryPoint]:
    return {entry.name: entry for entry in entry_points(group=COMMANDS_GROUP)}


class PluginGroup(click.Group):
    """A click group that also offers the commands of the ``testgen.commands`` entry-point group."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(_plugins()))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            return command
        entry = _plugins().get(cmd_name)
        if entry is None:
            return None
        try:
            loaded = entry.load()
        except Exception as exc:  # a broken plug-in must not take the whole CLI down
            click.echo(f"warning: testgen command {cmd_name!r} ({entry.value}) failed to load: {exc!r}", err=True)
            return None
        if not isinstance(loaded, click.Command):
            click.echo(f"warning: testgen command {cmd_name!r} ({entry.value}) is not a click command", err=True)
            return None
        self.add_command(loaded, cmd_name)
        return loaded


@click.group(cls=PluginGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="testgen-rag")
def main() -> None:
    """Synthetic test sets for RAG systems, generated from your own documents."""


main.add_command(build)
main.add_command(kg)
main.add_command(check)
main.add_command(push)
