"""The ``courtly`` command: list games, read rules, play in the terminal, learn a game there,
simulate, rank bots, replay, analyze a game's balance, review a recorded game, serve Courtly
online.

Every command works for every registered game through the engine contract; nothing here knows
a game's rules. Bad input (an unknown game, option, player count or agent, a corrupt record)
prints one line naming what is allowed and exits with code 2.

Each command is a module of its own, named after it (``play.py`` holds ``courtly play``): its
Typer function, ``<name>_command``, and the printing only it does. What several commands share
(the one-line errors, the common options, a game and its seats built from them, output files
checked before any work, the progress bar, the end of a game) is in ``shared.py``. A new command
is a new module and one entry in ``COMMANDS`` below, which also sets its place in
``courtly --help``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

import typer

from . import analyze, games, ladder, learn, play, replay, review, rules, serve, simulate
from .shared import OneLineErrors

COMMANDS: dict[str, Callable[..., None]] = {
    "games": games.games_command,
    "rules": rules.rules_command,
    "play": play.play_command,
    "learn": learn.learn_command,
    "simulate": simulate.simulate_command,
    "ladder": ladder.ladder_command,
    "replay": replay.replay_command,
    "analyze": analyze.analyze_command,
    "review": review.review_command,
    "serve": serve.serve_command,
}
"""Every command by its name, in the order ``courtly --help`` lists them."""

app = typer.Typer(
    name="courtly",
    help="Play, study and train AI on five royal card games.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    cls=OneLineErrors,
)
for name, command in COMMANDS.items():
    app.command(name)(command)


def main() -> None:
    """Entry point of the ``courtly`` console script."""
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)
