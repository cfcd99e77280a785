"""God Save The King's first game that teaches: the tutorial plays to its end whatever the
learner does, every lesson has the coach's words, and the coach tells a seat nothing its view
does not (docs/rules/god-save-the-king.md §9)."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.games.god_save_the_king.components import D_CHALLENGE, D_DECLARE, D_FORM, D_ROUTE
from courtly.games.god_save_the_king.rules import GodSaveTheKingState

from .. import tutorials
from .helpers import careful_action, new_game, play

GAME = "god-save-the-king"
TUTORIAL = tutorials.tutorial_of(GAME)


def test_the_tutorial_seats_the_learner_against_the_heuristic() -> None:
    assert TUTORIAL.players == 2
    assert TUTORIAL.opponents == ("heuristic",)
    assert TUTORIAL.learner == 0
    assert 5 <= TUTORIAL.lessons <= 8
    # Nothing is dealt (§3), and the only draw, from a hand (§10), falls on whichever hand
    # the play decides: no card could be prepared for it.
    assert TUTORIAL.deal == ()


@pytest.mark.parametrize(("learner", "seed"), tutorials.LEARNERS, ids=tutorials.LEARNER_IDS)
def test_the_tutorial_ends_and_coaches_whatever_the_learner_plays(
    learner: tutorials.Policy, seed: int
) -> None:
    tutorials.check_the_deal(GAME, learner, seed)


def coached_line(steps: list[tuple[int, str]]) -> list[str | None]:
    """Play ``steps`` (a seat and its action, or -1 and the card drawn) from the start of the
    tutorial's game; the coach's words before each of p0's decisions."""
    state = new_game(TUTORIAL.players, **TUTORIAL.options)
    said = []
    for seat, text in steps:
        if seat < 0:
            state.apply_chance(text)
            continue
        if seat == 0:
            said.append(state.game.text.coach(state, 0))
        state.apply(seat, text)
    return said


def test_the_first_trick_teaches_the_formation_the_route_and_the_declaration() -> None:
    said = coached_line(
        [
            (0, "form left AS"),
            (0, "form middle 3S"),
            (0, "form right QS"),
            (1, "form left AH"),
            (1, "form middle 2H"),
            (1, "form right QH"),
            # AS beats QH, AH beats QS: a push.
            (0, "pass"),
            (1, "pass"),
            (0, "declare 3"),
            (1, "declare 2"),
            (1, "challenge"),
            (-1, "9H"),  # "accurate": p0 draws from p1's hand
            # The second trick: p1 has priority.
            (0, "form left JS"),
        ]
    )
    assert said == [
        "Lay 3 cards face down. Your left card meets p1's right card, your right card p1's "
        "left: the higher wins each column (GSK-4). Win a column and lose none to take the "
        "trick; your best are AS and QS. Keep KS out of the outside slots: turned up, it puts "
        "you out at once (GSK-5).",
        "With AS on your left: your middle card stays face down, and counts only in a push, "
        "when each names a rank for it (GSK-3). KS is safe in the middle unless p1 routes it "
        "(GSK-13); left or right, it is turned up and you are out (GSK-5).",
        "With AS on the left and 3S in the middle: your right card meets p1's left one "
        "(GSK-4). One column each, or two draws, is a push: then the middle cards' declared "
        "ranks decide. Keep KS out of the outside slots: turned up, it puts you out at once "
        "(GSK-5).",
        "A route says p1's face-down middle card is p1's King KH: if so, p1 is out and the "
        "trick is yours (GSK-15). If not, p1 draws a random card from your 10 cards (1 in 10 "
        "is your KS); 1 route left this hand (GSK-12). A push: if nobody routes, the middle "
        "cards' declared ranks decide.",
        "A push: each names a rank for their own middle card, and the higher rank takes the "
        "trick, true or not (GSK-9). Your middle card is 3S: naming 3 is the truth; name "
        "higher and a challenge lets p1 draw a random card from your 10 cards (1 in 10 is your "
        "KS).",
        "Lay 3 cards face down. Your left card meets p1's right card, your right card p1's "
        "left: the higher wins each column (GSK-4). Win a column and lose none to take the "
        "trick; your best are JS and 10S. Keep KS out of the outside slots: turned up, it puts "
        "you out at once (GSK-5).",
    ]


FIRST_TRICK = ("form left AS", "form middle 3S", "form right QS", "pass", "declare 3")
"""The learner's first trick as the first lesson suggests: its best cards outside, a low one in
the middle, and the truth declared."""


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_hints_lead_to_a_failed_challenge_and_a_trick_taken(seed: int) -> None:
    """Against the real bot: the learner plays its first trick as the lessons suggest; the bot's
    cards meet them in a push, it declares lower, challenges the truth and pays a card (GSK-8,
    GSK-10)."""
    played = tutorials.check_the_deal(GAME, tutorials.scripted(FIRST_TRICK), seed)
    assert len(played.lessons) == TUTORIAL.lessons
    events = [(actor, str(item)) for actor, item in played.state.history]
    challenge = events.index((1, "challenge"))
    assert [item for actor, item in events[:challenge] if actor == 0] == list(FIRST_TRICK)
    assert events[challenge - 1] == (1, "declare 2")
    # Played again to the challenge: "accurate", so the learner draws a card from the bot's
    # hand (GSK-10), then collects the trick.
    history = played.state.history
    again = new_game(TUTORIAL.players, **TUTORIAL.options)
    for actor, item in history[: challenge + 1]:
        again.apply(actor, item)
    assert again.is_chance and (again.draw_from, again.draw_to) == (1, 0)
    again.apply_chance(history[challenge + 1][1])
    assert again.past_tricks[0][2] == 0


