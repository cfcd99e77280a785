"""The ASGI app: routes only. Games are known through the contract and the registry; tables
through :mod:`courtly.web.tables`; every message to a seat is made by
:func:`courtly.web.tables.seat_message` from that seat's view.

A seat proves itself with the secret token it got when it joined, sent as
``Authorization: Bearer <token>`` (or, on a WebSocket, in the first message): never in a URL,
which proxies and access logs keep.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Literal

import orjson
from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..agents.estimates import HINT_ITERATIONS, SERVER_REVIEW_ITERATIONS
from ..agents.registry import describe_game
from ..core.registry import game_class, games
from .advice import Advisor
from .bots import Bots
from .hub import Hub, PostgresListener
from .storage import NOTIFY_CHANNEL, Storage, default_database_url
from .tables import TableError, Tables

log = logging.getLogger("courtly.web")

MAX_BODY = 64 * 1024
"""Bytes a request body may hold: a table request is far smaller."""


# ---------------------------------------------------------------------------------- requests


class Strict(BaseModel):
    # strict: JSON true is no seat, id or count, nor "3" a number (lax mode would take them).
    model_config = ConfigDict(extra="forbid", strict=True)


class SeatRequest(Strict):
    kind: Literal["person", "bot"] = "person"
    name: str = Field(default="", max_length=64)
    bot: str | None = Field(default=None, max_length=64, description="the bot's name (bots only)")
    options: dict[str, str | int | float | bool] = Field(
        default_factory=dict, description="the bot's options"
    )


class ClockRequest(Strict):
    initial: float = Field(
        default=0, ge=0, le=366 * 86400, description="realtime: seconds per seat"
    )
    increment: float = Field(
        default=0, ge=0, le=86400, description="realtime: seconds added per move"
    )
    per_move: float = Field(
        default=0, ge=0, le=366 * 86400, description="turn-based: seconds per move"
    )
    away: float = Field(
        default=0, ge=0, le=366 * 86400, description="seconds a person to move may be disconnected"
    )


class CreateTable(Strict):
    game: str = Field(max_length=64)
    players: int | None = Field(default=None, ge=1, le=16)
    options: dict[str, str | int | float | bool] = Field(default_factory=dict)
    seats: list[SeatRequest] = Field(max_length=16)
    mode: Literal["realtime", "turn-based"] = "realtime"
    clock: ClockRequest = Field(default_factory=lambda: ClockRequest())
    seed: int | None = Field(default=None, ge=0, lt=2**62)
    hints: bool = True


class JoinSeat(Strict):
    name: str = Field(default="", max_length=64)


class MoveRequest(Strict):
    seat: int = Field(ge=0, le=15)
    action: str | int = Field(description="the action's text or id")
    version: int = Field(ge=0, description="the version the move was chosen at")


class HintRequest(Strict):
    seat: int = Field(ge=0, le=15)
    version: int = Field(ge=0, description="the version of the view the seat is looking at")


class SeatToken(BaseModel):
    table: str
    seat: int
    token: str


class Refusal(BaseModel):
    """Every refused request's answer: what is wrong, in words (a stale move also gets the
    table's current ``version``)."""

    model_config = ConfigDict(extra="allow")
    detail: str


# ---------------------------------------------------------------------------------- errors


def _error(status: int, detail: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"detail": detail, **extra}, status_code=status)


def _validation_message(error: RequestValidationError) -> str:
    parts = []
    for problem in error.errors()[:3]:
        where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body")
        parts.append(f"{where}: {problem.get('msg', 'invalid')}" if where else problem["msg"])
    return "; ".join(parts) or "the request is not valid"


