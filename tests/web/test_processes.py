"""Two real ``courtly serve`` processes against one PostgreSQL serve the same tables.

A move made through one process reaches the WebSockets held by the other (PostgreSQL
LISTEN/NOTIFY), and a table of bots, whose bots may play in both processes at once, is played
to the end without a double move (the primary key of an event forbids it): its record replays.
"""

from __future__ import annotations

import contextlib
import json
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from courtly.core.records import MatchRecord
from courtly.core.replays import replay_record
from courtly.core.story import story_of
from courtly.testing.server import ServerFailed, ServerProcess
from courtly.web.seat_messages import told_since

DEADLINE = 60.0
"""Seconds to wait for a condition: generous, the machine may be busy; never a measure."""


class Server(ServerProcess):
    """One ``courtly serve`` process, and a small JSON client for its REST API."""

    def __init__(self, name: str, database_url: str, folder: Path) -> None:
        super().__init__(
            database_url, folder / f"server-{name}.log", ["--bot-pace", "0", "--bot-workers", "1"]
        )
        self.name = name

    def call(
        self, method: str, path: str, body: object = None, token: str | None = None
    ) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        request.add_header("Content-Type", "application/json")
        if token is not None:
            request.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def ok(self, method: str, path: str, body: object = None, token: str | None = None) -> Any:
        status, answer = self.call(method, path, body, token)
        assert 200 <= status < 300, f"{self.name}: {method} {path} -> {status} {answer}"
        return answer

    def log_tail(self) -> str:
        return f"\n(server {self.name}){super().log_tail()}"


@pytest.fixture
def two_servers(postgres_database: str, tmp_path: Path) -> Iterator[tuple[Server, ...]]:
    """Servers A and B on one fresh PostgreSQL database, killed at the end (also on failure)."""
    servers: list[Server] = []
    try:
        # Both at once on an empty database: their schema migrations must not collide.
        servers.extend(Server(name, postgres_database, tmp_path) for name in ("A", "B"))
        for server in servers:
            try:
                server.wait_ready(DEADLINE)
            except ServerFailed as error:
                pytest.fail(str(error), pytrace=False)
        yield tuple(servers)
    finally:
        for server in servers:
            server.stop()


def wait_for(what: str, found: Callable[[], Any], servers: tuple[Server, ...]) -> Any:
    """Poll ``found`` until it returns something other than None (generous deadline)."""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        value = found()
        if value is not None:
            return value
        time.sleep(0.05)
    pytest.fail(f"timed out waiting for {what}" + "".join(s.log_tail() for s in servers))


def two_people(a: Server, b: Server, seed: int) -> tuple[str, list[str]]:
    """A Royal Gambit table of two people made through ``a``, seat 0 joined through ``a`` and
    seat 1 through ``b``: its id and the seats' tokens."""
    table: str = a.ok(
        "POST",
        "/api/tables",
        {"game": "royal-gambit", "players": 2, "seats": [{"kind": "person"}] * 2, "seed": seed},
    )["id"]
    tokens = [
        a.ok("POST", f"/api/tables/{table}/seats/0/join", {"name": "Ann"})["token"],
        b.ok("POST", f"/api/tables/{table}/seats/1/join", {"name": "Bob"})["token"],
    ]
    return table, tokens


def receive_first(
    connection: ClientConnection,
    wanted: Callable[[dict[str, Any]], bool],
    what: str,
    servers: tuple[Server, ...],
) -> dict[str, Any]:
    """The first message of ``connection`` that is ``wanted``."""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        try:
            message: dict[str, Any] = json.loads(connection.recv(timeout=1))
        except TimeoutError:
            continue
        if wanted(message):
            return message
    pytest.fail(f"{what} never came" + "".join(s.log_tail() for s in servers))


