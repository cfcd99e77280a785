"""Gymnasium's ``AsyncVectorEnv`` over the flat form, in each start method: what the processes
hand back (observations, rewards, ends, ``info["action_mask"]``, autoresets) is exactly what the
same envs give in this process."""

from __future__ import annotations

import functools
import multiprocessing

import gymnasium
import numpy as np
import pytest

from courtly.rl.gymnasium import CourtlyEnv

# Short games (a low target), so episodes end and autoreset within the steps run here.
SEATS = 3
STEPS = 60


def flat_env(seat: int) -> CourtlyEnv:
    return CourtlyEnv("royal-gambit", players=SEATS, seat=seat, observation="flat", target_score=8)


def factories() -> list[functools.partial[CourtlyEnv]]:
    # partial objects of a module-level class pickle by reference: spawn and forkserver can
    # send them to a fresh interpreter.
    return [functools.partial(flat_env, seat) for seat in range(SEATS)]


def last_legal(masks: np.ndarray) -> np.ndarray:
    return np.array([int(np.flatnonzero(mask)[-1]) for mask in masks])


@pytest.mark.parametrize("context", multiprocessing.get_all_start_methods())
def test_async_flat_envs_step_reset_and_autoreset_as_in_process(context: str) -> None:
    in_process = gymnasium.vector.SyncVectorEnv(factories())
    across = gymnasium.vector.AsyncVectorEnv(factories(), context=context)
    try:
        size = flat_env(0).observation_space.shape
        actions_count = flat_env(0).game.num_actions
        assert across.single_observation_space.shape == size
        for seed in (11, 12):  # a second reset after play starts them all again
            expected, expected_info = in_process.reset(seed=seed)
            observations, info = across.reset(seed=seed)
            assert observations.shape == (SEATS, *size) and observations.dtype == np.float32
            assert np.array_equal(observations, expected)
            assert np.array_equal(info["action_mask"], expected_info["action_mask"])
            ended = np.zeros(SEATS, dtype=bool)
            autoreset = 0
            for _ in range(STEPS):
                masks = info["action_mask"]
                assert masks.dtype == np.int8 and masks.shape == (SEATS, actions_count)
                assert (masks.sum(axis=1) >= 1).all()  # a valid mask, ended games too
                assert all(
                    np.array_equal(mask, row)
                    for mask, row in zip(across.call("action_masks"), masks, strict=True)
                )
                actions = last_legal(masks)
                stepped = across.step(actions)
                reference = in_process.step(actions)
                observations, rewards, terminations, truncations, info = stepped
                for got, want in zip(stepped[:4], reference[:4], strict=True):
                    assert np.array_equal(got, want)
                assert np.array_equal(info["action_mask"], reference[4]["action_mask"])
                assert "illegal_action" not in info
                # the step after an end starts a new game in that env (next-step autoreset)
                autoreset += int(ended.sum())
                assert (rewards[ended] == 0.0).all()
                ended = terminations | truncations
                assert set(rewards[ended]) <= {0.0, 0.5, 1.0 / 3.0, 1.0}
            assert autoreset >= 2
    finally:
        across.close()
        in_process.close()
