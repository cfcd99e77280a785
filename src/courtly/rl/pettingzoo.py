"""Every Courtly game as a PettingZoo AEC environment.

    from courtly.rl.pettingzoo import env

    table = env("royal-gambit", players=3, target_score=40, render_mode="ansi")
    table.reset(seed=7)
    for agent in table.agent_iter():
        observation, reward, termination, truncation, info = table.last()
        if termination or truncation:
            action = None
        else:  # any policy over the legal actions: here a uniform one
            action = table.action_space(agent).sample(observation["action_mask"])
        table.step(action)

* Agents are the seats, ``"p0"``, ``"p1"``, ... An agent's observation is
  ``{"observation": float32 vector, "action_mask": int8 vector}``, both from that seat's view
  alone (:mod:`courtly.rl.tensors`; ``python -m courtly.rl.tensors GAME`` prints the layout), or
  with ``observation="flat"`` the vector alone (SuperSuit's observation wrappers take it;
  :mod:`courtly.rl.spaces`). Actions are the game's action ids (``Discrete(game.num_actions)``).
* The mask of the agent to act is also its ``info["action_mask"]`` (what ``last()`` returns).
  Once the game is over, an agent's mask holds action 0 alone (never all zeros); it is stepped
  with ``None`` as PettingZoo asks.
* Chance (shuffles, draws, a start player) is resolved inside the environment with a generator
  seeded by ``reset(seed=...)``: the same seed and actions give the same game.
* A point where several seats decide at once is a run of successive turns, one per seat; each
  seat's observation holds no trace of the choices made before it in the run.
* Rewards are the game's returns, given at the end (a sole winner 1, tied winners share 1,
  others 0). A game stopped by its safety cap ends with ``truncation`` rather than
  ``termination``.
* ``render_mode="ansi"``: ``render()`` returns the position as the seat to move sees it;
  ``"human"`` prints it (after every step too, as PettingZoo's classic games do).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.actions import seat_text
from ..core.errors import IllegalAction
from ..core.game import Game, State, sample_chance
from ..core.registry import make
from .spaces import RENDER_MODES, checked_settings, ended_mask, observation_space, packed, shown
from .tensors import Observer

Seen = tuple[int, State, int, npt.NDArray[np.float32], npt.NDArray[np.int8]]
Last = tuple[Any, float, bool, bool, dict[str, Any]]
"""``last()``: the agent to act's observation, cumulative reward, termination, truncation, info."""


def env(game_id: str, players: int | None = None, **options: Any) -> AECEnv:
    """The AEC environment of a game (``render_mode`` among the options), wrapped in
    PettingZoo's order checks as its own environments are."""
    return OrderEnforcing(raw_env(game_id, players, **options))


class OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order checks, the same errors and warnings at the same calls, with
    ``last()`` and ``step()`` handed straight to the environment once it is reset, and the
    agents and the agent to act (what ``agent_iter()`` reads at every step) read directly:
    PettingZoo's wrapper reads each attribute through two ``__getattr__`` layers, which cost
    more than the rest of a step's bookkeeping."""

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        agents: list[str] = self.env.agents
        return agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        agent: str = self.env.agent_selection
        return agent

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's own wrapper names itself: the env's name

    def last(self, observe: bool = True) -> Last:
        if self._has_reset:
            last: Last = self.env.last(observe)
        else:
            last = super().last(observe)  # (its error)
        return last

    def step(self, action: Any) -> None:
        if self._has_reset and self.env.agents:
            self._has_updated = True
            self.env.step(action)
        else:
            super().step(action)  # (its error or warning)


class raw_env(AECEnv):  # type: ignore[misc]
    """A Courtly game as an AEC environment, without PettingZoo's wrappers (see :func:`env`)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's own
        "render_modes": list(RENDER_MODES),
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        render_mode: str | None = None,
        observation: str = "dict",
        **options: Any,
    ) -> None:
        super().__init__()
        checked_settings(observation, render_mode)
        self.game: Game = make(game_id, players=players, **options)
        self.render_mode = render_mode
        self.observation_form = observation
        self.metadata = {**self.metadata, "name": f"courtly_{self.game.id.replace('-', '_')}_v0"}
        self.possible_agents = [seat_text(seat) for seat in range(self.game.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_space = observation_space(self.game, observation)
        self._action_space = spaces.Discrete(self.game.num_actions)
        self._observer = Observer(self.game)
        self._rng: random.Random | None = None
        self.state: State = self.game.new_state()
        # The agent to act's vector and mask, built once for both its info and observe(): the
        # seat, the state and its history's length they were built at, then the two arrays.
        self._seen: Seen | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        self.state = self.game.new_state()
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._advance()

    def observe(self, agent: str) -> Any:
        vector, mask = self._seen_by(self._seat[agent])
        return packed(self.observation_form, vector, mask)

    def last(self, observe: bool = True) -> Last:
        """AECEnv's ``last()`` in fewer steps: at every step of every loop."""
        agent = self.agent_selection
        return (
            self.observe(agent) if observe else None,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def _seen_by(self, seat: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """The seat's vector and mask now (the ended mask after the game), built once per turn
        for the agent to act (and again if the state was changed behind the env's back)."""
        seen = self._seen
        state = self.state
        if (
            seen is not None
            and seen[0] == seat
            and seen[1] is state
            and seen[2] == len(state.history)
        ):
            return seen[3], seen[4]
        return self._see(seat)

    def _see(self, seat: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """Build the seat's vector and mask now, and keep them for this turn."""
        state = self.state
        vector, mask = self._observe(seat)
        if state.is_terminal:
            mask = ended_mask(self.game.num_actions)
        self._seen = (seat, state, len(state.history), vector, mask)
        return vector, mask

    def _observe(self, seat: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """The seat's vector and legal-action mask: the one place the env builds them."""
        return self._observer.observe(self.state, seat)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        if action is None:
            raise IllegalAction(f"{agent} is to move: None is no action")
        # The checked apply, even for an id off the mask: compiled, its identity scan of the
        # legal list costs less than reading the mask back (measured), and it refuses the rest.
        state = self.state
        state.apply(seat, self.game.action_from_id(action))  # unchanged if refused
        self._cumulative_rewards[agent] = 0.0
        # Every reward stays 0 until the end: the all-zero rewards dict of the last step (never
        # changed since) stands for this one's, and adding it to the cumulative rewards would
        # change none of them. At the end, _advance hands out a fresh dict of the returns.
        self._advance()
        if state.is_terminal:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _advance(self) -> None:
        """Resolve chance, then hand the turn to the next seat to move; at the end, every seat
        gets its return and is done."""
        state = self.state
        assert self._rng is not None
        while state.is_chance:
            sample_chance(state, self._rng)
        if state.is_terminal:
            returns = state.returns()
            ended = ended_mask(self.game.num_actions)
            # A fresh dict: a caller may hold the all-zero one of the game's steps.
            self.rewards = {agent: float(returns[self._seat[agent]]) for agent in self.agents}
            for agent in self.agents:
                self.terminations[agent] = not state.truncated
                self.truncations[agent] = state.truncated
                self.infos[agent]["action_mask"] = ended
            # Every agent is stepped once more (with None) to leave, in seat order.
            self.agent_selection = self.agents[0]
            return
        seat = state.to_move[0]
        agent = self.possible_agents[seat]
        self.agent_selection = agent
        self.infos[agent]["action_mask"] = self._see(seat)[1]  # a new decision: built afresh

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        seat = self._seat.get(self.agent_selection, 0) if self.agents else None
        return shown(self.render_mode, self.state.view(seat).render())

    def close(self) -> None:
        pass
