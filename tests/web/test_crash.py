"""A real ``courtly serve`` process killed with SIGKILL in the middle of games loses nothing.

Tables with people and bots, one with a realtime clock, one with an ``away`` limit, and one of
bots alone are in play when the server (and its bot workers) is killed with SIGKILL; a new
process on the same database (a SQLite file; a PostgreSQL server that keeps running) must resume
every table where it was: every acknowledged move
is in the history at its index (and a retry of it is answered as before), people go on with
their tokens, bots carry on to the end, and no clock is charged for the time no server ran.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import pytest
import sqlalchemy

from .served import Serve, Server, serve, wait_for

__all__ = ["serve"]  # the fixture

DEADLINE = 60.0
"""Seconds to wait for a condition: generous, the machine may be busy; never a measure."""

DOWNTIME = 3.0
"""Seconds between the kill and the new start: longer than the ``away`` limit below and than
the server's 1-second heartbeat, so a clock charged for the downtime cannot pass unseen."""

AWAY = 3.0
"""The ``away`` limit of the table whose person is to move, unconnected, across the crash."""


@dataclass
class Person:
    """A person's seat at a table, and every answer the server acknowledged to it."""

    table: str
    seat: int
    token: str
    answers: list[dict[str, Any]] = field(default_factory=list)
    moves: list[dict[str, Any]] = field(default_factory=list)
    """The requests that got those answers (a retry sends one again)."""

    @property
    def auth(self) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token}"}

    def view(self, server: Server) -> dict[str, Any]:
        view: dict[str, Any] = server.ok(
            "GET", f"/api/tables/{self.table}/view", params={"seat": self.seat}, headers=self.auth
        )
        return view

    def wait_turn(self, server: Server) -> dict[str, Any]:
        """The seat's view once it must move (or the game is over)."""
        deadline = time.monotonic() + DEADLINE
        while time.monotonic() < deadline:
            view = self.view(server)
            if view["status"] == "over" or (self.seat in view["to_move"] and view["legal_actions"]):
                return view
            time.sleep(0.01)
        pytest.fail(f"seat {self.seat} of {self.table} never came to move")

    def move(self, server: Server) -> dict[str, Any]:
        """Wait for the seat's turn and make its first legal move; returns the view it saw."""
        view = self.wait_turn(server)
        if view["status"] == "over":
            return view
        request = {
            "seat": self.seat,
            "action": view["legal_actions"][0]["text"],
            "version": view["version"],
        }
        answer = server.ok(
            "POST", f"/api/tables/{self.table}/moves", json=request, headers=self.auth
        )
        assert answer["index"] >= view["version"] and answer["version"] > answer["index"]
        self.moves.append(request)
        self.answers.append(answer)
        return view


def create(server: Server, game: str, seats: list[dict[str, Any]], **extra: Any) -> str:
    body = {"game": game, "players": len(seats), "seats": seats, **extra}
    table: str = server.ok("POST", "/api/tables", json=body)["id"]
    return table


def join(server: Server, table: str, seat: int, name: str) -> Person:
    joined = server.ok("POST", f"/api/tables/{table}/seats/{seat}/join", json={"name": name})
    return Person(table, seat, joined["token"])


def seat_clock(view: dict[str, Any], seat: int) -> float:
    clock = view["seats"][seat]["clock"]
    assert isinstance(clock, float | int), view["seats"][seat]
    return float(clock)


