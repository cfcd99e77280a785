"""The pieces of Royal Gambit: its deck and card values, the words of its phases and
decisions, its actions, and the tables its rules read on every step.

Every name here is data the state machine (:mod:`.rules`), its views, its text and its bot
share; nothing here changes during a game.
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from ...core.actions import Action
from ...core.cards import ACE, CARDS, KING, QUEEN, Card
from ...core.persist import fields_of, rebuild

# Seat status within the current hand.
OUT: Final = 0  # not a participant of this hand (a favorite in the final hand, say)
ACTIVE: Final = 1  # still in the hand (RG-5)
STAYED: Final = 2
BUSTED: Final = 3
STATUS_TEXT: Final = ("out", "active", "stayed", "bust")

# Phases of the game (docs/rules/royal-gambit.md §2).
NORMAL: Final = 0
FINAL: Final = 1
TIEBREAK: Final = 2
OVER: Final = 3
PHASE_TEXT: Final = ("normal", "final", "tiebreak", "over")

# What the seat to move is deciding.
HIT_OR_STAY: Final = 0
GIVE_SEVEN: Final = 1
JACK_TARGET: Final = 2
DECISION_TEXT: Final = ("hit-or-stay", "give-7", "jack-target")

# What the pending chance event is.
START_PLAYER: Final = 0
DRAW: Final = 1

HIT_ID: Final = 0
"""The id of ``hit`` (``stay`` is 1): the game builds them first."""

DECK: Final[tuple[Card, ...]] = CARDS[:52]
RANK: Final = tuple(c.rank for c in DECK)
POINTS: Final = tuple(1 if r == ACE else r if 2 <= r <= 5 else 0 for r in RANK)
"""Ace 1, 2-5 face value, every other rank 0 (RG-4)."""
FULL_RANK_COUNTS: Final = [4 if 2 <= r <= 14 else 0 for r in range(15)]
QUEEN_BIT: Final = 1 << QUEEN
KING_BIT: Final = 1 << KING
SEVEN_BIT: Final = 1 << 7
TEN_BIT: Final = 1 << 10


@mypyc_attr(native_class=False)
class RoyalGambitAction(Action):
    """``hit``, ``stay``, ``give-7 p2`` or ``jack p2`` (the Jack's target)."""

    __slots__ = ("decision", "target")

    decision: int
    target: int

    def __init__(self, id: int, text: str, decision: int, target: int = -1) -> None:
        super().__init__(id, text, decision=decision, target=target)


class RoyalGambitTables:
    """What the state machine reads of its game on every step: the options and the action
    tables, in a class of this (compiled) module, so that each read is a typed field rather than
    a look-up in the game object's dictionary. The game builds it once (``game.tables``)."""

    def __init__(
        self,
        num_players: int = 0,
        actions: tuple[Action, ...] = (),
        target_score: int = 0,
        full_turn: bool = False,
        ten_blocks_jacks: bool = False,
        auto_hit_on_zero: bool = False,
        favorites_at_or_above_target: bool = False,
        safety_cap: int = 0,
    ) -> None:
        n = num_players
        self.target_score = target_score
        self.full_turn = full_turn
        self.ten_blocks_jacks = ten_blocks_jacks
        self.auto_hit_on_zero = auto_hit_on_zero
        self.favorites_at_or_above_target = favorites_at_or_above_target
        self.safety_cap = safety_cap
        self.hit_or_stay: tuple[Action, ...] = tuple(actions[:2])
        self.hit_only: tuple[Action, ...] = tuple(actions[:1])
        self.give_seven: tuple[Action, ...] = actions[2 : 2 + n]
        self.jack_at: tuple[Action, ...] = actions[2 + n : 2 + 2 * n]
        self.seat_alone: tuple[tuple[int, ...], ...] = tuple((s,) for s in range(n))
        """``(seat,)``: ``to_move`` when one seat decides."""
        self.everyone: tuple[int, ...] = tuple(range(n))
        self.seats_after: tuple[tuple[int, ...], ...] = tuple(
            tuple((s + step) % n for step in range(1, n + 1)) for s in range(n)
        )
        """The seats after each seat, clockwise, ending with the seat itself."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (rebuild, (RoyalGambitTables, (), fields_of(self)))
