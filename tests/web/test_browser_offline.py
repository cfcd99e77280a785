"""Play offline, in a real Chromium: the lobby's "Play offline" opens /offline, whose table is
played by Courtly's own engine in a Web Worker under Pyodide (served from the build, never a
CDN), fed to the same table page as a server's table. Every game is played to its end against
bots by clicking; a hot-seat game shows only the seat to move; once the page has loaded, the
network may go away.

The fixtures (``server``, ``browser``, ``new_page``) and helpers are in :mod:`tests.web.browsing`.
With ``COURTLY_SCREENSHOTS`` set to a folder, the pages are photographed there.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from courtly.testing.cli import invoke

from .browsing import (
    DEADLINE,
    GAMES,
    PHONE,
    READY,
    Server,
    no_horizontal_scroll,
    photograph,
    play_to_end,
    running_server,
    status,
    version,
)
from .test_browser_people import sign
from .test_offline_uploads import offline_record

START = "Start the game"
ENGINE_MS = 3 * DEADLINE * 1000
"""Pyodide's first start compiles its WebAssembly: generous, the machine may be busy."""


HANDED_ON = """v => document.querySelector('.hotseat-cover') !== null
    || Number(document.querySelector('.table-page')?.dataset.version) > v"""
"""The page after a hot-seat move: the next view of the same seat, or the cover for the next."""


def open_offline(
    page: Page, game: str, opponents: str = "bots", players: int | None = None
) -> None:
    """From the lobby to an offline table of ``game``: the form filled in and sent."""
    page.goto("/")
    page.get_by_role("link", name="Play offline").click()
    page.get_by_role("button", name=START).wait_for(timeout=ENGINE_MS)
    page.locator("select[name=game]").select_option(game)
    if players is not None:
        page.locator("select[name=players]").select_option(str(players))
    if opponents == "hotseat":
        page.locator("select[name=seat-1]").select_option("person")
    page.get_by_role("button", name=START).click()


