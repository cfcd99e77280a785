"""Load benchmark of Play now: how long until each person is seated, when ``--people`` people
arrive over ``--over`` seconds.

It starts a real ``courtly serve`` process (no limit on clients) on a fresh SQLite file, or on
a throwaway PostgreSQL that it starts itself (``--postgres``). People arrive at random moments
spread evenly over the window (a Poisson-like stream), each wanting a table of ``--game``: half
of them for 2 players, half for any count. Each presses Play now (``POST /api/play-now``) and
then keeps its place with heartbeats (``POST /api/play-now/wait``) every ``--poll`` seconds, as
the page does, until it is told it is seated.

Reported: seated→ the time from pressing Play now to learning the seat (the answer of Play now
itself for the person who completes a table; a heartbeat's for those who waited), its median,
p90, p99 and max; how many were seated; the requests per second the server answered; and the
server process's CPU time. A person who waited learns of the seat at their next heartbeat, so
the figures include up to ``--poll`` seconds of that.

    python benchmarks/play_now.py                      # 1,000 people over a minute, SQLite
    python benchmarks/play_now.py --postgres
    python benchmarks/play_now.py --people 100 --over 5 # a smoke run
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx

from chat import database, percentile
from courtly.testing.server import NO_LIMITS, ServerProcess
from server import process_cpu


async def person(
    client: httpx.AsyncClient,
    at: float,
    start: float,
    args: argparse.Namespace,
    out: dict[str, Any],
) -> None:
    await asyncio.sleep(max(0.0, start + at - time.perf_counter()))
    pressed = time.perf_counter()
    players = 2 if random.random() < 0.5 else 0
    response = await client.post("/api/play-now", json={"game": args.game, "players": players})
    out["requests"] += 1
    if response.status_code != 201:
        out["refused"] += 1
        return
    place = response.json()
    ticket = place["ticket"]
    while place["state"] == "waiting":
        await asyncio.sleep(args.poll)
        answer = await client.post(
            "/api/play-now/wait", headers={"Authorization": f"Bearer {ticket}"}
        )
        out["requests"] += 1
        if answer.status_code != 200:
            out["refused"] += 1
            return
        place = answer.json()
    if place["state"] == "seated":
        out["seated_s"].append(time.perf_counter() - pressed)


async def run(url: str, args: argparse.Namespace) -> dict[str, Any]:
    rng = random.Random(args.seed)
    arrivals = sorted(rng.uniform(0, args.over) for _ in range(args.people))
    out: dict[str, Any] = {"requests": 0, "refused": 0, "seated_s": []}
    limits = httpx.Limits(max_connections=args.connections)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=120) as client:
        start = time.perf_counter()
        await asyncio.gather(*(person(client, at, start, args, out) for at in arrivals))
        elapsed = time.perf_counter() - start
    seated: list[float] = out["seated_s"]
    return {
        "people": args.people,
        "over_s": args.over,
        "poll_s": args.poll,
        "seated": len(seated),
        "refused": out["refused"],
        "requests_per_s": round(out["requests"] / elapsed, 1),
        "seated_ms": {
            "median": round(statistics.median(seated) * 1000, 1),
            "p90": round(percentile(seated, 0.9) * 1000, 1),
            "p99": round(percentile(seated, 0.99) * 1000, 1),
            "max": round(max(seated) * 1000, 1),
        }
        if seated
        else None,
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--people", type=int, default=1000, help="people arriving")
    parser.add_argument("--over", type=float, default=60.0, help="seconds they arrive over")
    parser.add_argument("--poll", type=float, default=1.0, help="seconds between heartbeats")
    parser.add_argument("--game", default="royal-gambit")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--postgres", action="store_true", help="start a throwaway PostgreSQL")
    parser.add_argument("--connections", type=int, default=64, help="the client's connections")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        with database(args, folder) as url:
            server = ServerProcess(
                url, folder / "server.log", ["--bot-pace", "0"], limits=NO_LIMITS
            )
            try:
                server.wait_ready()
                cpu_before = process_cpu(server.pid)
                figures = asyncio.run(run(server.url, args))
                figures["server_cpu_s"] = round(process_cpu(server.pid) - cpu_before, 2)
            finally:
                server.stop()
    figures["database"] = "postgresql" if args.postgres else "sqlite"
    print(json.dumps(figures, indent=2))


if __name__ == "__main__":
    main()
