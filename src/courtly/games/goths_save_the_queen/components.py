"""The components of Goths Save the Queen (docs/rules/goths-save-the-queen.md §1) as small
numbers, with their names.

Clans, roles, characters, Warchief orders, King cards and their backs, the Objective cards, the
Fog of War tokens and the board line; the action type and the two chance outcomes. The state
machine (:mod:`.rules`), the views (:mod:`.views`) and the text (:mod:`.text`) all read them here.

Board cells are numbered along the line: 0 O-Forest, 1 O-Plains1, 2 O-Plains2, 3-5 the
Objectives 0-2, 6 V-Plains2, 7 V-Plains1, 8 V-Forest.
"""

from __future__ import annotations

import functools
import itertools
from typing import Any, Final

from mypy_extensions import mypyc_attr

from ...core.actions import Action, seat_text
from ...core.persist import fields_of, rebuild

# ----------------------------------------------------------------------------- clans and roles

OSTROGOTHS: Final = 0
VISIGOTHS: Final = 1
CLAN_NAMES: Final = ("Ostrogoths", "Visigoths")
CLAN_ADJECTIVES: Final = ("Ostrogoth", "Visigoth")
CLAN_KEYS: Final = ("ostrogoths", "visigoths")
CLAN_LETTERS: Final = ("O", "V")

KING: Final = 0
WARCHIEF: Final = 1
SOLO: Final = 2
ROLE_NAMES: Final = ("King", "Warchief", "solo chief")
ROLE_KEYS: Final = ("king", "warchief", "solo")

# ----------------------------------------------------------------------------- characters, orders

VULTURE: Final = 0
RECRUITER: Final = 1
CATAPULT: Final = 2
BARBARIAN: Final = 3
CHARACTER_NAMES: Final = ("Vulture", "Recruiter", "Catapult", "Barbarian")
CHARACTER_LETTERS: Final = "VRCB"

# Warchief orders: the number is the resolution order (GOTH-2, GOTH-25).
RECON: Final = 1
SABOTAGE: Final = 2
RECRUIT: Final = 3
LOAD: Final = 4
FIRE: Final = 5
BARRICADE: Final = 6
ADVANCE: Final = 7
AXE: Final = 8
RATS: Final = 9
ORDER_WORDS: Final = (
    "",
    "recon",
    "sabotage",
    "recruit",
    "load",
    "fire",
    "barricade",
    "advance",
    "axe",
    "rats",
)
ORDER_CHARACTER: Final = (-1, VULTURE, VULTURE, RECRUITER, CATAPULT, CATAPULT) + (BARBARIAN,) * 4
"""The character each order needs (GOTH-2), indexed by order number."""

# ----------------------------------------------------------------------------- King cards

# Two per character (§1); ids 0-7 are V1 V2 R1 R2 C1 C2 B1 B2.
KING_CARD_NAMES: Final = ("v1", "v2", "r1", "r2", "c1", "c2", "b1", "b2")
FRONT: Final = (VULTURE, VULTURE, RECRUITER, RECRUITER, CATAPULT, CATAPULT, BARBARIAN, BARBARIAN)
"""The character on each King card's front."""
ALL_KING_CARDS: Final = 0xFF
"""A King's eight cards, a bit per card (hands and face-up sets are such masks)."""
CYCLE_DECOYS: Final = (
    RECRUITER,  # V1 back V/R
    BARBARIAN,  # V2 back V/B
    VULTURE,  # R1 back R/V
    CATAPULT,  # R2 back R/C
    RECRUITER,  # C1 back C/R
    BARBARIAN,  # C2 back C/B
    CATAPULT,  # B1 back B/C
    VULTURE,  # B2 back B/V
)
"""GOTH-1: the back of each King card shows its character and this decoy (the 4-cycle table)."""

