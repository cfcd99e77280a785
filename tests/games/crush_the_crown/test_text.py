"""What people read: the table, the narration and the refusals, in plain English (plurals and
articles right), and the one summary at the end of a game."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly import IllegalAction
from courtly.core.events import CHANCE
from courtly.core.match import play_randomly
from courtly.games.crush_the_crown.components import TEXT
from courtly.games.crush_the_crown.rules import CrushTheCrownState

from .helpers import deal, new_game, play, position


def narration(state: CrushTheCrownState, step: str, seat: int | None = 0) -> str | None:
    """What ``seat`` is told of ``step`` (``"p0 pass"`` or a drawn card), before it happens."""
    who, _, action = step.partition(" ")
    if action:
        mover = int(who.removeprefix("p"))
        return state.narrate(mover, state.parse_action(mover, action), seat)
    return state.narrate(CHANCE, state.game.text.parse_chance(state, step), seat)


def test_spies_cards_and_tribute_are_counted_in_good_english() -> None:
    state = position(p1_stack="KH QH JH 10H 9H 8C* 7H 6S*", p0_hand="5C 10S", p1_hand="3D")
    shown = state.render(0)
    assert "p1 hearts, 2 spies" in shown and "spys" not in shown
    assert "p1 hand: 1 card" in shown and "1 cards" not in shown
    play(state, "p0 pass", "p0 spy 5C")
    assert "p1 hearts, 3 spies" in state.render(0)
    assert "p1 owes p0 3 tribute cards." in state.render(0)
    one = position(p1_stack="KH QH JH 10H 9H 8C*", p0_hand="5C", p1_hand="3D 4D")
    play(one, "p0 pass", "p0 pass")
    assert "p1 hearts, 1 spy" in one.render(None)
    assert "p1 owes p0 1 tribute card." in one.render(None)


def test_the_draw_pile_is_counted_in_good_english() -> None:
    state = position(p1_hand="9C", draw="2C", rest_to=0, turn=1)
    assert "draw pile: 1 card" in state.render(None)
    assert "Crush the Crown · turn 1 of 400 · draw pile: 1 card" in state.render(None)


def test_the_narration_of_a_turn() -> None:
    state = position(p1_stack="KH QH JH 10H 9H", p0_hand="8C QC 8S 3H", p1_hand="2D")
    assert narration(state, "p0 pass") == "p0 builds nothing."
    play(state, "p0 pass")
    assert narration(state, "p0 pass") == "p0 places no spy."
    owed = "p1 owes p0 1 card of tribute, for p0's spy in his government (CTC-13)."
    assert (
        narration(state, "p0 spy 8C")
        == f"p0 places 8C as a spy in p1's government, as its 8.\n{owed}"
    )
    assert narration(state, "p0 spy QC").startswith(
        "p0 places QC as a wild spy in p1's government, as its 8.\n"
    )
    play(state, "p0 spy 8S")
    assert narration(state, "p1 give 2D") == "p1 gives 2D to p0 as tribute."
    play(state, "p1 give 2D")
    assert narration(state, "p0 pass") == "p0 fires no card."
    assert narration(state, "p0 fire 3H") == "p0 fires 3H."


def test_the_narration_of_a_marriage() -> None:
    state = new_game(dealer="p1")
    two_clubs = state.game.text.parse_chance(state, "2C")
    assert state.narrate(CHANCE, two_clubs, None) == "p0 is dealt a card (1 of 5)."
    assert state.narrate(CHANCE, two_clubs, 1) == "p0 is dealt a card (1 of 5)."
    assert state.narrate(CHANCE, two_clubs, 0) == "p0 is dealt 2C (1 of 5)."
    deal(state, "QD 2C 3C 4C 5C", "QS QH 6C 7C 8C")
    assert narration(state, "p0 marry QD") == "p0 marries QD to KD: diamonds are his suit."


def test_a_refusal_lists_the_moves_of_the_step_in_good_english() -> None:
    state = position(p0_hand="10S 2S", p1_hand="2C")
    with pytest.raises(IllegalAction, match=r"this is the build step \(pass, extend or discover\)"):
        state.apply(0, "fire 2S")
    play(state, "p0 pass")
    with pytest.raises(IllegalAction, match=r"this is the spy step \(pass or spy\)"):
        state.apply(0, "fire 2S")


def finished_game(seed: int, **options: object) -> CrushTheCrownState:
    state = courtly.make("crush-the-crown", **options).new_state()
    assert isinstance(state, CrushTheCrownState)
    play_randomly(state, random.Random(seed))
    return state


def test_the_end_is_one_summary_with_every_card_shown() -> None:
    state = finished_game(2)
    assert state.is_terminal and not state.truncated
    summary = state.render(None)
    assert summary.count("Game over") == 1
    winner = state.winners[0]
    assert f"Game over: p{winner} completes a spy-free government and wins." in summary
    for h in (0, 1):
        cards = " ".join(TEXT[c] for c in state.hands[h]) or "-"
        assert f"p{h} hand: {cards}" in summary
    assert f"Draw pile: {' '.join(TEXT[c] for c in state.draw_pile) or '-'}" in summary
    assert "?" not in summary
    # Every seat sees the same at the end: nothing is hidden any more, the draws included.
    for seat in (None, 0, 1):
        view = state.view(seat)
        assert "?" not in view.render()
        assert ["chance", "?"] not in view.log()
        assert all("cards" in hand for hand in view.observation()["hands"])
        assert state.game.views.secret_cards(state, seat) == frozenset()


def test_the_narration_never_says_game_over() -> None:
    state = finished_game(2)
    replayed = state.game.new_state()
    for actor, item in state.history:
        told = replayed.narrate(actor, item, None) or ""
        assert "Game over" not in told and "game over" not in told
        if actor == CHANCE:
            replayed.apply_chance(item)
        else:
            replayed.apply(actor, item)
    assert replayed.render(None) == state.render(None)


def test_a_game_cut_off_at_its_safety_cap_ends_in_a_draw_summary() -> None:
    state = finished_game(1, safety_cap=3)
    assert state.truncated and state.winners == (0, 1)
    summary = state.render(None)
    assert summary.count("Game over") == 1
    assert "Game over: the safety cap of 3 turns is reached; a draw." in summary
    assert "Crush the Crown · over after 3 turns (the cap)" in summary


def test_a_won_game_names_the_turn_it_was_won_on() -> None:
    """A win ends the game during its turn: the header names that turn, the one the outcome's
    reason names, not the turns completed before it."""
    for seed in range(40):
        state = finished_game(seed)
        if not state.truncated:
            break
    assert not state.truncated
    turn = state.turns_played + 1
    assert f"Crush the Crown · won on turn {turn}" in state.render(None)
    assert f"on turn {turn}" in state.game.text.outcome(state).reason
