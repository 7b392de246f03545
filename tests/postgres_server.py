"""A throwaway PostgreSQL server for the tests: ``initdb`` in a temporary folder, listening on 127.0.0.1.

Use the session fixture (import it into the test module)::

    from postgres_server import PostgresServer, postgres_server  # noqa: F401

    def test_x(request):
        server: PostgresServer = request.getfixturevalue("postgres_server")
        url = server.create_database("test_x")      # postgresql+psycopg://USER@127.0.0.1:PORT/test_x

The fixture skips when the server binaries (``initdb``, ``pg_ctl``, ``postgres`` on PATH or under
/usr/lib/postgresql/*/bin) or the psycopg driver are missing; under CI=true it fails instead (see ci.py).
PostgreSQL refuses to run as root: as root the server runs as the ``postgres`` system user (or ``nobody``) through
``setpriv`` (or ``runuser``), in a data folder owned by that user. Authentication is ``trust``; the unix socket
stays in the temporary folder. One server serves every test module of the session and is stopped at its end, also
after failures.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shlex
import shutil
import signal
import socket
import stat
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from ci import unavailable

__all__ = ["PostgresServer", "PostgresUnavailable", "find_bin_dir", "postgres_server", "start_postgres"]

_TOOLS = ("initdb", "pg_ctl", "postgres")


class PostgresUnavailable(Exception):
    """No server can be started on this machine (the reason is the skip reason)."""


@dataclass
class PostgresServer:
    """A running throwaway server; `stop` ends it and removes its folder."""

    bin_dir: Path
    root: Path
    port: int
    user: str
    wrapper: list[str] = field(default_factory=list)
    _databases: int = 0

    @property
    def url(self) -> str:
        """SQLAlchemy URL of the default database ``postgres``."""
        return self.database_url("postgres")

    def database_url(self, name: str) -> str:
        """SQLAlchemy URL of database `name` on this server."""
        return f"postgresql+psycopg://{self.user}@127.0.0.1:{self.port}/{name}"

    def create_database(self, prefix: str = "test") -> str:
        """Create a fresh, empty database (named from `prefix` and a counter) and return its URL."""
        import psycopg
        from psycopg import sql

        self._databases += 1
        name = re.sub(r"[^a-z0-9_]", "_", prefix.lower())[:40] + f"_{self._databases}"
        with psycopg.connect(
            host="127.0.0.1", port=self.port, user=self.user, dbname="postgres", autocommit=True
        ) as conn:
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
        return self.database_url(name)

    @property
    def data_dir(self) -> Path:
        return self.root / "data"

    @property
    def log_file(self) -> Path:
        return self.root / "server.log"

    def tool(self, name: str, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        """Run server tool `name` (initdb, pg_ctl) as the server's user, in the server's folder."""
        return _run([*self.wrapper, str(self.bin_dir / name), *args], cwd=self.root, check=check)

    def stop(self) -> None:
        """Stop the server (fast shutdown; killed if that fails) and remove its folder."""
        try:
            if (self.data_dir / "postmaster.pid").exists():
                done = self.tool(
                    "pg_ctl", "-D", str(self.data_dir), "-m", "fast", "-w", "-t", "30", "stop", check=False
                )
                if done.returncode != 0:
                    _kill_postmaster(self.data_dir)
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def find_bin_dir() -> Path | None:
    """The folder holding initdb, pg_ctl and postgres: from PATH, else the newest /usr/lib/postgresql/*/bin."""
    candidates: list[Path] = []
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).resolve().parent)
    versions = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: [int(n) for n in re.findall(r"\d+", p.parent.name)] or [0],
        reverse=True,
    )
    candidates.extend(versions)
    for folder in candidates:
        if all(os.access(folder / tool, os.X_OK) for tool in _TOOLS):
            return folder
    return None


def _unprivileged_user() -> tuple[str, int, int, list[str]]:
    """(user, uid, gid, command prefix) to run the server as; as root, an unprivileged user and a way to switch."""
    uid = os.geteuid()
    if uid != 0:
        entry = pwd.getpwuid(uid)
        return entry.pw_name, uid, os.getegid(), []
    setpriv, runuser = shutil.which("setpriv"), shutil.which("runuser")
    for name in ("postgres", "nobody"):
        try:
            entry = pwd.getpwnam(name)
        except KeyError:
            continue
        if setpriv:
            prefix = [setpriv, f"--reuid={entry.pw_uid}", f"--regid={entry.pw_gid}", "--clear-groups", "--"]
        elif runuser:
            prefix = [runuser, "-u", name, "--"]
        else:
            raise PostgresUnavailable("running as root, and neither setpriv nor runuser is there to drop root")
        return name, entry.pw_uid, entry.pw_gid, prefix
    raise PostgresUnavailable("running as root, and there is no postgres or nobody user to run the server as")


def _traversable(path: Path) -> bool:
    """True when every folder down to `path` can be entered by any user."""
    return all(p.stat().st_mode & stat.S_IXOTH for p in [path, *path.parents])


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _run(command: list[str], *, cwd: Path, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LC_ALL": "C", "LANG": "C"}
    env.pop("PGDATA", None)
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=120, check=False)
    if check and done.returncode != 0:
        output = (done.stdout + done.stderr).strip()[-2000:]
        raise RuntimeError(f"{Path(command[0]).name} ... failed ({done.returncode}): {' '.join(command)}\n{output}")
    return done


def _kill_postmaster(data_dir: Path) -> None:
    with contextlib.suppress(OSError, ValueError, IndexError):
        pid = int((data_dir / "postmaster.pid").read_text().splitlines()[0])
        os.kill(pid, signal.SIGQUIT)
        for _ in range(50):
            os.kill(pid, 0)
            time.sleep(0.1)
        os.kill(pid, signal.SIGKILL)


def start_postgres() -> PostgresServer:
    """initdb a temporary cluster and start it on a free port of 127.0.0.1 (PostgresUnavailable when impossible)."""
    bin_dir = find_bin_dir()
    if bin_dir is None:
        raise PostgresUnavailable("PostgreSQL server binaries (initdb, pg_ctl, postgres) not found")
    user, uid, gid, wrapper = _unprivileged_user()
    base = Path(tempfile.gettempdir())
    if wrapper and not _traversable(base):
        base = Path("/tmp")
        if not _traversable(base):
            raise PostgresUnavailable(f"no temporary folder the {user} user can enter")
    root = Path(tempfile.mkdtemp(prefix="testgen-pg-", dir=base))
    server = PostgresServer(bin_dir=bin_dir, root=root, port=0, user=user, wrapper=wrapper)
    try:
        (root / "sock").mkdir()
        if wrapper:
            for path in (root, root / "sock"):
                os.chown(path, uid, gid)
        data = str(server.data_dir)
        server.tool("initdb", "-D", data, "-U", user, "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")
        for attempt in range(3):
            server.port = _free_port()
            settings = {
                "listen_addresses": "127.0.0.1",
                "port": str(server.port),
                "unix_socket_directories": str(root / "sock"),
                "fsync": "off",
                "synchronous_commit": "off",
                "full_page_writes": "off",
            }
            options = " ".join(f"-c {shlex.quote(f'{key}={value}')}" for key, value in settings.items())
            log_file = str(server.log_file)
            started = server.tool(
                "pg_ctl", "-D", data, "-l", log_file, "-w", "-t", "60", "-o", options, "start", check=False
            )
            if started.returncode == 0:
                return server
            log = server.log_file.read_text(errors="replace") if server.log_file.exists() else ""
            if "already in use" not in log or attempt == 2:
                raise RuntimeError(f"pg_ctl start failed ({started.returncode}):\n{started.stderr}\n{log[-2000:]}")
        raise AssertionError("unreachable")
    except BaseException:
        server.stop()
        raise


@dataclass
class _Shared:
    """The session's one server, how many fixture instances hold it, and why it cannot start (if so)."""

    server: PostgresServer | None = None
    users: int = 0
    skip: str | None = None


_lock = threading.Lock()
_shared = _Shared()


def _acquire() -> PostgresServer:
    with _lock:
        if _shared.skip is not None:
            unavailable(_shared.skip)
        if _shared.server is None:
            try:
                import psycopg  # noqa: F401
            except ImportError:
                _shared.skip = "psycopg is not installed (pip install 'psycopg[binary]')"
                unavailable(_shared.skip)
            try:
                _shared.server = start_postgres()
            except PostgresUnavailable as exc:
                _shared.skip = str(exc)
                unavailable(_shared.skip)
        _shared.users += 1
        return _shared.server


def _release() -> None:
    with _lock:
        _shared.users -= 1
        if _shared.users == 0 and _shared.server is not None:
            server, _shared.server = _shared.server, None
            server.stop()


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the session (one for every module that imports this fixture); skips if impossible
    (fails under CI=true, see ci.py)."""
    server = _acquire()
    try:
        yield server
    finally:
        _release()
