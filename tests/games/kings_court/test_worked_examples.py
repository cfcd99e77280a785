"""Every worked example of docs/rules/kings-court.md (§9; 4 players: P1 = p0 hearts, P2 = p1
spades, P3 = p2 clubs, P4 = p3 diamonds), with every draw forced."""

from __future__ import annotations

import pytest

import courtly
from courtly.games.kings_court.components import BORROWING, PLAYING
from courtly.games.kings_court.rules import KingsCourtState

from .helpers import arrange, hand, legal, new_game, play


def test_kc_example_1_own_suit_moves_forward() -> None:
    state = new_game(4)
    arrange(state, positions={0: 4})
    play(state, "7H", "p0 play 7H")
    assert state.positions == [11, 0, 0, 0]
    assert state.to_move == (0,)
    assert hand(state, 0) == []
    assert [str(c) for c in map(courtly.Card, state.discard_pile)] == ["7H"]


def test_kc_example_2_rival_suit_moves_back_and_stops_at_start() -> None:
    state = new_game(4)
    arrange(state, positions={1: 3})
    play(state, "5S", "p0 play 5S")
    assert state.positions == [0, 0, 0, 0]
    assert state.moved_back == 0b10


def test_kc_example_3_one_move_back_per_opponent_per_turn() -> None:
    state = new_game(4)
    arrange(state, positions={1: 12, 2: 6}, hands={0: "2S 2C"})
    play(state, "4S")
    assert legal(state, 0) == ["play 2S", "play 4S", "play 2C", "end"]
    play(state, "p0 play 4S")
    assert state.positions[1] == 8
    # 2S would move p1 back a second time this turn: no longer offered, and refused.
    assert legal(state, 0) == ["play 2C", "end"]
    with pytest.raises(courtly.IllegalAction, match="already been moved back"):
        state.apply(0, "play 2S")
    play(state, "p0 play 2C")
    assert state.positions == [0, 8, 4, 0]
    # The limit lasts one turn: on p0's next turn 2S may hit p1 again.
    play(state, "p0 end", "3S", "p1 end", "3C", "p2 end", "3D", "p3 end", "AH")
    assert "play 2S" in legal(state, 0)


def test_kc_example_4_reaching_the_end_wins_at_once() -> None:
    state = new_game(4)
    arrange(state, positions={0: 26}, hands={0: "5S 4H"})
    play(state, "9H", "p0 play 9H")
    assert state.positions[0] == 30  # 26 + 9 stops on the last space
    assert state.is_terminal
    assert state.winners == (0,)
    assert state.returns() == [1.0, 0.0, 0.0, 0.0]
    assert state.to_move == ()
    assert legal(state, 0) == []


def test_kc_example_5_jack_swaps_and_is_not_a_move_back() -> None:
    state = new_game(4)
    arrange(state, positions={0: 8, 2: 20}, hands={0: "3C"})
    play(state, "JH")
    # An own-suit Jack may go to any opponent, never to oneself.
    assert legal(state, 0) == ["play JH p1", "play JH p2", "play JH p3", "play 3C", "end"]
    play(state, "p0 play JH p2")
    assert state.positions == [20, 0, 8, 0]
    assert state.moved_back == 0
    play(state, "p0 play 3C")
    assert state.positions == [20, 0, 5, 0]


def _queen_on_p1() -> KingsCourtState:
    state = new_game(4)
    arrange(state, hands={1: "6H KS 2S"})
    play(state, "QS")
    # A Queen of spades may only target p1, whose suit it is.
    assert legal(state, 0) == ["play QS p1", "end"]
    play(state, "p0 play QS p1")
    assert state.phase == BORROWING
    assert state.queen_target == 1
    return state


def test_kc_example_6_queen_look_and_borrow() -> None:
    state = _queen_on_p1()
    # p0 privately sees p1's hand; the others see only that he looks.
    assert state.game.views.observation(state, 0)["players"][1]["known_cards"] == ["2S", "KS", "6H"]
    assert state.game.views.observation(state, 2)["players"][1]["known_cards"] == []
    assert legal(state, 0) == ["borrow 2S", "borrow KS p1", "borrow 6H", "pass"]
    play(state, "p0 borrow 6H")
    assert state.positions == [6, 0, 0, 0]
    assert hand(state, 1) == ["2S", "KS"]
    assert state.phase == PLAYING
    assert [str(courtly.Card(c)) for c in state.discard_pile] == ["QS", "6H"]


def test_kc_example_6_alternative_borrow_2s_uses_the_limit() -> None:
    state = _queen_on_p1()
    state.positions[1] = 5
    play(state, "p0 borrow 2S")
    assert state.positions[1] == 3
    assert state.moved_back == 0b10
    assert hand(state, 1) == ["KS", "6H"]
    assert "play 2S" not in legal(state, 0)


def test_kc_example_6_alternative_borrow_king_strips_the_owner() -> None:
    state = _queen_on_p1()
    play(state, "p0 borrow KS p1")
    assert hand(state, 1) == []
    assert [str(courtly.Card(c)) for c in state.discard_pile] == ["QS", "KS", "2S", "6H"]


def test_kc_example_6_alternative_pass() -> None:
    state = _queen_on_p1()
    play(state, "p0 pass")
    assert hand(state, 1) == ["2S", "KS", "6H"]
    assert state.phase == PLAYING
    # The look is remembered afterwards.
    assert state.game.views.observation(state, 0)["players"][1]["known_cards"] == ["2S", "KS", "6H"]


def test_kc_example_7_king_of_a_rival_suit_strips_that_rival() -> None:
    state = new_game(4)
    arrange(state, hands={3: "2D 9S QC"})
    play(state, "KD")
    assert legal(state, 0) == ["play KD p3", "end"]
    play(state, "p0 play KD p3")
    assert hand(state, 3) == []
    assert [str(courtly.Card(c)) for c in state.discard_pile] == ["KD", "9S", "2D", "QC"]
    assert state.game.views.observation(state, 1)["discard_pile"] == ["KD", "9S", "2D", "QC"]


def test_kc_example_8_three_players_have_no_diamonds() -> None:
    state = courtly.make("kings-court", players=3).new_state()
    assert isinstance(state, KingsCourtState)
    state.apply_chance("p0")
    outcomes = [str(c) for c, _ in state.chance_outcomes()]
    assert len(outcomes) == 39
    assert not any(text.endswith("D") for text in outcomes)
    assert {text[-1] for text in outcomes} == {"H", "S", "C"}
    with pytest.raises(courtly.IllegalAction):
        state.apply_chance("5D")


def test_kc_example_9_ace_counts_one() -> None:
    state = new_game(4)
    play(state, "AH", "p0 play AH")
    assert state.positions == [1, 0, 0, 0]


def test_kc_example_10_move_back_from_start_still_uses_the_limit() -> None:
    state = new_game(4)
    arrange(state, hands={0: "3S"})
    play(state, "6S", "p0 play 6S")
    assert state.positions[1] == 0
    assert state.moved_back == 0b10
    assert legal(state, 0) == ["end"]
    with pytest.raises(courtly.IllegalAction, match="already been moved back"):
        state.apply(0, "play 3S")
