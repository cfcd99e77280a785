"""Two real ``courtly serve`` processes against one PostgreSQL, both with the same SMTP server
(a real aiosmtpd the test starts): an invitation made through one is seen and accepted through
the other, its seat held in both; a turn waiting past its person's delay is e-mailed once,
though both processes look for it every tenth of a second.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from sqlalchemy import create_engine, text

from courtly.testing.server import ServerFailed, ServerProcess

from .test_turn_mail import Inbox, local_smtp_server

DEADLINE = 60.0
PASSWORD = "correct horse battery"
CSRF_HEADER = "X-Courtly-CSRF"


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, int]]:
    yield from local_smtp_server()


@pytest.fixture
def two_servers(
    postgres_database: str, tmp_path: Path, inbox: tuple[Inbox, int]
) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    options = [
        "--bot-pace",
        "0",
        "--bot-workers",
        "1",
        "--smtp-url",
        f"smtp://127.0.0.1:{inbox[1]}",
        "--mail-every",
        "0.1",
    ]
    servers: list[ServerProcess] = []
    try:
        for name in ("A", "B"):
            servers.append(ServerProcess(postgres_database, tmp_path / f"{name}.log", options))
        for server in servers:
            try:
                server.wait_ready(DEADLINE)
            except ServerFailed as error:
                pytest.fail(str(error), pytrace=False)
        yield servers[0], servers[1]
    finally:
        for server in servers:
            server.stop()


class Person:
    """Someone signed up, with their cookie, talking to one server process."""

    def __init__(self, server: ServerProcess, name: str, sign_up: bool = True) -> None:
        self.http = httpx2.Client(base_url=server.url, timeout=30)
        path = "/api/account" if sign_up else "/api/account/session"
        response = self.http.post(path, json={"name": name, "password": PASSWORD})
        assert response.status_code in (200, 201), response.text
        self.csrf: str = response.json()["csrf"]

    def post(self, path: str, body: object) -> httpx2.Response:
        return self.http.post(path, json=body, headers={CSRF_HEADER: self.csrf})


def test_an_invitation_and_a_turn_email_across_two_processes(
    two_servers: tuple[ServerProcess, ServerProcess],
    inbox: tuple[Inbox, int],
    postgres_database: str,
) -> None:
    a, b = two_servers
    caught, _port = inbox
    anna = Person(a, "Anna")
    Person(a, "Bert")
    bert = Person(b, "Bert", sign_up=False)  # his session, on the other process
    assert bert.http.put(
        "/api/account/email",
        json={"address": "bert@example.org", "after": 600},
        headers={CSRF_HEADER: bert.csrf},
    ).is_success
    made = anna.post(
        "/api/tables",
        {
            "game": "royal-gambit",
            "seed": 1,
            "seats": [{"kind": "person"}] * 2,
            "mode": "turn-based",
            "clock": {"per_move": 86400},
        },
    )
    assert made.status_code == 201, made.text
    table = made.json()["id"]
    joined = anna.post(f"/api/tables/{table}/seats/0/join", {})
    assert joined.status_code == 200, joined.text
    token = joined.json()["token"]

    invited = anna.post(f"/api/tables/{table}/invitations", {"seat": 1, "name": "Bert"})
    assert invited.status_code == 201, invited.text
    # Held in the other process too: a guest there cannot take it.
    guest = httpx2.post(f"{b.url}/api/tables/{table}/seats/1/join", json={"name": "Gus"})
    assert guest.status_code == 409, guest.text
    (offer,) = bert.http.get("/api/account/invitations").json()["received"]
    accepted = bert.post(f"/api/invitations/{offer['id']}/accept", {})
    assert accepted.status_code == 200, accepted.text

    auth = {"Authorization": f"Bearer {token}"}
    mine = anna.http.get(f"/api/tables/{table}/view", params={"seat": 0}, headers=auth).json()
    assert mine["status"] == "playing" and mine["to_move"] == [0]
    moved = anna.http.post(
        f"/api/tables/{table}/moves",
        json={"seat": 0, "action": mine["legal_actions"][0]["text"], "version": mine["version"]},
        headers=auth,
    )
    assert moved.status_code == 200, moved.text
    time.sleep(0.5)
    assert caught.messages == []  # Bert's ten minutes have not passed
    engine = create_engine(postgres_database)
    try:
        with engine.begin() as connection:
            connection.execute(
                text("UPDATE seats SET clock_since = :since WHERE table_id = :t AND seat = 1"),
                {"since": time.time() - 601, "t": table},
            )
        deadline = time.monotonic() + DEADLINE
        while not caught.messages and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(1.0)  # ten more looks by each process
        assert len(caught.messages) == 1, a.log_tail() + b.log_tail()
        with engine.connect() as connection:
            claims = connection.execute(text("SELECT process, sent FROM turn_emails")).all()
    finally:
        engine.dispose()
    assert len(claims) == 1 and claims[0][1] is True
