"""The API's routes, one module per resource; the shared dependencies are in
:mod:`courtly.web.deps`, the bodies and messages in :mod:`courtly.web.protocol`."""

from __future__ import annotations

from fastapi import APIRouter

from . import (
    account,
    admin,
    advice,
    chat,
    email,
    games,
    invitations,
    my_games,
    passkeys,
    people,
    play,
    play_now,
    replays,
    seats,
    socket,
    tables,
    tutorials,
)

api = APIRouter()
for module in (
    games,
    tables,
    tutorials,
    seats,
    play,
    replays,
    advice,
    socket,
    account,
    admin,
    passkeys,
    chat,
    people,
    my_games,
    play_now,
    invitations,
    email,
):
    api.include_router(module.router)

__all__ = ["api"]
