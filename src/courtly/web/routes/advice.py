"""Advice: a hint for the seat to move, and the review of a finished game."""

from __future__ import annotations

from fastapi import APIRouter

from ..deps import SeatCredential, ServerDep
from ..messages import Hint
from ..protocol import HintRequest, ReviewJob
from .base import answers

router = APIRouter(prefix="/api/tables/{table_id}")


@router.post(
    "/hint",
    tags=["play"],
    summary="The seat's moves by estimated win chance, best first, from its view alone",
    **answers(Hint),
)
async def hint(
    table_id: str, request: HintRequest, token: SeatCredential, server: ServerDep
) -> Hint:
    return await server.advisor.hint(table_id, request.seat, token, request.version)


@router.post(
    "/review",
    tags=["tables"],
    summary="Start reviewing a finished game (every seat); GET it to follow the review",
    **answers(ReviewJob, 202),
)
def start_review(table_id: str, server: ServerDep) -> ReviewJob:
    return server.advisor.start_review(table_id)


@router.get(
    "/review",
    tags=["tables"],
    summary="A finished game's review: where it stands, and every figure once done",
    **answers(ReviewJob),
)
def review(table_id: str, server: ServerDep) -> ReviewJob:
    return server.advisor.review(table_id)
