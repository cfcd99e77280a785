"""Royal Gambit's observation as a fixed-size vector (the RL adapters' tensor)."""

from __future__ import annotations

from ...core.game import Game
from ...core.tensors import (
    Cards,
    Choice,
    Each,
    Number,
    SeatNumbers,
    Seats,
    TensorLayout,
)


def tensor_layout(game: Game) -> TensorLayout:
    players = game.num_players
    target = float(game.options["target_score"])
    hands = float(game.options["safety_cap"])  # RG-26: no more hands than the cap
    row_top = 30.0  # RG-15: a row scores A-5 once each (15 points), doubled by a King
    return TensorLayout(
        Seats("seat", players),
        Number("target_score", 50, high=target),
        Choice("phase", ("normal", "final", "tiebreak", "over")),
        Number("hand", 20, high=hands),
        Seats("start_player", players),
        Seats("turn", players),
        Seats("to_move", players),
        Choice("decision", ("hit-or-stay", "give-7", "jack-target")),
        Each(
            "players",
            players,
            Number("total", target, high=row_top * hands),
            Choice("status", ("active", "stayed", "bust", "out")),
            Cards("row"),
            Number("row_score", target, high=row_top),
            Number("banked", target, high=row_top),
        ),
        Cards("set_aside"),
        Number("deck_size", 52),
        SeatNumbers("forced_flips", players, 3),
        Seats("favorites", players),
        Seats("winners", players),
    )
