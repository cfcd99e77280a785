"""A recorded game reviewed from each seat's knowledge: what each choice was worth, where the
game was lost, and how much was luck (``courtly review``).

Every figure comes from :mod:`courtly.agents.estimates`: a search over the worlds a seat cannot
tell apart from the real game, run on that seat's view at that point of the record, never on
the true state. Win chances are the seat's share of the game's returns (``state.returns()``:
1 for a sole winner, shared in a tie), so a value is in [0, 1].

**Decisions.** At every decision of a reviewed seat with more than one legal action, every
action is estimated. The *loss* of the choice is the best action's estimate minus the chosen
one's (0 when the choice is the best). It is labelled by its size, as lichess labels a drop in
win chance (its thresholds 0.1, 0.2 and 0.3 on a scale of winning chances from -1 to 1, i.e.
5, 10 and 15 points of win chance):

* **inaccuracy**: a loss of at least 0.05,
* **mistake**: at least 0.10,
* **blunder**: at least 0.15,

provided the loss is larger than its own noise, one standard error of the difference between the
two estimates (the estimates are noisy at a small budget: a loss within that noise gets no
label, though it still counts in the accuracy).

**Accuracy** of a seat is the mean over its decisions of lichess's accuracy of a move,
``103.1668 · exp(-0.04354 · drop) - 3.1669`` (``drop`` = the loss in points of win chance,
0 to 100; clipped to 0-100): 100 for the best choice, about 80 for a loss of 5 points, 50 for
15, 25 for 30. (lichess further weighs moves by the game's volatility and mixes in a harmonic mean; a plain
mean is easier to read at a glance.) The *mean loss* per decision is GNU Backgammon's error
rate, in win chance rather than equity.

**Luck.** Chance events with no decision between them (a deal, a card flipped) form one chance
step. Its luck for a seat is how far it moved that seat's win chance: the seat's value of the
position after the step minus before, each estimated from the seat's view then (GNU
Backgammon's luck of a roll: the value after it minus the value expected before it). A
position's value here is :func:`~courtly.agents.estimates.position_value`'s: every seat playing
the game's heuristic from there, so that the value before a step is the average of the values
after its outcomes and luck is zero on average (a search's value would favour the side that
knows the outcome). A step the seat learns nothing from (every event hidden from it and its view
of the table unchanged) has no luck for it. A seat's **luck** is the sum over the game, with its
standard error (the estimates' noise, added up), and its **luck-adjusted result** its actual
result minus that luck: what its play earned with the draws evened out. The estimates' noise
adds up over the draws of a long game: past 20 points of win chance (``LUCK_NOISE_LIMIT``) the
luck-adjusted result is not given (raise the budget to get it).

**The graph** of each seat's win chance over the game joins those positions' values and, at
each of its decisions, its best action's estimate (as lichess's graph shows the evaluation
before each move), and ends at the result.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from ..agents.estimates import (
    PARTS,
    ActionEstimate,
    Budget,
    PositionEstimate,
    Searcher,
    SearchJob,
    ValueEstimate,
    jobs_for,
    merged,
    pooled,
    seat_value,
)
from ..agents.ismcts import RootStatistics
from ..core.actions import seat_text
from ..core.errors import InvalidOptions
from ..core.events import CHANCE, observer_bit
from ..core.game import State
from ..core.records import MatchRecord
from ..core.replays import replay_record

LABELS: Final = (("blunder", 0.15), ("mistake", 0.10), ("inaccuracy", 0.05))
"""A loss of win chance at least this large (and above its noise) earns the label."""
LABEL_ORDER: Final = ("inaccuracy", "mistake", "blunder")


def label_of(loss: float, noise: float) -> str | None:
    """The label of a ``loss`` whose standard error is ``noise``, or None."""
    if loss <= noise:
        return None
    for name, threshold in LABELS:
        if loss >= threshold:
            return name
    return None


def move_accuracy(loss: float) -> float:
    """lichess's accuracy of a move (0-100) that lost ``loss`` win chance (0-1)."""
    drop = 100.0 * max(loss, 0.0)
    return min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * drop) - 3.1669))


def position_seed(seed: int, index: int, seat: int) -> int:
    """The search seed of seat ``seat``'s estimate at position ``index`` (after ``index`` events):
    the same in any record whose seat sees the same, and stable across machines."""
    text = f"courtly/review/{seed}/{index}/{seat}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


