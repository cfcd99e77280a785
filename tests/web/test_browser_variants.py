"""Courtly's recommended variants reach players, in a real Chromium against a real ``courtly
serve``: where the rules as written end at the safety cap in many games (King's Court at three
and four players), the table form chooses Courtly's variant, says why in one line with the
measured figure, and keeps the rules as written one click away; at two players it chooses
nothing and says nothing. A table's variant is shown to everyone who joins it.

The fixtures (``server``, ``browser``, ``new_page``) and helpers are in :mod:`tests.web.browsing`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect

from .browsing import Server, create_through_the_form, photograph

GAME = "kings-court"


def recommended(server: Server) -> dict[int, dict[str, Any]]:
    entry = server.ok("GET", f"/api/games/{GAME}")
    return {variant["players"]: variant for variant in entry["recommended"]}


def test_the_kings_court_form_chooses_the_variant_that_ends_at_three_and_four_players(
    new_page: Callable[..., Page], server: Server
) -> None:
    variants = recommended(server)
    assert sorted(variants) == [3, 4]
    assert variants[4]["options"] == {"track_cut": 5}
    page = new_page()
    page.goto("/")
    page.select_option("#create-game", GAME)
    note = page.get_by_test_id("recommendation")
    track_cut = page.locator("#option-track_cut")

    # Two players: the sheet's game, nothing to say.
    expect(page.locator("#create-players")).to_have_value("2")
    expect(note).to_have_count(0)
    expect(track_cut).to_have_value("0")

    for players in (3, 4):
        page.select_option("#create-players", str(players))
        expect(note).to_contain_text(variants[players]["reason"])
        expect(note).to_contain_text(f"Chosen for you: {variants[players]['name']}")
        expect(note).to_have_attribute("data-playing", "variant")
        expect(track_cut).to_have_value("5")
    # The measured figure is in the line a person reads.
    expect(note).to_contain_text(re.compile(r"\d+(\.\d+)?% stop at the safety cap"))
    photograph(page, "variant-form-4p")

    # The rules as written, one click away; the choice holds at another count.
    note.get_by_role("button", name="Play the rules as written").click()
    expect(track_cut).to_have_value("0")
    expect(note).to_have_attribute("data-playing", "as-written")
    expect(note).to_contain_text("Chosen: the rules as written.")
    page.select_option("#create-players", "3")
    expect(track_cut).to_have_value("0")
    note.get_by_role("button", name=f"Play {variants[3]['name']}").click()
    expect(track_cut).to_have_value("5")
    expect(note).to_have_attribute("data-playing", "variant")

    # Back at two players the track is the sheet's again.
    page.select_option("#create-players", "2")
    expect(note).to_have_count(0)
    expect(track_cut).to_have_value("0")

    # Another game recommends nothing at any count.
    page.select_option("#create-game", "royal-gambit")
    for players in ("2", "5"):
        page.select_option("#create-players", players)
        expect(note).to_have_count(0)


def test_a_table_made_with_the_variant_says_so_to_everyone_who_joins(
    new_page: Callable[..., Page], server: Server
) -> None:
    host = new_page()
    table = create_through_the_form(host, GAME, ["person", "person", "heuristic", "heuristic"])
    created = server.ok("GET", f"/api/tables/{table}")
    assert created["options"]["track_cut"] == 5
    assert created["variant"] == ["Shorter track for more players: 5"]
    expect(host.get_by_test_id("table-variant")).to_contain_text("Shorter track for more players")

    # A stranger sees it in the lobby's list of tables to join, and on the table once seated.
    guest = new_page()
    guest.goto("/")
    row = guest.locator(f"[data-table='{table}']")
    expect(row.get_by_test_id("variant")).to_have_text("Variant: Shorter track for more players: 5")
    row.get_by_role("link", name=re.compile("^Join")).click()
    said = "Played with a variant of the rules: Shorter track for more players: 5"
    expect(guest.get_by_test_id("table-variant")).to_contain_text(said)  # before joining
    guest.fill("#join-name", "Bea")
    guest.get_by_role("button", name="Join seat p1").click()
    expect(guest.locator(".table-title")).to_contain_text("Bea")
    expect(guest.get_by_test_id("table-variant")).to_contain_text(said)  # and at the table


def test_a_table_of_the_rules_as_written_names_no_variant(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page()
    table = create_through_the_form(page, GAME, ["person", "heuristic"])
    assert server.ok("GET", f"/api/tables/{table}")["variant"] == []
    expect(page.locator(".table-title")).to_be_visible()
    expect(page.get_by_test_id("table-variant")).to_have_count(0)
