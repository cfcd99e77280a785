"""The worlds a seat of Goths Save the Queen cannot tell apart.

:func:`sampled_world` (the views' ``determinize``: the hot path of search, once per ISMCTS
iteration) draws the secrets of a seat's redacted copy again, consistently with what the seat
knows, and writes them into the world's history too, so that a world is a proper state that saves
and replays. The game's bot draws its own informed worlds with :func:`set_face_down_card` and
:func:`set_order`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any, Final, cast

from ...core.actions import Action
from ...core.draws import choice
from ...core.events import CHANCE, HIDDEN
from .components import (
    FOG_DRAWS,
    FOG_PAIRS,
    KING,
    OBJECTIVE_ORDERS,
    OBJECTIVE_PERMUTATIONS,
    OSTROGOTHS,
    SETUP_FOG,
    SETUP_OBJECTIVES,
    UNKNOWN,
    VISIGOTHS,
    FogDraw,
    GothsSaveTheQueenAction,
    ObjectiveOrder,
)
from .rules import GothsSaveTheQueenState


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


def sampled_world(
    state: GothsSaveTheQueenState, seat: int | None, rng: random.Random
) -> GothsSaveTheQueenState:
    """A full state drawn from those consistent with what ``state`` (a seat's redacted copy)
    holds: every UNKNOWN filled in uniformly, and the history with it."""
    world = state.clone()
    tables = world.tables
    # The Objectives (once laid): one of the orders that agree with the cards the seat knows.
    laid: ObjectiveOrder | None = None
    if world.phase != SETUP_OBJECTIVES:
        layouts = OBJECTIVE_COMPLETIONS[tuple(world.objectives)]
        laid = layouts[0] if len(layouts) == 1 else choice(rng, layouts)
        world.objectives = list(OBJECTIVE_PERMUTATIONS[laid])
    # The Fog tokens (in the variant, once drawn).
    fog_draw: FogDraw | None = None
    if tables.fog_of_war and world.phase > SETUP_FOG:
        draws = FOG_COMPLETIONS[tuple(world.fog)]
        fog_draw = draws[0] if len(draws) == 1 else choice(rng, draws)
        world.fog = list(FOG_PAIRS[fog_draw])
    for clan in (OSTROGOTHS, VISIGOTHS):
        if world.played[clan] == UNKNOWN:
            # Either card with that back that is not face up may lie there.
            cards = tables.cards_behind[world.played_back[clan]][world.face_up[clan]]
            world.played[clan] = choice(rng, cards)
        if world.orders[clan] == UNKNOWN:
            # Any order its Warchief (or solo chief, GOTH-23) could give.
            given = choice(rng, world._legal[tables.warchief_seat[clan]])
            world.orders[clan] = cast(GothsSaveTheQueenAction, given).value
    if world._partial:
        _write_hidden_events(world, laid, fog_draw)
    return world


def _write_hidden_events(
    world: GothsSaveTheQueenState, laid: ObjectiveOrder | None, fog_draw: FogDraw | None
) -> None:
    """Write into ``world``'s history the events its seat could not see (left as HIDDEN by the
    view), as the world's fields say they went, so that the world replays to itself: the
    Objectives' order, the Fog draw, this turn's King cards and orders."""
    history = world.history
    tables = world.tables
    for index in world.secrets.knowers:
        actor, item = history[index]
        if item is not HIDDEN:
            continue
        if actor == CHANCE:
            # The first event of a game lays the Objectives; the second, if any, the Fog tokens.
            history[index] = (CHANCE, laid if index == 0 else fog_draw)
        elif tables.role_of[actor] == KING:
            history[index] = (actor, tables.king_cards[world.played[tables.clan_of[actor]]])
        else:
            history[index] = (actor, tables.order_actions[world.orders[tables.clan_of[actor]]])
    world._partial = False


def set_face_down_card(world: GothsSaveTheQueenState, clan: int, card: int) -> None:
    """In a sampled world: ``clan``'s King laid ``card`` face down this turn (one with the same
    back, not face up), in the fields and in the history alike."""
    world.played[clan] = card
    tables = world.tables
    _rewrite_secret_event(world, tables.king_seat[clan], tables.king_cards[card])


def set_order(world: GothsSaveTheQueenState, clan: int, order: int) -> None:
    """In a sampled world: ``clan``'s Warchief gave ``order`` this turn (one he may give), in the
    fields and in the history alike."""
    world.orders[clan] = order
    tables = world.tables
    _rewrite_secret_event(world, tables.warchief_seat[clan], tables.order_actions[order])


def _rewrite_secret_event(world: GothsSaveTheQueenState, seat: int, action: Action) -> None:
    # This turn's King cards and orders are the only secret seat events (all are revealed
    # together, docs/rules/goths-save-the-queen.md §3 B), so ``seat``'s secret event is the one
    # to rewrite.
    history = world.history
    for index in world.secrets.knowers:
        if history[index][0] == seat:
            history[index] = (seat, action)
            return


# ----------------------------------------------------------------------------- observation
