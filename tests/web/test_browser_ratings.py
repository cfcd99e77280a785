"""People's pages in Chromium against a real server: after a few rated games, a profile with
its rating drawn, the leaderboard, and My games with "your turn" first, a click away from every
page; each person in a browser context of their own ("devices").

Two people sign up and play rated Royal Gambit tables through the API (random legal moves from
each seat's own view), joined signed in: the seats are theirs.
"""

from __future__ import annotations

import random
import re
import sqlite3
import time
from collections.abc import Callable, Iterator
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Page, expect

from .browsing import PHONE, WAIT_MS, Server, no_horizontal_scroll, running_server
from .test_browser_access import assert_accessible

PASSWORD = "correct horse battery"
CSRF_HEADER = "X-Courtly-CSRF"
GAME = "royal-gambit"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The browser tests' server, with a leaderboard that shows people after two rated games."""
    yield from running_server(
        tmp_path_factory.mktemp("people-server"), ["--leaderboard-min-games", "2"]
    )


class Person:
    """Someone signed up over the API, with their cookie."""

    def __init__(self, server: Server, name: str) -> None:
        self.name = name
        self.http = httpx2.Client(base_url=server.url, timeout=30)
        response = self.http.post("/api/account", json={"name": name, "password": PASSWORD})
        assert response.status_code == 201, response.text
        me = response.json()
        self.id: str = me["id"]
        self.csrf: str = me["csrf"]

    def join(self, table: str, seat: int) -> str:
        response = self.http.post(
            f"/api/tables/{table}/seats/{seat}/join", json={}, headers={CSRF_HEADER: self.csrf}
        )
        assert response.status_code == 200, response.text
        return str(response.json()["token"])

    def sign_in_page(self, page: Page) -> None:
        """The browser context of ``page`` holds this person's session."""
        response = page.request.post(
            "/api/account/session", data={"name": self.name, "password": PASSWORD}
        )
        assert response.ok, response.text()


def rated_table(server: Server, people: list[Person]) -> tuple[str, list[str]]:
    table = server.ok(
        "POST",
        "/api/tables",
        json={"game": GAME, "seats": [{"kind": "person"}] * 2, "rated": True},
    )["id"]
    tokens = []
    for seat, person in enumerate(people):
        tokens.append(person.join(table, seat))
    return table, tokens


def play(server: Server, table: str, tokens: list[str], seed: int, moves: int = 10_000) -> None:
    """Random legal moves from each seat's own view: ``moves`` of them, or to the end."""
    rng = random.Random(seed)
    for _ in range(moves):
        shown = server.ok("GET", f"/api/tables/{table}/view")
        if shown["status"] != "playing":
            return
        seat = shown["to_move"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        mine = server.ok("GET", f"/api/tables/{table}/view", params={"seat": seat}, headers=auth)
        choice = rng.choice(mine["legal_actions"])
        server.ok(
            "POST",
            f"/api/tables/{table}/moves",
            json={"seat": seat, "action": choice["text"], "version": mine["version"]},
            headers=auth,
        )


def waiting_for_seat_0(server: Server, people: list[Person]) -> str:
    """A rated table of ``people`` in play where seat 0 is to move. Its deal is secret, so the
    first mover is drawn: the other seat plays (a few moves at most; a Royal Gambit game lasts
    many rounds) until seat 0's turn."""
    table, tokens = rated_table(server, people)
    for seed in range(50):
        shown = server.ok("GET", f"/api/tables/{table}/view")
        if shown["status"] != "playing" or shown["to_move"] == [0]:
            break
        play(server, table, tokens, seed, moves=1)
    assert shown["status"] == "playing" and shown["to_move"] == [0], shown["status"]
    return table


def settled(server: Server, table: str) -> bool:
    file = server.file
    with sqlite3.connect(file, timeout=30) as connection:
        (count,) = connection.execute(
            "SELECT count(*) FROM rating_changes WHERE table_id = ?", (table,)
        ).fetchone()
    return bool(count == 4)


def wait_until(condition: Callable[[], Any], what: str) -> None:
    deadline = time.monotonic() + WAIT_MS / 1000
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"waited for {what}")


