"""Royal Gambit's, Goths Save the Queen's and King's Court's tables in a real Chromium against a
real server.

For each game a person plays bots to the end through the page alone: where a move names
something drawn on the board (a seat to give a 7 to, a King card, an order, an Objective, a card
and then its target), it is clicked there and the move confirmed in the moves panel; the other
moves (hit, stay, end, pass) are the moves panel's buttons. Which move to make is decided from the
seat's own view (the API, with the page's token), so the games are short and reach every kind of
move. At every position where the person is to move, every face-up card on the page must be one
that view names: the board draws only from it. With ``COURTLY_SCREENSHOTS`` set, each board is
photographed on a desktop, on a 375-pixel phone and in dark mode.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page

from .browsing import (
    ALONE_TO_MOVE,
    DEADLINE,
    PHONE,
    READY,
    SCREENSHOTS,
    Server,
    cards_in,
    cards_shown,
    create_through_the_form,
    no_horizontal_scroll,
    photograph,
    status,
    version,
)

Chooser = Callable[[dict[str, Any], list[str]], str]
"""Given the seat's view and the texts of its legal moves, the move to make."""


def seat_view(server: Server, page: Page, table: str, seat: int) -> dict[str, Any]:
    token = page.evaluate("key => localStorage.getItem(key)", f"courtly.token.{table}.{seat}")
    assert token, f"the page of p{seat} keeps its token"
    view: dict[str, Any] = server.ok(
        "GET",
        f"/api/tables/{table}/view",
        params={"seat": seat},
        headers={"Authorization": f"Bearer {token}"},
    )
    return view


def photograph_board(page: Page, name: str) -> None:
    """The page, and its board alone (to look at it closely)."""
    photograph(page, name)
    if SCREENSHOTS:
        board = Path(SCREENSHOTS) / f"{name}-board.png"
        page.locator("[data-board]").screenshot(path=str(board), animations="disabled")


def photograph_everywhere(page: Page, name: str) -> None:
    """The page and its board on a desktop, on a phone (no sideways scrolling), in dark mode."""
    photograph_board(page, name)
    size = page.viewport_size
    page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"]})
    no_horizontal_scroll(page)
    photograph_board(page, f"{name}-phone")
    page.emulate_media(color_scheme="dark")
    photograph_board(page, f"{name}-phone-dark")
    if size:
        page.set_viewport_size(size)
    photograph_board(page, f"{name}-dark")
    page.emulate_media(color_scheme="light")


