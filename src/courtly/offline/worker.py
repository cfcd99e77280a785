"""The door the Web Worker calls: one request of the page, in JSON, answered in JSON.

A request is an object with ``op`` and its fields; the answer is ``{"ok": ...}`` with what the
server would answer (a seat's message as the WebSocket's ``view`` has it, a move's answer, a
hint, a record), or ``{"refused": ...}`` with the server's refusal (:func:`refusal`: ``detail``,
and ``version`` for a stale move) and the HTTP status the server would have used. A refused
request changes nothing.

- ``{"op": "games"}``: the server's catalogue (:func:`courtly.web.catalogue.catalogue`), a
  search bot's budget capped as here, for the form;
- ``{"op": "seats", "game", "players", "options"}``: what each seat is, the options checked;
- ``{"op": "new", "game", "players", "options", "seats", "seed", "hints"}``: a new table (the
  one this worker plays; the one before is dropped), answered with its seats to move;
- ``{"op": "message", "seat", "since"}``: what ``seat`` is shown (``seat`` null: a spectator);
- ``{"op": "move", "seat", "action", "version"}``: a person's move;
- ``{"op": "bot"}``: one move of the next bot to move (null when no bot is to move);
- ``{"op": "hint", "seat", "version"}``: a hint, within the offline budget;
- ``{"op": "record"}``: the finished game's record as JSON text, for ``courtly replay``;
- ``{"op": "finished", "record"}``: a kept game (its record, JSON text) held to be replayed
  and reviewed, checked as the server checks an uploaded one; answered with its summary;
- ``{"op": "replay", "table", "step", "seat"}``: a held game at a step, as the server's replay;
- ``{"op": "review", "table"}``: a held game's review by search, within the offline budget
  (:data:`REVIEW_ITERATIONS`), its progress told as it goes (``progress(done, total)``).
"""

from __future__ import annotations

import json
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import Any, Final

from ..agents.estimates import Budget
from ..core.game import State
from ..sim.review import review_record
from ..web.budgets import BotBudget
from ..web.catalogue import catalogue, titles_of
from ..web.messages import refusal
from ..web.model import Table, TableError
from ..web.recorded import finished_table
from ..web.replay_steps import checkpoints, replay_step
from .table import BOT_ITERATIONS, BOT_SECONDS, OfflineTable

REVIEW_ITERATIONS: Final = 100
"""A review's search per decision here: a sixth of the server's, so that a long game's review
takes a minute or so in the browser rather than many."""
REVIEW_SEED: Final = 0
"""The searches' seed: the same game, the same review."""
FINISHED_KEPT: Final = 4
"""Kept games held for replay at once (a replay steps through one, a review reads it too)."""

Progress = Callable[[int, int], None]


class BadRequest(TableError):
    def __init__(self, message: str) -> None:
        super().__init__(400, message)


class Worker:
    """The table a Web Worker plays, and the requests it takes."""

    def __init__(self) -> None:
        self.table: OfflineTable | None = None
        self.ops: dict[str, Callable[[Mapping[str, Any]], Any]] = {
            "games": self.games,
            "seats": self.seats,
            "new": self.new,
            "message": self.message,
            "move": self.move,
            "bot": self.bot,
            "hint": self.hint,
            "record": self.record,
            "finished": self.finished,
            "replay": self.replay,
            "review": self.review,
        }
        self.held: OrderedDict[str, tuple[Table, list[State]]] = OrderedDict()
        """Kept games held for replay, each with its checkpoints, the last asked for last."""
        self.progress: Progress | None = None

    def answer(self, request: str, progress: Progress | None = None) -> str:
        """``request`` (JSON) answered in JSON; ``progress(done, total)`` is told how a long
        request (a review) goes."""
        self.progress = progress
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
        return catalogue(BotBudget(BOT_ITERATIONS, BOT_SECONDS))

    def seats(self, body: Mapping[str, Any]) -> Any:
        game, options = body.get("game"), body.get("options") or {}
        if not isinstance(game, str):
            raise BadRequest("game is a game's id")
        if not isinstance(options, dict):
            raise BadRequest("options is an object of option names and values")
        return titles_of(game, _count(body, "players", optional=True), options)

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

    def finished(self, body: Mapping[str, Any]) -> Any:
        text = body.get("record")
        if not isinstance(text, str):
            raise BadRequest("record is a kept game's record, as JSON text")
        try:
            data = json.loads(text)
        except ValueError as error:
            raise BadRequest(f"record is not JSON: {error}") from None
        table = finished_table(data, name="")
        if table.id not in self.held:
            self.held[table.id] = (table, checkpoints(table))
        self.held.move_to_end(table.id)
        while len(self.held) > FINISHED_KEPT:
            self.held.popitem(last=False)
        return self.held[table.id][0].summary(time.time())

    def replay(self, body: Mapping[str, Any]) -> Any:
        table, states = self._held(body)
        seat = body.get("seat", "all")
        if not isinstance(seat, str | int) or isinstance(seat, bool):
            raise BadRequest("seat is a seat's number, spectator or all")
        return replay_step(
            table, _count(body, "step", optional=True), str(seat), lambda _table: states
        )

    def review(self, body: Mapping[str, Any]) -> Any:
        table, _states = self._held(body)
        review = review_record(
            table.record(),
            budget=Budget(REVIEW_ITERATIONS),
            seed=REVIEW_SEED,
            workers=1,
            progress=self.progress,
        )
        # As the server's review job answers once it is done.
        return {
            "table": table.id,
            "status": "done",
            "done": 0,
            "total": 0,
            "budget": {"iterations": REVIEW_ITERATIONS},
            "review": review.to_dict(),
        }

    def _held(self, body: Mapping[str, Any]) -> tuple[Table, list[State]]:
        named = body.get("table")
        held = self.held.get(named) if isinstance(named, str) else None
        if held is None:
            raise TableError(404, f"no kept game {named!r} is held: send its record first")
        return held

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
