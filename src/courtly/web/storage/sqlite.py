"""SQLite, the embedded default: one file (created on first start), in WAL mode (a committed
move survives a killed process), with one writer at a time.

The writers of this process queue on a lock rather than on SQLite's busy handler, which sleeps
in growing steps (a long tail of latency). A move is written on a connection kept open for it,
by statements compiled once and run on the driver's cursor: SQLAlchemy's work around each
statement cost more than SQLite's, and checking a connection out of the pool for each move a
tenth of a move.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import Connection

from .base import (
    ADD_EVENTS,
    EVENT_FIELDS,
    MOVE_TABLE,
    SET_CLOCK,
    MoveWrite,
    Stale,
    Storage,
    Transaction,
    WriterBusy,
)

WRITER_PATIENCE: Final = 0.005
"""Seconds the event loop waits for the writer (or a table), held by a worker thread, before it
hands its move to a thread too: about one commit (a loop that never waits would send the moves
after a busy moment to threads, one after another, and keep the writer busy)."""


def _engine(url: str) -> Engine:
    """An engine for the SQLite ``url``; a file's folder is created, and SQLite runs in WAL mode
    with a busy timeout for writers of other processes."""
    path = url.split("///", 1)[1] if "///" in url else ""
    if path and path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})

    @event.listens_for(engine, "connect")
    def _sqlite_pragmas(connection: Any, _record: Any) -> None:
        cursor = connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return engine


def _compiled(statement: Any, engine: Engine, keys: tuple[str, ...] | None = None) -> str:
    """``statement`` as SQLite's SQL text (``?`` placeholders)."""
    return str(statement.compile(dialect=engine.dialect, column_keys=keys))


def _parameters(
    statement: Any, engine: Engine, keys: tuple[str, ...] | None = None
) -> tuple[str, ...]:
    """The names of ``statement``'s placeholders, in their order."""
    return tuple(statement.compile(dialect=engine.dialect, column_keys=keys).positiontup or ())


class SQLiteStorage(Storage):
    """A SQLite file of one server process (other processes on the same file wait for its
    writer through SQLite's own lock)."""

    loop_patience = WRITER_PATIENCE

    def __init__(self, url: str) -> None:
        super().__init__(url, _engine(url))
        self._writer_lock = threading.Lock()
        self._writer: Connection | None = None
        """The connection that writes moves, kept open (used under the writer lock only)."""
        engine = self.engine
        self._move_sql = _compiled(MOVE_TABLE, engine)
        self._move_names = _parameters(MOVE_TABLE, engine)
        self._events_sql = _compiled(ADD_EVENTS, engine, EVENT_FIELDS)
        self._clock_sql = _compiled(SET_CLOCK, engine)
        self._clock_names = _parameters(SET_CLOCK, engine)
        # MoveWrite.event_rows gives the events' values in the order of EVENT_FIELDS.
        assert _parameters(ADD_EVENTS, engine, EVENT_FIELDS) == EVENT_FIELDS

    def close(self) -> None:
        with self._writer_lock:
            if self._writer is not None:
                self._writer.close()
                self._writer = None
        super().close()

    async def close_async(self) -> None:
        pass  # nothing is opened on the event loop

    def listen(
        self, changed: Callable[[str], None], missed: Callable[[], None] | None = None
    ) -> None:
        pass  # no announcements: a server process on SQLite serves its tables alone

    def stop_listening(self) -> None:
        pass

    def notify(self, session: Transaction, table_id: str) -> None:
        pass

    @contextmanager
    def session(self) -> Iterator[Transaction]:
        with self._writer_lock, self.sessions() as session, session.begin():
            yield session

    def commit_move(self, write: MoveWrite) -> None:
        with self._writer_lock:
            self._commit(write)

    async def commit_move_on_loop(self, write: MoveWrite) -> None:
        # A local file: written at once when the writer is free, waiting at most about a commit.
        if not self._writer_lock.acquire(timeout=WRITER_PATIENCE):
            raise WriterBusy()
        try:
            self._commit(write)
        finally:
            self._writer_lock.release()

    def _commit(self, write: MoveWrite) -> None:
        """The move's statements on the kept connection (the writer lock held)."""
        writer = self._writer
        if writer is None:
            writer = self._writer = self.engine.connect()
        try:
            with writer.begin():
                cursor = writer.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
                try:
                    values = write.move_values()
                    cursor.execute(self._move_sql, [values[name] for name in self._move_names])
                    if cursor.rowcount != 1:
                        raise Stale(write.table_id)
                    cursor.executemany(self._events_sql, write.event_rows())
                    for values in write.clock_values():
                        cursor.execute(
                            self._clock_sql, [values[name] for name in self._clock_names]
                        )
                finally:
                    cursor.close()
        except Stale:
            raise
        except Exception:
            self._writer = None  # a fresh connection for the next move
            writer.close()
            raise
