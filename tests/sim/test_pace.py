"""Minutes of play at a person's pace (courtly.sim.pace): the model's arithmetic."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, cast

import pytest

from courtly.core.events import CHANCE
from courtly.core.game import State
from courtly.sim import Simulation
from courtly.sim.pace import Pace, Stopwatch, minutes_played


@dataclass
class Moment:
    """Just what the stopwatch reads of a state: who is to move, and the game's own units."""

    to_move: tuple[int, ...]
    units: dict[str, int] = field(default_factory=dict)

    def progress(self) -> dict[str, int]:
        return self.units


def watch(pace: Pace, events: list[tuple[tuple[int, ...], int, Any]]) -> Stopwatch:
    stopwatch = Stopwatch(pace)
    for to_move, actor, item in events:
        stopwatch(cast(State, Moment(to_move)), actor, item)
    return stopwatch


def test_decisions_one_after_the_other_add_up_by_kind() -> None:
    # A hit and a stay are quick (3 s); a play is a choice (8 s); the set-up adds a minute.
    stopwatch = watch(Pace(), [((0,), 0, "hit"), ((0,), 0, "stay"), ((1,), 1, "play 7H")])
    assert stopwatch.minutes() == pytest.approx((3 + 3 + 8 + 60) / 60)


def test_seats_deciding_at_once_take_the_time_of_the_slowest() -> None:
    # Three seats decide together (one quick, two choices): 8 s, not 19 s; then p0 alone.
    events = [((0, 1, 2), 1, "pass"), ((0, 2), 0, "form KS"), ((2,), 2, "form 2H")]
    stopwatch = watch(Pace(set_up=0), [*events, ((0,), 0, "hit")])
    assert stopwatch.minutes() == pytest.approx((8 + 3) / 60)


def test_a_chance_event_closes_a_moment() -> None:
    # p0 decides, a card is drawn, p0 decides again: two moments of 8 s.
    events = [((0, 1), 0, "play 2S"), ((), CHANCE, "7H"), ((0, 1), 1, "play 3S")]
    assert watch(Pace(set_up=0), events).minutes() == pytest.approx(16 / 60)


def test_every_deal_after_the_set_up_adds_its_time() -> None:
    pace = Pace(set_up=0, redeal=30, redeal_unit="hands", dealt_in_set_up=1)
    stopwatch = Stopwatch(pace)
    stopwatch(cast(State, Moment((0,), {"hands": 4})), 0, "hit")
    # Hands 2, 3 and 4 are dealt at the table: 90 s, and the hit's 3 s.
    assert stopwatch.minutes() == pytest.approx((90 + 3) / 60)


def test_minutes_played_are_the_same_on_the_same_seeds() -> None:
    simulation = Simulation("royal-gambit", ("heuristic", "heuristic"), 30, 0, {})
    pace = Pace(redeal_unit="hands", dealt_in_set_up=1)
    first = minutes_played(simulation, pace)
    assert first == minutes_played(simulation, pace)
    assert first["n"] == 30
    # A game is at least its set-up and a few decisions, and a two-player game of 60
    # decisions (6 hands: README's results) takes minutes, not hours.
    assert 1 < first["min"] <= first["median"] <= first["max"] < 60
