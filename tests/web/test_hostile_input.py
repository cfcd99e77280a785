"""Input as a hostile client sends it: every bad request gets a clear refusal (a 4xx with a
message, the WebSocket's documented error and close code), never a 5xx, a traceback or a silent
drop, and changes nothing.

Each test that meets the database runs on SQLite and on PostgreSQL (tests/web/conftest.py).
"""

from __future__ import annotations

import json
import logging
import urllib.request
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

import courtly
from courtly.agents.registry import make_agent
from courtly.core.errors import InvalidOptions
from courtly.core.registry import game_class
from courtly.testing.server import ServerProcess
from courtly.web.catalogue import catalogue
from courtly.web.names import MAX_NAME, BadName, clean_name

from .test_api import (
    bearer,
    create,
    join,
    no_stack_trace,
    receive,
    started,
    view,
)

# ------------------------------------------------------------------------------------ names


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("Ann", "Ann"),
        ("  Ann   Lee \t", "Ann Lee"),
        ("a\u0000b", "ab"),  # a NUL: PostgreSQL refuses to store it
        ("line\nbreak\r\n", "line break"),
        ("\u202egpj.exe", "gpj.exe"),  # a right-to-left override
        ("\u2066Ann\u2069\u200e", "Ann"),  # an isolate and a mark
        ("Al\u200bice\ufeff", "Alice"),  # zero-width space, byte-order mark
        ("e\u0301", "\u00e9"),  # NFC
        ("\ud800x", "x"),  # a lone surrogate: no database stores it
        ("\U0001f468\u200d\U0001f469", "\U0001f468\u200d\U0001f469"),  # an emoji sequence
        ("", ""),
    ],
)
def test_a_name_is_cleaned(given: str, shown: str) -> None:
    assert clean_name(given) == shown


@pytest.mark.parametrize("given", [" ", "\u0000", "\u202e\u200b", "\u200d", "x" * (MAX_NAME + 1)])
def test_a_name_with_nothing_to_show_or_too_long_is_refused(given: str) -> None:
    with pytest.raises(BadName):
        clean_name(given)


NAMES = [("a\u0000b", "ab"), ("\u202eevil\n", "evil"), ("  \tTom\u0007 ", "Tom")]


def test_names_are_cleaned_on_create_join_and_tutorial(client: TestClient) -> None:
    for given, shown in NAMES:
        table = create(
            client,
            seats=[{"kind": "person"}, {"kind": "bot", "bot": "random", "name": given}],
        )
        assert table["seats"][1]["name"] == shown
        join(client, table["id"], 0, given)
        seats = client.get(f"/api/tables/{table['id']}").json()["seats"]
        assert [seat["name"] for seat in seats] == [shown, shown]
        learner = client.post("/api/tutorials", json={"game": "royal-gambit", "name": given})
        assert learner.status_code == 201, learner.text
        body = learner.json()
        seats = client.get(f"/api/tables/{body['table']}").json()["seats"]
        assert seats[body["seat"]]["name"] == shown


@pytest.mark.parametrize("name", ["\u0000", "\u202e \u200b", "x" * (MAX_NAME + 1)])
def test_a_bad_name_is_refused_with_422_and_changes_nothing(client: TestClient, name: str) -> None:
    table = create(client)
    before = client.get(f"/api/tables/{table['id']}").json()
    refused = [
        client.post(f"/api/tables/{table['id']}/seats/0/join", json={"name": name}),
        client.post(
            "/api/tables",
            json={"game": "royal-gambit", "seats": [{"kind": "person", "name": name}] * 2},
        ),
        client.post("/api/tutorials", json={"game": "royal-gambit", "name": name}),
    ]
    for response in refused:
        assert response.status_code == 422, response.text
        assert "name" in response.json()["detail"]
    assert client.get(f"/api/tables/{table['id']}").json() == before
    listed = client.get("/api/tables", params={"status": ["open", "playing", "over"]}).json()
    assert [entry["id"] for entry in listed] == [table["id"]]


# ------------------------------------------------------------------------------------ seats


@pytest.mark.parametrize(
    "seat",
    [
        {"kind": "person", "bot": "random"},
        {"kind": "person", "bot": "ismcts", "options": {"iterations": 10}},
        {"kind": "person", "options": {"caution": 1}},
    ],
)
def test_a_persons_seat_given_a_bot_is_refused(client: TestClient, seat: dict[str, Any]) -> None:
    response = client.post("/api/tables", json={"game": "royal-gambit", "seats": [seat, seat]})
    assert response.status_code == 422, response.text
    assert "a person's seat takes no bot" in response.json()["detail"]
    assert client.get("/api/tables").json() == []