@dataclass(frozen=True)
class Decision:
    """One decision of a reviewed seat: at ``index`` (the event it made, after ``index`` events)."""

    index: int
    seat: int
    chosen: ActionEstimate
    best: ActionEstimate
    loss: float
    label: str | None
    accuracy: float
    actions: list[ActionEstimate]

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seat": seat_text(self.seat),
            "chosen": self.chosen.to_dict(),
            "best": self.best.to_dict(),
            "loss": round(self.loss, 4),
            "label": self.label,
            "accuracy": round(self.accuracy, 2),
            "actions": [action.to_dict() for action in self.actions],
        }


@dataclass(frozen=True)
class ChanceStep:
    """Chance events ``first`` to ``last`` (indices in the history), with no decision between,
    and their luck for each reviewed seat that learned something from them."""

    first: int
    last: int
    outcomes: list[str]
    """As a spectator sees them at the end of the record (``?`` for what is still secret)."""
    before: dict[int, float]
    after: dict[int, float]
    luck: dict[int, float]
    noise: dict[int, float]
    """The standard error of each seat's luck."""

    def to_dict(self) -> dict[str, Any]:
        return {
            "first": self.first,
            "last": self.last,
            "outcomes": self.outcomes,
            "luck": {seat_text(s): round(v, 4) for s, v in self.luck.items()},
            "before": {seat_text(s): round(v, 4) for s, v in self.before.items()},
            "after": {seat_text(s): round(v, 4) for s, v in self.after.items()},
        }


LUCK_NOISE_LIMIT: Final = 0.2
"""The most noise (standard error, in win chance) a seat's luck may carry for its luck-adjusted
result to be given: beyond it the review says the budget is too small to tell."""


@dataclass
class SeatSummary:
    """A reviewed seat's figures over the game."""

    seat: int
    agent: str
    decisions: int = 0
    accuracy: float | None = None
    mean_loss: float | None = None
    errors: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LABEL_ORDER, 0))
    luck: float = 0.0
    luck_stderr: float = 0.0
    """The standard error of ``luck``: the estimates' noise, added up over the game."""
    result: float | None = None
    """The seat's return; None for a game not over."""

    @property
    def adjusted(self) -> float | None:
        """The luck-adjusted result: the result minus the luck; None for a game not over, or
        when the luck's noise passes :data:`LUCK_NOISE_LIMIT` (a small budget's estimates add
        up over every draw of a long game: their sum would say nothing)."""
        if self.result is None or self.luck_stderr > LUCK_NOISE_LIMIT:
            return None
        return self.result - self.luck

    def to_dict(self) -> dict[str, Any]:
        def rounded(x: float | None, digits: int = 4) -> float | None:
            return None if x is None else round(x, digits)

        return {
            "seat": seat_text(self.seat),
            "agent": self.agent,
            "decisions": self.decisions,
            "accuracy": rounded(self.accuracy, 2),
            "mean_loss": rounded(self.mean_loss),
            "errors": dict(self.errors),
            "luck": round(self.luck, 4),
            "luck_stderr": round(self.luck_stderr, 4),
            "result": rounded(self.result),
            "luck_adjusted_result": rounded(self.adjusted),
        }


@dataclass
class GameReview:
    """The review of one record: every reviewed decision and chance step, each seat's win chance
    over the game, and each seat's summary."""

    record: MatchRecord
    seats: list[int]
    budget: Budget
    seed: int
    decisions: list[Decision]
    chance: list[ChanceStep]
    curves: dict[int, list[tuple[int, float]]]
    """Per reviewed seat, its win chance (from its view) at positions of the game, by event
    index: the graph of the review page."""
    summaries: dict[int, SeatSummary]

    def to_dict(self) -> dict[str, Any]:
        """Every figure, JSON-able (``PREFIX.json``; what a review page is drawn from).

        Events are counted as in the record's history: a decision's ``index`` is the number of
        events before it (the version a view of it was taken at), a chance step's ``first`` and
        ``last`` the indices of its events; win chances and losses are in [0, 1], accuracy in
        0-100; ``win_chance`` maps each reviewed seat to ``[index, value]`` points."""
        record = self.record
        return {
            "format": "courtly-review/1",
            "game": record.game,
            "players": record.players,
            "options": record.options,
            "game_id": record.game_id,
            "seed": record.seed,
            "agents": record.seats,
            "returns": record.returns,
            "events": len(record.history),
            "reviewed_seats": [seat_text(s) for s in self.seats],
            "budget": self.budget.describe(),
            "review_seed": self.seed,
            "thresholds": {name: threshold for name, threshold in LABELS},
            "summaries": [self.summaries[s].to_dict() for s in self.seats],
            "decisions": [decision.to_dict() for decision in self.decisions],
            "chance": [step.to_dict() for step in self.chance],
            "win_chance": {
                seat_text(s): [[index, round(value, 4)] for index, value in points]
                for s, points in self.curves.items()
            },
        }


