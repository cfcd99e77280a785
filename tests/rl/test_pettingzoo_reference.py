"""The PettingZoo environment against a plain reference written here: the straightforward AEC
environment over a seat's view (its layout encoding and legal actions, every reward dict rebuilt
and accumulated at every step). Every value the environment hands out, at every step of seeded
random play of every game and player count, is equal to the reference's, and no array it handed
out changes afterwards; its order checks are PettingZoo's, and its parallel form passes
PettingZoo's parallel API test."""

from __future__ import annotations

import logging
import random
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from pettingzoo import AECEnv
from pettingzoo.test import parallel_api_test
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from courtly.core import games, make
from courtly.core.actions import seat_text
from courtly.core.game import sample_chance
from courtly.rl.pettingzoo import OrderEnforcing, env, raw_env
from courtly.rl.spaces import ended_mask
from courtly.rl.tensors import action_mask, observation_tensor

CASES = [
    (info.id, n) for info in games() if not info.id.startswith("test-") for n in info.player_counts
]
IDS = [f"{game_id}-{n}p" for game_id, n in CASES]


class ReferenceEnv(AECEnv):  # type: ignore[misc]
    """The AEC contract done the plain way: every observation from the seat's view."""

    metadata = {"render_modes": [], "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, game_id: str, players: int) -> None:
        super().__init__()
        self.game = make(game_id, players=players)
        self.possible_agents = [seat_text(seat) for seat in range(players)]
        self._rng = random.Random()

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng = random.Random(seed)
        self.state = self.game.new_state()
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._advance()

    def observe(self, agent: str) -> dict[str, Any]:
        view = self.state.view(self.possible_agents.index(agent))
        mask = action_mask(view)
        if self.state.is_terminal:
            mask = ended_mask(self.game.num_actions)
        return {"observation": observation_tensor(view), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.possible_agents.index(agent)
        self.state.apply(seat, self.game.action_from_id(action))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {name: 0.0 for name in self.agents}
        self._advance()
        self._accumulate_rewards()

    def _advance(self) -> None:
        state = self.state
        while state.is_chance:
            sample_chance(state, self._rng)
        if state.is_terminal:
            returns = state.returns()
            for agent in self.agents:
                self.rewards[agent] = float(returns[self.possible_agents.index(agent)])
                self.terminations[agent] = not state.truncated
                self.truncations[agent] = state.truncated
                self.infos[agent]["action_mask"] = ended_mask(self.game.num_actions)
            self.agent_selection = self.agents[0]
            return
        seat = state.to_move[0]
        self.agent_selection = self.possible_agents[seat]
        self.infos[self.agent_selection]["action_mask"] = self.observe(self.agent_selection)[
            "action_mask"
        ]


def _same(ours: Any, theirs: Any) -> bool:
    """Equal values of equal types, arrays compared by dtype, shape and content."""
    if isinstance(theirs, np.ndarray):
        return (
            isinstance(ours, np.ndarray)
            and ours.dtype == theirs.dtype
            and np.array_equal(ours, theirs)
        )
    if isinstance(theirs, dict):
        return (
            isinstance(ours, dict)
            and list(ours) == list(theirs)
            and all(_same(ours[key], theirs[key]) for key in theirs)
        )
    if isinstance(theirs, tuple | list):
        return (
            type(ours) is type(theirs)
            and len(ours) == len(theirs)
            and all(_same(a, b) for a, b in zip(ours, theirs, strict=True))
        )
    return type(ours) is type(theirs) and bool(ours == theirs)


def _snapshot(table: AECEnv) -> dict[str, Any]:
    return {
        "agents": list(table.agents),
        "agent_selection": table.agent_selection,
        "rewards": dict(table.rewards),
        "cumulative": dict(table._cumulative_rewards),
        "terminations": dict(table.terminations),
        "truncations": dict(table.truncations),
        "infos": {agent: dict(info) for agent, info in table.infos.items()},
    }


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_every_value_equals_the_reference_over_random_play(game_id: str, players: int) -> None:
    ours = env(game_id, players=players)
    reference = wrappers.OrderEnforcingWrapper(ReferenceEnv(game_id, players))
    handed_out: list[tuple[Any, Any]] = []  # what the caller kept, and a copy of it then
    rng = random.Random(players)
    for episode in range(3):
        seed = rng.randrange(1 << 30)
        ours.reset(seed=seed)
        reference.reset(seed=seed)
        assert _same(_snapshot(ours), _snapshot(reference))
        steps = 0
        for agent in ours.agent_iter():
            assert agent == reference.agent_selection
            last = ours.last()
            assert _same(last, reference.last())
            for seat in range(players):  # every seat's observation, not only the mover's
                name = seat_text(seat)
                if name in ours.agents:
                    observation = ours.observe(name)
                    assert _same(observation, reference.observe(name))
                    handed_out.append((observation, {k: v.copy() for k, v in observation.items()}))
            handed_out.append((last[0], {k: v.copy() for k, v in last[0].items()}))
            info_mask = last[4]["action_mask"]
            handed_out.append((info_mask, info_mask.copy()))
            if last[2] or last[3]:  # (PettingZoo's dead steps clear the last rewards in place)
                action = None
            else:
                legal = np.flatnonzero(last[0]["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
                handed_out.append((ours.rewards, dict(ours.rewards)))
            ours.step(action)
            reference.step(action)
            assert _same(_snapshot(ours), _snapshot(reference))
            steps += 1
        assert reference.agents == [] and steps > players
        if episode == 0:  # a few of every step's values, compared once the episode is over
            for value, copy in handed_out:
                assert _same(value, copy)
    for value, copy in handed_out:  # nothing handed out was changed by the steps after
        assert _same(value, copy)


class _Logged(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def _outcome(call: Callable[[], Any]) -> tuple[str, str, list[str]]:
    """What a call does: its error (type and message) or its result's type, and its warnings
    (PettingZoo's logger's and Python's)."""
    logged = _Logged()
    logger = logging.getLogger("pettingzoo.utils.env_logger")
    logger.addHandler(logged)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = type(call()).__name__
                error = ""
            except Exception as exception:  # (compared, not handled)
                result, error = "", f"{type(exception).__name__}: {exception}"
    finally:
        logger.removeHandler(logged)
    return result, error, logged.messages + [str(warning.message) for warning in caught]


def test_the_order_checks_are_pettingzoos_own() -> None:
    def calls(table: AECEnv) -> list[tuple[str, str, list[str]]]:
        seen = [
            _outcome(table.last),
            _outcome(lambda: table.last(observe=False)),
            _outcome(lambda: table.step(0)),
            _outcome(lambda: table.observe("p0")),
            _outcome(lambda: table.agents),
            _outcome(lambda: table.agent_selection),
            _outcome(lambda: table.num_agents),
            _outcome(lambda: hasattr(table, "agents")),
            _outcome(table.agent_iter),
        ]
        table.reset(seed=3)
        seen.append(_outcome(lambda: table.step(10_000)))  # refused: an id off the game
        for _agent in table.agent_iter():
            seen.append(_outcome(table.last))
            last = table.last()
            if last[2] or last[3]:
                action = None
            else:
                action = int(np.flatnonzero(last[0]["action_mask"])[0])
            seen.append(_outcome(lambda action=action: table.step(action)))
        seen.append(_outcome(lambda: table.step(None)))  # after the end: PettingZoo's warning
        seen.append(_outcome(table.last))
        seen.append(_outcome(lambda: (table.agents, table.agent_selection, table.num_agents)))
        return seen

    ours_table = OrderEnforcing(raw_env("kings-court", 3))
    theirs_table = wrappers.OrderEnforcingWrapper(raw_env("kings-court", 3))
    assert str(ours_table) == str(theirs_table) == "courtly_kings_court_v0"
    assert isinstance(ours_table, wrappers.OrderEnforcingWrapper)
    ours = calls(ours_table)
    theirs = calls(theirs_table)
    assert ours == theirs
    assert ours[0][1].startswith("AttributeError") and ours[2][1]  # the checks did speak
    assert any(outcome[2] for outcome in ours)


@pytest.mark.parametrize(("game_id", "players"), CASES, ids=IDS)
def test_the_parallel_form_passes_pettingzoos_parallel_api_test(game_id: str, players: int) -> None:
    parallel = turn_based_aec_to_parallel(env(game_id, players=players))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its advice on names ("player_0"): Courtly's are p0
        parallel_api_test(parallel, num_cycles=200)
