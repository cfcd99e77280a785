"""Crush the Crown, for 2 players (docs/rules/crush-the-crown.md).

The package, as every game's: ``game`` (its facts, options and actions), ``components`` (its
pieces and tables), ``rules`` (the state machine), ``views`` (what each seat sees), ``worlds``
(the worlds a seat cannot tell apart), ``text`` (what people read and type), ``rules_text``
(the rules summary), ``tensor`` (the observation as a vector) and ``heuristic`` (its bot).
"""

from .components import CrushTheCrownAction
from .game import CrushTheCrown
from .heuristic import CrushTheCrownHeuristic
from .rules import CrushTheCrownState

__all__ = ["CrushTheCrown", "CrushTheCrownAction", "CrushTheCrownHeuristic", "CrushTheCrownState"]
