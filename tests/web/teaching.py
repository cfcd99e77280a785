"""The tutorials the tests teach: every registered game that declares one, and, while Royal
Gambit declares none of its own, a small sample one for it (a prepared deal and a coach that
reads only the public length of the history), so that the tutorial tables are tested before the
games' own tutorials exist and with them, unchanged, once they do.

:func:`install` puts the sample in place in this process; :data:`SERVE` is a server command that
does the same in a ``courtly serve`` process (the browser tests' server).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from courtly.core.game import GameText, State
from courtly.core.registry import game_class, games
from courtly.core.tutorial import Tutorial

SAMPLE_GAME = "royal-gambit"
SAMPLE = Tutorial(
    players=2,
    opponents=("heuristic",),
    # The learner starts; then the first cards drawn, in order.
    deal=("p0", "5H", "8C", "3D", "QS"),
    lessons=3,
)


def sample_coach(_text: GameText, state: State, seat: int) -> str | None:
    """Words that follow from what every seat knows (how many events the game has had), with a
    card and a rule id in them, as a game's coach writes them."""
    if seat not in state.to_move or state.is_terminal:
        return None
    return (
        f"After {len(state.history)} events: a hit may draw a card like 5H; "
        "staying banks what you hold (RG-3)."
    )


def install(assign: Callable[[Any, str, Any], None] = setattr) -> None:
    """The sample tutorial on Royal Gambit, unless the game teaches its own; ``assign`` sets
    each attribute (a test's ``monkeypatch.setattr`` undoes it afterwards)."""
    game = game_class(SAMPLE_GAME)
    if game.info.tutorial is not None:
        return
    assign(type(game.info.text), "coach", sample_coach)
    assign(game, "info", dataclasses.replace(game.info, tutorial=SAMPLE))


def taught() -> list[str]:
    """The ids of the games with a tutorial (after :func:`install`)."""
    return [info.id for info in games() if info.tutorial is not None]


SERVE = (
    "-c",
    f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import teaching; "
    "teaching.install(); from courtly.cli import main; sys.exit(main())",
)
"""The command line (after the interpreter) of a ``courtly serve`` that teaches the sample."""
