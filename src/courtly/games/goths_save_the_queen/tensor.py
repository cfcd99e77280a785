"""Goths Save the Queen's observation as a fixed-size vector (the RL adapters' tensor)."""

from __future__ import annotations

import itertools

from ...core.game import Game
from ...core.tensors import (
    Choice,
    Each,
    Flag,
    Listed,
    Number,
    Seats,
    TensorLayout,
    Within,
    Words,
)
from .components import (
    CELL_NAMES,
    CHARACTER_LETTERS,
    CHARACTER_NAMES,
    CLAN_KEYS,
    FOG_NAMES,
    FOG_STATE_NAMES,
    KING_CARD_NAMES,
    OBJECTIVE_NAMES,
    ORDER_WORDS,
)

CHARACTERS = tuple(name.lower() for name in CHARACTER_NAMES)
ORDERS = ORDER_WORDS[1:]
# A King card's back shows two characters, always in V R C B order.
BACKS = tuple(f"{a}/{b}" for a, b in itertools.combinations(CHARACTER_LETTERS, 2))
ROLES = ("king", "warchief", "solo")
PHASES = ("setup", "kings", "orders", "recon", "advance", "barricade", "over")


def _king_card(key: str) -> Within:
    return Within(
        key, Choice("card", KING_CARD_NAMES), Choice("character", CHARACTERS), Choice("back", BACKS)
    )


def _revealed(clan: str) -> Within:
    return Within(
        clan,
        Choice("king_card", KING_CARD_NAMES),
        Choice("character", CHARACTERS),
        Choice("order", ORDERS),
        Flag("success"),
    )


def tensor_layout(game: Game) -> TensorLayout:
    players = game.num_players
    safety_cap = float(game.options["safety_cap"])
    last_turn = safety_cap + 1  # the turn counter reads one past the cap once the cap ends it
    return TensorLayout(
        Seats("seat", players),
        Choice("clan", CLAN_KEYS),
        Choice("role", ROLES),
        Each("seats", players, Choice("clan", CLAN_KEYS), Choice("role", ROLES)),
        Number("turn", safety_cap, high=last_turn),
        Choice("initiative", CLAN_KEYS),
        Choice("phase", PHASES),
        Seats("waiting_for", players),
        Each(
            "board",
            len(CELL_NAMES),
            Flag("barricade"),
            Choice("army", CLAN_KEYS),
            Choice("objective", OBJECTIVE_NAMES),
            Flag("revealed"),
        ),
        Each(
            "clans",
            2,
            Flag("solo"),
            Seats("king", players),
            Seats("warchief", players),
            Choice("position", CELL_NAMES),
            Number("army", 3),
            Number("reserve", 3),
            Choice("catapult", ("active", "inactive")),
            Words("king_cards_face_up", KING_CARD_NAMES),
            Choice("king_card_face_down_back", BACKS),
            Number("king_hand_size", 8),
            Flag("order_given"),
            Listed("objectives_looked_at", 3, Number("slot", 2)),
            Choice("solo_last_character", CHARACTERS),
            Within(
                "fog",
                Choice("state", FOG_STATE_NAMES),
                Choice("token", FOG_NAMES),
                Flag("peeked"),
            ),
        ),
        Within(
            "mine",
            Each(
                "hand",
                8,
                Choice("card", KING_CARD_NAMES),
                Choice("character", CHARACTERS),
                Choice("back", BACKS),
            ),
            _king_card("face_down"),
            Choice("order", ORDERS),
            Within(
                "reconnaissance",
                *[Choice(f"objective {slot}", OBJECTIVE_NAMES) for slot in range(3)],
            ),
            Choice("fog_token", FOG_NAMES),
        ),
        Within(
            "last_reveal",
            Number("turn", safety_cap, high=last_turn),
            *[_revealed(clan) for clan in CLAN_KEYS],
        ),
        Choice("winner", (*CLAN_KEYS, "draw")),
    )
