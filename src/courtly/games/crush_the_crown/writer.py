"""Crush the Crown's observation tensor written straight from the state: the fast path of the RL
observer (:class:`courtly.rl.tensors.Observer`), compiled with the engine.

Apart from the layout (``tensor``), which the game itself imports: this module writes into
librt's byte sinks (mypyc's runtime library, an extra of the RL adapters), so the engine
imports without it, as in the browser's Pyodide."""

from __future__ import annotations

from typing import Final

from librt.strings import BytesWriter, write_f64_le, write_i16_le

from ...core.game import State
from ...core.tensors import ones_bytes
from .components import DECISION_TEXT, LADDER_TEXT, SECOND_JOKER, SLOT, SLOTS, SUIT, UNKNOWN
from .rules import CrushTheCrownState
from .tensor import RANKS

# The fast path of the RL observer (:class:`courtly.rl.tensors.Observer`): the same floats as
# ``tensor_layout(game).encode(view.observation())``, written straight from the state into the
# observer's two byte sinks as the slots of its nonzero floats (with the value of each one that
# is not 1.0), following ``views.observation`` field by field: the seat's own hand and what each
# side knows of the rival's, every hand once the game is over.

_PLAYERS: Final = 2  # the game is for two: every slot below is a constant of its layout
_CARD_SLOTS: Final = 53
_JOKER_SLOT: Final = 52
_SUITS: Final = 4
_RANKS: Final = 13
# Where each government slot's rank word (LADDER_TEXT) falls among the layout's RANKS.
_LADDER_RANK_SLOT: Final = tuple(RANKS.index(text) for text in LADDER_TEXT)
_SLOT_RECORD: Final = _CARD_SLOTS + _RANKS + 1
_GOVERNMENT_HEAD: Final = _SUITS + _RANKS + 1 + 1  # suit, next needed, complete, spies
_GOVERNMENT_RECORD: Final = _GOVERNMENT_HEAD + SLOTS * _SLOT_RECORD
_HAND_RECORD: Final = 1 + 3 * _CARD_SLOTS
_STANDARD_BITS: Final = (1 << _JOKER_SLOT) - 1  # the 52 standard cards of a mask

# The first slot of each field of the layout, in its order.
_PHASE: Final = _PLAYERS
_DECISION: Final = _PHASE + 4
_TO_MOVE: Final = _DECISION + len(DECISION_TEXT)
_DEALER: Final = _TO_MOVE + _PLAYERS
_FIRST_PLAYER: Final = _DEALER + _PLAYERS
_TURN: Final = _FIRST_PLAYER + _PLAYERS
_TURNS_PLAYED: Final = _TURN + _PLAYERS
_HAND_SIZE: Final = _TURNS_PLAYED + 1
_MERCENARY_SUITS: Final = _HAND_SIZE + 1
_KINGS_ASIDE: Final = _MERCENARY_SUITS + _SUITS
_GOVERNMENTS: Final = _KINGS_ASIDE + _CARD_SLOTS
_HANDS: Final = _GOVERNMENTS + _PLAYERS * _GOVERNMENT_RECORD
_DRAW_PILE: Final = _HANDS + _PLAYERS * _HAND_RECORD
_DISCARD_PILE: Final = _DRAW_PILE + 1
_EXECUTED: Final = _DISCARD_PILE + _CARD_SLOTS
_TRIBUTE_OWED: Final = _EXECUTED + _CARD_SLOTS
_WINNERS: Final = _TRIBUTE_OWED + 1
_DRAW: Final = _WINNERS + _PLAYERS


# A slot of a government without a spy holds the card of the government's suit and of the slot's
# rank: the rules fill it only so (the King and Queen of the marriage, then an extension or a
# discovery by the slot's own card). So a run of such slots is a constant of the seat, the suit
# and where the run begins and ends: their card and rank slots, prebuilt as the bytes of one
# write together with what follows the run, also a constant. A run ends at a spy (then its bytes
# hold the spy slot's rank and flag; the spy's card is written on its own) or at the last slot
# filled (then its bytes hold the government's head: its suit, then the rank it needs next or
# that it is complete). Parts by ``(seat * 4 + suit) * 14 + first``, then ``* 14 + spy`` or
# ``* 14 + filled``.
_NATURAL_CARD: Final = {(SUIT[card], SLOT[card]): card for card in range(_JOKER_SLOT)}
_RUNS: Final = SLOTS + 1  # where a run may begin or end: 0 to 13