def test_a_server_killed_mid_game_resumes_every_table(serve: Serve) -> None:
    first = serve()
    heuristic = {"kind": "bot", "bot": "heuristic"}
    short = {"target_score": 15}  # short games: the people play theirs to the end below
    # A person against a bot on a realtime clock (ten minutes each: nobody runs out here).
    duel_table = create(
        first,
        "royal-gambit",
        [{"kind": "person"}, heuristic],
        options=short,
        clock={"initial": 600, "increment": 2},
        seed=11,
    )
    duel = join(first, duel_table, 0, "Ann")
    # A person against two bots, no clock.
    party_table = create(
        first,
        "royal-gambit",
        [{"kind": "person"}, heuristic, {"kind": "bot"}],
        options=short,
        seed=12,
    )
    party = join(first, party_table, 0, "Bea")
    for _ in range(3):
        duel.move(first)
        party.move(first)
    retried = first.http.post(
        f"/api/tables/{duel.table}/moves", json=duel.moves[-1], headers=duel.auth
    )
    assert retried.json() == duel.answers[-1]  # a retry is answered the same way
    # The duel's person is to move, so their clock runs up to the kill.
    read_before = time.time()
    duel_view = duel.wait_turn(first)
    read_after = time.time()
    assert duel_view["status"] == "playing" and duel_view["seats"][0]["clock_running"]
    left_before = seat_clock(duel_view, 0)
    duel_version = duel_view["version"]
    # A person to move with no connection, whose away limit would run out in the downtime.
    idle = join(
        first,
        create(
            first, "royal-gambit", [{"kind": "person"}, heuristic], clock={"away": AWAY}, seed=14
        ),
        0,
        "Cy",
    )
    assert 0 in idle.wait_turn(first)["to_move"]
    # Bots alone, mid-game when the server dies: created last and thinking a little (a game of
    # some hundred steps), so that on a busy machine it cannot end before the kill.
    thinker = {"kind": "bot", "bot": "ismcts", "options": {"iterations": 150}}
    bots = create(first, "crush-the-crown", [thinker] * 2, seed=13)
    wait_for(lambda: first.ok("GET", f"/api/tables/{bots}")["version"] >= 4, "the bots play")
    tables = {table: first.ok("GET", f"/api/tables/{table}") for table in (party.table, bots)}
    assert tables[bots]["status"] == "playing"
    killed_at = time.time()
    first.kill()
    # The last moment the server was known alive (it notes it once a second): its clocks are
    # charged up to there, the rest of the time until the new start is the downtime.
    engine = sqlalchemy.create_engine(first.database_url)
    with engine.connect() as database:
        last_alive = database.execute(sqlalchemy.text("SELECT max(at) FROM heartbeats")).scalar()
    engine.dispose()
    assert killed_at - 10 < last_alive <= killed_at

    time.sleep(DOWNTIME)
    second = serve()
    duel_view = duel.view(second)
    read_again = time.time()

    # Every table is where it was (its bots may have moved on since): the duel's person was to
    # move, so nothing moved there.
    assert duel_view["status"] == "playing"
    assert duel_view["version"] == duel_version and 0 in duel_view["to_move"]
    for table, before in tables.items():
        assert second.ok("GET", f"/api/tables/{table}")["version"] >= before["version"]
    # Every acknowledged move is stored at its index: a retry of each, answered by the new
    # process from the database alone, gets the very same answer.
    for person in (duel, party):
        for request, answer in zip(person.moves, person.answers, strict=True):
            again = second.http.post(
                f"/api/tables/{person.table}/moves", json=request, headers=person.auth
            )
            assert again.status_code == 200, again.text
            assert again.json() == answer

    # The clock: charged for the time it ran before the kill (up to the last heartbeat), not
    # for the downtime; it runs again from the new start. ``left_before`` was read between
    # ``read_before`` and ``read_after``, ``left_after`` at most ``ran_since_start`` after the
    # new process started.
    left_after = seat_clock(duel_view, 0)
    assert duel_view["seats"][0]["clock_running"]
    ran_since_start = read_again - second.started_at
    most = left_before - (last_alive - read_after) + 0.01
    least = left_before - (last_alive - read_before) - ran_since_start - 0.01
    assert least <= left_after <= most, (least, left_after, most)
    assert any("the server was down" in notice["text"] for notice in duel_view["notices"])

    # People go on with the same tokens, bots carry on: every game is played to the end.
    for person in (duel, party):
        while person.move(second)["status"] != "over":
            pass
    wait_for(
        lambda: all(
            second.ok("GET", f"/api/tables/{table}")["status"] == "over"
            for table in (bots, idle.table)
        ),
        "the bots' games are over",
    )
    for person in (duel, party):
        history = second.ok("GET", f"/api/tables/{person.table}/record")["history"]
        for answer in person.answers:
            assert history[answer["index"]] == [f"p{person.seat}", answer["action"]], answer
    record = second.ok("GET", f"/api/tables/{bots}/record")
    assert len(record["history"]) == second.ok("GET", f"/api/tables/{bots}")["version"]
    assert len(record["history"]) > tables[bots]["version"]

    # The away limit counts from the new start, not across the downtime.
    notices = idle.view(second)["notices"]
    down = [notice for notice in notices if "the server was down" in notice["text"]]
    assert down, notices
    for notice in notices:
        if "is away" in notice["text"] and notice["at"] > killed_at:
            assert notice["at"] >= down[0]["at"] + AWAY - 0.05, notices
    assert "Traceback" not in second.log.read_text(errors="replace"), second.log_tail()
