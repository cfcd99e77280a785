"""Accounts over the API: signing up, in and out, sessions and their cookie, and the CSRF
check of a request the cookie authenticates.

Each test runs on SQLite and on PostgreSQL (tests/web/conftest.py).
"""

from __future__ import annotations

from typing import Any, cast

from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select

from courtly.web.people.sessions import COOKIE, CSRF_HEADER, secret_hash
from courtly.web.storage.rows import AccountRow, SessionRow

PASSWORD = "correct horse battery"


def sign_up(client: TestClient, name: str = "Anna", password: str = PASSWORD) -> dict[str, Any]:
    response = client.post("/api/account", json={"name": name, "password": password})
    assert response.status_code == 201, response.text
    return cast(dict[str, Any], response.json())


def sign_in(client: TestClient, name: str = "Anna", password: str = PASSWORD) -> dict[str, Any]:
    response = client.post("/api/account/session", json={"name": name, "password": password})
    assert response.status_code == 200, response.text
    return cast(dict[str, Any], response.json())


def rows(app: FastAPI, row: Any) -> list[Any]:
    with app.state.server.storage.session() as session:
        return list(session.scalars(select(row)))


def test_sign_up_signs_in_and_stores_only_an_argon2id_hash(
    app: FastAPI, client: TestClient
) -> None:
    me = sign_up(client, "Anna")
    assert me["name"] == "Anna" and me["admin"] is True  # the first account
    assert set(me) == {"id", "name", "admin", "csrf"}
    cookie = client.cookies.get(COOKIE)
    assert cookie
    assert client.get("/api/account").json() == me
    [account] = rows(app, AccountRow)
    assert account.password_hash.startswith("$argon2id$")
    assert PASSWORD not in account.password_hash
    [session] = rows(app, SessionRow)
    assert session.id_hash == secret_hash(cookie) and cookie not in session.id_hash
    # The second account is no administrator.
    other = TestClient(app)
    assert sign_up(other, "Boris")["admin"] is False


def test_the_session_cookie_is_http_only_same_site_and_lasts_thirty_days(
    client: TestClient,
) -> None:
    response = client.post("/api/account", json={"name": "Anna", "password": PASSWORD})
    header = response.headers["set-cookie"]
    assert header.startswith(f"{COOKIE}=")
    lowered = header.lower()
    assert "httponly" in lowered and "samesite=lax" in lowered and "path=/" in lowered
    assert f"max-age={30 * 86400}" in lowered
    assert "secure" not in lowered  # plain http: a Secure cookie would never come back


def test_over_https_the_cookie_is_secure(app: FastAPI) -> None:
    with TestClient(app, base_url="https://courtly.example") as client:
        response = client.post("/api/account", json={"name": "Anna", "password": PASSWORD})
        assert response.status_code == 201
        assert "secure" in response.headers["set-cookie"].lower()


def test_names_are_unique_whatever_their_case_or_width(client: TestClient) -> None:
    sign_up(client, "Anna")
    for name in ("anna", "ANNA", "\uff21\uff4e\uff4e\uff41", " Anna "):
        response = client.post("/api/account", json={"name": name, "password": PASSWORD})
        assert response.status_code == 409, (name, response.text)
        assert "taken" in response.json()["detail"]
    response = client.post("/api/account", json={"name": "Deleted Player", "password": PASSWORD})
    assert response.status_code == 409


def test_sign_up_refuses_bad_input_in_words(app: FastAPI, client: TestClient) -> None:
    for body in (
        {"name": "", "password": PASSWORD},
        {"name": "\u202e", "password": PASSWORD},
        {"name": "Anna", "password": "short"},
        {"name": "Anna", "password": "x" * 2000},
        {"name": "Anna"},
        {"name": 3, "password": PASSWORD},
        {"name": "Anna", "password": PASSWORD, "admin": True},
    ):
        response = client.post("/api/account", json=body)
        assert response.status_code == 422, (body, response.text)
        assert response.json()["detail"]
    assert rows(app, AccountRow) == []
    assert client.get("/api/account").status_code == 401


def test_sign_in_rotates_the_session_and_sign_out_ends_it(app: FastAPI, client: TestClient) -> None:
    sign_up(client)
    first = client.cookies.get(COOKIE)
    me = sign_in(client)
    second = client.cookies.get(COOKIE)
    assert second and second != first
    assert [row.id_hash for row in rows(app, SessionRow)] == [secret_hash(second)]
    # The old secret signs nobody in.
    stale = TestClient(app, cookies={COOKIE: cast(str, first)})
    assert stale.get("/api/account").status_code == 401
    response = client.delete("/api/account/session", headers={CSRF_HEADER: me["csrf"]})
    assert response.status_code == 200 and response.json() == {"ended": 1}
    assert rows(app, SessionRow) == []
    assert client.get("/api/account").status_code == 401
    assert client.get("/api/account").json()["detail"] == "nobody is signed in"


def test_a_wrong_password_or_name_is_refused_alike(client: TestClient) -> None:
    sign_up(client)
    client.cookies.clear()
    wrong = client.post("/api/account/session", json={"name": "Anna", "password": "nope nope"})
    nobody = client.post("/api/account/session", json={"name": "Zoe", "password": PASSWORD})
    assert wrong.status_code == nobody.status_code == 401
    assert wrong.json() == nobody.json() == {"detail": "wrong name or password"}
    assert COOKIE not in client.cookies
    # The name is matched as it is folded.
    assert sign_in(client, "ANNA")["name"] == "Anna"


def test_a_cross_site_request_with_the_cookie_cannot_act(app: FastAPI, client: TestClient) -> None:
    me = sign_up(client)
    # Another site can make the browser send the cookie, not read or repeat the token.
    for headers in ({}, {CSRF_HEADER: "guessed"}, {CSRF_HEADER: ""}):
        response = client.delete("/api/account/session", headers=headers)
        assert response.status_code == 403, response.text
        assert CSRF_HEADER in response.json()["detail"]
    assert len(rows(app, SessionRow)) == 1
    assert client.get("/api/account").json()["id"] == me["id"]
    # Reading needs no token; a request with no cookie is not concerned.
    assert TestClient(app).delete("/api/account/session").json() == {"ended": 0}
