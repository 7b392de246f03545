"""The ``serve`` command: the REST API and the dashboard over the run store.

    evaluate serve --kb examples/aurora_bikes          # http://127.0.0.1:8000/
    evaluate serve --port 9000 --store postgresql+psycopg://user@db/evals

The API has no authentication, so it listens on a loopback address unless ``--allow-remote`` is given, and it
refuses ``callable:`` targets (code run inside the server) unless ``--allow-callable-targets`` is given.
"""

from __future__ import annotations

import ipaddress
from pathlib import Path

import click

from evaluators.cli_store import store_option
from testgen.cli.common import user_errors
from testgen.errors import OptionError

INTERRUPTED = "interrupted: the server stopped before the run finished (results stored so far are kept)"


def is_loopback(host: str) -> bool:
    """True for localhost and loopback addresses (127.0.0.0/8, ::1)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def dashboard_url(host: str, port: int) -> str:
    """The address to open in a browser (IPv6 hosts in brackets, a wildcard host shown as localhost)."""
    if host in ("0.0.0.0", "::", ""):
        host = "localhost"
    elif ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}/"


@click.command("serve", context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535), help="Port to listen on.")
@store_option
@click.option(
    "--kb",
    type=click.Path(path_type=Path),
    default=None,
    help="Knowledge-base folder for baseline runs that do not name one.",
)
@click.option(
    "--workers", default=1, show_default=True, type=click.IntRange(1, 64), help="Evaluations run at the same time."
)
@click.option("--allow-remote", is_flag=True, help="Listen on a non-loopback address (the API has no authentication).")
@click.option(
    "--allow-callable-targets",
    "allow_callable",
    is_flag=True,
    help="Accept runs whose target is callable:pkg.mod:fn (it runs code inside the server).",
)
@click.option(
    "--max-body-mb",
    default=8.0,
    show_default=True,
    type=click.FloatRange(min=0.01),
    help="Largest request body accepted (MB); a larger one is answered 413.",
)
@user_errors
def serve_command(
    host: str,
    port: int,
    store_url: str | None,
    kb: Path | None,
    workers: int,
    allow_remote: bool,
    allow_callable: bool,
    max_body_mb: float,
) -> None:
    """Serve the evaluation REST API and the dashboard (runs execute in the background)."""
    if not allow_remote and not is_loopback(host):
        raise OptionError(
            f"--host {host} is not a loopback address and the API has no authentication: "
            "use 127.0.0.1, or add --allow-remote to serve it anyway"
        )
    if kb is not None and not kb.is_dir():
        raise OptionError(f"--kb {kb}: no such folder (give the knowledge-base folder)")
    import uvicorn

    from evaluators.api import create_app
    from evaluators.store import RunStore

    store = RunStore(store_url)
    try:
        if store.is_sqlite:  # only this server runs jobs on its SQLite file: unfinished runs are orphans
            orphans = store.fail_unfinished(INTERRUPTED)
            if orphans:
                click.echo(f"{len(orphans)} run(s) left unfinished by an earlier server marked failed: {orphans}")
        app = create_app(
            store,
            default_kb=str(kb.resolve()) if kb is not None else None,
            workers=workers,
            allow_callable=allow_callable,
            max_body_bytes=int(max_body_mb * 1024 * 1024),
        )
        url = dashboard_url(host, port)
        click.echo(f"dashboard: {url}  (OpenAPI schema: {url}openapi.json; store: {store.url})")
        uvicorn.run(app, host=host.strip("[]"), port=port, log_level="info")
    finally:
        store.close()


def register(group: click.Group) -> None:
    """Add ``serve`` to `group` (again: no change)."""
    if group.commands.get("serve") is not serve_command:
        group.add_command(serve_command, "serve")
