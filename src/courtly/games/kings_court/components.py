"""King's Court's pieces (RULES.md §5.1): the card tables, the actions and the phases.

Shared by the state machine (:mod:`.rules`), the views (:mod:`.views`) and the text
(:mod:`.text`), which import them from here so that none of them imports another in a circle.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from ...core.actions import Action
from ...core.cards import ACE, CARDS, JACK, KING, QUEEN, Card

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


# An Action subclass stays a plain Python class (immutable slots) in a module that may run
# compiled (courtly/_compiled.py).
@mypyc_attr(native_class=False)
class KingsCourtAction(Action):
    """``end``, ``pass``, ``play 7H``, ``play JH p2``, ``borrow 6H``, ``borrow KS p1``."""

    __slots__ = ("card", "kind", "target")

    kind: int
    card: int
    target: int

    def __init__(self, id: int, text: str, kind: int, card: int = -1, target: int = -1) -> None:
        super().__init__(id, text, kind=kind, card=card, target=target)
