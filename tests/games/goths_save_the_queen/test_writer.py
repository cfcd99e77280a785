"""The observation writer (``writer.write_tensor``) keeps what a game's tables fix (the seats,
the King card backs, the safety cap) from one call to the next: a state of another game, of
other options, must still be written as its own seat's view, whichever game came before."""

from __future__ import annotations

import itertools

import numpy as np

from courtly.core import make
from courtly.games.goths_save_the_queen.writer import write_tensor
from courtly.rl.tensors import observation_tensor
from tests.core.test_contract import sampled_states
from tests.rl.writers import written_vector

# Each differs from the others in what the writer keeps per game; the last two are the same
# options in two games (their tables are two objects).
GAMES = [
    ("goths-save-the-queen", 4, {}),
    ("goths-save-the-queen", 4, {"king_backs": "vr,vb,rv,rc,cr,cb,bc,bv", "safety_cap": 6}),
    ("goths-save-the-queen", 3, {"fog_of_war": True, "solo_clans": "ostrogoths"}),
    ("goths-save-the-queen", 3, {"solo_clans": "visigoths"}),
    ("goths-save-the-queen", 2, {"safety_cap": 9}),
    ("goths-save-the-queen", 2, {"safety_cap": 9}),
]


def test_games_written_in_turn_each_write_their_own_view() -> None:
    games = [make(game_id, players=players, **options) for game_id, players, options in GAMES]
    states = [sampled_states(game, seed, every=3) for seed, game in enumerate(games)]
    checked = 0
    # One state of each game in turn, then the next of each: no call follows one of its game.
    for row in itertools.zip_longest(*states):
        for game, state in zip(games, row, strict=True):
            if state is None:
                continue
            size = game.tensor_layout().size
            for seat in range(game.num_players):
                expected = observation_tensor(state.view(seat))
                assert np.array_equal(written_vector(write_tensor, state, seat, size), expected)
                checked += 1
    assert checked > 100
