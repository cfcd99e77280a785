"""A seat's observation as a NumPy ``float32`` vector, and its legal actions as a mask.

The vector's layout is each game's declaration (:mod:`courtly.core.tensors`); print it with::

    python -m courtly.rl.tensors royal-gambit --players 3

Both are built from a seat's :class:`~courtly.core.game.View` alone, so they hold nothing the
seat may not know (checked in every world consistent with its knowledge by the tests).
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from librt.strings import BytesWriter

from ..core.actions import Action
from ..core.errors import IllegalAction, InvalidOptions
from ..core.game import Game, State, View
from ..core.registry import make

TensorWriter = Callable[[State, int, BytesWriter, BytesWriter], None]
"""A game's fast observation path: ``write_tensor(state, seat, ones, pairs)`` writes every
nonzero float of the seat's observation, read from the state, into two empty byte sinks: its
slot to ``ones`` where it is 1.0 (nearly all are: one-hots, cards held), else its slot and its
value to ``pairs`` (the formats of :mod:`courtly.core.tensors`: ``SLOT_FORMAT``,
``PAIR_FORMAT``). A slot named twice adds up, as a card counted twice does."""

PAIR = np.dtype([("slot", "<i2"), ("value", "<f8")])
"""A record of a writer's ``pairs``: its slot and its value, packed (``PAIR_FORMAT``)."""


def written(ones: bytes, pairs: bytes) -> tuple[list[int], list[tuple[int, float]]]:
    """What a writer wrote, read back: the slots of its ``ones``, its ``(slot, value)`` pairs."""
    slots = np.frombuffer(ones, "<i2").tolist()
    records = np.frombuffer(pairs, PAIR)
    return slots, list(zip(records["slot"].tolist(), records["value"].tolist(), strict=True))


Scatter = Callable[
    [BytesWriter, BytesWriter, npt.NDArray[np.float32], npt.NDArray[np.float64]], None
]
"""``scatter(ones, pairs, out, scratch)``: a writer's sinks into the float32 ``out``, each slot's
values summed in float64 (those of ``pairs`` in their order, then 1.0 for each time ``ones``
names it: :func:`summed`) and rounded once, zero elsewhere (``scratch``: float64 zeros of
``out``'s length, left zeros); the sinks are emptied, read or not. Bad input raises and writes
nothing."""

Mark = Callable[[Sequence[Action], npt.NDArray[np.int8]], None]
"""``mark(actions, mask)``: 1 at every action's id in the int8 ``mask``, 0 elsewhere; an id off
the mask raises and writes nothing."""

Fill = Callable[[State, int], None]
"""``fill(state, seat)``: the seat's observation written into the one array the fill is bound
to (:meth:`Observer.filler`); the state and the seat are the caller's to check."""

FillerKernel = Callable[[TensorWriter, npt.NDArray[np.float32]], Fill]
"""``Filler(writer, out)``: the C fill bound to ``out`` (float32, one-dimensional, checked once
and held so it cannot be resized): it empties its own sinks, calls the writer with them and
scatters them, in one call; a writer that raises, or bad sinks, leave ``out`` as it was."""

SetFromKernel = Callable[[Fill, Game, int, Callable[[Any, int], None]], Callable[[Any, int], None]]
"""``SetFrom(fill, game, players, checked)``: OpenSpiel's ``set_from(state, player)`` in one C
call (:class:`courtly.rl.openspiel.CourtlyObserver`): ``fill(state.position.state, player)``
(the C filler's own steps, with no call in between, where ``fill`` is one) when that is a state
of ``game`` past its start and ``player`` an int in ``range(players)``, else ``checked(state,
player)``, the observer's own path with its checks."""

scatter_kernel: Scatter | None
mark_kernel: Mark | None
filler_kernel: FillerKernel | None
set_from_kernel: SetFromKernel | None
try:  # built in C by ``make compiled``; not imported when stale or with COURTLY_PURE=1, nor
    # where librt lays out its sinks otherwise than the build expects
    from ._scatter import Filler as filler_kernel
    from ._scatter import SetFrom as set_from_kernel
    from ._scatter import mark as mark_kernel
    from ._scatter import scatter as scatter_kernel
except ImportError:
    scatter_kernel = mark_kernel = filler_kernel = set_from_kernel = None


def observation_shape(game: Game) -> tuple[int]:
    return (game.tensor_layout().size,)


def observation_tensor(view: View) -> npt.NDArray[np.float32]:
    """The seat's observation as a fixed-size vector (:meth:`Game.tensor_layout`)."""
    return np.asarray(view.game.tensor_layout().encode(view.observation()), dtype=np.float32)


def action_mask(view: View) -> npt.NDArray[np.int8]:
    """1 at the id of every action the seat may take now (all zeros when it is not to move)."""
    mask = np.zeros(view.game.num_actions, dtype=np.int8)
    for action in view.legal_actions():
        mask[action.id] = 1
    return mask