class Player:
    """Plays the page's seat to the end by clicking, as :data:`Chooser` decides; counts the
    moves made on the board, checks the page's cards at each turn, photographs the first
    position matching each CSS selector of ``photographs`` (and forgets it: those left were
    never seen)."""

    def __init__(
        self,
        server: Server,
        page: Page,
        table: str,
        seat: int,
        choose: Chooser,
        photographs: dict[str, str] | None = None,
        on_turn: Callable[[dict[str, Any]], None] | None = None,
        target_photograph: str | None = None,
    ) -> None:
        self.server, self.page, self.table, self.seat = server, page, table, seat
        self.choose = choose
        self.on_turn = on_turn
        self.target_photograph = target_photograph
        self.photographs = dict(photographs or {})
        self.moves = 0
        self.on_board = 0
        self.targets = 0
        self.played: list[str] = []

    def view(self) -> dict[str, Any]:
        return seat_view(self.server, self.page, self.table, self.seat)

    def check(self, view: dict[str, Any]) -> None:
        at = int(self.page.locator(".table-page").get_attribute("data-version") or -1)
        assert view["version"] == at, "the page stands still while its seat alone is to move"
        extra = cards_shown(self.page) - cards_in(view)
        assert not extra, f"the page shows cards its seat's view does not name: {sorted(extra)}"

    def play_to_end(self, most_moves: int = 400) -> None:
        page = self.page
        page.locator(".table-page").wait_for()
        deadline = time.monotonic() + 4 * DEADLINE
        while True:
            assert time.monotonic() < deadline, f"the game did not end{self.server.log_tail()}"
            assert self.moves < most_moves, "the game did not end"
            page.wait_for_function(ALONE_TO_MOVE, arg=self.seat)
            if status(page) == "over":
                return
            view = self.view()
            self.check(view)
            if self.on_turn is not None:
                self.on_turn(view)
            for selector, name in list(self.photographs.items()):
                if page.locator(selector).count():
                    photograph_board(page, name)
                    del self.photographs[selector]
            legal = [action["text"] for action in view["legal_actions"]]
            move = self.choose(view, legal)
            assert move in legal, f"{move!r} is not legal: {legal}"
            before = version(page)
            self.make(move)
            self.moves += 1
            self.played.append(move)
            page.wait_for_function(
                """v => Number(document.querySelector('.table-page')?.dataset.version) > v
                       || document.querySelector('.actions [role=alert]') !== null""",
                arg=before,
            )
            refusal = page.locator(".actions [role=alert]")
            assert refusal.count() == 0, refusal.first.inner_text()

    def make(self, move: str) -> None:
        """Click ``move``'s words on the board where they are drawn there (a thing, then its
        target), then its confirmation; else its button in the moves panel."""
        page = self.page
        board = page.locator("[data-board]")
        words = move.split()
        picks = [word for word in words if board.locator(pick_selector(word)).count()]
        if not picks:
            page.locator(f"{READY}[data-action='{move}']").first.click()
            return
        first = board.locator(pick_selector(picks[0])).first
        first.click()
        assert first.get_attribute("aria-pressed") == "true", f"{picks[0]} is not picked"
        confirm = page.locator(f".picked-moves button.confirm[data-action='{move}']")
        if page.locator(".picked-moves button.confirm").count() > 1:
            # Several moves name the thing picked: its target is picked on the board too.
            targets = board.locator(f"button[data-pick='{picks[0]} {words[-1]}']")
            if targets.count():
                targets.first.click()
                assert targets.first.get_attribute("aria-pressed") == "true"
                assert page.locator(".picked-moves button.confirm").count() == 1
                self.targets += 1
                if self.target_photograph:
                    photograph_board(page, self.target_photograph)
                    self.target_photograph = None
        confirm.click()
        self.on_board += 1


def pick_selector(word: str) -> str:
    return f"button[data-pick='{word}']"


def create_table(
    page: Page,
    game: str,
    seats: list[str],
    seed: int,
    texts: dict[str, str] | None = None,
    checks: dict[str, bool] | None = None,
    choices: dict[str, str] | None = None,
) -> str:
    """Through the lobby's form, like :func:`create_through_the_form`, with options of every
    kind: numbers typed, booleans ticked, choices selected."""
    if not checks and not choices:
        return create_through_the_form(page, game, seats, options=texts, seed=seed)
    page.goto("/")
    page.select_option("#create-game", game)
    page.select_option("#create-players", str(len(seats)))
    page.fill("#create-name", "Ann")
    for index, seat in enumerate(seats):
        page.select_option(f"#seat-{index}-kind", "person" if seat == "person" else "bot")
        if seat != "person":
            page.select_option(f"#seat-{index}-bot", seat)
    for option, value in (texts or {}).items():
        page.fill(f"#option-{option}", value)
    for option, ticked in (checks or {}).items():
        page.locator(f"#option-{option}").set_checked(ticked)
    for option, chosen in (choices or {}).items():
        page.select_option(f"#option-{option}", chosen)
    page.get_by_text("More", exact=True).click()
    page.fill("#create-seed", str(seed))
    page.get_by_role("button", name="Create the table").click()
    page.wait_for_url(re.compile(r"/table/[^/?]+\?seat=\d+$"))
    found = re.search(r"/table/([^/?]+)", page.url)
    assert found is not None
    return found.group(1)


def region(board: Locator, name: str | re.Pattern[str]) -> Locator:
    located = board.get_by_role("region", name=name)
    located.wait_for()
    return located


# ---------------------------------------------------------------------------------- Royal Gambit


def royal_gambit_move(view: dict[str, Any], legal: list[str]) -> str:
    """Stay on a row worth 5 or more (or with a King), hit otherwise; a 7 or a Jack goes to
    the leader among the seats it may go to."""
    obs = view["observation"]
    if "hit" in legal:
        me = obs["players"][int(obs["seat"][1:])]
        return "stay" if me["row_score"] >= 5 and "stay" in legal else "hit"
    totals = obs["totals"]
    return max(legal, key=lambda text: totals[int(text.split()[-1][1:])])


