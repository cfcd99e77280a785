"""Why the Ostrogoths win more of Goths Save the Queen: controlled comparisons on the same seeds.

The finding it explains (docs/findings/goths-save-the-queen.md): with the heuristic in all four
seats, the Ostrogoth seats win about 28% each and the Visigoth seats 22%. Every line below plays
the same games (the same Objective layout and the same bot generators for game ``i``) and
changes one thing:

* ``first``: which clan holds the initiative on turn 1 (the option ``first_initiative``,
  GOTH-27; the rules as written give it to the Ostrogoths, GOTH-7);
* ``O`` / ``V``: the bot of each clan's two seats (the mirror: the same pair of bots with the
  clans swapped);
* the heuristic, random bots and ISMCTS, so that a bias of one bot cannot pass for the rules';
* ``--warchiefs visigoths``: the Visigoth Warchief's order is taken before the Ostrogoth's. The
  two orders are given at once and face down (§3 A, GOTH-8), but the engine takes them one after
  the other, ``p2`` then ``p3``: the rules cannot tell, but a search that reads an order already
  given (ISMCTS's sampled worlds do) can;
* ``--jitter``: the heuristic's tie-breaking jitter (a fixed pseudo-random number per turn, clan
  and order, ``heuristic._jitter``, the same in every game) as it is, mirrored (each clan gets
  the other's numbers), off, or salted (drawn afresh for every game, the same salt for both
  lines of a pair, so that no clan keeps one fixed set of numbers). All but ``asis`` patch the
  heuristic, so they run as plain Python (COURTLY_PURE=1).

A clan's score is 1 for a win, 0 for a loss and 1/2 for a draw at the safety cap (GOTH-26); a
seat's win rate as ``courtly analyze`` gives it is half its clan's score (a clan's win is shared
by its two seats). Intervals are 95% (normal approximation on the per-game score); a difference
between two lines is paired game by game.

    PYTHONPATH=src python benchmarks/goths_seats.py                  # the issue's sizes
    PYTHONPATH=src python benchmarks/goths_seats.py --games 1000 --search-games 100
    PYTHONPATH=src python benchmarks/goths_seats.py --jitter mirror --only "heuristic x4"
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import os
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from multiprocessing import Pool
from typing import Any

if "--jitter" in sys.argv and not {"asis", "--jitter=asis"} & set(sys.argv):
    # A patched heuristic must run as plain Python: a compiled module calls its own functions.
    os.environ["COURTLY_PURE"] = "1"

import courtly
from courtly.agents import make_agent
from courtly.core.game import Agent, sample_chance

GAME = "goths-save-the-queen"
SALT = [0]
"""The salt of the game being played, for ``--jitter salted`` (set by :func:`play_one`)."""
Z95 = 1.959963984540054


@dataclass(frozen=True)
class Line:
    """One controlled condition: the first initiative, each clan's bot, the game's options."""

    name: str
    first: str  # "ostrogoths" or "visigoths"
    ostrogoths: str  # the bot of seats p0 and p2
    visigoths: str  # the bot of seats p1 and p3
    options: tuple[tuple[str, Any], ...] = ()
    search: bool = False  # a slow line: played on --search-games games
    warchiefs: str = "ostrogoths"  # whose Warchief's order the engine takes first


@dataclass
class Outcome:
    """The Ostrogoths' score of each game (1 win, 0 loss, 1/2 draw) and the games' lengths."""

    scores: list[float] = field(default_factory=list)
    turns: list[int] = field(default_factory=list)
    seconds: float = 0.0


def play_one(args: tuple[Line, int, int]) -> tuple[float, int]:
    """Game ``index`` of ``line``: the Ostrogoths' score and the number of turns."""
    line, seed, index = args
    options = dict(line.options)
    options["first_initiative"] = line.first
    game = courtly.make(GAME, players=4, **options)
    if line.warchiefs == "visigoths":
        # Test-only: the same simultaneous orders, taken V-then-O (the rules see no difference).
        tables = game.tables  # type: ignore[attr-defined]
        tables.order_givers = tables.order_givers[::-1]
    agents: dict[str, Agent] = {}
    for spec in {line.ostrogoths, line.visigoths}:
        agents[spec] = make_agent(spec, game)
    bots = [line.ostrogoths, line.visigoths, line.ostrogoths, line.visigoths]
    chance = random.Random(f"goths-seats/{seed}/{index}/chance")
    rngs = [random.Random(f"goths-seats/{seed}/{index}/seat{seat}") for seat in range(4)]
    SALT[0] = 1 + random.Random(f"goths-seats/{seed}/{index}/salt").randrange(10**6)
    state = game.new_state()
    while not state.is_terminal:
        if state.is_chance:
            sample_chance(state, chance)
            continue
        seat = state.to_move[0]
        action = agents[bots[seat]].act(state.view(seat), rngs[seat])
        state.apply(seat, action)
    returns = state.returns()
    # Each seat's share: a clan's win is 1/2 to each of its seats, a draw 1/4 to every seat
    # (GOTH-26), so the Ostrogoths' score is the sum over their seats p0 and p2.
    score = returns[0] + returns[2]
    progress = state.progress()
    return score, int(progress["turns"])


