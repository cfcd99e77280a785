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
    return TensorLayout(
        Seats("seat", players),
        Number("target_score", 50),
        Choice("phase", ("normal", "final", "tiebreak", "over")),
        Number("hand", 20),
        Seats("start_player", players),
        Seats("turn", players),
        Seats("to_move", players),
        Choice("decision", ("hit-or-stay", "give-7", "jack-target")),
        Each(
            "players",
            players,
            Number("total", target),
            Choice("status", ("active", "stayed", "bust", "out")),
            Cards("row"),
            Number("row_score", target),
            Number("banked", target),
        ),
        Cards("set_aside"),
        Number("deck_size", 52),
        SeatNumbers("forced_flips", players, 3),
        Seats("favorites", players),
        Seats("winners", players),
    )
