"""A table's chat: its lines read, a line said, a line hidden by an administrator (the logic is
:mod:`courtly.web.chat`; lines reach the pages on the table's WebSocket)."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query
from starlette.concurrency import run_in_threadpool

from ..deps import Person, SeatCredential, ServerDep, SignedIn
from ..protocol import (
    AdminAct,
    ChatChannel,
    ChatHistory,
    ChatLine,
    HideLine,
    Muted,
    MutedSenders,
    SayRequest,
)
from .admin import Admin
from .base import answers

router = APIRouter(tags=["chat"])


@router.get(
    "/api/tables/{table_id}/chat",
    summary="A channel's chat lines, the oldest first (anyone may read them, in the replay too)",
    **answers(ChatHistory),
)
async def history(
    table_id: str,
    server: ServerDep,
    channel: Annotated[ChatChannel, Query(description="players or spectators")] = "players",
) -> ChatHistory:
    return await run_in_threadpool(server.chat.history, table_id, channel)


@router.post(
    "/api/tables/{table_id}/chat",
    summary="Say a line: a seat (its token, or its signed-in person) in the players' channel, "
    "a signed-in spectator in the spectators' channel",
    **answers(ChatLine, 201),
)
async def say(
    table_id: str,
    request: SayRequest,
    credential: SeatCredential,
    account: SignedIn,
    server: ServerDep,
) -> ChatLine:
    return await run_in_threadpool(server.chat.say, table_id, request, credential, account)


@router.post(
    "/api/admin/chat/{line_id}/hide",
    summary="Hide a chat line: never sent again, taken off every page showing it (logged)",
    **answers(AdminAct),
)
async def hide(
    line_id: Annotated[int, Path(ge=1, le=2**62)],
    admin: Admin,
    server: ServerDep,
    body: HideLine | None = None,
) -> AdminAct:
    reason = body.reason if body else ""
    return await run_in_threadpool(server.chat.hide, admin, line_id, reason)


@router.get(
    "/api/account/muted",
    summary="The senders the signed-in person mutes in the chat (kept with the account)",
    **answers(MutedSenders),
)
async def muted(account: Person, server: ServerDep) -> MutedSenders:
    return {"muted": await run_in_threadpool(server.chat.muted, account.id)}


@router.put(
    "/api/account/muted",
    summary="Keep the senders the signed-in person mutes in the chat (the whole list)",
    **answers(MutedSenders),
)
async def set_muted(request: Muted, account: Person, server: ServerDep) -> MutedSenders:
    kept = await run_in_threadpool(server.chat.set_muted, account.id, request.muted)
    return {"muted": kept}
