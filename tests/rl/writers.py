"""A game's observation writer read back as the vector it stands for, and held to the view's:
what the games' own writer tests share."""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
from librt.strings import BytesWriter

from courtly.core.game import Game, State
from courtly.rl.tensors import TensorWriter, observation_tensor, summed
from tests.core.test_contract import sampled_states


def written_vector(
    write_tensor: TensorWriter, state: State, seat: int, size: int
) -> npt.NDArray[np.float32]:
    """What ``write_tensor`` writes of ``seat``'s observation, as its float32 vector."""
    ones, pairs = BytesWriter(), BytesWriter()
    write_tensor(state, seat, ones, pairs)
    return summed(ones.getvalue(), pairs.getvalue(), size).astype(np.float32)


def check_writer_against_views(write_tensor: TensorWriter, game: Game, seed: int) -> None:
    """Along a seeded random game, every seat: the writer's vector of the true state, and of a
    world the seat cannot tell from it, is the layout's vector of the seat's view."""
    size = game.tensor_layout().size
    rng = random.Random(seed)
    for state in sampled_states(game, seed, every=1):
        for seat in range(game.num_players):
            view = state.view(seat)
            expected = observation_tensor(view)
            for seen in (state, view.determinize(rng)):
                assert np.array_equal(written_vector(write_tensor, seen, seat, size), expected)
