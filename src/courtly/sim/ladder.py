"""The strength ladder: every pair of agents, seat-rotated, with intervals and ratings.

Each pair (A, B) plays a simulation in which the seats alternate A, B, A, B, ... and rotate
across games, so both agents sit in every seat equally often. A's score against B is A's share
of the wins (1.0 each game A wins, shared wins split), with a 95% Wilson interval. OpenSkill
(Plackett-Luce) ratings are fitted over all games: in each game the seats of one agent form a
team, ranked by the team's share of the win.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

from ..core.errors import InvalidOptions
from .stats import Z95, Tally
from .tournament import Simulation, run

DEFAULT_AGENTS = ("random", "heuristic", "ismcts:iterations=200", "ismcts:iterations=1000")


def games_for_margin(margin: float, p: float = 0.5) -> int:
    """Games needed for a 95% interval of ± ``margin`` on a win rate near ``p``."""
    return math.ceil(Z95 * Z95 * p * (1 - p) / (margin * margin))


def pair_seats(a: str, b: str, players: int) -> tuple[str, ...]:
    """A, B, A, B, ... : both agents hold (nearly) half the seats."""
    return tuple(a if seat % 2 == 0 else b for seat in range(players))


@dataclass
class PairResult:
    a: str
    b: str
    a_score: Tally = field(default_factory=Tally)
    """A's share of the wins, one trial per game."""

    def to_dict(self) -> dict[str, Any]:
        low, high = self.a_score.interval
        return {
            "a": self.a,
            "b": self.b,
            "games": self.a_score.games,
            "a_win_rate": self.a_score.rate,
            "ci95": [low, high],
        }


@dataclass
class LadderResult:
    game: str
    players: int
    options: dict[str, Any]
    agents: list[str]
    pairs: list[PairResult]
    ratings: dict[str, dict[str, float]]

    def score(self, a: str, b: str) -> tuple[float, float, float] | None:
        """(rate, low, high) of ``a`` against ``b``."""
        for pair in self.pairs:
            if (pair.a, pair.b) == (a, b):
                low, high = pair.a_score.interval
                return pair.a_score.rate, low, high
            if (pair.b, pair.a) == (a, b):
                low, high = pair.a_score.interval
                return 1 - pair.a_score.rate, 1 - high, 1 - low
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "players": self.players,
            "options": self.options,
            "agents": self.agents,
            "pairs": [pair.to_dict() for pair in self.pairs],
            "ratings": self.ratings,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def to_markdown(self) -> str:
        ranked = sorted(self.agents, key=lambda a: -self.ratings[a]["ordinal"])
        lines = [
            f"# Ladder: {self.game}, {self.players} players",
            "",
            "Win rate of the row agent against the column agent (its share of the wins, seats "
            "alternating and rotated), with the 95% confidence interval.",
            "",
            "| agent | " + " | ".join(ranked) + " |",
            "|---|" + "---|" * len(ranked),
        ]
        for a in ranked:
            cells = []
            for b in ranked:
                found = self.score(a, b)
                if a == b or found is None:
                    cells.append("–")
                else:
                    rate, low, high = found
                    cells.append(f"{rate:.1%} ({low:.1%}–{high:.1%})")
            lines.append(f"| {a} | " + " | ".join(cells) + " |")
        games = {pair.a_score.games for pair in self.pairs}
        lines += [
            "",
            f"Games per pair: {', '.join(str(g) for g in sorted(games))}.",
            "",
            "| rank | agent | OpenSkill μ | σ | ordinal (μ − 3σ) |",
            "|---|---|---|---|---|",
        ]
        for rank, agent in enumerate(ranked, 1):
            r = self.ratings[agent]
            lines.append(
                f"| {rank} | {agent} | {r['mu']:.2f} | {r['sigma']:.2f} | {r['ordinal']:.2f} |"
            )
        return "\n".join(lines) + "\n"


def run_ladder(
    game: str,
    agents: Sequence[str],
    players: int,
    games_per_pair: int,
    seed: int = 0,
    workers: int = 1,
    options: dict[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> LadderResult:
    """Play every pair of ``agents`` for ``games_per_pair`` games each."""
    from openskill.models import PlackettLuce

    if len(set(agents)) < 2:
        raise InvalidOptions("a ladder needs at least two different agents")
    model = PlackettLuce()
    ratings = {agent: model.rating(name=agent) for agent in agents}
    simulations = [
        Simulation(
            game, pair_seats(a, b, players), games_per_pair, seed + index, dict(options or {})
        )
        for index, (a, b) in enumerate(combinations(agents, 2))
    ]
    for simulation in simulations:
        simulation.check()
    pairs: list[PairResult] = []
    for simulation in simulations:
        a, b = simulation.seats[0], simulation.seats[1]
        pair = PairResult(a, b)
        for record in run(simulation, workers, progress):
            share = {a: 0.0, b: 0.0}
            for spec, value in zip(record.seats, record.returns, strict=True):
                share[spec] += value
            pair.a_score.add(share[a])
            ranks = (
                [1.0, 2.0]
                if share[a] > share[b]
                else [2.0, 1.0]
                if share[b] > share[a]
                else [1.0, 1.0]
            )
            [[ratings[a]], [ratings[b]]] = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
        pairs.append(pair)
    return LadderResult(
        game=game,
        players=players,
        options=dict(options or {}),
        agents=list(agents),
        pairs=pairs,
        ratings={
            agent: {"mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal()}
            for agent, r in ratings.items()
        },
    )
