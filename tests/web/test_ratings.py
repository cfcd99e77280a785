"""Ratings: what a rated table may be, and each finished table settled once (places kept,
OpenSkill ratings moved in the game's pools), on SQLite and PostgreSQL.

People sign up, each in a browser of their own (a client with its cookies), and join signed
in: the seat is theirs.
"""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import delete, select, update

import courtly
from courtly.core.match import play_randomly
from courtly.web import create_app
from courtly.web.limits import NO_LIMITS
from courtly.web.people.sessions import CSRF_HEADER
from courtly.web.ratings import ALL_COUNTS, Ratings, displayed, places_of, rate
from courtly.web.server import Server
from courtly.web.storage import open_storage
from courtly.web.storage.ratings import PoolRating
from courtly.web.storage.rows import RatingChangeRow, RatingRow, SeatRow

from .test_accounts import PASSWORD
from .test_api import TWO_PEOPLE, WAIT, create, join, play_until, wait_for

GAME = "test-sealed-bids"
"""A short game of simultaneous bids (tests/toy_games.py): one round ends it."""


def server_of(app: FastAPI) -> Server:
    found: Server = app.state.server
    return found


@dataclass
class Someone:
    """A person signed up in a browser of their own."""

    browser: TestClient
    id: str
    csrf: str

    def join(self, table: str, seat: int) -> str:
        response = self.browser.post(
            f"/api/tables/{table}/seats/{seat}/join", json={}, headers={CSRF_HEADER: self.csrf}
        )
        assert response.status_code == 200, response.text
        return str(response.json()["token"])


def sign_up(app: FastAPI, name: str) -> Someone:
    browser = TestClient(app)
    response = browser.post("/api/account", json={"name": name, "password": PASSWORD})
    assert response.status_code == 201, response.text
    me = response.json()
    return Someone(browser, me["id"], me["csrf"])


def add_people(app: FastAPI, *names: str) -> list[Someone]:
    return [sign_up(app, name) for name in names]


def seat_of_nobody(server: Server, table: str, seat: int) -> None:
    """The seat held by its token alone (no API makes one at a rated table: the settling must
    still not rate a seat that is nobody's)."""
    with server.storage.session() as session:
        session.execute(
            update(SeatRow)
            .where(SeatRow.table_id == table, SeatRow.seat == seat)
            .values(account_id=None)
        )


def finish(client: TestClient, table: str, tokens: list[str], seed: int) -> dict[str, Any]:
    return play_until(client, table, tokens, random.Random(seed), lambda v: False)


def rated_game(client: TestClient, app: FastAPI, people: list[Someone], seed: int) -> str:
    """A finished rated table of ``people``, in seat order."""
    table = create(client, game=GAME, seats=TWO_PEOPLE, options={"rounds": 1}, rated=True)
    assert table["rated"] is True
    tokens = [person.join(table["id"], seat) for seat, person in enumerate(people)]
    # Every page of the table says so: a seat's and a spectator's.
    assert client.get(f"/api/tables/{table['id']}/view").json()["rated"] is True
    assert finish(client, table["id"], tokens, seed)["status"] == "over"
    return str(table["id"])


def changes(server: Server, table: str) -> list[tuple[str, int, float, float]]:
    with server.storage.session() as session:
        rows = session.scalars(
            select(RatingChangeRow)
            .where(RatingChangeRow.table_id == table)
            .order_by(RatingChangeRow.account_id, RatingChangeRow.players)
        )
        return [(row.account_id, row.players, row.mu, row.sigma) for row in rows]


def ratings(server: Server) -> dict[tuple[str, int], tuple[float, float, int, float]]:
    with server.storage.session() as session:
        rows = session.scalars(select(RatingRow))
        return {(r.account_id, r.players): (r.mu, r.sigma, r.games, r.wins) for r in rows}


def places(server: Server, table: str) -> list[int | None]:
    with server.storage.session() as session:
        return list(
            session.scalars(
                select(SeatRow.place).where(SeatRow.table_id == table).order_by(SeatRow.seat)
            )
        )


# ---------------------------------------------------------------------------------- rules


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}]}, "no bots"),
        ({"seed": 7}, "chosen seed"),
    ],
)
def test_a_rated_table_is_of_people_on_a_secret_deal(
    client: TestClient, body: dict[str, Any], words: str
) -> None:
    request = {"game": GAME, "seats": TWO_PEOPLE, "rated": True, **body}
    response = client.post("/api/tables", json=request)
    assert response.status_code == 400, response.text
    assert words in response.json()["detail"]
    listed = client.get("/api/tables", params={"status": ["open", "playing", "over"]})
    assert listed.json() == []


