"""Abandoned tables are closed (:mod:`courtly.web.tables.abandonment`): an open table nobody
came to, a table in play whose people are all gone; never a table someone is at, within their
time, or a finished one. A closed table is stored as closed, listed nowhere, joined and played
no more, let go from memory, and stays closed after a restart. The sweep is given a time in
the future rather than waiting.
"""

from __future__ import annotations

import time
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from courtly.web import create_app
from courtly.web.limits import NO_LIMITS

PERSON = {"kind": "person"}
BOT = {"kind": "bot", "bot": "heuristic"}
AFTER = 600.0


def create(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> str:
    body = {"game": "royal-gambit", "players": len(seats), "seats": seats, **extra}
    created = client.post("/api/tables", json=body)
    assert created.status_code == 201, created.text
    table: str = created.json()["id"]
    return table


def join(client: TestClient, table: str, seat: int) -> str:
    joined = client.post(f"/api/tables/{table}/seats/{seat}/join", json={"name": f"P{seat}"})
    assert joined.status_code == 200, joined.text
    token: str = joined.json()["token"]
    return token


def sweep(app: FastAPI, later: float) -> list[str]:
    """Look for abandoned tables as if ``later`` seconds had passed."""
    closed: list[str] = app.state.server.abandonment.sweep(AFTER, time.time() + later)
    return closed


def test_an_open_table_nobody_came_to_is_closed(app: FastAPI, client: TestClient) -> None:
    table = create(client, [PERSON, PERSON])
    token = join(client, table, 0)
    assert sweep(app, AFTER / 2) == []
    assert sweep(app, AFTER + 5) == [table]
    assert table not in app.state.server.tables.cache  # its memory is freed
    assert client.get("/api/tables").json() == []  # the lobby no longer lists it
    shown = client.get(f"/api/tables/{table}").json()
    assert shown["status"] == "closed"
    joined = client.post(f"/api/tables/{table}/seats/1/join", json={"name": "late"})
    assert joined.status_code == 409 and "closed" in joined.json()["detail"]
    view = client.get(
        f"/api/tables/{table}/view",
        params={"seat": 0},
        headers={"Authorization": f"Bearer {token}"},
    ).json()
    assert view["status"] == "closed" and view["legal_actions"] == []
    assert "the table is closed: nobody came" in [notice["text"] for notice in view["notices"]]
    assert sweep(app, AFTER * 10) == []  # closed once


def test_a_game_everyone_left_is_closed(app: FastAPI, client: TestClient) -> None:
    table = create(client, [PERSON, PERSON])
    tokens = [join(client, table, seat) for seat in (0, 1)]
    assert client.get(f"/api/tables/{table}").json()["status"] == "playing"
    assert sweep(app, AFTER + 5) == [table]
    move = client.post(
        f"/api/tables/{table}/moves",
        json={"seat": 0, "action": "hit", "version": 1},
        headers={"Authorization": f"Bearer {tokens[0]}"},
    )
    assert move.status_code == 409 and "closed" in move.json()["detail"]
    # Not a finished game: no record, no replay, no review (its hidden cards stay hidden).
    assert client.get(f"/api/tables/{table}/record").status_code == 409
    assert client.post(f"/api/tables/{table}/review").status_code == 409


def test_a_person_at_the_table_keeps_it_open(app: FastAPI, client: TestClient) -> None:
    table = create(client, [PERSON, PERSON])
    tokens = [join(client, table, seat) for seat in (0, 1)]
    with client.websocket_connect(f"/api/tables/{table}/ws") as websocket:
        websocket.send_json({"seat": 1, "token": tokens[1], "since": 0})
        assert websocket.receive_json()["type"] == "view"
        assert sweep(app, AFTER + 5) == []
    # Seen until a moment ago: still not abandoned until the time has passed since.
    assert sweep(app, AFTER / 2) == []
    assert sweep(app, AFTER + 5) == [table]


def test_a_turn_based_table_waits_a_turn_at_least(app: FastAPI, client: TestClient) -> None:
    day = 86400.0
    table = create(client, [PERSON, PERSON], mode="turn-based", clock={"per_move": day})
    for seat in (0, 1):
        join(client, table, seat)
    assert sweep(app, AFTER + 5) == []
    assert sweep(app, day + 5) == [table]


def test_finished_tables_are_never_closed(app: FastAPI, client: TestClient) -> None:
    table = create(client, [BOT, BOT], options={"target_score": 5})
    deadline = time.monotonic() + 60
    while client.get(f"/api/tables/{table}").json()["status"] != "over":
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert sweep(app, AFTER * 100) == []
    assert client.get(f"/api/tables/{table}/record").status_code == 200


def test_the_server_closes_abandoned_tables_by_itself(database_url: str) -> None:
    app = create_app(database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS, abandon_after=0.5)
    with TestClient(app) as client:
        table = create(client, [PERSON, PERSON])
        deadline = time.monotonic() + 30
        while client.get(f"/api/tables/{table}").json()["status"] != "closed":
            assert time.monotonic() < deadline, "the open table was never closed"
            time.sleep(0.1)
    # A restart leaves it closed, and does not load it.
    again = create_app(database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS)
    with TestClient(again) as client:
        assert table not in again.state.server.tables.cache
        assert client.get(f"/api/tables/{table}").json()["status"] == "closed"
