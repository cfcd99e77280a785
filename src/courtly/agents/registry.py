"""Agents by name, as seats are given everywhere: ``random``, ``heuristic``, ``human``,
``name:option=value:option=value``.

Generic agents work for every game; a game's own bots (its ``heuristic``) are declared in its
:class:`~courtly.core.game.GameInfo` and found here by name.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..core.agent import Agent
from ..core.errors import InvalidOptions
from ..core.game import Game
from .random_agent import RandomAgent

AgentFactory = Callable[..., Agent]


def _human(game: Game, **options: object) -> Agent:
    from .human import HumanAgent

    return HumanAgent(game, **options)  # type: ignore[arg-type]


def _ismcts(game: Game, **options: object) -> Agent:
    from .ismcts import ISMCTSAgent

    return ISMCTSAgent(game, **options)  # type: ignore[arg-type]


GENERIC_AGENTS: dict[str, AgentFactory] = {
    "random": RandomAgent,
    "human": _human,
    "ismcts": _ismcts,
}


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
            if not sep or not key:
                raise InvalidOptions(
                    f"agent option {part!r} in {text!r} must be written name=value"
                )
            options[key.strip()] = value.strip()
        if not name:
            raise InvalidOptions("an empty agent name; write e.g. random, heuristic or human")
        return cls(name.strip().lower(), options)

    def __str__(self) -> str:
        return ":".join([self.name, *(f"{k}={v}" for k, v in self.options.items())])


def agent_names(game: Game) -> list[str]:
    """The agents that can take a seat of ``game``."""
    return sorted(set(GENERIC_AGENTS) | set(game.info.agents))


def make_agent(spec: str | AgentSpec, game: Game) -> Agent:
    """The agent named by ``spec`` for ``game``; :class:`InvalidOptions` naming the choices."""
    parsed = spec if isinstance(spec, AgentSpec) else AgentSpec.parse(spec)
    factory = game.info.agents.get(parsed.name) or GENERIC_AGENTS.get(parsed.name)
    if factory is None:
        raise InvalidOptions(
            f"unknown agent {parsed.name!r}; agents for {game.id} are: {', '.join(agent_names(game))}"
        )
    try:
        return factory(game, **_coerce(parsed.options))
    except TypeError as error:
        raise InvalidOptions(f"agent {parsed}: bad options ({error})") from None


def parse_seats(text: str | Sequence[str]) -> list[str]:
    """``"human,heuristic,random"`` as a list of seat specs."""
    parts = text.split(",") if isinstance(text, str) else list(text)
    seats = [part.strip() for part in parts]
    if not seats or any(not s for s in seats):
        raise InvalidOptions(
            "seats must be a comma-separated list of agents, e.g. human,heuristic,random"
        )
    return seats


def _coerce(options: dict[str, str]) -> dict[str, object]:
    result: dict[str, object] = {}
    for key, value in options.items():
        parsed: object = value
        for kind in (int, float):  # the rest stays text
            try:
                parsed = kind(value)
                break
            except ValueError:
                continue
        result[key] = parsed
    return result
