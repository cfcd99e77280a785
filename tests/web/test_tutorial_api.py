"""Tutorial tables through the API: the learner seated against the game's bots, the prepared
deal first and the table's own chance after it, the lessons in the learner's message alone for
their first decisions, a restart in the middle, and the requests refused.

Every test runs for every registered game that declares a tutorial (and for the sample one
:mod:`.teaching` gives Royal Gambit while it declares none), on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any, cast

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from courtly.core.deals import chance_rng
from courtly.core.events import CHANCE
from courtly.core.game import State
from courtly.core.registry import game_class, games
from courtly.web import create_app
from courtly.web.catalogue import catalogue
from courtly.web.limits import NO_LIMITS
from courtly.web.seat_messages import ON_YOUR_OWN
from courtly.web.storage.rows import TableRow
from courtly.web.tables import seat_message

from . import teaching
from .test_api import bearer, every_table, move, view, wait_for


@pytest.fixture(autouse=True)
def sample_tutorial(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The sample tutorial in place for the test, undone after it (the catalogue is made
    again on either side: it is kept once made)."""
    teaching.install(monkeypatch.setattr)
    catalogue.cache_clear()
    yield
    catalogue.cache_clear()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "taught" in metafunc.fixturenames:
        with pytest.MonkeyPatch.context() as patch:
            teaching.install(patch.setattr)
            metafunc.parametrize("taught", teaching.taught())


def start(client: TestClient, game: str, name: str = "") -> tuple[str, str]:
    """A tutorial table of ``game``: its id and the learner's token."""
    response = client.post("/api/tutorials", json={"game": game, "name": name})
    assert response.status_code == 201, response.text
    answer = response.json()
    assert answer["seat"] == game_class(game).info.tutorial.learner  # type: ignore[union-attr]
    return answer["table"], answer["token"]


def truth(app: FastAPI, table: str) -> State:
    """The table's full state as the server holds it (for checking, never shown to anyone)."""
    return app.state.server.tables.cache.get(table).state.clone()


def learner_turn(client: TestClient, table: str, token: str) -> dict[str, Any]:
    """The learner's message once the bots have moved: the learner alone to move, or the game
    over. (Where seats choose at once, as in God Save The King, the learner is to move before the
    bots have chosen too: their choices would still come, a version each.)"""
    return cast(
        dict[str, Any],
        wait_for(
            lambda: (
                (
                    (shown := view(client, table, 0, token))["status"] == "over"
                    or shown["to_move"] == [0]
                )
                and shown
            ),
            "the learner's turn",
        ),
    )


def play_lessons(
    app: FastAPI, client: TestClient, table: str, token: str, decisions: int
) -> list[dict[str, Any]]:
    """The learner's first legal move, ``decisions`` times (fewer if the game ends first),
    each lesson checked against the engine's coach on the position as it stands; the learner's
    messages at their decisions."""
    seen = []
    held = app.state.server.tables.cache.get(table)
    for _ in range(decisions):
        if learner_turn(client, table, token)["status"] == "over":
            break
        # The learner's message and the truth at one moment (at a simultaneous point a bot may
        # move at any time).
        with held.lock:
            shown = json.loads(json.dumps(seat_message(held, 0, 0, time.time())))
            state = held.state.clone()
        assert shown["version"] == len(state.history)
        seen.append(shown)
        tutorial = state.game.info.tutorial
        assert tutorial is not None
        lesson = shown["lesson"]
        assert lesson["lessons"] == tutorial.lessons
        made = sum(1 for actor, _ in state.history if actor == tutorial.learner)
        if made < tutorial.lessons:
            assert lesson["number"] == made + 1
            assert lesson["coach"] == state.game.text.coach(state, tutorial.learner)
        else:
            assert lesson == {"number": None, "lessons": tutorial.lessons, "coach": ON_YOUR_OWN}
        first = shown["legal_actions"][0]["text"]
        answer = move(client, table, 0, first, shown["version"], token)
        assert answer.status_code == 200, answer.text
    return seen


