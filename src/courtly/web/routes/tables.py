"""The tables: created, listed, read."""

from __future__ import annotations

import time
from typing import Annotated, Literal

from fastapi import APIRouter, Query

from ..deps import ServerDep
from ..messages import TableSummary
from ..protocol import CreateTable
from .base import answers

router = APIRouter(prefix="/api/tables", tags=["tables"])


@router.post("", summary="Create a table", **answers(TableSummary, 201))
def create_table(request: CreateTable, server: ServerDep) -> TableSummary:
    seats = [seat.model_dump() for seat in request.seats]
    server.bot_budget.check_request(request.game, request.players, request.options, seats)
    table = server.tables.seats.create(
        request.game,
        request.players,
        request.options,
        seats,
        request.mode,
        request.clock.model_dump(),
        request.seed,
        request.hints,
        rated=request.rated,
    )
    return table.summary(time.time())


@router.get("", summary="Tables to join or watch", **answers(list[TableSummary]))
def list_tables(
    server: ServerDep,
    status: Annotated[
        list[Literal["open", "playing", "over"]] | None, Query(description="default: open")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> list[TableSummary]:
    now = time.time()
    found = server.tables.cache.listing(status or ["open"], limit)
    return [table.summary(now) for table in found]


@router.get("/{table_id}", summary="A table's seats and status", **answers(TableSummary))
def get_table(table_id: str, server: ServerDep) -> TableSummary:
    return server.tables.cache.get(table_id).summary(time.time())
