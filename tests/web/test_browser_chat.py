"""The table's chat and the turn's alerts in a real Chromium against a real server.

- Two people talk between two browser contexts; a line of HTML is shown as the text typed (no
  element made of it, no script run); a muted person's lines are hidden, after a reload too.
- A signed-in spectator's line reaches a seat's page only once the seat chooses to read the
  spectators' channel.
- A page in the background (its visibility overridden by an init script) with the permission
  granted gets a notification when its turn comes (``new Notification`` recorded by a wrapper);
  the permission is never asked on load, only from the button.
- An administrator hides a line: it leaves every page at once.
- The chat photographed at 1,280 and 375 pixels (with ``COURTLY_SCREENSHOTS`` set).

The fixtures (``server``, ``browser``, ``new_page``) are in :mod:`tests.web.browsing`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, expect
from sqlalchemy import create_engine, update

from courtly.web.storage.rows import AccountRow

from .browsing import PHONE, Server, photograph

HTML_LINE = '<img src=x onerror="window.__pwned=1"><b>bold</b> & so'

WATCH_NOTIFICATIONS = """
window.__hidden = true;
window.__notes = [];
window.__asked = 0;
Object.defineProperty(document, "visibilityState", {
  configurable: true, get: () => (window.__hidden ? "hidden" : "visible"),
});
Object.defineProperty(document, "hidden", { configurable: true, get: () => window.__hidden });
const Real = window.Notification;
class Recorded extends Real {
  constructor(title, options) {
    super(title, options);
    window.__notes.push(title);
  }
}
Recorded.requestPermission = (...args) => {
  window.__asked += 1;
  return Real.requestPermission(...args);
};
window.Notification = Recorded;
"""
"""An init script: the page is in the background, and every notification it makes (and every
request for the permission) is recorded."""


def two_people(server: Server, **body: Any) -> tuple[str, list[str]]:
    body.setdefault("game", "royal-gambit")
    body.setdefault("seats", [{"kind": "person"}, {"kind": "person"}])
    table = server.ok("POST", "/api/tables", json=body)["id"]
    tokens = []
    for seat, name in enumerate(("Alice", "Bruno")):
        joined = server.ok("POST", f"/api/tables/{table}/seats/{seat}/join", json={"name": name})
        tokens.append(joined["token"])
    return table, tokens


def seat_page(
    new_page: Callable[..., Page], table: str, seat: int, token: str, **options: Any
) -> Page:
    page = new_page(**options)
    page.goto("/")
    page.evaluate(
        "([k, t]) => localStorage.setItem(k, t)", [f"courtly.token.{table}.{seat}", token]
    )
    page.goto(f"/table/{table}?seat={seat}")
    expect(page.get_by_test_id("chat")).to_be_visible()
    return page


def say(page: Page, text: str) -> None:
    page.locator("#chat-text").fill(text)
    page.get_by_role("button", name="Send").click()
    expect(page.locator("#chat-text")).to_have_value("")


def lines(page: Page) -> Any:
    return page.locator(".chat-lines .chat-text")


def test_two_people_talk_html_is_text_and_a_muted_person_is_hidden(
    new_page: Callable[..., Page], server: Server
) -> None:
    table, tokens = two_people(server)
    alice = seat_page(new_page, table, 0, tokens[0])
    bruno = seat_page(new_page, table, 1, tokens[1])
    say(alice, HTML_LINE)
    for page in (alice, bruno):
        expect(lines(page)).to_have_text([HTML_LINE])
        # Shown as text: no element was made of it, no handler ran.
        assert page.locator(".chat-lines img, .chat-lines b").count() == 0
        assert page.evaluate("window.__pwned") is None
    expect(bruno.locator(".chat-line .chat-name").first).to_contain_text("Alice")
    say(bruno, "nice try, Alice")
    expect(lines(alice)).to_have_text([HTML_LINE, "nice try, Alice"])
    photograph(alice, "chat-1280")
    alice.set_viewport_size(PHONE)
    alice.locator(".chat").scroll_into_view_if_needed()
    photograph(alice, "chat-375")
    alice.set_viewport_size({"width": 1280, "height": 900})

    # Alice mutes Bruno: his lines leave her page, now and later, and stay muted on a reload.
    alice.get_by_role("button", name="Mute Bruno").click()
    expect(lines(alice)).to_have_text([HTML_LINE])
    expect(alice.get_by_test_id("chat-muted")).to_contain_text("1 line")
    say(bruno, "are you there?")
    expect(lines(bruno)).to_have_text([HTML_LINE, "nice try, Alice", "are you there?"])
    expect(alice.get_by_test_id("chat-muted")).to_contain_text("2 lines")
    alice.reload()
    expect(alice.get_by_test_id("chat-muted")).to_contain_text("2 lines")
    expect(lines(alice)).to_have_text([HTML_LINE])
    alice.get_by_test_id("chat-muted").get_by_role("button", name="Unmute").click()
    expect(lines(alice)).to_have_text([HTML_LINE, "nice try, Alice", "are you there?"])


def test_a_spectator_s_line_shows_only_where_the_players_chose_to_read_them(
    new_page: Callable[..., Page], server: Server
) -> None:
    table, tokens = two_people(server)
    alice = seat_page(new_page, table, 0, tokens[0])
    watcher = new_page()
    signed = watcher.request.post(
        "/api/account", data={"name": "Watcher", "password": "a long enough password"}
    )
    assert signed.ok, signed.text()
    watcher.goto(f"/table/{table}")
    expect(watcher.get_by_test_id("chat")).to_be_visible()
    say(alice, "hello table")
    expect(lines(watcher)).to_have_text(["hello table"])
    say(watcher, "go Alice!")
    expect(lines(watcher)).to_have_text(["hello table", "go Alice!"])
    expect(watcher.locator(".chat-line.from-spectator")).to_have_count(1)
    # Alice has not chosen to read the spectators: their line is not on her page.
    say(alice, "thanks whoever")
    expect(lines(alice)).to_have_text(["hello table", "thanks whoever"])
    alice.get_by_test_id("read-spectators").check()
    expect(lines(alice)).to_have_text(["hello table", "go Alice!", "thanks whoever"])
    alice.get_by_test_id("read-spectators").uncheck()
    expect(lines(alice)).to_have_text(["hello table", "thanks whoever"])


def test_a_page_in_the_background_is_notified_of_its_turn(
    new_page: Callable[..., Page], server: Server
) -> None:
    table, tokens = two_people(server, seed=5)
    page = new_page(permissions=["notifications"])
    page.context.add_init_script(WATCH_NOTIFICATIONS)
    page.goto("/")
    key = f"courtly.token.{table}.0"
    page.evaluate("([k, t]) => localStorage.setItem(k, t)", [key, tokens[0]])
    page.goto(f"/table/{table}?seat=0")
    expect(page.get_by_test_id("turn")).to_be_visible()
    shown = server.ok("GET", f"/api/tables/{table}/view")
    if shown["to_move"] != [0]:  # Bruno starts: he moves, and Alice's turn comes
        bruno = server.ok(
            "GET",
            f"/api/tables/{table}/view?seat=1",
            headers={"Authorization": f"Bearer {tokens[1]}"},
        )
        server.ok(
            "POST",
            f"/api/tables/{table}/moves",
            json={
                "seat": 1,
                "action": bruno["legal_actions"][0]["id"],
                "version": bruno["version"],
            },
            headers={"Authorization": f"Bearer {tokens[1]}"},
        )
    page.wait_for_function("() => window.__notes.length > 0")
    assert page.evaluate("window.__notes")[0].startswith("Your move")
    expect(page).to_have_title("(Your move) Royal Gambit · Courtly")
    assert page.evaluate("window.__asked") == 0  # granted already: never asked


def test_the_permission_is_asked_from_the_button_never_on_load(
    new_page: Callable[..., Page], server: Server
) -> None:
    table, tokens = two_people(server)
    page = new_page()
    page.context.add_init_script(WATCH_NOTIFICATIONS)
    page.goto("/")
    key = f"courtly.token.{table}.0"
    page.evaluate("([k, t]) => localStorage.setItem(k, t)", [key, tokens[0]])
    page.goto(f"/table/{table}?seat=0")
    button = page.get_by_test_id("ask-notifications")
    expect(button).to_be_visible()
    assert page.evaluate("window.__asked") == 0
    button.click()
    page.wait_for_function("() => window.__asked === 1")


def test_an_administrator_hides_a_line_and_it_leaves_every_page(
    new_page: Callable[..., Page], server: Server
) -> None:
    table, tokens = two_people(server)
    alice = seat_page(new_page, table, 0, tokens[0])
    bruno = seat_page(new_page, table, 1, tokens[1])
    admin = new_page()
    signed = admin.request.post(
        "/api/account", data={"name": "Moderator", "password": "a long enough password"}
    )
    assert signed.ok, signed.text()
    # Made an administrator as `courtly serve --admin Moderator` would.
    engine = create_engine(server.database_url)
    with engine.begin() as connection:
        connection.execute(
            update(AccountRow).where(AccountRow.name == "Moderator").values(admin=True)
        )
    engine.dispose()
    admin.goto(f"/table/{table}")
    say(bruno, "something rude")
    say(bruno, "sorry")
    for page in (alice, bruno, admin):
        expect(lines(page)).to_have_text(["something rude", "sorry"])
    assert alice.get_by_role("button", name="Hide this line of Bruno").count() == 0  # no admin
    admin.get_by_role("button", name="Hide this line of Bruno").first.click()
    for page in (alice, bruno, admin):
        expect(lines(page)).to_have_text(["sorry"])


def test_the_replay_of_a_finished_game_shows_its_chat(
    new_page: Callable[..., Page], server: Server
) -> None:
    table, tokens = two_people(server, seed=2)
    for seat, text in ((0, "good luck"), (1, "<i>you too</i>")):
        server.ok(
            "POST",
            f"/api/tables/{table}/chat",
            json={"seat": seat, "text": text},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
    rng = random.Random(2)
    for _ in range(5000):  # random legal moves of whoever is to move, until the game is over
        shown = server.ok("GET", f"/api/tables/{table}/view")
        if shown["status"] != "playing":
            break
        seat = shown["to_move"][0]
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        mine = server.ok("GET", f"/api/tables/{table}/view?seat={seat}", headers=auth)
        action = rng.choice(mine["legal_actions"])["id"]
        move = {"seat": seat, "action": action, "version": mine["version"]}
        server.ok("POST", f"/api/tables/{table}/moves", json=move, headers=auth)
    assert server.ok("GET", f"/api/tables/{table}/view")["status"] == "over"
    page = new_page()
    page.goto(f"/table/{table}/replay")
    log = page.get_by_test_id("chat-log")
    expect(log.locator(".chat-text")).to_have_text(["good luck", "<i>you too</i>"])
    assert log.locator("i").count() == 0


def test_goths_shows_why_its_chat_is_closed_while_it_is_played(
    new_page: Callable[..., Page], server: Server
) -> None:
    table = server.ok(
        "POST",
        "/api/tables",
        json={"game": "goths-save-the-queen", "seats": [{"kind": "person"}] * 4},
    )["id"]
    tokens = [
        server.ok("POST", f"/api/tables/{table}/seats/{seat}/join", json={})["token"]
        for seat in range(4)
    ]
    page = seat_page(new_page, table, 0, tokens[0])
    expect(page.get_by_test_id("chat-closed")).to_contain_text("speak only through their cards")
    assert page.locator("#chat-text").count() == 0
