"""The table tells the story, in a real Chromium against a real ``courtly serve``: for every game,
a person plays a whole game against bots by clicking, and after every event the lines the page
shows are the engine's story for that seat (``story_of`` on the table's record, read back from
the page with its cards and seats as the game wrote them), the last move's lines and places are
marked, and the end says why the game ended (the game's ``outcome``), each seat's place and
score, with every card revealed. A bust, a failed declaration and an elimination are shown with
the engine's lines that tell them.

What is compared is always the engine's word for the seat, never a wording: the games' words may
change, the page must keep showing the engine's.

The fixtures (``server``, ``browser``, ``new_page``) and helpers are in :mod:`tests.web.browsing`.
With ``COURTLY_SCREENSHOTS`` set to a folder, the pages are photographed there.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page

from courtly.core import CHANCE, State, make
from courtly.core.deals import resolve_chance
from courtly.core.events import parse_actor
from courtly.core.records import MatchRecord
from courtly.core.replays import replay_record
from courtly.core.story import story_of
from courtly.games.god_save_the_king.components import MIDDLE, RANK
from courtly.games.royal_gambit.components import DRAW as RG_DRAW
from courtly.games.royal_gambit.components import QUEEN_BIT
from courtly.games.royal_gambit.components import RANK as RG_RANK
from courtly.web.seat_messages import told_since

from .browsing import (
    DEADLINE,
    PHONE,
    READY,
    Server,
    cards_in,
    cards_shown,
    no_horizontal_scroll,
    photograph,
    status,
    story_shown,
    text_shown,
    version,
)
from .test_browser_access import assert_accessible

SETUPS: dict[str, dict[str, Any]] = {
    "royal-gambit": {"players": 3, "options": {"target_score": 15}, "seed": 4},
    "god-save-the-king": {"players": 2, "options": {}, "seed": 2},
    # A cap of 40 turns: the game ends by it, and says so.
    "crush-the-crown": {"players": 2, "options": {"safety_cap": 40}, "seed": 3},
    "goths-save-the-queen": {"players": 4, "options": {}, "seed": 7, "viewport": PHONE},
    "kings-court": {"players": 2, "options": {}, "seed": 5, "viewport": PHONE},
}
"""Each game as it is played here: a person at p0, the game's heuristic bot at every other
seat; two at a phone's width."""

STILL = """() => {
    const table = document.querySelector('.table-page');
    if (!table) return false;
    if (table.dataset.status === 'over') return true;
    if (!document.querySelector('button.action:not([aria-disabled=true])')) return false;
    const moving = [...document.querySelectorAll('.seats li.seat.to-move')];
    return moving.length > 0 && moving.every(li => li.dataset.seat === '0');
}"""
"""The game is over, or p0 alone is to move: the table waits for the page's person, so what
the page shows stands still."""


def engine_story(game_id: str, record: dict[str, Any], seat: int | None) -> list[list[Any]]:
    """The engine's story of the finished table ``record`` as ``seat`` is told it."""
    game = make(game_id, players=record["players"], **record["options"])
    story = story_of(game, record["history"])
    return [[index, text] for index, text in told_since(story, seat, game.num_players, 0)]


def finished_state(record: dict[str, Any]) -> State:
    return replay_record(MatchRecord.from_dict(record))


def seat_token(page: Page, table: str, seat: int) -> str:
    token = page.evaluate("key => localStorage.getItem(key)", f"courtly.token.{table}.{seat}")
    assert token, f"the page holds no token for seat {seat}"
    return str(token)


SEAT_OR_CARD = re.compile(r"(p\d+|(10|[2-9AJQK])[SHDC]|Jk)\b")


def sentence_of(reason: str) -> str:
    """A reason as the page writes it: a sentence (the first letter up, a full stop), but a
    seat or a card that opens it stays as the game wrote it ("p0 completed...", never "P0")."""
    text = reason.strip()
    if not SEAT_OR_CARD.match(text):
        text = text[:1].upper() + text[1:]
    return text if text[-1:] in ".!?)" else f"{text}."


