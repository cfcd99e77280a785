"""Goths Save the Queen's observation tensor written straight from the state: the fast path of the RL
observer (:class:`courtly.rl.tensors.Observer`), compiled with the engine.

Apart from the layout (``tensor``), which the game itself imports: this module writes into
librt's byte sinks (mypyc's runtime library, an extra of the RL adapters), so the engine
imports without it, as in the browser's Pyodide."""

from __future__ import annotations

from typing import Any, Final

from librt.strings import BytesWriter, write_f64_le, write_i16_le

from ...core.game import State
from ...core.tensors import ones_bytes, pairs_bytes
from .components import (
    ALL_KING_CARDS,
    ARMY_SIZE,
    CELL_NAMES,
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
    GothsSaveTheQueenTables,
    back_text,
)
from .rules import GothsSaveTheQueenState
from .tensor import BACKS, CHARACTERS, ORDERS, PHASES, ROLES
from .views import reconnoitring_clan

# The fast path of the RL observer (:class:`courtly.rl.tensors.Observer`): the same floats as
# ``tensor_layout(game).encode(view.observation())``, written straight from the state into two
# byte sinks as the slots of its nonzero floats (with the value of each one that is not 1.0),
# following ``views.observation_of`` field by field (the secrets a seat may not know are read
# only where that function reads them).
#
# A part of the observation spanning several slots is built once, as its bytes for every value
# of the state's fields it shows, and a call writes it whole where it would write slot by slot
# (measured faster, compiled, than writing its few slots one by one even for a part of two).
# What a player count fixes is in a _Layout, what the game's tables fix (its seats, King card
# backs and safety cap) in a _Pieces.
#
# The fractions are divided as they are written: an int over an int is the same double compiled
# or not.
#
# Each table below is indexed as ``views`` indexes its word tuple, so a code the state holds maps
# to the slot of the word the view would write (-1: a word the layout does not list).


