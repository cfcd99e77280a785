"""The limits an operator sets (:mod:`courtly.web.limits`), set small here: a client over one is
refused with 429, ``Retry-After`` and a refusal naming the limit (a WebSocket: an error message
and close code 4429), changes nothing, and leaves other clients alone; a body that stops
arriving is answered 408; the answers carry the security headers (:mod:`courtly.web.headers`).
The limits of a real ``courtly serve`` (the client's address from a trusted proxy, the header
limit, the read timeout) are tried on a real process.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from dataclasses import fields
from pathlib import Path
from typing import Any

import httpx2
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from courtly.cli import serve as serve_cli
from courtly.testing.server import ServerFailed, ServerProcess
from courtly.web import create_app
from courtly.web.limits import NO_LIMITS, SOCKET_REFUSED, Limits

PERSON = {"kind": "person"}
BOT = {"kind": "bot", "bot": "heuristic"}


def limited(database_url: str, **limits: Any) -> TestClient:
    """A client of a server with only ``limits`` set (every other limit off)."""
    chosen = Limits(**{field.name: getattr(NO_LIMITS, field.name) for field in fields(Limits)})
    chosen = Limits(**{**chosen.__dict__, **limits})
    app = create_app(database_url, bot_pace=0, bot_workers=-1, limits=chosen)
    return TestClient(app)


def other(client: TestClient, address: str) -> TestClient:
    """A client of the same app from another address (never entered: the app has started)."""
    return TestClient(client.app, client=(address, 50000))


def open_table(client: TestClient) -> Any:
    body = {"game": "royal-gambit", "seats": [PERSON, BOT], "options": {"target_score": 5}}
    return client.post("/api/tables", json=body)


def test_the_command_line_defaults_are_the_limits_defaults() -> None:
    defaults = Limits()
    assert defaults.requests_per_minute == serve_cli.REQUESTS_PER_MINUTE
    assert defaults.tables_per_address == serve_cli.TABLES_PER_ADDRESS
    assert defaults.tables == serve_cli.TABLES
    assert defaults.sockets_per_table == serve_cli.SOCKETS_PER_TABLE
    assert defaults.sockets_per_address == serve_cli.SOCKETS_PER_ADDRESS
    assert defaults.read_timeout == serve_cli.READ_TIMEOUT


def test_requests_per_minute_per_address(database_url: str) -> None:
    with limited(database_url, requests_per_minute=5) as client:
        for _ in range(5):
            assert client.get("/api/games").status_code == 200
        refused = client.get("/api/games")
        assert refused.status_code == 429
        assert "at most 5 a minute" in refused.json()["detail"]
        assert 1 <= int(refused.headers["Retry-After"]) <= 60
        assert refused.headers["X-Content-Type-Options"] == "nosniff"
        # A creation over the limit creates nothing.
        assert open_table(client).status_code == 429
        neighbour = other(client, "10.0.0.2")
        assert neighbour.get("/api/tables").json() == []
        assert neighbour.get("/api/games").status_code == 200


def test_tables_per_address_and_in_all(database_url: str) -> None:
    with limited(database_url, tables_per_address=2, tables=3) as client:
        first = open_table(client).json()["id"]
        assert open_table(client).status_code == 201
        refused = open_table(client)
        assert refused.status_code == 429, refused.text
        assert "2 tables open or in play" in refused.json()["detail"]
        assert int(refused.headers["Retry-After"]) > 0
        # A tutorial is a table too.
        assert client.post("/api/tutorials", json={"game": "royal-gambit"}).status_code == 429
        neighbour = other(client, "10.0.0.2")
        assert open_table(neighbour).status_code == 201
        full = open_table(neighbour)
        assert full.status_code == 429 and "the server holds 3 tables" in full.json()["detail"]
        assert len(client.get("/api/tables").json()) == 3
        # A table whose game is over no longer counts: its creator may open another.
        token = client.post(f"/api/tables/{first}/seats/0/join", json={"name": "A"}).json()
        client.post(
            f"/api/tables/{first}/seats/0/leave",
            headers={"Authorization": f"Bearer {token['token']}"},
        )
        deadline = time.monotonic() + 60
        while client.get(f"/api/tables/{first}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the bots never finished the game left to them"
            time.sleep(0.05)
        assert open_table(client).status_code == 201


def refused_socket(client: TestClient, table: str) -> str:
    """The refusal a WebSocket over a limit gets, checked to close with 4429."""
    with client.websocket_connect(f"/api/tables/{table}/ws") as websocket:
        error = websocket.receive_json()
        assert error["type"] == "error"
        with pytest.raises(WebSocketDisconnect) as closed:
            websocket.receive_json()
        assert closed.value.code == SOCKET_REFUSED
        detail: str = error["detail"]
        return detail


def test_sockets_per_table_and_per_address(database_url: str) -> None:
    with limited(database_url, sockets_per_table=2, sockets_per_address=3) as client:
        table = open_table(client).json()["id"]
        second = open_table(client).json()["id"]
        with (
            client.websocket_connect(f"/api/tables/{table}/ws") as one,
            client.websocket_connect(f"/api/tables/{table}/ws") as two,
        ):
            for websocket in (one, two):
                websocket.send_json({"seat": None})
                assert websocket.receive_json()["type"] == "view"
            assert "this table has 2 connections" in refused_socket(client, table)
            with client.websocket_connect(f"/api/tables/{second}/ws") as three:
                three.send_json({"seat": None})
                assert three.receive_json()["type"] == "view"
                assert "has 3 connections open" in refused_socket(client, second)
        # Closed sockets no longer count.
        with client.websocket_connect(f"/api/tables/{table}/ws") as again:
            again.send_json({"seat": None})
            assert again.receive_json()["type"] == "view"


def test_a_socket_counts_among_the_requests_per_minute(database_url: str) -> None:
    with limited(database_url, requests_per_minute=2) as client:
        table = open_table(client).json()["id"]
        assert client.get(f"/api/tables/{table}").status_code == 200
        assert "too many requests" in refused_socket(client, table)


def test_the_pages_and_the_api_have_the_security_headers(client: TestClient) -> None:
    for path in ("/api/games", "/", "/table/abc", "/api/tables/nothing"):
        answer = client.get(path)
        policy = answer.headers["Content-Security-Policy"]
        assert (
            "script-src 'self' 'wasm-unsafe-eval'" in policy and "frame-ancestors 'none'" in policy
        ), path
        assert "unsafe-inline" not in policy
        assert answer.headers["X-Frame-Options"] == "DENY"
        assert answer.headers["X-Content-Type-Options"] == "nosniff"
        assert answer.headers["Referrer-Policy"] == "no-referrer"
    # No CORS: another site's script can neither read an answer nor send a seat's token.
    asked = client.options(
        "/api/tables",
        headers={"Origin": "https://evil.example", "Access-Control-Request-Method": "POST"},
    )
    assert "access-control-allow-origin" not in asked.headers
    assert (
        "access-control-allow-origin"
        not in client.get("/api/games", headers={"Origin": "https://evil.example"}).headers
    )
    assert "set-cookie" not in client.get("/").headers
    # FastAPI's schema page loads its scripts from a CDN: never framed, all the same.
    docs = client.get("/docs").headers["Content-Security-Policy"]
    assert "frame-ancestors 'none'" in docs


def test_429_is_declared_on_every_operation(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            assert "429" in operation["responses"], f"{method} {path}"
            assert "Retry-After" in operation["responses"]["429"]["headers"]


# ---------------------------------------------------------------------------------- a process


@pytest.fixture
def limited_process(tmp_path: Path) -> Iterator[ServerProcess]:
    options = ["--max-requests-per-minute", "3", "--read-timeout", "1"]
    server = ServerProcess(
        f"sqlite:///{tmp_path / 'courtly.sqlite3'}", tmp_path / "server.log", options, limits=()
    )
    try:
        server.wait_ready(60)
    except ServerFailed as error:
        server.kill()
        pytest.fail(str(error), pytrace=False)
    yield server
    server.stop()


def raw(server: ServerProcess, request: bytes) -> bytes:
    """What the server answers to ``request`` sent as is (the first 4 KiB)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=30) as connection:
        connection.sendall(request)
        return connection.recv(4096)


def test_a_real_server_limits_what_arrives(limited_process: ServerProcess) -> None:
    server = limited_process
    # wait_ready asked once from 127.0.0.1; the rest come "through" the trusted local proxy.
    with httpx2.Client(base_url=server.url, timeout=30) as http:
        for _ in range(3):
            via = {"X-Forwarded-For": "203.0.113.7"}
            assert http.get("/api/games", headers=via).status_code == 200
        over = http.get("/api/games", headers={"X-Forwarded-For": "203.0.113.7"})
        assert over.status_code == 429 and "203.0.113.7" in over.json()["detail"]
        assert http.get("/api/games", headers={"X-Forwarded-For": "203.0.113.8"}).is_success
    # A body that stops arriving: 408 after the read timeout, not a connection held forever.
    started = time.monotonic()
    answer = raw(
        server,
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.9\r\n"
        b'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"game"',
    )
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert time.monotonic() - started < 30
    # Headers beyond the limit are refused before the app sees them.
    answer = raw(
        server,
        b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-Forwarded-For: 203.0.113.10\r\nX-Big: "
        + b"a" * 100_000
        + b"\r\n\r\n",
    )
    assert answer.startswith(b"HTTP/1.1 431"), answer[:200]
