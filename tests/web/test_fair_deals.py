"""Fair deals at the server, on SQLite and on PostgreSQL: a table draws a secret seed and commits
to it from the start, reveals it only once the game is over (in its record, its JSON and its
replay), and the record is checked against the commitment by ``courtly replay --verify``. A
seed chosen by the creator is announced to everyone and shown; a rematch draws a fresh secret
one; a table made before commitments is treated as chosen.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from contextlib import ExitStack
from pathlib import Path
from typing import Any, cast

import pytest
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, event

import courtly.web
from courtly.core.deals import check_deal, commitment
from courtly.core.errors import ReplayError
from courtly.core.records import MatchRecord
from courtly.testing.cli import invoke
from courtly.web import create_app
from courtly.web.catalogue import catalogue

from ..cli.test_cli import assert_clean_error
from . import teaching
from .test_api import (
    TWO_PEOPLE,
    bearer,
    create,
    hello,
    join,
    move,
    play_until,
    receive,
    started,
    view,
)
from .test_tutorial_api import learner_turn, start

CARD = re.compile(r"(10|[2-9AJQK])[SHDC]")
SHORT = {"game": "test-sealed-bids", "seats": TWO_PEOPLE, "options": {"rounds": 2}}
"""A short game with hidden chance: a card dealt to each seat, then sealed bids."""


def finish(client: TestClient, table: str, tokens: list[str], seed: int) -> list[str]:
    """Play ``table`` to its end with random legal moves from each seat's own view; returns
    the text of every answer the seats and a spectator were given on the way (views before
    and after each move, the moves' answers and hints, and the refusals of what is public only
    at the end, of an early rematch, of a taken seat and of a bad move)."""
    rng = random.Random(seed)
    seen: list[str] = []

    def get(path: str, **kwargs: Any) -> Any:
        response = client.get(path, **kwargs)
        seen.append(response.text)
        return response

    for _ in range(1000):
        for seat, token in enumerate(tokens):
            get(f"/api/tables/{table}/view", params={"seat": seat}, headers=bearer(token))
        shown = get(f"/api/tables/{table}/view").json()
        get(f"/api/tables/{table}")
        get("/api/tables", params={"status": ["open", "playing", "over"]})
        if shown["status"] != "playing":
            return seen
        for path in ("record", "replay", "review"):
            refused = get(f"/api/tables/{table}/{path}")
            assert refused.status_code in (404, 409), (path, refused.text)
        seat = shown["to_move"][0]
        mine = view(client, table, seat, tokens[seat])
        asked = {"seat": seat, "version": mine["version"]}
        hint = client.post(f"/api/tables/{table}/hint", json=asked, headers=bearer(tokens[seat]))
        rematch = client.post(
            f"/api/tables/{table}/rematch", params={"seat": seat}, headers=bearer(tokens[seat])
        )
        taken = client.post(f"/api/tables/{table}/seats/{seat}/join", json={"name": "x"})
        assert rematch.status_code == taken.status_code == 409
        seen.extend([hint.text, rematch.text, taken.text])
        choice = rng.choice(mine["legal_actions"])
        answer = move(client, table, seat, choice["text"], mine["version"], tokens[seat])
        assert answer.status_code == 200, answer.text
        seen.append(answer.text)
        bad = move(client, table, seat, "no such move", mine["version"], tokens[seat])
        seen.append(bad.text)
    raise AssertionError("the game did not end")


def record_of(client: TestClient, table: str) -> MatchRecord:
    response = client.get(f"/api/tables/{table}/record")
    assert response.status_code == 200, response.text
    return MatchRecord.from_dict(response.json())


# ------------------------------------------------------------------------------ secret seeds


def test_the_seed_is_secret_until_the_end_then_revealed_and_the_deal_checks_out(
    client: TestClient,
) -> None:
    table = create(client, **SHORT)
    deal = table["deal"]
    assert deal == {"chosen": False, "commitment": deal["commitment"], "seed": None, "salt": None}
    assert len(deal["commitment"]) == 64
    tokens = [join(client, table["id"], seat) for seat in range(2)]
    with ExitStack() as stack:
        sockets = [
            stack.enter_context(client.websocket_connect(f"/api/tables/{table['id']}/ws"))
            for _ in range(3)
        ]
        for seat, socket in enumerate(sockets):
            hello(socket, seat if seat < 2 else None, tokens[seat] if seat < 2 else None)
        seen = finish(client, table["id"], tokens, seed=1)
        pushed: list[list[dict[str, Any]]] = []
        for socket in sockets:
            messages = [receive(socket)]
            while messages[-1]["status"] != "over":
                messages.append(receive(socket))
            pushed.append(messages)
    record = record_of(client, table["id"])
    assert record.seed is not None and record.deal is not None
    secrets = {str(record.seed), record.deal["salt"]}
    # Every answer and every pushed message before the end: the commitment, never the seed.
    before_end = seen[:-5] + [json.dumps(m) for messages in pushed for m in messages[:-1]]
    for text in before_end:
        assert not any(secret in text for secret in secrets), text
    for messages in pushed:
        assert all(m["deal"] == deal for m in messages[:-1])
        assert messages[-1]["deal"]["seed"] == str(record.seed)  # revealed with the end
    # Revealed once over, everywhere the finished table is shown.
    revealed = {**deal, "seed": str(record.seed), "salt": record.deal["salt"]}
    assert client.get(f"/api/tables/{table['id']}").json()["deal"] == revealed
    assert client.get(f"/api/tables/{table['id']}/replay").json()["deal"] == revealed
    assert view(client, table["id"], None)["deal"] == revealed
    assert record.deal == {
        "scheme": "courtly-table/1",
        "table": table["id"],
        "salt": record.deal["salt"],
        "commitment": deal["commitment"],
        "chosen": False,
        "tutorial": False,
    }
    assert commitment(table["id"], record.seed, record.deal["salt"]) == deal["commitment"]
    checked = check_deal(record)
    assert checked.drawn == 2 and checked.prepared == 0


def test_two_tables_made_the_same_way_deal_differently(client: TestClient) -> None:
    hands = set()
    commitments = set()
    for _ in range(4):
        table, tokens = started(client, game="crush-the-crown", seats=TWO_PEOPLE)
        hands.add(json.dumps(view(client, table, 0, tokens[0])["observation"], sort_keys=True))
        commitments.add(client.get(f"/api/tables/{table}").json()["deal"]["commitment"])
    assert len(hands) == 4 and len(commitments) == 4


# ------------------------------------------------------------------------------ chosen seeds


def test_a_chosen_seed_is_announced_and_shown_to_everyone_at_once(client: TestClient) -> None:
    table = create(client, **SHORT, seed=42)
    shown = {"chosen": True, "commitment": table["deal"]["commitment"], "seed": "42", "salt": None}
    assert table["deal"] == shown
    listed = client.get("/api/tables").json()
    assert [t["deal"] for t in listed if t["id"] == table["id"]] == [shown]
    token = join(client, table["id"], 0)
    assert view(client, table["id"], 0, token)["deal"] == shown
    assert view(client, table["id"], None)["deal"] == shown
    # The same seed at another table deals the same cards: which is why it is announced.
    twin, twin_tokens = started(client, **SHORT, seed=42)
    tokens = [token, join(client, table["id"], 1)]
    for seat in range(2):
        mine = view(client, table["id"], seat, tokens[seat])["observation"]
        assert view(client, twin, seat, twin_tokens[seat])["observation"] == mine
    finish(client, table["id"], tokens, seed=2)
    record = record_of(client, table["id"])
    assert record.seed == 42 and record.deal is not None and record.deal["chosen"] is True
    assert check_deal(record).seed == 42


def test_a_rematch_draws_a_fresh_secret_seed(client: TestClient) -> None:
    table, tokens = started(client, **SHORT, seed=7)
    finish(client, table, tokens, seed=3)
    answer = client.post(
        f"/api/tables/{table}/rematch", params={"seat": 0}, headers=bearer(tokens[0])
    )
    assert answer.status_code == 200, answer.text
    deal = answer.json()["deal"]
    assert deal["chosen"] is False and deal["seed"] is None
    finish(client, answer.json()["id"], tokens, seed=4)
    record = record_of(client, answer.json()["id"])
    assert record.seed != 7 and check_deal(record).deal.chosen is False


def test_a_tutorial_s_record_checks_out_with_its_prepared_deal(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    teaching.install(monkeypatch.setattr)
    catalogue.cache_clear()
    try:
        table, token = start(client, teaching.SAMPLE_GAME)
        assert client.get(f"/api/tables/{table}").json()["deal"]["chosen"] is False
        for _ in range(1000):
            shown = learner_turn(client, table, token)
            if shown["status"] == "over":
                break
            assert shown["deal"]["seed"] is None
            choice = shown["legal_actions"][0]["text"]
            assert move(client, table, 0, choice, shown["version"], token).status_code == 200
    finally:
        catalogue.cache_clear()
    record = record_of(client, table)
    assert record.deal is not None and record.deal["tutorial"] is True
    checked = check_deal(record)
    assert checked.prepared > 0 and checked.drawn > 0


# ------------------------------------------------------------------------------ older tables


def migrate(url: str, revision: str, up: bool) -> None:
    """Move the database at ``url`` to ``revision`` with the server's own migrations."""
    config = Config()
    config.set_main_option("script_location", str(Path(courtly.web.__file__).parent / "migrations"))
    engine = create_engine(url)
    if engine.dialect.name == "sqlite":
        # (SQLite's batch migrations copy a table: the seats' and events' keys would refuse it.)
        event.listen(
            engine, "connect", lambda connection, _: connection.execute("PRAGMA foreign_keys=OFF")
        )
    try:
        with engine.begin() as connection:
            config.attributes["connection"] = connection
            (command.upgrade if up else command.downgrade)(config, revision)
    finally:
        engine.dispose()


