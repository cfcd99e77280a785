"""Clocks and absence: a seat's clock runs only while it must move and gains its increment
after its move; a seat out of time (realtime clock or turn-based time per move) or away too long
is played by its bot, said in the view's notices, until its person takes it back.

The durations are tiny (a fraction of a second) and the server checks its clocks every 0.25 s;
the tests wait for conditions with generous deadlines and never assert how long anything took.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

import pytest
from fastapi.testclient import TestClient

DEADLINE = 30.0
"""Seconds to wait for a condition: generous, the machine may be busy; never a measure."""

LONG_GAME = {"target_score": 300}
"""Royal Gambit to 300 points: the bots cannot finish it while a test looks at it."""


def wait_for(condition: Callable[[], Any], what: str) -> Any:
    """The first true value of ``condition()``, polled until the deadline."""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.01)
    pytest.fail(f"timed out waiting until {what}")


class Seat:
    """A person's seat at a table, through the REST API."""

    def __init__(self, client: TestClient, table: str, seat: int, name: str) -> None:
        self.client = client
        self.table = table
        self.seat = seat
        joined = client.post(f"/api/tables/{table}/seats/{seat}/join", json={"name": name})
        assert joined.status_code == 200, joined.text
        self.auth = {"Authorization": f"Bearer {joined.json()['token']}"}

    def view(self) -> dict[str, Any]:
        response = self.client.get(
            f"/api/tables/{self.table}/view", params={"seat": self.seat}, headers=self.auth
        )
        assert response.status_code == 200, response.text
        view: dict[str, Any] = response.json()
        return view

    def to_move(self) -> dict[str, Any] | None:
        view = self.view()
        return view if self.seat in view["to_move"] and view["legal_actions"] else None

    def move(self, view: dict[str, Any], choice: int = 0) -> Any:
        return self.client.post(
            f"/api/tables/{self.table}/moves",
            json={
                "seat": self.seat,
                "action": view["legal_actions"][choice]["text"],
                "version": view["version"],
            },
            headers=self.auth,
        )

    def reclaim(self) -> dict[str, Any]:
        response = self.client.post(
            f"/api/tables/{self.table}/seats/{self.seat}/reclaim", headers=self.auth
        )
        assert response.status_code == 200, response.text
        summary: dict[str, Any] = response.json()
        return summary

    def notices(self, words: str) -> list[dict[str, Any]]:
        return [n for n in self.view()["notices"] if words in n["text"]]


def create(client: TestClient, seats: list[dict[str, Any]], **extra: Any) -> str:
    body = {"game": "royal-gambit", "players": len(seats), "seats": seats, **extra}
    response = client.post("/api/tables", json=body)
    assert response.status_code == 201, response.text
    table: str = response.json()["id"]
    return table


PERSON: dict[str, Any] = {"kind": "person"}
BOT: dict[str, Any] = {"kind": "bot", "bot": "heuristic"}


def clock_of(view: dict[str, Any], seat: int) -> float:
    clock = view["seats"][seat]["clock"]
    assert isinstance(clock, int | float), view["seats"][seat]
    return float(clock)


def running_below(seat: Seat, left: float) -> dict[str, Any] | None:
    """The seat's view once its clock shows less than ``left``."""
    view = seat.view()
    return view if clock_of(view, seat.seat) < left else None


def test_a_seat_clock_runs_only_while_it_must_move_and_gains_the_increment(
    client: TestClient,
) -> None:
    increment = 5.0
    table = create(
        client,
        [PERSON, PERSON],
        options=LONG_GAME,
        clock={"initial": 60, "increment": increment},
        seed=3,
    )
    seats = [Seat(client, table, 0, "Ann"), Seat(client, table, 1, "Bo")]
    gained = 0
    for _ in range(6):
        started = time.time()
        view = wait_for(lambda: seats[0].to_move() or seats[1].to_move(), "a seat must move")
        mover = seats[view["to_move"][0]]
        other = 1 - mover.seat
        left = clock_of(view, mover.seat)
        assert view["seats"][mover.seat]["clock_running"]
        assert not view["seats"][other]["clock_running"]
        # The mover's clock runs down; the other's stands still.
        later = wait_for(partial(running_below, mover, left), "the mover's clock runs")
        assert clock_of(later, other) == clock_of(view, other)
        moved = mover.move(later)
        assert moved.status_code == 200, moved.text
        finished = time.time()
        after = mover.view()
        if mover.seat in after["to_move"] and after["version"] == moved.json()["version"]:
            continue  # the same seat decides again (a turn goes on): no increment yet
        if after["seats"][mover.seat]["clock_running"]:
            continue  # to move again already (not between these two seats): skip
        stopped = clock_of(after, mover.seat)
        # What was left at the move, plus the increment: the move came at most
        # ``finished - started`` seconds after ``left`` was read (clocks show milliseconds).
        assert left + increment - (finished - started) - 0.01 <= stopped <= left + increment + 0.01
        gained += 1
    assert gained >= 2


