"""What the routes share: the server process they act on, and the seat's token a request
carries.

A seat proves itself with the secret token it got when it joined, sent as
``Authorization: Bearer <token>`` (or, on a WebSocket, in the first message): never in a URL,
which proxies and access logs keep.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from starlette.requests import HTTPConnection

from .server import Server


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
