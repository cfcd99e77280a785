"""Where tables live: SQLAlchemy 2 models and the few queries the server makes.

The history is the truth (ARCHITECTURE.md §7): a table stores its game, options and seats, and
every event as the text pair of a record; the state is rebuilt by replaying it, never pickled.
A move is committed (with the chance events it sets off) before it is acknowledged, and the
pair ``(table_id, index)`` is the primary key of an event, so two server processes can never
both write the event at one index: the second one's commit fails and it catches up instead.

SQLite (a file, created on first start) is the default; PostgreSQL is the same code through
``postgresql+psycopg://``. The schema is created and upgraded by the Alembic migrations in
``courtly/web/migrations``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    bindparam,
    create_engine,
    event,
    func,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker

NOTIFY_CHANNEL = "courtly_tables"
"""PostgreSQL channel on which a process announces ``table_id`` after committing a move."""
_NOTIFY = text("SELECT pg_notify(:channel, :table)")

MIGRATION_LOCK = 0x636F75727431
"""PostgreSQL advisory lock key held while the schema is migrated (``"court1"`` in ASCII)."""


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    mode: Mapped[str] = mapped_column(String(16))
    """``realtime`` or ``turn-based``."""
    clock: Mapped[dict[str, Any]] = mapped_column(JSON)
    """The table's time rules (:class:`courtly.web.tables.Clock` as a dict)."""
    seed: Mapped[int] = mapped_column(BigInteger)
    status: Mapped[str] = mapped_column(String(16), index=True)
    """``open`` (waiting for people), ``playing`` or ``over``."""
    version: Mapped[int] = mapped_column(Integer, default=0)
    """The number of events in the history."""
    revision: Mapped[int] = mapped_column(Integer, default=0)
    """Counts every change of the table (moves, seats, notices): a process writes a change only
    if the revision is still the one it knows (:meth:`Storage.commit_move`)."""
    hints: Mapped[bool] = mapped_column(Boolean, default=True)
    created_at: Mapped[float] = mapped_column(Float)
    updated_at: Mapped[float] = mapped_column(Float)
    rematch_of: Mapped[str | None] = mapped_column(String(32), nullable=True)
    rematch_id: Mapped[str | None] = mapped_column(String(32), nullable=True)


class SeatRow(Base):
    __tablename__ = "seats"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    """``person`` or ``bot``."""
    bot: Mapped[str | None] = mapped_column(String(200), nullable=True)
    """A bot seat's agent spec; for a person, the bot that plays when they are away."""
    name: Mapped[str] = mapped_column(String(64), default="")
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)
    """SHA-256 of the seat's secret token; the token itself is never stored."""
    bot_control: Mapped[bool] = mapped_column(Boolean, default=False)
    """A person's seat played by a bot (out of time, away, or left)."""
    clock_ms: Mapped[int | None] = mapped_column(BigInteger, nullable=True)
    """Time left on the seat's clock when it last stopped (None: no clock)."""
    clock_since: Mapped[float | None] = mapped_column(Float, nullable=True)
    """When the seat's clock started running (None: stopped)."""
    seen_at: Mapped[float | None] = mapped_column(Float, nullable=True)
    """The last time a connection of this seat was alive (any server process)."""


class EventRow(Base):
    __tablename__ = "events"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    index: Mapped[int] = mapped_column(Integer, primary_key=True)
    actor: Mapped[str] = mapped_column(String(16))
    item: Mapped[str] = mapped_column(String(200))
    chosen_at: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The version the move was chosen against (decisions only): a retry is recognised by it."""
    answer_version: Mapped[int | None] = mapped_column(Integer, nullable=True)
    """The version the move's answer named (after the chance events it set off)."""
    at: Mapped[float] = mapped_column(Float)


class NoticeRow(Base):
    __tablename__ = "notices"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), index=True)
    version: Mapped[int] = mapped_column(Integer)
    at: Mapped[float] = mapped_column(Float)
    text: Mapped[str] = mapped_column(String(300))


class ReviewRow(Base):
    """A finished table's review (:func:`courtly.sim.review.review_record`'s JSON), kept so that
    a restart or another server process does not search the game again."""

    __tablename__ = "reviews"

    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    iterations: Mapped[int] = mapped_column(Integer, primary_key=True)
    """The budget per decision it was made with: another budget is another review."""
    review: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[float] = mapped_column(Float)


