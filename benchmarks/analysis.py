"""How `courtly analyze` and `courtly simulate` scale.

Two measurements, each in fresh processes so that one does not warm the other:

- **speed**: games/s of the analysis (facts of every game, heuristic bots in every seat) for each
  game at its default player count, on 1 and 2 local workers and on a local Ray with 2 CPUs;
- **memory**: the peak resident memory (``ru_maxrss`` of the process and its children) of
  ``simulate`` and of the analysis of random bots, from 10,000 to 1,000,000 games.

    .venv/bin/python benchmarks/analysis.py --out benchmarks/results/analysis.json
    .venv/bin/python benchmarks/analysis.py --memory 10000,100000,1000000

Figures depend on the machine; the ratios between them are the point.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

GAMES = {
    "royal-gambit": 3,
    "god-save-the-king": 3,
    "crush-the-crown": 2,
    "goths-save-the-queen": 2,
    "kings-court": 4,
}

SPEED = """
import json, sys, time
from courtly.sim import Simulation
from courtly.sim.analysis import analyse
from courtly.sim.backends import make_backend
game, players, games, backend, workers = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], int(sys.argv[5])
simulation = Simulation(game, ("heuristic",) * players, games, seed=1)
runner = make_backend(backend, workers)
start = time.perf_counter()
figures = analyse(simulation, runner)
seconds = time.perf_counter() - start
runner.close()
print(json.dumps({"games": figures.games, "seconds": seconds}))
"""

MEMORY = """
import json, resource, sys
from courtly.sim import Simulation, Summary
from courtly.sim.analysis import analyse
from courtly.sim.backends import LocalBackend
from courtly.sim.tournament import run
games, what = int(sys.argv[1]), sys.argv[2]
simulation = Simulation("royal-gambit", ("random", "random"), games, seed=3)
if what == "simulate":
    summary = Summary()
    for record in run(simulation, 2):
        summary.add(record.seats, record.returns, record.length, record.truncated)
else:
    analyse(simulation, LocalBackend(2))
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"rss_mb": own / 1024, "worker_rss_mb": workers / 1024}))
"""


def child(script: str, *args: object) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-c", script, *map(str, args)],
        capture_output=True,
        text=True,
        check=True,
    )
    found: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def speed(games: int) -> list[dict[str, Any]]:
    rows = []
    for game, players in GAMES.items():
        for backend, workers in (("local", 1), ("local", 2), ("ray", 2)):
            found = child(SPEED, game, players, games, backend, workers)
            row = {
                "game": game,
                "players": players,
                "backend": backend,
                "workers": workers,
                "games": found["games"],
                "seconds": round(found["seconds"], 2),
                "games_per_second": round(found["games"] / found["seconds"], 1),
            }
            print(row, flush=True)
            rows.append(row)
    return rows


def memory(counts: list[int]) -> list[dict[str, Any]]:
    rows = []
    for what in ("simulate", "analyze"):
        for games in counts:
            start = time.perf_counter()
            found = child(MEMORY, games, what)
            row = {
                "what": what,
                "games": games,
                "rss_mb": round(found["rss_mb"], 1),
                "worker_rss_mb": round(found["worker_rss_mb"], 1),
                "seconds": round(time.perf_counter() - start, 1),
            }
            print(row, flush=True)
            rows.append(row)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=400, help="games per speed measurement")
    parser.add_argument(
        "--memory", default="10000,100000", help="game counts of the memory measurement"
    )
    parser.add_argument("--no-speed", action="store_true")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    result: dict[str, Any] = {"machine": platform.processor() or platform.machine()}
    if not args.no_speed:
        result["speed"] = speed(args.games)
    counts = [int(count) for count in args.memory.split(",") if count]
    if counts:
        result["memory"] = memory(counts)
    if args.out:
        args.out.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