class BodyLimit:
    """Refuse a request body larger than ``limit`` bytes with 413, however it is sent."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length" and value.isdigit() and int(value) > self.limit:
                await _error(413, f"the request body is larger than {self.limit} bytes")(
                    scope, receive, send
                )
                return
        # The body is read here, whole, before the app sees it: a body sent without a length
        # (chunked) is counted as it comes, and refused with 413 here, not as a parse error.
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            body += message.get("body", b"")
            if len(body) > self.limit:
                await _error(413, f"the request body is larger than {self.limit} bytes")(
                    scope, receive, send
                )
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


# ---------------------------------------------------------------------------------- the app


class Server:
    """What one server process holds: storage, tables, the hub, the bots, its timers."""

    def __init__(
        self,
        database_url: str,
        bot_pace: float,
        bot_workers: int,
        hint_iterations: int = HINT_ITERATIONS,
        review_iterations: int = SERVER_REVIEW_ITERATIONS,
    ) -> None:
        self.storage = Storage(database_url)
        self.hub = Hub()
        self.tables = Tables(self.storage, on_change=self.changed)
        self.bots = Bots(self.tables, pace=bot_pace, workers=bot_workers)
        self.advisor = Advisor(self.tables, self.storage, hint_iterations, review_iterations)
        self.process = f"{os.getpid()}@{os.uname().nodename}"
        self.listener: PostgresListener | None = None
        self._timers: list[asyncio.Task[None]] = []

    def changed(self, table_id: str) -> None:
        self.hub.publish(table_id)
        self.bots.poke(table_id)

    def heard(self, payload: str) -> None:
        """Another process changed a table: catch up, then tell this process's watchers."""
        table_id = self.storage.heard(payload)
        if table_id is None:
            return  # this process's own announcement: its watchers were told already
        try:
            if not self.tables.refresh(table_id):
                return  # a table this process does not hold, or nothing new
        except TableError:
            return
        self.changed(table_id)

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.hub.bind(loop)
        self.bots.start(loop)
        assert self.bots.executor is not None
        self.advisor.start(self.bots.executor, self.bots.parallel)
        last_alive = self.storage.last_alive()
        ids = await run_in_threadpool(self.tables.load_active, last_alive)
        self.storage.beat(self.process)
        if self.storage.is_postgresql:
            self.listener = PostgresListener(self.storage.url, NOTIFY_CHANNEL, self.heard)
            self.listener.start()
        for table_id in ids:
            self.bots.poke(table_id)
        # What is loaded by now (the modules of FastAPI, SQLAlchemy and the games, the tables
        # resumed) lives as long as the server: out of the garbage collector's full passes,
        # which otherwise scan it all again and again, a pause of tenths of a second each
        # under load (the 1,000-table benchmark's p99).
        gc.collect()
        gc.freeze()
        self._timers = [
            asyncio.create_task(self._every(1.0, self._beat)),
            asyncio.create_task(self._every(0.25, self._clocks)),
        ]

    async def stop(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self.advisor.stop()
        self.bots.stop()
        if self.listener is not None:
            await run_in_threadpool(self.listener.stop)
        await self.storage.close_async()
        self.storage.close()

    async def _every(self, seconds: float, job: Callable[[], Awaitable[None]]) -> None:
        while True:
            await asyncio.sleep(seconds)
            try:
                await job()
            except Exception:
                log.exception("a periodic job of the server failed")

    async def _beat(self) -> None:
        await run_in_threadpool(self.storage.beat, self.process)

    async def _clocks(self) -> None:
        await run_in_threadpool(self.tables.check_clocks)


def create_app(
    database_url: str | None = None,
    bot_pace: float = 1.0,
    bot_workers: int = 0,
    hint_iterations: int = HINT_ITERATIONS,
    review_iterations: int = SERVER_REVIEW_ITERATIONS,
) -> FastAPI:
    """The Courtly server as an ASGI app (``courtly serve`` runs it with uvicorn).

    ``database_url``: SQLAlchemy URL (default: a SQLite file in the user's data folder);
    ``bot_pace``: seconds a bot waits before moving; ``bot_workers``: processes for the bots,
    hints and reviews (0: one per core; -1: threads); ``hint_iterations`` and
    ``review_iterations``: the search budget of a hint, and of each decision of a review.
    """
    url = database_url or os.environ.get("COURTLY_DATABASE_URL") or default_database_url()
    server = Server(url, bot_pace, bot_workers, hint_iterations, review_iterations)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        await server.start()
        try:
            yield
        finally:
            await server.stop()

    app = FastAPI(
        title="Courtly",
        summary="Play Courtly's five royal card games online: tables, seats, bots and clocks.",
        version="1",
        lifespan=lifespan,
        # Every route may refuse a request, always in this one shape (not FastAPI's default
        # 422 list of problems: see _errors).
        responses={"4XX": {"model": Refusal, "description": "refused: detail says why"}},
    )
    app.state.server = server
    app.add_middleware(BodyLimit)
    _errors(app)
    _routes(app, server)
    _static(app)
    return app


def _errors(app: FastAPI) -> None:
    @app.exception_handler(TableError)
    async def table_error(_request: Request, error: TableError) -> JSONResponse:
        return _error(error.status, error.message, **error.extra)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, error: RequestValidationError) -> JSONResponse:
        return _error(422, _validation_message(error))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, error: StarletteHTTPException) -> JSONResponse:
        return _error(error.status_code, str(error.detail))

    @app.exception_handler(Exception)
    async def unexpected(_request: Request, error: Exception) -> JSONResponse:
        log.error("unexpected error: %r", error, exc_info=error)
        return _error(500, "the server failed on this request; nothing was changed")


