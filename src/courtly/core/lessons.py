"""A tutorial played: the chance it draws and the words of its lessons.

Every front end that plays a tutorial (the server's tutorial tables, ``courtly learn``) draws its
chance with :func:`chance_outcome` and words its lessons with :func:`lesson_words`, so a learner
meets the same deal and reads the same words in the browser and at the terminal. What a tutorial
is lives in :mod:`courtly.core.tutorial`, which the game contract names; this module reads states
and views of that contract.
"""

from __future__ import annotations

import random
from typing import Any

from .errors import IllegalAction
from .game import State, View
from .tutorial import Tutorial, prepared_outcome


def chance_outcome(state: State, tutorial: Tutorial | None, rng: random.Random) -> Any:
    """The outcome of the chance event due in ``state``: ``tutorial``'s prepared one while its
    deal lasts, else one drawn with ``rng``. A prepared outcome that is not possible here is
    drawn instead: the game goes on with a random one rather than stop."""
    if tutorial is not None:
        text = prepared_outcome(tutorial, state.history)
        if text is not None:
            try:
                return state.game.text.parse_chance(state, text)
            except IllegalAction:
                pass
    return state.sample_chance_outcome(rng)


def lesson_words(view: View) -> str | None:
    """The game's words (``GameText.coach``) for the decision ``view``'s seat faces, worked out
    on a world drawn from that view alone, so they cannot tell the seat more than it knows; the
    same world, and words, every time for the same view."""
    if view.seat is None:
        return None
    world = view.determinize(random.Random(f"courtly-lesson/{view.version}"))
    return view.game.text.coach(world, view.seat)