def run_line(line: Line, games: int, seed: int, workers: int) -> Outcome:
    start = time.perf_counter()
    jobs = [(line, seed, index) for index in range(games)]
    if workers > 1:
        with Pool(workers) as pool:
            results = pool.map(play_one, jobs, chunksize=8)
    else:
        results = [play_one(job) for job in jobs]
    outcome = Outcome([score for score, _ in results], [turns for _, turns in results])
    outcome.seconds = time.perf_counter() - start
    return outcome


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean and its 95% interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(n - 1, 1)
    half = Z95 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def two_sided_p(mean: float, low: float, high: float) -> float:
    """The two-sided p-value of ``mean`` against 0 from its 95% interval."""
    se = (high - low) / (2 * Z95)
    if se == 0:
        return 0.0 if mean else 1.0
    return math.erfc(abs(mean) / se / math.sqrt(2))


def report_line(line: Line, outcome: Outcome) -> dict[str, Any]:
    scores = outcome.scores
    n = len(scores)
    mean, low, high = mean_interval(scores)
    # The "edge": the Ostrogoths' score minus 1/2, doubled, is the O-seat minus V-seat win rate.
    o_wins = sum(1 for s in scores if s == 1.0)
    v_wins = sum(1 for s in scores if s == 0.0)
    draws = n - o_wins - v_wins
    return {
        "line": line.name,
        "first": line.first,
        "ostrogoths": line.ostrogoths,
        "visigoths": line.visigoths,
        "options": dict(line.options),
        "games": n,
        "ostrogoth_score": mean,
        "ostrogoth_score_ci": [low, high],
        "ostrogoth_seat_win_rate": mean / 2,
        "visigoth_seat_win_rate": (1 - mean) / 2,
        "p_fair": two_sided_p(mean - 0.5, low - 0.5, high - 0.5),
        "ostrogoth_wins": o_wins,
        "visigoth_wins": v_wins,
        "draws": draws,
        "mean_turns": sum(outcome.turns) / n,
        "seconds": outcome.seconds,
    }


def paired(a: Outcome, b: Outcome) -> tuple[float, float, float]:
    """The mean of b's score minus a's, game by game, with its 95% interval."""
    n = min(len(a.scores), len(b.scores))
    return mean_interval([b.scores[i] - a.scores[i] for i in range(n)])


def lines(search_spec: str, warchiefs: str) -> list[Line]:
    both = ("ostrogoths", "visigoths")
    found: list[Line] = []
    for first in both:
        found.append(
            Line(
                f"heuristic x4, {first} first", first, "heuristic", "heuristic", warchiefs=warchiefs
            )
        )
    for first in both:
        found.append(
            Line(f"random x4, {first} first", first, "random", "random", warchiefs=warchiefs)
        )
    for first in both:
        for o, v in (("heuristic", "random"), ("random", "heuristic")):
            name = f"{o} O vs {v} V, {first} first"
            found.append(Line(name, first, o, v, warchiefs=warchiefs))
    for first in both:
        found.append(
            Line(
                f"{search_spec} x4, {first} first",
                first,
                search_spec,
                search_spec,
                search=True,
                warchiefs=warchiefs,
            )
        )
    return found


