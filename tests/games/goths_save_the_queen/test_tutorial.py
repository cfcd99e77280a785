"""Goths Save the Queen's first game that teaches: the learner, the Ostrogoth King, against three
heuristic bots on prepared Objectives. The prepared deal stays legal whatever the learner plays,
every lesson is explained, the coach's words in a worked example and at every kind of decision,
and the coach never tells a seat more than it may know (docs/rules/goths-save-the-queen.md §8)."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.core.actions import Action
from courtly.core.game import State
from courtly.games.goths_save_the_queen.components import (
    CHOOSE_BARRICADE,
    CHOOSE_ENTRY,
    CHOOSE_RECON,
    KINGS,
    ORDERS,
    PLAINS,
    QUEEN,
    SUB_CHOICE,
    TRAP,
)
from courtly.games.goths_save_the_queen.game import TUTORIAL, GothsSaveTheQueen
from courtly.games.goths_save_the_queen.rules import GothsSaveTheQueenState
from courtly.games.goths_save_the_queen.text import COACH_LIMIT

from .. import tutorials
from .helpers import OST, new_game, place, play, turn

GAME = "goths-save-the-queen"


def coach(state: GothsSaveTheQueenState, seat: int) -> str | None:
    return state.game.text.coach(state, seat)


# ----------------------------------------------------------------------------- the tutorial


def test_the_tutorial_seats_the_learner_as_the_ostrogoth_king_against_heuristic_bots() -> None:
    tutorial = GothsSaveTheQueen.info.tutorial
    assert tutorial is TUTORIAL
    assert tutorial.players == 4 and tutorial.learner == 0
    assert tutorial.opponents == ("heuristic", "heuristic", "heuristic")
    game = courtly.make(GAME, tutorial.players, **tutorial.options)
    assert game.text.seat_title(game, tutorial.learner) == "Ostrogoth King"
    assert 5 <= tutorial.lessons <= 8


@pytest.mark.parametrize(("learner", "seed"), tutorials.LEARNERS, ids=tutorials.LEARNER_IDS)
def test_the_deal_is_legal_whatever_the_learner_plays_and_the_game_ends(
    learner: tutorials.Policy, seed: int
) -> None:
    played = tutorials.check_the_deal(GAME, learner, seed, limit=COACH_LIMIT)
    # The prepared Objectives are the ones the game was played on.
    assert played.state.objectives == [TRAP, QUEEN, PLAINS]  # type: ignore[attr-defined]


def test_the_tutorial_lasts_its_lessons_in_most_games() -> None:
    """The bots do not end the game before the learner has had his lessons, as a rule."""
    full = sum(
        len(tutorials.play_tutorial(GAME, learner, seed).lessons) == TUTORIAL.lessons
        for learner in (tutorials.like_the_bot, tutorials.at_random)
        for seed in range(4)
    )
    assert full >= 6


# ----------------------------------------------------------------------------- a worked example


def test_worked_example_the_first_lessons_of_the_tutorial() -> None:
    """The intended line of play: the learner signals an advance, hears of the Visigoth
    catapult aimed at him and has it sabotaged first, sees a card left face up by a wrong
    reading, and is told that its character is now a sure success."""
    state = new_game(TUTORIAL.deal[0])
    assert coach(state, 0) == (
        "Now a Barbarian can advance to O-Plains1 (7), a Recruiter recruit a 3rd figurine (3) "
        "and a Catapult load the catapult (4). Your Warchief sees only the back: B1 means "
        "Catapult or Barbarian, B2 Vulture or Barbarian; if he guesses wrong, nothing happens "
        "and the card stays face up."
    )
    turn(state, ("b1", "advance"), ("c1", "load"))
    play(state, "p1 c2")
    assert coach(state, 0) == (
        "Now a Vulture can sabotage their loaded catapult (2). Your Warchief sees only the "
        "back: V1 means Vulture or Recruiter, V2 Vulture or Barbarian. Watch out, their card "
        "shows C/B: a Catapult could fire (5: you are wiped out). Sabotage (2) would go before "
        "Fire (5) (GOTH-25)."
    )
    play(state, "p0 v2", "p2 sabotage", "p3 fire")
    assert state.army == [2, 2] and state.catapult == [False, False]
    assert coach(state, 0) == (
        "Now a Barbarian can advance to O-Plains2 (7). Your Warchief sees only the back: B1 "
        "means Catapult or Barbarian, B2 Vulture or Barbarian. Watch out, their King has not "
        "laid his card yet: a Barbarian could throw an axe (8: you lose 1). Barricade (6) would "
        "go before Axe (8) (GOTH-25)."
    )
    turn(state, ("b2", "recruit"), ("r1", "recruit"))  # a wrong reading: B2 stays face up
    assert state.face_up[OST] == 1 << 7
    play(state, "p1 b1")
    assert coach(state, 0) == (
        "Now a Barbarian can advance to O-Plains2 (7). With B2 face up, any Barbarian order "
        "succeeds whatever you lay (GOTH-3). Your Warchief sees only the back: R1 means Vulture "
        "or Recruiter, R2 Recruiter or Catapult. Watch out, their card shows C/B: a Barbarian "
        "could throw an axe (8: you lose 1)."
    )


# ----------------------------------------------------------------------------- every decision


def test_a_warchief_is_told_how_to_read_his_kings_back() -> None:
    state = new_game()
    play(state, "p0 c2", "p1 b2")
    assert coach(state, 2) == (
        "Your King's card shows C/B: C2 (Catapult) or B1 (Barbarian); an order of the other "
        "character does nothing. Now a Barbarian can advance to O-Plains1 (7) and a Catapult "
        "load the catapult (4)."
    )
    assert coach(state, 0) is None and coach(state, 1) is None  # the Kings have laid


def test_the_initiative_decides_between_two_shots_of_the_same_number() -> None:
    state = new_game()
    turn(state, ("c1", "load"), ("c2", "load"))  # both catapults loaded
    play(state, "p1 c1", "p0 c2")  # turn 2: the Visigoths hold the initiative
    assert coach(state, 2) == (
        "Your King's card shows C/B: C2 (Catapult) or B1 (Barbarian). Now a Catapult can fire "
        "(5: they are wiped out). Watch out, their card shows R/C: a Catapult could fire (5: "
        "you are wiped out). Two Fire (5): theirs first, as they hold the initiative (GOTH-25)."
    )


def test_a_card_face_up_settles_the_reading_of_its_twin_back() -> None:
    state = new_game()
    turn(state, ("b1", "recruit"), ("v2", "load"))  # B1 (back C/B) stays face up
    play(state, "p1 c1", "p0 c2")
    assert coach(state, 2) == (
        "Your King's card shows C/B: it can only be C2 (Catapult). With B1 face up, any "
        "Barbarian order succeeds (GOTH-3). Now a Barbarian can advance to O-Plains1 (7) and a "
        "Catapult load the catapult (4)."
    )


def test_entering_an_objective_weighs_the_queen_against_the_trap() -> None:
    state = new_game("trap,queen,plains")
    place(state, OST, 2, army=1)
    state.looked_at[OST] = 0b100  # the Ostrogoth Warchief saw the Plains under Objective 2
    turn(state, ("b1", "advance"), ("v1", "recruit"))
    assert (state.phase, state.pending_choice) == (SUB_CHOICE, CHOOSE_ENTRY)
    assert coach(state, 2) == (
        "Objectives 0 and 1, unknown to you, each hide the Queen 1 in 2 (you win) or the Trap "
        "1 in 2 (you lose your last figurine). Objective 2 is the Plains (you saw it): safe, "
        "nothing happens."
    )


def test_a_known_queen_is_a_win_in_the_warchiefs_words_only() -> None:
    """The Warchief saw the Queen: his coach says so, his King's does not (GOTH-17)."""
    state = new_game("trap,queen,plains")
    place(state, OST, 2)
    state.looked_at[OST] = 0b010
    king = coach(state, 0) or ""
    assert "the Queen 1 in 3" in king and "Objective 1" not in king
    play(state, "p0 b1", "p1 v1")
    assert "advance onto Objective 1, the Queen, and win (7)" in (coach(state, 2) or "")
    play(state, "p2 advance", "p3 recruit")
    assert (coach(state, 2) or "").startswith(
        "Objective 1 is the Queen (you saw it): entering it wins."
    )
    play(state, "p2 enter obj1")
    assert state.is_terminal and state.winner == OST


