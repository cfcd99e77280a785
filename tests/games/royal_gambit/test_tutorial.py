"""Royal Gambit's first game that teaches: the prepared deal stays legal whatever the learner
plays, every lesson is explained, and the coach's words follow from the table alone."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.games.royal_gambit.components import DECISION_TEXT, FINAL
from courtly.games.royal_gambit.rules import RoyalGambitState

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
from .helpers import new_game, play

GAME = "royal-gambit"

LINE = ("hit", "hit", "hit", "give-7 p1", "hit", "hit", "hit", "stay")
"""The line of play the deal is prepared for."""


@pytest.mark.parametrize(("learner", "seed"), LEARNERS, ids=LEARNER_IDS)
def test_the_deal_is_legal_and_every_lesson_explained(learner: Policy, seed: int) -> None:
    """Whatever the learner plays (always hit, always stay, at random...)."""
    played = check_the_deal(GAME, learner, seed)
    assert not played.state.truncated


def test_the_tutorial_is_two_players_against_the_heuristic() -> None:
    tutorial = tutorial_of(GAME)
    assert (tutorial.players, tutorial.opponents, tutorial.learner) == (2, ("heuristic",), 0)
    assert tutorial.deal[0] == "p0"  # the learner starts the first hand
    assert len(set(tutorial.deal)) == len(tutorial.deal)  # no card twice: each one is in the deck


def test_the_line_it_teaches() -> None:
    """The worked example: the learner plays the line, the bot answers as the deal expects."""
    played = play_tutorial(GAME, scripted(LINE))
    assert [lesson.chosen for lesson in played.lessons] == list(LINE)
    assert [lesson.coach for lesson in played.lessons] == [
        "Your row is empty, so no card can bust you: a hit is free, and 20 of the 52 cards left "
        "would score. Staying banks 0 (total 0).",
        "Staying banks 4 (total 4). Hitting: 3 of the 50 cards left would bust you (a second 4) "
        "and lose the row's 4 points; 20 would add points.",
        "Staying banks 8 (total 8). Hitting: 6 of the 48 cards left would bust you (a second 4 "
        "or King) and lose the row's 8 points; 15 would add points.",
        "You must hand the 7 to p1, the only player who can take it (RG-9). It scores nothing, "
        "but from now on a second 7 busts him: 3 of the 47 cards left are 7s.",
        "Staying banks 8 (total 8). Hitting: 6 of the 46 cards left would bust you (a second 4 "
        "or King) and lose the row's 8 points; 15 would add points.",
        "Staying banks 8 (total 8). Your Queen pardons the next repeated rank, so no card can "
        "bust you now: 9 of the 45 cards left would use the pardon up (a second 4, Queen or "
        "King); 15 would add points (RG-8).",
        "Staying banks 8 (total 8). Hitting: 5 of the 44 cards left would bust you (a second 4 "
        "or King) and lose the row's 8 points; 15 would add points.",
        "Staying banks 18 (total 18). Hitting: 8 of the 43 cards left would bust you (a second "
        "4, 5 or King) and lose the row's 18 points; 11 would add points.",
    ]
    story = told_to_learner(played)
    for line in (
        "p0 flips KS: it doubles the row, now worth 8.",
        "p0 gives 7D to p1.",
        "p1 flips 7H and busts: a second 7 (7D is in the row).",
        "p0 flips 4S: a second 4 (4H is in the row), pardoned by QC (RG-8).",
        "p0 stays and banks 18 points, doubled by the King (total 18).",
        "p1 busted: total 0.",
    ):
        assert line in story


# ------------------------------------------------------------------------- the coach


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_coach_tells_only_what_the_seat_knows(players: int) -> None:
    game = courtly.make(GAME, players=players)
    rng = random.Random(players)
    for state in random_positions(game, seed=players)[::3]:
        check_the_coach_knows_no_more(state, rng)


def test_the_coach_tells_only_what_the_learner_knows_in_the_tutorial() -> None:
    rng = random.Random(0)
    for state in positions_of(play_tutorial(GAME, at_random, seed=5), 120):
        check_the_coach_knows_no_more(state, rng)


@pytest.mark.parametrize(
    ("players", "options"),
    [
        (2, {}),
        (3, {}),
        (4, {"ten_blocks_jacks": True}),
        (5, {"auto_hit_on_zero": True}),
        (3, {"turn_mode": "full_turn", "target_score": 15}),
    ],
)
def test_the_coach_speaks_at_every_decision_and_only_there(
    players: int, options: dict[str, object]
) -> None:
    game = courtly.make(GAME, players=players, **options)
    kinds = set()
    for seed in range(4):
        for state in random_positions(game, seed):
            assert check_the_coach_speaks(state)
            assert isinstance(state, RoyalGambitState)
            kinds.add(DECISION_TEXT[state.decision])
    assert kinds == set(DECISION_TEXT)


# ------------------------------------------------------------------------- worked examples


def test_a_seven_for_one_of_several_rivals() -> None:
    state = new_game(3)
    play(state, "p0 hit", "5S", "p1 hit", "QH", "p2 hit", "2D", "p0 hit", "7H")
    assert state.game.text.coach(state, 0) == (
        "Hand the 7 on (RG-9): it scores nothing, but a second 7 busts its new holder, and 3 of "
        "the 48 cards left are 7s. A bust costs a player his row: p1's 0 (a Queen guards it), "
        "p2's 2."
    )


def test_a_jack_for_a_rival_or_oneself() -> None:
    state = new_game(2)
    play(state, "p0 hit", "5S", "p1 hit", "3H", "p0 hit", "JD")
    assert state.game.text.coach(state, 0) == (
        "The one you pick flips two cards, one at a time (RG-10): a rival may bust, you may gain "
        "points. At stake, of the 49 cards left: p1's 3 (3 bust him), your 5 (6 bust you)."
    )
    assert state.game.text.coach(state, 1) is None  # p1 has nothing to decide


def test_a_jack_only_oneself_can_take() -> None:
    state = new_game(2)
    play(state, "p0 hit", "5S", "p1 stay", "p0 hit", "QD", "p0 hit", "JD")
    assert state.game.text.coach(state, 0) == (
        "Only you can be picked: you flip two cards, one at a time (RG-11). Your row is worth 5, "
        "and your Queen pardons one repeat."
    )


def test_the_final_hand_says_what_staying_leaves() -> None:
    state = new_game(2, target_score=5)
    play(state, "p0 hit", "5S", "p1 hit", "3H", "p0 stay", "p1 stay")
    assert state.phase == FINAL and state.participants == (1,)  # p0 sits out as the favorite
    short = state.clone()
    play(short, "p1 hit", "AC")
    assert short.game.text.coach(short, 1).endswith(  # type: ignore[union-attr]
        "In the final hand, staying leaves you short of p0's 5: only hitting can win."
    )
    play(state, "p1 hit", "4D")
    assert state.game.text.coach(state, 1) == (
        "Staying banks 4 (total 7, the target reached). Hitting: 3 of the 51 cards left would "
        "bust you (a second 4) and lose the row's 4 points; 20 would add points. In the final "
        "hand, staying puts you ahead of p0's 5."
    )


def test_the_final_hand_against_two_favorites() -> None:
    state = new_game(3, target_score=5)
    play(state, "p0 hit", "5S", "p1 hit", "5H", "p2 hit", "2D", "p0 stay", "p1 stay", "p2 stay")
    assert state.phase == FINAL and state.participants == (2,)
    play(state, "p2 hit", "3C")
    assert state.game.text.coach(state, 2) == (
        "Staying banks 3 (total 5, the target reached). Hitting: 3 of the 51 cards left would "
        "bust you (a second 3) and lose the row's 3 points; 20 would add points. In the final "
        "hand, staying leaves you level with the 5 of p0 and p1: a tie plays on (RG-22)."
    )
    play(state, "p2 hit", "AC")
    assert state.game.text.coach(state, 2).endswith(  # type: ignore[union-attr]
        "In the final hand, staying puts you ahead of the 5 of p0 and p1."
    )


def test_a_row_worth_nothing_must_hit_at_this_table() -> None:
    state = new_game(2, auto_hit_on_zero=True)
    play(state, "p0 hit", "8S", "p1 hit", "3H")
    assert state.game.text.coach(state, 0) == (
        "Your row is worth 0, so at this table you must hit (RG-13); 3 of the 50 cards left "
        "would bust you, at no cost yet."
    )


def test_an_empty_deck_ends_the_hand_on_a_hit() -> None:
    state = new_game(2)
    play(state, "p0 hit", "2S")
    state.deck.clear()
    state.left[:] = [0] * len(state.left)
    assert state.game.text.coach(state, 1) == (
        "The deck is empty: a hit ends the hand, and everyone still in it banks his row (RG-18). "
        "Staying banks 0 (total 0)."
    )
