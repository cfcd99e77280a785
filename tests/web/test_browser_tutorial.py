"""A tutorial, in a real Chromium against a real server, for every game that teaches one: "Learn
to play" on the lobby's game card opens the learner's table, the coaching panel shows each
lesson's number and the engine's coach words (cards drawn as cards, rule ids linked), the hint's
estimates on "Why? Show the hint", the game is played to its end by clicking, and "Play a real
game" opens the lobby's form on the game. axe checks the table with its panel; the panel is
photographed at 1,280 and 375 pixels (with ``COURTLY_SCREENSHOTS`` set).

The server runs :mod:`.teaching`'s command: the games' own tutorials, and the sample one for
Royal Gambit while it declares none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page

import courtly.testing.server
from courtly.core.game import replay
from courtly.core.registry import game_class, make

from . import teaching
from .browsing import (
    GAMES,
    PHONE,
    Server,
    no_horizontal_scroll,
    photograph,
    play_to_end_by_cards,
    text_shown,
    version,
)
from .test_browser_access import assert_accessible
from .test_browser_table import seat_view, token_of, wait_for_path

WIDE = {"width": 1280, "height": 900}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The browser tests' server, teaching the sample tutorial too (this module's pages)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(courtly.testing.server, "COMMAND", teaching.SERVE)
        running = Server(tmp_path_factory.mktemp("tutorial-server"))
    try:
        try:
            running.wait_ready()
        except courtly.testing.server.ServerFailed as error:
            pytest.fail(str(error), pytrace=False)
        yield running
    finally:
        running.stop()


@pytest.fixture(autouse=True)
def sample_tutorial(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same tutorials in this process as at the server (the expected coach words)."""
    teaching.install(monkeypatch.setattr)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "taught" in metafunc.fixturenames:
        with pytest.MonkeyPatch.context() as patch:
            teaching.install(patch.setattr)
            metafunc.parametrize("taught", teaching.taught())


def test_learn_to_play_is_offered_on_the_cards_of_the_games_that_teach(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page(viewport=WIDE)
    page.goto("/")
    taught = set(teaching.taught())
    for game, title in GAMES.items():
        card = page.locator(f"li.game[data-game={game}]")
        card.wait_for()
        offered = card.get_by_role("button", name=f"Learn to play {title}").count()
        assert offered == (game in taught), (game, offered)
    found: list[str] = []
    assert_accessible(page, "lobby with tutorials", found)
    assert not found, "\n".join(found)


def test_a_tutorial_is_played_to_its_end_by_clicking_with_each_lesson_shown(
    new_page: Callable[..., Page], server: Server, taught: str
) -> None:
    tutorial = game_class(taught).info.tutorial
    assert tutorial is not None
    title = GAMES[taught]
    page = new_page(viewport=WIDE, color_scheme="light")
    page.goto("/")
    page.get_by_role("button", name=f"Learn to play {title}").click()
    table = wait_for_path(page, r"^/table/([^/]+)$")
    token = token_of(page, table, tutorial.learner)
    panel = page.locator(".coach-panel")
    shown: dict[int, tuple[str, str]] = {}
    """What the panel said at each of the learner's decisions: its heading and its words."""

    def lesson_shown(made: int) -> None:
        at = version(page)
        heading = panel.locator("h2").inner_text()
        words = text_shown(panel.locator(".coach-words"))
        shown[at] = (heading, words)
        lesson = seat_view(server, table, tutorial.learner, token)["lesson"]
        if lesson["number"] is None:
            assert heading == "On your own"
            assert words == lesson["coach"]
            return
        assert heading == f"Lesson {made + 1} of {tutorial.lessons}"
        assert lesson["number"] == made + 1
        if made == 0:
            first_lesson(page, taught, words)

    played = play_to_end_by_cards(page, server, seat=tutorial.learner, on_turn=lesson_shown)
    assert played.total >= 1
    assert sum(1 for heading, _ in shown.values() if heading.startswith("Lesson ")) == min(
        tutorial.lessons, played.total
    )
    # Each lesson's words are the engine's coach on the position as it stood (the record, public
    # once the game is over, replays it).
    record = server.ok("GET", f"/api/tables/{table}/record")
    game = make(taught, players=record["players"], **record["options"])
    for at, (heading, words) in shown.items():
        if heading.startswith("Lesson "):
            state = replay(game, record["history"][:at])
            expected = game.text.coach(state, tutorial.learner) or "Choose your move below."
            assert words == expected, (at, heading)
    # The end: the panel says so, the ending offers a real game, which opens the lobby's form.
    assert panel.locator("h2").inner_text() == "Tutorial complete"
    found: list[str] = []
    assert_accessible(page, f"tutorial {taught} over", found)
    assert not found, "\n".join(found)
    page.get_by_role("link", name="Play a real game").click()
    wait_for_path(page, r"^(/)$")
    page.wait_for_function(
        "game => document.querySelector('#create-game')?.value === game", arg=taught
    )


def first_lesson(page: Page, game: str, words: str) -> None:
    """At the first lesson: its cards drawn as cards and its rule ids linked, the hint's
    estimates behind it, axe, and the page at 1,280 and 375 pixels."""
    panel = page.locator(".coach-panel")
    words_box = panel.locator(".coach-words")
    if game == teaching.SAMPLE_GAME and words.startswith("After "):  # the sample's words
        assert words_box.locator("[data-card='5H']").count() == 1
        link = words_box.locator("a.rule-link")
        assert link.inner_text() == "RG-3"
        assert link.get_attribute("href") == "/rules/royal-gambit#rg-3"
    panel.get_by_role("button", name="Why? Show the hint").click()
    estimates = panel.locator("ol.hint-list li")
    estimates.first.wait_for()
    assert estimates.count() >= 1
    assert "%" in estimates.first.inner_text()
    # Beside the board on a wide screen: the panel's left edge is right of the board's.
    board = page.locator(".table-main").bounding_box()
    beside = panel.bounding_box()
    assert board is not None and beside is not None
    assert beside["x"] >= board["x"] + board["width"] - 1
    found: list[str] = []
    assert_accessible(page, f"tutorial {game} lesson 1", found)
    assert not found, "\n".join(found)
    photograph(page, f"tutorial-{game}-1280")
    # Above the moves on a phone.
    page.set_viewport_size(PHONE)
    no_horizontal_scroll(page)
    moves = page.locator(".actions").bounding_box()
    above = panel.bounding_box()
    assert moves is not None and above is not None
    assert above["y"] + above["height"] <= moves["y"] + 1
    photograph(page, f"tutorial-{game}-375")
    page.set_viewport_size(WIDE)
