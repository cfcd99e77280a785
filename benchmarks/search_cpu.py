"""ISMCTS iterations per second of CPU time: plain searches of a fixed budget at fixed positions.

Each game and count searches ``--iterations`` plain iterations (random rollouts to the end,
every seat searched, worlds from ``view.search_world``: the configuration of
``benchmarks/openspiel.py``) at the same ``--decisions`` decision points of ``search.py``,
timed with ``time.process_time`` (what this process ran, not what the shared machine did), and
prints a digest of the root statistics: two builds that search alike print the same digest.
With ``--baseline SRC`` the same measure runs in a second interpreter with ``PYTHONPATH=SRC``
(another checkout's ``src``, built alike), alternating with this one ``--rounds`` times, both
printed as ranges::

    PYTHONPATH=src .venv/bin/python benchmarks/search_cpu.py --game god-save-the-king \\
        --baseline ../main/src --rounds 2

Run it on the compiled engine (``make compiled``); it prints whether each side is.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import time

import courtly
from alternating import alternate, compiled_line
from courtly import _compiled
from courtly.agents.ismcts import ISMCTSAgent
from search import PLAIN, decision_points


def search_rate(game_id: str, players: int, iterations: int, decisions: int) -> tuple[float, str]:
    """Iterations per CPU second over the decision points, and a digest of what was found."""
    game = courtly.make(game_id, players=players)
    agent = ISMCTSAgent(game, iterations=iterations, rollout="random", **PLAIN)
    digest = hashlib.sha256()
    spent = 0.0
    for index, state in enumerate(decision_points(game, decisions, seed=0)):
        view = state.view(state.to_move[0])
        start = time.process_time()
        stats = agent.root_statistics(view, random.Random(index), explore=0.0)
        spent += time.process_time() - start
        digest.update(repr((stats.visits, stats.reward, stats.square, stats.value_sum)).encode())
    return decisions * iterations / spent, digest.hexdigest()[:12]


def cases(only: list[str] | None, counts: list[int] | None) -> list[tuple[str, int]]:
    return [
        (info.id, players)
        for info in courtly.games()
        if not info.id.startswith("test-") and (not only or info.id in only)
        for players in info.player_counts
        if not counts or players in counts
    ]


def measure(args: argparse.Namespace) -> dict[str, object]:
    rates = {
        f"{game_id} {players}": search_rate(game_id, players, args.iterations, args.decisions)
        for game_id, players in cases(args.game, args.players)
    }
    return {"compiled": bool(_compiled.running_compiled()), "rates": rates}


def rates(run: dict[str, object]) -> dict[str, list[object]]:
    found = run["rates"]
    assert isinstance(found, dict)
    return found


def column(runs: list[dict[str, object]], case: str) -> str:
    """The range of iterations/s over the runs, and their digest (``*`` if they differ)."""
    values = [float(str(rates(run)[case][0])) for run in runs]
    digests = {str(rates(run)[case][1]) for run in runs}
    digest = digests.pop() if len(digests) == 1 else "*differ*"
    return f"{min(values):>9,.0f}-{max(values):<9,.0f} {digest}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--iterations", type=int, default=1500, help="iterations a search")
    parser.add_argument("--decisions", type=int, default=8, help="decision points a game")
    parser.add_argument("--rounds", type=int, default=1, help="alternations with --baseline")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--players", type=int, action="append", help="only these counts")
    parser.add_argument("--baseline", help="another checkout's src to measure alternately")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args)))
        return
    argv = [f"--iterations={args.iterations}", f"--decisions={args.decisions}"]
    argv += [f"--game={game_id}" for game_id in args.game or []]
    argv += [f"--players={players}" for players in args.players or []]
    ours, theirs = alternate(__file__, lambda: measure(args), argv, args.baseline, args.rounds)
    print(compiled_line(ours, theirs))
    print(f"{'game':<26}{'iterations/s, digest':>32}{'baseline':>32}")
    for case in rates(ours[0]):
        baseline = column(theirs, case) if theirs else "-"
        print(f"{case:<26}{column(ours, case):>32}{baseline:>32}", flush=True)


if __name__ == "__main__":
    main()
