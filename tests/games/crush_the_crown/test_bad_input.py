"""Bad input raises IllegalAction with the reason, and nothing changes."""

from __future__ import annotations

import json

import pytest

from courtly import IllegalAction
from courtly.games.crush_the_crown.rules import CrushTheCrownState

from .helpers import play, position


def snapshot(state: CrushTheCrownState) -> tuple[str, ...]:
    return (
        state.to_json(),
        state.render(None),
        state.render(0),
        json.dumps(state.game.views.observation(state, 0)),
        json.dumps(state.game.views.observation(state, 1)),
    )


def refused(state: CrushTheCrownState, seat: int, action: str, reason: str) -> None:
    before = snapshot(state)
    with pytest.raises(IllegalAction, match=reason):
        state.apply(seat, action)
    assert snapshot(state) == before


def test_a_card_not_in_hand() -> None:
    state = position(p0_hand="10S 2S", p1_hand="2C")
    refused(state, 0, "extend JD", "JD is not in your hand")
    play(state, "p0 pass", "p0 pass")
    refused(state, 0, "fire 7H", "7H is not in your hand")
    refused(state, 0, "fire Jk", "Jk is not in your hand")


def test_a_spy_of_the_wrong_rank_or_suit() -> None:
    state = position(p1_stack="KH QH JH 10H 9H", p0_hand="7C 8H 8D 9S")
    play(state, "p0 pass")
    refused(state, 0, "spy 7C", "needs 8 next")
    refused(state, 0, "spy 9S", "needs 8 next")
    refused(state, 0, "spy 8H", "p1's suit")


def test_an_own_suit_card_as_a_spy() -> None:
    state = position(p1_stack="KH QH JH 10H 9H", p0_hand="8D 2S")
    play(state, "p0 pass")
    refused(state, 0, "spy 8D", "your own suit")


def test_a_tribute_giver_holding_the_receivers_suit_cannot_give_another_card() -> None:
    state = position(p1_stack="KH QH JH 10H 9H 8C*", p0_hand="2S", p1_hand="3D 9D 4C Jk")
    play(state, "p0 pass", "p0 pass")
    assert state.to_move == (1,)
    assert {str(a) for a in state.legal_actions(1)} == {"give 3D", "give 9D"}
    refused(state, 1, "give 4C", "diamonds")
    refused(state, 1, "give Jk", "diamonds")


def test_a_wrong_step_wrong_seat_or_unknown_text() -> None:
    state = position(p0_hand="10S 2S", p1_hand="2C")
    refused(state, 0, "fire 2S", "build step")
    refused(state, 0, "give 2S", "build step")
    refused(state, 1, "pass", "not p1's turn")
    refused(state, 0, "crush the king", "not an action")
    refused(state, 0, "extend 10S", "not of your suit")
    before = snapshot(state)
    with pytest.raises(IllegalAction):
        state.apply_chance("2C")
    assert snapshot(state) == before
