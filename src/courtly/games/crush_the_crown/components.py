"""The pieces of Crush the Crown: the card tables (ranks, suits, the government's ladder), the
words of its decisions, its actions, and the tables its rules read on every step.

The two jokers are alike, and every table treats them so: a hand, a pile or a government holds
a joker as card 52, twice when both are there, and an action or a draw names it ``Jk``.
"""

from __future__ import annotations

from typing import Any, Final, cast

from mypy_extensions import mypyc_attr

from ...core.actions import Action
from ...core.cards import ACE, CARDS, KING, NUM_STANDARD_CARDS, QUEEN
from ...core.persist import fields_of, rebuild

JOKER: Final = 52
"""The joker, both of them: the second joker's own card (53) never appears in a state."""
SECOND_JOKER: Final = 53
"""In a mask of known cards, the bit that says a second joker is known too."""
UNKNOWN: Final = 54
"""The placeholder of an unknown card in a redacted copy (a hand card or a draw-pile card)."""
WILD: Final = -2
NO_SPY: Final = -1

LADDER: Final = (KING, QUEEN, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, ACE)
"""The 13 slots of a government, in building order (CTC-8): the Ace crushes the King last."""
SLOTS: Final = len(LADDER)
_SLOT_OF_RANK: Final = {rank: slot for slot, rank in enumerate(LADDER)}
LADDER_TEXT: Final = ("K", "Q", "J", "10", "9", "8", "7", "6", "5", "4", "3", "2", "A")

RANK: Final = tuple([c.rank for c in CARDS] + [0])
SUIT: Final = tuple([c.suit for c in CARDS] + [-9])
SLOT: Final = tuple([_SLOT_OF_RANK.get(c.rank, -1) for c in CARDS] + [-1])
IS_QUEEN: Final = tuple([c.rank == QUEEN for c in CARDS] + [False])
"""Natural Queens only: a joker is never a Queen (CTC-5)."""
TEXT: Final = tuple([str(c) for c in CARDS] + ["?"])
KINGS: Final = tuple(c for c in CARDS[:NUM_STANDARD_CARDS] if c.rank == KING)
QUEENS: Final = tuple(c for c in CARDS[:NUM_STANDARD_CARDS] if c.rank == QUEEN)
BUILD_CARDS: Final = tuple(c for c in CARDS[:NUM_STANDARD_CARDS] if c.rank not in (KING, QUEEN))
"""Cards that can extend a government or discover a spy: J, 10 ... 2, A of a suit."""
SPY_CARDS: Final = (*[c for c in CARDS[:NUM_STANDARD_CARDS] if c.rank != KING], CARDS[JOKER])
"""Cards that may be spies when their suit is a mercenary suit (Queens wild), and the joker."""
HAND_CARDS: Final = SPY_CARDS
"""Every card that can be in a hand: all but the Kings."""


def learn_card(known: int, card: int) -> int:
    """The mask of known cards ``known`` once ``card`` is known too (a second joker: bit 53)."""
    if card == JOKER and known >> JOKER & 1:
        return known | 1 << SECOND_JOKER
    return known | 1 << card


def forget_card(known: int, card: int) -> int:
    """The mask ``known`` once one known ``card`` has left the hand."""
    if card == JOKER and known >> SECOND_JOKER & 1:
        return known & ~(1 << SECOND_JOKER)
    return known & ~(1 << card)


SEAT_ALONE: Final[tuple[tuple[int, ...], ...]] = ((0,), (1,))
"""``to_move`` when one seat decides (every decision of the game): no tuple built per step.
(Typed of any length: mypyc rebuilds a tuple of fixed length at every use.)"""

# Decisions (what the seat to move is choosing).
MARRIAGE: Final = 0
GIVE_QUEEN: Final = 1
BUILD: Final = 2
SPY: Final = 3
TRIBUTE: Final = 4
FIRE: Final = 5
DECISION_TEXT: Final = ("marriage", "give-queen", "build", "spy", "tribute", "fire")