def stored_tables(app: FastAPI) -> int:
    storage = app.state.server.storage
    with storage.session() as session:
        return int(session.scalar(select(func.count()).select_from(TableRow)) or 0)


# ---------------------------------------------------------------------------------- tests


def test_the_catalogue_says_which_games_teach_a_tutorial(client: TestClient) -> None:
    listed = {entry["id"]: entry["tutorial"] for entry in client.get("/api/games").json()}
    assert listed == {info.id: info.tutorial is not None for info in games()}
    assert listed[teaching.SAMPLE_GAME]


def test_a_tutorial_seats_the_learner_against_the_game_s_bots_with_hints_on(
    client: TestClient, taught: str
) -> None:
    tutorial = game_class(taught).info.tutorial
    assert tutorial is not None
    table, token = start(client, taught, "Ann")
    summary = client.get(f"/api/tables/{table}").json()
    assert summary["tutorial"] and summary["hints"] and summary["status"] == "playing"
    assert summary["players"] == tutorial.players
    learner, *others = summary["seats"]
    assert (learner["kind"], learner["name"]) == ("person", "Ann")
    assert [seat["kind"] for seat in others] == ["bot"] * len(tutorial.opponents)
    assert [seat["bot"] for seat in others] == list(tutorial.opponents)
    assert view(client, table, 0, token)["tutorial"]


def test_chance_follows_the_prepared_deal_then_the_table_s_seed(
    app: FastAPI, client: TestClient, taught: str
) -> None:
    tutorial = game_class(taught).info.tutorial
    assert tutorial is not None
    table, token = start(client, taught)
    # Play on until the deal is used up and chance has been drawn after it (or the game ends).
    for _ in range(500):
        state = truth(app, table)
        drawn = [item for actor, item in state.history if actor == CHANCE]
        if state.is_terminal or len(drawn) > len(tutorial.deal):
            break
        play_lessons(app, client, table, token, 1)
    state = truth(app, table)
    seed = app.state.server.tables.cache.get(table).seed
    replayed = state.game.new_state()
    prepared = 0
    for index, (actor, item) in enumerate(state.history):
        if actor == CHANCE:
            if prepared < len(tutorial.deal):
                assert str(item).lower() == tutorial.deal[prepared].lower(), (index, item)
                prepared += 1
            else:
                random_draw = replayed.clone().sample_chance_outcome(chance_rng(seed, index))
                assert item == random_draw, f"event {index} is not the table's own draw"
            replayed.apply_chance(item)
        else:
            replayed.apply(actor, item)
    assert prepared == len(tutorial.deal) or state.is_terminal


def test_nobody_can_join_a_tutorial_and_it_is_never_listed(client: TestClient, taught: str) -> None:
    table, _token = start(client, taught)
    for seat in range(client.get(f"/api/tables/{table}").json()["players"]):
        refused = client.post(f"/api/tables/{table}/seats/{seat}/join", json={"name": "Eve"})
        assert refused.status_code == 403, refused.text
        assert refused.json()["detail"]
    # A tutorial's whole table is refused to joiners, even a seat that is free in name.
    assert "nobody can join" in client.post(f"/api/tables/{table}/seats/1/join").json()["detail"]
    assert table not in every_table(client)
    assert table not in [entry["id"] for entry in client.get("/api/tables").json()]


def test_lessons_go_to_the_learner_alone_for_their_first_decisions(
    app: FastAPI, client: TestClient, taught: str
) -> None:
    tutorial = game_class(taught).info.tutorial
    assert tutorial is not None
    table, token = start(client, taught)
    seen = play_lessons(app, client, table, token, tutorial.lessons + 1)
    assert len(seen) == tutorial.lessons + 1 or truth(app, table).is_terminal
    assert [shown["lesson"]["number"] for shown in seen[: tutorial.lessons]] == list(
        range(1, min(len(seen), tutorial.lessons) + 1)
    )
    # Nobody else is ever told a lesson: not a spectator, not a bot's seat.
    assert "lesson" not in view(client, table, None)
    held = app.state.server.tables.cache.get(table)
    with held.lock:
        for seat in [None, *range(1, tutorial.players)]:
            assert "lesson" not in seat_message(held, seat, 0, time.time())


