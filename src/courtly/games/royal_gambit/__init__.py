"""Royal Gambit (RULES.md §3)."""

from .game import RoyalGambit
from .heuristic import RoyalGambitHeuristic
from .rules import RoyalGambitAction, RoyalGambitState, row_score

__all__ = [
    "RoyalGambit",
    "RoyalGambitAction",
    "RoyalGambitHeuristic",
    "RoyalGambitState",
    "row_score",
]
