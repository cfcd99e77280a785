"""Invitations over the API, on SQLite and PostgreSQL: a seat held for a person named by someone
seated at the table, accepted (the seat taken, signed in) or declined (the seat free again);
every other request refused, nothing changed; My games ordered by the time left to move."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from courtly.web.people.sessions import CSRF_HEADER

from .test_api import TWO_PEOPLE, create, join, view
from .test_ratings import PASSWORD, Someone, add_people

THREE_PEOPLE = [{"kind": "person"}] * 3


def invite(someone: Someone, table: str, seat: int, name: str) -> Any:
    return someone.browser.post(
        f"/api/tables/{table}/invitations",
        json={"seat": seat, "name": name},
        headers={CSRF_HEADER: someone.csrf},
    )


def answer(someone: Someone, invitation: str, what: str) -> Any:
    return someone.browser.post(
        f"/api/invitations/{invitation}/{what}", json={}, headers={CSRF_HEADER: someone.csrf}
    )


def invitations(someone: Someone) -> dict[str, Any]:
    response = someone.browser.get("/api/account/invitations")
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def test_an_invited_person_sees_the_invitation_and_accepts_it_taking_the_held_seat(
    client: TestClient, app: FastAPI
) -> None:
    anna, bert, cleo = add_people(app, "Anna", "Bert", "Cleo")
    table = create(client, seats=THREE_PEOPLE, players=3)["id"]
    anna.join(table, 0)
    made = invite(anna, table, 1, "bert")  # a name is found however it is cased
    assert made.status_code == 201, made.text
    invitation = made.json()
    assert (invitation["invited"], invitation["inviter"]) == ("Bert", "Anna")
    assert (invitation["seat"], invitation["status"]) == (1, "pending")
    assert invitation["title"] == "Royal Gambit"
    assert invitations(bert)["received"] == [invitation]
    assert invitations(anna)["sent"] == [invitation]
    assert invitations(cleo) == {"received": [], "sent": []}

    # Held: nobody else takes it, neither a guest nor another person.
    guest = client.post(f"/api/tables/{table}/seats/1/join", json={"name": "Gus"})
    assert guest.status_code == 409 and "held" in guest.json()["detail"]
    taken = cleo.browser.post(
        f"/api/tables/{table}/seats/1/join", json={}, headers={CSRF_HEADER: cleo.csrf}
    )
    assert taken.status_code == 409 and "held" in taken.json()["detail"]
    # Another person cannot answer for Bert.
    assert answer(cleo, invitation["id"], "accept").status_code == 404
    assert answer(anna, invitation["id"], "accept").status_code == 403

    accepted = answer(bert, invitation["id"], "accept")
    assert accepted.status_code == 200, accepted.text
    token = accepted.json()["token"]
    assert accepted.json()["invitation"]["status"] == "accepted"
    seats = view(client, table, 1, token)["seats"]
    assert seats[1]["name"] == "Bert"
    mine = bert.browser.get(f"/api/tables/{table}/seats/mine").json()
    assert mine["seats"] == [1]
    assert invitations(bert)["received"] == []
    again = answer(bert, invitation["id"], "accept")
    assert again.status_code == 409 and "accepted" in again.json()["detail"]


def test_a_declined_invitation_frees_the_seat_and_a_withdrawn_one_too(
    client: TestClient, app: FastAPI
) -> None:
    anna, bert, cleo = add_people(app, "Anna", "Bert", "Cleo")
    table = create(client, seats=THREE_PEOPLE, players=3)["id"]
    anna.join(table, 0)
    to_bert = invite(anna, table, 1, "Bert").json()
    to_cleo = invite(anna, table, 2, "Cleo").json()
    declined = answer(bert, to_bert["id"], "decline")
    assert declined.status_code == 200 and declined.json()["status"] == "declined"
    withdrawn = answer(anna, to_cleo["id"], "decline")
    assert withdrawn.status_code == 200 and withdrawn.json()["status"] == "withdrawn"
    assert answer(cleo, to_cleo["id"], "accept").status_code == 409
    assert invitations(anna)["sent"] == []
    # Both seats are free again: anyone may take them.
    join(client, table, 1, "Gus")
    cleo.join(table, 2)
    assert view(client, table, None)["status"] == "playing"


def test_invitations_that_cannot_be_are_refused_and_change_nothing(
    client: TestClient, app: FastAPI
) -> None:
    anna, bert, cleo = add_people(app, "Anna", "Bert", "Cleo")
    table = create(client, seats=THREE_PEOPLE, players=3)["id"]
    # Not seated at the table: nobody's to invite to.
    outsider = invite(cleo, table, 1, "Bert")
    assert outsider.status_code == 403 and "seated" in outsider.json()["detail"]
    anna.join(table, 0)
    cases = [
        (1, "Nobody", 404, "nobody named"),
        (1, "Anna", 400, "yourself"),
        (0, "Bert", 409, "taken"),
        (7, "Bert", 404, "seat"),
    ]
    for seat, name, status, words in cases:
        response = invite(anna, table, seat, name)
        assert response.status_code == status, (seat, name, response.text)
        assert words in response.json()["detail"]
    for body in ({"seat": True, "name": "Bert"}, {"seat": 1}, {"seat": 1, "name": "\x00"}):
        response = anna.browser.post(
            f"/api/tables/{table}/invitations", json=body, headers={CSRF_HEADER: anna.csrf}
        )
        assert response.status_code == 422, response.text
    assert invite(anna, "no-such-table", 1, "Bert").status_code == 404
    # Without the CSRF token, a cookie invites nobody; a guest is told to sign in.
    forged = anna.browser.post(f"/api/tables/{table}/invitations", json={"seat": 1, "name": "Bert"})
    assert forged.status_code == 403
    guest = client.post(f"/api/tables/{table}/invitations", json={"seat": 1, "name": "Bert"})
    assert guest.status_code == 401
    assert invitations(bert)["received"] == []
    first = invite(anna, table, 1, "Bert")
    assert first.status_code == 201
    same_seat = invite(anna, table, 1, "Cleo")
    assert same_seat.status_code == 409 and "held" in same_seat.json()["detail"]
    same_person = invite(anna, table, 2, "Bert")
    assert same_person.status_code == 409 and "invited" in same_person.json()["detail"]
    assert answer(bert, "no-such-invitation", "accept").status_code == 404
    assert [i["id"] for i in invitations(bert)["received"]] == [first.json()["id"]]


def test_my_games_puts_the_games_waiting_for_me_first_least_time_left_first(
    client: TestClient, app: FastAPI
) -> None:
    anna, bert = add_people(app, "Anna", "Bert")
    tables = []
    for hours in (5, 1, 3):
        table = create(
            client,
            game="test-sealed-bids",
            seats=TWO_PEOPLE,
            mode="turn-based",
            clock={"per_move": hours * 3600},
        )["id"]
        anna.join(table, 0)
        bert.join(table, 1)
        tables.append(table)
    found = anna.browser.get("/api/account/tables").json()["tables"]
    assert [game["id"] for game in found] == [tables[1], tables[2], tables[0]]
    lefts = [game["time_left"] for game in found]
    assert all(game["your_turn"] for game in found)
    assert lefts == sorted(lefts) and 3500 < lefts[0] <= 3600


def test_a_hold_ends_when_the_invited_person_joins_by_the_link_or_deletes_their_account(
    client: TestClient, app: FastAPI
) -> None:
    anna, bert, cleo = add_people(app, "Anna", "Bert", "Cleo")
    table = create(client, seats=THREE_PEOPLE, players=3)["id"]
    anna.join(table, 0)
    invite(anna, table, 1, "Bert")
    invite(anna, table, 2, "Cleo")
    bert.join(table, 1)  # the seat's share link, not Accept: his invitation is answered
    assert invitations(bert)["received"] == []
    assert [i["invited"] for i in invitations(anna)["sent"]] == ["Cleo"]
    gone = cleo.browser.request(
        "DELETE", "/api/account", json={"password": PASSWORD}, headers={CSRF_HEADER: cleo.csrf}
    )
    assert gone.status_code == 200, gone.text
    # A deleted account holds no seat: anyone may take it, and the game starts.
    join(client, table, 2, "Gus")
    assert view(client, table, None)["status"] == "playing"
    assert invitations(anna)["sent"] == []
