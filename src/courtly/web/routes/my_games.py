"""My games: the signed-in person's tables, their turn first."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from starlette.concurrency import run_in_threadpool

from ..deps import Person, ServerDep
from ..protocol import MyGames
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
