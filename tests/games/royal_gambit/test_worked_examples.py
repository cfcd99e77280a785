"""Every worked example of docs/rules/royal-gambit.md (§8), with every card forced."""

from __future__ import annotations

import pytest

import courtly
from courtly.games.royal_gambit.components import ACTIVE, BUSTED, FINAL, OUT, OVER, STAYED, TIEBREAK

from .helpers import legal, new_game, play, row, set_aside


def test_rg_example_1_king_doubles() -> None:
    # Row 3, 5, K, A, then STAY: (3 + 5 + 1) x 2 = 18.
    state = new_game(2)
    play(state, "p0 hit", "3H", "p1 hit", "6S", "p0 hit", "5H", "p1 hit", "8S")
    play(state, "p0 hit", "KH", "p1 hit", "9S", "p0 hit", "AH", "p1 hit", "10S")
    assert row(state, 0) == ["3H", "5H", "KH", "AH"]
    assert state.to_move == (0,)
    play(state, "p0 stay")
    assert state.banked == [18, 0]
    assert state.totals == [18, 0]
    assert state.status == [STAYED, ACTIVE]
    assert row(state, 0) == ["3H", "5H", "KH", "AH"]
    assert state.to_move == (1,)
    assert state.turn == 1
    assert legal(state, 1) == ["hit", "stay"]


def test_rg_example_2_only_ace_to_five_score() -> None:
    # Row 2, 9, Q, 4, 10, STAY: 2 + 4 = 6.
    state = new_game(2)
    play(state, "p0 hit", "2H", "p1 hit", "3S", "p0 hit", "9H", "p1 hit", "5S")
    play(state, "p0 hit", "QH", "p1 hit", "6S", "p0 hit", "4H", "p1 hit", "8S")
    play(state, "p0 hit", "10H", "p1 hit", "9S", "p0 stay")
    assert row(state, 0) == ["2H", "9H", "QH", "4H", "10H"]
    assert state.banked == [6, 0]
    assert state.totals == [6, 0]
    assert state.status == [STAYED, ACTIVE]
    assert state.to_move == (1,)


def test_rg_example_3_king_doubles_nothing() -> None:
    # Row K, 8, 6, STAY: 0 x 2 = 0.
    state = new_game(2)
    play(state, "p0 hit", "KH", "p1 hit", "2S", "p0 hit", "8H", "p1 hit", "3S")
    play(state, "p0 hit", "6H", "p1 hit", "4S", "p0 stay")
    assert row(state, 0) == ["KH", "8H", "6H"]
    assert state.banked == [0, 0]
    assert state.totals == [0, 0]
    assert state.status == [STAYED, ACTIVE]
    assert state.to_move == (1,)


def test_rg_example_4_pardon() -> None:
    # Row 5, Q, K; flip 5 -> Q and the new 5 leave -> row 5, K; STAY -> 10.
    state = new_game(2)
    play(state, "p0 hit", "5H", "p1 hit", "2S", "p0 hit", "QH", "p1 hit", "3S")
    play(state, "p0 hit", "KH", "p1 hit", "4S", "p0 hit", "5D")
    assert row(state, 0) == ["5H", "KH"]
    assert set_aside(state) == ["QH", "5D"]
    assert state.status == [ACTIVE, ACTIVE]
    assert state.to_move == (1,)
    assert legal(state, 1) == ["hit", "stay"]
    play(state, "p1 hit", "6S", "p0 stay")
    assert state.banked == [10, 0]
    assert state.totals == [10, 0]
    assert state.status == [STAYED, ACTIVE]


def test_rg_example_5_bust() -> None:
    # Row 4, 7, 2; flip 4, no Queen -> bust, 0 for the hand. (p1 flips the 7 and must give it.)
    state = new_game(2)
    play(state, "p0 hit", "4H", "p1 hit", "7S")
    assert legal(state, 1) == ["give-7 p0"]
    play(state, "p1 give-7 p0", "p0 hit", "2H", "p1 hit", "9S")
    assert row(state, 0) == ["4H", "7S", "2H"]
    assert row(state, 1) == ["9S"]
    play(state, "p0 hit", "4D")
    assert state.status == [BUSTED, ACTIVE]
    assert state.banked == [0, 0]
    assert state.totals == [0, 0]
    assert row(state, 0) == ["4H", "7S", "2H", "4D"]
    assert state.game.views.observation(state, None)["players"][0]["row_score"] == 0
    assert state.to_move == (1,)
    assert state.turn == 1
    assert legal(state, 0) == []
    assert legal(state, 1) == ["hit", "stay"]


