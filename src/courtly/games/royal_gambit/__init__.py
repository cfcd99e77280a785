"""Royal Gambit, for 2 to 5 players (docs/rules/royal-gambit.md).

The package, as every game's: ``game`` (its facts, options and actions), ``components`` (its
pieces and tables), ``rules`` (the state machine), ``views`` (what each seat sees), ``text``
(what people read and type), ``rules_text`` (the rules summary), ``tensor`` (the observation
as a vector) and ``heuristic`` (its bot).
"""

from .components import RoyalGambitAction
from .game import RoyalGambit
from .heuristic import RoyalGambitHeuristic
from .rules import RoyalGambitState, row_score

__all__ = [
    "RoyalGambit",
    "RoyalGambitAction",
    "RoyalGambitHeuristic",
    "RoyalGambitState",
    "row_score",
]