def test_royal_gambit_played_by_clicking(new_page: Callable[..., Page], server: Server) -> None:
    page = new_page()
    table = create_table(
        page,
        "royal-gambit",
        ["person", "heuristic", "random", "heuristic"],
        seed=3,
        texts={"target_score": "15"},
    )
    board = page.locator("[data-board=royal-gambit]")
    board.wait_for()
    assert board.locator(".rg-seat").count() == 4
    for seat in range(4):
        region(board, re.compile(rf"^p{seat}\b"))
    assert "15 points" in board.locator(".rg-facts").inner_text()
    page.wait_for_function(ALONE_TO_MOVE, arg=0)
    decision = board.locator(".rg-decision")
    assert "Hit or stay" in decision.inner_text()
    assert board.get_by_role("img", name=re.compile(r"^\d+ cards? in the deck$")).count() == 1
    photograph_everywhere(page, "royal-gambit")

    player = Player(
        server,
        page,
        table,
        0,
        royal_gambit_move,
        {
            ".rg-target": "royal-gambit-target",
            ".rg-seat-bust": "royal-gambit-bust",
        },
    )
    player.play_to_end()
    assert not player.photographs, f"never seen: {player.photographs}"
    page.locator(".ending").wait_for()
    view = player.view()
    player.check(view)
    obs = view["observation"]
    # Every seat's row and total as the view has them; the winner named.
    for entry in obs["players"]:
        area = board.locator(f".rg-seat[data-seat={entry['seat']}]")
        assert area.locator(".rg-total-number").inner_text() == str(entry["total"])
        shown = area.locator(".rg-row [data-card]").evaluate_all(
            "cs => cs.map(c => c.dataset.card)"
        )
        assert shown == entry["row"]
    assert "The game is over" in board.locator(".rg-decision").inner_text()
    assert board.locator(".rg-status-won").count() == len(obs["winners"])
    assert any(move in ("hit", "stay") for move in player.played)
    # A 7 given or a Jack sent by clicking the seat on the board.
    targeted = [move for move in player.played if move.split()[0] in ("give-7", "jack")]
    assert targeted, f"p0 never gave a 7 nor sent a Jack: {player.played}"
    assert player.on_board == len(targeted)
    photograph_everywhere(page, "royal-gambit-over")


# ---------------------------------------------------------------------------------- Goths

ORDER_CHARACTER = {
    "recon": "V",
    "sabotage": "V",
    "recruit": "R",
    "load": "C",
    "fire": "C",
    "barricade": "B",
    "advance": "B",
    "axe": "B",
    "rats": "B",
}


def goths_move(rng: random.Random) -> Chooser:
    """A Warchief who reads his King's cards (the back laid and the cards face up) and prefers
    scouting once, then advancing, firing a loaded catapult, recruiting; who enters the Queen when he knows her and
    looks at what he has not seen. A King lays a card at random."""

    def choose(view: dict[str, Any], legal: list[str]) -> str:
        obs = view["observation"]
        mine = obs["mine"]
        clan = next(c for c in obs["clans"] if c["clan"] == obs["clan"])
        if obs["phase"] == "orders":
            letters = set((clan["king_card_face_down_back"] or "").split("/"))
            letters |= {card[0].upper() for card in clan["king_cards_face_up"]}
            # Scout first, then march on.
            preferred = [] if mine.get("reconnaissance") else ["recon"]
            preferred += ["advance", "fire" if clan["catapult"] == "active" else "load", "recruit"]
            preferred += ["axe", "recon", "barricade", "sabotage", "rats"]
            for order in preferred:
                if order in legal and ORDER_CHARACTER[order] in letters:
                    if order == "recruit" and clan["reserve"] == 0:
                        continue
                    return order
            return rng.choice(legal)
        if obs["phase"] in ("recon", "advance"):
            seen = mine.get("reconnaissance", {})
            queen = [f"obj{k[-1]}" for k, v in seen.items() if v == "queen"]
            for text in legal:
                if text.split()[-1] in queen:
                    return text
            unseen = [t for t in legal if f"objective {t[-1]}" not in seen]
            return rng.choice(unseen or legal)
        return rng.choice(legal)

    return choose


