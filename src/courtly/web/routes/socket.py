"""A table's WebSocket: a seat's or a spectator's live view, and the seat's moves.

The first message says who (:class:`~courtly.web.protocol.Hello`); the server answers with the
view, then sends the new view after every change of the table, with the log events the
connection has not had yet. A seat may send its moves on the socket
(:class:`~courtly.web.protocol.MoveMessage`), each answered there as the REST call would be:
a connection that plays many moves skips an HTTP request for each (the load benchmark plays
this way).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from ..deps import ServerDep
from ..model import TableError
from ..protocol import (
    AnswerMessage,
    ErrorMessage,
    Hello,
    MoveMessage,
    RefusedMessage,
    SeatMessage,
    ServerMessage,
    refusal,
)
from ..server import Server
from ..tables import Tables

log = logging.getLogger("courtly.web")

router = APIRouter()

HELLO_PROBLEMS = {
    "seat": "seat is a seat number or null",
    "token": "token is the seat's token or null",
    "since": "since is the number of log events already held",
}
MOVE_PROBLEMS = {
    "action": "action is the action's text or id",
    "version": "version is the version the move was chosen at (0 or more)",
}


@router.websocket("/api/tables/{table_id}/ws")
async def socket(websocket: WebSocket, table_id: str, server: ServerDep) -> None:
    await watch(server, websocket, table_id)


def read_hello(text: str) -> Hello:
    """The first message, checked (ValueError says what is wrong with it)."""
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError("the first message is a JSON object")
    try:
        return Hello.model_validate(data)
    except ValidationError as error:
        raise ValueError(HELLO_PROBLEMS[str(error.errors()[0]["loc"][0])]) from None


def read_move(data: Any, seat: int | None) -> MoveMessage:
    """A move sent on the socket, checked as ``POST .../moves`` checks its body (a
    :class:`TableError` says what is wrong, with the REST status, the first problem in the
    order the REST call would find them)."""
    if not isinstance(data, dict):
        raise TableError(422, "a message is a JSON object")
    try:
        move = MoveMessage.model_validate(data)
    except ValidationError as error:
        problems = {str(problem["loc"][0]): problem["type"] for problem in error.errors()}
    else:
        problems = {}
    if "type" in problems:
        raise TableError(422, 'the messages a seat sends are moves: {"type": "move", ...}')
    if seat is None:
        raise TableError(403, "a spectator cannot move")
    unknown = sorted(name for name, kind in problems.items() if kind == "extra_forbidden")
    if unknown:
        raise TableError(422, f"a move has no field {unknown[0]!r}")
    for name, problem in MOVE_PROBLEMS.items():
        if name in problems:
            raise TableError(422, problem)
    return move


async def send(websocket: WebSocket, message: ServerMessage) -> None:
    """One JSON text frame, encoded by orjson: a view is encoded for every seat after every
    move, and the standard library's encoder took a tenth of the server's time under load."""
    await websocket.send_text(orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode())


async def refuse(websocket: WebSocket, detail: str, code: int) -> None:
    """Say why the connection is refused, and close it with ``code``."""
    error: ErrorMessage = {"type": "error", **refusal(detail)}
    await send(websocket, error)
    await websocket.close(code=code)


async def watch(server: Server, websocket: WebSocket, table_id: str) -> None:
    """A seat's or a spectator's live view, until the connection closes."""
    await websocket.accept()
    try:
        hello = read_hello(await asyncio.wait_for(websocket.receive_text(), timeout=10))
    except (TimeoutError, ValueError, WebSocketDisconnect) as error:
        with contextlib.suppress(Exception):
            await refuse(websocket, f"bad first message: {error}", 4400)
        return
    seat, token = hello.seat, hello.token
    tables = server.tables
    wake = server.hub.watch(table_id)
    present: int | None = None
    try:
        try:
            message = await seat_message(tables, table_id, seat, token, hello.since)
        except TableError as error:
            await refuse(websocket, error.message, 4000 + error.status)
            return
        await send(websocket, {"type": "view", **message})
        held = message["log_from"] + len(message["log"])
        closed = asyncio.ensure_future(moves(server, websocket, table_id, seat, token))
        if seat is not None:
            present = seat
            tables.clocks.connected(table_id, seat)  # this process's clocks see it at once
        # The other server processes see the seat as present through the database: marked
        # often enough for the table's away limit (not at all without one: a write per seat
        # every few seconds is most of the work of a server with a thousand tables).
        away = tables.cache.get(table_id).clock.away
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
                message = await seat_message(tables, table_id, seat, token, held)
            except TableError as error:  # the seat was given up, say
                await refuse(websocket, error.message, 4000 + error.status)
                return
            # Sent even when only seats, clocks or notices changed.
            await send(websocket, {"type": "view", **message})
            held = message["log_from"] + len(message["log"])
        closed.cancel()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        server.hub.unwatch(table_id, wake)
        if present is not None:
            tables.clocks.disconnected(table_id, present)
            # The away limit counts from the moment the seat left.
            with contextlib.suppress(Exception):
                await run_in_threadpool(server.storage.mark_seen, table_id, present, time.time())


async def seat_message(
    tables: Tables, table_id: str, seat: int | None, token: str | None, since: int
) -> SeatMessage:
    """The seat's message: made on the event loop when the table is free, which is cheaper
    than a trip to a worker thread; otherwise in a worker thread, which may wait for it."""
    ready = tables.views.message_now(table_id, seat, token, since)
    if ready is not None:
        return ready
    return await run_in_threadpool(tables.views.message, table_id, seat, token, since)


async def moves(
    server: Server, websocket: WebSocket, table_id: str, seat: int | None, token: str | None
) -> None:
    """The moves a seat sends on its WebSocket, until it goes away, each answered on the
    socket (an :class:`~courtly.web.protocol.AnswerMessage` or a
    :class:`~courtly.web.protocol.RefusedMessage`) with its ``ref`` sent back."""
    tables = server.tables
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            text = await websocket.receive_text()
            ref: Any = None
            try:
                try:  # the usual move: parsed and checked in one pass
                    move = MoveMessage.model_validate_json(text)
                except ValidationError:
                    # Parsed again to say what is wrong as the REST call would have.
                    data = json.loads(text)
                    ref = data.get("ref") if isinstance(data, dict) else None
                    move = read_move(data, seat)
                ref = move.ref
                if seat is None:
                    raise TableError(403, "a spectator cannot move")
                # At once on the event loop when the table and the database are free (most
                # moves), else in a worker thread, which may wait for them.
                answer = await tables.moves.submit_on_loop(
                    table_id, seat, move.action, move.version, token
                )
                if answer is None:
                    answer = await run_in_threadpool(
                        tables.moves.submit, table_id, seat, move.action, move.version, token
                    )
            except (WebSocketDisconnect, RuntimeError, asyncio.CancelledError):
                raise
            except ValueError as error:  # (json's errors are ValueErrors)
                await send(websocket, refused(ref, 400, f"bad JSON: {error}"))
            except TableError as error:
                await send(websocket, refused(ref, error.status, error.message, error.version))
            except Exception as error:  # the database failed, say: the move was not made
                log.error("a move on a WebSocket failed: %r", error, exc_info=error)
                detail = "the server failed on this move; nothing was changed"
                await send(websocket, refused(ref, 500, detail))
            else:
                reply: AnswerMessage = {"type": "answer", "ref": ref, **answer.to_dict(table_id)}
                await send(websocket, reply)


def refused(ref: Any, status: int, detail: str, version: int | None = None) -> RefusedMessage:
    """A move's refusal on the socket: the REST status, and the REST refusal's fields."""
    return {"type": "refused", "ref": ref, "status": status, **refusal(detail, version)}
