"""The story of a table, in the game's words, through the API: each seat (and a spectator) is
sent the lines the engine tells it, by increments, and the same after a restart, in a replay,
and at the end; a move's button says what the game calls it; a seat says what it is; a finished
game says why it ended.

What is compared is always the engine's own word for that seat (``story_of`` on the table's
record, the game's ``action_label``, ``seat_title`` and ``outcome``), never a wording: the games'
words may change, the story must stay the engine's.

Each test runs on SQLite and on PostgreSQL (tests/web/conftest.py).
"""

from __future__ import annotations

import random
from typing import Any, cast

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from courtly.core import Game, State, games, make
from courtly.core.game import known_state
from courtly.core.story import story_of
from courtly.web import create_app
from courtly.web.limits import NO_LIMITS
from courtly.web.seat_messages import told_since

from .test_api import bearer, create, move, started, view, wait_for


def observers(players: int) -> list[int | None]:
    return [None, *range(players)]


def told(game: Game, history: list[list[str]], seat: int | None) -> list[list[Any]]:
    """The lines the engine tells ``seat`` of the game ``history`` (the record's), as sent."""
    story = story_of(game, history)
    return [[index, text] for index, text in told_since(story, seat, game.num_players, 0)]


def people(client: TestClient, game_id: str, seed: int) -> tuple[str, list[str]]:
    """A table of ``game_id`` at its default player count, every seat a person, joined."""
    players = make(game_id).num_players
    return started(client, game=game_id, seats=[{"kind": "person"}] * players, seed=seed)


def table_state(client: TestClient, table: str) -> State:
    return cast(State, cast(FastAPI, client.app).state.server.tables.cache.get(table).state)


def play_one(client: TestClient, table: str, tokens: list[str], rng: random.Random) -> bool:
    """One random legal move of a seat to move, from its own view; False once the game is over."""
    shown = view(client, table, None)
    if shown["status"] != "playing":
        return False
    seat = rng.choice(shown["to_move"])
    mine = view(client, table, seat, tokens[seat])
    choice = rng.choice(mine["legal_actions"])
    answer = move(client, table, seat, choice["id"], mine["version"], tokens[seat])
    assert answer.status_code == 200, answer.text
    return True


@pytest.mark.parametrize("game_id", sorted(info.id for info in games()))
def test_each_seat_is_sent_the_engine_s_story_by_increments(
    client: TestClient, game_id: str
) -> None:
    """People at every seat play a whole game; after every move each seat and a spectator ask
    for what they do not hold yet (``since``): the lines sent are about those events only, and
    put together they are the engine's story of the finished game for that seat, line for
    line."""
    table, tokens = people(client, game_id, seed=11)
    players = len(tokens)
    held: dict[int | None, list[list[Any]]] = {seat: [] for seat in observers(players)}
    since: dict[int | None, int] = dict.fromkeys(observers(players), 0)
    rng = random.Random(game_id)
    for _ in range(3000):
        for seat in observers(players):
            token = None if seat is None else tokens[seat]
            response = client.get(
                f"/api/tables/{table}/view",
                params={"since": since[seat], **({} if seat is None else {"seat": seat})},
                headers=bearer(token) if token else {},
            )
            shown = response.json()
            assert shown["story_from"] == since[seat]
            assert all(since[seat] <= index < shown["version"] for index, _ in shown["story"])
            held[seat].extend(shown["story"])
            since[seat] = shown["version"]
        if not play_one(client, table, tokens, rng):
            break
    else:
        pytest.fail("the game did not end")
    record = client.get(f"/api/tables/{table}/record").json()
    game = make(game_id, players=players, **record["options"])
    for seat in observers(players):
        assert held[seat] == told(game, record["history"], seat), seat
    # Seats are told different things where something is hidden: the test would see a seat
    # sent another's lines.
    if game.info.hidden_information:
        assert held[0] != held[1]


def test_the_story_is_the_same_after_a_restart_and_resumes_where_a_reader_is(
    client: TestClient, database_url: str
) -> None:
    """A server started again on the same database tells the table's story from its history,
    the very lines it told before; a reader asking ``since`` gets the lines from there on."""
    table, tokens = started(client, game="crush-the-crown", seed=4)
    rng = random.Random(4)
    for _ in range(25):
        play_one(client, table, tokens, rng)
    before = {seat: view(client, table, seat, tokens[seat]) for seat in range(2)}
    with TestClient(
        create_app(database_url, bot_pace=0, bot_workers=-1, limits=NO_LIMITS)
    ) as again:
        for seat in range(2):
            after = view(again, table, seat, tokens[seat])
            assert after["story"] == before[seat]["story"]
            middle = before[seat]["version"] // 2
            part = again.get(
                f"/api/tables/{table}/view",
                params={"seat": seat, "since": middle},
                headers=bearer(tokens[seat]),
            ).json()
            assert part["story_from"] == middle
            assert part["story"] == [line for line in after["story"] if line[0] >= middle]
        # The restarted server keeps telling it as the game goes on.
        for _ in range(10):
            play_one(again, table, tokens, rng)
        state = table_state(again, table)
        for seat in range(2):
            expected = told(state.game, state.history_text(), seat)
            assert view(again, table, seat, tokens[seat])["story"] == expected


