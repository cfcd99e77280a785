"""The games: the catalogue (players, options, bots) and each game's rules."""

from __future__ import annotations

from functools import cache
from typing import cast

from fastapi import APIRouter

from ...agents.registry import describe_game
from ...core.registry import game_class, games
from ..documents import rules_document
from ..model import TableError
from ..protocol import GameInfo, Rules
from .base import answers

router = APIRouter(prefix="/api/games", tags=["games"])


@cache
def catalogue() -> list[GameInfo]:
    """Every game's entry; the terminal's ``human`` is no bot here: a person takes a seat by
    joining it."""
    return [
        cast(
            GameInfo,
            {**entry, "bots": [bot for bot in entry["bots"] if bot["name"] != "human"]},
        )
        for entry in (describe_game(info) for info in games())
    ]


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
        "rules": game_class(game_id).info.rules,
        "document": rules_document(info["id"]),
    }
