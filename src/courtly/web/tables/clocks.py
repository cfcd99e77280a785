"""Clocks and bot takeover: the seats' time, who is connected, and the bot that plays a seat
out of time, away too long while it must move, or given up.

Realtime tables give each seat ``initial`` seconds plus ``increment`` per move; turn-based
tables give ``per_move`` seconds for each decision; ``away`` is how long a person who must move
may stay disconnected. A seat out of time or away is played by its bot until its person takes
it back (:meth:`courtly.web.tables.seats.Seats.reclaim`).
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from ...core.game import State
from ..model import Table
from ..storage import Transaction
from .cache import TableCache

ClockChanges = dict[int, tuple[int | None, float | None]]
"""The seats whose clocks change: ``seat: (clock_ms, clock_since)``."""


def clock_changes(
    table: Table, before: State | None, after: State, mover: int | None, now: float
) -> ClockChanges:
    """The seats' new ``(clock_ms, clock_since)`` when the table goes from ``before`` to
    ``after``: the clocks of seats no longer to move stop (the mover's gains the increment),
    those of seats now to move start, a turn-based seat gets a fresh ``per_move``. Untimed
    seats keep no time, but a table with an ``away`` limit notes when each turn began."""
    if not table.clock.timed and table.clock.away <= 0:
        return {}
    was = set(before.to_move) if before is not None else set()
    now_to_move = set(after.to_move) if not after.is_terminal else set()
    changes: ClockChanges = {}
    for index, seat in enumerate(table.seats):
        clock_ms, clock_since = seat.clock_ms, seat.clock_since
        if index in was and index not in now_to_move and clock_since is not None:
            if clock_ms is not None:
                left = (seat.time_left(now) or 0.0) + (
                    table.clock.increment if index == mover else 0.0
                )
                clock_ms = int(left * 1000)
            clock_since = None
        if index in now_to_move and (index not in was or index == mover):
            if table.clock.per_move:
                clock_ms = int(table.clock.per_move * 1000)
            if clock_since is None:
                clock_since = now
        if (clock_ms, clock_since) != (seat.clock_ms, seat.clock_since):
            changes[index] = (clock_ms, clock_since)
    return changes


def start_clocks(table: Table, now: float) -> None:
    """Start the clocks of the seats to move (the game begins); applied at once (the caller
    saves the seats)."""
    for index, (clock_ms, clock_since) in clock_changes(
        table, None, table.state, None, now
    ).items():
        table.seats[index].clock_ms = clock_ms
        table.seats[index].clock_since = clock_since


class Clocks:
    """The clocks of every table, the seats connected to this process, and the bots' turns.

    ``on_change(table_id)`` is called after every committed change, outside the table's lock.
    """

    def __init__(self, cache: TableCache, on_change: Callable[[str], None]) -> None:
        self.cache = cache
        self.storage = cache.storage
        self.on_change = on_change
        self._present: Counter[tuple[str, int]] = Counter()
        """(table, seat) -> this process's open WebSockets of that seat."""
        self._guard = threading.Lock()

    # ------------------------------------------------------------------------------ presence

    def connected(self, table_id: str, seat: int) -> None:
        """A WebSocket of ``seat`` opened in this process: its person is not away."""
        with self._guard:
            self._present[(table_id, seat)] += 1

    def disconnected(self, table_id: str, seat: int) -> None:
        with self._guard:
            self._present[(table_id, seat)] -= 1
            if self._present[(table_id, seat)] <= 0:
                del self._present[(table_id, seat)]

    def present(self, table_id: str, seat: int) -> bool:
        """Whether a WebSocket of ``seat`` is open in this process now."""
        with self._guard:
            return self._present[(table_id, seat)] > 0

    # ------------------------------------------------------------------------------ takeover

    def check(self, now: float | None = None) -> list[str]:
        """Hand to its bot every seat out of time, or away too long while it must move; returns
        the tables that changed."""
        now = time.time() if now is None else now
        changed = []
        for table in self.cache.held():
            if table.status != "playing":
                continue
            late = [
                seat for seat in table.state.to_move if self._should_take_over(table, seat, now)
            ]
            if late and self._take_over(table, late, now):
                changed.append(table.id)
        for table_id in changed:
            self.on_change(table_id)
        return changed

    @staticmethod
    def _should_take_over(table: Table, seat: int, now: float) -> bool:
        chair = table.seats[seat]
        if chair.played_by_bot:
            return False
        if chair.clock_since is None:
            return False  # not its turn
        if chair.clock_ms is not None and chair.time_left(now) == 0:
            return True
        away = table.clock.away
        return away > 0 and now - chair.clock_since > away

    def _take_over(self, table: Table, seats: list[int], now: float) -> bool:
        with table.lock, self.storage.session() as session:
            self.cache.catch_up(session, table)
            taken = False
            for seat in seats:
                chair = table.seats[seat]
                if chair.played_by_bot or seat not in table.state.to_move:
                    continue
                if table.clock.away > 0 and chair.time_left(now) != 0:
                    if self._present[(table.id, seat)] > 0:
                        continue  # connected to this process
                    seen = self.storage.seen_at(session, table.id, seat)
                    if seen is not None and now - seen < table.clock.away:
                        continue  # connected (to another server process) or just left
                    why = "is away"
                else:
                    why = "ran out of time"
                chair.bot_control = True
                self.cache.note(session, table, f"p{seat} {why}; {chair.bot} plays for them", now)
                self.cache.save_seat(session, table, seat)
                taken = True
            if taken:
                self.cache.save(session, table, now)
                self.storage.notify(session, table.id)
            return taken

    def forgive_downtime(self, session: Transaction, table: Table, last_alive: float) -> None:
        """Restart the running clocks of a table resumed after no server ran since
        ``last_alive``: no clock is charged for the time no server was running."""
        now = time.time()
        if now - last_alive < 1:
            return
        forgiven = False
        for index, seat in enumerate(table.seats):
            if seat.clock_since is None:
                continue
            if seat.clock_ms is not None:
                used = max(0.0, min(last_alive, now) - seat.clock_since)
                seat.clock_ms = max(0, seat.clock_ms - int(used * 1000))
            # An untimed seat's turn start counts for ``away``: the downtime is not absence.
            seat.clock_since = now
            self.cache.save_seat(session, table, index)
            forgiven = True
        if forgiven and (table.clock.timed or table.clock.away > 0):
            self.cache.note(
                session,
                table,
                f"the server was down for {now - last_alive:.0f} s; no clock ran meanwhile",
                now,
            )

    # ------------------------------------------------------------------------------ bots

    def may_need_bots(self, table_id: str) -> bool:
        """False when no bot can have a move to make at ``table_id`` now (read without the
        lock: every change pokes the bots again, so a table caught mid-change is looked at
        afresh): most tables of people spare the bots a look in a worker thread per move."""
        table = self.cache.loaded(table_id)
        if table is None or (table.status == "playing" and table.state.is_chance):
            return True  # not loaded here yet, or between two events: look properly
        if table.status != "playing":
            return False
        seats = table.seats
        return any(seats[seat].played_by_bot for seat in table.state.to_move)

    def bot_turns(self, table_id: str) -> tuple[int, list[tuple[int, str, Any]]]:
        """The version and, for each seat a bot must play now, ``(seat, bot spec, view)``."""
        table = self.cache.get(table_id)
        with table.lock:
            if table.status != "playing":
                return table.version, []
            turns = [
                (seat, table.seats[seat].bot or "random", table.state.view(seat))
                for seat in table.state.to_move
                if table.seats[seat].played_by_bot
            ]
            return table.version, turns
