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


# ---------------------------------------------------------------------------------- the account


def signed_in(app: FastAPI, name: str = "Anna", password: str = PASSWORD) -> TestClient:
    """Another browser of ``name``, signed in, its CSRF token sent with every request."""
    browser = TestClient(app)
    browser.headers[CSRF_HEADER] = sign_in(browser, name, password)["csrf"]
    return browser


def test_sign_out_everywhere_ends_every_session(app: FastAPI, client: TestClient) -> None:
    sign_up(client)
    phone, laptop = signed_in(app), signed_in(app)
    sign_up(TestClient(app), "Boris")
    assert len(rows(app, SessionRow)) == 4
    response = laptop.delete("/api/account/sessions")
    assert response.status_code == 200 and response.json() == {"ended": 3}
    for browser in (client, phone, laptop):
        assert browser.get("/api/account").status_code == 401
    assert len(rows(app, SessionRow)) == 1  # Boris's
    assert TestClient(app).delete("/api/account/sessions").status_code == 401


def test_changing_the_password_ends_the_other_sessions(app: FastAPI, client: TestClient) -> None:
    sign_up(client)
    phone, laptop = signed_in(app), signed_in(app)
    wrong = laptop.put("/api/account/password", json={"current": "nope", "new": "new password"})
    assert wrong.status_code == 403 and wrong.json()["detail"] == "the current password is wrong"
    short = laptop.put("/api/account/password", json={"current": PASSWORD, "new": "short"})
    assert short.status_code == 422
    done = laptop.put("/api/account/password", json={"current": PASSWORD, "new": "new password"})
    assert done.status_code == 200 and done.json() == {"ended": 2}
    assert laptop.get("/api/account").status_code == 200
    assert phone.get("/api/account").status_code == 401
    client.cookies.clear()
    old = client.post("/api/account/session", json={"name": "Anna", "password": PASSWORD})
    assert old.status_code == 401
    assert sign_in(client, "Anna", "new password")["name"] == "Anna"


def test_a_deleted_account_s_games_stay_under_deleted_player(
    app: FastAPI, client: TestClient
) -> None:
    me = sign_up(client)
    client.headers[CSRF_HEADER] = me["csrf"]
    table = client.post(
        "/api/tables", json={"game": "royal-gambit", "seats": [{"kind": "person"}] * 2}
    ).json()["id"]
    client.post(f"/api/tables/{table}/seats/0/join", json={}).raise_for_status()
    assert client.get(f"/api/tables/{table}").json()["seats"][0]["name"] == "Anna"
    refused = client.request("DELETE", "/api/account", json={"password": "wrong one"})
    assert refused.status_code == 403
    deleted = client.request("DELETE", "/api/account", json={"password": PASSWORD})
    assert deleted.status_code == 200, deleted.text
    assert client.get(f"/api/tables/{table}").json()["seats"][0]["name"] == "deleted player"
    assert client.get("/api/account").status_code == 401
    assert rows(app, SessionRow) == []
    [account] = rows(app, AccountRow)
    assert account.password_hash is None and account.name == "deleted player"
    gone = TestClient(app).post("/api/account/session", json={"name": "Anna", "password": PASSWORD})
    assert gone.status_code == 401
    # The name is free again: a new Anna is another person, without the old seat.
    anna = TestClient(app)
    again = sign_up(anna, "Anna")
    assert again["id"] != me["id"]
    assert anna.get(f"/api/tables/{table}/seats/mine").json()["seats"] == []


def test_brute_force_gets_429_per_account_and_per_address(app: FastAPI) -> None:
    throttle = app.state.server.people.throttle
    with TestClient(app) as client:
        sign_up(client)
        client.cookies.clear()
        guess = {"name": "Anna", "password": "guess guess"}
        for _ in range(throttle.limits.per_account):
            assert client.post("/api/account/session", json=guess).status_code == 401
        blocked = client.post("/api/account/session", json=guess)
        assert blocked.status_code == 429
        assert int(blocked.headers["Retry-After"]) >= 1
        assert "too many wrong passwords for this account" in blocked.json()["detail"]
        # Even the right password waits: the guesser cannot tell it was right.
        right = client.post("/api/account/session", json={"name": "anna", "password": PASSWORD})
        assert right.status_code == 429
        # One address guessing many names is stopped too.
        sign_up(TestClient(app), "Boris")
        for index in range(throttle.limits.per_address - throttle.limits.per_account):
            name = f"nobody {index}"
            answer = client.post("/api/account/session", json={"name": name, "password": "x"})
            assert answer.status_code == 401
        other = client.post("/api/account/session", json={"name": "Boris", "password": PASSWORD})
        assert other.status_code == 429 and "from testclient" in other.json()["detail"]