def tensor_writer(game: Game) -> TensorWriter | None:
    """The game's ``write_tensor`` (in its ``writer`` module, compiled with the engine), or None
    when it has none (the observer then encodes the seat's view)."""
    package = type(game).__module__.rpartition(".")[0]
    try:
        module = importlib.import_module(f"{package}.writer")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.writer":
            raise  # the writer needs librt, and its absence is an error, not a silent slow path
        return None
    writer: TensorWriter | None = getattr(module, "write_tensor", None)
    return writer


class Observer:
    """Observations and masks of one game at engine speed, for the RL adapters.

    ``observe(state, seat)`` returns a fresh ``(observation, mask)`` pair; ``write(state, seat,
    observation_out, mask_out)`` fills arrays the caller owns (OpenSpiel's observer). Both equal
    :func:`observation_tensor` and :func:`action_mask` of ``state.view(seat)`` exactly (the
    tests compare them over random play of every game), but where the game has a fast path
    (:func:`tensor_writer`) they read the state directly, without building the view's redacted
    copy or its JSON observation; the writer reads only what the seat's view holds.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.layout = game.tensor_layout()
        self.size = self.layout.size
        self.num_actions = game.num_actions
        self.writer = tensor_writer(game)
        # The writer's sinks, reused at every call (each keeps its buffer).
        self._ones = BytesWriter()
        self._pairs = BytesWriter()
        # The C scatter of those sinks (None: NumPy's bincount, the reference path) and its
        # float64 sums, all zeros between calls; the C mark of the legal ids (None: NumPy's item
        # writes).
        self.scatter: Scatter | None = scatter_kernel
        self._sums = np.zeros(self.size, np.float64)
        self.mark: Mark | None = mark_kernel
        # The C fill bound to one array (None: a Python fill over _fill).
        self.filler_kernel: FillerKernel | None = filler_kernel
        self._players = game.num_players
        # The class of this game's states, once a state passed _seat_of's full checks: a state
        # of that very class needs no isinstance check of the State ABC (the dearest of them,
        # measured at a tenth of an observation) on later calls.
        self._state_class: type[State] | None = None

    def observe(
        self, state: State, seat: int
    ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.int8]]:
        seat = self._seat_of(state, seat)
        mark = self.mark
        if mark is None:
            mask = np.zeros(self.num_actions, dtype=np.int8)
            self._write_mask(state, seat, mask)
        else:
            mask = np.empty(self.num_actions, dtype=np.int8)
            mark(state.legal_actions(seat) if seat in state.to_move else (), mask)
        writer = self.writer
        if writer is None:
            vector = np.asarray(self.layout.encode(state.view(seat).observation()), np.float32)
        else:
            # _fill's steps written out here: a call less on every PettingZoo and Gymnasium
            # step measured 0.1 us (6%) off an observation.
            ones = self._ones
            pairs = self._pairs
            scatter = self.scatter
            if scatter is None:
                # A fresh array straight from bincount (the caller keeps it): measured cheaper
                # than filling a reused buffer and copying it out.
                vector = self._summed(state, seat).astype(np.float32)
            else:
                # The C scatter leaves the sinks empty, read or not, and so does a writer's
                # error: the next call finds them empty.
                try:
                    writer(state, seat, ones, pairs)
                except BaseException:
                    self._empty_sinks()
                    raise
                vector = np.empty(self.size, np.float32)  # a fresh one: the caller keeps it
                scatter(ones, pairs, vector, self._sums)
        return vector, mask

    def write(
        self,
        state: State,
        seat: int,
        observation_out: npt.NDArray[np.float32],
        mask_out: npt.NDArray[np.int8] | None = None,
    ) -> None:
        """Fill ``observation_out`` (and ``mask_out`` unless None) with ``seat``'s observation
        and legal-action mask; bad arguments raise before anything is written."""
        seat = self._seat_of(state, seat)
        _check_array("observation_out", observation_out, self.size, np.float32)
        if mask_out is not None:
            _check_array("mask_out", mask_out, self.num_actions, np.int8)
        self._fill(state, seat, observation_out)
        if mask_out is None:
            return
        mark = self.mark
        if mark is None:
            mask_out.fill(0)
            self._write_mask(state, seat, mask_out)
        else:
            mark(state.legal_actions(seat) if seat in state.to_move else (), mask_out)

    def write_observation(
        self, state: State, seat: int, observation_out: npt.NDArray[np.float32]
    ) -> None:
        """:meth:`write` of the observation alone into an array the adapter made itself at the
        observation's shape and dtype (so it is not checked again at every step); the state
        and the seat are checked as in :meth:`write`."""
        self._fill(state, self._seat_of(state, seat), observation_out)

    def filler(self, out: npt.NDArray[np.float32]) -> Fill:
        """``fill(state, seat)`` writing the seat's observation into ``out`` (float32, the
        observation's shape: checked here, once) as :meth:`write_observation` does, for a
        caller that fills the same array at every step and has checked the state and the seat
        itself (OpenSpiel's observer): the C kernel in one call where it is built."""
        _check_array("out", out, self.size, np.float32)
        kernel = self.filler_kernel
        writer = self.writer
        if kernel is not None and writer is not None and self.scatter is not None:
            return kernel(writer, out)
        fill = self._fill

        def fill_out(state: State, seat: int) -> None:
            fill(state, seat, out)

        return fill_out

    def _fill(self, state: State, seat: int, out: npt.NDArray[np.float32]) -> None:
        """Write the seat's observation into ``out`` (float32, the observation's shape)."""
        writer = self.writer
        if writer is None:
            out[:] = self.layout.encode(state.view(seat).observation())
            return
        scatter = self.scatter
        if scatter is not None:
            try:
                writer(state, seat, self._ones, self._pairs)
            except BaseException:
                self._empty_sinks()  # nothing of a failed call left for the next one
                raise
            scatter(self._ones, self._pairs, out, self._sums)
            return
        # The float32 output rounds each float64 sum once. (Skipping the sums where no slot
        # repeats cost more in the check than it saved.)
        out[:] = self._summed(state, seat)

    def _summed(self, state: State, seat: int) -> npt.NDArray[np.float64]:
        """The writer's sums of the seat's observation, read back by NumPy (no C scatter)."""
        assert self.writer is not None
        ones = self._ones
        pairs = self._pairs
        try:
            self.writer(state, seat, ones, pairs)
            return summed(ones.getvalue(), pairs.getvalue(), self.size)
        finally:
            self._empty_sinks()  # read or failed, nothing left for the next call

    def _empty_sinks(self) -> None:
        self._ones.truncate(0)
        self._pairs.truncate(0)

    @staticmethod
    def _write_mask(state: State, seat: int, mask_out: npt.NDArray[np.int8]) -> None:
        if seat in state.to_move:
            legal = state.legal_actions(seat)
            if len(legal) < 16:  # NumPy's item writes beat building an index array here
                for action in legal:
                    mask_out[action.id] = 1
            else:
                mask_out[[action.id for action in legal]] = 1

    def _seat_of(self, state: State, seat: int) -> int:
        if (
            type(seat) is int
            and 0 <= seat < self._players
            and type(state) is self._state_class
            and state.game is self.game
        ):
            return seat  # the adapters' every step: checked in the fewest operations
        if not isinstance(state, State) or (
            state.game is not self.game and state.game.config() != self.game.config()
        ):
            raise TypeError(f"expected a state of {self.game!r}, got {state!r}")
        if isinstance(seat, bool) or not isinstance(seat, int | np.integer):
            raise IllegalAction(f"{seat!r} is not a seat of this game")
        if not 0 <= seat < self._players:
            raise IllegalAction(f"{seat!r} is not a seat of this game")
        self._state_class = type(state)
        return int(seat)


def summed(ones: bytes, pairs: bytes, size: int) -> npt.NDArray[np.float64]:
    """A writer's sinks as the float64 sums of each slot (``size`` of them): the values of
    ``pairs`` naming it, in their order, then 1.0 for each time ``ones`` names it, added in
    float64 as the layout's list adds the values of a slot named twice (bincount adds its
    weights in their order). Sinks of a partial record, or a slot past ``size``, raise."""
    if len(ones) % 2 or len(pairs) % PAIR.itemsize:
        raise ValueError(f"a writer's sinks hold {len(ones)} and {len(pairs)} bytes: not whole")
    records = np.frombuffer(pairs, PAIR)
    slots = np.concatenate([records["slot"], np.frombuffer(ones, "<i2")])
    outside = slots[(slots < 0) | (slots >= size)]
    if len(outside):
        raise ValueError(f"slot {outside[0]} is outside the observation ({size} floats)")
    values = np.concatenate([records["value"], np.ones(len(slots) - len(records))])
    return np.bincount(slots, weights=values, minlength=size).astype(np.float64)


def _check_array(name: str, array: object, size: int, dtype: type[np.generic]) -> None:
    if not isinstance(array, np.ndarray) or array.shape != (size,):
        raise ValueError(f"{name} must be a NumPy array of shape ({size},)")
    if array.dtype != dtype:
        raise ValueError(f"{name} must be of dtype {np.dtype(dtype).name}")


def layout_table(game: Game) -> list[str]:
    """The layout as text lines: which floats mean what."""
    rows = game.tensor_layout().describe()
    width = len(str(rows[-1][1])) if rows else 1
    lines = [f"{game!r}: {game.tensor_layout().size} floats"]
    for first, last, meaning in rows:
        span = f"{first}" if first == last else f"{first}-{last}"
        lines.append(f"{span:>{2 * width + 1}}  {meaning}")
    return lines


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Print a game's observation tensor layout.")
    parser.add_argument("game")
    parser.add_argument("--players", type=int, default=None)
    args = parser.parse_args(argv)
    try:
        game = make(args.game, players=args.players)
    except InvalidOptions as error:
        parser.exit(2, f"error: {error}\n")
    print("\n".join(layout_table(game)))


if __name__ == "__main__":
    main()
