"""How a game of Goths Save the Queen ended, in words (its text's ``outcome``): the rule that
ended it and what did it, each seat's place, its clan's army and a note; games played from the
start, so that the record shows what struck the last blow."""

from __future__ import annotations

from courtly.core.game import Standing
from courtly.games.goths_save_the_queen.rules import GothsSaveTheQueenState

from .helpers import VIS, new_game, place, play, turn


def _ostrogoths_reach_the_objectives(state: GothsSaveTheQueenState) -> None:
    """Two turns: the Ostrogoths advance to O-Plains2 while the Visigoths fail (a Vulture laid,
    rats ordered)."""
    turn(state, o=("b1", "advance"), v=("v1", "rats"))
    turn(state, o=("b1", "advance"), v=("v2", "rats"))
    assert state.position == [2, 8] and state.turn == 3


def test_the_queen_rescued() -> None:
    state = new_game("trap,queen,plains")
    _ostrogoths_reach_the_objectives(state)
    turn(state, o=("b1", "advance"), v=("r1", "rats"))
    play(state, "p2 enter obj1")
    outcome = state.game.text.outcome(state)
    assert outcome.reason == (
        "The Ostrogoths found the Queen under Objective 1 on turn 3 and rescued her: they win."
    )
    assert outcome.standings == (
        Standing(0, 1, "2 figurines left", "Ostrogoth King: the Ostrogoths rescued the Queen"),
        Standing(2, 1, "2 figurines left", "Ostrogoth Warchief: the Ostrogoths rescued the Queen"),
        Standing(1, 2, "2 figurines left", "Visigoth King: the Ostrogoths found the Queen first"),
        Standing(
            3, 2, "2 figurines left", "Visigoth Warchief: the Ostrogoths found the Queen first"
        ),
    )
    assert outcome.winners == (0, 2)


def test_an_army_destroyed_by_the_catapult() -> None:
    state = new_game()
    turn(state, o=("b1", "advance"), v=("c1", "load"))
    turn(state, o=("b1", "axe"), v=("c1", "fire"))
    outcome = state.game.text.outcome(state)
    assert outcome.reason == (
        "The Ostrogoth army lost its last figurine to the Visigoth catapult on turn 2: the "
        "Visigoths win."
    )
    assert [(s.seat, s.place, s.score) for s in outcome.standings] == [
        (1, 1, "2 figurines left"),
        (3, 1, "2 figurines left"),
        (0, 2, "army destroyed"),
        (2, 2, "army destroyed"),
    ]
    assert outcome.standings[0].note == (
        "Visigoth King: the Visigoths destroyed the Ostrogoth army"
    )
    assert outcome.standings[-1].note == ("Ostrogoth Warchief: the Ostrogoth army was destroyed")


def test_the_trap_or_the_axe_that_struck_last_is_named() -> None:
    # The Ostrogoths re-enter the Trap with their last figurine while the Visigoth axe waits:
    # the advance (7) goes first and the Trap ends the game (GOTH-10, GOTH-18).
    state = new_game("trap,queen,plains")
    _ostrogoths_reach_the_objectives(state)
    turn(state, o=("b1", "advance"), v=("r1", "rats"))
    play(state, "p2 enter obj0")  # the Trap: 1 figurine left
    turn(state, o=("b1", "advance"), v=("r2", "rats"))
    play(state, "p2 enter obj2")  # the Plains
    turn(state, o=("b1", "advance"), v=("b1", "axe"))
    play(state, "p2 enter obj0")
    assert state.is_terminal and state.last_orders == [7, 8] and state.last_success == [True, True]
    assert state.game.text.outcome(state).reason == (
        "The Ostrogoth army lost its last figurine in the Trap on Objective 0 on turn 5: the "
        "Visigoths win."
    )
    # The same orders, but two figurines go into the Trap: the axe finishes the army.
    axed = new_game("trap,queen,plains")
    _ostrogoths_reach_the_objectives(axed)
    turn(axed, o=("b1", "advance"), v=("b1", "axe"))
    play(axed, "p2 enter obj0")
    assert axed.is_terminal and axed.position == state.position
    assert axed.game.text.outcome(axed).reason == (
        "The Ostrogoth army lost its last figurine to the Visigoth axe on turn 3: the Visigoths "
        "win."
    )


def test_a_position_set_by_hand_still_says_which_army_is_gone() -> None:
    # The record does not lead to a position set by hand: the blow is not named, the end is.
    state = new_game()
    place(state, VIS, 7, army=1)
    turn(state, o=("b1", "axe"), v=("v1", "rats"))
    assert state.game.text.outcome(state).reason == (
        "The Visigoth army lost its last figurine on turn 1: the Ostrogoths win."
    )


def test_the_safety_cap_is_a_draw_for_every_seat() -> None:
    state = new_game(safety_cap=1, solo_clans="visigoths")
    turn(state, o=("v1", "rats"), v=(None, "load"))
    assert state.is_terminal and state.truncated
    outcome = state.game.text.outcome(state)
    assert outcome.reason == (
        "The safety cap of 1 turn was reached with the Queen still captive and both armies "
        "standing: a draw (GOTH-26)."
    )
    assert outcome.standings == (
        Standing(0, 1, "2 figurines left", "Ostrogoth King: neither clan won in 1 turn"),
        Standing(1, 1, "2 figurines left", "Visigoth solo chief: neither clan won in 1 turn"),
        Standing(2, 1, "2 figurines left", "Ostrogoth Warchief: neither clan won in 1 turn"),
    )
