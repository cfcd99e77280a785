"""The browser's engine in plain CPython: a table played with no server (courtly.offline) deals,
refuses, narrates and ends as a server's table does, through the same code, and its finished
game is a record ``courtly replay`` reads."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import courtly
from courtly.core.deals import check_deal
from courtly.core.records import MatchRecord
from courtly.core.registry import game_class
from courtly.offline.table import BOT_ITERATIONS, BOT_SECONDS, OfflineTable
from courtly.offline.worker import REVIEW_ITERATIONS, Worker
from courtly.testing.cli import invoke
from courtly.web.budgets import BotBudget
from courtly.web.catalogue import catalogue, titles_of
from courtly.web.model import TableError
from courtly.web.seat_messages import seat_message

GAMES = [info.id for info in courtly.games()]


def bots(players: int, bot: str = "random") -> list[dict[str, Any]]:
    return [{"kind": "bot", "bot": bot} for _ in range(players)]


def play_out(table: OfflineTable) -> None:
    while table.bot_move() is not None:
        pass


@pytest.mark.parametrize("game_id", GAMES)
def test_every_game_at_every_player_count_plays_to_its_end_between_bots(game_id: str) -> None:
    for players in game_class(game_id).info.player_counts:
        table = OfflineTable(game_id, players, {}, bots(players), seed=players)
        play_out(table)
        assert table.table.status == "over"
        message = table.message(0)
        assert message["status"] == "over" and message["result"] is not None
        assert message["legal_actions"] == []


@pytest.mark.parametrize("game_id", GAMES)
def test_the_chance_is_the_servers_drawn_from_the_committed_seed(game_id: str) -> None:
    """A finished offline game's record passes the check a server table's record passes: every
    chance outcome is the one the server would have drawn from the same seed."""
    for seed in range(5):
        table = OfflineTable(game_id, None, {}, bots(courtly.make(game_id).num_players), seed)
        play_out(table)
        record = table.record()
        assert record.seed == seed
        assert record.deal is not None
        check_deal(record)
        assert courtly.load(record.to_json()).history == table.table.state.history


def test_a_person_sees_their_own_view_alone_and_moves_with_the_servers_checks() -> None:
    table = OfflineTable("royal-gambit", 2, {}, [{"kind": "person"}, {"kind": "bot"}], seed=7)
    state = table.table.state
    message = table.message(0)
    assert message == seat_message(table.table, 0, 0, message_time(message))
    assert message["observation"] == state.view(0).observation()
    assert message["seats"][0]["kind"] == "person" and message["seats"][0]["taken"]
    version = message["version"]
    if 0 not in message["to_move"]:
        table.bot_move()
        message = table.message(0)
        version = message["version"]
    first = message["legal_actions"][0]
    answer = table.move(0, first["id"], version)
    assert answer["action"] == first["text"] and answer["seat"] == 0
    assert table.move(0, first["id"], version) == answer  # a retry: the same answer


def message_time(message: Any) -> float:
    return 0.0  # no clocks offline: a seat message does not depend on the time


def test_bad_moves_are_refused_in_the_servers_words_and_change_nothing() -> None:
    table = OfflineTable("royal-gambit", 2, {}, [{"kind": "person"}, {"kind": "bot"}], seed=3)
    while 0 not in table.table.state.to_move:
        table.bot_move()
    before = list(table.table.state.history)
    version = table.table.version
    with pytest.raises(TableError) as stale:
        table.move(0, table.message(0)["legal_actions"][0]["id"], version + 5)
    assert stale.value.status == 409 and "not a version of this table yet" in stale.value.message
    with pytest.raises(TableError) as illegal:
        table.move(0, "no such move at all", version)
    assert illegal.value.status == 422
    with pytest.raises(TableError) as not_a_seat:
        table.move(5, 0, version)
    assert not_a_seat.value.status == 404
    with pytest.raises(TableError) as bots_seat:
        table.move(1, 0, version)
    assert bots_seat.value.status == 409 and "a bot plays seat 1" in bots_seat.value.message
    assert table.table.state.history == before


def test_a_new_table_is_refused_for_bad_input() -> None:
    for args, words in [
        (("no_such_game", None, {}, []), "unknown game"),
        (("royal-gambit", 2, {}, [{"kind": "person"}]), "needs 2 seats"),
        (("royal-gambit", 2, {}, [{"kind": "robot"}, {"kind": "bot"}]), "kind must be"),
        (("royal-gambit", 2, {"no_option": 1}, bots(2)), "no_option"),
    ]:
        with pytest.raises(TableError) as refused:
            OfflineTable(*args)  # type: ignore[arg-type]
        assert refused.value.status == 400 and words in refused.value.message, refused.value


def test_a_bot_asked_to_think_long_is_held_to_the_offline_budget() -> None:
    table = OfflineTable(
        "royal-gambit",
        2,
        {},
        [{"kind": "bot", "bot": "ismcts", "options": {"iterations": 9000}}, {"kind": "person"}],
    )
    assert table.table.seats[0].bot == "ismcts:iterations=500"


def test_a_hint_ranks_every_legal_action_from_the_seats_view() -> None:
    table = OfflineTable("crush-the-crown", 2, {}, [{"kind": "person"}, {"kind": "bot"}], 1)
    while 0 not in table.table.state.to_move:
        table.bot_move()
    version = table.table.version
    hint = table.hint(0, version, iterations=40)
    legal = {a["text"] for a in table.message(0)["legal_actions"]}
    assert {a["action"] for a in hint["actions"]} == legal
    means = [a["mean"] for a in hint["actions"]]
    assert means == sorted(means, reverse=True)
    assert hint == table.hint(0, version, iterations=40)  # seeded by the position
    with pytest.raises(TableError) as stale:
        table.hint(0, version + 1)
    assert stale.value.status == 409


def test_the_worker_plays_a_hot_seat_game_in_json_and_its_record_replays(tmp_path: Path) -> None:
    worker = Worker()

    def ask(**request: Any) -> Any:
        answer = json.loads(worker.answer(json.dumps(request)))
        assert "ok" in answer, answer
        return answer["ok"]

    ask(op="new", game="crush-the-crown", players=2, seats=[{"kind": "person"}] * 2, seed=11)
    since = [0, 0]
    while True:
        summary = ask(op="message", seat=None)
        if summary["status"] == "over":
            break
        seat = summary["to_move"][0]
        message = ask(op="message", seat=seat, since=since[seat])
        since[seat] = message["version"]
        ask(op="move", seat=seat, action=message["legal_actions"][-1]["id"], version=since[seat])
    record = ask(op="record")  # (as text: a browser's number would round a large seed)
    path = tmp_path / "offline.jsonl"
    path.write_text(record + "\n")
    assert MatchRecord.from_dict(json.loads(record)).seed == 11
    replayed = invoke("replay", str(path))
    assert replayed.exit_code == 0, replayed.output


def test_the_worker_refuses_bad_requests_with_the_servers_refusal() -> None:
    worker = Worker()
    for request, status, words in [
        ("not json", 400, "a request is JSON"),
        ("[1]", 400, "a JSON object"),
        ('{"op": "fly"}', 400, "unknown op 'fly'"),
        ('{"op": "bot"}', 409, "no table yet"),
        ('{"op": "new", "game": "royal-gambit", "players": true}', 400, "players is a whole"),
    ]:
        answer = json.loads(worker.answer(request))
        assert answer["status"] == status and words in answer["refused"]["detail"], answer
    worker.answer(json.dumps({"op": "new", "game": "royal-gambit", "seats": bots(2)}))
    answer = json.loads(worker.answer('{"op": "move", "seat": 0, "action": 0, "version": 99}'))
    assert answer["refused"]["version"] == worker._table({}).table.version


def test_the_browsers_engine_needs_no_server_library() -> None:
    """What the client build packs for Pyodide imports none of the server's libraries."""
    code = (
        "import sys, courtly.offline.worker, courtly.offline.table\n"
        "heavy = {'pydantic', 'fastapi', 'starlette', 'sqlalchemy', 'numpy', 'typer', 'rich',"
        " 'orjson', 'psycopg', 'uvicorn'}\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & heavy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_the_worker_lists_every_game_for_its_form() -> None:
    answer = json.loads(Worker().answer('{"op": "games"}'))["ok"]
    assert [game["id"] for game in answer] == GAMES
    assert all(game["default_players"] in game["players"] for game in answer)


def test_a_late_request_of_an_earlier_table_is_refused_and_moves_nothing() -> None:
    worker = Worker()
    new = {"op": "new", "game": "royal-gambit", "seats": bots(2), "seed": 1}
    first = json.loads(worker.answer(json.dumps(new)))["ok"]["table"]
    second = json.loads(worker.answer(json.dumps(new)))["ok"]["table"]
    answer = json.loads(worker.answer(json.dumps({"op": "bot", "table": first})))
    assert answer["status"] == 409 and "no longer played here" in answer["refused"]["detail"]
    assert worker._table({}).table.id == second and worker._table({}).table.version == 1
    assert json.loads(worker.answer(json.dumps({"op": "bot", "table": second})))["ok"] is not None


def _kept(worker: Worker) -> str:
    """A finished hot-seat game of ``worker`` as the page keeps it: its record's JSON text."""
    worker.answer(json.dumps({"op": "new", "game": "royal-gambit", "seats": bots(2), "seed": 8}))
    while json.loads(worker.answer('{"op": "bot"}'))["ok"] is not None:
        pass
    record: str = json.loads(worker.answer('{"op": "record"}'))["ok"]
    return record


def test_a_kept_game_is_replayed_by_the_worker_as_the_server_replays_it() -> None:
    worker = Worker()
    record = _kept(worker)
    data = json.loads(record)
    # Another game dealt meanwhile: the kept one is replayed from its record alone.
    worker.answer(json.dumps({"op": "new", "game": "kings-court", "seats": bots(2)}))
    summary = json.loads(worker.answer(json.dumps({"op": "finished", "record": record})))["ok"]
    table = data["deal"]["table"]
    assert summary["id"] == table and summary["status"] == "over"
    state = courtly.load(record)
    step = len(data["history"]) // 2
    ask = {"op": "replay", "table": table, "step": step, "seat": "0"}
    shown = json.loads(worker.answer(json.dumps(ask)))["ok"]
    halfway = courtly.load({**data, "history": data["history"][:step], "returns": []})
    assert shown["step"] == step and shown["steps"] == len(state.history)
    assert shown["views"] == [{"seat": 0, "observation": halfway.view(0).observation()}]
    assert shown["log"] == halfway.view(0).log()
    end = json.loads(worker.answer(json.dumps({"op": "replay", "table": table})))["ok"]
    assert end["result"] is not None and end["deal"]["seed"] == str(data["seed"])


def test_a_kept_game_is_refused_unless_its_record_proves_itself() -> None:
    worker = Worker()
    data = json.loads(_kept(worker))
    data["seed"] += 1
    answer = json.loads(worker.answer(json.dumps({"op": "finished", "record": json.dumps(data)})))
    assert answer["status"] == 422 and "committed to" in answer["refused"]["detail"]
    unknown = json.loads(worker.answer('{"op": "replay", "table": "offline-00000000"}'))
    assert unknown["status"] == 404


def test_a_kept_game_is_reviewed_in_the_worker_within_its_budget() -> None:
    worker = Worker()
    record = _kept(worker)
    table = json.loads(record)["deal"]["table"]
    worker.answer(json.dumps({"op": "finished", "record": record}))
    told: list[tuple[int, int]] = []
    request = json.dumps({"op": "review", "table": table})
    job = json.loads(worker.answer(request, lambda done, total: told.append((done, total))))["ok"]
    assert job["status"] == "done" and job["budget"] == {"iterations": REVIEW_ITERATIONS}
    review = job["review"]
    assert review["game"] == "royal-gambit" and review["decisions"]
    assert told and told[-1][0] == told[-1][1]


def test_the_worker_answers_the_servers_catalogue_with_its_own_bot_budget() -> None:
    worker = Worker()
    offline = json.loads(worker.answer('{"op": "games"}'))["ok"]
    served = json.loads(json.dumps(catalogue(BotBudget(BOT_ITERATIONS, BOT_SECONDS))))
    assert offline == served
    ismcts = next(b for b in offline[0]["bots"] if b["name"] == "ismcts")
    iterations = next(o for o in ismcts["options"] if o["name"] == "iterations")
    assert iterations["maximum"] == BOT_ITERATIONS
    seats = {"op": "seats", "game": "goths-save-the-queen", "players": 3, "options": {}}
    titles = json.loads(worker.answer(json.dumps(seats)))["ok"]
    assert titles == titles_of("goths-save-the-queen", 3, {})
    wrong = {**seats, "options": {"no_such_option": 1}}
    refused = json.loads(worker.answer(json.dumps(wrong)))
    assert refused["status"] == 400 and "no_such_option" in refused["refused"]["detail"]
