"""Seats that belong to people: a seat joined while signed in is the person's on any device
(its cookie in place of the token, on REST and on the WebSocket), one seat per person and
table unless hot seat, a guest's seats attached at sign-up, and an account's games exported.

Each test runs on SQLite and on PostgreSQL (tests/web/conftest.py).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from courtly.core.records import read_records
from courtly.core.replays import replay_record
from courtly.web.people.sessions import COOKIE, CSRF_HEADER
from courtly.web.routes import socket as socket_routes

from .test_accounts import PASSWORD
from .test_api import TWO_PEOPLE, bearer, create, hello, join, receive, started, view

GAME = {"game": "test-sealed-bids", "seats": TWO_PEOPLE, "options": {"rounds": 1}}


def device(app: FastAPI, name: str, sign: str = "in", **extra: Any) -> TestClient:
    """A browser of ``name``, signed in (or up), its CSRF token sent with every request."""
    browser = TestClient(app)
    url = "/api/account" if sign == "up" else "/api/account/session"
    response = browser.post(url, json={"name": name, "password": PASSWORD, **extra})
    assert response.status_code in (200, 201), response.text
    browser.headers[CSRF_HEADER] = response.json()["csrf"]
    return browser


def play_to_end(client: TestClient, table: str, moves: dict[int, TestClient]) -> dict[str, Any]:
    """Random legal moves, each seat's made by its device with no token (its cookie)."""
    rng = random.Random(5)
    for _ in range(1000):
        shown = view(client, table, None)
        if shown["status"] != "playing":
            return shown
        for seat in shown["to_move"]:
            mine = moves[seat].get(f"/api/tables/{table}/view", params={"seat": seat}).json()
            if not mine["legal_actions"]:
                continue
            choice = rng.choice(mine["legal_actions"])
            answer = moves[seat].post(
                f"/api/tables/{table}/moves",
                json={"seat": seat, "action": choice["text"], "version": mine["version"]},
            )
            assert answer.status_code in (200, 409), answer.text
    raise AssertionError("the game did not end")


def test_a_seat_taken_signed_in_is_played_from_another_device(
    app: FastAPI, client: TestClient
) -> None:
    device(app, "Anna", "up")
    phone = device(app, "Anna")
    laptop = device(app, "Anna")
    table = create(client, **GAME)["id"]
    joined = phone.post(f"/api/tables/{table}/seats/0/join", json={"name": "Someone else"})
    assert joined.status_code == 200, joined.text
    join(client, table, 1)
    # The seat is Anna's, under her account's name; the laptop finds it.
    assert client.get(f"/api/tables/{table}").json()["seats"][0]["name"] == "Anna"
    assert laptop.get(f"/api/tables/{table}/seats/mine").json() == {"table": table, "seats": [0]}
    assert client.get(f"/api/tables/{table}/seats/mine").json()["seats"] == []
    seen = laptop.get(f"/api/tables/{table}/view", params={"seat": 0})
    assert seen.status_code == 200 and seen.json()["seat"] == 0
    # Not another seat, not another person's: a guest has no seat by cookie.
    assert laptop.get(f"/api/tables/{table}/view", params={"seat": 1}).status_code == 403
    assert client.get(f"/api/tables/{table}/view", params={"seat": 0}).status_code == 401
    boris = device(app, "Boris", "up")
    assert boris.get(f"/api/tables/{table}/view", params={"seat": 0}).status_code == 403


def test_a_cookie_s_move_needs_the_csrf_token(app: FastAPI, client: TestClient) -> None:
    device(app, "Anna", "up")
    laptop = device(app, "Anna")
    table = create(client, **GAME)["id"]
    laptop.post(f"/api/tables/{table}/seats/0/join", json={}).raise_for_status()
    join(client, table, 1)
    mine = laptop.get(f"/api/tables/{table}/view", params={"seat": 0}).json()
    body = {"seat": 0, "action": mine["legal_actions"][0]["text"], "version": mine["version"]}
    forged = laptop.post(f"/api/tables/{table}/moves", json=body, headers={CSRF_HEADER: "x"})
    assert forged.status_code == 403 and CSRF_HEADER in forged.json()["detail"]
    assert view(client, table, None)["version"] == mine["version"]
    made = laptop.post(f"/api/tables/{table}/moves", json=body)
    assert made.status_code == 200, made.text


def test_one_person_takes_one_seat_of_a_table_but_at_hot_seat(
    app: FastAPI, client: TestClient
) -> None:
    anna = device(app, "Anna", "up")
    table = create(client, **GAME)["id"]
    anna.post(f"/api/tables/{table}/seats/0/join", json={}).raise_for_status()
    second = anna.post(f"/api/tables/{table}/seats/1/join", json={})
    assert second.status_code == 409 and "seat 0" in second.json()["detail"]
    assert client.get(f"/api/tables/{table}").json()["free_seats"] == [1]
    hot = create(client, **GAME)["id"]
    for seat in (0, 1):
        joined = anna.post(f"/api/tables/{hot}/seats/{seat}/join", json={"hot_seat": True})
        assert joined.status_code == 200, joined.text
    assert anna.get(f"/api/tables/{hot}/seats/mine").json()["seats"] == [0, 1]


