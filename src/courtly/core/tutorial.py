"""A first game that teaches: the learner against the game's bots, on a prepared deal, with each
of the learner's first decisions explained in plain words.

A game declares its tutorial in its :class:`~courtly.core.game.GameInfo` (``tutorial``): the
player count and options, the bots that sit with the learner (the learner is seat 0), the first
chance outcomes (the deal that sets up instructive decisions) and how many decisions are
coached. The words come from the game's text (:meth:`GameText.coach
<courtly.core.game.GameText.coach>`), worked out from the position as it stands, so they stay
true whatever the learner plays; once the prepared outcomes are used up, chance is drawn as in
any game. How a tutorial is played (its chance, its lessons' words) is in
:mod:`courtly.core.lessons`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .events import CHANCE
from .options import OptionValue


@dataclass(frozen=True)
class Tutorial:
    """How a game teaches itself (see the module)."""

    players: int
    opponents: tuple[str, ...]
    """The bot of each seat after the learner's (seat 0), as seat specs (``heuristic``)."""
    deal: tuple[str, ...]
    """The first chance outcomes, as their texts, in the order the game draws them."""
    options: Mapping[str, OptionValue] = field(default_factory=dict)
    lessons: int = 6
    """How many of the learner's decisions are explained."""
    learner: int = 0

    def __post_init__(self) -> None:
        if len(self.opponents) != self.players - 1:
            raise ValueError("a tutorial names one bot for every seat but the learner's")


def prepared_outcome(tutorial: Tutorial, history: list[tuple[int, Any]]) -> str | None:
    """The prepared outcome, as text, of the chance event due after ``history`` (None once the
    prepared deal is used up)."""
    drawn = sum(1 for actor, _ in history if actor == CHANCE)
    return tutorial.deal[drawn] if drawn < len(tutorial.deal) else None


def lesson_number(tutorial: Tutorial, history: list[tuple[int, Any]]) -> int | None:
    """Which of the learner's decisions is due after ``history`` (1 for the first), or None
    once the lessons are over."""
    made = sum(1 for actor, _ in history if actor == tutorial.learner)
    return made + 1 if made < tutorial.lessons else None
