"""The table cache: the tables of a server in memory, loaded from storage on first use, kept in
step with what other server processes wrote, and saved.

Every change (a move, a seat joined, a clock run out) happens under the table's lock, is
written and committed first, and only then becomes the table's state; a failed commit leaves
the table as it was. Several server processes may serve one PostgreSQL database: before a
change a process locks the table's row and catches up with the events and seats another
process wrote (:meth:`TableCache.catch_up`).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

from ...core.registry import make
from ..messages import Notice
from ..model import Answer, Clock, Table, TableError
from ..playing import to_move_history
from ..storage import Storage, StoredTable, Transaction
from .history import replay_event

ENDED = ("over", "closed")
"""The statuses of a table no one plays any more (its game over, or the table closed)."""

FINISHED_KEPT = 512
"""Finished (or closed) tables a server keeps in memory, the most recently finished or read: any other is
read again from the database when asked for (a late retry, a rematch, its record). A server
that runs for months holds its tables in play, not every table it ever had."""


class TableCache:
    """Every table of a server, in memory and in the database."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._tables: dict[str, Table] = {}
        self._guard = threading.Lock()
        self._finished: OrderedDict[str, None] = OrderedDict()
        """Finished tables held in memory, the most recently finished or read last."""
        self.finished_kept = FINISHED_KEPT

    def __contains__(self, table_id: str) -> bool:
        return table_id in self._tables

    def __len__(self) -> int:
        return len(self._tables)

    def held(self) -> list[Table]:
        """The tables in memory now."""
        return list(self._tables.values())

    def loaded(self, table_id: str) -> Table | None:
        """The table if it is in memory, without loading it (the event loop's way: it never
        waits for the database)."""
        return self._tables.get(table_id)

    def get(self, table_id: str) -> Table:
        """The table ``table_id`` (loaded from the database on first use); 404 if unknown."""
        table = self._tables.get(table_id)
        if table is not None:
            return table
        with self._guard:
            table = self._tables.get(table_id)
            if table is None:
                with self.storage.session() as session:
                    stored = self.storage.table(session, table_id)
                    if stored is None:
                        raise TableError(404, f"there is no table {table_id!r}")
                    table = self._load(session, stored)
                self._tables[table_id] = table
                if table.status in ENDED:
                    self._keep_finished(table_id)
        return table

    def add(self, table: Table) -> None:
        """Hold a table just created."""
        with self._guard:
            self._tables[table.id] = table

    def finished(self, table: Table) -> None:
        """Count ``table``, whose game just ended, among the finished tables in memory."""
        with self._guard:
            self._keep_finished(table.id)

    def _keep_finished(self, table_id: str) -> None:
        """Count ``table_id`` among the finished tables in memory, and let the oldest go beyond
        :attr:`finished_kept` (``self._guard`` held)."""
        self._finished[table_id] = None
        self._finished.move_to_end(table_id)
        while len(self._finished) > self.finished_kept:
            old, _ = self._finished.popitem(last=False)
            table = self._tables.get(old)
            if table is not None and table.status in ENDED:
                del self._tables[old]

    def forget(self, table_id: str) -> None:
        """Let a closed table go from memory (read again from the database if it is asked
        for)."""
        with self._guard:
            self._tables.pop(table_id, None)
            self._finished.pop(table_id, None)

    def load_all(self, session: Transaction, statuses: Sequence[str]) -> list[Table]:
        """Load every table with one of ``statuses`` (at start)."""
        loaded = []
        for stored in self.storage.tables(session, statuses):
            table = self._load(session, stored)
            self._tables[stored.id] = table
            loaded.append(table)
        return loaded

    def listing(self, statuses: Sequence[str], limit: int) -> list[Table]:
        """The ``limit`` tables with one of ``statuses`` changed most recently."""
        with self.storage.session() as session:
            ids = self.storage.table_ids(session, statuses, limit)
        return [self.get(table_id) for table_id in ids]

    def _load(self, session: Transaction, stored: StoredTable) -> Table:
        game = make(stored.game, players=stored.players, **stored.options)
        state = game.new_state()
        answers: dict[tuple[int, int], tuple[str, Answer]] = {}
        # The events the row counts, no more: the row is read unlocked, and a move another
        # process commits meanwhile is visible to the next statement (PostgreSQL reads what is
        # committed when each statement starts). The table is then the row's revision, which
        # catching up compares with the database's to find that move.
        for event in self.storage.events(session, stored.id, until=stored.version):
            replay_event(state, event, answers)
        return Table(
            id=stored.id,
            game=game,
            mode=stored.mode,
            clock=Clock.of(stored.clock),
            seed=stored.seed,
            seats=self.storage.seats(session, stored.id),
            state=state,
            status=stored.status,
            hints=stored.hints,
            created_at=stored.created_at,
            rematch_of=stored.rematch_of,
            rematch_id=stored.rematch_id,
            tutorial=stored.tutorial,
            seed_chosen=stored.seed_chosen,
            seed_salt=stored.seed_salt,
            rated=stored.rated,
            revision=stored.revision,
            notices=self.storage.notices(session, stored.id),
            to_move_at=to_move_history(state),
            answers=answers,
        )

    # ------------------------------------------------------------------------------ in step

    def catch_up(self, session: Transaction, table: Table) -> None:
        """Bring ``table`` up to date with what other server processes committed (the row is
        held for the rest of the transaction against other writers)."""
        stored = self.storage.lock_table(session, table.id)
        if stored is None:
            raise TableError(404, f"there is no table {table.id!r}")
        if stored.revision == table.revision:
            return
        if stored.version != table.version:
            for event in self.storage.events(session, table.id, since=table.version):
                replay_event(table.state, event, table.answers, table.story)
            table.to_move_at = to_move_history(table.state)
        table.status = stored.status
        table.rematch_id = stored.rematch_id
        table.revision = stored.revision
        table.seats = self.storage.seats(session, table.id)
        table.notices = self.storage.notices(session, table.id)

    def reload(self, table: Table) -> None:
        """Catch up now, in a transaction of its own (the caller holds the table's lock)."""
        with self.storage.session() as session:
            self.catch_up(session, table)

    def refresh(self, table_id: str) -> bool:
        """Catch up with a change another process announced (if the table is loaded here);
        whether anything changed (a process hears its own announcements too)."""
        # Looked up under the guard: a table being loaded now may have been read before the
        # announced change, so the announcement waits for the load and then catches it up.
        with self._guard:
            table = self._tables.get(table_id)
        if table is None:
            return False
        with table.lock:
            revision = table.revision
            self.reload(table)
            return table.revision != revision

    # ------------------------------------------------------------------------------ saving

    def save(self, session: Transaction, table: Table, now: float) -> None:
        """Write the table's row (a new revision); 404 if it is gone."""
        if not self.storage.save_table(session, table, now):
            raise TableError(404, f"there is no table {table.id!r}")

    def save_seat(self, session: Transaction, table: Table, index: int) -> None:
        self.storage.save_seat(session, table.id, index, table.seats[index])

    def note(self, session: Transaction, table: Table, text: str, now: float) -> None:
        """Add a notice to the table (shown to everyone at the table)."""
        notice: Notice = {"version": table.version, "at": now, "text": text}
        self.storage.add_notice(session, table.id, notice)
        table.notices.append(notice)
