"""Load benchmark of the table chat: chat lines per second at many tables at once.

It starts a real ``courtly serve`` process (no limit on clients, ``--chat-rate 0``: the
server's own speed is measured, not the per-person limit) on a fresh SQLite file, or on a
throwaway PostgreSQL that it starts itself (``--postgres``). It makes ``--tables`` tables of two
people, seats both, and opens each seat's WebSocket asking for the chat (``"chat": true``).
Then every seat says lines (``POST /api/tables/{id}/chat``, as the browser does) in a closed
loop, each as soon as its previous one was answered, for ``--seconds`` after ``--warmup``.

Reported: lines/s the server stored and answered (201); say→ack, from writing the request to
reading its answer; say→other seat, from writing the request to the other seat's WebSocket
delivering the line (what the partner waits to read it); deliveries/s, the lines the sockets
received (each line goes to both seats of its table); the server process's CPU time per line
(its every thread: a figure that holds on a machine busy with other work, where lines/s do
not).

    python benchmarks/chat.py --tables 100
    python benchmarks/chat.py --tables 100 --postgres
    python benchmarks/chat.py --tables 10 --seconds 3      # a smoke run
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx2 as httpx
import websockets

from courtly.testing.postgres import PostgresServer, find_bindir
from courtly.testing.server import NO_LIMITS, ServerProcess
from server import process_cpu


@dataclass
class Figures:
    """What the window measured."""

    acked: int = 0
    refused: int = 0
    delivered: int = 0
    ack_ms: list[float] = field(default_factory=list)
    other_ms: list[float] = field(default_factory=list)


@dataclass
class Seat:
    table: str
    seat: int
    token: str
    sent: dict[str, float] = field(default_factory=dict)
    """Text of a line said by the other seat → when its request was written."""


def percentile(values: list[float], share: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def seat_tables(client: httpx.AsyncClient, tables: int) -> list[tuple[Seat, Seat]]:
    pairs = []
    for _ in range(tables):
        made = await client.post(
            "/api/tables",
            json={"game": "royal-gambit", "seats": [{"kind": "person"}, {"kind": "person"}]},
        )
        made.raise_for_status()
        table = made.json()["id"]
        seats = []
        for seat in range(2):
            joined = await client.post(f"/api/tables/{table}/seats/{seat}/join", json={})
            joined.raise_for_status()
            seats.append(Seat(table, seat, joined.json()["token"]))
        pairs.append((seats[0], seats[1]))
    return pairs


async def listen(url: str, me: Seat, other: Seat, figures: Figures, window: list[bool]) -> None:
    """The seat's WebSocket: every line of the other seat it delivers is timed."""
    address = url.replace("http://", "ws://", 1) + f"/api/tables/{me.table}/ws"
    async with websockets.connect(address, max_size=None) as socket:
        await socket.send(json.dumps({"seat": me.seat, "token": me.token, "chat": True}))
        async for raw in socket:
            message = json.loads(raw)
            if message.get("type") != "chat":
                continue
            now = time.perf_counter()
            for line in message["lines"]:
                if window[0]:
                    figures.delivered += 1
                said = other.sent.pop(line["text"], None)
                if said is not None and window[0]:
                    figures.other_ms.append((now - said) * 1000)


async def speak(
    client: httpx.AsyncClient, me: Seat, figures: Figures, window: list[bool], stop: list[bool]
) -> None:
    number = 0
    while not stop[0]:
        number += 1
        text = f"seat {me.seat} line {number}"
        started = time.perf_counter()
        me.sent[text] = started
        answer = await client.post(
            f"/api/tables/{me.table}/chat",
            json={"channel": "players", "seat": me.seat, "text": text},
            headers={"Authorization": f"Bearer {me.token}"},
        )
        if window[0]:
            if answer.status_code == 201:
                figures.acked += 1
                figures.ack_ms.append((time.perf_counter() - started) * 1000)
            else:
                figures.refused += 1


async def run(url: str, args: argparse.Namespace, server_pid: int) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=args.connections, max_keepalive_connections=128)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=60) as client:
        pairs = await seat_tables(client, args.tables)
        figures = Figures()
        window, stop = [False], [False]
        listeners = []
        for first, second in pairs:
            listeners.append(asyncio.create_task(listen(url, first, second, figures, window)))
            listeners.append(asyncio.create_task(listen(url, second, first, figures, window)))
        await asyncio.sleep(1.0)  # every socket says hello and gets its first chat message
        failed = [task.exception() for task in listeners if task.done()]
        if failed:
            raise SystemExit(f"{len(failed)} WebSockets failed: {failed[0]!r}")
        speakers = [
            asyncio.create_task(speak(client, seat, figures, window, stop))
            for pair in pairs
            for seat in pair
        ]
        await asyncio.sleep(args.warmup)
        window[0] = True
        began, cpu_before = time.perf_counter(), process_cpu(server_pid)
        await asyncio.sleep(args.seconds)
        window[0] = False
        elapsed = time.perf_counter() - began
        server_cpu = process_cpu(server_pid) - cpu_before
        stop[0] = True
        await asyncio.gather(*speakers, return_exceptions=True)
        for task in listeners:
            task.cancel()
        await asyncio.gather(*listeners, return_exceptions=True)
    return {
        "tables": args.tables,
        "seconds": round(elapsed, 2),
        "lines_per_second": round(figures.acked / elapsed, 1),
        "deliveries_per_second": round(figures.delivered / elapsed, 1),
        "refused": figures.refused,
        # What a line costs the server, whatever else shares the machine's cores.
        "server_cpu_ms_per_line": round(server_cpu * 1000 / max(1, figures.acked), 2),
        "server_cpu_share": round(server_cpu / elapsed, 2),
        "say_to_ack_ms": {
            "median": round(statistics.median(figures.ack_ms), 1) if figures.ack_ms else None,
            "p99": round(percentile(figures.ack_ms, 0.99), 1),
        },
        "say_to_other_seat_ms": {
            "median": round(statistics.median(figures.other_ms), 1) if figures.other_ms else None,
            "p99": round(percentile(figures.other_ms, 0.99), 1),
        },
    }


@contextlib.contextmanager
def database(args: argparse.Namespace, folder: Path) -> Iterator[str]:
    if not args.postgres:
        yield f"sqlite:///{folder / 'chat.sqlite3'}"
        return
    bindir = find_bindir()
    if bindir is None:
        raise SystemExit("--postgres needs PostgreSQL (initdb in /usr/lib/postgresql/*/bin)")
    postgres = PostgresServer(bindir)
    postgres.start()
    try:
        name = postgres.create_database()
        with postgres.admin() as connection:
            # Commits wait for their WAL, as in production (the test cluster's default is off).
            connection.execute(f'ALTER DATABASE "{name}" SET synchronous_commit = on')
        yield postgres.url(name)
    finally:
        postgres.stop()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tables", type=int, default=100, help="tables talking at once")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of the window")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds talked unmeasured")
    parser.add_argument("--postgres", action="store_true", help="start a throwaway PostgreSQL")
    parser.add_argument("--connections", type=int, default=64, help="the client's connections")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        with database(args, folder) as url:
            server = ServerProcess(
                url,
                folder / "server.log",
                ["--bot-pace", "0", "--chat-rate", "0"],
                limits=NO_LIMITS,
            )
            try:
                server.wait_ready()
                figures = asyncio.run(run(server.url, args, server.pid))
            finally:
                server.stop()
    figures["database"] = "postgresql" if args.postgres else "sqlite"
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
