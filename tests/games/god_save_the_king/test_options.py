"""docs/rules/god-save-the-king.md §11: one test (at least) per option of God Save The King."""

from __future__ import annotations

import pytest

import courtly
from courtly.games.god_save_the_king.components import D_FORM, D_ROUTE, PUBLIC

from .helpers import hand, legal, new_game, pile, play

PUSH_FORMATIONS = ("p0 7S KS 9S", "p1 9H 2H 7H")  # 7 v 7, 9 v 9: a push


def test_options_are_declared_with_their_defaults() -> None:
    game = courtly.make("god-save-the-king")
    assert game.options == {
        "max_redeclare": 2,
        "routes_per_hand": 1,
        "route_window": "after_skirmish",
        "trick_pile_private_until_hand_end": True,
        "exposed_king_legal": True,
        "safety_cap": 300,
    }
    assert courtly.make("god-save-the-king", num_players=3).num_players == 3
    with pytest.raises(courtly.InvalidOptions, match="route_window"):
        courtly.make("god-save-the-king", route_window="sometimes")
    with pytest.raises(courtly.InvalidOptions, match="2–4"):
        courtly.make("god-save-the-king", players=5)


def test_max_redeclare_default_allows_two_more_rounds_then_void() -> None:
    state = new_game()
    play(state, *PUSH_FORMATIONS, "p0 pass", "p1 pass")
    for round_ in range(3):
        assert state.tricks[0].redeclarations == round_
        play(state, "p0 declare k", "p1 declare k")
    # Still tied after 2 extra rounds: a void trick, each takes his own cards, no challenge.
    assert pile(state, 0) == ["7S", "KS", "9S"]
    assert pile(state, 1) == ["9H", "2H", "7H"]
    assert state.pile_knowers[0] == [PUBLIC, 1 << 0, PUBLIC]  # his King stays face down, his own
    assert state.decision == D_FORM and state.tricks[0].seats == (1, 0)


def test_max_redeclare_zero_voids_at_the_first_tie() -> None:
    state = new_game(max_redeclare=0)
    play(state, *PUSH_FORMATIONS, "p0 pass", "p1 pass", "p0 declare 3", "p1 declare 3")
    assert pile(state, 0) == ["7S", "KS", "9S"] and pile(state, 1) == ["9H", "2H", "7H"]
    assert state.decision == D_FORM


def test_max_redeclare_one_then_a_winner() -> None:
    state = new_game(max_redeclare=1)
    play(state, *PUSH_FORMATIONS, "p0 pass", "p1 pass", "p0 declare 3", "p1 declare 3")
    play(state, "p0 declare 4", "p1 declare 3", "p1 pass")
    assert len(state.piles[0]) == 6


def test_routes_per_hand_zero_means_no_route_window() -> None:
    state = new_game(routes_per_hand=0)
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H")
    assert state.decision == D_FORM  # collected at once: nobody was asked to route
    assert len(state.piles[0]) == 6
    assert "route" not in [str(a) for a in state.game.actions if str(a).startswith("route ")]


def test_routes_per_hand_two_then_reset_at_the_next_hand() -> None:
    state = new_game(routes_per_hand=2)
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H", "p0 pass", "p1 route", "JH")
    play(state, "p1 2H 4H 6H", "p0 7S 4S 3S", "p1 route", "p0 pass", "8H")
    assert state.routes_used == [0, 2]
    play(state, "p0 5S 6S 9S", "p1 9H 10H QH")
    assert state.to_move == (0,) and state.decision == D_ROUTE  # p1 has no route left
    play(state, "p0 pass")
    # p1 is down to KH AH: the hand ended, and routes are available again.
    assert state.hand_number == 2
    assert state.routes_used == [0, 0]
    assert state.decision == D_FORM


def test_route_window_before_reveal_targets_any_face_down_card() -> None:
    state = new_game(route_window="before_reveal")
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H")
    assert (
        state.decision == D_ROUTE and state.tricks[0].skirmish_result == -1
    )  # nothing revealed yet
    assert legal(state, 1) == ["route left", "route middle", "route right", "pass"]
    view = state.view(1).observation()
    assert "10S" not in str(view) and "8S" not in str(view)
    play(state, "p0 pass", "p1 route left")  # p1 names p0's left card: 10S, no King
    assert state.tricks[0].face_up[0][0]
    play(state, "4H")  # p0 draws 4H from p1's hand
    # Then the reveal: p0 wins both columns and collects (with the 4H he drew).
    assert len(state.piles[0]) == 7 and state.decision == D_FORM


