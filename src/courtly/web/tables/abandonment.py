"""Abandoned tables closed: a table nobody plays stops holding the server's memory.

A table is abandoned when nothing has changed at it for the operator's ``abandon_after``
(``courtly serve --abandon-after``) and

- it is **open**: it never started (a seat stayed free all that time); or
- it is **in play** and every person has been gone all that time (no WebSocket of theirs open
  in any server process, none seen since), while a person must move: a table whose bots may
  move changes by itself, and ends. A turn-based table waits at least its ``per_move``, any
  table at least its ``away``: a person within their time is never abandoned.

Closing sets the status ``closed`` (stored: the table, its seats and its history stay in the
database), stops its clocks, tells everyone at it with a notice and their next view, and lets
it go from memory. A closed table is listed nowhere, is never joined or played again, and has
no result: a game not played to its end has no record to replay or review, so its hidden
cards stay hidden. Finished tables are never closed.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..model import Table
from ..storage import Transaction
from .cache import TableCache
from .clocks import Clocks

CLOSABLE = ("open", "playing")


def close_table(
    cache: TableCache, session: Transaction, table: Table, why: str, now: float
) -> None:
    """Close ``table`` (its lock held, caught up in ``session``): its clocks stopped, a notice
    saying ``why``, stored and announced. The caller lets it go from memory once committed."""
    table.status = "closed"
    for index, seat in enumerate(table.seats):
        if seat.clock_since is not None:
            seat.clock_since = None
            cache.save_seat(session, table, index)
    cache.note(session, table, f"the table is closed: {why}", now)
    cache.save(session, table, now)
    cache.storage.notify(session, table.id)


class Abandonment:
    """Finds the abandoned tables and closes them. ``on_closed(table_id)`` is called after each
    closing is committed (it wakes the table's WebSockets)."""

    def __init__(self, cache: TableCache, clocks: Clocks, on_closed: Callable[[str], None]) -> None:
        self.cache = cache
        self.storage = cache.storage
        self.clocks = clocks
        self.on_closed = on_closed

    def sweep(self, after: float, now: float | None = None) -> list[str]:
        """Close every table abandoned for ``after`` seconds; returns the tables closed."""
        now = time.time() if now is None else now
        with self.storage.session() as session:
            stale = self.storage.stale_tables(session, CLOSABLE, now - after)
        closed = [table_id for table_id in stale if self._close(table_id, after, now)]
        for table_id in closed:
            self.on_closed(table_id)
        return closed

    def _close(self, table_id: str, after: float, now: float) -> bool:
        table = self.cache.get(table_id)
        with table.lock, self.storage.session() as session:
            self.cache.catch_up(session, table)  # and holds the row against other processes
            if table.status not in CLOSABLE:
                return False
            waited = self._waited(table, after)
            changed = self.storage.changed_at(session, table.id)
            if changed is None or now - changed < waited:
                return False
            if table.status == "playing" and self._someone_here(session, table, waited, now):
                return False
            why = "nobody came" if table.status == "open" else "everyone left"
            close_table(self.cache, session, table, why, now)
        self.cache.forget(table.id)
        return True

    @staticmethod
    def _waited(table: Table, after: float) -> float:
        """How long ``table`` must stay unchanged to be abandoned."""
        if table.status == "open":
            return after
        return max(after, table.clock.per_move, table.clock.away)

    def _someone_here(self, session: Transaction, table: Table, waited: float, now: float) -> bool:
        """Whether a person of ``table`` is connected, or was within ``waited`` seconds."""
        for index, seat in enumerate(table.seats):
            if seat.kind != "person" or not seat.taken:
                continue
            if self.clocks.present(table.id, index):
                return True
            seen = self.storage.seen_at(session, table.id, index)
            if seen is not None and now - seen < waited:
                return True
        return False
