"""What a seat is shown: its message (its view of the table and the table's public facts), and
the view a hint for it is searched from. Nothing else about a state reaches a client.
"""

from __future__ import annotations

import time
from typing import Any

from ...core.game import State, View
from ..model import Table, TableError
from ..protocol import LegalAction, Result, SeatMessage
from .access import authorise
from .cache import TableCache


def _legal_action(view: View, action: Any) -> LegalAction:
    """A legal action as a seat is sent it: its id and text, and the game's ``caution`` (from
    the seat's view alone) when the move throws the game away, for the page to confirm first."""
    entry: LegalAction = {"id": action.id, "text": str(action)}
    caution = view.caution(action)
    if caution:
        entry["caution"] = caution
    return entry


def seat_message(table: Table, seat: int | None, since: int, now: float) -> SeatMessage:
    """Everything a seat (``None``: a spectator) is sent: made from ``state.view(seat)`` and
    the table's public facts, nothing else. ``since`` is how much of the log it already has."""
    view = table.state.view(seat)
    since = view.log_from(since)  # again from an event revealed to the seat since
    playing = table.status == "playing"
    legal = view.legal_actions() if playing else ()
    return {
        "table": table.id,
        "game": table.game.id,
        "players": table.game.num_players,
        "seat": seat,
        "version": view.version,
        "status": table.status,
        "to_move": list(view.to_move),
        "legal_actions": [_legal_action(view, action) for action in legal],
        "observation": view.observation(),
        "log_from": since,
        "log": view.log(since),
        "result": result(view),
        "seats": [s.public(i, now) for i, s in enumerate(table.seats)],
        "notices": table.notices,
        "mode": table.mode,
        "hints": table.hints,
        "rematch_id": table.rematch_id,
    }


def result(seen: State | View) -> Result | None:
    """How the game ended (None while it goes on): the same for every seat, once it is over."""
    if not seen.is_terminal:
        return None
    return {"returns": seen.returns(), "winners": list(seen.winners), "truncated": seen.truncated}


class Views:
    """The messages of the seats and spectators of every table."""

    def __init__(self, cache: TableCache) -> None:
        self.cache = cache

    def message(
        self, table_id: str, seat: int | None, token: str | None, since: int
    ) -> SeatMessage:
        """The view of ``seat`` (its token checked) or of a spectator."""
        table = self.cache.get(table_id)
        with table.lock:
            if seat is not None:
                authorise(table, seat, token)
            return seat_message(table, seat, max(0, since), time.time())

    def message_now(
        self, table_id: str, seat: int | None, token: str | None, since: int
    ) -> SeatMessage | None:
        """:meth:`message` if it can be made at once (the table is loaded and not being
        changed), else None: the event loop builds most messages itself this way, and leaves
        the rest to a worker thread, which may wait."""
        table = self.cache.loaded(table_id)
        if table is None or not table.lock.acquire(blocking=False):
            return None
        try:
            if seat is not None:
                authorise(table, seat, token)
            return seat_message(table, seat, max(0, since), time.time())
        finally:
            table.lock.release()

    def hint_view(self, table_id: str, seat: int, token: str | None, version: int) -> View:
        """The view a hint for ``seat`` is searched from (its token checked): refused with 403
        where the table has hints off, 409 unless the seat is to move at ``version`` in a game
        in play. The view alone goes to the search, never the state."""
        table = self.cache.get(table_id)
        with table.lock:
            authorise(table, seat, token, reload=self.cache.reload)
            if not table.hints:
                raise TableError(403, "hints are off at this table")
            if table.status != "playing":
                raise TableError(409, f"no hint: the table is {table.status}, not in play")
            if version != table.version:
                raise TableError(
                    409,
                    f"no hint for version {version}: the table is at version {table.version}",
                    version=table.version,
                )
            if seat not in table.state.to_move:
                raise TableError(409, f"no hint: seat {seat} is not to move")
            return table.state.view(seat)
