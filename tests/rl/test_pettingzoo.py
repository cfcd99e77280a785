"""Every game and player count as a PettingZoo AEC environment, checked by PettingZoo's own
API and seed tests (issue 20)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from courtly.core import IllegalAction, games
from courtly.rl.pettingzoo import env

CASES = [
    (info.id, n) for info in games() if not info.id.startswith("test-") for n in info.player_counts
]
IDS = [f"{game_id}-{n}p" for game_id, n in CASES]


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_pettingzoo_api_and_seed_tests_pass(game_id: str, players: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on names ("player_0"): Courtly's are p0
        api_test(env(game_id, players=players), num_cycles=200)
        seed_test(lambda: env(game_id, players=players), num_cycles=200)


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_whole_games_end_with_the_returns_and_each_seat_sees_its_own_view(
    game_id: str, players: int
) -> None:
    table = env(game_id, players=players, render_mode="ansi")
    table.reset(seed=5)
    raw = table.unwrapped
    totals = dict.fromkeys(table.possible_agents, 0.0)
    for agent in table.agent_iter():
        observation, reward, termination, truncation, _ = table.last()
        totals[agent] += reward
        seat = int(agent[1:])
        view = raw.state.view(seat)
        assert np.array_equal(
            observation["action_mask"].nonzero()[0], sorted(a.id for a in view.legal_actions())
        )
        if termination or truncation:
            table.step(None)
            continue
        assert table.render() == view.render()
        table.step(table.action_space(agent).sample(observation["action_mask"]))
    state = raw.state
    assert state.is_terminal
    assert totals == {f"p{s}": r for s, r in enumerate(state.returns())}


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    table = env("royal-gambit", players=2)
    table.reset(seed=1)
    observation, *_ = table.last()
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    before = table.unwrapped.state.history_text()
    with pytest.raises(IllegalAction):
        table.step(illegal)
    assert table.unwrapped.state.history_text() == before
    with pytest.raises(ValueError, match="render_mode"):
        env("royal-gambit", render_mode="human")
