"""Bad input raises IllegalAction with the reason, and changes nothing."""

from __future__ import annotations

import json

import pytest

import courtly
from courtly.games.god_save_the_king.rules import GodSaveTheKingState

from .helpers import new_game, play


def snapshot(state: GodSaveTheKingState) -> tuple[str, str, str, str]:
    return (
        state.to_json(),
        state.render(None),
        state.render(0),
        json.dumps([state.game.views.observation(state, s) for s in (None, 0, 1)]),
    )


def refused(state: GodSaveTheKingState, seat: int, action: object, reason: str) -> None:
    before = snapshot(state)
    with pytest.raises(courtly.IllegalAction, match=reason):
        state.apply(seat, action)  # type: ignore[arg-type]
    assert snapshot(state) == before


def test_a_card_not_in_hand() -> None:
    state = new_game()
    refused(state, 0, "form left 5H", "5H is not in p0's hand")
    refused(state, 0, "left 5H", "5H is not in p0's hand")
    refused(state, 0, "5H 2S 3S", "5H is not in p0's hand")


def test_a_repeated_card() -> None:
    state = new_game()
    refused(state, 0, "10S 10S 8S", "10S is named twice")
    play(state, "p0 10S")
    refused(state, 0, "form middle 10S", "10S is already in p0's formation")
    refused(state, 0, "10S 8S", "10S is already in p0's formation")


def test_the_wrong_slot_or_not_a_card() -> None:
    state = new_game()
    refused(state, 0, "form right 8S", "fills the left slot now")
    refused(state, 0, "form left 1X", "'1X' is not a card")
    refused(state, 0, "10S KS 8S 2S", "not an action")


def test_a_whole_formation_line_is_played_in_steps() -> None:
    state = new_game()
    refused(state, 0, "10S KS 8S", "one card at a time: form left 10S, then form middle KS")
    assert state.game.text.input_steps(state, 0, "10S KS 8S") == [
        "form left 10S",
        "form middle KS",
        "form right 8S",
    ]
    assert state.game.text.input_steps(state, 0, "form 10s ks 8s") == state.game.text.input_steps(
        state, 0, "10S KS 8S"
    )
    assert state.game.text.input_steps(state, 0, "10S 10S 8S") == [
        "10S 10S 8S"
    ]  # refused with the reason
    assert state.game.text.input_steps(state, 1, "pass") == ["pass"]


def test_a_declaration_that_is_no_rank() -> None:
    state = new_game()
    play(state, "p0 AS 6S 2S", "p1 3H 8H QH", "p0 pass", "p1 pass")
    for text in ("declare x", "declare 15", "declare 1", "declare"):
        refused(state, 0, text, "is not a rank")
    play(state, "p0 declare queen")  # words are understood too
    assert state.pending_choices[0] is not None and state.pending_choices[0].rank == 12


def test_a_route_when_already_used() -> None:
    state = new_game()
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H", "p0 pass", "p1 route", "JH")
    play(state, "p1 2H 4H 6H", "p0 3S 4S 5S")
    assert state.to_move == (0,)
    refused(state, 1, "route", "p1 has already routed this hand")


def test_out_of_turn_and_out_of_phase() -> None:
    state = new_game()
    refused(state, 0, "declare q", "nobody declares now")
    refused(state, 0, "challenge", "only the loser of a blind skirmish")
    refused(state, 0, "route", "no route window is open")
    play(state, "p0 10S 2S 8S")
    refused(state, 0, "form left 3S", "not p0's turn")
    refused(state, 5, "pass", "not a seat")