# ------------------------------------------------------------------------------------ options


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("royal-gambit", {"target_score": 10**30}),
        ("royal-gambit", {"safety_cap": 10**18}),
        ("crush-the-crown", {"safety_cap": 10**18}),
        ("kings-court", {"track_length": 10**9}),
        ("goths-save-the-queen", {"king_backs": "anything"}),
    ],
)
def test_options_that_would_make_a_game_endless_are_refused(
    client: TestClient, game: str, options: dict[str, Any]
) -> None:
    players = game_class(game).info.default_players
    seats = [{"kind": "person"}] * players
    response = client.post("/api/tables", json={"game": game, "options": options, "seats": seats})
    assert response.status_code == 400, response.text
    assert next(iter(options)) in response.json()["detail"]


def _over(option: dict[str, Any]) -> Any:
    return option["maximum"] + (1 if isinstance(option["default"], int) else 0.5)


def _accepted(game_id: str, player_counts: list[int], name: str, value: Any) -> bool:
    """Whether ``game_id`` takes ``value`` for option ``name`` at some player count (some
    choices go with some player counts, as their help says)."""
    for players in player_counts:
        try:
            courtly.make(game_id, players=players, **{name: value})
        except InvalidOptions:
            continue
        return True
    return False


def test_every_option_of_the_catalogue_is_validated_as_its_help_says() -> None:
    """Walk the whole catalogue: each bound, choice and pattern it gives is the one checked,
    and every number option of a game (what bounds its length among them) has a maximum."""
    for entry in catalogue():
        game_id, players = entry["id"], entry["default_players"]
        for option in entry["options"]:
            name, allowed = option["name"], option["allowed"]

            def takes(
                value: Any, name: str = name, game_id: str = game_id, counts: Any = entry["players"]
            ) -> bool:
                return _accepted(game_id, counts, name, value)

            assert allowed != "any text", (game_id, name)
            if isinstance(option["default"], bool):
                assert allowed == "true or false"
                continue
            if isinstance(option["default"], (int, float)):
                assert "maximum" in option and "minimum" in option, (game_id, name)
                assert takes(option["maximum"]) and takes(option["minimum"]), (game_id, name)
                assert not takes(_over(option)), (game_id, name)
                assert not takes(option["minimum"] - 1), (game_id, name)
                continue
            for choice in option.get("choices", []):
                assert takes(choice), (game_id, name, choice)
            if "choices" not in option:
                # The example the help gives is taken.
                assert takes(allowed.rsplit("e.g. ", 1)[1]), (game_id, name)
            assert not takes("no such value"), (game_id, name)
        game = courtly.make(game_id, players=players)
        for bot in entry["bots"]:
            for option in bot["options"]:
                spec = f"{bot['name']}:{option['name']}="
                for choice in option.get("choices", []):
                    make_agent(spec + choice, game)
                if "maximum" in option:
                    assert "from" in option["allowed"]
                    make_agent(spec + str(option["maximum"]), game)
                if "minimum" in option:
                    with pytest.raises(InvalidOptions):
                        make_agent(spec + str(option["minimum"] - 1), game)


# ------------------------------------------------------------------------------------ methods


def test_a_wrong_method_on_an_api_path_is_405_with_allow(client: TestClient) -> None:
    table, _tokens = started(client)
    for method, path, allowed in [
        ("GET", f"/api/tables/{table}/moves", "POST"),
        ("DELETE", f"/api/tables/{table}", "GET"),
        ("PUT", "/api/games", "GET"),
        ("GET", f"/api/tables/{table}/seats/0/join", "POST"),
    ]:
        response = client.request(method, path)
        assert response.status_code == 405, (method, path, response.text)
        assert response.headers["allow"] == allowed
        assert allowed in response.json()["detail"]
    missing = client.get("/api/no/such/path")
    assert missing.status_code == 404 and "/api/no/such/path" in missing.json()["detail"]


# ------------------------------------------------------------------------------------ counts


def test_counts_beyond_any_game_are_refused_not_failed(client: TestClient) -> None:
    table, tokens = started(client)
    huge = 2**64
    for response in [
        client.get(f"/api/tables/{table}/view", params={"since": huge}),
        client.post(
            f"/api/tables/{table}/moves",
            json={"seat": 0, "action": 0, "version": huge},
            headers=bearer(tokens[0]),
        ),
        client.post(
            f"/api/tables/{table}/hint",
            json={"seat": 0, "version": huge},
            headers=bearer(tokens[0]),
        ),
    ]:
        assert response.status_code == 422, response.text
        no_stack_trace(response.text)


# ------------------------------------------------------------------------------------ socket

BAD_FIRST_MESSAGES: list[str | bytes] = [
    '{"seat": 0, "token": 123}',
    '{"seat": 0, "token": ["a"]}',
    '{"seat": 0, "token": {"a": 1}}',
    '{"seat": null, "since": 18446744073709551616}',
    '{"seat": null, "since": 9223372036854775808}',
    '{"seat": null, "since": -1}',
    b'{"seat": null}',
    "[" * 20_000,
    "{" * 20_000,
    '{"seat": null, "x": ' + "[" * 5_000 + "]" * 5_000 + "}",
    "{not json",
    "",
    json.dumps({"seat": None, "pad": "x" * 70_000}),
]


