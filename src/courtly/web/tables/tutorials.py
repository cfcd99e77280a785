"""Tutorial tables: a newcomer alone with the game's bots on its prepared deal, each of their
first decisions explained (:mod:`courtly.core.tutorial`).

A tutorial is the learner's own table: it is dealt from a chosen deck, so no other person may
ever sit at it (it is never listed, and nobody can join it), and hints are always on. The table
is marked as a tutorial in storage; the prepared deal and the lessons are worked out again from
the game's :class:`~courtly.core.tutorial.Tutorial` and the history, so a restart loses nothing.
"""

from __future__ import annotations

import secrets

from ...agents.registry import AgentSpec
from ...core.errors import InvalidOptions
from ...core.registry import game_class
from ..model import Table, TableError
from .access import hash_token
from .seats import Seats


class Tutorials:
    """The tutorial tables of a server."""

    def __init__(self, seats: Seats) -> None:
        self.seats = seats

    def start(self, game_id: str, name: str = "") -> tuple[str, Table]:
        """A new tutorial table of ``game_id`` with the learner seated: returns the learner's
        secret token (shown once) and the table. 404 for an unknown game, 400 for a game that
        teaches no tutorial."""
        try:
            info = game_class(game_id).info
        except InvalidOptions as error:
            raise TableError(404, str(error)) from None
        tutorial = info.tutorial
        if tutorial is None:
            raise TableError(400, f"{info.title} has no tutorial yet: create a table to play it")
        bots = iter(tutorial.opponents)
        seats = [
            {"kind": "person"} if seat == tutorial.learner else _bot_seat(next(bots))
            for seat in range(tutorial.players)
        ]
        token = secrets.token_urlsafe(32)

        def seat_learner(table: Table) -> None:
            table.tutorial = True
            learner = table.seats[tutorial.learner]
            learner.token_hash = hash_token(token)
            learner.name = str(name).strip()[:64] or "Learner"

        table = self.seats.create(
            info.id, tutorial.players, dict(tutorial.options), seats, prepare=seat_learner
        )
        return token, table


def _bot_seat(spec: str) -> dict[str, object]:
    agent = AgentSpec.parse(spec)
    return {"kind": "bot", "bot": agent.name, "options": agent.options}
