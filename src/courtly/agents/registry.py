"""Agents by name, as seats are given everywhere: ``random``, ``heuristic``, ``human``,
``name:option=value:option=value``.

Every bot is a :class:`~courtly.core.game.BotInfo`, its options declared like game options and
checked with the same clear errors. Generic bots work for every game and are declared here; a
game's own bots (its ``heuristic``) are declared in its :class:`~courtly.core.game.GameInfo`
(``bots``). :func:`bots_for` lists them all for one game, in the order people meet them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..core.errors import InvalidOptions
from ..core.game import Agent, BotInfo, Game, GameInfo
from ..core.options import Option
from ..core.registry import describe, game_class
from .random_agent import RandomAgent


def _human(game: Game, **options: object) -> Agent:
    from .human import HumanAgent

    return HumanAgent(game, **options)  # type: ignore[arg-type]


def _ismcts(game: Game, **options: object) -> Agent:
    from .ismcts import ISMCTSAgent

    return ISMCTSAgent(game, **options)  # type: ignore[arg-type]


RANDOM = BotInfo("random", RandomAgent, "A uniformly random legal move: the baseline.")
HUMAN = BotInfo("human", _human, "You, at the terminal.")
ISMCTS_SUMMARY = (
    "Tree search over what the seat may know; it starts from the game's heuristic move and "
    "leaves it on evidence."
)
GENERIC_BOTS = ("random", "ismcts", "human")
SERVER_BOT_MAX_ITERATIONS: Final = 20_000
"""A server's default cap on a search bot's iterations per move (``courtly serve
--bot-max-iterations``): forty times the bot's default, seconds a move on one core."""
SERVER_BOT_MAX_SECONDS: Final = 5.0
"""A server's default cap on a search bot's seconds per move (``--bot-max-seconds``)."""


def ismcts_bot(game: Game) -> BotInfo:
    """``ismcts`` for ``game``: its options, with the defaults it takes in this game."""
    from .ismcts import default_options

    default = default_options(game)
    # The README's table, option by option; a default read from the game says so.
    options = (
        Option(
            "iterations",
            default["iterations"],
            "searches per move (the same seed and budget give the same move)",
            minimum=1,
        ),
        Option(
            "seconds",
            default["seconds"],
            "a time budget per move instead (0: count iterations)",
            minimum=0.0,
        ),
        Option(
            "c", default["c"], "the UCB exploration constant (returns lie in [0, 1])", minimum=0.0
        ),
        Option(
            "rollout",
            default["rollout"],
            "who plays the rollouts: the game's heuristic, or random moves",
            choices=("heuristic", "random"),
        ),
        Option(
            "depth",
            default["depth"],
            "rollout steps before the heuristic's evaluation scores the position (0: play to the "
            "end); random rollouts play to the end unless a depth is given",
            minimum=0,
        ),
        Option(
            "bias",
            default["bias"],
            "pull toward the heuristic's move at the root (0: plain UCB)",
            minimum=0.0,
        ),
        Option(
            "guard",
            default["guard"],
            "keep the heuristic's move unless another beats it by more than this many standard "
            "errors (0: off)",
            minimum=0.0,
        ),
        Option(
            "partner",
            default["partner"],
            "in a game of teams, teammates inside the search play the convention on their own "
            "view (heuristic) or are searched for like rivals (search)",
            choices=("heuristic", "search"),
        ),
        Option(
            "worlds",
            default["worlds"],
            "hidden things drawn by view.determinize (uniform) or weighed by the other seats' "
            "conventions (informed, where the game's heuristic offers it)",
            choices=("informed", "uniform"),
        ),
    )
    return BotInfo("ismcts", _ismcts, ISMCTS_SUMMARY, options)


def bots_for(game: Game) -> tuple[BotInfo, ...]:
    """Every bot that can take a seat of ``game``: ``random``, the game's own, ``ismcts``,
    ``human``."""
    return (RANDOM, *game.info.bots, ismcts_bot(game), HUMAN)


def describe_game(info: GameInfo) -> dict[str, Any]:
    """The game's entry of ``courtly games --json`` and the server's catalogue: its facts,
    options, and every bot that can take a seat with the bot's options (defaults as in this
    game)."""
    game = game_class(info.id)
    return {**describe(game), "bots": [bot.describe() for bot in bots_for(game())]}


def agent_names(game: Game) -> list[str]:
    """The agents that can take a seat of ``game``."""
    return sorted({*GENERIC_BOTS, *(bot.name for bot in game.info.bots)})


@dataclass(frozen=True)
class AgentSpec:
    """A parsed seat spec: ``heuristic`` or ``ismcts:iterations=2000``."""

    name: str
    options: dict[str, str] = field(default_factory=dict)

    @classmethod
    def parse(cls, text: str) -> AgentSpec:
        name, *parts = text.strip().split(":")
        options: dict[str, str] = {}
        for part in parts:
            key, sep, value = part.partition("=")
            if not sep or not key.strip():
                raise InvalidOptions(
                    f"agent option {part!r} in {text!r} must be written name=value"
                )
            options[key.strip()] = value.strip()
        if not name.strip():
            raise InvalidOptions("an empty agent name; write e.g. random, heuristic or human")
        return cls(name.strip().lower(), options)

    def __str__(self) -> str:
        return ":".join([self.name, *(f"{k}={v}" for k, v in self.options.items())])


def find_bot(name: str, game: Game) -> BotInfo:
    """The bot called ``name`` for ``game``; :class:`InvalidOptions` naming the choices."""
    for bot in game.info.bots:
        if bot.name == name:
            return bot
    if name == "random":
        return RANDOM
    if name == "human":
        return HUMAN
    if name == "ismcts":
        return ismcts_bot(game)
    raise InvalidOptions(
        f"unknown agent {name!r}; agents for {game.id} are: {', '.join(agent_names(game))}"
    )


def make_agent(spec: str | AgentSpec, game: Game) -> Agent:
    """The agent named by ``spec`` for ``game``, its options checked like game options:
    :class:`InvalidOptions` names the agents, a bot's options or an option's allowed values."""
    parsed = spec if isinstance(spec, AgentSpec) else AgentSpec.parse(spec)
    return find_bot(parsed.name, game).build(game, parsed.options)


def parse_seats(text: str | Sequence[str]) -> list[str]:
    """``"human,heuristic,random"`` as a list of seat specs."""
    parts = text.split(",") if isinstance(text, str) else list(text)
    seats = [part.strip() for part in parts]
    if not seats or any(not s for s in seats):
        raise InvalidOptions(
            "seats must be a comma-separated list of agents, e.g. human,heuristic,random"
        )
    return seats
