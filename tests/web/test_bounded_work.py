"""Bounded work: a search bot thinks no more per move than the server's caps allow, and the
worker processes are shared between tables fairly, so that no table (a bot at the cap, a
review's hundreds of searches) holds another table's bot or hint for more than one job.

The caps are checked where tables are made, on SQLite and on PostgreSQL; the sharing with one
real worker process, where a table's jobs would otherwise queue behind another's.
"""

from __future__ import annotations

import operator
import threading
import time
from collections.abc import Callable, Hashable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

import courtly
from courtly.web import create_app
from courtly.web.budgets import BotBudget
from courtly.web.limits import NO_LIMITS
from courtly.web.workers import FairPool

from .test_api import WAIT, bearer, create, join, view, wait_for

CAP = 3000
"""The cap on a search bot's iterations per move in these tests."""
SECONDS_CAP = 2.0


@pytest.fixture
def app(database_url: str) -> FastAPI:
    return create_app(
        database_url,
        bot_pace=0,
        bot_workers=-1,
        bot_max_iterations=CAP,
        bot_max_seconds=SECONDS_CAP,
        limits=NO_LIMITS,
    )


def ismcts(**options: Any) -> dict[str, Any]:
    return {"kind": "bot", "bot": "ismcts", "options": options}


# ---------------------------------------------------------------------------------- the caps


@pytest.mark.parametrize(
    ("options", "detail"),
    [
        ({"iterations": 1_000_000_000}, f"ismcts iterations may be at most {CAP} on this server"),
        ({"iterations": CAP + 1}, f"ismcts iterations may be at most {CAP} on this server"),
        ({"seconds": 1e9}, "ismcts seconds may be at most 2 on this server"),
        ({"seconds": 2.5, "iterations": 10}, "ismcts seconds may be at most 2 on this server"),
    ],
)
def test_a_search_bot_over_the_cap_is_refused_naming_the_cap(
    client: TestClient, options: dict[str, Any], detail: str
) -> None:
    response = client.post(
        "/api/tables", json={"game": "crush-the-crown", "seats": [ismcts(**options), {}]}
    )
    assert response.status_code == 400, response.text
    assert detail in response.json()["detail"]
    assert client.get("/api/tables").json() == []


def test_a_search_bot_at_the_cap_is_taken(client: TestClient) -> None:
    for options in ({"iterations": CAP}, {"seconds": SECONDS_CAP}, {}):
        create(client, game="crush-the-crown", seats=[ismcts(**options), {"kind": "person"}])
    # A time budget counts seconds, not iterations: its iterations are not capped.
    create(
        client,
        game="crush-the-crown",
        seats=[ismcts(seconds=1.0, iterations=10 * CAP), {"kind": "person"}],
    )


def test_a_cap_below_the_bots_default_refuses_the_default(database_url: str) -> None:
    app = create_app(
        database_url, bot_pace=0, bot_workers=-1, bot_max_iterations=100, limits=NO_LIMITS
    )
    with TestClient(app) as client:
        seats = [ismcts(), {"kind": "person"}]
        response = client.post("/api/tables", json={"game": "royal-gambit", "seats": seats})
        assert response.status_code == 400
        assert "at most 100 on this server, not 500" in response.json()["detail"]
        create(client, game="royal-gambit", seats=[ismcts(iterations=100), {"kind": "person"}])


def test_the_catalogue_gives_the_caps_of_this_server(client: TestClient) -> None:
    for game in client.get("/api/games").json():
        (search,) = [bot for bot in game["bots"] if bot["name"] == "ismcts"]
        options = {option["name"]: option for option in search["options"]}
        assert options["iterations"]["maximum"] == CAP
        assert options["iterations"]["allowed"] == f"an integer from 1 to {CAP}"
        assert options["seconds"]["maximum"] == SECONDS_CAP
        assert options["iterations"]["minimum"] == 1


def test_a_stored_bot_thinks_within_the_caps() -> None:
    """A table stored before the caps were lowered: its bot thinks within them."""
    budget = BotBudget(CAP, SECONDS_CAP)
    game = courtly.make("crush-the-crown")
    assert budget.capped("ismcts:iterations=1000000000", game) == f"ismcts:iterations={CAP}"
    assert budget.capped("ismcts:seconds=600:c=1.5", game) == "ismcts:seconds=2:c=1.5"
    for within in ("ismcts:iterations=10", "ismcts", "heuristic", "random"):
        assert budget.capped(within, game) == within
    low = BotBudget(100, SECONDS_CAP)
    assert low.capped("ismcts", game) == "ismcts:iterations=100"  # its default is 500


