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
import logging
import time
from typing import Any

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from ..chat import ChatReader, chat_topic
from ..deps import ServerDep
from ..messages import SeatMessage, refusal
from ..model import TableError
from ..people.sessions import socket_account
from ..protocol import (
    MAX_COUNT,
    AnswerMessage,
    ChatMessage,
    ChatReadMessage,
    ErrorMessage,
    Hello,
    MoveMessage,
    RefusedMessage,
    ServerMessage,
)
from ..refusals import MAX_BODY
from ..server import Server
from ..tables import Tables
from ..tables.access import Credential, SignedInPerson

log = logging.getLogger("courtly.web")

router = APIRouter()

MAX_MESSAGE = MAX_BODY
"""Characters a message may have (a request body's limit); the server's WebSocket takes larger
frames, up to :data:`courtly.web.refusals.MAX_FRAME`, only to refuse them in words."""
HELLO_PROBLEMS = {
    "seat": "seat is a seat number or null",
    "token": "token is the seat's token (text) or null",
    "since": f"since is the number of log events already held (0 to {MAX_COUNT})",
    "chat": "chat is true (the table's chat is sent too) or false",
}
SESSION_CHECK = 30.0
"""Seconds between two checks that the session of a seat's socket opened by cookie is still
alive: signing out everywhere closes it within this time."""
MOVE_PROBLEMS = {
    "action": "action is the action's text or id",
    "version": f"version is the version the move was chosen at (0 to {MAX_COUNT})",
}


@router.websocket("/api/tables/{table_id}/ws")
async def socket(websocket: WebSocket, table_id: str, server: ServerDep) -> None:
    await watch(server, websocket, table_id)


class BadFrame(ValueError):
    """A frame that is no message: binary, or too large (the REST status says which)."""

    def __init__(self, status: int, detail: str) -> None:
        super().__init__(detail)
        self.status = status


async def receive_text(websocket: WebSocket) -> str:
    """The next message's text: :class:`BadFrame` for a binary frame or one over
    :data:`MAX_MESSAGE`, :class:`WebSocketDisconnect` when the client goes away."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if not isinstance(text, str):
        raise BadFrame(400, "messages are JSON in text frames, not binary frames")
    if len(text) > MAX_MESSAGE:
        raise BadFrame(413, f"a message is at most {MAX_MESSAGE} characters")
    return text


def parse_json(text: str) -> Any:
    """``text`` parsed by orjson: a :class:`ValueError` for what is not JSON, nesting deeper
    than orjson's limit (1024) included, where the standard library's parser would overflow
    the interpreter's stack (a RecursionError)."""
    return orjson.loads(text)


def read_hello(text: str) -> Hello:
    """The first message, checked (ValueError says what is wrong with it)."""
    data = parse_json(text)
    if not isinstance(data, dict):
        raise ValueError("the first message is a JSON object")
    try:
        return Hello.model_validate(data)
    except ValidationError as error:
        where = error.errors()[0]["loc"]
        name = str(where[0]) if where else ""
        raise ValueError(HELLO_PROBLEMS.get(name, "the first message is not valid")) from None


def read_move(data: Any, seat: int | None) -> MoveMessage:
    """A move sent on the socket, checked as ``POST .../moves`` checks its body (a
    :class:`TableError` says what is wrong, with the REST status, the first problem in the
    order the REST call would find them)."""
    if not isinstance(data, dict):
        raise TableError(422, "a message is a JSON object")
    try:
        move = MoveMessage.model_validate(data)
    except ValidationError as error:
        problems = {
            str(problem["loc"][0]) if problem["loc"] else "": problem["type"]
            for problem in error.errors()
        }
    else:
        return move
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
    # What is left: a ref pydantic would not take (nested deeper than it validates).
    raise TableError(422, "ref is any JSON value of yours, not nested too deeply")


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
        hello = read_hello(await asyncio.wait_for(receive_text(websocket), timeout=10))
    except (TimeoutError, ValueError, WebSocketDisconnect) as error:
        with contextlib.suppress(Exception):
            await refuse(websocket, f"bad first message: {error}", 4400)
        return
    seat = hello.seat
    token: Credential = hello.token
    if seat is not None and not token:
        # No token: the seat's signed-in person, by their session's cookie.
        account_id = await socket_account(server, websocket)
        token = None if account_id is None else SignedInPerson(account_id)
    by_cookie = isinstance(token, SignedInPerson)
    tables = server.tables
    wake = server.hub.watch(table_id)
    chat_wake = server.hub.watch(chat_topic(table_id))
    reader = ChatReader(server.chat, table_id, spectator=seat is None) if hello.chat else None
    present: int | None = None
    try:
        try:
            message = await seat_message(tables, table_id, seat, token, hello.since)
        except TableError as error:
            await refuse(websocket, error.message, 4000 + error.status)
            return
        await send(websocket, {"type": "view", **message})
        held = message["log_from"] + len(message["log"])
        if reader is not None:
            await send_chat(websocket, await run_in_threadpool(reader.message))
        closed = asyncio.ensure_future(moves(server, websocket, table_id, seat, token, reader))
        if seat is not None:
            present = seat
            tables.clocks.connected(table_id, seat)  # this process's clocks see it at once
        # The other server processes see the seat as present through the database: marked
        # often enough for the table's away limit (not at all without one: a write per seat
        # every few seconds is most of the work of a server with a thousand tables).
        away = tables.cache.get(table_id).clock.away
        every = min(5.0, away / 2) if away > 0 else 5.0
        last_seen = 0.0
        checked = time.monotonic()
        while not closed.done():
            if by_cookie and time.monotonic() - checked > SESSION_CHECK:
                # Signed out (everywhere, or disabled) meanwhile: the seat is no longer proved.
                checked = time.monotonic()
                if await socket_account(server, websocket) is None:
                    await refuse(websocket, "the session ended: sign in again", 4401)
                    return
            if seat is not None and away > 0 and time.monotonic() - last_seen > every:
                last_seen = time.monotonic()
                await run_in_threadpool(server.storage.mark_seen, table_id, seat, time.time())
            waiting = asyncio.ensure_future(wake.wait())
            chatting = asyncio.ensure_future(chat_wake.wait())
            await asyncio.wait(
                {waiting, chatting, closed}, timeout=every, return_when=asyncio.FIRST_COMPLETED
            )
            waiting.cancel()
            chatting.cancel()
            if closed.done():
                continue
            if chat_wake.is_set():
                chat_wake.clear()
                await send_chat(websocket, reader)
            if not wake.is_set():
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
            await send_chat(websocket, reader)  # the chat opens when a silent game ends
        closed.cancel()
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        server.hub.unwatch(table_id, wake)
        server.hub.unwatch(chat_topic(table_id), chat_wake)
        if present is not None:
            tables.clocks.disconnected(table_id, present)
            # The away limit counts from the moment the seat left.
            with contextlib.suppress(Exception):
                await run_in_threadpool(server.storage.mark_seen, table_id, present, time.time())