def test_no_lesson_while_the_learner_waits(app: FastAPI, client: TestClient, taught: str) -> None:
    table, token = start(client, taught)
    held = app.state.server.tables.cache.get(table)
    for _ in range(200):
        with held.lock:
            if held.status != "playing" or 0 not in held.state.to_move:
                shown = seat_message(held, 0, 0, time.time())
                assert "lesson" not in shown
                return
        play_lessons(app, client, table, token, 1)
    pytest.fail("the learner never waited for a bot")


def test_a_restart_keeps_the_tutorial_its_deal_and_its_lessons(
    app: FastAPI, client: TestClient, database_url: str, taught: str
) -> None:
    tutorial = game_class(taught).info.tutorial
    assert tutorial is not None
    table, token = start(client, taught)
    before = play_lessons(app, client, table, token, 2)
    shown = learner_turn(client, table, token)
    if shown["status"] == "over":
        pytest.skip("the tutorial ended in two decisions")  # (no game's does)
    client.__exit__(None, None, None)
    restarted_app = create_app(database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS)
    with TestClient(restarted_app) as restarted:
        again = learner_turn(restarted, table, token)
        assert again["tutorial"] and again["version"] == shown["version"]
        assert again["lesson"] == shown["lesson"]
        assert again["lesson"]["number"] == len(before) + 1
        assert table not in every_table(restarted)
        later = play_lessons(restarted_app, restarted, table, token, tutorial.lessons)
        numbers = [s["lesson"]["number"] for s in [*before, *later]][: tutorial.lessons]
        assert numbers == list(range(1, len(numbers) + 1))
        state = truth(restarted_app, table)
        drawn = [str(item).lower() for actor, item in state.history if actor == CHANCE]
        count = min(len(drawn), len(tutorial.deal))
        assert drawn[:count] == [text.lower() for text in tutorial.deal[:count]]


def test_bad_tutorial_requests_are_refused_and_create_nothing(
    app: FastAPI, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    untaught = next((info for info in games() if info.tutorial is None), None)
    if untaught is None:  # every game teaches: take one's tutorial away for this test
        cls = game_class("kings-court")
        monkeypatch.setattr(cls, "info", cls.info.__class__(**{**vars(cls.info), "tutorial": None}))
        untaught = cls.info
    cases: list[tuple[Any, int, str]] = [
        ({"game": "no-such-game"}, 404, "unknown game 'no-such-game'"),
        ({"game": untaught.id}, 400, f"{untaught.title} has no tutorial"),
        ({}, 422, "game: Field required"),
        ({"game": 7}, 422, "game: Input should be a valid string"),
        ({"game": teaching.SAMPLE_GAME, "seed": 3}, 422, "seed: Extra inputs"),
        ({"game": teaching.SAMPLE_GAME, "name": "x" * 65}, 422, "name:"),
    ]
    for body, status, words in cases:
        response = client.post("/api/tutorials", json=body)
        assert response.status_code == status, (body, response.text)
        assert words in response.json()["detail"], (body, response.text)
    broken = client.post(
        "/api/tutorials", content=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert broken.status_code in (400, 422) and broken.json()["detail"]
    assert stored_tables(app) == 0


def test_a_learner_s_token_is_needed_for_the_learner_s_view(
    client: TestClient, taught: str
) -> None:
    table, token = start(client, taught)
    refused = client.get(f"/api/tables/{table}/view", params={"seat": 0})
    assert refused.status_code in (401, 403)
    wrong = client.get(f"/api/tables/{table}/view", params={"seat": 0}, headers=bearer(token[::-1]))
    assert wrong.status_code in (401, 403)
