"""What people read: the picture of the table, the narration, the end-of-game summary."""

from __future__ import annotations

import json
import random

import pytest

import courtly
from courtly.core.events import CHANCE
from courtly.core.game import sample_chance
from courtly.games.goths_save_the_queen.rules import GothsSaveTheQueenState

from .helpers import OST, VIS, new_game, place, play, snapshot, turn


def _queen_found() -> GothsSaveTheQueenState:
    """A Fog game the Ostrogoths win on turn 2 by entering the Queen (Objective 1), their
    Warchief having looked at the Trap (Objective 2)."""
    state = new_game("plains,queen,trap", fog="gusts,pea-soup")
    place(state, OST, 2)
    turn(state, o=("v1", "recon"), v=("v1", "rats"))
    play(state, "p2 look obj2")
    turn(state, o=("b1", "advance"), v=("v2", "rats"))
    play(state, "p2 enter obj1")
    assert state.is_terminal and state.winners == (0, 2)
    return state


def test_the_end_is_one_summary_with_every_secret_turned_up() -> None:
    state = _queen_found()
    text = state.render(None)
    assert text.count("Game over") == 1
    assert text.splitlines()[-1] == (
        "Game over: the Ostrogoths win (p0 and p2): they rescued the Queen on Objective 1."
    )
    # The Objectives never turned in play and the Fog tokens are shown, marked as such.
    assert "plains  QUEEN   trap" in text and "lower case: never turned up in play" in text
    assert "gusts" in text and "soup" in text
    assert (
        "Fog tokens: Ostrogoths Gusts (never revealed); Visigoths Pea soup (never revealed); "
        "unused: Reduced numbers and Boar shortage"
    ) in text
    assert "Revealed on turn 2: Ostrogoths B1 (Barbarian) + advance (7): success" in text
    # The end is the same for every seat (but for who is "you"), and so are the observations.
    for seat in range(4):
        assert state.render(seat).replace(" (you)", "") == text
        assert state.view(seat).render() == state.render(seat)
        board = state.view(seat).observation()["board"]
        assert [cell.get("objective") for cell in board[3:6]] == ["plains", "queen", "trap"]
        assert [cell.get("revealed") for cell in board[3:6]] == [False, True, False]
        assert state.view(seat).observation()["clans"][1]["fog"]["token"] == "pea-soup"
    # The log turns up the draws as well.
    assert state.log(1)[:2] == [["chance", "plains,queen,trap"], ["chance", "gusts,pea-soup"]]


def test_the_end_of_a_wiped_out_army_and_of_a_draw() -> None:
    state = new_game()
    place(state, VIS, 7, army=1)
    turn(state, o=("b1", "axe"), v=("v1", "rats"))
    text = state.render(None)
    assert text.count("Game over") == 1
    assert "Visigoths: wiped out on V-Plains1, 3 in reserve" in text
    assert text.endswith(
        "Game over: the Ostrogoths win (p0 and p2): the Visigoth army is wiped out."
    )
    capped = new_game(safety_cap=1)
    turn(capped, o=("v1", "rats"), v=("v1", "rats"))
    text = capped.render(None)
    assert "final position after 1 turn ·" in text
    assert text.endswith("Game over: the safety cap of 1 turn is reached; a draw.")


def test_the_king_sees_each_card_of_his_hand_with_its_back() -> None:
    state = new_game()
    play(state, "p0 b1")
    assert (
        "Your hand (p0): V1 (Vulture, back V/R), V2 (Vulture, back V/B), R1 (Recruiter, back V/R), "
        "R2 (Recruiter, back R/C), C1 (Catapult, back R/C), C2 (Catapult, back C/B), "
        "B2 (Barbarian, back V/B)"
    ) in state.render(0)
    assert "Your card face down: B1 (Barbarian, back C/B)" in state.render(0)
    mine = state.game.views.observation(state, 0)["mine"]
    assert mine["hand"][0] == {"card": "v1", "character": "vulture", "back": "V/R"}
    assert [card["back"] for card in mine["hand"]] == [
        "V/R",
        "V/B",
        "V/R",
        "R/C",
        "R/C",
        "C/B",
        "V/B",
    ]
    assert mine["face_down"] == {"card": "b1", "character": "barbarian", "back": "C/B"}
    # The others see the back, and which two cards carry it.
    assert "face down: back C/B (C2 or B1)" in state.render(1)
    assert "Your hand" not in state.render(2)


