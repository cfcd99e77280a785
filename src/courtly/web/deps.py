"""What the routes share: the server process they act on, the seat's token a request carries,
and the signed-in person (:data:`SignedIn`, :data:`Person`), known by the session's cookie.

A seat proves itself with the secret token it got when it joined, sent as
``Authorization: Bearer <token>`` (or, on a WebSocket, in the first message): never in a URL,
which proxies and access logs keep.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, HTTPException
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection, Request
from starlette.responses import Response

from .people import Account
from .people.sessions import FoundSession, request_session
from .server import Server
from .tables.access import Credential, SignedInPerson


async def server(connection: HTTPConnection) -> Server:
    """The server process the app runs (``create_app`` puts it in the app's state)."""
    found: Server = connection.app.state.server
    return found


_bearer = HTTPBearer(auto_error=False, description="the seat's secret token, from joining it")


async def seat_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    """The token of the request's ``Authorization: Bearer`` header, if any (the route checks
    it against the seat)."""
    return None if credentials is None else credentials.credentials


ServerDep = Annotated[Server, Depends(server)]
Token = Annotated[str | None, Depends(seat_token)]


# ---------------------------------------------------------------------------------- people


async def current_session(
    request: Request, response: Response, server: ServerDep
) -> FoundSession | None:
    """The live session of the request's ``courtly_session`` cookie, CSRF checked
    (:func:`courtly.web.people.sessions.request_session`)."""
    return await request_session(server, request, response)


async def signed_in(
    found: Annotated[FoundSession | None, Depends(current_session)],
) -> Account | None:
    """The signed-in person, or None (a guest)."""
    return None if found is None else found.account


async def person(account: Annotated[Account | None, Depends(signed_in)]) -> Account:
    """The signed-in person: 401 for a guest."""
    if account is None:
        raise HTTPException(401, "sign in first")
    return account


async def seat_credential(
    token: Annotated[str | None, Depends(seat_token)],
    request: Request,
    response: Response,
    server: ServerDep,
) -> Credential:
    """What proves a seat: the bearer token if the request has one (the cookie is then not
    looked at), else the signed-in person (CSRF checked), else nothing."""
    if token:
        return token
    found = await request_session(server, request, response)
    return None if found is None else SignedInPerson(found.account.id)


CurrentSession = Annotated[FoundSession | None, Depends(current_session)]
SignedIn = Annotated[Account | None, Depends(signed_in)]
Person = Annotated[Account, Depends(person)]
SeatCredential = Annotated[Credential, Depends(seat_credential)]
