"""The browser client is accessible and responsive, in a real Chromium against a real server.

- axe-core (an npm dev dependency of the client, injected from its ``node_modules``: never a
  CDN) checks WCAG 2 A/AA and 2.1 AA on the lobby, the create form, and a table of each game,
  as a seat and as a spectator, at the start and after a few moves, in light and dark mode: a
  "serious" or "critical" violation fails, listed with its rule, its help and its targets.
- A short game played by the keyboard alone (Tab, Shift+Tab, Enter, Space; no mouse), a card
  picked on a board by the keyboard, and every focused element showing a visible focus ring.
- Phone widths (375 and 320 pixels): no sideways scrolling, the moves within reach.
- Dark mode: ``prefers-color-scheme: dark`` darkens the page and lightens its text; cards stay
  readable, red suits told from black ones, in both modes.

The fixtures (``server``, ``browser``, ``new_page``) and helpers are in :mod:`tests.web.browsing`.
With ``COURTLY_SCREENSHOTS`` set to a folder, what is checked is photographed there.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

import courtly.web

from .browsing import (
    DEADLINE,
    GAMES,
    READY,
    Server,
    create_through_the_form,
    photograph,
    status,
    version,
    wait_for_version,
)

AXE = Path(courtly.web.__file__).parent / "client" / "node_modules" / "axe-core" / "axe.min.js"
AXE_TAGS = ["wcag2a", "wcag2aa", "wcag21aa"]
SERIOUS = {"serious", "critical"}
SCHEMES = ("light", "dark")
PHONES = ({"width": 375, "height": 740}, {"width": 320, "height": 740})
SEEDS = {
    "royal-gambit": 5,
    "god-save-the-king": 11,
    "crush-the-crown": 3,
    "goths-save-the-queen": 7,
    "kings-court": 2,
}
"""A fixed deal for each game's table: the same positions are checked at every run."""

# ---------------------------------------------------------------------------------- axe


