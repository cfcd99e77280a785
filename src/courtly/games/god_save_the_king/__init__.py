"""God Save The King (docs/rules/god-save-the-king.md)."""

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
