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
# ``tensor_layout(game).encode(view.observation())``, written straight from the state as
# (slot, value) pairs of the nonzero floats. It reads what ``views.observation`` reads, which
# holds only what the seat may know even on the unredacted state: its own hand, the cards it
# remembers of each other hand, what each other seat remembers of its hand, and the table.

# The layout's phases by phase code ("deal" has none) (a tuple of any length:
# indexed by a variable, a fixed-size one would be boxed anew at each read when compiled).
_PHASE_SLOT: Final[tuple[int, ...]] = (0, -1, 2, 1, 3, 4)
_SEAT_SUIT: Final[tuple[int, ...]] = SEAT_SUIT  # indexed by a variable: kept one tuple
_CARD_SLOTS: Final = 53
_JOKER_SLOT: Final = 52
_RECORD: Final = 4 + 1 + 1 + 3 * _CARD_SLOTS


def _cards(at: int, cards: list[int], slots: list[Any], values: list[Any]) -> None:
    for card in cards:
        slots.append(_BOXED[at + (card if card < _JOKER_SLOT else _JOKER_SLOT)])
        values.append(_ONE)


def _known(at: int, hand: list[int], memory: int, slots: list[Any], values: list[Any]) -> None:
    """The cards of ``hand`` a seat remembers (a bit per card of ``memory``)."""
    for card in hand:
        if card >= 0 and memory >> card & 1:
            slots.append(_BOXED[at + card])
            values.append(_ONE)


def write_tensor(state: State, seat: int, slots: list[int], values: list[float]) -> None:
    """Append the slot and value of every nonzero float of ``seat``'s observation, naming
    each slot once at most (so the pairs may be assigned rather than summed: checked over
    random play of every count and option by the observer's tests)."""
    _write(state, seat, slots, values)  # the lists typed to take the prebuilt objects


def _write(state: State, seat: int, slots: list[Any], values: list[Any]) -> None:
    assert isinstance(state, KingsCourtState)
    n = state.num_players
    tables = state.tables
    track = float(state.game.options["track_length"])
    over = state.is_terminal
    slots.append(_BOXED[seat])
    values.append(_ONE)
    at = n
    if tables.track_length:
        slots.append(_BOXED[at])
        values.append(tables.track_length / 30)
    at += 1
    phase = _PHASE_SLOT[state.phase]
    if phase >= 0:
        slots.append(_BOXED[at + phase])
        values.append(_ONE)
    at += 5
    slots.append(_BOXED[at + state.start_player])
    values.append(_ONE)
    at += n
    slots.append(_BOXED[at + state.turn])
    values.append(_ONE)
    at += n
    for mover in state.to_move:
        slots.append(_BOXED[at + mover])
        values.append(_ONE)
    at += n
    if state.turns_played:
        slots.append(_BOXED[at])
        values.append(state.turns_played / tables.safety_cap)
    at += 1
    if state.queen_target >= 0:
        slots.append(_BOXED[at + state.queen_target])
        values.append(_ONE)
    at += n
    for s in range(n):
        if state.moved_back >> s & 1:
            slots.append(_BOXED[at + s])
            values.append(_ONE)
    at += n
    for s in range(n):
        slots.append(_BOXED[at + _SEAT_SUIT[s]])
        values.append(_ONE)
        if state.positions[s]:
            slots.append(_BOXED[at + 4])
            values.append(state.positions[s] / track)
        if state.hands[s]:
            slots.append(_BOXED[at + 5])
            values.append(len(state.hands[s]) / 10)
        if over or s == seat:
            _cards(at + 6, state.hands[s], slots, values)
        else:
            # ``views.known_cards`` of each side, read in place (no list built).
            memories = state.memories
            _known(at + 6 + _CARD_SLOTS, state.hands[s], memories[seat * n + s], slots, values)
            _known(
                at + 6 + 2 * _CARD_SLOTS, state.hands[seat], memories[s * n + seat], slots, values
            )
        at += _RECORD
    if state.draw_pile:
        slots.append(_BOXED[at])
        values.append(len(state.draw_pile) / 52)
    at += 1
    _cards(at, state.discard_pile, slots, values)
    at += _CARD_SLOTS
    _cards(at, state.removed, slots, values)
    at += _CARD_SLOTS
    if state.epoch:
        slots.append(_BOXED[at])
        values.append(state.epoch / 10)
    at += 1
    for s in set(state.winners):
        slots.append(_BOXED[at + s])
        values.append(_ONE)
