"""What each choice is worth, from one seat's knowledge alone: the estimates behind hints and
reviews.

:func:`estimate` gives, for the seat of a :class:`~courtly.core.game.View` that must decide, every
legal action's estimated value for that seat — its win chance, or its expected return where the
game's returns share a win (``state.returns()``, in [0, 1]) — with a 95% confidence interval and
the number of search iterations behind it. :func:`position_value` gives a seat's value of the
position as it stands (its win chance now), whether or not it is to move: the measure of luck.

**The search.** Information-set MCTS (:class:`~courtly.agents.ismcts.ISMCTSAgent`, with the
game's heuristic playing the rollouts to the game's rollout depth, where its evaluation scores
the position), over worlds drawn by ``view.determinize``: every world is one the seat cannot
tell from the real game, and the true state is never read. Nothing but the view goes in, so two
games that the seat cannot tell apart get the same estimates for the same seed. Otherwise the
search is the ``ismcts`` bot's with its defaults (UCB's pull toward the heuristic's move at the
root, teammates playing by the team's convention), without its guard, which only picks a move.

**Every action measured.** A bot's search spends its iterations on the actions that look best;
an estimate must measure the others too. The root gives an iteration to the least visited action
whenever it has fewer than ``EXPLORE / len(actions)`` of the iterations so far (half of them,
shared equally, by default): every action ends with at least about that many visits, and UCB
spends the rest where it matters, so the best actions are measured most finely.

**The estimator.** An action's value is the mean of the seat's returns over every iteration that
took it at the root (whole games played out, or games cut off at the rollout depth and scored by
the heuristic's evaluation). Its interval is the normal one, mean ± 1.96 standard errors, with
the variance of the returns through it estimated after adding one return of 0 and one of 1 to
them (so that twenty wins out of twenty visits are not read as a certainty), clipped to [0, 1].
It measures the sampling noise of the mean; the in-tree policy below the root improves as the
search goes on, so the visits are not quite independent draws, and the value is that of the
search's own play after the action.

**Budget and determinism.** A budget is a number of iterations (the default) or of seconds per
position. It is split over ``PARTS`` independent searches (root parallelization), each seeded
from ``seed`` and its index, whose root statistics are added up in order: the same seed and
iteration budget give the same estimates whatever the number of worker processes, which only
decides where the searches run. A budget in seconds depends on the machine's speed.

**A position's value** for a seat (:func:`position_value`, the measure of luck) is the mean of
its returns over games played on from worlds drawn from its view, every seat playing the rollout
policy, with no tree: a fixed policy's value, whose average over a chance event's outcomes is its
value before the event, so that a change across the event is luck and nothing else. (A search's
value would not do: it plays better after the event, where it can spend all its iterations on
the outcome that came, than before, where it must spread them over all outcomes.) Its interval is
made as above.
"""

from __future__ import annotations

import math
import os
import pickle
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Final

from ..core.actions import Action
from ..core.errors import InvalidOptions
from ..core.game import Game, View
from .ismcts import ISMCTSAgent, RootStatistics

PARTS: Final = 4
"""Independent searches per position (root parallelization): fixed, so that estimates do not
depend on the number of workers."""
EXPLORE: Final = 0.5
"""The share of a search's iterations spread equally over the legal actions, at least."""
Z95: Final = 1.959964
"""The normal quantile of a two-sided 95% interval."""
DEFAULT_ITERATIONS: Final = 1200
"""A review's budget per position (iterations over all parts)."""
HINT_ITERATIONS: Final = 2000
"""A hint's budget: a few seconds at most on two cores."""
SERVER_REVIEW_ITERATIONS: Final = 600
"""A review's budget per position at the server (``courtly serve --review-iterations``): half
the terminal's, so that a game of two players is reviewed in well under a minute on two cores
while bots play elsewhere."""


@dataclass(frozen=True)
class Budget:
    """What one estimate may spend: ``iterations`` in all (split over :data:`PARTS` searches),
    or, if ``seconds`` is positive, about that much wall-clock time instead."""

    iterations: int = DEFAULT_ITERATIONS
    seconds: float = 0.0

    def __post_init__(self) -> None:
        if self.seconds < 0 or (self.seconds == 0 and self.iterations < PARTS):
            raise InvalidOptions(
                f"a search budget is at least {PARTS} iterations or a positive number of seconds"
            )

    def describe(self) -> dict[str, Any]:
        return {"seconds": self.seconds} if self.seconds > 0 else {"iterations": self.iterations}


