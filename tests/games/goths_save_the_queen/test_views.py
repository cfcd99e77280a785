"""docs/rules/goths-save-the-queen.md §8: what each seat may know. A seat's view must be the same
in two full states that differ only in what that seat cannot know: King card faces, Warchief
orders, reconnaissance results and Fog tokens. (The contract suite's card check does not apply:
no secret here is a playing card.)"""

from __future__ import annotations

import json
import random

import pytest

import courtly
from courtly.core.game import known_state, sample_chance
from courtly.games.goths_save_the_queen.components import UNKNOWN
from courtly.games.goths_save_the_queen.rules import GothsSaveTheQueenState

from .helpers import OST, new_game, play, turn

SEATS = (None, 0, 1, 2, 3)


def _picture(state: GothsSaveTheQueenState, seat: int | None) -> tuple[str, str, list[str]]:
    view = state.view(seat)
    return (
        json.dumps(view.observation(), sort_keys=True),
        view.render(),
        [str(a) for a in view.legal_actions()],
    )


def _same_for(
    a: GothsSaveTheQueenState, b: GothsSaveTheQueenState, blind: tuple[int | None, ...]
) -> None:
    for seat in blind:
        assert _picture(a, seat) == _picture(b, seat), f"seat {seat} can tell them apart"


def _differ_for(
    a: GothsSaveTheQueenState, b: GothsSaveTheQueenState, seeing: tuple[int, ...]
) -> None:
    for seat in seeing:
        assert _picture(a, seat)[0] != _picture(b, seat)[0], f"seat {seat} should know"


def test_king_card_faces_are_known_only_to_their_king() -> None:
    # V1 and R1 share the back V/R: only p0 knows which one lies there.
    a, b = new_game(), new_game()
    play(a, "p0 v1")
    play(b, "p0 r1")
    _same_for(a, b, (None, 1, 2, 3))
    _differ_for(a, b, (0,))
    assert json.loads(_picture(a, 1)[0])["clans"][0]["king_card_face_down_back"] == "V/R"
    play(a, "p1 c1", "p2 advance")
    play(b, "p1 c1", "p2 advance")
    _same_for(a, b, (None, 1, 2, 3))
    for seat in (None, 2, 3):  # (p1 holds a V1 of his own)
        # The picture names the two cards with that back, neither as the one lying there.
        assert "back V/R (V1 or R1)" in a.render(seat)
        assert "V1 (" not in a.render(seat) and "v1" not in json.dumps(
            a.game.views.observation(a, seat)
        )
    # The story tells every other seat the same of V1 and R1: the back and the two cards it
    # may be, never which.
    fresh = new_game()
    v1, r1 = (fresh.game.action_from_text(card) for card in ("v1", "r1"))
    for seat in (None, 1, 2, 3):
        line = fresh.narrate(0, v1, seat)
        assert line == fresh.narrate(0, r1, seat)
        assert line == (
            "p0 (Ostrogoth King) lays a King card face down; its back shows V/R: "
            "V1 (Vulture) or R1 (Recruiter)."
        )
    assert fresh.narrate(0, v1, 0) == (
        "p0 (Ostrogoth King) lays V1 (Vulture) face down; the others see its back, V/R."
    )
    # The reveal makes it public.
    play(a, "p3 load")
    play(b, "p3 load")
    assert _picture(a, 1)[0] != _picture(b, 1)[0]


def test_warchief_orders_are_known_only_to_their_warchief() -> None:
    a, b = new_game(), new_game()
    play(a, "p0 b1", "p1 c1", "p2 advance")
    play(b, "p0 b1", "p1 c1", "p2 axe")
    _same_for(a, b, (None, 0, 1, 3))
    _differ_for(a, b, (2,))
    # That p2 has given his order is public, which one is not: every copy waits for p3 alone,
    # and only p2's own copy holds his order.
    obs = a.view(3).observation()
    assert obs["clans"][0]["order_given"] is True and obs["waiting_for"] == ["p3"]
    for seat in SEATS:
        assert known_state(a.view(seat)).to_move == (3,)
    assert known_state(a.view(3)).orders == [UNKNOWN, 0]
    assert known_state(a.view(0)).orders == [UNKNOWN, 0]
    assert known_state(a.view(2)).orders == [7, 0]
    line = a.narrate(3, a.game.action_from_text("load"), 0)
    assert line is not None and "Advance (7)" in line  # the reveal names both orders...
    before = new_game()
    play(before, "p0 b1", "p1 c1")
    for seat in (None, 0, 1, 3):
        assert before.narrate(2, a.game.action_from_text("advance"), seat) == (
            "p2 (Ostrogoth Warchief) gives an order face down."
        )  # ...but a single order given is not named, except to its Warchief
    assert before.narrate(2, a.game.action_from_text("advance"), 2) == (
        "p2 (Ostrogoth Warchief) gives the order Advance (7) face down."
    )


def test_reconnaissance_is_known_only_to_the_warchief_not_his_king() -> None:
    a, b = new_game("trap,queen,plains"), new_game("queen,trap,plains")
    for state in (a, b):
        turn(state, o=("v1", "recon"), v=("v1", "rats"))
        play(state, "p2 look obj0")
    _same_for(a, b, (None, 0, 1, 3))
    _differ_for(a, b, (2,))
    assert a.game.views.observation(a, 2)["mine"]["reconnaissance"] == {"objective 0": "trap"}
    assert a.game.views.observation(a, 0)["clans"][0]["objectives_looked_at"] == [
        0
    ]  # which card: public
    assert "trap" not in json.dumps(a.game.views.observation(a, 0)).lower().replace("rats", "")
    assert known_state(a.view(0)).objectives == [UNKNOWN, UNKNOWN, UNKNOWN]
    assert known_state(a.view(2)).objectives == [0, UNKNOWN, UNKNOWN]
    # The King keeps no memory of it either, many turns later.
    for state in (a, b):
        turn(state, o=("r1", "recruit"), v=("v2", "rats"))
        turn(state, o=("r1", "recruit"), v=("r1", "rats"))
    _same_for(a, b, (None, 0, 1, 3))


