"""The API around a table's board: the rules text, the replay of a finished game,
the caution on a risky move, and whom a table waits for. Through an ASGI test client, on SQLite
and on PostgreSQL (tests/web/conftest.py); games are driven by the test from each seat's own
view, with seeded random moves, so every step is deterministic.
"""

from __future__ import annotations

import random
from typing import Any, cast

from fastapi.testclient import TestClient

from courtly.core import games
from courtly.core.registry import game_class
from courtly.web.documents import rules_document

FIVE = (
    "royal-gambit",
    "god-save-the-king",
    "crush-the-crown",
    "goths-save-the-queen",
    "kings-court",
)


def create(client: TestClient, **body: Any) -> dict[str, Any]:
    body.setdefault("seats", [{"kind": "person"}, {"kind": "person"}])
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    return cast(dict[str, Any], response.json())


def join(client: TestClient, table: str, seat: int) -> str:
    response = client.post(f"/api/tables/{table}/seats/{seat}/join", json={"name": f"n{seat}"})
    assert response.status_code == 200, response.text
    return cast(str, response.json()["token"])


def view(client: TestClient, table: str, seat: int | None, token: str | None = None) -> Any:
    params = {} if seat is None else {"seat": seat}
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = client.get(f"/api/tables/{table}/view", params=params, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def replay(client: TestClient, table: str, **params: Any) -> Any:
    response = client.get(f"/api/tables/{table}/replay", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def play_out(
    client: TestClient, table: str, tokens: list[str], seed: int
) -> dict[int, list[dict[str, Any]]]:
    """Random legal moves from each seat's own view until the game is over; returns what
    every seat was sent at every version the table stood at (its view there)."""
    rng = random.Random(seed)
    seen: dict[int, list[dict[str, Any]]] = {}
    for _ in range(5000):
        views = [view(client, table, seat, token) for seat, token in enumerate(tokens)]
        seen[views[0]["version"]] = views
        if views[0]["status"] != "playing":
            return seen
        seat = views[0]["to_move"][0]
        choice = rng.choice(views[seat]["legal_actions"])
        answer = client.post(
            f"/api/tables/{table}/moves",
            json={"seat": seat, "action": choice["id"], "version": views[seat]["version"]},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------------------------- rules


def test_every_game_s_rules_are_served_as_courtly_rules_prints_them(client: TestClient) -> None:
    for info in games():
        if info.id not in FIVE:
            continue  # a toy game of the tests
        response = client.get(f"/api/games/{info.id}/rules")
        assert response.status_code == 200, response.text
        body = response.json()
        assert body == {
            "game": info.id,
            "title": info.title,
            "rules": info.rules_text(),
            "document": rules_document(info.id),  # tested in test_rules_documents.py
        }
        assert body["rules"] == game_class(info.id).info.rules_text() and "\n" in body["rules"]
    missing = client.get("/api/games/chess/rules")
    assert missing.status_code == 404 and "royal-gambit" in missing.json()["detail"]


# ---------------------------------------------------------------------------------- replay


def test_a_table_is_replayed_only_once_its_game_is_over(client: TestClient) -> None:
    table = create(client, game="crush-the-crown", seed=3)["id"]
    for seat in ("all", "spectator", "0"):
        refused = client.get(f"/api/tables/{table}/replay", params={"seat": seat, "step": 0})
        assert refused.status_code == 409, refused.text  # open: waiting for its people
        assert "over" in refused.json()["detail"]
    join(client, table, 0)
    join(client, table, 1)
    assert view(client, table, None)["status"] == "playing"
    for seat in ("all", "spectator", "1"):
        refused = client.get(f"/api/tables/{table}/replay", params={"seat": seat})
        assert refused.status_code == 409, refused.text
        assert "observation" not in refused.text and "views" not in refused.json()
    assert client.get("/api/tables/nosuchtable/replay").status_code == 404


def test_a_replay_shows_each_step_as_each_seat_saw_it_then(client: TestClient) -> None:
    table = create(client, game="crush-the-crown", seed=3)["id"]
    tokens = [join(client, table, 0), join(client, table, 1)]
    seen = play_out(client, table, tokens, seed=11)
    record = client.get(f"/api/tables/{table}/record").json()
    steps = len(record["history"])

    last = replay(client, table)
    assert last["step"] == last["steps"] == steps and last["seat"] == "all"
    assert [v["seat"] for v in last["views"]] == [0, 1]
    assert last["log"] == record["history"] and last["to_move"] == []
    final = view(client, table, None)["result"]
    assert last["result"] == final and final["returns"] == record["returns"]
    assert [s["name"] for s in last["seats"]] == ["n0", "n1"]

    # Every version the table stood at, as each seat was sent it then: the same observation,
    # the same log, the same seats to move (a seat's replay knows what it knew, nothing more).
    checked = 0
    versions = sorted(seen)
    sample = {*versions[:: max(1, len(versions) // 25)], versions[-1]}
    for version in sorted(sample):
        views = seen[version]
        for seat in (0, 1):
            step = replay(client, table, step=version, seat=str(seat))
            assert step["step"] == version and step["seat"] == seat
            assert step["views"] == [{"seat": seat, "observation": views[seat]["observation"]}]
            assert step["log"] == views[seat]["log"]
            if views[seat]["status"] == "playing":
                assert step["to_move"] == views[seat]["to_move"] and step["result"] is None
            checked += 1
        both = replay(client, table, step=version, seat="all")
        assert [v["observation"] for v in both["views"]] == [
            views[0]["observation"],
            views[1]["observation"],
        ]
        assert both["log"] == record["history"][:version]
    assert checked > 20

    start = replay(client, table, step=0, seat="spectator")
    assert start["step"] == 0 and start["log"] == [] and start["views"][0]["seat"] is None
    # Hidden from a spectator then: the deal's events, told as "?".
    dealt = replay(client, table, step=min(seen), seat="spectator")
    assert any(what == "?" for _, what in dealt["log"])


def test_a_replay_refuses_a_step_or_seat_the_game_does_not_have(client: TestClient) -> None:
    table = create(client, game="royal-gambit", options={"target_score": 5}, seed=4)["id"]
    tokens = [join(client, table, 0), join(client, table, 1)]
    play_out(client, table, tokens, seed=1)
    steps = replay(client, table)["steps"]
    for params, word in (
        ({"step": steps + 1}, f"0 to {steps}"),
        ({"step": -1}, "step"),
        ({"seat": "2"}, "seat"),
        ({"seat": "p0"}, "seat"),
        ({"seat": "everyone"}, "seat"),
    ):
        refused = client.get(f"/api/tables/{table}/replay", params=params)
        assert refused.status_code == 422, (params, refused.text)
        assert word in refused.json()["detail"], (params, refused.text)


# ---------------------------------------------------------------------------------- moves


def test_a_move_that_throws_the_game_away_carries_its_caution_for_its_seat_only(
    client: TestClient,
) -> None:
    table = create(client, game="god-save-the-king", seed=1)["id"]
    tokens = [join(client, table, 0), join(client, table, 1)]
    mine = view(client, table, 0, tokens[0])
    assert mine["to_move"] == [0, 1]
    cautious = {a["text"]: a["caution"] for a in mine["legal_actions"] if "caution" in a}
    assert list(cautious) == ["form left KS"]
    assert "your King" in cautious["form left KS"] and "GSK-5" in cautious["form left KS"]
    theirs = view(client, table, 1, tokens[1])
    assert [a["text"] for a in theirs["legal_actions"] if "caution" in a] == ["form left KH"]
    assert view(client, table, None)["legal_actions"] == []


def test_a_table_says_whom_it_waits_for(client: TestClient) -> None:
    table = create(client, game="god-save-the-king", seed=1)
    assert table["to_move"] == []  # open: nobody moves yet
    tokens = [join(client, table["id"], 0), join(client, table["id"], 1)]
    assert client.get(f"/api/tables/{table['id']}").json()["to_move"] == [0, 1]
    mine = view(client, table["id"], 0, tokens[0])
    answer = client.post(
        f"/api/tables/{table['id']}/moves",
        json={"seat": 0, "action": "form left 2S", "version": mine["version"]},
        headers={"Authorization": f"Bearer {tokens[0]}"},
    )
    assert answer.status_code == 200, answer.text
    summary = client.get(f"/api/tables/{table['id']}").json()
    assert summary["to_move"] == view(client, table["id"], None)["to_move"]
