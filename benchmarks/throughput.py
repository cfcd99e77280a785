"""Random-playout throughput of every registered game on one core (``make bench``).

Each figure is the median of ``--repeat`` runs of ``--seconds`` each.

A step is one chance event or one seat's action, made through the public contract exactly as a
simulation makes it: ``sample_chance`` at chance nodes, ``legal_actions`` + ``apply`` otherwise.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from pathlib import Path
from typing import Any

import courtly
from courtly.core.game import Game
from courtly.core.match import play_randomly


def random_playouts(game: Game, seconds: float, seed: int = 0) -> dict[str, float]:
    """Play random games for about ``seconds``; count games and steps."""
    rng = random.Random(seed)
    steps = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        steps += play_randomly(game.new_state(), rng)
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            break
    elapsed = now - start
    return {
        "steps_per_s": steps / elapsed,
        "games_per_s": games / elapsed,
        "mean_steps": steps / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=1.0, help="time per run")
    parser.add_argument("--repeat", type=int, default=5, help="runs per game and player count")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/throughput.json"))
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []
    print(f"{'game':<24}{'players':>8}{'steps/s':>12}{'games/s':>10}{'steps/game':>12}")
    for info in courtly.games():
        for players in info.player_counts:
            game = courtly.make(info.id, players=players)
            # The median of several short runs shrugs off a noisy neighbour on the machine.
            runs = [random_playouts(game, args.seconds, seed) for seed in range(args.repeat)]
            result = sorted(runs, key=lambda r: r["steps_per_s"])[len(runs) // 2]
            rows.append({"game": info.id, "players": players, **result})
            print(
                f"{info.id:<24}{players:>8}{result['steps_per_s']:>12,.0f}"
                f"{result['games_per_s']:>10,.1f}{result['mean_steps']:>12,.1f}"
            )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {"python": platform.python_version(), "machine": platform.machine(), "results": rows},
            indent=2,
        )
    )
    print(f"saved {args.out}")


if __name__ == "__main__":
    main()