def _government_at(seat: int) -> int:
    return _GOVERNMENTS + seat * _GOVERNMENT_RECORD


def _slot_at(seat: int, i: int) -> int:
    """The first slot of the record of slot ``i`` of ``seat``'s government."""
    return _government_at(seat) + _GOVERNMENT_HEAD + i * _SLOT_RECORD


def _run(seat: int, suit: int, first: int, end: int) -> list[int]:
    slots = []
    for i in range(first, end):
        slots.append(_slot_at(seat, i) + _NATURAL_CARD[suit, i])
        slots.append(_slot_at(seat, i) + _CARD_SLOTS + _LADDER_RANK_SLOT[i])
    return slots


def _runs_to_a_spy() -> list[bytes]:
    found = []
    for seat in range(_PLAYERS):
        for suit in range(_SUITS):
            for first in range(_RUNS):
                for spy in range(_RUNS):
                    slots = _run(seat, suit, first, spy)
                    if spy < SLOTS:
                        slots.append(_slot_at(seat, spy) + _CARD_SLOTS + _LADDER_RANK_SLOT[spy])
                        slots.append(_slot_at(seat, spy) + _CARD_SLOTS + _RANKS)
                    found.append(ones_bytes(slots))
    return found


def _last_runs() -> list[bytes]:
    found = []
    for seat in range(_PLAYERS):
        at = _government_at(seat)
        for suit in range(_SUITS):
            for first in range(_RUNS):
                for filled in range(_RUNS):
                    slots = [*_run(seat, suit, first, filled), at + suit]
                    if 0 < filled < SLOTS:
                        slots.append(at + _SUITS + _LADDER_RANK_SLOT[filled])
                    elif filled == SLOTS:
                        slots.append(at + _SUITS + _RANKS)
                    found.append(ones_bytes(slots))
    return found


_RUNS_TO_A_SPY: Final = _runs_to_a_spy()
_LAST_RUNS: Final = _last_runs()


def _cards(at: int, cards: list[int], ones: BytesWriter, pairs: BytesWriter) -> None:
    """Count each card, the jokers together in the joker slot (named once: no slot twice);
    a redacted copy's unknown card counts nowhere, as its ``?`` text does not."""
    jokers = 0
    for card in cards:
        if card < _JOKER_SLOT:
            write_i16_le(ones, at + card)
        elif card < UNKNOWN:
            jokers += 1
    _jokers(at + _JOKER_SLOT, jokers, ones, pairs)


def _known(at: int, known: int, ones: BytesWriter, pairs: BytesWriter) -> None:
    """The cards of a mask of known cards (``views.known_cards``): bits 52 and 53 the two
    jokers, counted together in the joker slot."""
    standard = known & _STANDARD_BITS
    while standard:
        low = standard & -standard
        write_i16_le(ones, at + low.bit_length() - 1)
        standard ^= low
    _jokers(at + _JOKER_SLOT, (known >> _JOKER_SLOT & 1) + (known >> SECOND_JOKER & 1), ones, pairs)


def _jokers(slot: int, jokers: int, ones: BytesWriter, pairs: BytesWriter) -> None:
    """The joker slot of a pile: 1.0 for one joker, 2.0 for both."""
    if jokers == 1:
        write_i16_le(ones, slot)
    elif jokers:
        write_i16_le(pairs, slot)
        write_f64_le(pairs, float(jokers))