def test_rg_example_6_seven_with_a_queen() -> None:
    # Row Q, 7, 3; flip 7 -> pardoned: Q and the new 7 leave (not passed) -> row 7, 3 -> STAY 3.
    state = new_game(2)
    play(state, "p0 hit", "QH", "p1 hit", "7S", "p1 give-7 p0", "p0 hit", "3H", "p1 hit", "9S")
    assert row(state, 0) == ["QH", "7S", "3H"]
    assert row(state, 1) == ["9S"]
    play(state, "p0 hit", "7H")
    # p1 is active without a 7, yet the pardoned 7 is not passed: no give-7 decision.
    assert row(state, 0) == ["7S", "3H"]
    assert row(state, 1) == ["9S"]
    assert set_aside(state) == ["QH", "7H"]
    assert state.to_move == (1,)
    assert legal(state, 1) == ["hit", "stay"]
    play(state, "p1 hit", "10S", "p0 stay")
    assert state.banked == [3, 0]
    assert state.totals == [3, 0]
    assert state.status == [STAYED, ACTIVE]


def test_rg_example_7_hot_potato() -> None:
    # A=p0 flips a 7; B=p1 has stayed, C=p2 is active with a 7, D=p3 active without -> give to D.
    state = new_game(4)
    play(state, "p0 hit", "7C")
    assert legal(state, 0) == ["give-7 p1", "give-7 p2", "give-7 p3"]
    play(state, "p0 give-7 p2", "p1 stay", "p2 hit", "2H", "p3 hit", "3D")
    assert state.status == [ACTIVE, STAYED, ACTIVE, ACTIVE]
    assert row(state, 2) == ["7C", "2H"]
    play(state, "p0 hit", "7S")
    assert state.to_move == (0,)
    assert legal(state, 0) == ["give-7 p3"]
    with pytest.raises(courtly.IllegalAction):
        state.apply(0, "give-7 p2")
    play(state, "p0 give-7 p3")
    assert row(state, 0) == []
    assert row(state, 3) == ["3D", "7S"]
    assert state.to_move == (2,)
    # If D also held a 7, A would keep it: now C and D hold one, B has stayed.
    play(state, "p2 hit", "4H", "p3 hit", "5D", "p0 hit", "7H")
    assert row(state, 0) == ["7H"]
    assert row(state, 2) == ["7C", "2H", "4H"]
    assert row(state, 3) == ["3D", "7S", "5D"]
    assert state.to_move == (2,)
    assert state.turn == 2
    assert legal(state, 2) == ["hit", "stay"]


def test_rg_example_8_jack_chain() -> None:
    # A, B, C active; deck top J, J, 9, 4, 2.
    state = new_game(3)
    play(state, "p0 hit", "JS")
    assert legal(state, 0) == ["jack p0", "jack p1", "jack p2"]
    play(state, "p0 jack p1")
    assert state.is_chance
    assert state.flipper == 1
    play(state, "JH")  # B's forced flip 1
    assert state.to_move == (1,)
    assert legal(state, 1) == ["jack p0", "jack p1", "jack p2"]
    play(state, "p1 jack p2", "9C")
    assert state.flipper == 2
    play(state, "4C")
    assert state.flipper == 1  # back to B's forced flip 2
    play(state, "2H")
    assert row(state, 0) == ["JS"]
    assert row(state, 1) == ["JH", "2H"]
    assert row(state, 2) == ["9C", "4C"]
    assert state.status == [ACTIVE, ACTIVE, ACTIVE]
    assert state.forced_flips == []
    # The next turn belongs to the player after A.
    assert state.turn == 1
    assert state.to_move == (1,)
    assert legal(state, 1) == ["hit", "stay"]
    assert len(state.deck) == 47


def test_rg_example_9_jack_on_self() -> None:
    # A's row {3}; A flips J and targets himself; forced flip 1 = 3 -> bust; flip 2 cancelled.
    state = new_game(2)
    play(state, "p0 hit", "3S", "p1 hit", "9H", "p0 hit", "JS")
    assert legal(state, 0) == ["jack p0", "jack p1"]
    play(state, "p0 jack p0", "3H")
    assert state.status == [BUSTED, ACTIVE]
    assert state.banked == [0, 0]
    assert row(state, 0) == ["3S", "JS", "3H"]
    assert not state.is_chance  # forced flip 2 is cancelled: no further draw
    assert state.forced_flips == []
    assert len(state.deck) == 48
    assert state.to_move == (1,)
    assert legal(state, 1) == ["hit", "stay"]
    play(state, "p1 stay")
    # The hand is over: A scored 0, B 0; a new hand starts.
    assert state.totals == [0, 0]
    assert state.hand_number == 2