def take_over_and_reclaim(client: TestClient, table: str, why: str) -> None:
    """Seat 0's person never moves: its bot takes over (a notice says why) and plays for it;
    the person takes the seat back with the same token and moves again."""
    person = Seat(client, table, 0, "Ann")
    notice = wait_for(lambda: person.notices(why), f"p0 {why}")[0]
    assert notice["text"].startswith("p0 ")
    view = person.view()
    assert view["seats"][0]["bot_control"]
    assert view["seats"][0]["bot"] == "heuristic"

    def bot_moved_for_p0() -> bool:
        log = person.view()["log"]
        return any(actor == "p0" for actor, _item in log[notice["version"] :])

    wait_for(bot_moved_for_p0, "the bot plays for p0")

    deadline = time.monotonic() + DEADLINE
    while True:
        assert time.monotonic() < deadline, "p0 never moved again"
        summary = person.reclaim()
        assert not summary["seats"][0]["bot_control"]
        assert person.notices("is back")
        turn = wait_for(
            lambda: person.to_move() or person.view()["seats"][0]["bot_control"], "p0's turn"
        )
        if turn is True:
            continue  # out of time again before this client moved (a busy machine): again
        moved = person.move(turn)
        if moved.status_code == 200:
            break
        assert moved.status_code == 409, moved.text  # taken over again meanwhile
    assert moved.json()["seat"] == 0


def test_a_seat_out_of_time_is_played_by_its_bot_until_its_person_takes_it_back(
    client: TestClient,
) -> None:
    table = create(client, [PERSON, BOT], options=LONG_GAME, clock={"initial": 0.3}, seed=5)
    take_over_and_reclaim(client, table, "ran out of time")


def test_a_turn_based_seat_out_of_time_is_played_by_its_bot_until_taken_back(
    client: TestClient,
) -> None:
    table = create(
        client,
        [PERSON, BOT],
        options=LONG_GAME,
        mode="turn-based",
        clock={"per_move": 0.3},
        seed=6,
    )
    take_over_and_reclaim(client, table, "ran out of time")


def test_a_person_away_too_long_is_taken_over_but_a_connected_one_is_not(
    client: TestClient,
) -> None:
    away = 0.5
    connected_table = create(client, [PERSON, BOT], options=LONG_GAME, clock={"away": away}, seed=7)
    connected = Seat(client, connected_table, 0, "Ann")
    with client.websocket_connect(f"/api/tables/{connected_table}/ws") as socket:
        socket.send_json({"seat": 0, "token": connected.auth["Authorization"][7:], "since": 0})
        assert socket.receive_json()["type"] == "view"
        wait_for(connected.to_move, "the connected person's turn")
        # Created after the connected one's turn began: once this one is taken over, the
        # connected one has been to move longer than the limit too.
        gone_table = create(client, [PERSON, BOT], options=LONG_GAME, clock={"away": away}, seed=7)
        gone = Seat(client, gone_table, 0, "Bo")
        wait_for(gone.to_move, "the unconnected person's turn")
        wait_for(lambda: gone.notices("is away"), "the unconnected person is taken over")
        assert gone.view()["seats"][0]["bot_control"]
        # A few more checks of the clocks (every 0.25 s) for the connected one.
        time.sleep(4 * away)
        view = connected.view()
        assert not view["seats"][0]["bot_control"], view["notices"]
        assert not connected.notices("is away")
        assert 0 in view["to_move"]
    # Gone now: past the limit again, it is taken over too.
    wait_for(lambda: connected.notices("is away"), "the person who left is taken over")
