"""People in a real Chromium against a real ``courtly serve``, each browser context a device:
a guest's seat kept at sign-up, the same seat played from another device once signed in there,
signing out everywhere, and an administrator closing a table.

The fixtures (``server``, ``browser``, ``new_page``) and helpers are in :mod:`tests.web.browsing`.
"""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page

from .browsing import PHONE, READY, Server, wait_for_version
from .test_browser_access import assert_accessible

PASSWORD = "a long enough password"
PEOPLE = [{"kind": "person"}, {"kind": "person"}]


def sign(page: Page, name: str, how: str = "up") -> None:
    """Sign ``name`` up (or in) through the page's forms; signing up a name taken already
    (another test of this server made it) signs in instead."""
    page.goto("/signup" if how == "up" else "/signin")
    page.fill("#account-name", name)
    page.fill("#account-password", PASSWORD)
    page.locator("form button[type=submit]").click()
    done = page.locator("[data-testid=signed-in-name], p.error")
    done.first.wait_for()
    if how == "up" and page.locator("p.error").count():
        assert "taken" in page.locator("p.error").inner_text()
        sign(page, name, "in")
        return
    signed_in = page.get_by_test_id("signed-in-name")
    assert signed_in.inner_text() == name


def test_a_guest_s_seat_follows_them_to_another_device_until_they_sign_out_everywhere(
    new_page: Callable[..., Page], server: Server
) -> None:
    table = server.ok("POST", "/api/tables", json={"game": "crush-the-crown", "seats": PEOPLE})
    table_id = table["id"]
    # On the phone, a guest joins seat 0 through its share link, then signs up.
    phone = new_page(viewport=PHONE)
    phone.goto(f"/table/{table_id}?seat=0")
    phone.fill("#join-name", "Guest")
    phone.get_by_role("button", name="Join seat p0").click()
    phone.locator(".table-page[data-seat='0']").wait_for()
    phone.get_by_role("link", name="Sign up").click()
    sign(phone, "Anna")
    other = server.ok("POST", f"/api/tables/{table_id}/seats/1/join", json={"name": "Bo"})
    bearer = {"Authorization": f"Bearer {other['token']}"}
    # On the laptop, Anna signs in and opens the table's address: her seat, played by cookie.
    laptop = new_page()
    sign(laptop, "Anna", "in")
    laptop.goto(f"/table/{table_id}")
    laptop.locator(".table-page[data-seat='0'][data-status=playing]").wait_for()
    moved = 0
    for _ in range(6):
        public = server.ok("GET", f"/api/tables/{table_id}/view")
        if public["status"] != "playing":
            break
        at, mover = public["version"], public["to_move"][0]
        if mover == 0:
            wait_for_version(laptop, at)
            laptop.locator(READY).first.click()
            wait_for_version(laptop, at + 1)
            moved += 1
        else:
            seen = server.ok("GET", f"/api/tables/{table_id}/view?seat=1", headers=bearer)
            action = seen["legal_actions"][0]["text"]
            move = {"seat": 1, "action": action, "version": seen["version"]}
            server.ok("POST", f"/api/tables/{table_id}/moves", json=move, headers=bearer)
    assert moved > 0, "the laptop never moved for Anna"
    # The phone, back at the table (its token, and now its cookie), sees the laptop's moves.
    phone.goto(f"/table/{table_id}?seat=0")
    wait_for_version(phone, server.ok("GET", f"/api/tables/{table_id}/view")["version"])
    # Signing out everywhere, from the laptop's account page, signs the phone out too.
    laptop.get_by_test_id("signed-in-name").click()
    laptop.get_by_role("button", name="Sign out everywhere").click()
    laptop.get_by_role("link", name="Sign in").wait_for()
    phone.reload()
    phone.get_by_role("link", name="Sign in").wait_for()
    assert phone.get_by_test_id("signed-in-name").count() == 0


def test_an_administrator_closes_a_table(new_page: Callable[..., Page], server: Server) -> None:
    page = new_page()
    sign(page, "Anna")  # the first account of this server: an administrator
    table = server.ok("POST", "/api/tables", json={"game": "crush-the-crown", "seats": PEOPLE})
    page.get_by_role("link", name="Admin").click()
    page.fill("#admin-reason", "a test")
    page.fill("#admin-table", f"{server.url}/table/{table['id']}")
    page.get_by_role("button", name="Close the table").click()
    page.get_by_role("status").get_by_text("close-table").wait_for()
    page.locator(".admin-acts").get_by_text(table["id"]).wait_for()
    assert server.ok("GET", f"/api/tables/{table['id']}")["status"] == "closed"
    # Someone else has no admin page.
    guest = new_page()
    sign(guest, "Boris")
    assert guest.get_by_role("link", name="Admin").count() == 0
    guest.goto("/admin")
    guest.get_by_text("Only an administrator may see this page.").wait_for()


def test_the_people_pages_pass_axe(new_page: Callable[..., Page], server: Server) -> None:
    found: list[str] = []
    page = new_page()
    for path in ("/signup", "/signin"):
        page.goto(path)
        page.locator("#account-name").wait_for()
        assert_accessible(page, path.strip("/"), found)
    sign(page, "Anna")  # an administrator (the first account), or signed in as her
    page.goto("/account")
    page.get_by_role("button", name="Sign out everywhere").wait_for()
    assert_accessible(page, "account", found)
    page.goto("/admin")
    page.get_by_role("button", name="Close the table").wait_for()
    assert_accessible(page, "admin", found)
    assert not found, "\n\n".join(found)
