"""King's Court's observation tensor written straight from the state: the fast path of the RL
observer (:class:`courtly.rl.tensors.Observer`), compiled with the engine.

Apart from the layout (``tensor``), which the game itself imports: this module writes into
librt's byte sinks (mypyc's runtime library, an extra of the RL adapters), so the engine
imports without it, as in the browser's Pyodide."""

from __future__ import annotations

from typing import Final

from librt.strings import BytesWriter, write_f64_le, write_i16_le

from ...core.game import State
from .components import SEAT_SUIT, KingsCourtTables
from .rules import KingsCourtState

# The fast path of the RL observer (:class:`courtly.rl.tensors.Observer`): the same floats as
# ``tensor_layout(game).encode(view.observation())``, written straight from the state as the slots
# of its nonzero floats (with the value of each one that is not 1.0). It reads what
# ``views.observation`` reads, which holds only what the seat may know even on the unredacted
# state: its own hand, the cards it remembers of each other hand, what each other seat remembers
# of its hand, and the table.

# Final, so that the compiled writer reads them as constants, not from the module's dictionary.
# The layout's phases by phase code ("deal" has none) (a tuple of any length:
# indexed by a variable, a fixed-size one would be boxed anew at each read when compiled).
_PHASE_SLOT: Final[tuple[int, ...]] = (0, -1, 2, 1, 3, 4)
_SEAT_SUIT: Final[tuple[int, ...]] = SEAT_SUIT  # indexed by a variable: kept one tuple
_CARD_SLOTS: Final = 53
_JOKER_SLOT: Final = 52
_RECORD: Final = 4 + 1 + 1 + 3 * _CARD_SLOTS


class _Met:
    """The tables of the game written last and the scale of its positions: nearly every call
    writes a state of the same game as the call before, found by identity (held here, those
    tables cannot be another game's)."""

    def __init__(self) -> None:
        self.tables: KingsCourtTables | None = None
        self.track = 1.0


_MET: Final = _Met()


def _cards(at: int, cards: list[int], ones: BytesWriter) -> None:
    for card in cards:
        write_i16_le(ones, at + (card if card < _JOKER_SLOT else _JOKER_SLOT))


def _known(at: int, hand: list[int], memory: int, ones: BytesWriter) -> None:
    """The cards of ``hand`` a seat remembers (a bit per card of ``memory``)."""
    for card in hand:
        if card >= 0 and memory >> card & 1:
            write_i16_le(ones, at + card)


def write_tensor(state: State, seat: int, ones: BytesWriter, pairs: BytesWriter) -> None:
    """``seat``'s observation, written into the sinks by the writers' contract (see
    :mod:`courtly.core.tensors`, above ``SLOT_FORMAT``)."""
    assert isinstance(state, KingsCourtState)
    _write(state, seat, ones, pairs)  # typed as the game's state: its fields read natively


def _write(state: KingsCourtState, seat: int, ones: BytesWriter, pairs: BytesWriter) -> None:
    n = state.num_players
    tables = state.tables
    over = state.is_terminal
    write_i16_le(ones, seat)
    at = n
    if tables.track_length:
        write_i16_le(pairs, at)
        write_f64_le(pairs, tables.track_length / 30)
    at += 1
    phase = _PHASE_SLOT[state.phase]
    if phase >= 0:
        write_i16_le(ones, at + phase)
    at += 5
    write_i16_le(ones, at + state.start_player)
    at += n
    write_i16_le(ones, at + state.turn)
    at += n
    for mover in state.to_move:
        write_i16_le(ones, at + mover)
    at += n
    if state.turns_played:
        write_i16_le(pairs, at)
        write_f64_le(pairs, state.turns_played / tables.safety_cap)
    at += 1
    if state.queen_target >= 0:
        write_i16_le(ones, at + state.queen_target)
    at += n
    for s in range(n):
        if state.moved_back >> s & 1:
            write_i16_le(ones, at + s)
    at += n
    met = _MET
    if met.tables is not tables:
        # A position's scale is the option's whole track, not the track the game plays
        # (shortened past two players by track_cut): the layout's, read from the options.
        met.track = float(state.game.options["track_length"])
        met.tables = tables
    track = met.track
    hands = state.hands
    positions = state.positions
    memories = state.memories
    for s in range(n):
        write_i16_le(ones, at + _SEAT_SUIT[s])
        position = positions[s]
        if position:
            write_i16_le(pairs, at + 4)
            write_f64_le(pairs, position / track)
        hand = hands[s]
        if hand:
            write_i16_le(pairs, at + 5)
            write_f64_le(pairs, len(hand) / 10)
        if over or s == seat:
            _cards(at + 6, hand, ones)
        else:
            # ``views.known_cards`` of each side, read in place (no list built).
            _known(at + 6 + _CARD_SLOTS, hand, memories[seat * n + s], ones)
            _known(at + 6 + 2 * _CARD_SLOTS, hands[seat], memories[s * n + seat], ones)
        at += _RECORD
    if state.draw_pile:
        write_i16_le(pairs, at)
        write_f64_le(pairs, len(state.draw_pile) / 52)
    at += 1
    _cards(at, state.discard_pile, ones)
    at += _CARD_SLOTS
    _cards(at, state.removed, ones)
    at += _CARD_SLOTS
    if state.epoch:
        write_i16_le(pairs, at)
        write_f64_le(pairs, state.epoch / 10)
    at += 1
    if over:
        for s in state.winners:  # each seat once: the seats of a positive return, in order
            write_i16_le(ones, at + s)