def receive_until(
    connection: ClientConnection, version: int, what: str, servers: tuple[Server, ...]
) -> dict[str, Any]:
    """The first view message of ``connection`` at ``version`` or later."""

    def at_version(message: dict[str, Any]) -> bool:
        assert message["type"] == "view", message
        return bool(message["version"] >= version)

    return receive_first(connection, at_version, f"version {version} on {what}", servers)


def test_a_move_through_one_process_reaches_websockets_held_by_the_other(
    two_servers: tuple[Server, Server],
) -> None:
    a, b = two_servers
    # Seat 0 joins through A, seat 1 through B: each process learns of the other's join.
    table, tokens = two_people(a, b, seed=11)

    def view(server: Server, seat: int | None, since: int = 0) -> dict[str, Any]:
        if seat is None:  # a spectator's
            return server.ok("GET", f"/api/tables/{table}/view?since={since}")
        path = f"/api/tables/{table}/view?seat={seat}&since={since}"
        return server.ok("GET", path, token=tokens[seat])

    def view_at(server: Server, seat: int | None, version: int, since: int) -> Any:
        """``seat``'s view served by ``server`` once it is at ``version`` (it may hear of a
        change made through the other process a little later)."""
        return wait_for(
            f"{server.name} to serve version {version}",
            lambda: seen if (seen := view(server, seat, since))["version"] == version else None,
            two_servers,
        )

    for server in (a, b):
        wait_for(
            f"the table to be playing on {server.name}",
            lambda server=server: view(server, None)["status"] == "playing" or None,
            two_servers,
        )
    # Seat 1 watches through B, a spectator through A.
    with connect_view(b, table, 1, tokens[1]) as seat_socket, connect_view(a, table) as watching:
        sockets = [(b, 1, seat_socket), (a, None, watching)]
        mover = a
        for _ in range(6):  # moves through A and through B in turn
            spectator = view(mover, None)
            assert spectator["status"] == "playing", "the game ended early: choose another seed"
            seat = spectator["to_move"][0]
            before = view(mover, seat)
            move = {
                "seat": seat,
                "action": before["legal_actions"][0]["text"],
                "version": before["version"],
            }
            answer = mover.ok("POST", f"/api/tables/{table}/moves", move, tokens[seat])
            version = answer["version"]
            assert version > before["version"]
            for holder, watcher, connection in sockets:
                what = f"the WebSocket held by {holder.name} after a move through {mover.name}"
                pushed = receive_until(connection, version, what, two_servers)
                assert (pushed["version"], pushed["seat"]) == (version, watcher)
                # The view one process pushes is the view the other one serves.
                served = view_at(b if holder is a else a, watcher, version, pushed["log_from"])
                for key in ("to_move", "legal_actions", "observation", "status", "log"):
                    assert pushed[key] == served[key], key
            mover = b if mover is a else a


@contextlib.contextmanager
def connect_view(
    server: Server, table: str, seat: int | None = None, token: str | None = None
) -> Iterator[ClientConnection]:
    """A WebSocket on ``table`` of ``server``, as ``seat`` (``None``: a spectator)."""
    with connect(f"ws://127.0.0.1:{server.port}/api/tables/{table}/ws", open_timeout=30) as ws:
        ws.send(json.dumps({"seat": seat, "token": token, "since": 0}))
        yield ws


