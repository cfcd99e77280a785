"""A seat's perfect-recall information state as one fixed-size ``float32`` vector: what it
observed at each of its decisions and what it chose there, then what it observes now.

For a game with an observation vector of ``O`` floats (:meth:`Game.tensor_layout`), ``A``
actions and a proven bound of ``D`` decisions in a whole game (``game.longest_game()``, which
no seat's own decisions can exceed), the vector holds ``D * (O + A) + O`` floats:

* ``D`` slots of ``O + A`` floats, one per decision of the seat, in the order it took them:
  its observation vector as it decided, then the action it took, one-hot over the action ids;
  the slots past its decisions so far are zeros;
* then ``O`` floats: its observation vector now (at its own decision, the one it is taking).

Every part is what the seat's view holds (each observation is written by the game's
:class:`~courtly.rl.tensors.Observer`, equal to the view's vector), so the vector is the same in
every world the seat cannot tell apart. Its size grows with the bound: a game's ``safety_cap`` sets it, and a small
cap gives a small vector (``docs/rl.md`` lists sizes).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from ..core.events import CHANCE, Event
from ..core.game import Game, State
from .tensors import Observer

Decision = tuple[npt.NDArray[np.float32], int]
"""A seat's observation vector as it decided, and the id of the action it took."""


class RecallLayout:
    """Where each part of a game's perfect-recall vector lies (see the module's docstring)."""

    def __init__(self, game: Game) -> None:
        self.observation_size = game.tensor_layout().size
        self.num_actions = game.num_actions
        self.slots = game.longest_game().decisions
        self.slot_size = self.observation_size + self.num_actions
        self.now = self.slots * self.slot_size
        """Where the observation now begins."""
        self.size = self.now + self.observation_size
        self.observer = Observer(game)

    def decision(self, state: State, seat: int, action: int) -> Decision:
        """``seat``'s decision in ``state``: its observation vector there, and ``action``."""
        return decision_observation(self.observer, state, seat), action

    def write_decisions(
        self,
        decisions: Sequence[Decision],
        out: npt.NDArray[np.float32],
        kept: int = 0,
        written: int = 0,
    ) -> int:
        """Write the slots of ``decisions`` into ``out`` (the whole vector), zeros after them,
        and return how many slots now hold a decision; the observation now is left as it is.

        ``out`` already holds ``decisions[:kept]`` in its first ``kept`` slots, and something
        in its first ``written`` (zeros after): a caller writing the same seat's growing list
        again writes only the new slots."""
        count = len(decisions)
        if count > self.slots:
            raise RuntimeError(
                f"{count} decisions of one seat, beyond the game's proven bound of "
                f"{self.slots}: the game's longest_game() is wrong"
            )
        size = self.slot_size
        if written > kept:
            out[kept * size : written * size] = 0.0
        at = kept * size
        for observation, action in decisions[kept:]:
            out[at : at + self.observation_size] = observation
            out[at + self.observation_size + action] = 1.0
            at += size
        return count


def decisions_from_history(game: Game, history: Sequence[Event], seat: int) -> list[Decision]:
    """``seat``'s decisions along ``history``, replayed from the start: what a seat drawn into a
    sampled world would have observed there."""
    observer = Observer(game)
    state = game.new_state()
    decisions: list[Decision] = []
    for actor, item in history:
        if actor == CHANCE:
            state.apply_chance(item)
            continue
        if actor == seat:
            decisions.append((decision_observation(observer, state, seat), item.id))
        state.apply(actor, item)
    return decisions


def decision_observation(observer: Observer, state: State, seat: int) -> npt.NDArray[np.float32]:
    """``seat``'s observation vector in ``state``, written from the state by the game's fast
    path into a fresh array (a decision keeps it: never written again)."""
    observation = np.empty(observer.size, np.float32)
    observer.write_observation(state, seat, observation)
    return observation
