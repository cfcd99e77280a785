"""The storage interface: what the table logic reads and writes, in its own terms (tables,
seats, events, notices), and the SQLAlchemy work that SQLite and PostgreSQL share.

Every change happens in a transaction (:meth:`Storage.session`): the table logic locks the
table's row (:meth:`Storage.lock_table`), catches up with what another process wrote, changes
it and commits. A move, the server's hottest write, has a path of its own
(:meth:`Storage.commit_move`, and :meth:`Storage.commit_move_on_loop` from the event loop),
which each database implements in its cheapest way. The row's ``revision`` orders writers: a
move is written only if the row is still at the revision it was decided at (:class:`Stale`
otherwise). The rows and their mapping to :mod:`courtly.web.model` stay in here.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, cast

from sqlalchemy import Engine, bindparam, func, insert, select, text, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from ...core.events import actor_text
from ..messages import Mode, Notice, SeatKind, Status
from ..model import Seat, Table
from ..protocol import Review
from .rows import EventRow, HeartbeatRow, NoticeRow, ReviewRow, SeatRow, TableRow

Transaction = Session
"""A unit of work: everything done through one is committed together, or not at all."""

MIGRATION_LOCK = 0x636F75727431
"""PostgreSQL advisory lock key held while the schema is migrated (``"court1"`` in ASCII)."""

# The statements of a move, built once (building one costs more than running it on SQLite).
MOVE_TABLE = (
    update(TableRow)
    .where(TableRow.id == bindparam("b_table"), TableRow.revision == bindparam("b_revision"))
    .values(
        revision=bindparam("b_next"),
        status=bindparam("b_status"),
        version=bindparam("b_version"),
        updated_at=bindparam("b_updated_at"),
    )
)
ADD_EVENTS = insert(EventRow)
SET_CLOCK = (
    update(SeatRow)
    .where(SeatRow.table_id == bindparam("b_table"), SeatRow.seat == bindparam("b_seat"))
    .values(clock_ms=bindparam("b_clock_ms"), clock_since=bindparam("b_clock_since"))
)
"""Bound parameters are named ``b_...``: SQLAlchemy keeps the column names for itself."""

EVENT_FIELDS: Final = ("table_id", "index", "actor", "item", "chosen_at", "answer_version", "at")
"""The columns of a move's event rows, in the order :meth:`MoveWrite.event_rows` gives them."""


class Stale(Exception):
    """Another server process changed the table first: catch up, then decide again."""


class WriterBusy(Exception):
    """The database's writer is busy, and the event loop would rather not wait for it."""


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table's row: what rebuilding the table takes besides its seats, events and notices."""

    id: str
    game: str
    players: int
    options: dict[str, Any]
    mode: Mode
    clock: dict[str, Any]
    seed: int = field(repr=False)
    status: Status
    version: int
    revision: int
    hints: bool
    created_at: float
    rematch_of: str | None
    rematch_id: str | None
    tutorial: bool = False
    seed_chosen: bool = False
    seed_salt: str | None = field(default=None, repr=False)
    rated: bool = False


@dataclass(frozen=True, slots=True)
class StoredEvent:
    """An event of a table's history: who (``p1``, ``chance``) did what, and for a decision the
    version it was chosen at and the version its answer named (a retry is recognised by them)."""

    index: int
    actor: str
    item: str
    chosen_at: int | None = None
    answer_version: int | None = None


@dataclass(frozen=True, slots=True)
class MoveWrite:
    """What writing a move changes: the table's row (if still at ``revision``), its new
    ``events`` (the decision and the chance events it set off), and the clocks of the seats
    whose clocks changed (``seat: (clock_ms, clock_since)``)."""

    table_id: str
    revision: int
    status: Status
    version: int
    at: float
    events: list[StoredEvent]
    clocks: dict[int, tuple[int | None, float | None]]

    def move_values(self) -> dict[str, Any]:
        """The bound values of :data:`MOVE_TABLE`."""
        return {
            "b_table": self.table_id,
            "b_revision": self.revision,
            "b_next": self.revision + 1,
            "b_status": self.status,
            "b_version": self.version,
            "b_updated_at": self.at,
        }

    def event_rows(self) -> list[tuple[Any, ...]]:
        """The events' values, in the order of :data:`EVENT_FIELDS`."""
        table_id, at = self.table_id, self.at
        return [
            (table_id, e.index, e.actor, e.item, e.chosen_at, e.answer_version, at)
            for e in self.events
        ]

    def event_values(self) -> list[dict[str, Any]]:
        """The events' values by column name."""
        return [dict(zip(EVENT_FIELDS, row, strict=True)) for row in self.event_rows()]

    def clock_values(self) -> list[dict[str, Any]]:
        """The bound values of :data:`SET_CLOCK`, one set per seat whose clock changed."""
        return [
            {"b_table": self.table_id, "b_seat": seat, "b_clock_ms": ms, "b_clock_since": since}
            for seat, (ms, since) in self.clocks.items()
        ]