async def seat_message(
    tables: Tables, table_id: str, seat: int | None, token: Credential, since: int
) -> SeatMessage:
    """The seat's message: made on the event loop when the table is free, which is cheaper
    than a trip to a worker thread; otherwise in a worker thread, which may wait for it."""
    ready = tables.views.message_now(table_id, seat, token, since)
    if ready is not None:
        return ready
    return await run_in_threadpool(tables.views.message, table_id, seat, token, since)


async def send_chat(websocket: WebSocket, chat: ChatReader | ChatMessage | None) -> None:
    """The chat the connection has not had, if any: a connection that did not ask for the
    chat gets none (``chat`` None)."""
    message = chat.message() if isinstance(chat, ChatReader) else chat
    if message is not None:
        await send(websocket, message)


async def moves(
    server: Server,
    websocket: WebSocket,
    table_id: str,
    seat: int | None,
    token: Credential,
    reader: ChatReader | None,
) -> None:
    """The moves a seat sends on its WebSocket, until it goes away, each answered on the
    socket (an :class:`~courtly.web.protocol.AnswerMessage` or a
    :class:`~courtly.web.protocol.RefusedMessage`) with its ``ref`` sent back."""
    tables = server.tables
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            ref: Any = None
            try:
                text = await receive_text(websocket)
                try:  # the usual move: parsed and checked in one pass
                    move = MoveMessage.model_validate_json(text)
                except ValidationError:
                    # Parsed again to say what is wrong as the REST call would have.
                    data = parse_json(text)
                    if isinstance(data, dict) and data.get("type") == "chat-read":
                        await read_spectators(websocket, reader, data)
                        continue
                    ref = echoable(data.get("ref")) if isinstance(data, dict) else None
                    move = read_move(data, seat)
                ref = echoable(move.ref)
                if ref is not move.ref:
                    raise TableError(422, "ref is nested too deeply to be sent back")
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
            except BadFrame as error:
                await send(websocket, refused(None, error.status, str(error)))
            except RecursionError:  # (a RuntimeError, which the next clause lets through)
                await send(websocket, refused(None, 400, "a message is nested too deeply"))
            except (WebSocketDisconnect, RuntimeError, asyncio.CancelledError):
                raise
            except ValueError as error:  # (orjson's errors are ValueErrors)
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


async def read_spectators(
    websocket: WebSocket, reader: ChatReader | None, data: dict[str, Any]
) -> None:
    """A seat chooses to read the spectators' channel, or not: when it starts to, it gets the
    chat again, the spectators' lines among it."""
    try:
        choice = ChatReadMessage.model_validate(data)
    except ValidationError:
        detail = 'a chat-read message is {"type": "chat-read", "spectators": true or false}'
        await send(websocket, refused(None, 422, detail))
        return
    if reader is None:
        detail = 'this connection did not ask for the chat: say "chat": true in the first message'
        await send(websocket, refused(None, 409, detail))
        return
    reader.spectators = choice.spectators
    if choice.spectators:
        await send_chat(websocket, reader.message(everything=True))


def echoable(ref: Any) -> Any:
    """``ref`` if it can be sent back as it came, else None (orjson encodes 255 levels of
    nesting at most, where it parses 1024)."""
    try:
        orjson.dumps(ref)
    except orjson.JSONEncodeError:
        return None
    return ref


def refused(ref: Any, status: int, detail: str, version: int | None = None) -> RefusedMessage:
    """A move's refusal on the socket: the REST status, and the REST refusal's fields."""
    return {"type": "refused", "ref": ref, "status": status, **refusal(detail, version)}
