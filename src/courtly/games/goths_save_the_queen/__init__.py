"""Goths Save the Queen (docs/rules/goths-save-the-queen.md)."""

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
