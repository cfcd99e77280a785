"""The draws of Royal Gambit: a seed gives the same games as it always did, and a card leaves the
deck from where it lay whoever names it (the sampler's fast path or a person's text)."""

from __future__ import annotations

import random

import pytest

import courtly
from courtly.core.game import sample_chance
from courtly.games.royal_gambit.rules import RoyalGambitState

from ..digests import random_games_digest

GAMES_OF_SEED = {
    2: "61250ad9de46fc62",
    3: "d6aa92e58186d08c",
    4: "cf6ab13dc98ec21c",
    5: "1dd0dcc009298ffe",
}
"""A digest of five random games per player count (seed = the player count), played before the
chance nodes were made faster: the speed-up changed no draw."""


@pytest.mark.parametrize("players", sorted(GAMES_OF_SEED))
def test_a_seed_plays_the_games_it_always_played(players: int) -> None:
    assert random_games_digest("royal-gambit", players) == GAMES_OF_SEED[players]


def test_a_card_leaves_the_deck_from_where_it_lay_whoever_names_it() -> None:
    rng = random.Random(3)
    state = courtly.make("royal-gambit", players=3).new_state()
    assert isinstance(state, RoyalGambitState)
    draws = 0
    while not state.is_terminal and draws < 200:
        if state.is_chance:
            typed = state.clone()
            sample_chance(state, rng)  # the sampler's index of the card
            typed.apply_chance(str(state.history[-1][1]))  # a card named from outside
            assert isinstance(typed, RoyalGambitState)
            assert typed.deck == state.deck and typed.to_json() == state.to_json()
            draws += 1
        else:
            seat = state.to_move[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert draws == 200 or state.is_terminal
