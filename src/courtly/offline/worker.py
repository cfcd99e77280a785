"""The door the Web Worker calls: one request of the page, in JSON, answered in JSON.

A request is an object with ``op`` and its fields; the answer is ``{"ok": ...}`` with what the
server would answer (a seat's message as the WebSocket's ``view`` has it, a move's answer, a
hint, a record), or ``{"refused": ...}`` with the server's refusal (:func:`refusal`: ``detail``,
and ``version`` for a stale move) and the HTTP status the server would have used. A refused
request changes nothing.

- ``{"op": "games"}``: every game, its title, player counts and default bot, for the form;
- ``{"op": "new", "game", "players", "options", "seats", "seed", "hints"}``: a new table (the
  one this worker plays; the one before is dropped), answered with its seats to move;
- ``{"op": "message", "seat", "since"}``: what ``seat`` is shown (``seat`` null: a spectator);
- ``{"op": "move", "seat", "action", "version"}``: a person's move;
- ``{"op": "bot"}``: one move of the next bot to move (null when no bot is to move);
- ``{"op": "hint", "seat", "version"}``: a hint, within the offline budget;
- ``{"op": "record"}``: the finished game's record as JSON text, for ``courtly replay``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any

from ..core.registry import games
from ..web.messages import refusal
from ..web.model import TableError
from .table import OfflineTable


class BadRequest(TableError):
    def __init__(self, message: str) -> None:
        super().__init__(400, message)


class Worker:
    """The table a Web Worker plays, and the requests it takes."""

    def __init__(self) -> None:
        self.table: OfflineTable | None = None
        self.ops: dict[str, Callable[[Mapping[str, Any]], Any]] = {
            "games": self.games,
            "new": self.new,
            "message": self.message,
            "move": self.move,
            "bot": self.bot,
            "hint": self.hint,
            "record": self.record,
        }

    def answer(self, request: str) -> str:
        """``request`` (JSON) answered in JSON."""
        try:
            body = json.loads(request)
        except ValueError as error:
            return _refused(BadRequest(f"a request is JSON: {error}"))
        if not isinstance(body, dict):
            return _refused(BadRequest("a request is a JSON object with an op"))
        op = self.ops.get(str(body.get("op")))
        if op is None:
            known = ", ".join(self.ops)
            return _refused(BadRequest(f"unknown op {body.get('op')!r}; the ops are: {known}"))
        try:
            return json.dumps({"ok": op(body)})
        except TableError as error:
            return _refused(error)

    def games(self, body: Mapping[str, Any]) -> Any:
        return [
            {
                "id": info.id,
                "title": info.title,
                "players": list(info.player_counts),
                "default_players": info.default_players,
                "default_bot": info.default_bot,
            }
            for info in games()
        ]

    def new(self, body: Mapping[str, Any]) -> Any:
        game = body.get("game")
        if not isinstance(game, str):
            raise BadRequest("game is a game's id")
        players = _count(body, "players", optional=True)
        seed = _count(body, "seed", optional=True)
        hints = body.get("hints", True)
        if not isinstance(hints, bool):
            raise BadRequest("hints is true or false")
        self.table = OfflineTable(
            game, players, body.get("options") or {}, body.get("seats") or [], seed, hints
        )
        table = self.table.table
        return {"table": table.id, "players": table.game.num_players}

    def message(self, body: Mapping[str, Any]) -> Any:
        seat = _count(body, "seat", optional=True)
        return self._table(body).message(seat, _count(body, "since", optional=True) or 0)

    def move(self, body: Mapping[str, Any]) -> Any:
        action = body.get("action")
        if isinstance(action, bool) or not isinstance(action, str | int):
            raise BadRequest("action is the action's text or id")
        return self._table(body).move(_count(body, "seat"), action, _count(body, "version"))

    def bot(self, body: Mapping[str, Any]) -> Any:
        return self._table(body).bot_move()

    def hint(self, body: Mapping[str, Any]) -> Any:
        return self._table(body).hint(_count(body, "seat"), _count(body, "version"))

    def record(self, body: Mapping[str, Any]) -> Any:
        # As text: a JavaScript number cannot hold every 64-bit seed, so the page keeps and
        # exports the record as it is written here, never parsed.
        return self._table(body).record().to_json()

    def _table(self, body: Mapping[str, Any]) -> OfflineTable:
        """The table a request is about: the one this worker plays, which a request that names
        a table (``table``) must name, so that a late request of a page's earlier game can
        never move a seat of the new one."""
        if self.table is None:
            raise TableError(409, "no table yet: start a game first")
        named = body.get("table")
        if named is not None and named != self.table.table.id:
            raise TableError(409, f"table {named!r} is no longer played here: a new one was dealt")
        return self.table


def _count(body: Mapping[str, Any], name: str, optional: bool = False) -> Any:
    """``body[name]``, a whole number from 0 (JSON true is none); None where optional and
    absent or null."""
    value = body.get(name)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadRequest(f"{name} is a whole number from 0, not {value!r}")
    return value


def _refused(error: TableError) -> str:
    return json.dumps({"refused": refusal(error.message, error.version), "status": error.status})