def test_the_seat_s_token_still_works_for_scripts(app: FastAPI, client: TestClient) -> None:
    anna = device(app, "Anna", "up")
    table = create(client, **GAME)["id"]
    token = anna.post(f"/api/tables/{table}/seats/0/join", json={}).json()["token"]
    assert view(client, table, 0, token)["seat"] == 0
    # A bearer token is all a request needs, cookie or not, CSRF token or not.
    del anna.headers[CSRF_HEADER]
    left = anna.post(f"/api/tables/{table}/seats/0/leave", headers=bearer(token))
    assert left.status_code == 200, left.text


def test_the_websocket_takes_the_cookie_of_the_seat_s_person(
    app: FastAPI, client: TestClient
) -> None:
    device(app, "Anna", "up")
    laptop = device(app, "Anna")
    table, _tokens = started(client, **GAME)
    other = create(client, **GAME)["id"]
    laptop.post(f"/api/tables/{other}/seats/0/join", json={}).raise_for_status()
    url = f"/api/tables/{other}/ws"
    with laptop.websocket_connect(url) as socket:
        hello(socket, 0, None)
        first = receive(socket)
        assert first["type"] == "view" and first["seat"] == 0
    # Another site's page cannot open it with the cookie.
    with laptop.websocket_connect(url, headers={"Origin": "https://evil.example"}) as socket:
        hello(socket, 0, None)
        refused = receive(socket)
        assert refused["type"] == "error" and "token" in refused["detail"]
    # Nor is a seat not the person's opened by the cookie.
    with laptop.websocket_connect(f"/api/tables/{table}/ws") as socket:
        hello(socket, 1, None)
        assert receive(socket)["type"] == "error"


def test_a_guest_s_seats_are_attached_at_sign_up(app: FastAPI, client: TestClient) -> None:
    table = create(client, **GAME)["id"]
    token = join(client, table, 0, "guest")
    held = [
        {"table": table, "seat": 0, "token": token},
        {"table": table, "seat": 1, "token": "not the token"},
    ]
    anna = device(app, "Anna", "up", seats=held)
    assert anna.get(f"/api/tables/{table}/seats/mine").json()["seats"] == [0]
    # The seat answers to Anna's cookie now, and its token still.
    assert anna.get(f"/api/tables/{table}/view", params={"seat": 0}).status_code == 200
    assert view(client, table, 0, token)["seat"] == 0
    # A wrong token attaches nothing, and says why.
    again = anna.post("/api/account/seats", json={"seats": held})
    assert again.status_code == 200
    assert again.json()["attached"] == [{"table": table, "seat": 0}]
    [refused] = again.json()["refused"]
    assert refused["seat"] == 1 and refused["detail"]
    boris = device(app, "Boris", "up")
    stolen = boris.post("/api/account/seats", json={"seats": held[:1]})
    assert stolen.json()["refused"][0]["detail"] == "seat 0 belongs to another person"


def test_a_person_exports_their_finished_games_as_records(
    app: FastAPI, client: TestClient, tmp_path: Path
) -> None:
    anna = device(app, "Anna", "up")
    boris = device(app, "Boris", "up")
    tables = []
    for _ in range(2):
        table = create(client, **GAME)["id"]
        anna.post(f"/api/tables/{table}/seats/0/join", json={}).raise_for_status()
        boris.post(f"/api/tables/{table}/seats/1/join", json={}).raise_for_status()
        play_to_end(client, table, {0: anna, 1: boris})
        tables.append(table)
    unfinished = create(client, **GAME)["id"]
    anna.post(f"/api/tables/{unfinished}/seats/0/join", json={}).raise_for_status()
    response = anna.get("/api/account/games")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/x-ndjson")
    path = tmp_path / "games.jsonl"
    path.write_bytes(response.content)
    records = [record for _line, record in read_records(path)]
    assert len(records) == 2
    for record, table in zip(records, tables, strict=True):
        assert record.to_dict() == client.get(f"/api/tables/{table}/record").json()
        assert replay_record(record).is_terminal
    assert client.get("/api/account/games").status_code == 401


def test_signing_out_everywhere_closes_the_seat_s_socket_opened_by_cookie(
    app: FastAPI, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(socket_routes, "SESSION_CHECK", 0.0)
    anna = device(app, "Anna", "up")
    table = create(client, **GAME)["id"]
    anna.post(f"/api/tables/{table}/seats/0/join", json={}).raise_for_status()
    cookie = {"Cookie": f"{COOKIE}={anna.cookies[COOKIE]}"}
    with client.websocket_connect(f"/api/tables/{table}/ws", headers=cookie) as socket:
        hello(socket, 0, None)
        assert receive(socket)["type"] == "view"
        assert anna.delete("/api/account/sessions").json() == {"ended": 1}
        ended = receive(socket)
        assert ended == {"type": "error", "detail": "the session ended: sign in again"}
        assert receive(socket)["code"] == 4401


def test_a_tutorial_is_not_attached(app: FastAPI, client: TestClient) -> None:
    started = client.post("/api/tutorials", json={"game": "royal-gambit"})
    assert started.status_code == 201, started.text
    lesson = started.json()
    held = [{"table": lesson["table"], "seat": lesson["seat"], "token": lesson["token"]}]
    anna = device(app, "Anna", "up")
    answer = anna.post("/api/account/seats", json={"seats": held}).json()
    assert answer["attached"] == [] and "tutorial" in answer["refused"][0]["detail"]
