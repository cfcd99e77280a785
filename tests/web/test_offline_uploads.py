"""A game played offline, uploaded by the signed-in person who played it (on SQLite and
PostgreSQL): kept as a finished casual table of theirs, listed in My games and on their profile,
never rated; a record that does not prove itself, a guest, or the same record twice is refused
and changes nothing."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from courtly.core.deals import check_deal, commitment
from courtly.core.events import parse_actor
from courtly.core.records import MatchRecord
from courtly.core.replays import record_game, replay_text
from courtly.offline.table import OfflineTable
from courtly.web.people.sessions import CSRF_HEADER
from courtly.web.recorded import MAX_EVENTS
from courtly.web.uploads import MAX_RECORD, OFFLINE_GAMES

from .test_ratings import Someone, add_people

GAME = "royal-gambit"
SERVER = "Xq3abcdEFGh"
"""A name of a table a server made."""


def offline_record(seats: list[str], seed: int = 5, game: str = GAME) -> dict[str, Any]:
    """A finished game played by the browser's engine, "person" seats played for by a bot (as
    a person at the device would click), as the page keeps it."""
    specs = [{"kind": "person"} if s == "person" else {"kind": "bot", "bot": s} for s in seats]
    table = OfflineTable(game, len(seats), {}, specs, seed=seed)
    for chair in table.table.seats:
        chair.bot_control = True
    while table.bot_move() is not None:
        pass
    data: dict[str, Any] = json.loads(table.record().to_json())
    return data


def upload(person: Someone, record: object) -> Any:
    return person.browser.post(OFFLINE_GAMES, json=record, headers={CSRF_HEADER: person.csrf})


def my_games(person: Someone) -> dict[str, Any]:
    response = person.browser.get("/api/account/tables")
    assert response.status_code == 200, response.text
    found: dict[str, Any] = response.json()
    return found


def test_an_offline_game_is_kept_as_a_finished_casual_game_of_its_player(
    client: TestClient, app: FastAPI
) -> None:
    (anna,) = add_people(app, "Anna")
    # Hot seat at one device with a bot: both people's seats are Anna's.
    record = offline_record(["person", "random", "person"])
    response = upload(anna, record)
    assert response.status_code == 201, response.text
    summary = response.json()
    table_id = record["deal"]["table"]
    assert summary["id"] == table_id and summary["status"] == "over"
    assert summary["rated"] is False
    assert [s["kind"] for s in summary["seats"]] == ["person", "bot", "person"]
    assert [s["name"] for s in summary["seats"]][::2] == ["Anna", "Anna"]

    listed = my_games(anna)
    assert listed["finished"] == 1
    (game,) = listed["tables"]
    assert game["id"] == table_id and game["mine"] == [0, 2] and not game["rated"]
    assert all(seat["place"] is not None for seat in game["seats"])

    profile = client.get("/api/people/Anna").json()
    assert [t["id"] for t in profile["recent"]] == [table_id]
    assert profile["ratings"] == [] and profile["history"] == []

    # The kept game is the uploaded one, event for event, and its deal checks as a server's.
    kept = client.get(f"/api/tables/{table_id}/record").json()
    assert kept["history"] == record["history"] and kept["seed"] == record["seed"]
    assert kept["returns"] == record["returns"]
    check_deal(MatchRecord.from_dict(kept))
    # It says where it was played.
    final = client.get(f"/api/tables/{table_id}/replay").json()
    assert final["result"] is not None


def test_the_same_game_is_kept_once(client: TestClient, app: FastAPI) -> None:
    anna, bert = add_people(app, "Anna", "Bert")
    record = offline_record(["person", "random"])
    assert upload(anna, record).status_code == 201
    again = upload(anna, record)
    assert again.status_code == 409 and "uploaded already" in again.json()["detail"]
    assert upload(bert, record).status_code == 409
    assert my_games(anna)["finished"] == 1 and my_games(bert)["finished"] == 0


def test_a_guest_is_asked_to_sign_in(client: TestClient, app: FastAPI) -> None:
    response = client.post(OFFLINE_GAMES, json=offline_record(["person", "random"]))
    assert response.status_code == 401 and response.json()["detail"] == "sign in first"


def _altered_action(record: dict[str, Any]) -> dict[str, Any]:
    """The record with its first decision replaced by another legal one there."""
    index = next(i for i, (actor, _) in enumerate(record["history"]) if actor != "chance")
    before = replay_text(record_game(MatchRecord.from_dict(record)), record["history"][:index])
    actor, played = record["history"][index]
    seat = parse_actor(actor, before.num_players)
    other = next(str(a) for a in before.legal_actions(seat) if str(a) != played)
    altered = copy.deepcopy(record)
    altered["history"][index][1] = other
    return altered


def _refusals() -> dict[str, Any]:
    good = offline_record(["person", "random"])

    def changed(**fields: Any) -> dict[str, Any]:
        record = copy.deepcopy(good)
        record.update(fields)
        return record

    def dealt(**fields: Any) -> dict[str, Any]:
        return changed(deal={**good["deal"], **fields})

    other_deal = offline_record(["person", "random"], seed=6)
    chance = next(
        i
        for i, (event, other) in enumerate(
            zip(good["history"], other_deal["history"], strict=False)
        )
        if event[0] == other[0] == "chance" and event[1] != other[1]
    )
    forged_chance = copy.deepcopy(good)
    forged_chance["history"][chance][1] = other_deal["history"][chance][1]
    return {
        "not a record": ([1, 2, 3], "dictionary"),
        "no history": (changed(history=None), "history"),
        "unfinished": (
            changed(history=good["history"][:-3], returns=[]),
            "only a finished game",
        ),
        "returns changed": (changed(returns=good["returns"][::-1]), "returns"),
        "no deal": ({k: v for k, v in good.items() if k != "deal"}, "committed deal"),
        "seed changed": (changed(seed=good["seed"] + 1), "not the seed the table committed to"),
        "commitment forged": (dealt(commitment="0" * 64), "not the seed"),
        "a chance event forged": (forged_chance, "was not dealt from its seed"),
        "an action altered": (_altered_action(good), "move"),
        # A server table's record, its deal true: it is kept already, under its own name.
        "a server table": (
            dealt(table=SERVER, commitment=commitment(SERVER, good["seed"], good["deal"]["salt"])),
            "not an offline table",
        ),
        "a tutorial": (dealt(tutorial=True), "refused"),
        "no person": (changed(seats=["random", "random"]), "no seat is a person's"),
        "seats miscounted": (changed(seats=["person"]), "names 1 seats"),
        "an unknown bot": (changed(seats=["person", "oracle"]), "seat 1"),
        "a bad bot option": (changed(seats=["person", "ismcts:iterations=lots"]), "seat 1"),
        "too long": (changed(history=[["chance", "x"]] * (MAX_EVENTS + 1)), "at most"),
    }


REFUSALS = _refusals()


@pytest.mark.parametrize("case", sorted(REFUSALS))
def test_a_record_that_does_not_prove_itself_is_refused_and_nothing_is_kept(
    client: TestClient, app: FastAPI, case: str
) -> None:
    (anna,) = add_people(app, "Anna")
    record, words = REFUSALS[case]
    response = upload(anna, record)
    assert response.status_code == 422, response.text
    assert words in response.json()["detail"]
    assert my_games(anna)["finished"] == 0


def test_a_record_larger_than_a_game_is_refused_unread(client: TestClient, app: FastAPI) -> None:
    (anna,) = add_people(app, "Anna")
    record = offline_record(["person", "random"])
    record["padding"] = "x" * MAX_RECORD
    response = upload(anna, record)
    assert response.status_code == 413
    # A long game's record is larger than any other request's body, and is read.
    record["padding"] = "x" * 100_000
    assert upload(anna, record).status_code == 201
