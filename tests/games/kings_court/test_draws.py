"""The draws of King's Court: a seed gives the same games as it always did, and a card leaves the
draw pile from where it lay whoever names it (the sampler's fast path or a person's text)."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.core.game import sample_chance
from courtly.games.kings_court.rules import KingsCourtState

from ..digests import random_games_digest

GAMES_OF_SEED = {2: "2555bb88fb5dd6fb", 3: "a4f45b098fba2064", 4: "b31a52b3c57af092"}
"""A digest of five random games per player count (seed = the player count), played before the
rules were split and the draws made faster: neither changed a draw."""


@pytest.mark.parametrize("players", sorted(GAMES_OF_SEED))
def test_a_seed_plays_the_games_it_always_played(players: int) -> None:
    assert random_games_digest("kings-court", players) == GAMES_OF_SEED[players]


def test_a_card_leaves_the_pile_from_where_it_lay_whoever_names_it() -> None:
    rng = random.Random(3)
    state = courtly.make("kings-court", players=3).new_state()
    assert isinstance(state, KingsCourtState)
    draws = 0
    while not state.is_terminal and draws < 150:
        if state.is_chance:
            typed = state.clone()
            sample_chance(state, rng)  # the sampler's index of the card
            typed.apply_chance(str(state.history[-1][1]))  # a card named from outside
            assert isinstance(typed, KingsCourtState)
            assert typed.draw_pile == state.draw_pile and typed.to_json() == state.to_json()
            draws += 1
        else:
            seat = state.to_move[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert draws == 150 or state.is_terminal
