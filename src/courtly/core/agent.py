"""What an agent is: anything that, handed a seat's view and an RNG, picks an action."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from .actions import Action

if TYPE_CHECKING:
    from .game import View


@runtime_checkable
class Agent(Protocol):
    """``act`` gets the deciding seat's :class:`~courtly.core.game.View` and nothing else."""

    def act(self, view: View, rng: random.Random) -> Action: ...
