"""The REST API and the WebSocket of the server, through an ASGI test client.

Each test runs on SQLite and on PostgreSQL (tests/web/conftest.py). Games are driven by the
test itself from each seat's own view, so every step is deterministic; bots appear only where a
test is about them (a seat given up during play).
"""

from __future__ import annotations

import json
import logging
import random
import threading
import time
from collections.abc import Callable
from typing import Any, cast

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy import select
from starlette.testclient import WebSocketTestSession

from courtly.core import IllegalAction, games
from courtly.core.records import MatchRecord
from courtly.core.replays import replay_record
from courtly.web.storage.rows import Base
from courtly.web.tables.access import hash_token

WAIT = 60.0
"""Seconds to wait for a bot or a push: generous, a hang fails instead of blocking."""

TWO_PEOPLE = [{"kind": "person"}, {"kind": "person"}]


# ---------------------------------------------------------------------------------- helpers


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "royal-gambit")
    body.setdefault("seats", TWO_PEOPLE)
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return cast(dict[str, Any], response.json())


def join(client: TestClient, table: str, seat: int, name: str = "") -> str:
    response = client.post(f"/api/tables/{table}/seats/{seat}/join", json={"name": name})
    assert response.status_code == 200, response.text
    return cast(str, response.json()["token"])


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def started(client: TestClient, **body: Any) -> tuple[str, list[str]]:
    """A table of people, every seat joined: its id and the seats' tokens."""
    table = create(client, **body)
    tokens = [join(client, table["id"], seat) for seat in range(table["players"])]
    return table["id"], tokens


def p0_first(client: TestClient, seed: int) -> tuple[str, list[str]]:
    """A Royal Gambit table of two people, joined, where p0 moves first (the deal decides who
    starts: the seeds of the tests are ones where p0 does)."""
    table, tokens = started(client, seed=seed)
    assert view(client, table, None)["to_move"] == [0], f"p0 does not start with seed {seed}"
    return table, tokens


def view(client: TestClient, table: str, seat: int | None, token: str | None = None) -> Any:
    params = {} if seat is None else {"seat": seat}
    headers = bearer(token) if token else {}
    response = client.get(f"/api/tables/{table}/view", params=params, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def move(
    client: TestClient, table: str, seat: int, action: str | int, version: int, token: str
) -> Any:
    return client.post(
        f"/api/tables/{table}/moves",
        json={"seat": seat, "action": action, "version": version},
        headers=bearer(token),
    )


def every_table(client: TestClient) -> list[str]:
    response = client.get(
        "/api/tables", params={"status": ["open", "playing", "over"], "limit": 500}
    )
    assert response.status_code == 200
    return sorted(entry["id"] for entry in response.json())


def wait_for(condition: Callable[[], Any], what: str) -> Any:
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.01)
    raise AssertionError(f"waited {WAIT:.0f} s for {what}")


def receive(socket: WebSocketTestSession) -> dict[str, Any]:
    """The next message of ``socket`` (a close is returned as the ASGI message)."""
    box: list[Any] = []
    reader = threading.Thread(target=lambda: box.append(socket.receive()), daemon=True)
    reader.start()
    reader.join(WAIT)
    assert box, f"no message on the socket in {WAIT:.0f} s"
    message = box[0]
    if message["type"] == "websocket.send":
        return cast(dict[str, Any], json.loads(message["text"]))
    return cast(dict[str, Any], message)


def no_stack_trace(text: str) -> None:
    assert "Traceback" not in text and 'File "' not in text, text


def play_until(
    client: TestClient,
    table: str,
    tokens: list[str],
    rng: random.Random,
    stop: Callable[[dict[str, Any]], bool],
) -> dict[str, Any]:
    """Random legal moves from each seat's own view until ``stop(spectator's view)``."""
    for _ in range(10_000):
        shown = view(client, table, None)
        if stop(shown) or shown["status"] != "playing":
            return cast(dict[str, Any], shown)
        seat = shown["to_move"][0]
        mine = view(client, table, seat, tokens[seat])
        choice = rng.choice(mine["legal_actions"])
        answer = move(client, table, seat, choice["text"], mine["version"], tokens[seat])
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game did not stop")


# ---------------------------------------------------------------------------------- catalogue


def test_the_catalogue_lists_every_game_with_its_players_options_and_bots(
    client: TestClient,
) -> None:
    response = client.get("/api/games")
    assert response.status_code == 200
    catalogue = {entry["id"]: entry for entry in response.json()}
    assert list(catalogue) == [info.id for info in games()]
    for info in games():
        entry = catalogue[info.id]
        assert entry["title"] == info.title
        assert entry["players"] == list(info.player_counts)
        assert entry["simultaneous"] == info.simultaneous
        options = {option["name"]: option for option in entry["options"]}
        assert list(options) == [option.name for option in info.options]
        for option in info.options:
            shown = options[option.name]
            assert shown["default"] == json.loads(json.dumps(option.default))
            assert shown["allowed"] and shown["help"]
        bots = {bot["name"]: bot for bot in entry["bots"]}
        assert "random" in bots and info.default_bot in bots
        assert {bot.name for bot in info.bots} <= set(bots)
        for bot in bots.values():
            assert bot["summary"]
            for option in bot["options"]:
                assert set(option) >= {"name", "default", "allowed", "help"}
        one = client.get(f"/api/games/{info.id}")
        assert one.status_code == 200 and one.json() == entry
    unknown = client.get("/api/games/chess")
    assert unknown.status_code == 404 and "chess" in unknown.json()["detail"]


