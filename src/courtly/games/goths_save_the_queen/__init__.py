"""Goths Save the Queen (RULES.md §4)."""

from .game import GothsSaveTheQueen
from .heuristic import GothsHeuristic
from .rules import GothsAction, GothsState

__all__ = ["GothsAction", "GothsHeuristic", "GothsSaveTheQueen", "GothsState"]
