"""Crush the Crown (RULES.md §2)."""

from .game import CrushTheCrown
from .heuristic import CrushTheCrownHeuristic
from .rules import CrushTheCrownState, CtcAction

__all__ = ["CrushTheCrown", "CrushTheCrownHeuristic", "CrushTheCrownState", "CtcAction"]
