"""The uniformly random agent: the baseline every bot is measured against."""

from __future__ import annotations

import random

from ..core.actions import Action
from ..core.game import Game, View


class RandomAgent:
    """Picks one of the legal actions uniformly at random."""

    def __init__(self, game: Game | None = None) -> None:
        pass

    def act(self, view: View, rng: random.Random) -> Action:
        return rng.choice(view.legal_actions())