def test_counts_are_written_in_words_that_agree() -> None:
    state = new_game("trap,queen,plains")
    place(state, OST, 1, army=1)
    text = state.render(None)
    assert "Ostrogoths: 1 figurine on O-Plains1, 2 in reserve" in text
    assert "Visigoths: 2 figurines on V-Forest" in text
    turn(state, o=("v1", "recon"), v=("r1", "recruit"))
    play(state, "p2 look obj0")
    turn(state, o=("v2", "recon"), v=("r2", "recruit"))
    play(state, "p2 look obj2")
    assert "reconnaissance has looked at Objectives 0 and 2" in state.render(None)
    assert state.render(None).endswith("p0 (Ostrogoth King) to lay a King card face down.")
    seven = state.clone()
    seven.face_up[OST] = 0b1111111  # seven cards face up: one left in hand
    assert "King p0: 1 card in hand · face up: V1, V2, R1, R2, C1, C2, B1" in seven.render(None)
    play(state, "p0 b2", "p1 c1", "p3 load")
    assert state.render(None).endswith(
        "Orders: waiting for p2 (Ostrogoth Warchief); p3 (Visigoth Warchief) has given his order."
    )


def test_a_failed_order_saved_by_a_face_up_card_says_so() -> None:
    state = new_game()
    turn(state, o=("v1", "rats"), v=("c1", "load"))  # O fails: V1 stays face up
    play(state, "p1 c1", "p0 b1", "p2 sabotage")
    told = state.narrate(3, state.game.action_from_text("recruit"), None)
    assert told is not None
    assert (
        "Ostrogoths: B1 (Barbarian) and Sabotage (2), which needs a Vulture: carried out thanks "
        "to the V1 lying face up (GOTH-3)."
    ) in told.splitlines()
    assert "p0 (Ostrogoth King) takes back V1 and B1 from the table (GOTH-6)." in told


@pytest.mark.parametrize("options", [{}, {"fog_of_war": True}, {"solo_clans": "both"}])
def test_narration_changes_nothing_and_tells_the_win_with_the_last_event(
    options: dict[str, object],
) -> None:
    """Every event is told to every observer without changing the state; the winners are
    named by the last event's story, never before, and "Game over" is left to the picture."""
    game = courtly.make("goths-save-the-queen", **options)  # type: ignore[arg-type]
    rng = random.Random(5)
    for _ in range(5):
        state = game.new_state()
        assert isinstance(state, GothsSaveTheQueenState)
        while not state.is_terminal:
            before = snapshot(state)
            if state.is_chance:
                outcome = state.sample_chance_outcome(rng)
                told = [state.narrate(CHANCE, outcome, seat) for seat in (None, 0)]
                assert snapshot(state) == before
                state.apply_chance(outcome)
                continue
            seat = state.to_move[0]
            action = rng.choice(state.legal_actions(seat))
            told = [
                state.narrate(seat, action, other) for other in [None, *range(game.num_players)]
            ]
            assert snapshot(state) == before
            state.apply(seat, action)
            for line in told:
                assert line is not None and "Game over" not in line
                named = " win (" in line
                assert named == (state.is_terminal and not state.truncated), line
        if not state.truncated:
            clan = "Ostrogoths" if state.winners[0] == 0 else "Visigoths"
            assert all(f"The {clan} win (" in (line or "") for line in told)


def test_the_state_machine_keeps_no_narration() -> None:
    # The words are made by text.py from the state; the state holds none of them.
    state = new_game()
    play(state, "p0 b1", "p1 c1", "p2 advance", "p3 load")
    rng = random.Random(0)
    while not state.is_terminal:
        if state.is_chance:
            sample_chance(state, rng)
            continue
        seat = state.to_move[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert "_log" not in GothsSaveTheQueenState.__slots__
    text = json.dumps(
        {name: repr(getattr(state, name)) for name in GothsSaveTheQueenState.__slots__}
    )
    assert "lose" not in text and "advance:" not in text
