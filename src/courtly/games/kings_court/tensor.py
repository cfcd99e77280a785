"""King's Court's observation as a fixed-size vector (the RL adapters' tensor)."""

from __future__ import annotations

from typing import Any, Final

from ...core.game import Game, State
from ...core.tensors import ONE, SLOT_NUMBERS, Cards, Choice, Each, Number, Seats, TensorLayout
from .components import SEAT_SUIT
from .rules import KingsCourtState


def tensor_layout(game: Game) -> TensorLayout:
    players = game.num_players
    track = float(game.options["track_length"])
    # A reshuffle comes before a draw, a chance event: no more than the game's chance events.
    reshuffles = float(game.longest_game().chance)
    return TensorLayout(
        Seats("seat", players),
        Number("track_length", 30, high=track),
        Choice("phase", ("start", "play", "draw", "borrow", "over")),
        Seats("start_player", players),
        Seats("turn", players),
        Seats("to_move", players),
        Number("turns_played", float(game.options["safety_cap"])),
        Seats("queen_target", players),
        Seats("moved_back", players),
        Each(
            "players",
            players,
            Choice("suit", ("S", "H", "D", "C")),
            Number("position", track),
            Number("hand_size", 10, high=52),  # a hand holds at most the deck
            Cards("hand"),
            Cards("known_cards"),
            Cards("knows_of_mine"),
        ),
        Number("draw_pile_size", 52),
        Cards("discard_pile"),
        Cards("removed"),
        Number("reshuffles", 10, high=reshuffles),
        Seats("winners", players),
    )


_BOXED: Final[list[Any]] = SLOT_NUMBERS  # appended as they are: see SLOT_NUMBERS
_ONE: Final[Any] = ONE

# The fast path of the RL observer (:class:`courtly.rl.tensors.Observer`): the same floats as
# ``tensor_layout(game).encode(view.observation())``, written straight from the state as the slots
# of its nonzero floats (with the value of each one that is not 1.0). It reads what
# ``views.observation`` reads, which holds only what the seat may know even on the unredacted
# state: its own hand, the cards it remembers of each other hand, what each other seat remembers
# of its hand, and the table.

# The layout's phases by phase code ("deal" has none) (a tuple of any length:
# indexed by a variable, a fixed-size one would be boxed anew at each read when compiled).
_PHASE_SLOT: Final[tuple[int, ...]] = (0, -1, 2, 1, 3, 4)
_SEAT_SUIT: Final[tuple[int, ...]] = SEAT_SUIT  # indexed by a variable: kept one tuple
_CARD_SLOTS: Final = 53
_JOKER_SLOT: Final = 52
_RECORD: Final = 4 + 1 + 1 + 3 * _CARD_SLOTS


def _cards(at: int, cards: list[int], ones: list[Any], pairs: list[Any]) -> None:
    for card in cards:
        ones.append(_BOXED[at + (card if card < _JOKER_SLOT else _JOKER_SLOT)])


def _known(at: int, hand: list[int], memory: int, ones: list[Any], pairs: list[Any]) -> None:
    """The cards of ``hand`` a seat remembers (a bit per card of ``memory``)."""
    for card in hand:
        if card >= 0 and memory >> card & 1:
            ones.append(_BOXED[at + card])


def write_tensor(state: State, seat: int, ones: list[int], pairs: list[float]) -> None:
    """Append every nonzero float of ``seat``'s observation: its slot to ``ones`` where the
    float is 1.0, else its slot then its value to ``pairs``; each slot named once at most
    (checked over random play of every count and option by the observer's tests)."""
    _write(state, seat, ones, pairs)  # the lists typed to take the prebuilt objects


def _write(state: State, seat: int, ones: list[Any], pairs: list[Any]) -> None:
    assert isinstance(state, KingsCourtState)
    n = state.num_players
    tables = state.tables
    track = float(state.game.options["track_length"])
    over = state.is_terminal
    ones.append(_BOXED[seat])
    at = n
    if tables.track_length:
        pairs.append(_BOXED[at])
        pairs.append(tables.track_length / 30)
    at += 1
    phase = _PHASE_SLOT[state.phase]
    if phase >= 0:
        ones.append(_BOXED[at + phase])
    at += 5
    ones.append(_BOXED[at + state.start_player])
    at += n
    ones.append(_BOXED[at + state.turn])
    at += n
    for mover in state.to_move:
        ones.append(_BOXED[at + mover])
    at += n
    if state.turns_played:
        pairs.append(_BOXED[at])
        pairs.append(state.turns_played / tables.safety_cap)
    at += 1
    if state.queen_target >= 0:
        ones.append(_BOXED[at + state.queen_target])
    at += n
    for s in range(n):
        if state.moved_back >> s & 1:
            ones.append(_BOXED[at + s])
    at += n
    for s in range(n):
        ones.append(_BOXED[at + _SEAT_SUIT[s]])
        if state.positions[s]:
            pairs.append(_BOXED[at + 4])
            pairs.append(state.positions[s] / track)
        if state.hands[s]:
            pairs.append(_BOXED[at + 5])
            pairs.append(len(state.hands[s]) / 10)
        if over or s == seat:
            _cards(at + 6, state.hands[s], ones, pairs)
        else:
            # ``views.known_cards`` of each side, read in place (no list built).
            memories = state.memories
            _known(at + 6 + _CARD_SLOTS, state.hands[s], memories[seat * n + s], ones, pairs)
            _known(at + 6 + 2 * _CARD_SLOTS, state.hands[seat], memories[s * n + seat], ones, pairs)
        at += _RECORD
    if state.draw_pile:
        pairs.append(_BOXED[at])
        pairs.append(len(state.draw_pile) / 52)
    at += 1
    _cards(at, state.discard_pile, ones, pairs)
    at += _CARD_SLOTS
    _cards(at, state.removed, ones, pairs)
    at += _CARD_SLOTS
    if state.epoch:
        pairs.append(_BOXED[at])
        pairs.append(state.epoch / 10)
    at += 1
    for s in set(state.winners):
        ones.append(_BOXED[at + s])
