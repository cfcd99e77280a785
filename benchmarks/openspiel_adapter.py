"""What the OpenSpiel adapter's own work costs, per game, in one run.

* **clone**: microseconds per ``state.clone()`` at random decision points (OpenSpiel clones a
  Python state at every node of a tree walk and every ISMCTS simulation);
* **random play** through pyspiel, in decisions per second: plain, then reading at every step
  the information-state string (``infostate="key"``, then ``"readable"``), then the
  perfect-recall information-state tensor (``infostate_tensor="perfect_recall"``, on the same
  game with ``safety_cap`` 10, which keeps the vector small; plain play of that game beside it),
  through ``state.information_state_tensor`` (a Python list) and through OpenSpiel's observer
  (``make_observation``: the NumPy array the adapter writes, no list);
* **ISMCTS**: simulations per second of OpenSpiel's own ISMCTS (random rollouts, 60
  simulations) at four decision points with a choice, which clones at every simulation;
* **exploitability** of the uniform policy on ``TINY["kings-court"]``: seconds for OpenSpiel's
  full tree walk.

Every figure is the median of ``--repeats`` runs, interleaved. Run it on an older tree by
pointing ``PYTHONPATH`` at its ``src``: what that tree lacks is left out.

    .venv/bin/python benchmarks/openspiel_adapter.py [--steps 3000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python import policy
from open_spiel.python.algorithms import exploitability, ismcts, mcts
from open_spiel.python.observation import make_observation

import courtly.rl.openspiel as adapter
from courtly import _compiled
from courtly.core import games

GAMES = [info.id for info in games() if not info.id.startswith("test-")]


def decision_points(game: Any, count: int, seed: int) -> list[Any]:
    rng = random.Random(seed)
    points: list[Any] = []
    while len(points) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(points) < count:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
                continue
            if rng.random() < 0.1:
                points.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return points


def clone_micros(game: Any) -> float:
    points = decision_points(game, 20, 0)
    start = time.perf_counter()
    for _ in range(10):
        for point in points:
            point.clone()
    return 1e6 * (time.perf_counter() - start) / (10 * len(points))


def ismcts_rate(game: Any, simulations: int = 60) -> float:
    points = [point for point in decision_points(game, 40, 2) if len(point.legal_actions()) > 1]
    elapsed = 0.0
    for index, point in enumerate(points[:4]):
        rng = np.random.RandomState(index)
        evaluator = mcts.RandomRolloutEvaluator(1, rng)
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, simulations, random_state=rng)
        start = time.perf_counter()
        bot.step(point)
        elapsed += time.perf_counter() - start
    return simulations * len(points[:4]) / elapsed


def play_rate(game: Any, steps: int, read: Callable[[Any, int], object] | None) -> float:
    """Decisions per second of random play, ``read`` called at each decision."""
    rng = random.Random(1)
    done = 0
    elapsed = 0.0
    while done < steps:
        state = game.new_initial_state()
        start = time.perf_counter()
        while not state.is_terminal() and done < steps:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
                continue
            player = state.current_player()
            if read is not None:
                read(state, player)
            state.apply_action(rng.choice(state.legal_actions()))
            done += 1
        elapsed += time.perf_counter() - start
    return done / elapsed


def exploitability_seconds() -> float:
    tiny = pyspiel.load_game(adapter.game_name("kings-court"), adapter.TINY["kings-court"])
    start = time.perf_counter()
    exploitability.exploitability(tiny, policy.UniformRandomPolicy(tiny))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    new = hasattr(adapter, "TINY")
    print(f"compiled modules: {len(_compiled.running_compiled())}; adapter with choices: {new}")

    def information_string(state: Any, player: int) -> object:
        return state.information_state_string(player)

    def information_tensor(state: Any, player: int) -> object:
        return state.information_state_tensor(player)

    for game_id in GAMES:
        name = adapter.game_name(game_id)
        runs: dict[str, list[float]] = {}
        games_by_label: list[tuple[str, Any, Callable[[Any, int], object] | None]] = [
            ("plain", pyspiel.load_game(name), None),
            ("key", pyspiel.load_game(name), information_string),
        ]
        if new:
            recall_game = pyspiel.load_game(
                name, {"safety_cap": 10, "infostate_tensor": "perfect_recall"}
            )
            observer = make_observation(
                recall_game, pyspiel.IIGObservationType(perfect_recall=True)
            )

            def observe(state: Any, player: int, observer: Any = observer) -> object:
                observer.set_from(state, player)
                return observer.tensor

            games_by_label += [
                (
                    "readable",
                    pyspiel.load_game(name, {"infostate": "readable"}),
                    information_string,
                ),
                ("plain cap 10", pyspiel.load_game(name, {"safety_cap": 10}), None),
                (
                    "recall cap 10",
                    pyspiel.load_game(
                        name, {"safety_cap": 10, "infostate_tensor": "perfect_recall"}
                    ),
                    information_tensor,
                ),
                ("recall observer cap 10", recall_game, observe),
            ]
        for _ in range(args.repeats):
            runs.setdefault("clone us", []).append(clone_micros(games_by_label[0][1]))
            runs.setdefault("ismcts sims/s", []).append(ismcts_rate(games_by_label[0][1]))
            for label, game, read in games_by_label:
                runs.setdefault(label, []).append(play_rate(game, args.steps, read))
        shown = ", ".join(
            f"{label} {statistics.median(values):,.0f} ({min(values):,.0f}-{max(values):,.0f})"
            for label, values in runs.items()
        )
        print(f"{game_id}: {shown}", flush=True)
    if new:
        seconds = [exploitability_seconds() for _ in range(args.repeats)]
        print(f"exploitability, TINY kings-court: {statistics.median(seconds):.2f} s")


if __name__ == "__main__":
    main()
