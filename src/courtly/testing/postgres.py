"""A throwaway PostgreSQL cluster: ``initdb`` and ``pg_ctl`` (Debian's ``postgresql`` package) in
a temporary folder, listening on 127.0.0.1 and a free port, its socket in the same folder, gone
when stopped.

PostgreSQL refuses to run as root, so as root (CI) the cluster belongs to an unprivileged user
(``nobody``). The cluster is tuned for throwaway data (no fsync, no synchronous commit); a
caller that measures commits sets ``synchronous_commit`` back on for its database.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import pwd
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import psycopg

from .server import free_port

INSTALL_HINT = "install it with: sudo apt-get install postgresql (Debian/Ubuntu)"
UNPRIVILEGED_USER = "nobody"
SUPERUSER = "courtly"
TEMPLATE = "template0"
"""Every new database is a copy of this pristine template: the schema is the app's to make."""


def find_bindir() -> Path | None:
    """The newest PostgreSQL under /usr/lib/postgresql/*/bin with initdb and pg_ctl (Debian),
    else the folder of an ``initdb`` on the PATH."""

    def major(path: str) -> int:
        found = re.search(r"/postgresql/(\d+)/", path)
        return int(found.group(1)) if found else -1

    candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=major, reverse=True)
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(on_path)
    for initdb in candidates:
        bindir = Path(initdb).parent
        if (bindir / "pg_ctl").is_file():
            return bindir
    return None


def must_run() -> bool:
    """Whether a missing system package (PostgreSQL, Chromium) fails the tests rather than skips
    them: in CI, and as root (where ``make test`` installs them, so missing means the
    installation failed)."""
    return bool(os.environ.get("CI")) or os.geteuid() == 0


class PostgresServer:
    """One PostgreSQL cluster in a temporary directory, run by an unprivileged user if root."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.root = Path(tempfile.mkdtemp(prefix="courtly-pg-"))  # short: the socket path
        self.data = self.root / "data"
        self.logfile = self.root / "server.log"
        self.port = 0
        self._names = itertools.count()
        self._prefix: list[str] = []
        if os.geteuid() == 0:
            # PostgreSQL will not run as root: hand the directory to an unprivileged user.
            try:
                user = pwd.getpwnam(UNPRIVILEGED_USER)
            except KeyError:
                raise RuntimeError(
                    f"running as root, PostgreSQL needs an unprivileged user, and there is no "
                    f"user {UNPRIVILEGED_USER!r}"
                ) from None
            os.chown(self.root, user.pw_uid, user.pw_gid)
            if shutil.which("runuser"):
                self._prefix = ["runuser", "-u", UNPRIVILEGED_USER, "--"]
            else:
                self._prefix = [
                    "setpriv",
                    f"--reuid={user.pw_uid}",
                    f"--regid={user.pw_gid}",
                    "--clear-groups",
                    "--",
                ]

    def _run(self, *command: str) -> subprocess.CompletedProcess[str]:
        """Run a PostgreSQL program (as the unprivileged user when root); its output is in the
        error when it fails."""
        program = [*self._prefix, str(self.bindir / command[0]), *command[1:]]
        result = subprocess.run(
            program, cwd=self.root, capture_output=True, text=True, timeout=120, check=False
        )
        if result.returncode != 0:
            raise RuntimeError(
                f"{' '.join(program)} failed ({result.returncode}):\n{result.stdout}{result.stderr}"
                + self._log_tail()
            )
        return result

    def _log_tail(self) -> str:
        with contextlib.suppress(OSError):
            return "\nserver log:\n" + self.logfile.read_text(errors="replace")[-3000:]
        return ""

    def start(self) -> None:
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            SUPERUSER,
            "--auth=trust",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",  # a throwaway cluster: no need to wait for the disk
        )
        for attempt in range(3):  # another process may take the free port first
            self.port = free_port()
            options = (
                f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.root} "
                "-c max_connections=300 -c fsync=off -c synchronous_commit=off "
                "-c full_page_writes=off"
            )
            try:
                self._run(
                    "pg_ctl", "-D", str(self.data), "-l", str(self.logfile), "-o", options,
                    "-w", "-t", "60", "start",
                )  # fmt: skip
                return
            except RuntimeError:
                if attempt == 2:
                    raise

    def stop(self) -> None:
        try:
            if (self.data / "postmaster.pid").exists():
                self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)

    @property
    def postmaster(self) -> int:
        """The process id of the cluster's postmaster (its backends are its children)."""
        return int((self.data / "postmaster.pid").read_text().split()[0])

    def url(self, database: str, driver: str = "postgresql+psycopg") -> str:
        """The SQLAlchemy URL of ``database`` (``driver="postgresql"`` for psycopg itself)."""
        return f"{driver}://{SUPERUSER}@127.0.0.1:{self.port}/{database}"

    def admin(self) -> psycopg.Connection[tuple[object, ...]]:
        return psycopg.connect(self.url("postgres", driver="postgresql"), autocommit=True)

    def create_database(self) -> str:
        """A fresh, empty database (unique in this cluster); returns its name."""
        name = f"courtly_{os.getpid()}_{next(self._names)}"
        with self.admin() as connection:
            connection.execute(f'CREATE DATABASE "{name}" TEMPLATE {TEMPLATE}')
        return name

    def drop_database(self, name: str) -> None:
        """Drop ``name``, closing what is still connected to it (an app not shut down)."""
        with self.admin() as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
