"""Goths Save the Queen's observation as a fixed-size vector (the RL adapters' tensor)."""

from __future__ import annotations

import itertools
from typing import Any, Final

from ...core.game import Game, State
from ...core.tensors import (
    ONE,
    SLOT_NUMBERS,
    Choice,
    Each,
    Flag,
    Listed,
    Number,
    Seats,
    TensorLayout,
    Within,
    Words,
)
from .components import (
    ALL_KING_CARDS,
    ARMY_SIZE,
    CELL_NAMES,
    CHARACTER_LETTERS,
    CHARACTER_NAMES,
    CHOICE_KEYS,
    CLAN_KEYS,
    DRAW,
    FOG_HIDDEN,
    FOG_NAMES,
    FOG_STATE_NAMES,
    FRONT,
    KING,
    KING_CARD_NAMES,
    NONE,
    OBJECTIVE_BASE,
    OBJECTIVE_NAMES,
    ORDER_WORDS,
    SOLO,
    SUB_CHOICE,
    WARCHIEF,
    back_text,
)
from .rules import GothsSaveTheQueenState
from .views import reconnoitring_clan

CHARACTERS = tuple(name.lower() for name in CHARACTER_NAMES)
ORDERS = ORDER_WORDS[1:]
# A King card's back shows two characters, always in V R C B order.
BACKS = tuple(f"{a}/{b}" for a, b in itertools.combinations(CHARACTER_LETTERS, 2))
ROLES = ("king", "warchief", "solo")
PHASES = ("setup", "kings", "orders", "recon", "advance", "barricade", "over")


def _king_card(key: str) -> Within:
    return Within(
        key, Choice("card", KING_CARD_NAMES), Choice("character", CHARACTERS), Choice("back", BACKS)
    )


def _revealed(clan: str) -> Within:
    return Within(
        clan,
        Choice("king_card", KING_CARD_NAMES),
        Choice("character", CHARACTERS),
        Choice("order", ORDERS),
        Flag("success"),
    )


def tensor_layout(game: Game) -> TensorLayout:
    players = game.num_players
    safety_cap = float(game.options["safety_cap"])
    last_turn = safety_cap + 1  # the turn counter reads one past the cap once the cap ends it
    return TensorLayout(
        Seats("seat", players),
        Choice("clan", CLAN_KEYS),
        Choice("role", ROLES),
        Each("seats", players, Choice("clan", CLAN_KEYS), Choice("role", ROLES)),
        Number("turn", safety_cap, high=last_turn),
        Choice("initiative", CLAN_KEYS),
        Choice("phase", PHASES),
        Seats("waiting_for", players),
        Each(
            "board",
            len(CELL_NAMES),
            Flag("barricade"),
            Choice("army", CLAN_KEYS),
            Choice("objective", OBJECTIVE_NAMES),
            Flag("revealed"),
        ),
        Each(
            "clans",
            2,
            Flag("solo"),
            Seats("king", players),
            Seats("warchief", players),
            Choice("position", CELL_NAMES),
            Number("army", 3),
            Number("reserve", 3),
            Choice("catapult", ("active", "inactive")),
            Words("king_cards_face_up", KING_CARD_NAMES),
            Choice("king_card_face_down_back", BACKS),
            Number("king_hand_size", 8),
            Flag("order_given"),
            Listed("objectives_looked_at", 3, Number("slot", 2)),
            Choice("solo_last_character", CHARACTERS),
            Within(
                "fog",
                Choice("state", FOG_STATE_NAMES),
                Choice("token", FOG_NAMES),
                Flag("peeked"),
            ),
        ),
        Within(
            "mine",
            Each(
                "hand",
                8,
                Choice("card", KING_CARD_NAMES),
                Choice("character", CHARACTERS),
                Choice("back", BACKS),
            ),
            _king_card("face_down"),
            Choice("order", ORDERS),
            Within(
                "reconnaissance",
                *[Choice(f"objective {slot}", OBJECTIVE_NAMES) for slot in range(3)],
            ),
            Choice("fog_token", FOG_NAMES),
        ),
        Within(
            "last_reveal",
            Number("turn", safety_cap, high=last_turn),
            *[_revealed(clan) for clan in CLAN_KEYS],
        ),
        Choice("winner", (*CLAN_KEYS, "draw")),
    )


