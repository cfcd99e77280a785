"""What a view and its observation cost early and late in a game (one core).

A server sends every seat a new view after every move, and an RL episode asks for one per step:
if a view grew with the game, an episode would cost the square of its length. For each game at
its largest table this plays one random game and, a tenth and nine tenths into it, times
``state.view(seat).observation()`` and measures the observation's JSON size.
"""

from __future__ import annotations

import argparse
import json
import random
import time

import courtly


def measure(game_id: str, players: int, repeat: int) -> list[dict[str, object]]:
    """Time the view of the seat to move early (a tenth into a random game) and late (nine
    tenths in): the same game, so only the length of the history differs."""
    game = courtly.make(game_id, players=players)
    whole = game.new_state()
    courtly.core.play_randomly(whole, random.Random(7))
    decision_points = [i for i, (actor, _) in enumerate(whole.history) if actor != courtly.CHANCE]
    rows = []
    for share in (0.1, 0.9):
        index = decision_points[int(share * (len(decision_points) - 1))]
        state = courtly.replay(game, whole.history[:index])
        seat = state.to_move[0]
        start = time.perf_counter()
        for _ in range(repeat):
            observation = state.view(seat).observation()
        micros = (time.perf_counter() - start) / repeat * 1e6
        rows.append(
            {
                "game": game_id,
                "players": players,
                "events": len(state.history),
                "view_us": round(micros, 1),
                "bytes": len(json.dumps(observation)),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2000)
    args = parser.parse_args()
    print(f"{'game':<24}{'players':>8}{'events':>8}{'view+obs µs':>13}{'bytes':>8}")
    for info in courtly.games():
        for row in measure(info.id, info.max_players, args.repeat):
            print(
                f"{row['game']:<24}{row['players']:>8}{row['events']:>8}"
                f"{row['view_us']:>13}{row['bytes']:>8}"
            )


if __name__ == "__main__":
    main()