def default_database_url() -> str:
    """A SQLite file in the user's data directory (``$XDG_DATA_HOME/courtly``)."""
    base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share")
    return f"sqlite:///{base / 'courtly' / 'courtly.sqlite3'}"


def upgrade(engine: Engine) -> None:
    """Create or upgrade the schema to the newest migration (Alembic).

    On PostgreSQL the migration holds an advisory lock until it commits: server processes
    started together on an empty database migrate one after the other (the later ones find
    the schema made) instead of colliding on ``CREATE TABLE``."""
    from alembic import command
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent.parent / "migrations"))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


class Storage(ABC):
    """The database of one server process: transactions, the queries that are not one row's
    fields, and the mapping between rows and :mod:`courtly.web.model`. Its subclasses write
    moves and tell other processes about changes, each its database's way."""

    loop_patience: float = 0.0
    """Seconds the event loop may wait for a table another thread is changing, before it
    hands its move to a worker thread (which may wait as long as it takes)."""

    def __init__(self, url: str, engine: Engine) -> None:
        self.url = url
        self.engine = engine
        upgrade(self.engine)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.origin = secrets.token_hex(6)
        """This process, in the announcements it sends (another process's are told apart)."""

    # ------------------------------------------------------------------------------ lifetime

    def close(self) -> None:
        """Close the connections (the server stops)."""
        self.engine.dispose()

    @abstractmethod
    async def close_async(self) -> None:
        """Close what was opened on the event loop (on the loop, as it was made)."""

    @abstractmethod
    def listen(
        self, changed: Callable[[str], None], missed: Callable[[], None] | None = None
    ) -> None:
        """Call ``changed(table_id)`` whenever another server process changes a table (from a
        thread of its own); nothing where no other process can be told. ``missed()`` is called
        each time listening starts or starts again: what was announced before was not heard."""

    @abstractmethod
    def stop_listening(self) -> None:
        """Stop :meth:`listen` (may wait for its thread)."""

    # ------------------------------------------------------------------------------ transactions

    @contextmanager
    def session(self) -> Iterator[Transaction]:
        """A transaction committed on success and rolled back on any error."""
        with self.sessions() as session, session.begin():
            yield session

    def lock_table(self, session: Transaction, table_id: str) -> StoredTable | None:
        """The table's row, held for the rest of the transaction against other writers."""
        row = session.scalars(self._table_query(table_id)).first()
        return None if row is None else self._stored_table(row)

    def _table_query(self, table_id: str) -> Any:
        return select(TableRow).where(TableRow.id == table_id)

    @abstractmethod
    def notify(self, session: Transaction, table_id: str) -> None:
        """Tell the other server processes that ``table_id`` changed (on commit)."""

    # ------------------------------------------------------------------------------ moves

    @abstractmethod
    def commit_move(self, write: MoveWrite) -> None:
        """Write a move in one transaction, in as few statements as it takes (the server's
        hottest write): the table's row first, only if its revision is still
        ``write.revision`` (:class:`Stale` otherwise: that row is also the lock that orders
        writers), then the events and the seats whose clocks changed."""

    @abstractmethod
    async def commit_move_on_loop(self, write: MoveWrite) -> None:
        """:meth:`commit_move` from the event loop, without a worker thread: :class:`Stale` as
        there, :class:`WriterBusy` where the database's writer is taken and the loop would
        wait for it."""

    # ------------------------------------------------------------------------------ reading

    def table(self, session: Transaction, table_id: str) -> StoredTable | None:
        row = session.get(TableRow, table_id)
        return None if row is None else self._stored_table(row)

    def tables(self, session: Transaction, statuses: Sequence[str]) -> list[StoredTable]:
        """Every table with one of ``statuses``, the most recently changed first."""
        rows = session.scalars(
            select(TableRow)
            .where(TableRow.status.in_(statuses))
            .order_by(TableRow.updated_at.desc())
        ).all()
        return [self._stored_table(row) for row in rows]

    def table_ids(self, session: Transaction, statuses: Sequence[str], limit: int) -> list[str]:
        """The ids of the ``limit`` tables with one of ``statuses`` changed most recently, but
        tutorials (a learner's lesson is nobody else's table)."""
        return list(
            session.scalars(
                select(TableRow.id)
                .where(TableRow.status.in_(statuses), TableRow.tutorial.is_(False))
                .order_by(TableRow.updated_at.desc())
                .limit(limit)
            ).all()
        )

    def events(
        self, session: Transaction, table_id: str, since: int = 0, until: int | None = None
    ) -> list[StoredEvent]:
        """The table's events from index ``since``, up to ``until`` (excluded) if given."""
        query = select(
            EventRow.index,
            EventRow.actor,
            EventRow.item,
            EventRow.chosen_at,
            EventRow.answer_version,
        ).where(EventRow.table_id == table_id, EventRow.index >= since)
        if until is not None:
            query = query.where(EventRow.index < until)
        rows = session.execute(query.order_by(EventRow.index)).all()
        return [StoredEvent(*row) for row in rows]

    def seats(self, session: Transaction, table_id: str) -> list[Seat]:
        rows = session.scalars(
            select(SeatRow).where(SeatRow.table_id == table_id).order_by(SeatRow.seat)
        ).all()
        return [
            Seat(
                kind=cast(SeatKind, row.kind),
                bot=row.bot,
                name=row.name,
                token_hash=row.token_hash,
                bot_control=row.bot_control,
                clock_ms=row.clock_ms,
                clock_since=row.clock_since,
                account_id=row.account_id,
            )
            for row in rows
        ]

    def notices(self, session: Transaction, table_id: str) -> list[Notice]:
        rows = session.scalars(
            select(NoticeRow).where(NoticeRow.table_id == table_id).order_by(NoticeRow.id)
        ).all()
        return [{"version": row.version, "at": row.at, "text": row.text} for row in rows]

    def seen_at(self, session: Transaction, table_id: str, seat: int) -> float | None:
        """The last time a connection of the seat was alive, in any server process."""
        row = session.get(SeatRow, (table_id, seat))
        return None if row is None else row.seen_at

    def stale_tables(
        self, session: Transaction, statuses: Sequence[str], changed_before: float
    ) -> list[str]:
        """The tables with one of ``statuses`` not changed since ``changed_before`` (moves,
        seats and notices change a table; a WebSocket's presence does not)."""
        query = select(TableRow.id).where(
            TableRow.status.in_(statuses), TableRow.updated_at < changed_before
        )
        return list(session.scalars(query))

    def changed_at(self, session: Transaction, table_id: str) -> float | None:
        """When the table last changed (None: no such table)."""
        value = session.scalar(select(TableRow.updated_at).where(TableRow.id == table_id))
        return None if value is None else float(value)

    @staticmethod
    def _stored_table(row: TableRow) -> StoredTable:
        return StoredTable(
            id=row.id,
            game=row.game,
            players=row.players,
            options=row.options,
            mode=cast(Mode, row.mode),
            clock=row.clock,
            seed=row.seed,
            status=cast(Status, row.status),
            version=row.version,
            revision=row.revision,
            hints=row.hints,
            created_at=row.created_at,
            rematch_of=row.rematch_of,
            rematch_id=row.rematch_id,
            tutorial=row.tutorial,
            seed_chosen=row.seed_chosen,
            seed_salt=row.seed_salt,
            rated=row.rated,
        )

    # ------------------------------------------------------------------------------ writing

    def add_table(self, session: Transaction, table: Table, now: float) -> None:
        """A new table's row, seats and first events (the deal)."""
        session.add(
            TableRow(
                id=table.id,
                game=table.game.id,
                players=table.game.num_players,
                options=table.options,
                mode=table.mode,
                clock=table.clock.to_dict(),
                seed=table.seed,
                status=table.status,
                version=table.version,
                revision=table.revision,
                hints=table.hints,
                created_at=now,
                updated_at=now,
                rematch_of=table.rematch_of,
                rematch_id=table.rematch_id,
                tutorial=table.tutorial,
                seed_chosen=table.seed_chosen,
                seed_salt=table.seed_salt,
                rated=table.rated,
            )
        )
        session.flush()  # the table's row first: seats and events refer to it
        for index, seat in enumerate(table.seats):
            session.add(self._seat_row(table.id, index, seat))
        for index, (actor, item) in enumerate(table.state.history):
            session.add(
                EventRow(
                    table_id=table.id, index=index, actor=actor_text(actor), item=str(item), at=now
                )
            )

    def save_seat(self, session: Transaction, table_id: str, index: int, seat: Seat) -> None:
        row = session.get(SeatRow, (table_id, index))
        if row is None:
            session.add(self._seat_row(table_id, index, seat))
            return
        row.name = seat.name
        row.token_hash = seat.token_hash
        row.bot_control = seat.bot_control
        row.clock_ms = seat.clock_ms
        row.clock_since = seat.clock_since
        row.account_id = seat.account_id

    @staticmethod
    def _seat_row(table_id: str, index: int, seat: Seat) -> SeatRow:
        return SeatRow(
            table_id=table_id,
            seat=index,
            kind=seat.kind,
            bot=seat.bot,
            name=seat.name,
            token_hash=seat.token_hash,
            bot_control=seat.bot_control,
            clock_ms=seat.clock_ms,
            clock_since=seat.clock_since,
            account_id=seat.account_id,
        )

    def save_table(self, session: Transaction, table: Table, now: float) -> bool:
        """Write the table's status, version and rematches, and count a revision (``table``'s
        too); False if the table's row is gone."""
        row = session.get(TableRow, table.id)
        if row is None:
            return False
        row.status = table.status
        row.version = table.version
        row.revision += 1
        table.revision = row.revision
        row.updated_at = now
        row.rematch_of = table.rematch_of
        row.rematch_id = table.rematch_id
        return True

    def add_notice(self, session: Transaction, table_id: str, notice: Notice) -> None:
        session.add(
            NoticeRow(
                table_id=table_id, version=notice["version"], at=notice["at"], text=notice["text"]
            )
        )

    def mark_seen(self, table_id: str, seat: int, at: float) -> None:
        with self.session() as session:
            session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat)
                .values(seen_at=at)
            )

    # ------------------------------------------------------------------------------ the rest

    def review(self, table_id: str, iterations: int) -> Review | None:
        """The stored review of ``table_id`` at ``iterations`` per decision, if any."""
        with self.session() as session:
            row = session.get(ReviewRow, (table_id, iterations))
            # An empty review is one asked for and not made yet (:meth:`request_review`).
            return None if row is None or not row.review else cast(Review, row.review)

    def save_review(self, table_id: str, iterations: int, review: Review) -> None:
        """Keep a review; one made meanwhile by another process (the same, for the same seed and
        budget) stays."""
        with contextlib.suppress(IntegrityError), self.session() as session:
            row = session.get(ReviewRow, (table_id, iterations))
            if row is None:
                session.add(
                    ReviewRow(
                        table_id=table_id,
                        iterations=iterations,
                        review=dict(review),
                        at=time.time(),
                    )
                )
            elif not row.review:  # asked for, and made now
                row.review = dict(review)
                row.at = time.time()

    def request_review(self, table_id: str, iterations: int) -> None:
        """Note that a review of ``table_id`` is asked for (an empty review until it is made):
        a server stopped before it is done makes it at its next start
        (:meth:`requested_reviews`)."""
        with contextlib.suppress(IntegrityError), self.session() as session:
            if session.get(ReviewRow, (table_id, iterations)) is None:
                session.add(
                    ReviewRow(table_id=table_id, iterations=iterations, review={}, at=time.time())
                )

    def requested_reviews(self, iterations: int) -> list[str]:
        """The tables whose review at ``iterations`` was asked for and is not made yet."""
        with self.session() as session:
            rows = session.scalars(select(ReviewRow).where(ReviewRow.iterations == iterations))
            return [row.table_id for row in rows if not row.review]

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

    # ------------------------------------------------------------------------------ people

    def account_table_ids(
        self, session: Transaction, account_id: str, statuses: Sequence[str] | None = None
    ) -> list[str]:
        """The tables where ``account_id`` holds a seat (with one of ``statuses``, if given),
        the oldest first."""
        query = (
            select(TableRow.id)
            .join(SeatRow, SeatRow.table_id == TableRow.id)
            .where(SeatRow.account_id == account_id)
            .group_by(TableRow.id, TableRow.created_at)
            .order_by(TableRow.created_at, TableRow.id)
        )
        if statuses is not None:
            query = query.where(TableRow.status.in_(statuses))
        return list(session.scalars(query))

    def rename_account_seats(self, session: Transaction, account_id: str, name: str) -> list[str]:
        """Every seat of ``account_id`` renamed ``name`` (a deleted or hidden account), and a
        revision counted on their tables, so that every server process catches up; the tables
        changed."""
        tables = self.account_table_ids(session, account_id)
        if tables:
            session.execute(
                update(SeatRow).where(SeatRow.account_id == account_id).values(name=name)
            )
            session.execute(
                update(TableRow)
                .where(TableRow.id.in_(tables))
                .values(revision=TableRow.revision + 1)
            )
            for table_id in tables:
                self.notify(session, table_id)
        return tables