def test_a_reconnaissance_names_what_is_still_unknown() -> None:
    state = new_game("trap,queen,plains")
    state.looked_at[OST] = 0b001
    turn(state, ("v1", "recon"), ("r1", "recruit"))
    assert (state.phase, state.pending_choice) == (SUB_CHOICE, CHOOSE_RECON)
    assert coach(state, 2) == (
        "Look at one Objective in secret: only you learn what it is, not even your King "
        "(GOTH-17). Objectives 1 and 2, unknown to you, each hide the Queen 1 in 2. You know "
        "Objective 0 is the Trap."
    )


def test_a_solo_chief_is_reminded_of_the_character_he_may_not_repeat() -> None:
    state = new_game("trap,queen,plains", solo_clans="both")
    play(state, "p0 load", "p1 advance")
    assert coach(state, 0) == (
        "Your order always succeeds, but no Catapult order this turn: you gave one last turn "
        "(GOTH-23). Now a Barbarian can throw an axe (8: they lose 1) or advance to O-Plains1 "
        "(7) and a Recruiter recruit a 3rd figurine (3)."
    )


def test_a_barricade_with_fog_in_force_weighs_building_against_discarding() -> None:
    state = new_game("trap,queen,plains", fog="gusts,pea-soup")
    place(state, OST, 1)
    turn(state, ("b1", "advance"), ("v1", "recruit"))  # onto O-Plains2: Gusts turn up
    turn(state, ("b1", "barricade"), ("v2", "recruit"))
    assert (state.phase, state.pending_choice) == (SUB_CHOICE, CHOOSE_BARRICADE)
    assert coach(state, 2) == (
        "A barricade on O-Plains2 stops axes and the catapult but draws rats (GOTH-14). "
        "Discarding Gusts frees you of it: while it lies, axes do nothing for you (GOTH-19)."
    )


