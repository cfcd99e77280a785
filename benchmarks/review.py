"""How long ``courtly review`` takes: a complete 2-player game of each game, reviewed for both
seats at the default budget (the aim: under a minute on a 2-core machine).

Each game is played by two heuristic bots (seed ``--seed``), then reviewed with ``--workers``
processes. Wall-clock time depends on what else the machine runs, so the CPU time of this
process and its workers is reported too: on a quiet machine the wall time is about the CPU time
divided by the number of workers. Results go to ``benchmarks/results/review.json``.

    python benchmarks/review.py                      # every game, default budget, every core
    python benchmarks/review.py --games kings-court --iterations 400
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import time
from pathlib import Path
from typing import Any

import courtly
from courtly import _compiled
from courtly.agents.estimates import DEFAULT_ITERATIONS, Budget
from courtly.agents.registry import make_agent
from courtly.core.match import play_match
from courtly.sim.review import review_record

GAMES = [
    "royal-gambit",
    "god-save-the-king",
    "crush-the-crown",
    "goths-save-the-queen",
    "kings-court",
]


def cpu_seconds() -> float:
    """CPU time of this process and of its finished children (the review's workers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def measure(game_id: str, iterations: int, seed: int, workers: int) -> dict[str, Any]:
    game = courtly.make(game_id, players=2)
    seats = ["heuristic", "heuristic"]
    record = play_match(game, [make_agent(s, game) for s in seats], seed, seats=seats)
    cpu, wall = cpu_seconds(), time.perf_counter()
    review = review_record(record, budget=Budget(iterations), seed=seed, workers=workers)
    wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
    return {
        "game": game_id,
        "events": len(record.history),
        "decisions_reviewed": len(review.decisions),
        "chance_steps": len(review.chance),
        "wall_seconds": round(wall, 1),
        "cpu_seconds": round(cpu, 1),
        "labels": {f"p{seat}": summary.errors for seat, summary in review.summaries.items()},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default=",".join(GAMES))
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--out", type=Path, default=Path(__file__).parent / "results" / "review.json"
    )
    args = parser.parse_args()
    rows = []
    for game_id in args.games.split(","):
        row = measure(game_id, args.iterations, args.seed, args.workers)
        rows.append(row)
        print(
            f"{game_id:22} {row['events']:4} events, {row['decisions_reviewed']:4} decisions, "
            f"{row['chance_steps']:3} chance steps: {row['wall_seconds']:6.1f} s wall, "
            f"{row['cpu_seconds']:6.1f} s CPU",
            flush=True,
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {
                "iterations": args.iterations,
                "workers": args.workers,
                "seed": args.seed,
                "machine": platform.platform(),
                "cpus": os.cpu_count(),
                "load_average": os.getloadavg(),
                "compiled": _compiled.running_compiled(),
                "reviews": rows,
            },
            indent=2,
        )
        + "\n"
    )


if __name__ == "__main__":
    main()