def _slots(words: tuple[str, ...], values: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(values.index(word) if word in values else -1 for word in words)


_ORDER_SLOT: Final = _slots(ORDER_WORDS, ORDERS)
_PHASE_SLOT: Final = _slots(("setup", "setup", "kings", "orders", "", "over"), PHASES)
_CHOICE_PHASE_SLOT: Final = _slots(CHOICE_KEYS, PHASES)
# A King card's back (a bit per character) as its slot among BACKS.
_BACK_SLOT: Final = _slots(tuple(back_text(back) for back in range(16)), BACKS)

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
# How many King cards a mask of them holds: int.bit_count is no compiled primitive (a method
# looked up and called each time), a list read is.
_CARDS_IN: Final[list[int]] = [bin(mask).count("1") for mask in range(ALL_KING_CARDS + 1)]

# The codes the parts are indexed by, each several fields of the state in one int:
# the phase: the state's phase, or past the phases the sub-choice it waits for;
_CHOICE_CODES: Final = len(_PHASE_SLOT)
_PHASE_CODES: Final = _CHOICE_CODES + len(CHOICE_KEYS)
# a clan's standing: its cell, whether its catapult is active, whether its order is given and
# its solo chief's last character (none: 0, else the character + 1);
_LAST_CHARACTERS: Final = 1 + _CHARACTERS
_STANDINGS: Final = _CELLS * 2 * 2 * _LAST_CHARACTERS
# a clan's last reveal: its King card (none: 0, else the card + 1), its order, its success;
_LAST_CARDS: Final = 1 + _CARDS
_LAST_ORDERS: Final = len(ORDER_WORDS)
# a clan's numbers: its figurines on the board, the cards in its King's hand;
_HAND_SIZES: Final = 1 + _CARDS
# a King's hand: the cards he holds (a bit per card) and the one he laid (none: 0, else + 1).
_PLAYED_CODES: Final = 1 + _CARDS


def _bits(mask: int) -> list[int]:
    """The set bits of a mask, the lowest first."""
    return [bit for bit in range(mask.bit_length()) if mask >> bit & 1]


class _ClanRecord:
    """One clan's record in the layout's ``clans`` (``views._clan_entry``) and in its
    ``last_reveal``, with its bytes for every value of the fields that change during the game."""

    def __init__(self, players: int, at: int, revealed_at: int) -> None:
        self.at = at
        cell_at = at + 1 + 2 * players  # past its solo flag and its King's and Warchief's seats
        army_at = cell_at + _CELLS
        catapult_at = army_at + 2
        face_up_at = catapult_at + 2
        self.face_down_at = face_up_at + _CARDS
        hand_at = self.face_down_at + _BACKS
        given_at = hand_at + 1
        looked_at_at = given_at + 1
        last_character_at = looked_at_at + 3
        self.fog_at = last_character_at + _CHARACTERS
        standings: list[bytes] = []
        for code in range(_STANDINGS):
            rest, last = divmod(code, _LAST_CHARACTERS)
            rest, given = divmod(rest, 2)
            cell, active = divmod(rest, 2)
            slots = [cell_at + cell, catapult_at + (0 if active else 1)]
            if given:
                slots.append(given_at)
            if last:
                slots.append(last_character_at + last - 1)
            standings.append(ones_bytes(slots))
        self.standings = standings
        """By the clan's standing code: its cell, catapult, order given, last character."""
        self.numbers = [
            pairs_bytes(
                [
                    (army_at + reserve, count / 3)
                    for reserve, count in enumerate((army, ARMY_SIZE - army))
                    if count
                ]
                + ([(hand_at, hand / 8)] if hand else [])
            )
            for army in range(ARMY_SIZE + 1)
            for hand in range(_HAND_SIZES)
        ]
        """By the figurines on the board and the cards in the King's hand (``_HAND_SIZES`` a
        figurine): them, the reserve, each a fraction of 3, and the hand, a fraction of 8."""
        self.face_up = [
            ones_bytes([face_up_at + card for card in _bits(cards)])
            for cards in range(ALL_KING_CARDS + 1)
        ]
        """By the King cards face up (a bit per card)."""
        self.looked_at = [
            pairs_bytes(
                [(looked_at_at + nth, slot / 2) for nth, slot in enumerate(_bits(looked)) if slot]
            )
            for looked in range(8)
        ]
        """By the Objectives looked at (a bit per slot): the slots listed in turn, each a
        fraction of 2 (the first Objective's 0 writes nothing)."""
        revealed: list[bytes] = []
        for code in range(_LAST_CARDS * _LAST_ORDERS * 2):
            rest, success = divmod(code, 2)
            card_code, order = divmod(rest, _LAST_ORDERS)
            slots = []
            if card_code:
                card = card_code - 1
                slots += [revealed_at + card, revealed_at + _CARDS + FRONT[card]]
            if _ORDER_SLOT[order] >= 0:
                slots.append(revealed_at + _CARDS + _CHARACTERS + _ORDER_SLOT[order])
            if success:
                slots.append(revealed_at + _REVEALED - 1)
            revealed.append(ones_bytes(slots))
        self.revealed = revealed
        """By the clan's last reveal code: its King card, its order and its success."""


class _Layout:
    """Where one player count's layout puts each part of the observation, with the bytes of
    the parts that no option changes."""

    def __init__(self, players: int) -> None:
        self.turn = players + _CLANS + _ROLES + players * (_CLANS + _ROLES)
        initiative_at = self.turn + 1
        phase_at = initiative_at + _CLANS
        self.waiting_for = phase_at + _PHASES
        self.board = self.waiting_for + players
        clans_at = self.board + _CELLS * _BOARD_RECORD
        clan_size = 1 + 2 * players + _CELLS + 2 + 2 + _CARDS + _BACKS + 1 + 1 + 3
        clan_size += _CHARACTERS + _FOG_STATES + _FOGS + 1
        self.mine = clans_at + _CLANS * clan_size
        self.reconnaissance = self.mine + 9 * _KING_CARD + _ORDERS
        """What a reconnaissance showed: by Objective slot, then by its kind (as the board's)."""
        self.fog_token = self.reconnaissance + 3 * _OBJECTIVES
        """The Fog token the Warchief peeked at, by token."""
        self.last_turn = self.mine + _MINE
        winner_at = self.last_turn + 1 + _CLANS * _REVEALED
        self.clans = [
            _ClanRecord(players, clans_at + clan * clan_size, self.last_turn + 1 + clan * _REVEALED)
            for clan in range(_CLANS)
        ]
        course: list[bytes] = []
        for initiative in range(_CLANS):
            for code in range(_PHASE_CODES):
                if code < _CHOICE_CODES:
                    phase = _PHASE_SLOT[code]
                else:
                    phase = _CHOICE_PHASE_SLOT[code - _CHOICE_CODES]
                slots = [initiative_at + initiative]
                if phase >= 0:
                    slots.append(phase_at + phase)
                course.append(ones_bytes(slots))
        self.course = course
        """By the initiative and the phase code: their slots."""
        armies: list[bytes] = []
        for cells in range(_CELLS * _CELLS):
            ostrogoths, visigoths = divmod(cells, _CELLS)
            slots = [self.board + ostrogoths * _BOARD_RECORD + 1]
            if visigoths != ostrogoths:  # a cell names its first clan only, as the view does
                slots.append(self.board + visigoths * _BOARD_RECORD + 2)
            armies.append(ones_bytes(slots))
        self.armies = armies
        """By the Ostrogoths' cell then the Visigoths': the army on each cell."""
        self.objectives = [
            ones_bytes(
                [record + 1 + _CLANS + kind] + ([record + _BOARD_RECORD - 1] if shown else [])
            )
            for record in [
                self.board + (OBJECTIVE_BASE + slot) * _BOARD_RECORD for slot in range(3)
            ]
            for shown in range(2)
            for kind in range(_OBJECTIVES)
        ]
        """By Objective slot, whether it is revealed and its kind: the kind, and the flag."""
        self.orders = [
            ones_bytes([self.mine + 9 * _KING_CARD + slot] if slot >= 0 else [])
            for slot in _ORDER_SLOT
        ]
        """By a Warchief's order: its slot in ``mine`` (none before he gives one)."""
        self.winners = [
            ones_bytes([winner_at + (_CLANS if outcome == DRAW else outcome)])
            for outcome in range(_CLANS + 1)
        ]
        """By the winner (a clan, or DRAW): its slot."""


_LAYOUTS: Final[dict[int, _Layout]] = {}


class _Pieces:
    """The writer's bytes for one game's tables: the slots each seat fixes and the King hands
    (built as they are met); and the safety cap."""

    def __init__(self, state: GothsSaveTheQueenState) -> None:
        tables = state.tables
        players = state.num_players
        layout = _LAYOUTS.get(players)
        if layout is None:
            layout = _LAYOUTS[players] = _Layout(players)
        self.layout = layout
        self.clan_of = list(tables.clan_of)
        self.role_of = list(tables.role_of)
        self.solo = list(tables.solo)
        self.safety_cap: int = tables.safety_cap
        """What the turn counters are fractions of."""
        self.reconnoitring = [reconnoitring_clan(state, seat) for seat in range(players)]
        """By seat: the clan whose reconnaissance it keeps in mind (NONE: none)."""
        # Every seat's clan and role, and each clan's solo flag and chiefs.
        fixed: list[int] = []
        for other in range(players):
            at = players + _CLANS + _ROLES + other * (_CLANS + _ROLES)
            fixed += [at + tables.clan_of[other], at + _CLANS + tables.role_of[other]]
        for clan in range(_CLANS):
            at = layout.clans[clan].at
            king = tables.king_seat[clan]
            warchief = tables.warchief_seat[clan]
            if tables.solo[clan]:
                fixed.append(at)
            elif 0 <= king < players:
                fixed.append(at + 1 + king)
            if 0 <= warchief < players:
                fixed.append(at + 1 + players + warchief)
        self.seats = [
            ones_bytes(
                [
                    seat,
                    players + tables.clan_of[seat],
                    players + _CLANS + tables.role_of[seat],
                    *fixed,
                ]
            )
            for seat in range(players)
        ]
        """By seat: its seat, clan and role, then the slots above."""
        self.back_slots = [_BACK_SLOT[back] for back in tables.back_of]
        self.king_hands: list[bytes | None] = [None] * ((ALL_KING_CARDS + 1) * _PLAYED_CODES)
        """By the King's hand code: his hand and his face-down card (None: not met yet)."""

    def king_hand(self, held: int, played: int) -> bytes:
        """A King's hand (the cards ``held`` but ``played``) and the card he laid face down,
        each its name, its character and its back."""
        code = held * _PLAYED_CODES + played + 1
        hand = self.king_hands[code]
        if hand is None:
            mine = self.layout.mine
            slots: list[int] = []
            for nth, card in enumerate([card for card in _bits(held) if card != played]):
                slots += self._king_card(mine + nth * _KING_CARD, card)
            if played >= 0:
                slots += self._king_card(mine + 8 * _KING_CARD, played)
            hand = self.king_hands[code] = ones_bytes(slots)
        return hand

    def _king_card(self, at: int, card: int) -> list[int]:
        slots = [at + card, at + _CARDS + FRONT[card]]
        back = self.back_slots[card]
        if back >= 0:
            slots.append(at + _CARDS + _CHARACTERS + back)
        return slots


class _Met:
    """The tables of the game written last and their pieces: nearly every call writes a state
    of the same game as the call before, found by identity."""

    def __init__(self) -> None:
        self.tables: GothsSaveTheQueenTables | None = None
        self.pieces: _Pieces | None = None


_MET: Final = _Met()
# The pieces of every game's tables met, by what they are built from: games of the same
# options share them, and a new game of known options builds nothing.
_PIECES: Final[dict[tuple[Any, ...], _Pieces]] = {}


def _pieces_of(state: GothsSaveTheQueenState) -> _Pieces:
    tables = state.tables
    key = (
        state.num_players,
        tables.clan_of,
        tables.role_of,
        tables.solo,
        tables.king_seat,
        tables.warchief_seat,
        tables.back_of,
        tables.safety_cap,
    )
    pieces = _PIECES.get(key)
    if pieces is None:
        pieces = _PIECES[key] = _Pieces(state)
    _MET.tables = tables
    _MET.pieces = pieces
    return pieces


def write_tensor(state: State, seat: int, ones: BytesWriter, pairs: BytesWriter) -> None:
    """``seat``'s observation, written into the sinks by the writers' contract (see
    :mod:`courtly.core.tensors`, above ``SLOT_FORMAT``)."""
    assert isinstance(state, GothsSaveTheQueenState)
    _write(state, seat, ones, pairs)  # typed as the game's state: its fields read natively


def _write(state: GothsSaveTheQueenState, seat: int, ones: BytesWriter, pairs: BytesWriter) -> None:
    pieces = _MET.pieces
    if pieces is None or _MET.tables is not state.tables:
        pieces = _pieces_of(state)
    layout = pieces.layout
    over = state.is_terminal
    ones.write(pieces.seats[seat])
    turn = state.turn
    if turn:
        write_i16_le(pairs, layout.turn)
        write_f64_le(pairs, turn / pieces.safety_cap)
    phase = state.phase
    if phase == SUB_CHOICE:
        phase = _CHOICE_CODES + state.pending_choice
    ones.write(layout.course[state.initiative * _PHASE_CODES + phase])
    waiting_for = layout.waiting_for
    for mover in state.to_move:
        write_i16_le(ones, waiting_for + mover)
    _write_board(state, layout, over, ones)
    mine = pieces.reconnoitring[seat]
    fog_of_war = state.tables.fog_of_war
    for clan in range(_CLANS):
        _write_clan(state, clan, pieces, mine, fog_of_war, over, ones, pairs)
    clan = pieces.clan_of[seat]
    role = pieces.role_of[seat]
    if role == KING:
        ones.write(pieces.king_hand(ALL_KING_CARDS & ~state.face_up[clan], state.played[clan]))
    elif role in (WARCHIEF, SOLO):
        _write_reconnaissance(state, clan, layout, fog_of_war, ones)
    last_turn = state.last_turn
    if last_turn:
        write_i16_le(pairs, layout.last_turn)
        write_f64_le(pairs, last_turn / pieces.safety_cap)
        for each in range(_CLANS):
            code = (state.last_played[each] + 1) * _LAST_ORDERS + state.last_orders[each]
            code = code * 2 + (1 if state.last_success[each] else 0)
            ones.write(layout.clans[each].revealed[code])
    if state.winner != NONE:
        ones.write(layout.winners[state.winner])


def _write_board(
    state: GothsSaveTheQueenState, layout: _Layout, over: bool, ones: BytesWriter
) -> None:
    # The barricades walked in place, the two armies in one part, the Objectives only once one
    # shows (or the game is over).
    record = layout.board
    for blocked in state.barricade:
        if blocked:
            write_i16_le(ones, record)
        record += _BOARD_RECORD
    position = state.position
    ones.write(layout.armies[position[0] * _CELLS + position[1]])
    revealed = state.revealed_objectives
    if revealed or over:
        objectives = state.objectives
        for slot in range(3):
            shown = revealed >> slot & 1
            if shown or over:
                # A kind below 0 (one not dealt) counts from the end, as the view's word does.
                kind = objectives[slot] % _OBJECTIVES
                ones.write(layout.objectives[(slot * 2 + shown) * _OBJECTIVES + kind])


def _write_clan(
    state: GothsSaveTheQueenState,
    clan: int,
    pieces: _Pieces,
    mine: int,
    fog_of_war: bool,
    over: bool,
    ones: BytesWriter,
    pairs: BytesWriter,
) -> None:
    """One record of the layout's ``clans`` (``views._clan_entry``) but its chiefs (in the
    seat's fixed slots)."""
    record = pieces.layout.clans[clan]
    code = state.position[clan] * 2 + (1 if state.catapult[clan] else 0)
    code = (code * 2 + (state.orders_given >> clan & 1)) * _LAST_CHARACTERS
    ones.write(record.standings[code + state.solo_last_character[clan] + 1])
    face_up = state.face_up[clan]
    if face_up:
        ones.write(record.face_up[face_up])
    played = state.played[clan]
    if played != NONE:
        back = _BACK_SLOT[state.played_back[clan]]
        if back >= 0:
            write_i16_le(ones, record.face_down_at + back)
    hand = 0 if pieces.solo[clan] else _CARDS_IN[ALL_KING_CARDS & ~face_up] - (played != NONE)
    pairs.write(record.numbers[state.army[clan] * _HAND_SIZES + hand])
    looked_at = state.looked_at[clan]
    if looked_at:
        pairs.write(record.looked_at[looked_at])
    if fog_of_war:
        at = record.fog_at
        fog_state = state.fog_state[clan]
        write_i16_le(ones, at + fog_state)
        token = state.fog[clan]
        peeked = state.fog_looked_at[clan]
        known = fog_state != FOG_HIDDEN or over or (peeked and mine == clan)
        if known and token >= 0:
            write_i16_le(ones, at + _FOG_STATES + token)
        if peeked:
            write_i16_le(ones, at + _FOG_STATES + _FOGS)


def _write_reconnaissance(
    state: GothsSaveTheQueenState, clan: int, layout: _Layout, fog_of_war: bool, ones: BytesWriter
) -> None:
    """A Warchief's (or solo chief's) part of the layout's ``mine`` (``views._private_entry``):
    his order, what his reconnaissance showed and his peeked Fog token."""
    ones.write(layout.orders[state.orders[clan]])
    looked_at = state.looked_at[clan]
    if looked_at:
        objectives = state.objectives
        at = layout.reconnaissance
        for slot in range(3):  # each kind read as the board's (a code below 0 from the end)
            if looked_at >> slot & 1:
                write_i16_le(ones, at + slot * _OBJECTIVES + objectives[slot] % _OBJECTIVES)
    if fog_of_war and state.fog_looked_at[clan]:
        write_i16_le(ones, layout.fog_token + state.fog[clan] % _FOGS)
