"""King's Court's first game that teaches: the prepared deal stays legal whatever the learner
plays, every lesson has the coach's words, and the coach tells a seat nothing its view does not
(docs/rules/kings-court.md §6)."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.core.actions import Action
from courtly.core.game import State
from courtly.games.kings_court.components import BORROWING, PLAYING
from courtly.games.kings_court.rules import KingsCourtState

from .. import tutorials
from .helpers import arrange, new_game, play

GAME = "kings-court"

LINE = ("play 8H", "end", "play 6S", "end", "play QH p1", "borrow 4H", "end", "play KH p1")
"""The line of play the deal is prepared for."""


def ending_each_turn(state: State, seat: int, rng: random.Random) -> Action:
    return state.parse_action(seat, "end")


def test_the_tutorial_seats_the_learner_against_the_heuristic() -> None:
    tutorial = tutorials.tutorial_of(GAME)
    assert (tutorial.players, tutorial.opponents, tutorial.learner) == (2, ("heuristic",), 0)
    assert 5 <= tutorial.lessons <= 8
    # The learner wins the cut (KC-4), then every draw is a different card of the 26.
    assert tutorial.deal[0] == "p0"
    cards = tutorial.deal[1:]
    assert len(set(cards)) == len(cards) <= 26


@pytest.mark.parametrize(
    ("learner", "seed"),
    [*tutorials.LEARNERS, (tutorials.scripted(LINE[:3], then=ending_each_turn), 5)],
    ids=[*tutorials.LEARNER_IDS, "the-line-begun-then-ending-each-turn"],
)
def test_the_deal_is_legal_whatever_the_learner_plays(learner: tutorials.Policy, seed: int) -> None:
    played = tutorials.check_the_deal(GAME, learner, seed)
    assert len(played.lessons) == tutorials.tutorial_of(GAME).lessons  # no learner loses that fast


def test_the_intended_line_teaches_a_move_a_push_back_a_queen_and_a_king() -> None:
    played = tutorials.check_the_deal(GAME, tutorials.scripted(LINE, then=ending_each_turn), 0)
    assert [lesson.chosen for lesson in played.lessons] == list(LINE)
    # The bot's Jack answers the learner's first move (KC-11): that is what lesson 3 pushes back.
    assert (1, "play JS p0") in [(actor, str(item)) for actor, item in played.state.history]
    assert [lesson.coach for lesson in played.lessons] == [
        "8H moves you forward 8, from 0 to 8 of 30; the 9 hearts still out could push you "
        "back. Ending the turn keeps your 1 card, but KS or KH could make you throw it "
        "away (KC-13).",
        "Nothing is left to play: end the turn, and p1 (on 0, 0 cards in hand) draws next.",
        # The bot's Jack swapped places: p1 on 8, the learner back on 0 (KC-11).
        "6S pushes p1 back 6, from 8 to 2 (each rival once a turn, KC-9). Ending the turn keeps "
        "your 1 card, but KS or KH could make you throw it away (KC-13).",
        "Nothing is left to play: end the turn, and p1 (on 2, 0 cards in hand) draws next.",
        "QH shows you p1's only card and lets you borrow one (KC-12). Ending the turn keeps "
        "your 1 card, but KS or KH could make you throw it away (KC-13).",
        "You see p1's hand: 4H. Borrowed, 4H moves you forward 4, from 0 to 4 (KC-12). A "
        "borrowed card leaves p1's hand for good; passing leaves it as it is.",
        "Nothing is left to play: end the turn, and p1 (on 2, 0 cards in hand) draws next.",
        "KH makes p1 throw away the one card in hand (KC-13). Ending the turn keeps your 1 "
        "card, but KS could make you throw it away (KC-13).",
    ]


def test_the_coach_weighs_the_race_the_swaps_and_the_push_backs() -> None:
    state = new_game(players=3)
    arrange(state, {0: 5, 1: 12, 2: 3}, {0: "3H 9H 4S JH", 2: "5C 6C"})
    play(state, "2C")
    coach = state.game.text.coach
    assert coach(state, 0) == (
        "3H 9H move you forward 12 together, from 5 to 17 of 30; the 8 hearts still out could "
        "push you back. JH swaps you with p1 (you gain 7, to 12), or swaps you with p2 (you lose "
        "2, to 3) (KC-11). 4S pushes p1 back 4, from 12 to 8; 2C pushes p2 back 2, from 3 to 1 "
        "(each rival once a turn, KC-9)."
    )
    assert [coach(state, 1), coach(state, 2)] == [None, None]
    play(state, "p0 play JH p1")
    assert coach(state, 0) == (
        "3H 9H move you forward 12 together, from 12 to 24 of 30; the 8 hearts still out "
        "could push you back. 4S pushes p1 back 4, from 5 to 1; 2C pushes p2 back 2, "
        "from 3 to 1 (each rival once a turn, KC-9). Ending the turn keeps your 4 cards, but "
        "KS, KH or KC could make you throw them away (KC-13)."
    )
    play(state, "p0 play 2C", "p0 play 3H", "p0 play 9H")
    assert coach(state, 0) == (
        "4S pushes p1 back 4, from 5 to 1 (each rival once a turn, KC-9). Ending the turn keeps "
        "your 1 card, but KS, KH or KC could make you throw it away (KC-13)."
    )


def test_the_coach_names_a_winning_card_first() -> None:
    state = new_game(players=2)
    arrange(state, {0: 26, 1: 12}, {0: "3H 4H KH"})
    play(state, "KS")
    assert state.game.text.coach(state, 0) == (
        "Play 4H: it takes you from 26 to 30 and wins at once (KC-8)."
    )


GAMES = [
    pytest.param(2, {}, id="2p"),
    pytest.param(3, {}, id="3p"),
    pytest.param(4, {}, id="4p"),
    pytest.param(2, {"initial_hand_size": 4, "prefilter_unused_suits": False}, id="2p-dealt"),
]


@pytest.mark.parametrize(("players", "options"), GAMES)
def test_the_coach_tells_no_more_than_the_seat_knows(players: int, options: dict) -> None:
    rng = random.Random(players)
    game = courtly.make(GAME, players=players, **options)
    # A third of the positions: the worlds are slow to draw.
    for state in tutorials.random_positions(game, 7)[::3]:
        assert tutorials.check_the_coach_speaks(state)
        tutorials.check_the_coach_knows_no_more(state, rng)


@pytest.mark.parametrize(("players", "options"), GAMES)
def test_the_coach_speaks_at_every_decision_and_only_there(players: int, options: dict) -> None:
    game = courtly.make(GAME, players=players, **options)
    phases = set()
    for seed in range(3):
        for state in tutorials.random_positions(game, seed):
            assert tutorials.check_the_coach_speaks(state)
            assert isinstance(state, KingsCourtState)
            phases.add(state.phase)
    assert phases == {PLAYING, BORROWING}


def test_no_coach_while_the_cut_or_a_draw_is_due() -> None:
    state = courtly.make(GAME).new_state()
    assert state.game.text.coach(state, 0) is None  # the cut
    state.apply_chance("p1")
    assert state.game.text.coach(state, 1) is None  # the draw
