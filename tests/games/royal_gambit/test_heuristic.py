"""The Royal Gambit heuristic bot: legal whole games, and ties broken with its rng."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.core.cards import Card
from courtly.core.match import play_match
from courtly.games.royal_gambit import RoyalGambitHeuristic
from courtly.games.royal_gambit.components import RANK
from courtly.games.royal_gambit.rules import RoyalGambitState

from .helpers import legal, new_game, play


def _choices(state: RoyalGambitState, seat: int, seeds: int = 40) -> set[str]:
    bot = RoyalGambitHeuristic(state.game)
    return {str(bot.act(state.view(seat), random.Random(seed))) for seed in range(seeds)}


@pytest.mark.parametrize("players", [2, 3, 5])
def test_plays_whole_games_legally(players: int) -> None:
    game = courtly.make("royal-gambit", players=players)
    agents = [RoyalGambitHeuristic(game) for _ in range(players)]
    for seed in range(3):
        record = play_match(game, agents, seed)
        assert abs(sum(record.returns) - 1) < 1e-9


def test_gives_the_seven_to_either_of_two_equal_rivals() -> None:
    state = new_game(3)
    play(state, "p0 hit", "7H")
    assert legal(state, 0) == ["give-7 p1", "give-7 p2"]
    assert _choices(state, 0) == {"give-7 p1", "give-7 p2"}


def test_gives_the_seven_to_the_rival_with_most_to_lose() -> None:
    state = new_game(3)
    play(state, "p0 hit", "5S", "p1 hit", "2S", "p2 hit", "7H")
    assert _choices(state, 2) == {"give-7 p0"}  # a row of 5 against a row of 2


def test_hit_or_stay_as_good_either_way_is_left_to_the_rng() -> None:
    state = new_game(2)
    play(state, "p0 hit", "6S", "p1 hit", "2S")
    # Only 6s are left: a hit busts p0 for sure, but his row scores 0 anyway.
    state.deck[:] = [Card.parse(text) for text in ("6H", "6D", "6C")]
    state.left[:] = [3 if rank == 6 else 0 for rank in range(15)]
    assert [RANK[c] for c in state.deck] == [6, 6, 6]
    assert _choices(state, 0) == {"hit", "stay"}
    state.rows[0].append(Card.parse("3S"))  # now the row scores: stay
    state.row_ranks[0] |= 1 << 3
    state.row_points[0] = 3
    assert _choices(state, 0) == {"stay"}