# The statements of a move, built once (building one costs more than running it on SQLite).
_MOVE_TABLE = (
    update(TableRow)
    .where(TableRow.id == bindparam("b_table"), TableRow.revision == bindparam("b_revision"))
    .values(
        revision=bindparam("b_next"),
        status=bindparam("b_status"),
        version=bindparam("b_version"),
        updated_at=bindparam("b_updated_at"),
    )
)
_ADD_EVENTS = insert(EventRow)
_SET_CLOCK = (
    update(SeatRow)
    .where(SeatRow.table_id == bindparam("b_table"), SeatRow.seat == bindparam("b_seat"))
    .values(clock_ms=bindparam("b_clock_ms"), clock_since=bindparam("b_clock_since"))
)
"""Bound parameters are named ``b_...``: SQLAlchemy keeps the column names for itself."""


ASYNC_WRITERS: Final = 8
"""PostgreSQL connections that write moves from the event loop at once (more moves wait for
one: each is a connection of the database's limited number, and eight keep its cores busy)."""

WRITER_PATIENCE: Final = 0.005
"""Seconds the event loop waits for SQLite's writer, held by a worker thread, before it hands
its move to a thread too: about one commit (a loop that never waits would send the moves after
a busy moment to threads, one after another, and keep the writer busy)."""

EVENT_FIELDS: Final = ("table_id", "index", "actor", "item", "chosen_at", "answer_version", "at")
"""The fields of a move's event rows, as :meth:`Storage.commit_move` is given them."""


def _compiled(
    statement: Any, engine: Engine, keys: Sequence[str] | None = None
) -> tuple[str, tuple[str, ...]]:
    """``statement`` as the SQL text of ``engine``'s dialect (SQLite's ``?`` placeholders), and
    the names of its parameters in their order."""
    compiled = statement.compile(dialect=engine.dialect, column_keys=keys)
    return str(compiled), tuple(compiled.positiontup or ())


@dataclass(frozen=True)
class MoveWrite:
    """What writing a move changes: the table's row (if still at ``revision``), the new events,
    and the seats whose clocks changed."""

    table_id: str
    revision: int
    table_values: dict[str, Any]
    events: list[dict[str, Any]]
    seat_values: dict[int, dict[str, Any]]

    def move_values(self) -> dict[str, Any]:
        """The bound values of :data:`_MOVE_TABLE`."""
        values = {
            "b_table": self.table_id,
            "b_revision": self.revision,
            "b_next": self.revision + 1,
        }
        values.update((f"b_{name}", value) for name, value in self.table_values.items())
        return values

    def clock_values(self) -> list[dict[str, Any]]:
        """The bound values of :data:`_SET_CLOCK`, one set per seat whose clock changed."""
        rows = []
        for seat, clock in self.seat_values.items():
            values: dict[str, Any] = {"b_table": self.table_id, "b_seat": seat}
            values.update((f"b_{name}", value) for name, value in clock.items())
            rows.append(values)
        return rows


class Stale(Exception):
    """Another server process changed the table first: catch up, then decide again."""


class WriterBusy(Exception):
    """SQLite's one writer is busy, and the caller would rather not wait (the event loop)."""


class HeartbeatRow(Base):
    """When each server process was last alive: after a crash, clocks are not charged for the
    time no server was running."""

    __tablename__ = "heartbeats"

    process: Mapped[str] = mapped_column(String(64), primary_key=True)
    at: Mapped[float] = mapped_column(Float)


def default_database_url() -> str:
    """A SQLite file in the user's data directory (``$XDG_DATA_HOME/courtly``)."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return f"sqlite:///{base / 'courtly' / 'courtly.sqlite3'}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``; a SQLite file's folder is created, and SQLite runs in WAL mode
    (a committed move survives a killed process) with a busy timeout for concurrent writers."""
    if url.startswith("sqlite"):
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
    # No ping before each checkout: a round trip per request; a connection the database
    # dropped fails one request ("nothing was changed") and the pool replaces it.
    # As many connections as request threads (anyio runs 40), kept open: a connection made
    # and dropped for each burst costs more than the move it serves.
    return create_engine(url, pool_size=40, max_overflow=10)


