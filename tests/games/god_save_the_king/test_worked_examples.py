"""Every worked example of docs/rules/god-save-the-king.md (§13), with every drawn card forced.

P1 = seat 0 (spades), P2 = seat 1 (hearts); formations are written left, middle, right."""

from __future__ import annotations

from courtly.games.god_save_the_king.components import PUBLIC, PUSH

from .helpers import finish_trick, hand, low_cards, new_game, pile, play


def test_gsk_example_1_decisive_two_nil() -> None:
    state = new_game()
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H")
    t = state.tricks[0]
    assert t.columns == (1, 1) and t.skirmish_result == 0
    assert state.to_move == (0, 1)  # the route window (T4): both may route
    play(state, "p0 pass", "p1 pass")
    assert pile(state, 0) == ["10S", "2S", "8S", "7H", "5H", "3H"]
    assert pile(state, 1) == []
    assert len(state.hands[0]) == len(state.hands[1]) == 10
    # Public: 10S 8S 7H 3H. P1 knows his own 2S; 5H stays unseen until the end of the hand.
    mine = state.game.views.observation(state, 0)["players"][0]
    assert mine["pile_face_up"] == ["10S", "8S", "7H", "3H"]
    assert mine["pile_known_to_you"] == ["2S"]
    assert mine["pile_unseen"] == 1
    theirs = state.game.views.observation(state, 1)["players"][0]
    assert theirs["pile_known_to_you"] == ["5H"] and theirs["pile_unseen"] == 1
    assert "5H" in {str(c) for c in state.game.views.secret_cards(state, 0)}
    assert "5H" not in str(state.view(0).observation())
    # 2 players: priority alternates, so P2 has it in the next trick.
    assert state.tricks[0].seats == (1, 0)


def test_gsk_example_2_win_and_draw() -> None:
    state = new_game()
    play(state, "p0 QS 3S 5S", "p1 5H 9H 4H")
    t = state.tricks[0]
    assert t.columns == (1, 0)  # Q v 4 to P1, 5 v 5 a draw
    play(state, "p0 pass", "p1 pass")
    assert len(state.piles[0]) == 6 and not state.piles[1]


def test_gsk_example_3_push_bluff_caught() -> None:
    state = new_game()
    play(state, "p0 AS 6S 2S", "p1 3H 8H QH")
    assert state.tricks[0].columns == (1, -1) and state.tricks[0].skirmish_result == PUSH
    play(state, "p0 pass", "p1 pass", "p0 declare j", "p1 declare 9")
    assert state.tricks[0].declared == [11, 9]
    assert state.to_move == (1,)  # only the loser may challenge (GSK-8)
    play(state, "p1 challenge")
    assert state.tricks[0].challenge_answer == 0  # "not accurate": the 6 was declared a Jack
    obs = state.game.views.observation(state, 1)
    assert obs["tricks"][0]["challenge"] == "not accurate"
    assert "6S" not in str(obs)  # the true rank is never shown
    assert state.is_chance and state.draw_from == 0 and state.draw_to == 1
    play(state, "9S")  # P2 draws 9S from P1's hand: shown to all, into P2's pile
    assert pile(state, 1) == ["9S"] and state.pile_knowers[1] == [PUBLIC]
    assert len(state.piles[0]) == 6  # P1 still collects the trick (GSK-9)
    assert len(state.hands[0]) == 9 and len(state.hands[1]) == 10


def test_gsk_example_4_challenge_fails_king_exposed() -> None:
    state = new_game()
    play(state, "p0 AS 6S 2S", "p1 3H 8H QH", "p0 pass", "p1 pass")
    play(state, "p0 declare 6", "p1 declare 5", "p1 challenge")
    assert state.tricks[0].challenge_answer == 1  # accurate
    assert state.draw_from == 1 and state.draw_to == 0  # P1 draws from P2's hand
    play(state, "KH")
    assert state.is_terminal
    assert state.winners == (0,) and state.returns() == [1.0, 0.0]
    assert "KH" in [
        str(c) for c, m in zip(state.removed, state.removed_knowers, strict=True) if m == PUBLIC
    ]