def test_a_table_is_casual_unless_made_rated(client: TestClient) -> None:
    table = create(client, game=GAME, seats=TWO_PEOPLE)
    assert table["rated"] is False
    assert client.get(f"/api/tables/{table['id']}/view").json()["rated"] is False
    with_bot = create(client, game=GAME, seats=[{"kind": "person"}, {"kind": "bot"}])
    assert with_bot["rated"] is False


# ---------------------------------------------------------------------------------- settling


def test_a_rated_table_moves_its_people_s_ratings_once_in_both_pools(
    client: TestClient, app: FastAPI
) -> None:
    server = server_of(app)
    people = add_people(app, "Anna", "Bert")
    anna, bert = (person.id for person in people)
    table = rated_game(client, app, people, seed=3)
    found = wait_for(lambda: len(changes(server, table)) == 4 and changes(server, table), "rating")
    assert {(account, pool) for account, pool, _mu, _sigma in found} == {
        (anna, 2),
        (anna, ALL_COUNTS),
        (bert, 2),
        (bert, ALL_COUNTS),
    }
    kept = places(server, table)
    assert sorted(p for p in kept if p is not None) in ([1, 1], [1, 2])
    rated = ratings(server)
    fresh_sigma = 25 / 3
    for account, place in zip((anna, bert), kept, strict=True):
        mu, sigma, games, wins = rated[(account, 2)]
        assert rated[(account, ALL_COUNTS)] == (mu, sigma, games, wins)
        assert games == 1 and sigma < fresh_sigma
        assert wins == (1.0 if kept == [1, 2] or kept == [2, 1] else 0.5) * (place == 1)
    if kept[0] != kept[1]:
        winner, loser = (anna, bert) if kept[0] == 1 else (bert, anna)
        assert rated[(winner, 2)][0] > 25 > rated[(loser, 2)][0]
    # Settled again (a second notice, a restart): nothing moves.
    assert server.ratings.settle(table) is False
    assert ratings(server) == rated
    assert len(changes(server, table)) == 4


def test_a_casual_table_keeps_its_places_and_moves_no_rating(
    client: TestClient, app: FastAPI
) -> None:
    server = server_of(app)
    people = add_people(app, "Anna", "Bert")
    table = create(client, game=GAME, seats=TWO_PEOPLE, options={"rounds": 1})
    tokens = [person.join(table["id"], seat) for seat, person in enumerate(people)]
    finish(client, table["id"], tokens, seed=4)
    wait_for(lambda: None not in places(server, table["id"]), "the places")
    assert ratings(server) == {}
    assert changes(server, table["id"]) == []


def test_a_rated_table_s_seats_are_for_signed_in_people_one_seat_each(
    client: TestClient, app: FastAPI
) -> None:
    (anna,) = add_people(app, "Anna")
    table = create(client, game=GAME, seats=TWO_PEOPLE, options={"rounds": 1}, rated=True)
    guest = client.post(f"/api/tables/{table['id']}/seats/0/join", json={"name": "Guest"})
    assert guest.status_code == 403, guest.text
    assert "sign in" in guest.json()["detail"]
    anna.join(table["id"], 0)
    for body in ({}, {"hot_seat": True}):  # a rated table has no hot seat
        again = anna.browser.post(
            f"/api/tables/{table['id']}/seats/1/join", json=body, headers={CSRF_HEADER: anna.csrf}
        )
        assert again.status_code == 409, again.text
        assert "one seat each" in again.json()["detail"]
    shown = client.get(f"/api/tables/{table['id']}").json()
    assert shown["free_seats"] == [1] and shown["status"] == "open"
    # A casual table lets a guest in, as ever.
    casual = create(client, game=GAME, seats=TWO_PEOPLE)
    join(client, casual["id"], 0)


def test_a_rated_table_with_a_guest_s_seat_moves_no_rating(
    client: TestClient, app: FastAPI
) -> None:
    server = server_of(app)
    anna, bert = add_people(app, "Anna", "Bert")
    table = create(client, game=GAME, seats=TWO_PEOPLE, options={"rounds": 1}, rated=True)
    tokens = [anna.join(table["id"], 0), bert.join(table["id"], 1)]
    seat_of_nobody(server, table["id"], 1)
    finish(client, table["id"], tokens, seed=5)
    wait_for(lambda: None not in places(server, table["id"]), "the places")
    assert ratings(server) == {}


