"""Crush the Crown's first game that teaches: the prepared deal stays legal whatever the learner
plays, every lesson is explained, and the coach's words follow from the learner's own hand and
the public table alone, never from the rival's hand or the draw pile."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.games.crush_the_crown.components import DECISION_TEXT
from courtly.games.crush_the_crown.rules import CrushTheCrownState

from ..tutorials import (
    LEARNER_IDS,
    LEARNERS,
    Policy,
    at_random,
    check_the_coach_knows_no_more,
    check_the_coach_speaks,
    check_the_deal,
    play_tutorial,
    positions_of,
    random_positions,
    scripted,
    told_to_learner,
    tutorial_of,
)
from .helpers import deal, new_game, play, position

GAME = "crush-the-crown"

LINE = (
    "marry QD",
    "extend JD",
    "spy JC",
    "fire 2H",
    "give 5H",
    "discover 10D",
    "spy QS",
    "fire 7H",
)
"""The line of play the deal is prepared for."""


@pytest.mark.parametrize(("learner", "seed"), LEARNERS, ids=LEARNER_IDS)
def test_the_deal_is_legal_and_every_lesson_explained(learner: Policy, seed: int) -> None:
    """Whatever the learner plays (always pass, marry the other Queen, at random...)."""
    played = check_the_deal(GAME, learner, seed)
    assert len(played.lessons) == tutorial_of(GAME).lessons


def test_the_tutorial_is_the_learner_first_against_the_heuristic() -> None:
    tutorial = tutorial_of(GAME)
    assert (tutorial.players, tutorial.opponents, tutorial.learner) == (2, ("heuristic",), 0)
    assert tutorial.deal[0] == "p1"  # p1 deals: the learner marries first and plays first
    cards = tutorial.deal[1:]
    assert len(set(cards)) == len(cards) and not any(c.startswith("K") for c in cards)


def test_the_line_it_teaches() -> None:
    """The worked example: the learner plays the line, the bot answers as the deal expects."""
    played = play_tutorial(GAME, scripted(LINE))
    assert [lesson.chosen for lesson in played.lessons] == list(LINE)
    assert [lesson.coach for lesson in played.lessons] == [
        "Marry one of your Queens (CTC-4): her suit becomes yours, built from the Jack down to "
        "the Ace. You hold no spades besides QS and 1 diamond besides QD; a Queen you keep "
        "becomes a wild spy.",
        "Your government needs a Jack next: extend with JD, and 10 cards will remain to the Ace.",
        "p1's government needs a Jack next. A spy there makes p1 pay you 1 card of tribute now "
        "and every turn, one per spy of yours, until he exposes it (CTC-13). JC fits exactly. "
        "QS is wild: it takes the rank of any slot (CTC-11).",
        "You may fire one card face up, then you draw back to 5 (CTC-17). Worth firing: 2H "
        "(p1's suit, never playable, CTC-20).",
        "You owe p1 1 card of tribute, one per spy of his in your government (CTC-13). You hold "
        "hearts, his suit, so one must go first (CTC-14): give 5H, which he needs latest (he "
        "needs a 9 next).",
        "Your government needs a 9 next: extend with 9D, and 8 cards will remain to the Ace. "
        "Expose the spy 10C with 10D: it is executed, and p1 collects one card less of tribute "
        "every turn (CTC-13). Only one government card a turn (CTC-9).",
        "p1's government needs a 9 next. A spy there makes p1 pay you 2 cards of tribute now "
        "and every turn, one per spy of yours, until he exposes it (CTC-13). QS is wild: it "
        "takes the rank of any slot (CTC-11).",
        "You may fire one card face up, then you draw back to 5 (CTC-17). Worth firing: 7H "
        "(p1's suit, never playable, CTC-20).",
    ]
    story = told_to_learner(played)
    for line in (
        "p0 marries QD to KD: diamonds are his suit.",
        "p1 marries QH to KH: hearts are his suit.",
        "p0 places JC as a spy in p1's government, as its Jack.",
        "p1 gives 10D to p0 as tribute.",
        "p1 places 10C as a spy in p0's government, as its 10.",
        "p0 discovers the spy 10C with 10D: 10C is executed; his government needs a 9 next.",
        "p0 places QS as a wild spy in p1's government, as its 9.",
        "p1 gives 2D to p0 as tribute (1 of 2).",
    ):
        assert line in story


# ------------------------------------------------------------------------- the coach


DEADLOCK = ("p1", "2C", "QS", "3C", "QH", "4C", "QD", "5C", "QC", "6C", "7C")
"""p1 deals himself every Queen: p0 finds none to marry and p1 must give him one (CTC-6)."""


@pytest.mark.parametrize("seed", range(3))
def test_the_coach_tells_only_what_the_seat_knows(seed: int) -> None:
    rng = random.Random(seed)
    forced = DEADLOCK if seed == 0 else ()
    for state in random_positions(courtly.make(GAME), seed, forced)[:: 4 + seed]:
        check_the_coach_knows_no_more(state, rng)


def test_the_coach_tells_only_what_the_learner_knows_in_the_tutorial() -> None:
    rng = random.Random(0)
    for state in positions_of(play_tutorial(GAME, at_random, seed=7), 150):
        check_the_coach_knows_no_more(state, rng)


@pytest.mark.parametrize(
    ("forced", "options"),
    [
        ((), {}),
        (DEADLOCK, {}),
        ((), {"use_jokers": False, "hand_size": 3}),
        ((), {"one_gov_card_per_build": False, "hand_size": 7}),
    ],
    ids=["default", "deadlock", "small-hands", "many-discoveries"],
)
def test_the_coach_speaks_at_every_decision_and_only_there(
    forced: tuple[str, ...], options: dict[str, object]
) -> None:
    game = courtly.make(GAME, players=2, **options)
    kinds = set()
    for seed in range(3):
        for state in random_positions(game, seed, forced):
            assert check_the_coach_speaks(state)
            assert isinstance(state, CrushTheCrownState)
            kinds.add(DECISION_TEXT[state.decision])
    assert kinds == set(DECISION_TEXT) - ({"give-queen"} if not forced else set())


# ------------------------------------------------------------------------- worked examples


def test_the_deadlock_queen() -> None:
    state = new_game(dealer="p1")
    deal(state, "2C 3C 4C 5C 6C", "QS QH QD QC 7C")
    assert state.game.text.coach(state, 0) is None  # p0 waits for his Queen
    assert state.game.text.coach(state, 1) == (
        "Every free Queen is in your hand, so you must give p0 one to marry (CTC-6). Cards of "
        "his suit become useless to you, so give the Queen of the suit you hold least of: you "
        "hold no spades besides QS, no hearts besides QH, no diamonds besides QD and 1 club "
        "besides QC."
    )


def test_no_queen_to_marry() -> None:
    state = new_game(dealer="p1")
    deal(state, "2C 3C 4C 5C Jk", "QS QH 6C 7C 8C")
    assert state.game.text.coach(state, 0) == (
        "You hold no Queen: discard a card face up and draw again until one comes (CTC-5). "
        "4 Queens are unseen, in the draw pile or p1's hand. Keep the suit you hold most of, "
        "and a joker: it is a wild spy."
    )


def test_which_spies_fit() -> None:
    """§12, example 2, with the rival's own 8 in hand."""
    state = position(p1_stack="KH QH JH 10H 9H", p0_hand="8C 8S QC Jk 7C 8H")
    play(state, "p0 pass")
    assert state.game.text.coach(state, 0) == (
        "p1's government needs an 8 next. A spy there makes p1 pay you 1 card of tribute now "
        "and every turn, one per spy of yours, until he exposes it (CTC-13). 8S or 8C fits "
        "exactly. You hold 8H, so he cannot expose it soon. QC or Jk is wild: it takes the rank "
        "of any slot (CTC-11)."
    )


