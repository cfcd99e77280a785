"""Observations at engine speed: what reading the observation and mask at every step costs.

Two measures, every game at every player count, interleaved in one run (``--rounds`` times,
reported as ranges):

* **PettingZoo**: random play through ``courtly.rl.pettingzoo.env`` reading the observation and
  the mask at every agent step (``last()``), against a do-nothing AEC environment with the same
  observation and mask shapes and the same episode length, driven by the same loop: PettingZoo's
  own ceiling. Two loops, each against its own ceiling: "lean" picks a legal id with
  ``np.flatnonzero(mask)`` and ``random.randrange``; "sample" is PettingZoo's documented idiom,
  ``env.action_space(agent).sample(mask)``. The old path (the view's JSON observation encoded
  through the layout) runs beside them in the lean loop for comparison. Goal: at least 0.8x the
  ceiling. The ceiling is wrapped in PettingZoo's ``OrderEnforcingWrapper``, as PettingZoo's
  own environments are; ``--same-wrapper`` wraps it in Courtly's ``OrderEnforcing`` instead (the
  same checks with cheaper reads, what ``courtly.rl.pettingzoo.env`` returns), a stricter
  ceiling that leaves only the environments' own costs to compare.
* **pyspiel**: random play through the OpenSpiel game (``courtly.rl.openspiel``), chance by
  ``chance_outcomes()``, decisions per second without reading an observation (``-obs``) and
  reading the mover's observation at every decision, each path as a fraction of ``-obs``
  (kept): ``list``, ``state.observation_tensor(player)`` (pyspiel's list of floats);
  ``null list``, the same call with an observer that writes nothing, the list path's ceiling
  (pyspiel's own cost: a fresh initial state for the shape, the callback, a Python float per
  slot); ``buffer``, ``make_observation(game)`` then ``set_from(state, player)`` reading its
  NumPy ``tensor``, as OpenSpiel's own Python algorithms do. Goal: the observation costs at
  most a quarter of the steps/s (kept >= 0.75).

    PYTHONPATH=src .venv/bin/python benchmarks/observations.py [--seconds 1] [--rounds 3]

Run it on the compiled engine (``make compiled``); it prints whether it is.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

import courtly
from courtly import _compiled
from courtly.rl.pettingzoo import env as courtly_env
from courtly.rl.pettingzoo import raw_env
from courtly.rl.tensors import action_mask, observation_tensor


class ViewEncodingEnv(raw_env):  # type: ignore[misc]
    """The environment observing as it did before the observer: through the view's JSON."""

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        view = self.state.view(self._seat[agent])
        return {"observation": observation_tensor(view), "action_mask": action_mask(view)}


