"""The most a bot of this server may think per move: the operator's caps (``courtly serve
--bot-max-iterations``, ``--bot-max-seconds``), a table's bot seats checked against them, and a
stored bot's budget held to them.

Only a searching bot (``ismcts``) costs more than a fraction of a millisecond a move; its cost
is its ``iterations``, or its ``seconds`` when they are given. A table whose bot would think
beyond a cap is refused, naming the cap; a table stored before the caps were lowered has its
bots think within them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from ..agents.registry import (
    SERVER_BOT_MAX_ITERATIONS,
    SERVER_BOT_MAX_SECONDS,
    AgentSpec,
    find_bot,
)
from ..core.errors import InvalidOptions
from ..core.game import Game
from ..core.options import OptionValue
from ..core.registry import make
from .model import TableError

BOT_MAX_ITERATIONS: Final = SERVER_BOT_MAX_ITERATIONS
BOT_MAX_SECONDS: Final = SERVER_BOT_MAX_SECONDS
SEARCHING_BOT: Final = "ismcts"


@dataclass(frozen=True)
class BotBudget:
    """The most a search bot may spend on one move: ``iterations``, or ``seconds`` for a bot
    given a time budget."""

    iterations: int = BOT_MAX_ITERATIONS
    seconds: float = BOT_MAX_SECONDS

    def __post_init__(self) -> None:
        if self.iterations < 1 or not self.seconds > 0:
            raise InvalidOptions(
                "a bot's budget per move is at least 1 iteration and more than 0 seconds"
            )

    def caps(self) -> dict[str, float]:
        """The capped options of the search bot, and their caps."""
        return {"iterations": self.iterations, "seconds": self.seconds}

    def check_seats(self, game: Game, seats: Sequence[Mapping[str, Any]]) -> None:
        """:class:`TableError` (400) naming the cap, for the first bot seat of ``seats`` (a
        table's request) that would think beyond it; other problems are left to the table's
        own checks."""
        for index, seat in enumerate(seats):
            if seat.get("kind") != "bot" or str(seat.get("bot") or "") != SEARCHING_BOT:
                continue
            options = seat.get("options") or {}
            over = self._over(game, options) if isinstance(options, Mapping) else None
            if over is not None:
                name, value, cap = over
                raise TableError(
                    400,
                    f"seat {index}: {SEARCHING_BOT} {name} may be at most {_number(cap)} on "
                    f"this server, not {_number(value)}",
                )

    def check_request(
        self,
        game_id: str,
        players: int | None,
        options: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]],
    ) -> None:
        """:meth:`check_seats` for a request to create a table (a game or options that cannot
        be made are left to the table's own refusal)."""
        try:
            game = make(game_id, players=players, **options)
        except InvalidOptions:
            return
        self.check_seats(game, seats)

    def capped(self, spec: str, game: Game) -> str:
        """The bot ``spec`` of a stored table, its budget held to the caps (a table made
        before they were lowered thinks no longer than a new one may)."""
        parsed = AgentSpec.parse(spec)
        if parsed.name != SEARCHING_BOT or self._over(game, parsed.options) is None:
            return spec
        options = dict(parsed.options)
        for name, cap in self.caps().items():
            value = self._value(game, name, options)
            if value is not None and value > cap:
                options[name] = _number(cap)
        return str(AgentSpec(parsed.name, options))

    def _over(self, game: Game, options: Mapping[str, object]) -> tuple[str, float, float] | None:
        """The first capped option above its cap (its name, value and cap), given or default."""
        for name, cap in self.caps().items():
            value = self._value(game, name, options)
            if value is not None and value > cap:
                return name, value, cap
        return None

    @staticmethod
    def _value(game: Game, name: str, options: Mapping[str, object]) -> float | None:
        """The search bot's option ``name`` as it would play (the default where not given);
        None for a value its own check refuses, or one that does not count (iterations, when
        the bot has a time budget)."""
        bot = find_bot(SEARCHING_BOT, game)
        declared = {option.name: option for option in bot.options}
        try:
            values: dict[str, OptionValue] = {
                key: declared[key].coerce(bot.name, options.get(key, default))
                for key, default in (
                    ("iterations", declared["iterations"].default),
                    ("seconds", declared["seconds"].default),
                )
            }
        except InvalidOptions:
            return None
        if name == "iterations" and float(values["seconds"]) > 0:
            return None  # a time budget: the iterations are not counted
        return float(values[name])


def _number(value: float) -> str:
    """``value`` in words: 20000, 2.5 (never 2e+04)."""
    return str(int(value)) if float(value).is_integer() else repr(float(value))
