"""Tensors from views: a fixed-size float32 vector per seat that shows every word of
the observation, is the same in every world the seat cannot tell apart, and a mask that is the
legal actions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from courtly.core import games, make
from courtly.core.game import Game
from courtly.rl.tensors import action_mask, layout_table, observation_shape, observation_tensor
from tests.core.test_contract import sampled_states

CASES = [
    (info.id, n) for info in games() if info.tensor_layout is not None for n in info.player_counts
]
IDS = [f"{game_id}-{n}p" for game_id, n in CASES]


@pytest.fixture(params=CASES, ids=IDS)
def game(request: pytest.FixtureRequest) -> Game:
    game_id, players = request.param
    return make(game_id, players=players)


def test_every_courtly_game_declares_a_layout() -> None:
    declared = {game_id for game_id, _ in CASES}
    assert {info.id for info in games() if not info.id.startswith("test-")} <= declared


@pytest.mark.parametrize("seed", range(3))
def test_tensor_is_fixed_size_complete_and_the_same_in_every_world(game: Game, seed: int) -> None:
    shape = observation_shape(game)
    rng = random.Random(seed)
    layout = game.tensor_layout()
    for state in sampled_states(game, seed, every=5):
        for seat in range(game.num_players):
            view = state.view(seat)
            tensor = observation_tensor(view)
            assert tensor.shape == shape and tensor.dtype == np.float32
            assert np.isfinite(tensor).all() and (tensor >= 0).all()  # the spaces say so
            assert layout.misses(view.observation()) == []
            mask = action_mask(view)
            assert mask.shape == (game.num_actions,) and mask.dtype == np.int8
            assert {int(i) for i in np.flatnonzero(mask)} == {
                action.id for action in state.legal_actions(seat)
            }
            for _ in range(3):  # the seat cannot tell these worlds from the truth
                world = view.determinize(rng)
                assert np.array_equal(observation_tensor(world.view(seat)), tensor)
                assert np.array_equal(action_mask(world.view(seat)), mask)


def test_seats_see_different_tensors_and_the_layout_is_described() -> None:
    game = make("royal-gambit", players=3)
    state = sampled_states(game, 1, every=9)[3]
    tensors = [observation_tensor(state.view(seat)) for seat in range(3)]
    assert not np.array_equal(tensors[0], tensors[1])  # the seat's own one-hot differs
    lines = layout_table(game)
    assert lines[0].endswith(f"{game.tensor_layout().size} floats")
    assert any("players[2].row" in line for line in lines)
    described = game.tensor_layout().describe()
    assert described[0][0] == 0 and described[-1][1] == game.tensor_layout().size - 1


def test_the_layout_printer_names_a_bad_game_and_exits_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from courtly.rl.tensors import main

    with pytest.raises(SystemExit) as stopped:
        main(["nosuchgame"])
    assert stopped.value.code == 2
    assert "unknown game 'nosuchgame'" in capsys.readouterr().err
    main(["kings-court", "--players", "3"])
    assert "players[2].hand" in capsys.readouterr().out
