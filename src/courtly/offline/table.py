"""One table played on this device alone: people in hot seat and bots, no clocks, no storage.

Everything a seat is shown and every move checked goes through the server's own code
(:func:`courtly.web.seat_messages.seat_message`, :func:`courtly.web.playing.play`), so a table
here deals, refuses, narrates and ends exactly as a server's table with the same seed would.
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Mapping, Sequence
from typing import Any, Final, cast

from ..agents.estimates import Budget, jobs_for, merged, run_copy
from ..core.deals import new_salt, new_seed, resolve_chance
from ..core.errors import InvalidOptions
from ..core.records import MatchRecord
from ..core.registry import make
from ..web.budgets import BotBudget
from ..web.messages import ActionEstimate, Hint, MoveAnswer, SeatMessage
from ..web.messages import Budget as BudgetShape
from ..web.model import Clock, Table, TableError
from ..web.playing import (
    check_seat_index,
    choose,
    earlier_answer,
    play,
    seat_of,
    settle,
    to_move_history,
)
from ..web.seat_messages import hint_view, seat_message

BOT_ITERATIONS: Final = 500
"""The most a search bot thinks per move here: its default. Pyodide runs the engine several
times slower than CPython, so a bot asked to think longer is held to what a page can wait for."""
BOT_SECONDS: Final = 3.0
HINT_ITERATIONS: Final = 400
"""A hint's search here: a fifth of the server's, for an answer within a second or two."""


class OfflineTable:
    """A table of ``game_id`` (``players``, ``options``) with ``seats`` as a server's table
    request gives them (``{"kind": "person"}`` or ``{"kind": "bot", "bot": ..., "options":
    ...}``). Every person's seat is played on this device. Bad input raises a
    :class:`TableError` and makes no table."""

    def __init__(
        self,
        game_id: str,
        players: int | None,
        options: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]],
        seed: int | None = None,
        hints: bool = True,
    ) -> None:
        if not isinstance(options, Mapping):
            raise TableError(400, "options must be an object")
        if not isinstance(seats, Sequence) or not all(isinstance(s, Mapping) for s in seats):
            raise TableError(400, "seats must be a list of objects")
        try:
            game = make(game_id, players=players, **options)
        except InvalidOptions as error:
            raise TableError(400, str(error)) from None
        if len(seats) != game.num_players:
            raise TableError(
                400,
                f"{game.id} with {game.num_players} players needs {game.num_players} seats, "
                f"got {len(seats)}",
            )
        table_seats = [seat_of(game, index, spec) for index, spec in enumerate(seats)]
        budget = BotBudget(BOT_ITERATIONS, BOT_SECONDS)
        for chair in table_seats:
            if chair.kind == "bot" and chair.bot is not None:
                chair.bot = budget.capped(chair.bot, game)
            else:
                # Every person's seat is this device's, taken from the start; no token is
                # ever asked for, but a seat is taken by its token's hash.
                chair.token_hash = hashlib.sha256(secrets.token_bytes(16)).hexdigest()
        self.table = Table(
            id="offline-" + secrets.token_hex(8),
            game=game,
            mode="turn-based",
            clock=Clock(),
            seed=new_seed() if seed is None else seed,
            seats=table_seats,
            state=game.new_state(),
            hints=hints,
            created_at=time.time(),
            seed_chosen=seed is not None,
            seed_salt=new_salt(),
        )
        resolve_chance(self.table.state, self.table.seed)
        self.table.to_move_at = to_move_history(self.table.state)
        self.table.status = "over" if self.table.state.is_terminal else "playing"
        # Kept as moves are played: every message after every move reads it.
        self.table.told()

    def message(self, seat: int | None, since: int = 0) -> SeatMessage:
        """What ``seat`` (None: a spectator) is shown, its log from ``since`` on."""
        if seat is not None:
            check_seat_index(self.table, seat)
        return seat_message(self.table, seat, max(0, since), time.time())

    def move(self, seat: int, action: object, version: int) -> MoveAnswer:
        """A person's move, chosen at ``version``; a retry of it gets the same answer."""
        check_seat_index(self.table, seat)
        earlier = earlier_answer(self.table, seat, action, version)
        if earlier is not None:
            return earlier.to_dict(self.table.id)
        played = play(self.table, seat, action, version, by_bot=False)
        settle(self.table, seat, version, played)
        return played.answer.to_dict(self.table.id)

    def bots_to_move(self) -> list[int]:
        """The bot seats to move now (none once the game is over)."""
        table = self.table
        if table.status != "playing":
            return []
        return [seat for seat in table.state.to_move if table.seats[seat].played_by_bot]

    def bot_move(self) -> MoveAnswer | None:
        """One move of the first bot to move, chosen from its view alone and seeded as a
        server's bot is (the table's seed, the seat, the version); None if no bot is to move."""
        waiting = self.bots_to_move()
        if not waiting:
            return None
        table = self.table
        seat, version = waiting[0], table.version
        spec = table.seats[seat].bot
        assert spec is not None
        choice = choose(spec, table.state.view(seat), f"{table.seed}/{seat}/{version}")
        played = play(table, seat, choice, version, by_bot=True)
        settle(table, seat, version, played)
        return played.answer.to_dict(table.id)

    def hint(self, seat: int, version: int, iterations: int = HINT_ITERATIONS) -> Hint:
        """Every legal action of ``seat`` at ``version`` with its estimated win chance, best
        first, searched from the seat's view alone, as the server's hint is (seeded by the
        position: the same position, the same hint) within a smaller budget."""
        check_seat_index(self.table, seat)
        view = hint_view(self.table, seat, version)
        budget = Budget(iterations)
        found = merged(view, [run_copy(job) for job in jobs_for(view, budget, seed=view.version)])
        return {
            "table": self.table.id,
            "seat": seat,
            "version": version,
            "budget": cast(BudgetShape, budget.describe()),
            "actions": [cast(ActionEstimate, a.to_dict()) for a in found.actions],
        }

    def record(self) -> MatchRecord:
        """The finished game's record, seed and deal revealed: what ``courtly replay`` reads.
        Refused (409) while the game is on: it would reveal every card."""
        if self.table.status != "over":
            raise TableError(
                409, "the record of a table is public once the game is over, and it is not"
            )
        return self.table.record()