def test_an_administrator_closes_a_table_hides_a_name_disables_an_account(
    app: FastAPI, client: TestClient
) -> None:
    admin = TestClient(app)
    admin.headers[CSRF_HEADER] = sign_up(admin, "Queen")["csrf"]
    boris = TestClient(app)
    boris.headers[CSRF_HEADER] = sign_up(boris, "Boris")["csrf"]
    table = client.post(
        "/api/tables", json={"game": "royal-gambit", "seats": [{"kind": "person"}] * 2}
    ).json()["id"]
    boris.post(f"/api/tables/{table}/seats/0/join", json={}).raise_for_status()
    # Nobody else may.
    for browser, status in ((boris, 403), (client, 401)):
        assert browser.post(f"/api/admin/tables/{table}/close").status_code == status
        assert browser.post("/api/admin/accounts/Queen/disable").status_code == status
        assert browser.get("/api/admin/acts").status_code == status
    closed = admin.post(f"/api/admin/tables/{table}/close", json={"reason": "spam"})
    assert closed.status_code == 200, closed.text
    assert client.get(f"/api/tables/{table}").json()["status"] == "closed"
    again = admin.post(f"/api/admin/tables/{table}/close")
    assert again.status_code == 409
    assert admin.post("/api/admin/accounts/BORIS/hide-name").status_code == 200
    assert client.get(f"/api/tables/{table}").json()["seats"][0]["name"] == "hidden name"
    assert boris.get("/api/account").json()["name"] == "hidden name"
    assert admin.post("/api/admin/accounts/nobody/hide-name").status_code == 404
    assert admin.post("/api/admin/accounts/Boris/disable").status_code == 200
    assert boris.get("/api/account").status_code == 401
    blocked = TestClient(app).post(
        "/api/account/session", json={"name": "Boris", "password": PASSWORD}
    )
    assert blocked.status_code == 403 and "disabled" in blocked.json()["detail"]
    acts = admin.get("/api/admin/acts").json()
    assert [(a["act"], a["target"], a["admin"]) for a in acts] == [
        ("disable-account", "Boris", "Queen"),
        ("hide-name", "Boris", "Queen"),
        ("close-table", table, "Queen"),
    ]
    assert acts[2]["detail"] == "spam"
    enabled = admin.post("/api/admin/accounts/Boris/disable", json={"disabled": False})
    assert enabled.status_code == 200
    assert sign_in(TestClient(app), "Boris")["name"] == "hidden name"


def test_the_operator_names_an_administrator(database_url: str) -> None:
    from courtly.web import create_app
    from courtly.web.limits import NO_LIMITS

    app = create_app(database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS, admin="boris")
    with TestClient(app) as client:
        assert sign_up(client, "Anna")["admin"] is True
        assert sign_up(TestClient(app), "Boris")["admin"] is True
        assert sign_up(TestClient(app), "Carla")["admin"] is False


def test_one_address_makes_a_bounded_number_of_accounts(app: FastAPI, client: TestClient) -> None:
    from courtly.web.people.throttle import PasswordLimits, PasswordThrottle

    app.state.server.people.throttle = PasswordThrottle(PasswordLimits(sign_ups_per_address=2))
    sign_up(TestClient(app), "Anna")
    sign_up(TestClient(app), "Boris")
    third = client.post("/api/account", json={"name": "Carla", "password": PASSWORD})
    assert third.status_code == 429 and int(third.headers["Retry-After"]) >= 1
    assert "at most 2 an hour" in third.json()["detail"]
    assert [row.name for row in rows(app, AccountRow)] == ["Anna", "Boris"]


def test_a_restart_keeps_every_session(database_url: str) -> None:
    from courtly.web import create_app
    from courtly.web.limits import NO_LIMITS

    def started() -> FastAPI:
        return create_app(database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS)

    with TestClient(started()) as before:
        me = sign_up(before)
        cookie = before.cookies.get(COOKIE)
    with TestClient(started(), cookies={COOKIE: cast(str, cookie)}) as after:
        assert after.get("/api/account").json() == me
        ended = after.delete("/api/account/session", headers={CSRF_HEADER: me["csrf"]})
        assert ended.json() == {"ended": 1}


def test_an_expired_session_signs_nobody_in(app: FastAPI, client: TestClient) -> None:
    sign_up(client)
    with app.state.server.storage.session() as session:
        for row in session.scalars(select(SessionRow)):
            row.expires_at = row.created_at - 1
    assert client.get("/api/account").status_code == 401
    assert rows(app, SessionRow) == []  # gone at its first use after its time


def test_a_session_in_use_is_renewed(app: FastAPI, client: TestClient) -> None:
    sign_up(client)
    with app.state.server.storage.session() as session:
        for row in session.scalars(select(SessionRow)):
            row.seen_at -= 2 * 3600
            row.expires_at -= 2 * 3600
            old = row.expires_at
    response = client.get("/api/account")
    assert response.status_code == 200
    assert "max-age=2592000" in response.headers["set-cookie"].lower()
    [renewed] = rows(app, SessionRow)
    assert renewed.expires_at > old + 3600


def test_of_the_first_accounts_made_at_once_one_is_the_administrator(app: FastAPI) -> None:
    from concurrent.futures import ThreadPoolExecutor

    people = app.state.server.people
    names = [f"Person {index}" for index in range(4)]
    with ThreadPoolExecutor(len(names)) as pool:
        made = list(pool.map(lambda name: people.sign_up(name, PASSWORD), names))
    assert sum(account.admin for account in made) == 1


def test_another_site_s_form_cannot_sign_a_browser_in(app: FastAPI, client: TestClient) -> None:
    """A form of another site can post text/plain or a urlencoded body, never JSON: it can
    neither sign a browser up nor into the attacker's account."""
    body = '{"name": "Eve", "password": "evil evil evil"}'
    for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        for path in ("/api/account", "/api/account/session"):
            response = client.post(path, content=body, headers={"Content-Type": kind})
            assert response.status_code == 422, (kind, path, response.text)
    assert COOKIE not in client.cookies
    assert rows(app, AccountRow) == []
