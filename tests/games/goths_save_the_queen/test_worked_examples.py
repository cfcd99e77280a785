"""Every worked example of docs/rules/goths-save-the-queen.md (§11), chance forced."""

from __future__ import annotations

import pytest

import courtly
from courtly.games.goths_save_the_queen.components import (
    BOAR_SHORTAGE,
    FOG_DISCARDED,
    FOG_REVEALED,
    OVER,
)

from .helpers import OST, VIS, legal, new_game, place, play, snapshot, turn


def _resolution_lines(state, seat: int, order: str) -> list[str]:  # type: ignore[no-untyped-def]
    """What the narrator tells everyone when ``seat``'s order resolves the turn: the lines
    after the reveal of the two clans' cards, the order of the resolution first, then one or
    more per order carried out, then the next turn or the end."""
    item = state.parse_action(seat, order)
    text = state.narrate(seat, item, None)
    assert text is not None
    lines = text.splitlines()
    assert lines[1] == "The cards are turned up:"
    return lines[4:]


def _hand(state, seat: int) -> list[str]:  # type: ignore[no-untyped-def]
    return [card["card"] for card in state.game.views.observation(state, seat)["mine"]["hand"]]


def test_goth_example_1_both_succeed_numerical_order() -> None:
    state = new_game()
    assert state.initiative == OST and state.turn == 1
    play(state, "p0 b1", "p1 c1", "p2 advance")
    lines = _resolution_lines(state, 3, "load")
    play(state, "p3 load")
    # 4 (V load) resolves before 7 (O advance).
    assert lines == [
        "The Visigoth Load (4) goes before the Ostrogoth Advance (7): the lower number first.",
        "The Visigoth catapult is loaded: it is active now.",
        "The Ostrogoth army advances from O-Forest to O-Plains1.",
        "Turn 2: the Visigoths take the initiative; p1 (Visigoth King) lays the first King card.",
    ]
    assert state.catapult == [False, True]
    assert state.position[OST] == 1  # O-Plains1
    assert state.last_success == [True, True]
    assert state.face_up == [0, 0]  # every card back in hand
    assert _hand(state, 0) == ["v1", "v2", "r1", "r2", "c1", "c2", "b1", "b2"]
    assert state.turn == 2 and state.initiative == VIS


def test_goth_example_2_immediate_win_stops_the_turn() -> None:
    state = new_game()
    play(state, "p0 b1", "p1 c1", "p2 advance", "p3 load")
    # Turn 2: the Visigoths have the initiative; their King lays his card first.
    assert state.to_move == (1,)
    play(state, "p1 c1", "p0 b1", "p2 axe")
    lines = _resolution_lines(state, 3, "fire")
    play(state, "p3 fire")
    assert state.army == [0, 2]
    assert state.is_terminal and state.phase == OVER
    assert state.winners == (1, 3)
    assert state.returns() == [0.0, 0.5, 0.0, 0.5]
    # The catapult's shot ends the game: the Ostrogoth axe is never thrown, and that is told.
    assert lines == [
        "The Visigoth Fire (5) goes before the Ostrogoth Axe (8): the lower number first.",
        "The Visigoth catapult fires at the Ostrogoth army on O-Plains1: the Ostrogoths lose "
        "their last 2 figurines and their army is destroyed.",
        "The Ostrogoth Axe (8) is never carried out: the game is over (GOTH-18).",
        "The Visigoths win (p1 and p3).",
        "Everything hidden is turned up: Objective 0 was the Trap; Objective 1 was the Queen; "
        "Objective 2 was the Plains.",
    ]
    assert state.clans_to_act == []


def test_goth_example_3_face_up_match() -> None:
    state = new_game()
    play(state, "p0 v1", "p1 c1", "p2 recruit", "p3 load")
    assert state.last_success == [False, True]
    assert state.face_up[OST] == 0b1  # V1 stays face up
    assert state.army[OST] == 2
    assert state.game.views.observation(state, None)["clans"][0]["king_cards_face_up"] == ["v1"]
    assert _hand(state, 0) == ["v2", "r1", "r2", "c1", "c2", "b1", "b2"]
    # Turn 2: B1 with order 2 matches the face-up Vulture.
    play(state, "p1 v2", "p0 b1", "p2 sabotage", "p3 recruit")
    assert state.last_success == [True, False]
    assert state.catapult[VIS] is False
    assert state.face_up[OST] == 0  # V1 and B1 both back in the King's hand
    assert state.face_up[VIS] == 0b10  # V2 stays face up for the Visigoths
    assert legal(state, 0) == ["v1", "v2", "r1", "r2", "c1", "c2", "b1", "b2"]


def test_goth_example_4_empty_success() -> None:
    state = new_game()
    play(state, "p0 v1", "p1 c1", "p2 sabotage", "p3 fire")
    assert state.last_success == [True, True]
    assert state.catapult == [False, False]
    assert state.army == [2, 2]
    assert state.face_up == [0, 0]


def test_goth_example_5_fire() -> None:
    state = new_game()
    turn(state, o=("r1", "recruit"), v=("c1", "load"))
    assert state.army[OST] == 3 and state.catapult[VIS]
    turn(state, o=("b1", "advance"), v=("v1", "sabotage"))
    assert state.position[OST] == 1 and not state.barricade[1]
    turn(state, o=("c1", "load"), v=("c1", "fire"))
    assert state.army[OST] == 1
    assert state.game.views.observation(state, None)["clans"][0]["reserve"] == 2
    assert state.catapult[VIS] is False
    # Against an army on a barricade: no loss, the catapult is spent all the same.
    turn(state, o=("b1", "barricade"), v=("c2", "load"))
    assert state.barricade[1] and state.catapult[VIS]
    turn(state, o=("r1", "recruit"), v=("c1", "fire"))
    assert state.army[OST] == 2
    assert state.catapult[VIS] is False
    assert not state.is_terminal