def upgrade(engine: Engine) -> None:
    """Create or upgrade the schema to the newest migration (Alembic).

    On PostgreSQL the migration holds an advisory lock until it commits: server processes
    started together on an empty database migrate one after the other (the later ones find
    the schema made) instead of colliding on ``CREATE TABLE``."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Storage:
    """The database of one server: sessions, and the queries that are not one row's fields."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.engine = make_engine(url)
        upgrade(self.engine)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.origin = secrets.token_hex(6)
        """This process, in the announcements it sends (:meth:`heard`)."""
        # SQLite has one writer at a time: writers of this process queue on a lock rather than
        # on SQLite's busy handler, which sleeps in growing steps (a long tail of latency).
        self._writer_lock = threading.Lock() if self.engine.dialect.name == "sqlite" else None
        self._writing: contextlib.AbstractContextManager[Any] = (
            self._writer_lock or contextlib.nullcontext()
        )
        self._sqlite_statements = (
            {
                "move": _compiled(_MOVE_TABLE, self.engine),
                "events": _compiled(_ADD_EVENTS, self.engine, EVENT_FIELDS),
                "clock": _compiled(_SET_CLOCK, self.engine),
            }
            if self._writer_lock is not None
            else {}
        )
        self._pg_statements = (
            {
                "move": str(_MOVE_TABLE.compile(dialect=self.engine.dialect)),
                "events": str(
                    _ADD_EVENTS.compile(dialect=self.engine.dialect, column_keys=EVENT_FIELDS)
                ),
                "clock": str(_SET_CLOCK.compile(dialect=self.engine.dialect)),
                "notify": str(_NOTIFY.compile(dialect=self.engine.dialect)),
            }
            if self.is_postgresql
            else {}
        )
        self._async_idle: list[Any] = []
        """PostgreSQL: psycopg's async connections free for :meth:`commit_move_async`."""
        self._async_writers = asyncio.Semaphore(ASYNC_WRITERS)
        self._writer: Connection | None = None
        """SQLite: the connection that writes moves, kept open (it is used under the writer
        lock only): checking one out of the pool for each move cost a tenth of a move."""

    def close(self) -> None:
        """Close the connections (the server stops)."""
        if self._writer_lock is not None:
            with self._writer_lock:
                if self._writer is not None:
                    self._writer.close()
                    self._writer = None
        self.engine.dispose()

    @property
    def is_postgresql(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session committed on success and rolled back on any error."""
        with self._writing, self.sessions() as session, session.begin():
            yield session

    def commit_move(
        self,
        table_id: str,
        revision: int,
        table_values: dict[str, Any],
        events: list[dict[str, Any]],
        seat_values: dict[int, dict[str, Any]],
        wait: bool = True,
    ) -> None:
        """Write a move in one transaction, in as few statements as it takes (the server's
        hottest write): the table's row first, only if its revision is still ``revision``
        (:class:`Stale` otherwise: that row is also the lock that orders writers), then the
        events and the seats whose clocks changed."""
        write = MoveWrite(table_id, revision, table_values, events, seat_values)
        if self._writer_lock is not None:
            if not self._writer_lock.acquire(timeout=-1 if wait else WRITER_PATIENCE):
                raise WriterBusy()
            try:
                writer = self._writer
                if writer is None:
                    writer = self._writer = self.engine.connect()
                try:
                    with writer.begin():
                        self._write_move_sqlite(writer, write)
                except Stale:
                    raise
                except Exception:
                    self._writer = None  # a fresh connection for the next move
                    writer.close()
                    raise
            finally:
                self._writer_lock.release()
            return
        with self.engine.begin() as connection:
            self._write_move(connection, write)

    async def commit_move_async(
        self,
        table_id: str,
        revision: int,
        table_values: dict[str, Any],
        events: list[dict[str, Any]],
        seat_values: dict[int, dict[str, Any]],
    ) -> None:
        """:meth:`commit_move` on PostgreSQL from the event loop: the same statements (compiled
        once from the same expressions) on one of psycopg's async connections, sent together in
        pipeline mode, without a worker thread. :class:`Stale` as there."""
        import psycopg

        write = MoveWrite(table_id, revision, table_values, events, seat_values)
        async with self._async_writers:  # a bounded number of connections
            sql = self._pg_statements
            connection = self._async_idle.pop() if self._async_idle else None
            if connection is None or connection.closed:
                url = self.url.replace("postgresql+psycopg://", "postgresql://", 1)
                connection = await psycopg.AsyncConnection.connect(url)
            try:
                # Two round trips: the transaction's statements together, then COMMIT (or ROLLBACK
                # when the table's row had moved on).
                async with connection.pipeline() as pipeline, connection.transaction():
                    moved = connection.cursor()
                    await moved.execute(sql["move"], write.move_values())
                    rest = connection.cursor()
                    await rest.executemany(sql["events"], events)
                    for values in write.clock_values():
                        await rest.execute(sql["clock"], values)
                    await rest.execute(
                        sql["notify"], {"channel": NOTIFY_CHANNEL, "table": self._note(table_id)}
                    )
                    await pipeline.sync()
                    if moved.rowcount != 1:
                        raise Stale(table_id)  # (rolls the transaction back: nothing is written)
            except Stale:
                self._async_idle.append(connection)
                raise
            except psycopg.IntegrityError:
                # The events' (table, index) were written already: the table had moved on, and the
                # row's revision said so too (the transaction is rolled back).
                self._async_idle.append(connection)
                raise Stale(table_id) from None
            except BaseException:
                await connection.close()  # a connection in an unknown state is not used again
                raise
            self._async_idle.append(connection)

    async def close_async(self) -> None:
        """Close :meth:`commit_move_async`'s connections (on the event loop, as they were made)."""
        while self._async_idle:
            await self._async_idle.pop().close()

    def _write_move_sqlite(self, connection: Connection, write: MoveWrite) -> None:
        """:meth:`_write_move` on SQLite: the same statements, compiled once from the same
        SQLAlchemy expressions and run on the driver's cursor (SQLAlchemy's work around each
        statement cost more than SQLite's)."""
        cursor = connection.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        try:
            sql, names = self._sqlite_statements["move"]
            values = write.move_values()
            cursor.execute(sql, [values[name] for name in names])
            if cursor.rowcount != 1:
                raise Stale(write.table_id)
            sql, names = self._sqlite_statements["events"]
            cursor.executemany(sql, [[event[name] for name in names] for event in write.events])
            sql, names = self._sqlite_statements["clock"]
            for values in write.clock_values():
                cursor.execute(sql, [values[name] for name in names])
        finally:
            cursor.close()

    def _write_move(self, connection: Connection, write: MoveWrite) -> None:
        """:meth:`commit_move`'s statements, on ``connection`` in its transaction."""
        moved = connection.execute(_MOVE_TABLE, write.move_values())
        if moved.rowcount != 1:
            raise Stale(write.table_id)
        connection.execute(_ADD_EVENTS, write.events)
        for values in write.clock_values():
            connection.execute(_SET_CLOCK, values)
        if self.is_postgresql:
            note = self._note(write.table_id)
            connection.execute(_NOTIFY, {"channel": NOTIFY_CHANNEL, "table": note})

    def lock_table(self, session: Session, table_id: str) -> TableRow | None:
        """The table's row, locked for this transaction (PostgreSQL; SQLite's writer lock
        serialises writes already)."""
        query = select(TableRow).where(TableRow.id == table_id)
        if self.is_postgresql:
            query = query.with_for_update()
        return session.scalars(query).first()

    def events(self, session: Session, table_id: str, since: int = 0) -> Sequence[EventRow]:
        return session.scalars(
            select(EventRow)
            .where(EventRow.table_id == table_id, EventRow.index >= since)
            .order_by(EventRow.index)
        ).all()

    def seats(self, session: Session, table_id: str) -> Sequence[SeatRow]:
        return session.scalars(
            select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
        ).all()

    def notices(self, session: Session, table_id: str) -> Sequence[NoticeRow]:
        return session.scalars(
            select(NoticeRow).where(NoticeRow.table_id == table_id).order_by(NoticeRow.id)
        ).all()

    def tables(self, session: Session, statuses: Sequence[str], limit: int) -> Sequence[TableRow]:
        return session.scalars(
            select(TableRow)
            .where(TableRow.status.in_(statuses))
            .order_by(TableRow.updated_at.desc())
            .limit(limit)
        ).all()

    def notify(self, session: Session, table_id: str) -> None:
        """Tell the other server processes that ``table_id`` changed (delivered on commit)."""
        if self.is_postgresql:
            session.execute(_NOTIFY, {"channel": NOTIFY_CHANNEL, "table": self._note(table_id)})

    def _note(self, table_id: str) -> str:
        """The payload announcing ``table_id``: signed by this process, which skips its own."""
        return f"{table_id} {self.origin}"

    def heard(self, payload: str) -> str | None:
        """The table a ``NOTIFY`` payload announces, or None for this process's own."""
        table_id, _, origin = payload.partition(" ")
        return None if origin == self.origin else table_id

    def mark_seen(self, table_id: str, seat: int, at: float) -> None:
        with self.session() as session:
            session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(seen_at=at)
            )

    def review(self, table_id: str, iterations: int) -> dict[str, Any] | None:
        """The stored review of ``table_id`` at ``iterations`` per decision, if any."""
        with self.session() as session:
            row = session.get(ReviewRow, (table_id, iterations))
            return None if row is None else row.review

    def save_review(self, table_id: str, iterations: int, review: dict[str, Any]) -> None:
        """Keep a review; one made meanwhile by another process (the same, for the same seed and
        budget) stays."""
        with contextlib.suppress(IntegrityError), self.session() as session:
            if session.get(ReviewRow, (table_id, iterations)) is None:
                session.add(
                    ReviewRow(
                        table_id=table_id, iterations=iterations, review=review, at=time.time()
                    )
                )

    def beat(self, process: str) -> None:
        """Record that ``process`` is alive now."""
        with self.session() as session:
            row = session.get(HeartbeatRow, process)
            if row is None:
                session.add(HeartbeatRow(process=process, at=time.time()))
            else:
                row.at = time.time()

    def last_alive(self) -> float | None:
        """The last moment any server process was known to be alive."""
        with self.session() as session:
            value = session.scalar(select(func.max(HeartbeatRow.at)))
            return None if value is None else float(value)