# ----------------------------------------------------------------------------- the review


def positions_of(record: MatchRecord) -> list[State]:
    """The state before every event of the record, and the last one: ``len(history) + 1``
    states, checked against the record as ``courtly replay`` checks it."""
    states: list[State] = []
    final = replay_record(record, lambda state, actor, item: states.append(state.clone()))
    states.append(final)
    return states


def _learns_from(states: Sequence[State], first: int, last: int, seat: int) -> bool:
    """Whether ``seat`` learns anything from chance events ``first`` to ``last``."""
    after = states[last + 1]
    bit = observer_bit(seat, after.num_players)
    if any(after.secrets.known_to(index, bit) for index in range(first, last + 1)):
        return True
    return states[first].view(seat).observation() != after.view(seat).observation()


SHARED: Final = -1
"""The key of a value every seat shares: in a game that hides nothing, every seat's view is the
whole state, so one set of playouts gives every seat's value."""


def review_record(
    record: MatchRecord,
    seats: Sequence[int] | None = None,
    budget: Budget | None = None,
    seed: int = 0,
    workers: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    searcher: Searcher | None = None,
) -> GameReview:
    """Review ``record`` for ``seats`` (default: all): see the module's docstring.

    ``budget`` is each decision's search; a position's value gets half of it in playouts.
    ``progress(done, total)`` is called as the searches finish. The same record, seats, seed and
    iteration budget give the same review whatever the number of ``workers`` (default: every
    core). ``searcher``: where the searches run, if not in a pool of ``workers`` of their own
    (a server passes its pool)."""
    budget = budget or Budget()
    value_budget = Budget(max(PARTS, budget.iterations // 2), budget.seconds / 2)
    states = positions_of(record)
    game = states[0].game
    chosen_seats = list(range(game.num_players)) if not seats else sorted(set(seats))
    for seat in chosen_seats:
        if not 0 <= seat < game.num_players:
            raise InvalidOptions(f"{game.id} with {game.num_players} players has no seat {seat}")
    history = states[-1].history
    shared = not game.info.hidden_information

    decision_points: list[tuple[int, int]] = []
    for index, (actor, _) in enumerate(history):
        if actor in chosen_seats and len(states[index].legal_actions(actor)) > 1:
            decision_points.append((index, actor))

    # The positions whose value each seat needs: the start and both sides of every chance step
    # it learns from (the end is the result, known without a search).
    steps = _chance_steps(history)
    learners = [
        [seat for seat in chosen_seats if _learns_from(states, first, last, seat)]
        for first, last in steps
    ]
    valued: dict[int, set[int]] = {seat: {0} for seat in chosen_seats}
    for (first, last), seats_learning in zip(steps, learners, strict=True):
        for seat in seats_learning:
            valued[seat].update((first, last + 1))
    value_keys = sorted(
        {
            (index, SHARED if shared else seat)
            for seat, indices in valued.items()
            for index in indices
            if not states[index].is_terminal
        }
    )

    if searcher is None:
        with Searcher(workers) as own:
            searched, played = _search_all(
                states, decision_points, budget, value_keys, value_budget, seed, own, progress
            )
    else:
        searched, played = _search_all(
            states, decision_points, budget, value_keys, value_budget, seed, searcher, progress
        )

    def value(index: int, seat: int) -> ValueEstimate:
        state = states[index]
        if state.is_terminal:
            result = state.returns()[seat]
            return ValueEstimate(result, result, result, 0, 0.0)
        return seat_value(played[(index, SHARED if shared else seat)], seat)

    decisions = []
    for index, seat in decision_points:
        found = searched[(index, seat)]
        best = found.actions[0]
        chosen = found.of(history[index][1])
        loss = max(0.0, best.mean - chosen.mean)
        noise = math.hypot(best.stderr, chosen.stderr) if chosen is not best else 0.0
        decisions.append(
            Decision(
                index,
                seat,
                chosen,
                best,
                loss,
                label_of(loss, noise),
                move_accuracy(loss),
                found.actions,
            )
        )

    final = states[-1]
    spectator_log = final.log(None)
    chance: list[ChanceStep] = []
    for (first, last), seats_learning in zip(steps, learners, strict=True):
        before = {seat: value(first, seat) for seat in seats_learning}
        after = {seat: value(last + 1, seat) for seat in seats_learning}
        chance.append(
            ChanceStep(
                first,
                last,
                [text for _, text in spectator_log[first : last + 1]],
                {seat: found.mean for seat, found in before.items()},
                {seat: found.mean for seat, found in after.items()},
                {seat: after[seat].mean - before[seat].mean for seat in seats_learning},
                {
                    seat: math.hypot(after[seat].stderr, before[seat].stderr)
                    for seat in seats_learning
                },
            )
        )

    # The graph: the positions' values, and at each decision the best action's estimate (the
    # win chance the seat had, as lichess's graph shows the evaluation before each move).
    curves: dict[int, list[tuple[int, float]]] = {}
    for seat in chosen_seats:
        indices = set(valued[seat])
        if shared:  # every value computed is this seat's too
            indices.update(index for index, _ in value_keys)
        if final.is_terminal:
            indices.add(len(history))
        points = {index: value(index, seat).mean for index in indices}
        for decision in decisions:
            if decision.seat == seat:
                points[decision.index] = decision.best.mean
        curves[seat] = sorted(points.items())
    summaries = _summaries(record, chosen_seats, decisions, chance, final)
    return GameReview(record, chosen_seats, budget, seed, decisions, chance, curves, summaries)


def _chance_steps(history: Sequence[tuple[int, Any]]) -> list[tuple[int, int]]:
    """The runs of chance events with no decision between them, as (first, last) indices."""
    steps: list[tuple[int, int]] = []
    index = 0
    while index < len(history):
        if history[index][0] != CHANCE:
            index += 1
            continue
        last = index
        while last + 1 < len(history) and history[last + 1][0] == CHANCE:
            last += 1
        steps.append((index, last))
        index = last + 1
    return steps


def _search_all(
    states: Sequence[State],
    decision_points: Sequence[tuple[int, int]],
    budget: Budget,
    value_keys: Sequence[tuple[int, int]],
    value_budget: Budget,
    seed: int,
    searcher: Searcher,
    progress: Callable[[int, int], None] | None,
) -> tuple[dict[tuple[int, int], PositionEstimate], dict[tuple[int, int], RootStatistics]]:
    """Every decision's search and every position's playouts, through one pool of workers."""
    players = states[0].game.num_players
    jobs: list[SearchJob] = []
    spans: list[tuple[int, int]] = []  # each position's searches: jobs[start:end]
    for keys, spent, playouts in (
        (decision_points, budget, False),
        (value_keys, value_budget, True),
    ):
        for index, seat in keys:
            view = states[index].view(0 if seat == SHARED else seat)
            parts = jobs_for(
                view, spent, position_seed(seed, index, seat), searcher.workers, playouts
            )
            spans.append((len(jobs), len(jobs) + len(parts)))
            jobs.extend(parts)
    done = 0

    def finished(_: int) -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, len(jobs))

    if progress is not None:
        progress(0, len(jobs))
    results = searcher.run(jobs, finished)
    searched: dict[tuple[int, int], PositionEstimate] = {}
    for (start, end), (index, seat) in zip(spans, decision_points, strict=False):
        searched[(index, seat)] = merged(states[index].view(seat), results[start:end])
    played: dict[tuple[int, int], RootStatistics] = {}
    for (start, end), key in zip(spans[len(decision_points) :], value_keys, strict=True):
        played[key] = pooled(results[start:end], players)
    return searched, played


def _summaries(
    record: MatchRecord,
    seats: Sequence[int],
    decisions: Sequence[Decision],
    chance: Sequence[ChanceStep],
    final: State,
) -> dict[int, SeatSummary]:
    summaries: dict[int, SeatSummary] = {}
    for seat in seats:
        agent = record.seats[seat] if seat < len(record.seats) else ""
        summary = SeatSummary(seat, agent)
        own = [decision for decision in decisions if decision.seat == seat]
        summary.decisions = len(own)
        if own:
            summary.accuracy = sum(d.accuracy for d in own) / len(own)
            summary.mean_loss = sum(d.loss for d in own) / len(own)
        for decision in own:
            if decision.label is not None:
                summary.errors[decision.label] += 1
        summary.luck = sum(step.luck.get(seat, 0.0) for step in chance)
        summary.luck_stderr = math.sqrt(sum(step.noise.get(seat, 0.0) ** 2 for step in chance))
        if final.is_terminal:
            summary.result = final.returns()[seat]
        summaries[seat] = summary
    return summaries


def worst_decisions(review: GameReview, count: int = 8) -> list[Decision]:
    """The labelled decisions with the largest losses, largest first."""
    labelled = [decision for decision in review.decisions if decision.label is not None]
    return sorted(labelled, key=lambda decision: (-decision.loss, decision.index))[:count]