FACE_UP_CHARACTERS: Final = tuple(
    sum(1 << character for character in {FRONT[card] for card in range(8) if cards >> card & 1})
    for cards in range(256)
)
"""The characters (a bit per character) shown by a set of King cards (a bit per card)."""

# ----------------------------------------------------------------------------- Objectives, Fog

TRAP: Final = 0
PLAINS: Final = 1
QUEEN: Final = 2
OBJECTIVE_NAMES: Final = ("trap", "plains", "queen")
OBJECTIVE_PERMUTATIONS: Final = tuple(itertools.permutations(range(3)))
"""Every order of the three Objective cards, Objective 0 first: the chance outcomes of setup."""

PEA_SOUP: Final = 0
REDUCED_NUMBERS: Final = 1
BOAR_SHORTAGE: Final = 2
GUSTS: Final = 3
FOG_NAMES: Final = ("pea-soup", "reduced-numbers", "boar-shortage", "gusts")
FOG_TITLES: Final = ("Pea soup", "Reduced numbers", "Boar shortage", "Gusts")
FOG_EFFECTS: Final = (
    "reconnaissance does nothing",
    "recruiting does nothing",
    "the catapult cannot be loaded",
    "axes do nothing",
)
FOG_PAIRS: Final = tuple(itertools.permutations(range(4), 2))
"""Every (Ostrogoth token, Visigoth token) draw of the Fog variant (§2)."""
FOG_HIDDEN: Final = 0
FOG_REVEALED: Final = 1
FOG_DISCARDED: Final = 2
FOG_STATE_NAMES: Final = ("hidden", "revealed", "discarded")

NONE: Final = -1
UNKNOWN: Final = -2
"""In a redacted copy: a thing that exists (a card, a token, an order) that the seat does not
know."""

# ----------------------------------------------------------------------------- the board line

OBJECTIVE_BASE: Final = 3
"""The cell of Objective 0."""
CLAN_CELLS: Final = ((0, 1, 2), (8, 7, 6))
"""Each clan's Forest, Plains1, Plains2 (P2 borders the Objectives)."""
FORWARD: Final = (1, -1)
FOREST_CELLS: Final = (0, 8)
CELL_NAMES: Final = (
    "O-Forest",
    "O-Plains1",
    "O-Plains2",
    "Objective 0",
    "Objective 1",
    "Objective 2",
    "V-Plains2",
    "V-Plains1",
    "V-Forest",
)
ARMY_SIZE: Final = 3
"""The figurines of a clan: on the board or in reserve."""

# ----------------------------------------------------------------------------- the game's course

# Phases.
SETUP_OBJECTIVES: Final = 0
SETUP_FOG: Final = 1
KINGS: Final = 2
ORDERS: Final = 3
SUB_CHOICE: Final = 4
OVER: Final = 5

# Sub-choices during the resolution (GOTH-5).
CHOOSE_RECON: Final = 1
CHOOSE_ENTRY: Final = 2
CHOOSE_BARRICADE: Final = 3
CHOICE_KEYS: Final = ("", "recon", "advance", "barricade")

DRAW: Final = 2
"""The ``winner`` of a game stopped by the safety cap."""

# ----------------------------------------------------------------------------- actions, outcomes

# Action kinds.
KING_CARD: Final = 0
ORDER: Final = 1
LOOK: Final = 2
ENTER: Final = 3
BUILD_OR_DISCARD: Final = 4
LOOK_FOG: Final = 3
"""The ``value`` of ``look fog`` (0-2 are the Objectives)."""
BUILD: Final = 0
DISCARD_FOG: Final = 1
"""The ``value`` of ``build-barricade`` and ``discard-fog``."""


@mypyc_attr(native_class=False)
class GothsSaveTheQueenAction(Action):
    """A King card (``b1``), an order (``advance``) or a sub-choice (``enter obj2``, ``look fog``,
    ``build-barricade``, ``discard-fog``)."""

    __slots__ = ("kind", "value")

    kind: int
    value: int

    def __init__(self, id: int, text: str, kind: int, value: int) -> None:
        super().__init__(id, text, kind=kind, value=value)


