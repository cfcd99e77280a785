"""How long one look for waiting turns takes (what every server process does every
``--mail-every`` seconds), and how fast the turn e-mails go out when many are due at once.

A fresh database (a SQLite file, and with ``--postgres`` a throwaway PostgreSQL started here)
gets ``--tables`` turn-based tables in play of two people each (rows written directly), every
person with an address and a delay of an hour; a real SMTP server (aiosmtpd) listens locally.
Then:

- ``idle``: the look when no turn has waited long enough (the usual case), ``--repeats`` times;
- ``due``: every table's turn has waited two hours: one sweep claims and sends one e-mail per
  table (its time, and e-mails per second);
- ``after``: the look again, every wait claimed already (nothing sent).

    .venv/bin/python benchmarks/turn_mail.py --postgres --out benchmarks/results/turn_mail.json

Figures depend on the machine; the median and the 95th percentile are reported.
"""

from __future__ import annotations

import argparse
import json
import platform
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller
from sqlalchemy import text

from courtly.testing.postgres import PostgresServer, find_bindir
from courtly.web.mail import Mailer
from courtly.web.storage import open_storage
from courtly.web.storage.rows import AccountRow, SeatRow, TableRow
from courtly.web.turn_mail import PREFERENCE, TurnMail


class Counter:
    def __init__(self) -> None:
        self.received = 0

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        self.received += 1
        return "250 OK"


def fill(storage: Any, tables: int, now: float) -> None:
    with storage.session() as session:
        accounts, table_rows, seats = [], [], []
        for index in range(tables * 2):
            accounts.append(
                {
                    "id": f"a{index:06d}",
                    "name": f"P{index}",
                    "name_key": f"p{index}",
                    "password_hash": None,
                    "created_at": now,
                    "admin": False,
                    "disabled": False,
                    "name_hidden": False,
                    "deleted_at": None,
                    "preferences": {
                        PREFERENCE: {"address": f"p{index}@example.org", "after": 3600}
                    },
                }
            )
        for index in range(tables):
            table_id = f"t{index:06d}"
            table_rows.append(
                {
                    "id": table_id,
                    "game": "royal-gambit",
                    "players": 2,
                    "options": {},
                    "mode": "turn-based",
                    "clock": {"per_move": 86400},
                    "seed": index,
                    "status": "playing",
                    "version": 10,
                    "revision": 10,
                    "hints": True,
                    "created_at": now,
                    "updated_at": now,
                    "tutorial": False,
                    "seed_chosen": False,
                    "rated": False,
                }
            )
            for seat in (0, 1):
                seats.append(
                    {
                        "table_id": table_id,
                        "seat": seat,
                        "kind": "person",
                        "bot": None,
                        "name": f"P{index * 2 + seat}",
                        "token_hash": None,
                        "bot_control": False,
                        "account_id": f"a{index * 2 + seat:06d}",
                        "clock_ms": 86_400_000,
                        "clock_since": now - 60 if seat == 0 else None,
                        "place": None,
                    }
                )
        session.execute(AccountRow.__table__.insert(), accounts)
        session.execute(TableRow.__table__.insert(), table_rows)
        session.execute(SeatRow.__table__.insert(), seats)
    with storage.session() as session:
        if session.get_bind().dialect.name == "postgresql":
            session.execute(text("ANALYZE"))


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median_ms": round(statistics.median(ordered) * 1000, 2),
        "p95_ms": round(ordered[int(0.95 * (len(ordered) - 1))] * 1000, 2),
    }


def measure(url: str, tables: int, repeats: int, port: int, counter: Counter) -> dict[str, Any]:
    storage = open_storage(url)
    try:
        now = time.time()
        fill(storage, tables, now)
        mail = TurnMail(
            storage,
            Mailer.from_url(f"smtp://127.0.0.1:{port}", "courtly@example.org"),
            "http://courtly.example",
            "benchmark",
            str,
        )
        idle = []
        for _ in range(repeats):
            started = time.perf_counter()
            assert mail.sweep(now) == 0
            idle.append(time.perf_counter() - started)
        before = counter.received
        started = time.perf_counter()
        sent = mail.sweep(now + 7200)
        due = time.perf_counter() - started
        assert sent == tables and counter.received - before == tables
        after = []
        for _ in range(repeats):
            started = time.perf_counter()
            assert mail.sweep(now + 7200) == 0
            after.append(time.perf_counter() - started)
        return {
            "tables": tables,
            "idle": percentiles(idle),
            "due": {"seconds": round(due, 2), "emails_per_second": round(sent / due, 1)},
            "after": percentiles(after),
        }
    finally:
        storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=20)
    parser.add_argument("--postgres", action="store_true", help="PostgreSQL too")
    parser.add_argument("--out", type=Path)
    options = parser.parse_args()
    counter = Counter()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(counter, hostname="127.0.0.1", port=port)
    controller.start()
    results: dict[str, Any] = {"machine": platform.platform(), "python": sys.version.split()[0]}
    try:
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite:///{Path(folder) / 'bench.sqlite3'}"
            results["sqlite"] = measure(url, options.tables, options.repeats, port, counter)
            print("sqlite", json.dumps(results["sqlite"]), flush=True)
        if options.postgres:
            bindir = find_bindir()
            if bindir is None:
                raise SystemExit("--postgres needs PostgreSQL: apt-get install postgresql")
            postgres = PostgresServer(bindir)
            postgres.start()
            try:
                url = postgres.url(postgres.create_database())
                results["postgresql"] = measure(url, options.tables, options.repeats, port, counter)
                print("postgresql", json.dumps(results["postgresql"]), flush=True)
            finally:
                postgres.stop()
    finally:
        controller.stop()
    if options.out:
        options.out.parent.mkdir(parents=True, exist_ok=True)
        options.out.write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
