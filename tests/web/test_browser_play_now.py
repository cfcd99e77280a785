"""Play now in a real Chromium against a real ``courtly serve``, each browser context a person:
two guests meet at one table, rated people of close ratings are paired before a far one, and
"fill with bots" starts a table with bots after the wait. The lobby with Play now is
photographed at 1,280 and 375 px (``COURTLY_SCREENSHOTS``).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable

from playwright.sync_api import Page, expect

from .browsing import PHONE, WAIT_MS, Server, photograph
from .test_browser_people import sign

GAME = "royal-gambit"
TITLE = "Royal Gambit"
WIDE = {"width": 1280, "height": 900}


def press_play_now(
    page: Page, players: str = "2", bots_after: str = "never", rated: bool = False
) -> None:
    page.goto("/")
    game = page.locator(f"li.game[data-game={GAME}]")
    game.get_by_role("button", name=f"Play {TITLE} now").click()
    choices = game.locator("fieldset.play-now-choices")
    choices.get_by_label("Players").select_option(players)
    choices.get_by_label("Fill with bots after").select_option(label=bots_after)
    if rated:
        choices.get_by_label(re.compile("^ ?Rated")).check()
    choices.get_by_role("button", name="Find a table").click()


def seated_at(page: Page) -> tuple[str, str]:
    page.wait_for_url(re.compile(r"/table/[^/?]+"))
    seat = page.locator(".table-page[data-seat]")
    seat.wait_for()
    table = re.search(r"/table/([^/?]+)", page.url)
    assert table is not None
    return table.group(1), str(seat.get_attribute("data-seat"))


def test_two_guests_press_play_now_and_meet_at_one_table(
    new_page: Callable[..., Page], server: Server
) -> None:
    anna = new_page(viewport=WIDE)
    press_play_now(anna)
    game = anna.locator(f"li.game[data-game={GAME}]")
    expect(game.get_by_role("status")).to_contain_text(
        "Waiting for a table (2 players", timeout=WAIT_MS
    )
    bert = new_page(viewport=PHONE)
    bert.goto("/")
    bert_card = bert.locator(f"li.game[data-game={GAME}]")
    expect(bert_card.locator(".play-now-count")).to_contain_text(
        "1 waiting: 1 for 2 players", timeout=WAIT_MS
    )
    photograph(anna, "play-now-waiting-1280")
    bert_card.get_by_role("button", name=f"Play {TITLE} now").click()
    photograph(bert, "play-now-choices-375")
    anna.set_viewport_size(WIDE)
    press_play_now(bert, players="Any")
    table_a, seat_a = seated_at(anna)
    table_b, seat_b = seated_at(bert)
    assert table_a == table_b and {seat_a, seat_b} == {"0", "1"}


def test_leave_takes_a_person_out_of_the_queue_in_one_click(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page(viewport=WIDE)
    press_play_now(page, players="3")
    game = page.locator(f"li.game[data-game={GAME}]")
    game.get_by_role("button", name=f"Leave Play now of {TITLE}").click()
    expect(game.get_by_role("button", name=f"Play {TITLE} now")).to_be_visible(timeout=WAIT_MS)
    expect(game.locator(".play-now-count")).to_have_text(
        "Nobody waits to play now.", timeout=WAIT_MS
    )


def set_rating(server: Server, name: str, mu: float) -> None:
    """The person's rating in the game's pools, as ratings would have written it (shown:
    ``mu - 3``)."""
    with sqlite3.connect(server.file) as db:
        (account,) = db.execute("SELECT id FROM accounts WHERE name = ?", (name,)).fetchone()
        for pool in (2, 0):
            db.execute(
                "INSERT INTO ratings (account_id, game, players, mu, sigma, games, wins, "
                "updated_at) VALUES (?, ?, ?, ?, 1.0, 10, 5, 0)",
                (account, GAME, pool, mu),
            )


def test_rated_players_of_close_ratings_are_paired_before_a_far_one(
    new_page: Callable[..., Page], server: Server
) -> None:
    pages = {}
    for name, mu in (("Farah", 70.0), ("Nadia", 23.0), ("Nils", 24.5)):
        page = new_page(viewport=WIDE)
        sign(page, name)
        set_rating(server, name, mu)
        pages[name] = page
    press_play_now(pages["Farah"], rated=True)
    press_play_now(pages["Nadia"], rated=True)
    for name in ("Farah", "Nadia"):
        waiting = pages[name].locator(f"li.game[data-game={GAME}]").get_by_role("status")
        expect(waiting).to_contain_text("rated", timeout=WAIT_MS)
    press_play_now(pages["Nils"], rated=True)
    table_n, _ = seated_at(pages["Nadia"])
    table_l, _ = seated_at(pages["Nils"])
    assert table_n == table_l
    # Farah, far above them, still waits.
    assert "/table/" not in pages["Farah"].url
    expect(
        pages["Farah"].locator(f"li.game[data-game={GAME}]").get_by_role("status")
    ).to_be_visible(timeout=WAIT_MS)
    names = server.ok("GET", f"/api/tables/{table_n}")
    assert names["rated"] and sorted(s["name"] for s in names["seats"]) == ["Nadia", "Nils"]


def test_fill_with_bots_starts_a_table_with_bots_after_the_wait(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page(viewport=WIDE)
    press_play_now(page, players="3", bots_after="5 s")
    table, seat = seated_at(page)
    assert seat == "0"
    found = server.ok("GET", f"/api/tables/{table}")
    assert [s["kind"] for s in found["seats"]] == ["person", "bot", "bot"]
    assert not found["rated"] and found["status"] == "playing"


def test_a_closed_tab_leaves_the_queue_within_seconds(
    new_page: Callable[..., Page], server: Server
) -> None:
    leaving = new_page(viewport=WIDE)
    press_play_now(leaving, players="4")
    watcher = new_page(viewport=WIDE)
    watcher.goto("/")
    count = watcher.locator(f"li.game[data-game={GAME}] .play-now-count")
    expect(count).to_contain_text("1 for 4 players", timeout=WAIT_MS)
    leaving.close()  # no Leave pressed: the heartbeats stop
    # Given up after 10 s without a heartbeat; the lobby counts again every 3 s.
    expect(count).to_have_text("Nobody waits to play now.", timeout=WAIT_MS)