@mypyc_attr(native_class=False)
class ObjectiveOrder(int):
    """A chance outcome: the order of the three Objective cards, written ``trap,queen,plains``."""

    __slots__ = ()

    def __str__(self) -> str:
        return ",".join(OBJECTIVE_NAMES[kind] for kind in OBJECTIVE_PERMUTATIONS[self])

    def __repr__(self) -> str:
        return f"ObjectiveOrder({self})"


@mypyc_attr(native_class=False)
class FogDraw(int):
    """A chance outcome: the Ostrogoth and the Visigoth Fog tokens, written ``pea-soup,gusts``."""

    __slots__ = ()

    def __str__(self) -> str:
        ostrogoth, visigoth = FOG_PAIRS[self]
        return f"{FOG_NAMES[ostrogoth]},{FOG_NAMES[visigoth]}"

    def __repr__(self) -> str:
        return f"FogDraw({self})"


OBJECTIVE_ORDERS: Final = tuple(
    ObjectiveOrder(index) for index in range(len(OBJECTIVE_PERMUTATIONS))
)
FOG_DRAWS: Final = tuple(FogDraw(index) for index in range(len(FOG_PAIRS)))


def cards_of(cards: int) -> list[int]:
    """The King cards of a mask (a bit per card), in V1 .. B2 order."""
    return [card for card in range(8) if cards >> card & 1]


def back_text(back: int) -> str:
    """The two characters of a King card's back (a bit per character), ``V/R``: always in V R C B
    order, since the two cards that share a back must look alike."""
    return "/".join(CHARACTER_LETTERS[character] for character in range(4) if back >> character & 1)


@functools.cache
def _cards_behind(back_of: tuple[int, ...]) -> dict[int, tuple[tuple[int, ...], ...]]:
    """For each back, indexed by a King's face-up cards (a bit per card): the cards with that
    back not face up. Worked out once per table of backs, not per game."""
    return {
        back: tuple(
            tuple(card for card in range(8) if back_of[card] == back and not face_up >> card & 1)
            for face_up in range(256)
        )
        for back in set(back_of)
    }


