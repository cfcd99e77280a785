"""The browser client in a real headless Chromium against a real ``courtly serve`` process.

Debian's ``chromium`` (``make test`` installs it as root, as it does PostgreSQL) is driven by
Playwright through its executable path: no browser is ever downloaded. Without it these tests
fail when they must run (``CI`` set, or root) and are skipped with the way to install it
otherwise. The client must be built (``make client``, which ``make unit`` runs first).

Every page is watched for script errors: one fails its test. With ``COURTLY_SCREENSHOTS`` set
to a folder, the lobby and the tables are photographed there (for people to look at).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from .browsing import (
    GAMES,
    PHONE,
    READY,
    Server,
    cards_in,
    cards_shown,
    create_through_the_form,
    no_horizontal_scroll,
    photograph,
    play_to_end,
    story_shown,
    version,
    wait_for_version,
)

# ---------------------------------------------------------------------------------- tests


def test_the_lobby_lists_the_five_games(new_page: Callable[..., Page], server: Server) -> None:
    page = new_page()
    page.goto("/")
    games = page.locator(".games > li")
    games.nth(4).wait_for()
    assert games.count() == 5
    for game in server.ok("GET", "/api/games"):
        entry = page.locator(f'.games > li[data-game="{game["id"]}"]')
        assert entry.get_by_role("heading").inner_text() == GAMES[game["id"]] == game["title"]
        assert game["summary"] in entry.inner_text()
        low, high = min(game["players"]), max(game["players"])
        assert (f"{low}–{high} players" if low < high else f"{low} players") in entry.inner_text()
    # Every option of the chosen game, with its default and its explanation.
    page.get_by_role("button", name="New table of Goths Save the Queen").click()
    # (the form follows the click on its next render: waited for, not read at once)
    expect(page.locator("#create-game")).to_have_value("goths-save-the-queen")
    goths = server.ok("GET", "/api/games/goths-save-the-queen")
    for option in goths["options"]:
        field = page.locator(f"#option-{option['name']}")
        if isinstance(option["default"], bool):
            assert field.is_checked() is option["default"]
        else:
            assert field.input_value() == str(option["default"])
        help_text = page.locator(f"#option-{option['name']}-help").inner_text()
        assert option["about"] in help_text
    assert page.locator("#option-solo_clans").evaluate("e => e.tagName") == "SELECT"
    photograph(page, "lobby")

    phone = new_page(viewport=PHONE)
    phone.goto("/")
    phone.locator(".games > li").nth(4).wait_for()
    no_horizontal_scroll(phone)
    photograph(phone, "lobby-phone")


def test_royal_gambit_against_two_bots_played_to_the_end_by_clicking(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page()
    table = create_through_the_form(
        page,
        "royal-gambit",
        ["person", "heuristic", "random"],
        options={"target_score": "15"},
        seed=5,
    )
    assert page.url.endswith(f"/table/{table}?seat=0")
    summary = server.ok("GET", f"/api/tables/{table}")
    assert [seat["kind"] for seat in summary["seats"]] == ["person", "bot", "bot"]
    assert [seat["bot"] for seat in summary["seats"]] == [None, "heuristic", "random"]
    assert summary["options"]["target_score"] == 15
    assert summary["seats"][0]["name"] == "Ann"
    page.locator(".seats").get_by_text("p0 (Ann)").wait_for()
    page.locator(READY).first.wait_for()
    photograph(page, "royal-gambit")

    # By keyboard: Tab reaches a move, its focus is visible, Enter plays it.
    page.locator("body").focus()
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(40):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.classList.contains('action')"):
            break
    else:
        pytest.fail("Tab never reached a move's button")
    outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline not in ("", "none"), "the focused button shows no focus ring"
    before = version(page)
    page.keyboard.press("Enter")
    wait_for_version(page, before + 1)

    moves = 1 + play_to_end(page, server)
    assert moves > 0
    ending = page.locator(".ending")
    ending.wait_for()
    result = server.ok("GET", f"/api/tables/{table}/view")["result"]
    headline = ending.get_by_role("heading").inner_text()
    if 0 in result["winners"]:
        assert headline.startswith("You")
    else:
        assert "win" in headline
    assert ending.locator("tbody tr").count() == 3
    # The story says every move (a line or more each), the engine's events are kept folded.
    assert page.get_by_role("list", name="What happened").locator("li").count() >= moves
    assert page.get_by_role("list", name="Game log").count() == 0
    page.get_by_text("Details: every event as the engine records it").click()
    assert page.get_by_role("list", name="Game log").locator("li").count() == version(page)
    photograph(page, "royal-gambit-over")

    # Rematch: the same seats at a new table, this page's token still holding seat 0.
    page.get_by_role("button", name="Rematch").click()
    page.wait_for_url(lambda url: f"/table/{table}" not in url)
    rematch = server.ok("GET", f"/api/tables/{table}")["rematch_id"]
    assert rematch and page.url.endswith(f"/table/{rematch}?seat=0")
    page.locator(".table-page[data-status=playing]").wait_for()


def test_a_spectator_and_each_seat_see_only_what_they_may(
    new_page: Callable[..., Page], server: Server
) -> None:
    """Two people at Crush the Crown, one through the share link: neither page, nor a
    spectator's, ever holds another seat's hidden cards; a reloaded page resyncs."""
    first = new_page()
    table = create_through_the_form(first, "crush-the-crown", ["person", "person"], seed=3)
    invite = first.get_by_role("heading", name="Invite players")
    invite.wait_for()
    link = first.locator(".share a").first.get_attribute("href") or ""
    assert link.endswith(f"/table/{table}?seat=1")
    first.get_by_text("Waiting for 1 more player to join").wait_for()

    second = new_page(viewport=PHONE)
    second.goto(link)
    second.fill("#join-name", "Bo")
    second.get_by_role("button", name="Join seat p1").click()
    second.locator(".table-page[data-status=playing]").wait_for()
    first.locator(".table-page[data-status=playing]").wait_for()
    first.locator(".seats").get_by_text("p1 (Bo)").wait_for()
    assert first.get_by_role("heading", name="Invite players").count() == 0

    spectator = new_page()
    spectator.goto(f"/table/{table}")
    spectator.locator(".table-page").wait_for()
    assert spectator.locator("button.action").count() == 0

    pages = {0: first, 1: second}
    everyone = (first, second, spectator)
    for _ in range(8):  # a few moves, every page checked at every position
        public = _view(server, table, None, None)
        if public["status"] == "over":
            break
        # Only people play here: the table waits for the one to move, so the views stand still.
        at, mover = public["version"], public["to_move"][0]
        for page in everyone:
            wait_for_version(page, at)
        assert [version(page) for page in everyone] == [at] * 3
        views = {seat: _view(server, table, page, seat) for seat, page in pages.items()}
        hands = {
            seat: set(hand["cards"])
            for seat, view in views.items()
            for hand in view["observation"]["hands"]
            if hand["seat"] == f"p{seat}"
        }
        for seat, page in pages.items():
            shown = cards_shown(page)
            assert hands[seat] and hands[seat] <= shown, "a seat's page shows its own hand"
            hidden = hands[1 - seat] - cards_in(views[seat])
            assert not hidden & shown, f"p{seat}'s page holds p{1 - seat}'s hidden cards"
        hidden = (hands[0] | hands[1]) - cards_in(public)
        assert hidden, "the hands hold cards a spectator may not see"
        assert not hidden & cards_shown(spectator), "the spectator's page holds hidden cards"
        pages[mover].locator(READY).first.click()
        wait_for_version(pages[mover], at + 1)
    photograph(first, "crush-the-crown")
    photograph(second, "crush-the-crown-phone")
    no_horizontal_scroll(second)

    # A reloaded page finds its seat again (the token is kept in the browser) and the story whole.
    told = story_shown(second)
    now = version(second)
    second.reload()
    wait_for_version(second, now)
    assert second.locator(".seats li.seat").nth(1).get_by_text("you").count() == 1
    assert story_shown(second)[: len(told)] == told


def _view(server: Server, table: str, page: Page | None, seat: int | None) -> dict[str, Any]:
    """The seat's view from the API, with the token its page holds (a spectator's: no token)."""
    if page is None or seat is None:
        view: dict[str, Any] = server.ok("GET", f"/api/tables/{table}/view")
        return view
    token = page.evaluate("key => localStorage.getItem(key)", f"courtly.token.{table}.{seat}")
    assert token, f"the page of p{seat} keeps its token"
    view = server.ok(
        "GET",
        f"/api/tables/{table}/view",
        params={"seat": seat},
        headers={"Authorization": f"Bearer {token}"},
    )
    return view


def test_a_double_click_or_a_lost_connection_neither_repeats_nor_loses_a_move(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page()
    # The page's WebSockets pass through this test, which can drop one as a network would.
    sockets: list[WebSocketRoute] = []

    def through(route: WebSocketRoute) -> None:
        route.connect_to_server()
        sockets.append(route)

    page.route_web_socket(re.compile(r"/api/tables/[^/]+/ws$"), through)
    table = create_through_the_form(page, "royal-gambit", ["person", "random"], seed=5)

    def moves_of_p0() -> int:
        log = server.ok("GET", f"/api/tables/{table}/view")["log"]
        return sum(1 for actor, _ in log if actor == "p0")

    def p0_to_move() -> None:
        page.locator(READY).first.wait_for()

    # A double click on "stay" (after which p0 is not to move: a second move could not be
    # legal) sends one move, and the page says nothing went wrong.
    p0_to_move()
    made, at = moves_of_p0(), version(page)
    page.locator(READY, has_text="stay").first.dblclick()
    page.wait_for_function(
        "v => Number(document.querySelector('.table-page')?.dataset.version) > v", arg=at
    )
    assert moves_of_p0() == made + 1
    assert page.get_by_text("was not played").count() == 0

    # The connection lost: the page says so, and resyncs by itself once it is back.
    connected = len(sockets)
    sockets[-1].close(code=1006)
    page.get_by_text("The connection to the server is lost").wait_for()
    page.get_by_text("The connection to the server is lost").wait_for(state="detached")
    assert len(sockets) == connected + 1  # reconnected
    p0_to_move()
    assert version(page) == server.ok("GET", f"/api/tables/{table}/view")["version"]

    # A move clicked while offline is sent again when the network is back: applied once.
    made = moves_of_p0()
    at = version(page)
    context = page.context
    context.set_offline(True)
    page.locator(READY).first.click()
    page.wait_for_timeout(300)
    assert moves_of_p0() == made  # nothing reached the server
    context.set_offline(False)
    page.wait_for_function(
        "v => Number(document.querySelector('.table-page')?.dataset.version) > v", arg=at
    )
    assert moves_of_p0() == made + 1
    assert page.get_by_text("was not played").count() == 0