def _government(
    seat: int,
    suit: int,
    government: list[int],
    spies: int,
    ones: BytesWriter,
    pairs: BytesWriter,
) -> None:
    """``seat``'s government of ``suit``: the prebuilt part of each run of slots without a spy,
    and each spy's card between them."""
    runs = (seat * _SUITS + suit) * _RUNS
    at = _GOVERNMENTS + seat * _GOVERNMENT_RECORD
    first = 0
    count = 0
    while spies:
        low = spies & -spies
        spy = low.bit_length() - 1
        ones.write(_RUNS_TO_A_SPY[(runs + first) * _RUNS + spy])
        card = government[spy]  # any card but a King, the jokers in one slot
        record = at + _GOVERNMENT_HEAD + spy * _SLOT_RECORD
        write_i16_le(ones, record + (card if card < _JOKER_SLOT else _JOKER_SLOT))
        first = spy + 1
        count += 1
        spies ^= low
    ones.write(_LAST_RUNS[(runs + first) * _RUNS + len(government)])
    if count:
        write_i16_le(pairs, at + _SUITS + _RANKS + 1)
        write_f64_le(pairs, count / 13)


def write_tensor(state: State, seat: int, ones: BytesWriter, pairs: BytesWriter) -> None:
    """``seat``'s observation, written into the sinks by the writers' contract (see
    :mod:`courtly.core.tensors`, above ``SLOT_FORMAT``)."""
    assert isinstance(state, CrushTheCrownState)
    _write(state, seat, ones, pairs)  # typed as the game's state: its fields read natively


def _seat(at: int, seat: int, ones: BytesWriter) -> None:
    if seat >= 0:
        write_i16_le(ones, at + seat)


def _write(state: CrushTheCrownState, seat: int, ones: BytesWriter, pairs: BytesWriter) -> None:
    tables = state.tables
    over = state.is_terminal
    write_i16_le(ones, seat)
    write_i16_le(ones, _PHASE + state.phase())
    if state.to_move:
        write_i16_le(ones, _DECISION + state.decision)
    for mover in state.to_move:
        write_i16_le(ones, _TO_MOVE + mover)
    _seat(_DEALER, state.dealer, ones)  # -1: none yet
    _seat(_FIRST_PLAYER, state.first_player, ones)
    _seat(_TURN, state.turn_player, ones)
    if state.turns_played:
        write_i16_le(pairs, _TURNS_PLAYED)
        write_f64_le(pairs, state.turns_played / tables.safety_cap)
    if tables.hand_size:
        write_i16_le(pairs, _HAND_SIZE)
        write_f64_le(pairs, tables.hand_size / 10)
    suits = state.suits
    if state.spy_slot_of:  # the mercenary suits: those no government is of
        for suit in range(_SUITS):
            if suit != suits[0] and suit != suits[1]:
                write_i16_le(ones, _MERCENARY_SUITS + suit)
    if state.kings_aside:
        _cards(_KINGS_ASIDE, state.kings_aside, ones, pairs)
    for h in range(_PLAYERS):
        suit = suits[h]
        if suit >= 0:  # married: a government of two slots at least
            _government(h, suit, state.governments[h], state.spies[h], ones, pairs)
    at = _HANDS
    for h in range(_PLAYERS):
        hand = state.hands[h]
        if hand:
            write_i16_le(pairs, at)
            write_f64_le(pairs, len(hand) / 40)
        if h == seat or over:
            _cards(at + 1, hand, ones, pairs)
        known = state.known_to_rival[h]
        if known:
            _known(at + 1 + (2 if h == seat else 1) * _CARD_SLOTS, known, ones, pairs)
        at += _HAND_RECORD
    if state.draw_pile:
        write_i16_le(pairs, _DRAW_PILE)
        write_f64_le(pairs, len(state.draw_pile) / 50)
    _cards(_DISCARD_PILE, state.discard_pile, ones, pairs)
    _cards(_EXECUTED, state.executed, ones, pairs)
    if state.tribute_owed:
        write_i16_le(pairs, _TRIBUTE_OWED)
        write_f64_le(pairs, state.tribute_owed / 13)
    if over:
        winners = state.winners
        named = 0  # a bit per seat written (no set built)
        for s in winners:
            if not named >> s & 1:
                named |= 1 << s
                write_i16_le(ones, _WINNERS + s)
        if len(winners) == 2:
            write_i16_le(ones, _DRAW)
