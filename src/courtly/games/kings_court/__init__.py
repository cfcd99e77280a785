"""King's Court, for 2 to 4 players (docs/rules/kings-court.md).

The package, as every game's: ``game`` (its facts, options and actions), ``components`` (its
pieces and tables), ``rules`` (the state machine), ``views`` (what each seat sees), ``worlds``
(the worlds a seat cannot tell apart), ``text`` (what people read and type), ``rules_text``
(the rules summary), ``tensor`` (the observation as a vector) and ``heuristic`` (its bot).
"""

from .components import KingsCourtAction
from .game import KingsCourt
from .heuristic import KingsCourtHeuristic
from .rules import KingsCourtState

__all__ = ["KingsCourt", "KingsCourtAction", "KingsCourtHeuristic", "KingsCourtState"]
