"""What several ``courtly`` commands share: their one-line errors, the options they have in
common, a game and its seats built from those options, output files checked before any work,
the progress bar, a game at the terminal (a bot's thinking shown, the game kept with --save or
left unfinished) for ``play`` and ``learn``, and the end of a game told the same way by
``play``, ``learn`` and ``replay``."""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.text import Text
from typer.core import TyperGroup

from ..agents.registry import parse_seats
from ..agents.terminal import thinking
from ..core.actions import Action, parse_seat, seat_text
from ..core.errors import CourtlyError, InvalidOptions
from ..core.game import Agent, Game, State, View
from ..core.options import options_text, parse_option_assignments
from ..core.records import MatchRecord, RecordWriter
from ..core.registry import game_class, make
from ..sim.backends import BACKENDS

# ------------------------------------------------------------------------------------ errors

_CLICK_ERROR: type[Exception] = next(
    kind for kind in typer.BadParameter.__mro__ if kind.__name__ == "ClickException"
)
"""The base of the command-line parser's own errors (a missing argument, an option that is not
an integer), wherever Typer keeps it."""


def error(message: str) -> None:
    """One plain line on stderr (no Rich wrapping: scripts and people read it whole)."""
    typer.echo(f"error: {message}", err=True)


class OneLineErrors(TyperGroup):
    """The parser's own errors as one ``error: ...`` line with exit status 2, like Courtly's,
    instead of a usage text and a framed panel."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        standalone = kwargs.get("standalone_mode", True)
        kwargs["standalone_mode"] = False
        if not standalone:
            return super().main(*args, **kwargs)
        try:
            # Not standalone: errors are raised here, and an exit status is returned.
            status = super().main(*args, **kwargs)
        except _CLICK_ERROR as failure:
            if type(failure).__name__ != "NoArgsIsHelpError":  # the help is printed already
                error(failure.format_message())  # type: ignore[attr-defined]
            sys.exit(getattr(failure, "exit_code", 2))
        except typer.Abort:
            error("aborted")
            sys.exit(1)
        sys.exit(status if isinstance(status, int) else 0)


@contextmanager
def clear_errors() -> Iterator[None]:
    """Turn Courtly's errors into one line on stderr and exit code 2 (no traceback)."""
    try:
        yield
    except CourtlyError as failure:
        error(str(failure))
        raise typer.Exit(2) from None
    except OSError as failure:
        error(f"{failure.strerror or failure}: {failure.filename or ''}".rstrip(": "))
        raise typer.Exit(2) from None


# --------------------------------------------------------------------------- common options

GameArg = Annotated[str, typer.Argument(help="Game id, e.g. royal-gambit (see `courtly games`).")]
PlayersArg = Annotated[
    int | None, typer.Option(help="Number of players (default: the number of seats).")
]
OptionsArg = Annotated[
    list[str] | None,
    typer.Option(
        "--option", "-o", help="A game option as name=value (repeatable), e.g. -o target_score=40."
    ),
]
SaveArg = Annotated[
    Path | None,
    typer.Option(help="Append the finished game to this JSONL file, for `courtly replay`."),
]
BackendArg = Annotated[
    str,
    typer.Option(
        "--backend",
        help=f"Where the games are played: {' or '.join(BACKENDS)} (a Ray cluster, or a local "
        "Ray started for the run: pip install 'courtly[cluster]').",
    ),
]
AddressArg = Annotated[
    str | None,
    typer.Option(
        help="The Ray cluster's address (ray://host:10001, or auto), with --backend ray; "
        "without it a local Ray is started with --workers CPUs."
    ),
]


# ------------------------------------------------------------------------- games and seats


def make_game(game_id: str, players: int | None, option: list[str] | None) -> Game:
    """The game from its id, --players and the -o name=value options."""
    options = parse_option_assignments(option or [])
    return make(game_id, players=players, **options)


def recommended_variant(
    game_id: str, players: int, option: list[str] | None, as_written: bool
) -> tuple[list[str], str | None]:
    """The -o options with Courtly's recommended variant at this player count added (unless
    ``as_written``, or the options already set one of its keys: the person chose), and what to
    tell the person about it (None where the game recommends nothing at this count)."""
    variant = game_class(game_id).info.recommended.get(players)
    given = list(option or [])
    if variant is None:
        return given, None
    chosen = parse_option_assignments(given)
    flag = f"-o {options_text(variant.options)}"
    if any(name in chosen for name in variant.options):
        return given, None
    if as_written:
        return (
            given,
            f"{variant.reason} You chose the rules as written ({flag} plays {variant.name}).",
        )
    note = (
        f"Courtly's variant: {variant.name} ({flag}). {variant.reason} "
        "--as-written plays the sheet's rules."
    )
    return given + options_text(variant.options).split(), note


def seats_for(
    game_id: str, seats: str | None, players: int | None, default_first: str
) -> tuple[list[str], int]:
    """The seat specs and player count from --seats and --players (either may be missing)."""
    info = game_class(game_id).info
    if seats is None:
        count = players or info.default_players
        return [default_first] + [info.default_bot] * (count - 1), count
    specs = parse_seats(seats)
    if players is not None and players != len(specs):
        raise InvalidOptions(
            f"--players {players} but {len(specs)} seats given ({seats}); give one agent per seat"
        )
    return specs, len(specs)


def is_human(spec: str) -> bool:
    """Whether a seat spec (``human`` or ``heuristic:caution=0.5``) seats a person."""
    return spec.split(":")[0].lower() == "human"


