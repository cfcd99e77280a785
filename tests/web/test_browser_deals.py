"""A table's deal in the browser, in a real Chromium against a real server: a seed chosen by the
table's creator is said plainly to everyone offered the table (the lobby's row, the join page)
and at the table; a table dealt in secret shows the commitment to its seed, then the seed once
the game is over (on the table and its replay), with the way to check it.

The fixtures (``server``, ``browser``, ``new_page``) are in :mod:`tests.web.browsing`.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from playwright.sync_api import Page

from .browsing import DEADLINE, Server
from .test_browser_access import assert_accessible

CHOSEN = "The creator chose this table's deal (seed 42): they may know every hand."
PEOPLE = [{"kind": "person"}, {"kind": "person"}]


def test_a_chosen_seed_is_said_to_everyone_offered_the_table(
    new_page: Callable[..., Page], server: Server
) -> None:
    table = server.ok(
        "POST", "/api/tables", json={"game": "crush-the-crown", "seats": PEOPLE, "seed": 42}
    )["id"]
    secret = server.ok("POST", "/api/tables", json={"game": "crush-the-crown", "seats": PEOPLE})
    found: list[str] = []

    lobby = new_page()
    lobby.goto("/")
    row = lobby.locator(f"li[data-table='{table}']")
    row.get_by_text(CHOSEN).wait_for()
    lobby.locator(f"li[data-table='{secret['id']}']").wait_for()
    assert lobby.locator(f"li[data-table='{secret['id']}'] [data-testid=deal-chosen]").count() == 0

    joining = new_page()
    joining.goto(f"/table/{table}?seat=0")
    joining.get_by_text(CHOSEN).wait_for()
    assert_accessible(joining, "join page of a chosen deal", found)
    joining.get_by_role("button", name="Join seat p0").click()
    joining.locator(".table-page[data-status=open]").wait_for()
    joining.get_by_text(CHOSEN).wait_for()

    watching = new_page()
    watching.goto(f"/table/{table}")
    watching.locator(".table-page").wait_for()
    watching.get_by_text(CHOSEN).wait_for()
    assert_accessible(watching, "table of a chosen deal", found)
    assert not found, "\n\n".join(found)


def test_a_secret_deal_shows_its_commitment_then_its_seed_at_the_end(
    new_page: Callable[..., Page], server: Server
) -> None:
    bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    table = server.ok(
        "POST",
        "/api/tables",
        json={"game": "royal-gambit", "seats": bots, "options": {"target_score": 12}},
    )
    commitment = table["deal"]["commitment"]
    page = new_page()
    page.goto(f"/table/{table['id']}")
    page.locator(".table-page").wait_for()
    assert page.locator("[data-testid=deal-chosen]").count() == 0
    page.get_by_text("Fair deal").click()
    page.get_by_text(commitment).wait_for()
    deadline = time.monotonic() + DEADLINE
    while server.ok("GET", f"/api/tables/{table['id']}")["status"] != "over":
        assert time.monotonic() < deadline, "the bots did not finish their game"
        time.sleep(0.1)
    seed = server.ok("GET", f"/api/tables/{table['id']}/record")["seed"]
    page.locator(".table-page[data-status=over]").wait_for()
    page.locator("[data-testid=deal]").get_by_text(str(seed)).wait_for()
    assert page.locator("[data-testid=deal]").get_by_text("--verify").count() == 1
    # The replay of the finished game shows the same.
    page.goto(f"/table/{table['id']}/replay")
    page.get_by_text("Fair deal").click()
    page.locator("[data-testid=deal]").get_by_text(str(seed)).wait_for()