def test_profile_leaderboard_and_my_games_after_rated_games(
    new_page: Callable[..., Page], server: Server
) -> None:
    anna, bert = Person(server, "Anna"), Person(server, "Bert")
    finished = []
    for seed in range(3):
        table, tokens = rated_table(server, [anna, bert])
        play(server, table, tokens, seed)
        finished.append(table)
    wait_until(lambda: all(settled(server, table) for table in finished), "the tables rated")
    # Two tables in play: one waits for Anna, one for Bert; and one open.
    waiting_for_anna = waiting_for_seat_0(server, [anna, bert])
    waiting_for_bert = waiting_for_seat_0(server, [bert, anna])
    open_table = server.ok(
        "POST", "/api/tables", json={"game": GAME, "seats": [{"kind": "person"}] * 2}
    )["id"]
    anna.join(open_table, 0)

    # Anna, on a device of her own, signed in: My games is a click away from the lobby.
    page = new_page()
    anna.sign_in_page(page)
    page.goto("/")
    lobby_games = page.locator(".my-games .my-games-list > li[data-table]")
    expect(lobby_games.first).to_be_visible()
    page.get_by_role("link", name="My games").first.click()
    expect(page.get_by_role("heading", name="My games", level=1)).to_be_visible()
    listed = page.locator(".my-games-list > li[data-table]")
    expect(listed).to_have_count(6)
    order = listed.evaluate_all("items => items.map(item => item.dataset.table)")
    assert order[:2] == [waiting_for_anna, waiting_for_bert]
    expect(listed.first).to_contain_text("Your turn")
    expect(listed.first).to_have_class("panel your-turn")
    assert order[2] == open_table and set(order[3:]) == set(finished)
    expect(listed.nth(2)).to_contain_text("Waiting for players")
    problems: list[str] = []
    assert_accessible(page, "my games", problems)

    # The leaderboard of Royal Gambit: both have played three rated games.
    page.get_by_role("link", name="Leaderboards").click()
    rows = page.locator(".leaderboard tbody tr")
    expect(rows).to_have_count(2)
    expect(page.locator(".leaderboard")).to_contain_text("Anna")
    expect(page.locator(".leaderboard")).to_contain_text("Bert")
    assert_accessible(page, "leaderboard", problems)

    # Bert's profile, from the leaderboard, on a guest's device: no sign-in needed to look.
    guest = new_page()
    guest.goto("/leaderboards/royal-gambit")
    guest.get_by_role("link", name="Bert").click()
    expect(guest.get_by_role("heading", name="Bert", level=1)).to_be_visible()
    expect(guest.locator(".profile")).to_contain_text("Royal Gambit")
    charts = guest.locator(".rating-chart svg")
    expect(charts).to_have_count(2)  # two players, and every count
    expect(charts.first.locator("circle")).to_have_count(3)
    recent = guest.locator(".recent-games li")
    expect(recent).to_have_count(3)
    assert_accessible(guest, "profile", problems)
    guest.set_viewport_size(PHONE)
    no_horizontal_scroll(guest)
    guest.set_viewport_size({"width": 1280, "height": 720})
    recent.first.get_by_role("link", name="Replay").click()
    expect(guest).to_have_url(re.compile(rf"/table/{re.escape(finished[-1])}/replay"))

    # A guest's My games asks them to sign in.
    guest.goto("/my-games")
    expect(guest.locator(".my-games-page")).to_contain_text("Sign in to see your games")
    # A rated table's join page says so, and a guest's join is refused in words.
    rated_open = server.ok(
        "POST", "/api/tables", json={"game": GAME, "seats": [{"kind": "person"}] * 2, "rated": True}
    )["id"]
    anna.join(rated_open, 0)
    guest.goto(f"/table/{rated_open}?seat=1")
    expect(guest.get_by_test_id("rated-note")).to_contain_text("rated game")
    guest.get_by_role("button", name="Join seat p1").click()
    expect(guest.locator("[role=alert], .error").first).to_contain_text("sign in first")
    assert not problems, "\n\n".join(problems)
