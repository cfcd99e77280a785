"""The games: the catalogue (players, options, bots), what each seat is at a player count and
options, and each game's rules."""

from __future__ import annotations

from functools import cache
from typing import Any, cast

from fastapi import APIRouter

from ...agents.registry import describe_game
from ...core.errors import InvalidOptions
from ...core.registry import game_class, games, make
from ..documents import rules_document
from ..model import TableError, seat_titles
from ..protocol import GameInfo, Rules, SeatTitles, SetupRequest
from .base import answers

router = APIRouter(prefix="/api/games", tags=["games"])


@cache
def catalogue() -> list[GameInfo]:
    """Every game's entry; the terminal's ``human`` is no bot here: a person takes a seat by
    joining it. A text option that names its values lists them as ``choices`` (in the order of
    its ``choice_labels``), so a form offers them without reading the ``allowed`` sentence."""
    entries = []
    for info in games():
        entry = describe_game(info)
        choices = {option.name: option.choices for option in info.options if option.choices}
        entry["options"] = [_with_choices(option, choices) for option in entry["options"]]
        entry["bots"] = [bot for bot in entry["bots"] if bot["name"] != "human"]
        entry["tutorial"] = info.tutorial is not None
        entries.append(cast(GameInfo, entry))
    return entries


def _with_choices(option: dict[str, Any], choices: dict[str, tuple[str, ...]]) -> dict[str, Any]:
    named = choices.get(option["name"])
    return {**option, "choices": list(named)} if named else option


@router.get("", summary="Every game: players, options, bots", **answers(list[GameInfo]))
def list_games() -> list[GameInfo]:
    return catalogue()


@router.get("/{game_id}", summary="One game's facts, options, bots", **answers(GameInfo))
def one_game(game_id: str) -> GameInfo:
    for entry in catalogue():
        if entry["id"] == game_id:
            return entry
    known = ", ".join(entry["id"] for entry in catalogue())
    raise TableError(404, f"unknown game {game_id!r}; the games are: {known}")


@router.post(
    "/{game_id}/seats",
    summary="What each seat is at a player count and options (the options checked)",
    **answers(SeatTitles),
)
def game_seats(game_id: str, request: SetupRequest) -> SeatTitles:
    """Each seat's title (``Ostrogoth King``) for the form that creates a table; the player
    count and options are checked as creating the table would check them (400 says why)."""
    info = one_game(game_id)
    try:
        game = make(info["id"], players=request.players, **request.options)
    except InvalidOptions as error:
        raise TableError(400, str(error)) from None
    return {"game": game.id, "players": game.num_players, "titles": seat_titles(game)}


@router.get(
    "/{game_id}/rules",
    summary="A game's rules: its summary (as `courtly rules`) and its full rules document",
    **answers(Rules),
)
def game_rules(game_id: str) -> Rules:
    info = one_game(game_id)  # a registered id, or 404: only then does it name a file
    return {
        "game": info["id"],
        "title": info["title"],
        "rules": game_class(game_id).info.rules_text(),
        "document": rules_document(info["id"]),
    }
