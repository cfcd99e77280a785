"""God Save The King's observation tensor written straight from the state: the fast path of the RL
observer (:class:`courtly.rl.tensors.Observer`), compiled with the engine.

Apart from the layout (``tensor``), which the game itself imports: this module writes into
librt's byte sinks (mypyc's runtime library, an extra of the RL adapters), so the engine
imports without it, as in the browser's Pyodide."""

from __future__ import annotations

from typing import Final

from librt.strings import BytesWriter, write_f64_le, write_i16_le

from ...core.game import State
from .components import (
    D_CHALLENGE,
    D_DECLARE,
    D_FORM,
    D_ROUTE,
    DECLARE,
    PASS,
    PUBLIC,
    PUSH,
    ROUTE,
)
from .rules import GodSaveTheKingState, Trick
from .tensor import PAST_TRICKS

# The fast path of the RL observer (:class:`courtly.rl.tensors.Observer`): the same floats as
# ``tensor_layout(game).encode(view.observation())``, written straight from the state as the slots
# of its nonzero floats (with the value of each one that is not 1.0), field by field as
# ``views.observation`` builds them. It reads only what that reads, which holds only what the seat
# may know even on the unredacted state: its own hand and choice, the cards of a pile or of the
# removed area whose knowers include the seat, its own face-down formation cards, the public
# table; and every card once the game is over.

# Final literals, so that the compiled writer folds them and what is made of them into its
# arithmetic (a Final computed at import is read and checked at every use): the layout's card
# field (CARD_SLOTS), its ranks (RANKS) and decisions (DECISION_TEXT and "draw"), checked
# against them by the tests.
_CARD_SLOTS: Final = 53
_RANKS: Final = 13
_SLOT: Final = 2 * _CARD_SLOTS + 2  # a formation slot: face up, own face down, face down, emptied
_FACE_DOWN: Final = 2 * _CARD_SLOTS
_EMPTIED: Final = 2 * _CARD_SLOTS + 1
_PLAYER: Final = 1 + 4 + 1 + _CARD_SLOTS + 1 + _CARD_SLOTS + _CARD_SLOTS + 1 + 1 + 4
_DECISIONS: Final = 6
_CHOICES: Final = 2 + _RANKS  # "pass", "route", a declaration per rank


def _cards(at: int, cards: list[int], ones: BytesWriter) -> None:
    for card in cards:
        if card < _CARD_SLOTS - 1:  # a standard card (the state holds no other)
            write_i16_le(ones, at + card)


def _known(at: int, cards: list[int], knowers: list[int], bit: int, ones: BytesWriter) -> int:
    """Write the cards everyone knows (from ``at``), then those the seat knows (a card field
    further), as ``views.observation`` splits a pile or the removed area; return how many the
    seat has not seen."""
    unseen = 0
    # Walked in step with a plain zip, which the compiled loop reads in place (with ``strict=``
    # it would iterate generically); a pile and its knowers are always of one length.
    for card, m in zip(cards, knowers):  # noqa: B905
        if m == PUBLIC:
            write_i16_le(ones, at + card)
        elif m & bit:
            write_i16_le(ones, at + _CARD_SLOTS + card)
        else:
            unseen += 1
    return unseen


def _choice_slot(kind: int, text: str, rank: int) -> int:
    """Where a seat's own pending choice goes in ``your_choice`` (-1: a choice the layout
    does not name, such as a route aimed at a slot)."""
    if kind == PASS:
        return 0
    if kind == ROUTE:
        return 1 if text == "route" else -1
    if kind == DECLARE:
        return 2 + rank - 2
    return -1


def write_tensor(state: State, seat: int, ones: BytesWriter, pairs: BytesWriter) -> None:
    """``seat``'s observation, written into the sinks by the writers' contract (see
    :mod:`courtly.core.tensors`, above ``SLOT_FORMAT``)."""
    assert isinstance(state, GodSaveTheKingState)
    _write(state, seat, ones, pairs)  # typed as the game's state: its fields read natively


