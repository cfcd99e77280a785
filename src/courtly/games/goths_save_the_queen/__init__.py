"""Goths Save the Queen (RULES.md §4)."""

from .components import GothsAction
from .game import GothsSaveTheQueen
from .heuristic import GothsHeuristic
from .rules import GothsState

__all__ = ["GothsAction", "GothsHeuristic", "GothsSaveTheQueen", "GothsState"]
