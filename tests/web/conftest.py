"""Fixtures of the server tests: an app on a fresh database, an ASGI test client, and a real
PostgreSQL server (:mod:`courtly.testing.postgres`) for the session.

Every test that uses ``database_url`` (so ``app`` and ``client``) runs twice: on SQLite, the
embedded default (``[sqlite]``), and on the session's PostgreSQL (``[postgresql]``). Each test
gets a fresh database, so tests stay independent; under pytest-xdist each worker starts its own
PostgreSQL (the workers share nothing). Without PostgreSQL its tests fail when they must run
(``CI`` is set, or running as root, where ``make test`` installs it), and are skipped with the
reason and the way to install it otherwise.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from courtly.testing.postgres import INSTALL_HINT, PostgresServer, find_bindir, must_run
from courtly.web import create_app
from courtly.web.limits import NO_LIMITS

from .browsing import browser, new_page, server

# Fixtures, for every test of tests/web (the browser's: for each test_browser*.py).
__all__ = ["browser", "new_page", "server"]


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server of this test session (of this xdist worker), stopped at its end."""
    bindir = find_bindir()
    if bindir is None:
        message = (
            f"PostgreSQL is not installed (no initdb in /usr/lib/postgresql/*/bin); {INSTALL_HINT}"
        )
        if must_run():
            pytest.fail(message + " (`make test` installs it when run as root)", pytrace=False)
        pytest.skip(message)
    server = PostgresServer(bindir)
    try:
        server.start()
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as error:
        server.stop()
        pytest.fail(f"PostgreSQL did not start: {error}", pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_database(postgres_server: PostgresServer) -> Iterator[str]:
    """The SQLAlchemy URL of a fresh PostgreSQL database, dropped after the test."""
    name = postgres_server.create_database()
    yield postgres_server.url(name)
    postgres_server.drop_database(name)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database: a SQLite file, or a new database on the session's PostgreSQL."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_database")
        return url
    return f"sqlite:///{tmp_path / 'courtly.sqlite3'}"


@pytest.fixture
def app(database_url: str) -> FastAPI:
    # Bots move at once and think in threads: the tests wait for them, not for a pace.
    return create_app(database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client
