"""Listening to other server processes on PostgreSQL: an announcement made before ``LISTEN``
took hold reaches nobody, so the listener says when listening begins (and begins again), and the
server then brings every table it holds up to date."""

from __future__ import annotations

import threading
import time

import psycopg

from courtly.web.storage.postgresql import PostgresListener, _psycopg_url

CHANNEL = "courtly_listening_test"


def _announce(url: str, payload: str) -> None:
    with psycopg.connect(url, autocommit=True) as connection:
        connection.execute("SELECT pg_notify(%s, %s)", (CHANNEL, payload))


def test_the_listener_says_when_it_listens_and_hears_what_comes_after(
    postgres_database: str,
) -> None:
    url = _psycopg_url(postgres_database)
    heard: list[str] = []
    began = threading.Event()
    _announce(url, "before")  # nobody listens yet: lost, which is why `missed` exists
    listener = PostgresListener(url, CHANNEL, heard.append, began.set)
    listener.start()
    try:
        assert began.wait(30), "the listener never said it listens"
        _announce(url, "after")
        deadline = time.monotonic() + 30
        while "after" not in heard and time.monotonic() < deadline:
            time.sleep(0.02)
        assert heard == ["after"]
    finally:
        listener.stop()