def test_every_bot_the_catalogue_offers_can_take_a_seat(client: TestClient) -> None:
    for entry in client.get("/api/games").json():
        seats = [{"kind": "bot", "bot": bot["name"]} for bot in entry["bots"]]
        for bot_seat in seats:
            others = [{"kind": "person"}] * (entry["default_players"] - 1)
            response = client.post(
                "/api/tables",
                json={"game": entry["id"], "seats": [bot_seat, *others]},
            )
            assert response.status_code == 201, (entry["id"], bot_seat, response.text)


def test_the_openapi_schema_is_served(client: TestClient) -> None:
    response = client.get("/openapi.json")
    assert response.status_code == 200
    paths = response.json()["paths"]
    for path in (
        "/api/games",
        "/api/tables",
        "/api/tables/{table_id}/view",
        "/api/tables/{table_id}/moves",
        "/api/tables/{table_id}/seats/{seat}/join",
        "/api/tables/{table_id}/rematch",
        "/api/tables/{table_id}/record",
    ):
        assert path in paths, path


# ---------------------------------------------------------------------------------- creating

PERSON = {"kind": "person"}
BAD_TABLES: list[tuple[str, dict[str, Any], int, str]] = [
    ("unknown game", {"game": "chess", "seats": [PERSON, PERSON]}, 400, "chess"),
    (
        "unknown option",
        {"game": "royal-gambit", "options": {"colour": "red"}, "seats": [PERSON, PERSON]},
        400,
        "colour",
    ),
    (
        "bad option value",
        {"game": "royal-gambit", "options": {"target_score": "lots"}, "seats": [PERSON, PERSON]},
        400,
        "target_score",
    ),
    (
        "option out of range",
        {"game": "royal-gambit", "options": {"target_score": -5}, "seats": [PERSON, PERSON]},
        400,
        "target_score",
    ),
    ("wrong player count", {"game": "royal-gambit", "players": 9, "seats": [PERSON] * 9}, 400, "9"),
    (
        "too few seats",
        {"game": "royal-gambit", "players": 3, "seats": [PERSON, PERSON]},
        400,
        "seats",
    ),
    ("too many seats", {"game": "crush-the-crown", "seats": [PERSON] * 3}, 400, "seats"),
    ("no seats", {"game": "royal-gambit", "seats": []}, 400, "seats"),
    (
        "unknown bot",
        {"game": "royal-gambit", "seats": [PERSON, {"kind": "bot", "bot": "deepblue"}]},
        400,
        "deepblue",
    ),
    (
        "the terminal's human as a bot",
        {"game": "royal-gambit", "seats": [PERSON, {"kind": "bot", "bot": "human"}]},
        400,
        "human",
    ),
    (
        "unknown bot option",
        {
            "game": "royal-gambit",
            "seats": [PERSON, {"kind": "bot", "bot": "ismcts", "options": {"dpeth": 3}}],
        },
        400,
        "dpeth",
    ),
    (
        "bad bot option value",
        {
            "game": "royal-gambit",
            "seats": [PERSON, {"kind": "bot", "bot": "ismcts", "options": {"iterations": -1}}],
        },
        400,
        "iterations",
    ),
    (
        "unknown seat kind",
        {"game": "royal-gambit", "seats": [PERSON, {"kind": "alien"}]},
        422,
        "kind",
    ),
    (
        "unknown seat field",
        {"game": "royal-gambit", "seats": [PERSON, {"kind": "person", "colour": "red"}]},
        422,
        "colour",
    ),
    ("bad mode", {"game": "royal-gambit", "seats": [PERSON, PERSON], "mode": "blitz"}, 422, "mode"),
    (
        "negative clock",
        {"game": "royal-gambit", "seats": [PERSON, PERSON], "clock": {"initial": -1}},
        422,
        "initial",
    ),
    (
        "unknown clock field",
        {"game": "royal-gambit", "seats": [PERSON, PERSON], "clock": {"hourglass": 3}},
        422,
        "hourglass",
    ),
    (
        "a turn-based clock at a realtime table",
        {"game": "royal-gambit", "seats": [PERSON, PERSON], "clock": {"per_move": 60}},
        400,
        "per_move",
    ),
    (
        "a realtime clock at a turn-based table",
        {
            "game": "royal-gambit",
            "seats": [PERSON, PERSON],
            "mode": "turn-based",
            "clock": {"initial": 60},
        },
        400,
        "initial",
    ),
    ("no game", {"seats": [PERSON, PERSON]}, 422, "game"),
    (
        "a player count that is true",
        {"game": "royal-gambit", "players": True, "seats": [PERSON, PERSON]},
        422,
        "players",
    ),
    (
        "a seed in a string",
        {"game": "royal-gambit", "seats": [PERSON, PERSON], "seed": "5"},
        422,
        "seed",
    ),
    (
        "a seed out of range",
        {"game": "royal-gambit", "seats": [PERSON, PERSON], "seed": -1},
        422,
        "seed",
    ),
    (
        "an unknown field",
        {"game": "royal-gambit", "seats": [PERSON, PERSON], "colour": 1},
        422,
        "colour",
    ),
]


