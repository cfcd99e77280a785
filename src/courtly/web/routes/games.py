"""The games: the catalogue (players, options, bots), what each seat is at a player count and
options, and each game's rules."""

from __future__ import annotations

from fastapi import APIRouter

from ...core.registry import game_class
from ..catalogue import catalogue, find_game, titles_of
from ..deps import ServerDep
from ..documents import rules_document
from ..messages import GameInfo, SeatTitles
from ..protocol import Rules, SetupRequest
from .base import answers

router = APIRouter(prefix="/api/games", tags=["games"])


@router.get("", summary="Every game: players, options, bots", **answers(list[GameInfo]))
def list_games(server: ServerDep) -> list[GameInfo]:
    return catalogue(server.bot_budget)


@router.get("/{game_id}", summary="One game's facts, options, bots", **answers(GameInfo))
def one_game(game_id: str, server: ServerDep) -> GameInfo:
    return find_game(game_id, server.bot_budget)


@router.post(
    "/{game_id}/seats",
    summary="What each seat is at a player count and options (the options checked)",
    **answers(SeatTitles),
)
def game_seats(game_id: str, request: SetupRequest) -> SeatTitles:
    """Each seat's title (``Ostrogoth King``) for the form that creates a table; the player
    count and options are checked as creating the table would check them (400 says why)."""
    return titles_of(game_id, request.players, request.options)


@router.get(
    "/{game_id}/rules",
    summary="A game's rules: its summary (as `courtly rules`) and its full rules document",
    **answers(Rules),
)
def game_rules(game_id: str) -> Rules:
    info = find_game(game_id)  # a registered id, or 404: only then does it name a file
    return {
        "game": info["id"],
        "title": info["title"],
        "rules": game_class(game_id).info.rules_text(),
        "document": rules_document(info["id"]),
    }
