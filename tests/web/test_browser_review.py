"""Hints and reviews in the browser, in a real Chromium against a real ``courtly
serve`` (small search budgets: tests/web/browsing.py): the Hint button lists legal moves with
their win chances and plays the one clicked, a table without hints has no button, and a finished
game's review page draws the win-chance graph, the seats' figures, and any decision with its
estimates and the board as the deciding seat saw it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page

from .browsing import (
    PHONE,
    READY,
    Server,
    cards_in,
    create_through_the_form,
    no_horizontal_scroll,
    photograph,
    play_to_end,
    version,
    wait_for_version,
)
from .test_browser_access import assert_accessible, settle


def test_the_hint_lists_legal_moves_with_their_chances_and_plays_one(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page()
    create_through_the_form(page, "royal-gambit", ["person", "heuristic"], seed=21)
    page.locator(READY).first.wait_for()
    legal = set(page.locator("button.action").evaluate_all("bs => bs.map(b => b.dataset.action)"))
    page.get_by_role("button", name="Hint").click()
    hinted = page.locator(".hint-list li")
    hinted.first.wait_for()
    photograph(page, "hint")
    texts = page.locator(".hint-move").evaluate_all("bs => bs.map(b => b.dataset.action)")
    assert texts and set(texts) <= legal
    for line in hinted.all_inner_texts():
        assert re.search(r"\d+% \(\d+%–\d+%\)", line), line
    before = version(page)
    page.locator(".hint-move").first.click()
    wait_for_version(page, before + 1)
    # The hint of the last position is gone with it.
    assert page.locator(".hint-list").count() == 0


def test_a_table_without_hints_offers_none(new_page: Callable[..., Page], server: Server) -> None:
    page = new_page()
    page.goto("/")
    page.locator("#create-hints").uncheck()
    page.select_option("#create-game", "royal-gambit")
    page.get_by_role("button", name="Create the table").click()
    page.locator(READY).first.wait_for()
    table = re.search(r"/table/([^/?]+)", page.url)
    assert table is not None
    assert server.ok("GET", f"/api/tables/{table.group(1)}")["hints"] is False
    assert page.get_by_role("button", name="Hint").count() == 0


def test_a_finished_game_s_review_shows_each_decision_as_its_seat_saw_it(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page()
    table = create_through_the_form(page, "crush-the-crown", ["person", "heuristic"], seed=5)
    play_to_end(page, server)
    page.get_by_role("link", name="Review the game").click()
    page.locator(".review-page").wait_for()
    review: dict[str, Any] = server.ok("GET", f"/api/tables/{table}/review")["review"]
    decisions = review["decisions"]
    assert decisions and int(
        page.locator(".review-page").get_attribute("data-decisions") or 0
    ) == len(decisions)
    graph = page.get_by_test_id("win-chance-graph")
    assert graph.locator("path.line").count() == 2
    assert graph.locator("circle.marker").count() == len(decisions)
    assert page.locator(".review-table tbody tr[data-seat]").count() == 2
    photograph(page, "review")

    # A decision of the bot's seat, picked on the graph.
    position, decision = next((i, d) for i, d in enumerate(decisions) if d["seat"] == "p1")
    graph.locator(f"circle.marker[data-position='{position}']").dispatch_event("click")
    panel = page.locator(f".review-decision-panel[data-index='{decision['index']}']")
    panel.wait_for()
    assert panel.locator("tr.chosen").get_attribute("data-action") == decision["chosen"]["action"]
    rows = panel.locator(".review-estimates tbody tr").count()
    assert rows == len(decision["actions"])
    # The board is p1's view at that step: no card there that p1 did not see then.
    panel.locator(".review-board [data-board]").wait_for()
    seen = server.ok(
        "GET", f"/api/tables/{table}/replay", params={"step": decision["index"], "seat": 1}
    )
    shown = set(
        panel.locator(".review-board [data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")
    )
    assert shown and shown <= cards_in(seen["views"][0]["observation"])
    everyone = server.ok(
        "GET", f"/api/tables/{table}/replay", params={"step": decision["index"], "seat": "all"}
    )
    hidden_from_p1 = cards_in(everyone["views"][0]["observation"]) - cards_in(
        seen["views"][0]["observation"]
    )
    assert hidden_from_p1 and not shown & hidden_from_p1

    # The next decision, by button and by the arrow key.
    page.get_by_role("button", name="Next decision").click()
    page.locator(
        f".review-decision-panel[data-index='{decisions[position + 1]['index']}']"
    ).wait_for()
    page.keyboard.press("ArrowLeft")
    panel.wait_for()


def test_the_review_page_is_accessible_and_fits_a_phone(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page()
    table = create_through_the_form(
        page, "royal-gambit", ["person", "heuristic"], options={"target_score": "12"}, seed=3
    )
    play_to_end(page, server)
    page.goto(f"/table/{table}/review")
    page.locator(".review-decision-panel [data-board]").wait_for()
    settle(page)
    found: list[str] = []
    assert_accessible(page, "review page", found)
    assert not found, "\n".join(found)
    phone = new_page(viewport=PHONE)
    phone.goto(f"/table/{table}/review")
    phone.locator(".review-decision-panel [data-board]").wait_for()
    no_horizontal_scroll(phone)
    photograph(phone, "review-phone")
