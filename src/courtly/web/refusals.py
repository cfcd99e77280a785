"""How a refused request is answered: always in one shape, :class:`courtly.web.protocol.Refusal`
(``detail`` says what is wrong), whatever refused it (the table, the request's validation, a
body too large, the router), and never with a stack trace.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .messages import refusal
from .model import TableError

log = logging.getLogger("courtly.web")

MAX_BODY = 64 * 1024
"""Bytes a request body may hold: a table request is far smaller."""
MAX_FRAME = 16 * MAX_BODY
"""Bytes a WebSocket message may hold before the connection is closed (1009) unread. A message
between :data:`MAX_BODY` and this is read, and refused in words (its first message: closed
with 4400; a move: refused with 413, the socket kept)."""


def refused(
    status: int, detail: str, version: int | None = None, headers: Mapping[str, str] | None = None
) -> JSONResponse:
    return JSONResponse(refusal(detail, version), status_code=status, headers=headers)


def validation_message(error: RequestValidationError) -> str:
    """The first few problems of an invalid request, each with where it is."""
    parts = []
    for problem in error.errors()[:3]:
        where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body")
        parts.append(f"{where}: {problem.get('msg', 'invalid')}" if where else problem["msg"])
    return "; ".join(parts) or "the request is not valid"


def answer_refusals(app: FastAPI) -> None:
    """Answer every refusal of ``app`` with :func:`refused` (not FastAPI's default 422 list of
    problems)."""

    @app.exception_handler(TableError)
    async def table_error(_request: Request, error: TableError) -> JSONResponse:
        return refused(error.status, error.message, error.version)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        return refused(422, validation_message(error))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        # Its headers kept: a 405's Allow names the methods the path takes.
        return refused(error.status_code, str(error.detail), headers=error.headers)

    @app.exception_handler(Exception)
    async def unexpected(_request: Request, error: Exception) -> JSONResponse:
        log.error("unexpected error: %r", error, exc_info=error)
        return refused(500, "the server failed on this request; nothing was changed")


class BodyLimit:
    """Refuse a request body larger than ``limit`` bytes with 413, however it is sent;
    ``wider`` gives a path whose body is larger by nature (an uploaded game's record) its own."""

    def __init__(
        self, app: ASGIApp, limit: int = MAX_BODY, wider: Mapping[str, int] | None = None
    ) -> None:
        self.app = app
        self.limit = limit
        self.wider = dict(wider or {})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.wider.get(scope.get("path", ""), self.limit)
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > limit:
                await self._too_large(scope, receive, send, limit)
                return
        # The body is read here, whole, before the app sees it: a body sent without a length
        # (chunked) is counted as it comes, and refused with 413 here, not as a parse error.
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if len(body) > limit:
                await self._too_large(scope, receive, send, limit)
                return
            if not message.get("more_body", False):
                break
        whole: Message | None = {"type": "http.request", "body": bytes(body), "more_body": False}

        async def buffered() -> Message:
            nonlocal whole
            if whole is not None:
                message, whole = whole, None
                return message
            return await receive()

        await self.app(scope, buffered, send)

    @staticmethod
    async def _too_large(scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        response = refused(413, f"the request body is larger than {limit} bytes")
        await response(scope, receive, send)
