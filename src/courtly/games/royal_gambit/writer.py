"""Royal Gambit's observation tensor written straight from the state: the fast path of the RL
observer (:class:`courtly.rl.tensors.Observer`), compiled with the engine.

Apart from the layout (``tensor``), which the game itself imports: this module writes into
librt's byte sinks (mypyc's runtime library, an extra of the RL adapters), so the engine
imports without it, as in the browser's Pyodide."""

from __future__ import annotations

from typing import Final

from librt.strings import BytesWriter, write_f64_le, write_i16_le

from ...core.cards import Card
from ...core.game import State
from .components import BUSTED
from .rules import RoyalGambitState

# The fast path of the RL observer (:class:`courtly.rl.tensors.Observer`): the same floats as
# ``tensor_layout(game).encode(view.observation())``, written straight from the state as the slots
# of its nonzero floats (with the value of each one that is not 1.0), with no observation built.
# Every seat sees the whole table in Royal Gambit, so the state itself is what the seat may know.

# Final, so that the compiled writer reads them as constants, not from the module's dictionary.
# The layout's ("active", "stayed", "bust", "out") by status code (a tuple of any length:
# indexed by a variable, a fixed-size one would be boxed anew at each read when compiled).
_STATUS_SLOT: Final[tuple[int, ...]] = (3, 0, 1, 2)
_CARD_SLOTS: Final = 53
_JOKER_SLOT: Final = 52


def _cards(at: int, cards: list[Card], ones: BytesWriter) -> None:
    for card in cards:
        index: int = card  # an int: unboxed as one, not converted by a call to int()
        write_i16_le(ones, at + (index if index < _JOKER_SLOT else _JOKER_SLOT))


def write_tensor(state: State, seat: int, ones: BytesWriter, pairs: BytesWriter) -> None:
    """``seat``'s observation, written into the sinks by the writers' contract (see
    :mod:`courtly.core.tensors`, above ``SLOT_FORMAT``)."""
    assert isinstance(state, RoyalGambitState)
    _write(state, seat, ones, pairs)  # typed as the game's state: its fields read natively


def _write(state: RoyalGambitState, seat: int, ones: BytesWriter, pairs: BytesWriter) -> None:
    players = state.num_players
    score = state.tables.target_score
    write_i16_le(ones, seat)
    at = players
    if score:
        write_i16_le(pairs, at)
        write_f64_le(pairs, score / 50)
    at += 1
    write_i16_le(ones, at + state.phase)
    at += 4
    if state.hand_number:
        write_i16_le(pairs, at)
        write_f64_le(pairs, state.hand_number / 20)
    at += 1
    write_i16_le(ones, at + state.start_player)
    at += players
    write_i16_le(ones, at + state.turn)
    at += players
    movers = state.to_move
    for mover in movers:
        write_i16_le(ones, at + mover)
    at += players
    if movers:
        write_i16_le(ones, at + state.decision)
    at += 3
    # A total, a row's score and a banked score are all on the target's scale.
    for s in range(players):
        total = state.totals[s]
        if total:
            write_i16_le(pairs, at)
            write_f64_le(pairs, total / score)
        status = state.status[s]
        write_i16_le(ones, at + 1 + _STATUS_SLOT[status])
        _cards(at + 5, state.rows[s], ones)
        row_score = state.row_score(s) if status != BUSTED else 0
        if row_score:
            write_i16_le(pairs, at + 5 + _CARD_SLOTS)
            write_f64_le(pairs, row_score / score)
        banked = state.banked[s]
        if banked:
            write_i16_le(pairs, at + 6 + _CARD_SLOTS)
            write_f64_le(pairs, banked / score)
        at += 7 + _CARD_SLOTS
    _cards(at, state.set_aside, ones)
    at += _CARD_SLOTS
    if state.deck:
        write_i16_le(pairs, at)
        write_f64_le(pairs, len(state.deck) / 52)
    at += 1
    # A seat's first entry with flips left counts (as the view shows them); read in order, a
    # bit per seat written, with no list built.
    forced = state.forced_flips
    named = 0
    for i in range(len(forced)):
        s, left = forced[i]
        if left and not named >> s & 1:
            named |= 1 << s
            write_i16_le(pairs, at + s)
            write_f64_le(pairs, left / 3)
    at += players
    _each_seat_once(at, state.favorites, ones)
    at += players
    _each_seat_once(at, state.winners, ones)


def _each_seat_once(at: int, seats: tuple[int, ...], ones: BytesWriter) -> None:
    named = 0  # a bit per seat written (no set built)
    for s in seats:
        if not named >> s & 1:
            named |= 1 << s
            write_i16_le(ones, at + s)
