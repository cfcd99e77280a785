"""What people read of King's Court: plurals and articles right, and one summary at the end."""

from __future__ import annotations

import random

import courtly
from courtly.core.events import CHANCE

from .helpers import arrange, new_game, play


def _narrate_whole_game(players: int, seed: int, **options: object) -> tuple[list[str], str]:
    """Every line narrated to every seat (and a spectator) along a random game, and the
    picture of its end."""
    state = courtly.make("kings-court", players=players, **options).new_state()
    rng = random.Random(seed)
    lines: list[str] = []
    while not state.is_terminal:
        if state.is_chance:
            outcome = state.sample_chance_outcome(rng)
            lines += [state.narrate(CHANCE, outcome, s) or "" for s in [None, *range(players)]]
            state.apply_chance(outcome)
        else:
            seat = state.to_move[0]
            action = rng.choice(state.legal_actions(seat))
            lines += [state.narrate(seat, action, s) or "" for s in [None, *range(players)]]
            state.apply(seat, action)
    return lines, state.render(None)


def test_counts_take_the_singular_for_one() -> None:
    state = new_game(2)
    arrange(state, hands={1: "5S"})
    while len(state.draw_pile) > 1:
        state.draw_pile.pop()
    assert "draw pile 1 card" in state.render(0)
    play(state, str(courtly.Card(state.draw_pile[0])))
    assert "draw pile 0 cards" in state.render(0)
    state = new_game(2)
    arrange(state, hands={1: "5S"})
    play(state, "QS")
    look = state.parse_action(0, "play QS p1")
    assert state.narrate(0, look, None) == "p0 plays QS and looks at p1's hand (1 card)."
    play(state, "p0 play QS p1", "p0 pass", "p0 end", "6S")
    assert "You know p1 holds: 5S (and 1 unknown card)" in state.render(0)


def test_moves_are_counted_in_spaces() -> None:
    state = new_game(2)
    arrange(state, positions={1: 9}, hands={0: "AH 3S"})
    play(state, "4S")
    ace, three, four = (state.parse_action(0, t) for t in ("play AH", "play 3S", "play 4S"))
    assert state.narrate(0, ace, None) == "p0 plays AH and moves forward 1 space, from 0 to 1."
    assert state.narrate(0, four, None) == "p0 plays 4S and pushes p1 back 4 spaces, from 9 to 5."
    state.positions[1] = 2
    assert state.narrate(0, three, None) == (
        "p0 plays 3S and pushes p1 back 2 spaces, from 2 to the start (a pawn goes no lower: KC-7)."
    )
    state.positions[1] = 0
    assert state.narrate(0, three, None) == (
        "p0 plays 3S: p1 stays on the start, and may not be pushed back again this turn (KC-9)."
    )


def test_a_king_on_an_empty_hand_says_so() -> None:
    state = new_game(2)
    play(state, "KS")
    king = state.parse_action(0, "play KS p1")
    assert state.narrate(0, king, None) == (
        "p0 plays KS on p1, whose hand is empty: nothing to throw away (KC-13)."
    )
    arrange(state, hands={1: "2S 9H"})
    assert state.narrate(0, king, None) == (
        "p0 plays KS: p1 throws the whole hand away, face up: 2S 9H."
    )


def test_the_end_is_one_summary_with_every_card_shown() -> None:
    state = new_game(3)
    arrange(state, positions={0: 26, 1: 12}, hands={1: "3S 9H", 2: "QC"})
    play(state, "7H", "p0 play 7H")
    assert state.is_terminal
    picture = state.render(None)
    assert picture.count("Game over") == 1
    assert picture.splitlines()[-1] == "Game over: p0 reaches space 30 and wins."
    assert "hand 2: 3S 9H" in picture and "hand 1: QC" in picture
    never = [line for line in picture.splitlines() if line.startswith("Never drawn: ")]
    assert len(never) == 1 and len(never[0].split()) == 2 + len(state.draw_pile)
    assert picture.splitlines()[0].endswith(" · ended in turn 1 · draw pile 35 cards")
    assert state.render(1) == picture.replace("p1      ", "p1 (you)", 1)


def test_the_end_at_the_safety_cap_says_it() -> None:
    state = new_game(3, safety_cap=3)
    play(state, "4H", "p0 play 4H", "p0 end", "4S", "p1 play 4S", "p1 end", "2C", "p2 end")
    picture = state.render(None).splitlines()
    assert picture[0].endswith(" · ended after 3 turns · draw pile 36 cards")
    assert picture[-1] == (
        "Game over after the safety cap of 3 turns (KC-18): p0 and p1 share the win with the "
        "farthest pawns (space 4)."
    )


def test_no_narration_says_game_over() -> None:
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        lines, end = _narrate_whole_game(players, seed)
        assert not [line for line in lines if "Game over" in line]
        assert end.count("Game over") == 1
        assert not [line for line in lines if " 1 cards" in line or " 1 spaces" in line]