def test_goths_played_by_clicking_as_a_warchief_in_the_fog(
    new_page: Callable[..., Page], server: Server
) -> None:
    page = new_page()
    # p2 is the Ostrogoth Warchief: he gives orders, looks at and enters Objectives.
    table = create_table(
        page,
        "goths-save-the-queen",
        ["heuristic", "heuristic", "person", "heuristic"],
        seed=12,
        checks={"fog_of_war": True},
    )
    assert page.url.endswith("?seat=2")
    board = page.locator("[data-board=goths-save-the-queen]")
    board.wait_for()
    cells = board.locator(".goths-cell")
    cells.nth(8).wait_for()
    assert cells.count() == 9
    assert board.locator(".goths-objective-down").count() == 3
    region(board, "The Ostrogoths")
    region(board, "The Visigoths")
    region(board, "Your orders and scouting")
    assert board.locator(".goths-fog").count() == 2
    page.wait_for_function(ALONE_TO_MOVE, arg=2)
    # The orders are the board's buttons; a King card's back lies face down for each clan.
    assert board.locator(".goths-order-button[data-pick]").count() >= 8
    assert (
        board.get_by_role(
            "img", name=re.compile(r"King card face down, back [VRCB]\/[VRCB]")
        ).count()
        == 2
    )
    photograph_everywhere(page, "goths-save-the-queen")

    player = Player(
        server,
        page,
        table,
        2,
        goths_move(random.Random(2)),
        {
            "[data-decision=recon]": "goths-save-the-queen-recon",
            "[data-decision=advance]": "goths-save-the-queen-advance",
            ".goths-objective-secret": "goths-save-the-queen-scouted",
        },
    )
    player.play_to_end()
    assert not player.photographs, f"never seen: {player.photographs}"
    page.locator(".ending").wait_for()
    view = player.view()
    player.check(view)
    obs = view["observation"]
    # Every Objective face up at the end; the winner named; the last reveal shown.
    assert board.locator(".goths-objective-down").count() == 0
    assert "The game is over" in board.locator(".goths-decision").inner_text()
    if obs["winner"] in ("ostrogoths", "visigoths"):
        assert board.locator(f".goths-clan-{obs['winner']}.goths-clan-won").count() == 1
    region(board, f"Revealed at turn {obs['last_reveal']['turn']}")
    orders = [move for move in player.played if move in ORDER_CHARACTER]
    assert len(orders) >= 3 and player.on_board == len(player.played) - sum(
        move in ("build-barricade", "discard-fog") for move in player.played
    )
    assert any(move.startswith(("look ", "enter ")) for move in player.played), player.played
    photograph_everywhere(page, "goths-save-the-queen-over")


def test_goths_played_by_clicking_as_a_king(new_page: Callable[..., Page], server: Server) -> None:
    page = new_page()
    table = create_table(
        page, "goths-save-the-queen", ["person", "heuristic", "heuristic", "heuristic"], seed=4
    )
    board = page.locator("[data-board=goths-save-the-queen]")
    board.wait_for()
    hand = region(board, "Your King cards")
    page.wait_for_function(ALONE_TO_MOVE, arg=0)
    cards = hand.locator("button[data-pick]")
    assert cards.count() == 8
    assert cards.first.get_by_role(
        "img", name=re.compile(r"^Vulture 1, back [VRCB]\/[VRCB]$")
    ).count()
    photograph_board(page, "goths-save-the-queen-king")
    player = Player(server, page, table, 0, goths_move(random.Random(4)))
    player.play_to_end()
    page.locator(".ending").wait_for()
    player.check(player.view())
    assert player.moves >= 3 and player.on_board == player.moves  # every King card clicked


def test_goths_solo_clans_drawn_and_played(new_page: Callable[..., Page], server: Server) -> None:
    page = new_page()
    table = create_table(
        page,
        "goths-save-the-queen",
        ["person", "heuristic"],
        seed=5,
        choices={"solo_clans": "both"},
    )
    board = page.locator("[data-board=goths-save-the-queen]")
    board.wait_for()
    region(board, "Your orders")
    page.wait_for_function(ALONE_TO_MOVE, arg=0)
    assert board.locator(".goths-kcards").count() == 0  # no King: no King cards
    assert "Chief (alone)" in region(board, "The Ostrogoths").inner_text()
    player = Player(server, page, table, 0, goths_move(random.Random(5)))
    player.play_to_end()
    page.locator(".ending").wait_for()
    player.check(player.view())
    assert player.on_board >= 3
    photograph_board(page, "goths-save-the-queen-solo-over")


