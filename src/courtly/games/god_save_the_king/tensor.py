"""God Save The King's observation as a fixed-size vector (the RL adapters' tensor)."""

from __future__ import annotations

from typing import Final

from ...core.cards import RANK_TEXT, SUIT_NAMES
from ...core.game import Game
from ...core.tensors import (
    CARD_SLOTS,
    Among,
    Cards,
    Choice,
    Each,
    Field,
    Flag,
    Listed,
    Number,
    Seats,
    TensorLayout,
    Within,
)
from .components import (
    DECISION_TEXT,
)

RANKS = tuple(RANK_TEXT[rank] for rank in range(2, 15))
CHALLENGES = ("accurate", "not accurate")


class Slot(Field):
    """A formation slot as the seat sees it (see ``views.slot_text``): a card face up, its own
    card face down (``[7H]``), another's face down, or emptied (``-``); nothing before it is
    filled."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.size = 2 * CARD_SLOTS + 2
        self.face_up = Cards(key)

    def write(self, out: list[float], at: int, value: object) -> None:
        if not isinstance(value, str):
            return
        if value == "face down":
            out[at + 2 * CARD_SLOTS] = 1.0
        elif value == "-":
            out[at + 2 * CARD_SLOTS + 1] = 1.0
        elif value.startswith("["):
            self.face_up.write(out, at + CARD_SLOTS, value.strip("[]"))
        else:
            self.face_up.write(out, at, value)

    def misses(self, value: object) -> list[str]:
        if not isinstance(value, str) or value in ("face down", "-"):
            return []
        return self.face_up.misses(value.strip("[]"))

    def meaning(self) -> str:
        return (
            f"the card face up ({CARD_SLOTS}), its own card face down ({CARD_SLOTS}), "
            "another's card face down, emptied"
        )


PAST_TRICKS: Final = 13
"""The most recent collected tricks kept (a hand has at most 13)."""


def tensor_layout(game: Game) -> TensorLayout:
    players = game.num_players
    seats = tuple(f"p{seat}" for seat in range(players))
    # GSK-29: the cap counts tricks, and a four-player round may end one trick past it; every
    # hand holds a trick, so the hands number at most one more than the tricks.
    tricks = float(game.options["safety_cap"]) + (1 if players == 4 else 0)
    return TensorLayout(
        Seats("seat", players),
        Number("hand_number", 5, high=tricks + 1),
        Number("tricks_played", 13, high=tricks),
        Choice("decision", (*DECISION_TEXT, "draw")),  # "draw": a card drawn by chance
        Seats("waiting_for", players),
        Choice("your_choice", ("pass", "route", *[f"declare {r.lower()}" for r in RANKS])),
        Each(
            "players",
            players,
            Flag("active"),
            Choice("suit", SUIT_NAMES),
            # A hand or a pile holds at most the deck (routes and challenges move cards).
            Number("hand_size", 26, high=52),
            Cards("hand"),
            Number("pile_size", 26, high=52),
            Cards("pile_face_up"),
            Cards("pile_known_to_you"),
            Number("pile_unseen", 26, high=52),
            # GSK-12: no more routes a hand than the option allows.
            Number("routes_used", 3, high=float(max(1, game.options["routes_per_hand"]))),
            Choice("label", ("A", "B", "C", "D")),
        ),
        Cards("your_hand"),
        Cards("removed_face_up"),
        Cards("removed_known_to_you"),
        Number("removed_face_down", 52),
        Number("current_trick", 2),
        Each(
            "tricks",
            2,
            Seats("players", players),
            Seats("priority", players),
            Each(
                "formations",
                2,
                Seats("seat", players),
                Number("placed", 3),
                Listed("slots", 3, Slot("slot")),
            ),
            # Each column's skirmish for the first side: won 1, even 0, lost -1.
            Listed("columns", 2, Among("column", (-1, 0, 1))),
            Listed("declarations", 2, Choice("declaration", RANKS)),
            Number("redeclared", 2),
            Choice("result", (*seats, "push")),
            Choice("challenge", CHALLENGES),
            Seats("collected_by", players),
            Flag("void"),
            Number("step", 8),
        ),
        Each(
            "past_tricks",
            PAST_TRICKS,
            Number("hand", 5, high=tricks + 1),
            Seats("players", players),
            Seats("collected_by", players),
            Listed("declarations", 2, Choice("declaration", RANKS)),
            Choice("challenge", CHALLENGES),
            latest=True,
        ),
        Within("drawing", Seats("from", players), Seats("to", players)),
        Seats("winners", players),
    )
