"""The King's Court heuristic bot: legal, strong against random, and doing what it says."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.agents.random_agent import RandomAgent
from courtly.core.game import Agent
from courtly.core.match import play_match
from courtly.games.kings_court import KingsCourtHeuristic
from courtly.games.kings_court.rules import KingsCourtState

from .helpers import arrange, new_game, play


def _choice(state: KingsCourtState, seat: int = 0) -> str:
    bot = KingsCourtHeuristic(state.game)
    return str(bot.act(state.view(seat), random.Random(0)))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_plays_whole_games_legally(players: int) -> None:
    game = courtly.make("kings-court", players=players, initial_hand_size=2)
    agents = [KingsCourtHeuristic(game) for _ in range(players)]
    for seed in range(3):
        record = play_match(game, agents, seed)
        assert abs(sum(record.returns) - 1) < 1e-9


def test_beats_random_in_most_two_player_games() -> None:
    game = courtly.make("kings-court", players=2)
    wins = 0.0
    for seed in range(40):
        seat = seed % 2
        agents: list[Agent] = [RandomAgent(game), RandomAgent(game)]
        agents[seat] = KingsCourtHeuristic(game)
        wins += play_match(game, agents, seed).returns[seat]
    assert wins >= 32


def test_races_when_the_own_cards_reach_the_end() -> None:
    state = new_game(2)
    arrange(state, positions={0: 14}, hands={0: "9H"})
    play(state, "7H")
    assert _choice(state) == "play 9H"  # 14 + 9 + 7 = 30
    play(state, "p0 play 9H")
    assert _choice(state) == "play 7H"


def test_hoards_own_cards_that_do_not_reach_the_end() -> None:
    state = new_game(2)
    arrange(state, positions={0: 4}, hands={0: "9H"})
    play(state, "7H")
    assert _choice(state) == "end"


def test_keeps_back_cards_for_a_pawn_worth_moving_back() -> None:
    state = new_game(2)
    play(state, "9S")
    assert _choice(state) == "end"  # p1 is on the start: nothing to take off
    state2 = new_game(2)
    arrange(state2, positions={1: 12})
    play(state2, "9S")
    assert _choice(state2) == "play 9S"


def test_holds_back_cards_for_the_leader() -> None:
    state = new_game(4)
    arrange(state, positions={1: 4, 2: 20}, hands={0: "2C"})
    play(state, "6S")
    assert _choice(state) == "play 2C"  # the leader first
    play(state, "p0 play 2C")
    assert _choice(state) == "end"  # 6S on p1 (on 4) would waste most of it: kept


def test_swaps_with_the_leader() -> None:
    state = new_game(4)
    arrange(state, positions={0: 3, 1: 10, 2: 22, 3: 5})
    play(state, "JH")
    assert _choice(state) == "play JH p2"


def test_queen_and_king_go_to_the_most_dangerous_rival() -> None:
    state = new_game(4)
    arrange(state, positions={1: 6, 2: 21, 3: 2}, hands={1: "2S", 2: "3C 4C", 3: "5D"})
    play(state, "QH")
    assert _choice(state) == "play QH p2"
    state2 = new_game(4)
    arrange(state2, positions={1: 6, 2: 21, 3: 2}, hands={1: "2S 3S", 2: "3C 4C", 3: "5D 6D"})
    play(state2, "KH")
    assert _choice(state2) == "play KH p2"


def test_borrows_the_winning_card() -> None:
    state = new_game(2)
    arrange(state, positions={0: 24}, hands={1: "3S 6H KS"})
    play(state, "QS", "p0 play QS p1")
    assert _choice(state) == "borrow 6H"


def test_evaluate_is_a_distribution_favouring_the_leader() -> None:
    state = new_game(3)
    arrange(state, positions={0: 25, 1: 3})
    bot = KingsCourtHeuristic(state.game)
    values = bot.evaluate(state)
    assert sum(values) == pytest.approx(1.0)
    assert values[0] > values[1] > values[2]


def test_breaks_ties_between_equally_good_moves_with_its_rng() -> None:
    # p1 and p2 are equally dangerous (same place, same hand size): a Queen of hearts may look
    # at either, and p3's empty hand is not worth it.
    state = new_game(4)
    arrange(state, positions={1: 10, 2: 10}, hands={1: "2S 3S", 2: "2C 3C"})
    play(state, "QH")
    bot = KingsCourtHeuristic(state.game)
    chosen = {str(bot.act(state.view(0), random.Random(seed))) for seed in range(40)}
    assert chosen == {"play QH p1", "play QH p2"}
    again = [str(bot.act(state.view(0), random.Random(7))) for _ in range(3)]
    assert len(set(again)) == 1  # the same rng, the same choice


def test_equally_dangerous_rivals_are_both_leaders() -> None:
    # A back-card for either of two rivals tied for the lead weighs the same.
    state = new_game(3)
    arrange(state, positions={1: 14, 2: 14}, hands={0: "5S"})
    play(state, "5C")
    bot = KingsCourtHeuristic(state.game)
    chosen = {str(bot.act(state.view(0), random.Random(seed))) for seed in range(40)}
    assert chosen == {"play 5S", "play 5C"}
