"""God Save The King (RULES.md §1)."""

from .game import GodSaveTheKing
from .heuristic import GodSaveTheKingHeuristic
from .rules import GodSaveTheKingAction, GodSaveTheKingState

__all__ = [
    "GodSaveTheKing",
    "GodSaveTheKingAction",
    "GodSaveTheKingHeuristic",
    "GodSaveTheKingState",
]