def test_a_table_made_before_commitments_is_treated_as_chosen(database_url: str) -> None:
    with TestClient(create_app(database_url, bot_pace=0, bot_workers=-1)) as client:
        table, tokens = started(client, **SHORT)
        before = view(client, table, 0, tokens[0])
    # The database as the previous version left it: no salt, no mark of a chosen seed.
    migrate(database_url, "0003", up=False)
    with TestClient(create_app(database_url, bot_pace=0, bot_workers=-1)) as client:
        deal = client.get(f"/api/tables/{table}").json()["deal"]
        assert deal == {"chosen": True, "commitment": None, "seed": None, "salt": None}
        mine = view(client, table, 0, tokens[0])
        assert mine["observation"] == before["observation"] and mine["deal"] == deal
        finish(client, table, tokens, seed=6)
        record = record_of(client, table)
        assert record.seed is not None and record.deal is None  # nothing was committed to
        assert client.get(f"/api/tables/{table}").json()["deal"]["seed"] == str(record.seed)
        with pytest.raises(ReplayError, match="no committed deal"):
            check_deal(record)
        # New tables after the upgrade commit to a secret seed again.
        assert create(client, **SHORT)["deal"]["chosen"] is False


def test_a_database_holding_tables_upgrades_from_every_older_revision(database_url: str) -> None:
    with TestClient(create_app(database_url, bot_pace=0, bot_workers=-1)) as client:
        table, tokens = started(client, **SHORT)
        before = view(client, table, 0, tokens[0])
    for revision in ("0003", "0002"):
        migrate(database_url, revision, up=False)
        with TestClient(create_app(database_url, bot_pace=0, bot_workers=-1)) as client:
            mine = view(client, table, 0, tokens[0])
            assert mine["observation"] == before["observation"]
            assert mine["tutorial"] is False and mine["deal"]["chosen"] is True