def test_every_bad_first_message_gets_an_error_and_4400(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    table, _tokens = started(client)
    caplog.set_level(logging.WARNING)
    for first in BAD_FIRST_MESSAGES:
        with client.websocket_connect(f"/api/tables/{table}/ws") as socket:
            if isinstance(first, bytes):
                socket.send_bytes(first)
            else:
                socket.send_text(first)
            error = receive(socket)
            assert error["type"] == "error" and error["detail"], first[:40]
            no_stack_trace(error["detail"])
            closed = receive(socket)
            assert closed == {"type": "websocket.close", "code": 4400, "reason": ""}, first[:40]
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


JUNK_MOVES: list[tuple[str | bytes, int]] = [
    ("[" * 20_000, 400),
    ("{" * 20_000, 400),
    ('{"type": "move", "action": 0, "version": 0, "ref": ' + "[" * 900 + "]" * 900 + "}", 422),
    ('{"type": "move", "action": ' + "[" * 900 + "]" * 900 + ', "version": 0}', 422),
    (b"\x00\x01binary", 400),
    ('{"type": "move", "action": 0, "version": 18446744073709551616}', 422),
    ('{"type": "move", "action": 0, "version": 0, "pad": "' + "x" * 70_000 + '"}', 413),
    ("not json", 400),
    ("[]", 422),
]


def test_junk_after_the_first_message_is_refused_and_the_socket_stays_open(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    table, tokens = started(client, seed=16)
    caplog.set_level(logging.WARNING)
    before = view(client, table, None)
    mover = before["to_move"][0]
    with client.websocket_connect(f"/api/tables/{table}/ws") as socket:
        socket.send_json({"seat": mover, "token": tokens[mover]})
        assert receive(socket)["type"] == "view"
        for junk, status in JUNK_MOVES:
            if isinstance(junk, bytes):
                socket.send_bytes(junk)
            else:
                socket.send_text(junk)
            refused = receive(socket)
            assert refused["type"] == "refused", (junk[:40], refused)
            assert refused["status"] == status, (junk[:40], refused)
            no_stack_trace(refused["detail"])
        assert view(client, table, None) == before  # nothing changed
        # The socket still plays.
        action = view(client, table, mover, tokens[mover])["legal_actions"][0]["id"]
        socket.send_json({"type": "move", "action": action, "version": before["version"], "ref": 1})
        while (answer := receive(socket))["type"] == "view":
            pass
        assert answer["type"] == "answer" and answer["ref"] == 1, answer
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []


# ------------------------------------------------------------------------------------ a real server


@pytest.fixture
def real_server(database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    """``courtly serve`` as an operator runs it (uvicorn's WebSocket limits included)."""
    server = ServerProcess(database_url, tmp_path / "server.log", ["--bot-pace", "0"])
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


def closing(server: ServerProcess, table: str, first: str | bytes) -> tuple[Any, int | None]:
    """What the server answers a first message ``first``: its message (None if none), and the
    close code (None if the server closed the connection before a close frame reached us)."""
    url = server.url.replace("http://", "ws://") + f"/api/tables/{table}/ws"
    answer = None
    # (A TimeoutError is not suppressed: it fails the test.)
    with connect(url, max_size=None, open_timeout=30) as socket, suppress(ConnectionClosed):
        socket.send(first)
        answer = json.loads(socket.recv(timeout=30))
        socket.recv(timeout=30)
    return answer, socket.close_code


def test_a_real_server_refuses_hostile_input_in_words(real_server: ServerProcess) -> None:
    request = urllib.request.Request(
        real_server.url + "/api/tables",
        data=json.dumps(
            {"game": "royal-gambit", "seats": [{"kind": "person", "name": "a\u0000b"}] * 2}
        ).encode(),
        method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        table = json.loads(response.read())
    assert [seat["name"] for seat in table["seats"]] == ["ab", "ab"]
    for first in [
        b'{"seat": null}',
        "[" * 20_000,
        '{"seat": 0, "token": 123}',
        '{"seat": null, "since": 18446744073709551616}',
        json.dumps({"seat": None, "pad": "x" * 200_000}),  # over 64 KiB: refused in words
    ]:
        answer, code = closing(real_server, table["id"], first)
        assert answer is not None and answer["type"] == "error", first[:40]
        assert code == 4400, first[:40]
    # Over a megabyte, the message is not read at all: the connection is closed with 1009,
    # which may reach the client only as a reset while it is still sending (no close frame:
    # 1006 on the client's side, or none at all).
    answer, code = closing(real_server, table["id"], "x" * 2_000_000)
    assert answer is None and code in (1009, 1006, None)
    log = real_server.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]