def test_fog_tokens_are_hidden_until_revealed_or_peeked() -> None:
    a = new_game(fog="gusts,pea-soup")
    b = new_game(fog="boar-shortage,reduced-numbers")
    _same_for(a, b, SEATS)
    for state in (a, b):
        turn(state, o=("v1", "recon"), v=("v1", "rats"))
        play(state, "p2 look fog")
    _same_for(a, b, (None, 0, 1, 3))
    _differ_for(a, b, (2,))
    assert a.game.views.observation(a, 2)["mine"]["fog_token"] == "gusts"
    # Once the Ostrogoths reveal theirs, the Visigoth token stays unknown to all.
    c = new_game(fog="gusts,pea-soup")
    d = new_game(fog="gusts,boar-shortage")
    for state in (c, d):
        turn(state, o=("b1", "advance"), v=("v1", "rats"))
        turn(state, o=("b1", "advance"), v=("v2", "rats"))
        assert state.game.views.observation(state, None)["clans"][0]["fog"]["token"] == "gusts"
    _same_for(c, d, SEATS)


def test_views_hold_only_placeholders_for_secrets() -> None:
    state = new_game(fog="gusts,pea-soup")
    play(state, "p0 b1", "p1 c1")
    for seat in (None, 2, 3):
        seen = known_state(state.view(seat))
        assert isinstance(seen, GothsSaveTheQueenState)
        assert seen.objectives == [UNKNOWN] * 3
        assert seen.fog == [UNKNOWN, UNKNOWN]
        assert seen.played == [UNKNOWN, UNKNOWN]
        assert all(str(item) == "?" for actor, item in seen.history)
    assert known_state(state.view(0)).played == [6, UNKNOWN]
    assert known_state(state.view(1)).played == [UNKNOWN, 4]


def test_determinize_samples_every_consistent_world() -> None:
    state = new_game("trap,queen,plains")
    play(state, "p0 v1")
    rng = random.Random(2)
    orders, cards = set(), set()
    for _ in range(200):
        world = state.view(1).determinize(rng)
        assert isinstance(world, GothsSaveTheQueenState)
        orders.add(tuple(world.objectives))
        cards.add(world.played[OST])
    assert len(orders) == 6
    assert cards == {0, 2}  # V1 or R1
    # After a reconnaissance of Objective 1, its Warchief's worlds all agree on it.
    other = new_game("trap,queen,plains")
    turn(other, o=("v1", "recon"), v=("v1", "rats"))
    play(other, "p2 look obj1")
    for _ in range(30):
        world = other.view(2).determinize(rng)
        assert isinstance(world, GothsSaveTheQueenState)
        assert world.objectives[1] == 2  # the Queen
    # A face-up twin tells which card it is: R1 face up -> the V/R card is V1.
    third = new_game()
    turn(third, o=("r1", "rats"), v=("v1", "rats"))
    play(third, "p1 c1", "p0 v1")
    for _ in range(20):
        world = third.view(1).determinize(rng)
        assert isinstance(world, GothsSaveTheQueenState)
        assert world.played[OST] == 0


@pytest.mark.parametrize(
    "options",
    [{"fog_of_war": True}, {"solo_clans": "visigoths", "fog_of_war": True}, {"solo_clans": "both"}],
)
def test_views_agree_with_determinizations_in_every_variant(options: dict[str, object]) -> None:
    """The contract suite's view checks, for the variants it does not build."""
    game = courtly.make("goths-save-the-queen", **options)  # type: ignore[arg-type]
    rng = random.Random(7)
    for _ in range(6):
        state = game.new_state()
        while not state.is_terminal:
            if state.is_chance:
                sample_chance(state, rng)
                continue
            for seat in [None, *range(game.num_players)] if len(state.history) % 3 == 0 else ():
                view = state.view(seat)
                obs = view.observation()
                assert obs == state.game.views.observation(state, seat)
                world = view.determinize(rng)
                assert world.view(seat).observation() == obs
                if seat is not None and seat in world.to_move:
                    assert world.legal_actions(seat) == state.legal_actions(seat)
            mover = state.to_move[0]
            state.apply(mover, rng.choice(state.legal_actions(mover)))


def test_narration_of_a_reconnaissance_tells_only_the_warchief() -> None:
    state = new_game("trap,queen,plains", fog="gusts,pea-soup")
    turn(state, o=("v1", "recon"), v=("v1", "rats"))
    look = state.game.action_from_text("look obj0")
    for seat in (None, 0, 1, 3):
        told = state.narrate(2, look, seat)
        assert told is not None and "looks at Objective 0" in told
        assert "Trap" not in told and "sees" not in told
    told = state.narrate(2, look, 2)
    assert told is not None and "p2 sees the Trap under Objective 0." in told
    peek = state.game.action_from_text("look fog")
    assert "Gusts" not in (state.narrate(2, peek, 0) or "")
    assert "Gusts" in (state.narrate(2, peek, 2) or "")
