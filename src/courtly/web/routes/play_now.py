"""Play now: wait in the queue for a table of a game, keep the place with heartbeats, leave it,
and see how many wait for what."""

from __future__ import annotations

from fastapi import APIRouter

from ..deps import ServerDep, SignedIn, Token
from ..model import TableError
from ..protocol import PlayNowRequest, PlayNowStatus, PlayNowTicket, PlayNowWaiting
from .base import answers

router = APIRouter(prefix="/api/play-now", tags=["play now"])


def _ticket(token: str | None) -> str:
    if not token:
        raise TableError(401, "send the ticket Play now gave you as Authorization: Bearer")
    return token


@router.post(
    "",
    summary="Wait for a table of a game: returns a ticket, shown once, that becomes your seat's "
    "token",
    **answers(PlayNowTicket, 201),
)
def join(request: PlayNowRequest, server: ServerDep, account: SignedIn) -> PlayNowTicket:
    ticket = server.play_now.join(
        request.game,
        request.players,
        request.mode,
        request.rated,
        request.bots_after,
        request.name,
        None if account is None else (account.id, account.name),
    )
    # Whoever completes a table is seated at once, not at the next look of the timer.
    server.play_now.form(wait=True)
    if ticket["state"] == "waiting":
        ticket = {**ticket, **server.play_now.wait(ticket["ticket"])}
    return ticket


@router.post(
    "/wait",
    summary="Keep your place (every few seconds) and learn whether you are seated",
    **answers(PlayNowStatus),
)
def wait(token: Token, server: ServerDep) -> PlayNowStatus:
    return server.play_now.wait(_ticket(token))


@router.delete("", summary="Leave the queue", **answers(PlayNowStatus))
def leave(token: Token, server: ServerDep) -> PlayNowStatus:
    return server.play_now.leave(_ticket(token))


@router.get("/waiting", summary="How many wait for what", **answers(list[PlayNowWaiting]))
def waiting(server: ServerDep) -> list[PlayNowWaiting]:
    return server.play_now.waiting()
