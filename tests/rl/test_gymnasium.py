"""Every game as a single-agent Gymnasium environment against Courtly bots, checked by
Gymnasium's own ``check_env``."""

from __future__ import annotations

import warnings
from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from stable_baselines3.common.env_checker import check_env as sb3_check_env

from courtly.core import IllegalAction, InvalidOptions
from courtly.rl.gymnasium import ENV_IDS, CourtlyEnv, env_id


def test_every_game_is_registered() -> None:
    assert set(ENV_IDS) == {
        "Courtly/RoyalGambit-v0",
        "Courtly/GodSaveTheKing-v0",
        "Courtly/CrushTheCrown-v0",
        "Courtly/GothsSaveTheQueen-v0",
        "Courtly/KingsCourt-v0",
    }
    assert env_id("kings-court") == "Courtly/KingsCourt-v0"


@pytest.mark.parametrize("name", sorted(ENV_IDS))
@pytest.mark.parametrize("observation", ["dict", "flat"])
def test_gymnasium_and_sb3_check_env_pass_without_a_warning(
    name: str, observation: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # bounds, dtypes, render modes: no advice either
        check_env(gymnasium.make(name, observation=observation).unwrapped)
        sb3_check_env(gymnasium.make(name, observation=observation).unwrapped)
    capsys.readouterr()  # check_env tries the human mode, which prints


@pytest.mark.parametrize("name", sorted(ENV_IDS))
@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_episodes_end_with_the_seat_return_and_the_mask_is_where_libraries_look(
    name: str, opponents: str
) -> None:
    environment = gymnasium.make(name, opponents=opponents)
    raw = environment.unwrapped
    for seed in range(3):
        observation, info = environment.reset(seed=seed)
        while True:
            legal = sorted(action.id for action in raw.state.legal_actions(raw.seat))
            for mask in (observation["action_mask"], info["action_mask"], raw.action_masks()):
                assert mask.dtype == np.int8 and np.flatnonzero(mask).tolist() == legal
            assert raw.observation_space.contains(observation)
            action = environment.action_space.sample(raw.action_masks())
            observation, reward, terminated, truncated, info = environment.step(action)
            assert "illegal_action" not in info
            if terminated or truncated:
                break
        state = raw.state
        assert state.is_terminal and reward == state.returns()[0]
        for mask in (observation["action_mask"], info["action_mask"], raw.action_masks()):
            assert np.flatnonzero(mask).tolist() == [0]  # over: a valid mask, action 0 alone


def test_the_flat_observation_is_the_vector_with_the_mask_apart() -> None:
    paired = CourtlyEnv("kings-court", players=3)
    flat = CourtlyEnv("kings-court", players=3, observation="flat")
    assert isinstance(flat.observation_space, gymnasium.spaces.Box)
    assert np.isfinite(flat.observation_space.high).all()
    expected, _ = paired.reset(seed=8)
    observation, info = flat.reset(seed=8)
    while True:
        assert np.array_equal(observation, expected["observation"])
        assert np.array_equal(info["action_mask"], expected["action_mask"])
        assert flat.observation_space.contains(observation)
        action = int(np.flatnonzero(info["action_mask"])[0])
        expected, _, done, cut, _ = paired.step(action)
        observation, _, terminated, truncated, info = flat.step(action)
        if terminated or truncated:
            assert done or cut
            break


def test_the_human_mode_prints_the_agents_view(capsys: pytest.CaptureFixture[str]) -> None:
    human = CourtlyEnv("royal-gambit", render_mode="human")
    human.reset(seed=2)
    shown = capsys.readouterr().out
    assert shown == human.state.view(0).render() + "\n"
    assert human.render() is None
    assert capsys.readouterr().out == shown
    ansi = CourtlyEnv("royal-gambit", render_mode="ansi")
    ansi.reset(seed=2)
    assert ansi.render() + "\n" == shown and capsys.readouterr().out == ""


def test_same_seed_same_episode() -> None:
    def episode(seed: int) -> list[list[str]]:
        environment = CourtlyEnv("kings-court", players=3, opponents="heuristic")
        observation, _ = environment.reset(seed=seed)
        rng = np.random.default_rng(0)
        while True:
            legal = np.flatnonzero(observation["action_mask"])
            observation, _, terminated, truncated, _ = environment.step(int(rng.choice(legal)))
            if terminated or truncated:
                return environment.state.history_text()

    assert episode(4) == episode(4)


def test_an_illegal_action_ends_the_episode_and_changes_nothing() -> None:
    environment = CourtlyEnv("royal-gambit", opponents="random")
    observation, _ = environment.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = environment.state.history_text()
    _, reward, terminated, _, info = environment.step(illegal)
    assert (reward, terminated) == (-1.0, True) and "illegal_action" in info
    assert np.flatnonzero(environment.action_masks()).tolist() == [0]
    assert environment.state.history_text() == before
    strict = CourtlyEnv("royal-gambit", illegal_action="raise")
    strict.reset(seed=0)
    with pytest.raises(IllegalAction):
        strict.step(illegal)


def test_bad_settings_get_clear_errors() -> None:
    with pytest.raises(InvalidOptions, match="opponents"):
        CourtlyEnv("royal-gambit", players=3, opponents=["random"])
    with pytest.raises(InvalidOptions, match="human"):
        CourtlyEnv("royal-gambit", opponents="human")
    with pytest.raises(InvalidOptions, match="seat"):
        CourtlyEnv("royal-gambit", seat=4)
    with pytest.raises(InvalidOptions):
        CourtlyEnv("royal-gambit", target_score="lots")
    with pytest.raises(InvalidOptions, match="observation"):
        CourtlyEnv("royal-gambit", observation="image")
    with pytest.raises(InvalidOptions, match="render_mode"):
        CourtlyEnv("royal-gambit", render_mode="rgb_array")


def one_seat(seat: int) -> Any:
    return lambda: gymnasium.make("Courtly/KingsCourt-v0", players=3, seat=seat, observation="flat")


def test_a_vector_env_of_the_flat_form_gives_masks_in_info_and_through_call() -> None:
    vector = gymnasium.vector.AsyncVectorEnv([one_seat(seat) for seat in range(3)], context="fork")
    try:
        observations, info = vector.reset(seed=1)
        size = vector.single_observation_space.shape
        assert observations.shape == (3, *size) and info["action_mask"].shape == (3, 154)
        for _ in range(40):
            masks = vector.call("action_masks")
            assert all(
                np.array_equal(mask, row)
                for mask, row in zip(masks, info["action_mask"], strict=True)
            )
            actions = np.array([int(np.flatnonzero(mask)[-1]) for mask in masks])
            observations, _, _, _, info = vector.step(actions)
            assert "illegal_action" not in info
    finally:
        vector.close()
