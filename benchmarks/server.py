"""Load benchmark of the Courtly server: many tables played at once by scripted clients.

It starts a real ``courtly serve`` process (bots at pace 0) on a fresh SQLite file in a
temporary folder, on a throwaway PostgreSQL that it starts itself (``--postgres``), or on
``--database-url``. Then it plays ``--tables`` tables at once. Every seat is a person's seat
with a scripted client: its own WebSocket, random legal moves chosen from its own view and sent
with the version they were chosen at, on that WebSocket (answered there), or with
``--moves-over rest`` as ``POST .../moves``, the way the browser client plays. A finished game
is followed by a rematch (same seats, same tokens), so every table plays all the time.

Measured over ``--seconds`` (after ``--warmup``), or until ``--moves`` moves are acknowledged:

- moves/s: moves the server acknowledged (200) per second;
- submit→ack: from writing a move's request to reading its answer;
- submit→other seat: from writing a move's request to the moment the other seat's WebSocket
  delivers a view at the move's version or later: what a rival waits to see the move;
- pool wait: how long a move waited for a free connection of the client's bounded pool before
  it was written (not part of the latencies above: a real player has a connection of their own).

By default a seat moves the moment it may (no thinking time): a closed loop, which finds the
most moves the server can take, and where the latency is about the number of tables divided by
the throughput (Little's law: 100 tables at 1,000 moves/s wait 100 ms on average). With
``--think`` each seat first waits a random time (0 to twice the mean), so the tables offer a
steady load (100 tables thinking 0.1 s offer about 1,000 moves/s) and the latency is the
server's answer to that load.

The client shares the machine's cores with the server: the report gives the CPU time of the
server process (all its threads), of this client, of PostgreSQL (when started here) and of
everything else on the machine over the window, and the client's event-loop lag (how late its
timers fire; a late client loop also inflates the latencies it measures).

    python benchmarks/server.py --tables 100 1000 --out benchmarks/results/server.json
    python benchmarks/server.py --postgres --tables 100 1000 --out benchmarks/results/server.json
    python benchmarks/server.py --tables 100 --think 0.07            # about 1,300 moves/s offered
    python benchmarks/server.py --tables 10 --seconds 5              # a smoke run

``--out`` keeps the file's results of other settings (database, table count, game, ...) and
replaces those of the same settings, so a SQLite run and a PostgreSQL run fill one file.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import json
import math
import os
import platform
import random
import resource
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import websockets
from rich.console import Console
from rich.table import Table as RichTable

from courtly.testing.postgres import PostgresServer, find_bindir
from courtly.testing.server import HOST, ServerProcess

TICKS = os.sysconf("SC_CLK_TCK")
now = time.perf_counter
IDLE_LIMIT = 4.0
"""Seconds a kept-alive connection may idle before it is dropped (uvicorn closes it at 5)."""


# ---------------------------------------------------------------------------------- CPU time


def _stat_fields(pid: int | str) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (which may hold spaces):
    ``[0]`` is field 3 (state), ``[1]`` the parent, ``[11]``/``[12]`` user/system ticks,
    ``[13]``/``[14]`` those of its waited-for children."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text.rsplit(")", 1)[1].split()


def process_cpu(pid: int, children: bool = False) -> float:
    """CPU seconds of ``pid`` (every thread), with ``children`` also its exited children's."""
    fields = _stat_fields(pid)
    if fields is None:
        return 0.0
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / TICKS


def family_cpu(parent: int) -> float:
    """CPU seconds of ``parent``, its exited children and its living children (PostgreSQL: the
    postmaster and its backends)."""
    total = process_cpu(parent, children=True)
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            fields = _stat_fields(entry.name)
            if fields is not None and int(fields[1]) == parent:
                total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


def machine_cpu() -> float:
    """Busy CPU seconds of all cores together (/proc/stat: all but idle and iowait)."""
    first = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    values = [int(value) for value in first[1:9]]
    return (sum(values) - values[3] - values[4]) / TICKS


def client_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


# ---------------------------------------------------------------------------------- processes