# Action kinds.
PASS: Final = 0
MARRY: Final = 1
DISCARD: Final = 2
GIVE: Final = 3
EXTEND: Final = 4
DISCOVER: Final = 5
PLACE_SPY: Final = 6
FIRE_CARD: Final = 7
KIND_WORD: Final = ("pass", "marry", "discard", "give", "extend", "discover", "spy", "fire")
KINDS_OF_DECISION: Final = {
    MARRIAGE: (MARRY, DISCARD),
    GIVE_QUEEN: (GIVE,),
    BUILD: (PASS, EXTEND, DISCOVER),
    SPY: (PASS, PLACE_SPY),
    TRIBUTE: (GIVE,),
    FIRE: (PASS, FIRE_CARD),
}

# Chance events.
DEALER: Final = 0
DRAW: Final = 1

# What follows the pending draws.
AFTER_DEAL: Final = 0
AFTER_MARRIAGE_DISCARD: Final = 1
AFTER_MARRIAGE_REFILL: Final = 2
AFTER_HIRE: Final = 3

# Phases of the game, for the observation.
SETUP: Final = 0
MARRYING: Final = 1
PLAYING: Final = 2
OVER: Final = 3
PHASE_TEXT: Final = ("setup", "marriage", "play", "over")


@mypyc_attr(native_class=False)
class CrushTheCrownAction(Action):
    """``pass``, or a word and a card: ``marry QD``, ``discard 3C``, ``give 2H``, ``extend 10D``,
    ``discover 8D``, ``spy QC``, ``fire 5S``. ``card`` is -1 for ``pass``, 52 for the joker."""

    __slots__ = ("card", "kind")

    kind: int
    card: int

    def __init__(self, id: int, text: str, kind: int, card: int = -1) -> None:
        super().__init__(id, text, kind=kind, card=card)


ActionTable = tuple[Action, ...]
"""Actions indexed by card (None where a card has none)."""


class CrushTheCrownTables:
    """What the state machine reads of its game on every step: the options as typed fields, the
    deck dealt from, and for each kind of action the action of each card, so that legal moves
    are a table look-up. The game builds it once (``game.tables``) and hands it to its states."""

    def __init__(
        self,
        actions: tuple[Action, ...] = (),
        use_jokers: bool = True,
        hand_size: int = 5,
        one_gov_card_per_build: bool = True,
        safety_cap: int = 400,
    ) -> None:
        self.use_jokers = use_jokers
        self.hand_size = hand_size
        self.one_gov_card_per_build = one_gov_card_per_build
        self.safety_cap = safety_cap
        # The Kings are set aside; the other 48 cards (50 with the jokers) are dealt from (CTC-2).
        # The two jokers are alike: both are card 52.
        jokers = (CARDS[JOKER], CARDS[JOKER]) if use_jokers else ()
        self.deck: tuple[int, ...] = (
            *(c for c in CARDS[:NUM_STANDARD_CARDS] if c.rank != KING),
            *jokers,
        )
        self.pass_action: Action = actions[0] if actions else Action(0, "pass")
        self.pass_only: tuple[Action, ...] = (self.pass_action,)
        by_kind: dict[int, list[Action | None]] = {
            kind: [None] * (UNKNOWN + 1)
            for kind in (MARRY, DISCARD, GIVE, EXTEND, DISCOVER, PLACE_SPY, FIRE_CARD)
        }
        for action in actions[1:]:
            assert isinstance(action, CrushTheCrownAction)
            by_kind[action.kind][action.card] = action
        self.marry_actions = cast(ActionTable, tuple(by_kind[MARRY]))
        self.discard_actions = cast(ActionTable, tuple(by_kind[DISCARD]))
        self.give_actions = cast(ActionTable, tuple(by_kind[GIVE]))
        self.extend_actions = cast(ActionTable, tuple(by_kind[EXTEND]))
        self.discover_actions = cast(ActionTable, tuple(by_kind[DISCOVER]))
        self.spy_actions = cast(ActionTable, tuple(by_kind[PLACE_SPY]))
        self.fire_actions = cast(ActionTable, tuple(by_kind[FIRE_CARD]))

    def __reduce__(self) -> tuple[Any, ...]:
        return (rebuild, (CrushTheCrownTables, (), fields_of(self)))
