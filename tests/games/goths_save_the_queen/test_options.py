"""docs/rules/goths-save-the-queen.md §9: every option of Goths Save the Queen, and the checks on
option values."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.core.match import play_randomly
from courtly.games.goths_save_the_queen.components import FOG_DISCARDED
from courtly.games.goths_save_the_queen.rules import GothsSaveTheQueenState

from .helpers import OST, VIS, legal, new_game, place, play, turn


def test_defaults() -> None:
    game = courtly.make("goths-save-the-queen")
    assert game.num_players == 4
    assert dict(game.options) == {
        "king_backs": "cycle",
        "fog_of_war": False,
        "barricade_on_trap_objective": True,
        "trap_every_entry": True,
        "fog_discard_requires_same_card": False,
        "solo_clans": "none",
        "first_initiative": "ostrogoths",
        "safety_cap": 300,
    }
    info = game.info
    assert [o.name for o in info.options if o.unofficial] == ["solo_clans"]


# ------------------------------------------------------------------------------ king_backs


def test_king_backs_cycle_table() -> None:
    state = new_game()
    backs = {}
    for card in ("v1", "v2", "r1", "r2", "c1", "c2", "b1", "b2"):
        probe = state.clone()
        probe.apply(0, card)
        backs[card] = probe.game.views.observation(probe, 1)["clans"][0]["king_card_face_down_back"]
    assert backs == {
        "v1": "V/R",
        "r1": "V/R",
        "r2": "R/C",
        "c1": "R/C",
        "c2": "C/B",
        "b1": "C/B",
        "b2": "V/B",
        "v2": "V/B",
    }


def test_king_backs_custom_table() -> None:
    state = new_game(king_backs="vc,vb,rc,rb,cv,cr,bv,br")
    play(state, "p0 v1")
    assert state.game.views.observation(state, 1)["clans"][0]["king_card_face_down_back"] == "V/C"
    # A determinization of p1 puts V1 or C1 (the cards with back V/C) under it.
    rng = random.Random(0)
    seen = set()
    for _ in range(60):
        world = state.view(1).determinize(rng)
        assert isinstance(world, GothsSaveTheQueenState)
        seen.add(world.played[OST])
    assert seen == {0, 4}


@pytest.mark.parametrize(
    "bad",
    [
        "vr,vb,rv,rc,cr,cb,bc",  # seven codes
        "vv,vb,rv,rc,cr,cb,bc,bv",  # decoy = front
        "vr,vr,rv,rc,cr,cb,bc,bv",  # two V cards with the same back
        "rv,vb,rv,rc,cr,cb,bc,bv",  # V1 must show V
        "squares",
    ],
)
def test_king_backs_rejects_bad_tables(bad: str) -> None:
    with pytest.raises(courtly.InvalidOptions, match="king_backs"):
        courtly.make("goths-save-the-queen", king_backs=bad)


# ------------------------------------------------------------------------------ fog_of_war


def test_fog_of_war_off_has_no_fog_event_and_no_tokens() -> None:
    state = courtly.make("goths-save-the-queen").new_state()
    state.apply_chance("queen,trap,plains")
    assert not state.is_chance and state.to_move == (0,)
    assert state.fog == [-1, -1]
    assert state.game.views.observation(state, None)["clans"][0]["fog"] is None
    assert "look fog" not in [str(a) for a in state.game.tables.recon_choices[False]]


def test_fog_of_war_on_draws_two_tokens_as_a_chance_event() -> None:
    state = courtly.make("goths-save-the-queen", fog_of_war=True).new_state()
    state.apply_chance("queen,trap,plains")
    assert state.is_chance
    outcomes = [str(o) for o, _ in state.chance_outcomes()]
    assert len(outcomes) == 12 and "gusts,pea-soup" in outcomes
    with pytest.raises(courtly.IllegalAction):
        state.apply_chance("gusts,gusts")
    state.apply_chance("gusts, pea-soup")
    assert state.fog == [3, 0]
    assert state.to_move == (0,)


def test_fog_reconnaissance_may_peek_at_the_own_token() -> None:
    state = new_game(fog="gusts,pea-soup")
    turn(state, o=("v1", "recon"), v=("r1", "recruit"))
    assert legal(state, 2) == ["look obj0", "look obj1", "look obj2", "look fog"]
    play(state, "p2 look fog")
    assert state.game.views.observation(state, 2)["mine"]["fog_token"] == "gusts"
    assert state.game.views.observation(state, 2)["clans"][0]["fog"]["token"] == "gusts"
    for seat in (None, 0, 1, 3):
        assert state.game.views.observation(state, seat)["clans"][0]["fog"]["token"] is None
        assert state.game.views.observation(state, seat)["clans"][0]["fog"]["peeked"] is True


@pytest.mark.parametrize(
    ("token", "order", "check"),
    [
        ("pea-soup", "recon", "no sub-choice"),
        ("reduced-numbers", "recruit", "army"),
        ("gusts", "axe", "enemy army"),
    ],
)
def test_fog_effects_make_the_action_do_nothing(token: str, order: str, check: str) -> None:
    state = new_game(fog=f"{token},boar-shortage")
    place(state, OST, 1)
    place(state, VIS, 7, army=2)
    turn(state, o=("b1", "advance"), v=("v1", "rats"))
    assert state.game.views.observation(state, None)["clans"][0]["fog"]["token"] == token
    card = {"recon": "v1", "recruit": "r1", "axe": "b2"}[order]
    turn(state, o=(card, order), v=("v2", "rats"))
    assert state.last_success[OST] is True  # still a success (GOTH-20)
    assert state.to_move != (2,)  # no reconnaissance target asked
    assert state.army == [2, 2]


# ------------------------------------------------------------------------------ barricades


def test_barricade_on_trap_objective_default_allows_it() -> None:
    state = new_game("trap,queen,plains")
    place(state, OST, 3, army=2)  # on the revealed Trap
    turn(state, o=("b1", "barricade"), v=("v1", "rats"))
    assert state.barricade[3]


def test_barricade_on_trap_objective_false_forbids_it() -> None:
    state = new_game("trap,queen,plains", barricade_on_trap_objective=False)
    place(state, OST, 3, army=2)
    turn(state, o=("b1", "barricade"), v=("v1", "rats"))
    assert state.last_success[OST] is True
    assert not state.barricade[3]


def test_never_a_barricade_on_the_plains_objective() -> None:
    state = new_game("plains,queen,trap")
    place(state, OST, 3, army=2)
    turn(state, o=("b1", "barricade"), v=("v1", "rats"))
    assert state.last_success[OST] is True
    assert not state.barricade[3]


# ------------------------------------------------------------------------------ trap_every_entry


def _enter_trap_twice(**options: object) -> GothsSaveTheQueenState:
    state = new_game("trap,plains,queen", **options)
    place(state, VIS, 6, army=3)  # the Visigoths on their Plains2
    turn(state, o=("v1", "rats"), v=("b1", "advance"))  # the Ostrogoths fail thrice
    play(state, "p3 enter obj0")  # reveals the Trap
    assert state.army[VIS] == 2
    turn(state, o=("v2", "rats"), v=("b1", "advance"))
    play(state, "p3 enter obj1")  # the Plains
    turn(state, o=("r1", "rats"), v=("b1", "advance"))
    play(state, "p3 enter obj0")  # back onto the revealed Trap
    return state


def test_trap_every_entry_default_hurts_again() -> None:
    assert _enter_trap_twice().army[VIS] == 1


def test_trap_every_entry_false_hurts_only_the_revealer() -> None:
    assert _enter_trap_twice(trap_every_entry=False).army[VIS] == 2


# ------------------------------------------------------------------------------ fog discard


def _revealed_fog(**options: object) -> GothsSaveTheQueenState:
    state = new_game("trap,plains,queen", fog="gusts,pea-soup", **options)
    place(state, OST, 1)
    turn(state, o=("b1", "advance"), v=("r1", "recruit"))
    assert state.game.views.observation(state, None)["clans"][0]["fog"]["state"] == "revealed"
    turn(state, o=("b1", "advance"), v=("r1", "recruit"))  # onto Objective: leave P2
    play(state, "p2 enter obj1")
    return state


def test_fog_discard_anywhere_by_default() -> None:
    state = _revealed_fog()
    turn(state, o=("b1", "barricade"), v=("r1", "recruit"))
    assert legal(state, 2) == ["build-barricade", "discard-fog"]
    play(state, "p2 discard-fog")
    assert state.fog_state[OST] == FOG_DISCARDED


def test_fog_discard_requires_same_card() -> None:
    state = _revealed_fog(fog_discard_requires_same_card=True)
    turn(state, o=("b1", "barricade"), v=("r1", "recruit"))
    assert state.to_move != (2,)  # away from P2: just a barricade, no choice
    assert state.fog_state[OST] != FOG_DISCARDED
    on_p2 = new_game(fog="gusts,pea-soup", fog_discard_requires_same_card=True)
    place(on_p2, OST, 1)
    turn(on_p2, o=("b1", "advance"), v=("r1", "recruit"))
    turn(on_p2, o=("b1", "barricade"), v=("r1", "recruit"))
    assert legal(on_p2, 2) == ["build-barricade", "discard-fog"]


# ------------------------------------------------------------------------------ solo_clans


def test_solo_clans_seat_counts_and_layout() -> None:
    three = courtly.make("goths-save-the-queen", players=3)
    assert three.options["solo_clans"] == "visigoths"
    assert three.tables.seat_names() == [
        "p0 Ostrogoth King",
        "p1 Visigoth solo chief",
        "p2 Ostrogoth Warchief",
    ]
    two = courtly.make("goths-save-the-queen", solo_clans="both")
    assert two.num_players == 2
    assert two.tables.seat_names() == ["p0 Ostrogoth solo chief", "p1 Visigoth solo chief"]
    o_solo = courtly.make("goths-save-the-queen", solo_clans="ostrogoths")
    assert o_solo.num_players == 3
    assert o_solo.tables.seat_names() == [
        "p0 Ostrogoth solo chief",
        "p1 Visigoth King",
        "p2 Visigoth Warchief",
    ]
    with pytest.raises(courtly.InvalidOptions, match="solo_clans=both is played by 2 players"):
        courtly.make("goths-save-the-queen", players=4, solo_clans="both")
    with pytest.raises(courtly.InvalidOptions, match="solo_clans"):
        courtly.make("goths-save-the-queen", players=3, solo_clans="sometimes")


def test_solo_clans_none_with_fewer_than_four_players_is_refused_with_the_reason() -> None:
    # GOTH-23: two clans of King and Warchief need four seats; an explicit none is not quietly
    # replaced by solo clans nobody asked for.
    with pytest.raises(
        courtly.InvalidOptions,
        match=r"solo_clans=none .* is played by 4 players, not 3; with 3 players choose "
        r"solo_clans=ostrogoths or visigoths \(GOTH-23\)",
    ):
        courtly.make("goths-save-the-queen", players=3, solo_clans="none")
    with pytest.raises(courtly.InvalidOptions, match="with 2 players choose solo_clans=both"):
        courtly.make("goths-save-the-queen", players=2, solo_clans="none")
    assert courtly.make("goths-save-the-queen", players=4, solo_clans="none").num_players == 4


def test_solo_clans_left_out_are_chosen_for_the_count_and_recorded() -> None:
    # The options of a record name the solo clans played, so that it replays as it was played.
    three = courtly.make("goths-save-the-queen", players=3)
    assert three.config()["options"]["solo_clans"] == "visigoths"
    state = three.new_state()
    play_randomly(state, random.Random(1))
    again = courtly.load(state.to_json())
    assert again.game.options["solo_clans"] == "visigoths"
    assert again.to_json() == state.to_json()
    assert courtly.make("goths-save-the-queen", players="2").options["solo_clans"] == "both"


def test_solo_chief_always_succeeds_but_never_repeats_a_character() -> None:
    state = new_game(solo_clans="visigoths")
    assert state.to_move == (0,)  # only the Ostrogoth King lays a card
    play(state, "p0 b1")
    assert state.to_move == (1, 2)
    assert len(legal(state, 1)) == 9
    play(state, "p1 load", "p2 advance")
    assert state.last_success == [True, True]
    assert state.catapult[VIS]
    # Turn 2: the Visigoths hold the initiative but have no King; no Catapult order now.
    assert state.to_move == (0,)
    play(state, "p0 b1")
    assert legal(state, 1) == [
        "recon",
        "sabotage",
        "recruit",
        "barricade",
        "advance",
        "axe",
        "rats",
    ]
    before = state.to_json()
    with pytest.raises(courtly.IllegalAction, match="Catapult order last turn"):
        state.apply(1, "fire")
    assert state.to_json() == before
    play(state, "p1 axe", "p2 advance")
    assert state.army[OST] == 1  # O advanced to its Plains2 (7), then the axe (8) hit it there


def test_solo_both_plays_to_the_end() -> None:
    game = courtly.make("goths-save-the-queen", solo_clans="both")
    rng = random.Random(4)
    for _ in range(20):
        state = game.new_state()
        play_randomly(state, rng)
        assert state.is_terminal
        assert sum(state.returns()) == pytest.approx(1.0)


# ------------------------------------------------------------------------------ max_turns


def test_max_turns_cap_is_a_draw() -> None:
    state = new_game(max_turns=2)
    turn(state, o=("v1", "recon"), v=("v1", "rats"))
    play(state, "p2 look obj0")
    turn(state, o=("v2", "rats"), v=("v2", "rats"))
    assert state.is_terminal
    assert state.returns() == [0.25, 0.25, 0.25, 0.25]
    assert state.game.views.observation(state, None)["winner"] == "draw"
    assert "draw" in state.render(None)


def test_max_turns_must_be_positive() -> None:
    with pytest.raises(courtly.InvalidOptions, match="safety_cap"):
        courtly.make("goths-save-the-queen", max_turns=0)


# ------------------------------------------------------------------------------ first_initiative


def test_first_initiative_default_is_the_ostrogoths() -> None:
    # GOTH-7: the rule sheet gives the Initiative token to the Ostrogoths on turn 1.
    state = new_game()
    assert state.initiative == OST
    assert state.to_move == (0,)


def test_first_initiative_visigoths_lays_the_visigoth_king_first_then_alternates() -> None:
    # GOTH-27: the Visigoth King lays first on turn 1; from turn 2 the token passes as usual.
    state = new_game(first_initiative="visigoths")
    assert state.initiative == VIS
    assert state.to_move == (1,)
    assert legal(state, 0) == []
    turn(state, o=("b1", "advance"), v=("c1", "load"))
    assert state.turn == 2
    assert state.initiative == OST
    assert state.to_move == (0,)


def test_first_initiative_is_checked() -> None:
    with pytest.raises(courtly.InvalidOptions, match="first_initiative"):
        courtly.make("goths-save-the-queen", first_initiative="huns")


@pytest.mark.parametrize("seed", range(12))
def test_first_initiative_mirrors_the_game(seed: int) -> None:
    # With the Visigoths first, the game is the Ostrogoth-first game with the clans swapped
    # (GOTH-27): the same cards and orders, seat by seat mirrored, and the Objectives in the
    # mirrored order, give the mirrored board turn after turn, ties of GOTH-25 included (the
    # initiative clan acts first in both). So the rules favour neither clan but the first.
    ost = new_game("trap,queen,plains")
    vis = new_game("plains,queen,trap", first_initiative="visigoths")
    mirror = {0: 1, 1: 0, 2: 3, 3: 2}
    rng = random.Random(seed)
    while not ost.is_terminal:
        seat = ost.to_move[0]
        text = str(rng.choice(list(ost.legal_actions(seat))))
        other = text
        if text.startswith(("look obj", "enter obj")):
            other = text[:-1] + str(2 - int(text[-1]))
        assert other in legal(vis, mirror[seat])
        ost.apply(seat, text)
        vis.apply(mirror[seat], other)
        assert vis.army == ost.army[::-1]
        assert vis.position == [8 - cell for cell in ost.position[::-1]]
        assert vis.catapult == ost.catapult[::-1]
        assert vis.barricade == ost.barricade[::-1]
        assert vis.face_up == ost.face_up[::-1]
        assert vis.initiative == 1 - ost.initiative
    assert vis.is_terminal
    assert vis.returns() == [ost.returns()[mirror[seat]] for seat in range(4)]
