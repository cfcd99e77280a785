"""Turn e-mails: a person's address and delay (their account's settings), and the link in every
e-mail that stops them without signing in."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query
from starlette.concurrency import run_in_threadpool

from ..deps import Person, ServerDep
from ..protocol import EmailSettings, EmailSettingsInfo, Unsubscribed
from .base import answers

router = APIRouter(tags=["account"])

Token = Annotated[str, Query(max_length=200, description="the signed token of the e-mail's link")]


@router.get(
    "/api/account/email",
    summary="Your turn e-mail settings, and whether this server sends e-mail (401: sign in first)",
    **answers(EmailSettingsInfo),
)
async def email_settings(person: Person, server: ServerDep) -> EmailSettingsInfo:
    return await run_in_threadpool(server.turn_mail.settings, person.id)


@router.put(
    "/api/account/email",
    summary="Set where and after how long a waiting turn is e-mailed (an empty address: none)",
    **answers(EmailSettingsInfo),
)
async def change_email_settings(
    body: EmailSettings, person: Person, server: ServerDep
) -> EmailSettingsInfo:
    return await run_in_threadpool(server.turn_mail.change, person.id, body)


@router.get(
    "/api/email/unsubscribe",
    summary="Stop the turn e-mails of the link's account (no sign-in: the token is signed)",
    **answers(Unsubscribed),
)
async def unsubscribe(token: Token, server: ServerDep) -> Unsubscribed:
    await run_in_threadpool(server.turn_mail.unsubscribe, token)
    return {"unsubscribed": True}


@router.post(
    "/api/email/unsubscribe",
    summary="The same, as a mail program's one-click unsubscribe (RFC 8058) sends it",
    **answers(Unsubscribed),
)
async def unsubscribe_one_click(token: Token, server: ServerDep) -> Unsubscribed:
    await run_in_threadpool(server.turn_mail.unsubscribe, token)
    return {"unsubscribed": True}
