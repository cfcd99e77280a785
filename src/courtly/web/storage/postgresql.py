"""PostgreSQL (``postgresql+psycopg://``): several server processes may serve one database.

Before a change a process locks the table's row (``SELECT ... FOR UPDATE``) and catches up with
what another process wrote; after it, the process announces the table on a ``NOTIFY`` channel,
delivered on commit, and every other process (:class:`PostgresListener`) catches up and tells
its own WebSockets. A move sent on a WebSocket is written from the event loop by psycopg's async
driver in pipeline mode, on a bounded set of connections kept for it.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import Any, Final

from sqlalchemy import create_engine, text
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
)

log = logging.getLogger("courtly.web")

NOTIFY_CHANNEL: Final = "courtly_tables"
"""The channel on which a process announces ``table_id`` after committing a change."""
_NOTIFY = text("SELECT pg_notify(:channel, :table)")

ASYNC_WRITERS: Final = 8
"""Connections that write moves from the event loop at once (more moves wait for one: each is
a connection of the database's limited number, and eight keep its cores busy)."""


def _psycopg_url(url: str) -> str:
    """``url`` as psycopg itself takes it (without SQLAlchemy's driver name)."""
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


class PostgresStorage(Storage):
    """A PostgreSQL database, shared with any number of server processes."""

    def __init__(self, url: str) -> None:
        # No ping before each checkout: a round trip per request; a connection the database
        # dropped fails one request ("nothing was changed") and the pool replaces it.
        # As many connections as request threads (anyio runs 40), kept open: a connection made
        # and dropped for each burst costs more than the move it serves.
        super().__init__(url, create_engine(url, pool_size=40, max_overflow=10))
        dialect = self.engine.dialect
        self._move_sql = str(MOVE_TABLE.compile(dialect=dialect))
        self._events_sql = str(ADD_EVENTS.compile(dialect=dialect, column_keys=EVENT_FIELDS))
        self._clock_sql = str(SET_CLOCK.compile(dialect=dialect))
        self._notify_sql = str(_NOTIFY.compile(dialect=dialect))
        self._async_idle: list[Any] = []
        """psycopg's async connections free for :meth:`commit_move_on_loop`."""
        self._async_writers = asyncio.Semaphore(ASYNC_WRITERS)
        self._listener: PostgresListener | None = None

    async def close_async(self) -> None:
        while self._async_idle:
            await self._async_idle.pop().close()

    def listen(
        self, changed: Callable[[str], None], missed: Callable[[], None] | None = None
    ) -> None:
        def heard(payload: str) -> None:
            table_id, _, origin = payload.partition(" ")
            if origin != self.origin:  # this process's own: its watchers were told already
                changed(table_id)

        self._listener = PostgresListener(_psycopg_url(self.url), NOTIFY_CHANNEL, heard, missed)
        self._listener.start()

    def stop_listening(self) -> None:
        if self._listener is not None:
            self._listener.stop()
            self._listener = None

    def _table_query(self, table_id: str) -> Any:
        return super()._table_query(table_id).with_for_update()

    def notify(self, session: Transaction, table_id: str) -> None:
        session.execute(_NOTIFY, {"channel": NOTIFY_CHANNEL, "table": self._note(table_id)})

    def _note(self, table_id: str) -> str:
        """The payload announcing ``table_id``: signed by this process, which skips its own."""
        return f"{table_id} {self.origin}"

    def commit_move(self, write: MoveWrite) -> None:
        with self.engine.begin() as connection:
            self._write_move(connection, write)

    def _write_move(self, connection: Connection, write: MoveWrite) -> None:
        moved = connection.execute(MOVE_TABLE, write.move_values())
        if moved.rowcount != 1:
            raise Stale(write.table_id)
        connection.execute(ADD_EVENTS, write.event_values())
        for values in write.clock_values():
            connection.execute(SET_CLOCK, values)
        connection.execute(
            _NOTIFY, {"channel": NOTIFY_CHANNEL, "table": self._note(write.table_id)}
        )

    async def commit_move_on_loop(self, write: MoveWrite) -> None:
        # The same statements (compiled once from the same expressions) on one of psycopg's
        # async connections, sent together in pipeline mode.
        import psycopg

        async with self._async_writers:  # a bounded number of connections
            connection = self._async_idle.pop() if self._async_idle else None
            if connection is None or connection.closed:
                connection = await psycopg.AsyncConnection.connect(_psycopg_url(self.url))
            try:
                # Two round trips: the transaction's statements together, then COMMIT (or
                # ROLLBACK when the table's row had moved on).
                async with connection.pipeline() as pipeline, connection.transaction():
                    moved = connection.cursor()
                    await moved.execute(self._move_sql, write.move_values())
                    rest = connection.cursor()
                    await rest.executemany(self._events_sql, write.event_values())
                    for values in write.clock_values():
                        await rest.execute(self._clock_sql, values)
                    await rest.execute(
                        self._notify_sql,
                        {"channel": NOTIFY_CHANNEL, "table": self._note(write.table_id)},
                    )
                    await pipeline.sync()
                    if moved.rowcount != 1:
                        raise Stale(write.table_id)  # (rolls the transaction back)
            except Stale:
                self._async_idle.append(connection)
                raise
            except psycopg.IntegrityError:
                # The events' (table, index) were written already: the table had moved on, and
                # the row's revision said so too (the transaction is rolled back).
                self._async_idle.append(connection)
                raise Stale(write.table_id) from None
            except BaseException:
                await connection.close()  # a connection in an unknown state is not used again
                raise
            self._async_idle.append(connection)


class PostgresListener:
    """A thread that ``LISTEN``s on PostgreSQL and calls ``heard(payload)`` for each
    ``NOTIFY`` (this process's own included: :meth:`PostgresStorage.listen` skips those)."""

    def __init__(
        self,
        url: str,
        channel: str,
        heard: Callable[[str], None],
        missed: Callable[[], None] | None = None,
    ) -> None:
        self.url = url
        self.channel = channel
        self.heard = heard
        self.missed = missed
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="courtly-listen", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        while not self._stop.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as connection:
                    connection.execute(f"LISTEN {self.channel}")
                    # Announcements made before LISTEN took hold (at start, while the thread
                    # connected; or while the database was away) reached nobody here.
                    if self.missed is not None:
                        self.missed()
                    while not self._stop.is_set():
                        for note in connection.notifies(timeout=0.5, stop_after=64):
                            self.heard(note.payload)
            except Exception as error:  # the database went away: listen again shortly
                if self._stop.is_set():
                    return
                log.warning("listening to PostgreSQL failed (%s); retrying", error)
                self._stop.wait(1.0)