# ---------------------------------------------------------------------------------- King's Court


def kings_court_move(view: dict[str, Any], legal: list[str]) -> str:
    """Play every card that helps (one's own suit forward, a rival's back, a face card on the
    leading rival), borrow what a Queen shows, then end the turn."""
    obs = view["observation"]
    me = obs["seat"]
    suit = obs["players"][int(me[1:])]["suit"]
    positions = {p["seat"]: p["position"] for p in obs["players"]}
    best: tuple[int, str] | None = None
    for text in legal:
        words = text.split()
        if words[0] not in ("play", "borrow"):
            continue
        card = words[1]
        target = words[2] if len(words) > 2 else None
        if target == me:
            continue
        if card[-1] == suit or target is None:
            score = 2
        else:
            score = 1 + positions.get(target, 0)
        if best is None or score > best[0]:
            best = (score, text)
    if best is not None:
        return best[1]
    return "pass" if "pass" in legal else "end"


def test_kings_court_played_by_clicking(new_page: Callable[..., Page], server: Server) -> None:
    # At four players the form chooses Courtly's shorter track (20 spaces), drawn as it is
    # played: 21 spaces and a pawn for each seat at 0.
    page = new_page()
    create_table(page, "kings-court", ["person", "heuristic", "heuristic", "random"], seed=2)
    board = page.locator("[data-board=kings-court]")
    board.wait_for()
    track = board.locator(".kc-track")
    assert track.locator(".kc-space").count() == 21
    assert track.locator(".kc-space[data-space='0'] .kc-pawn").count() == 4
    page.wait_for_function(ALONE_TO_MOVE, arg=0)
    region(board, "Your hand")
    photograph_everywhere(page, "kings-court")

    # A game on a shorter track, played to the end.
    page = new_page()
    table = create_table(
        page,
        "kings-court",
        ["person", "heuristic", "random"],
        seed=26,
        texts={"track_length": "15", "track_cut": "0"},
    )
    board = page.locator("[data-board=kings-court]")
    board.wait_for()
    assert board.locator(".kc-track .kc-space").count() == 16

    def positions_match(view: dict[str, Any]) -> None:
        obs = view["observation"]
        for entry in obs["players"]:
            space = track_space(board, min(entry["position"], obs["track_length"]))
            assert space.locator(f".kc-pawn-{entry['suit']}").count() == 1, entry

    player = Player(
        server,
        page,
        table,
        0,
        kings_court_move,
        {
            ".kc-known": "kings-court-queen-look",
            "[data-decision=borrow]": "kings-court-borrow",
        },
        on_turn=positions_match,
        target_photograph="kings-court-target",
    )
    player.play_to_end()
    # A Queen's look showed a rival's cards, one was borrowed by clicking it; a face card of
    # one's own suit went to a rival picked on the board.
    assert not player.photographs, f"never seen: {player.photographs}"
    assert any(move.startswith("borrow ") for move in player.played), player.played
    assert player.targets >= 1, player.played
    page.locator(".ending").wait_for()
    view = player.view()
    player.check(view)
    positions_match(view)
    obs = view["observation"]
    assert "The game is over" in board.locator(".kc-decision").inner_text()
    # Every hand face up at the end, as the view has them.
    for entry in obs["players"]:
        area = board.locator(f".kc-seat[data-seat={entry['seat']}]")
        shown = area.locator("[data-card]").evaluate_all("cs => cs.map(c => c.dataset.card)")
        assert sorted(shown) == sorted(entry["hand"])
    cards_played = [move for move in player.played if move.split()[0] in ("play", "borrow")]
    assert len(cards_played) >= 3 and player.on_board == len(cards_played)
    photograph_everywhere(page, "kings-court-over")


def track_space(board: Locator, space: int) -> Locator:
    return board.locator(f".kc-track .kc-space[data-space='{space}']")
