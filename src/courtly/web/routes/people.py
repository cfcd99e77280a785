"""People's public pages: a person's profile and a game's leaderboard."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query
from starlette.concurrency import run_in_threadpool

from ..deps import ServerDep
from ..protocol import Leaderboard, Profile
from .base import answers

router = APIRouter(prefix="/api", tags=["people"])


@router.get(
    "/people/{name}",
    summary="A person's profile: games played and won, recent games, ratings and their "
    "history, review figures",
    **answers(Profile),
)
async def profile(name: Annotated[str, Path(max_length=64)], server: ServerDep) -> Profile:
    return await run_in_threadpool(server.profiles.profile, name)


@router.get(
    "/leaderboards/{game}",
    summary="A game's best rated people (a pool per player count; 0: every count)",
    **answers(Leaderboard),
)
async def leaderboard(
    game: Annotated[str, Path(max_length=64)],
    server: ServerDep,
    players: Annotated[int, Query(ge=0, le=16, description="0: every player count")] = 0,
) -> Leaderboard:
    return await run_in_threadpool(server.profiles.leaderboard, game, players)
