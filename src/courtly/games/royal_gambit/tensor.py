"""Royal Gambit's observation as a fixed-size vector (the RL adapters' tensor)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from ...core.cards import Card
from ...core.game import Game, State
from ...core.tensors import (
    ONE,
    SLOT_NUMBERS,
    Cards,
    Choice,
    Each,
    Number,
    SeatNumbers,
    Seats,
    TensorLayout,
)
from .components import BUSTED
from .rules import RoyalGambitState


def tensor_layout(game: Game) -> TensorLayout:
    players = game.num_players
    target = float(game.options["target_score"])
    hands = float(game.options["safety_cap"])  # RG-26: no more hands than the cap
    row_top = 30.0  # RG-15: a row scores A-5 once each (15 points), doubled by a King
    return TensorLayout(
        Seats("seat", players),
        Number("target_score", 50, high=target),
        Choice("phase", ("normal", "final", "tiebreak", "over")),
        Number("hand", 20, high=hands),
        Seats("start_player", players),
        Seats("turn", players),
        Seats("to_move", players),
        Choice("decision", ("hit-or-stay", "give-7", "jack-target")),
        Each(
            "players",
            players,
            Number("total", target, high=row_top * hands),
            Choice("status", ("active", "stayed", "bust", "out")),
            Cards("row"),
            Number("row_score", target, high=row_top),
            Number("banked", target, high=row_top),
        ),
        Cards("set_aside"),
        Number("deck_size", 52),
        SeatNumbers("forced_flips", players, 3),
        Seats("favorites", players),
        Seats("winners", players),
    )


_BOXED: Final[list[Any]] = SLOT_NUMBERS  # appended as they are: see SLOT_NUMBERS
_ONE: Final[Any] = ONE

# The fast path of the RL observer (:class:`courtly.rl.tensors.Observer`): the same floats as
# ``tensor_layout(game).encode(view.observation())``, written straight from the state as the slots
# of its nonzero floats (with the value of each one that is not 1.0), with no observation built.
# Every seat sees the whole table in Royal Gambit, so the state itself is what the seat may know.

# The layout's ("active", "stayed", "bust", "out") by status code (a tuple of any length:
# indexed by a variable, a fixed-size one would be boxed anew at each read when compiled).
_STATUS_SLOT: Final[tuple[int, ...]] = (3, 0, 1, 2)
_CARD_SLOTS: Final = 53
_JOKER_SLOT: Final = 52


def _cards(at: int, cards: list[Card], ones: list[Any], pairs: list[Any]) -> None:
    for card in cards:
        index = int(card)
        ones.append(_BOXED[at + (index if index < _JOKER_SLOT else _JOKER_SLOT)])


def write_tensor(state: State, seat: int, ones: list[int], pairs: list[float]) -> None:
    """Append every nonzero float of ``seat``'s observation: its slot to ``ones`` where the
    float is 1.0, else its slot then its value to ``pairs``; each slot named once at most
    (checked over random play of every count and option by the observer's tests)."""
    _write(state, seat, ones, pairs)  # the lists typed to take the prebuilt objects


def _write(state: State, seat: int, ones: list[Any], pairs: list[Any]) -> None:
    assert isinstance(state, RoyalGambitState)
    players = state.num_players
    target = float(state.tables.target_score)
    ones.append(_BOXED[seat])
    at = players
    score = state.tables.target_score
    if score:
        pairs.append(_BOXED[at])
        pairs.append(score / 50)
    at += 1
    ones.append(_BOXED[at + state.phase])
    at += 4
    if state.hand_number:
        pairs.append(_BOXED[at])
        pairs.append(state.hand_number / 20)
    at += 1
    ones.append(_BOXED[at + state.start_player])
    at += players
    ones.append(_BOXED[at + state.turn])
    at += players
    for mover in state.to_move:
        ones.append(_BOXED[at + mover])
    at += players
    if state.to_move:
        ones.append(_BOXED[at + state.decision])
    at += 3
    for s in range(players):
        total = state.totals[s]
        if total:
            pairs.append(_BOXED[at])
            pairs.append(total / target)
        status = state.status[s]
        ones.append(_BOXED[at + 1 + _STATUS_SLOT[status]])
        _cards(at + 5, state.rows[s], ones, pairs)
        row_score = state.row_score(s) if status != BUSTED else 0
        if row_score:
            pairs.append(_BOXED[at + 5 + _CARD_SLOTS])
            pairs.append(row_score / target)
        banked = state.banked[s]
        if banked:
            pairs.append(_BOXED[at + 6 + _CARD_SLOTS])
            pairs.append(banked / target)
        at += 7 + _CARD_SLOTS
    _cards(at, state.set_aside, ones, pairs)
    at += _CARD_SLOTS
    if state.deck:
        pairs.append(_BOXED[at])
        pairs.append(len(state.deck) / 52)
    at += 1
    # A seat's first entry with flips left counts (as the view shows them); read in order, a
    # bit per seat written, with no list built.
    forced = state.forced_flips
    named = 0
    for i in range(len(forced)):
        s, left = forced[i]
        if left and not named >> s & 1:
            named |= 1 << s
            pairs.append(_BOXED[at + s])
            pairs.append(left / 3)
    at += players
    _each_seat_once(at, state.favorites, ones, pairs)
    at += players
    _each_seat_once(at, state.winners, ones, pairs)


def _each_seat_once(at: int, seats: Sequence[int], ones: list[Any], pairs: list[Any]) -> None:
    named = 0  # a bit per seat written (no set built)
    for s in seats:
        if not named >> s & 1:
            named |= 1 << s
            ones.append(_BOXED[at + s])
