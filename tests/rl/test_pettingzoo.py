"""Every game and player count as a PettingZoo AEC environment, checked by PettingZoo's own
API and seed tests."""

from __future__ import annotations

import random
import warnings
from typing import Any

import numpy as np
import pytest
import supersuit
from gymnasium import spaces
from pettingzoo.test import api_test, render_test, seed_test

from courtly.core import IllegalAction, games
from courtly.rl.pettingzoo import env
from courtly.rl.tensors import action_mask, observation_tensor

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
        observation, reward, termination, truncation, info = table.last()
        totals[agent] += reward
        seat = int(agent[1:])
        view = raw.state.view(seat)
        assert np.array_equal(info["action_mask"], observation["action_mask"])
        if termination or truncation:  # over: action 0 alone, never an empty mask
            assert observation["action_mask"].nonzero()[0].tolist() == [0]
            table.step(None)
            continue
        assert np.array_equal(
            observation["action_mask"].nonzero()[0], sorted(a.id for a in view.legal_actions())
        )
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
        env("royal-gambit", render_mode="rgb_array")
    with pytest.raises(ValueError, match="observation"):
        env("royal-gambit", observation="image")


@pytest.mark.parametrize("game_id", ["royal-gambit", "kings-court", "goths-save-the-queen"])
def test_every_bad_id_is_refused_at_every_decision_and_the_game_replays(game_id: str) -> None:
    # Whatever path a step takes, a bad id is refused and changes nothing, and the game
    # played is the one the checked apply plays from the same decisions.
    table = env(game_id, players=3)
    table.reset(seed=5)
    raw = table.unwrapped
    rng = random.Random(5)
    replay = raw.game.new_state()
    played = 0
    for agent in table.agent_iter():
        observation, _, termination, truncation, _ = table.last()
        if termination or truncation:
            table.step(None)
            continue
        mask = observation["action_mask"]
        for bad in (True, "0", 1.0, -1, raw.game.num_actions):
            before = raw.state.history_text()
            with pytest.raises(IllegalAction):
                table.step(bad)
            assert raw.state.history_text() == before and table.agent_selection == agent
        illegal = np.flatnonzero(mask == 0)
        if len(illegal):
            with pytest.raises(IllegalAction):
                table.step(np.int64(illegal[0]))
        legal = np.flatnonzero(mask)
        chosen = legal[rng.randrange(len(legal))]
        table.step(chosen if played % 2 else int(chosen))  # NumPy ids and ints alike
        played += 1
    # The same decisions through the checked apply, chance replayed from the env's history.
    for seat, item in raw.state.history:
        if seat < 0:
            replay.apply_chance(item)
        else:
            replay.apply(seat, item.id)
    assert replay.history_text() == raw.state.history_text() and replay.is_terminal
    assert played > 0


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


@pytest.mark.parametrize("game_id", sorted({game_id for game_id, _ in CASES}))
def test_render_test_passes_in_human_and_ansi_modes(
    game_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    render_test(lambda render_mode=None: env(game_id, render_mode=render_mode))
    human, ansi = env(game_id, render_mode="human"), env(game_id, render_mode="ansi")
    human.reset(seed=4)
    ansi.reset(seed=4)
    capsys.readouterr()
    assert human.render() is None
    assert capsys.readouterr().out == ansi.render() + "\n"


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_the_flat_observation_passes_the_api_test_and_its_mask_is_in_info(
    game_id: str, players: int
) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on names ("player_0"): Courtly's are p0
        api_test(env(game_id, players=players, observation="flat"), num_cycles=100)
    flat = env(game_id, players=players, observation="flat")
    paired = env(game_id, players=players)
    flat.reset(seed=3)
    paired.reset(seed=3)
    space = flat.observation_space("p0")
    assert isinstance(space, spaces.Box) and np.isfinite(space.high).all()
    for agent in flat.agent_iter():
        observation, _, termination, truncation, info = flat.last()
        expected, *_ = paired.last()
        assert np.array_equal(observation, expected["observation"]) and space.contains(observation)
        assert np.array_equal(info["action_mask"], expected["action_mask"])
        action = None if termination or truncation else space_sample(flat, agent, info)
        flat.step(action)
        paired.step(action)


def space_sample(table: Any, agent: str, info: dict[str, Any]) -> int:
    return int(table.action_space(agent).sample(info["action_mask"]))


def test_supersuit_observation_wrappers_take_the_flat_observation() -> None:
    base = env("kings-court", players=3, observation="flat")
    wrapped = supersuit.frame_stack_v1(supersuit.normalize_obs_v0(base, env_min=-1.0), 2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(wrapped, num_cycles=60)
    wrapped.reset(seed=2)
    observation, *_ = wrapped.last()
    size = base.unwrapped.game.tensor_layout().size
    assert observation.shape == (2 * size,)
    assert observation.min() >= -1.0 and observation.max() <= 1.0


@pytest.mark.parametrize("game_id", sorted({game_id for game_id, _ in CASES}))
def test_the_flat_observation_and_info_mask_are_the_same_in_every_world_the_seat_cannot_tell(
    game_id: str,
) -> None:
    """What the env hands the agent to act (its flat vector, ``info["action_mask"]``) is what
    the seat's view gives in any world consistent with it."""
    table = env(game_id, observation="flat")
    table.reset(seed=6)
    raw = table.unwrapped
    rng = random.Random(6)
    for step, agent in enumerate(table.agent_iter()):
        observation, _, termination, truncation, info = table.last()
        if termination or truncation:
            table.step(None)
            continue
        if step % 7 == 0:
            seat = int(agent[1:])
            for _ in range(2):
                world = raw.state.view(seat).determinize(rng).view(seat)
                assert np.array_equal(observation_tensor(world), observation)
                assert np.array_equal(action_mask(world), info["action_mask"])
        table.step(space_sample(table, agent, info))
