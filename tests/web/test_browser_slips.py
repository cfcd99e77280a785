"""The small slips a new player met, each kept fixed, in a real Chromium against a real
``courtly serve``: a game's title as the catalogue spells it, after a reload too; "1 seat
taken"; a missing table offers nothing to watch and no review to try again; a host waiting for a
friend is not told of a first move nobody may make yet.

The fixtures (``server``, ``browser``, ``new_page``) and helpers are in :mod:`tests.web.browsing`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, Route, expect

from .browsing import GAMES, Server, photograph


def table_of_people(server: Server, game: str, players: int) -> str:
    table = server.ok(
        "POST",
        "/api/tables",
        json={"game": game, "players": players, "seats": [{"kind": "person"}] * players, "seed": 1},
    )["id"]
    return str(table)


def seated(page: Page, server: Server, table: str, seat: int, name: str) -> None:
    """``name`` joins ``table`` at ``seat`` through the API; this page holds the seat's token."""
    token = server.ok("POST", f"/api/tables/{table}/seats/{seat}/join", json={"name": name})
    page.goto("/")
    page.evaluate(
        "([k, t]) => localStorage.setItem(k, t)", [f"courtly.token.{table}.{seat}", token["token"]]
    )


def test_a_game_s_title_is_the_catalogue_s_after_a_reload_too(
    new_page: Callable[..., Page], server: Server
) -> None:
    """The catalogue writes "Crush the Crown"; the page never makes "Crush The Crown" of its id,
    even when the catalogue does not come after a reload."""
    table = table_of_people(server, "crush-the-crown", 2)
    page = new_page()
    page.goto(f"/table/{table}")
    heading = page.locator("h1.table-title")
    expect(heading).to_have_text(re.compile(r"^Crush the Crown · watching$"))
    expect(page.locator(".rules-panel summary")).to_have_text("Rules of Crush the Crown")

    def refused(route: Route) -> None:
        route.abort()

    page.route(re.compile(r"/api/games$"), refused)
    page.reload()
    page.locator(".table-page").wait_for()
    assert heading.inner_text() == "Crush the Crown · watching"
    assert page.locator(".rules-panel summary").inner_text() == "Rules of Crush the Crown"


def test_an_invitation_counts_one_seat_taken(new_page: Callable[..., Page], server: Server) -> None:
    table = table_of_people(server, "royal-gambit", 3)
    host = new_page()
    seated(host, server, table, 0, "Ann")
    friend = new_page()
    friend.goto(f"/table/{table}?seat=1")
    invitation = friend.get_by_text("You are invited to play seat p1")
    expect(invitation).to_contain_text("(3 players, 1 seat taken)")


@pytest.mark.parametrize(
    "path",
    ["/table/{missing}?seat=1", "/table/{missing}", "/table/{missing}/review"],
    ids=["invitation", "table", "review"],
)
def test_a_missing_table_offers_nothing_to_watch_nor_to_try_again(
    new_page: Callable[..., Page], server: Server, path: str
) -> None:
    page = new_page()
    page.goto(path.format(missing="no-such-table"))
    lobby = page.get_by_role("link", name=re.compile("lobby", re.IGNORECASE))
    lobby.wait_for()
    assert page.locator("main [role=alert], main h1").count() >= 1
    assert page.get_by_role("link", name=re.compile("watch", re.IGNORECASE)).count() == 0
    assert page.get_by_role("button", name="Try again").count() == 0
    assert page.get_by_role("link", name=re.compile("review|replay", re.IGNORECASE)).count() == 0


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_host_waiting_for_a_friend_is_told_of_no_move_yet(
    new_page: Callable[..., Page], server: Server, game: str
) -> None:
    """The game's first mover is set before every seat is taken: the host's page says the
    table waits for players, and names no one to move, no move and no turn, until they come."""
    players = 4 if game == "goths-save-the-queen" else 2
    table = table_of_people(server, game, players)
    host = new_page()
    seated(host, server, table, 0, "Ann")
    host.goto(f"/table/{table}?seat=0")
    host.locator(".table-page[data-status=open]").wait_for()
    more = players - 1
    expect(host.get_by_test_id("turn")).to_have_text(
        f"Waiting for {more} more {'player' if more == 1 else 'players'} to join"
    )
    board = host.locator("[data-board]")
    assert board.locator("[data-decision]").get_attribute("data-decision") == "waiting-for-players"
    page_text = host.locator("main").inner_text()
    assert not re.search(r"Waiting for p\d", page_text), page_text
    assert host.locator(".badge-turn, .seat.to-move, .board-seat-to-move").count() == 0
    assert host.get_by_role("heading", name="Your moves").count() == 0
    assert host.locator("button.action").count() == 0
    photograph(host, f"waiting-for-a-friend-{game}")

    # The friends come: the game starts, and the host's page names who is to move.
    for seat in range(1, players):
        server.ok("POST", f"/api/tables/{table}/seats/{seat}/join", json={"name": f"F{seat}"})
    host.locator(".table-page[data-status=playing]").wait_for()
    expect(host.get_by_test_id("turn")).not_to_contain_text("to join")