def _write(state: GodSaveTheKingState, seat: int, ones: BytesWriter, pairs: BytesWriter) -> None:
    n = state.num_players
    over = state.is_terminal
    bit = PUBLIC if over else 1 << seat
    write_i16_le(ones, seat)
    at = n
    if state.hand_number:
        write_i16_le(pairs, at)
        write_f64_le(pairs, state.hand_number / 5)
    at += 1
    if state.tricks_played:
        write_i16_le(pairs, at)
        write_f64_le(pairs, state.tricks_played / 13)
    at += 1
    write_i16_le(ones, at + (_DECISIONS - 1 if state.is_chance else state.decision))
    at += _DECISIONS
    _waiting(state, over, at, ones)
    at += n
    mine = state.pending_choices[seat]
    if mine is not None:
        choice = _choice_slot(mine.kind, mine.text, mine.rank)
        if choice >= 0:
            write_i16_le(ones, at + choice)
    at += _CHOICES
    for s in range(n):
        _player(state, s, bit, over, at, ones, pairs)
        at += _PLAYER
    _cards(at, state.hands[seat], ones)
    at += _CARD_SLOTS
    unseen = _known(at, state.removed, state.removed_knowers, bit, ones)
    at += 2 * _CARD_SLOTS
    if unseen:
        write_i16_le(pairs, at)
        write_f64_le(pairs, unseen / 52)
    at += 1
    if state.tricks and state.current_trick:
        write_i16_le(pairs, at)
        write_f64_le(pairs, state.current_trick / 2)  # at most 2
    at += 1
    record = 2 * n + 2 * (n + 1 + 3 * _SLOT) + 2 * 3 + 2 * _RANKS + 1 + (n + 1) + 2 + n + 2
    tricks = state.tricks
    shown = min(2, len(tricks))
    for i in range(shown):
        _trick(state, tricks[i], seat, over, at, ones, pairs)
        at += record
    at += (2 - shown) * record
    past = 1 + 2 * n + 2 * _RANKS + 2
    history = state.past_tricks
    first = max(0, len(history) - PAST_TRICKS)  # the latest kept, read in place
    at += (PAST_TRICKS - (len(history) - first)) * past
    for i in range(first, len(history)):
        hand, (x, y), collector, dx, dy, answer = history[i]
        if hand:
            write_i16_le(pairs, at)
            write_f64_le(pairs, hand / 5)
        seats_at = at + 1  # the record's players, then who collected it
        write_i16_le(ones, seats_at + x)
        write_i16_le(ones, seats_at + y)
        if collector >= 0:
            write_i16_le(ones, seats_at + n + collector)
        ranks_at = seats_at + 2 * n - 2  # the declarations, by rank from 2
        if dx:
            write_i16_le(ones, ranks_at + dx)
        if dy:
            write_i16_le(ones, ranks_at + _RANKS + dy)
        if answer >= 0:
            write_i16_le(ones, ranks_at + 2 + 2 * _RANKS + (0 if answer else 1))
        at += past
    if state.is_chance:
        if state.draw_from >= 0:
            write_i16_le(ones, at + state.draw_from)
        if state.draw_to >= 0:
            write_i16_le(ones, at + n + state.draw_to)
    at += 2 * n
    if over:
        won = 0
        for s in state.winners:
            if not won >> s & 1:
                won |= 1 << s
                write_i16_le(ones, at + s)


def _waiting(state: GodSaveTheKingState, over: bool, at: int, ones: BytesWriter) -> None:
    """``state.waiting()``'s seats, read where they are rather than listed first: the seats of
    each trick with a formation still open, or those asked the current question that have not
    answered it (the tests hold the two to the same vector)."""
    if over or state.is_chance:
        return
    decision = state.decision
    if decision == D_FORM:
        for t in state.tricks:
            x, y = t.seats
            placed = t.placed
            if placed[0] < 3:
                write_i16_le(ones, at + x)
            if placed[1] < 3:
                write_i16_le(ones, at + y)
    elif decision in (D_ROUTE, D_DECLARE, D_CHALLENGE):
        waiting = state.asked & ~state.submitted
        while waiting:
            low = waiting & -waiting
            write_i16_le(ones, at + low.bit_length() - 1)
            waiting ^= low


