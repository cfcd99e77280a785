"""Does the review tell strong play from weak? Errors found per bot in reviewed games.

For each game, two bots play ``--games`` 2-player games, swapping seats every game; every game
is reviewed for both seats (``courtly.sim.review``) and each bot's decisions, mean loss per
decision and inaccuracies / mistakes / blunders per 100 decisions are added up. A review that
tells strong play from weak catches ``random`` in more and larger mistakes than ``heuristic``,
and ``heuristic`` than ``ismcts`` (which searches on top of the heuristic).

    python benchmarks/review_strength.py --games 6 --pairs random/heuristic,heuristic/ismcts
"""

from __future__ import annotations

import argparse
import os
from collections import defaultdict

import courtly
from courtly.agents.estimates import DEFAULT_ITERATIONS, Budget
from courtly.agents.registry import make_agent
from courtly.core.match import play_match
from courtly.sim.review import LABEL_ORDER, review_record
from courtly.sim.tournament import game_seed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game-ids", default="kings-court,royal-gambit,crush-the-crown")
    parser.add_argument("--pairs", default="random/heuristic,heuristic/ismcts")
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--iterations", type=int, default=DEFAULT_ITERATIONS)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    for game_id in args.game_ids.split(","):
        game = courtly.make(game_id, players=2)
        for pair in args.pairs.split(","):
            first, second = pair.split("/")
            decisions: dict[str, int] = defaultdict(int)
            loss: dict[str, float] = defaultdict(float)
            errors: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
            for index in range(args.games):
                seats = [first, second] if index % 2 == 0 else [second, first]
                agents = [make_agent(spec, game) for spec in seats]
                record = play_match(game, agents, game_seed(0, index), seats=seats)
                review = review_record(
                    record, budget=Budget(args.iterations), seed=index, workers=args.workers
                )
                for seat, summary in review.summaries.items():
                    agent = seats[seat]
                    decisions[agent] += summary.decisions
                    loss[agent] += sum(d.loss for d in review.decisions if d.seat == seat)
                    for k, label in enumerate(LABEL_ORDER):
                        errors[agent][k] += summary.errors[label]
            for agent in (first, second):
                count = max(decisions[agent], 1)
                per_100 = "/".join(f"{100 * e / count:.1f}" for e in errors[agent])
                print(
                    f"{game_id:16} {pair:20} {agent:10} {decisions[agent]:5} decisions  "
                    f"mean loss {100 * loss[agent] / count:5.2f} points  "
                    f"i/m/b per 100 decisions {per_100}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
