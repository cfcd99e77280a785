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
from ..core.match import MatchRecord
from .stats import Z95, Tally
from .tournament import Batch, BatchRunner, Simulation

DEFAULT_AGENTS = ("random", "heuristic", "ismcts:iterations=100", "ismcts:iterations=500")


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
    think: dict[str, float] = field(default_factory=dict)
    """Each agent's total thinking time in this pair's games (seconds, wall clock)."""
    moves: dict[str, int] = field(default_factory=dict)
    """Each agent's number of decisions in this pair's games."""

    def to_dict(self) -> dict[str, Any]:
        low, high = self.a_score.interval
        return {
            "a": self.a,
            "b": self.b,
            "games": self.a_score.games,
            "a_win_rate": self.a_score.rate,
            "ci95": [low, high],
            "seconds_per_move": {
                agent: self.think[agent] / self.moves[agent]
                for agent in (self.a, self.b)
                if self.moves.get(agent)
            },
        }


@dataclass
class LadderResult:
    game: str
    players: int
    options: dict[str, Any]
    agents: list[str]
    pairs: list[PairResult]
    ratings: dict[str, dict[str, float]]
    margin: float | None = None
    """The interval half-width the ladder played for (None: a fixed number of games)."""

    def seconds_per_move(self, agent: str) -> float:
        """``agent``'s mean thinking time per decision over all its games."""
        think = sum(pair.think.get(agent, 0.0) for pair in self.pairs)
        moves = sum(pair.moves.get(agent, 0) for pair in self.pairs)
        return think / moves if moves else 0.0

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
            "margin": self.margin,
            "pairs": [pair.to_dict() for pair in self.pairs],
            "ratings": self.ratings,
            "seconds_per_move": {agent: self.seconds_per_move(agent) for agent in self.agents},
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
        played = ", ".join(str(g) for g in sorted(games))
        why = (
            f" (each pair played until its interval was ±{self.margin:.0%} or narrower, or "
            f"{games_for_margin(self.margin)} games)"
            if self.margin
            else ""
        )
        lines += [
            "",
            f"Games per pair: {played}{why}.",
            "",
            "| rank | agent | OpenSkill μ | σ | ordinal (μ − 3σ) | ms/move |",
            "|---|---|---|---|---|---|",
        ]
        for rank, agent in enumerate(ranked, 1):
            r = self.ratings[agent]
            lines.append(
                f"| {rank} | {agent} | {r['mu']:.2f} | {r['sigma']:.2f} | {r['ordinal']:.2f} "
                f"| {1000 * self.seconds_per_move(agent):.2f} |"
            )
        return "\n".join(lines) + "\n"


def half_width(tally: Tally) -> float:
    """The larger side of a tally's 95% interval around its rate."""
    low, high = tally.interval
    return max(tally.rate - low, high - tally.rate)


FIRST_ROUND = 100
"""Games every pair plays before the ladder looks at its interval."""


def run_ladder(
    game: str,
    agents: Sequence[str],
    players: int,
    games_per_pair: int | None = None,
    seed: int = 0,
    workers: int = 1,
    options: dict[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
    margin: float = 0.03,
    on_total: Callable[[int], None] | None = None,
) -> LadderResult:
    """Play every pair of ``agents``: ``games_per_pair`` games each, or (by default) just enough
    for a 95% interval of ± ``margin`` on each pair's win rate.

    Adaptive: every pair plays ``FIRST_ROUND`` games, then more, as many as its observed rate
    says the margin needs, until its interval is that narrow or it reaches the worst case
    (``games_for_margin(margin)``, 1,068 games for ±3 points). A lopsided pair (99% against
    ``random``) is settled in about a hundred games; an even one plays the full count. The
    stopping rule reads the results in game order, so the ladder is the same for any number
    of workers. ``on_total`` is told the planned number of games whenever it grows.
    """
    from openskill.models import PlackettLuce

    if len(set(agents)) < 2:
        raise InvalidOptions("a ladder needs at least two different agents")
    if games_per_pair is not None and games_per_pair < 1:
        raise InvalidOptions("the number of games per pair must be at least 1")
    cap = games_per_pair or games_for_margin(margin)
    simulations = [
        Simulation(game, pair_seats(a, b, players), cap, seed + index, dict(options or {}))
        for index, (a, b) in enumerate(combinations(agents, 2))
    ]
    pairs = [PairResult(sim.seats[0], sim.seats[1]) for sim in simulations]
    records: list[dict[int, MatchRecord]] = [{} for _ in simulations]
    planned = [cap if games_per_pair else min(cap, FIRST_ROUND) for _ in simulations]
    with BatchRunner(simulations, workers) as runner:
        while True:
            if on_total is not None:
                on_total(sum(planned))
            batches = [
                batch
                for which, goal in enumerate(planned)
                for batch in _batches(which, len(records[which]), goal, runner.workers)
            ]
            if not batches:
                break
            for (which, _, _), found in runner.play(batches):
                for record in found:
                    records[which][record.game_id] = record
                if progress is not None:
                    progress(len(found))
            for which, pair in enumerate(pairs):
                pair.a_score = Tally()
                for index in range(len(records[which])):
                    pair.a_score.add(_shares(records[which][index], pair.a, pair.b)[0])
                done = pair.a_score.games
                if games_per_pair or done >= cap or half_width(pair.a_score) <= margin:
                    continue
                # Aim a little past the count the observed rate needs (rates near 0 or 1 are
                # clamped so that a lucky start cannot stop a pair after too few games).
                rate = min(max(pair.a_score.rate, 0.02), 0.98)
                planned[which] = min(
                    cap, max(done + 20, math.ceil(1.1 * games_for_margin(margin, rate)))
                )
    model = PlackettLuce()
    ratings = {agent: model.rating(name=agent) for agent in agents}
    for which, pair in enumerate(pairs):
        a, b = pair.a, pair.b
        for index in range(len(records[which])):
            record = records[which][index]
            share_a, share_b = _shares(record, a, b)
            ranks = (
                [1.0, 2.0] if share_a > share_b else [2.0, 1.0] if share_b > share_a else [1.0, 1.0]
            )
            [[ratings[a]], [ratings[b]]] = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
            for spec, think, moves in zip(
                record.seats, record.think_seconds, record.moves, strict=True
            ):
                pair.think[spec] = pair.think.get(spec, 0.0) + think
                pair.moves[spec] = pair.moves.get(spec, 0) + moves
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
        margin=None if games_per_pair else margin,
    )


def _shares(record: MatchRecord, a: str, b: str) -> tuple[float, float]:
    """The shares of the win held by ``a``'s seats and by ``b``'s seats."""
    share = {a: 0.0, b: 0.0}
    for spec, value in zip(record.seats, record.returns, strict=True):
        share[spec] += value
    return share[a], share[b]


def _batches(which: int, done: int, goal: int, workers: int) -> list[Batch]:
    """Games ``done``..``goal`` of one simulation, cut small enough to keep every core busy."""
    size = max(1, min(25, (goal - done) // (workers * 4)))
    return [(which, i, min(i + size, goal)) for i in range(done, goal, size)]
