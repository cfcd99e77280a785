"""Accounts across two real ``courtly serve`` processes on one PostgreSQL: a session begun
through one is honoured and ended through the other, a seat joined by cookie through one is
the person's in the other, and a deleted account's name reaches the tables the other holds."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from courtly.web.people.sessions import COOKIE, CSRF_HEADER

from .test_processes import Server, two_servers, wait_for

__all__ = ["two_servers"]  # the fixture, for the tests below

PASSWORD = "a long enough password"


def call(
    server: Server,
    method: str,
    path: str,
    body: object = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, Any, dict[str, str]]:
    """A request with ``headers``: the status, the JSON answer, the answer's headers."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.url + path, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read()), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null"), dict(error.headers)


def test_a_person_s_session_and_seat_hold_in_both_processes(
    two_servers: tuple[Server, Server],
) -> None:
    a, b = two_servers
    status, me, headers = call(a, "POST", "/api/account", {"name": "Anna", "password": PASSWORD})
    assert status == 201, me
    secret = headers["set-cookie"].split(";")[0].split("=", 1)[1]
    browser = {"Cookie": f"{COOKIE}={secret}", CSRF_HEADER: me["csrf"]}
    status, seen, _ = call(b, "GET", "/api/account", headers=browser)
    assert status == 200 and seen == me
    table = a.ok(
        "POST", "/api/tables", {"game": "royal-gambit", "seats": [{"kind": "person"}] * 2}
    )["id"]
    a.ok("GET", f"/api/tables/{table}")  # process A holds the table
    status, joined, _ = call(b, "POST", f"/api/tables/{table}/seats/0/join", {}, browser)
    assert status == 200, joined
    status, mine, _ = call(a, "GET", f"/api/tables/{table}/seats/mine", headers=browser)
    assert status == 200 and mine["seats"] == [0]
    status, view, _ = call(a, "GET", f"/api/tables/{table}/view?seat=0", headers=browser)
    assert status == 200 and view["seat"] == 0
    # Deleted through B: A's table shows the seat as the deleted player's, A refuses the cookie.
    status, _, _ = call(b, "DELETE", "/api/account", {"password": PASSWORD}, browser)
    assert status == 200

    def renamed() -> bool | None:
        seats = a.ok("GET", f"/api/tables/{table}")["seats"]
        return True if seats[0]["name"] == "deleted player" else None

    wait_for("the deleted player's name in process A", renamed, two_servers)
    assert call(a, "GET", "/api/account", headers=browser)[0] == 401
