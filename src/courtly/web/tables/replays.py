"""Finished games: a table's record, and its replay step by step from any seat's view.

Both are refused with 409 while the game is on: a record or a replay tells every card, and the
record reveals the seed the table committed to (its ``deal``, which ``courtly replay --verify``
checks).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import cast

from ...core.events import CHANCE, observer_bit
from ...core.game import State
from ...core.records import MatchRecord
from ...core.story import Story
from ..messages import ReplaySeat, StoryLine
from ..model import Table, TableError
from ..protocol import GameRecord, ReplayStep
from ..seat_messages import result, told_since
from .cache import TableCache

REPLAYS_KEPT = 16
"""Finished tables whose replayed states a server keeps (a replay steps through one)."""
REPLAY_EVERY = 16
"""A replayed table keeps its state every this many events; a step replays the rest from one."""


class Replays:
    """The records and replays of the finished tables."""

    def __init__(self, cache: TableCache) -> None:
        self.cache = cache
        self._replays: OrderedDict[str, list[State]] = OrderedDict()
        """Finished tables replayed (their state every :data:`REPLAY_EVERY` events), the most
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
        """A finished table as it stood after ``step`` events (default: the end), seen by
        ``seat``: a seat's number (what it knew then), ``spectator``, or ``all`` (every seat's
        view side by side and every event revealed: the record is public once the game is over).

        Refused with 409 while the game is on: a replay must never show a live game.
        """
        table = self.cache.get(table_id)
        with table.lock:
            if table.status != "over":
                raise TableError(
                    409, "a table is replayed once its game is over, and this one is not"
                )
            seats = table.public_seats(time.time())
            story = table.told()
            deal = table.deal()
        states = self._replayed(table)
        history = table.state.history
        steps = len(history)
        if step is None:
            step = steps
        if not 0 <= step <= steps:
            raise TableError(422, f"step {step} is not a step of this game (0 to {steps})")
        players = table.game.num_players
        viewers: list[int | None]
        who: ReplaySeat
        if seat == "all":
            viewers, who = list(range(players)), "all"
        elif seat == "spectator":
            viewers, who = [None], "spectator"
        elif seat.isdigit() and int(seat) < players:
            viewers, who = [int(seat)], int(seat)
        else:
            raise TableError(
                422, f"seat is a seat number (0 to {players - 1}), spectator or all, not {seat!r}"
            )
        state = states[step // REPLAY_EVERY].clone()
        for actor, item in history[step - step % REPLAY_EVERY : step]:
            if actor == CHANCE:
                state.apply_chance(item)
            else:
                state.apply(actor, item)
        views = [state.view(viewer) for viewer in viewers]
        log = state.history_text() if who == "all" else views[0].log()
        told_to: list[list[int]] = []
        if who == "all":
            lines, told_to = every_line(story, players, step)
        else:
            lines = [line for line in told_since(story, viewers[0], players, 0) if line[0] < step]
        answer: ReplayStep = {
            "table": table.id,
            "game": table.game.id,
            "players": players,
            "step": step,
            "steps": steps,
            "seat": who,
            "to_move": [] if state.is_terminal else list(state.to_move),
            "views": [
                {"seat": viewer, "observation": view.observation()}
                for viewer, view in zip(viewers, views, strict=True)
            ],
            "log": log,
            "story": lines,
            "result": result(state),
            "seats": seats,
            "deal": deal,
        }
        if who == "all":
            answer["told_to"] = told_to
        return answer

    def _replayed(self, table: Table) -> list[State]:
        """A finished table's state after every :data:`REPLAY_EVERY` events from the start:
        built once, then kept for the last few tables replayed, so that a step costs at most
        that many events and a view."""
        with self._guard:
            states = self._replays.get(table.id)
            if states is not None:
                self._replays.move_to_end(table.id)
                return states
        state = table.game.new_state()
        states = [state.clone()]
        for index, (actor, item) in enumerate(table.state.history, start=1):
            if actor == CHANCE:
                state.apply_chance(item)
            else:
                state.apply(actor, item)
            if index % REPLAY_EVERY == 0:
                states.append(state.clone())
        with self._guard:
            self._replays[table.id] = states
            while len(self._replays) > REPLAYS_KEPT:
                self._replays.popitem(last=False)
        return states


def every_line(story: Story, players: int, step: int) -> tuple[list[StoryLine], list[list[int]]]:
    """Every line told to anyone about the first ``step`` events, each once, and the seats each
    was told to (``[]``: every seat): a finished game's story with nothing kept from anyone."""
    everyone = [observer_bit(seat, players) for seat in range(players)]
    lines: list[StoryLine] = []
    told_to: list[list[int]] = []
    for index, knowers, text in story.lines:
        if index >= step:
            break
        seats = [seat for seat, bit in enumerate(everyone) if knowers & bit]
        if not seats:
            continue  # (told to spectators alone: what every seat knew better)
        lines.append((index, text))
        told_to.append([] if len(seats) == players else seats)
    return lines, told_to
