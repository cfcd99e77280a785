"""The pieces of God Save The King (docs/rules/god-save-the-king.md): slots, actions and the
decisions they answer, the steps of a trick, the seats' Kings and letters, and the tables its
rules read on every step.
"""

from __future__ import annotations

from typing import Any, Final

from mypy_extensions import mypyc_attr

from ...core.actions import Action
from ...core.cards import CARDS, KING, Card
from ...core.events import CHANCE
from ...core.persist import fields_of, rebuild

LEFT: Final = 0
MIDDLE: Final = 1
RIGHT: Final = 2
SLOT_NAMES: Final = ("left", "middle", "right")
PUBLIC: Final = -1
"""The mask of a card everyone knows (every bit set, the spectator's included)."""

# Action kinds.
FORM: Final = 0
ROUTE: Final = 1
PASS: Final = 2
DECLARE: Final = 3
CHALLENGE: Final = 4

# What the seats in to_move are deciding.
D_NONE: Final = 0
D_FORM: Final = 1
D_ROUTE: Final = 2
D_DECLARE: Final = 3
D_CHALLENGE: Final = 4
DECISION_TEXT: Final = ("none", "formation", "route", "declaration", "challenge")

# The resolution steps of one trick (§5).
T_FORM: Final = 0
T_EARLY_ROUTE: Final = 1  # route_window = before_reveal: between T1 and T2
T_REVEAL: Final = 2
T_ROUTE: Final = 3  # route_window = after_skirmish (T4)
T_ROUTES: Final = 4  # resolving the routes declared, one by one in priority order
T_DECIDE: Final = 5
T_DECLARE: Final = 6
T_CHALLENGE: Final = 7
T_DONE: Final = 8

PUSH: Final = 2
"""The skirmish result of a trick that neither side won (one column each, or two draws)."""

# Why a card is being drawn from a hand.
DRAW_FOR_ROUTE: Final = 0
DRAW_FOR_CHALLENGE: Final = 1

PAST_TRICKS_KEPT: Final = 8
"""How many finished tricks the table remembers (the observation shows them; a copy of the state
costs the same at any point of the game)."""

RANK: Final = tuple(c.rank for c in CARDS[:52])
KING_OF: Final = tuple(CARDS[s * 13 + KING - 2] for s in range(4))
"""Each seat's King: the King of its starting suit (seat 0 spades, 1 hearts, 2 diamonds, 3 clubs)."""
KING_OWNER: Final = tuple(KING_OF.index(CARDS[i]) if CARDS[i] in KING_OF else -1 for i in range(52))
LETTERS: Final = "ABCD"
SCHEDULE_3: Final = ((0, 1), (1, 2), (2, 0))  # A-B, B-C, C-A (§7), by letter
ROUNDS_4: Final = (((0, 1), (2, 3)), ((1, 2), (3, 0)))  # {A-B, C-D}, {B-C, D-A} (GSK-26)

RANK_WORDS: Final = {"jack": 11, "queen": 12, "king": 13, "ace": 14}
"""The ranks people may spell out: ``declare Queen`` for ``declare q``."""

PastTrick = tuple[int, tuple[int, int], int, int, int, int]
"""A finished trick as the table remembers it: (hand number, its two seats, the seat that
collected it or -1, the two last declarations or 0, the challenge answer or -1)."""


@mypyc_attr(native_class=False)
class GodSaveTheKingAction(Action):
    """``form left 10S``, ``route``, ``route middle``, ``pass``, ``declare q``, ``challenge``."""

    __slots__ = ("card", "kind", "rank", "slot")

    kind: int
    slot: int
    card: Card | None
    rank: int

    def __init__(
        self, id: int, text: str, kind: int, slot: int = -1, card: Card | None = None, rank: int = 0
    ) -> None:
        super().__init__(id, text, kind=kind, slot=slot, card=card, rank=rank)


class GodSaveTheKingTables:
    """What the state machine reads of its game on every step: the options as typed fields and
    the legal choices of every decision, worked out once per game (``game.tables``) and handed
    to its states."""

    def __init__(
        self,
        num_players: int = 2,
        actions: tuple[Action, ...] = (),
        early_route: bool = False,
        max_redeclare: int = 0,
        routes_per_hand: int = 0,
        private_piles: bool = False,
        exposed_king_legal: bool = True,
        safety_cap: int = 0,
    ) -> None:
        self.early_route = early_route
        self.max_redeclare = max_redeclare
        self.routes_per_hand = routes_per_hand
        self.private_piles = private_piles
        self.exposed_king_legal = exposed_king_legal
        self.safety_cap = safety_cap
        if not actions:
            return  # a blank instance, filled in by unpickling
        size = 13 * num_players
        # form_actions[slot][card] -> the action placing that card there (cards of unused suits
        # never reach a hand; their entries are never read).
        self.form_actions: list[list[Action]] = []
        for slot in range(3):
            row: list[Action] = [actions[0]] * 52
            for i in range(size):
                row[i] = actions[slot * size + i]
            self.form_actions.append(row)
        # The history's events a playout appends at every step, made once: form_events[seat]
        # [slot][card] is (seat, the action placing that card there), draw_events[card] is
        # (CHANCE, card), the card drawn blindly from a hand.
        self.form_events: list[list[list[tuple[int, Action]]]] = [
            [[(seat, action) for action in row] for row in self.form_actions]
            for seat in range(num_players)
        ]
        self.draw_events: list[tuple[int, Card]] = [(CHANCE, card) for card in CARDS[:52]]
        base = 3 * size
        routes = 3 if early_route else 1
        self.route_legal: tuple[Action, ...] = actions[base : base + routes + 1]
        self.pass_action = actions[base + routes]
        self.declare_legal: tuple[Action, ...] = actions[base + routes + 1 : base + routes + 14]
        self.challenge_action = actions[base + routes + 14]
        self.challenge_legal: tuple[Action, ...] = (self.challenge_action, self.pass_action)

    def __reduce__(self) -> tuple[Any, ...]:
        return (rebuild, (GodSaveTheKingTables, (), fields_of(self)))
