"""How long a person with many finished tables waits for My games and for their profile.

A fresh database (a SQLite file, and with ``--postgres`` a throwaway PostgreSQL started here)
gets one person, signed up through the API, with ``--finished`` finished tables of two seats
(the other a rival's; places kept, half of them rated with their rating steps) and a few
tables in play and open. Rows are written directly: what is measured is the reading, not the
playing. Then, through the app in this process (an ASGI client: routing, the session's cookie,
the queries and the JSON, no network), each request is timed ``--repeats`` times:

- ``GET /api/account/tables`` (My games as the lobby asks for it: the last 20 finished),
- ``GET /api/account/tables?finished=1000`` (every finished table listed),
- ``GET /api/people/{name}`` (the profile: counts per game, the last 20 games, ratings, their
  history).

The database is analysed after the rows are written, as PostgreSQL's autovacuum does after a
burst of new rows: without statistics its planner loops over joins it takes for tiny.

    .venv/bin/python benchmarks/my_games.py --postgres --out benchmarks/results/my_games.json

Figures depend on the machine; the median and the 95th percentile are reported.
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text

from courtly.testing.postgres import PostgresServer, find_bindir
from courtly.web import create_app
from courtly.web.limits import NO_LIMITS
from courtly.web.storage.rows import (
    RatingChangeRow,
    RatingRow,
    SeatRow,
    TableRow,
)

GAME = "royal-gambit"
NAME = "Anna"
PASSWORD = "correct horse battery"


def fill(app: Any, account_id: str, rival_id: str, finished: int, active: int) -> None:
    """``finished`` finished tables of the person against a rival and ``active`` in play."""
    storage = app.state.server.storage
    start = time.time() - finished * 60
    with storage.session() as session:
        tables: list[dict[str, Any]] = []
        seats: list[dict[str, Any]] = []
        steps: list[dict[str, Any]] = []
        for index in range(finished + active):
            table_id = f"t{index:06d}"
            over = index < finished
            at = start + index * 60
            tables.append(
                {
                    "id": table_id,
                    "game": GAME,
                    "players": 2,
                    "options": {},
                    "mode": "turn-based",
                    "clock": {},
                    "seed": index,
                    "status": "over" if over else "open",
                    "version": 40,
                    "revision": 40,
                    "hints": True,
                    "created_at": at,
                    "updated_at": at,
                    "tutorial": False,
                    "seed_chosen": False,
                    "rated": over and index % 2 == 0,
                }
            )
            won = index % 3 != 0
            for seat, (who, name) in enumerate(((account_id, NAME), (rival_id, "Bert"))):
                place = (1 if (seat == 0) == won else 2) if over else None
                seats.append(
                    {
                        "table_id": table_id,
                        "seat": seat,
                        "kind": "person",
                        "bot": None,
                        "name": name,
                        "token_hash": f"{index:060d}{seat:04d}",
                        "bot_control": False,
                        "account_id": who,
                        "place": place,
                    }
                )
            if over and index % 2 == 0:
                for pool in (2, 0):
                    steps.append(
                        {
                            "account_id": account_id,
                            "game": GAME,
                            "players": pool,
                            "table_id": table_id,
                            "mu": 25 + index / 100,
                            "sigma": max(1.0, 8.3 - index / 100),
                            "at": at,
                        }
                    )
        session.execute(TableRow.__table__.insert(), tables)
        session.execute(SeatRow.__table__.insert(), seats)
        session.execute(RatingChangeRow.__table__.insert(), steps)
        for pool in (2, 0):
            session.add(
                RatingRow(
                    account_id=account_id,
                    game=GAME,
                    players=pool,
                    mu=30.0,
                    sigma=1.5,
                    games=finished // 2,
                    wins=finished / 3,
                    updated_at=time.time(),
                )
            )
    # What the database's own upkeep (PostgreSQL's autovacuum) does after so many new rows: a
    # planner without statistics takes the 1,000 rows for one or two and joins them in loops
    # (70-170 ms a query where 2-8 ms is the figure with statistics).
    with storage.engine.begin() as connection:
        connection.execute(text("ANALYZE"))


def timed(client: TestClient, path: str, repeats: int) -> dict[str, Any]:
    seconds = []
    size = 0
    for _ in range(repeats):
        began = time.perf_counter()
        response = client.get(path)
        seconds.append(time.perf_counter() - began)
        assert response.status_code == 200, response.text
        size = len(response.content)
    seconds.sort()
    return {
        "median_ms": round(statistics.median(seconds) * 1000, 2),
        "p95_ms": round(seconds[int(0.95 * (len(seconds) - 1))] * 1000, 2),
        "bytes": size,
    }


def measure(url: str, finished: int, active: int, repeats: int) -> dict[str, Any]:
    app = create_app(url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS)
    with TestClient(app) as client:
        rival = client.post("/api/account", json={"name": "Bert", "password": PASSWORD}).json()
        client.cookies.clear()
        me = client.post("/api/account", json={"name": NAME, "password": PASSWORD})
        assert me.status_code == 201, me.text
        began = time.perf_counter()
        fill(app, me.json()["id"], rival["id"], finished, active)
        filled = time.perf_counter() - began
        # Warm: the first request compiles the queries.
        client.get("/api/account/tables")
        listed = client.get("/api/account/tables").json()
        assert listed["finished"] == finished, listed["finished"]
        return {
            "fill_seconds": round(filled, 2),
            "my_games": timed(client, "/api/account/tables", repeats),
            "my_games_all_finished": timed(client, "/api/account/tables?finished=1000", repeats),
            "profile": timed(client, f"/api/people/{NAME}", repeats),
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--finished", type=int, default=1000)
    parser.add_argument("--active", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=50)
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL too")
    parser.add_argument("--out", type=Path)
    options = parser.parse_args()
    results: dict[str, Any] = {
        "finished": options.finished,
        "active": options.active,
        "repeats": options.repeats,
        "python": sys.version.split()[0],
        "machine": platform.machine(),
    }
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/courtly.sqlite3"
        results["sqlite"] = measure(url, options.finished, options.active, options.repeats)
    if options.postgres:
        bindir = find_bindir()
        if bindir is None:
            raise SystemExit("--postgres needs PostgreSQL: apt-get install postgresql")
        postgres = PostgresServer(bindir)
        postgres.start()
        try:
            url = postgres.url(postgres.create_database())
            results["postgresql"] = measure(url, options.finished, options.active, options.repeats)
        finally:
            postgres.stop()
    text = json.dumps(results, indent=2)
    print(text)
    if options.out:
        options.out.parent.mkdir(parents=True, exist_ok=True)
        options.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