def test_route_window_before_reveal_finds_a_king_anywhere() -> None:
    state = new_game(route_window="before_reveal")
    play(state, "p0 2S 3S KS", "p1 7H 5H 3H", "p0 pass", "p1 route right")
    assert state.is_terminal and state.winners == (1,)


def test_trick_piles_private_by_default() -> None:
    state = new_game()
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H", "p0 pass", "p1 pass")
    assert state.game.views.observation(state, 0)["players"][0]["pile_unseen"] == 1
    assert "5H" in {str(c) for c in state.game.views.secret_cards(state, 0)}


def test_trick_piles_open_to_their_owner_when_the_option_is_off() -> None:
    state = new_game(trick_pile_private_until_hand_end=False)
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H", "p0 pass", "p1 pass")
    mine = state.game.views.observation(state, 0)["players"][0]
    assert mine["pile_unseen"] == 0 and "5H" in mine["pile_known_to_you"]
    assert "5H" not in {str(c) for c in state.game.views.secret_cards(state, 0)}
    # ... but not to the spectator, and p1 still knows his own card.
    assert state.game.views.observation(state, None)["players"][0]["pile_unseen"] == 2
    # The log now shows p0 which card p1 laid in the middle.
    assert ["p1", "form middle 5H"] in state.log(0)
    assert ["p1", "form middle 5H"] not in state.log(None)


def test_exposed_king_illegal_keeps_the_king_out_of_the_outside_slots() -> None:
    state = new_game(exposed_king_legal=False)
    assert "form left KS" not in legal(state, 0)
    with pytest.raises(courtly.IllegalAction, match="only go in the middle"):
        state.apply(0, "form left KS")
    play(state, "p0 AS 2S QS")
    assert "form left KH" not in legal(state, 1)
    play(state, "p1 3H 2H 4H", "p0 pass", "p1 pass")  # p0 wins
    play(state, "p1 5H 6H 7H", "p0 3S 4S 5S", "p1 pass", "p0 pass")  # p1 wins
    play(state, "p0 6S 7S 8S", "p1 AH 8H QH", "p0 pass", "p1 pass")  # p1 wins
    assert hand(state, 0) == ["9S", "10S", "JS", "KS"]
    assert "form left KS" not in legal(state, 0)


def test_exposed_king_illegal_forces_the_king_into_the_middle() -> None:
    state = new_game(exposed_king_legal=False)
    # p0 loses a card to a challenge, so after three tricks he holds exactly three.
    play(state, "p0 AS 6S 2S", "p1 3H 8H QH", "p0 pass", "p1 pass")
    play(state, "p0 declare j", "p1 declare 9", "p1 challenge", "3S")
    play(state, "p1 2H 4H 5H", "p0 7S 4S 5S", "p1 pass", "p0 pass")
    play(state, "p0 10S 8S 9S", "p1 6H 7H 9H", "p0 pass", "p1 pass")
    assert hand(state, 0) == ["JS", "QS", "KS"]
    assert legal(state, 0) == ["form left JS", "form left QS"]
    play(state, "p0 JS")
    assert legal(state, 0) == ["form middle KS"]  # else the King would be left for the right
    with pytest.raises(courtly.IllegalAction, match="must go in the middle"):
        state.apply(0, "form middle QS")
    play(state, "p0 KS QS")
    assert [str(c) for c in state.tricks[0].formations[state.side_of_seat[0]]] == ["JS", "KS", "QS"]


def test_max_tricks_caps_the_game_most_cards_wins() -> None:
    state = new_game(max_tricks=1)
    play(state, "p0 10S 2S 8S", "p1 7H 5H 3H", "p0 pass", "p1 pass")
    assert state.is_terminal
    assert state.winners == (0,)  # 10 + 6 cards against 10


def test_max_tricks_tie_is_a_shared_win() -> None:
    state = new_game(max_tricks=1, max_redeclare=0)
    play(state, *PUSH_FORMATIONS, "p0 pass", "p1 pass", "p0 declare 5", "p1 declare 5")
    assert state.is_terminal and state.returns() == [0.5, 0.5]
