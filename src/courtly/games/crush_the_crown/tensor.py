"""Crush the Crown's observation as a fixed-size vector (the RL adapters' tensor)."""

from __future__ import annotations

from typing import Any, Final

from ...core.cards import RANK_TEXT, SUIT_NAMES
from ...core.game import Game, State
from ...core.tensors import (
    ONE,
    SLOT_NUMBERS,
    Cards,
    Choice,
    Each,
    Flag,
    Number,
    Seats,
    TensorLayout,
    Words,
)
from .components import DECISION_TEXT, LADDER_TEXT, SECOND_JOKER, SLOTS, UNKNOWN
from .rules import CrushTheCrownState

RANKS = tuple(RANK_TEXT[rank] for rank in range(2, 15))


def tensor_layout(game: Game) -> TensorLayout:
    players = game.num_players
    return TensorLayout(
        Seats("seat", players),
        Choice("phase", ("setup", "marriage", "play", "over")),
        Choice("decision", DECISION_TEXT),
        Seats("to_move", players),
        Seats("dealer", players),
        Seats("first_player", players),
        Seats("turn", players),
        Number("turns_played", float(game.options["safety_cap"])),
        Number("hand_size", 10, high=float(game.options["hand_size"])),
        Words("mercenary_suits", SUIT_NAMES),
        Cards("kings_aside"),
        Each(
            "governments",
            players,
            Choice("suit", SUIT_NAMES),
            Choice("next_needed", RANKS),
            Flag("complete"),
            Number("spies", 13),
            # A government's slots, in its order (2 up to the Ace, then the Queen and King).
            Each("slots", 13, Cards("card"), Choice("rank", RANKS), Flag("spy")),
        ),
        Each(
            "hands",
            players,
            Number("size", 40, high=50),  # §2: a hand holds at most the deck, Kings aside
            Cards("cards"),
            Cards("known"),
            Cards("known_to_rival"),
        ),
        Number("draw_pile", 50),
        Cards("discard_pile"),
        Cards("executed"),
        Number("tribute_owed", 13),
        Seats("winners", players),
        Flag("draw"),
    )


_BOXED: Final[list[Any]] = SLOT_NUMBERS  # appended as they are: see SLOT_NUMBERS
_ONE: Final[Any] = ONE

# The fast path of the RL observer (:class:`courtly.rl.tensors.Observer`): the same floats as
# ``tensor_layout(game).encode(view.observation())``, written straight from the state as the slots
# of its nonzero floats (with the value of each one that is not 1.0), following
# ``views.observation`` field by field: the seat's own hand and what each side knows of the
# rival's, every hand once the game is over.

_CARD_SLOTS: Final = 53
_JOKER_SLOT: Final = 52
_SUITS: Final = 4
_RANKS: Final = 13
# Where each government slot's rank word (LADDER_TEXT) falls among the layout's RANKS.
_LADDER_RANK_SLOT: Final = tuple(RANKS.index(text) for text in LADDER_TEXT)
_SLOT_RECORD: Final = _CARD_SLOTS + _RANKS + 1
_GOVERNMENT_RECORD: Final = _SUITS + _RANKS + 1 + 1 + SLOTS * _SLOT_RECORD
_HAND_RECORD: Final = 1 + 3 * _CARD_SLOTS
_STANDARD_BITS: Final = (1 << _JOKER_SLOT) - 1  # the 52 standard cards of a mask
# A hand's and the draw pile's fractions, for every count up to the whole pack (more than either
# can hold), built once: the same floats as the division, appended without a float made and
# freed a call.
_FORTIETHS: Final[list[Any]] = [count / 40 for count in range(_CARD_SLOTS + 2)]
_FIFTIETHS: Final[list[Any]] = [count / 50 for count in range(_CARD_SLOTS + 2)]


def _cards(at: int, cards: list[int], ones: list[Any], pairs: list[Any]) -> None:
    """Count each card, the jokers together in the joker slot (one pair: no slot named twice);
    a redacted copy's unknown card counts nowhere, as its ``?`` text does not."""
    jokers = 0
    for card in cards:
        if card < _JOKER_SLOT:
            ones.append(_BOXED[at + card])
        elif card < UNKNOWN:
            jokers += 1
    _jokers(at + _JOKER_SLOT, jokers, ones, pairs)


def _known(at: int, known: int, ones: list[Any], pairs: list[Any]) -> None:
    """The cards of a mask of known cards (``views.known_cards``): bits 52 and 53 the two
    jokers, counted together in the joker slot."""
    standard = known & _STANDARD_BITS
    while standard:
        low = standard & -standard
        ones.append(_BOXED[at + low.bit_length() - 1])
        standard ^= low
    _jokers(at + _JOKER_SLOT, (known >> _JOKER_SLOT & 1) + (known >> SECOND_JOKER & 1), ones, pairs)


