"""What each seat of Goths Save the Queen may know (docs/rules/goths-save-the-queen.md §8):
its redacted copy of a state, its observation, and what it observes of each event.

Four things are secret while the game runs: the Objective cards face down (a Warchief knows
those his reconnaissance looked at), the Fog tokens face down (a Warchief may look at his own),
the faces of this turn's King cards (their King knows them; their backs are public) and this
turn's orders (their Warchief knows his). *That* an order was given is public: a seat's copy waits
for the same seats as the truth. When the game is over everything is turned up. The worlds a
seat cannot tell apart are drawn by :mod:`.worlds`.
"""

from __future__ import annotations

import random
from typing import Any

from ...core.actions import seat_text
from ...core.events import CHANCE
from ...core.game import GameViews, State
from .components import (
    ALL_KING_CARDS,
    ARMY_SIZE,
    CELL_NAMES,
    CHARACTER_NAMES,
    CHOICE_KEYS,
    CLAN_KEYS,
    DRAW,
    FOG_HIDDEN,
    FOG_NAMES,
    FOG_STATE_NAMES,
    FRONT,
    KING,
    KING_CARD,
    KING_CARD_NAMES,
    NONE,
    OBJECTIVE_BASE,
    OBJECTIVE_NAMES,
    ORDER,
    ORDER_WORDS,
    ORDERS,
    OSTROGOTHS,
    ROLE_KEYS,
    SOLO,
    SUB_CHOICE,
    UNKNOWN,
    VISIGOTHS,
    WARCHIEF,
    back_text,
    cards_of,
)
from .rules import GothsSaveTheQueenState
from .worlds import sampled_world


class GothsSaveTheQueenViews(GameViews):
    """A seat sees the board, the backs of the King cards and that orders were given; its own
    King card, order and reconnaissance; nothing else until the cards are turned up."""

    def observation(self, state: State, seat: int | None) -> dict[str, Any]:
        assert isinstance(state, GothsSaveTheQueenState)
        return observation_of(state, seat)

    def redacted(self, state: State, seat: int | None) -> State:
        assert isinstance(state, GothsSaveTheQueenState)
        return redacted(state, seat)

    def determinize(self, state: State, seat: int | None, rng: random.Random) -> State:
        assert isinstance(state, GothsSaveTheQueenState)
        return sampled_world(state, seat, rng)

    def observed(self, state: State, actor: int, item: Any, observer: int) -> Any:
        assert isinstance(state, GothsSaveTheQueenState)
        # Others see a King card's back only and that an order was given, not which ;
        # Objective and Fog draws are face down; sub-choices are public (GOTH-8, GOTH-17).
        if actor == CHANCE:
            return None
        if actor == observer:
            return item.id
        if item.kind == KING_CARD:
            return ("back", state.tables.back_of[item.value])
        if item.kind == ORDER:
            return "order"
        return item.id


def reconnoitring_clan(state: GothsSaveTheQueenState, seat: int | None) -> int:
    """The clan whose reconnaissance ``seat`` keeps in mind: his own if he is its Warchief (or
    solo chief), else NONE (GOTH-17: not even his King learns it; GOTH-24)."""
    if seat is None:
        return NONE
    clan: int = state.tables.clan_of[seat]
    return clan if state.tables.warchief_seat[clan] == seat else NONE


# ----------------------------------------------------------------------------- redaction


def redacted(state: GothsSaveTheQueenState, seat: int | None) -> GothsSaveTheQueenState:
    """A copy of ``state`` holding only what ``seat`` may know: every secret it may not know is
    UNKNOWN (removed, not hidden). Its history is set by the core from the declared secrets."""
    copy = state.clone()
    if state.is_terminal:
        return copy  # §5: the game is over, everything is turned up
    tables = state.tables
    mine = reconnoitring_clan(state, seat)
    known_objectives = state.revealed_objectives | (state.looked_at[mine] if mine != NONE else 0)
    for slot in range(3):
        if not known_objectives >> slot & 1:
            copy.objectives[slot] = UNKNOWN
    for clan in (OSTROGOTHS, VISIGOTHS):
        if (
            state.fog[clan] >= 0
            and state.fog_state[clan] == FOG_HIDDEN
            and not (clan == mine and state.fog_looked_at[clan])
        ):
            copy.fog[clan] = UNKNOWN
        if state.played[clan] >= 0 and seat != tables.king_seat[clan]:
            copy.played[clan] = UNKNOWN  # the back stays in played_back
        if state.phase == ORDERS and state.orders[clan] and clan != mine:
            copy.orders[clan] = UNKNOWN  # given (public: orders_given, to_move), but which?
    return copy


def observation_of(state: GothsSaveTheQueenState, seat: int | None) -> dict[str, Any]:
    """The JSON-able table as ``seat`` sees it (the same on the full state, the seat's redacted
    copy and any world drawn from it)."""
    tables = state.tables
    clan = NONE if seat is None else tables.clan_of[seat]
    role = NONE if seat is None else tables.role_of[seat]
    winner = state.winner
    return {
        "game": state.game.id,
        "seat": None if seat is None else seat_text(seat),
        "clan": None if clan == NONE else CLAN_KEYS[clan],
        "role": None if role == NONE else ROLE_KEYS[role],
        "seats": [
            {
                "seat": seat_text(other),
                "clan": CLAN_KEYS[tables.clan_of[other]],
                "role": ROLE_KEYS[tables.role_of[other]],
            }
            for other in range(state.num_players)
        ],
        "turn": state.turn,
        "safety_cap": tables.safety_cap,
        "initiative": CLAN_KEYS[state.initiative],
        "phase": phase_key(state),
        "waiting_for": [seat_text(other) for other in state.to_move],
        "board": _board(state),
        "clans": [_clan_entry(state, each, seat) for each in (OSTROGOTHS, VISIGOTHS)],
        "mine": _private_entry(state, seat),
        "last_reveal": _last_reveal(state),
        "winner": None if winner == NONE else ("draw" if winner == DRAW else CLAN_KEYS[winner]),
    }


