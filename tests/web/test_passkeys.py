"""Passkeys through the API, on SQLite and PostgreSQL: adding one to an account, signing in with
it (no name typed, or by name), listing and removing; and every way a ceremony's answer may be
wrong (replayed, late, from another origin, from a copied authenticator, without the user
verified, malformed) refused in words, with nothing changed."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from courtly.testing.cli import invoke
from courtly.web import create_app
from courtly.web.limits import NO_LIMITS
from courtly.web.people import passkeys as passkeys_module
from courtly.web.storage.rows import AccountRow, ChallengeRow, PasskeyRow

from .passkeying import Authenticator, client_data
from .test_api import TWO_PEOPLE, create, join

ORIGIN = "http://testserver"
"""The origin of the test client's requests (its Host is ``testserver``)."""
CSRF = "X-Courtly-CSRF"
SEALED_BIDS = {"game": "test-sealed-bids", "seats": TWO_PEOPLE, "options": {"rounds": 1}}


def sign_up(client: TestClient, name: str, password: str = "a long password") -> dict[str, str]:
    """Sign up as ``name``; the headers a state-changing request of the session repeats."""
    answer = client.post("/api/account", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    return {CSRF: answer.json()["csrf"]}


def add_passkey(
    client: TestClient, csrf: dict[str, str], authenticator: Authenticator, label: str = ""
) -> dict[str, Any]:
    begun = client.post("/api/account/passkeys/options", headers=csrf)
    assert begun.status_code == 200, begun.text
    answer = authenticator.create(begun.json()["options"])
    added = client.post(
        "/api/account/passkeys",
        headers=csrf,
        json={"ceremony": begun.json()["ceremony"], "credential": answer, "label": label},
    )
    assert added.status_code == 201, added.text
    info: dict[str, Any] = added.json()
    return info


def begin_sign_in(client: TestClient, name: str | None = None) -> dict[str, Any]:
    begun = client.post("/api/account/passkey-session/options", json={"name": name})
    assert begun.status_code == 200, begun.text
    found: dict[str, Any] = begun.json()
    return found


def answer_sign_in(client: TestClient, ceremony: str, credential: dict[str, Any]) -> Any:
    return client.post(
        "/api/account/passkey-session", json={"ceremony": ceremony, "credential": credential}
    )


def sign_out(client: TestClient, csrf: dict[str, str]) -> None:
    assert client.delete("/api/account/session", headers=csrf).is_success
    assert client.get("/api/account").status_code == 401


def stored_passkey(app: FastAPI, credential_id: str) -> PasskeyRow | None:
    with app.state.server.storage.session() as session:
        row: PasskeyRow | None = session.get(PasskeyRow, credential_id)
        return row


@pytest.fixture
def anna(client: TestClient) -> tuple[dict[str, str], Authenticator]:
    """Anna, signed up with a passkey added, then signed out."""
    csrf = sign_up(client, "Anna")
    authenticator = Authenticator(ORIGIN)
    add_passkey(client, csrf, authenticator, "my phone")
    sign_out(client, csrf)
    return csrf, authenticator


def test_a_passkey_added_signs_in_without_a_name(app: FastAPI, client: TestClient) -> None:
    csrf = sign_up(client, "Anna")
    authenticator = Authenticator(ORIGIN)
    begun = client.post("/api/account/passkeys/options", headers=csrf).json()
    options = begun["options"]
    # A discoverable passkey that verifies its user, bound to the request's host.
    assert options["rp"] == {"id": "testserver", "name": "Courtly"}
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["authenticatorSelection"]["userVerification"] == "required"
    assert options["user"]["name"] == "Anna"
    info = add_passkey(client, csrf, authenticator, "my phone")
    assert info["label"] == "my phone" and info["id"] == authenticator.credential_id
    assert info["used_at"] is None and info["transports"] == ["internal"]
    listed = client.get("/api/account/passkeys").json()
    assert [p["id"] for p in listed] == [authenticator.credential_id]

    sign_out(client, csrf)
    begun = begin_sign_in(client)
    assert begun["options"]["allowCredentials"] == []  # the authenticator tells whose it is
    assert begun["options"]["userVerification"] == "required"
    signed = answer_sign_in(client, begun["ceremony"], authenticator.get(begun["options"]))
    assert signed.status_code == 200, signed.text
    assert signed.json()["name"] == "Anna"
    me = client.get("/api/account")
    assert me.status_code == 200 and me.json()["name"] == "Anna"
    row = stored_passkey(app, authenticator.credential_id)
    assert row is not None and row.sign_count == 1 and row.used_at is not None
    # The server keeps the public key alone.
    assert b"PRIVATE" not in row.public_key
    assert client.get("/api/account/passkeys").json()[0]["used_at"] is not None


def test_a_name_limits_the_passkeys_that_may_answer(client: TestClient) -> None:
    anna_csrf = sign_up(client, "Anna")
    annas = Authenticator(ORIGIN)
    add_passkey(client, anna_csrf, annas)
    sign_out(client, anna_csrf)
    bob_csrf = sign_up(client, "Bob")
    bobs = Authenticator(ORIGIN)
    add_passkey(client, bob_csrf, bobs)
    sign_out(client, bob_csrf)

    begun = begin_sign_in(client, "anna")  # names are told apart by case no more than people
    assert [c["id"] for c in begun["options"]["allowCredentials"]] == [annas.credential_id]
    refused = answer_sign_in(client, begun["ceremony"], bobs.get(begun["options"]))
    assert refused.status_code == 401 and "name" in refused.json()["detail"]
    assert client.get("/api/account").status_code == 401

    begun = begin_sign_in(client, "Anna")
    signed = answer_sign_in(client, begun["ceremony"], annas.get(begun["options"]))
    assert signed.status_code == 200 and signed.json()["name"] == "Anna"

    nobody = client.post("/api/account/passkey-session/options", json={"name": "Carol"})
    assert nobody.status_code == 404 and "passkey" in nobody.json()["detail"]


def test_an_answer_counts_once(app: FastAPI, client: TestClient, anna: Any) -> None:
    _csrf, authenticator = anna
    begun = begin_sign_in(client)
    answer = authenticator.get(begun["options"])
    assert answer_sign_in(client, begun["ceremony"], answer).status_code == 200
    client.cookies.clear()
    replayed = answer_sign_in(client, begun["ceremony"], answer)
    assert replayed.status_code == 400 and "start again" in replayed.json()["detail"]
    assert client.get("/api/account").status_code == 401
    # Nor does the answer count for another ceremony (its challenge is the old one's).
    again = begin_sign_in(client)
    refused = answer_sign_in(client, again["ceremony"], answer)
    assert refused.status_code == 401 and "did not verify" in refused.json()["detail"]
    # A failed answer uses its ceremony up too.
    retried = answer_sign_in(client, again["ceremony"], authenticator.get(again["options"]))
    assert retried.status_code == 400
    row = stored_passkey(app, authenticator.credential_id)
    assert row is not None and row.sign_count == 1


def test_a_copied_authenticator_is_refused(app: FastAPI, client: TestClient, anna: Any) -> None:
    _csrf, authenticator = anna
    copied = copy.deepcopy(authenticator)
    begun = begin_sign_in(client)
    assert answer_sign_in(client, begun["ceremony"], authenticator.get(begun["options"])).is_success
    client.cookies.clear()
    # The copy's counter is where the original's was: not past the last one the server saw.
    begun = begin_sign_in(client)
    refused = answer_sign_in(client, begun["ceremony"], copied.get(begun["options"]))
    assert refused.status_code == 401
    assert client.get("/api/account").status_code == 401
    row = stored_passkey(app, authenticator.credential_id)
    assert row is not None and row.sign_count == 1


def test_an_answer_from_another_origin_is_refused(client: TestClient, anna: Any) -> None:
    _csrf, authenticator = anna
    begun = begin_sign_in(client)
    answer = authenticator.get(begun["options"], origin="https://courtly.example.net")
    assert client_data(answer)["origin"] == "https://courtly.example.net"
    refused = answer_sign_in(client, begun["ceremony"], answer)
    assert refused.status_code == 401
    assert client.get("/api/account").status_code == 401


def test_a_passkey_must_verify_its_user(client: TestClient) -> None:
    csrf = sign_up(client, "Anna")
    lax = Authenticator(ORIGIN, verifies_user=False)
    begun = client.post("/api/account/passkeys/options", headers=csrf).json()
    refused = client.post(
        "/api/account/passkeys",
        headers=csrf,
        json={"ceremony": begun["ceremony"], "credential": lax.create(begun["options"])},
    )
    assert refused.status_code == 400 and "verif" in refused.json()["detail"]
    assert client.get("/api/account/passkeys").json() == []
    # Added by one that verifies, then answered without: refused.
    authenticator = Authenticator(ORIGIN)
    add_passkey(client, csrf, authenticator)
    sign_out(client, csrf)
    authenticator.verifies_user = False
    begun = begin_sign_in(client)
    answer = answer_sign_in(client, begun["ceremony"], authenticator.get(begun["options"]))
    assert answer.status_code == 401


def test_a_late_answer_is_refused(app: FastAPI, client: TestClient, anna: Any) -> None:
    _csrf, authenticator = anna
    begun = begin_sign_in(client)
    with app.state.server.storage.session() as session:
        session.execute(
            update(ChallengeRow).where(ChallengeRow.id == begun["ceremony"]).values(expires_at=1.0)
        )
    late = answer_sign_in(client, begun["ceremony"], authenticator.get(begun["options"]))
    assert late.status_code == 400 and "expired" in late.json()["detail"]
    # Expired challenges go as new ceremonies begin.
    begin_sign_in(client)
    with app.state.server.storage.session() as session:
        assert session.scalars(select(ChallengeRow).where(ChallengeRow.expires_at < 2)).all() == []


def test_adding_takes_a_signed_in_person_and_the_csrf_token(client: TestClient) -> None:
    assert client.post("/api/account/passkeys/options").status_code == 401
    assert client.get("/api/account/passkeys").status_code == 401
    csrf = sign_up(client, "Anna")
    # The cookie alone, as a page of another site would send it: refused.
    assert client.post("/api/account/passkeys/options").status_code == 403
    begun = client.post("/api/account/passkeys/options", headers=csrf).json()
    answer = Authenticator(ORIGIN).create(begun["options"])
    body = {"ceremony": begun["ceremony"], "credential": answer}
    assert client.post("/api/account/passkeys", json=body).status_code == 403
    assert client.post("/api/account/passkeys", json=body, headers=csrf).status_code == 201


def test_a_ceremony_is_its_account_s(client: TestClient) -> None:
    anna_csrf = sign_up(client, "Anna")
    begun = client.post("/api/account/passkeys/options", headers=anna_csrf).json()
    answer = Authenticator(ORIGIN).create(begun["options"])
    sign_out(client, anna_csrf)
    bob_csrf = sign_up(client, "Bob")
    refused = client.post(
        "/api/account/passkeys",
        headers=bob_csrf,
        json={"ceremony": begun["ceremony"], "credential": answer},
    )
    assert refused.status_code == 400
    assert client.get("/api/account/passkeys").json() == []
    # A sign-in's ceremony adds no passkey either.
    signing = begin_sign_in(client)
    refused = client.post(
        "/api/account/passkeys",
        headers=bob_csrf,
        json={"ceremony": signing["ceremony"], "credential": answer},
    )
    assert refused.status_code == 400


def test_removing_a_passkey(app: FastAPI, client: TestClient) -> None:
    anna_csrf = sign_up(client, "Anna")
    annas = Authenticator(ORIGIN)
    add_passkey(client, anna_csrf, annas)
    spare = Authenticator(ORIGIN)
    add_passkey(client, anna_csrf, spare)
    assert [p["label"] for p in client.get("/api/account/passkeys").json()] == [
        "passkey 1",
        "passkey 2",
    ]
    sign_out(client, anna_csrf)
    bob_csrf = sign_up(client, "Bob")
    # Nobody removes another's passkey.
    refused = client.delete(f"/api/account/passkeys/{annas.credential_id}", headers=bob_csrf)
    assert refused.status_code == 404
    assert stored_passkey(app, annas.credential_id) is not None
    sign_out(client, bob_csrf)

    begun = begin_sign_in(client)
    signed = answer_sign_in(client, begun["ceremony"], annas.get(begun["options"]))
    csrf = {CSRF: signed.json()["csrf"]}
    assert client.delete(f"/api/account/passkeys/{annas.credential_id}").status_code == 403
    removed = client.delete(f"/api/account/passkeys/{annas.credential_id}", headers=csrf)
    assert removed.status_code == 200
    assert [p["id"] for p in removed.json()] == [spare.credential_id]
    assert client.get("/api/account/passkeys").json() == removed.json()
    sign_out(client, csrf)
    begun = begin_sign_in(client)
    refused = answer_sign_in(client, begun["ceremony"], annas.get(begun["options"]))
    assert refused.status_code == 401 and "not known" in refused.json()["detail"]


def test_the_last_way_to_sign_in_stays(app: FastAPI, client: TestClient) -> None:
    csrf = sign_up(client, "Anna")
    authenticator = Authenticator(ORIGIN)
    add_passkey(client, csrf, authenticator)
    with app.state.server.storage.session() as session:  # an account of passkeys alone
        session.execute(update(AccountRow).values(password_hash=None))
    refused = client.delete(f"/api/account/passkeys/{authenticator.credential_id}", headers=csrf)
    assert refused.status_code == 409 and "only way" in refused.json()["detail"]
    assert stored_passkey(app, authenticator.credential_id) is not None


def test_a_disabled_account_cannot_sign_in(app: FastAPI, client: TestClient, anna: Any) -> None:
    _csrf, authenticator = anna
    with app.state.server.storage.session() as session:
        session.execute(update(AccountRow).values(disabled=True))
    begun = begin_sign_in(client)
    refused = answer_sign_in(client, begun["ceremony"], authenticator.get(begun["options"]))
    assert refused.status_code == 403 and "disabled" in refused.json()["detail"]
    assert client.get("/api/account").status_code == 401


def test_one_passkey_per_authenticator(client: TestClient) -> None:
    csrf = sign_up(client, "Anna")
    authenticator = Authenticator(ORIGIN)
    info = add_passkey(client, csrf, authenticator)
    begun = client.post("/api/account/passkeys/options", headers=csrf).json()
    assert [c["id"] for c in begun["options"]["excludeCredentials"]] == [info["id"]]


@pytest.mark.parametrize(
    "credential",
    [
        {},
        {"id": "x", "rawId": "x", "type": "public-key", "response": {}},
        {"id": 5, "rawId": [1, 2], "type": "public-key", "response": "no"},
        {"id": "!!", "rawId": "!!", "type": "public-key", "response": {"clientDataJSON": "!!"}},
        {
            "id": "AAAA",
            "rawId": "AAAA",
            "type": "public-key",
            "response": {
                "clientDataJSON": "e30",
                "authenticatorData": "AAAA",
                "signature": "AAAA",
                "attestationObject": "oA",
                "userHandle": None,
            },
        },
    ],
)
def test_a_malformed_answer_is_refused_in_words(
    client: TestClient, anna: Any, credential: dict[str, Any]
) -> None:
    _csrf, authenticator = anna
    begun = begin_sign_in(client)
    refused = answer_sign_in(client, begun["ceremony"], credential)
    assert 400 <= refused.status_code < 500 and refused.json()["detail"], refused.text
    assert client.get("/api/account").status_code == 401
    begun = begin_sign_in(client)
    signed = answer_sign_in(client, begun["ceremony"], authenticator.get(begun["options"]))
    csrf = {CSRF: signed.json()["csrf"]}
    begun = client.post("/api/account/passkeys/options", headers=csrf).json()
    refused = client.post(
        "/api/account/passkeys",
        headers=csrf,
        json={"ceremony": begun["ceremony"], "credential": credential},
    )
    assert 400 <= refused.status_code < 500 and refused.json()["detail"], refused.text
    assert len(client.get("/api/account/passkeys").json()) == 1


@pytest.mark.parametrize(
    "body",
    [
        {"ceremony": "", "credential": {}},
        {"ceremony": "x" * 65, "credential": {}},
        {"ceremony": 5, "credential": {}},
        {"ceremony": "abc", "credential": []},
        {"ceremony": "abc"},
        {"ceremony": "a\x00b", "credential": {}},
        {"ceremony": "a b", "credential": {}},
    ],
)
def test_a_malformed_request_is_refused(client: TestClient, body: dict[str, Any]) -> None:
    refused = client.post("/api/account/passkey-session", json=body)
    assert refused.status_code == 422 and refused.json()["detail"]
    assert client.post("/api/account/passkey-session/options", json={"name": 5}).status_code == 422
    # A name is cleaned as every name is (a NUL dropped), then looked for.
    nobody = client.post("/api/account/passkey-session/options", json={"name": "An\x00na"})
    assert nobody.status_code == 404 and "no account" in nobody.json()["detail"]


def test_a_passkey_id_that_is_no_id_is_refused(client: TestClient) -> None:
    csrf = sign_up(client, "Anna")
    for bad in ("a%00b", "a%20b", "x" * 401):
        answer = client.delete(f"/api/account/passkeys/{bad}", headers=csrf)
        assert answer.status_code == 422, (bad, answer.text)


@pytest.fixture
def proxied(database_url: str) -> Iterator[TestClient]:
    """A server behind a proxy that rewrites Host: the operator names its origin."""
    app = create_app(
        database_url,
        bot_pace=0,
        bot_workers=-1,
        limits=NO_LIMITS,
        origin="https://cards.example.org",
    )
    with TestClient(app) as client:
        yield client


def test_the_operator_names_the_origin(proxied: TestClient) -> None:
    csrf = sign_up(proxied, "Anna")
    begun = proxied.post("/api/account/passkeys/options", headers=csrf).json()
    assert begun["options"]["rp"]["id"] == "cards.example.org"
    # An answer the browser made at the address the proxy forwarded to does not count.
    inside = Authenticator(ORIGIN).create(begun["options"])
    refused = proxied.post(
        "/api/account/passkeys",
        headers=csrf,
        json={"ceremony": begun["ceremony"], "credential": inside},
    )
    assert refused.status_code == 400 and "origin" in refused.json()["detail"]
    authenticator = Authenticator("https://cards.example.org")
    add_passkey(proxied, csrf, authenticator)
    sign_out(proxied, csrf)
    begun = begin_sign_in(proxied)
    assert begun["options"]["rpId"] == "cards.example.org"
    signed = answer_sign_in(proxied, begun["ceremony"], authenticator.get(begun["options"]))
    assert signed.status_code == 200


def test_any_server_process_takes_the_answer(database_url: str) -> None:
    one = create_app(database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS)
    other = create_app(database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS)
    with TestClient(one) as first, TestClient(other) as second:
        csrf = sign_up(first, "Anna")
        authenticator = Authenticator(ORIGIN)
        begun = first.post("/api/account/passkeys/options", headers=csrf).json()
        second.cookies.update(first.cookies)
        added = second.post(
            "/api/account/passkeys",
            headers=csrf,
            json={
                "ceremony": begun["ceremony"],
                "credential": authenticator.create(begun["options"]),
            },
        )
        assert added.status_code == 201, added.text
        sign_out(second, csrf)
        first.cookies.clear()
        begun = begin_sign_in(second)
        answer = authenticator.get(begun["options"])
        assert answer_sign_in(first, begun["ceremony"], answer).status_code == 200
        # The other process has no second use of it either.
        assert answer_sign_in(second, begun["ceremony"], answer).status_code == 400


def test_a_host_that_is_no_host_is_refused(client: TestClient) -> None:
    for host in ("", "a/b", "x:port", "user@evil"):
        answer = client.post(
            "/api/account/passkey-session/options", json={}, headers={"host": host}
        )
        assert answer.status_code == 400, (host, answer.text)


def test_a_guest_s_seats_follow_a_passkey_sign_in(client: TestClient, anna: Any) -> None:
    _csrf, authenticator = anna
    table = create(client, **SEALED_BIDS)["id"]
    token = join(client, table, 0)
    begun = begin_sign_in(client)
    signed = client.post(
        "/api/account/passkey-session",
        json={
            "ceremony": begun["ceremony"],
            "credential": authenticator.get(begun["options"]),
            "seats": [{"table": table, "seat": 0, "token": token}],
        },
    )
    assert signed.status_code == 200, signed.text
    assert client.get(f"/api/tables/{table}/seats/mine").json()["seats"] == [0]


def test_ceremonies_under_way_are_bounded(
    app: FastAPI, client: TestClient, anna: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _csrf, authenticator = anna
    monkeypatch.setattr(passkeys_module, "MAX_CHALLENGES", 2)
    first = begin_sign_in(client)
    begin_sign_in(client)
    refused = client.post("/api/account/passkey-session/options", json={})
    assert refused.status_code == 429 and refused.headers["Retry-After"] == "60"
    assert "too many" in refused.json()["detail"]
    with app.state.server.storage.session() as session:
        assert len(session.scalars(select(ChallengeRow)).all()) == 2
    # An answer frees its place.
    signed = answer_sign_in(client, first["ceremony"], authenticator.get(first["options"]))
    assert signed.status_code == 200
    client.cookies.clear()
    assert client.post("/api/account/passkey-session/options", json={}).status_code == 200


def test_a_bad_origin_is_refused_at_start(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'courtly.sqlite3'}"
    for option, value in (("--origin", "ftp://cards.example.org"), ("--rp-id", "a/b")):
        result = invoke("serve", "--database-url", database, option, value)
        assert result.exit_code != 0
        assert "is not" in result.output + result.stderr, result.output
