"""A table's seats: joined, left, taken back from the bot, and played again (a rematch); the
seats a signed-in person holds at a table."""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import APIRouter, Query

from ..deps import SeatCredential, ServerDep, SignedIn
from ..messages import TableSummary
from ..protocol import JoinSeat, MySeats, SeatToken
from ..tables.access import SignedInPerson
from .base import answers

router = APIRouter(prefix="/api/tables/{table_id}", tags=["seats"])


@router.post(
    "/seats/{seat}/join",
    summary="Take a free seat: returns its secret token, shown only once (signed in: the seat "
    "is yours, under your name)",
    **answers(SeatToken),
)
def join(
    table_id: str, seat: int, server: ServerDep, account: SignedIn, request: JoinSeat | None = None
) -> SeatToken:
    name = request.name if request else ""
    hot_seat = request.hot_seat if request else False
    person = None
    if account is not None:
        # The account's name, but at hot seat, where the people of one device each name theirs.
        person = SignedInPerson(account.id)
        name = (name if hot_seat else "") or account.name
    token, table = server.tables.seats.join(
        table_id, seat, name, person, hot_seat, may_take=server.invitations.hold(account, seat)
    )
    server.chat.joined(table, hot_seat)
    return {"table": table_id, "seat": seat, "token": token}


@router.get(
    "/seats/mine",
    summary="The seats of this table that are the signed-in person's (none for a guest)",
    **answers(MySeats),
)
def my_seats(table_id: str, server: ServerDep, account: SignedIn) -> MySeats:
    if account is None:
        server.tables.cache.get(table_id)  # 404 for a table that is not
        return {"table": table_id, "seats": []}
    return {
        "table": table_id,
        "seats": server.tables.seats.of_person(table_id, SignedInPerson(account.id)),
    }


@router.post("/seats/{seat}/leave", summary="Leave a seat", **answers(TableSummary))
def leave(table_id: str, seat: int, token: SeatCredential, server: ServerDep) -> TableSummary:
    return server.tables.seats.leave(table_id, seat, token).summary(time.time())


@router.post(
    "/seats/{seat}/reclaim",
    summary="Take back a seat a bot played while you were away",
    **answers(TableSummary),
)
def reclaim(table_id: str, seat: int, token: SeatCredential, server: ServerDep) -> TableSummary:
    return server.tables.seats.reclaim(table_id, seat, token).summary(time.time())


@router.post("/rematch", tags=["tables"], summary="Play again, same seats", **answers(TableSummary))
def rematch(
    table_id: str,
    token: SeatCredential,
    server: ServerDep,
    seat: Annotated[int, Query(ge=0, le=15)],
) -> TableSummary:
    return server.tables.seats.rematch(table_id, seat, token).summary(time.time())
