"""The signed-in person's account: signing up, in and out, and who is signed in."""

from __future__ import annotations

from fastapi import APIRouter, HTTPException, Request, Response
from starlette.concurrency import run_in_threadpool

from ..deps import CurrentSession, ServerDep
from ..people import begin_session
from ..people.sessions import COOKIE, account_info, clear_cookie
from ..protocol import AccountInfo, SignedOut, SignIn, SignUp
from .base import answers

router = APIRouter(prefix="/api/account", tags=["account"])


@router.post(
    "",
    summary="Sign up: make an account, signed in at once (session cookie)",
    **answers(AccountInfo, 201),
)
async def sign_up(
    body: SignUp, request: Request, response: Response, server: ServerDep
) -> AccountInfo:
    account = await run_in_threadpool(server.people.sign_up, body.name, body.password)
    return await begin_session(server, request, response, account.id)


@router.post(
    "/session",
    summary="Sign in with a name and password (a new session cookie)",
    **answers(AccountInfo),
)
async def sign_in(
    body: SignIn, request: Request, response: Response, server: ServerDep
) -> AccountInfo:
    account = await run_in_threadpool(server.people.check, body.name, body.password)
    return await begin_session(server, request, response, account.id)


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


@router.get(
    "",
    summary="Who is signed in, and the session's CSRF token (401: nobody)",
    **answers(AccountInfo),
)
async def who_am_i(found: CurrentSession) -> AccountInfo:
    if found is None:
        raise HTTPException(401, "nobody is signed in")
    return account_info(found.account, found.csrf)
