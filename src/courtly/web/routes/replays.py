"""Finished games: the record (what ``courtly replay`` reads) and the replay step by step."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from ..deps import ServerDep
from ..messages import ReplayStep
from ..protocol import MAX_COUNT, GameRecord
from .base import answers

router = APIRouter(prefix="/api/tables/{table_id}", tags=["tables"])


@router.get(
    "/record",
    summary="A finished game's record (courtly replay reads it)",
    **answers(GameRecord),
)
def record(table_id: str, server: ServerDep) -> GameRecord:
    return server.tables.replays.record(table_id)


@router.get(
    "/replay",
    summary="A finished game as it stood at a step, from a seat's view or every seat's",
    **answers(ReplayStep),
)
def replay(
    table_id: str,
    server: ServerDep,
    step: Annotated[
        int | None, Query(ge=0, le=MAX_COUNT, description="events played (default: all of them)")
    ] = None,
    seat: Annotated[
        str, Query(max_length=16, description="a seat's number, spectator, or all")
    ] = "all",
) -> ReplayStep:
    return server.tables.replays.replay(table_id, step, seat)
