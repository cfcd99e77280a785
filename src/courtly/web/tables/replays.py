"""Finished games: a table's record, and its replay step by step from any seat's view.

Both are refused with 409 while the game is on: a record or a replay tells every card, and the
record reveals the seed the table committed to (its ``deal``, which ``courtly replay --verify``
checks).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import cast

from ...core.game import State
from ...core.records import MatchRecord
from ..messages import ReplayStep
from ..model import Table, TableError
from ..protocol import GameRecord
from ..replay_steps import checkpoints, replay_step
from .cache import TableCache

REPLAYS_KEPT = 16
"""Finished tables whose replayed states a server keeps (a replay steps through one)."""


class Replays:
    """The records and replays of the finished tables."""

    def __init__(self, cache: TableCache) -> None:
        self.cache = cache
        self._replays: OrderedDict[str, list[State]] = OrderedDict()
        """Finished tables replayed (their state every :data:`~courtly.web.replay_steps.REPLAY_EVERY` events), the most
        recently used last."""
        self._guard = threading.Lock()

    def record(self, table_id: str) -> GameRecord:
        """A finished table's record (every event revealed: the game is over)."""
        return cast(GameRecord, self.match_record(table_id).to_dict())

    def match_record(self, table_id: str) -> MatchRecord:
        """A finished table's record; 409 while the game is on (it would reveal every card)."""
        table = self.cache.get(table_id)
        with table.lock:
            if table.status != "over":
                raise TableError(
                    409, "the record of a table is public once the game is over, and it is not"
                )
            return table.record()

    def replay(self, table_id: str, step: int | None, seat: str = "all") -> ReplayStep:
        """A finished table as it stood after ``step`` events, seen by ``seat``
        (:func:`courtly.web.replay_steps.replay_step`); 409 while the game is on."""
        return replay_step(self.cache.get(table_id), step, seat, self._replayed)

    def _replayed(self, table: Table) -> list[State]:
        """A finished table's state after every :data:`~courtly.web.replay_steps.REPLAY_EVERY` events from the start:
        built once, then kept for the last few tables replayed, so that a step costs at most
        that many events and a view."""
        with self._guard:
            states = self._replays.get(table.id)
            if states is not None:
                self._replays.move_to_end(table.id)
                return states
        states = checkpoints(table)
        with self._guard:
            self._replays[table.id] = states
            while len(self._replays) > REPLAYS_KEPT:
                self._replays.popitem(last=False)
        return states