def test_three_cards_of_tribute() -> None:
    """§12, example 3: the diamond first, then any card."""
    state = position(p1_stack="KH QH JH 10H 9H 8C* 7H 6S*", p0_hand="5C", p1_hand="3D 2H AS 9C")
    play(state, "p0 pass", "p0 spy 5C")
    assert state.game.text.coach(state, 1) == (
        "You owe p0 3 cards of tribute, one per spy of his in your government (CTC-13). You "
        "hold diamonds, his suit, so one must go first (CTC-14): 3D must go."
    )
    play(state, "p1 give 3D")
    assert state.game.text.coach(state, 1) == (
        "You still owe p0 2 of the 3 cards of tribute, one per spy of his in your government "
        "(CTC-13). You hold no diamonds, so any card will do (CTC-14), and he learns you hold "
        "none. Keep your hearts and your wild spies; give the card worth least."
    )
    assert state.game.text.coach(state, 0) is None


def test_the_win_is_announced() -> None:
    """§12, example 6 and its variation."""
    clean = position(p0_stack="KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D", p0_hand="AD 7S")
    assert clean.game.text.coach(clean, 0) == (
        "Extending with AD completes your government, and you win (CTC-19)."
    )
    spied = position(p0_stack="KD QD JD 10D 9D 8D 7D 6D 5S* 4D 3D 2D AD", p0_hand="5D")
    assert spied.game.text.coach(spied, 0) == (
        "Expose the spy 5S with 5D: it is executed, and your government is clean: you win (CTC-19)."
    )


def test_a_big_hand_draws_nothing() -> None:
    """§12, example 9: over the hand size, a fired card is not replaced."""
    state = position(p0_hand="2H 3H 4S 5S 6S 7S 8S", p1_stack="KH QH JH 10H 9H")
    play(state, "p0 pass", "p0 pass")
    assert state.game.text.coach(state, 0) == (
        "You hold 7 cards, more than 5: you draw none either way (CTC-16). Worth firing: 2H and "
        "3H (p1's suit, never playable, CTC-20)."
    )


def test_discoveries_after_an_extension_without_the_one_card_rule() -> None:
    state = position(p0_stack="KD QD JD 10C*", p0_hand="10D 9D", one_gov_card_per_build=False)
    play(state, "p0 extend 9D")
    assert state.game.text.coach(state, 0) == (
        "You have extended this turn, and may still expose spies. Expose the spy 10C with 10D: "
        "it is executed, and p1 collects one card less of tribute every turn (CTC-13)."
    )


def test_nothing_to_build_nor_to_spy_with() -> None:
    state = position(
        p0_stack="KD QD JD 10C*", p0_hand="2D 3S", p1_stack="KH QH JH 10H 9H", use_jokers=False
    )
    assert state.game.text.coach(state, 0) == (
        "Your government needs a 9 next, and the spy 10C waits for your card: nothing in your "
        "hand builds. Pass."
    )
    play(state, "p0 pass")
    assert state.game.text.coach(state, 0) == (
        "p1's government needs an 8 next, and a spy there must be an 8 of spades or clubs or a "
        "mercenary Queen (CTC-11): you hold none."
    )