@pytest.mark.parametrize("game", list(GAMES))
def test_every_game_plays_to_its_end_against_bots_offline_by_clicking(
    game: str, new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page()
    open_offline(page, game)
    page.locator(".table-page[data-seat='0']").wait_for()
    page.locator(f".table-page[data-status=over], {READY}").first.wait_for()
    photograph(page, f"offline-{game}-1280")
    assert play_to_end(page, server) > 0
    ending = page.locator(".ending")
    ending.wait_for()
    assert ending.get_by_text("Rematch").count() == 0  # (no server to hold a rematch)
    photograph(page, f"offline-{game}-over-1280")


def test_the_network_may_go_once_the_page_is_loaded(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page()
    page.goto("/offline")
    page.get_by_role("button", name=START).wait_for(timeout=ENGINE_MS)
    page.context.set_offline(True)
    page.get_by_role("button", name=START).click()
    assert play_to_end(page, server) > 0
    assert status(page) == "over"


@pytest.mark.parametrize(("players", "people"), [(2, [0, 1]), (3, [0, 2])])
def test_a_hot_seat_game_shows_only_the_seat_to_move(
    players: int, people: list[int], new_page: Callable[..., Page], server: Server
) -> None:
    """People share the device (with a bot between them in the second case): only a person's
    seat is ever shown, the one to move, and the device is passed between people with the
    table hidden."""
    page = new_page(viewport=PHONE)
    page.goto("/offline")
    page.get_by_role("button", name=START).wait_for(timeout=ENGINE_MS)
    page.locator("select[name=game]").select_option("royal-gambit")
    page.locator("select[name=players]").select_option(str(players))
    for seat in range(players):
        choice = "person" if seat in people else "heuristic"
        page.locator(f"select[name=seat-{seat}]").select_option(choice)
    photograph(page, f"offline-form-hotseat-{players}-375")
    page.get_by_role("button", name=START).click()
    covers = moves = 0
    choices = random.Random(34)
    while True:
        assert moves < 400, f"the game did not end{server.log_tail()}"
        page.locator(f".hotseat-cover, .table-page[data-status=over], {READY}").first.wait_for()
        cover = page.locator(".hotseat-cover")
        if cover.count():
            # Between two people nothing of the table is on the page.
            assert page.locator(".table-page").count() == 0
            seat = cover.get_attribute("data-cover-seat")
            assert seat is not None and int(seat) in people  # (a bot's seat is never handed over)
            if covers == 0:
                photograph(page, "offline-hotseat-cover-375")
            covers += 1
            cover.get_by_role("button", name=f"I am p{seat}").click()
            page.locator(f".table-page[data-seat='{seat}']").wait_for()
            continue
        if status(page) == "over":
            break
        table = page.locator(".table-page")
        shown = table.get_attribute("data-seat")
        moving = page.locator(".seats li.seat.to-move")
        assert shown in [moving.nth(i).get_attribute("data-seat") for i in range(moving.count())]
        assert shown is not None and int(shown) in people
        no_horizontal_scroll(page)
        before = version(page)
        # Either move at random (seeded): always the first would hit for ever in Royal Gambit.
        ready = page.locator(READY)
        ready.nth(choices.randrange(ready.count())).click()
        moves += 1
        page.wait_for_function(HANDED_ON, arg=before)
    assert covers >= 2
    photograph(page, "offline-hotseat-over-375")


SERVICE_WORKER_READY = "() => navigator.serviceWorker.ready.then(() => true)"


def test_after_one_visit_the_app_reloads_and_plays_with_the_network_off(
    browser: Browser, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """The lobby registers the service worker, which precaches the build (Pyodide and the
    engine with it): after one visit to the lobby, with the network off, the lobby reloads, its
    Play offline opens, and every game plays to its end; with the server process stopped, the
    app still loads and deals."""
    servers = running_server(tmp_path_factory.mktemp("offline-server"))
    server = next(servers)
    context = browser.new_context(base_url=server.url)
    context.set_default_timeout(ENGINE_MS)
    try:
        page = context.new_page()
        page.goto("/")
        page.get_by_role("link", name="Play offline").wait_for()
        assert page.evaluate(SERVICE_WORKER_READY)
        # Everything precached: the service worker controls the next load of the page.
        page.reload()
        page.wait_for_function("() => navigator.serviceWorker.controller !== null")
        context.set_offline(True)
        page.reload()
        photograph(page, "offline-lobby-no-network-1280")
        page.get_by_role("link", name="Play offline").click()
        for index, game in enumerate(GAMES):
            # The first from the lobby's link; the others from /offline loaded with no network.
            if index:
                page.goto("/offline")
            page.get_by_role("button", name=START).wait_for()
            page.locator("select[name=game]").select_option(game)
            page.get_by_role("button", name=START).click()
            assert play_to_end(page, server) > 0, game
        # No server at all: the app is still served, and plays.
        next(servers, None)  # (the generator stops the server as it ends)
        page.goto("/offline")
        page.get_by_role("button", name=START).click()
        page.locator(f".table-page[data-status=over], {READY}").first.wait_for()
        photograph(page, "offline-no-server-1280")
    finally:
        context.close()
        servers.close()


def test_a_finished_offline_game_is_kept_and_exported_for_courtly_replay(
    new_page: Callable[..., Page], server: Server, tmp_path: Path
) -> None:
    page = new_page()
    open_offline(page, "kings-court")
    assert play_to_end(page, server) > 0
    page.get_by_role("button", name="New offline game").click()
    kept = page.locator(".kept-games li")
    kept.first.wait_for()
    assert kept.count() == 1 and "King's Court" in kept.first.inner_text()
    with page.expect_download() as download:
        kept.first.get_by_role("button", name="Export").click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    record = json.loads(path.read_text().splitlines()[0])
    assert record["game"] == "kings-court"
    replayed = invoke("replay", str(path), "--verify")
    assert replayed.exit_code == 0, replayed.output
    # My games lists it too, from this browser's records.
    page.goto("/my-games")
    page.locator(".kept-games li").first.wait_for()
    assert "King's Court" in page.locator(".kept-games li").first.inner_text()


def test_a_game_played_offline_goes_to_my_games_once_back_online(
    new_page: Callable[..., Page], server: Server
) -> None:
    """Signed in, a person plays with the network gone; back online, the page sends the kept
    game to their profile (once), where My games lists it as a finished casual game."""
    page = new_page()
    sent: list[str] = []
    page.on(
        "request",
        lambda request: sent.append(request.url) if "offline-games" in request.url else None,
    )
    sign(page, "Olive")
    open_offline(page, "royal-gambit")
    page.locator(f".table-page[data-status=over], {READY}").first.wait_for()
    page.context.set_offline(True)
    assert play_to_end(page, server) > 0
    page.get_by_role("button", name="New offline game").click()
    kept = page.locator(".kept-games li")
    kept.first.wait_for()
    table = kept.first.get_attribute("data-kept")
    assert table is not None and kept.first.locator(".kept-upload").count() == 0
    page.context.set_offline(False)
    kept.first.locator(".kept-upload").wait_for()
    assert "On your profile" in kept.first.inner_text()
    photograph(page, "offline-uploaded-1280")
    page.goto("/my-games")
    listed = page.locator(f".my-games-page li[data-table='{table}']")
    listed.wait_for()
    assert "Royal Gambit" in listed.inner_text()
    photograph(page, "offline-my-games-1280")
    profile = server.ok("GET", "/api/people/Olive")
    assert [game["id"] for game in profile["recent"]] == [table]
    assert profile["ratings"] == []
    # Sent once: the page loaded again (the account known anew) sends nothing again.
    page.goto("/offline")
    page.locator(".kept-games li .kept-upload").first.wait_for()
    page.goto("/my-games")
    listed.wait_for()
    assert len(sent) == 1


def test_the_game_just_played_offline_is_replayed_and_reviewed_with_no_network(
    new_page: Callable[..., Page], server: Server
) -> None:
    """The end of an offline game offers its replay and its review, made by the engine in the
    browser from the kept record: with the network gone, as online."""
    page = new_page()
    open_offline(page, "royal-gambit")
    page.locator(f".table-page[data-status=over], {READY}").first.wait_for()
    page.context.set_offline(True)
    assert play_to_end(page, server) > 0
    page.locator(".ending").get_by_role("link", name="Replay the game step by step").click()
    step = page.get_by_test_id("replay-step")
    step.wait_for(timeout=ENGINE_MS)
    assert (
        page.url.endswith("step=" + step.inner_text().split()[1]) or "/offline/replay/" in page.url
    )
    shown = page.locator(".replay-view").count()
    assert shown == 2  # every seat side by side: the game is over
    page.keyboard.press("Home")
    page.get_by_text("Before the first event").wait_for()
    page.keyboard.press("ArrowRight")
    page.locator(".replay-event").get_by_text("This step:").wait_for()
    photograph(page, "offline-replay-1280")
    page.get_by_role("link", name="Review the game").click()
    page.locator(".review-page").wait_for(timeout=ENGINE_MS)
    assert int(page.locator(".review-page").get_attribute("data-decisions") or 0) > 0
    page.locator(".review-decision-panel [data-board]").wait_for()
    photograph(page, "offline-review-1280")
    page.set_viewport_size(PHONE)
    photograph(page, "offline-review-375")
    no_horizontal_scroll(page)


def test_the_offline_form_deals_the_chosen_seats_bots_and_options_and_plays_again(
    new_page: Callable[..., Page], server: Server
) -> None:
    """The form offers what the server's catalogue offers (the game's options, each bot) through
    the engine; a finished game is dealt again with the same choices by "Play again"."""
    page = new_page()
    page.goto("/offline")
    page.get_by_role("button", name=START).wait_for(timeout=ENGINE_MS)
    page.locator("select[name=game]").select_option("royal-gambit")
    page.locator("select[name=players]").select_option("3")
    # The person in the middle seat, between two bots of different kinds.
    page.locator("select[name=seat-0]").select_option("random")
    page.locator("select[name=seat-1]").select_option("person")
    page.locator("select[name=seat-2]").select_option("ismcts")
    page.locator("input[name=target_score]").fill("5")
    photograph(page, "offline-form-1280")
    page.get_by_role("button", name=START).click()
    table = page.locator(".table-page[data-seat='1']")
    table.wait_for()
    assert "Target score: 5" in page.locator(".table-page").inner_text()
    bots = page.locator(".seats li.seat")
    assert "random" in bots.nth(0).inner_text() and "ismcts" in bots.nth(2).inner_text()
    assert play_to_end(page, server) > 0
    first = page.url
    page.get_by_role("button", name="Play again").click()
    page.locator(f".table-page[data-seat='1'][data-status=playing], {READY}").first.wait_for()
    assert "Target score: 5" in page.locator(".table-page").inner_text()
    assert "ismcts" in page.locator(".seats li.seat").nth(2).inner_text()
    assert page.get_by_role("button", name="Play again").count() == 0
    assert page.url == first  # (the same page: a new game of the engine)


KEEP = """record => new Promise((resolve, reject) => {
  const opened = indexedDB.open("courtly-offline", 1);
  opened.onupgradeneeded = () => opened.result.createObjectStore("games", { keyPath: "id" })
    .createIndex("finishedAt", "finishedAt");
  opened.onsuccess = () => {
    const id = JSON.parse(record).deal.table;
    const put = opened.result.transaction("games", "readwrite").objectStore("games")
      .put({ id, game: "royal-gambit", players: 2, finishedAt: Date.now(), record });
    put.onsuccess = () => resolve(id);
    put.onerror = () => reject(put.error);
  };
  opened.onerror = () => reject(opened.error);
})"""
"""Keep a game in the browser's IndexedDB as the offline page keeps one (src/offline/records.ts)."""


def test_a_refused_upload_is_shown_beside_the_game_and_never_sent_again(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page()
    sent: list[str] = []
    page.on(
        "request",
        lambda request: sent.append(request.url) if "offline-games" in request.url else None,
    )
    sign(page, "Tamsin")
    record = offline_record(["person", "random"])
    record["seed"] += 1  # (no longer the seed the table committed to)
    page.evaluate(KEEP, json.dumps(record))
    page.goto("/offline")
    refused = page.locator(".kept-games li .kept-upload.refused")
    refused.wait_for()
    assert "Not uploaded" in refused.inner_text() and "committed to" in refused.inner_text()
    photograph(page, "offline-upload-refused-1280")
    page.goto("/my-games")
    page.locator(".kept-games li .kept-upload.refused").wait_for()
    assert len(sent) == 1
    assert server.ok("GET", "/api/people/Tamsin")["recent"] == []