def test_a_challenge_is_weighed_from_the_cards_in_sight() -> None:
    state = new_game(2)
    play(state, "p0 AS 2S QS", "p1 AH JH QH", "p0 pass", "p1 pass", "p0 declare 2", "p1 declare j")
    coach = state.game.text.coach
    assert coach(state, 1) is None  # the winner of the blind skirmish does not decide
    assert coach(state, 0) == (
        "p1 named a Jack and takes the trick either way (GSK-9). Challenge: if p1's middle card "
        "is not a Jack, you draw a random card from p1's 10 cards; if it is, p1 draws a random "
        "card from your 10 cards (1 in 10 is your KS). 1 of the 2 Jacks in play is out of your "
        "sight."
    )


def test_a_tie_and_a_route_that_wins_the_trick_anyway() -> None:
    state = new_game(2)
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H")
    coach = state.game.text.coach
    assert coach(state, 0).endswith("You won the skirmishes: p1's middle card comes to you anyway.")
    assert coach(state, 1).endswith(
        "p0 won the skirmishes: only a good route takes this trick now."
    )
    state = new_game(2)
    play(state, "p0 7S 4S 9S", "p1 9H 2H 7H", "p0 pass", "p1 pass", "p0 declare q", "p1 declare q")
    assert coach(state, 0).startswith(
        "You both named a Queen: name again; after 2 more ties the trick is void (GSK-7)."
    )


def test_a_king_in_the_middle_is_named_for_what_it_risks() -> None:
    state = new_game(2)
    play(state, "p0 AS KS QS", "p1 AH 2H QH", "p0 pass", "p1 pass")
    coach = state.game.text.coach
    assert coach(state, 0) == (
        "A push: each names a rank for their own middle card, and the higher rank takes the "
        "trick, true or not (GSK-9). Your middle card is your King KS: win the trick and it "
        "comes back safe (GSK-19); lose it and KS lies in p1's pile, which puts you out when "
        "the hand ends."
    )
    # p1 cannot see p0's middle card: its lesson is about its own.
    assert "KS" not in coach(state, 1)


def careful_positions(players: int, seed: int, **options: object) -> list[GodSaveTheKingState]:
    """Every position where a seat decides, in a game of random moves that never show their
    own King (so that games reach later hands)."""
    game = courtly.make(GAME, players=players, **options)
    positions = tutorials.random_positions(game, seed, policy=careful_action)
    return positions  # type: ignore[return-value]


GAMES = [
    pytest.param(2, {}, id="2p"),
    pytest.param(3, {}, id="3p"),
    pytest.param(4, {}, id="4p"),
    pytest.param(
        2,
        {"route_window": "before_reveal", "exposed_king_legal": False, "routes_per_hand": 2},
        id="2p-early-routes",
    ),
    pytest.param(3, {"trick_pile_private_until_hand_end": False}, id="3p-open-piles"),
]


@pytest.mark.parametrize(("players", "options"), GAMES)
def test_the_coach_tells_no_more_than_the_seat_knows(players: int, options: dict) -> None:
    rng = random.Random(players)
    for seed in range(2):
        for state in careful_positions(players, seed, **options):
            for seat in state.to_move:  # (the others' silence is the same in every world)
                tutorials.check_the_seat_is_told_no_more(state, seat, rng)


@pytest.mark.parametrize(("players", "options"), GAMES)
def test_the_coach_speaks_at_every_decision_and_only_there(players: int, options: dict) -> None:
    decisions = set()
    for seed in range(12):
        for state in careful_positions(players, seed, **options):
            assert tutorials.check_the_coach_speaks(state)
            decisions.add(state.decision)
    assert decisions == {D_FORM, D_ROUTE, D_DECLARE, D_CHALLENGE}


def test_no_coach_while_a_card_is_drawn_or_after_the_end() -> None:
    state = new_game(2)
    play(state, "p0 AS 2S QS", "p1 AH JH QH", "p0 pass", "p1 pass", "p0 declare 2")
    play(state, "p1 declare j", "p0 challenge")
    assert state.is_chance
    assert [state.game.text.coach(state, s) for s in range(2)] == [None, None]
    play(state, "KS")  # "accurate": p1 draws p0's King from p0's hand, and p0 is out
    assert state.is_terminal
    assert [state.game.text.coach(state, s) for s in range(2)] == [None, None]
