"""What the perfect-recall information-state tensor costs through the OpenSpiel adapter, per
game, in one run (games with ``safety_cap`` 10, ``infostate_tensor="perfect_recall"``):

* **record us**: microseconds to write one decision's observation vector as the adapter keeps it
  (at every decision of every seat, read or not), at 300 decision points of random play:
  ``view``, through the seat's view (``observation_tensor(state.view(seat))``, the path before
  the fast observer), then ``fast``, the game's observer from the state
  (``RecallLayout.decision``), the minimum of 5 passes each;
* **random play** through pyspiel, decisions per second: ``plain`` (the same game without
  perfect recall), ``kept`` (perfect recall, its decisions recorded, never read) and ``read``
  (the whole tensor read at every decision through OpenSpiel's observer, ``make_observation``
  with ``perfect_recall``: the NumPy array the adapter writes), and ``read / plain``.

Every figure is the median (min-max) of ``--repeats`` interleaved runs. On a tree without
``RecallLayout.decision`` (point ``PYTHONPATH`` at its ``src``) the fast record is left out.

    .venv/bin/python benchmarks/recall.py [--steps 3000] [--repeats 3] [--games royal-gambit]
"""

from __future__ import annotations

import argparse
import functools
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyspiel
from open_spiel.python.observation import make_observation

import courtly.rl.openspiel as adapter
from courtly import _compiled
from courtly.core import games
from courtly.rl.tensors import observation_tensor

sys.path.insert(0, str(Path(__file__).resolve().parent))
from openspiel_adapter import play_rate  # the same loop as the adapter's own figures

GAMES = [info.id for info in games() if not info.id.startswith("test-")]
RECALL = {"safety_cap": 10, "infostate_tensor": "perfect_recall"}


def decision_points(game: Any, count: int) -> list[tuple[Any, int]]:
    """(Courtly state, seat to decide) at ``count`` decisions of seeded random play."""
    rng = random.Random(3)
    points: list[tuple[Any, int]] = []
    while len(points) < count:
        state = game.new_state()
        while not state.is_terminal and len(points) < count:
            if state.is_chance:
                outcomes = state.chance_outcomes()
                state.apply_chance(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
                continue
            seat = state.to_move[0]
            points.append((state.clone(), seat))
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    return points


def record_micros(points: list[tuple[Any, int]], record: Callable[[Any, int], object]) -> float:
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for state, seat in points:
            record(state, seat)
        best = min(best, time.perf_counter() - start)
    return 1e6 * best / len(points)


def record_fast(layout: Any, state: Any, seat: int) -> object:
    return layout.decision(state, seat, 0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--games", nargs="*", default=GAMES)
    args = parser.parse_args()
    print(f"compiled modules: {len(_compiled.running_compiled())}")
    for game_id in args.games:
        name = adapter.game_name(game_id)
        plain = pyspiel.load_game(name, {"safety_cap": 10})
        recall_game = pyspiel.load_game(name, RECALL)
        observer = make_observation(recall_game, pyspiel.IIGObservationType(perfect_recall=True))

        def read(state: Any, player: int, observer: Any = observer) -> object:
            observer.set_from(state, player)
            return observer.tensor

        layout = recall_game.recall
        points = decision_points(recall_game.courtly, 300)
        records: list[tuple[str, Callable[[Any, int], object]]] = [
            ("record view us", lambda state, seat: observation_tensor(state.view(seat)))
        ]
        if hasattr(layout, "decision"):
            records.append(("record fast us", functools.partial(record_fast, layout)))
        runs: dict[str, list[float]] = {}
        for _ in range(args.repeats):
            for label, record in records:
                runs.setdefault(label, []).append(record_micros(points, record))
            rates = {
                "plain": play_rate(plain, args.steps, None),
                "kept": play_rate(recall_game, args.steps, None),
                "read": play_rate(recall_game, args.steps, read),
            }
            for label, rate in rates.items():
                runs.setdefault(label, []).append(rate)
            runs.setdefault("read/plain", []).append(rates["read"] / rates["plain"])
        shown = ", ".join(
            f"{label} {statistics.median(values):,.2f} ({min(values):,.2f}-{max(values):,.2f})"
            if "us" in label or "/" in label
            else f"{label} {statistics.median(values):,.0f} ({min(values):,.0f}-{max(values):,.0f})"
            for label, values in runs.items()
        )
        print(f"{game_id}: {shown}", flush=True)


if __name__ == "__main__":
    main()
