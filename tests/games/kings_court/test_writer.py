"""The observation writer (``writer.write_tensor``) against the layout of the seat's view, with
the options that change what it reads: a track shortened past two players (a position keeps the
whole track's scale), unowned suits drawn and set aside, a hand limit's discards, dealt hands, a
safety cap that ends the game with pawns level."""

from __future__ import annotations

import numpy as np
import pytest

from courtly.core import make
from courtly.games.kings_court.writer import write_tensor
from courtly.rl.tensors import observation_tensor
from tests.core.test_contract import sampled_states
from tests.rl.writers import check_writer_against_views, written_vector

VARIANTS: list[tuple[int, dict[str, object]]] = [
    (3, {"track_cut": 5}),
    (4, {"track_cut": 5, "march": 2}),
    (2, {"prefilter_unused_suits": False}),
    (3, {"prefilter_unused_suits": False, "initial_hand_size": 5}),
    (4, {"hand_limit": 3, "initial_hand_size": 6, "pushback_cap": 2}),
    (2, {"safety_cap": 4, "initial_hand_size": 4}),
]


@pytest.mark.parametrize(
    ("players", "options"),
    VARIANTS,
    ids=[f"{n}p-{'-'.join(options)}" for n, options in VARIANTS],
)
@pytest.mark.parametrize("seed", range(3))
def test_the_writer_writes_the_view_with_every_option(
    players: int, options: dict[str, object], seed: int
) -> None:
    check_writer_against_views(write_tensor, make("kings-court", players=players, **options), seed)


# The writer keeps the scale of the positions of the game it wrote last: states of games whose
# tracks differ, written in turn, must each keep their own.
def test_games_written_in_turn_each_write_their_own_positions() -> None:
    games = [
        make("kings-court", players=3, track_cut=5),
        make("kings-court", players=3, track_length=12, track_cut=1),
        make("kings-court", players=3, track_cut=5),
    ]
    played = [sampled_states(game, seed, every=2) for seed, game in enumerate(games)]
    rows = zip(*played, strict=False)  # as far as the shortest game: a state of each a row
    for row in rows:
        for game, state in zip(games, row, strict=True):
            size = game.tensor_layout().size
            for seat in range(3):
                vector = written_vector(write_tensor, state, seat, size)
                assert np.array_equal(vector, observation_tensor(state.view(seat)))
