"""Tianshou's ``PettingZooEnv`` over every game, its multi-agent policy manager and collector
with random policies: whole episodes, every action on the mask the seat was handed.

Tianshou reads the mask from the dict form's ``action_mask`` (the flat form's mask, in ``info``,
is not where it looks: it would allow every action), so the dict form is the one it trains on.
"""

from __future__ import annotations

import numpy as np
import pytest
from tianshou.data import Collector, VectorReplayBuffer
from tianshou.env import DummyVectorEnv, PettingZooEnv
from tianshou.policy import MultiAgentPolicyManager, RandomPolicy

from courtly.core import games
from courtly.rl.pettingzoo import env

GAMES = sorted(info.id for info in games() if not info.id.startswith("test-"))
ENVS = 2
EPISODES = 3


def tianshou_env(game_id: str) -> PettingZooEnv:
    return PettingZooEnv(env(game_id))


@pytest.mark.parametrize("game_id", GAMES)
def test_the_multi_agent_collector_plays_whole_games_on_the_mask(game_id: str) -> None:
    table = tianshou_env(game_id)
    players = len(table.agents)
    policy = MultiAgentPolicyManager([RandomPolicy() for _ in table.agents], table)
    vector = DummyVectorEnv([lambda: tianshou_env(game_id) for _ in range(ENVS)])
    vector.seed(list(range(ENVS)))
    np.random.seed(5)  # RandomPolicy draws from NumPy's global generator
    buffer = VectorReplayBuffer(20_000, ENVS)
    collector = Collector(policy, vector, buffer)
    collector.reset()
    result = collector.collect(n_episode=EPISODES)
    vector.close()

    assert result["n/ep"] == EPISODES
    rewards = result["rews"]
    assert rewards.shape == (EPISODES, players)
    assert np.allclose(rewards.sum(axis=1), 1.0)  # each game's returns, shared out
    steps = len(buffer)
    assert steps == result["n/st"] > 0
    batch = buffer[buffer.sample_indices(0)]  # every step collected
    masks = np.asarray(batch.obs.mask, dtype=bool)
    actions = np.asarray(batch.act, dtype=int)
    assert masks.shape == (steps, table.action_space.n)
    assert masks[np.arange(steps), actions].all()  # every action taken was on the mask
    assert set(batch.obs.agent_id) <= set(table.agents)
    assert np.asarray(batch.obs.obs).shape == (steps, *table.observation_space["observation"].shape)