def test_gsk_example_5_double_draw_tie_king_recovered() -> None:
    state = new_game()
    play(state, "p0 7S KS 9S", "p1 9H 2H 7H")
    assert state.tricks[0].columns == (0, 0) and state.tricks[0].skirmish_result == PUSH
    play(state, "p0 pass", "p1 pass", "p0 declare a", "p1 declare a")
    assert state.tricks[0].redeclarations == 1 and state.to_move == (0, 1)  # declare again
    play(state, "p0 declare a", "p1 declare q")
    play(state, "p1 pass")  # no challenge
    assert "KS" in pile(state, 0) and len(state.piles[0]) == 6
    # Three more tricks without steals; each keeps one card and the hand ends.
    play(state, "p1 3H 4H 5H", "p0 AS 2S QS", "p1 pass", "p0 pass")
    play(state, "p0 JS 3S 10S", "p1 6H 8H 10H", "p0 pass", "p1 pass")
    play(state, "p1 JH QH AH", "p0 4S 5S 6S", "p1 pass", "p0 pass")
    assert state.hand_number == 2 and all(state.active)
    assert "KS" in hand(state, 0)  # his own King came back to him, unrevealed (GSK-19)
    assert "KS" not in [str(c) for c in state.removed]


def test_gsk_example_6_route_success() -> None:
    state = new_game()
    play(state, "p0 10S KS 8S", "p1 7H 5H 3H", "p0 pass", "p1 route")
    assert state.is_terminal
    assert state.winners == (1,)
    assert state.tricks[0].face_up[0][1]  # the routed King is face up for all


def test_gsk_example_7_route_failure() -> None:
    state = new_game()
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H", "p0 pass", "p1 route")
    assert state.is_chance and state.draw_from == 1 and state.draw_to == 0
    play(state, "JH")  # P1 draws JH from P2's hand, shown, into P1's pile
    assert state.routes_used == [0, 1]
    assert sorted(pile(state, 0)) == sorted(["JH", "10S", "2S", "8S", "7H", "5H", "3H"])
    face_up = state.game.views.observation(state, 1)["players"][0]["pile_face_up"]
    assert set(face_up) == {"JH", "10S", "2S", "8S", "7H", "3H"}  # 2S was turned up
    assert len(state.hands[0]) == 10 and len(state.hands[1]) == 9
    # The route is used for this hand: no window for P2 in the next trick.
    play(state, "p1 2H 4H 6H", "p0 3S 4S 5S")
    assert 1 not in state.to_move


def _end_of_hand_tricks(middle: str) -> list[str]:
    return [
        f"p0 2S {middle} 3S",
        "p1 AH 2H QH",
        "p0 pass",
        "p1 pass",
        "p1 3H 4H 5H",
        "p0 AS 4S QS",
        "p1 pass",
        "p0 pass",
        "p0 JS 5S 10S",
        "p1 6H 7H 8H",
        "p0 pass",
        "p1 pass",
        "p1 9H 10H JH",
        "p0 6S 7S 8S",
        "p1 pass",
        "p0 pass",
    ]


def test_gsk_example_8_end_of_hand_king_found() -> None:
    state = new_game()
    play(state, *_end_of_hand_tricks("KS"))
    # Each player has one card left, so the hand ended before trick 5: KS was in P2's pile.
    assert state.is_terminal
    assert state.winners == (1,)
    assert state.tricks_played == 4
    assert "KS" in [
        str(c) for c, m in zip(state.removed, state.removed_knowers, strict=True) if m == PUBLIC
    ]


def test_gsk_example_8_end_of_hand_without_a_rival_king() -> None:
    state = new_game(routes_per_hand=2)
    play(state, *_end_of_hand_tricks("9S"))
    assert not state.is_terminal and state.hand_number == 2
    assert hand(state, 0).count("KS") == 1 and len(state.hands[0]) == 1 + 12
    assert "KH" in hand(state, 1) and len(state.hands[1]) == 1 + 12
    assert state.routes_used == [0, 0] and not state.piles[0] and not state.piles[1]


