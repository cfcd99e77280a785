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
  alone (:mod:`courtly.rl.tensors`; ``python -m courtly.rl.tensors GAME`` prints the layout).
  Actions are the game's action ids (``Discrete(game.num_actions)``).
* Chance (shuffles, draws, a start player) is resolved inside the environment with a generator
  seeded by ``reset(seed=...)``: the same seed and actions give the same game.
* A point where several seats decide at once is a run of successive turns, one per seat; each
  seat's observation holds no trace of the choices made before it in the run.
* Rewards are the game's returns, given at the end (a sole winner 1, tied winners share 1,
  others 0). A game stopped by its safety cap ends with ``truncation`` rather than
  ``termination``.
* ``render_mode="ansi"``: ``render()`` returns the position as the seat to move sees it.
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
from .tensors import Observer, observation_shape


def env(game_id: str, players: int | None = None, **options: Any) -> AECEnv:
    """The AEC environment of a game (``render_mode`` among the options), wrapped in
    PettingZoo's order checks as its own environments are."""
    return wrappers.OrderEnforcingWrapper(raw_env(game_id, players, **options))


class raw_env(AECEnv):  # type: ignore[misc]
    """A Courtly game as an AEC environment, without PettingZoo's wrappers (see :func:`env`)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - PettingZoo's own
        "render_modes": ["ansi"],
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_id: str,
        players: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game: Game = make(game_id, players=players, **options)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode is 'ansi' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"courtly_{self.game.id.replace('-', '_')}_v0"}
        self.possible_agents = [seat_text(seat) for seat in range(self.game.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        size = observation_shape(self.game)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, size, np.float32),
                "action_mask": spaces.Box(0, 1, (self.game.num_actions,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(self.game.num_actions)
        self._observer = Observer(self.game)
        self._rng: random.Random | None = None
        self.state: State = self.game.new_state()

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

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        observation, mask = self._observer.observe(self.state, self._seat[agent])
        return {"observation": observation, "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self._seat[agent]
        if action is None:
            raise IllegalAction(f"{agent} is to move: None is no action")
        self.state.apply(seat, self.game.action_from_id(action))  # checked; unchanged if refused
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {name: 0.0 for name in self.agents}
        self._advance()
        self._accumulate_rewards()

    def _advance(self) -> None:
        """Resolve chance, then hand the turn to the next seat to move; at the end, every seat
        gets its return and is done."""
        state = self.state
        assert self._rng is not None
        while state.is_chance:
            sample_chance(state, self._rng)
        if state.is_terminal:
            returns = state.returns()
            for agent in self.agents:
                self.rewards[agent] = float(returns[self._seat[agent]])
                self.terminations[agent] = not state.truncated
                self.truncations[agent] = state.truncated
            # Every agent is stepped once more (with None) to leave, in seat order.
            self.agent_selection = self.agents[0]
            return
        self.agent_selection = self.possible_agents[state.to_move[0]]

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        seat = self._seat.get(self.agent_selection, 0) if self.agents else None
        return self.state.view(seat).render()

    def close(self) -> None:
        pass