def test_a_bot_table_is_played_to_the_end_by_both_processes_without_a_double_move(
    two_servers: tuple[Server, Server],
) -> None:
    a, b = two_servers
    seats = [
        {"kind": "bot", "bot": "heuristic"},
        {"kind": "bot"},
        {"kind": "bot", "bot": "heuristic"},
    ]
    created = a.ok(
        "POST", "/api/tables", {"game": "royal-gambit", "players": 3, "seats": seats, "seed": 5}
    )
    table = created["id"]
    assert created["status"] == "playing"
    # B loads the table now; its bots play too whenever it hears of a change. A spectator's
    # view makes each process keep the table's story from now on: told as its own bots move,
    # and as it catches up with the other's moves.
    for server in (a, b):
        server.ok("GET", f"/api/tables/{table}/view")
    records = []
    for server in (a, b):
        summary = wait_for(
            f"the bot table to end on {server.name}",
            lambda server=server: (
                summary
                if (summary := server.ok("GET", f"/api/tables/{table}"))["status"] == "over"
                else None
            ),
            two_servers,
        )
        record = server.ok("GET", f"/api/tables/{table}/record")
        assert len(record["history"]) == summary["version"]
        records.append(record)
    assert records[0] == records[1], "both processes must hold the same history"
    final = replay_record(MatchRecord.from_dict(records[0]))  # every event legal where it stands
    assert final.is_terminal
    assert len(final.history) == len(records[0]["history"])
    story = story_of(final.game, records[0]["history"])
    told = [[index, text] for index, text in told_since(story, None, 3, 0)]
    for server in (a, b):
        assert server.ok("GET", f"/api/tables/{table}/view")["story"] == told, server.name


def answer_on(
    connection: ClientConnection, ref: int, servers: tuple[Server, ...]
) -> dict[str, Any]:
    """The answer to the move sent with ``ref`` on ``connection`` (views pushed meanwhile are
    skipped)."""

    def answer(message: dict[str, Any]) -> bool:
        if message["type"] in ("answer", "refused"):
            assert message["ref"] == ref, message
            return True
        return False

    return receive_first(connection, answer, f"the answer to move {ref}", servers)


def test_moves_on_websockets_of_two_processes_are_each_applied_once(
    two_servers: tuple[Server, Server],
) -> None:
    # Each process writes the moves of its sockets from its event loop (PostgreSQL's async
    # driver). A seat sends each move through both processes at once: one write wins, the
    # other finds the table moved on, catches up, and answers the same (a retry).
    a, b = two_servers
    table, tokens = two_people(a, b, seed=5)
    for server in two_servers:
        wait_for(
            f"the table to be playing on {server.name}",
            lambda server=server: (
                server.ok("GET", f"/api/tables/{table}")["status"] == "playing" or None
            ),
            two_servers,
        )
    made: list[dict[str, Any]] = []
    with contextlib.ExitStack() as stack:
        sockets = [
            [
                stack.enter_context(connect_view(server, table, seat, tokens[seat]))
                for server in two_servers
            ]
            for seat in (0, 1)
        ]
        for ref in range(10):
            shown = a.ok("GET", f"/api/tables/{table}/view")
            if made and shown["version"] < made[-1]["version"]:
                shown = wait_for(
                    "A to hold the last move",
                    lambda: (
                        v
                        if (v := a.ok("GET", f"/api/tables/{table}/view"))["version"]
                        >= made[-1]["version"]
                        else None
                    ),
                    two_servers,
                )
            if shown["status"] != "playing":
                break
            seat = shown["to_move"][0]
            mine = a.ok("GET", f"/api/tables/{table}/view?seat={seat}", token=tokens[seat])
            move = {
                "type": "move",
                "action": mine["legal_actions"][-1]["id"],
                "version": mine["version"],
                "ref": ref,
            }
            for connection in sockets[seat]:
                connection.send(json.dumps(move))
            answers = [answer_on(connection, ref, two_servers) for connection in sockets[seat]]
            assert answers[0]["type"] == "answer", answers
            assert answers[0] == answers[1], answers
            made.append(answers[0])
    assert len(made) >= 4
    # Both processes hold the same history, each move in it once.
    logs = [
        wait_for(
            f"{server.name} to hold every move",
            lambda server=server: (
                v
                if (v := server.ok("GET", f"/api/tables/{table}/view"))["version"]
                >= made[-1]["version"]
                else None
            ),
            two_servers,
        )["log"]
        for server in two_servers
    ]
    assert logs[0] == logs[1]
    assert [entry for entry in logs[0] if entry[0] != "chance"] == [
        [f"p{answer['seat']}", answer["action"]] for answer in made
    ]