def test_two_server_processes_settling_one_table_count_it_once(
    client: TestClient, app: FastAPI, database_url: str
) -> None:
    server = server_of(app)
    table = rated_game(client, app, add_people(app, "Anna", "Bert"), seed=6)
    wait_for(lambda: len(changes(server, table)) == 4, "the first settling")
    before = ratings(server)
    # Forget that it was settled, as a process that never heard of it would not know, and let
    # two processes settle it at once: each finds the other's work.
    with server.storage.session() as session:
        session.execute(delete(RatingChangeRow).where(RatingChangeRow.table_id == table))
        session.execute(update(SeatRow).where(SeatRow.table_id == table).values(place=None))
    others = [open_storage(database_url) for _ in range(2)]
    try:
        settlers = [Ratings(storage, server.tables.cache) for storage in others]
        results: list[bool] = []
        threads = [
            threading.Thread(target=lambda r=r: results.append(r.settle(table))) for r in settlers
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(WAIT)
        assert sorted(results) == [False, True]
    finally:
        for storage in others:
            storage.close()
    assert len(changes(server, table)) == 4
    after = ratings(server)
    # The one settling moved each rating once more from where it stood.
    assert all(after[key][2] == before[key][2] + 1 for key in before)


def test_a_table_that_ended_while_its_server_stopped_is_settled_at_the_next_start(
    database_url: str,
) -> None:
    first = create_app(database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS)
    with TestClient(first) as client:
        server = server_of(first)
        table = rated_game(client, first, add_people(first, "Anna", "Bert"), seed=8)
        wait_for(lambda: len(changes(server, table)) == 4, "the settling")
        guests = create(client, game=GAME, seats=TWO_PEOPLE, options={"rounds": 1})["id"]
        finish(client, guests, [join(client, guests, seat) for seat in range(2)], seed=9)
        wait_for(lambda: None not in places(server, guests), "the guests' places")
        # As if the server had stopped before settling them (or as every table finished
        # before places were kept).
        with server.storage.session() as session:
            session.execute(delete(RatingChangeRow))
            session.execute(delete(RatingRow))
            session.execute(update(SeatRow).values(place=None))
    again = create_app(database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS)
    with TestClient(again):
        server = server_of(again)
        wait_for(lambda: len(changes(server, table)) == 4, "the settling at start")
        assert None not in places(server, table)
        assert {games for _mu, _sigma, games, _wins in ratings(server).values()} == {1}
        # A table of guests alone is not replayed at start for places nobody's page shows.
        assert places(server, guests) == [None, None]


# ---------------------------------------------------------------------------------- the model


def test_clansmen_are_rated_as_a_team_and_shared_wins_are_ties() -> None:
    game = courtly.make("goths-save-the-queen", players=4)
    teams = list(game.teams().values())
    accounts = ["a", "b", "c", "d"]
    first, second = teams
    places_won = [1 if seat in first else 2 for seat in range(4)]
    after = rate(game, places_won, accounts, {})
    winners = {accounts[seat] for seat in first}
    losers = {accounts[seat] for seat in second}
    assert len({after[a].mu for a in winners}) == 1  # the clan moves as one
    assert min(after[a].mu for a in winners) > 25 > max(after[a].mu for a in losers)
    assert {after[a].wins for a in winners} == {1.0} and {after[a].wins for a in losers} == {0.0}
    tied = rate(courtly.make("royal-gambit", players=2), [1, 1], ["a", "b"], {})
    assert tied["a"].mu == pytest.approx(tied["b"].mu) and tied["a"].wins == 0.5


def test_a_rating_moves_from_where_it_stood() -> None:
    game = courtly.make("royal-gambit", players=2)
    before = {"a": PoolRating(30.0, 2.0, 10, 6.0)}
    after = rate(game, [1, 2], ["a", "b"], before)
    assert after["a"].games == 11 and after["a"].wins == 7.0
    assert 30.0 < after["a"].mu < 31.0  # a sure rating moves little
    assert after["b"].games == 1 and after["b"].mu < 25
    assert displayed(25.0, 25 / 3) == 0.0


def test_a_clan_shares_its_place_and_places_follow_the_returns_order() -> None:
    game = courtly.make("goths-save-the-queen", players=4)
    for seed in range(3):
        state = game.new_state()
        play_randomly(state, random.Random(seed))
        found = places_of(game, state)
        returns = state.returns()
        # The game's own places (dense for clans: 1 and 2), in the order of the returns.
        for a in range(4):
            for b in range(4):
                assert (found[a] < found[b]) == (returns[a] > returns[b])
        for team in game.teams().values():
            assert len({found[seat] for seat in team}) == 1
