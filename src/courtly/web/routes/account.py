"""The signed-in person's account: signing up, in and out (here or everywhere), who is signed
in, the password, a guest's seats attached, the games exported, the account deleted."""

from __future__ import annotations

from collections.abc import Iterator

import orjson
from fastapi import APIRouter, HTTPException, Request, Response
from fastapi.responses import StreamingResponse
from starlette.concurrency import iterate_in_threadpool, run_in_threadpool

from ..deps import CurrentSession, Person, ServerDep
from ..limits import client_address
from ..model import TableError
from ..people import begin_session
from ..people.seats import attach_seats
from ..people.sessions import COOKIE, account_info, clear_cookie
from ..protocol import (
    AccountInfo,
    AttachSeats,
    ChangePassword,
    ConfirmPassword,
    SeatsAttached,
    SignedOut,
    SignIn,
    SignUp,
)
from ..server import Server
from .base import answers

router = APIRouter(prefix="/api/account", tags=["account"])


@router.post(
    "",
    summary="Sign up: make an account, signed in at once (session cookie); the guest seats "
    "given are attached to it",
    **answers(AccountInfo, 201),
)
async def sign_up(
    body: SignUp, request: Request, response: Response, server: ServerDep
) -> AccountInfo:
    address = client_address(request.scope)
    account = await run_in_threadpool(server.people.sign_up, body.name, body.password, address)
    return await begin_session(server, request, response, account.id, body.seats)


@router.post(
    "/session",
    summary="Sign in with a name and password (a new session cookie); the guest seats given "
    "are attached to the account",
    **answers(AccountInfo),
)
async def sign_in(
    body: SignIn, request: Request, response: Response, server: ServerDep
) -> AccountInfo:
    address = client_address(request.scope)
    account = await run_in_threadpool(server.people.check, body.name, body.password, address)
    return await begin_session(server, request, response, account.id, body.seats)


@router.delete("/session", summary="Sign out this browser", **answers(SignedOut))
async def sign_out(
    found: CurrentSession, request: Request, response: Response, server: ServerDep
) -> SignedOut:
    secret = request.cookies.get(COOKIE)
    ended = 0
    if found is not None and secret:
        ended = await run_in_threadpool(server.people.sessions.end, secret)
    clear_cookie(request, response)
    return {"ended": ended}


@router.delete(
    "/sessions",
    summary="Sign out everywhere: every session of the account ends, this one too",
    **answers(SignedOut),
)
async def sign_out_everywhere(
    account: Person, request: Request, response: Response, server: ServerDep
) -> SignedOut:
    ended = await run_in_threadpool(server.people.sessions.end_all, account.id)
    clear_cookie(request, response)
    return {"ended": ended}


@router.get(
    "",
    summary="Who is signed in, and the session's CSRF token (401: nobody)",
    **answers(AccountInfo),
)
async def who_am_i(found: CurrentSession) -> AccountInfo:
    if found is None:
        raise HTTPException(401, "nobody is signed in")
    return account_info(found.account, found.csrf)


@router.put(
    "/password",
    summary="Change the password: every other session of the account ends",
    **answers(SignedOut),
)
async def change_password(
    body: ChangePassword, account: Person, request: Request, server: ServerDep
) -> SignedOut:
    ended = await run_in_threadpool(
        server.people.change_password,
        account.id,
        body.current,
        body.new,
        request.cookies.get(COOKIE),
        client_address(request.scope),
    )
    return {"ended": ended}


@router.post(
    "/seats",
    summary="Attach a guest's seats (each with its token) to the account",
    **answers(SeatsAttached),
)
async def attach(body: AttachSeats, account: Person, server: ServerDep) -> SeatsAttached:
    return await run_in_threadpool(attach_seats, server.tables, account.id, body.seats)


@router.get(
    "/games",
    summary="Export the account's finished games: a JSONL file of records (courtly replay "
    "reads it)",
    response_class=StreamingResponse,
    responses={
        200: {
            "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
            "description": "one game record (as GET /api/tables/{id}/record gives it) a line",
        }
    },
)
async def export_games(account: Person, server: ServerDep) -> StreamingResponse:
    tables = await run_in_threadpool(_finished_tables, server, account.id)
    return StreamingResponse(
        iterate_in_threadpool(_records(server, tables)),
        media_type="application/x-ndjson",
        headers={"Content-Disposition": 'attachment; filename="courtly-games.jsonl"'},
    )


def _finished_tables(server: Server, account_id: str) -> list[str]:
    with server.storage.session() as session:
        return server.storage.account_table_ids(session, account_id, ("over",))


def _records(server: Server, tables: list[str]) -> Iterator[bytes]:
    for table_id in tables:
        try:
            record = server.tables.replays.record(table_id)
        except TableError:  # gone meanwhile
            continue
        yield orjson.dumps(record) + b"\n"


@router.delete(
    "",
    summary='Delete the account: its games stay, under the name "deleted player"',
    **answers(SignedOut),
)
async def delete_account(
    body: ConfirmPassword,
    account: Person,
    request: Request,
    response: Response,
    server: ServerDep,
) -> SignedOut:
    address = client_address(request.scope)
    await run_in_threadpool(server.people.delete, account.id, body.password, address)
    clear_cookie(request, response)
    return {"ended": 1}