class GothsSaveTheQueenTables:
    """What the state machine reads of its game on every step: the seats of the clans, the King
    cards' backs, the options as typed fields, and the legal choices of every decision worked
    out once (the state machine hands them out without building a list). The game builds it
    once (``game.tables``) and hands it to its states.

    Seats: the Kings (or solo chiefs) in clan order, then the Warchiefs in clan order.
    """

    def __init__(
        self,
        num_players: int = 4,
        actions: tuple[Action, ...] = (),
        solo: tuple[bool, bool] = (False, False),
        decoys: tuple[int, ...] = CYCLE_DECOYS,
        fog_of_war: bool = False,
        barricade_on_trap_objective: bool = True,
        trap_every_entry: bool = True,
        fog_discard_requires_same_card: bool = False,
        safety_cap: int = 300,
        first_initiative: int = OSTROGOTHS,
    ) -> None:
        self.fog_of_war = fog_of_war
        self.barricade_on_trap_objective = barricade_on_trap_objective
        self.trap_every_entry = trap_every_entry
        self.fog_discard_requires_same_card = fog_discard_requires_same_card
        self.safety_cap = safety_cap
        self.first_initiative = first_initiative
        """The clan holding the initiative on turn 1 (GOTH-7; GOTH-27 may give it to the
        Visigoths)."""
        # The seats.
        self.solo = solo
        roles: list[tuple[int, int]] = []
        for clan in (OSTROGOTHS, VISIGOTHS):
            roles.append((clan, SOLO if solo[clan] else KING))
        for clan in (OSTROGOTHS, VISIGOTHS):
            if not solo[clan]:
                roles.append((clan, WARCHIEF))
        self.clan_of: tuple[int, ...] = tuple(clan for clan, _ in roles)
        self.role_of: tuple[int, ...] = tuple(role for _, role in roles)
        self.king_seat: tuple[int, int] = (
            roles.index((OSTROGOTHS, KING)) if not solo[OSTROGOTHS] else -1,
            roles.index((VISIGOTHS, KING)) if not solo[VISIGOTHS] else -1,
        )
        self.warchief_seat: tuple[int, int] = (
            roles.index((OSTROGOTHS, SOLO if solo[OSTROGOTHS] else WARCHIEF)),
            roles.index((VISIGOTHS, SOLO if solo[VISIGOTHS] else WARCHIEF)),
        )
        seats = range(num_players)
        self.clan_seats: tuple[tuple[int, ...], tuple[int, ...]] = (
            tuple(seat for seat in seats if self.clan_of[seat] == OSTROGOTHS),
            tuple(seat for seat in seats if self.clan_of[seat] == VISIGOTHS),
        )
        self.order_givers: tuple[int, ...] = tuple(sorted(self.warchief_seat))
        """The seats that give orders at once: to move at every turn's orders."""
        # The King cards' backs.
        self.back_of: tuple[int, ...] = tuple(
            (1 << FRONT[card]) | (1 << decoys[card]) for card in range(8)
        )
        """The back of each King card: a bit per character it shows."""
        self.cards_with_back: dict[int, tuple[int, ...]] = {}
        for card, back in enumerate(self.back_of):
            self.cards_with_back[back] = (*self.cards_with_back.get(back, ()), card)
        self.cards_behind = _cards_behind(self.back_of)
        """The cards that may lie face down with a back, by the King's face-up cards (a bit per
        card): those with that back that are not face up."""
        # The choices of every decision.
        if not actions:
            return  # a blank instance, filled in by unpickling
        self.king_cards: tuple[Action, ...] = actions[0:8]
        self.order_actions: tuple[Action, ...] = (actions[8], *actions[8:17])
        """Indexed by order number (index 0 unused)."""
        self.king_card_choices: tuple[tuple[Action, ...], ...] = tuple(
            tuple(actions[card] for card in range(8) if hand >> card & 1) for hand in range(256)
        )
        """The King cards of each hand (a bit per card)."""
        self.warchief_orders: tuple[Action, ...] = actions[8:17]
        self.solo_order_choices: tuple[tuple[Action, ...], ...] = tuple(
            tuple(actions[7 + order] for order in range(1, 10) if ORDER_CHARACTER[order] != last)
            for last in (-1, VULTURE, RECRUITER, CATAPULT, BARBARIAN)
        )
        """A solo chief's orders after last turn's character (index: character + 1; GOTH-23)."""
        self.recon_choices: tuple[tuple[Action, ...], tuple[Action, ...]] = (
            actions[17:20],
            actions[17:21],
        )
        """What a reconnaissance may look at: the Objectives, and the own hidden Fog token."""
        self.entry_choices: tuple[tuple[Action, ...], ...] = tuple(
            tuple(actions[21 + slot] for slot in range(3) if free >> slot & 1) for free in range(8)
        )
        """The Objectives an advance may enter (a bit per free Objective)."""
        self.barricade_choices: tuple[Action, ...] = (actions[24], actions[25])

    def seat_title(self, seat: int) -> str:
        """``Ostrogoth King``, ``Visigoth Warchief``, ``Visigoth solo chief``."""
        return f"{CLAN_ADJECTIVES[self.clan_of[seat]]} {ROLE_NAMES[self.role_of[seat]]}"

    def seat_names(self) -> list[str]:
        """``p0 Ostrogoth King`` for every seat."""
        return [f"{seat_text(seat)} {self.seat_title(seat)}" for seat in range(len(self.clan_of))]

    def __reduce__(self) -> tuple[Any, ...]:
        return (rebuild, (GothsSaveTheQueenTables, (), fields_of(self)))