class DoNothingEnv(AECEnv):  # type: ignore[misc]
    """An AEC environment with a game's shapes that computes nothing: episodes of ``length``
    decisions, seats in turn, fixed observation and mask (half the actions legal)."""

    metadata = {"render_modes": [], "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, players: int, size: int, actions: int, length: int) -> None:
        super().__init__()
        self.possible_agents = [f"p{seat}" for seat in range(players)]
        self._space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, (size,), np.float32),
                "action_mask": spaces.Box(0, 1, (actions,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(actions)
        self._observation = np.zeros(size, np.float32)
        self._mask = np.zeros(actions, np.int8)
        self._mask[::2] = 1
        self.length = length

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._space

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_space

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.steps = 0
        self.agent_selection = self.agents[0]

    def observe(self, agent: str) -> dict[str, npt.NDArray[Any]]:
        return {"observation": self._observation, "action_mask": self._mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = {name: 0.0 for name in self.agents}
        self.steps += 1
        if self.steps >= self.length:
            for name in self.agents:
                self.rewards[name] = 1.0 / len(self.agents)
                self.terminations[name] = True
            self.agent_selection = self.agents[0]
        else:
            self.agent_selection = self.possible_agents[self.steps % len(self.possible_agents)]
        self._accumulate_rewards()


LOOPS = ("lean", "sample")


def pettingzoo_rate(
    table: AECEnv, seconds: float, seed: int, loop: str = "lean"
) -> tuple[float, float]:
    """Agent steps per second of random play reading observation and mask at every step, and
    the mean agent steps per episode; ``loop`` picks the action as described above."""
    rng = random.Random(seed)
    sample = loop == "sample"
    if sample:
        for agent in table.possible_agents:
            table.action_space(agent).seed(seed)
    steps = episodes = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        table.reset(seed=rng.randrange(1 << 30))
        episodes += 1
        for agent in table.agent_iter():
            observation, _reward, termination, truncation, _info = table.last()
            if termination or truncation:
                action = None
            elif sample:
                action = table.action_space(agent).sample(observation["action_mask"])
            else:
                legal = np.flatnonzero(observation["action_mask"])
                action = int(legal[rng.randrange(len(legal))])
            table.step(action)
            steps += 1
    return steps / (time.perf_counter() - start), steps / episodes


class NullSpielObserver:
    """An OpenSpiel observer with a game's tensor size that writes nothing."""

    def __init__(self, size: int) -> None:
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: Any, player: int) -> None:
        pass

    def string_from(self, state: Any, player: int) -> str:
        return ""


def null_observer_game(spiel_game: Any) -> Any:
    """The same Courtly game through pyspiel, its default observer writing nothing: what
    ``observation_tensor`` costs in pyspiel itself."""
    size = spiel_game.observation_tensor_size()

    class NullObserverGame(type(spiel_game)):  # type: ignore[misc]
        def make_py_observer(
            self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
        ) -> NullSpielObserver:
            return NullSpielObserver(size)

    return NullObserverGame(spiel_game.get_parameters())


SPIEL_READS = ("none", "list", "buffer")
"""How :func:`pyspiel_rate` reads the mover's observation at each decision."""


def pyspiel_rate(spiel_game: Any, seconds: float, seed: int, read: str) -> float:
    """Decisions per second of random play through pyspiel (chance by ``chance_outcomes()``),
    reading the mover's observation at every decision as ``read`` says: ``"none"``, ``"list"``
    (``state.observation_tensor(player)``) or ``"buffer"`` (``make_observation(game)``'s
    ``set_from``, then its NumPy ``tensor``)."""
    from open_spiel.python.observation import make_observation

    if read not in SPIEL_READS:
        raise ValueError(f"read must be one of {SPIEL_READS}, not {read!r}")
    observation = make_observation(spiel_game)
    rng = random.Random(seed)
    decisions = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = spiel_game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                pick, total = rng.random(), 0.0
                chosen = outcomes[-1][0]
                for outcome, probability in outcomes:
                    total += probability
                    if pick < total:
                        chosen = outcome
                        break
                state.apply_action(chosen)
                continue
            player = state.current_player()
            if read == "list":
                state.observation_tensor(player)
            elif read == "buffer":
                observation.set_from(state, player)
                observation.tensor  # noqa: B018 (what a learner reads)
            legal = state.legal_actions(player)
            state.apply_action(legal[rng.randrange(len(legal))])
            decisions += 1
    return decisions / (time.perf_counter() - start)


def pyspiel_rates(spiel_game: Any, null_game: Any, seconds: float, seed: int) -> dict[str, float]:
    """One round of every pyspiel measure, by column."""
    return {
        "-obs": pyspiel_rate(spiel_game, seconds, seed, "none"),
        "list": pyspiel_rate(spiel_game, seconds, seed, "list"),
        "null list": pyspiel_rate(null_game, seconds, seed, "list"),
        "buffer": pyspiel_rate(spiel_game, seconds, seed, "buffer"),
    }


def pyspiel_columns(rounds: list[dict[str, float]]) -> str:
    """``-obs`` and ``buffer`` steps/s, then each observing path's steps/s as a fraction of
    ``-obs``."""
    if not rounds:
        return ""
    without = [measures["-obs"] for measures in rounds]
    kept = "".join(
        f"{ratio_span([measures[path] for measures in rounds], without):>11}"
        for path in ("list", "null list", "buffer")
    )
    buffer = [measures["buffer"] for measures in rounds]
    return f"{span(without):>16}{span(buffer):>16}{kept}"


SPIEL_HEADER = (
    f"{'spiel -obs':>16}{'spiel buffer':>16}{'list kept':>11}{'null kept':>11}{'buf kept':>11}"
)


def span(values: list[float]) -> str:
    return f"{min(values):,.0f}-{max(values):,.0f}"


def ratio_span(tops: list[float], bottoms: list[float]) -> str:
    ratios = [top / bottom for top, bottom in zip(tops, bottoms, strict=True)]
    return f"{min(ratios):.2f}-{max(ratios):.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per measure")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved repeats")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--no-pyspiel", action="store_true")
    parser.add_argument(
        "--same-wrapper",
        action="store_true",
        help="wrap the PettingZoo ceilings in Courtly's OrderEnforcing, as the env is",
    )
    args = parser.parse_args()
    wrap: Any = wrappers.OrderEnforcingWrapper
    if args.same_wrapper:
        from courtly.rl.pettingzoo import OrderEnforcing  # (asked for only: older builds lack it)

        wrap = OrderEnforcing
    print(f"compiled engine: {_compiled.running_compiled()}")
    cases = [
        (info.id, players)
        for info in courtly.games()
        if not info.id.startswith("test-") and (not args.game or info.id in args.game)
        for players in info.player_counts
    ]
    print(
        f"\n{'game':<22}{'n':>2}{'PZ observer':>16}{'PZ ceiling':>16}{'x ceiling':>11}"
        f"{'PZ sample':>16}{'sample ceil.':>16}{'x ceiling':>11}"
        f"{'PZ old path':>16}{SPIEL_HEADER}"
    )
    for game_id, players in cases:
        game = courtly.make(game_id, players=players)
        fast: list[float] = []
        ceiling: list[float] = []
        sampled: list[float] = []
        sample_ceiling: list[float] = []
        old: list[float] = []
        spiel_rounds: list[dict[str, float]] = []
        spiel_game = null_game = None
        if not args.no_pyspiel:
            import pyspiel

            from courtly.rl.openspiel import game_name, register_all

            register_all()
            spiel_game = pyspiel.load_game(game_name(game_id), {"players": players})
            null_game = null_observer_game(spiel_game)
        for round_ in range(args.rounds):
            rate, length = pettingzoo_rate(courtly_env(game_id, players), args.seconds, round_)
            fast.append(rate)
            # The ceiling plays episodes of the same agent steps (the final steps included).
            nothing = DoNothingEnv(
                players, game.tensor_layout().size, game.num_actions, round(length) - players
            )
            ceiling.append(pettingzoo_rate(wrap(nothing), args.seconds, round_)[0])
            table = courtly_env(game_id, players)
            sampled.append(pettingzoo_rate(table, args.seconds, round_, "sample")[0])
            sample_ceiling.append(pettingzoo_rate(wrap(nothing), args.seconds, round_, "sample")[0])
            slow = wrappers.OrderEnforcingWrapper(ViewEncodingEnv(game_id, players))
            old.append(pettingzoo_rate(slow, args.seconds, round_)[0])
            if spiel_game is not None:
                spiel_rounds.append(pyspiel_rates(spiel_game, null_game, args.seconds, round_))
        print(
            f"{game_id:<22}{players:>2}{span(fast):>16}{span(ceiling):>16}"
            f"{ratio_span(fast, ceiling):>11}{span(sampled):>16}{span(sample_ceiling):>16}"
            f"{ratio_span(sampled, sample_ceiling):>11}{span(old):>16}"
            f"{pyspiel_columns(spiel_rounds)}",
            flush=True,
        )


if __name__ == "__main__":
    main()
