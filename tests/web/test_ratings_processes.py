"""Two real ``courtly serve`` processes on one PostgreSQL: a rated table played through both is
settled exactly once, though both hear of its end and both try (one finishes it, the other
hears it through LISTEN/NOTIFY).
"""

from __future__ import annotations

import random
from typing import Any

import httpx2
from sqlalchemy import create_engine, text

from .test_processes import DEADLINE, Server, two_servers, wait_for

__all__ = ["two_servers"]  # the fixture, used by the test below

PASSWORD = "correct horse battery"


def sign_up(server: Server, name: str) -> tuple[httpx2.Client, dict[str, Any]]:
    client = httpx2.Client(base_url=server.url, timeout=DEADLINE)
    response = client.post("/api/account", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    return client, response.json()


def test_a_rated_table_ended_in_one_process_is_settled_once_by_both(
    two_servers: tuple[Server, Server], postgres_database: str
) -> None:
    a, b = two_servers
    people = [sign_up(a, "Anna"), sign_up(a, "Bert")]
    engine = create_engine(postgres_database.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        for game in range(2):
            table = a.ok(
                "POST",
                "/api/tables",
                {"game": "royal-gambit", "seats": [{"kind": "person"}] * 2, "rated": True},
            )["id"]
            tokens = []
            for seat, (client, me) in enumerate(people):
                joined = client.post(
                    f"/api/tables/{table}/seats/{seat}/join",
                    json={},
                    headers={"X-Courtly-CSRF": me["csrf"]},
                )
                assert joined.status_code == 200, joined.text
                tokens.append(joined.json()["token"])
            rng = random.Random(game)
            servers = (a, b)
            for step in range(20_000):
                through = servers[step % 2]  # every other move through the other process
                shown = through.ok("GET", f"/api/tables/{table}/view")
                if shown["status"] != "playing":
                    break
                seat = shown["to_move"][0]
                auth = {"Authorization": f"Bearer {tokens[seat]}"}
                mine = httpx2.get(
                    f"{through.url}/api/tables/{table}/view", params={"seat": seat}, headers=auth
                ).json()
                if not mine["legal_actions"]:
                    continue  # this process has not caught up yet
                choice = rng.choice(mine["legal_actions"])
                status, answer = through.call(
                    "POST",
                    f"/api/tables/{table}/moves",
                    {"seat": seat, "action": choice["text"], "version": mine["version"]},
                    tokens[seat],
                )
                # 409: the other process moved the table on meanwhile; look again.
                assert status in (200, 409), answer

            def settled(table: str = table) -> int | None:
                with engine.begin() as connection:
                    count = connection.execute(
                        text("SELECT count(*) FROM rating_changes WHERE table_id = :t"),
                        {"t": table},
                    ).scalar_one()
                return int(count) if count == 4 else None

            wait_for("the table rated", settled, two_servers)
        # Both processes had their chance at each table (A heard of every end): each result
        # counted once, in both pools of both people.
        profile = a.ok("GET", "/api/people/Anna")
        assert {(r["players"], r["games"]) for r in profile["ratings"]} == {(0, 2), (2, 2)}
        with engine.begin() as connection:
            total = connection.execute(text("SELECT count(*) FROM rating_changes")).scalar_one()
            games = connection.execute(text("SELECT DISTINCT games FROM ratings")).scalars()
            assert total == 8 and list(games) == [2]
    finally:
        engine.dispose()
        for client, _me in people:
            client.close()
