"""King's Court (RULES.md §5)."""

from .game import KingsCourt
from .heuristic import KingsCourtHeuristic
from .rules import KingsCourtAction, KingsCourtState

__all__ = ["KingsCourt", "KingsCourtAction", "KingsCourtHeuristic", "KingsCourtState"]