def phase_key(state: GothsSaveTheQueenState) -> str:
    if state.phase == SUB_CHOICE:
        return CHOICE_KEYS[state.pending_choice]
    return ("setup", "setup", "kings", "orders", "", "over")[state.phase]


def king_card_entry(state: GothsSaveTheQueenState, card: int) -> dict[str, str]:
    """A King card as its King sees it in hand: its front and its back (GOTH-1)."""
    return {
        "card": KING_CARD_NAMES[card],
        "character": CHARACTER_NAMES[FRONT[card]].lower(),
        "back": back_text(state.tables.back_of[card]),
    }


def _board(state: GothsSaveTheQueenState) -> list[dict[str, Any]]:
    over = state.is_terminal
    board = []
    for cell in range(9):
        entry: dict[str, Any] = {"cell": CELL_NAMES[cell], "barricade": state.barricade[cell]}
        if OBJECTIVE_BASE <= cell < OBJECTIVE_BASE + 3:
            slot = cell - OBJECTIVE_BASE
            revealed = bool(state.revealed_objectives >> slot & 1)
            entry["objective"] = (
                OBJECTIVE_NAMES[state.objectives[slot]] if revealed or over else None
            )
            entry["revealed"] = revealed
        entry["army"] = next(
            (CLAN_KEYS[clan] for clan in (0, 1) if state.position[clan] == cell), None
        )
        board.append(entry)
    return board


def _clan_entry(state: GothsSaveTheQueenState, clan: int, seat: int | None) -> dict[str, Any]:
    tables = state.tables
    fog: dict[str, Any] | None = None
    if tables.fog_of_war:
        token = state.fog[clan]
        known = (
            state.fog_state[clan] != FOG_HIDDEN
            or state.is_terminal
            or (state.fog_looked_at[clan] and reconnoitring_clan(state, seat) == clan)
        )
        fog = {
            "state": FOG_STATE_NAMES[state.fog_state[clan]],
            "token": FOG_NAMES[token] if known and token >= 0 else None,
            "peeked": state.fog_looked_at[clan],
        }
    face_down = state.played_back[clan] if state.played[clan] != NONE else 0
    solo = tables.solo[clan]
    held = ALL_KING_CARDS & ~state.face_up[clan]
    last = state.solo_last_character[clan]
    return {
        "clan": CLAN_KEYS[clan],
        "solo": solo,
        "king": None if solo else seat_text(tables.king_seat[clan]),
        "warchief": seat_text(tables.warchief_seat[clan]),
        "position": CELL_NAMES[state.position[clan]],
        "army": state.army[clan],
        "reserve": ARMY_SIZE - state.army[clan],
        "catapult": "active" if state.catapult[clan] else "inactive",
        "king_cards_face_up": [KING_CARD_NAMES[card] for card in cards_of(state.face_up[clan])],
        "king_card_face_down_back": back_text(face_down) if face_down else None,
        "king_hand_size": 0 if solo else len(cards_of(held)) - (state.played[clan] != NONE),
        "order_given": bool(state.orders_given >> clan & 1),
        "objectives_looked_at": [slot for slot in range(3) if state.looked_at[clan] >> slot & 1],
        "solo_last_character": CHARACTER_NAMES[last].lower() if last >= 0 else None,
        "fog": fog,
    }


def _private_entry(state: GothsSaveTheQueenState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` alone knows: a King his hand and face-down card (each with its back), a
    Warchief his order and what his reconnaissance showed."""
    if seat is None:
        return {}
    tables = state.tables
    clan = tables.clan_of[seat]
    role = tables.role_of[seat]
    mine: dict[str, Any] = {}
    if role == KING:
        played = state.played[clan]
        hand = ALL_KING_CARDS & ~state.face_up[clan]
        mine["hand"] = [king_card_entry(state, card) for card in cards_of(hand) if card != played]
        mine["face_down"] = king_card_entry(state, played) if played >= 0 else None
    elif role in (WARCHIEF, SOLO):
        order = state.orders[clan]
        mine["order"] = ORDER_WORDS[order] if order > 0 else None
        mine["reconnaissance"] = {
            f"objective {slot}": OBJECTIVE_NAMES[state.objectives[slot]]
            for slot in range(3)
            if state.looked_at[clan] >> slot & 1
        }
        if tables.fog_of_war and state.fog_looked_at[clan]:
            mine["fog_token"] = FOG_NAMES[state.fog[clan]]
    return mine


def _last_reveal(state: GothsSaveTheQueenState) -> dict[str, Any] | None:
    if not state.last_turn:
        return None
    last: dict[str, Any] = {"turn": state.last_turn}
    for clan in (OSTROGOTHS, VISIGOTHS):
        card = state.last_played[clan]
        last[CLAN_KEYS[clan]] = {
            "king_card": KING_CARD_NAMES[card] if card >= 0 else None,
            "character": CHARACTER_NAMES[FRONT[card]].lower() if card >= 0 else None,
            "order": ORDER_WORDS[state.last_orders[clan]],
            "success": state.last_success[clan],
        }
    return last
