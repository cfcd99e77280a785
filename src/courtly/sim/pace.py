"""Minutes of play at a person's pace: an estimate of how long people take over a game, from the
decisions bots made in it (the README's results, ``tools/results.py``).

Nobody has yet timed people at Courtly's tables, so the minutes come from a model, stated here
so that anyone can redo them or change a figure:

- a **quick** decision, one whose answer the table shows at a glance (``hit``, ``stay``,
  ``pass``, ``end`` a turn), takes 3 seconds: the Keystroke-Level Model of Card, Moran and
  Newell ("The keystroke-level model for user performance time with interactive systems",
  CACM 23(7), 1980) puts a routine mental preparation at 1.35 s, and reaching for a card or a
  token and saying the move takes a second or two more;
- any other decision, a **choice** among cards or orders with a plan behind it (``form`` a
  trick, ``play`` a card, ``give``, ``recruit``...), takes 8 seconds: two or three such
  steps of thought, a look at the board, the move itself;
- decisions that seats take **at the same time** (God Save The King's forming, the Goths'
  Warchief orders: the seats in ``to_move`` together) take the time of the slowest of them,
  not their sum;
- the **set-up** (shuffle, deal, lay out the board) takes a minute, and every later deal or
  reshuffle (:attr:`Pace.redeal_unit`: Royal Gambit's hands, King's Court's reshuffles)
  30 seconds more.

Chance events (a card flipped, a die) are part of the decision that called for them. Talk,
rules look-ups and a first game's learning are left out: the figure is for players who know the
game, so a table of beginners takes longer.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Final

from ..core.events import CHANCE
from ..core.game import State
from .analysis import action_kind
from .backends import Backend, LocalBackend, chunks_of
from .stats import Distribution
from .tournament import GamePlayer, Simulation

QUICK_KINDS: Final = frozenset({"hit", "stay", "pass", "end"})
"""The kinds of action (:func:`~courtly.sim.analysis.action_kind`) decided at a glance."""


@dataclass(frozen=True)
class Pace:
    """Seconds a person takes, by kind of decision, and for the table's handling."""

    quick: float = 3.0
    choice: float = 8.0
    set_up: float = 60.0
    redeal: float = 30.0
    redeal_unit: str = ""
    """The unit of :meth:`State.progress` that counts deals or reshuffles (empty: none)."""
    dealt_in_set_up: int = 0
    """How many of ``redeal_unit`` the set-up already deals (Royal Gambit's first hand)."""

    def seconds(self, kind: str) -> float:
        return self.quick if kind in QUICK_KINDS else self.choice


class Stopwatch:
    """An event observer (:meth:`GamePlayer.play`) that adds up a game's time of decisions."""

    def __init__(self, pace: Pace) -> None:
        self.pace = pace
        self.total = 0.0
        self.moment = 0.0
        """The time of the moment being decided: the slowest of its decisions so far."""
        self.waiting: set[int] = set()
        """The seats of this moment that have not decided yet."""
        self.final: State | None = None

    def __call__(self, state: State, actor: int, item: Any) -> None:
        self.final = state  # the game's own state, the final one once the game is over
        if actor == CHANCE:
            self._close()
            return
        seconds = self.pace.seconds(action_kind(item))
        if actor in self.waiting:  # one more seat of a moment decided at once
            self.waiting.discard(actor)
            self.moment = max(self.moment, seconds)
            return
        self._close()
        self.waiting = set(state.to_move) - {actor}
        self.moment = seconds

    def _close(self) -> None:
        self.total += self.moment
        self.moment = 0.0
        self.waiting = set()

    def minutes(self) -> float:
        """The game's minutes at a person's pace, once it is over."""
        self._close()
        pace = self.pace
        deals = 0
        if pace.redeal_unit and self.final is not None:
            deals = max(0, self.final.progress().get(pace.redeal_unit, 0) - pace.dealt_in_set_up)
        return (self.total + pace.set_up + pace.redeal * deals) / 60


def minutes_of(pace: Pace, player: GamePlayer, index: int) -> float:
    """Play game ``index`` and estimate its minutes (a :data:`~courtly.sim.backends.Produce`
    once ``pace`` is bound)."""
    watch = Stopwatch(pace)
    player.play(index, watch)
    return watch.minutes()


def minutes_played(
    simulation: Simulation, pace: Pace, backend: Backend | None = None
) -> dict[str, Any]:
    """The distribution of the minutes of ``simulation``'s games at ``pace`` (median, deciles,
    mean with its interval: :meth:`Distribution.to_dict`), to the nearest tenth of a minute."""
    backend = backend or LocalBackend(1)
    minutes = Distribution()
    produce = functools.partial(minutes_of, pace)
    for chunk in backend.run(simulation, produce, chunks_of(simulation.games, backend.workers)):
        for value in chunk:
            minutes.add(round(value, 1))
    return minutes.to_dict()
