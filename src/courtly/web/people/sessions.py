"""Server-side sessions: what a signed-in browser holds, and how a request is known by it.

A session is a random secret in the ``courtly_session`` cookie (HttpOnly, SameSite=Lax, Path=/,
Secure when the request came over https, directly or through a trusted proxy); its row keeps
only the secret's SHA-256 (a copy of the database signs nobody in). A session lasts
:data:`LIFETIME` from its last use, so a person who plays stays signed in; signing in starts a
new session and ends the one the browser held (rotated: a secret planted before sign-in is
worth nothing after). Ending a session deletes its row: every server process refuses it at
once.

A state-changing request (not GET, HEAD, OPTIONS) that a session's cookie authenticates must
repeat the session's CSRF token in the ``X-Courtly-CSRF`` header: another site can make a
browser send the cookie, never read the token nor add the header (no CORS). A request without
the cookie is not concerned (seat tokens, which a browser never sends by itself, keep working
for scripts).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final
from urllib.parse import urlsplit

from fastapi import HTTPException
from sqlalchemy import delete, select
from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.websockets import WebSocket

from ..protocol import AccountInfo, HeldSeat
from ..storage import Storage
from ..storage.rows import AccountRow, SessionRow
from .model import Account, account_of
from .seats import attach_seats

if TYPE_CHECKING:
    from ..server import Server

COOKIE: Final = "courtly_session"
CSRF_HEADER: Final = "X-Courtly-CSRF"
LIFETIME: Final = 30 * 86400
"""Seconds a session lasts after its last use."""
RENEW_AFTER: Final = 3600
"""Seconds between two renewals of a session in use (each one is a write, and a new cookie)."""
SAFE_METHODS: Final = frozenset({"GET", "HEAD", "OPTIONS"})


def secret_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


@dataclass(frozen=True)
class FoundSession:
    """A request's live session: whose it is, its CSRF token, and whether it was just renewed
    (its cookie is then sent again, with a new lifetime)."""

    account: Account
    csrf: str
    renewed: bool


class Sessions:
    """The sessions' rows: started, found (and renewed), ended."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    def start(
        self, account_id: str, agent: str, now: float, replacing: str | None = None
    ) -> tuple[str, str, Account]:
        """A new session of ``account_id`` (which must exist and may sign in): its secret, its
        CSRF token and the account. ``replacing``: the secret of the session the browser held,
        ended in the same transaction."""
        secret, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        with self.storage.session() as session:
            row = session.get(AccountRow, account_id)
            if row is None or row.deleted_at is not None:
                raise HTTPException(404, "no such account")
            if row.disabled:
                raise HTTPException(403, "this account is disabled by an administrator")
            if replacing:
                session.execute(
                    delete(SessionRow).where(SessionRow.id_hash == secret_hash(replacing))
                )
            session.add(
                SessionRow(
                    id_hash=secret_hash(secret),
                    account_id=account_id,
                    csrf=csrf,
                    created_at=now,
                    seen_at=now,
                    expires_at=now + LIFETIME,
                    agent=agent[:200],
                )
            )
            return secret, csrf, account_of(row)

    def find(self, secret: str, now: float) -> FoundSession | None:
        """The live session whose secret is ``secret`` (renewed if it was last renewed more than
        :data:`RENEW_AFTER` ago), or None: unknown, expired, or its account disabled or
        deleted."""
        key = secret_hash(secret)
        with self.storage.session() as session:
            found = session.execute(
                select(SessionRow, AccountRow)
                .join(AccountRow, AccountRow.id == SessionRow.account_id)
                .where(SessionRow.id_hash == key)
            ).first()
            if found is None:
                return None
            row, account = found
            if row.expires_at <= now or account.disabled or account.deleted_at is not None:
                session.delete(row)
                return None
            renewed = now - row.seen_at >= RENEW_AFTER
            if renewed:
                row.seen_at = now
                row.expires_at = now + LIFETIME
            return FoundSession(account_of(account), row.csrf, renewed)

    def end(self, secret: str) -> int:
        """End the session of ``secret``: 1, or 0 if it was over already."""
        with self.storage.session() as session:
            result = session.execute(
                delete(SessionRow).where(SessionRow.id_hash == secret_hash(secret))
            )
            return int(getattr(result, "rowcount", 0) or 0)

    def end_all(self, account_id: str) -> int:
        """End every session of ``account_id`` (sign out everywhere); how many there were."""
        with self.storage.session() as session:
            result = session.execute(delete(SessionRow).where(SessionRow.account_id == account_id))
            return int(getattr(result, "rowcount", 0) or 0)


