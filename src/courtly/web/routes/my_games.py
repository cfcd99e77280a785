"""My games: the signed-in person's tables, their turn first; a game they played offline, kept."""

from __future__ import annotations

import time
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query
from starlette.concurrency import run_in_threadpool

from ..deps import Person, ServerDep
from ..messages import TableSummary
from ..protocol import MyGames
from ..uploads import OFFLINE_GAMES, keep, offline_table
from .base import answers

router = APIRouter(prefix="/api/account", tags=["account"])


@router.get(
    "/tables",
    summary="My games: your turn first, then in play, open, and the last finished (401: sign "
    "in first)",
    **answers(MyGames),
)
async def my_games(
    person: Person,
    server: ServerDep,
    finished: Annotated[
        int, Query(ge=0, le=1000, description="finished tables to list, the last ones")
    ] = 20,
) -> MyGames:
    return await run_in_threadpool(server.profiles.my_games, person.id, finished)


@router.post(
    OFFLINE_GAMES.removeprefix(router.prefix),
    summary="Keep a game played offline in the browser: its record checked completely, stored "
    "as a finished casual table of yours (401: sign in first; 409: uploaded already; 422: the "
    "record does not prove itself)",
    **answers(TableSummary, 201),
)
async def upload_offline_game(
    person: Person,
    server: ServerDep,
    record: Annotated[
        dict[str, Any],
        Body(description="the record the browser kept (format courtly-game/1, with its deal)"),
    ],
) -> TableSummary:
    def kept() -> TableSummary:
        table = offline_table(record, person.id, person.name)
        keep(server.storage, table)
        # The places are kept now, so My games and the profile list the game with them; a
        # casual table moves no rating.
        server.ratings.settle(table.id)
        return table.summary(time.time())

    return await run_in_threadpool(kept)
