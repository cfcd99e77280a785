"""Every Courtly game as a single-agent Gymnasium environment.

Importing this module registers one id per game, ``Courtly/RoyalGambit-v0``,
``Courtly/GodSaveTheKing-v0``, ... The agent plays one seat; Courtly bots play the others::

    import gymnasium
    import courtly.rl.gymnasium  # registers the ids

    env = gymnasium.make("Courtly/RoyalGambit-v0", players=3, opponents="heuristic")
    observation, info = env.reset(seed=1)
    while True:
        action = env.action_space.sample(info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            break

* ``seat``: the agent's seat (0 by default); ``opponents``: a bot for every other seat
  (``"random"``, ``"heuristic"``, ``"ismcts:iterations=200"``), or a list of one per other seat
  in seat order; any game option by name (``target_score=40``).
* Observations are ``{"observation": float32 vector, "action_mask": int8 vector}`` from the
  agent's view alone (:mod:`courtly.rl.tensors`), or with ``observation="flat"`` the vector
  alone (:mod:`courtly.rl.spaces`); actions are action ids. The bots, too, get only their own
  seats' views.
* The mask is also where the libraries look: ``info["action_mask"]`` after ``reset`` and every
  ``step``, and ``action_masks()`` (sb3-contrib's MaskablePPO calls it). Once the episode is
  over it holds action 0 alone (never all zeros), an action no step applies.
* The reward is the agent's return at the end (a sole win 1, a shared win its share, else 0).
  A game stopped by its safety cap is ``truncated``.
* ``render_mode="human"`` prints the agent's view after ``reset`` and every ``step``;
  ``"ansi"``: ``render()`` returns it as text.
* An illegal action changes nothing in the game and ends the episode with reward -1 and
  ``info["illegal_action"]`` saying why (as PettingZoo's ``TerminateIllegalWrapper`` does);
  ``illegal_action="raise"`` raises :class:`~courtly.IllegalAction` instead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from ..agents.registry import make_agent
from ..core.errors import IllegalAction, InvalidOptions
from ..core.game import Agent, Game, State, sample_chance
from ..core.registry import games, make
from .spaces import (
    RENDER_MODES,
    checked_settings,
    ended_mask,
    observation_space,
    packed,
    shown,
)
from .tensors import Observer

ILLEGAL_REWARD = -1.0

Observation = dict[str, npt.NDArray[Any]] | npt.NDArray[np.float32]


def env_id(game_id: str) -> str:
    """``royal-gambit`` -> ``Courtly/RoyalGambit-v0``."""
    return "Courtly/" + "".join(word.capitalize() for word in game_id.split("-")) + "-v0"


class CourtlyEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a Courtly game, the others played by Courtly bots."""

    metadata: dict[str, Any] = {"render_modes": list(RENDER_MODES), "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        game: str = "royal-gambit",
        players: int | None = None,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        render_mode: str | None = None,
        illegal_action: str = "end",
        observation: str = "dict",
        **options: Any,
    ) -> None:
        checked_settings(observation, render_mode)
        self.game: Game = make(game, players=players, **options)
        if not 0 <= seat < self.game.num_players:
            raise InvalidOptions(f"{game} with {self.game.num_players} players has no seat {seat}")
        if illegal_action not in ("end", "raise"):
            raise InvalidOptions(f"illegal_action is 'end' or 'raise', not {illegal_action!r}")
        others = self.game.num_players - 1
        specs = [opponents] * others if isinstance(opponents, str) else list(opponents)
        if len(specs) != others:
            raise InvalidOptions(f"{others} opponents are needed, one per other seat: {specs}")
        if any(spec.split(":")[0].strip().lower() == "human" for spec in specs):
            raise InvalidOptions("opponents are bots; a human plays through the terminal")
        self.seat = seat
        self.render_mode = render_mode
        self.observation_form = observation
        self.illegal_action = illegal_action
        other_seats = [s for s in range(self.game.num_players) if s != seat]
        self.opponents: dict[int, Agent] = {
            s: make_agent(spec, self.game) for s, spec in zip(other_seats, specs, strict=True)
        }
        self.observation_space = observation_space(self.game, observation)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self._rng = random.Random()
        self._observer = Observer(self.game)
        self.state: State = self.game.new_state()
        self._mask = ended_mask(self.game.num_actions)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self.state = self.game.new_state()
        self._play_others()
        return self._handed({})

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state.is_terminal:
            raise IllegalAction("the game is over: call reset()")
        try:
            state.apply(self.seat, self.game.action_from_id(action))
        except IllegalAction as error:
            if self.illegal_action == "raise":
                raise
            self._mask = ended_mask(self.game.num_actions)  # the episode ends here
            observation, info = self._handed({"illegal_action": str(error)}, ended=True)
            return observation, ILLEGAL_REWARD, True, False, info
        self._play_others()
        if state.is_terminal:
            reward = float(state.returns()[self.seat])
            observation, info = self._handed({})
            return observation, reward, not state.truncated, state.truncated, info
        observation, info = self._handed({})
        return observation, 0.0, False, False, info

    def action_masks(self) -> npt.NDArray[np.int8]:
        """The legal actions of the agent now, 1 per legal action id (sb3-contrib's
        MaskablePPO asks for it); after the end, action 0 alone."""
        return self._mask.copy()

    def _play_others(self) -> None:
        """Chance and the bots, until the agent's seat is to move or the game is over."""
        state = self.state
        while not state.is_terminal:
            if state.is_chance:
                sample_chance(state, self._rng)
                continue
            movers = [s for s in state.to_move if s != self.seat]
            if not movers:
                return
            seat = movers[0]
            state.apply(seat, self.opponents[seat].act(state.view(seat), self._rng))

    def _observe(self) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        """The agent's vector and legal-action mask: the one place the env builds them."""
        return self._observer.observe(self.state, self.seat)

    def _handed(
        self, info: dict[str, Any], ended: bool = False
    ) -> tuple[Observation, dict[str, Any]]:
        """The observation in its form and ``info`` with the mask (``ended``: the episode is
        over though the game is not, after an illegal action)."""
        vector, mask = self._observe()
        if ended or self.state.is_terminal:
            mask = ended_mask(self.game.num_actions)
        self._mask = mask
        info["action_mask"] = mask
        if self.render_mode == "human":  # Gymnasium's human mode renders at every step itself
            self.render()
        return packed(self.observation_form, vector, mask), info

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return shown(self.render_mode, self.state.view(self.seat).render())


def register_all() -> list[str]:
    """Register every Courtly game with Gymnasium (done on import); returns the ids."""
    ids = []
    for info in games():
        if info.id.startswith("test-") or info.tensor_layout is None:
            continue
        name = env_id(info.id)
        if name not in gymnasium.registry:
            gymnasium.register(
                id=name,
                entry_point="courtly.rl.gymnasium:CourtlyEnv",
                kwargs={"game": info.id},
            )
        ids.append(name)
    return ids


ENV_IDS = register_all()
