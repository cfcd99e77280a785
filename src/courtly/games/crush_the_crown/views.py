"""What a seat of Crush the Crown may know (docs/rules/crush-the-crown.md §8).

A seat sees its own hand, the public table, the size of the rival's hand and the cards it knows
are in it (tribute it gave, Queens a deadlock showed); a spectator sees neither hand. Here are
the redacted copy a view holds, the cards a seat may not know, its observation and what a seat
observes of each event; the worlds drawn from a view are :mod:`.worlds`'. At the end of a game
nothing is hidden any more.
"""

from __future__ import annotations

import random
from collections.abc import Hashable
from typing import Any

from ...core.actions import seat_text
from ...core.cards import CARDS, SUIT_NAMES, Card
from ...core.events import CHANCE, observer_bit
from ...core.game import GameViews, State
from .components import (
    DEALER,
    DECISION_TEXT,
    JOKER,
    LADDER_TEXT,
    PHASE_TEXT,
    SECOND_JOKER,
    SLOTS,
    TEXT,
    UNKNOWN,
    CrushTheCrownAction,
)
from .rules import CrushTheCrownState
from .worlds import sample_world


class CrushTheCrownViews(GameViews):
    """Hands are private and the draw pile unknown; everything else is public, and so is what a
    seat has learned of the rival's hand."""

    def observation(self, state: State, seat: int | None) -> dict[str, Any]:
        assert isinstance(state, CrushTheCrownState)
        return observation(state, seat)

    def redacted(self, state: State, seat: int | None) -> State:
        assert isinstance(state, CrushTheCrownState)
        return redacted(state, seat)

    def determinize(self, state: State, seat: int | None, rng: random.Random) -> State:
        """A full state for what ``seat`` saw, with a history that replays to it."""
        assert isinstance(state, CrushTheCrownState)
        return sample_world(state, seat, rng)

    def secret_cards(self, state: State, seat: int | None) -> frozenset[Card]:
        assert isinstance(state, CrushTheCrownState)
        return secret_cards(state, seat)

    def observed(self, state: State, actor: int, item: Any, observer: int) -> Hashable | None:
        assert isinstance(state, CrushTheCrownState)
        # Every play is public ; a drawn card is seen by its drawer only; the dealer is public.
        if actor != CHANCE:
            return item.id  # type: ignore[no-any-return]
        if state.pending_chance == DEALER or observer == state.drawer:
            return item  # type: ignore[no-any-return]
        return None


def known_cards(known: int) -> list[int]:
    """The cards of a mask of known cards, in card order (bit 53: a second joker)."""
    cards: list[int] = [CARDS[c] for c in range(JOKER + 1) if known >> c & 1]
    if known >> SECOND_JOKER & 1:
        cards.append(CARDS[JOKER])
    return cards


def redacted(state: CrushTheCrownState, seat: int | None) -> State:
    """The copy of ``state`` a view of ``seat`` holds: the hands it cannot see are their known
    cards and placeholders, the draw pile placeholders. At the end nothing is hidden."""
    if state.is_terminal:
        return state.clone()
    copy = state.clone()
    for h in (0, 1):
        if h != seat:
            known = known_cards(state.known_to_rival[h])
            copy.hands[h] = known + [UNKNOWN] * (len(state.hands[h]) - len(known))
    copy.draw_pile = [UNKNOWN] * len(state.draw_pile)
    if seat not in state.to_move:
        copy._legal = ()  # the rival's options would tell his cards
    return copy


def secret_cards(state: CrushTheCrownState, seat: int | None) -> frozenset[Card]:
    """Cards in the draw pile or in the unknown part of a hand that ``seat`` has never seen (a
    card seen earlier, e.g. discarded and reshuffled, may be named in its log). None at the end."""
    if state.is_terminal:
        return frozenset()
    seen = 0
    for actor, item in state.secrets.seen_by(state.history, observer_bit(seat, state.num_players)):
        if isinstance(item, CrushTheCrownAction) and item.card >= 0:
            seen |= 1 << item.card
        elif actor == CHANCE and isinstance(item, Card):
            seen |= 1 << min(item, JOKER)
    unknown: list[int] = list(state.draw_pile)
    for h in (0, 1):
        if h != seat:
            known = state.known_to_rival[h]
            unknown += [c for c in state.hands[h] if not known >> c & 1]
    return frozenset(CARDS[c] for c in unknown if c < UNKNOWN and not seen >> c & 1)


# ------------------------------------------------------------------------------- observation


def observation(state: CrushTheCrownState, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` sees it (the same on the state, its view and any world of it)."""
    over = state.is_terminal
    hands = []
    for h in (0, 1):
        entry: dict[str, Any] = {"seat": seat_text(h), "size": len(state.hands[h])}
        known = [TEXT[c] for c in known_cards(state.known_to_rival[h])]
        if h == seat or over:
            entry["cards"] = [TEXT[c] for c in state.hands[h]]
        if h == seat:
            entry["known_to_rival"] = known
        else:
            entry["known"] = known
        hands.append(entry)
    winners = state.winners
    tables = state.tables
    return {
        "game": state.game.id,
        "seat": None if seat is None else seat_text(seat),
        "phase": PHASE_TEXT[state.phase()],
        "to_move": [seat_text(s) for s in state.to_move],
        "decision": DECISION_TEXT[state.decision] if state.to_move else None,
        "dealer": seat_text(state.dealer) if state.dealer >= 0 else None,
        "first_player": seat_text(state.first_player) if state.first_player >= 0 else None,
        "turn": seat_text(state.turn_player) if state.turn_player >= 0 else None,
        "turns_played": state.turns_played,
        "safety_cap": tables.safety_cap,
        "hand_size": tables.hand_size,
        "mercenary_suits": [SUIT_NAMES[s] for s in state.mercenary_suits()],
        "kings_aside": [TEXT[c] for c in state.kings_aside],
        "governments": [government_picture(state, h) for h in (0, 1)],
        "hands": hands,
        "draw_pile": len(state.draw_pile),
        "discard_pile": [TEXT[c] for c in state.discard_pile],
        "executed": [TEXT[c] for c in state.executed],
        "tribute_owed": state.tribute_owed,
        "winners": [seat_text(s) for s in winners],
        "draw": over and len(winners) == 2,
    }


def government_picture(state: CrushTheCrownState, seat: int) -> dict[str, Any]:
    government = state.governments[seat]
    spies = state.spies[seat]
    suit = state.suits[seat]
    filled = len(government)
    return {
        "seat": seat_text(seat),
        "suit": SUIT_NAMES[suit] if suit >= 0 else None,
        "next_needed": LADDER_TEXT[filled] if 0 < filled < SLOTS else None,
        "complete": filled == SLOTS,
        "spies": spies.bit_count(),
        "slots": [
            {"rank": LADDER_TEXT[i], "card": TEXT[c], "spy": bool(spies >> i & 1)}
            for i, c in enumerate(government)
        ],
    }
