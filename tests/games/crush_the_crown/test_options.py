"""One test per option of Crush the Crown (docs/rules/crush-the-crown.md §10)."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly import InvalidOptions
from courtly.core.match import play_randomly
from courtly.games.crush_the_crown.components import BUILD, SPY

from .helpers import deal, legal, new_game, play, position, stack


def test_defaults() -> None:
    game = courtly.make("crush-the-crown")
    assert dict(game.options) == {
        "use_jokers": True,
        "hand_size": 5,
        "one_gov_card_per_build": True,
        "safety_cap": 400,
    }
    with pytest.raises(InvalidOptions):
        courtly.make("crush-the-crown", players=3)
    with pytest.raises(InvalidOptions, match="hand_size"):
        courtly.make("crush-the-crown", hand_size=0)


def test_use_jokers_false_plays_without_jokers() -> None:
    state = new_game(use_jokers=False)
    assert len(state.draw_pile) == 48
    assert "Jk" not in {str(o) for o, _ in state.chance_outcomes()}
    rng = random.Random(2)
    for _ in range(10):
        world = state.game.new_state()
        play_randomly(world, rng)
        assert all(str(a) != "spy Jk" for _, a in world.history)


def test_hand_size_sets_the_deal_and_the_refill() -> None:
    state = new_game(hand_size=7)
    deal(state, "2C 3C 4C 5C 6C 7C QD", "2S 3S 4S 5S 6S 7S QH")
    assert state.to_move == (0,) and legal(state, 0) == ["marry QD"]
    play(state, "p0 marry QD", "8C", "p1 marry QH", "8S")
    assert [len(h) for h in state.hands] == [7, 7]
    refill = position(p0_hand="2S", p1_hand="2C", hand_size=3)
    play(refill, "p0 pass", "p0 pass", "p0 pass", "3S", "4S")
    assert len(refill.hands[0]) == 3 and refill.to_move == (1,)


def test_one_gov_card_per_build_false_allows_discoveries_after_an_extension() -> None:
    setup = dict(
        p1_stack="KH QH JH 10H 9H 8C* 7H 6S* 5H",
        p1_hand="8H 6H 4H 3H",
        turn=1,
    )
    strict = position(**setup)  # type: ignore[arg-type]
    play(strict, "p1 extend 4H")
    assert strict.decision == SPY
    loose = position(one_gov_card_per_build=False, **setup)  # type: ignore[arg-type]
    assert set(legal(loose, 1)) == {"pass", "discover 8H", "discover 6H", "extend 4H"}
    play(loose, "p1 extend 4H")
    assert loose.decision == BUILD
    assert set(legal(loose, 1)) == {"pass", "discover 8H", "discover 6H"}  # one extension only
    play(loose, "p1 discover 8H", "p1 discover 6H")
    assert loose.spies[1] == 0
    assert stack(loose, 1) == ["KH", "QH", "JH", "10H", "9H", "8H", "7H", "6H", "5H", "4H"]
    assert legal(loose, 1) == ["pass"]
    play(loose, "p1 pass")
    assert loose.decision == SPY


def test_one_gov_card_per_build_false_wins_by_discovery_after_the_ace() -> None:
    state = position(
        one_gov_card_per_build=False,
        p0_stack="KD QD JD 10D 9D 8D 7D 6D 5S* 4D 3D 2D",
        p0_hand="AD 5D",
    )
    play(state, "p0 extend AD")
    assert not state.is_terminal
    play(state, "p0 discover 5D")
    assert state.is_terminal and state.winners == (0,)


def test_max_turns_caps_the_game_as_a_draw() -> None:
    game = courtly.make("crush-the-crown", max_turns=3)
    state = game.new_state()
    play_randomly(state, random.Random(1))
    assert state.is_terminal and state.turns_played == 3
    assert state.returns() == [0.5, 0.5] and state.winners == (0, 1)
    assert "draw" in state.render(None)
    assert state.game.views.observation(state, 0)["draw"] is True
