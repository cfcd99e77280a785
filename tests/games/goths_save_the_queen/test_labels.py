"""What a person reads of Goths Save the Queen outside the story: each move's label (what its
button says, from what the seat knows), each seat's title and each option's name and
explanation."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.core.options import describe_options
from courtly.games.goths_save_the_queen.game import OPTIONS
from courtly.games.goths_save_the_queen.rules import GothsSaveTheQueenState

from .helpers import OST, VIS, new_game, place, play, turn


def labels(state: GothsSaveTheQueenState, seat: int) -> list[str]:
    return [state.game.text.action_label(state, seat, a) for a in state.legal_actions(seat)]


# ----------------------------------------------------------------------------- moves


def test_a_king_card_by_its_character_and_back() -> None:
    state = new_game()
    assert labels(state, 0) == [
        "V1: Vulture (back V/R)",
        "V2: Vulture (back V/B)",
        "R1: Recruiter (back V/R)",
        "R2: Recruiter (back R/C)",
        "C1: Catapult (back R/C)",
        "C2: Catapult (back C/B)",
        "B1: Barbarian (back C/B)",
        "B2: Barbarian (back V/B)",
    ]
    # With R1 face up, V1's back tells everyone which card it is: the button says so.
    turn(state, o=("r1", "rats"), v=("c1", "load"))
    play(state, "p1 c2")
    assert labels(state, 0)[0] == "V1: Vulture (back V/R, which gives it away: R1 lies face up)"
    assert "R1: Recruiter (back V/R)" not in labels(state, 0)  # not in his hand


def test_the_orders_by_name_number_and_character() -> None:
    state = new_game()
    play(state, "p0 b1", "p1 c1")
    assert (
        labels(state, 2)
        == labels(state, 3)
        == [
            "Order 1: Reconnaissance (Vulture)",
            "Order 2: Sabotage (Vulture)",
            "Order 3: Recruit (Recruiter)",
            "Order 4: Load (Catapult)",
            "Order 5: Fire (Catapult)",
            "Order 6: Barricade (Barbarian)",
            "Order 7: Advance (Barbarian)",
            "Order 8: Axe (Barbarian)",
            "Order 9: Rats (Barbarian)",
        ]
    )


def test_looks_and_entries_say_what_the_warchief_knows_and_no_more() -> None:
    state = new_game("trap,queen,plains", fog="gusts,pea-soup")
    turn(state, o=("v1", "recon"), v=("v1", "rats"))
    assert labels(state, 2) == [
        "Look at Objective 0",
        "Look at Objective 1",
        "Look at Objective 2",
        "Look at the Fog token",
    ]
    play(state, "p2 look obj1")
    place(state, VIS, 5)  # on Objective 2, face up now: the Plains
    place(state, OST, 2)
    turn(state, o=("b1", "advance"), v=("v2", "rats"))
    assert labels(state, 2) == ["Enter Objective 0", "Enter Objective 1 (you saw the Queen)"]
    # His King does not know it, and would not be told by a label either.
    action = state.game.action_from_text("enter obj1")
    assert state.game.text.action_label(state, 0, action) == "Enter Objective 1"
    play(state, "p2 enter obj0")  # the Trap, face up now
    turn(state, o=("v2", "recon"), v=("r1", "rats"))
    assert labels(state, 2)[:3] == [
        "Look at Objective 0 (the Trap)",
        "Look at Objective 1 (you saw the Queen)",
        "Look at Objective 2 (the Plains)",
    ]


def test_entering_the_trap_again_says_what_it_costs() -> None:
    for every_entry, label in ((True, "the Trap: it costs a figurine"), (False, "the Trap")):
        state = new_game("trap,queen,plains", trap_every_entry=every_entry)
        place(state, OST, 2)
        state.revealed_objectives = 0b001
        turn(state, o=("b1", "advance"), v=("v1", "rats"))
        assert labels(state, 2)[0] == f"Enter Objective 0 ({label})"


def test_build_or_discard() -> None:
    state = new_game("trap,queen,plains", fog="boar-shortage,gusts")
    place(state, OST, 2)
    state.fog_state[OST] = 1  # turned up
    turn(state, o=("b1", "barricade"), v=("v1", "rats"))
    assert labels(state, 2) == [
        "Build a barricade on O-Plains2",
        "Discard the Fog token (Boar shortage)",
    ]
    state.barricade[2] = True
    assert labels(state, 2)[0] == "Build a barricade on O-Plains2 (there is one already)"
    plains = new_game("plains,queen,trap", fog="boar-shortage,gusts")
    place(plains, OST, 3)
    plains.fog_state[OST] = 1
    turn(plains, o=("b1", "barricade"), v=("v1", "rats"))
    assert labels(plains, 2)[0] == "Build a barricade (none may stand on the Plains)"


@pytest.mark.parametrize("options", [{"fog_of_war": True}, {"solo_clans": "both"}])
def test_a_label_is_the_same_in_every_world_the_seat_cannot_tell_apart(
    options: dict[str, object],
) -> None:
    """A label is read by the seat to move alone, but even so names nothing it does not know:
    in a world drawn from its view its buttons read the same; and every move has words of its
    own, not its typed text."""
    game = courtly.make("goths-save-the-queen", **options)  # type: ignore[arg-type]
    rng = random.Random(2)
    for _ in range(3):
        state = game.new_state()
        assert isinstance(state, GothsSaveTheQueenState)
        while not state.is_terminal:
            if state.is_chance:
                state.apply_chance(state.sample_chance_outcome(rng))
                continue
            seat = state.to_move[0]
            world = state.view(seat).determinize(rng)
            assert isinstance(world, GothsSaveTheQueenState)
            assert labels(world, seat) == labels(state, seat)
            for action, label in zip(state.legal_actions(seat), labels(state, seat), strict=True):
                assert label != str(action) and label[0].isupper()
            state.apply(seat, rng.choice(state.legal_actions(seat)))


# ----------------------------------------------------------------------------- seats, options


@pytest.mark.parametrize(
    ("options", "titles"),
    [
        ({}, ["Ostrogoth King", "Visigoth King", "Ostrogoth Warchief", "Visigoth Warchief"]),
        (
            {"solo_clans": "visigoths"},
            ["Ostrogoth King", "Visigoth solo chief", "Ostrogoth Warchief"],
        ),
        (
            {"solo_clans": "ostrogoths"},
            ["Ostrogoth solo chief", "Visigoth King", "Visigoth Warchief"],
        ),
        ({"solo_clans": "both"}, ["Ostrogoth solo chief", "Visigoth solo chief"]),
    ],
)
def test_every_seat_says_who_is_king_and_who_is_warchief(
    options: dict[str, object], titles: list[str]
) -> None:
    game = courtly.make("goths-save-the-queen", **options)  # type: ignore[arg-type]
    assert [game.text.seat_title(game, seat) for seat in range(game.num_players)] == titles
    assert game.text.seat_title(game, game.num_players) == ""


def test_every_option_has_a_name_and_a_line_for_a_person() -> None:
    described = {entry["name"]: entry for entry in describe_options(OPTIONS)}
    for option in OPTIONS:
        assert option.label and option.about, option.name
        for raw in ("GOTH-", "§", "docs/", "_", "vr,"):
            assert raw not in option.about and raw not in option.label, (option.name, raw)
        assert described[option.name]["label"] == option.label
        assert described[option.name]["about"] == option.about
        assert option.help in described[option.name]["help"]  # the rule ids stay in the help
    assert described["solo_clans"]["choice_labels"] == [
        "No: two Kings and two Warchiefs (4 players)",
        "The Ostrogoths are one player (3 players)",
        "The Visigoths are one player (3 players)",
        "Both clans are one player each (2 players)",
    ]
    assert "Vulture/Recruiter" in described["king_backs"]["about"]