def patch_jitter(mode: str) -> None:
    """Mirror the heuristic's jitter between the clans, or switch it off (``asis``: leave it)."""
    if mode == "asis":
        return
    heuristic = importlib.import_module("courtly.games.goths_save_the_queen.heuristic")
    if mode == "off":
        heuristic.Evaluator.jitter = 0.0
        return
    original = heuristic._jitter
    if mode == "salted":

        def salted(turn: int, clan: int, order: int) -> float:
            # Both halves of a clan still compute the same numbers (the salt is the table's).
            return float(original(turn, clan + 2 * SALT[0], order))

        heuristic._jitter = salted
        return
    assert mode == "mirror"

    def mirrored(turn: int, clan: int, order: int) -> float:
        return float(original(turn, 1 - clan, order))

    heuristic._jitter = mirrored


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=10000, help="games per fast line")
    parser.add_argument("--search-games", type=int, default=1000, help="games per ISMCTS line")
    parser.add_argument("--search", default="ismcts:iterations=100", help="the search bot")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--only", default="", help="play only lines whose name holds this text")
    parser.add_argument("--out", default="", help="write every figure as JSON here")
    parser.add_argument(
        "--jitter",
        default="asis",
        choices=("asis", "mirror", "off", "salted"),
        help="the heuristic's clan-keyed jitter: as is, mirrored between the clans, off, or "
        "salted afresh for every game",
    )
    parser.add_argument(
        "--warchiefs",
        default="ostrogoths",
        choices=("ostrogoths", "visigoths"),
        help="whose Warchief's order the engine takes first (the orders are simultaneous)",
    )
    args = parser.parse_args()
    patch_jitter(args.jitter)
    if args.warchiefs != "ostrogoths":
        print(f"(the engine takes the {args.warchiefs}' Warchief's order first)")
    if args.jitter != "asis":
        print(f"(the heuristic's jitter: {args.jitter})")
    rows: list[dict[str, Any]] = []
    outcomes: dict[str, Outcome] = {}
    print(f"{'line':<52}{'games':>6}  {'O seat':>7} {'V seat':>7}  O score 95%      p(fair)")
    for line in lines(args.search, args.warchiefs):
        if args.only and args.only not in line.name:
            continue
        games = args.search_games if line.search else args.games
        if games <= 0:
            continue
        outcome = run_line(line, games, args.seed, args.workers)
        outcomes[line.name] = outcome
        row = report_line(line, outcome)
        rows.append(row)
        low, high = row["ostrogoth_score_ci"]
        print(
            f"{line.name:<52}{games:>6}  {row['ostrogoth_seat_win_rate']:>7.1%} "
            f"{row['visigoth_seat_win_rate']:>7.1%}  {row['ostrogoth_score']:.3f} "
            f"[{low:.3f}, {high:.3f}]  {row['p_fair']:.1e}   "
            f"(draws {row['draws']}, {row['mean_turns']:.1f} turns, {outcome.seconds:.0f}s)",
            flush=True,
        )
    # Paired swaps of the initiative: the same games with the other clan first.
    print("\nSwapping the first initiative (Visigoths first minus Ostrogoths first, paired):")
    for name, outcome in outcomes.items():
        if not name.endswith("ostrogoths first"):
            continue
        other = outcomes.get(name.replace("ostrogoths first", "visigoths first"))
        if other is None:
            continue
        mean, low, high = paired(outcome, other)
        print(
            f"  {name[: -len(', ostrogoths first')]:<48} O score {mean:+.3f} [{low:+.3f}, {high:+.3f}]"
        )
        rows.append({"swap": name, "difference": mean, "ci": [low, high]})
    if args.out:
        with open(args.out, "w", encoding="utf-8") as handle:
            json.dump(rows, handle, indent=2)


if __name__ == "__main__":
    main()