def test_a_table_of_bots_tells_its_story_as_its_bots_play(client: TestClient) -> None:
    """Bots move in worker threads and on their own: the story kept as they play is the one
    told again from the record."""
    created = create(
        client,
        game="kings-court",
        seats=[{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}],
        seed=2,
    )
    table = created["id"]
    view(client, table, None)  # a watcher from the start: the story is kept as moves come
    wait_for(lambda: view(client, table, None)["status"] == "over", "the bots to finish")
    record = client.get(f"/api/tables/{table}/record").json()
    game = make("kings-court", players=2, **record["options"])
    assert view(client, table, None)["story"] == told(game, record["history"], None)


def test_a_move_s_button_says_what_the_game_calls_it_from_the_seat_s_view(
    client: TestClient,
) -> None:
    """Every legal action is sent with its label: the game's ``action_label``, worked out from
    the seat's own view (a label from the whole state could name what the seat may not know);
    its text stays what a move sends."""
    for info in games():
        table, tokens = people(client, info.id, seed=3)
        state = table_state(client, table)
        for seat in state.to_move:
            sent = view(client, table, seat, tokens[seat])["legal_actions"]
            seen = known_state(state.view(seat))
            expected = [
                {"id": a.id, "text": str(a), "label": info.text.action_label(seen, seat, a)}
                for a in state.view(seat).legal_actions()
            ]
            assert [{k: a[k] for k in ("id", "text", "label")} for a in sent] == expected


def test_each_seat_says_what_it_is_and_the_form_can_ask_before_the_table_exists(
    client: TestClient,
) -> None:
    """A seat's title is the game's ``seat_title`` at the table's options, in the table's
    summary and every view; ``POST /api/games/{game}/seats`` answers the same for a player
    count and options, and refuses options the game does not take with the reason."""
    options = {"solo_clans": "visigoths"}
    table = create(
        client,
        game="goths-save-the-queen",
        players=3,
        options=options,
        seats=[{"kind": "person"}] * 3,
    )
    game = make("goths-save-the-queen", players=3, **options)
    titles = [game.text.seat_title(game, seat) for seat in range(3)]
    assert [s["title"] for s in table["seats"]] == titles
    assert [s["title"] for s in view(client, table["id"], None)["seats"]] == titles
    asked = client.post(
        "/api/games/goths-save-the-queen/seats", json={"players": 3, "options": options}
    )
    assert asked.status_code == 200, asked.text
    assert asked.json() == {"game": "goths-save-the-queen", "players": 3, "titles": titles}
    for info in games():
        answer = client.post(f"/api/games/{info.id}/seats", json={})
        assert answer.status_code == 200
        default = make(info.id)
        assert answer.json()["titles"] == [
            default.text.seat_title(default, seat) for seat in range(default.num_players)
        ]
    refused = client.post(
        "/api/games/royal-gambit/seats", json={"players": 2, "options": {"target_score": "x"}}
    )
    assert refused.status_code == 400 and "target_score" in refused.json()["detail"]
    assert client.post("/api/games/royal-gambit/seats", json={"players": 99}).status_code == 422
    unknown = client.post("/api/games/chess/seats", json={})
    assert unknown.status_code == 404 and "royal-gambit" in unknown.json()["detail"]


def test_a_finished_game_says_why_it_ended_and_the_lobby_who_won(client: TestClient) -> None:
    """The result of a finished table is the game's ``outcome``: the reason in words, and each
    seat's place, score and note; the lobby's finished tables name their winners."""
    for info in games():
        table, tokens = people(client, info.id, seed=6)
        rng = random.Random(6)
        while play_one(client, table, tokens, rng):
            pass
        state = table_state(client, table)
        outcome = info.text.outcome(state)
        for seat in observers(len(tokens)):
            shown = view(client, table, seat, None if seat is None else tokens[seat])
            result = shown["result"]
            assert result["reason"] == outcome.reason and result["reason"]
            assert result["standings"] == [
                {"seat": s.seat, "place": s.place, "score": s.score, "note": s.note}
                for s in outcome.standings
            ]
            assert result["winners"] == list(outcome.winners) == list(state.winners)
        listed = client.get("/api/tables", params={"status": "over"}).json()
        entry = next(t for t in listed if t["id"] == table)
        assert entry["winners"] == list(state.winners)
    playing = started(client, seed=2)[0]
    assert client.get(f"/api/tables/{playing}").json()["winners"] == []


def test_a_replay_tells_the_story_up_to_its_step_from_the_seat_s_side(client: TestClient) -> None:
    """A replay's lines are the story up to the step as the chosen seat (or a spectator) was
    told it; with every seat, every line told to anyone, each with the seats told it."""
    table, tokens = started(client, game="god-save-the-king", seed=8)
    rng = random.Random(8)
    while play_one(client, table, tokens, rng):
        pass
    record = client.get(f"/api/tables/{table}/record").json()
    game = make("god-save-the-king", players=2, **record["options"])
    steps = len(record["history"])
    for step in (0, steps // 3, steps):
        for seat in (0, 1, "spectator"):
            answer = client.get(f"/api/tables/{table}/replay", params={"step": step, "seat": seat})
            assert answer.status_code == 200, answer.text
            reader = None if seat == "spectator" else int(seat)
            expected = [line for line in told(game, record["history"], reader) if line[0] < step]
            assert answer.json()["story"] == expected
            assert "told_to" not in answer.json()
        every = client.get(f"/api/tables/{table}/replay", params={"step": step}).json()
        lines = every["story"]
        assert len(every["told_to"]) == len(lines)
        for seat in (0, 1):
            # Each seat's lines are among every seat's, marked as told to it.
            own = [line for line in told(game, record["history"], seat) if line[0] < step]
            marked = [
                line
                for line, to in zip(lines, every["told_to"], strict=True)
                if not to or seat in to
            ]
            assert marked == own
