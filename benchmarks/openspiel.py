"""Courtly's ISMCTS side by side with OpenSpiel's, on Courtly games, in one run.

OpenSpiel's own Python ISMCTS (``open_spiel.python.algorithms.ismcts`` with one random rollout
per simulation) searches Courtly games through the OpenSpiel adapter (``courtly.rl.openspiel``);
Courtly's ISMCTS searches the same games directly. Both are measured on this machine in this run:

* **speed**: iterations per second of each at the same decision points (random games' states
  with a real choice), both with random rollouts to the end of the game. OpenSpiel's search of a
  Python game pays for every call across its C++ core, so it also runs, as yardsticks, on its
  own Leduc poker and Hearts (C++ games); ``x C++ game`` divides Courtly's rate by OpenSpiel's
  on a C++ game of the same rollout length (the line through those two, measured in this run);
* **chance**: random play with every chance event resolved through ``chance_outcomes()`` and
  ``apply_chance`` (as OpenSpiel's API and a tree search walk chance nodes), steps per second in
  every game at every player count, against OpenSpiel's C++ Hearts driven by the same loop;
* **strength**: games between the two at equal time per move, seats rotated (in Goths Save the
  Queen one clan each, then swapped), the win rate of Courtly's bot with a 95% interval. OpenSpiel's
  ISMCTS has no time budget: it gets the simulations its measured speed makes in that time.

    .venv/bin/python benchmarks/openspiel.py [--seconds 0.2] [--games 20] [--out PATH]
    .venv/bin/python benchmarks/openspiel.py --game god-save-the-king --players 2 --players 3
    .venv/bin/python benchmarks/openspiel.py --chance-only [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import courtly
from courtly import _compiled
from courtly.agents.registry import make_agent
from courtly.core.game import Game, State
from courtly.rl.openspiel import CourtlyState, game_name
from courtly.sim.stats import wilson_interval

sys.path.insert(0, str(Path(__file__).resolve().parent))
from search import PLAIN, decision_points, measure, remaining_steps

RANDOM_ROLLOUTS = {"rollout": "random", **PLAIN}
"""Courtly's ISMCTS doing OpenSpiel's work: plain, random rollouts to the end."""


def openspiel_bot(game: Any, simulations: int, seed: int) -> ismcts.ISMCTSBot:
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(1, rng)
    return ismcts.ISMCTSBot(game, evaluator, 2.0, max(2, simulations), random_state=rng)


def adapter_state(spiel_game: Any, state: State) -> CourtlyState:
    """The OpenSpiel state of a Courtly state: replayed event by event, so that every seat's
    information key is built as in a game played through the adapter."""
    courtly_game = spiel_game.courtly
    replayed = spiel_game.new_initial_state()
    for actor, item in state.history:
        if actor < 0:
            replayed.apply_action(courtly_game.chance_outcome_id(item))
        else:
            replayed.apply_action(item.id)
    return replayed


def openspiel_rate(spiel_game: Any, states: list[Any], simulations: int) -> float:
    elapsed = 0.0
    searched = 0
    for index, state in enumerate(states):
        bot = openspiel_bot(spiel_game, simulations, index)
        start = time.perf_counter()
        try:
            bot.step(state)
        except ValueError:  # OpenSpiel's Hearts cannot resample some passing phases: skipped
            continue
        elapsed += time.perf_counter() - start
        searched += 1
    return simulations * searched / elapsed


def yardstick(name: str, decisions: int, simulations: int) -> tuple[float, float]:
    """OpenSpiel's ISMCTS on one of its own games, at random decision points: simulations/s,
    and the mean steps a random rollout takes from those points to the end."""
    game = pyspiel.load_game(name)
    rng = random.Random(0)
    states: list[Any] = []
    while len(states) < decisions:
        state = game.new_initial_state()
        while not state.is_terminal() and len(states) < decisions:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
                continue
            if len(state.legal_actions()) > 1 and rng.random() < 0.2:
                states.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    steps = 0
    for point in states:
        state = point.clone()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    return openspiel_rate(game, states, simulations), steps / len(states)


def same_length_rate(reference: dict[str, tuple[float, float]], steps_left: float) -> float:
    """OpenSpiel's ISMCTS simulations/s on a C++ game whose rollouts are ``steps_left`` long:
    the line through its two own games (seconds per simulation = fixed + per step), measured in
    this run."""
    (short_rate, short_len), (long_rate, long_len) = sorted(reference.values(), key=lambda r: r[1])
    per_step = (1 / long_rate - 1 / short_rate) / (long_len - short_len)
    fixed = 1 / short_rate - per_step * short_len
    return 1 / max(fixed + per_step * steps_left, 1e-9)


def picked(outcomes: list[tuple[Any, float]], x: float) -> Any:
    """The outcome a uniform ``x`` in [0, 1) picks off ``(outcome, probability)`` pairs (the
    same for both loops, so that they differ only in the game)."""
    for outcome, p in outcomes:
        x -= p
        if x < 0:
            return outcome
    return outcomes[-1][0]


def courtly_chance_steps(state: State, rng: random.Random) -> int:
    """One random game from ``state`` with every chance event read off ``chance_outcomes()`` and
    applied with ``apply_chance``, every decision a random legal action; the steps taken."""
    steps = 0
    uniform = rng.random
    while not state.is_terminal:
        if state.is_chance:
            state.apply_chance(picked(state.chance_outcomes(), uniform()))
        else:
            seat = state.to_move[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[int(uniform() * len(legal))])
        steps += 1
    return steps


def spiel_chance_steps(state: Any, rng: random.Random) -> int:
    """The same loop through pyspiel's API (OpenSpiel's C++ games)."""
    steps = 0
    uniform = rng.random
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(picked(state.chance_outcomes(), uniform()))
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(uniform() * len(legal))])
        steps += 1
    return steps


def chance_loop_rate(new_state: Any, loop: Any, seconds: float) -> float:
    """Steps per second of ``loop`` over fresh games from ``new_state()`` for about ``seconds``
    (the time of building each initial state included, as in the other)."""
    rng = random.Random(0)
    steps = 0
    start = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        steps += loop(new_state(), rng)
        elapsed = time.perf_counter() - start
    return steps / elapsed


def chance_table(seconds: float, rounds: int, only: list[str] | None) -> list[dict[str, Any]]:
    """Every game at every player count against OpenSpiel's C++ Hearts in the chance loop,
    interleaved ``rounds`` times (Hearts measured right before each game): the ranges."""
    hearts = pyspiel.load_game("hearts")
    configs: list[Game] = []
    for info in courtly.games():
        if info.id.startswith("test-") or (only and info.id not in only):
            continue
        for players in info.player_counts:
            configs.append(courtly.make(info.id, players=players))
    ours: dict[int, list[float]] = {i: [] for i in range(len(configs))}
    theirs: dict[int, list[float]] = {i: [] for i in range(len(configs))}
    for _ in range(rounds):
        for index, game in enumerate(configs):
            theirs[index].append(
                chance_loop_rate(hearts.new_initial_state, spiel_chance_steps, seconds)
            )
            ours[index].append(chance_loop_rate(game.new_state, courtly_chance_steps, seconds))
    print(
        f"\n{'chance loop':<24}{'players':>8}{'Courtly steps/s':>22}{'Hearts steps/s':>22}"
        f"{'x Hearts':>14}"
    )
    rows: list[dict[str, Any]] = []
    for index, game in enumerate(configs):
        ratios = [a / b for a, b in zip(ours[index], theirs[index], strict=True)]
        rows.append(
            {
                "game": game.id,
                "players": game.num_players,
                "courtly_steps_per_s": ours[index],
                "hearts_steps_per_s": theirs[index],
                "ratio": ratios,
            }
        )
        print(
            f"{game.id:<24}{game.num_players:>8}"
            f"{f'{min(ours[index]):,.0f}-{max(ours[index]):,.0f}':>22}"
            f"{f'{min(theirs[index]):,.0f}-{max(theirs[index]):,.0f}':>22}"
            f"{f'{min(ratios):.2f}-{max(ratios):.2f}x':>14}",
            flush=True,
        )
    return rows


def match(
    game: Game,
    spiel_game: Any,
    courtly_seats: set[int],
    seconds: float,
    simulations: int,
    seed: int,
) -> list[float]:
    """One game, Courtly's default ISMCTS bot in ``courtly_seats`` and OpenSpiel's in the
    others; the returns."""
    rng = random.Random(seed)
    ours = make_agent(f"ismcts:seconds={seconds}:iterations=1000000000", game)
    theirs = openspiel_bot(spiel_game, simulations, seed)
    state = spiel_game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices(outcomes, [p for _, p in outcomes])[0][0])
            continue
        seat = state.current_player()
        if seat in courtly_seats:
            action = ours.act(state.courtly.view(seat), rng).id
        else:
            action = theirs.step(state)
        state.apply_action(action)
    return list(state.returns())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=0.2, help="time per move and per search")
    parser.add_argument("--decisions", type=int, default=8, help="decision points per game")
    parser.add_argument("--games", type=int, default=20, help="games per Courtly game (rotated)")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument(
        "--players",
        type=int,
        action="append",
        help="search these player counts where a game has them (repeatable; default: each "
        "game's default count)",
    )
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/openspiel.json"))
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds, chance loop")
    parser.add_argument("--chance-seconds", type=float, default=1.0, help="per chance-loop run")
    parser.add_argument("--chance-only", action="store_true", help="only the chance loop")
    args = parser.parse_args()

    chance_rows = chance_table(args.chance_seconds, args.rounds, args.game)
    if args.chance_only:
        return

    reference = {name: yardstick(name, args.decisions, 400) for name in ("leduc_poker", "hearts")}
    for name, (rate, left) in reference.items():
        print(
            f"OpenSpiel's ISMCTS on its own {name}: {rate:,.0f} simulations/s, {left:.0f} steps left"
        )
    print(
        f"\n{'game':<24}{'players':>8}{'steps left':>11}{'Courtly it/s':>14}{'OpenSpiel it/s':>16}"
        f"{'ratio':>8}{'x C++ game':>11}{'Courtly wins':>14}{'95% interval':>16}"
    )
    rows: list[dict[str, Any]] = []
    configs: list[tuple[Any, int]] = []
    for info in courtly.games():
        if info.id.startswith("test-") or (args.game and info.id not in args.game):
            continue
        counts = [n for n in args.players if n in info.player_counts] if args.players else []
        configs += [(info, n) for n in counts or [info.default_players]]
    for info, players in configs:
        game = courtly.make(info.id, players=players)
        spiel_game = pyspiel.load_game(game_name(info.id), {"players": players})
        points = decision_points(game, args.decisions, seed=0)
        left = remaining_steps(points)
        ours = statistics.median(
            measure(game, RANDOM_ROLLOUTS, args.seconds, points) for _ in range(2)
        )
        versus_own = ours / same_length_rate(reference, left)
        states = [adapter_state(spiel_game, point) for point in points]
        probe = max(20, int(200 * args.seconds))
        theirs = openspiel_rate(spiel_game, states, probe)
        simulations = max(2, int(theirs * args.seconds))
        teams = list(game.teams().values()) or [(seat,) for seat in range(game.num_players)]
        score, played = 0.0, 0
        for index in range(args.games):
            side = set(teams[index % len(teams)])
            returns = match(game, spiel_game, side, args.seconds, simulations, index)
            score += sum(returns[seat] for seat in side) / sum(returns) if sum(returns) else 0.5
            played += 1
        # (--games 0 measures speed alone: no match, no interval)
        rate = score / played if played else float("nan")
        low, high = wilson_interval(score, played) if played else (float("nan"), float("nan"))
        rows.append(
            {
                "game": info.id,
                "players": game.num_players,
                "courtly_iterations_per_s": ours,
                "openspiel_iterations_per_s": theirs,
                "ratio": ours / theirs,
                "mean_steps_left": left,
                "x_openspiel_own_game_same_length": versus_own,
                "seconds_per_move": args.seconds,
                "games": played,
                "courtly_win_rate": rate,
                "interval": [low, high],
            }
        )
        print(
            f"{info.id:<24}{game.num_players:>8}{left:>11.0f}{ours:>14,.0f}{theirs:>16,.0f}"
            f"{ours / theirs:>7.1f}x{versus_own:>10.1f}x{rate:>13.0%}{f'{low:.0%}-{high:.0%}':>16}",
            flush=True,
        )
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(
        json.dumps(
            {
                "python": platform.python_version(),
                "compiled": _compiled.running_compiled(),
                "openspiel_own_games": {
                    name: {"simulations_per_s": rate, "mean_steps_left": left}
                    for name, (rate, left) in reference.items()
                },
                "results": rows,
                "chance_loop": chance_rows,
            },
            indent=2,
        )
    )
    print(f"saved {args.out}")


if __name__ == "__main__":
    main()