def test_bad_table_requests_are_refused_with_a_message_naming_the_problem(
    client: TestClient,
) -> None:
    before = every_table(client)
    for case, body, status, named in BAD_TABLES:
        response = client.post("/api/tables", json=body)
        assert response.status_code == status, (case, response.text)
        detail = response.json()["detail"]
        assert isinstance(detail, str) and named in detail, (case, detail)
        no_stack_trace(response.text)
    assert every_table(client) == before


def test_malformed_json_is_refused_and_creates_nothing(client: TestClient) -> None:
    before = every_table(client)
    for body in (b'{"game": "royal-gambit", "seats": [', b"\xff\xfe", b"", b"[1, 2]", b"null"):
        response = client.post(
            "/api/tables", content=body, headers={"content-type": "application/json"}
        )
        assert response.status_code in (400, 422), (body, response.text)
        detail = response.json()["detail"]
        assert isinstance(detail, str) and detail
        no_stack_trace(response.text)
    response = client.post(
        "/api/tables",
        content=b'{"game": "royal-gambit", "seats": [',
        headers={"content-type": "application/json"},
    )
    assert "JSON" in response.json()["detail"]
    assert every_table(client) == before


def test_a_body_over_64_kib_is_refused_with_413(client: TestClient) -> None:
    before = every_table(client)
    big = json.dumps({"game": "royal-gambit", "seats": [PERSON, PERSON], "x": "a" * 70_000})
    sized = client.post("/api/tables", content=big, headers={"content-type": "application/json"})
    assert sized.status_code == 413, sized.text
    assert "bytes" in sized.json()["detail"]

    def chunks() -> Any:  # no content-length: the limit is counted as the body comes
        for start in range(0, len(big), 8192):
            yield big[start : start + 8192].encode()

    streamed = client.post(
        "/api/tables", content=chunks(), headers={"content-type": "application/json"}
    )
    assert streamed.status_code == 413, streamed.text
    no_stack_trace(streamed.text)
    assert every_table(client) == before


def test_a_table_starts_when_its_people_have_joined(client: TestClient) -> None:
    table = create(
        client,
        game="royal-gambit",
        players=3,
        seats=[PERSON, {"kind": "bot", "bot": "heuristic", "options": {"caution": 2}}, PERSON],
        seed=3,
        options={"target_score": 20},
    )
    assert table["status"] == "open" and table["free_seats"] == [0, 2]
    assert table["options"]["target_score"] == 20
    assert table["seats"][1]["bot"] == "heuristic:caution=2"
    fetched = client.get(f"/api/tables/{table['id']}")
    assert fetched.status_code == 200 and fetched.json()["id"] == table["id"]
    join(client, table["id"], 0, "Ann")
    assert client.get(f"/api/tables/{table['id']}").json()["status"] == "open"
    join(client, table["id"], 2, "Cy")
    summary = client.get(f"/api/tables/{table['id']}").json()
    assert summary["status"] == "playing" and summary["free_seats"] == []
    assert [seat["name"] for seat in summary["seats"]][::2] == ["Ann", "Cy"]
    missing = client.get("/api/tables/nosuchtable")
    assert missing.status_code == 404 and "nosuchtable" in missing.json()["detail"]


# ---------------------------------------------------------------------------------- lobby


def test_the_lobby_lists_open_tables_and_others_on_request(client: TestClient) -> None:
    waiting = create(client)["id"]
    playing, _ = started(client)
    listed = client.get("/api/tables")
    assert listed.status_code == 200
    open_ids = [entry["id"] for entry in listed.json()]
    assert waiting in open_ids and playing not in open_ids
    entry = next(entry for entry in listed.json() if entry["id"] == waiting)
    assert entry["free_seats"] == [0, 1] and entry["game"] == "royal-gambit"
    in_play = [e["id"] for e in client.get("/api/tables", params={"status": "playing"}).json()]
    assert playing in in_play and waiting not in in_play
    bad = client.get("/api/tables", params={"status": "sleeping"})
    assert bad.status_code == 422 and "status" in bad.json()["detail"]


# ---------------------------------------------------------------------------------- seats


