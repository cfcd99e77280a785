"""The registry of games: ``courtly.games()`` lists them, ``courtly.make(id, ...)`` builds one."""

from __future__ import annotations

from typing import Any

from .errors import InvalidOptions
from .game import Game, GameInfo
from .options import describe_options

_GAMES: dict[str, type[Game]] = {}


def register(game_class: type[Game]) -> type[Game]:
    """Register a game class under ``game_class.info.id`` (usable as a class decorator)."""
    game_id = game_class.info.id
    if game_id in _GAMES and _GAMES[game_id] is not game_class:
        raise ValueError(f"a different game is already registered as {game_id!r}")
    _GAMES[game_id] = game_class
    return game_class


def unregister(game_id: str) -> None:
    """Remove a game (tests register throwaway games and remove them again)."""
    _GAMES.pop(game_id, None)


def games() -> list[GameInfo]:
    """Every registered game's facts, in registration order."""
    return [game_class.info for game_class in _GAMES.values()]


def game_ids() -> list[str]:
    return list(_GAMES)


def game_class(game_id: str) -> type[Game]:
    key = game_id.strip().lower().replace("_", "-")
    found = _GAMES.get(key)
    if found is None:
        raise InvalidOptions(f"unknown game {game_id!r}; games are: {', '.join(_GAMES)}")
    return found


def make(game_id: str, players: int | None = None, **options: object) -> Game:
    """The game ``game_id`` for ``players`` seats with ``options`` (checked; defaults for the rest)."""
    return game_class(game_id)(players, **options)


def describe(game: type[Game]) -> dict[str, Any]:
    """A game's facts as JSON (``courtly games --json``, the server's catalogue): players,
    options, and the longest game with the default options at each player count (None when the
    game declares none)."""
    info = game.info
    return {
        "id": info.id,
        "title": info.title,
        "players": list(info.player_counts),
        "official_players": list(info.official_players or info.player_counts),
        "default_players": info.default_players,
        "summary": info.summary,
        "simultaneous": info.simultaneous,
        "hidden_information": info.hidden_information,
        "teams": info.teams,
        "options": describe_options(info.options),
        "agents": sorted(bot.name for bot in info.bots),
        "default_bot": info.default_bot,
        "longest_game": _longest_games(game),
        "recommended": [
            {
                "players": players,
                "options": dict(variant.options),
                "name": variant.name,
                "reason": variant.reason,
            }
            for players, variant in sorted(info.recommended.items())
        ],
    }


def _longest_games(game: type[Game]) -> list[dict[str, int]] | None:
    if game.info.longest_game is None:
        return None
    found = []
    for players in game.info.player_counts:
        bound = game(players).longest_game()
        found.append(
            {
                "players": players,
                "decisions": bound.decisions,
                "chance": bound.chance,
                "events": bound.events,
            }
        )
    return found