def seat_number(text: str, players: int) -> int:
    """The seat given as --seat (``p1``), refused with the game's seats if there is none."""
    try:
        return parse_seat(text, players)
    except ValueError as failure:
        raise InvalidOptions(f"--seat {failure}") from None


# ---------------------------------------------------------------------------- output files


def check_writable(path: Path, flag: str) -> None:
    """Refuse, before any work, an output path that cannot be written (without touching it)."""
    if path.is_dir():
        raise InvalidOptions(f"{flag} {path} is a folder; name a file")
    folder = path.parent
    if not folder.is_dir():
        raise InvalidOptions(f"{flag} {path}: the folder {folder} does not exist")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise InvalidOptions(f"{flag} {path}: no permission to write there")


def record_writer(path: Path, mode: str, flag: str) -> RecordWriter:
    """The writer of ``path``'s records, opened now: a path that cannot be written is refused
    before the first game, not after it."""
    check_writable(path, flag)
    try:
        return RecordWriter(path, mode)
    except OSError as failure:
        raise InvalidOptions(
            f"{flag} {path}: cannot write there ({failure.strerror or failure})"
        ) from None


# ------------------------------------------------------------------------- a game at the terminal

ABANDONED = 3
"""The exit status of a game at the terminal left before its end (quit, end of input, Ctrl-C);
0 is a game played to its end, 2 bad input, as for every command."""


class ShownThinking:
    """A bot whose slow moves show: ``p1 (ismcts) is thinking…`` beside a spinner while it takes
    more than a moment, gone once it has moved (nothing when the output is not a terminal)."""

    def __init__(self, agent: Agent, console: Console, who: str) -> None:
        self.agent = agent
        self.console = console
        self.who = who

    def act(self, view: View, rng: random.Random) -> Action:
        with thinking(self.console, f"{self.who} is thinking…"):
            return self.agent.act(view, rng)


class Saving:
    """Where --save keeps a game played at the terminal: its file is opened (or refused) before
    the game starts, the record appended once the game is over, and a file this game created
    removed again if the game is left with nothing saved."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.new_file = path is not None and not path.exists()
        self.writer = record_writer(path, "a", "--save") if path is not None else None

    def abandon(self) -> None:
        """The game was left unfinished: nothing is saved, and no empty file left behind."""
        if self.writer is None or self.path is None:
            return
        self.writer.close()
        if self.new_file and self.path.stat().st_size == 0:
            self.path.unlink()

    def keep(self, record: MatchRecord) -> None:
        """Append the finished game (an error here is one line, exit status 2)."""
        if self.writer is None:
            return
        with clear_errors():
            self.writer.write(record)
            self.writer.close()

    def tell(self, console: Console) -> None:
        """Where the game was saved and how to watch it again (nothing without --save)."""
        if self.path is not None:
            console.print(
                f"Saved to {self.path}; watch it again with: courtly replay {self.path}",
                soft_wrap=True,
                markup=False,
            )


def print_typing_help(console: Console, hints: bool) -> None:
    """The line that tells a person at the terminal what they may type at their prompt."""
    console.print(
        "[dim]Type a number or an action; ? lists the moves, "
        + ("hint suggests one, " if hints else "")
        + "help shows the rules, quit leaves.[/]"
    )


def abandoned(console: Console, saving: Saving) -> typer.Exit:
    """Leave a game before its end: nothing saved, a goodbye, and the exit to raise
    (:data:`ABANDONED`)."""
    saving.abandon()
    console.print("\nGame abandoned. Goodbye.")
    return typer.Exit(ABANDONED)


# -------------------------------------------------------------------------------- printing


def progress_bar() -> Progress:
    """The progress bar of a long command, on stderr (so stdout stays the command's output),
    gone when done."""
    return Progress(
        TextColumn("[progress.description]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )


def print_end(console: Console, final: State, specs: Sequence[str]) -> None:
    """The end of a game: its one summary (the table with every hidden card revealed, from
    nobody's side) and who won, with their agents."""
    console.print()
    console.print(final.render(None), markup=False)
    console.print(Text(_result_line(final.game, final.winners, specs), style="bold"))
    if final.truncated:
        # How the cap decided the game is the game's own rule (RG-26, GSK-29, CTC-26, GOTH-26,
        # KC-18): its outcome's reason says it, as the browser's end panel does.
        cap = final.game.options.get("safety_cap")
        reason = final.game.text.outcome(final).reason.strip()
        reason = reason[:1].upper() + reason[1:]
        console.print(
            f"The game was cut off at its safety cap (safety_cap = {cap}), not ended by its "
            f"rules. {reason}{'' if reason.endswith(('.', '!', '?')) else '.'}",
            markup=False,
        )


def _result_line(game: Game, winners: tuple[int, ...], specs: Sequence[str]) -> str:
    """``Winner: p1 (heuristic)``, ``Winner: Ostrogoths, p0 (human) and p2 (heuristic)`` or
    ``Shared win: p0 (random) and p1 (heuristic)``."""

    def named(seats: Sequence[int]) -> str:
        names = [f"{seat_text(s)} ({specs[s]})" if s < len(specs) else seat_text(s) for s in seats]
        return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"

    if not winners:
        return "Nobody won."
    for team, seats in game.teams().items():
        if seats and set(seats) == set(winners):
            return f"Winner: {team}, {named(seats)}"
    return f"Winner: {named(winners)}" if len(winners) == 1 else f"Shared win: {named(winners)}"
