"""A table's seats: joined, left, taken back from the bot, and played again (a rematch)."""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import APIRouter, Query

from ..deps import ServerDep, SignedIn, Token
from ..protocol import JoinSeat, SeatToken, TableSummary
from .base import answers

router = APIRouter(prefix="/api/tables/{table_id}", tags=["seats"])


@router.post(
    "/seats/{seat}/join",
    summary="Take a free seat: returns its secret token, shown only once",
    **answers(SeatToken),
)
def join(
    table_id: str,
    seat: int,
    server: ServerDep,
    account: SignedIn,
    request: JoinSeat | None = None,
) -> SeatToken:
    server.ratings.check_join(table_id, None if account is None else account.id)
    token, _table = server.tables.seats.join(table_id, seat, request.name if request else "")
    return {"table": table_id, "seat": seat, "token": token}


@router.post("/seats/{seat}/leave", summary="Leave a seat", **answers(TableSummary))
def leave(table_id: str, seat: int, token: Token, server: ServerDep) -> TableSummary:
    return server.tables.seats.leave(table_id, seat, token).summary(time.time())


@router.post(
    "/seats/{seat}/reclaim",
    summary="Take back a seat a bot played while you were away",
    **answers(TableSummary),
)
def reclaim(table_id: str, seat: int, token: Token, server: ServerDep) -> TableSummary:
    return server.tables.seats.reclaim(table_id, seat, token).summary(time.time())


@router.post("/rematch", tags=["tables"], summary="Play again, same seats", **answers(TableSummary))
def rematch(
    table_id: str, token: Token, server: ServerDep, seat: Annotated[int, Query(ge=0, le=15)]
) -> TableSummary:
    return server.tables.seats.rematch(table_id, seat, token).summary(time.time())
