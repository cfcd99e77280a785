"""The games' catalogue: every game with its players, options (with their choices and bounds),
bots and variants, and what each seat is at a player count and options. Pydantic-free, so that
the server's routes (:mod:`courtly.web.routes.games`) and the browser's engine
(:mod:`courtly.offline`) answer the same entries.
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache
from typing import Any, cast

from ..agents.registry import bots_for, describe_game
from ..core.errors import InvalidOptions
from ..core.game import BotInfo, Game
from ..core.options import Option
from ..core.registry import game_class, games, make
from .budgets import SEARCHING_BOT, BotBudget
from .messages import GameInfo, OptionValue, SeatTitles
from .model import TableError, seat_titles

DEFAULT_BUDGET = BotBudget()


@cache
def catalogue(budget: BotBudget = DEFAULT_BUDGET) -> list[GameInfo]:
    """Every game's entry, with this server's caps on a search bot's budget; the terminal's
    ``human`` is no bot here: a person takes a seat by joining it. A text option that names its
    values lists them as ``choices`` (in the order of its ``choice_labels``), so a form offers
    them without reading the ``allowed`` sentence; a number option its bounds (``minimum``,
    ``maximum``), so that a form keeps to them."""
    entries = []
    for info in games():
        entry = describe_game(info)
        entry["options"] = _detailed(entry["options"], info.options)
        game = game_class(info.id)()
        declared = {bot.name: _taken(game, bot) for bot in bots_for(game) if bot.name != "human"}
        entry["bots"] = [
            {
                **bot,
                "options": _detailed(bot["options"], declared[bot["name"]], budget, bot["name"]),
            }
            for bot in entry["bots"]
            if bot["name"] in declared
        ]
        entry["tutorial"] = info.tutorial is not None
        entries.append(cast(GameInfo, entry))
    return entries


def _taken(game: Game, bot: BotInfo) -> tuple[Option, ...]:
    """``bot``'s options in ``game``, each text option's choices narrowed to those the bot
    takes in this game (a search bot's informed worlds need a game whose heuristic offers them)."""
    options = []
    for option in bot.options:
        if option.choices:
            taken = tuple(choice for choice in option.choices if _takes(game, bot, option, choice))
            labels = tuple(
                label
                for choice, label in zip(option.choices, option.choice_labels, strict=False)
                if choice in taken
            )  # (none, where the option labels no choice)
            option = replace(option, choices=taken, choice_labels=labels)
        options.append(option)
    return tuple(options)


def _takes(game: Game, bot: BotInfo, option: Option, choice: str) -> bool:
    try:
        bot.build(game, {option.name: choice})
    except InvalidOptions:
        return False
    return True


def _detailed(
    described: list[dict[str, Any]],
    declared: tuple[Option, ...],
    budget: BotBudget | None = None,
    bot: str = "",
) -> list[dict[str, Any]]:
    """The options as described, with their choices and bounds; a search bot's budget capped
    as this server caps it."""
    options = {option.name: option for option in declared}
    caps = budget.caps() if budget is not None and bot == SEARCHING_BOT else {}
    detailed = []
    for entry in described:
        option = options[entry["name"]]
        cap = caps.get(option.name)
        if cap is not None and (option.maximum is None or cap < option.maximum):
            option = replace(option, maximum=cap)
            entry = {**entry, "allowed": option.allowed()}
        if option.choices:
            entry = {**entry, "choices": list(option.choices), "allowed": option.allowed()}
            if option.choice_labels:
                entry["choice_labels"] = list(option.choice_labels)
        if option.kind in ("int", "float"):
            for bound in ("minimum", "maximum"):
                value = getattr(option, bound)
                if value is not None:
                    entry = {**entry, bound: int(value) if option.kind == "int" else value}
        detailed.append(entry)
    return detailed


def find_game(game_id: str, budget: BotBudget = DEFAULT_BUDGET) -> GameInfo:
    """The catalogue's entry of ``game_id``, or 404 naming the games."""
    for entry in catalogue(budget):
        if entry["id"] == game_id:
            return entry
    known = ", ".join(entry["id"] for entry in catalogue(budget))
    raise TableError(404, f"unknown game {game_id!r}; the games are: {known}")


def titles_of(game_id: str, players: int | None, options: dict[str, OptionValue]) -> SeatTitles:
    """Each seat's title (``Ostrogoth King``) for the form that creates a table; the player
    count and options are checked as creating the table would check them (400 says why)."""
    info = find_game(game_id)
    try:
        game = make(info["id"], players=players, **options)
    except InvalidOptions as error:
        raise TableError(400, str(error)) from None
    return {"game": game.id, "players": game.num_players, "titles": seat_titles(game)}
