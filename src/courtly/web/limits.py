"""The limits an operator sets on what one client may ask of the server: requests per minute
per client address, tables open per creator and in all, WebSockets per table and per address,
and how long a request body may take to arrive.

A request over a limit is answered 429 with ``Retry-After`` and a refusal that names the limit
(:func:`courtly.web.refusals.refused`); a WebSocket over a limit is accepted only to be told why
(``{"type": "error", "detail"}``) and closed with code 4429 (4000 + the HTTP status, as every
refused WebSocket is); a body that stops arriving is answered 408. Requests are counted by
the ``limits`` library (a sliding window per address, in memory: each server process counts
its own). The client's address is the peer's, or the one a trusted proxy names
(``X-Forwarded-For``, read by uvicorn from the proxies ``--trusted-proxies`` lists): the creator
of a table is counted by its address, signed in or not (guests have no other name).
"""

from __future__ import annotations

import asyncio
import math
import re
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass

import orjson
from limits import RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import SlidingWindowCounterRateLimiter
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .refusals import refused
from .tables.cache import TableCache

LIVE = ("open", "playing")
"""The statuses of a table that holds memory and counts against the table limits."""

TABLE_RETRY = 60
"""Seconds a client over a table limit is told to wait: tables end, or are closed, in minutes."""

MAX_HEADER_BYTES = 16 * 1024
"""Bytes of a request's headers: uvicorn (h11) refuses more while they arrive in pieces, and
this guard refuses more that arrived at once (431)."""

SOCKET_REFUSED = 4429
"""The close code of a WebSocket over a limit (4000 + 429)."""

_CREATES_TABLE = re.compile(r"^/api/(tables|tutorials|tables/[^/]+/rematch)/?$")
_SOCKET = re.compile(r"^/api/tables/([^/]+)/ws/?$")


@dataclass(frozen=True)
class Limits:
    """What one client may ask of a server process; 0 is no limit. The defaults protect a
    small server (two cores, a few hundred MB) from one greedy or hostile client, and leave a
    household behind one address room to play."""

    requests_per_minute: int = 600
    """HTTP requests and WebSocket connections per client address per minute (sliding window):
    ten a second on average, far above what the browser client needs, whose moves travel on
    its WebSocket."""
    tables_per_address: int = 20
    """Tables open or in play that one address created (tables, tutorials, rematches)."""
    tables: int = 2000
    """Tables open or in play on the server, about 70 KB of memory each."""
    sockets_per_table: int = 50
    """WebSockets watching one table (its seats and its spectators)."""
    sockets_per_address: int = 50
    """WebSockets open from one client address."""
    read_timeout: float = 10.0
    """Seconds a request body may take to arrive, each part of it (408 after)."""


NO_LIMITS = Limits(0, 0, 0, 0, 0, 0.0)
"""No limit at all: tests and benchmarks that play many tables from one address."""