@dataclass(frozen=True)
class ValueEstimate:
    """An estimated value for a seat in [0, 1] with its 95% interval and the visits behind it."""

    mean: float
    low: float
    high: float
    visits: int
    stderr: float
    """The standard error of ``mean`` (the interval is ``mean`` ± 1.96 of them, clipped)."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "mean": round(self.mean, 4),
            "low": round(self.low, 4),
            "high": round(self.high, 4),
            "visits": self.visits,
        }


@dataclass(frozen=True)
class ActionEstimate(ValueEstimate):
    """One legal action's estimated value for the deciding seat."""

    action: Action
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.text, "id": self.action.id, **super().to_dict()}


@dataclass(frozen=True)
class PositionEstimate:
    """A search's verdict on one position for its seat: every legal action (best first; empty
    where the seat does not decide) and the seat's value of the position as the search sees it
    (its best action's estimate where it decides between several, else its mean return over the
    search). Luck is measured with :func:`position_value` instead."""

    actions: list[ActionEstimate]
    value: ValueEstimate

    def of(self, action: Action | str) -> ActionEstimate:
        """The estimate of ``action`` (or its text)."""
        text = str(action)
        for found in self.actions:
            if found.text == text:
                return found
        raise KeyError(text)


def interval(total: float, square: float, visits: int) -> ValueEstimate:
    """The mean of ``visits`` returns in [0, 1] (their sum ``total``, sum of squares ``square``)
    with its 95% interval (see the module's docstring)."""
    if visits == 0:
        return ValueEstimate(0.5, 0.0, 1.0, 0, 0.5)
    mean = total / visits
    # One return of 0 and one of 1 added to the sample: the variance never collapses to 0.
    n = visits + 2
    padded_mean = (total + 1.0) / n
    variance = max((square + 1.0) / n - padded_mean * padded_mean, 0.0) * n / (n - 1)
    stderr = math.sqrt(variance / visits)
    half = Z95 * stderr
    return ValueEstimate(mean, max(0.0, mean - half), min(1.0, mean + half), visits, stderr)


# ----------------------------------------------------------------------------- the searches


@dataclass(frozen=True)
class SearchJob:
    """One of the :data:`PARTS` searches of a position: sent to a worker, or run here."""

    view: View
    seed: int
    part: int
    iterations: int
    seconds: float
    playouts: bool = False
    """Games played on by the rollout policy (a position's value), not a tree search."""

    def run(self) -> RootStatistics:
        agent = _agent(self.view.game, self.iterations, self.seconds)
        kind = "playouts" if self.playouts else "search"
        rng = random.Random(f"courtly/estimate/{kind}/{self.seed}/{self.part}")
        if self.playouts:
            return agent.playout_statistics(self.view, rng)
        return agent.root_statistics(self.view, rng, EXPLORE)


def _agent(game: Game, iterations: int, seconds: float) -> ISMCTSAgent:
    # Worlds from view.determinize alone; no guard (it only picks a move, which is not asked).
    return ISMCTSAgent(
        game, iterations=max(1, iterations), seconds=seconds, worlds="uniform", guard=0.0
    )


def jobs_for(
    view: View, budget: Budget, seed: int, workers: int = 1, playouts: bool = False
) -> list[SearchJob]:
    """The :data:`PARTS` searches of ``view`` within ``budget``: the iterations shared out, or the
    seconds shared so that ``workers`` processes finish them in about that time."""
    if budget.seconds > 0:
        rounds = math.ceil(PARTS / max(1, min(workers, PARTS)))
        share = budget.seconds / rounds
        return [SearchJob(view, seed, part, 0, share, playouts) for part in range(PARTS)]
    base, extra = divmod(budget.iterations, PARTS)
    return [
        SearchJob(view, seed, part, base + (1 if part < extra else 0), 0.0, playouts)
        for part in range(PARTS)
    ]


def run_copy(job: SearchJob) -> RootStatistics:
    """``job`` run on a copy made through pickle, as a worker process gets it: a view travels as
    what it knows (a view with nothing hidden as its history, replayed), so a search in this
    process, in a thread or in a worker process searches the same object, and one worker or
    many give the same estimates."""
    copy: SearchJob = pickle.loads(pickle.dumps(job))
    return copy.run()


def default_workers() -> int:
    return os.cpu_count() or 1


class Searcher:
    """Runs search jobs on a pool of ``workers`` processes (in this one if 1), kept open while
    the searcher is: a review sends all its positions' searches through one pool.

    ``executor``: a pool someone else owns (a server's), used instead of a pool of its own;
    ``workers`` then says how many jobs it runs at once (for budgets in seconds)."""

    def __init__(self, workers: int | None = None, executor: Executor | None = None) -> None:
        if workers is not None and workers < 1:
            raise InvalidOptions(f"--workers {workers}: give 1 or more")
        self.workers = workers or default_workers()
        self._shared = executor
        self._pool: Executor | None = executor

    def __enter__(self) -> Searcher:
        if self._shared is None and self.workers > 1:
            self._pool = ProcessPoolExecutor(self.workers)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._pool is not None and self._pool is not self._shared:
            self._pool.shutdown(cancel_futures=True)
        self._pool = self._shared

    def run(
        self, jobs: Sequence[SearchJob], done: Callable[[int], None] | None = None
    ) -> list[RootStatistics]:
        """Every job's statistics, in the order of ``jobs``; ``done(index)`` as each finishes."""
        if self._pool is None:
            results = []
            for index, job in enumerate(jobs):
                results.append(run_copy(job))
                if done is not None:
                    done(index)
            return results
        futures: list[Future[RootStatistics]] = [self._pool.submit(run_copy, j) for j in jobs]
        if done is not None:
            for index, future in _as_finished(futures):
                future.result()
                done(index)
        return [future.result() for future in futures]


