"""King's Court's pieces (docs/rules/kings-court.md §1): the card tables, the actions and the
phases.

Shared by the state machine (:mod:`.rules`), the views (:mod:`.views`) and the text
(:mod:`.text`), which import them from here so that none of them imports another in a circle.
"""

from __future__ import annotations

from typing import Any, Final, cast

from mypy_extensions import mypyc_attr

from ...core.actions import Action
from ...core.cards import ACE, CARDS, JACK, KING, QUEEN, Card
from ...core.persist import fields_of, rebuild

DECK: Final[tuple[Card, ...]] = CARDS[:52]
RANK: Final = tuple(c.rank for c in DECK)
SUIT: Final = tuple(c.suit for c in DECK)
VALUE: Final = tuple(1 if r == ACE else r if r <= 10 else 0 for r in RANK)
"""How far a number card moves a pawn (A = 1); 0 for J, Q, K."""
CARD_BIT: Final = tuple(1 << c for c in range(52))
"""A card's bit in a set of cards held as an int (a Queen's memory, say)."""
SEAT_SUIT: Final = (1, 0, 3, 2)
"""KC-3: seat 0 hearts, seat 1 spades, seat 2 clubs, seat 3 diamonds (indices into SUITS)."""
FACE_NAME: Final = {JACK: "Jack", QUEEN: "Queen", KING: "King"}

# Action kinds.
END: Final = 0
PASS: Final = 1
PLAY: Final = 2
BORROW: Final = 3
DISCARD: Final = 4
"""``discard 7H``: throw a card away to come down to the hand limit (KC-21)."""
END_ID: Final = 0
"""The id of ``end`` (the game builds it first)."""
PASS_ID: Final = 1
"""The id of ``pass``."""

# Phases.
CUT: Final = 0  # chance: the start player (the cut, KC-4)
DEAL: Final = 1  # chance: a card of the initial deal (initial_hand_size)
DRAW: Final = 2  # chance: the card the turn player draws
PLAYING: Final = 3  # the turn player plays a card or ends the turn
BORROWING: Final = 4  # after a Queen: borrow a card from the target's hand, or pass
OVER: Final = 5
PHASE_TEXT: Final = ("start", "deal", "draw", "play", "borrow", "over")


def hidden_slot(epoch: int) -> int:
    """The placeholder for an unknown card of ``epoch`` in a redacted hand or pile (negative):
    a view keeps the epoch of each card it cannot see (public), never the card."""
    return -1 - epoch


def slot_epoch(slot: int) -> int:
    return -1 - slot


@mypyc_attr(native_class=False)
class KingsCourtAction(Action):
    """``end``, ``pass``, ``play 7H``, ``play JH p2``, ``borrow 6H``, ``borrow KS p1``."""

    __slots__ = ("card", "kind", "target")

    kind: int
    card: int
    target: int

    def __init__(self, id: int, text: str, kind: int, card: int = -1, target: int = -1) -> None:
        super().__init__(id, text, kind=kind, card=card, target=target)


