"""docs/rules/kings-court.md §7: every option of King's Court, and the checks on option values."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.core.match import play_randomly
from courtly.games.kings_court.components import DEAL, DRAW
from courtly.games.kings_court.rules import KingsCourtState

from .helpers import arrange, hand, new_game, play


def test_defaults() -> None:
    game = courtly.make("kings-court")
    assert game.num_players == 2
    assert dict(game.options) == {
        "track_length": 30,
        "initial_hand_size": 0,
        "prefilter_unused_suits": True,
        "pushback_cap": 0,
        "march": 0,
        "hand_limit": 0,
        "track_cut": 0,
        "safety_cap": 500,
    }


@pytest.mark.parametrize("players", [2, 3, 4])
def test_num_players(players: int) -> None:
    game = courtly.make("kings-court", num_players=players)
    assert game.num_players == players
    state = game.new_state()
    assert [str(o) for o, _ in state.chance_outcomes()] == [f"p{s}" for s in range(players)]


@pytest.mark.parametrize("players", [1, 5])
def test_num_players_out_of_range(players: int) -> None:
    with pytest.raises(courtly.InvalidOptions, match="2–4"):
        courtly.make("kings-court", num_players=players)


@pytest.mark.parametrize(
    "options",
    [
        {"track_length": 0},
        {"initial_hand_size": 14},
        {"initial_hand_size": -1},
        {"max_turns": 0},
        {"prefilter_unused_suits": "maybe"},
        {"track": 20},
    ],
)
def test_bad_option_values(options: dict[str, object]) -> None:
    with pytest.raises(courtly.InvalidOptions):
        courtly.make("kings-court", **options)


# ------------------------------------------------------------------------------ track_length


def test_track_length_moves_the_finish() -> None:
    state = new_game(2, track_length=10)
    arrange(state, positions={0: 3})
    play(state, "6H", "p0 play 6H")
    assert state.positions[0] == 9 and not state.is_terminal
    play(state, "p0 end", "2S", "p1 end", "AH", "p0 play AH")
    assert state.positions[0] == 10
    assert state.winners == (0,)
    assert "first to 10" in state.render(None)


def test_long_track_is_drawn_to_scale() -> None:
    state = new_game(2, track_length=200)
    arrange(state, positions={0: 150})
    lines = state.render(None).splitlines()
    lanes = [line for line in lines if "|" in line]
    assert len(lanes) == 2
    assert all(len(line) < 110 for line in lanes)
    assert "o" in lanes[0] and " 150 " in lanes[0]


# ------------------------------------------------------------------------------ initial_hand_size


def test_initial_hand_size_deals_from_the_start_player_round() -> None:
    state = courtly.make("kings-court", players=3, initial_hand_size=2).new_state()
    assert isinstance(state, KingsCourtState)
    play(state, "p1")  # the cut: p1 starts, and is dealt to first
    assert state.phase == DEAL and state.is_chance
    play(state, "2S", "2C", "2H", "3S", "3C", "3H")
    assert [hand(state, s) for s in range(3)] == [["2H", "3H"], ["2S", "3S"], ["2C", "3C"]]
    assert state.phase == DRAW and state.drawer == 1
    # Dealt cards are private like draws.
    assert state.log(0)[1:4] == [["chance", "?"], ["chance", "?"], ["chance", "2H"]]
    play(state, "4S")
    assert state.to_move == (1,)
    assert hand(state, 1) == ["2S", "3S", "4S"]


def test_no_initial_hand_by_default() -> None:
    state = new_game(2)
    assert state.phase == DRAW
    assert state.hands == [[], []]


# ------------------------------------------------------------------------------ prefilter_unused_suits


@pytest.mark.parametrize(("players", "size"), [(2, 26), (3, 39), (4, 52)])
def test_prefilter_removes_unowned_suits(players: int, size: int) -> None:
    state = new_game(players)
    assert len(state.chance_outcomes()) == size
    assert len(state.draw_pile) == size


def test_without_prefilter_an_unowned_card_is_removed_when_drawn() -> None:
    state = new_game(2, prefilter_unused_suits=False)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 52
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    # Drawn in public, set aside, and the same player draws again.
    assert state.narrate(courtly.CHANCE, courtly.Card.parse("5D"), 1) == (
        "p0 draws 5D: nobody plays diamonds, so it leaves the game and p0 draws again (KC-2)."
    )
    play(state, "5D")
    assert state.is_chance and state.drawer == 0
    assert len(state.chance_outcomes()) == 51  # the same player draws again
    play(state, "KC", "7H")
    assert hand(state, 0) == ["7H"]
    assert state.game.views.observation(state, 1)["removed"] == ["5D", "KC"]
    assert state.log(1)[-3:] == [["chance", "5D"], ["chance", "KC"], ["chance", "?"]]
    assert state.to_move == (0,)


def test_without_prefilter_games_still_end_and_never_hold_unowned_cards() -> None:
    game = courtly.make("kings-court", players=3, prefilter_unused_suits=False)
    for seed in range(5):
        state = game.new_state()
        play_randomly(state, random.Random(seed))
        assert state.is_terminal
        assert all(courtly.Card(c).suit != 2 for h in state.hands for c in h)  # no diamonds
        assert all(courtly.Card(c).suit == 2 for c in state.removed)


# ------------------------------------------------------------------------------ max_turns


def test_max_turns_farthest_pawn_wins() -> None:
    state = new_game(2, max_turns=2)
    play(state, "5H", "p0 play 5H", "p0 end", "3S", "p1 play 3S")
    assert not state.is_terminal
    assert state.narrate(1, state.tables.end, None) == (
        "p1 ends the turn.\n"
        "That was turn 2, the safety cap: the game stops (KC-18).\n"
        "p0 wins with the farthest pawn, on space 5.\n"
        "Every hand is shown: p0 holds no card; p1 holds no card."
    )
    play(state, "p1 end")
    assert state.is_terminal
    assert state.turns_played == 2
    assert state.returns() == [1.0, 0.0]


def test_max_turns_equal_pawns_share() -> None:
    state = new_game(3, max_turns=3)
    play(state, "4H", "p0 play 4H", "p0 end", "4S", "p1 play 4S", "p1 end", "2C", "p2 end")
    assert state.is_terminal
    assert state.returns() == [0.5, 0.5, 0.0]
    assert state.winners == (0, 1)
    assert "share the win" in state.render(None)