@pytest.mark.parametrize(
    ("cell", "barricade", "order", "loss"),
    [
        (0, False, "axe", 0),  # own Forest, Landscape side
        (1, True, "axe", 0),  # barricaded Plains1
        (1, False, "axe", 1),  # Landscape Plains1
        (1, True, "rats", 1),  # barricaded Plains1
        (0, False, "rats", 0),  # Landscape Forest
        (0, True, "axe", 0),  # GOTH-14: a barricaded Forest is a barricade
        (0, True, "rats", 1),
    ],
)
def test_goth_example_6_axe_and_rats(cell: int, barricade: bool, order: str, loss: int) -> None:
    state = new_game()
    place(state, OST, cell, army=3, barricade=barricade)
    turn(state, o=("v1", "rats"), v=("b1", order))  # the Ostrogoths fail
    assert state.last_success == [False, True]
    assert state.army[OST] == 3 - loss


def test_goth_example_7_same_number_initiative_first() -> None:
    state = new_game()
    place(state, OST, 1, army=1)
    place(state, VIS, 7, army=1)
    assert state.initiative == OST
    play(state, "p0 b1", "p1 b2", "p2 axe")
    lines = _resolution_lines(state, 3, "axe")
    play(state, "p3 axe")
    assert state.army == [1, 0]  # the Ostrogoth axe flew first and the game ended
    assert state.winners == (0, 2)
    assert lines == [
        "Both clans carry out Axe (8): the Ostrogoths, who hold the initiative, go first "
        "(GOTH-25).",
        "The Ostrogoth axe hits the Visigoth army on V-Plains1: the Visigoths lose their last "
        "figurine and their army is destroyed.",
        "The Visigoth Axe (8) is never carried out: the game is over (GOTH-18).",
        "The Ostrogoths win (p0 and p2).",
        "Everything hidden is turned up: Objective 0 was the Trap; Objective 1 was the Queen; "
        "Objective 2 was the Plains.",
    ]


def test_goth_example_8_trap_kills() -> None:
    state = new_game("plains,queen,trap")
    place(state, OST, 2, army=1)
    turn(state, o=("b1", "advance"), v=("v1", "rats"))
    assert state.to_move == (2,)
    assert legal(state, 2) == ["enter obj0", "enter obj1", "enter obj2"]
    play(state, "p2 enter obj2")
    assert state.revealed_objectives == 0b100
    assert state.army[OST] == 0
    assert state.is_terminal
    assert state.winners == (1, 3)
    assert state.game.views.observation(state, None)["winner"] == "visigoths"


def test_goth_example_9_occupied_objective() -> None:
    state = new_game("plains,queen,trap")
    place(state, VIS, 3)  # Objective 0, the Plains, face up
    place(state, OST, 2)
    turn(state, o=("b1", "advance"), v=("v1", "rats"))
    assert legal(state, 2) == ["enter obj1", "enter obj2"]
    before = snapshot(state)
    with pytest.raises(courtly.IllegalAction, match="occupied by the Visigoth army"):
        state.apply(2, "enter obj0")
    assert snapshot(state) == before
    play(state, "p2 enter obj1")
    assert state.is_terminal and state.winners == (0, 2)  # the Queen


def test_goth_example_10_fog_boar_shortage() -> None:
    state = new_game(fog="boar-shortage,gusts")
    turn(state, o=("c1", "load"), v=("r1", "recruit"))
    assert state.catapult[OST]
    turn(state, o=("b1", "advance"), v=("r1", "recruit"))
    assert state.fog_state == [0, 0]
    turn(state, o=("b1", "advance"), v=("r1", "recruit"))
    assert state.position[OST] == 2
    assert state.fog_state[OST] == FOG_REVEALED and state.fog[OST] == BOAR_SHORTAGE
    assert state.catapult[OST] is False  # turned Inactive on the reveal
    assert state.game.views.observation(state, 1)["clans"][0]["fog"]["token"] == "boar-shortage"
    turn(state, o=("c2", "load"), v=("r1", "recruit"))
    assert state.last_success[OST] is True
    assert state.catapult[OST] is False  # Load does nothing while the token is in force
    turn(state, o=("b1", "barricade"), v=("r1", "recruit"))
    assert legal(state, 2) == ["build-barricade", "discard-fog"]
    play(state, "p2 discard-fog")
    assert state.fog_state[OST] == FOG_DISCARDED
    assert state.catapult[OST] is False  # still Inactive until a Load
    assert not state.barricade[2]
    turn(state, o=("c1", "load"), v=("r1", "recruit"))
    assert state.catapult[OST] is True


def test_goth_example_11_recruit_at_full_strength() -> None:
    state = new_game()
    turn(state, o=("r1", "recruit"), v=("v1", "sabotage"))
    assert state.army[OST] == 3
    turn(state, o=("v1", "recruit"), v=("v1", "sabotage"))  # O fails: V1 face up
    assert state.face_up[OST] == 0b1
    turn(state, o=("r2", "recruit"), v=("v1", "sabotage"))
    assert state.last_success[OST] is True
    assert state.army[OST] == 3
    assert state.face_up[OST] == 0  # V1 and R2 back in hand
