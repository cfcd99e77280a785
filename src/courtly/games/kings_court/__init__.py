"""King's Court (RULES.md §5)."""

from .components import KingsCourtAction
from .game import KingsCourt
from .heuristic import KingsCourtHeuristic
from .rules import KingsCourtState

__all__ = ["KingsCourt", "KingsCourtAction", "KingsCourtHeuristic", "KingsCourtState"]
