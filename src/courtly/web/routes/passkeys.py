"""Passkeys: a signed-in person adds, lists and removes theirs; anyone signs in with one.

Each ceremony takes two requests: ``.../options`` begins it (the options for the browser's
``navigator.credentials``), the next answers it with what the authenticator made.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request, Response
from starlette.concurrency import run_in_threadpool

from ..deps import Person, ServerDep
from ..people.sessions import begin_session
from ..protocol import (
    BASE64URL,
    AccountInfo,
    PasskeyAdd,
    PasskeyCeremony,
    PasskeyInfo,
    PasskeySignIn,
    PasskeySignInStart,
)
from .base import answers

router = APIRouter(prefix="/api/account", tags=["passkeys"])

CredentialId = Annotated[
    str, Path(max_length=400, pattern=BASE64URL, description="the passkey's id (base64url)")
]


@router.get("/passkeys", summary="Your passkeys", **answers(list[PasskeyInfo]))
def passkeys(person: Person, server: ServerDep) -> list[PasskeyInfo]:
    return server.passkeys.of(person.id)


@router.post(
    "/passkeys/options",
    summary="Begin adding a passkey: the options for navigator.credentials.create",
    **answers(PasskeyCeremony),
)
def add_options(person: Person, server: ServerDep, request: Request) -> PasskeyCeremony:
    return server.passkeys.registration_options(person, server.relying_party.of(request))


@router.post(
    "/passkeys",
    summary="Add a passkey: the authenticator's answer to the options",
    **answers(PasskeyInfo, status=201),
)
def add(person: Person, server: ServerDep, request: Request, body: PasskeyAdd) -> PasskeyInfo:
    party = server.relying_party.of(request)
    return server.passkeys.register(person, party, body.ceremony, body.credential, body.label)


@router.delete(
    "/passkeys/{passkey_id}",
    summary="Remove one of your passkeys: the ones left",
    **answers(list[PasskeyInfo]),
)
def remove(passkey_id: CredentialId, person: Person, server: ServerDep) -> list[PasskeyInfo]:
    server.passkeys.remove(person.id, passkey_id)
    return server.passkeys.of(person.id)


@router.post(
    "/passkey-session/options",
    summary="Begin signing in with a passkey: the options for navigator.credentials.get",
    **answers(PasskeyCeremony),
)
def sign_in_options(
    server: ServerDep, request: Request, body: PasskeySignInStart | None = None
) -> PasskeyCeremony:
    name = None if body is None else body.name or None
    return server.passkeys.sign_in_options(server.relying_party.of(request), name)


@router.post(
    "/passkey-session",
    summary="Sign in with a passkey: the authenticator's answer to the options; the guest "
    "seats given are attached to the account",
    **answers(AccountInfo),
)
async def sign_in(
    server: ServerDep, request: Request, response: Response, body: PasskeySignIn
) -> AccountInfo:
    party = server.relying_party.of(request)
    account_id = await run_in_threadpool(
        server.passkeys.sign_in, party, body.ceremony, body.credential
    )
    return await begin_session(server, request, response, account_id, body.seats)
