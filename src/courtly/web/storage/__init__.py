"""Where tables live: one interface (:class:`Storage`), and an implementation for each database
a server may run on: SQLite (:mod:`.sqlite`, the default: a file) and PostgreSQL
(:mod:`.postgresql`: several server processes on one database). The schema is created and
upgraded by the Alembic migrations in ``courtly/web/migrations``.

A move is committed (with the chance events it sets off) before it is acknowledged, and the pair
``(table_id, index)`` is the primary key of an event, so two server processes can never both
write the event at one index: the second one's commit fails and it catches up instead.
"""

from __future__ import annotations

from .base import (
    MoveWrite,
    Stale,
    Storage,
    StoredEvent,
    StoredTable,
    Transaction,
    WriterBusy,
    default_database_url,
)


def open_storage(url: str) -> Storage:
    """The storage of the SQLAlchemy ``url`` (its schema upgraded to the newest migration)."""
    if url.startswith("sqlite"):
        from .sqlite import SQLiteStorage

        return SQLiteStorage(url)
    from .postgresql import PostgresStorage

    return PostgresStorage(url)


__all__ = [
    "MoveWrite",
    "Stale",
    "Storage",
    "StoredEvent",
    "StoredTable",
    "Transaction",
    "WriterBusy",
    "default_database_url",
    "open_storage",
]