def _as_finished(
    futures: Sequence[Future[RootStatistics]],
) -> Iterator[tuple[int, Future[RootStatistics]]]:
    from concurrent.futures import as_completed

    where = {id(future): index for index, future in enumerate(futures)}
    for future in as_completed(futures):
        yield where[id(future)], future


def pooled(parts: Sequence[RootStatistics], players: int) -> RootStatistics:
    """The statistics of a position's searches added up, in order."""
    total = RootStatistics(parts[0].actions if parts else (), players)
    for part in parts:
        total.add(part)
    return total


def seat_value(total: RootStatistics, seat: int) -> ValueEstimate:
    """``seat``'s mean return over every iteration of the pooled ``total``, with its interval."""
    return interval(total.value_sum[seat], total.value_square[seat], total.iterations)


def merged(view: View, parts: Sequence[RootStatistics]) -> PositionEstimate:
    """The estimate of ``view``'s position from its searches' statistics, added up in order."""
    total = pooled(parts, view.num_players)
    actions = [
        _action_estimate(action, interval(total.reward[i], total.square[i], total.visits[i]))
        for i, action in enumerate(total.actions)
    ]
    # Best first; ties keep the legal order (sorted is stable).
    actions.sort(key=lambda found: -found.mean)
    if len(actions) > 1:
        best = actions[0]
        value = ValueEstimate(best.mean, best.low, best.high, best.visits, best.stderr)
    elif view.is_terminal and view.seat is not None:
        result = view.returns()[view.seat]
        value = ValueEstimate(result, result, result, 0, 0.0)
    else:
        assert view.seat is not None
        value = seat_value(total, view.seat)
    return PositionEstimate(actions, value)


def _action_estimate(action: Action, value: ValueEstimate) -> ActionEstimate:
    return ActionEstimate(
        value.mean, value.low, value.high, value.visits, value.stderr, action, str(action)
    )


def search_position(
    view: View,
    budget: Budget | None = None,
    seed: int = 0,
    workers: int | None = None,
    searcher: Searcher | None = None,
) -> PositionEstimate:
    """The estimates of ``view``'s actions and its seat's value of the position (see the module's
    docstring), from ``view`` alone."""
    if view.seat is None:
        raise InvalidOptions("estimates are made for a seat, not for a spectator")
    budget = budget or Budget()
    if view.is_terminal:
        return merged(view, [])
    if searcher is not None:
        return merged(view, searcher.run(jobs_for(view, budget, seed, searcher.workers)))
    with Searcher(workers) as own:
        return merged(view, own.run(jobs_for(view, budget, seed, own.workers)))


def estimate(
    view: View, budget: Budget | None = None, seed: int = 0, workers: int | None = None
) -> list[ActionEstimate]:
    """Every legal action of ``view``'s seat, best first, with its estimated value for the seat
    (win chance or expected return in [0, 1]), 95% interval and visits; empty where the seat does
    not decide. Deterministic for a seed and an iteration budget, whatever ``workers`` (default:
    every core)."""
    return search_position(view, budget, seed, workers).actions


def position_value(
    view: View, budget: Budget | None = None, seed: int = 0, workers: int | None = None
) -> ValueEstimate:
    """``view``'s seat's win chance as the position stands, from its view: the mean of its
    returns over games played on from worlds drawn by ``view.determinize``, every seat playing
    the rollout policy (the game's heuristic, to its rollout depth, then its evaluation).

    A fixed policy rather than a search, so that the value before a chance event is the average
    of the values after its outcomes (as far as the seat can tell): the difference across the
    event is luck alone, with no search's improvement mixed in (see :mod:`courtly.sim.review`).
    The seat need not be the one to move."""
    seat = view.seat
    if seat is None:
        raise InvalidOptions("estimates are made for a seat, not for a spectator")
    if view.is_terminal:
        result = view.returns()[seat]
        return ValueEstimate(result, result, result, 0, 0.0)
    budget = budget or Budget()
    with Searcher(workers) as own:
        parts = own.run(jobs_for(view, budget, seed, own.workers, playouts=True))
    return seat_value(pooled(parts, view.num_players), seat)