def test_joining_gives_a_secret_token_stored_only_as_its_hash(
    client: TestClient, app: FastAPI, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    table = create(client, seats=[PERSON, PERSON, {"kind": "bot", "bot": "random"}], players=3)
    table_id = table["id"]
    first = join(client, table_id, 0, "Ann")
    second = join(client, table_id, 1, "Bob")
    assert len(first) >= 40 and first != second
    taken = client.post(f"/api/tables/{table_id}/seats/0/join", json={"name": "Eve"})
    assert taken.status_code == 409 and "taken" in taken.json()["detail"]
    bot_seat = client.post(f"/api/tables/{table_id}/seats/2/join", json={})
    assert bot_seat.status_code == 409
    no_seat = client.post(f"/api/tables/{table_id}/seats/7/join", json={})
    assert no_seat.status_code == 404 and "7" in no_seat.json()["detail"]
    no_table = client.post("/api/tables/nosuchtable/seats/0/join", json={})
    assert no_table.status_code == 404
    # The database keeps the hash of a token, never the token; no log line shows it.
    storage = app.state.server.storage
    with storage.session() as session:
        stored = json.dumps(
            [
                [str(value) for value in row]
                for mapped in Base.metadata.sorted_tables
                for row in session.execute(select(mapped))
            ]
        )
    assert first not in stored and second not in stored
    assert hash_token(first) in stored
    assert first not in caplog.text and second not in caplog.text


def test_a_seat_s_view_needs_its_token_and_a_spectator_s_none(client: TestClient) -> None:
    table, tokens = p0_first(client, seed=1)
    url = f"/api/tables/{table}/view"
    missing = client.get(url, params={"seat": 0})
    assert missing.status_code == 401 and "token" in missing.json()["detail"]
    wrong = client.get(url, params={"seat": 0}, headers=bearer("not-a-token"))
    assert wrong.status_code == 403
    other = client.get(url, params={"seat": 0}, headers=bearer(tokens[1]))
    assert other.status_code == 403
    outside = client.get(url, params={"seat": 5}, headers=bearer(tokens[0]))
    assert outside.status_code in (404, 422)
    mine = client.get(url, params={"seat": 0}, headers=bearer(tokens[0]))
    assert mine.status_code == 200 and mine.json()["seat"] == 0
    assert mine.json()["legal_actions"]  # p0 moves first in Royal Gambit
    spectator = client.get(url)
    assert spectator.status_code == 200
    shown = spectator.json()
    assert shown["seat"] is None and shown["legal_actions"] == []
    assert shown["version"] == mine.json()["version"]
    assert client.get("/api/tables/nosuchtable/view").status_code == 404


# ---------------------------------------------------------------------------------- moves


def test_a_move_is_accepted_by_its_text_or_its_id(client: TestClient) -> None:
    table, tokens = p0_first(client, seed=2)
    before = view(client, table, 0, tokens[0])
    hit = next(a for a in before["legal_actions"] if a["text"] == "hit")
    by_text = move(client, table, 0, "HIT ", before["version"], tokens[0])
    assert by_text.status_code == 200, by_text.text
    answer = by_text.json()
    assert answer["action"] == "hit" and answer["seat"] == 0 and answer["table"] == table
    assert answer["index"] == before["version"] and answer["version"] > before["version"]
    shown = play_until(client, table, tokens, random.Random(0), lambda v: 0 in v["to_move"])
    if shown["status"] == "playing":
        by_id = move(client, table, 0, hit["id"], shown["version"], tokens[0])
        assert by_id.status_code == 200 and by_id.json()["action"] == "hit"


def test_an_illegal_move_gets_422_with_the_engine_s_reason_and_changes_nothing(
    client: TestClient, app: FastAPI
) -> None:
    table, tokens = p0_first(client, seed=4)
    before = view(client, table, 0, tokens[0])
    state = app.state.server.tables.cache.get(table).state.clone()
    for action in ("fly", "give-7 p1", 999, "", -1):
        with pytest.raises(IllegalAction) as engine:
            state.apply(0, action)
        response = move(client, table, 0, action, before["version"], tokens[0])
        assert response.status_code == 422, (action, response.text)
        assert response.json()["detail"] == str(engine.value)
        assert response.json()["version"] == before["version"]
    after = view(client, table, 0, tokens[0])
    assert after == before


def test_version_checks_refuse_stale_future_and_out_of_turn_moves(client: TestClient) -> None:
    table, tokens = p0_first(client, seed=5)
    start = view(client, table, 0, tokens[0])
    v0 = start["version"]
    out_of_turn = move(client, table, 1, "hit", v0, tokens[1])
    assert out_of_turn.status_code == 409 and "p1" in out_of_turn.json()["detail"]
    future = move(client, table, 0, "hit", v0 + 5, tokens[0])
    assert future.status_code == 409 and future.json()["version"] == v0
    stay = move(client, table, 0, "stay", v0, tokens[0])
    assert stay.status_code == 200
    v1 = stay.json()["version"]
    shown = view(client, table, 1, tokens[1])
    assert shown["to_move"] == [1] and shown["version"] == v1
    # p1 chose at the version before p0's move, which p1 could see: stale.
    stale = move(client, table, 1, "hit", v0, tokens[1])
    assert stale.status_code == 409
    assert stale.json()["version"] == v1 and str(v1) in stale.json()["detail"]
    # p0 moves again at the version of its first move: a different move is refused.
    again = move(client, table, 0, "hit", v0, tokens[0])
    assert again.status_code == 409 and "already" in again.json()["detail"]
    assert view(client, table, None)["version"] == v1


def test_the_same_move_sent_twice_is_applied_once_and_answered_the_same(
    client: TestClient,
) -> None:
    table, tokens = p0_first(client, seed=6)
    v0 = view(client, table, 0, tokens[0])["version"]
    first = move(client, table, 0, "hit", v0, tokens[0])
    assert first.status_code == 200
    after = view(client, table, None)
    for retry in ("hit", "Hit", 0):
        again = move(client, table, 0, retry, v0, tokens[0])
        assert again.status_code == 200 and again.json() == first.json()
    assert view(client, table, None) == after  # applied once
    # Still the same answer once the game moved on.
    play_until(client, table, tokens, random.Random(1), lambda v: v["version"] > after["version"])
    assert move(client, table, 0, "hit", v0, tokens[0]).json() == first.json()


def test_no_one_moves_before_every_seat_is_taken_and_a_spectator_never(
    client: TestClient,
) -> None:
    table = create(client, seats=[PERSON, PERSON, {"kind": "bot", "bot": "random"}], players=3)
    token = join(client, table["id"], 0)
    version = view(client, table["id"], 0, token)["version"]
    early = move(client, table["id"], 0, "hit", version, token)
    assert early.status_code == 409 and "started" in early.json()["detail"]
    assert view(client, table["id"], None)["version"] == version
    other = join(client, table["id"], 1)  # the game starts: its bot may move now
    url = f"/api/tables/{table['id']}/moves"
    body = {"seat": 0, "action": "hit", "version": version}
    spectator = client.post(url, json=body)
    assert spectator.status_code == 401
    with_other_token = client.post(url, json=body, headers=bearer(other))
    assert with_other_token.status_code == 403
    as_the_bot = client.post(url, json={**body, "seat": 2}, headers=bearer(token))
    assert as_the_bot.status_code == 403
    no_seat = client.post(url, json={**body, "seat": 9}, headers=bearer(token))
    assert no_seat.status_code == 404
    for bad in (
        {"seat": 0, "action": ["hit"], "version": version},
        {"seat": 0, "action": "hit"},
        {"seat": 0, "action": True, "version": version},  # JSON true is no action id
        {"seat": True, "action": "hit", "version": version},
        {"seat": 0, "action": "hit", "version": float(version)},
    ):
        refused = client.post(url, json=bad, headers=bearer(token))
        assert refused.status_code == 422, refused.text
        no_stack_trace(refused.text)


def _simultaneous_game() -> str:
    simultaneous = [info.id for info in games() if info.simultaneous]
    assert simultaneous, "no registered game has simultaneous moves"
    return "god-save-the-king" if "god-save-the-king" in simultaneous else simultaneous[0]


def test_simultaneous_choices_against_one_version_are_all_kept(client: TestClient) -> None:
    game_id = _simultaneous_game()
    table, tokens = started(client, game=game_id, players=2, seats=TWO_PEOPLE, seed=8)
    rng = random.Random(8)
    for together in (False, True):  # one after the other, then at the same moment
        shown = play_until(client, table, tokens, rng, lambda v: len(v["to_move"]) >= 2)
        assert shown["status"] == "playing", "the game ended before a simultaneous point"
        version = shown["version"]
        choices = {}
        for seat in shown["to_move"]:
            mine = view(client, table, seat, tokens[seat])
            assert mine["version"] == version and mine["legal_actions"]
            choices[seat] = rng.choice(mine["legal_actions"])["text"]
        answers: dict[int, Any] = {}
        start = threading.Barrier(len(choices)) if together else None
        threads = [
            threading.Thread(
                target=_choose,
                args=(client, table, seat, text, version, tokens[seat], start, answers),
            )
            for seat, text in choices.items()
        ]
        for thread in threads:
            thread.start()
            if not together:
                thread.join()
        for thread in threads:
            thread.join(WAIT)
        assert all(answers[seat].status_code == 200 for seat in choices), answers
        first = {seat: answer.json() for seat, answer in answers.items()}
        assert sorted(a["index"] for a in first.values()) == [version, version + 1]
        for seat, text in choices.items():  # both kept: a retry of each is recognised
            again = move(client, table, seat, text, version, tokens[seat])
            assert again.json() == first[seat]
        kept = dict(app_state(client, table).history_text()[version : version + 2])
        assert kept == {f"p{seat}": text for seat, text in choices.items()}


def _choose(
    client: TestClient,
    table: str,
    seat: int,
    text: str,
    version: int,
    token: str,
    start: threading.Barrier | None,
    answers: dict[int, Any],
) -> None:
    if start is not None:
        start.wait(WAIT)  # every seat's request goes at once
    answers[seat] = move(client, table, seat, text, version, token)


def app_state(client: TestClient, table: str) -> Any:
    """The table's true state, in the server's memory (to compare with what it said)."""
    return cast(FastAPI, client.app).state.server.tables.cache.get(table).state


# ---------------------------------------------------------------------------------- leave


def test_leaving_before_the_start_frees_the_seat(client: TestClient) -> None:
    table = create(client)["id"]
    token = join(client, table, 0, "Ann")
    url = f"/api/tables/{table}/seats/0/leave"
    assert client.post(url).status_code == 401
    assert client.post(url, headers=bearer("nope")).status_code == 403
    with client.websocket_connect(f"/api/tables/{table}/ws") as socket:
        hello(socket, 0, token)
        assert receive(socket)["seats"][0]["name"] == "Ann"
        left = client.post(url, headers=bearer(token))
        assert left.status_code == 200, left.text
        assert left.json()["free_seats"] == [0, 1] and left.json()["status"] == "open"
        # The seat's socket is told, and closed: its token went with the seat.
        refused = receive(socket)
        assert refused["type"] == "error" and receive(socket)["code"] == 4403
    refused = client.get(f"/api/tables/{table}/view", params={"seat": 0}, headers=bearer(token))
    assert refused.status_code == 403
    join(client, table, 0, "Bob")


def test_a_seat_left_during_play_is_played_by_its_bot_until_reclaimed(
    client: TestClient,
) -> None:
    table, tokens = p0_first(client, seed=9)
    start = view(client, table, 0, tokens[0])
    assert start["to_move"] == [0]
    left = client.post(f"/api/tables/{table}/seats/0/leave", headers=bearer(tokens[0]))
    assert left.status_code == 200, left.text
    seat = left.json()["seats"][0]
    assert seat["bot_control"] and seat["bot"]
    # The bot plays p0's turn; the notice says who plays for p0; p0 still sees its seat.
    shown = wait_for(
        lambda: (v := view(client, table, 0, tokens[0]))["to_move"] != [0] and v,
        "the bot to play p0's turn",
    )
    assert any(
        "p0 left" in notice["text"] and seat["bot"] in notice["text"] for notice in shown["notices"]
    ), shown["notices"]
    assert shown["version"] > start["version"]
    refused = move(client, table, 0, "hit", shown["version"], tokens[0])
    assert refused.status_code == 409 and "reclaim" in refused.json()["detail"]
    url = f"/api/tables/{table}/seats/0/reclaim"
    assert client.post(url, headers=bearer(tokens[1])).status_code == 403
    back = client.post(url, headers=bearer(tokens[0]))
    assert back.status_code == 200 and not back.json()["seats"][0]["bot_control"]
    notices = view(client, table, None)["notices"]
    assert "back" in notices[-1]["text"]
    # p0 plays again: once p1 is done, it is p0's turn and no bot takes it.
    shown = play_until(client, table, tokens, random.Random(9), lambda v: v["to_move"] == [0])
    if shown["status"] == "playing":
        answer = move(client, table, 0, "stay", shown["version"], tokens[0])
        assert answer.status_code == 200, answer.text


# ---------------------------------------------------------------------------------- rematch


def finished_table(client: TestClient, seed: int) -> tuple[str, list[str]]:
    """A short finished game of two people (the test-only game, one round of bids)."""
    table, tokens = started(
        client, game="test-sealed-bids", seats=TWO_PEOPLE, options={"rounds": 1}, seed=seed
    )
    play_until(client, table, tokens, random.Random(seed), lambda v: False)
    return table, tokens


def test_the_record_is_public_once_the_game_is_over_and_replays(client: TestClient) -> None:
    table, tokens = started(
        client, game="test-sealed-bids", seats=TWO_PEOPLE, options={"rounds": 1}, seed=10
    )
    playing = client.get(f"/api/tables/{table}/record")
    assert playing.status_code == 409 and "over" in playing.json()["detail"]
    final = play_until(client, table, tokens, random.Random(10), lambda v: False)
    assert final["status"] == "over" and final["result"]["winners"]
    response = client.get(f"/api/tables/{table}/record")
    assert response.status_code == 200
    record = MatchRecord.from_dict(response.json())
    state = replay_record(record)
    assert state.is_terminal and state.returns() == final["result"]["returns"]
    assert record.length == final["version"] and record.options == {"rounds": 1}
    assert record.seats == ["person", "person"]  # not the bot that would stand in for them
    assert client.get("/api/tables/nosuchtable/record").status_code == 404


def test_a_rematch_keeps_the_seats_and_tokens_and_is_made_once(client: TestClient) -> None:
    table, tokens = finished_table(client, seed=11)
    url = f"/api/tables/{table}/rematch"
    assert client.post(url, params={"seat": 0}).status_code == 401
    assert client.post(url, params={"seat": 0}, headers=bearer(tokens[1])).status_code == 403
    first = client.post(url, params={"seat": 0}, headers=bearer(tokens[0]))
    assert first.status_code == 200, first.text
    new = first.json()
    assert new["id"] != table and new["rematch_of"] == table
    assert new["game"] == "test-sealed-bids" and new["options"] == {"rounds": 1}
    assert new["status"] == "playing"  # the same people hold the same seats
    second = client.post(url, params={"seat": 1}, headers=bearer(tokens[1]))
    assert second.status_code == 200 and second.json()["id"] == new["id"]
    assert client.get(f"/api/tables/{table}").json()["rematch_id"] == new["id"]
    assert view(client, table, None)["rematch_id"] == new["id"]
    for seat, token in enumerate(tokens):
        assert view(client, new["id"], seat, token)["seat"] == seat
    early = client.post(
        f"/api/tables/{new['id']}/rematch", params={"seat": 0}, headers=bearer(tokens[0])
    )
    assert early.status_code == 409
    final = play_until(client, new["id"], tokens, random.Random(12), lambda v: False)
    assert final["status"] == "over"


# ---------------------------------------------------------------------------------- sockets


def hello(
    socket: WebSocketTestSession, seat: int | None, token: str | None, since: int = 0
) -> None:
    socket.send_json({"seat": seat, "token": token, "since": since})


def test_a_socket_sends_the_current_view_then_every_change(client: TestClient) -> None:
    table, tokens = p0_first(client, seed=12)
    with (
        client.websocket_connect(f"/api/tables/{table}/ws") as mine,
        client.websocket_connect(f"/api/tables/{table}/ws") as watching,
    ):
        hello(mine, 0, tokens[0])
        hello(watching, None, None)
        first = receive(mine)
        assert first == {"type": "view", **view(client, table, 0, tokens[0])}
        assert first["log_from"] == 0 and len(first["log"]) == first["version"]
        spectator = receive(watching)
        assert spectator["seat"] is None and spectator["version"] == first["version"]
        answer = move(client, table, 0, "hit", first["version"], tokens[0])
        assert answer.status_code == 200
        version = answer.json()["version"]
        for socket, held in ((mine, first), (watching, spectator)):
            pushed = receive(socket)
            while pushed["version"] < version:  # a push per change: catch up to the move
                pushed = receive(socket)
            assert pushed["type"] == "view" and pushed["version"] == version
            assert pushed["log_from"] >= held["log_from"] + len(held["log"]) - len(pushed["log"])
        # A change that is no move (a notice) is pushed too.
        client.post(f"/api/tables/{table}/seats/1/leave", headers=bearer(tokens[1]))
        pushed = receive(watching)
        while not pushed["seats"][1]["bot_control"]:
            pushed = receive(watching)
        assert any("p1 left" in n["text"] for n in pushed["notices"])


def test_a_socket_sends_every_log_event_once_in_order(client: TestClient) -> None:
    table, tokens = p0_first(client, seed=14)
    with client.websocket_connect(f"/api/tables/{table}/ws") as socket:
        hello(socket, 0, tokens[0])
        held = receive(socket)
        log = list(held["log"])
        rng = random.Random(14)
        for _ in range(6):
            shown = view(client, table, None)
            if shown["status"] != "playing":
                break
            seat = shown["to_move"][0]
            mine = view(client, table, seat, tokens[seat])
            text = rng.choice(mine["legal_actions"])["text"]
            assert move(client, table, seat, text, mine["version"], tokens[seat]).status_code == 200
            target = view(client, table, None)["version"]
            while len(log) < target:
                pushed = receive(socket)
                assert pushed["log_from"] == len(log), "a push skips or repeats log events"
                log.extend(pushed["log"])
        assert log == view(client, table, 0, tokens[0])["log"]


def test_reconnecting_with_since_gets_only_the_log_increment(client: TestClient) -> None:
    table, tokens = p0_first(client, seed=15)
    play_until(client, table, tokens, random.Random(15), lambda v: v["version"] >= 6)
    full = view(client, table, 1, tokens[1])
    held = len(full["log"]) - 3
    with client.websocket_connect(f"/api/tables/{table}/ws") as socket:
        hello(socket, 1, tokens[1], since=held)
        again = receive(socket)
    assert again["log_from"] == held and again["log"] == full["log"][held:]
    assert again["version"] == full["version"] and again["observation"] == full["observation"]
    rest = client.get(
        f"/api/tables/{table}/view", params={"seat": 1, "since": held}, headers=bearer(tokens[1])
    )
    assert {**rest.json(), "type": "view"} == again


def answer_to(socket: WebSocketTestSession, ref: object) -> dict[str, Any]:
    """The answer (or refusal) of the move sent with ``ref``, skipping the views pushed
    meanwhile."""
    while True:
        message = receive(socket)
        if message.get("type") in ("answer", "refused"):
            assert message["ref"] == ref
            return message
        assert message.get("type") == "view", message


def test_a_seat_moves_on_its_socket_as_it_would_over_rest(client: TestClient) -> None:
    table, tokens = p0_first(client, seed=12)
    with client.websocket_connect(f"/api/tables/{table}/ws") as socket:
        hello(socket, 0, tokens[0])
        first = receive(socket)
        version = first["version"]
        socket.send_json({"type": "move", "action": "hit", "version": version, "ref": "a"})
        answer = answer_to(socket, "a")
        assert answer["type"] == "answer" and answer["seat"] == 0 and answer["action"] == "hit"
        assert answer["version"] == view(client, table, None)["version"] > version
        assert client.get(f"/api/tables/{table}").json()["version"] == answer["version"]
        # A retry (the same move at the same version) is answered the same, applied once.
        socket.send_json({"type": "move", "action": "hit", "version": version, "ref": "b"})
        assert {**answer_to(socket, "b"), "ref": "a"} == answer
        assert view(client, table, None)["version"] == answer["version"]
        # The same move over REST is the same retry.
        again = move(client, table, 0, "hit", version, tokens[0])
        assert again.status_code == 200
        assert again.json() == {k: v for k, v in answer.items() if k not in ("type", "ref")}


BAD_MOVES: list[tuple[str, int, str]] = [
    ("not json", 400, "bad JSON"),
    ("[1]", 422, "JSON object"),
    ('{"type": "hint"}', 422, "moves"),
    ('{"type": "move", "action": true, "version": 0}', 422, "action"),
    ('{"type": "move", "action": "hit"}', 422, "version"),
    ('{"type": "move", "action": "hit", "version": -1}', 422, "version"),
    ('{"type": "move", "action": "hit", "version": 0, "seat": 1}', 422, "no field 'seat'"),
    ('{"type": "move", "action": "fly", "version": VERSION}', 422, "fly"),
    ('{"type": "move", "action": "hit", "version": 0}', 409, "version"),
]


def test_a_bad_move_on_a_socket_is_refused_and_changes_nothing(client: TestClient) -> None:
    table, tokens = p0_first(client, seed=16)
    play_until(client, table, tokens, random.Random(16), lambda v: v["version"] >= 3)
    before = view(client, table, None)
    with client.websocket_connect(f"/api/tables/{table}/ws") as socket:
        hello(socket, before["to_move"][0], tokens[before["to_move"][0]])
        receive(socket)
        for text, status, words in BAD_MOVES:
            socket.send_text(text.replace("VERSION", str(before["version"])))
            refused = answer_to(socket, None)
            assert refused["type"] == "refused" and refused["status"] == status, (text, refused)
            assert words in refused["detail"], (text, refused)
            no_stack_trace(refused["detail"])
        # The socket is still open, and the table as it was.
        socket.send_json({"type": "move", "action": 10**6, "version": before["version"], "ref": 7})
        assert answer_to(socket, 7)["status"] == 422
    assert view(client, table, None) == before


def test_a_spectator_or_another_seat_cannot_move_on_a_socket(client: TestClient) -> None:
    table, tokens = p0_first(client, seed=12)
    version = view(client, table, None)["version"]
    with client.websocket_connect(f"/api/tables/{table}/ws") as socket:
        hello(socket, None, None)
        receive(socket)
        socket.send_json({"type": "move", "action": "hit", "version": version, "ref": 1})
        refused = answer_to(socket, 1)
        assert refused["status"] == 403 and "spectator" in refused["detail"]
    with client.websocket_connect(f"/api/tables/{table}/ws") as socket:
        hello(socket, 1, tokens[1])
        receive(socket)
        socket.send_json({"type": "move", "action": "hit", "version": version, "ref": 2})
        assert answer_to(socket, 2)["status"] == 409  # p0 is to move
    assert view(client, table, None)["version"] == version


BAD_HELLOS = [
    ("not json", 4400),
    ("[0]", 4400),
    ('{"seat": "zero"}', 4400),
    ('{"seat": true}', 4400),
    ('{"seat": null, "since": -1}', 4400),
    ('{"seat": 0}', 4401),
    ('{"seat": 0, "token": "wrong"}', 4403),
    ('{"seat": 9, "token": "wrong"}', 4404),
]


def test_a_bad_first_message_closes_the_socket_with_an_error(client: TestClient) -> None:
    table, tokens = p0_first(client, seed=16)
    for first, code in [*BAD_HELLOS, (json.dumps({"seat": 0, "token": tokens[1]}), 4403)]:
        with client.websocket_connect(f"/api/tables/{table}/ws") as socket:
            socket.send_text(first)
            error = receive(socket)
            assert error["type"] == "error" and error["detail"], first
            no_stack_trace(error["detail"])
            closed = receive(socket)
            assert closed["type"] == "websocket.close" and closed["code"] == code, (first, closed)


def test_a_socket_to_an_unknown_table_is_closed_with_404(client: TestClient) -> None:
    with client.websocket_connect("/api/tables/nosuchtable/ws") as socket:
        socket.send_json({"seat": None})
        error = receive(socket)
        assert error["type"] == "error" and "nosuchtable" in error["detail"]
        assert receive(socket)["code"] == 4404
