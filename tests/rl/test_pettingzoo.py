"""Every game and player count as a PettingZoo AEC environment, checked by PettingZoo's own
API and seed tests."""

from __future__ import annotations

import warnings
from typing import Any

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


@pytest.mark.parametrize("game_id", ["god-save-the-king", "goths-save-the-queen"])
def test_a_seat_deciding_after_another_at_a_simultaneous_point_cannot_see_its_choice(
    game_id: str,
) -> None:
    """At a point where several seats decide at once, the turns run one after another; what
    the first seat chose (a God Save The King formation is three cards) leaves the next
    seat's observation unchanged."""

    def after(state: Any, seed: int, choice: int) -> tuple[str, Any]:
        twin = env(game_id)
        twin.reset(seed=seed)
        twin.unwrapped.state = state.clone()
        first = twin.unwrapped.possible_agents[state.to_move[0]]
        twin.unwrapped.agent_selection = first
        twin.step(choice)
        while twin.agent_selection == first:  # the rest of its choice: its first legal action
            mask = twin.observe(first)["action_mask"]
            twin.step(int(np.flatnonzero(mask)[0]))
        following = twin.agent_selection
        return following, twin.observe(following)["observation"]

    checked = 0
    for seed in range(30):
        table = env(game_id)
        table.reset(seed=seed)
        raw = table.unwrapped
        while raw.agents and not raw.state.is_terminal and checked < 5:
            state = raw.state
            agent = table.agent_selection
            observation, *_ = table.last()
            choices = np.flatnonzero(observation["action_mask"])
            if len(state.to_move) > 1 and len(choices) > 1:
                (agent_a, seen_a), (agent_b, seen_b) = (
                    after(state, seed, int(choice)) for choice in choices[:2]
                )
                assert agent_a == agent_b != agent
                assert np.array_equal(seen_a, seen_b)
                checked += 1
            table.step(table.action_space(agent).sample(observation["action_mask"]))
        if checked >= 5:
            break
    assert checked >= 5
