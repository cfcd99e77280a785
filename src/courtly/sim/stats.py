"""Win rates with confidence intervals, per agent and per seat, from game records."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

Z95 = 1.959963984540054


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (sound near 0 and 1, unlike mean ± z·se).

    ``successes`` may be fractional: a shared win counts as its share.
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    # At p = 0 or 1 the bound is exactly 0 or 1; say so rather than leave a rounding error.
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (low, high)


@dataclass
class Tally:
    """Games played and wins (shares of wins) of one agent or one seat."""

    games: int = 0
    wins: float = 0.0

    def add(self, value: float) -> None:
        self.games += 1
        self.wins += value

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def to_dict(self) -> dict[str, Any]:
        low, high = self.interval
        return {
            "games": self.games,
            "wins": round(self.wins, 6),
            "win_rate": self.rate,
            "ci95": [low, high],
        }


@dataclass
class Distribution:
    """A running distribution of numbers kept as a histogram (value -> count): its memory
    grows with the distinct values seen, never with the number of games."""

    counts: Counter[float] = field(default_factory=Counter)

    def add(self, value: float, count: int = 1) -> None:
        self.counts[value] += count

    def merge(self, other: Distribution) -> None:
        self.counts.update(other.counts)

    @property
    def n(self) -> int:
        return sum(self.counts.values())

    @property
    def mean(self) -> float:
        n = self.n
        return sum(v * c for v, c in self.counts.items()) / n if n else 0.0

    @property
    def sd(self) -> float:
        """The sample standard deviation."""
        n = self.n
        if n < 2:
            return 0.0
        mean = self.mean
        return math.sqrt(sum(c * (v - mean) ** 2 for v, c in self.counts.items()) / (n - 1))

    @property
    def mean_interval(self) -> tuple[float, float]:
        """The 95% interval of the mean (normal: mean ± 1.96 standard errors)."""
        n = self.n
        half = Z95 * self.sd / math.sqrt(n) if n else 0.0
        return (self.mean - half, self.mean + half)

    def quantile(self, q: float) -> float:
        """The ``q`` quantile (the lower value where it falls between two; 0.5: the median of
        an odd count)."""
        n = self.n
        if n == 0:
            return 0.0
        rank = q * (n - 1)
        below, above = math.floor(rank), math.ceil(rank)
        seen = 0
        low = high = None
        for value in sorted(self.counts):
            seen += self.counts[value]
            if low is None and seen > below:
                low = value
            if seen > above:
                high = value
                break
        assert low is not None and high is not None
        return low + (high - low) * (rank - below)

    def to_dict(self) -> dict[str, Any]:
        low, high = self.mean_interval
        return {
            "n": self.n,
            "mean": self.mean,
            "ci95": [low, high],
            "sd": self.sd,
            "min": min(self.counts) if self.counts else None,
            "p10": self.quantile(0.1),
            "median": self.quantile(0.5),
            "p90": self.quantile(0.9),
            "max": max(self.counts) if self.counts else None,
            "histogram": [[value, self.counts[value]] for value in sorted(self.counts)],
        }


@dataclass
class Summary:
    """What a simulation found: per-agent and per-seat win rates, game lengths."""

    games: int = 0
    agents: dict[str, Tally] = field(default_factory=dict)
    """Per seat played: the mean return of one seat of this agent."""
    agent_games: dict[str, Tally] = field(default_factory=dict)
    """Per game: the share of the win taken by all seats of this agent together (a clan's win
    rate; with three random seats, how often any of them won)."""
    seats: list[Tally] = field(default_factory=list)
    lengths: Distribution = field(default_factory=Distribution)
    """Steps per game."""
    truncated: int = 0
    """Games cut off at the safety cap rather than ended by the rules."""

    def add(
        self, seats: Sequence[str], returns: Sequence[float], length: int, truncated: bool = False
    ) -> None:
        self.games += 1
        self.truncated += truncated
        if not self.seats:
            self.seats = [Tally() for _ in returns]
        per_game: dict[str, float] = {}
        for seat, (spec, value) in enumerate(zip(seats, returns, strict=True)):
            self.agents.setdefault(spec, Tally()).add(value)
            self.seats[seat].add(value)
            per_game[spec] = per_game.get(spec, 0.0) + value
        for spec, value in per_game.items():
            self.agent_games.setdefault(spec, Tally()).add(value)
        self.lengths.add(length)

    @property
    def mean_length(self) -> float:
        return self.lengths.mean

    @property
    def median_length(self) -> float:
        return self.lengths.quantile(0.5)

    def to_dict(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "agents": {name: tally.to_dict() for name, tally in self.agents.items()},
            "agent_games": {name: tally.to_dict() for name, tally in self.agent_games.items()},
            "by_seat": [tally.to_dict() for tally in self.seats],
            "length": {"mean": self.mean_length, "median": self.median_length, "unit": "steps"},
            "truncated": self.truncated,
        }


def summarize(records: Iterable[Any]) -> Summary:
    """A :class:`Summary` of :class:`~courtly.core.match.MatchRecord` values."""
    summary = Summary()
    for record in records:
        summary.add(record.seats, record.returns, record.length, record.truncated)
    return summary