_BOXED: Final[list[Any]] = SLOT_NUMBERS  # appended as they are: see SLOT_NUMBERS
_ONE: Final[Any] = ONE

# The fast path of the RL observer (:class:`courtly.rl.tensors.Observer`): the same floats as
# ``tensor_layout(game).encode(view.observation())``, written straight from the state as the slots
# of its nonzero floats (with the value of each one that is not 1.0), following
# ``views.observation_of`` field by field (the secrets a seat may not know are read only where
# that function reads them).
#
# Each table below is indexed as ``views`` indexes its word tuple, so a code the state holds maps
# to the slot of the word the view would write (-1: a word the layout does not list).


def _slots(words: tuple[str, ...], values: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(values.index(word) if word in values else -1 for word in words)


_CLAN_SLOT: Final = _slots(CLAN_KEYS, CLAN_KEYS)
_ROLE_SLOT: Final = _slots(ROLES, ROLES)
_CELL_SLOT: Final = _slots(CELL_NAMES, CELL_NAMES)
_OBJECTIVE_SLOT: Final = _slots(OBJECTIVE_NAMES, OBJECTIVE_NAMES)
_FOG_SLOT: Final = _slots(FOG_NAMES, FOG_NAMES)
_FOG_STATE_SLOT: Final = _slots(FOG_STATE_NAMES, FOG_STATE_NAMES)
_ORDER_SLOT: Final = _slots(ORDER_WORDS, ORDERS)
_PHASE_SLOT: Final = _slots(("setup", "setup", "kings", "orders", "", "over"), PHASES)
_CHOICE_PHASE_SLOT: Final = _slots(CHOICE_KEYS, PHASES)
# A King card's back (a bit per character) as its slot among BACKS.
_BACK_SLOT: Final = _slots(tuple(back_text(back) for back in range(16)), BACKS)

_FRONT: Final[tuple[int, ...]] = FRONT  # indexed by a variable: kept one tuple
_CLANS: Final = len(CLAN_KEYS)
_ROLES: Final = len(ROLES)
_CELLS: Final = len(CELL_NAMES)
_CARDS: Final = len(KING_CARD_NAMES)
_CHARACTERS: Final = len(CHARACTERS)
_OBJECTIVES: Final = len(OBJECTIVE_NAMES)
_FOGS: Final = len(FOG_NAMES)
_BOARD_RECORD: Final = 1 + _CLANS + _OBJECTIVES + 1
_KING_CARD: Final = _CARDS + _CHARACTERS + len(BACKS)
_PHASES: Final[int] = len(PHASES)
_BACKS: Final[int] = len(BACKS)
_FOG_STATES: Final[int] = len(FOG_STATE_NAMES)
_ORDERS: Final[int] = len(ORDERS)
_MINE: Final = 8 * _KING_CARD + _KING_CARD + _ORDERS + 3 * _OBJECTIVES + _FOGS
_REVEALED: Final = _CARDS + _CHARACTERS + _ORDERS + 1
# A clan's figurines on the board and in reserve as fractions of the layout's 3, built once: the
# same floats as the division, appended without a float made and freed a call.
_ARMY_THIRDS: Final[list[Any]] = [army / 3 for army in range(ARMY_SIZE + 1)]
# How many King cards a mask of them holds: int.bit_count is no compiled primitive (a method
# looked up and called each time), a list read is.
_CARDS_IN: Final[list[int]] = [bin(mask).count("1") for mask in range(ALL_KING_CARDS + 1)]


def _one(slot: int, ones: list[Any]) -> None:
    ones.append(_BOXED[slot])


def _write_king_card(at: int, card: int, back: int, ones: list[Any], pairs: list[Any]) -> None:
    """A King card as its King sees it: its name, its character and its back."""
    _one(at + card, ones)
    _one(at + _CARDS + _FRONT[card], ones)
    back_slot = _BACK_SLOT[back]
    if back_slot >= 0:
        _one(at + _CARDS + _CHARACTERS + back_slot, ones)


def write_tensor(state: State, seat: int, ones: list[int], pairs: list[float]) -> None:
    """Append every nonzero float of ``seat``'s observation: its slot to ``ones`` where the
    float is 1.0, else its slot then its value to ``pairs``; each slot named once at most
    (checked over random play of every count and option by the observer's tests)."""
    _write(state, seat, ones, pairs)  # the lists typed to take the prebuilt objects


def _write(state: State, seat: int, ones: list[Any], pairs: list[Any]) -> None:
    assert isinstance(state, GothsSaveTheQueenState)
    tables = state.tables
    players = state.num_players
    safety_cap = float(tables.safety_cap)
    over = state.is_terminal
    _one(seat, ones)
    at = players
    clan = tables.clan_of[seat]
    if clan != NONE:
        _one(at + _CLAN_SLOT[clan], ones)
    at += _CLANS
    role = tables.role_of[seat]
    if role != NONE:
        _one(at + _ROLE_SLOT[role], ones)
    at += _ROLES
    for other in range(players):
        _one(at + _CLAN_SLOT[tables.clan_of[other]], ones)
        _one(at + _CLANS + _ROLE_SLOT[tables.role_of[other]], ones)
        at += _CLANS + _ROLES
    if state.turn:
        pairs.append(_BOXED[at])
        pairs.append(state.turn / safety_cap)
    at += 1
    _one(at + _CLAN_SLOT[state.initiative], ones)
    at += _CLANS
    if state.phase == SUB_CHOICE:
        phase = _CHOICE_PHASE_SLOT[state.pending_choice]
    else:
        phase = _PHASE_SLOT[state.phase]
    if phase >= 0:
        _one(at + phase, ones)
    at += _PHASES
    for mover in state.to_move:
        _one(at + mover, ones)
    at += players
    at = _write_board(state, over, at, ones, pairs)
    mine = reconnoitring_clan(state, seat)
    for each in range(_CLANS):
        at = _write_clan(state, each, mine, over, at, ones, pairs)
    _write_mine(state, seat, at, ones, pairs)
    at += _MINE
    if state.last_turn:
        pairs.append(_BOXED[at])
        pairs.append(state.last_turn / safety_cap)
        record = at + 1
        for each in range(_CLANS):
            card = state.last_played[each]
            if card >= 0:
                _one(record + card, ones)
                _one(record + _CARDS + _FRONT[card], ones)
            order = _ORDER_SLOT[state.last_orders[each]]
            if order >= 0:
                _one(record + _CARDS + _CHARACTERS + order, ones)
            if state.last_success[each]:
                _one(record + _REVEALED - 1, ones)
            record += _REVEALED
    at += 1 + _CLANS * _REVEALED
    winner = state.winner
    if winner != NONE:
        _one(at + (_CLANS if winner == DRAW else _CLAN_SLOT[winner]), ones)


def _write_board(
    state: GothsSaveTheQueenState, over: bool, at: int, ones: list[Any], pairs: list[Any]
) -> int:
    # Cell by cell as the view lists them, but each part read once where it is, not tested at
    # every cell: the barricades walked in place, each clan's cell (the first clan named where
    # both stand), the three objective cells.
    record = at
    for blocked in state.barricade:
        if blocked:
            _one(record, ones)
        record += _BOARD_RECORD
    taken = -1
    for each in range(_CLANS):
        cell = state.position[each]
        if 0 <= cell < _CELLS and cell != taken:
            _one(at + cell * _BOARD_RECORD + 1 + each, ones)
            if taken < 0:
                taken = cell
    for slot in range(3):
        record = at + (OBJECTIVE_BASE + slot) * _BOARD_RECORD
        revealed = state.revealed_objectives >> slot & 1
        if revealed or over:
            _one(record + 1 + _CLANS + _OBJECTIVE_SLOT[state.objectives[slot]], ones)
        if revealed:
            _one(record + _BOARD_RECORD - 1, ones)
    return at + _CELLS * _BOARD_RECORD


def _write_clan(
    state: GothsSaveTheQueenState,
    clan: int,
    mine: int,
    over: bool,
    at: int,
    ones: list[Any],
    pairs: list[Any],
) -> int:
    """One record of the layout's ``clans`` (``views._clan_entry``); returns the next slot."""
    tables = state.tables
    players = state.num_players
    # The tables' pairs are fixed-size tuples: read by constant index (indexed by a variable, the
    # compiled module would box a new tuple at each read).
    solo = tables.solo[1] if clan else tables.solo[0]
    if solo:
        _one(at, ones)
    at += 1
    king = tables.king_seat[1] if clan else tables.king_seat[0]
    if not solo and 0 <= king < players:
        _one(at + king, ones)
    at += players
    warchief = tables.warchief_seat[1] if clan else tables.warchief_seat[0]
    if 0 <= warchief < players:
        _one(at + warchief, ones)
    at += players
    _one(at + _CELL_SLOT[state.position[clan]], ones)
    at += _CELLS
    army = state.army[clan]
    if army:
        pairs.append(_BOXED[at])
        pairs.append(_ARMY_THIRDS[army])
    if ARMY_SIZE - army:
        pairs.append(_BOXED[at + 1])
        pairs.append(_ARMY_THIRDS[ARMY_SIZE - army])
    at += 2
    _one(at + (0 if state.catapult[clan] else 1), ones)
    at += 2
    face_up = state.face_up[clan]
    shown = face_up & ALL_KING_CARDS  # the set bits walked, not every card tested
    while shown:
        low = shown & -shown
        _one(at + low.bit_length() - 1, ones)
        shown ^= low
    at += _CARDS
    played = state.played[clan]
    face_down = state.played_back[clan] if played != NONE else 0
    if face_down and _BACK_SLOT[face_down] >= 0:
        _one(at + _BACK_SLOT[face_down], ones)
    at += _BACKS
    hand_size = 0 if solo else _CARDS_IN[ALL_KING_CARDS & ~face_up] - (played != NONE)
    if hand_size:
        pairs.append(_BOXED[at])
        pairs.append(hand_size / 8)
    at += 1
    if state.orders_given >> clan & 1:
        _one(at, ones)
    at += 1
    looked_at = state.looked_at[clan]
    position = at
    for slot in range(3):
        if looked_at >> slot & 1:
            if slot:
                pairs.append(_BOXED[position])
                pairs.append(slot / 2)
            position += 1
    at += 3
    last = state.solo_last_character[clan]
    if last >= 0:
        _one(at + last, ones)
    at += _CHARACTERS
    if tables.fog_of_war:
        _one(at + _FOG_STATE_SLOT[state.fog_state[clan]], ones)
        token = state.fog[clan]
        known = (
            state.fog_state[clan] != FOG_HIDDEN
            or over
            or (state.fog_looked_at[clan] and mine == clan)
        )
        if known and token >= 0:
            _one(at + _FOG_STATES + _FOG_SLOT[token], ones)
        if state.fog_looked_at[clan]:
            _one(at + _FOG_STATES + _FOGS, ones)
    return at + _FOG_STATES + _FOGS + 1


def _write_mine(
    state: GothsSaveTheQueenState, seat: int, at: int, ones: list[Any], pairs: list[Any]
) -> None:
    """The layout's ``mine`` (``views._private_entry``): a King's hand and face-down card, a
    Warchief's order, reconnaissance and peeked Fog token."""
    tables = state.tables
    clan = tables.clan_of[seat]
    role = tables.role_of[seat]
    if role == KING:
        played = state.played[clan]
        record = at
        held = ALL_KING_CARDS & ~state.face_up[clan]
        for card in range(_CARDS):
            if held >> card & 1 and card != played:
                _write_king_card(record, card, tables.back_of[card], ones, pairs)
                record += _KING_CARD
        if played >= 0:
            _write_king_card(at + 8 * _KING_CARD, played, tables.back_of[played], ones, pairs)
    elif role in (WARCHIEF, SOLO):
        at += 9 * _KING_CARD
        order = state.orders[clan]
        if order > 0 and _ORDER_SLOT[order] >= 0:
            _one(at + _ORDER_SLOT[order], ones)
        at += _ORDERS
        looked_at = state.looked_at[clan]
        for slot in range(3):
            if looked_at >> slot & 1:
                objective = _OBJECTIVE_SLOT[state.objectives[slot]]
                _one(at + slot * _OBJECTIVES + objective, ones)
        at += 3 * _OBJECTIVES
        if tables.fog_of_war and state.fog_looked_at[clan]:
            _one(at + _FOG_SLOT[state.fog[clan]], ones)
