"""King's Court's observation as a fixed-size vector (the RL adapters' tensor)."""

from __future__ import annotations

from ...core.game import Game
from ...core.tensors import Cards, Choice, Each, Number, Seats, TensorLayout


def tensor_layout(game: Game) -> TensorLayout:
    players = game.num_players
    track = float(game.options["track_length"])
    # A reshuffle comes before a draw, a chance event: no more than the game's chance events.
    reshuffles = float(game.longest_game().chance)
    return TensorLayout(
        Seats("seat", players),
        Number("track_length", 30, high=track),
        Choice("phase", ("start", "play", "draw", "borrow", "over")),
        Seats("start_player", players),
        Seats("turn", players),
        Seats("to_move", players),
        Number("turns_played", float(game.options["safety_cap"])),
        Seats("queen_target", players),
        Seats("moved_back", players),
        Each(
            "players",
            players,
            Choice("suit", ("S", "H", "D", "C")),
            Number("position", track),
            Number("hand_size", 10, high=52),  # a hand holds at most the deck
            Cards("hand"),
            Cards("known_cards"),
            Cards("knows_of_mine"),
        ),
        Number("draw_pile_size", 52),
        Cards("discard_pile"),
        Cards("removed"),
        Number("reshuffles", 10, high=reshuffles),
        Seats("winners", players),
    )