# ---------------------------------------------------------------------------------- sharing


def test_the_pool_serves_its_owners_round_robin() -> None:
    """One worker; a table with ten jobs waiting, then two tables with one job each: each of
    those starts after one more of the first table's jobs at most, not after all ten."""
    started: list[str] = []
    gate = threading.Event()

    def job(name: str) -> str:
        if name == "A0":
            gate.wait(WAIT)
        started.append(name)
        return name

    with ThreadPoolExecutor(max_workers=1) as executor:
        pool = FairPool(executor, slots=1)
        futures = [pool.submit("A", job, f"A{n}") for n in range(10)]
        deadline = time.monotonic() + WAIT
        while pool.waiting() != 9 and time.monotonic() < deadline:
            time.sleep(0.001)  # A0 is running
        futures += [pool.submit("B", job, "B0"), pool.submit("C", job, "C0")]
        gate.set()
        assert [future.result(WAIT) for future in futures][-2:] == ["B0", "C0"]
        pool.shutdown()
    assert started[:4] == ["A0", "A1", "B0", "C0"]
    assert started[4:] == [f"A{n}" for n in range(2, 10)]


def test_a_shut_down_pool_leaves_nobody_waiting() -> None:
    gate = threading.Event()
    with ThreadPoolExecutor(max_workers=1) as executor:
        pool = FairPool(executor, slots=1)
        first = pool.submit("A", gate.wait, WAIT)
        deadline = time.monotonic() + WAIT
        while pool.waiting() != 0 and time.monotonic() < deadline:
            time.sleep(0.001)
        waiting = pool.submit("A", gate.wait, WAIT)
        pool.shutdown()
        assert waiting.cancelled()
        # Told to whoever waits for it as a review's searcher does, not only to result().
        assert next(as_completed([waiting], timeout=WAIT)) is waiting
        # Nobody waits for a shut-down pool: the running job's waiter is failed at once.
        with pytest.raises(RuntimeError, match="shut down"):
            first.result(WAIT)
        gate.set()
        with pytest.raises(RuntimeError):
            pool.submit("A", gate.wait, 0)


@pytest.fixture
def one_worker(tmp_path: Path) -> Iterator[TestClient]:
    """A server with one real worker process, search bots capped at 2,000 iterations, small
    hints and reviews (the sharing does not depend on the database)."""
    app = create_app(
        f"sqlite:///{tmp_path / 'courtly.sqlite3'}",
        bot_pace=0,
        bot_workers=1,
        hint_iterations=200,
        review_iterations=400,
        bot_max_iterations=2000,
        limits=NO_LIMITS,
    )
    with TestClient(app) as client:
        yield client


def decisions(client: TestClient, table: str) -> int:
    """The moves (not chance events) played at ``table`` so far."""
    return sum(1 for actor, _item in view(client, table, None)["log"] if actor != "chance")


def move_and_wait_for_the_bot(client: TestClient, table: str, token: str, version: int) -> None:
    """The person of ``table`` (seat 0) moves; back once the bot has answered."""
    action = view(client, table, 0, token)["legal_actions"][0]["id"]
    moved = client.post(
        f"/api/tables/{table}/moves",
        json={"seat": 0, "action": action, "version": version},
        headers=bearer(token),
    )
    assert moved.status_code == 200, moved.text
    mine = decisions(client, table)
    wait_for(lambda: decisions(client, table) > mine, "the other table's bot")


def person_and_bot(client: TestClient, bot: dict[str, Any], seed: int) -> tuple[str, str, int]:
    """A Royal Gambit table of a person and ``bot`` where the person is to move: its id, the
    person's token and the version."""
    for attempt in range(seed, seed + 50):
        table = create(client, game="royal-gambit", seats=[{"kind": "person"}, bot], seed=attempt)
        token = join(client, table["id"], 0)
        now = view(client, table["id"], None)
        if now["to_move"] == [0]:
            return table["id"], token, now["version"]
    raise AssertionError("no deal where the person starts")