class KingsCourtTables:
    """What the state machine reads of its game on every step, in a class of this (compiled)
    module so that each read is a typed field rather than a look-up in the game object: the
    seats' suits, the deck, and for every card a seat may hold the actions it allows, so that
    legal moves are a table look-up. The game builds it once (``game.tables``) and hands it to its states."""

    def __init__(
        self,
        num_players: int = 0,
        actions: tuple[Action, ...] = (),
        track_length: int = 0,
        safety_cap: int = 0,
        prefilter_unused_suits: bool = True,
        initial_hand_size: int = 0,
        pushback_cap: int = 0,
        march: int = 0,
        hand_limit: int = 0,
    ) -> None:
        n = num_players
        self.track_length = track_length
        self.safety_cap = safety_cap
        self.initial_hand_size = initial_hand_size
        self.pushback_cap = pushback_cap
        """KC-19: the most spaces one card moves a rival back (0: its whole value)."""
        self.march = march
        """KC-20: the spaces a pawn moves forward as its player ends his turn (0: none)."""
        self.hand_limit = hand_limit
        """KC-21: the most cards a hand may hold as its player ends his turn (0: no limit)."""
        # KC-3: the seats own hearts, spades, clubs, diamonds in that order.
        owner = [-1] * 52
        for seat in range(n):
            for card in DECK:
                if SUIT[card] == SEAT_SUIT[seat]:
                    owner[card] = seat
        self.owner: tuple[int, ...] = tuple(owner)
        """The seat whose suit each card is (-1: nobody's, KC-2)."""
        # KC-2: with prefilter_unused_suits the unowned suits never enter the deck.
        deck = [c for c in DECK if owner[c] >= 0 or not prefilter_unused_suits]
        self.deck: tuple[int, ...] = tuple(deck)
        self.end: Action = actions[0] if actions else Action(0, "end")
        self.pass_: Action = actions[1] if actions else Action(1, "pass")
        plays: dict[int, list[Action]] = {c: [] for c in DECK}
        borrows: dict[int, list[Action]] = {c: [] for c in DECK}
        discards: list[Action] = [self.end] * 52  # a placeholder where there is no discard
        for action in actions[2:]:
            assert isinstance(action, KingsCourtAction)
            if action.kind == DISCARD:
                discards[action.card] = action
            else:
                (plays if action.kind == PLAY else borrows)[action.card].append(action)
        self.discard_of: tuple[Action, ...] = tuple(discards)
        """``discard_of[card]``: the action that throws ``card`` away (KC-21; only with a hand
        limit)."""
        self.all_plays_of: dict[int, tuple[Action, ...]] = {c: tuple(a) for c, a in plays.items()}
        """Every play of a card, whoever may make it (for the reasons of refusals)."""
        self.all_borrows_of: dict[int, tuple[Action, ...]] = {
            c: tuple(a) for c, a in borrows.items()
        }
        self.plays_for = tuple(_allowed(owner, seat, self.all_plays_of) for seat in range(n))
        """``plays_for[seat][card]``: the plays holding ``card`` allows ``seat``."""
        self.borrows_for = tuple(_allowed(owner, seat, self.all_borrows_of) for seat in range(n))
        """``borrows_for[seat][card]``: the borrows of ``card`` a Queen allows ``seat``."""
        self.moved_back_by = tuple(
            tuple(owner[c] if VALUE[c] and owner[c] >= 0 and owner[c] != seat else -1 for c in DECK)
            for seat in range(n)
        )
        """``moved_back_by[seat][card]``: the seat that number card moves back when ``seat``
        plays it (-1: none, KC-9)."""

    def push_of(self, value: int) -> int:
        """How far a number card of ``value`` moves a rival back before the start stops it:
        its value, or ``pushback_cap`` when that is smaller (KC-19)."""
        cap = self.pushback_cap
        return cap if 0 < cap < value else value

    def __reduce__(self) -> tuple[Any, ...]:
        return (rebuild, (KingsCourtTables, (), fields_of(self)))


def _allowed(
    owner: list[int], seat: int, by_card: dict[int, tuple[Action, ...]]
) -> tuple[tuple[Action, ...], ...]:
    """For each card: the actions it allows ``seat`` (KC-10: own face cards on any opponent,
    another suit's face cards only on that suit's player, never on oneself)."""
    result: list[tuple[Action, ...]] = []
    for card in DECK:
        suit_owner = owner[card]
        if suit_owner < 0:
            result.append(())
        elif VALUE[card]:
            result.append(by_card[card])
        elif suit_owner == seat:
            result.append(tuple(a for a in by_card[card] if _target(a) != seat))
        else:
            result.append(tuple(a for a in by_card[card] if _target(a) == suit_owner))
    return tuple(result)


def _target(action: Action) -> int:
    return cast(KingsCourtAction, action).target