def secure(connection: HTTPConnection) -> bool:
    """Whether the request came over https (uvicorn reads a trusted proxy's
    X-Forwarded-Proto into the scheme)."""
    return connection.url.scheme in ("https", "wss")


def set_cookie(request: Request, response: Response, secret: str) -> None:
    response.set_cookie(
        COOKIE,
        secret,
        max_age=LIFETIME,
        path="/",
        httponly=True,
        samesite="lax",
        secure=secure(request),
    )


def clear_cookie(request: Request, response: Response) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax", secure=secure(request))


def account_info(account: Account, csrf: str) -> AccountInfo:
    return {"id": account.id, "name": account.name, "admin": account.admin, "csrf": csrf}


async def begin_session(
    server: Server,
    request: Request,
    response: Response,
    account_id: str,
    seats: Sequence[HeldSeat] = (),
) -> AccountInfo:
    """Sign ``account_id`` in on this browser: a new session (the one the browser held is
    ended: rotated), its cookie set on ``response``, and the guest ``seats`` the browser held
    attached to the account (those refused are left as they were: the sign-in is what was
    asked); the account and its CSRF token, as ``GET /api/account`` gives them. Every way of
    signing in (password, passkey) ends here."""
    agent = request.headers.get("user-agent", "")
    secret, csrf, account = await run_in_threadpool(
        server.people.sessions.start, account_id, agent, time.time(), request.cookies.get(COOKIE)
    )
    set_cookie(request, response, secret)
    if seats:
        await run_in_threadpool(attach_seats, server.tables, account_id, seats)
    return account_info(account, csrf)


async def request_session(
    server: Server, request: Request, response: Response
) -> FoundSession | None:
    """The live session of the request's cookie, if any (its cookie renewed on ``response``
    when the session was), after the CSRF check: 403 for a state-changing request the cookie
    authenticates that does not repeat the session's token."""
    secret = request.cookies.get(COOKIE)
    if not secret:
        return None
    found = await run_in_threadpool(server.people.sessions.find, secret, time.time())
    if found is None:
        return None
    if request.method not in SAFE_METHODS:
        given = request.headers.get(CSRF_HEADER, "")
        if not hmac.compare_digest(given.encode(), found.csrf.encode()):
            raise HTTPException(
                403,
                f"a request signed in by cookie must repeat the session's {CSRF_HEADER} token "
                "(GET /api/account gives it)",
            )
    if found.renewed:
        set_cookie(request, response, secret)
    return found


def same_origin(connection: HTTPConnection) -> bool:
    """Whether the page that opened a WebSocket is of this server (or no browser opened it):
    a WebSocket is no CORS request, so another site's page could otherwise open one with the
    cookie (SameSite stops that only across sites, not from a sibling subdomain)."""
    origin = connection.headers.get("origin")
    if origin is None:
        return True
    host = connection.headers.get("host", "")
    return urlsplit(origin).netloc.lower() == host.lower()


async def socket_account(server: Server, websocket: WebSocket) -> str | None:
    """The account of a WebSocket's session cookie, if it came from this server's pages."""
    secret = websocket.cookies.get(COOKIE)
    if not secret or not same_origin(websocket):
        return None
    found = await run_in_threadpool(server.people.sessions.find, secret, time.time())
    return None if found is None else found.account.id
