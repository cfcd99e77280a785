"""Crush the Crown's observation as a fixed-size vector (the RL adapters' tensor)."""

from __future__ import annotations

from ...core.cards import RANK_TEXT, SUIT_NAMES
from ...core.game import Game
from ...core.tensors import (
    Cards,
    Choice,
    Each,
    Flag,
    Number,
    Seats,
    TensorLayout,
    Words,
)
from .components import DECISION_TEXT

RANKS = tuple(RANK_TEXT[rank] for rank in range(2, 15))


def tensor_layout(game: Game) -> TensorLayout:
    players = game.num_players
    return TensorLayout(
        Seats("seat", players),
        Choice("phase", ("setup", "marriage", "play", "over")),
        Choice("decision", DECISION_TEXT),
        Seats("to_move", players),
        Seats("dealer", players),
        Seats("first_player", players),
        Seats("turn", players),
        Number("turns_played", float(game.options["safety_cap"])),
        Number("hand_size", 10, high=float(game.options["hand_size"])),
        Words("mercenary_suits", SUIT_NAMES),
        Cards("kings_aside"),
        Each(
            "governments",
            players,
            Choice("suit", SUIT_NAMES),
            Choice("next_needed", RANKS),
            Flag("complete"),
            Number("spies", 13),
            # A government's slots, in its order (2 up to the Ace, then the Queen and King).
            Each("slots", 13, Cards("card"), Choice("rank", RANKS), Flag("spy")),
        ),
        Each(
            "hands",
            players,
            Number("size", 40, high=50),  # §2: a hand holds at most the deck, Kings aside
            Cards("cards"),
            Cards("known"),
            Cards("known_to_rival"),
        ),
        Number("draw_pile", 50),
        Cards("discard_pile"),
        Cards("executed"),
        Number("tribute_owed", 13),
        Seats("winners", players),
        Flag("draw"),
    )