def _player(
    state: GodSaveTheKingState,
    s: int,
    bit: int,
    over: bool,
    at: int,
    ones: BytesWriter,
    pairs: BytesWriter,
) -> None:
    active = state.active[s]
    if active:
        write_i16_le(ones, at)
    write_i16_le(ones, at + 1 + s)  # the seat's suit
    hand = state.hands[s]
    if hand:
        write_i16_le(pairs, at + 5)
        write_f64_le(pairs, len(hand) / 26)
    if over:
        _cards(at + 6, hand, ones)
    at += 6 + _CARD_SLOTS
    pile = state.piles[s]
    if pile:  # (an empty pile has no knowers to walk, nor unseen cards)
        write_i16_le(pairs, at)
        write_f64_le(pairs, len(pile) / 26)
        unseen = _known(at + 1, pile, state.pile_knowers[s], bit, ones)
        if unseen:
            write_i16_le(pairs, at + 1 + 2 * _CARD_SLOTS)
            write_f64_le(pairs, unseen / 26)
    at += 1 + 2 * _CARD_SLOTS
    routes = state.routes_used[s]
    if routes:
        write_i16_le(pairs, at + 1)
        write_f64_le(pairs, routes / 3)
    if active and state.schedule >= 3:
        letters = state.seat_of_letter  # searched by index: no tuple method called
        for letter in range(len(letters)):
            if letters[letter] == s:
                write_i16_le(ones, at + 2 + letter)
                break


def _trick(
    state: GodSaveTheKingState,
    t: Trick,
    seat: int,
    over: bool,
    at: int,
    ones: BytesWriter,
    pairs: BytesWriter,
) -> None:
    n = state.num_players
    # The seats and columns are fixed-size tuples: read by constant index, not iterated or
    # indexed by a variable (either would box a new tuple in the compiled module).
    x, y = t.seats
    write_i16_le(ones, at + x)
    write_i16_le(ones, at + y)
    at += n
    write_i16_le(ones, at + x)
    at += n
    for side in range(2):
        owner = x if side == 0 else y
        write_i16_le(ones, at + owner)
        placed = t.placed[side]
        if placed:
            write_i16_le(pairs, at + n)
            write_f64_le(pairs, placed / 3)
        at += n + 1
        formation = t.formations[side]
        face_up = t.face_up[side]
        own = owner == seat
        k = 0  # counted by hand: the plain zip is the loop the compiled module reads in place
        for c, up in zip(formation, face_up):  # noqa: B905 (three slots each)
            if c is None:
                if placed > k:
                    write_i16_le(ones, at + _EMPTIED)
            else:
                card: int = c  # an int here: unboxed as one, not converted by a call to int()
                if up or over:
                    write_i16_le(ones, at + card)
                elif own:
                    write_i16_le(ones, at + _CARD_SLOTS + card)
                else:
                    write_i16_le(ones, at + _FACE_DOWN)
            at += _SLOT
            k += 1  # noqa: SIM113
    if t.skirmish_result >= 0:
        first, second = t.columns
        write_i16_le(ones, at + first + 1)
        write_i16_le(ones, at + 3 + second + 1)
    at += 6
    for declared in t.declared:
        if declared:
            write_i16_le(ones, at + declared - 2)
        at += _RANKS
    if t.redeclarations:
        write_i16_le(pairs, at)
        write_f64_le(pairs, t.redeclarations / 2)
    at += 1
    result = t.skirmish_result
    if result >= 0:
        write_i16_le(ones, at + (n if result == PUSH else x if result == 0 else y))
    at += n + 1
    if t.challenge_answer >= 0:
        write_i16_le(ones, at + (0 if t.challenge_answer else 1))
    at += 2
    if t.collector >= 0:
        write_i16_le(ones, at + (x if t.collector == 0 else y))
    at += n
    if t.void:
        write_i16_le(ones, at)
    if t.step:
        write_i16_le(pairs, at + 1)
        write_f64_le(pairs, t.step / 8)
