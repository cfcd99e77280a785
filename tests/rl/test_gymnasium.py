"""Every game as a single-agent Gymnasium environment against Courtly bots, checked by
Gymnasium's own ``check_env``."""

from __future__ import annotations

import warnings

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

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
@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_check_env_passes_and_episodes_end_with_the_seat_return(name: str, opponents: str) -> None:
    environment = gymnasium.make(name, opponents=opponents)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on unbounded boxes and render fps
        check_env(environment.unwrapped)
    for seed in range(3):
        observation, _ = environment.reset(seed=seed)
        while True:
            action = environment.action_space.sample(observation["action_mask"])
            observation, reward, terminated, truncated, info = environment.step(action)
            assert "illegal_action" not in info
            if terminated or truncated:
                break
        state = environment.unwrapped.state
        assert state.is_terminal and reward == state.returns()[0]


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