GAMES: list[dict[str, object]] = [
    {},
    {"fog_of_war": True},
    {"players": 3},
    {"solo_clans": "ostrogoths"},
    {"players": 2, "fog_of_war": True},
]


def mostly_the_bot(state: State, seat: int, rng: random.Random) -> Action:
    """The heuristic, so that the armies get to the Objectives, now and then at random."""
    return (
        tutorials.like_the_bot(state, seat, rng)
        if rng.random() < 0.8
        else tutorials.at_random(state, seat, rng)
    )


def random_decisions(options: dict[str, object], games: int) -> list[GothsSaveTheQueenState]:
    """Every decision of ``games`` games played mostly by the heuristic."""
    game = courtly.make(GAME, **options)  # type: ignore[arg-type]
    return [
        state  # type: ignore[misc]
        for seed in range(games)
        for state in tutorials.random_positions(game, seed, policy=mostly_the_bot)
    ]


def decision_kind(state: GothsSaveTheQueenState, seat: int) -> str:
    if state.phase == KINGS:
        return "king card"
    if state.phase == ORDERS:
        return "solo order" if state.tables.solo[state.tables.clan_of[seat]] else "order"
    return {CHOOSE_RECON: "look", CHOOSE_ENTRY: "enter", CHOOSE_BARRICADE: "barricade"}[
        state.pending_choice
    ]


def test_the_coach_speaks_at_every_kind_of_decision_and_only_there() -> None:
    met: set[str] = set()
    for options in GAMES:
        for state in random_decisions(options, games=4):
            assert tutorials.check_the_coach_speaks(state, limit=COACH_LIMIT)
            for seat in state.to_move:
                assert (coach(state, seat) or "")[0].isupper()
                met.add(decision_kind(state, seat))
    assert met == {"king card", "order", "solo order", "look", "enter", "barricade"}


@pytest.mark.parametrize("options", GAMES)
def test_the_coach_tells_no_more_than_the_seat_knows(options: dict[str, object]) -> None:
    """In every world drawn from a seat's view, the coach says the same words to it."""
    rng = random.Random(7)
    for state in random_decisions(options, games=3):
        tutorials.check_the_coach_knows_no_more(state, rng)


@pytest.mark.parametrize("seed", range(3))
def test_the_coach_tells_the_learner_no_more_than_he_knows_in_the_tutorial(seed: int) -> None:
    played = tutorials.play_tutorial(GAME, tutorials.like_the_bot, seed)
    rng = random.Random(11)
    for state in tutorials.positions_of(played, len(played.state.history)):
        tutorials.check_the_coach_knows_no_more(state, rng)
