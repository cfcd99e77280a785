"""God Save The King (RULES.md §1)."""

from .components import GodSaveTheKingAction
from .game import GodSaveTheKing
from .heuristic import GodSaveTheKingHeuristic
from .rules import GodSaveTheKingState

__all__ = [
    "GodSaveTheKing",
    "GodSaveTheKingAction",
    "GodSaveTheKingHeuristic",
    "GodSaveTheKingState",
]