def table_of_bots_and_p0(server: Server, page: Page, game: str, setup: dict[str, Any]) -> str:
    """A table of ``game`` with a person at p0 (this page's, named Ann) and heuristic bots."""
    players = setup["players"]
    seats = [{"kind": "person"}] + [{"kind": "bot", "bot": "heuristic"}] * (players - 1)
    table = str(
        server.ok(
            "POST",
            "/api/tables",
            json={
                "game": game,
                "players": players,
                "options": setup["options"],
                "seats": seats,
                "seed": setup["seed"],
            },
        )["id"]
    )
    token = server.ok("POST", f"/api/tables/{table}/seats/0/join", json={"name": "Ann"})["token"]
    page.goto("/")
    page.evaluate("([k, t]) => localStorage.setItem(k, t)", [f"courtly.token.{table}.0", token])
    page.goto(f"/table/{table}?seat=0")
    return table


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_after_every_event_the_log_is_the_engine_s_story_for_the_seat(
    new_page: Callable[..., Page], server: Server, game: str
) -> None:
    setup = SETUPS[game]
    page = new_page(viewport=setup.get("viewport", {"width": 1280, "height": 900}))
    table = table_of_bots_and_p0(server, page, game, setup)
    rng = random.Random(game)
    shown: dict[int, list[list[Any]]] = {}
    marked: dict[int, list[int]] = {}
    places: dict[int, int] = {}
    found: list[str] = []
    deadline = time.monotonic() + 6 * DEADLINE
    while True:
        assert time.monotonic() < deadline, f"the game did not end{server.log_tail()}"
        page.wait_for_function(STILL)
        at = version(page)
        shown[at] = story_shown(page)
        marked[at] = page.locator("li.story-last").evaluate_all(
            "items => items.map(item => Number(item.dataset.event))"
        )
        places[at] = page.locator("[data-board] .board-seat-changed").count()
        if len(shown) == 3:
            assert_accessible(page, f"story {game} in play", found)
            photograph(page, f"story-{game}-in-play")
        if status(page) == "over":
            break
        buttons = page.locator(f".action-buttons {READY}")
        buttons.nth(rng.randrange(buttons.count())).click()
        anyway = page.get_by_role("button", name="Play it anyway")
        if anyway.count():  # a move the game cautions against: played all the same
            anyway.click()
        page.wait_for_function(
            """v => Number(document.querySelector('.table-page')?.dataset.version) > v
                   || document.querySelector('.actions [role=alert]') !== null""",
            arg=at,
        )
        refusal = page.locator(".actions [role=alert]")
        assert refusal.count() == 0, refusal.first.inner_text()

    record = server.ok("GET", f"/api/tables/{table}/record")
    history = record["history"]
    told = engine_story(game, record, 0)
    assert len(shown) >= 3, "the person hardly played"
    for at, lines in shown.items():
        # Every line the engine told p0 of the events so far, in order, nothing else.
        assert lines == [line for line in told if line[0] < at], f"the story at version {at}"
        # The last move's lines are marked: from the last decision on (its chance after it).
        decisions = [
            i for i in range(at) if parse_actor(history[i][0], record["players"]) != CHANCE
        ]
        last = decisions[-1] if decisions else at
        assert marked[at] == [index for index, _ in lines if index >= last], at
        if decisions:
            assert places[at] >= 1, f"the last move marks no place on the board at version {at}"

    # The end: why, in the game's words; every seat's place and score; every card shown.
    state = finished_state(record)
    outcome = state.game.text.outcome(state)
    ending = page.locator(".ending")
    reason = ending.get_by_test_id("ending-reason")
    assert text_shown(reason) == sentence_of(outcome.reason)
    # The rule that ended it is a link to that rule.
    rules = re.findall(r"\b(?:GSK|CTC|RG|GOTH|KC)-\d+", outcome.reason)
    assert reason.locator("a.rule-link").all_inner_texts() == rules
    rows = ending.locator("tbody tr")
    assert rows.evaluate_all("rows => rows.map(r => Number(r.dataset.seat))") == [
        s.seat for s in outcome.standings
    ]
    assert rows.evaluate_all("rows => rows.map(r => Number(r.dataset.place))") == [
        s.place for s in outcome.standings
    ]
    if any(s.score for s in outcome.standings):
        scores = [text_shown(row.locator("td").nth(1)) for row in rows.all()]
        assert scores == [s.score for s in outcome.standings]
    assert "won (" not in ending.inner_text()
    token = seat_token(page, table, 0)
    final = server.ok(
        "GET",
        f"/api/tables/{table}/view",
        params={"seat": 0},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert cards_in(final["observation"]) <= cards_shown(page), "a card of the end is not shown"
    assert not state.game.views.secret_cards(state, 0), "a card stays hidden at the end"
    if setup.get("viewport") == PHONE:
        no_horizontal_scroll(page)
    assert_accessible(page, f"story {game} over", found)
    photograph(page, f"story-{game}-over")
    assert not found, "\n\n".join(found)


# ---------------------------------------------------------------------------------- reasons


def events_where(record: dict[str, Any], happens: Callable[[State, int, str], bool]) -> list[int]:
    """The indexes of the record's events for which ``happens(state before, actor, text)``."""
    game = make(record["game"], players=record["players"], **record["options"])
    state = game.new_state()
    found = []
    for index, (actor_text, item) in enumerate(record["history"]):
        actor = parse_actor(actor_text, game.num_players)
        if happens(state, actor, item):
            found.append(index)
        if actor == CHANCE:
            state.apply_chance(item)
        else:
            state.apply(actor, item)
    return found


def played_by_two_people(
    server: Server, game: str, seed: int, choose: Callable[[list[dict[str, Any]]], dict[str, Any]]
) -> tuple[str, list[str]]:
    """A table of two people played to its end through the API, each choosing from its view."""
    table = server.ok(
        "POST",
        "/api/tables",
        json={"game": game, "seats": [{"kind": "person"}] * 2, "seed": seed},
    )["id"]
    tokens = [
        server.ok("POST", f"/api/tables/{table}/seats/{seat}/join", json={"name": name})["token"]
        for seat, name in enumerate(("Ann", "Bob"))
    ]
    for _ in range(5000):
        spectator = server.ok("GET", f"/api/tables/{table}/view")
        if spectator["status"] == "over":
            return table, tokens
        for seat in spectator["to_move"]:
            mine = server.ok(
                "GET",
                f"/api/tables/{table}/view",
                params={"seat": seat},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )
            if not mine["legal_actions"]:
                continue
            action = choose(mine["legal_actions"])
            server.ok(
                "POST",
                f"/api/tables/{table}/moves",
                json={"seat": seat, "action": action["id"], "version": mine["version"]},
                headers={"Authorization": f"Bearer {tokens[seat]}"},
            )
    pytest.fail(f"the game of {game} did not end")


def busts(state: State, actor: int, item: str) -> bool:
    """The card flipped repeats a rank of its flipper's row, which holds no Queen to pardon it:
    a bust (Royal Gambit, RG-6)."""
    if actor != CHANCE or state.chance_event != RG_DRAW:  # type: ignore[attr-defined]
        return False
    card = state.game.text.parse_chance(state, item)
    ranks = state.row_ranks[state.flipper]  # type: ignore[attr-defined]
    return bool(ranks & (1 << RG_RANK[card]) and not ranks & QUEEN_BIT)


def fails_a_declaration(state: State, actor: int, item: str) -> bool:
    """A challenge that finds the winner's declaration false (God Save The King)."""
    if actor == CHANCE or item != "challenge":
        return False
    trick = state.tricks[state.current_trick]  # type: ignore[attr-defined]
    side = trick.blind_winner
    return bool(RANK[trick.formations[side][MIDDLE]] != trick.declared[side])


def eliminates(state: State, actor: int, item: str) -> bool:
    """The event puts a seat out of the game."""
    after = state.clone()
    if actor == CHANCE:
        after.apply_chance(item)
    else:
        after.apply(actor, item)
    return len(after.active_seats) < len(state.active_seats)


def bluffer(seed: int) -> Callable[[list[dict[str, Any]]], dict[str, Any]]:
    """God Save The King played to call bluffs: declare a rank at random (from ``seed``), always
    challenge; any other choice at random too."""
    rng = random.Random(seed)

    def choose(legal: list[dict[str, Any]]) -> dict[str, Any]:
        texts = [action["text"] for action in legal]
        if "challenge" in texts:
            return legal[texts.index("challenge")]
        declarations = [action for action in legal if action["text"].startswith("declare")]
        return rng.choice(declarations or legal)

    return choose


def played_here(
    game_id: str, seed: int, choose: Callable[[list[dict[str, Any]]], dict[str, Any]]
) -> dict[str, Any]:
    """The record of the game :func:`played_by_two_people` plays on a table of ``seed``, played
    here with the engine: its chance resolved as the server resolves a table's, its seats
    choosing in the same order from the same legal actions."""
    state = make(game_id, players=2).new_state()
    resolve_chance(state, seed)
    while not state.is_terminal:
        for seat in state.to_move:
            legal = [{"id": a.id, "text": str(a)} for a in state.view(seat).legal_actions()]
            if legal:
                state.apply(seat, choose(legal)["text"])
                resolve_chance(state, seed)
    return state.record().to_dict()


def seed_where(
    game_id: str,
    policy: Callable[[int], Callable[[list[dict[str, Any]]], dict[str, Any]]],
    *happenings: Callable[[State, int, str], bool],
) -> tuple[int, list[list[str]]]:
    """The first table seed whose game, played by ``policy(seed)`` at both seats, holds each of
    ``happenings``; and that game's history. The game's words and bots may change: the test
    finds its game again rather than trusting one seed forever."""
    for seed in range(1, 500):
        record = played_here(game_id, seed, policy(seed))
        if all(events_where(record, happens) for happens in happenings):
            return seed, record["history"]
    pytest.fail(f"no game of {game_id} in 500 seeds holds {[h.__name__ for h in happenings]}")


def check_told(page: Page, told: list[list[Any]], events: list[int], what: str) -> None:
    """The page shows the engine's lines of each of ``events`` (told to its reader), as its
    story's lines of those events."""
    assert events, f"no {what} in the game"
    lines = story_shown(page)
    for index in events:
        expected = [line for line in told if line[0] == index]
        assert expected, f"the engine tells nothing of the {what} at {index}"
        assert [line for line in lines if line[0] == index] == expected, what


def test_a_bust_a_failed_declaration_and_an_elimination_are_told_with_their_reasons(
    new_page: Callable[..., Page], server: Server
) -> None:
    rng = random.Random(3)
    gambit, gambit_tokens = played_by_two_people(
        server, "royal-gambit", 9, lambda legal: legal[0] if rng.random() < 0.7 else legal[-1]
    )
    seed, planned = seed_where("god-save-the-king", bluffer, fails_a_declaration, eliminates)
    king, king_tokens = played_by_two_people(server, "god-save-the-king", seed, bluffer(seed))
    assert server.ok("GET", f"/api/tables/{king}/record")["history"] == planned
    for table, tokens, kinds in (
        (gambit, gambit_tokens, (("bust", busts),)),
        (
            king,
            king_tokens,
            (("failed declaration", fails_a_declaration), ("elimination", eliminates)),
        ),
    ):
        record = server.ok("GET", f"/api/tables/{table}/record")
        for seat in (0, None):
            page = new_page()
            if seat is not None:
                page.goto("/")
                page.evaluate(
                    "([k, t]) => localStorage.setItem(k, t)",
                    [f"courtly.token.{table}.{seat}", tokens[seat]],
                )
            page.goto(f"/table/{table}" + ("" if seat is None else f"?seat={seat}"))
            page.locator(".table-page[data-status=over]").wait_for()
            told = engine_story(record["game"], record, seat)
            for what, happens in kinds:
                check_told(page, told, events_where(record, happens), what)
            state = finished_state(record)
            reason = page.get_by_test_id("ending-reason")
            assert text_shown(reason) == sentence_of(state.game.text.outcome(state).reason)
            photograph(page, f"reasons-{record['game']}-{seat}")
        # The replay tells them too, from every seat's side at once.
        replay = new_page()
        replay.goto(f"/table/{table}/replay")
        replay.locator(".replay-page").wait_for()
        answer = server.ok("GET", f"/api/tables/{table}/replay")
        assert story_shown(replay) == answer["story"]
        for what, happens in kinds:
            for index in events_where(record, happens):
                assert any(line[0] == index for line in story_shown(replay)), what
