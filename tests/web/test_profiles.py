"""People's pages over the API, on SQLite and PostgreSQL: a profile (games played and won,
recent games, ratings and their history, review figures), a game's leaderboard with its minimum
of games, and My games in the order a person wants them (their turn first).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from courtly.web import create_app
from courtly.web.limits import NO_LIMITS
from courtly.web.people.sessions import CSRF_HEADER
from courtly.web.ratings import displayed
from courtly.web.storage.rows import ReviewRow

from .test_accounts import PASSWORD
from .test_api import TWO_PEOPLE, create, move, view, wait_for
from .test_ratings import GAME, Someone, add_people, changes, rated_game, server_of

MIN_GAMES = 2


@pytest.fixture
def app(database_url: str) -> FastAPI:
    return create_app(
        database_url,
        bot_pace=0,
        bot_workers=-1,
        limits=NO_LIMITS,
        leaderboard_min_games=MIN_GAMES,
    )


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as test_client:
        yield test_client


def settled(app: FastAPI, table: str) -> str:
    wait_for(lambda: len(changes(server_of(app), table)) == 4, f"table {table} rated")
    return table


def test_a_leaderboard_ranks_people_with_enough_rated_games(
    client: TestClient, app: FastAPI
) -> None:
    anna, bert, cleo = add_people(app, "Anna", "Bert", "Cleo")
    for seed in (1, 2):
        settled(app, rated_game(client, app, [anna, bert], seed))
    settled(app, rated_game(client, app, [anna, cleo], 3))
    for players in (0, 2):
        response = client.get(f"/api/leaderboards/{GAME}", params={"players": players})
        assert response.status_code == 200, response.text
        board = response.json()
        assert board["min_games"] == MIN_GAMES and board["players"] == players
        entries = board["entries"]
        # Cleo has played one rated game: not enough to appear.
        assert sorted(e["name"] for e in entries) == ["Anna", "Bert"]
        assert [e["rank"] for e in entries] == [1, 2]
        ratings = [e["rating"] for e in entries]
        assert ratings == sorted(ratings, reverse=True)
        for entry in entries:
            assert entry["rating"] == displayed(entry["mu"], entry["sigma"])
        assert {e["name"]: e["games"] for e in entries} == {"Anna": 3, "Bert": 2}


def test_a_leaderboard_refuses_what_is_no_pool(client: TestClient) -> None:
    missing = client.get("/api/leaderboards/chess")
    assert missing.status_code == 404 and "no game" in missing.json()["detail"]
    count = client.get("/api/leaderboards/royal-gambit", params={"players": 9})
    assert count.status_code == 400
    assert "players" in count.json()["detail"]
    bad = client.get("/api/leaderboards/royal-gambit", params={"players": "all"})
    assert bad.status_code == 422
    assert client.get("/api/leaderboards/royal-gambit").json()["entries"] == []


def test_a_profile_shows_games_ratings_their_history_and_review_figures(
    client: TestClient, app: FastAPI
) -> None:
    anna, bert = add_people(app, "Anna", "Bert")
    tables = [settled(app, rated_game(client, app, [anna, bert], seed)) for seed in (4, 5, 6)]
    with server_of(app).storage.session() as session:
        session.add(
            ReviewRow(
                table_id=tables[0],
                iterations=100,
                at=time.time(),
                review={
                    "summaries": [
                        {"seat": "p0", "decisions": 4, "mean_loss": 0.05, "accuracy": 90.0},
                        {"seat": "p1", "decisions": 4, "mean_loss": 0.2, "accuracy": 60.0},
                    ]
                },
            )
        )
    response = client.get("/api/people/anna")  # names are found however they are cased
    assert response.status_code == 200, response.text
    profile = response.json()
    assert profile["name"] == "Anna"
    (played,) = profile["games"]
    assert played["game"] == GAME and played["played"] == 3 and played["rated"] == 3
    assert 0 <= played["won"] <= 3
    assert [game["id"] for game in profile["recent"]] == tables[::-1]  # the last first
    for game in profile["recent"]:
        assert game["mine"] == [0] and game["status"] == "over" and game["rated"]
        assert [seat["name"] for seat in game["seats"]] == ["Anna", "Bert"]
        assert all(seat["place"] in (1, 2) for seat in game["seats"])
    assert {(r["players"], r["games"]) for r in profile["ratings"]} == {(0, 3), (2, 3)}
    for line in profile["history"]:
        assert [step["table"] for step in line["steps"]] == tables
        last = line["steps"][-1]
        (now,) = [r for r in profile["ratings"] if r["players"] == line["players"]]
        assert (last["mu"], last["sigma"], last["rating"]) == (
            now["mu"],
            now["sigma"],
            now["rating"],
        )
    (figures,) = profile["reviews"]
    assert figures == {
        "table": tables[0],
        "game": GAME,
        "at": figures["at"],
        "decisions": 4,
        "mean_loss": 0.05,
        "accuracy": 90.0,
    }
    nobody = client.get("/api/people/Zed")
    assert nobody.status_code == 404 and "Zed" in nobody.json()["detail"]
    # What no name can be (a NUL, which PostgreSQL cannot even compare; nothing to show).
    for hostile in ("%00", "a%00b", "%E2%80%AE", "%20"):
        refused = client.get(f"/api/people/{hostile}")
        assert refused.status_code == 404, refused.text
    assert client.get("/api/people/" + "x" * 65).status_code == 422


def _take(person: Someone, app: FastAPI, table: str, seat: int) -> str:
    return person.join(table, seat)


def test_my_games_lists_your_turn_first_then_in_play_open_and_finished(
    client: TestClient, app: FastAPI
) -> None:
    anna, bert = add_people(app, "Anna", "Bert")
    finished = settled(app, rated_game(client, app, [anna, bert], 7))
    open_table = create(client, game=GAME, seats=TWO_PEOPLE)["id"]
    _take(anna, app, open_table, 0)
    waiting = create(client, game=GAME, seats=TWO_PEOPLE, clock={"initial": 600})["id"]
    tokens = [_take(anna, app, waiting, 0), _take(bert, app, waiting, 1)]
    mine = view(client, waiting, 0, tokens[0])
    moved = move(client, waiting, 0, mine["legal_actions"][0]["text"], mine["version"], tokens[0])
    assert moved.status_code == 200, moved.text
    yours = create(client, game=GAME, seats=TWO_PEOPLE)["id"]
    _take(anna, app, yours, 0)
    _take(bert, app, yours, 1)
    response = anna.browser.get("/api/account/tables")
    assert response.status_code == 200, response.text
    listed = response.json()
    assert listed["finished"] == 1
    order = [(t["id"], t["status"], t["your_turn"]) for t in listed["tables"]]
    assert order == [
        (yours, "playing", True),
        (waiting, "playing", False),
        (open_table, "open", False),
        (finished, "over", False),
    ]
    by_id: dict[str, Any] = {t["id"]: t for t in listed["tables"]}
    assert by_id[waiting]["to_move"] == [1]
    assert 0 < by_id[waiting]["time_left"] <= 600
    assert by_id[yours]["time_left"] is None  # no clock
    assert by_id[open_table]["mine"] == [0] and by_id[finished]["rated"]
    assert [s["name"] for s in by_id[yours]["seats"]] == ["Anna", "Bert"]
    # Bert's list is his own.
    bert_list = bert.browser.get("/api/account/tables").json()["tables"]
    assert {t["id"] for t in bert_list} == {finished, waiting, yours}
    assert [t["your_turn"] for t in bert_list][:2] == [True, True]
    # Fewer finished tables on request; none for a guest.
    none = anna.browser.get("/api/account/tables", params={"finished": 0}).json()
    assert [t["id"] for t in none["tables"]] == [yours, waiting, open_table]
    assert none["finished"] == 1
    guest = client.get("/api/account/tables")
    assert guest.status_code == 401
    assert anna.browser.get("/api/account/tables", params={"finished": -1}).status_code == 422


def test_a_deleted_account_leaves_its_games_under_the_name_deleted_player(
    client: TestClient, app: FastAPI
) -> None:
    anna, bert = add_people(app, "Anna", "Bert")
    tables = [settled(app, rated_game(client, app, [anna, bert], seed)) for seed in (11, 12)]
    gone = bert.browser.request(
        "DELETE",
        "/api/account",
        json={"password": PASSWORD},
        headers={CSRF_HEADER: bert.csrf},
    )
    assert gone.status_code == 200, gone.text
    assert client.get("/api/people/Bert").status_code == 404
    board = client.get(f"/api/leaderboards/{GAME}").json()
    assert [entry["name"] for entry in board["entries"]] == ["Anna"]
    recent = client.get("/api/people/Anna").json()["recent"]
    assert [game["id"] for game in recent] == tables[::-1]
    for game in recent:
        assert [seat["name"] for seat in game["seats"]] == ["Anna", "deleted player"]
