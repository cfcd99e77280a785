"""Moves: a seat's move checked, played on a copy of the state with the chance it sets off,
committed, and only then made the table's state.

A move names the version it was chosen at. A retry of an applied move gets the same answer; a
move chosen at an older version is taken only while nothing the seat could see has changed
since (a simultaneous choice arriving after another seat's); otherwise 409 with the current
version. If another server process changed the table first, this one catches up and decides
again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass

from ...core.events import actor_text
from ..model import Answer, Table, TableError
from ..playing import Played, check_seat_index, earlier_answer, play, settle
from ..storage import MoveWrite, Stale, StoredEvent, WriterBusy
from .access import Credential, authorise
from .cache import TableCache
from .clocks import clock_changes


@dataclass
class _Move:
    """A decided move: its answer, and the move played and what committing it writes (none for
    a retry)."""

    answer: Answer
    played: Played | None = None
    write: MoveWrite | None = None


class Moves:
    """The moves of every table: from a worker thread (:meth:`submit`, which may wait), or from
    the event loop when nothing is in the way (:meth:`submit_on_loop`).

    ``on_change(table_id)`` is called after every committed move, outside the table's lock.
    """

    def __init__(self, cache: TableCache, on_change: Callable[[str], None]) -> None:
        self.cache = cache
        self.storage = cache.storage
        self.on_change = on_change

    def submit(
        self,
        table_id: str,
        seat: int,
        action: object,
        version: int,
        token: Credential = None,
        by_bot: bool = False,
    ) -> Answer:
        """Apply ``seat``'s move chosen at ``version``, committed before it is answered."""
        table = self.cache.get(table_id)
        with table.lock:
            answer = self._submit(table, seat, action, version, token, by_bot)
        self.on_change(table.id)
        return answer

    async def submit_on_loop(
        self, table_id: str, seat: int, action: object, version: int, token: Credential
    ) -> Answer | None:
        """:meth:`submit` made by the event loop itself, sparing the move a trip to a worker
        thread, or None (nothing done) when that is not possible now: the table is not loaded
        or is busy, the database's writer is busy, or another writer changed the table first.
        The caller then hands the move to :meth:`submit` in a worker thread, which may wait."""
        table = self.cache.loaded(table_id)
        if table is None or not table.lock.acquire(timeout=self.storage.loop_patience):
            return None
        try:
            authorise(table, seat, token)
            move = self._decide(table, seat, action, version, by_bot=False)
        finally:
            table.lock.release()
        if move.write is None:  # a retry: answered again, nothing changed
            return move.answer
        try:
            await self.storage.commit_move_on_loop(move.write)
        except (Stale, WriterBusy):
            return None
        # Committed. The table is unchanged in memory unless a worker thread read this very
        # move back from the database meanwhile (it caught up after a write of its own failed).
        while not table.lock.acquire(blocking=False):
            await asyncio.sleep(0.0005)  # held by a thread for a moment: never block the loop
        try:
            if table.revision == move.write.revision:
                self._committed(table, seat, version, move)
        finally:
            table.lock.release()
        self.on_change(table.id)
        return move.answer

    def _submit(
        self,
        table: Table,
        seat: int,
        action: object,
        version: int,
        token: Credential,
        by_bot: bool,
    ) -> Answer:
        """:meth:`submit`, the table's lock held."""
        for attempt in range(3):
            if by_bot:
                check_seat_index(table, seat)
            else:
                authorise(table, seat, token, reload=self.cache.reload if attempt == 0 else None)
            move = self._decide(table, seat, action, version, by_bot)
            if move.write is None:  # a retry: answered again, nothing changed
                return move.answer
            try:
                self.storage.commit_move(move.write)
            except Stale:
                self.cache.reload(table)
                continue
            self._committed(table, seat, version, move)
            return move.answer
        raise TableError(409, "the table kept changing: try again", version=table.version)

    def _committed(self, table: Table, seat: int, version: int, move: _Move) -> None:
        """The move is in the database: only now does the table move on."""
        assert move.played is not None and move.write is not None
        settle(table, seat, version, move.played)
        for index, (clock_ms, clock_since) in move.write.clocks.items():
            table.seats[index].clock_ms = clock_ms
            table.seats[index].clock_since = clock_since
        if table.status == "over":
            self.cache.finished(table)

    def _decide(self, table: Table, seat: int, action: object, version: int, by_bot: bool) -> _Move:
        """Check the move and play it on a copy: what to write, and the table after it (or,
        for a retry, the answer already given). Changes nothing."""
        earlier = earlier_answer(table, seat, action, version)
        if earlier is not None:
            return _Move(earlier)
        played = play(table, seat, action, version, by_bot)
        state, answer = played.state, played.answer
        now = time.time()
        history = state.history
        decision = answer.index
        events = [StoredEvent(decision, actor_text(seat), answer.action, version, answer.version)]
        events.extend(
            StoredEvent(index, actor_text(history[index][0]), str(history[index][1]))
            for index in range(decision + 1, len(history))
        )
        write = MoveWrite(
            table_id=table.id,
            revision=table.revision,
            status="over" if state.is_terminal else "playing",
            version=len(history),
            at=now,
            events=events,
            clocks=clock_changes(table, table.state, state, seat, now),
        )
        return _Move(answer, played, write)