_bearer = HTTPBearer(auto_error=False, description="the seat's secret token, from joining it")
Token = Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]


def _token(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    return None if credentials is None else credentials.credentials


def _routes(app: FastAPI, server: Server) -> None:
    tables = server.tables
    # The terminal's ``human`` is no bot here: a person takes a seat by joining it.
    catalogue = [
        {**entry, "bots": [bot for bot in entry["bots"] if bot["name"] != "human"]}
        for entry in (describe_game(info) for info in games())
    ]

    @app.get("/api/games", tags=["games"], summary="Every game: players, options, bots")
    def list_games() -> list[dict[str, Any]]:
        return catalogue

    @app.get("/api/games/{game_id}", tags=["games"], summary="One game's facts, options, bots")
    def one_game(game_id: str) -> dict[str, Any]:
        for entry in catalogue:
            if entry["id"] == game_id:
                return entry
        known = ", ".join(entry["id"] for entry in catalogue)
        raise TableError(404, f"unknown game {game_id!r}; the games are: {known}")

    @app.get(
        "/api/games/{game_id}/rules",
        tags=["games"],
        summary="A game's rules summary with Courtly's resolutions (as `courtly rules`)",
    )
    def game_rules(game_id: str) -> dict[str, str]:
        info = one_game(game_id)
        return {"game": info["id"], "title": info["title"], "rules": game_class(game_id).info.rules}

    @app.post("/api/tables", status_code=201, tags=["tables"], summary="Create a table")
    def create_table(request: CreateTable) -> dict[str, Any]:
        table = tables.create(
            request.game,
            request.players,
            request.options,
            [seat.model_dump() for seat in request.seats],
            request.mode,
            request.clock.model_dump(),
            request.seed,
            request.hints,
        )
        return table.summary(time.time())

    @app.get("/api/tables", tags=["tables"], summary="Tables to join or watch")
    def list_tables(
        status: Annotated[
            list[Literal["open", "playing", "over"]] | None, Query(description="default: open")
        ] = None,
        limit: Annotated[int, Query(ge=1, le=500)] = 100,
    ) -> list[dict[str, Any]]:
        return tables.listing(status or ["open"], limit)

    @app.get("/api/tables/{table_id}", tags=["tables"], summary="A table's seats and status")
    def get_table(table_id: str) -> dict[str, Any]:
        return tables.get(table_id).summary(time.time())

    @app.post(
        "/api/tables/{table_id}/seats/{seat}/join",
        tags=["seats"],
        summary="Take a free seat: returns its secret token, shown only once",
    )
    def join(table_id: str, seat: int, request: JoinSeat | None = None) -> SeatToken:
        token, _table = tables.join(table_id, seat, request.name if request else "")
        return SeatToken(table=table_id, seat=seat, token=token)

    @app.post("/api/tables/{table_id}/seats/{seat}/leave", tags=["seats"], summary="Leave a seat")
    def leave(table_id: str, seat: int, credentials: Token) -> dict[str, Any]:
        return tables.leave(table_id, seat, _token(credentials)).summary(time.time())

    @app.post(
        "/api/tables/{table_id}/seats/{seat}/reclaim",
        tags=["seats"],
        summary="Take back a seat a bot played while you were away",
    )
    def reclaim(table_id: str, seat: int, credentials: Token) -> dict[str, Any]:
        return tables.reclaim(table_id, seat, _token(credentials)).summary(time.time())

    @app.get(
        "/api/tables/{table_id}/view",
        tags=["play"],
        summary="What a seat (with its token) or a spectator (no seat) sees now",
        openapi_extra={"security": [{}]},  # added to the bearer's: a spectator needs no token
    )
    def view(
        table_id: str,
        credentials: Token,
        seat: Annotated[int | None, Query(ge=0, le=15)] = None,
        since: Annotated[int, Query(ge=0, description="log events already held")] = 0,
    ) -> dict[str, Any]:
        return tables.message(table_id, seat, _token(credentials), since)

    @app.post("/api/tables/{table_id}/moves", tags=["play"], summary="Make a move")
    def move(table_id: str, request: MoveRequest, credentials: Token) -> dict[str, Any]:
        answer = tables.submit(
            table_id, request.seat, request.action, request.version, _token(credentials)
        )
        return answer.to_dict(table_id)

    @app.post("/api/tables/{table_id}/rematch", tags=["tables"], summary="Play again, same seats")
    def rematch(
        table_id: str, credentials: Token, seat: Annotated[int, Query(ge=0, le=15)]
    ) -> dict[str, Any]:
        return tables.rematch(table_id, seat, _token(credentials)).summary(time.time())

    @app.get(
        "/api/tables/{table_id}/record",
        tags=["tables"],
        summary="A finished game's record (courtly replay reads it)",
    )
    def record(table_id: str) -> dict[str, Any]:
        return tables.record(table_id)

    @app.post(
        "/api/tables/{table_id}/hint",
        tags=["play"],
        summary="The seat's moves by estimated win chance, best first, from its view alone",
    )
    async def hint(table_id: str, request: HintRequest, credentials: Token) -> dict[str, Any]:
        return await server.advisor.hint(
            table_id, request.seat, _token(credentials), request.version
        )

    @app.post(
        "/api/tables/{table_id}/review",
        status_code=202,
        tags=["tables"],
        summary="Start reviewing a finished game (every seat); GET it to follow the review",
    )
    def start_review(table_id: str) -> dict[str, Any]:
        return server.advisor.start_review(table_id)

    @app.get(
        "/api/tables/{table_id}/review",
        tags=["tables"],
        summary="A finished game's review: where it stands, and every figure once done",
    )
    def review(table_id: str) -> dict[str, Any]:
        return server.advisor.review(table_id)

    @app.get(
        "/api/tables/{table_id}/replay",
        tags=["tables"],
        summary="A finished game as it stood at a step, from a seat's view or every seat's",
    )
    def replay(
        table_id: str,
        step: Annotated[
            int | None, Query(ge=0, description="events played (default: all of them)")
        ] = None,
        seat: Annotated[
            str, Query(max_length=16, description="a seat's number, spectator, or all")
        ] = "all",
    ) -> dict[str, Any]:
        return tables.replay(table_id, step, seat)

    @app.websocket("/api/tables/{table_id}/ws")
    async def socket(websocket: WebSocket, table_id: str) -> None:
        await _watch(server, websocket, table_id)


async def _watch(server: Server, websocket: WebSocket, table_id: str) -> None:
    """A seat's or a spectator's live view: the first message says who (``{"seat": 1, "token":
    "...", "since": 0}``, or ``{"seat": null}``); the server answers with the view, then sends
    the new view after every change, with the log events the connection has not had yet."""
    await websocket.accept()
    try:
        hello = json.loads(await asyncio.wait_for(websocket.receive_text(), timeout=10))
        if not isinstance(hello, dict):
            raise ValueError("the first message is a JSON object")
        seat = hello.get("seat")
        if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
            raise ValueError("seat is a seat number or null")
        token = hello.get("token")
        since = hello.get("since", 0)
        if not isinstance(since, int) or since < 0:
            raise ValueError("since is the number of log events already held")
    except (TimeoutError, ValueError, WebSocketDisconnect) as error:
        with contextlib.suppress(Exception):
            await _send(websocket, {"type": "error", "detail": f"bad first message: {error}"})
            await websocket.close(code=4400)
        return
    tables = server.tables
    wake = server.hub.watch(table_id)
    present: int | None = None
    try:
        try:
            message = await _message(tables, table_id, seat, token, since)
        except TableError as error:
            await _send(websocket, {"type": "error", "detail": error.message})
            await websocket.close(code=4000 + error.status)
            return
        await _send(websocket, {"type": "view", **message})
        held = message["log_from"] + len(message["log"])
        closed = asyncio.ensure_future(_moves(server, websocket, table_id, seat, token))
        if seat is not None:
            present = seat
            tables.connected(table_id, seat)  # this process's clocks see it at once
        # The other server processes see the seat as present through the database: marked
        # often enough for the table's away limit (not at all without one: a write per seat
        # every few seconds is most of the work of a server with a thousand tables).
        away = tables.get(table_id).clock.away
        every = min(5.0, away / 2) if away > 0 else 5.0
        last_seen = 0.0
        while not closed.done():
            if seat is not None and away > 0 and time.monotonic() - last_seen > every:
                last_seen = time.monotonic()
                await run_in_threadpool(server.storage.mark_seen, table_id, seat, time.time())
            waiting = asyncio.ensure_future(wake.wait())
            await asyncio.wait(
                {waiting, closed}, timeout=every, return_when=asyncio.FIRST_COMPLETED
            )
            waiting.cancel()
            if closed.done() or not wake.is_set():
                continue
            wake.clear()
            try:
                message = await _message(tables, table_id, seat, token, held)
            except TableError as error:  # the seat was given up, say
                await _send(websocket, {"type": "error", "detail": error.message})
                await websocket.close(code=4000 + error.status)
                return
            # Sent even when only seats, clocks or notices changed.
            await _send(websocket, {"type": "view", **message})
            held = message["log_from"] + len(message["log"])
        closed.cancel()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        server.hub.unwatch(table_id, wake)
        if present is not None:
            tables.disconnected(table_id, present)
            # The away limit counts from the moment the seat left.
            with contextlib.suppress(Exception):
                await run_in_threadpool(server.storage.mark_seen, table_id, present, time.time())


async def _message(
    tables: Tables, table_id: str, seat: int | None, token: str | None, since: int
) -> dict[str, Any]:
    """The seat's message: made on the event loop when the table is free, which is cheaper
    than a trip to a worker thread; otherwise in a worker thread, which may wait for it."""
    ready = tables.message_now(table_id, seat, token, since)
    if ready is not None:
        return ready
    return await run_in_threadpool(tables.message, table_id, seat, token, since)


async def _send(websocket: WebSocket, message: dict[str, Any]) -> None:
    """One JSON text frame, encoded by orjson: a view is encoded for every seat after every
    move, and the standard library's encoder took a tenth of the server's time under load."""
    await websocket.send_text(orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode())


async def _moves(
    server: Server, websocket: WebSocket, table_id: str, seat: int | None, token: str | None
) -> None:
    """The moves a seat sends on its WebSocket, until it goes away: ``{"type": "move",
    "action": text or id, "version": n, "ref": anything}``, each answered on the socket as the
    REST call would be (``{"type": "answer", ...}``, or ``{"type": "refused", "status",
    "detail"}``), with the ``ref`` sent back. A connection that plays many moves skips an HTTP
    request for each: the cheaper way for a busy client (the load benchmark plays this way)."""
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            text = await websocket.receive_text()
            ref: object = None
            try:
                request = json.loads(text)
                if not isinstance(request, dict):
                    raise TableError(422, "a message is a JSON object")
                ref = request.get("ref")
                mover, action, version = _move_request(request, seat)
                # At once on the event loop when the table and the database are free (most
                # moves), else in a worker thread, which may wait for them.
                answer = await server.tables.submit_on_loop(table_id, mover, action, version, token)
                if answer is None:
                    answer = await run_in_threadpool(
                        server.tables.submit, table_id, mover, action, version, token
                    )
            except (WebSocketDisconnect, RuntimeError, asyncio.CancelledError):
                raise
            except ValueError as error:  # (json's errors are ValueErrors)
                await _send(
                    websocket,
                    {"type": "refused", "ref": ref, "status": 400, "detail": f"bad JSON: {error}"},
                )
            except TableError as error:
                await _send(
                    websocket,
                    {
                        "type": "refused",
                        "ref": ref,
                        "status": error.status,
                        "detail": error.message,
                        **error.extra,
                    },
                )
            except Exception as error:  # the database failed, say: the move was not made
                log.error("a move on a WebSocket failed: %r", error, exc_info=error)
                await _send(
                    websocket,
                    {
                        "type": "refused",
                        "ref": ref,
                        "status": 500,
                        "detail": "the server failed on this move; nothing was changed",
                    },
                )
            else:
                reply = answer.to_dict(table_id)
                await _send(websocket, {"type": "answer", "ref": ref, **reply})


def _move_request(request: dict[str, Any], seat: int | None) -> tuple[int, str | int, int]:
    """A WebSocket move's seat, action and version, checked as :class:`MoveRequest` checks
    them."""
    if request.get("type") != "move":
        raise TableError(422, 'the messages a seat sends are moves: {"type": "move", ...}')
    if seat is None:
        raise TableError(403, "a spectator cannot move")
    unknown = sorted(set(request) - {"type", "action", "version", "ref"})
    if unknown:
        raise TableError(422, f"a move has no field {unknown[0]!r}")
    action, version = request.get("action"), request.get("version")
    if isinstance(action, bool) or not isinstance(action, str | int):
        raise TableError(422, "action is the action's text or id")
    if isinstance(version, bool) or not isinstance(version, int) or version < 0:
        raise TableError(422, "version is the version the move was chosen at (0 or more)")
    return seat, action, version


def _static(app: FastAPI) -> None:
    """The built browser client, when the package has it (built by ``make client``).

    The client routes in the browser (``/table/ID?seat=1``, a share link): a path that is no
    file and no API route is answered with ``index.html``, which shows the page it names. A
    missing file with an extension (an old asset) or under ``/api`` stays a 404."""
    client = Path(__file__).parent / "static"
    if not (client / "index.html").is_file():
        return
    from fastapi.staticfiles import StaticFiles
    from starlette.responses import Response

    class ClientFiles(StaticFiles):
        async def get_response(self, path: str, scope: Scope) -> Response:
            try:
                return await super().get_response(path, scope)
            except StarletteHTTPException as error:
                last = path.rstrip("/").rsplit("/", 1)[-1]
                if error.status_code != 404 or path.split("/", 1)[0] == "api" or "." in last:
                    raise
                return await super().get_response("index.html", scope)

    app.mount("/", ClientFiles(directory=client, html=True), name="client")