def start_postgres() -> PostgresServer:
    """A throwaway PostgreSQL cluster (as ``nobody`` when run as root), started the way the
    tests start theirs."""
    bindir = find_bindir()
    if bindir is None:
        raise SystemExit(
            "--postgres needs PostgreSQL (initdb, pg_ctl in /usr/lib/postgresql/*/bin): "
            "apt-get install postgresql"
        )
    postgres = PostgresServer(bindir)
    postgres.start()
    return postgres


def new_database(postgres: PostgresServer) -> str:
    """A fresh database whose commits wait for their WAL to be written, like a production
    setting: the cluster is tuned for tests (``synchronous_commit=off``), and a database's own
    setting overrides that for its sessions. (``fsync`` stays off, cluster wide: a commit is
    written to the operating system but not forced to the disk, the same promise as Courtly's
    SQLite in WAL mode with ``synchronous=NORMAL``.)"""
    name = postgres.create_database()
    with postgres.admin() as connection:
        connection.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = on')
    return postgres.url(name)


# ---------------------------------------------------------------------------------- HTTP


@dataclass
class Response:
    status: int
    body: Any
    sent: float
    """When the request was written (its connection in hand)."""
    received: float
    waited: float
    """Seconds it waited for a connection of the pool."""


class HttpPool:
    """A bounded pool of keep-alive HTTP/1.1 connections, in a few lines of asyncio rather than
    a general client, so the client takes as little of the shared CPU as it can. It reads what
    the Courtly server sends: a body with Content-Length or chunked."""

    def __init__(self, port: int, size: int) -> None:
        self.port = port
        self.slots = asyncio.Semaphore(size)
        self.idle: list[tuple[asyncio.StreamReader, asyncio.StreamWriter, float]] = []
        self.host_header = f"Host: {HOST}:{port}\r\n"

    async def request(
        self, method: str, path: str, payload: Any = None, token: str | None = None
    ) -> Response:
        data = b"" if payload is None else json.dumps(payload).encode()
        head = f"{method} {path} HTTP/1.1\r\n{self.host_header}"
        if token is not None:
            head += f"Authorization: Bearer {token}\r\n"
        if payload is not None:
            head += "Content-Type: application/json\r\n"
        request = f"{head}Content-Length: {len(data)}\r\n\r\n".encode() + data
        asked = now()
        async with self.slots:
            for attempt in range(2):
                reader, writer = await self._connection(fresh=attempt > 0)
                sent = now()
                try:
                    writer.write(request)
                    status, body, keep = await self._answer(reader)
                except (ConnectionError, asyncio.IncompleteReadError):
                    writer.close()
                    if attempt:
                        raise
                    # A kept-alive connection the server had closed (uvicorn closes them after
                    # 5 s idle): once more on a fresh one (safe for a move too: a retry at the
                    # same version is applied once).
                    continue
                received = now()
                if keep:
                    self.idle.append((reader, writer, received))
                else:
                    writer.close()
                return Response(status, body, sent, received, sent - asked)
        raise AssertionError("unreachable")

    async def _connection(self, fresh: bool) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        """The most recently used idle connection, unless it idled long enough for the server
        to have closed it (uvicorn: after 5 s), or a new one."""
        while self.idle and not fresh:
            reader, writer, used = self.idle.pop()
            if now() - used < IDLE_LIMIT:
                return reader, writer
            writer.close()
        return await asyncio.open_connection(HOST, self.port)

    @staticmethod
    async def _answer(reader: asyncio.StreamReader) -> tuple[int, Any, bool]:
        head = await reader.readuntil(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip().lower()
        if "content-length" in headers:
            raw = await reader.readexactly(int(headers["content-length"]))
        elif headers.get("transfer-encoding") == "chunked":
            parts = []
            while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
                parts.append(await reader.readexactly(size))
                await reader.readexactly(2)
            await reader.readuntil(b"\r\n")
            raw = b"".join(parts)
        else:
            raw = b""
        body = json.loads(raw) if raw else None
        return status, body, headers.get("connection") != "close"

    async def close(self) -> None:
        for _reader, writer, _used in self.idle:
            writer.close()
        self.idle.clear()


class HttpxPool(HttpPool):
    """The same pool through httpx (``--client httpx``), to see what a general client costs."""

    def __init__(self, port: int, size: int) -> None:
        import httpx

        super().__init__(port, size)
        self.client = httpx.AsyncClient(
            base_url=f"http://{HOST}:{port}",
            limits=httpx.Limits(max_connections=size, max_keepalive_connections=size),
            timeout=120,
            trust_env=False,
        )

    async def request(
        self, method: str, path: str, payload: Any = None, token: str | None = None
    ) -> Response:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        asked = now()
        async with self.slots:
            sent = now()
            answer = await self.client.request(method, path, json=payload, headers=headers)
            received = now()
        body = answer.json() if answer.content else None
        return Response(answer.status_code, body, sent, received, sent - asked)

    async def close(self) -> None:
        await self.client.aclose()


# ---------------------------------------------------------------------------------- the run


@dataclass
class Figures:
    """What happened inside the measured window ``[start, end)``."""

    start: float = math.inf
    end: float = math.inf
    acks: int = 0
    ack_ms: list[float] = field(default_factory=list)
    other_ms: list[float] = field(default_factory=list)
    wait_ms: list[float] = field(default_factory=list)
    lag_ms: list[float] = field(default_factory=list)
    games: int = 0
    messages: int = 0
    message_bytes: int = 0
    errors: Counter[str] = field(default_factory=Counter)

    def inside(self, moment: float) -> bool:
        return self.start <= moment < self.end


class Failure(Exception):
    """The server refused something the script needs (the message says what)."""


class Run:
    """One measurement: a server, its tables, their seats, the figures."""

    def __init__(self, args: argparse.Namespace, port: int, tables: int) -> None:
        self.args = args
        self.port = port
        self.tables = tables
        pool = HttpxPool if args.client == "httpx" else HttpPool
        self.http = pool(port, args.connections)
        self.figures = Figures()
        self.started = asyncio.Event()
        self.stopping = asyncio.Event()
        self.enough = asyncio.Event()
        """Set when ``--moves`` moves were acknowledged."""
        self.ready = 0
        self.all_ready = asyncio.Event()
        self.setup_slots = asyncio.Semaphore(args.setup_concurrency)
        self.rng = random.Random(args.seed)

    def fail(self, what: str) -> None:
        self.figures.errors[what[:160]] += 1

    def table_ready(self) -> None:
        self.ready += 1
        if self.tables >= 100 and self.ready % (self.tables // 10) == 0:
            print(f"  {self.ready} of {self.tables} tables seated", flush=True)
        if self.ready == self.tables:
            self.all_ready.set()

    async def post(self, path: str, payload: Any, token: str | None = None) -> Any:
        response = await self.http.request("POST", path, payload, token)
        if response.status not in (200, 201):
            raise Failure(f"POST {path.split('/')[-1]}: {response.status} {response.body}")
        return response.body


class Seat:
    """A person's seat at one table: its WebSocket, and random legal moves from its own view."""

    def __init__(self, run: Run, table: TableClient, index: int, token: str) -> None:
        self.run = run
        self.table = table
        self.index = index
        self.token = token
        self.rng = random.Random(run.rng.random())
        self.socket: Any = None
        self.latest: dict[str, Any] = {}
        self.floor = 0
        """The version from which this seat may move again (its last move's answer)."""
        self.in_flight = False
        self.seen: list[tuple[int, float]] = []
        """Recent ``(version, arrival)`` of the views this seat's WebSocket delivered."""
        self.expected: list[tuple[int, float]] = []
        """``(version, sent)`` of other seats' moves this seat has not seen yet."""
        self.replies: dict[int, asyncio.Future[tuple[int, Any, float]]] = {}
        """Moves sent on the WebSocket and not answered yet, by their ``ref``."""
        self.refs = itertools.count()

    async def connect(self, table_id: str) -> None:
        self.socket = await websockets.connect(
            f"ws://{HOST}:{self.run.port}/api/tables/{table_id}/ws",
            compression="deflate" if self.run.args.compression else None,
            max_size=None,
            ping_interval=None,
            open_timeout=120,
            close_timeout=5,
            proxy=None,
        )
        await self.socket.send(json.dumps({"seat": self.index, "token": self.token, "since": 0}))
        self.view(await self.socket.recv())

    async def read(self) -> None:
        """Take the views until the game is over."""
        async for raw in self.socket:
            self.view(raw)
            if self.latest["status"] == "over":
                return
        raise Failure(f"the WebSocket of seat {self.index} closed during a game")

    def view(self, raw: str | bytes) -> None:
        arrived = now()
        message = json.loads(raw)
        kind = message.get("type")
        if kind in ("answer", "refused"):  # a move's answer (--moves-over websocket)
            reply = self.replies.pop(message.get("ref"), None)
            if reply is None:
                raise Failure(f"an answer to no move: {message}")
            reply.set_result((200 if kind == "answer" else message["status"], message, arrived))
            return
        if kind != "view":
            raise Failure(f"the WebSocket said {message}")
        version = message["version"]
        figures = self.run.figures
        if figures.inside(arrived):
            figures.messages += 1
            figures.message_bytes += len(raw)
        self.seen.append((version, arrived))
        if len(self.seen) > 64:
            del self.seen[:32]
        if self.expected:
            waiting = []
            for wanted, sent in self.expected:
                if version >= wanted:
                    figures.other_ms.append((arrived - sent) * 1000)
                else:
                    waiting.append((wanted, sent))
            self.expected = waiting
        self.latest = message
        self.maybe_move()

    def expect(self, version: int, sent: float) -> None:
        """Another seat's move made ``version``: time when this seat's WebSocket shows it."""
        first = None
        for seen_version, arrived in reversed(self.seen):
            if seen_version < version:
                break
            first = arrived
        if first is not None:  # the view came before the mover had its answer
            self.run.figures.other_ms.append((first - sent) * 1000)
        else:
            self.expected.append((version, sent))

    def can_move(self, view: dict[str, Any]) -> bool:
        return (
            self.run.started.is_set()
            and not self.run.stopping.is_set()
            and view.get("status") == "playing"
            and view["version"] >= self.floor
            and self.index in view["to_move"]
            and bool(view["legal_actions"])
        )

    def maybe_move(self) -> None:
        if self.in_flight or not self.can_move(self.latest):
            return
        self.in_flight = True
        task = asyncio.create_task(self.move(self.latest))
        self.table.moves.add(task)
        task.add_done_callback(self.table.moves.discard)

    async def move(self, view: dict[str, Any]) -> None:
        think = self.run.args.think
        if think:
            await asyncio.sleep(self.rng.uniform(0, 2 * think))
            view = self.latest
            if not self.can_move(view):
                self.in_flight = False
                return
        version = view["version"]
        action = self.rng.choice(view["legal_actions"])["id"]
        run, figures = self.run, self.run.figures
        try:
            if run.args.moves_over == "websocket":
                response = await self.move_on_socket(action, version)
            else:
                response = await run.http.request(
                    "POST",
                    f"/api/tables/{self.table.id}/moves",
                    {"seat": self.index, "action": action, "version": version},
                    self.token,
                )
        except Exception as error:
            run.fail(f"move: {error!r}")
            self.in_flight = False
            return
        self.in_flight = False
        if response.status == 200:
            made = response.body["version"]
            self.floor = made
            if figures.inside(response.received):
                figures.acks += 1
                if run.args.moves and figures.acks >= run.args.moves:
                    figures.end = response.received
                    run.enough.set()
            if figures.inside(response.sent):
                figures.ack_ms.append((response.received - response.sent) * 1000)
                figures.wait_ms.append(response.waited * 1000)
                for other in self.table.seats:
                    if other is not self:
                        other.expect(made, response.sent)
        else:
            body = response.body if isinstance(response.body, dict) else {}
            run.fail(f"move {response.status}: {body.get('detail')}")
            self.floor = max(version + 1, int(body.get("version", 0)))
        self.maybe_move()

    async def move_on_socket(self, action: int, version: int) -> Response:
        """A move sent on the seat's WebSocket, answered there (read by :meth:`view`)."""
        ref = next(self.refs)
        reply: asyncio.Future[tuple[int, Any, float]] = asyncio.get_running_loop().create_future()
        self.replies[ref] = reply
        sent = now()
        await self.socket.send(
            json.dumps({"type": "move", "action": action, "version": version, "ref": ref})
        )
        status, body, received = await reply
        return Response(status, body, sent, received, 0.0)


class TableClient:
    """One table played from start to end, then rematched, until the run stops."""

    def __init__(self, run: Run, number: int) -> None:
        self.run = run
        self.number = number
        self.id = ""
        self.seats: list[Seat] = []
        self.moves: set[asyncio.Task[None]] = set()

    async def play(self) -> None:
        run = self.run
        try:
            async with run.setup_slots:
                await self._sit_down()
        except Exception as error:
            run.fail(f"setup: {error!r}")
            run.table_ready()
            return
        run.table_ready()
        await run.started.wait()
        try:
            while True:
                for seat in self.seats:
                    seat.maybe_move()
                if not await self._until_over():
                    return
                if run.figures.inside(now()):
                    run.figures.games += 1
                await self._close()
                rematch = await run.post(
                    f"/api/tables/{self.id}/rematch?seat=0", None, self.seats[0].token
                )
                await self._connect(rematch["id"], [seat.token for seat in self.seats])
        except Exception as error:
            if not run.stopping.is_set():
                run.fail(f"play: {error!r}")
        finally:
            await self._close()

    async def _sit_down(self) -> None:
        args = self.run.args
        created = await self.run.post(
            "/api/tables",
            {
                "game": args.game,
                "players": args.players,
                "seats": [{"kind": "person"} for _ in range(args.players)],
                "seed": args.seed * 1_000_003 + self.number,
            },
        )
        tokens = []
        for seat in range(args.players):
            joined = await self.run.post(
                f"/api/tables/{created['id']}/seats/{seat}/join", {"name": f"load{seat}"}
            )
            tokens.append(joined["token"])
        await self._connect(created["id"], tokens)

    async def _connect(self, table_id: str, tokens: list[str]) -> None:
        self.id = table_id
        self.seats = [Seat(self.run, self, index, token) for index, token in enumerate(tokens)]
        for seat in self.seats:
            await seat.connect(table_id)

    async def _until_over(self) -> bool:
        """Play until every seat saw the end (True) or the run stops (False)."""
        readers = asyncio.gather(*(seat.read() for seat in self.seats))
        stop = asyncio.ensure_future(self.run.stopping.wait())
        try:
            await asyncio.wait([readers, stop], return_when=asyncio.FIRST_COMPLETED)
            if self.moves:  # let the moves already sent be answered
                await asyncio.wait(self.moves, timeout=30)
            if readers.done():
                readers.result()  # raises what a reader met
                return True
            return False
        finally:
            stop.cancel()
            readers.cancel()
            # Retrieved, so that a cancelled gather is not reported as an error never seen.
            readers.add_done_callback(lambda done: done.cancelled() or done.exception())

    async def _close(self) -> None:
        sockets = [seat.socket for seat in self.seats if seat.socket is not None]
        for seat in self.seats:
            seat.socket = None
        for connection in sockets:
            with contextlib.suppress(Exception):
                await connection.close()


async def _loop_lag(run: Run) -> None:
    """How late a 10 ms timer fires on the client's loop: a busy client measures late too."""
    while True:
        asked = now()
        await asyncio.sleep(0.01)
        if run.figures.inside(asked):
            run.figures.lag_ms.append((now() - asked - 0.01) * 1000)


def percentile(values: list[float], share: float) -> float | None:
    """Nearest-rank percentile (``None`` with no values)."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


async def measure(
    args: argparse.Namespace,
    server: ServerProcess,
    tables: int,
    postgres: PostgresServer | None,
    console: Console,
) -> dict[str, Any]:
    """Play ``tables`` tables against ``server`` and return the figures of the window."""
    run = Run(args, server.port, tables)
    lag = asyncio.create_task(_loop_lag(run))
    began = now()
    clients = [TableClient(run, number) for number in range(tables)]
    playing = [asyncio.create_task(client.play()) for client in clients]
    await run.all_ready.wait()
    setup = now() - began
    console.print(f"  {tables} tables ready in {setup:.1f} s; playing", highlight=False)
    if run.figures.errors:
        console.print(f"  setup errors: {dict(run.figures.errors)}", style="red")
    run.started.set()
    figures = run.figures
    figures.start = now() + args.warmup
    if not args.moves:
        figures.end = figures.start + args.seconds
    await asyncio.sleep(args.warmup)

    def cpu() -> dict[str, float]:
        return {
            "server": family_cpu(server.pid),  # with --server-workers, its workers too
            "client": client_cpu(),
            "postgres": family_cpu(postgres.postmaster) if postgres else 0.0,
            "machine": machine_cpu(),
            "wall": now(),
        }

    first = cpu()
    if args.moves:
        await run.enough.wait()
    else:
        await asyncio.sleep(max(0.0, figures.end - now()))
    last = cpu()
    run.stopping.set()
    await asyncio.wait(playing, timeout=60)
    lag.cancel()
    await run.http.close()
    window = figures.end - figures.start
    spent = {key: last[key] - first[key] for key in first}
    cores = os.cpu_count() or 1
    others = spent["machine"] - spent["server"] - spent["client"] - spent["postgres"]

    def ms(values: list[float], share: float) -> float | None:
        found = percentile(values, share)
        return None if found is None else round(found, 2)

    def share(seconds: float) -> float:
        return round(seconds / spent["wall"], 2)

    return {
        "database": args.database_kind,
        "game": args.game,
        "players": args.players,
        "tables": tables,
        "moves_over": args.moves_over,
        "client": args.client,
        "connections": args.connections,
        "compression": args.compression,
        "think_seconds": args.think,
        "seconds": round(window, 2),
        "setup_seconds": round(setup, 2),
        "moves": figures.acks,
        "moves_per_s": round(figures.acks / window, 1),
        "games": figures.games,
        "ack_ms": {"p50": ms(figures.ack_ms, 0.5), "p99": ms(figures.ack_ms, 0.99)},
        "other_seat_ms": {"p50": ms(figures.other_ms, 0.5), "p99": ms(figures.other_ms, 0.99)},
        "pool_wait_ms": {"p50": ms(figures.wait_ms, 0.5), "p99": ms(figures.wait_ms, 0.99)},
        "client_loop_lag_ms": {"p50": ms(figures.lag_ms, 0.5), "p99": ms(figures.lag_ms, 0.99)},
        "views_per_s": round(figures.messages / window, 1),
        "view_bytes_mean": round(figures.message_bytes / max(1, figures.messages)),
        "cpu_cores_used": {
            "server": share(spent["server"]),
            "client": share(spent["client"]),
            "postgres": share(spent["postgres"]),
            "others": share(max(0.0, others)),
            "machine": share(spent["machine"]),
            "available": cores,
        },
        "server_cpu_ms_per_move": round(spent["server"] / max(1, figures.acks) * 1000, 2),
        "server_cpu_seconds_total": round(family_cpu(server.pid), 2),
        "errors": dict(figures.errors),
    }


# ---------------------------------------------------------------------------------- report


def show(console: Console, rows: list[dict[str, Any]]) -> None:
    thinking = {row["think_seconds"] for row in rows}
    table = RichTable(
        title="Courtly server under load ("
        + (
            "closed loop: no thinking time"
            if thinking == {0}
            else f"seats think {', '.join(str(t) for t in sorted(thinking))} s a move on average"
        )
        + ")"
    )
    for name in ("database", "tables", "moves/s", "ack p50", "ack p99", "rival p50", "rival p99"):
        table.add_column(name, justify="right")
    for name in ("pool wait p99", "client lag p99", "views/s", "errors"):
        table.add_column(name, justify="right")

    def ms(value: float | None) -> str:
        return "-" if value is None else f"{value:.1f} ms"

    for row in rows:
        table.add_row(
            row["database"],
            str(row["tables"]),
            f"{row['moves_per_s']:,.0f}",
            ms(row["ack_ms"]["p50"]),
            ms(row["ack_ms"]["p99"]),
            ms(row["other_seat_ms"]["p50"]),
            ms(row["other_seat_ms"]["p99"]),
            ms(row["pool_wait_ms"]["p99"]),
            ms(row["client_loop_lag_ms"]["p99"]),
            f"{row['views_per_s']:,.0f}",
            str(sum(row["errors"].values())),
        )
    console.print(table)
    console.print(
        "ack: submit to its answer; rival: submit to the other seat's WebSocket showing the "
        "move; pool wait: before the submit, not in ack or rival; client lag: how late the "
        "client's 10 ms timer fires.",
        highlight=False,
    )
    cpu = RichTable(title="Where the CPU went over the window (cores busy)")
    for name in ("database", "tables", "server", "client", "postgres", "others", "all", "of"):
        cpu.add_column(name, justify="right")
    for row in rows:
        used = row["cpu_cores_used"]
        cpu.add_row(
            row["database"],
            str(row["tables"]),
            *(f"{used[key]:.2f}" for key in ("server", "client", "postgres", "others", "machine")),
            str(used["available"]),
        )
    console.print(cpu)
    console.print(
        "This client runs on the same machine as the server and takes CPU from it; 'others' "
        "is every other process on the machine (a busy neighbour skews every figure).",
        highlight=False,
    )
    for row in rows:
        console.print(
            f"{row['database']} × {row['tables']} tables: {row['moves']:,} moves in "
            f"{row['seconds']} s, {row['games']} games finished, "
            f"{row['server_cpu_ms_per_move']} ms of server CPU a move; the server process used "
            f"{row['server_cpu_seconds_total']} s of CPU since it started (/proc/PID/stat)",
            highlight=False,
        )
        for note in verdict(row):
            console.print(f"  {note}", style="yellow", highlight=False)
        for error, count in row["errors"].items():
            console.print(f"  {count} × {error}", style="red", highlight=False)


def verdict(row: dict[str, Any]) -> list[str]:
    """What limited the run, as far as the CPU figures tell."""
    used = row["cpu_cores_used"]
    notes = []
    if used["server"] >= 0.85:
        notes.append(
            f"the server process was busy ({used['server']:.2f} cores; one Python process "
            "runs Python code on one core at a time): the server is the limit"
        )
    if used["client"] >= 0.6 or (row["client_loop_lag_ms"]["p99"] or 0) > 20:
        notes.append(
            f"the client was busy ({used['client']:.2f} cores, its loop late by "
            f"{row['client_loop_lag_ms']['p99']} ms at p99): the figures understate the server"
        )
    if used["machine"] >= 0.9 * used["available"] and used["others"] >= 0.25:
        notes.append(
            f"the machine was full and other processes took {used['others']:.2f} cores: "
            "measure again on a quiet machine"
        )
    return notes


def save(path: Path, rows: list[dict[str, Any]]) -> None:
    """Merge ``rows`` into ``path``: a row replaces one of the same database, game, players,
    tables, client and compression."""

    def key(row: dict[str, Any]) -> tuple[Any, ...]:
        return tuple(
            row.get(name)
            for name in (
                "database",
                "game",
                "players",
                "tables",
                "moves_over",
                "client",
                "compression",
                "think_seconds",
            )
        )

    kept: list[dict[str, Any]] = []
    with contextlib.suppress(OSError, ValueError, KeyError):
        kept = json.loads(path.read_text())["results"]
    fresh = {key(row) for row in rows}
    merged = [row for row in kept if key(row) not in fresh] + rows
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        json.dumps(
            {
                "python": platform.python_version(),
                "machine": platform.machine(),
                "cores": os.cpu_count(),
                "results": merged,
            },
            indent=2,
        )
        + "\n"
    )


# ---------------------------------------------------------------------------------- main


@contextlib.contextmanager
def database(
    args: argparse.Namespace, folder: Path, postgres: PostgresServer | None, tables: int
) -> Iterator[str]:
    """A fresh database for one measurement (a given ``--database-url`` is used as it is)."""
    if args.database_url:
        yield args.database_url
    elif postgres is not None:
        yield new_database(postgres)
    else:
        yield f"sqlite:///{folder / f'courtly-{tables}.sqlite3'}"


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--tables",
        type=int,
        nargs="+",
        default=[100, 1000],
        help="tables played at once; several counts: one run each, on a fresh server and database",
    )
    parser.add_argument("--seconds", type=float, default=30.0, help="length of the window")
    parser.add_argument("--moves", type=int, default=0, help="stop after this many moves")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds played unmeasured")
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--database-url", help="a SQLAlchemy URL (default: a fresh SQLite file)")
    where.add_argument("--postgres", action="store_true", help="start a throwaway PostgreSQL")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="mean seconds a seat thinks before each move (uniform in 0 to twice that); "
        "0: a closed loop that finds the most the server can take",
    )
    parser.add_argument("--game", default="royal-gambit", help="a fast game is the hardest load")
    parser.add_argument("--players", type=int, default=2, help="person seats a table")
    parser.add_argument(
        "--connections", type=int, default=128, help="the client's HTTP connections"
    )
    parser.add_argument(
        "--setup-concurrency", type=int, default=16, help="tables seated at once before the run"
    )
    parser.add_argument(
        "--moves-over",
        choices=["websocket", "rest"],
        default="websocket",
        help="send each move on the seat's WebSocket (answered there), or as a REST request "
        "(POST .../moves, as the browser does)",
    )
    parser.add_argument(
        "--client",
        choices=["raw", "httpx"],
        default="raw",
        help="REST through this script's lean HTTP/1.1 pool, or through httpx (about three "
        "times the client CPU a move)",
    )
    parser.add_argument(
        "--compression",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="permessage-deflate on the WebSockets, as browsers ask for it",
    )
    parser.add_argument("--seed", type=int, default=1, help="tables' seeds and seats' choices")
    parser.add_argument("--out", type=Path, help="e.g. benchmarks/results/server.json")
    args = parser.parse_args()
    if args.database_url:
        args.database_kind = args.database_url.split(":", 1)[0].split("+", 1)[0]
    else:
        args.database_kind = "postgresql" if args.postgres else "sqlite"
    # Two sockets per seat on each side, plus the pool: more than the usual 1,024 files.
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if soft < hard:
        print(f"open files limit raised from {soft} to {hard}")
    console = Console(width=None if sys.stdout.isatty() else 132)
    console.print(
        f"Courtly server load: {args.game}, {args.players} person seats a table, "
        f"{os.cpu_count()} cores shared by the server and this client",
        highlight=False,
    )
    rows = []
    postgres = start_postgres() if args.postgres else None
    try:
        with tempfile.TemporaryDirectory(prefix="courtly-load-") as temporary:
            folder = Path(temporary)
            for tables in args.tables:
                with database(args, folder, postgres, tables) as url:
                    console.print(f"{args.database_kind}, {tables} tables", highlight=False)
                    server = ServerProcess(
                        url, folder / f"server-{tables}.log", ["--bot-pace", "0"], cwd=folder
                    )
                    console.print(f"  server pid {server.pid}, log {server.log}", highlight=False)
                    try:
                        rows.append(_run(_one(args, server, tables, postgres, console)))
                    except Exception:
                        console.print(server.log_tail(), markup=False, highlight=False)
                        raise
                    finally:
                        server.stop()
    finally:
        if postgres is not None:
            postgres.stop()
    show(console, rows)
    if args.out:
        save(args.out, rows)
        console.print(f"saved {args.out}")


async def _one(
    args: argparse.Namespace,
    server: ServerProcess,
    tables: int,
    postgres: PostgresServer | None,
    console: Console,
) -> dict[str, Any]:
    await asyncio.to_thread(server.wait_ready)
    return await measure(args, server, tables, postgres, console)


def _run(job: Coroutine[Any, Any, Any]) -> Any:
    """Run ``job`` on uvloop when it is installed (a cheaper loop than asyncio's own)."""
    try:
        import uvloop

        factory: Callable[[], asyncio.AbstractEventLoop] | None = uvloop.new_event_loop
    except ImportError:
        factory = None
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(job)


if __name__ == "__main__":
    main()
