"""Hints and reviews at the server, through an ASGI test client on SQLite and on
PostgreSQL: a hint is the estimate of the asking seat's view and nothing else, refused where it
would tell what it may not; a review is the one ``courtly review`` makes of the table's record,
made once, kept in the database, and answered after a restart.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from courtly.agents.estimates import Budget, estimate
from courtly.core.records import MatchRecord
from courtly.sim.review import review_record
from courtly.web import create_app
from courtly.web.limits import NO_LIMITS

from .test_replay_api import create, join, play_out, view

SMALL = 40
"""Search iterations of a hint and of each reviewed decision here: quick, and enough to check
that the answers are the estimates (their quality is tested in tests/agents and tests/sim)."""
SHORT = {"target_score": 15}


@pytest.fixture
def app(database_url: str) -> FastAPI:
    return create_app(
        database_url,
        bot_pace=0,
        bot_workers=-1,
        hint_iterations=SMALL,
        review_iterations=SMALL,
        limits=NO_LIMITS,
    )


def ask_hint(client: TestClient, table: str, seat: int, token: str | None, version: int) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.post(
        f"/api/tables/{table}/hint", json={"seat": seat, "version": version}, headers=headers
    )


def started(client: TestClient, **body: Any) -> tuple[str, list[str]]:
    table = create(client, **body)["id"]
    return table, [join(client, table, 0), join(client, table, 1)]


# ---------------------------------------------------------------------------------- hints


def test_a_hint_is_the_estimate_of_the_seat_s_own_view(app: FastAPI, client: TestClient) -> None:
    table, tokens = started(client, game="crush-the-crown", seed=5)
    now = view(client, table, None)
    seat = now["to_move"][0]
    mine = view(client, table, seat, tokens[seat])
    answer = ask_hint(client, table, seat, tokens[seat], mine["version"])
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    assert hint["table"] == table and hint["seat"] == seat and hint["version"] == mine["version"]
    assert hint["budget"] == {"iterations": SMALL}
    legal = {(action["id"], action["text"]) for action in mine["legal_actions"]}
    assert {(action["id"], action["action"]) for action in hint["actions"]} == legal
    means = [action["mean"] for action in hint["actions"]]
    assert means == sorted(means, reverse=True)
    for action in hint["actions"]:
        assert 0 <= action["low"] <= action["mean"] <= action["high"] <= 1
        assert action["visits"] > 0
    # Exactly what the seat's view gives, searched here: the server searched nothing else.
    state = app.state.server.tables.cache.get(table).state
    expected = estimate(state.view(seat), Budget(SMALL), seed=mine["version"], workers=1)
    assert hint["actions"] == [action.to_dict() for action in expected]
    # Asking again answers the same; asking moved nothing.
    assert ask_hint(client, table, seat, tokens[seat], mine["version"]).json() == hint
    assert view(client, table, seat, tokens[seat]) == mine


def test_a_hint_is_refused_with_a_reason_and_changes_nothing(client: TestClient) -> None:
    table, tokens = started(client, game="royal-gambit", seed=8, options=SHORT)
    before = view(client, table, None)
    version = before["version"]
    seat = before["to_move"][0]
    other = 1 - seat
    assert ask_hint(client, table, seat, None, version).status_code == 401
    wrong = ask_hint(client, table, seat, tokens[other], version)
    assert wrong.status_code == 403 and "token" in wrong.json()["detail"]
    waiting = ask_hint(client, table, other, tokens[other], version)
    assert waiting.status_code == 409 and "not to move" in waiting.json()["detail"]
    stale = ask_hint(client, table, seat, tokens[seat], version + 3)
    assert stale.status_code == 409 and stale.json()["version"] == version
    nowhere = ask_hint(client, "nosuchtable", 0, tokens[seat], version)
    assert nowhere.status_code == 404
    bad = client.post(
        f"/api/tables/{table}/hint",
        json={"seat": "0", "version": version},
        headers={"Authorization": f"Bearer {tokens[seat]}"},
    )
    assert bad.status_code == 422 and "seat" in bad.json()["detail"]
    assert view(client, table, None) == before

    # A table made without hints refuses them, to every seat.
    quiet, quiet_tokens = started(client, game="royal-gambit", seed=8, options=SHORT, hints=False)
    state = view(client, quiet, None)
    mover = state["to_move"][0]
    refused = ask_hint(client, quiet, mover, quiet_tokens[mover], state["version"])
    assert refused.status_code == 403 and "hints are off" in refused.json()["detail"]

    # Nor is a hint given once the game is over.
    play_out(client, table, tokens, seed=2)
    over = view(client, table, None)
    late = ask_hint(client, table, 0, tokens[0], over["version"])
    assert late.status_code == 409 and "over" in late.json()["detail"]


# ---------------------------------------------------------------------------------- reviews


def wait_for_review(client: TestClient, table: str) -> dict[str, Any]:
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        answer = client.get(f"/api/tables/{table}/review")
        assert answer.status_code == 200, answer.text
        body: dict[str, Any] = answer.json()
        assert body["status"] in ("queued", "running", "done"), body
        if body["status"] == "done":
            return body
        assert 0 <= body["done"] <= body["total"] or body["total"] == 0
        time.sleep(0.05)
    raise AssertionError("the review did not finish")


def test_a_finished_game_is_reviewed_once_as_courtly_review_does_it(
    database_url: str, client: TestClient
) -> None:
    table, tokens = started(client, game="royal-gambit", seed=4, options=SHORT)
    # Not while the game is on: a review would tell the cards still hidden.
    for method in ("GET", "POST"):
        refused = client.request(method, f"/api/tables/{table}/review")
        assert refused.status_code == 409 and "over" in refused.json()["detail"]
        assert "review" not in refused.json()
    play_out(client, table, tokens, seed=6)
    missing = client.get(f"/api/tables/{table}/review")
    assert missing.status_code == 404 and "POST" in missing.json()["detail"]

    start = client.post(f"/api/tables/{table}/review")
    assert start.status_code == 202, start.text
    assert start.json()["status"] in ("queued", "running", "done")
    assert start.json()["budget"] == {"iterations": SMALL}
    done = wait_for_review(client, table)
    review = done["review"]
    assert review["format"] == "courtly-review/1"
    assert review["reviewed_seats"] == ["p0", "p1"]
    record = client.get(f"/api/tables/{table}/record").json()
    assert review["events"] == len(record["history"])
    # The very review `courtly review` makes of the record, at the server's budget and seed.
    expected = review_record(
        MatchRecord.from_dict(record), budget=Budget(SMALL), seed=0, workers=1
    ).to_dict()
    assert review == expected
    assert all(
        d["chosen"]["action"] in [a["action"] for a in d["actions"]] for d in review["decisions"]
    )

    # Asked again, it is not made again: the same answer at once.
    again = client.post(f"/api/tables/{table}/review")
    assert again.status_code == 202 and again.json()["status"] == "done"
    assert again.json()["review"] == review

    # A restart (a new server on the same database) answers from the database.
    with TestClient(
        create_app(
            database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS, review_iterations=SMALL
        )
    ) as restarted:
        kept = restarted.get(f"/api/tables/{table}/review")
        assert kept.status_code == 200 and kept.json()["status"] == "done"
        assert kept.json()["review"] == review
    # At another budget it is another review, not made yet.
    with TestClient(
        create_app(
            database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS, review_iterations=SMALL * 2
        )
    ) as finer:
        assert finer.get(f"/api/tables/{table}/review").status_code == 404


def test_reviews_of_unknown_tables_are_404(client: TestClient) -> None:
    assert client.get("/api/tables/nosuchtable/review").status_code == 404
    assert client.post("/api/tables/nosuchtable/review").status_code == 404


@pytest.fixture
def no_waiting_room(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setattr("courtly.web.advice.REVIEWS_WAITING", 0)
    yield


def test_a_busy_server_refuses_more_reviews_with_a_clear_503(
    no_waiting_room: None, client: TestClient
) -> None:
    table, tokens = started(client, game="royal-gambit", seed=9, options=SHORT)
    play_out(client, table, tokens, seed=1)
    busy = client.post(f"/api/tables/{table}/review")
    assert busy.status_code == 503 and "try again" in busy.json()["detail"]
    assert client.get(f"/api/tables/{table}/review").status_code == 404
