"""What the tests of a real server process share (:mod:`.test_crash`, :mod:`.test_restarts`):
``courtly serve`` processes started on one test database, with bots at once in one worker, an
HTTP client for each, and every one killed at the end of the test."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx2
import pytest

from courtly.testing.server import ServerFailed, ServerProcess

DEADLINE = 60.0
"""Seconds to wait for a server to answer: generous, the machine may be busy; never a measure."""


class Server(ServerProcess):
    """One ``courtly serve`` process (in its own process group, with its bot workers; bots at
    once, one worker, and ``options``), and an HTTP client for it."""

    def __init__(self, database_url: str, log: Path, options: Sequence[str] = ()) -> None:
        super().__init__(database_url, log, ["--bot-pace", "0", "--bot-workers", "1", *options])
        self.http = httpx2.Client(base_url=self.url, timeout=60)

    def kill(self) -> None:
        """SIGKILL to the server and its bot workers: no shutdown of any kind runs."""
        self.http.close()
        super().kill()

    def ok(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self.http.request(method, path, **kwargs)
        assert response.is_success, f"{method} {path} -> {response.status_code} {response.text}"
        return response.json()


def wait_for(condition: Callable[[], bool], what: str, seconds: float = DEADLINE) -> None:
    """Wait until ``condition()`` holds (the test fails after ``seconds``, naming ``what``)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.02)
    pytest.fail(f"timed out waiting until {what}")


Serve = Callable[..., Server]
"""``serve(*options)``: a new server process on the test's database, once it answers."""


@pytest.fixture
def serve(database_url: str, tmp_path: Path) -> Iterator[Serve]:
    """Starts ``courtly serve`` processes on one database; every one is killed at the end."""
    started: list[Server] = []

    def start(*options: str) -> Server:
        server = Server(database_url, tmp_path / f"server-{len(started)}.log", options)
        started.append(server)
        try:
            server.wait_ready(DEADLINE)
        except ServerFailed as error:
            pytest.fail(str(error), pytrace=False)
        return server

    yield start
    for server in started:
        server.kill()
