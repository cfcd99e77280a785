"""The strength ladder: every pair of agents, seat-rotated, with intervals and ratings.

Each pair (A, B) plays a simulation in which the seats alternate A, B, A, B, ... and rotate
across games, so both agents sit in every seat equally often. A's score against B is A's share
of the wins (1.0 each game A wins, shared wins split), with a 95% Wilson interval. OpenSkill
(Plackett-Luce) ratings are fitted over all games, averaged over several orders of them: in
each game the seats of one agent form a team, ranked by the team's share of the win.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import random
from collections.abc import Callable, Container, Iterator, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import IO, Any

from ..core.errors import InvalidOptions, ReplayError
from ..core.records import MatchRecord
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
    truncated: int = 0
    """This pair's games cut off at the safety cap (``safety_cap``) rather than ended by the
    rules: their result is the cap's verdict."""

    def to_dict(self) -> dict[str, Any]:
        low, high = self.a_score.interval
        return {
            "a": self.a,
            "b": self.b,
            "games": self.a_score.games,
            "a_win_rate": self.a_score.rate,
            "ci95": [low, high],
            "truncated": self.truncated,
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

    @property
    def games(self) -> int:
        return sum(pair.a_score.games for pair in self.pairs)

    @property
    def truncated(self) -> int:
        """The games cut off at the safety cap, over all pairs."""
        return sum(pair.truncated for pair in self.pairs)

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
            "games": self.games,
            "truncated": self.truncated,
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2)

    def _truncated_lines(self) -> list[str]:
        """Says how many games the safety cap cut off (nothing when none was)."""
        if not self.truncated:
            return []
        cut = [
            f"{pair.a} v {pair.b} {pair.truncated} of {pair.a_score.games}"
            for pair in self.pairs
            if pair.truncated
        ]
        return [
            "",
            f"Cut off at the safety cap (safety_cap, not the rules): {self.truncated} of "
            f"{self.games} games ({'; '.join(cut)}), scored as the cap decides.",
        ]

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
        lines += ["", f"Games per pair: {played}{why}.", *self._truncated_lines(), ""]
        lines += [
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

JOURNAL_FORMAT = "courtly-ladder-journal/1"


class LadderJournal:
    """Every finished game of a ladder, one JSON line each, so that a long ladder stopped for
    any reason (Ctrl-C, a reboot) goes on where it stopped instead of starting again.

    The first line says which ladder the file belongs to (game, players, options, the pairs of
    agents, the seed); each further line is one game's record with its pair. A game is fully
    determined by its pair, seed and index, so records are reused only by the same ladder (the
    margin or the game count may change between runs). A last line cut short by the stop is
    dropped; any other damage is an error naming the line.
    """

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = path
        self.header = header
        self.loaded: list[tuple[int, MatchRecord]] = []
        self._file: IO[str] | None = None

    def __enter__(self) -> LadderJournal:
        """Read what an earlier run left, then keep the file open to append to it."""
        data = self.path.read_bytes() if self.path.exists() else b""
        *complete, cut = data.split(b"\n")  # ``cut``: empty, or a line the stop broke off
        for number, line in enumerate(complete, 1):
            self._read(number, line)
        keep = len(data) - len(cut)
        self._file = self.path.open("r+" if data else "w", encoding="utf-8")
        self._file.truncate(keep)
        self._file.seek(keep)
        if not complete:
            self._write(self.header)
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._file is not None
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
        self._file = None

    def _read(self, number: int, line: bytes) -> None:
        where = f"{self.path}, line {number}"
        try:
            item = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise ReplayError(f"{where}: not JSON ({error})") from None
        if number == 1:
            if not isinstance(item, dict) or item.get("format") != JOURNAL_FORMAT:
                raise ReplayError(f"{where}: not a ladder journal ({JOURNAL_FORMAT})")
            if item != self.header:
                raise InvalidOptions(
                    f"{self.path} is the journal of another ladder ({_describe(item)}; this "
                    f"one is {_describe(self.header)}): name another journal or delete it"
                )
            return
        if not isinstance(item, dict) or not isinstance(item.get("pair"), int):
            raise ReplayError(f"{where}: a journal line is a game record with its 'pair'")
        try:
            record = MatchRecord.from_dict(item)
            record.think_seconds = [float(x) for x in item["think_seconds"]]
            record.moves = [int(x) for x in item["moves"]]
        except (ReplayError, KeyError, TypeError, ValueError) as error:
            raise ReplayError(f"{where}: not a game record of a ladder ({error!r})") from None
        self.loaded.append((item["pair"], record))

    def add(self, pair: int, record: MatchRecord) -> None:
        """Append one finished game (flushed at once: a stop loses no finished game)."""
        self._write(
            {
                "pair": pair,
                **record.to_dict(),
                "think_seconds": record.think_seconds,
                "moves": record.moves,
            }
        )

    def _write(self, item: dict[str, Any]) -> None:
        assert self._file is not None
        self._file.write(json.dumps(item) + "\n")
        self._file.flush()


def _describe(header: dict[str, Any]) -> str:
    pairs = ", ".join(" v ".join(map(str, pair)) for pair in header.get("pairs", []))
    return f"{header.get('game')} {header.get('players')}p, seed {header.get('seed')}: {pairs}"


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
    journal: Path | None = None,
) -> LadderResult:
    """Play every pair of ``agents``: ``games_per_pair`` games each, or (by default) just enough
    for a 95% interval of ± ``margin`` on each pair's win rate.

    Adaptive: every pair plays ``FIRST_ROUND`` games, then more, as many as its observed rate
    says the margin needs, until its interval is that narrow or it reaches the worst case
    (``games_for_margin(margin)``, 1,068 games for ±3 points). A lopsided pair (99% against
    ``random``) is settled in about a hundred games; an even one plays the full count. The
    stopping rule reads the results in game order, so the ladder is the same for any number
    of workers. ``on_total`` is told the planned number of games whenever it grows.

    With ``journal`` (a file), every finished game is written to it as it comes in, and the
    games an earlier run of the same ladder left there are not played again
    (:class:`LadderJournal`): the result is the same as that of an uninterrupted run.
    """

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
    header = {
        "format": JOURNAL_FORMAT,
        "game": game,
        "players": players,
        "options": dict(options or {}),
        "pairs": [[pair.a, pair.b] for pair in pairs],
        "seed": seed,
    }
    with _journal(journal, header) as log:
        if log is not None:
            for which, record in log.loaded:
                if 0 <= which < len(records):
                    records[which][record.game_id] = record
        counted = 0  # games reported to ``progress`` so far
        with BatchRunner(simulations, workers) as runner:
            while True:
                if on_total is not None:
                    on_total(sum(planned))
                batches = [
                    batch
                    for which, goal in enumerate(planned)
                    for batch in _batches(which, records[which], goal, runner.workers)
                ]
                if progress is not None:
                    # Games an earlier run left in the journal count as done.
                    done = sum(
                        sum(1 for index in records[w] if index < goal)
                        for w, goal in enumerate(planned)
                    )
                    progress(done - counted)
                    counted = done
                for (which, _, _), found in runner.play(batches):
                    for record in found:
                        records[which][record.game_id] = record
                        if log is not None:
                            log.add(which, record)
                    if progress is not None:
                        progress(len(found))
                        counted += len(found)
                grown = False
                for which, pair in enumerate(pairs):
                    pair.a_score = Tally()
                    for index in range(planned[which]):
                        pair.a_score.add(_shares(records[which][index], pair.a, pair.b)[0])
                    done = pair.a_score.games
                    if games_per_pair or done >= cap or half_width(pair.a_score) <= margin:
                        continue
                    # Aim a little past the count the observed rate needs (rates near 0 or 1
                    # are clamped so that a lucky start cannot stop a pair after too few games).
                    rate = min(max(pair.a_score.rate, 0.02), 0.98)
                    planned[which] = min(
                        cap, max(done + 20, math.ceil(1.1 * games_for_margin(margin, rate)))
                    )
                    grown = True
                if not grown:
                    break
    games: list[tuple[str, str, list[float]]] = []
    for which, pair in enumerate(pairs):
        a, b = pair.a, pair.b
        for index in range(planned[which]):
            record = records[which][index]
            share_a, share_b = _shares(record, a, b)
            ranks = (
                [1.0, 2.0] if share_a > share_b else [2.0, 1.0] if share_b > share_a else [1.0, 1.0]
            )
            games.append((a, b, ranks))
            pair.truncated += record.truncated
            for spec, think, moves in zip(
                record.seats, record.think_seconds, record.moves, strict=True
            ):
                pair.think[spec] = pair.think.get(spec, 0.0) + think
                pair.moves[spec] = pair.moves.get(spec, 0) + moves
    ratings = _openskill(agents, games, seed)
    return LadderResult(
        game=game,
        players=players,
        options=dict(options or {}),
        agents=list(agents),
        pairs=pairs,
        ratings=ratings,
        margin=None if games_per_pair else margin,
    )