def axe_violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations of the page as it stands (every impact)."""
    if not AXE.is_file():
        pytest.fail(f"axe-core is missing ({AXE}): run make client (npm ci installs it)")
    if not page.evaluate("typeof window.axe === 'object'"):
        # Run by the browser's debugger, not a script tag: the page's Content-Security-Policy
        # rightly blocks an inline script.
        page.evaluate(AXE.read_text())
    settle(page)
    violations: list[dict[str, Any]] = page.evaluate(
        """async tags => {
            const results = await axe.run(document, {
                runOnly: { type: "tag", values: tags },
                resultTypes: ["violations"],
            });
            return results.violations.map(v => ({
                id: v.id,
                impact: v.impact,
                help: v.help,
                nodes: v.nodes.map(n => ({
                    target: n.target.map(String).join(" "),
                    impact: n.impact,
                    summary: (n.failureSummary || "").split("\\n").slice(0, 2).join(" "),
                })),
            }));
        }""",
        AXE_TAGS,
    )
    return violations


def readable(violations: list[dict[str, Any]]) -> str:
    lines = []
    for violation in violations:
        lines.append(f"- {violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:8]:
            lines.append(f"    {node['target']}  [{node['summary']}]")
        if len(violation["nodes"]) > 8:
            lines.append(f"    … and {len(violation['nodes']) - 8} more")
    return "\n".join(lines)


def assert_accessible(page: Page, where: str, found: list[str]) -> None:
    """Check ``page`` in light and in dark mode; each serious or critical violation is added to
    ``found`` (the test fails at its end with all of them, not only the first page's)."""
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        serious = [v for v in axe_violations(page) if v["impact"] in SERIOUS]
        if serious:
            found.append(f"{where}, {scheme} mode:\n{readable(serious)}")
        photograph(page, f"{where.replace(' ', '-')}-{scheme}")
    page.emulate_media(color_scheme="light")


def settle(page: Page) -> None:
    """Wait until no finite animation runs (axe reads colours: not halfway through a fade)."""
    page.wait_for_function(
        """() => document.getAnimations().every(a =>
               a.playState !== "running" || a.effect?.getTiming().iterations === Infinity)"""
    )


# ---------------------------------------------------------------------------------- helpers


def wait_for_turn_or_end(page: Page) -> None:
    page.locator(f".table-page[data-status=over], {READY}").first.wait_for()


def make_a_move(page: Page, use_cards: bool = True) -> None:
    """Play the first legal move: through a card on the board when one is playable (picked,
    then confirmed), else its button in the moves panel."""
    before = version(page)
    card = page.locator("button[data-pick]")
    if use_cards and card.count() > 0:
        card.first.click()
        page.locator("button.action.confirm").first.click()
    else:
        page.locator(READY).first.click()
    page.wait_for_function(
        """v => Number(document.querySelector('.table-page')?.dataset.version) > v
               || document.querySelector('.actions [role=alert]') !== null""",
        arg=before,
    )
    refusal = page.locator(".actions [role=alert]")
    assert refusal.count() == 0, refusal.first.inner_text()


def against_bots(server: Server, game: str) -> list[str]:
    info = server.ok("GET", f"/api/games/{game}")
    return ["person"] + ["heuristic"] * (info["default_players"] - 1)


WIDEST = """width => [...document.querySelectorAll("body *")]
    .filter(e => e.getBoundingClientRect().right > width + 0.5
                 && ![...e.children].some(c => c.getBoundingClientRect().right > width + 0.5))
    .slice(0, 6)
    .map(e => `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} `
              + `(right edge ${Math.round(e.getBoundingClientRect().right)})`)
    .join(", ")"""
"""The innermost elements past the right edge: what makes a page scroll sideways."""


def fits(page: Page, width: int, where: str) -> None:
    """No sideways scrolling at ``width``, and every move's button (and every playable card)
    lies within the screen's width: reachable by scrolling down alone."""
    page.set_viewport_size({"width": width, "height": 740})
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    if scroll_width > width:
        wide = page.evaluate(WIDEST, width)
        pytest.fail(f"{where} scrolls sideways at {width} px: {scroll_width} px wide; {wide}")
    outside = page.evaluate(
        """width => [...document.querySelectorAll("button.action, button[data-pick]")]
            .map(b => [b.textContent, b.getBoundingClientRect()])
            .filter(([, r]) => r.left < 0 || r.right > width + 0.5)
            .map(([text, r]) => `${text} at ${Math.round(r.left)}..${Math.round(r.right)}`)""",
        width,
    )
    assert not outside, f"{where}: moves out of reach at {width} px: {outside}"


# ---------------------------------------------------------------------------------- the lobby


def test_the_lobby_and_the_create_form_pass_axe(
    new_page: Callable[..., Page], server: Server
) -> None:
    # axe's colour-contrast rule sets style attributes of its own, which the page's CSP blocks:
    # here alone the CSP is lifted (every other page test runs under it).
    page = new_page(color_scheme="light", bypass_csp=True)
    page.goto("/")
    page.locator(".games > li").nth(4).wait_for()
    found: list[str] = []
    assert_accessible(page, "lobby", found)
    # The form of each game (its own options), the seed's field open, both clock modes.
    page.get_by_text("More", exact=True).click()
    for game in GAMES:
        page.select_option("#create-game", game)
        assert_accessible(page, f"create form {game}", found)
    page.get_by_label("Turn-based").check()
    page.select_option("#seat-0-kind", "bot")
    assert_accessible(page, "create form turn-based with bots", found)
    assert not found, "axe finds serious violations:\n" + "\n".join(found)

    # The check can fail: a nameless button of faint text planted in the page is found.
    page.evaluate(
        """() => document.querySelector("main").insertAdjacentHTML("beforeend",
            '<button style="color:#ccc;background:#fff"></button><p style="color:#ddd">faint</p>')"""
    )
    planted = {v["id"] for v in axe_violations(page) if v["impact"] in SERIOUS}
    assert {"button-name", "color-contrast"} <= planted, planted


def test_the_lobby_and_the_create_form_fit_a_phone(
    new_page: Callable[..., Page], server: Server
) -> None:
    for size in PHONES:
        page = new_page(viewport=size)
        page.goto("/")
        page.locator(".games > li").nth(4).wait_for()
        fits(page, size["width"], "the lobby")
        photograph(page, f"lobby-phone-{size['width']}")
        page.get_by_text("More", exact=True).click()
        for game in GAMES:
            page.select_option("#create-game", game)
            fits(page, size["width"], f"the create form of {game}")
        # The form's button is reachable: creating a table from the phone works.
        create_through_the_form(page, "kings-court", ["person", "random"], seed=1)
        page.locator(".table-page").wait_for()
        fits(page, size["width"], "a new table")


# ---------------------------------------------------------------------------------- each game


@pytest.mark.parametrize("game", list(GAMES))
def test_each_game_table_passes_axe_and_fits_a_phone(
    game: str, new_page: Callable[..., Page], server: Server
) -> None:
    """A person against bots, as that seat and as a spectator: at the start and after a few
    moves, in light and dark mode, at a desktop's width and at a phone's."""
    page = new_page(color_scheme="light")
    table = create_through_the_form(page, game, against_bots(server, game), seed=SEEDS[game])
    wait_for_turn_or_end(page)
    watcher = new_page(color_scheme="dark")
    watcher.goto(f"/table/{table}")
    watcher.locator(".table-page").wait_for()
    found: list[str] = []

    def check_both(when: str) -> None:
        wait_for_turn_or_end(page)
        wait_for_version(watcher, version(page))
        assert_accessible(page, f"{game} seat {when}", found)
        assert_accessible(watcher, f"{game} spectator {when}", found)

    check_both("start")
    tab_through(page, f"{game}'s table")
    # A card picked on the board (its confirmation shown) is checked too, where there is one.
    if page.locator("button[data-pick]").count() > 0:
        page.locator("button[data-pick]").first.click()
        page.locator("button.action.confirm").first.wait_for()
        assert_accessible(page, f"{game} seat card picked", found)
        page.locator("button[data-pick][aria-pressed=true]").first.click()
    for _ in range(3):
        wait_for_turn_or_end(page)
        if status(page) == "over":
            break
        make_a_move(page)
    check_both("after moves")

    for size in PHONES:
        for viewer, who in ((page, "the seat"), (watcher, "the spectator")):
            fits(viewer, size["width"], f"{game}'s table ({who})")
        photograph(page, f"{game}-seat-phone-{size['width']}")
    # On a phone, the moves are played too (Playwright scrolls to them and clicks as a finger).
    for _ in range(2):
        wait_for_turn_or_end(page)
        if status(page) == "over":
            break
        make_a_move(page)
        fits(page, PHONES[-1]["width"], f"{game}'s table after a move on the phone")
    assert not found, "axe finds serious violations:\n" + "\n".join(found)


# ---------------------------------------------------------------------------------- keyboard

FOCUS_SHOWN = r"""() => {
    const element = document.activeElement;
    if (!element || element === document.body) return "nothing has the focus";
    const style = getComputedStyle(element);
    const rect = element.getBoundingClientRect();
    const name = `${element.tagName.toLowerCase()}${element.id ? "#" + element.id : ""}`
        + ` "${(element.textContent || element.getAttribute("aria-label") || "").trim().slice(0, 40)}"`;
    if (rect.width < 1 || rect.height < 1) return `${name} is focused but not shown`;
    const clear = colour => colour === "transparent" || /^rgba\(.*,\s*0\)$/.test(colour);
    const ring = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2
        && !clear(style.outlineColor);
    const shadow = style.boxShadow !== "none" && element.matches(":focus-visible");
    if (!ring && !shadow) return `${name} shows no focus ring`;
    return "";
}"""


FOCUSED = """() => { const e = document.activeElement;
    return `${e.tagName.toLowerCase()}.${[...e.classList].join(".")} ${(e.textContent || "").trim().slice(0, 20)}`; }"""


def press(page: Page, key: str, edge: bool = False) -> None:
    """Press ``key`` and check the element that has the focus then shows it (``edge``: the
    focus may also have left the page, as Tab does past its last control)."""
    page.keyboard.press(key)
    problem = page.evaluate(FOCUS_SHOWN)
    if edge and problem == "nothing has the focus":
        return
    assert not problem, f"after {key}: {problem}"


def tab_to(page: Page, selector: str, backwards: bool = False, most: int = 120) -> None:
    """Tab (or Shift+Tab) until the focused element matches ``selector``."""
    key = "Shift+Tab" if backwards else "Tab"
    trail: list[str] = []
    for _ in range(most):
        if page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
            return
        press(page, key, edge=True)
        trail.append(page.evaluate(FOCUSED))
    pytest.fail(f"{key} never reached {selector}; it went through {trail[:30]}")


def test_royal_gambit_played_by_keyboard_alone(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page()
    page.goto("/")
    page.locator(".games > li").nth(4).wait_for()
    # The lobby: its game's "New table" button, which takes the focus to the form.
    tab_to(page, "button[aria-label='New table of Royal Gambit']")
    press(page, "Enter")
    page.wait_for_function("() => document.activeElement?.id === 'create-game'")
    assert page.locator("#create-game").input_value() == "royal-gambit"
    tab_to(page, "#create-name")
    page.keyboard.type("Kay")
    tab_to(page, "#option-target_score")
    press(page, "Control+A")
    page.keyboard.type("15")
    tab_to(page, "details:not(.advanced) > summary")
    press(page, "Enter")  # opens "More"
    tab_to(page, "#create-seed")
    page.keyboard.type("5")
    tab_to(page, "button[type=submit]")
    page.keyboard.press("Enter")  # the page changes: the table's first move takes the focus
    page.locator(".table-page").wait_for()
    table = page.url.rsplit("/", 1)[-1].split("?")[0]
    assert server.ok("GET", f"/api/tables/{table}")["options"]["target_score"] == 15

    moves = 0
    deadline = time.monotonic() + 3 * DEADLINE
    while True:
        wait_for_turn_or_end(page)
        if status(page) == "over":
            break
        assert time.monotonic() < deadline and moves < 200, "the game did not end"
        # The first move: reached by Tab, or by Shift+Tab from a later one that kept the focus.
        if not page.evaluate("document.activeElement?.matches('button.action') ?? false"):
            tab_to(page, "button.action")
        first = page.locator("button.action").first
        tab_to(page, ".action-buttons > button.action:first-child", backwards=True, most=20)
        assert first.evaluate("b => b === document.activeElement")
        if moves == 0:
            photograph(page, "keyboard-focus-on-a-move")
        before = version(page)
        # The move's buttons go while the bots play (the focus with them): the next turn's
        # first move takes it back, checked at the next turn.
        page.keyboard.press("Enter" if moves % 2 == 0 else " ")
        wait_for_version(page, before + 1)
        moves += 1
    assert moves > 0
    page.locator(".ending").wait_for()
    # The end: the rematch button is reached by the keyboard too.
    tab_to(page, ".ending button")
    found: list[str] = []
    assert_accessible(page, "royal-gambit seat over", found)
    assert not found, "axe finds serious violations:\n" + "\n".join(found)


def tab_through(page: Page, where: str) -> None:
    """Tab through every control of the page once: each shows its focus when it has it."""
    page.evaluate("document.activeElement?.blur()")
    for pressed in range(300):
        page.keyboard.press("Tab")
        problem = page.evaluate(FOCUS_SHOWN)
        if problem == "nothing has the focus" and pressed > 0:
            return  # past the last control
        assert not problem, f"{where}, Tab: {problem}"
    pytest.fail(f"{where}: Tab never left the page after 300 controls")


@pytest.mark.parametrize("game", ["kings-court", "crush-the-crown"])
def test_a_card_picked_on_the_board_by_keyboard(
    game: str, new_page: Callable[..., Page], server: Server
) -> None:
    """Tab to a card the seat may play, Enter picks it (pressed), then its move is confirmed by
    the keyboard: the move played is one the picked card names. Turns without a card to play
    (a pass) are played by the keyboard too."""
    page = new_page()
    create_through_the_form(page, game, against_bots(server, game), seed=SEEDS[game])
    picks = 0
    for turn in range(12):
        wait_for_turn_or_end(page)
        if status(page) == "over" or picks == 3:
            break
        page.evaluate("document.activeElement?.blur()")
        before = version(page)
        if page.locator("button[data-pick]").count() == 0:
            tab_to(page, "button.action")
            page.keyboard.press("Enter")
            wait_for_version(page, before + 1)
            continue
        tab_to(page, "button[data-pick]")
        card = page.evaluate("document.activeElement.dataset.pick")
        press(page, "Enter")
        page.locator(f"button[data-pick='{card}'][aria-pressed=true]").wait_for()
        # The picked card's moves, docked at the bottom of the screen, take the focus.
        page.wait_for_function("() => document.activeElement?.matches('button.action.confirm')")
        if picks == 0:
            photograph(page, f"keyboard-{game}-card-picked")
            # Escape drops the card and gives the focus back to it; Enter picks it again.
            page.keyboard.press("Escape")
            page.wait_for_function(
                "c => document.activeElement?.dataset.pick === c"
                " && document.activeElement.getAttribute('aria-pressed') === 'false'",
                arg=card,
            )
            assert page.locator(".picked-moves").count() == 0
            press(page, "Enter")
            page.wait_for_function("() => document.activeElement?.matches('button.action.confirm')")
        move = page.evaluate("document.activeElement.dataset.action")
        if picks == 0:
            photograph(page, f"keyboard-{game}-confirm-focused")
        assert card in move.split(), f"{move!r} does not name the picked {card}"
        page.keyboard.press(" " if turn % 2 else "Enter")
        wait_for_version(page, before + 1)
        picks += 1
        # The seat's own story names the card it played.
        page.locator(f".story [data-card='{card}']").first.wait_for()
    assert picks >= 2, f"only {picks} cards were picked by the keyboard"


# ---------------------------------------------------------------------------------- dark mode

COLOURS = """() => {
    const canvas = document.createElement("canvas").getContext("2d");
    const rgb = colour => {
        canvas.clearRect(0, 0, 1, 1);
        canvas.fillStyle = colour;
        canvas.fillRect(0, 0, 1, 1);
        return Array.from(canvas.getImageData(0, 0, 1, 1).data);
    };
    const background = element => {
        for (let e = element; e; e = e.parentElement) {
            const colour = rgb(getComputedStyle(e).backgroundColor);
            if (colour[3] > 0) return colour;
        }
        return [255, 255, 255, 255];
    };
    const card = selector => {
        const face = document.querySelector(selector);
        if (!face) return null;
        const rank = face.querySelector(".card-rank") || face;
        return { text: rgb(getComputedStyle(rank).color), background: background(rank) };
    };
    return {
        page: background(document.body),
        text: rgb(getComputedStyle(document.body).color),
        red: card("[data-card].card-red"),
        black: card("[data-card].card-black"),
    };
}"""


def luminance(colour: list[int]) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: list[int], two: list[int]) -> float:
    high, low = sorted((luminance(one), luminance(two)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def reddish(colour: list[int]) -> bool:
    r, g, b = colour[:3]
    return r - max(g, b) >= 80


def test_dark_mode_switches_the_colours_and_keeps_cards_readable(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page(color_scheme="light")
    # Crush the Crown deals a hand of both colours at this seed (checked below).
    create_through_the_form(page, "crush-the-crown", ["person", "heuristic"], seed=3)
    wait_for_turn_or_end(page)
    seen: dict[str, dict[str, Any]] = {}
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        settle(page)
        colours = page.evaluate(COLOURS)
        seen[scheme] = colours
        photograph(page, f"colours-{scheme}")
        assert colours["red"] and colours["black"], "the hand holds a red and a black card"
        for suit in ("red", "black"):
            card = colours[suit]
            ratio = contrast(card["text"], card["background"])
            assert ratio >= 4.5, f"{suit} cards in {scheme} mode: contrast {ratio:.2f} < 4.5"
        assert reddish(colours["red"]["text"]), f"red suits are not red in {scheme} mode"
        assert not reddish(colours["black"]["text"]), f"black suits look red in {scheme} mode"
        assert contrast(colours["text"], colours["page"]) >= 7, f"body text in {scheme} mode"
    light, dark = seen["light"], seen["dark"]
    assert luminance(light["page"]) > 0.7 and luminance(light["text"]) < 0.1
    assert luminance(dark["page"]) < 0.05, f"the dark page's background is {dark['page']}"
    assert luminance(dark["text"]) > 0.6, f"the dark page's text is {dark['text']}"
