"""What surrounds a game's board, in a real Chromium against a real ``courtly serve``: the hot
seat on one device, the rules panel, each seat's last move and the animations switch, the
caution before a move that throws the game away, and the replay of a finished game.

The fixtures (``server``, ``browser``, ``new_page``) and helpers are in :mod:`tests.web.browsing`.
With ``COURTLY_SCREENSHOTS`` set to a folder, the pages are photographed there.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .browsing import (
    DEADLINE,
    PHONE,
    READY,
    Server,
    cards_in,
    cards_shown,
    no_horizontal_scroll,
    photograph,
    story_shown,
    text_shown,
    version,
    wait_for_version,
)
from .test_browser_access import assert_accessible

PREFERENCE = ("extend", "discover", "marry", "spy", "give", "discard", "fire", "pass")
"""Crush the Crown's moves in the order the hot-seat test prefers them: building first, so the
seeded game ends by a win in about a hundred decisions (the first button alone never wins)."""


def wait_for_path(page: Page, pattern: str) -> str:
    """Wait until the page's path matches ``pattern`` (the client moves by the history API,
    which ``page.url`` may not follow); returns its first group."""
    try:
        page.wait_for_function("p => new RegExp(p).test(location.pathname)", arg=pattern)
    except PlaywrightTimeout:
        where = page.evaluate("location.href")
        pytest.fail(f"the page stayed at {where}: {page.locator('main').inner_text()[:2000]}")
    found = re.search(pattern, page.evaluate("location.pathname"))
    assert found is not None
    return found.group(1)


def token_of(page: Page, table: str, seat: int) -> str:
    token = page.evaluate("key => localStorage.getItem(key)", f"courtly.token.{table}.{seat}")
    assert token, f"the page holds no token for seat {seat}"
    return str(token)


def seat_view(server: Server, table: str, seat: int | None, token: str | None = None) -> Any:
    if seat is None:
        return server.ok("GET", f"/api/tables/{table}/view")
    return server.ok(
        "GET",
        f"/api/tables/{table}/view",
        params={"seat": seat},
        headers={"Authorization": f"Bearer {token}"},
    )


def wait_for_status(server: Server, table: str, wanted: str) -> None:
    deadline = time.monotonic() + 3 * DEADLINE
    while server.ok("GET", f"/api/tables/{table}")["status"] != wanted:
        assert time.monotonic() < deadline, f"the table never got {wanted}{server.log_tail()}"
        time.sleep(0.1)


def applied(server: Server, table: str, before: int) -> Any:
    """The spectator's view once the table is past version ``before`` (a move sent)."""
    deadline = time.monotonic() + DEADLINE
    while (shown := seat_view(server, table, None))["version"] <= before:
        assert time.monotonic() < deadline, f"the move was never applied{server.log_tail()}"
        time.sleep(0.02)
    return shown


