"""What each seat of Goths Save the Queen may know (RULES.md §4.8): its redacted copy of a state,
the worlds drawn from it, and its observation.

Four things are secret while the game runs: the Objective cards face down (a Warchief knows
those his reconnaissance looked at), the Fog tokens face down (a Warchief may look at his own),
the faces of this turn's King cards (their King knows them; their backs are public) and this
turn's orders (their Warchief knows his). *That* an order was given is public: a seat's copy waits
for the same seats as the truth. When the game is over everything is turned up (§4.5).

:func:`sampled_world` (``determinize``: the hot path of search: once per ISMCTS iteration) draws the secrets
again, consistently with what the seat knows, and writes them into the world's history too, so
that a world is a proper state that saves and replays.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, cast

from ...core.actions import Action, seat_text
from ...core.draws import choice
from ...core.game import CHANCE, HIDDEN
from .components import (
    ALL_KING_CARDS,
    ARMY_SIZE,
    CELL_NAMES,
    CHARACTER_NAMES,
    CHOICE_KEYS,
    CLAN_KEYS,
    DRAW,
    FOG_DRAWS,
    FOG_HIDDEN,
    FOG_NAMES,
    FOG_PAIRS,
    FOG_STATE_NAMES,
    FRONT,
    KING,
    KING_CARD_NAMES,
    NONE,
    OBJECTIVE_BASE,
    OBJECTIVE_NAMES,
    OBJECTIVE_ORDERS,
    OBJECTIVE_PERMUTATIONS,
    ORDER_WORDS,
    ORDERS,
    OSTROGOTHS,
    ROLE_KEYS,
    SETUP_FOG,
    SETUP_OBJECTIVES,
    SOLO,
    SUB_CHOICE,
    UNKNOWN,
    VISIGOTHS,
    WARCHIEF,
    FogDraw,
    GothsAction,
    ObjectiveOrder,
    back_text,
    cards_of,
)

if TYPE_CHECKING:
    from .rules import GothsState


def _completions(
    outcomes: Sequence[Any], layouts: Sequence[Sequence[int]], kinds: int, places: int
) -> dict[tuple[int, ...], tuple[Any, ...]]:
    """For every partial knowledge of ``places`` laid things (UNKNOWN where nothing is known),
    the chance outcomes whose layout agrees with it."""
    return {
        known: tuple(
            outcome
            for outcome in outcomes
            if all(
                seen in (UNKNOWN, laid) for seen, laid in zip(known, layouts[outcome], strict=True)
            )
        )
        for known in itertools.product((UNKNOWN, *range(kinds)), repeat=places)
    }


OBJECTIVE_COMPLETIONS: Final[dict[tuple[int, ...], tuple[ObjectiveOrder, ...]]] = _completions(
    OBJECTIVE_ORDERS, OBJECTIVE_PERMUTATIONS, 3, 3
)
"""The Objective layouts (chance outcomes) that agree with what a seat knows of the three cards
(UNKNOWN where it knows nothing): its worlds draw one of them."""
FOG_COMPLETIONS: Final[dict[tuple[int, ...], tuple[FogDraw, ...]]] = _completions(
    FOG_DRAWS, FOG_PAIRS, 4, 2
)
"""The Fog draws that agree with what a seat knows of the two tokens laid."""


def reconnoitring_clan(state: GothsState, seat: int | None) -> int:
    """The clan whose reconnaissance ``seat`` keeps in mind: his own if he is its Warchief (or
    solo chief), else NONE (GOTH-17: not even his King learns it; GOTH-24)."""
    if seat is None:
        return NONE
    clan: int = state.goths.clan_of[seat]
    return clan if state.goths.warchief_seat[clan] == seat else NONE


# ----------------------------------------------------------------------------- redaction


def redacted(state: GothsState, seat: int | None) -> GothsState:
    """A copy of ``state`` holding only what ``seat`` may know: every secret it may not know is
    UNKNOWN (removed, not hidden). Its history is set by the core from the declared secrets."""
    copy = state.clone()
    if state.is_terminal:
        return copy  # §4.5: the game is over, everything is turned up
    game = state.goths
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
        if state.played[clan] >= 0 and seat != game.king_seat[clan]:
            copy.played[clan] = UNKNOWN  # the back stays in played_back
        if state.phase == ORDERS and state.orders[clan] and clan != mine:
            copy.orders[clan] = UNKNOWN  # given (public: orders_given, to_move), but which?
    return copy


# ----------------------------------------------------------------------------- sampled worlds


def sampled_world(state: GothsState, seat: int | None, rng: random.Random) -> GothsState:
    """A full state drawn from those consistent with what ``state`` (a seat's redacted copy)
    holds: every UNKNOWN filled in uniformly, and the history with it."""
    world = state.clone()
    game = world.goths
    # The Objectives (once laid): one of the orders that agree with the cards the seat knows.
    laid: ObjectiveOrder | None = None
    if world.phase != SETUP_OBJECTIVES:
        layouts = OBJECTIVE_COMPLETIONS[tuple(world.objectives)]
        laid = layouts[0] if len(layouts) == 1 else choice(rng, layouts)
        world.objectives = list(OBJECTIVE_PERMUTATIONS[laid])
    # The Fog tokens (in the variant, once drawn).
    fog_draw: FogDraw | None = None
    if game.fog_of_war and world.phase > SETUP_FOG:
        draws = FOG_COMPLETIONS[tuple(world.fog)]
        fog_draw = draws[0] if len(draws) == 1 else choice(rng, draws)
        world.fog = list(FOG_PAIRS[fog_draw])
    for clan in (OSTROGOTHS, VISIGOTHS):
        if world.played[clan] == UNKNOWN:
            # Either card with that back that is not face up may lie there.
            cards = game.cards_behind[world.played_back[clan]][world.face_up[clan]]
            world.played[clan] = choice(rng, cards)
        if world.orders[clan] == UNKNOWN:
            # Any order its Warchief (or solo chief, GOTH-23) could give.
            given = choice(rng, world._legal[game.warchief_seat[clan]])
            world.orders[clan] = cast(GothsAction, given).value
    if world._partial:
        _write_hidden_events(world, laid, fog_draw)
    return world


def _write_hidden_events(
    world: GothsState, laid: ObjectiveOrder | None, fog_draw: FogDraw | None
) -> None:
    """Write into ``world``'s history the events its seat could not see (left as HIDDEN by the
    view), as the world's fields say they went, so that the world replays to itself: the
    Objectives' order, the Fog draw, this turn's King cards and orders."""
    history = world.history
    game = world.goths
    for index in world._secret_events:
        actor, item = history[index]
        if item is not HIDDEN:
            continue
        if actor == CHANCE:
            # The first event of a game lays the Objectives; the second, if any, the Fog tokens.
            history[index] = (CHANCE, laid if index == 0 else fog_draw)
        elif game.role_of[actor] == KING:
            history[index] = (actor, game.king_cards[world.played[game.clan_of[actor]]])
        else:
            history[index] = (actor, game.order_actions[world.orders[game.clan_of[actor]]])
    world._partial = False


def set_face_down_card(world: GothsState, clan: int, card: int) -> None:
    """In a sampled world: ``clan``'s King laid ``card`` face down this turn (one with the same
    back, not face up), in the fields and in the history alike."""
    world.played[clan] = card
    game = world.goths
    _rewrite_secret_event(world, game.king_seat[clan], game.king_cards[card])


def set_order(world: GothsState, clan: int, order: int) -> None:
    """In a sampled world: ``clan``'s Warchief gave ``order`` this turn (one he may give), in the
    fields and in the history alike."""
    world.orders[clan] = order
    game = world.goths
    _rewrite_secret_event(world, game.warchief_seat[clan], game.order_actions[order])


def _rewrite_secret_event(world: GothsState, seat: int, action: Action) -> None:
    # This turn's King cards and orders are the only secret seat events (all are revealed
    # together, §4.3 B), so ``seat``'s secret event is the one to rewrite.
    history = world.history
    for index in world._secret_events:
        if history[index][0] == seat:
            history[index] = (seat, action)
            return


# ----------------------------------------------------------------------------- observation


def observation_of(state: GothsState, seat: int | None) -> dict[str, Any]:
    """The JSON-able table as ``seat`` sees it (the same on the full state, the seat's redacted
    copy and any world drawn from it)."""
    game = state.goths
    clan = NONE if seat is None else game.clan_of[seat]
    role = NONE if seat is None else game.role_of[seat]
    winner = state.winner
    return {
        "game": game.id,
        "seat": None if seat is None else seat_text(seat),
        "clan": None if clan == NONE else CLAN_KEYS[clan],
        "role": None if role == NONE else ROLE_KEYS[role],
        "seats": [
            {
                "seat": seat_text(other),
                "clan": CLAN_KEYS[game.clan_of[other]],
                "role": ROLE_KEYS[game.role_of[other]],
            }
            for other in range(state.num_players)
        ],
        "turn": state.turn,
        "safety_cap": game.safety_cap,
        "initiative": CLAN_KEYS[state.initiative],
        "phase": phase_key(state),
        "waiting_for": [seat_text(other) for other in state.to_move],
        "board": _board(state),
        "clans": [_clan_entry(state, each, seat) for each in (OSTROGOTHS, VISIGOTHS)],
        "mine": _private_entry(state, seat),
        "last_reveal": _last_reveal(state),
        "winner": None if winner == NONE else ("draw" if winner == DRAW else CLAN_KEYS[winner]),
    }


def phase_key(state: GothsState) -> str:
    if state.phase == SUB_CHOICE:
        return CHOICE_KEYS[state.pending_choice]
    return ("setup", "setup", "kings", "orders", "", "over")[state.phase]


def king_card_entry(state: GothsState, card: int) -> dict[str, str]:
    """A King card as its King sees it in hand: its front and its back (GOTH-1)."""
    return {
        "card": KING_CARD_NAMES[card],
        "character": CHARACTER_NAMES[FRONT[card]].lower(),
        "back": back_text(state.goths.back_of[card]),
    }


def _board(state: GothsState) -> list[dict[str, Any]]:
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


def _clan_entry(state: GothsState, clan: int, seat: int | None) -> dict[str, Any]:
    game = state.goths
    fog: dict[str, Any] | None = None
    if game.fog_of_war:
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
    solo = game.solo[clan]
    held = ALL_KING_CARDS & ~state.face_up[clan]
    last = state.solo_last_character[clan]
    return {
        "clan": CLAN_KEYS[clan],
        "solo": solo,
        "king": None if solo else seat_text(game.king_seat[clan]),
        "warchief": seat_text(game.warchief_seat[clan]),
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


def _private_entry(state: GothsState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` alone knows: a King his hand and face-down card (each with its back), a
    Warchief his order and what his reconnaissance showed."""
    if seat is None:
        return {}
    game = state.goths
    clan = game.clan_of[seat]
    role = game.role_of[seat]
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
        if game.fog_of_war and state.fog_looked_at[clan]:
            mine["fog_token"] = FOG_NAMES[state.fog[clan]]
    return mine


def _last_reveal(state: GothsState) -> dict[str, Any] | None:
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
