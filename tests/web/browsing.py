"""What the browser tests share: a real ``courtly serve`` process, Debian's Chromium driven by
Playwright (never a downloaded browser), pages watched for script errors, and helpers to read a
table page and play on it. The fixtures are imported by each ``test_browser*.py`` file."""

from __future__ import annotations

import contextlib
import os
import re
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx2
import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

import courtly.web
from courtly.testing.postgres import must_run
from courtly.testing.server import ServerFailed, ServerProcess

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI runs as root, where Chromium's sandbox cannot start
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
CLIENT = Path(courtly.web.__file__).parent / "static" / "index.html"
DEADLINE = 60.0
"""Seconds to wait for a condition: generous, the machine may be busy; never a measure."""
WAIT_MS = DEADLINE * 1000
CARD = re.compile(r"(10|[2-9AJQK])[SHDC]|Jk")
PHONE = {"width": 375, "height": 740}
SCREENSHOTS = os.environ.get("COURTLY_SCREENSHOTS")
READY = "button.action:not([aria-disabled=true])"
"""A move's button that may be pressed (not while the page's last move is on its way)."""

REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`);
});
"""
"""An init script: every violation of the page's Content-Security-Policy becomes a console
error (Chromium also logs one of its own)."""

GAMES = {
    "royal-gambit": "Royal Gambit",
    "god-save-the-king": "God Save The King",
    "crush-the-crown": "Crush the Crown",
    "goths-save-the-queen": "Goths Save the Queen",
    "kings-court": "King's Court",
}


def photograph(page: Page, name: str) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"), full_page=True)


# ---------------------------------------------------------------------------------- fixtures


class Server(ServerProcess):
    """A ``courtly serve`` process on a free port and a fresh SQLite file; bots move at once."""

    def __init__(self, folder: Path, options: Sequence[str] = ()) -> None:
        self.file = folder / "courtly.sqlite3"
        """The server's SQLite file (a test may write what another branch's API would)."""
        super().__init__(
            f"sqlite:///{self.file}",
            folder / "server.log",
            [
                "--bot-pace",
                "0",
                "--bot-workers",
                "1",
                # Small searches: hints and reviews in a second or two (their strength is
                # tested elsewhere, with real budgets).
                "--hint-iterations",
                "40",
                "--review-iterations",
                "40",
                *options,
            ],
        )
        self.http = httpx2.Client(base_url=self.url, timeout=30)

    def stop(self, timeout: float = 20.0) -> None:
        self.http.close()
        super().stop(timeout)

    def ok(self, method: str, path: str, **kwargs: Any) -> Any:
        response = self.http.request(method, path, **kwargs)
        assert response.is_success, f"{method} {path} -> {response.status_code} {response.text}"
        return response.json()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    yield from running_server(tmp_path_factory.mktemp("browser-server"))


def running_server(folder: Path, options: Sequence[str] = ()) -> Iterator[Server]:
    """A server in ``folder`` (with ``options`` for ``courtly serve``) until the generator ends:
    what a module's ``server`` fixture yields."""
    if not CLIENT.is_file():
        pytest.fail(f"the browser client is not built ({CLIENT} is missing): run make client")
    running = Server(folder, options)
    try:
        try:
            running.wait_ready()
        except ServerFailed as error:
            pytest.fail(str(error), pytrace=False)
        yield running
    finally:
        running.stop()


NO_SERVICE_WORKER = "window.localStorage.setItem('courtly-no-service-worker', '1')"
"""Run before a page's scripts: the app registers no service worker (src/offline/installing.tsx)."""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.is_file():
        message = (
            f"Chromium is not installed ({CHROMIUM} is missing): "
            "install it with: sudo apt-get install chromium (Debian/Ubuntu)"
        )
        if must_run():
            pytest.fail(message + "; make test installs it when run as root")
        pytest.skip(message)
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def new_page(browser: Browser, server: Server) -> Iterator[Callable[..., Page]]:
    """Pages, each in a browser context of its own (its own storage: another person), watched
    for script errors; every one is closed at the end."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def make(**options: Any) -> Page:
        context = browser.new_context(**{"base_url": server.url, **options})
        context.set_default_timeout(WAIT_MS)
        contexts.append(context)
        # The pages run under the server's Content-Security-Policy: anything it blocks is
        # reported as an error of the page (Playwright's own scripts are not subject to it).
        context.add_init_script(REPORT_VIOLATIONS)
        # No offline copy of the app: its precache (Pyodide with it) is for the tests of it.
        context.add_init_script(NO_SERVICE_WORKER)
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
        page.on(
            "console",
            lambda message: (
                errors.append(f"{page.url}: {message.text}")
                if message.type == "error" and "Content Security Policy" in message.text
                else None
            ),
        )
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"script errors in the pages: {errors}"


# ---------------------------------------------------------------------------------- helpers


def version(page: Page) -> int:
    return int(page.locator(".table-page").get_attribute("data-version") or -1)


def status(page: Page) -> str:
    return page.locator(".table-page").get_attribute("data-status") or ""


def wait_for_version(page: Page, at_least: int) -> None:
    page.wait_for_function(
        "v => Number(document.querySelector('.table-page')?.dataset.version) >= v", arg=at_least
    )


def cards_shown(page: Page) -> set[str]:
    """Every card the page holds face up, wherever it is drawn."""
    codes: list[str] = page.locator("[data-card]").evaluate_all(
        "cards => cards.map(card => card.dataset.card)"
    )
    return set(codes)


def cards_in(value: Any) -> set[str]:
    """Every card a view names anywhere (its observation and its log)."""
    if isinstance(value, str):
        return {word for word in value.split() if CARD.fullmatch(word)}
    if isinstance(value, dict):
        return set().union(*(cards_in(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(cards_in(item) for item in value))
    return set()


STORY_LINES = """items => items.map(item => {
    // The text the game wrote, read back from what the page drew: a card is drawn as a card
    // (its data-card), a seat by its person's name (its data-seat-ref: the words it stands
    // for), each part of a line on a line of its own.
    const words = node => {
        if (node.nodeType === Node.TEXT_NODE) return node.textContent;
        if (node.nodeType !== Node.ELEMENT_NODE) return "";
        if (node.dataset.card) return node.dataset.card;
        if (node.dataset.seatRef) return node.dataset.seatRef;
        return [...node.childNodes].map(words).join("");
    };
    const parts = [...item.querySelectorAll(".story-text > .story-part")];
    return [Number(item.dataset.event), parts.map(words).join("\\n")];
})"""


def story_shown(scope: Page | Locator) -> list[list[Any]]:
    """The lines of the story drawn in ``scope`` (a page, or a part of it), each as
    ``[event index, the text the game wrote]``: what the server sends as a seat's story."""
    lines: list[list[Any]] = scope.locator("li.story-line").evaluate_all(STORY_LINES)
    return lines


def text_shown(scope: Locator) -> str:
    """The game's words inside ``scope`` (one story text: a line, a reason, a score), read back
    as :data:`STORY_LINES` reads them."""
    found: str = scope.evaluate(
        """scope => {
            const words = node => {
                if (node.nodeType === Node.TEXT_NODE) return node.textContent;
                if (node.nodeType !== Node.ELEMENT_NODE) return "";
                if (node.dataset.card) return node.dataset.card;
                if (node.dataset.seatRef) return node.dataset.seatRef;
                return [...node.childNodes].map(words).join("");
            };
            const parts = scope.querySelectorAll(".story-part");
            return parts.length ? [...parts].map(words).join("\\n") : words(scope);
        }"""
    )
    return found


MOVED = """v => Number(document.querySelector('.table-page')?.dataset.version) > v
    || document.querySelector('.actions [role=alert]') !== null"""
"""The page after a move is sent: the view after it, or its refusal."""
MOVED_OR_ASKED = MOVED.replace(
    "!== null", "!== null || document.querySelector('.actions .caution') !== null"
)
"""The page after a move is clicked: as :data:`MOVED`, or the question asked before a move that
throws the game away."""


def move_answered(page: Page, before: int) -> None:
    """Wait for the view after a move clicked at version ``before``; a move that throws the game
    away (a God Save The King player's own King laid where it is revealed, perhaps the only move
    a deal leaves him) is asked again first, and confirmed. A refusal fails the test: it would
    be a bug here."""
    page.wait_for_function(MOVED_OR_ASKED, arg=before)
    caution = page.locator(".actions .caution .caution-confirm")
    if caution.count():
        caution.click()
        page.wait_for_function(MOVED, arg=before)
    refusal = page.locator(".actions [role=alert]")
    assert refusal.count() == 0, refusal.first.inner_text()


def play_to_end(page: Page, server: Server, most_moves: int = 400) -> int:
    """Click the first legal action whenever the page offers one, until the game is over;
    returns the number of moves made. A refused move fails the test with its message."""
    page.locator(".table-page").wait_for()
    moves = 0
    deadline = time.monotonic() + 3 * DEADLINE
    while status(page) != "over":
        assert time.monotonic() < deadline, f"the game did not end{server.log_tail()}"
        assert moves < most_moves, "the game did not end"
        page.locator(f".table-page[data-status=over], {READY}").first.wait_for()
        if status(page) == "over":
            break
        before = version(page)
        page.locator(READY).first.click()
        moves += 1
        move_answered(page, before)
    return moves


ALONE_TO_MOVE = """seat => {
    const table = document.querySelector('.table-page');
    if (!table) return false;
    if (table.dataset.status === 'over') return true;
    if (!document.querySelector('button.action:not([aria-disabled=true])')) return false;
    const moving = [...document.querySelectorAll('.seats li.seat.to-move')];
    return moving.length > 0 && moving.every(li => li.dataset.seat === String(seat));
}"""
"""The game is over, or the page's seat may move and no other seat is still to (the page stands
still until it moves: nobody else's move can change it between a card's click and its confirm)."""


class Played:
    """What :func:`play_to_end_by_cards` did: moves made, those made by clicking a card."""

    def __init__(self) -> None:
        self.total = 0
        self.by_card = 0


def play_to_end_by_cards(
    page: Page,
    server: Server,
    seat: int = 0,
    prefer: tuple[str, ...] = (),
    on_turn: Callable[[int], None] | None = None,
    most_moves: int = 600,
) -> Played:
    """Play the page's seat to the end of the game as a person does on a game's board: where the
    board offers a card to click (``[data-pick]``), click it and then the move naming it in the
    moves panel; otherwise click the first move's button. ``prefer`` are CSS selectors of the
    board's cards tried in order before the first card offered. ``on_turn(moves made so far)`` is
    called at every position where the seat alone is to move. A refused move fails the test."""
    page.locator(".table-page").wait_for()
    played = Played()
    # A stall is caught between two moves (a long game on a busy machine is no stall).
    deadline = time.monotonic() + DEADLINE
    while True:
        assert time.monotonic() < deadline, f"the game stalled{server.log_tail()}"
        assert played.total < most_moves, "the game did not end"
        page.wait_for_function(ALONE_TO_MOVE, arg=seat)
        if status(page) == "over":
            return played
        if on_turn is not None:
            on_turn(played.total)
        before = version(page)
        cards = page.locator("[data-board] button[data-pick]")
        if cards.count():
            card = cards.first
            for selector in prefer:
                preferred = page.locator(f"[data-board] {selector}").and_(cards)
                if preferred.count():
                    card = preferred.first
                    break
            card.click()
            assert card.get_attribute("aria-pressed") == "true", "the card clicked is not picked"
            page.locator(".picked-moves button.confirm").first.click()
            played.by_card += 1
        else:
            page.locator(READY).first.click()
        played.total += 1
        deadline = time.monotonic() + DEADLINE
        move_answered(page, before)


def create_through_the_form(
    page: Page,
    game: str,
    seats: list[str],
    options: dict[str, str] | None = None,
    seed: int | None = None,
    name: str = "Ann",
) -> str:
    """Fill the lobby's form: ``seats`` are "person" or a bot's name. Returns the table id."""
    page.goto("/")
    page.select_option("#create-game", game)
    page.select_option("#create-players", str(len(seats)))
    page.fill("#create-name", name)
    for index, seat in enumerate(seats):
        page.select_option(f"#seat-{index}-kind", "person" if seat == "person" else "bot")
        if seat != "person":
            page.select_option(f"#seat-{index}-bot", seat)
    for option, value in (options or {}).items():
        page.fill(f"#option-{option}", value)
    if seed is not None:
        page.get_by_text("More", exact=True).click()
        page.fill("#create-seed", str(seed))
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/table/[^/?]+\?seat=\d+$"))
    found = re.search(r"/table/([^/?]+)", page.url)
    assert found is not None
    return found.group(1)


def no_horizontal_scroll(page: Page) -> None:
    """The page fits the phone's width once its layout has settled: a chart redraws for a new
    viewport on the next frames, so the width is read again for up to two seconds. The predicate
    is a function: Playwright polls a bare expression through eval, which the page's
    Content-Security-Policy refuses."""
    fits = f"() => document.documentElement.scrollWidth <= {PHONE['width']}"
    with contextlib.suppress(PlaywrightTimeoutError):  # the assertion below says how wide
        page.wait_for_function(fits, timeout=2000)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page scrolls sideways: {width} px wide"
