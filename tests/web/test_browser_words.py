"""What a new player reads around the tables, in a real Chromium against a real ``courtly
serve``: the create form in a player's words (the rules' ids and keys only under "Advanced"),
what each seat plays, the lobby's finished games with their players and winners; and the small
slips a new player met, each kept fixed: a game's title as the catalogue spells it, after a
reload too; "1 seat taken"; a missing table offers nothing to watch and no review to try again;
a host waiting for a friend is not told of a first move nobody may make yet.

The fixtures (``server``, ``browser``, ``new_page``) and helpers are in :mod:`tests.web.browsing`.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, Route, expect

from .browsing import GAMES, Server, photograph
from .test_browser_table import bots_only_game

RULE_ID = re.compile(r"\b(GSK|CTC|RG|GOTH|KC)-\d+|§\s?\d")
"""A rule id ("GOTH-23") or a section of the rules ("§4.6"): the rules' words, not a player's."""

SHOWN_OUTSIDE_DETAILS = """form => {
    const copy = form.cloneNode(true);
    copy.querySelectorAll('details').forEach(details => details.remove());
    return copy.textContent;
}"""
"""The text of a part of the page but its folded details (read whether they are open or not)."""


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


def test_the_create_form_speaks_a_player_s_language_and_keeps_the_rules_words_folded(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page()
    page.goto("/")
    page.locator(".games > li").nth(4).wait_for()
    form = page.locator("section[aria-labelledby=create-heading]")
    for game in server.ok("GET", "/api/games"):
        page.select_option("#create-game", game["id"])
        expect(page.locator("#create-game")).to_have_value(game["id"])
        for option in game["options"]:
            expect(form.locator(f"label[for='option-{option['name']}']")).to_have_text(
                option["label"]
            )
            assert option["about"] in form.locator(f"#option-{option['name']}-help").inner_text()
        shown = form.evaluate(SHOWN_OUTSIDE_DETAILS)
        assert not RULE_ID.search(shown), f"{game['id']}: {RULE_ID.search(shown)}"
        for option in game["options"]:
            assert f"{option['name']} " not in f"{shown} ", f"{game['id']}: {option['name']}"
        # The rules' own words are there for who wants them, folded.
        advanced = form.locator("details.advanced")
        assert advanced.get_attribute("open") is None
        advanced.locator("summary").click()
        for option in game["options"]:
            entry = advanced.locator(f"[data-option='{option['name']}']")
            assert entry.locator("code").inner_text() == option["name"]
        advanced.locator("summary").click()


def test_the_create_form_says_who_is_king_and_who_is_warchief(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page()
    page.goto("/")
    page.get_by_role("button", name="New table of Goths Save the Queen").click()
    expect(page.locator("#create-game")).to_have_value("goths-save-the-queen")
    for players in (2, 3, 4):
        page.select_option("#create-players", str(players))
        # Fewer than four: one clan, or both, played by one player each.
        solo = {4: "none", 3: "ostrogoths", 2: "both"}[players]
        page.select_option("#option-solo_clans", solo)
        options = {"solo_clans": solo}
        titles = server.ok(
            "POST",
            "/api/games/goths-save-the-queen/seats",
            json={"players": players, "options": options},
        )["titles"]
        assert all(titles), titles
        for seat, title in enumerate(titles):
            expect(page.locator(f"#seat-{seat}-label")).to_contain_text(title)
    # Four players: two Kings and two Warchiefs, each seat named.
    assert [page.locator(f"#seat-{seat}-label").inner_text() for seat in range(4)] == [
        "Seat p0, Ostrogoth King (you)",
        "Seat p1, Visigoth King",
        "Seat p2, Ostrogoth Warchief",
        "Seat p3, Visigoth Warchief",
    ]


def test_the_lobby_s_finished_games_name_their_players_and_winners(
    new_page: Callable[..., Page], server: Server
) -> None:
    table = bots_only_game(server, "crush-the-crown", seed=3)
    summary = server.ok("GET", f"/api/tables/{table}")
    assert summary["winners"], "a game of Crush the Crown with a winner"
    page = new_page()
    page.goto("/")
    entry = page.locator(f"li.table-entry[data-table='{table}']")
    players = entry.get_by_test_id("players")
    expect(players).to_have_text("p0 (heuristic bot), p1 (heuristic bot)")
    winner = summary["winners"][0]
    expect(entry.get_by_test_id("winners")).to_have_text(f"p{winner} (heuristic bot) wins")


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
    # The refusal, once the server has answered (the way to the lobby is there from the start).
    page.locator("main [role=alert]").first.wait_for()
    assert page.get_by_role("link", name=re.compile("lobby", re.IGNORECASE)).count() >= 1
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
