"""King's Court rules beyond the worked examples: turns, draws, reshuffles, targeting, Queens."""

from __future__ import annotations

import pytest

import courtly
from courtly.games.kings_court.components import BORROWING, DRAW, PLAYING

from .helpers import arrange, hand, legal, new_game, play


def test_random_start_player_is_a_chance_event_over_seats() -> None:
    state = courtly.make("kings-court", players=4).new_state()
    assert state.is_chance and state.to_move == ()
    outcomes = state.chance_outcomes()
    assert [str(o) for o, _ in outcomes] == ["p0", "p1", "p2", "p3"]
    assert all(p == pytest.approx(0.25) for _, p in outcomes)
    assert state.narrate(courtly.CHANCE, outcomes[2][0], None) == (
        "Suits: p0 hearts, p1 spades, p2 clubs, p3 diamonds. The first pawn to space 30 wins.\n"
        "p2 wins the cut and plays first."
    )
    state.apply_chance("p2")
    assert state.turn == 2 and state.drawer == 2 and state.phase == DRAW


def test_turns_go_clockwise_and_draw_one_card_each() -> None:
    state = new_game(3, start="p1")
    play(state, "4S")
    assert state.to_move == (1,) and hand(state, 1) == ["4S"]
    play(state, "p1 end", "9C")
    assert state.to_move == (2,)
    play(state, "p2 end", "2H", "p0 end", "5S")
    assert hand(state, 1) == ["4S", "5S"]  # no hand limit; playing is optional (KC-15)
    assert state.turns_played == 3


def test_the_card_just_drawn_may_be_played() -> None:
    state = new_game(2)
    play(state, "8H")
    assert legal(state, 0) == ["play 8H", "end"]


def test_empty_draw_pile_reshuffles_the_discard_pile() -> None:
    state = new_game(2)
    arrange(state, hands={1: "2S"})
    while len(state.draw_pile) > 1:
        state.draw_pile.pop()  # pretend the rest went out of play
    last = courtly.Card(state.draw_pile[0])
    play(state, str(last), "p0 play " + str(last).lower())
    assert state.draw_pile == [] and state.discard_pile == [int(last)]
    narration = state.narrate(0, state.tables.end, None)
    assert narration == (
        "p0 ends the turn.\n"
        "The draw pile is empty: the discard pile (1 card) is shuffled into a new draw pile (KC-6)."
    )
    play(state, "p0 end")
    assert state.epoch == 1
    assert state.draw_pile == [int(last)] and state.discard_pile == []
    assert state.chance_outcomes() == [(last, 1.0)]
    play(state, str(last))
    assert hand(state, 1) == sorted(["2S", str(last)], key=courtly.Card.parse)


def test_both_piles_empty_skips_the_draw() -> None:
    state = new_game(2)
    arrange(state, hands={1: "3S"})
    play(state, "5H")
    state.draw_pile.clear()
    play(state, "p0 end")
    assert not state.is_chance
    assert state.to_move == (1,) and state.phase == PLAYING
    assert hand(state, 1) == ["3S"]


def test_two_players_own_face_card_targets_the_only_rival() -> None:
    state = new_game(2)
    play(state, "JH")
    assert legal(state, 0) == ["play JH p1", "end"]


def test_face_card_of_a_rival_suit_targets_only_that_rival() -> None:
    state = new_game(3)
    arrange(state, hands={0: "JS KC"})
    play(state, "QC")
    assert legal(state, 0) == ["play JS p1", "play QC p2", "play KC p2", "end"]


def test_jack_may_move_the_player_backwards() -> None:
    state = new_game(2)
    arrange(state, positions={0: 15, 1: 2})
    play(state, "JS", "p0 play JS p1")
    assert state.positions == [2, 15]
    assert state.moved_back == 0  # a swap is not a move back (KC-9)


def test_king_on_an_empty_hand_is_legal_and_does_nothing() -> None:
    state = new_game(2)
    play(state, "KS")
    assert legal(state, 0) == ["play KS p1", "end"]
    play(state, "p0 play KS p1")
    assert state.hands[1] == [] and state.phase == PLAYING


def test_queen_on_an_empty_hand_asks_nothing() -> None:
    state = new_game(2)
    play(state, "QS", "p0 play QS p1")
    assert state.phase == PLAYING
    assert legal(state, 0) == ["end"]


def test_borrowed_queen_chains_another_look() -> None:
    state = new_game(3)
    arrange(state, hands={1: "QH 4S", 2: "9H 7C"})
    play(state, "QS", "p0 play QS p1")
    # QH is p0's own suit: it may look at either opponent.
    assert legal(state, 0) == ["borrow 4S", "borrow QH p1", "borrow QH p2", "pass"]
    play(state, "p0 borrow QH p2")
    assert state.phase == BORROWING and state.queen_target == 2
    assert state.game.views.observation(state, 0)["players"][2]["known_cards"] == ["9H", "7C"]
    assert state.game.views.observation(state, 0)["players"][1]["known_cards"] == ["4S"]
    play(state, "p0 borrow 9H")
    assert state.positions[0] == 9
    assert hand(state, 2) == ["7C"]


def test_borrowed_card_follows_the_move_back_limit() -> None:
    state = new_game(2)
    arrange(state, positions={1: 10}, hands={0: "2S", 1: "5S 8H"})
    play(state, "QS", "p0 play 2S", "p0 play QS p1")
    assert legal(state, 0) == ["borrow 8H", "pass"]  # 5S would move p1 back twice
    with pytest.raises(courtly.IllegalAction, match="already been moved back"):
        state.apply(0, "borrow 5S")


def test_borrowed_own_number_can_win_mid_look() -> None:
    state = new_game(2)
    arrange(state, positions={0: 25}, hands={1: "5H"})
    play(state, "QS", "p0 play QS p1", "p0 borrow 5H")
    assert state.is_terminal and state.winners == (0,)
    assert state.positions[0] == 30


def test_overshoot_clamps_to_the_last_space() -> None:
    state = new_game(2)
    arrange(state, positions={0: 29})
    play(state, "10H", "p0 play 10H")
    assert state.positions[0] == 30 and state.winners == (0,)


def test_move_back_limit_resets_each_turn() -> None:
    state = new_game(2)
    arrange(state, positions={1: 20}, hands={0: "3S 4S"})
    play(state, "2H", "p0 play 3S")
    assert state.positions[1] == 17
    play(state, "p0 end", "5S", "p1 end", "6H")
    assert state.moved_back == 0
    play(state, "p0 play 4S")
    assert state.positions[1] == 13


def test_only_the_turn_player_moves_forward_so_no_ties() -> None:
    state = new_game(2)
    play(state, "5S", "p0 play 5S")  # p1's card in p0's hand moves p1 back, never forward
    assert state.positions == [0, 0]
