"""God Save The King's and Crush the Crown's tables in a real Chromium against a real server.

For each game a person plays bots to the end through the page alone: a card is played by clicking
it on the board and then the move naming it in the moves panel; other moves by their buttons.
At every position where the person is to move, every face-up card on the page must be one the
seat's own view (from the API, with the page's token) names: the board draws only from it.
With ``COURTLY_SCREENSHOTS`` set, each board is photographed on a desktop, on a 375-pixel phone
and in dark mode.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from .browsing import (
    ALONE_TO_MOVE,
    PHONE,
    SCREENSHOTS,
    Server,
    cards_in,
    cards_shown,
    create_through_the_form,
    no_horizontal_scroll,
    photograph,
    play_to_end_by_cards,
)


def seat_view(server: Server, page: Page, table: str, seat: int) -> dict[str, Any]:
    token = page.evaluate("key => localStorage.getItem(key)", f"courtly.token.{table}.{seat}")
    assert token, f"the page of p{seat} keeps its token"
    view: dict[str, Any] = server.ok(
        "GET",
        f"/api/tables/{table}/view",
        params={"seat": seat},
        headers={"Authorization": f"Bearer {token}"},
    )
    return view


class Watcher:
    """Called at each of the person's turns (play_to_end_by_cards' ``on_turn``): checks that every
    face-up card on the page is named by the seat's view from the API, and photographs the
    page the first time each CSS selector of ``photographs`` matches on it (a decision, a spy)."""

    def __init__(
        self, server: Server, page: Page, table: str, photographs: dict[str, str] | None = None
    ) -> None:
        self.server, self.page, self.table = server, page, table
        self.photographs = dict(photographs or {})
        self.checked = 0

    def __call__(self, moves: int) -> None:
        self.check()
        for selector, name in list(self.photographs.items()):
            if self.page.locator(selector).count():
                photograph_board(self.page, name)
                del self.photographs[selector]

    def check(self) -> None:
        view = seat_view(self.server, self.page, self.table, 0)
        at = int(self.page.locator(".table-page").get_attribute("data-version") or -1)
        assert view["version"] == at, "the page stands still while its seat alone is to move"
        extra = cards_shown(self.page) - cards_in(view)
        assert not extra, f"the page shows cards its seat's view does not name: {sorted(extra)}"
        self.checked += 1


def photograph_board(page: Page, name: str) -> None:
    """The page, and its board alone (for the README, and to look at it closely)."""
    photograph(page, name)
    if SCREENSHOTS:
        board = Path(SCREENSHOTS) / f"{name}-board.png"
        page.locator("[data-board]").screenshot(path=str(board), animations="disabled")


def photograph_everywhere(page: Page, name: str) -> None:
    """The page and its board on a desktop, on a phone (no sideways scrolling), in dark mode."""
    photograph_board(page, name)
    size = page.viewport_size
    page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"]})
    no_horizontal_scroll(page)
    photograph_board(page, f"{name}-phone")
    page.emulate_media(color_scheme="dark")
    photograph_board(page, f"{name}-phone-dark")
    if size:
        page.set_viewport_size(size)
    photograph_board(page, f"{name}-dark")
    page.emulate_media(color_scheme="light")


def test_god_save_the_king_played_by_clicking_cards(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page()
    table = create_through_the_form(
        page, "god-save-the-king", ["person", "random", "heuristic"], seed=11
    )
    board = page.locator("[data-board=god-save-the-king]")
    board.wait_for()
    # Three seats' areas, the trick of p0 and p1 with its two formations, the hand of 13 cards.
    assert board.locator(".gsk-seat").count() == 3
    board.get_by_role("heading", name="Your hand").wait_for()
    hand = board.locator(".gsk-hand [data-pick]")
    hand.nth(12).wait_for()
    assert hand.count() == 13
    assert board.get_by_role("group", name="Your formation").count() == 1
    assert board.locator("[data-decision=formation]").count() == 1
    assert "Lay your formation" in board.locator(".gsk-decision").inner_text()

    # A card clicked is picked: the moves panel offers the move naming it, to confirm (once p1
    # has laid its formation: a new view forgets the card picked).
    page.wait_for_function(ALONE_TO_MOVE, arg=0)
    first = hand.first
    code = first.get_attribute("data-pick")
    first.click()
    assert first.get_attribute("aria-pressed") == "true"
    confirm = page.locator(".picked-moves button.confirm")
    assert confirm.count() == 1 and confirm.get_attribute("data-action") == f"form left {code}"
    first.click()  # clicked again: dropped
    assert page.locator(".picked-moves").count() == 0
    photograph_everywhere(page, "god-save-the-king")

    watcher = Watcher(
        server,
        page,
        table,
        {
            "[data-decision=route]": "god-save-the-king-route",
            "[data-decision=declaration]": "god-save-the-king-declaration",
            "[data-decision=challenge]": "god-save-the-king-challenge",
        },
    )
    moves = play_to_end_by_cards(page, server, on_turn=watcher)
    assert moves.by_card >= 3 and watcher.checked == moves.total
    page.locator(".ending").wait_for()
    assert board.locator("[data-decision=none]").count() == 1
    assert "The game is over" in board.locator(".gsk-decision").inner_text()
    watcher.check()
    # A route is picked by clicking the rival's face-down card (the helper clicks it first).
    own_moves = [what for who, what in seat_view(server, page, table, 0)["log"] if who == "p0"]
    assert "route" in own_moves and any(what.startswith("form ") for what in own_moves)
    photograph_everywhere(page, "god-save-the-king-over")


def test_god_save_the_king_four_players_two_tricks_at_once(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page()
    table = create_through_the_form(
        page, "god-save-the-king", ["person", "random", "random", "random"], seed=4
    )
    board = page.locator("[data-board=god-save-the-king]")
    board.wait_for()
    # Round one: p0 v p1 and p2 v p3, both formed at once.
    board.locator(".gsk-trick").nth(1).wait_for()
    assert board.get_by_role("region", name="Your trick").count() == 1
    assert board.locator(".gsk-trick[data-trick=p2-p3]").count() == 1
    photograph_board(page, "god-save-the-king-4p")
    watcher = Watcher(server, page, table, {"[data-decision=route]": "god-save-the-king-4p-route"})
    moves = play_to_end_by_cards(page, server, on_turn=watcher)
    assert moves.by_card >= 3 and watcher.checked == moves.total
    page.locator(".ending").wait_for()


def test_crush_the_crown_played_by_clicking_cards(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page()
    table = create_through_the_form(page, "crush-the-crown", ["person", "heuristic"], seed=8)
    board = page.locator("[data-board=crush-the-crown]")
    board.wait_for()
    for name in ("Your government", "p1 (heuristic bot)'s government"):
        government = board.get_by_role("region", name=name)
        government.wait_for()
        assert government.locator(".ctc-slot").count() == 13  # K Q J 10 ... 2 A
    board.get_by_role("region", name="Your hand").wait_for()
    rival = board.get_by_role("region", name="p1 (heuristic bot)'s hand")
    backs = rival.get_by_role("img", name=re.compile(r"^\d+ cards? in hand$"))
    assert backs.count() == 1
    assert rival.locator("[data-card]").count() == 0
    watcher = Watcher(
        server,
        page,
        table,
        {
            "[data-decision=marriage]": "crush-the-crown-marriage",
            "[data-decision=tribute]": "crush-the-crown-tribute",
            ".ctc-slot-spy": "crush-the-crown-spy",
        },
    )

    # Build and spy whenever a card allows it; fire and give the rival's suit first.
    moves = play_to_end_by_cards(
        page,
        server,
        prefer=(
            '[title^="extend"]',
            '[title^="discover"]',
            '[title^="spy"]',
            ".ctc-role-rival [data-pick]",
        ),
        on_turn=watcher,
        most_moves=900,
    )
    assert moves.by_card >= 10
    page.locator(".ending").wait_for()
    watcher.check()
    view = seat_view(server, page, table, 0)
    governments = view["observation"]["governments"]
    for government in governments:
        owner = government["seat"]
        region = board.locator(f".ctc-government[data-seat={owner}]")
        assert region.locator(".ctc-slot-spy").count() == government["spies"]
        assert region.locator(".ctc-slot-real, .ctc-slot-spy").count() == len(government["slots"])
    own_moves = [what for who, what in view["log"] if who == "p0"]
    for word in ("marry", "extend", "spy", "give", "fire"):
        assert any(what.startswith(f"{word} ") for what in own_moves), f"p0 never played {word}"
    photograph_everywhere(page, "crush-the-crown-over")
