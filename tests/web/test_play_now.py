"""Play now through the API, on SQLite and PostgreSQL: people waiting for a game meet at one
table, rated people are paired by rating, the free seats go to bots after the wait asked for,
a place not kept by heartbeats is given up, and hostile requests are refused.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import update

from courtly.web import create_app
from courtly.web.limits import NO_LIMITS, Limits
from courtly.web.matching import Waiting, form_tables, rating_window
from courtly.web.people.sessions import CSRF_HEADER
from courtly.web.play_now import HEARTBEAT_GRACE
from courtly.web.storage.rows import QueueRow, RatingRow

from .test_api import WAIT
from .test_ratings import Someone, server_of, sign_up

GAME = "royal-gambit"


def bearer(ticket: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {ticket}"}


def play_now(client: TestClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/play-now", json={"game": GAME, **body})
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def status(client: TestClient, ticket: str) -> dict[str, Any]:
    response = client.post("/api/play-now/wait", headers=bearer(ticket))
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def rated_play_now(someone: Someone) -> dict[str, Any]:
    response = someone.browser.post(
        "/api/play-now",
        json={"game": GAME, "players": 2, "rated": True},
        headers={CSRF_HEADER: someone.csrf},
    )
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def set_rating(app: FastAPI, someone: Someone, mu: float) -> None:
    """The person's rating in the game's pools (shown: ``mu - 3``)."""
    server = server_of(app)
    with server.storage.session() as session:
        for pool in (2, 0):
            session.add(
                RatingRow(
                    account_id=someone.id,
                    game=GAME,
                    players=pool,
                    mu=mu,
                    sigma=1.0,
                    games=10,
                    wins=5,
                    updated_at=0.0,
                )
            )


def test_two_guests_meet_at_one_table_that_starts(client: TestClient) -> None:
    first = play_now(client, players=2, name="Ann")
    assert first["state"] == "waiting" and first["table"] is None
    waiting = client.get("/api/play-now/waiting").json()
    assert waiting == [
        {"game": GAME, "players": 2, "mode": "realtime", "rated": False, "waiting": 1}
    ]
    second = play_now(client, players=0, name="<b>Bob</b>")
    assert second["state"] == "seated"
    mine = status(client, first["ticket"])
    assert mine["state"] == "seated" and mine["table"] == second["table"]
    assert {mine["seat"], second["seat"]} == {0, 1}
    table = client.get(f"/api/tables/{mine['table']}").json()
    assert table["status"] == "playing" and not table["rated"]
    assert sorted(seat["name"] for seat in table["seats"]) == ["<b>Bob</b>", "Ann"]
    # The ticket is the seat's token: its view shows the seat's own hand.
    view = client.get(
        f"/api/tables/{mine['table']}/view",
        params={"seat": mine["seat"]},
        headers=bearer(first["ticket"]),
    )
    assert view.status_code == 200, view.text
    # Nobody waits any more; leaving a seated place is refused, not silently done.
    assert client.get("/api/play-now/waiting").json() == []
    left = client.delete("/api/play-now", headers=bearer(first["ticket"]))
    assert left.status_code == 409 and mine["table"] in left.json()["detail"]


def test_wanted_counts_modes_and_kinds_do_not_mix(client: TestClient) -> None:
    two = play_now(client, players=2)
    three = play_now(client, players=3)
    turn_based = play_now(client, players=2, mode="turn-based")
    for place in (two, three, turn_based):
        assert status(client, place["ticket"])["state"] == "waiting"
    counted = {
        (w["players"], w["mode"]): w["waiting"] for w in client.get("/api/play-now/waiting").json()
    }
    assert counted == {(2, "realtime"): 1, (3, "realtime"): 1, (2, "turn-based"): 1}
    # "Any" joins the longest waiting of the game and mode: the 2-player one.
    anyone = play_now(client, players=0)
    assert anyone["state"] == "seated"
    assert status(client, two["ticket"])["table"] == anyone["table"]
    assert status(client, three["ticket"])["state"] == "waiting"
    late = play_now(client, players=2, mode="turn-based")
    table = client.get(f"/api/tables/{late['table']}").json()
    assert table["mode"] == "turn-based" and table["clock"]["per_move"] > 0


def test_leaving_is_one_request_and_a_silent_place_is_given_up(
    client: TestClient, app: FastAPI
) -> None:
    gone = play_now(client, players=2)
    assert client.delete("/api/play-now", headers=bearer(gone["ticket"])).status_code == 200
    assert client.get("/api/play-now/waiting").json() == []
    assert client.post("/api/play-now/wait", headers=bearer(gone["ticket"])).status_code == 404
    silent = play_now(client, players=2)
    with server_of(app).storage.session() as session:
        session.execute(update(QueueRow).values(seen_at=time.time() - HEARTBEAT_GRACE - 1))
    # Not counted, never seated with a newcomer, and told it was given up when it looks again.
    assert client.get("/api/play-now/waiting").json() == []
    newcomer = play_now(client, players=2)
    assert newcomer["state"] == "waiting"
    late = client.post("/api/play-now/wait", headers=bearer(silent["ticket"]))
    assert late.status_code == 404 and "given up" in late.json()["detail"]


def test_free_seats_go_to_bots_after_the_wait_and_the_table_is_casual(
    client: TestClient,
) -> None:
    place = play_now(client, players=3, bots_after=1)
    assert place["state"] == "waiting"
    deadline = time.monotonic() + WAIT
    seen = status(client, place["ticket"])
    while seen["state"] == "waiting" and time.monotonic() < deadline:
        time.sleep(0.1)
        seen = status(client, place["ticket"])
    assert seen["state"] == "seated" and seen["seat"] == 0
    table = client.get(f"/api/tables/{seen['table']}").json()
    assert [seat["kind"] for seat in table["seats"]] == ["person", "bot", "bot"]
    assert table["status"] == "playing" and not table["rated"]


def test_rated_people_close_in_rating_are_paired_before_far_ones(app: FastAPI) -> None:
    with TestClient(app):
        far, near, newcomer = (sign_up(app, name) for name in ("Far", "Near", "Newcomer"))
        set_rating(app, far, 60.0)  # shown 57
        set_rating(app, near, 23.0)  # shown 20
        set_rating(app, newcomer, 24.0)  # shown 21
        first = rated_play_now(far)
        second = rated_play_now(near)
        assert first["state"] == second["state"] == "waiting"
        third = rated_play_now(newcomer)
        assert third["state"] == "seated"
        assert status(near.browser, second["ticket"])["table"] == third["table"]
        assert status(far.browser, first["ticket"])["state"] == "waiting"
        table = near.browser.get(f"/api/tables/{third['table']}").json()
        assert table["rated"]
        assert sorted(seat["name"] for seat in table["seats"]) == ["Near", "Newcomer"]


def test_a_guest_cannot_wait_for_a_rated_table_and_bad_requests_change_nothing(
    client: TestClient,
) -> None:
    refused = [
        client.post("/api/play-now", json={"game": GAME, "rated": True}),
        client.post("/api/play-now", json={"game": "chess"}),
        client.post("/api/play-now", json={"game": GAME, "players": 9}),
        client.post("/api/play-now", json={"game": GAME, "mode": "blitz"}),
        client.post("/api/play-now", json={"game": GAME, "bots_after": -1}),
        client.post("/api/play-now", json={"game": GAME, "players": "2"}),
        client.post("/api/play-now", json={"game": GAME, "extra": 1}),
        client.post("/api/play-now", json={"game": GAME, "name": "\u202e\u0000"}),
        client.post("/api/play-now", content=b"{", headers={"Content-Type": "application/json"}),
        client.post("/api/play-now/wait"),
        client.post("/api/play-now/wait", headers=bearer("not-a-ticket")),
        client.delete("/api/play-now"),
        client.delete("/api/play-now", headers=bearer("not-a-ticket")),
    ]
    codes = [response.status_code for response in refused]
    assert codes == [401, 404, 400, 422, 422, 422, 422, 422, 422, 401, 404, 401, 404], codes
    assert all(isinstance(response.json()["detail"], str) for response in refused)
    assert client.get("/api/play-now/waiting").json() == []


def test_a_person_waits_in_one_queue_at_a_time(app: FastAPI) -> None:
    with TestClient(app):
        anna = sign_up(app, "Anna")
        for players in (2, 3):
            response = anna.browser.post(
                "/api/play-now",
                json={"game": GAME, "players": players},
                headers={CSRF_HEADER: anna.csrf},
            )
            assert response.status_code == 201, response.text
        waiting = anna.browser.get("/api/play-now/waiting").json()
        assert [(w["players"], w["waiting"]) for w in waiting] == [(3, 1)]


def test_the_rating_window_widens_with_the_wait() -> None:
    now = 1000.0
    early = Waiting("a", GAME, 2, "realtime", True, now - 1, rating=20.0)
    far = Waiting("b", GAME, 2, "realtime", True, now - 1, rating=35.0)
    assert form_tables([early, far], {GAME: [2, 3, 4]}, now) == []
    gap_closed = now + (15.0 - rating_window(0)) / 0.5 + 1
    formed = form_tables([early, far], {GAME: [2, 3, 4]}, gap_closed)
    assert [sorted(p.key for p in table.people) for table in formed] == [["a", "b"]]
    # The same account is never seated twice at one table.
    twice = [
        Waiting("x", GAME, 2, "realtime", False, now, account_id="same"),
        Waiting("y", GAME, 2, "realtime", False, now, account_id="same"),
    ]
    assert form_tables(twice, {GAME: [2]}, now) == []


@pytest.mark.parametrize("players", [2, 4])
def test_many_guests_arriving_are_each_seated_once(client: TestClient, players: int) -> None:
    places = [play_now(client, players=players) for _ in range(players * 3)]
    seated = [status(client, place["ticket"]) for place in places]
    assert all(s["state"] == "seated" for s in seated)
    seats = {(s["table"], s["seat"]) for s in seated}
    assert len(seats) == len(places)
    assert len({s["table"] for s in seated}) == 3


def test_a_restart_loses_no_place(database_url: str) -> None:
    with TestClient(create_app(database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS)) as c:
        waiting = play_now(c, players=2, name="Ann")
    with TestClient(create_app(database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS)) as c:
        assert status(c, waiting["ticket"])["state"] == "waiting"
        met = play_now(c, players=2, name="Bob")
        assert met["state"] == "seated"
        assert status(c, waiting["ticket"])["table"] == met["table"]


def test_play_now_tables_count_against_the_address_s_table_limit(database_url: str) -> None:
    limits = Limits(tables_per_address=2)
    app = create_app(database_url, bot_pace=0, bot_workers=-1, limits=limits)
    with TestClient(app) as c:
        for _ in range(2):
            assert play_now(c, players=2, bots_after=0)["state"] == "seated"
        refused = c.post("/api/play-now", json={"game": GAME, "players": 2, "bots_after": 0})
        assert refused.status_code == 429 and "tables open or in play" in refused.json()["detail"]
        assert c.get("/api/play-now/waiting").json() == []
