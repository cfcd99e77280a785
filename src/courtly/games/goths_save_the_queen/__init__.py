"""Goths Save the Queen (RULES.md §4)."""

from .components import GothsSaveTheQueenAction
from .game import GothsSaveTheQueen
from .heuristic import GothsSaveTheQueenHeuristic
from .rules import GothsSaveTheQueenState

__all__ = [
    "GothsSaveTheQueen",
    "GothsSaveTheQueenAction",
    "GothsSaveTheQueenHeuristic",
    "GothsSaveTheQueenState",
]
