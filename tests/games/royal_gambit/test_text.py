"""What people read of Royal Gambit: plurals right, and one summary at the end."""

from __future__ import annotations

import random

import courtly
from courtly.core.events import CHANCE

from .helpers import new_game, play


def test_counts_take_the_singular_for_one() -> None:
    state = new_game(2)
    play(state, "p0 hit", "AS")
    stay = state.parse_action(1, "stay")
    assert state.narrate(1, stay, None) == "p1 stays and banks 0 points (total 0)."
    play(state, "p1 hit", "JH")
    assert "p1 picks who flips two cards (Jack)." in state.render(None)
    play(state, "p1 jack p0")  # the first of the two cards is drawn next
    assert "Forced flips: p0 must flip 1 more card" in state.render(None)
    play(state, "2S", "3S")
    stay = state.parse_action(0, "stay")
    assert state.narrate(0, stay, None) == "p0 stays and banks 6 points (total 6)."
    play(state, "p0 stay", "p1 hit", "AH")
    stay = state.parse_action(1, "stay")
    assert state.narrate(1, stay, None) == (
        "p1 stays and banks 1 point (total 1).\n"
        "End of hand 1:\n"
        "p0 banked 6: total 6.\n"
        "p1 banked 1: total 1.\n"
        "Nobody has 30 yet. Hand 2: everyone plays; p1 starts."
    )
    while len(state.deck) > 1:
        state.deck.pop()
    assert "deck 1 card" in state.render(None)


def test_the_end_is_one_summary() -> None:
    state = new_game(3, target_score=5)
    play(state, "p0 hit", "5S", "p1 hit", "3S", "p2 hit", "2S")
    play(state, "p0 stay", "p1 stay", "p2 stay")  # p0 reaches 5: the final hand, without him
    play(state, "p1 hit", "AS", "p2 hit", "KH", "p1 stay", "p2 stay")
    assert state.is_terminal
    picture = state.render(None)
    assert picture.count("Game over") == 1
    assert picture.splitlines()[0].startswith("Royal Gambit · hand 2 (the last) · target 5")
    assert picture.splitlines()[-1] == "Game over: p0 wins with 5 points (p1 4, p2 2)."


def test_the_end_at_the_safety_cap_says_it() -> None:
    state = new_game(2, safety_cap=1)
    play(state, "p0 hit", "2S", "p1 hit", "3S", "p0 stay", "p1 stay")
    assert state.is_terminal and state.truncated
    assert state.render(None).splitlines()[-1] == (
        "Game over after the safety cap of 1 hand (RG-26): p1 wins with 3 points (p0 2)."
    )


def test_no_narration_says_game_over() -> None:
    for players, seed in ((2, 1), (4, 2), (5, 3)):
        state = courtly.make("royal-gambit", players=players).new_state()
        rng = random.Random(seed)
        lines: list[str] = []
        while not state.is_terminal:
            if state.is_chance:
                outcome = state.sample_chance_outcome(rng)
                lines.append(state.narrate(CHANCE, outcome, None) or "")
                state.apply_chance(outcome)
            else:
                seat = state.to_move[0]
                action = rng.choice(state.legal_actions(seat))
                lines.append(state.narrate(seat, action, None) or "")
                state.apply(seat, action)
        assert not [line for line in lines if "Game over" in line]
        assert not [line for line in lines if " 1 points" in line]
        assert state.render(None).count("Game over") == 1
