"""ISMCTS search speed per game (``make bench``): iterations per second on one core.

Measured at decision points met along random games, with random rollouts to the end of the
game (like OpenSpiel's ISMCTS benchmarks) and with a capped rollout plus the heuristic's
evaluation (plain ISMCTS), and as the default ``ismcts`` bot plays (the game's heuristic plays
the rollouts, to the game's rollout depth). Each decision searches for a fixed time; each figure
is total iterations / total search time, the median of ``--repeat`` runs.

Against OpenSpiel: ``benchmarks/openspiel.py`` runs OpenSpiel's own Python ISMCTS on the same
games in the same run (a figure measured once elsewhere drifts: an earlier cost model here, from
OpenSpiel figures taken on another machine, overstated the ratio about twice).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import time
from pathlib import Path
from typing import Any

import courtly
from courtly import _compiled
from courtly.agents.ismcts import ISMCTSAgent
from courtly.core.game import Game, State, sample_chance

RANDOM_TO_END = "random rollouts to the end"
PLAIN: dict[str, Any] = {"bias": 0, "guard": 0, "partner": "search", "worlds": "uniform"}
"""Plain ISMCTS, as OpenSpiel's: no pull toward the heuristic, every seat searched, worlds drawn
by ``view.determinize`` alone."""

CONFIGS: dict[str, dict[str, Any]] = {
    RANDOM_TO_END: {"rollout": "random", **PLAIN},
    "random rollouts, depth 20 + evaluation": {"rollout": "random", "depth": 20, **PLAIN},
    "the default bot": {},
}


def decision_points(game: Game, count: int, seed: int) -> list[State]:
    """``count`` states with a real choice, taken along random games."""
    rng = random.Random(seed)
    found: list[State] = []
    while len(found) < count:
        state = game.new_state()
        while not state.is_terminal and len(found) < count:
            if state.is_chance:
                sample_chance(state, rng)
                continue
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            if len(legal) > 1 and rng.random() < 0.2:
                found.append(state.clone())
            state.apply(seat, rng.choice(legal))
    return found


def remaining_steps(points: list[State]) -> float:
    """The mean number of steps a random rollout plays from these points to the end: the work
    behind one full-rollout iteration, for comparing games of different lengths."""
    total = 0
    for index, state in enumerate(points):
        total += state.clone().playout(random.Random(index))
    return total / len(points)


def measure(game: Game, config: dict[str, Any], seconds: float, points: list[State]) -> float:
    agent = ISMCTSAgent(game, seconds=seconds, **config)
    done = 0
    elapsed = 0.0
    for index, state in enumerate(points):
        view = state.view(state.to_move[0])
        start = time.perf_counter()
        agent.act(view, random.Random(index))
        elapsed += time.perf_counter() - start
        done += agent.last_iterations
    return done / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=0.25, help="search time per decision")
    parser.add_argument("--decisions", type=int, default=12, help="decision points per game")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument(
        "--repeat", type=int, default=3, help="runs per figure; the median is reported"
    )
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/search.json"))
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    print(
        f"{'game':<24}{'players':>8}  {'configuration':<42}{'iterations/s':>14}{'steps left':>12}"
    )
    for info in courtly.games():
        if args.game and info.id not in args.game:
            continue
        game = courtly.make(info.id)
        points = decision_points(game, args.decisions, seed=0)
        left = remaining_steps(points)
        for name, config in CONFIGS.items():
            # The median of a few runs: a shared machine's speed wanders by tens of per cent.
            rate = statistics.median(
                measure(game, config, args.seconds, points) for _ in range(args.repeat)
            )
            rows.append(
                {
                    "game": info.id,
                    "players": game.num_players,
                    "config": name,
                    "iterations_per_s": rate,
                    "mean_steps_left": left,
                }
            )
            print(f"{info.id:<24}{game.num_players:>8}  {name:<42}{rate:>14,.0f}{left:>12.0f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    compiled = _compiled.running_compiled()
    print(f"compiled modules: {', '.join(compiled) or 'none (plain Python: make compiled)'}")
    args.out.write_text(
        json.dumps(
            {"python": platform.python_version(), "compiled": compiled, "results": rows}, indent=2
        )
    )
    print(f"saved {args.out}")


if __name__ == "__main__":
    main()