# ------------------------------------------------------------------------------ courtly replay


@pytest.fixture
def record_file(client: TestClient, tmp_path: Path) -> Path:
    """The record of a finished Royal Gambit table of two people, as a file."""
    table, tokens = started(
        client, game="royal-gambit", seats=TWO_PEOPLE, options={"target_score": 12}
    )
    play_until(client, table, tokens, random.Random(8), lambda shown: False)
    path = tmp_path / "game.json"
    path.write_text(client.get(f"/api/tables/{table}/record").text + "\n")
    return path


def tampered(path: Path, change: Any) -> Path:
    data = json.loads(path.read_text())
    change(data)
    out = path.with_name("tampered.json")
    out.write_text(json.dumps(data) + "\n")
    return out


def chance_indices(data: dict[str, Any]) -> list[int]:
    return [i for i, (actor, _) in enumerate(data["history"]) if actor == "chance"]


def test_courtly_replay_verify_accepts_a_true_record(record_file: Path) -> None:
    result = invoke("replay", str(record_file), "--verify")
    assert result.exit_code == 0, result.output
    data = json.loads(record_file.read_text())
    said = " ".join(result.stdout.split())
    assert said.startswith("Fair deal") and str(data["seed"]) in said
    assert f"all {len(chance_indices(data))} chance events" in said
    assert data["deal"]["commitment"] in said


def test_courtly_replay_verify_refuses_a_changed_seed(record_file: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        data["seed"] = data["seed"] ^ 1

    result = invoke("replay", str(tampered(record_file, change)), "--verify")
    assert_clean_error(result, "not a fair deal", "not to the commitment")


def test_courtly_replay_verify_names_a_changed_chance_outcome(record_file: Path) -> None:
    data = json.loads(record_file.read_text())
    indices = chance_indices(data)
    # Two cards drawn one after the other swapped: the later one was still in the deck at the
    # first draw, so the history replays, but the first of them is not what the seed drew.
    cards = [i for i in indices if CARD.fullmatch(data["history"][i][1])]
    first, later = next(
        (i, j)
        for i, j in itertools.pairwise(cards)
        if data["history"][i][1] != data["history"][j][1]
    )

    def change(record: dict[str, Any]) -> None:
        history = record["history"]
        history[first][1], history[later][1] = history[later][1], history[first][1]
        record.pop("returns")  # the end may differ now: the deal is what is checked

    result = invoke("replay", str(tampered(record_file, change)), "--verify")
    line = assert_clean_error(result, "not a fair deal", f"move {first + 1} (chance)")
    assert data["history"][later][1] in line and data["history"][first][1] in line


def test_courtly_replay_verify_refuses_a_record_without_a_deal(record_file: Path) -> None:
    def change(data: dict[str, Any]) -> None:
        del data["deal"]

    result = invoke("replay", str(tampered(record_file, change)), "--verify")
    assert_clean_error(result, "no committed deal")
    # An older `courtly replay` (without --verify) still reads a record with a deal.
    assert invoke("replay", str(record_file), "--quiet").exit_code == 0


def test_a_record_s_deal_must_be_an_object(record_file: Path) -> None:
    data = json.loads(record_file.read_text())
    data["deal"] = "fair"
    with pytest.raises(ReplayError, match="'deal' must be an object"):
        MatchRecord.from_dict(data)
    data["deal"] = {"table": 3}
    with pytest.raises(ReplayError, match="needs scheme and table and salt and commitment"):
        check_deal(MatchRecord.from_dict(cast(dict[str, Any], data)))
