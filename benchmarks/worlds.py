"""How fast a game draws the worlds of a search: ``view.search_world`` and ``view.determinize``.

At the decision points ``benchmarks/search.py`` searches from (met along random games), each
view draws ``--worlds`` worlds, one after another (each dropped at once, as a search drops it
after its iteration); the figure is worlds per second of CPU time (``time.process_time``: the
machine is shared, and wall-clock figures wander). A digest of the first worlds drawn (their
tables, their histories for ``determinize``, the generator's state after them) is printed
beside: two builds that draw the same worlds print the same digest.

    PYTHONPATH=src python benchmarks/worlds.py --players 2 --players 3 --players 4
"""

from __future__ import annotations

import argparse
import hashlib
import random
import time
from typing import Any

import courtly
from courtly import _compiled
from courtly.core.persist import fields_of
from search import decision_points

DIGESTED = 50
"""How many worlds of each view the digest reads (drawn again, from the same seed)."""


LEFT_OUT = frozenset({"game", "tables", "history", "secrets", "_partial"})
"""A state's fields left out of the digest: the game and its tables (shared by every world),
the history (digested apart for ``determinize``: a search's world need not replay, and whether
it does is ``_partial``) and the secrets (which events each seat knows)."""


def text_of(value: Any, depth: int = 0) -> str:
    """``value`` as text, objects by their fields (so that the text does not depend on where
    they lie in memory), down to a few levels."""
    if isinstance(value, (int, float, str, bool, type(None))) or depth > 4:
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(text_of(item, depth + 1) for item in value) + "]"
    if isinstance(value, dict):
        items = sorted((repr(k), text_of(v, depth + 1)) for k, v in value.items())
        return "{" + ",".join(f"{k}:{v}" for k, v in items) + "}"
    fields = fields_of(value)
    if not fields:
        return type(value).__name__
    return type(value).__name__ + text_of(
        {k: v for k, v in fields.items() if k not in LEFT_OUT}, depth + 1
    )


def measure(game_id: str, players: int, worlds: int, method: str) -> tuple[float, str]:
    """Worlds per CPU second drawn by ``view.<method>`` at the decision points, and a digest."""
    game = courtly.make(game_id, players=players)
    digest = hashlib.sha256()
    spent = 0.0
    points = decision_points(game, 8, seed=0)
    for index, state in enumerate(points):
        view = state.view(state.to_move[0])
        draw = getattr(view, method)
        rng = random.Random(index)
        start = time.process_time()
        for _ in range(worlds):
            draw(rng)
        spent += time.process_time() - start
        rng = random.Random(index)
        for _ in range(DIGESTED):
            world = draw(rng)
            digest.update(text_of(world).encode())
            if method == "determinize":
                digest.update(repr(world.history).encode())
        digest.update(repr(rng.getstate()).encode())
    return len(points) * worlds / spent, digest.hexdigest()[:12]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="god-save-the-king")
    parser.add_argument("--players", type=int, action="append")
    parser.add_argument("--worlds", type=int, default=2000, help="worlds drawn per view")
    args = parser.parse_args()
    compiled = _compiled.running_compiled()
    print(f"compiled modules: {len(compiled) or 'none (plain Python: make compiled)'}")
    for players in args.players or [2]:
        for method in ("search_world", "determinize"):
            rate, digest = measure(args.game, players, args.worlds, method)
            print(f"{args.game} {players}p {method:13s} {rate:9,.0f} worlds/s  digest {digest}")


if __name__ == "__main__":
    main()