class StartOrder:
    """Whose jobs a server's pool was asked for, and whose it started, in order: the events
    the sharing is about, free of the timing of the requests that watch it."""

    def __init__(self, pool: FairPool) -> None:
        self.events: list[tuple[str, Hashable]] = []
        self._asked: list[tuple[Hashable, tuple[Any, ...]]] = []
        self._lock = threading.Lock()
        submit, executor = pool.submit, pool.executor

        def asking(owner: Hashable, fn: Callable[..., Any], *args: Any) -> Future[Any]:
            with self._lock:
                self.events.append(("asked", owner))
                self._asked.append((owner, args))
            return submit(owner, fn, *args)

        def starting(fn: Callable[..., Any], *args: Any) -> Future[Any]:
            with self._lock:
                for n, (owner, asked) in enumerate(self._asked):
                    if len(asked) == len(args) and all(map(operator.is_, asked, args)):
                        self.events.append(("started", owner))
                        del self._asked[n]
                        break
            return executor.submit(fn, *args)

        # The pool looks both up on itself at each job: these see every job from now on.
        pool.submit = asking  # type: ignore[method-assign]
        pool.executor = SimpleNamespace(submit=starting)  # type: ignore[assignment]

    def started_before(self, first: Hashable, others: Hashable) -> int:
        """How many of ``others``' jobs started after ``first`` asked for its first job and
        before that job started."""
        with self._lock:
            events = list(self.events)
        asked = events.index(("asked", first))
        started = events.index(("started", first), asked)
        return sum(1 for event in events[asked:started] if event == ("started", others))


def test_a_bot_at_the_cap_delays_another_tables_bot_and_a_hint_by_one_move(
    one_worker: TestClient,
) -> None:
    client = one_worker
    capped = create(
        client, game="royal-gambit", seats=[ismcts(iterations=2000), ismcts(iterations=2000)]
    )["id"]
    wait_for(lambda: decisions(client, capped) >= 1, "the capped table's first move")
    other, token, version = person_and_bot(client, ismcts(iterations=100), seed=100)
    helped, helped_token, helped_version = person_and_bot(client, {"kind": "bot"}, seed=200)
    server = cast(Any, client.app).state.server
    order = StartOrder(server.bots.pool)

    hint: dict[str, Any] = {}
    asking = threading.Thread(
        target=lambda: hint.update(
            client.post(
                f"/api/tables/{helped}/hint",
                json={"seat": 0, "version": helped_version},
                headers=bearer(helped_token),
            ).json()
        )
    )
    asking.start()
    move_and_wait_for_the_bot(client, other, token, version)
    asking.join(WAIT)
    assert hint.get("actions"), hint
    # Each waited for the capped table's next move at most (the one under way when they asked
    # is not counted: it had started), never for a queue of them.
    assert ("started", capped) in order.events
    assert order.started_before(other, capped) <= 1, order.events
    assert order.started_before(helped, capped) <= 1, order.events


def test_a_review_does_not_hold_another_tables_bot(one_worker: TestClient) -> None:
    client = one_worker
    finished = create(
        client,
        game="royal-gambit",
        seats=[{"kind": "bot", "bot": "random"}] * 2,
        seed=7,
    )["id"]
    wait_for(lambda: view(client, finished, None)["status"] == "over", "the bots' game to end")
    other, token, version = person_and_bot(client, ismcts(iterations=100), seed=300)
    # The worker process is started, and warm, before the race.
    started = client.post(f"/api/tables/{other}/hint", json={"seat": 0, "version": version})
    assert started.status_code == 401  # (no token: refused before any search)

    review = client.post(f"/api/tables/{finished}/review")
    assert review.status_code == 202, review.text

    def progress() -> dict[str, Any]:
        answer: dict[str, Any] = client.get(f"/api/tables/{finished}/review").json()
        return answer

    wait_for(lambda: progress()["done"] >= 1, "the review's first search")
    at_start = progress()
    assert at_start["total"] > 40, at_start  # hundreds of searches wait in the pool
    move_and_wait_for_the_bot(client, other, token, version)
    then = progress()
    # The review's searches took their turn with the bot's: a few ran while the server got the
    # bot to think (its choice is asked a few steps after the person's move), not all of them,
    # as they would have in a queue served in order.
    assert then["status"] == "running", then
    assert then["done"] - at_start["done"] <= at_start["total"] // 10, (at_start, then)
