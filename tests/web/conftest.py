"""Fixtures of the server tests: an app on a fresh database, and an ASGI test client.

Every test that uses ``database_url`` (so ``app`` and ``client``) runs twice: on SQLite, the
embedded default (``[sqlite]``), and on a real PostgreSQL server that the session starts
itself (``[postgresql]``, see :mod:`tests.web.postgres`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from courtly.web import create_app

from .browsing import browser, new_page, server
from .postgres import postgres_database, postgres_server

# Fixtures, for every test of tests/web (the browser's: for each test_browser*.py).
__all__ = ["browser", "new_page", "postgres_database", "postgres_server", "server"]


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
    return create_app(database_url, bot_pace=0, bot_workers=-1)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client
