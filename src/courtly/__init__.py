"""Courtly: five royal card games to play, study and train AI on.

>>> import courtly
>>> [g.id for g in courtly.games()]  # doctest: +ELLIPSIS
['royal-gambit'...]
>>> game = courtly.make("royal-gambit", players=3, target_score=40)
>>> state = game.new_state()
"""

from . import _compiled

_compiled.choose()  # before any module that may run compiled is imported

from . import games as _games  # noqa: E402, F401  (registers every game)
from .core import (  # noqa: E402
    CHANCE,
    Action,
    Agent,
    Card,
    CourtlyError,
    Game,
    GameInfo,
    GameLength,
    IllegalAction,
    InvalidOptions,
    MatchRecord,
    ReplayError,
    State,
    View,
    games,
    load,
    make,
    play_match,
    replay,
    sample_chance,
)

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "Action",
    "Agent",
    "Card",
    "CourtlyError",
    "Game",
    "GameInfo",
    "GameLength",
    "IllegalAction",
    "InvalidOptions",
    "MatchRecord",
    "ReplayError",
    "State",
    "View",
    "__version__",
    "games",
    "load",
    "make",
    "play_match",
    "replay",
    "sample_chance",
]