def _jokers(slot: int, jokers: int, ones: list[Any], pairs: list[Any]) -> None:
    if jokers:
        pairs.append(_BOXED[slot])
        pairs.append(_ONE if jokers == 1 else float(jokers))


def write_tensor(state: State, seat: int, ones: list[int], pairs: list[float]) -> None:
    """Append every nonzero float of ``seat``'s observation: its slot to ``ones`` where the
    float is 1.0, else its slot then its value to ``pairs``; each slot named once at most
    (checked over random play of every count and option by the observer's tests)."""
    _write(state, seat, ones, pairs)  # the lists typed to take the prebuilt objects


def _seat(at: int, seat: int, ones: list[Any], pairs: list[Any]) -> None:
    if seat >= 0:
        ones.append(_BOXED[at + seat])


def _write(state: State, seat: int, ones: list[Any], pairs: list[Any]) -> None:
    assert isinstance(state, CrushTheCrownState)
    players = state.num_players
    tables = state.tables
    over = state.is_terminal
    ones.append(_BOXED[seat])
    at = players
    ones.append(_BOXED[at + state.phase()])
    at += 4
    if state.to_move:
        ones.append(_BOXED[at + state.decision])
    at += len(DECISION_TEXT)
    for mover in state.to_move:
        ones.append(_BOXED[at + mover])
    at += players
    _seat(at, state.dealer, ones, pairs)  # -1: none yet
    at += players
    _seat(at, state.first_player, ones, pairs)
    at += players
    _seat(at, state.turn_player, ones, pairs)
    at += players
    if state.turns_played:
        pairs.append(_BOXED[at])
        pairs.append(state.turns_played / tables.safety_cap)
    at += 1
    if tables.hand_size:
        pairs.append(_BOXED[at])
        pairs.append(tables.hand_size / 10)
    at += 1
    if state.spy_slot_of:  # the mercenary suits: those no government is of
        suits = state.suits
        for suit in range(_SUITS):
            if suit != suits[0] and suit != suits[1]:
                ones.append(_BOXED[at + suit])
    at += _SUITS
    _cards(at, state.kings_aside, ones, pairs)
    at += _CARD_SLOTS
    for h in range(players):
        government = state.governments[h]
        spies = state.spies[h]
        suit = state.suits[h]
        if suit >= 0:
            ones.append(_BOXED[at + suit])
        filled = len(government)
        if 0 < filled < SLOTS:
            ones.append(_BOXED[at + _SUITS + _LADDER_RANK_SLOT[filled]])
        elif filled == SLOTS:
            ones.append(_BOXED[at + _SUITS + _RANKS])
        if spies:
            pairs.append(_BOXED[at + _SUITS + _RANKS + 1])
            pairs.append(spies.bit_count() / 13)
        record = at + _SUITS + _RANKS + 2
        for i in range(min(filled, SLOTS)):
            card = government[i]
            ones.append(_BOXED[record + (card if card < _JOKER_SLOT else _JOKER_SLOT)])
            ones.append(_BOXED[record + _CARD_SLOTS + _LADDER_RANK_SLOT[i]])
            if spies >> i & 1:
                ones.append(_BOXED[record + _CARD_SLOTS + _RANKS])
            record += _SLOT_RECORD
        at += _GOVERNMENT_RECORD
    for h in range(players):
        hand = state.hands[h]
        if hand:
            pairs.append(_BOXED[at])
            pairs.append(_FORTIETHS[len(hand)])
        if h == seat or over:
            _cards(at + 1, hand, ones, pairs)
        if h == seat:
            _known(at + 1 + 2 * _CARD_SLOTS, state.known_to_rival[h], ones, pairs)
        else:
            _known(at + 1 + _CARD_SLOTS, state.known_to_rival[h], ones, pairs)
        at += _HAND_RECORD
    if state.draw_pile:
        pairs.append(_BOXED[at])
        pairs.append(_FIFTIETHS[len(state.draw_pile)])
    at += 1
    _cards(at, state.discard_pile, ones, pairs)
    at += _CARD_SLOTS
    _cards(at, state.executed, ones, pairs)
    at += _CARD_SLOTS
    if state.tribute_owed:
        pairs.append(_BOXED[at])
        pairs.append(state.tribute_owed / 13)
    at += 1
    winners = state.winners
    named = 0  # a bit per seat written (no set built)
    for s in winners:
        if not named >> s & 1:
            named |= 1 << s
            ones.append(_BOXED[at + s])
    at += players
    if over and len(winners) == 2:
        ones.append(_BOXED[at])
