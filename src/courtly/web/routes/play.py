"""Play over REST: a seat's view, and its moves (a WebSocket does both too: :mod:`.socket`)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from ..deps import SeatCredential, ServerDep
from ..messages import MoveAnswer, SeatMessage
from ..protocol import MAX_COUNT, MoveRequest
from .base import answers

router = APIRouter(prefix="/api/tables/{table_id}", tags=["play"])


@router.get(
    "/view",
    summary="What a seat (with its token) or a spectator (no seat) sees now",
    openapi_extra={"security": [{}]},  # added to the bearer's: a spectator needs no token
    **answers(SeatMessage),
)
def view(
    table_id: str,
    token: SeatCredential,
    server: ServerDep,
    seat: Annotated[int | None, Query(ge=0, le=15)] = None,
    since: Annotated[int, Query(ge=0, le=MAX_COUNT, description="log events already held")] = 0,
) -> SeatMessage:
    return server.tables.views.message(table_id, seat, token, since)


@router.post("/moves", summary="Make a move", **answers(MoveAnswer))
def move(
    table_id: str, request: MoveRequest, token: SeatCredential, server: ServerDep
) -> MoveAnswer:
    answer = server.tables.moves.submit(
        table_id, request.seat, request.action, request.version, token
    )
    return answer.to_dict(table_id)