def test_rg_example_10_end_of_game() -> None:
    # T = 30; A, B, C, D = p0..p3. The totals before the first hand are SET DIRECTLY to
    # [21, 26, 21, 12]; that hand is then played through the engine so that afterwards
    # A 31 (banks 10), B 26 (banks 0), C 31 (banks 10), D 12 (busts).
    state = new_game(4)
    state.totals[:] = [21, 26, 21, 12]
    play(state, "p0 hit", "5S", "p1 stay", "p2 hit", "5H", "p3 hit", "4D")
    play(state, "p0 hit", "KS", "p2 hit", "KH", "p3 hit", "4C", "p0 stay")
    assert state.status == [STAYED, STAYED, ACTIVE, BUSTED]
    assert state.banked == [10, 0, 0, 0]
    play(state, "p2 stay")

    # Favorites A and C sit out; B and D play the final hand (start: one seat after p0 = p1).
    assert state.totals == [31, 26, 31, 12]
    assert state.phase == FINAL
    assert state.favorites == (0, 2)
    assert state.participants == (1, 3)
    assert state.status == [OUT, ACTIVE, OUT, ACTIVE]
    assert state.hand_number == 2
    assert state.to_move == (1,)
    assert legal(state, 0) == []
    assert legal(state, 2) == []
    play(state, "p1 hit", "5D", "p3 hit", "9C", "p1 stay")
    assert state.banked == [0, 5, 0, 0]
    assert state.totals == [31, 31, 31, 12]
    assert state.to_move == (3,)  # A and C never get a turn
    play(state, "p3 hit", "9H")  # D busts: the final hand is over

    # A, B, C tie at 31: tiebreak among them only (start: one seat after p1 = p2).
    assert state.totals == [31, 31, 31, 12]
    assert not state.is_terminal
    assert state.phase == TIEBREAK
    assert state.participants == (0, 1, 2)
    assert state.status == [ACTIVE, ACTIVE, ACTIVE, OUT]
    assert state.to_move == (2,)
    play(state, "p2 stay", "p0 stay", "p1 stay")  # still tied: another tiebreak hand

    assert state.phase == TIEBREAK
    assert state.participants == (0, 1, 2)
    assert state.to_move == (0,)  # one seat after p2 is p3, who sits out
    play(state, "p0 hit", "3S", "p1 hit", "3H", "p2 hit", "3D", "p0 hit", "3C")
    play(state, "p1 stay", "p2 stay")
    # A busted: B and C are tied at 34 and A drops out.
    assert state.totals == [31, 34, 34, 12]
    assert state.participants == (1, 2)
    assert state.status == [OUT, ACTIVE, ACTIVE, OUT]
    assert state.to_move == (1,)
    play(state, "p1 hit", "2S", "p2 stay", "p1 stay")

    assert state.totals == [31, 36, 34, 12]
    assert state.is_terminal
    assert state.phase == OVER
    assert state.winners == (1,)
    assert state.returns() == [0.0, 1.0, 0.0, 0.0]
    assert state.hand_number == 5
    assert state.hands_played == 5


def test_rg_example_11_ten_blocks_jacks() -> None:
    # ten_blocks_jacks on: A flips J; B's row contains a 10 -> B cannot be chosen.
    state = new_game(3, ten_blocks_jacks=True)
    play(state, "p0 hit", "2S", "p1 hit", "10H", "p2 hit", "3D", "p0 hit", "JS")
    assert state.to_move == (0,)
    assert legal(state, 0) == ["jack p0", "jack p2"]
    with pytest.raises(courtly.IllegalAction):
        state.apply(0, "jack p1")
    play(state, "p0 jack p2", "4D", "5D")
    assert row(state, 1) == ["10H"]
    assert row(state, 2) == ["3D", "4D", "5D"]
    assert state.to_move == (1,)


def test_rg_example_12_auto_hit_on_zero() -> None:
    # auto_hit_on_zero on: C's row {8, K} scores 0 -> C is hit automatically on his turn.
    state = new_game(3, auto_hit_on_zero=True)
    play(state, "p0 hit", "AS", "p1 hit", "2S")
    assert legal(state, 2) == ["hit"]
    play(state, "p2 hit", "8C", "p0 hit", "3S", "p1 hit", "4S")
    assert legal(state, 2) == ["hit"]
    play(state, "p2 hit", "KC", "p0 hit", "5S", "p1 hit", "6S")
    assert row(state, 2) == ["8C", "KC"]
    assert state.to_move == (2,)
    assert legal(state, 2) == ["hit"]
    with pytest.raises(courtly.IllegalAction):
        state.apply(2, "stay")
    play(state, "p2 hit", "AC")
    assert legal(state, 0) == ["hit", "stay"]
