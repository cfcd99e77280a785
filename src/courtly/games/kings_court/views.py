"""What each seat may know in King's Court (docs/rules/kings-court.md §6).

* Hands are private; their sizes are public. The card a seat draws is known to it alone.
* A Queen's look is private to the looker, who remembers the cards he saw for as long as they stay
  in that hand. Every way a card leaves a hand is public (it is played, borrowed or discarded face
  up), so the looker can always follow which of the seen cards are still there; cards the target
  draws later are unknown to him.
* What a seat knows of the other seats' memories: the memories of its own hand exactly (it knows
  its hand); a third seat's memory of a fourth hand only as a public lower bound on its size.

A view's copy of the state (:func:`redacted`) holds the seat's own hand, the cards it remembers of
the others' hands, and in place of every other card a *hidden slot* carrying the epoch of the pile
the card was drawn from (public). The worlds a seat cannot tell apart are drawn from that copy
by :mod:`.worlds`.
"""

from __future__ import annotations

import random
from typing import Any

from ...core.actions import seat_text
from ...core.cards import CARDS, SUITS, Card
from ...core.events import CHANCE
from ...core.game import GameViews, State
from .components import CARD_BIT, CUT, PHASE_TEXT, SEAT_SUIT, hidden_slot
from .rules import KingsCourtState
from .worlds import determinize


class KingsCourtViews(GameViews):
    """Hands are private, Queens' looks are remembered, everything else is public."""

    def observation(self, state: State, seat: int | None) -> dict[str, Any]:
        assert isinstance(state, KingsCourtState)
        return observation(state, seat)

    def redacted(self, state: State, seat: int | None) -> State:
        assert isinstance(state, KingsCourtState)
        return redacted(state, seat)

    def determinize(self, state: State, seat: int | None, rng: random.Random) -> State:
        assert isinstance(state, KingsCourtState)
        return determinize(state, seat, rng)

    def secret_cards(self, state: State, seat: int | None) -> frozenset[Card]:
        assert isinstance(state, KingsCourtState)
        return secret_cards(state, seat)

    def observed(self, state: State, actor: int, item: Any, observer: int) -> Any:
        # Plays are public; a drawn card is seen by its drawer only, unless it is of nobody's
        # suit and shown as it is removed (KC-2); the cut for the start is public.
        assert isinstance(state, KingsCourtState)
        if actor != CHANCE:
            return item.id
        if state.phase == CUT or observer == state.drawer or state.tables.owner[int(item)] < 0:
            return item
        return None


def known_cards(state: KingsCourtState, seat: int, other: int) -> list[int]:
    """The cards ``seat`` knows to be in ``other``'s hand (its own hand: all of it)."""
    if seat == other or state.is_terminal:
        return [c for c in state.hands[other] if c >= 0]
    memory = state.memories[seat * state.num_players + other]
    return [c for c in state.hands[other] if c >= 0 and memory & CARD_BIT[c]]


def secret_cards(state: KingsCourtState, seat: int | None) -> frozenset[Card]:
    """The cards of ``state`` whose place ``seat`` may not know (the contract suite checks them)."""
    if state.is_terminal:
        return frozenset()
    # Cards that went through a reshuffle were face up before, and the public log names
    # them; the cards checked are those ``seat`` has never been shown (epoch 0).
    epoch_of = state.epoch_of
    n = state.num_players
    secret = {c for c in state.draw_pile if not epoch_of[c]}
    for other in range(n):
        if other == seat:
            continue
        memory = 0 if seat is None else state.memories[seat * n + other]
        secret.update(c for c in state.hands[other] if not memory & CARD_BIT[c] and not epoch_of[c])
    return frozenset(CARDS[c] for c in secret)


def redacted(state: KingsCourtState, seat: int | None) -> KingsCourtState:
    """A copy holding only what ``seat`` may know: every card it cannot place is *removed*
    (replaced by the hidden slot of its epoch), and the other seats' memories of third hands are
    dropped."""
    copy = state.clone()
    if state.is_terminal:
        return copy  # the game is over: every hand is shown
    n = state.num_players
    epoch_of = state.epoch_of
    for other in range(n):
        if other == seat:
            continue
        memory = 0 if seat is None else state.memories[seat * n + other]
        hand = state.hands[other]
        copy.hands[other] = [c for c in hand if memory & CARD_BIT[c]] + sorted(
            hidden_slot(epoch_of[c]) for c in hand if not memory & CARD_BIT[c]
        )
    copy.draw_pile = [hidden_slot(state.epoch)] * len(state.draw_pile)
    for looker in range(n):
        for target in range(n):
            if looker != seat and target != seat:
                copy.memories[looker * n + target] = 0  # not this seat's to know
    if seat not in state.to_move:
        copy._legal = ()  # the mover's options would show his hand (or the Queen's look)
    return copy


def observation(state: KingsCourtState, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` sees it (called on any copy: it reads only what ``seat`` may know)."""
    n = state.num_players
    tables = state.tables
    over = state.is_terminal
    players = []
    for s in range(n):
        entry: dict[str, Any] = {
            "seat": seat_text(s),
            "suit": SUITS[SEAT_SUIT[s]],
            "position": state.positions[s],
            "hand_size": len(state.hands[s]),
        }
        if over or s == seat:
            entry["hand"] = [str(CARDS[c]) for c in state.hands[s]]
        elif seat is not None:
            entry["known_cards"] = [str(CARDS[c]) for c in known_cards(state, seat, s)]
        if seat is not None and s != seat and not over:
            # What this player remembers of my hand (I know my hand, so I know that).
            entry["knows_of_mine"] = [str(CARDS[c]) for c in known_cards(state, s, seat)]
        players.append(entry)
    return {
        "game": state.game.id,
        "seat": None if seat is None else seat_text(seat),
        "track_length": tables.track_length,
        "safety_cap": tables.safety_cap,
        "phase": PHASE_TEXT[state.phase],
        "start_player": seat_text(state.start_player),
        "turn": seat_text(state.turn),
        "turns_played": state.turns_played,
        "to_move": [seat_text(s) for s in state.to_move],
        "queen_target": seat_text(state.queen_target) if state.queen_target >= 0 else None,
        "moved_back": [seat_text(s) for s in range(n) if state.moved_back >> s & 1],
        "players": players,
        "draw_pile_size": len(state.draw_pile),
        "discard_pile": [str(CARDS[c]) for c in state.discard_pile],
        "removed": [str(CARDS[c]) for c in state.removed],
        "reshuffles": state.epoch,
        "winners": [seat_text(s) for s in state.winners],
    }