def test_gsk_example_9_too_few_cards() -> None:
    state = new_game()
    play(state, "p0 2S 3S 4S", "p1 5H KH 6H", "p0 pass", "p1 route")
    play(state, "2H")  # the failed route: P1 draws 2H into his pile
    play(state, "p1 8H 3H 9H", "p0 5S 6S 7S", "p0 pass")
    play(state, "p0 8S 9S 10S", "p1 JH 4H 10H", "p0 pass")
    play(state, "p1 AH 7H QH", "p0 JS AS QS", "p0 pass")
    # End of hand: P1 holds KS, his pile holds 2H: a merged hand of 2 < 3.
    assert state.is_terminal
    assert state.winners == (1,)
    assert state.tricks_played == 4


def test_gsk_example_10_exposed_king() -> None:
    state = new_game()
    play(state, "p0 KS 4S 9S", "p1 2H 3H 4H")
    assert state.is_terminal and state.winners == (1,)


def test_gsk_example_11_three_player_schedule() -> None:
    state = new_game(3)
    pairs = []

    def trick(*steps: str) -> None:
        pairs.append(state.tricks[0].seats)
        play(state, *steps)

    trick("p0 2S 3S 4S", "p1 AH 5H QH", "p0 pass", "p1 pass")  # A-B: B wins
    trick("p1 2H 3H 4H", "p2 AD 5D QD", "p1 pass", "p2 pass")  # B-C: C wins
    trick("p2 2D 3D 4D", "p0 AS 5S QS", "p2 pass", "p0 pass")  # C-A: A wins
    trick("p0 6S 7S 8S", "p1 9H 6H 10H", "p0 pass", "p1 pass")  # A-B: B wins
    assert [len(h) for h in state.hands] == [4, 4, 7]
    trick("p1 7H 8H JH", "p2 JD 6D 10D", "p1 pass", "p2 pass")  # B-C: C wins
    assert pairs == [(0, 1), (1, 2), (2, 0), (0, 1), (1, 2)]
    # A 4, B 1, C 4 cards: B < 3, so the hand ended after 5 tricks.
    assert state.hand_number == 2 and state.tricks_played == 5
    assert [len(h) for h in state.hands] == [4 + 6, 1 + 12, 4 + 12]
    assert state.tricks[0].seats == (2, 0)  # the schedule carries on: C-A


def test_gsk_example_12_four_to_three_relabel() -> None:
    state = new_game(4)
    assert [t.seats for t in state.tricks] == [(0, 1), (2, 3)]  # R1 = {A-B, C-D}
    play(state, "p0 2S 3S 4S", "p1 AH 5H QH", "p2 2D 3D 4D", "p3 AC 5C QC")
    play(state, "p0 pass", "p1 pass", "p2 pass", "p3 pass")
    assert [t.seats for t in state.tricks] == [(1, 2), (3, 0)]  # R2 = {B-C, D-A}
    play(state, "p1 2H 3H 4H", "p2 AD 5D QD", "p3 2C KC 3C", "p0 AS 5S QS")
    play(state, "p1 pass", "p2 pass")  # B-C first: C wins it
    assert state.tricks[0].collector == 1
    play(state, "p3 pass", "p0 route")  # A routes D's middle card: KC, D is out
    assert not state.active[3]
    # New letters: A = old C (winner of the other trick), B = old B, C = old A (eliminator).
    assert state.schedule == 3 and state.seat_of_letter == (2, 1, 0)
    pairs = []
    for _ in range(3):
        t = state.tricks[0]
        pairs.append(t.seats)
        x, y = t.seats
        play(state, f"p{x} {low_cards(state, x)}", f"p{y} {low_cards(state, y)}")
        finish_trick(state)
    assert pairs == [(2, 1), (1, 0), (0, 2)]