def client_address(scope: Scope) -> str:
    """The client's address: the peer's, or the one a trusted proxy named (uvicorn has already
    replaced the peer by it)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class Guard:
    """The ASGI middleware that holds every client to :class:`Limits`."""

    def __init__(self, app: ASGIApp, limits: Limits, tables: TableCache) -> None:
        self.app = app
        self.limits = limits
        self.tables = tables
        self._window = RateLimitItemPerMinute(max(1, limits.requests_per_minute))
        self._limiter = SlidingWindowCounterRateLimiter(MemoryStorage())
        self._guard = threading.Lock()
        self._created: dict[str, list[str]] = defaultdict(list)
        """Address -> the tables it created (pruned of those no longer live when counted)."""
        self._creating: Counter[str] = Counter()
        """Address -> its table creations under way (counted before they finish)."""
        self._on_table: Counter[str] = Counter()
        self._from_address: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            await self._http(scope, receive, send)
        elif scope["type"] == "websocket":
            await self._websocket(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    # ------------------------------------------------------------------------------ requests

    def _rate_limited(self, address: str) -> int | None:
        """Seconds to wait if ``address`` is over its requests per minute (this one counted)."""
        if self.limits.requests_per_minute <= 0:
            return None
        if self._limiter.hit(self._window, address):
            return None
        stats = self._limiter.get_window_stats(self._window, address)
        return max(1, math.ceil(stats.reset_time - time.time()))

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        if sum(len(name) + len(value) for name, value in scope["headers"]) > MAX_HEADER_BYTES:
            detail = f"the request's headers are larger than {MAX_HEADER_BYTES} bytes"
            await refused(431, detail)(scope, receive, send)
            return
        address = client_address(scope)
        wait = self._rate_limited(address)
        if wait is not None:
            detail = (
                f"too many requests from {address}: at most {self.limits.requests_per_minute} "
                f"a minute; try again in {wait} s"
            )
            await self._too_many(scope, receive, send, detail, wait)
            return
        creates = scope["method"] == "POST" and _CREATES_TABLE.match(scope["path"]) is not None
        if creates:
            full = self._tables_full(address)
            if full is not None:
                await self._too_many(scope, receive, send, full, TABLE_RETRY)
                return
        receive, timed_out = self._timed(receive)
        started = False
        created: list[bytes] = []

        async def watched(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if creates and message["status"] == 201:
                    created.append(b"")
            elif message["type"] == "http.response.body" and created:
                created[-1] += message.get("body", b"")
            await send(message)

        if creates:
            with self._guard:
                self._creating[address] += 1
        try:
            await self.app(scope, receive, watched)
        finally:
            if creates:
                with self._guard:
                    self._creating[address] -= 1
                    if self._creating[address] <= 0:
                        del self._creating[address]
                    if created:
                        self._remember(address, created[-1])
        if timed_out() and not started:
            detail = f"the request body did not arrive within {self.limits.read_timeout:g} s"
            await refused(408, detail)(scope, receive, send)

    def _timed(self, receive: Receive) -> tuple[Receive, Callable[[], bool]]:
        """``receive`` held to the read timeout while the body is still arriving (a request
        whose body never comes would hold its connection and a worker thread forever)."""
        seconds = self.limits.read_timeout
        if seconds <= 0:
            return receive, lambda: False
        state = {"body done": False, "timed out": False}

        async def timed() -> Message:
            if state["body done"]:
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), seconds)
            except TimeoutError:
                state["timed out"] = True
                return {"type": "http.disconnect"}
            if message["type"] != "http.request" or not message.get("more_body", False):
                state["body done"] = True
            return message

        return timed, lambda: state["timed out"]

    async def _too_many(
        self, scope: Scope, receive: Receive, send: Send, detail: str, wait: int
    ) -> None:
        response = refused(429, detail)
        response.headers["Retry-After"] = str(wait)
        await response(scope, receive, send)

    # ------------------------------------------------------------------------------ tables

    def _tables_full(self, address: str) -> str | None:
        """Why ``address`` may not create a table now, if it may not."""
        limits = self.limits
        with self._guard:
            if limits.tables_per_address > 0:
                mine = [t for t in self._created.get(address, ()) if self._live(t)]
                if mine:
                    self._created[address] = mine
                else:
                    self._created.pop(address, None)
                if len(mine) + self._creating[address] >= limits.tables_per_address:
                    return (
                        f"{address} has {limits.tables_per_address} tables open or in play, the "
                        "most one address may have: finish or leave one first"
                    )
            if limits.tables > 0:
                live = sum(1 for table in self.tables.held() if table.status in LIVE)
                if live + sum(self._creating.values()) >= limits.tables:
                    return (
                        f"the server holds {limits.tables} tables open or in play, its most: "
                        "try again when some have ended"
                    )
        return None

    def _live(self, table_id: str) -> bool:
        table = self.tables.loaded(table_id)
        return table is not None and table.status in LIVE

    def _remember(self, address: str, body: bytes) -> None:
        """Count the table a 201 answer made as ``address``'s (``self._guard`` held)."""
        try:
            answer = orjson.loads(body)
        except orjson.JSONDecodeError:
            return
        if isinstance(answer, dict):
            table = answer.get("id", answer.get("table"))
            if isinstance(table, str):
                self._created[address].append(table)

    # ------------------------------------------------------------------------------ sockets

    async def _websocket(self, scope: Scope, receive: Receive, send: Send) -> None:
        address = client_address(scope)
        match = _SOCKET.match(scope["path"])
        table = match.group(1) if match else ""
        limits = self.limits
        problem = None
        wait = self._rate_limited(address)
        with self._guard:
            if wait is not None:
                problem = (
                    f"too many requests from {address}: at most {limits.requests_per_minute} "
                    f"a minute; try again in {wait} s"
                )
            elif 0 < limits.sockets_per_table <= self._on_table[table]:
                problem = f"this table has {limits.sockets_per_table} connections, its most"
            elif 0 < limits.sockets_per_address <= self._from_address[address]:
                problem = f"{address} has {limits.sockets_per_address} connections open, its most"
            else:
                self._on_table[table] += 1
                self._from_address[address] += 1
        if problem is not None:
            await self._refuse_socket(receive, send, problem)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            with self._guard:
                for counts, key in ((self._on_table, table), (self._from_address, address)):
                    counts[key] -= 1
                    if counts[key] <= 0:
                        del counts[key]

    @staticmethod
    async def _refuse_socket(receive: Receive, send: Send, detail: str) -> None:
        """Accept the WebSocket only to say why it is refused, then close it with 4429."""
        message = await receive()
        if message["type"] != "websocket.connect":
            return
        await send({"type": "websocket.accept"})
        text = orjson.dumps({"type": "error", "detail": detail}).decode()
        await send({"type": "websocket.send", "text": text})
        await send({"type": "websocket.close", "code": SOCKET_REFUSED, "reason": "limit"})