def bots_only_game(server: Server, game: str, seed: int, **options: Any) -> str:
    """A finished table of two heuristic bots (they play at once on the test server)."""
    table = server.ok(
        "POST",
        "/api/tables",
        json={
            "game": game,
            "seats": [{"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "heuristic"}],
            "options": options,
            "seed": seed,
        },
    )["id"]
    wait_for_status(server, table, "over")
    return str(table)


# ---------------------------------------------------------------------------------- hot seat


def test_a_hot_seat_game_is_covered_exactly_when_the_seat_changes_and_shows_one_seat(
    new_page: Callable[..., Page], server: Server
) -> None:
    """Two people at Crush the Crown on one device, played to the end by clicking: at every
    step the page shows the seat to move and nothing else (its DOM holds only the cards that
    seat's own view holds), and the cover hides everything exactly when the seat changes."""
    page = new_page()
    page.goto("/")
    page.select_option("#create-game", "crush-the-crown")
    page.fill("#create-name", "Ann")
    page.select_option("#seat-0-kind", "person")
    page.select_option("#seat-1-kind", "person")
    page.check("#create-hotseat")
    page.fill("#seat-1-name", "Bob")
    page.fill("#option-hand_size", "8")
    page.get_by_text("More", exact=True).click()
    page.fill("#create-seed", "45")
    photograph(page, "hotseat-form")
    # A full-page photograph leaves Chromium's scrolling in a state where the next click's press
    # and release land on different elements: start the click from the top of the page.
    page.evaluate("window.scrollTo(0, 0)")
    page.get_by_role("button", name="Create the table").click()
    table = wait_for_path(page, r"^/table/([^/?]+)/hotseat$")
    summary = server.ok("GET", f"/api/tables/{table}")
    assert summary["status"] == "playing"
    assert [seat["name"] for seat in summary["seats"]] == ["Ann", "Bob"]
    tokens = [token_of(page, table, 0), token_of(page, table, 1)]
    names = ["Ann", "Bob"]

    shown: int | None = None  # the seat whose view the page showed last
    covers = moves = 0
    deadline = time.monotonic() + 4 * DEADLINE
    while True:
        assert time.monotonic() < deadline, f"the game did not end{server.log_tail()}"
        page.locator(".hotseat-cover, .table-page").first.wait_for()
        cover = page.locator(".hotseat-cover")
        if cover.count():
            seat = int(cover.get_attribute("data-cover-seat") or -1)
            # Covered only when another person must decide (or at the start: nobody yet).
            assert seat != shown, f"a cover between two moves of p{seat}"
            assert server.ok("GET", f"/api/tables/{table}")["to_move"] == [seat]
            # Nothing of any seat under the cover: no table, no card.
            assert page.locator(".table-page").count() == 0
            assert cards_shown(page) == set()
            heading = cover.get_by_role("heading").inner_text()
            assert heading == f"Pass the device to p{seat} — {names[seat]}"
            if covers == 1:
                photograph(page, "hotseat-cover")
            page.get_by_role("button", name=f"I am p{seat}").click()
            shown = seat
            covers += 1
        assert shown is not None, "a seat's table before any cover"
        page.locator(".table-page").wait_for()
        assert page.locator(".table-page").get_attribute("data-seat") == str(shown)
        mine = seat_view(server, table, shown, tokens[shown])
        wait_for_version(page, mine["version"])
        assert version(page) == mine["version"]
        # The DOM holds only what the shown seat's own view holds: never the other's hand.
        other = seat_view(server, table, 1 - shown, tokens[1 - shown])
        allowed = cards_in(mine["observation"]) | cards_in(mine["log"])
        held = cards_shown(page)
        assert held <= allowed, f"p{shown}'s page holds {sorted(held - allowed)}"
        hidden = cards_in(other["observation"]) - allowed
        assert not held & hidden
        if moves == 6:
            photograph(page, "hotseat-table")
        if mine["status"] == "over":
            break
        assert mine["to_move"] == [shown]  # two people: the seat to move is the seat shown
        page.locator(READY).first.wait_for()
        offered: list[str] = page.locator(f".action-buttons {READY}").evaluate_all(
            "buttons => buttons.map(b => b.dataset.action)"
        )
        choice = min(
            offered,
            key=lambda text: (
                PREFERENCE.index(text.split()[0])
                if text.split()[0] in PREFERENCE
                else len(PREFERENCE)
            ),
        )
        before = version(page)
        page.locator(f'.action-buttons button.action[data-action="{choice}"]').click()
        moves += 1
        after = applied(server, table, before)
        if after["status"] == "playing" and after["to_move"] != [shown]:
            page.locator(".hotseat-cover").wait_for()  # the table leaves before anything else
            assert page.locator(".table-page").count() == 0
        else:
            wait_for_version(page, before + 1)
            assert page.locator(".hotseat-cover").count() == 0, "a cover for the same seat"
        assert moves < 400, "the game did not end"
    assert covers > 20 and moves > covers  # the seat changed often, and not at every move

    # The end, from the last seat's view: the result by name, the rematch, the replay's link.
    ending = page.locator(".ending")
    ending.wait_for()
    result = seat_view(server, table, None)["result"]
    winner = names[result["winners"][0]]
    assert winner in ending.get_by_role("heading").inner_text()
    assert not ending.get_by_role("heading").inner_text().startswith("You")
    assert ending.locator("tbody tr").count() == 2
    assert page.locator(".hotseat-cover").count() == 0
    photograph(page, "hotseat-over")
    ending.get_by_role("link", name="Replay the game step by step").click()
    wait_for_path(page, rf"^/table/({table})/replay$")
    page.locator(".replay-page").wait_for()

    # Rematch: the same two people on this device at a new table, covered for its first seat.
    # (Opened afresh: the game is over, so the cover names the first seat, whose view shows it.)
    page.goto(f"/table/{table}/hotseat")
    page.locator(".hotseat-cover").get_by_role("button", name="I am p0").click()
    page.get_by_role("button", name="Rematch").click()
    moved_to = wait_for_path(page, rf"^/table/((?!{table}/)[^/]+)/hotseat$")
    assert moved_to == server.ok("GET", f"/api/tables/{table}")["rematch_id"]
    page.locator(".hotseat-cover").wait_for()
    assert page.locator(".table-page").count() == 0


# ---------------------------------------------------------------------------------- rules


def assert_rules_shown(page: Page, rules: str) -> None:
    """The page shows ``rules`` line by line: each line of the page is a line of the text, in
    order, or a line the text wrapped joined again with its continuation."""
    shown: list[str] = page.locator(".rules-line, .rules-heading").evaluate_all(
        "lines => lines.map(line => line.textContent)"
    )
    lines = [line.strip() for line in rules.splitlines() if line.strip()]
    index = 0
    for line in shown:
        rest = " " + line
        while rest:
            assert rest.startswith(" " + lines[index]), (line, lines[index])
            rest = rest[len(lines[index]) + 1 :]
            index += 1
    assert index == len(lines)
    assert len(shown) > len(lines) * 0.7  # a few wrapped lines joined, no more


def test_the_rules_panel_shows_the_rules_text_line_by_line(
    new_page: Callable[..., Page], server: Server
) -> None:
    rules = server.ok("GET", "/api/games/crush-the-crown/rules")["rules"]
    table = server.ok(
        "POST",
        "/api/tables",
        json={"game": "crush-the-crown", "seats": [{"kind": "person"}, {"kind": "bot"}]},
    )["id"]
    page = new_page()
    page.goto(f"/table/{table}")
    panel = page.locator(".rules-panel")
    panel.wait_for()
    assert not panel.locator(".rules-text").is_visible()  # folded until asked for
    panel.get_by_text("Rules of Crush the Crown").click()
    text = panel.locator(".rules-text")
    text.wait_for()
    assert_rules_shown(page, rules)
    assert panel.get_by_role("heading", name="Setup").count() == 1
    photograph(page, "rules-panel")

    # From the lobby: each game's rules on a page of their own, readable on a phone.
    phone = new_page(viewport=PHONE)
    phone.goto("/")
    phone.get_by_role("link", name="Rules of King's Court").click()
    wait_for_path(phone, r"^/rules/(kings-court)$")
    court = server.ok("GET", "/api/games/kings-court/rules")["rules"]
    phone.locator(".rules-text").wait_for()
    assert_rules_shown(phone, court)
    no_horizontal_scroll(phone)
    photograph(phone, "rules-page-phone")


# ---------------------------------------------------------------------------------- moves


def test_last_moves_animations_switch_and_a_caution_before_a_fatal_move(
    new_page: Callable[..., Page], server: Server
) -> None:
    """God Save The King against a bot: laying one's own King outside asks first; each seat's
    last move is shown from the log; the animations switch is remembered and honours the
    system's wish for reduced motion."""
    table = server.ok(
        "POST",
        "/api/tables",
        json={
            "game": "god-save-the-king",
            "seats": [{"kind": "person"}, {"kind": "bot", "bot": "random"}],
            "seed": 1,
        },
    )["id"]
    token = server.ok("POST", f"/api/tables/{table}/seats/0/join", json={"name": "Ann"})["token"]
    page = new_page(reduced_motion="reduce")
    page.goto("/")
    page.evaluate(
        "([key, token]) => localStorage.setItem(key, token)", [f"courtly.token.{table}.0", token]
    )
    page.goto(f"/table/{table}?seat=0")
    page.locator(READY).first.wait_for()

    # Reduced motion asked by the system: no animations until switched on, then remembered.
    switch = page.get_by_label("Animations")
    assert not switch.is_checked()
    assert page.evaluate("document.documentElement.dataset.motion") == "off"
    card = ".table-page .card[data-card]"
    animation = f"getComputedStyle(document.querySelector('{card}')).animationName"
    assert page.evaluate(animation) == "none"
    switch.check()
    assert page.evaluate("document.documentElement.dataset.motion") == "on"
    assert page.evaluate(animation) == "courtly-card-in"
    page.reload()
    page.locator(READY).first.wait_for()
    assert page.get_by_label("Animations").is_checked()
    page.get_by_label("Animations").uncheck()
    assert page.evaluate("localStorage.getItem('courtly.animations')") == "off"
    assert page.evaluate(animation) == "none"

    # The King in an outside slot: the caution, and nothing sent until confirmed.
    mine = seat_view(server, table, 0, token)
    fatal = next(a for a in mine["legal_actions"] if a["text"] == "form left KS")
    before = version(page)
    page.locator('.action-buttons button[data-action="form left KS"]').click()
    dialog = page.get_by_role("alertdialog")
    dialog.wait_for()
    caution = dialog.get_by_test_id("caution")  # the game's words, its cards drawn as cards
    assert fatal["caution"].startswith("KS is your King")
    assert fatal["caution"].removeprefix("KS") in caution.inner_text()
    assert caution.locator("[data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)") == [
        "KS"
    ]
    focused = page.evaluate("document.activeElement.textContent")
    assert focused == "Choose another move"  # the harmless answer has the focus
    photograph(page, "caution")
    dialog.get_by_role("button", name="Choose another move").click()
    assert page.get_by_role("alertdialog").count() == 0
    assert version(page) == before == seat_view(server, table, 0, token)["version"]

    # Harmless moves go at once; each seat's last move is the story's first line about its last
    # event, as this seat was told it.
    for slot, card in (("left", "2S"), ("middle", "3S"), ("right", "4S")):
        before = version(page)
        page.locator(f'.action-buttons {READY}[data-action="form {slot} {card}"]').click()
        page.wait_for_function(
            "v => Number(document.querySelector('.table-page')?.dataset.version) > v",
            arg=before,
        )
    # The bot moves on (a simultaneous choice after the formations): the view is read once the
    # table waits for p0 alone, and the page stands there too.
    deadline = time.monotonic() + DEADLINE
    while (mine := seat_view(server, table, 0, token))["to_move"] != [0]:
        assert time.monotonic() < deadline, f"p0 is never alone to move{server.log_tail()}"
        time.sleep(0.05)
    wait_for_version(page, mine["version"])
    assert version(page) == mine["version"]
    last: dict[int, int] = {}
    for index, (who, _) in enumerate(mine["log"]):
        if re.fullmatch(r"p\d", who):
            last[int(who[1])] = index
    assert set(last) == {0, 1}  # the bot has formed too (a hidden choice for p0)
    for seat, index in last.items():
        shown = page.locator(f'.seats li[data-seat="{seat}"] [data-testid=last-move] .story-text')
        told = next(text for at, text in mine["story"] if at == index)
        assert text_shown(shown) == told.split("\n")[0]
    # The bot's hidden choice is told as a hidden choice: no card of it on p0's page.
    assert mine["log"][last[1]][1] == "?"
    bot_line = page.locator('.seats li[data-seat="1"] [data-testid=last-move]')
    assert bot_line.locator("[data-card]").count() == 0
    photograph(page, "last-moves")


def test_a_caution_stands_while_another_seat_lays_a_card_at_the_same_time(
    new_page: Callable[..., Page], server: Server
) -> None:
    """God Save The King's formations are laid at the same time: the question asked before a
    fatal move stays up when the other player lays a card meanwhile (a new view), and its answer
    plays the move in that view."""
    table = server.ok(
        "POST",
        "/api/tables",
        json={
            "game": "god-save-the-king",
            "seats": [{"kind": "person"}, {"kind": "person"}],
            "seed": 1,
        },
    )["id"]
    tokens = [
        server.ok("POST", f"/api/tables/{table}/seats/{seat}/join", json={"name": name})["token"]
        for seat, name in ((0, "Ann"), (1, "Bea"))
    ]
    page = new_page()
    page.goto("/")
    page.evaluate(
        "([key, token]) => localStorage.setItem(key, token)",
        [f"courtly.token.{table}.0", tokens[0]],
    )
    page.goto(f"/table/{table}?seat=0")
    page.locator(READY).first.wait_for()
    page.locator('.action-buttons button[data-action="form left KS"]').click()
    dialog = page.get_by_role("alertdialog")
    dialog.wait_for()
    asked_at = version(page)

    other = seat_view(server, table, 1, tokens[1])
    assert other["to_move"] == [0, 1]  # both lay their formations now
    harmless = next(a for a in other["legal_actions"] if not a.get("caution"))
    server.ok(
        "POST",
        f"/api/tables/{table}/moves",
        json={"seat": 1, "action": harmless["text"], "version": other["version"]},
        headers={"Authorization": f"Bearer {tokens[1]}"},
    )
    mine = seat_view(server, table, 0, tokens[0])
    assert mine["version"] > asked_at
    wait_for_version(page, mine["version"])
    assert dialog.is_visible()  # the same move, the same warning: the question stands
    dialog.get_by_role("button", name="Play it anyway").click()
    page.wait_for_function(
        "v => Number(document.querySelector('.table-page')?.dataset.version) > v",
        arg=mine["version"],
    )
    assert page.locator(".actions [role=alert]").count() == 0
    after = seat_view(server, table, 0, tokens[0])
    assert not any(a["text"].startswith("form left") for a in after["legal_actions"])


# ---------------------------------------------------------------------------------- replay


def test_a_finished_game_is_replayed_step_by_step_from_each_seat_or_all(
    new_page: Callable[..., Page], server: Server
) -> None:
    table = bots_only_game(server, "crush-the-crown", seed=4, hand_size=8)
    record = server.ok("GET", f"/api/tables/{table}/record")
    steps = len(record["history"])
    page = new_page()
    page.goto(f"/table/{table}/replay")
    replay = page.locator(".replay-page")
    replay.wait_for()

    def at() -> int:
        return int(replay.get_attribute("data-step") or -1)

    def wait_step(step: int, seat: str = "all") -> None:
        page.locator(f'.replay-page[data-step="{step}"][data-seat="{seat}"]').wait_for()

    def views_hold_only_their_own(step: int, seat: str) -> None:
        answer = server.ok(
            "GET", f"/api/tables/{table}/replay", params={"step": step, "seat": seat}
        )
        for view in answer["views"]:
            key = "spectator" if view["seat"] is None else str(view["seat"])
            drawn = page.locator(f'.replay-view[data-view-seat="{key}"]')
            held = set(
                drawn.locator("[data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")
            )
            assert held <= cards_in(view["observation"]), (step, key)
        # The story up to the step as that seat (or every seat) was told it.
        assert story_shown(page) == answer["story"]
        assert all(index < step for index, _ in answer["story"])

    # At the end, every seat side by side and the result.
    assert at() == steps and int(replay.get_attribute("data-steps") or 0) == steps
    assert page.locator(".replay-view").count() == 2
    assert page.get_by_test_id("replay-step").inner_text() == f"Step {steps} of {steps}"
    assert page.locator(".replay-page .ending tbody tr").count() == 2
    views_hold_only_their_own(steps, "all")
    photograph(page, "replay-end")

    # Keyboard: Home, then the arrows; the buttons; the slider.
    page.locator("body").press("Home")
    wait_step(0)
    assert story_shown(page) == []
    page.keyboard.press("ArrowRight")
    wait_step(1)
    page.get_by_role("button", name="Forward").click()
    wait_step(2)
    page.get_by_role("button", name="Back").click()
    wait_step(1)
    page.locator("input[type=range]").evaluate(
        "(slider, v) => { slider.value = v; slider.dispatchEvent(new Event('input', {bubbles: true})) }",
        steps // 2,
    )
    wait_step(steps // 2)
    views_hold_only_their_own(steps // 2, "all")
    photograph(page, "replay-middle")

    # One seat's view: what it knew then, the other's hand face down; step on from there.
    for seat in ("0", "1", "spectator"):
        page.select_option("#replay-seat", seat)
        wait_step(steps // 2, seat)
        assert page.locator(".replay-view").count() == 1
        assert page.locator(".replay-view").get_attribute("data-view-seat") == seat
        views_hold_only_their_own(steps // 2, seat)
        page.locator("body").press("ArrowRight")
        wait_step(steps // 2 + 1, seat)
        views_hold_only_their_own(steps // 2 + 1, seat)
        page.locator("body").press("ArrowLeft")
        wait_step(steps // 2, seat)
    # Each seat alone sees fewer cards than every seat together.
    page.select_option("#replay-seat", "0")
    wait_step(steps // 2, "0")
    alone = cards_shown(page)
    page.select_option("#replay-seat", "all")
    wait_step(steps // 2, "all")
    assert alone < cards_shown(page)
    page.get_by_role("button", name="Last").click()
    wait_step(steps)

    phone = new_page(viewport=PHONE)
    phone.goto(f"/table/{table}/replay?seat=all&step=10")
    phone.locator('.replay-page[data-step="10"]').wait_for()
    no_horizontal_scroll(phone)
    photograph(phone, "replay-phone")

    # The lobby links the finished game's replay.
    page.goto("/")
    page.locator(f'li[data-table="{table}"]').get_by_role("link", name=re.compile("Replay")).click()
    wait_for_path(page, rf"^/table/({table})/replay$")
    replay.wait_for()


def test_a_game_in_play_is_never_replayed(new_page: Callable[..., Page], server: Server) -> None:
    table = server.ok(
        "POST",
        "/api/tables",
        json={"game": "crush-the-crown", "seats": [{"kind": "person"}, {"kind": "bot"}]},
    )["id"]
    server.ok("POST", f"/api/tables/{table}/seats/0/join", json={"name": "Ann"})
    assert server.ok("GET", f"/api/tables/{table}")["status"] == "playing"
    for seat in ("all", "0", "1", "spectator"):
        refused = server.http.get(f"/api/tables/{table}/replay", params={"seat": seat})
        assert refused.status_code == 409, refused.text
    page = new_page()
    page.goto(f"/table/{table}/replay")
    alert = page.get_by_role("alert")
    alert.wait_for()
    assert "over" in alert.inner_text()
    assert page.locator(".replay-view").count() == 0 and cards_shown(page) == set()


# ---------------------------------------------------------------------------------- access


def test_the_pages_around_the_board_pass_axe_in_light_and_dark(
    new_page: Callable[..., Page], server: Server
) -> None:
    """No serious or critical axe-core violation on the hot-seat cover and a hot seat's table
    with its rules open, the caution, the replay (every seat, and one), and a rules page."""
    found: list[str] = []
    page = new_page()

    table = server.ok(
        "POST",
        "/api/tables",
        json={"game": "god-save-the-king", "seats": [{"kind": "person"}] * 2, "seed": 1},
    )["id"]
    page.goto("/")
    for seat, name in enumerate(("Ann", "Bob")):
        token = server.ok("POST", f"/api/tables/{table}/seats/{seat}/join", json={"name": name})
        page.evaluate(
            "([key, token]) => localStorage.setItem(key, token)",
            [f"courtly.token.{table}.{seat}", token["token"]],
        )
    page.goto(f"/table/{table}/hotseat")
    page.locator(".hotseat-cover").wait_for()
    assert_accessible(page, "hotseat cover", found)
    page.get_by_role("button", name="I am p0").click()
    page.locator(READY).first.wait_for()
    page.locator(".rules-panel summary").click()
    page.locator(".rules-text").wait_for()
    page.locator('.action-buttons button[data-action="form left KS"]').click()
    page.get_by_role("alertdialog").wait_for()
    assert_accessible(page, "hotseat table with caution and rules", found)

    finished = bots_only_game(server, "royal-gambit", seed=2, target_score=10)
    for seat in ("all", "0"):
        page.goto(f"/table/{finished}/replay?seat={seat}&step=12")
        page.locator(f'.replay-page[data-step="12"][data-seat="{seat}"]').wait_for()
        assert_accessible(page, f"replay {seat}", found)
    page.goto("/rules/goths-save-the-queen")
    page.locator(".rules-text").wait_for()
    assert_accessible(page, "rules page", found)
    assert not found, "\n\n".join(found)
