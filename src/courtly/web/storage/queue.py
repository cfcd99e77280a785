"""Play now's queue in the database: a row per waiting person, shared by every server process
on one database.

Tables are formed in one transaction that holds the waiting rows it reads: on PostgreSQL with
``SELECT ... FOR UPDATE SKIP LOCKED``, so two processes forming tables at once take disjoint
people (a row another process holds is left to it), and a person is seated once; SQLite has
one writer at a time (and one server process).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import delete, exists, func, select, update

from .base import Storage, Transaction
from .rows import QueueRow


@dataclass(frozen=True, slots=True)
class QueueCount:
    """How many wait for one kind of table."""

    game: str
    players: int
    mode: str
    rated: bool
    waiting: int


def add_entry(session: Transaction, row: QueueRow) -> None:
    """A person joins the queue; their account's waiting row, if any, is replaced (one queue
    at a time)."""
    if row.account_id is not None:
        session.execute(
            delete(QueueRow).where(
                QueueRow.account_id == row.account_id, QueueRow.table_id.is_(None)
            )
        )
        session.flush()
    session.add(row)


def find_entry(session: Transaction, ticket_hash: str) -> QueueRow | None:
    return session.get(QueueRow, ticket_hash)


def remove_entry(session: Transaction, ticket_hash: str) -> None:
    session.execute(delete(QueueRow).where(QueueRow.ticket_hash == ticket_hash))


def touch_entry(session: Transaction, ticket_hash: str, now: float) -> None:
    """The holder is still there (a heartbeat)."""
    session.execute(update(QueueRow).where(QueueRow.ticket_hash == ticket_hash).values(seen_at=now))


def expire(session: Transaction, waiting_cutoff: float, seated_cutoff: float) -> int:
    """Remove the waiting rows not seen since ``waiting_cutoff`` (a closed tab), and the seated
    ones not seen since ``seated_cutoff`` (their holder has long had the news)."""
    gone = session.execute(
        delete(QueueRow).where(QueueRow.table_id.is_(None), QueueRow.seen_at < waiting_cutoff)
    )
    session.execute(
        delete(QueueRow).where(QueueRow.table_id.is_not(None), QueueRow.seen_at < seated_cutoff)
    )
    return int(getattr(gone, "rowcount", 0) or 0)


def anyone_waiting(session: Transaction) -> bool:
    """Whether any row waits (a read: no writer is held for an empty queue)."""
    return bool(session.scalar(select(exists().where(QueueRow.table_id.is_(None)))))


def hold_waiting(storage: Storage, session: Transaction, seen_since: float) -> list[QueueRow]:
    """The waiting rows seen since ``seen_since``, held until the transaction ends; on
    PostgreSQL the rows another transaction holds are skipped."""
    query = (
        select(QueueRow)
        .where(QueueRow.table_id.is_(None), QueueRow.seen_at >= seen_since)
        .order_by(QueueRow.joined_at)
    )
    if storage.engine.dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    return list(session.scalars(query))


def seat_entries(session: Transaction, seated: Sequence[tuple[str, str, int]]) -> None:
    """Mark rows seated: ``(ticket_hash, table_id, seat)`` each."""
    for ticket_hash, table_id, seat in seated:
        session.execute(
            update(QueueRow)
            .where(QueueRow.ticket_hash == ticket_hash)
            .values(table_id=table_id, seat=seat)
        )


def counts(session: Transaction, seen_since: float) -> list[QueueCount]:
    """How many wait for each game, player count, mode and kind of table."""
    rows = session.execute(
        select(QueueRow.game, QueueRow.players, QueueRow.mode, QueueRow.rated, func.count())
        .where(QueueRow.table_id.is_(None), QueueRow.seen_at >= seen_since)
        .group_by(QueueRow.game, QueueRow.players, QueueRow.mode, QueueRow.rated)
        .order_by(QueueRow.game, QueueRow.players, QueueRow.mode, QueueRow.rated)
    ).all()
    return [QueueCount(g, p, m, bool(r), int(n)) for g, p, m, r, n in rows]
