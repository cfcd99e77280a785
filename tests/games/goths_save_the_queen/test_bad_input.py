"""Bad input raises IllegalAction with the reason, and nothing changes."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import courtly

from .helpers import OST, VIS, new_game, place, play, snapshot, turn


def _rejected(state, attempt: Callable[[], object], match: str) -> None:  # type: ignore[no-untyped-def]
    before = snapshot(state)
    with pytest.raises(courtly.IllegalAction, match=match):
        attempt()
    assert snapshot(state) == before


def test_king_card_not_in_hand() -> None:
    state = new_game()
    turn(state, o=("v1", "rats"), v=("c1", "load"))  # O fails: V1 lies face up
    play(state, "p1 c1")
    _rejected(state, lambda: state.apply(0, "v1"), "v1 lies face up on the table, not in the hand")
    _rejected(state, lambda: state.apply(0, "x9"), "not an action of this game")
    play(state, "p0 v2")


def test_king_card_already_laid_this_turn() -> None:
    state = new_game()
    play(state, "p0 b1")
    _rejected(state, lambda: state.apply(0, "b2"), "not p0's turn")


def test_warchief_card_of_another_clan_or_kind() -> None:
    state = new_game()
    play(state, "p0 b1", "p1 c1")
    # A King plays no orders, a Warchief no King cards.
    _rejected(state, lambda: state.apply(0, "advance"), "Warchief order and p0 .*King cards only")
    _rejected(state, lambda: state.apply(2, "b1"), "King card and p2 .* plays no King cards")
    # The Ostrogoth Warchief cannot give the Visigoth order: p3's card is p3's alone.
    play(state, "p2 advance")
    _rejected(state, lambda: state.apply(2, "load"), "p2 .* has already given this turn's order")
    assert state.orders[VIS] == 0
    play(state, "p3 load")


def test_objective_occupied_by_the_enemy_leaves_one_choice() -> None:
    state = new_game("trap,queen,plains")
    place(state, OST, 3)  # the Ostrogoths on Objective 0, the Trap
    place(state, VIS, 5)  # the Visigoths on Objective 2, the Plains
    turn(state, o=("b1", "advance"), v=("v1", "rats"))
    # GOTH-16: only Objective 1 is neither the enemy's nor their own: entered without asking.
    assert state.position[OST] == 4
    assert state.is_terminal and state.winners == (0, 2)


def test_objective_occupied_message_and_own_objective() -> None:
    state = new_game("trap,plains,queen")
    place(state, VIS, 3)  # Objective 0 (the Trap), revealed
    place(state, OST, 2)
    turn(state, o=("b1", "advance"), v=("v1", "rats"))
    assert [str(a) for a in state.legal_actions(2)] == ["enter obj1", "enter obj2"]
    _rejected(
        state, lambda: state.apply(2, "enter obj0"), "Objective 0 is occupied by the Visigoth army"
    )
    _rejected(state, lambda: state.apply(3, "enter obj1"), "not p3's turn")
    _rejected(state, lambda: state.apply(2, "look obj1"), "legal: enter obj1, enter obj2")
    play(state, "p2 enter obj1")


def test_acting_from_the_wrong_seat() -> None:
    state = new_game()
    _rejected(state, lambda: state.apply(1, "c1"), "not p1's turn; to move: p0")
    _rejected(state, lambda: state.apply(2, "advance"), "not p2's turn")
    _rejected(state, lambda: state.apply(4, "b1"), "not a seat")
    _rejected(state, lambda: state.apply(-1, "b1"), "not a seat")
    _rejected(state, lambda: state.apply(0, 999), "not an action id")
    _rejected(state, lambda: state.apply_chance("trap,queen,plains"), "no chance event")


def test_look_fog_without_the_variant() -> None:
    state = new_game()
    turn(state, o=("v1", "recon"), v=("v1", "rats"))
    _rejected(state, lambda: state.apply(2, "look fog"), "no Fog tokens in this game")
    play(state, "p2 look obj1")


def test_impossible_chance_outcomes() -> None:
    state = courtly.make("goths-save-the-queen", fog_of_war=True).new_state()
    _rejected(
        state, lambda: state.apply_chance("trap,trap,queen"), "not an order of the Objectives"
    )
    _rejected(state, lambda: state.apply_chance("gusts,pea-soup"), "not an order")
    _rejected(state, lambda: state.apply(0, "b1"), "chance event")
    play(state, "trap,queen,plains")
    _rejected(state, lambda: state.apply_chance("trap,queen,plains"), "not a Fog draw")
    play(state, "gusts,pea-soup")
    assert state.to_move == (0,)


def test_no_action_after_the_game_is_over() -> None:
    state = new_game("queen,trap,plains")
    place(state, OST, 2)
    turn(state, o=("b1", "advance"), v=("v1", "rats"))
    play(state, "p2 enter obj0")
    assert state.is_terminal and state.winners == (0, 2)
    _rejected(state, lambda: state.apply(1, "b1"), "the game is over")
    _rejected(state, lambda: state.apply(0, "advance"), "Warchief order")