@contextlib.contextmanager
def _journal(path: Path | None, header: dict[str, Any]) -> Iterator[LadderJournal | None]:
    if path is None:
        yield None
        return
    with LadderJournal(path, header) as log:
        yield log


def _shares(record: MatchRecord, a: str, b: str) -> tuple[float, float]:
    """The shares of the win held by ``a``'s seats and by ``b``'s seats."""
    share = {a: 0.0, b: 0.0}
    for spec, value in zip(record.seats, record.returns, strict=True):
        share[spec] += value
    return share[a], share[b]


def _batches(which: int, done: Container[int], goal: int, workers: int) -> list[Batch]:
    """The games of one simulation below ``goal`` not in ``done``, in slices of a few games:
    enough to keep every core busy, few enough that a stop loses little unfinished work."""
    missing = [index for index in range(goal) if index not in done]
    size = max(1, min(4, len(missing) // (workers * 4)))
    batches: list[Batch] = []
    for index in missing:
        last = batches[-1] if batches else None
        if last is not None and last[2] == index and last[2] - last[1] < size:
            batches[-1] = (which, last[1], index + 1)
        else:
            batches.append((which, index, index + 1))
    return batches


RATING_ORDERS = 16
"""The orders of the games that OpenSkill ratings are averaged over (see :func:`_openskill`)."""


def _openskill(
    agents: Sequence[str], games: Sequence[tuple[str, str, list[float]]], seed: int
) -> dict[str, dict[str, float]]:
    """Plackett-Luce ratings of ``agents`` from ``games`` (agent a, agent b, their ranks).

    A rating updated game by game leans on the games it saw last: fed one pair after another, or
    a pair whose last games went against the trend, it can rank the weaker agent first. So the
    games are rated in :data:`RATING_ORDERS` orders (the recorded one, then seeded shuffles) and
    each agent's mu and sigma averaged, so that no stretch of games weighs more for coming last."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    rng = random.Random(seed)
    totals = {agent: [0.0, 0.0] for agent in agents}
    order = list(games)
    for _ in range(RATING_ORDERS):
        ratings = {agent: model.rating(name=agent) for agent in agents}
        for a, b, ranks in order:
            [[ratings[a]], [ratings[b]]] = model.rate([[ratings[a]], [ratings[b]]], ranks=ranks)
        for agent, rating in ratings.items():
            totals[agent][0] += rating.mu
            totals[agent][1] += rating.sigma
        rng.shuffle(order)
    result: dict[str, dict[str, float]] = {}
    for agent, (mu, sigma) in totals.items():
        mu, sigma = mu / RATING_ORDERS, sigma / RATING_ORDERS
        result[agent] = {"mu": mu, "sigma": sigma, "ordinal": mu - 3 * sigma}
    return result
