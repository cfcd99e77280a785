"""A real ``courtly serve`` process: started on a free port of 127.0.0.1, its output in a log
file, in a process group of its own (with its bot workers), waited for until it answers, and
stopped cleanly or killed with SIGKILL (the crash tests).
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path

HOST = "127.0.0.1"
COMMAND = ("-c", "import sys; from courtly.cli import main; sys.exit(main())")
"""This interpreter runs the command line: the server is the code under test, installed or not."""


def free_port() -> int:
    """A TCP port of 127.0.0.1 free now (another process may take it before it is used)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((HOST, 0))
        port: int = probe.getsockname()[1]
        return port


NO_LIMITS = (
    "--max-requests-per-minute=0",
    "--max-tables-per-address=0",
    "--max-tables=0",
    "--max-sockets-per-table=0",
    "--max-sockets-per-address=0",
    "--max-connections=0",
)
"""The options that lift every limit on clients: the tests and benchmarks play many tables
from one address (a test of the limits passes ``limits=()`` and its own)."""


class ServerFailed(RuntimeError):
    """The server exited, or did not answer in time; the message ends with its log."""


class ServerProcess:
    """``courtly serve`` on ``database_url`` with ``options`` (e.g. ``--bot-pace 0``) and
    ``limits`` (none by default); its
    output goes to ``log`` (a file, not a pipe: a pipe nobody reads would stop the server once
    full). Started at once; :meth:`wait_ready` waits until it answers."""

    def __init__(
        self,
        database_url: str,
        log: Path,
        options: Sequence[str] = (),
        cwd: Path | None = None,
        limits: Sequence[str] = NO_LIMITS,
    ) -> None:
        self.database_url = database_url
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}"
        self.log = log
        command = [
            sys.executable,
            *COMMAND,
            "serve",
            "--host",
            HOST,
            "--port",
            str(self.port),
            "--database-url",
            database_url,
            *limits,
            *options,
        ]
        self.started_at = time.time()
        with log.open("wb") as output:
            # Its own session: its bot workers are stopped (or killed) with it.
            self.process = subprocess.Popen(
                command, stdout=output, stderr=subprocess.STDOUT, cwd=cwd, start_new_session=True
            )

    @property
    def pid(self) -> int:
        return self.process.pid

    def log_tail(self) -> str:
        with contextlib.suppress(OSError):
            return "\n--- server log ---\n" + self.log.read_text(errors="replace")[-4000:]
        return ""

    def answers(self) -> bool:
        """Whether ``GET /api/games`` answers 200 now."""
        try:
            with urllib.request.urlopen(f"{self.url}/api/games", timeout=5) as response:
                return bool(response.status == 200)
        except (OSError, urllib.error.URLError):
            return False

    def wait_ready(self, timeout: float = 60.0) -> None:
        """Wait until the server answers (:class:`ServerFailed` if it exits or takes longer)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise ServerFailed(
                    f"courtly serve exited with {self.process.returncode}{self.log_tail()}"
                )
            if self.answers():
                return
            time.sleep(0.05)
        raise ServerFailed(f"courtly serve did not answer within {timeout:.0f} s{self.log_tail()}")

    def stop(self, timeout: float = 20.0) -> None:
        """SIGTERM (a clean shutdown), then SIGKILL for whatever of its group is left."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=timeout)
        self.kill()

    def kill(self) -> None:
        """SIGKILL to the server and its bot workers: no shutdown of any kind runs."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)
