"""``courtly rules``: a game's rules summary, as the game itself declares it, laid out to the
terminal's width."""

from __future__ import annotations

from rich.console import Console

from ..agents.terminal import reflow
from ..core.registry import game_class
from .shared import GameArg, clear_errors


def rules_command(game: GameArg) -> None:
    """Print a game's rules summary, with how Courtly settles the rule sheet's gaps."""
    with clear_errors():
        info = game_class(game).info
    console = Console()
    console.print(reflow(info.rules_text(), console.width), markup=False, highlight=False)
