"""Bad input raises IllegalAction with the reason, and changes nothing."""

from __future__ import annotations

import pytest

import courtly
from courtly.games.kings_court.rules import KingsCourtState

from .helpers import arrange, new_game, play, snapshot


def _scene() -> KingsCourtState:
    """4 players, p0 to play with 4S 2S 3C JD QH in hand; p1 already moved back once."""
    state = new_game(4)
    arrange(state, positions={1: 12, 3: 9}, hands={0: "2S 3C JD QH", 2: "5C"})
    play(state, "4S", "p0 play 4S")
    return state


@pytest.mark.parametrize(
    ("seat", "action", "reason"),
    [
        (0, "play 7H", "p0 does not hold 7H"),
        (0, "play 2S", "p1 has already been moved back this turn"),
        (0, "play JD p1", "a Jack of diamonds may only be played on p3"),
        (0, "play QH p0", "never played on oneself"),
        (0, "borrow 5C", "only possible right after playing a Queen"),
        (0, "pass", "pass declines a Queen's borrow"),
        (0, "jump", "not an action of King's Court"),
        (0, 10**6, "not an action id"),
        (1, "end", "it is not p1's turn; to move: p0"),
        (2, "play 5C", "it is not p2's turn"),
        (7, "end", "7 is not a seat"),
    ],
)
def test_bad_input_names_the_reason_and_changes_nothing(
    seat: int, action: object, reason: str
) -> None:
    state = _scene()
    before = snapshot(state)
    with pytest.raises(courtly.IllegalAction, match=reason):
        state.apply(seat, action)  # type: ignore[arg-type]
    assert snapshot(state) == before


def test_bad_action_objects_and_ids_change_nothing() -> None:
    state = _scene()
    before = snapshot(state)
    for action in state.game.actions:
        if action not in state.legal_actions(0):
            with pytest.raises(courtly.IllegalAction):
                state.apply(0, action)
            with pytest.raises(courtly.IllegalAction):
                state.apply(0, action.id)
    assert snapshot(state) == before


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("play 3C", "first finish the Queen"),
        ("end", "first finish the Queen"),
        ("borrow 9D", "9D is not in p2's hand"),
    ],
)
def test_bad_input_during_a_queens_look(action: str, reason: str) -> None:
    state = _scene()
    play(state, "p0 play QH p2")
    before = snapshot(state)
    with pytest.raises(courtly.IllegalAction, match=reason):
        state.apply(0, action)
    assert snapshot(state) == before


def test_bad_chance_input_changes_nothing() -> None:
    state = new_game(2)
    before = snapshot(state)
    for text in ("5D", "Zz", "p1"):
        with pytest.raises(courtly.IllegalAction):
            state.apply_chance(text)
    with pytest.raises(courtly.IllegalAction, match="not a possible outcome"):
        state.apply_chance(courtly.Card.parse("5D"))
    with pytest.raises(courtly.IllegalAction):
        state.apply(0, "end")  # a draw is pending
    assert snapshot(state) == before


def test_after_the_end_nothing_is_legal() -> None:
    state = new_game(2)
    arrange(state, positions={0: 29})
    play(state, "2H", "p0 play 2H")
    before = snapshot(state)
    with pytest.raises(courtly.IllegalAction, match="the game is over"):
        state.apply(0, "end")
    assert snapshot(state) == before


# ------------------------------------------------------------------------------ typing shortcuts


def test_typing_shortcuts() -> None:
    state = _scene()
    assert str(state.parse_action(0, "3C")) == "play 3C"
    assert str(state.parse_action(0, "  PLAY   3C ")) == "play 3C"
    assert str(state.parse_action(0, "play JD")) == "play JD p3"  # the only target
    with pytest.raises(courtly.IllegalAction, match="QH needs a target: play QH p1 or"):
        state.parse_action(0, "play QH")
    play(state, "p0 play QH p2")
    assert str(state.parse_action(0, "5c")) == "borrow 5C"
    assert state.game.text.input_steps(state, 0, "play 3C, end") == ["play 3C", "end"]
