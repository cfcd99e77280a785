"""What each game's ``write_tensor`` costs alone: microseconds a call, every game and count.

The same states every run (every state of seeded random games, the first ``--states``), every
seat of each; a pass writes them all into two emptied sinks, and the figure is the fastest of
``--passes`` passes, divided by the calls. Beside it, ``Observer.observe`` over the same calls
(the writer, the NumPy vector and the mask: what the adapters pay). With ``--baseline SRC``
the same measures run in a second interpreter with ``PYTHONPATH=SRC`` (another checkout's
``src``, built alike), alternating with this one ``--rounds`` times, both printed as ranges::

    PYTHONPATH=src .venv/bin/python benchmarks/writers.py --baseline ../main/src --rounds 3

Run it on the compiled engine (``make compiled``); it prints whether each side is.
"""

from __future__ import annotations

import argparse
import json
import random
import struct
import time
from typing import Any

import courtly
from alternating import alternate, compiled_line
from courtly import _compiled
from courtly.core import play_randomly, tensors
from courtly.core.game import Game, State
from courtly.rl.tensors import Observer, tensor_writer


def seeded_states(game: Game, count: int) -> list[State]:
    """The first ``count`` states met along random games of seeds 0, 1, ... (terminal included)."""
    found: list[State] = []
    seed = 0
    while len(found) < count:
        rng = random.Random(seed)
        state = game.new_state()
        found.append(state.clone())
        while not state.is_terminal and len(found) < count:
            play_randomly(state, rng, max_steps=1)
            found.append(state.clone())
        seed += 1
    return found


class Sinks:
    """What a writer writes into: two byte sinks, or in the builds before them (a baseline run
    of an older checkout) two lists, emptied after each call as the observer does."""

    def __init__(self) -> None:
        self.bytes = hasattr(tensors, "PAIR_FORMAT")
        if self.bytes:
            from librt.strings import BytesWriter

            self.ones: Any = BytesWriter()
            self.pairs: Any = BytesWriter()
        else:
            self.ones, self.pairs = [], []

    def count(self) -> int:
        """The nonzero floats written (before :meth:`empty`)."""
        if self.bytes:
            return len(self.ones) // 2 + len(self.pairs) // struct.calcsize(tensors.PAIR_FORMAT)
        return len(self.ones) + len(self.pairs) // 2

    def empty(self) -> None:
        if self.bytes:
            self.ones.truncate(0)
            self.pairs.truncate(0)
        else:
            self.ones.clear()
            self.pairs.clear()


def writer_cost(game: Game, count: int, passes: int) -> tuple[float, float, float]:
    """Microseconds a call of the writer alone and of ``Observer.observe`` (its fastest pass
    each), and the mean nonzero floats a call."""
    writer = tensor_writer(game)
    if writer is None:
        raise SystemExit(f"{game!r} has no write_tensor")
    observe = Observer(game).observe
    calls = [
        (state, seat) for state in seeded_states(game, count) for seat in range(game.num_players)
    ]
    sinks = Sinks()
    nonzero = 0
    for state, seat in calls:
        writer(state, seat, sinks.ones, sinks.pairs)
        nonzero += sinks.count()
        sinks.empty()
    ones, pairs, empty = sinks.ones, sinks.pairs, sinks.empty
    alone = observed = float("inf")
    for _ in range(passes):
        start = time.perf_counter()
        for state, seat in calls:
            writer(state, seat, ones, pairs)
            empty()
        alone = min(alone, time.perf_counter() - start)
        start = time.perf_counter()
        for state, seat in calls:
            observe(state, seat)
        observed = min(observed, time.perf_counter() - start)
    return alone / len(calls) * 1e6, observed / len(calls) * 1e6, nonzero / len(calls)


def cases(only: list[str] | None) -> list[tuple[str, int]]:
    return [
        (info.id, players)
        for info in courtly.games()
        if info.tensor_layout is not None
        and not info.id.startswith("test-")
        and (not only or info.id in only)
        for players in info.player_counts
    ]


def measure(args: argparse.Namespace) -> dict[str, object]:
    costs = {
        f"{game_id} {players}": writer_cost(
            courtly.make(game_id, players=players), args.states, args.passes
        )
        for game_id, players in cases(args.game)
    }
    return {"compiled": bool(_compiled.running_compiled()), "costs": costs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--states", type=int, default=300, help="states per game and count")
    parser.add_argument("--passes", type=int, default=5, help="passes; the fastest counts")
    parser.add_argument("--rounds", type=int, default=1, help="alternations with --baseline")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--baseline", help="another checkout's src to measure alternately")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args)))
        return
    argv = [f"--states={args.states}", f"--passes={args.passes}"]
    argv += [f"--game={game_id}" for game_id in args.game or []]
    ours, theirs = alternate(__file__, lambda: measure(args), argv, args.baseline, args.rounds)
    print(compiled_line(ours, theirs))
    print(f"{'game':<26}{'floats':>7}{'writer':>13}{'baseline':>13}{'observe':>13}{'baseline':>13}")
    for case in costs(ours[0]):
        line = f"{case:<26}{costs(ours[0])[case][2]:>6.0f}"
        for measure_index in (0, 1):
            line += f"{column(ours, case, measure_index):>13}"
            line += f"{column(theirs, case, measure_index) if theirs else '-':>13}"
        print(line, flush=True)


def costs(run: dict[str, object]) -> dict[str, list[float]]:
    found = run["costs"]
    assert isinstance(found, dict)
    return found


def column(runs: list[dict[str, object]], case: str, index: int) -> str:
    """The range over the runs of one measure (microseconds a call)."""
    return span([costs(run)[case][index] for run in runs])


def span(values: list[float]) -> str:
    return f"{min(values):.2f}-{max(values):.2f}"


if __name__ == "__main__":
    main()
